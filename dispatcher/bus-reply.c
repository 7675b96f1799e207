// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What both of the dispatcher's D-Bus interfaces (dbus-service.c, its own;
 * setroubleshoot.c, setroubleshoot's) answer alike: the D-Bus error name of
 * an error, an error reply, and a reply that keeps the newest alerts that
 * fit in a D-Bus message.  Below both, so neither needs the other for it.
 */
#include "config.h"

#include <syslog.h>

#include <glib/gi18n.h>

#include "alerts-client.h"
#include "bus-reply.h"
#include "dispatch-config.h"
#include "escape.h"
#include "log.h"
#include "store.h"

const char *ad_dbus_error_name(const GError *error)
{
	if (error->domain == AD_STORE_ERROR) {
		switch (error->code) {
		case AD_STORE_ERROR_NOT_FOUND:
			return ad_alerts_error_name(AD_ALERTS_ERROR_NOT_FOUND);
		case AD_STORE_ERROR_INVALID:
			return ad_alerts_error_name(AD_ALERTS_ERROR_INVALID_ARGS);
		default:
			return ad_alerts_error_name(AD_ALERTS_ERROR_FAILED);
		}
	}
	if (error->domain == AD_DISPATCH_ERROR) {
		switch (error->code) {
		case AD_DISPATCH_ERROR_ACCESS:
			return ad_alerts_error_name(AD_ALERTS_ERROR_ACCESS_DENIED);
		case AD_DISPATCH_ERROR_NO_STORE:
			return ad_alerts_error_name(AD_ALERTS_ERROR_NOT_SUPPORTED);
		default:
			return ad_alerts_error_name(AD_ALERTS_ERROR_FAILED);
		}
	}
	return ad_alerts_error_name(AD_ALERTS_ERROR_FAILED);
}

void ad_dbus_return_error(GDBusMethodInvocation *inv, const GError *error)
{
	g_autofree char *msg = ad_text_shown(error->message);

	g_dbus_method_invocation_return_dbus_error(inv, ad_dbus_error_name(error), msg);
}

void ad_dbus_log_left_out(const char *method, guint n)
{
	static AdLogLimit limit = { .interval_us = 60 * G_USEC_PER_SEC };
	static GMutex lock;

	if (!n)
		return;
	g_mutex_lock(&lock);
	ad_dispatch_log_limited(&limit, g_get_monotonic_time(), LOG_WARNING,
				ngettext("%s: %u older alert left out of the reply, which would "
					 "not fit in a D-Bus message",
					 "%s: %u older alerts left out of the reply, which would "
					 "not fit in a D-Bus message", n), method, n);
	g_mutex_unlock(&lock);
}

guint ad_dbus_newest_that_fit(const gsize *sizes, guint n, gsize budget, gboolean *keep)
{
	guint left_out = 0;

	/* newest first: an alert too large is left out, older smaller ones may still fit */
	for (guint i = n; i-- > 0;) {
		keep[i] = sizes[i] <= budget;
		if (keep[i])
			budget -= sizes[i];
		else
			left_out++;
	}
	return left_out;
}
