// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dispatcher's one logging function: syslog, stderr or both, with
 * every record-derived text made safe for a log line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <selinux/selinux.h>

#include "dispatch-core.h"
#include "output/escape.h"

/* ---- logging ---------------------------------------------------------------- */

static AdLogTarget ad_log_target = AD_LOG_SYSLOG;

void ad_dispatch_log_set_target(AdLogTarget t)
{
	ad_log_target = t;
}

char *ad_dispatch_clean_text(const char *s)
{
	if (!s)
		return g_strdup("");
	if (ad_bytes_are_clean(s, strlen(s)))
		return g_strdup(s);
	return ad_escape_str(s);
}

void ad_dispatch_log(int priority, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	g_autofree char *clean = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	/* texts from records may be in @msg: never a control byte in a log line */
	clean = ad_dispatch_clean_text(msg);
	if (ad_log_target != AD_LOG_STDERR)
		syslog(priority, "%s", clean);
	if (ad_log_target != AD_LOG_SYSLOG) {
		fflush(stdout);
		fprintf(stderr, "avcdoctor-dispatch: %s\n", clean);
	}
}
