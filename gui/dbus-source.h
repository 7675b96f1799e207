/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gio/gio.h>

#include "alerts-client.h"

G_BEGIN_DECLS


/*
 * AdDbusSource: the daemon's alerts, from org.avcdoctor.Alerts1 on the
 * system bus.  Everything is asynchronous; the results come as signals:
 *
 *   "listed" (GStrv alerts)      the whole list (ListAlerts, ignored included)
 *   "changed" (char *alert)      one alert's JSON (GetAlert): after AlertAdded,
 *                                AlertUpdated, a filter change, or fetch
 *   "removed" (char *id)         DeleteAlert succeeded
 *   "status" (gboolean running, char *message)
 *                                the daemon came or went, or a call failed:
 *                                @message is for the user (NULL when all is well)
 *
 * Floods of AlertAdded/AlertUpdated are coalesced: each id is fetched once
 * per quarter second.
 */
#define AD_TYPE_DBUS_SOURCE (ad_dbus_source_get_type())
G_DECLARE_FINAL_TYPE(AdDbusSource, ad_dbus_source, AD, DBUS_SOURCE, GObject)

AdDbusSource *ad_dbus_source_new(void);
/* connects and watches the daemon: "listed" follows when it is there */
void ad_dbus_source_start(AdDbusSource *s);
gboolean ad_dbus_source_is_running(AdDbusSource *s);
void ad_dbus_source_refresh(AdDbusSource *s);
void ad_dbus_source_fetch(AdDbusSource *s, const char *id);
/* SetFilter "always" (ignore) or "never" (unignore), then fetches the alert */
void ad_dbus_source_set_ignored(AdDbusSource *s, const char *id, gboolean ignored);
void ad_dbus_source_delete(AdDbusSource *s, const char *id);

G_END_DECLS
