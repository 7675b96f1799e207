/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include <gio/gio.h>
#include <json-c/json.h>

#include "alert-doc.h"
#include "pipeline.h"

G_BEGIN_DECLS

/*
 * setroubleshoot's daemon interface (org.fedoraproject.SetroubleshootdIface),
 * answered from the dispatcher's store on the connection of its own
 * service, for setroubleshoot's clients: Cockpit's SELinux page, seapplet.
 * The interface is data/org.fedoraproject.SetroubleshootdIface.xml,
 * compiled in as a GResource.
 */

/* the introspection data of the interface; borrowed */
GDBusInterfaceInfo *ad_setroubleshoot_interface_info(void);

/* is @name a boolean of the policy in use? */
typedef gboolean (*AdBooleanCheck)(const char *name, gpointer user_data);

/*
 * The do_text of suggestion @index of a stored alert (its JSON object: the
 * suggestion has "commands" and, for commands that are not valid UTF-8,
 * "commands_hex"), in
 * setroubleshoot's layout as Cockpit shows it: a single command is the text
 * itself; of several, each is a line "# COMMAND" (Cockpit shows such lines
 * as commands, others as prose).  Commands are quoted for a POSIX shell; one
 * that cannot be shown exactly on one line (bytes that are not UTF-8,
 * control characters) is a prose line with its escaped form, which starts
 * with neither '#' nor "setsebool".  Cockpit runs a do_text that starts
 * with "setsebool" in a root shell by itself, so such a text is kept only
 * when it is exactly one setsebool command whose arguments are "-P" and
 * booleans of the policy (@is_boolean) set to 0/1/on/off/true/false; any
 * other do_text that would start with "setsebool" gets "# " in front.
 * @ret_fixable: what ad_fix_one_click() says, the rule avcdoctor-fixit
 * applies (run_fix) too.
 */
char *ad_setroubleshoot_do_text(const AdAlertDoc *alert, guint index, AdBooleanCheck is_boolean,
				gpointer user_data, gboolean *ret_fixable);

/*
 * get_alert's reply, (ssiasa(ssssbbi)tts), of a stored alert (the JSON
 * object of ad_store_get) whose local id is @local_id: one analysis per
 * suggestion, in the stored order, analysis_id its index ("0", "1", ...).
 * Its raw records are kept while they make at most AD_DISPATCH_MAX_ALERT
 * bytes; a last line then says how many more there were.
 */
GVariant *ad_setroubleshoot_alert_reply(const AdAlertDoc *alert, const char *local_id,
					AdBooleanCheck is_boolean, gpointer user_data);

/* an alert as setroubleshoot lists it: its document and its local id (ID-NUM[.GEN]) */
typedef struct {
	AdAlertDoc *doc;
	char *local_id;
} AdSetroubleshootListed;

void ad_setroubleshoot_listed_free(gpointer p);

/*
 * get_all_alerts' reply, (a(ssi)), of @alerts (AdSetroubleshootListed,
 * oldest sighting first): the newest
 * that fit in @budget bytes of marshalled data, in their order; the
 * number left out in @ret_left_out (the reply's type has no room to say
 * it).
 */
GVariant *ad_setroubleshoot_alerts_reply(GPtrArray *alerts, gsize budget, guint *ret_left_out);

/*
 * What the interface uses of the service that registers it: the
 * dispatcher, and whether a caller may use the alerts (its uid in
 * @ret_uid, or FALSE with @error).  A narrow struct, so that this file
 * does not include the service's header, which includes this one.
 */
typedef struct {
	AdDispatch *d;
	gboolean (*authorise)(gpointer owner, GDBusConnection *c, const char *sender,
			      gint64 *ret_uid, GError **error);
	gpointer owner;
} AdSetroubleshootHost;

/*
 * The methods, for g_dbus_connection_register_object at
 * AD_SETROUBLESHOOTD_PATH; user_data is an AdSetroubleshootHost.
 */
extern const GDBusInterfaceVTable ad_setroubleshoot_vtable;

/* the signal alert(level, local_id) of a new or changed alert @id, on @c */
void ad_setroubleshoot_emit_alert(GDBusConnection *c, AdDispatch *d, const char *id,
				  const char *level);

G_END_DECLS
