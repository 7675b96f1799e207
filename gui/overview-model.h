/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "alert-model.h"
#include "occurrences.h"
#include "analysis/overview.h"

G_BEGIN_DECLS

/*
 * What the browser's overview shows, with no GTK: the core's overview
 * counts (the same as `avcdoctor analyze --summary`) over the model's
 * alerts, the alerts grouped by source domain, and the denials over time.
 */

/*
 * the overview of every alert of @m, the ignored ones only with
 * @with_ignored; of @batch's alerts only when it is not NULL
 */
AdOverview *ad_alert_model_overview(AdAlertModel *m, gboolean with_ignored,
				    const AdAlertBatch *batch);

/* the alerts of one source domain, as the grouped list shows them */
typedef struct {
	char *source;		/* the source type, "" when the records name none */
	GPtrArray *items;	/* AdAlertItem (ref), in the view's order */
	guint64 records;	/* the denial records of its alerts */
	AdLevel level;		/* the worst level among them */
	double last_seen;	/* the newest last-seen among them, 0 when none says */
} AdAlertGroup;

void ad_alert_group_free(AdAlertGroup *g);
/*
 * The view of @view (an AdAlertModel) grouped by source domain: a group
 * comes where its first alert comes in the view, so the sort order of the
 * list orders the groups too.  Owned array of AdAlertGroup.
 */
GPtrArray *ad_alert_groups_new(GListModel *view);

/*
 * Denial records over time, in bins of a round width (a minute up to a
 * year) chosen so that there are at most max_bins, aligned on local time.
 */
typedef struct {
	double start;		/* the first bin's start, seconds since the epoch */
	double step;		/* the width of a bin, seconds */
	guint n;		/* bins */
	double *bins;		/* denial records in each */
	double max;		/* the largest bin */
	double total;
} AdTimeline;

/* NULL when @first or @last is not a time */
AdTimeline *ad_timeline_new(double first, double last, guint max_bins);
void ad_timeline_free(AdTimeline *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdTimeline, ad_timeline_free)
/* @n records at @when (ignored outside the span) */
void ad_timeline_add_time(AdTimeline *t, double when, double n);
/*
 * An alert known only by its first and last time and its count (all a
 * store keeps): one record at each end, the others spread evenly between.
 */
void ad_timeline_add_alert(AdTimeline *t, double first, double last, guint64 count);
/*
 * An alert with its occurrences in buckets (what the daemon's store keeps):
 * each bucket's count in the bins its span (clipped to @first..@last)
 * covers, in proportion; exact whenever a bucket lies in one bin.  What
 * the buckets do not hold of @count (occurrences from before the store
 * kept buckets) is spread as ad_timeline_add_alert() spreads it.
 */
void ad_timeline_add_occurrences(AdTimeline *t, const AdOccurrences *occ, double first,
				 double last, guint64 count);
/* the bin of @when, or -1 */
int ad_timeline_bin_at(const AdTimeline *t, double when);
/* the span of bin @i: [*since, *until) */
void ad_timeline_bin_span(const AdTimeline *t, guint i, double *since, double *until);

G_END_DECLS
