/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AD_ALERT_TEXT_H
#define AD_ALERT_TEXT_H

#include <glib.h>
#include <json-c/json.h>

/*
 * The text of an alert, rendered from its JSON object (the `analyze --json`
 * keys, plus "host_counts", "filter" and "commands" when a store gave them):
 * one renderer for `analyze`, `show` and every other front end that prints
 * an alert, so they cannot drift apart.  Every string is shown as it is
 * when it is clean and escaped otherwise: the JSON may come from a store
 * copied from elsewhere.
 */

/* the member @key of the object @o; NULL when absent, null or @o is not an object */
json_object *ad_json_member(json_object *o, const char *key);
/* the same when it is a string */
const char *ad_json_member_str(json_object *o, const char *key);

/* @t (seconds since the epoch) in local time with @fmt, "(unknown)" when unset */
char *ad_text_time(double t, const char *fmt);

/*
 * The hosts of an alert object: "local (2), web1 (3)" with @counts, else
 * "local,web1"; at most @max names, then ",+N more".
 */
char *ad_alert_json_hosts(json_object *alert, gboolean counts, guint max);

/* the alert's level in the user's language; an unknown value as it is, escaped */
char *ad_alert_json_level(json_object *alert);

/* the setroubleshoot-style report of one alert */
void ad_alert_json_render(GString *out, json_object *alert);

/*
 * The Permissive line: "no" when every denial was blocked, "yes (nothing
 * was blocked)" when every one was only logged, the counts when both
 * happened.  Owned.
 */
char *ad_permissive_text(guint64 count, guint64 blocked, guint64 logged_only);

#endif
