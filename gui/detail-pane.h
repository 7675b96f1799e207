/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "alert-item.h"

G_BEGIN_DECLS

/*
 * AdDetailPane: the selected alert in full: summary, the plain-language
 * explanation, the ranked suggestions with their commands and a Copy button
 * each, the details and the raw records.  Every text is set with
 * gtk_label_set_text / a text buffer: nothing from a record is markup.
 *
 * Signals: "ignore-clicked" (char *id, gboolean ignore): the user wants the
 * alert ignored (TRUE) or shown again; "delete-clicked" (char *id).
 */
#define AD_TYPE_DETAIL_PANE (ad_detail_pane_get_type())
G_DECLARE_FINAL_TYPE(AdDetailPane, ad_detail_pane, AD, DETAIL_PANE, GtkBox)

GtkWidget *ad_detail_pane_new(void);
/* shows @a (a reference is kept), or the empty page for NULL */
void ad_detail_pane_show(AdDetailPane *p, AdAlertItem *a);
/* the alert shown, borrowed, or NULL */
AdAlertItem *ad_detail_pane_get_alert(AdDetailPane *p);
/* Ignore and Delete need the daemon: off in offline mode, with @why as tooltip */
void ad_detail_pane_set_actions(AdDetailPane *p, gboolean enabled, const char *why);
/* the span of all alerts, for the timeline strip of the alert shown (0: its own) */
void ad_detail_pane_set_time_axis(AdDetailPane *p, double first, double last);

G_END_DECLS
