/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AD_ALERT_TEXT_H
#define AD_ALERT_TEXT_H

#include <glib.h>

#include "alert-doc.h"

/*
 * The text of an alert, rendered from its alert document (AdAlertDoc:
 * the `analyze --json` keys, plus "host_counts", "filter" and "commands"
 * when a store gave them): one renderer for `analyze`, `show`, `list`,
 * sealert's -l and every other front end that prints an alert, so they
 * cannot drift apart.  Every string is shown as it is when it is clean
 * and escaped otherwise: the document may come from a store copied from
 * elsewhere.
 */

/* @t (seconds since the epoch) in local time with @fmt, "(unknown)" when unset */
char *ad_text_time(double t, const char *fmt);

/*
 * The hosts of an alert: "local (2), web1 (3)" with @counts, else
 * "local,web1"; at most @max names, then ",+N more".
 */
char *ad_alert_doc_hosts(const AdAlertDoc *doc, gboolean counts, guint max);

/* the alert's level in the user's language; an unknown value as it is, escaped */
char *ad_alert_doc_level_text(const AdAlertDoc *doc);

/* the setroubleshoot-style report of one alert */
void ad_alert_doc_render(GString *out, const AdAlertDoc *doc);

/*
 * The Permissive line: "no" when every denial was blocked, "yes (nothing
 * was blocked)" when every one was only logged, the counts when both
 * happened.  Owned.
 */
char *ad_permissive_text(guint64 count, guint64 blocked, guint64 logged_only);

#endif
