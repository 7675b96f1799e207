/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gio/gio.h>
#include <sys/types.h>

#include "alerts-client.h"
#include "pipeline.h"

G_BEGIN_DECLS

/*
 * The introspection data of org.avcdoctor.Alerts1: data/org.avcdoctor.Alerts1.xml
 * compiled into the program as a GResource at build time (the XML in the
 * repository is the one contract; nothing is written twice).  Borrowed.
 */
GDBusNodeInfo *ad_dbus_node_info(void);

/*
 * The D-Bus face of a dispatcher: org.avcdoctor.Daemon on the system (or
 * session) bus.  It connects, and reconnects every few seconds when the
 * bus is not there (auditd starts before dbus at boot) or went away.
 * Method calls run in the dispatcher's thread.
 */
typedef struct _AdDbusService AdDbusService;

AdDbusService *ad_dbus_service_new(AdDispatch *d, AdBusKind bus);
void ad_dbus_service_free(AdDbusService *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdDbusService, ad_dbus_service_free)

/* connects now (logging why not) and keeps trying later; FALSE when not connected yet */
gboolean ad_dbus_service_start(AdDbusService *s);
/* exports on @connection and owns the name there (the tests) */
gboolean ad_dbus_service_export(AdDbusService *s, GDBusConnection *connection,
				GError **error);
GDBusConnection *ad_dbus_service_connection(AdDbusService *s);	/* borrowed, or NULL */
gboolean ad_dbus_service_owns_name(AdDbusService *s);

/*
 * May @uid read and change alerts?  Root, the dispatcher's own uid (a
 * session bus is its owner's), or a member of @admin_group (primary or
 * supplementary).  The bus policy says the same; this is checked in
 * code too, so a looser bus policy does not open the service.
 */
gboolean ad_dbus_uid_is_admin(uid_t uid, const char *admin_group);

/*
 * For the other interface of the connection (setroubleshoot.c): may the
 * caller @sender use the alerts?  Its uid in @ret_uid, or FALSE with
 * @error.  Then the dispatcher served, an answer with the D-Bus error
 * name of a GError, and whether setroubleshoot's name is owned.
 */
gboolean ad_dbus_service_authorise(AdDbusService *s, GDBusConnection *c, const char *sender,
				   gint64 *ret_uid, GError **error);
AdDispatch *ad_dbus_service_dispatch(AdDbusService *s);
void ad_dbus_service_return_error(GDBusMethodInvocation *inv, const GError *error);
gboolean ad_dbus_service_owns_setroubleshootd(AdDbusService *s);

/*
 * Which of @n items (oldest first) a reply of at most @budget bytes keeps
 * when item i takes @sizes[i] bytes: the newest first, an item too large
 * for what is left skipped; @keep[i] set for each.  The number left out.
 */
guint ad_dbus_newest_that_fit(const gsize *sizes, guint n, gsize budget, gboolean *keep);
/* ListAlerts' reply, (as), of @texts (oldest first) within @budget bytes of marshalled data */
GVariant *ad_dbus_texts_reply(GPtrArray *texts, gsize budget, guint *ret_left_out);
/* logs (at most once a minute) that @method's reply left @n alerts out; nothing for 0 */
void ad_dbus_log_left_out(const char *method, guint n);

/* the D-Bus error name of a GError of the store or the dispatcher */
const char *ad_dbus_error_name(const GError *error);

G_END_DECLS
