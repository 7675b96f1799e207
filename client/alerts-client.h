/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What every party of org.avcdoctor.Alerts1 shares: the names on the bus,
 * spelled once, and the errors the service sends.  The dispatcher answers
 * with these names; avcdoctor list/show/..., the notifier and the browser
 * receive them as AD_ALERTS_ERROR codes.  The interface itself is
 * data/org.avcdoctor.Alerts1.xml, from which gdbus-codegen generates the
 * proxies (alerts1-generated.h, AdAlerts1).
 */
#include <gio/gio.h>

G_BEGIN_DECLS

#define AD_DBUS_NAME "org.avcdoctor.Daemon"
#define AD_DBUS_PATH "/org/avcdoctor/Daemon"
#define AD_DBUS_INTERFACE "org.avcdoctor.Alerts1"

/*
 * setroubleshoot's daemon interface, which the dispatcher answers on the
 * same connection for setroubleshoot's clients (Cockpit, seapplet):
 * data/org.fedoraproject.SetroubleshootdIface.xml.
 */
#define AD_SETROUBLESHOOTD_NAME "org.fedoraproject.Setroubleshootd"
#define AD_SETROUBLESHOOTD_PATH "/org/fedoraproject/Setroubleshootd"
#define AD_SETROUBLESHOOTD_INTERFACE "org.fedoraproject.SetroubleshootdIface"

typedef enum {
	AD_ALERTS_ERROR_NOT_FOUND,	/* no alert with that id */
	AD_ALERTS_ERROR_INVALID_ARGS,	/* a malformed id or filter */
	AD_ALERTS_ERROR_ACCESS_DENIED,	/* not root nor of the admin group */
	AD_ALERTS_ERROR_NOT_SUPPORTED,	/* the dispatcher keeps no store */
	AD_ALERTS_ERROR_FAILED,		/* anything else; the message says what */
	AD_ALERTS_N_ERRORS
} AdAlertsError;

/*
 * The error domain, registered with GDBus under the names the service
 * sends (org.avcdoctor.Error.NotFound, ...): a client's call that fails
 * with one of them gives an error of this domain and code.
 */
#define AD_ALERTS_ERROR (ad_alerts_error_quark())
GQuark ad_alerts_error_quark(void);

/* the D-Bus error name of @code ("org.avcdoctor.Error.NotFound") */
const char *ad_alerts_error_name(AdAlertsError code);

G_END_DECLS
