/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gio/gio.h>
#include <sys/types.h>

#include "alerts-client.h"
#include "bus-reply.h"
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

/* is setroubleshoot's name owned? */
gboolean ad_dbus_service_owns_setroubleshootd(AdDbusService *s);

/* ListAlerts' reply, (as), of @texts (oldest first) within @budget bytes of marshalled data */
GVariant *ad_dbus_texts_reply(GPtrArray *texts, gsize budget, guint *ret_left_out);


G_END_DECLS
