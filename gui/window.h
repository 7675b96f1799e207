/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * AdBrowserWindow: the alert list with its filters and the detail pane.
 * It shows either the daemon's live alerts (D-Bus) or the alerts of log
 * files analysed here (offline); both arrive as the same JSON objects and
 * go into one AdAlertModel.
 */
#define AD_TYPE_BROWSER_WINDOW (ad_browser_window_get_type())
G_DECLARE_FINAL_TYPE(AdBrowserWindow, ad_browser_window, AD, BROWSER_WINDOW,
		     GtkApplicationWindow)

/*
 * @policy: the binary policy for offline analysis, @file_contexts the
 * file_contexts to judge labels with; NULL for the defaults
 */
AdBrowserWindow *ad_browser_window_new(GtkApplication *app, const char *policy,
				       const char *file_contexts);
/* the daemon's alerts; @alert_id, when not NULL, is selected once listed */
void ad_browser_window_show_live(AdBrowserWindow *w, const char *alert_id);
/* the alerts of @files, analysed here without the daemon */
void ad_browser_window_show_files(AdBrowserWindow *w, const char *const *files);
/*
 * Only the alerts a notification told of: those of @ids (NULL-terminated,
 * or NULL) and seen since @since (seconds since the epoch, or 0), said in a
 * bar whose "Show all alerts" lifts the limit.
 */
void ad_browser_window_set_batch(AdBrowserWindow *w, const char *const *ids, double since);
/*
 * Only the alerts of @levels (bits 1 << AdLevel, as ad_levels_parse()
 * gives them; 0 for all), chosen in the level filter: --level
 */
void ad_browser_window_set_levels(AdBrowserWindow *w, guint levels);

G_END_DECLS
