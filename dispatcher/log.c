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

#include "log.h"
#include "escape.h"

/* ---- logging ---------------------------------------------------------------- */

static AdLogTarget ad_log_target = AD_LOG_SYSLOG;

void ad_dispatch_log_set_target(AdLogTarget t)
{
	ad_log_target = t;
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
	clean = ad_text_shown(msg);
	if (ad_log_target != AD_LOG_STDERR)
		syslog(priority, "%s", clean);
	if (ad_log_target != AD_LOG_SYSLOG) {
		fflush(stdout);
		fprintf(stderr, "avcdoctor-dispatch: %s\n", clean);
	}
}

void ad_dispatch_log_limited(AdLogLimit *l, gint64 now_us, int priority, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (l->logged_us && now_us - l->logged_us < l->interval_us) {
		l->held++;
		g_free(l->last_held);
		l->last_held = g_steal_pointer(&msg);
		return;
	}
	if (l->held)
		ad_dispatch_log(priority,
				ngettext("%s (%" PRIu64 " more like it since the last one, not logged)",
					 "%s (%" PRIu64 " more like it since the last one, not logged)",
					 l->held),
				msg, l->held);
	else
		ad_dispatch_log(priority, "%s", msg);
	l->logged_us = now_us ? now_us : 1;
	l->held = 0;
	g_clear_pointer(&l->last_held, g_free);
}

void ad_dispatch_log_limit_flush(AdLogLimit *l, int priority)
{
	if (l->held)
		ad_dispatch_log(priority,
				ngettext("%s (%" PRIu64 " time since the last one logged)",
					 "%s (%" PRIu64 " times since the last one logged)", l->held),
				l->last_held, l->held);
	l->held = 0;
	g_clear_pointer(&l->last_held, g_free);
}
