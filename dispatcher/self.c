// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dispatcher's own denials, which never become alerts (no feedback
 * loop): its pid, its executable in its own domain, and what dbus-daemon
 * reports for it.
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

#include "self.h"
#include "escape.h"

/* ---- our own denials ------------------------------------------------------------ */

void ad_self_init(AdSelf *s)
{
	char *con = NULL;
	const char *host = g_get_host_name();
	const char *dot = strchr(host, '.');

	memset(s, 0, sizeof(*s));
	s->pid = getpid();
	s->exe = g_file_read_link("/proc/self/exe", NULL);
	if (is_selinux_enabled() > 0 && getcon(&con) == 0) {
		s->context = g_strdup(con);
		freecon(con);
	}
	s->hostname = g_strdup(host);
	s->short_hostname = dot ? g_strndup(host, dot - host) : g_strdup(host);
}

void ad_self_clear(AdSelf *s)
{
	g_clear_pointer(&s->exe, g_free);
	g_clear_pointer(&s->context, g_free);
	g_clear_pointer(&s->hostname, g_free);
	g_clear_pointer(&s->short_hostname, g_free);
}

gboolean ad_self_is_own_denial(const AdSelf *s, const AdDenial *d)
{
	const char *node = ad_denial_node(d);

	/* on a collector, a remote host's process with our pid is not us */
	if (node && *node && g_strcmp0(node, s->hostname) != 0 &&
	    g_strcmp0(node, s->short_hostname) != 0)
		return FALSE;
	if (d->pid >= 0 && d->pid == s->pid)
		return TRUE;
	/*
	 * dbus-daemon denying our signals: its USER_AVC names us as spid.  Only
	 * in a dbus record with nothing planted: there no caller-chosen text can
	 * hold a space or "=" (member and interface names cannot), while
	 * another object manager's record may quote a command line.
	 */
	if (d->type == AD_DENIAL_USER_AVC && d->record && !d->suspect &&
	    g_strcmp0(d->tclass, "dbus") == 0) {
		const char *spid = ad_record_get_last(d->record, "spid");

		if (spid && g_ascii_strtoll(spid, NULL, 10) == s->pid)
			return TRUE;
	}
	if (s->exe && ad_bytes_equal_str(d->exe, s->exe))
		return !s->context || g_strcmp0(d->scontext, s->context) == 0;
	return FALSE;
}
