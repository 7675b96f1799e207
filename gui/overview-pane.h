/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "overview-model.h"

G_BEGIN_DECLS

/*
 * AdOverviewPane: many alerts at a glance, shown where an alert's details
 * go while none is selected: alerts and denial records by level and by the
 * kind of their first fix, the top source domains and hosts, and a chart of
 * denials over time.  A bar of the chart (clicked, or chosen with the
 * arrow keys and Enter) asks for the list to show that time.
 *
 * Signals: "span-activated" (double since, double until): a bar was chosen.
 */
#define AD_TYPE_OVERVIEW_PANE (ad_overview_pane_get_type())
G_DECLARE_FINAL_TYPE(AdOverviewPane, ad_overview_pane, AD, OVERVIEW_PANE, GtkBox)

GtkWidget *ad_overview_pane_new(void);
/*
 * Shows @o and the chart @t (both borrowed for the call; @t may be NULL:
 * no times).  @estimated: the chart spreads each alert's records between
 * its first and last time (all the daemon's store keeps), and says so.
 * @live: the daemon's alerts, whose records without node= are its own
 * host's ("this host"); a log's are of an unknown host.
 */
void ad_overview_pane_update(AdOverviewPane *p, const AdOverview *o, const AdTimeline *t,
			     gboolean estimated, gboolean live);
/* the bar shown as chosen: the one starting at @since, or none for 0 */
void ad_overview_pane_set_chosen(AdOverviewPane *p, double since);

/* "2023-11-14 22:13" – "22:18": a span in local time, for people */
char *ad_span_text(double since, double until);

G_END_DECLS
