// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The browser's overview, headless: the core's overview counts over the
 * alerts the browser holds as JSON, the alerts grouped by source domain,
 * and a histogram of denial records over time.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "overview-model.h"

/* the AdFixKind of the alert's first suggestion, -1 for none */
static int first_fix(AdAlertItem *a)
{
	const AdSuggestionDoc *s = ad_alert_doc_suggestion(ad_alert_item_get_doc(a), 0);
	AdFixKind k;

	if (!s || s->not_object || !s->kind || !ad_fix_kind_from_name(s->kind, &k))
		return -1;
	return (int)k;
}

/*
 * Host name -> records of @a: the daemon's host_counts when it sent them
 * ("" is its own host); else the one host named, or "" (no node=), with
 * all the records; an alert of several hosts without counts adds to their
 * alerts only.
 */
static GHashTable *item_hosts(AdAlertItem *a)
{
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	const char *const *names = ad_alert_item_get_hosts(a);
	const GPtrArray *counts = ad_alert_item_get_doc(a)->host_counts;
	guint n = g_strv_length((char **)names);

	for (guint i = 0; counts && i < counts->len; i++) {
		const AdHostCountDoc *c = g_ptr_array_index(counts, i);

		g_hash_table_insert(h, ad_clean_text(c->host), GSIZE_TO_POINTER((gsize)c->count));
	}
	if (g_hash_table_size(h))
		return h;
	if (n <= 1)
		g_hash_table_insert(h, g_strdup(n ? names[0] : ""),
				    GSIZE_TO_POINTER((gsize)ad_alert_item_get_count(a)));
	else
		for (guint i = 0; i < n; i++)
			g_hash_table_insert(h, g_strdup(names[i]), GSIZE_TO_POINTER(0));
	return h;
}

AdOverview *ad_alert_model_overview(AdAlertModel *m, gboolean with_ignored,
				    const AdAlertBatch *batch)
{
	AdOverview *o = ad_overview_new_empty();
	g_autoptr(GPtrArray) all = ad_alert_model_get_all(m);

	for (guint i = 0; i < all->len; i++) {
		AdAlertItem *a = g_ptr_array_index(all, i);
		g_autoptr(GHashTable) hosts = NULL;

		if ((ad_alert_item_get_ignored(a) && !with_ignored) ||
		    !ad_alert_batch_contains(batch, a))
			continue;
		hosts = item_hosts(a);
		ad_overview_add(o, ad_alert_item_get_level(a), first_fix(a),
				ad_alert_item_get_source(a), ad_alert_item_get_target(a),
				ad_alert_item_get_count(a), ad_alert_item_get_first_seen(a),
				ad_alert_item_get_last_seen(a), hosts);
	}
	ad_overview_finish(o);
	return o;
}

/* ---- groups ---------------------------------------------------------------------- */

void ad_alert_group_free(AdAlertGroup *g)
{
	if (!g)
		return;
	g_free(g->source);
	g_ptr_array_unref(g->items);
	g_free(g);
}

GPtrArray *ad_alert_groups_new(GListModel *view)
{
	GPtrArray *groups = g_ptr_array_new_with_free_func((GDestroyNotify)ad_alert_group_free);
	g_autoptr(GHashTable) by_source = g_hash_table_new(g_str_hash, g_str_equal);
	guint n = g_list_model_get_n_items(view);

	for (guint i = 0; i < n; i++) {
		AdAlertItem *a = g_list_model_get_item(view, i);
		const char *source = ad_alert_item_get_source(a);
		AdAlertGroup *g = g_hash_table_lookup(by_source, source);

		if (!g) {
			g = g_new0(AdAlertGroup, 1);
			g->source = g_strdup(source);
			g->items = g_ptr_array_new_with_free_func(g_object_unref);
			g->level = AD_LEVEL_GREEN;
			g_hash_table_insert(by_source, g->source, g);
			g_ptr_array_add(groups, g);
		}
		g_ptr_array_add(g->items, a);	/* the reference get_item gave */
		g->records += ad_alert_item_get_count(a);
		g->level = MAX(g->level, ad_alert_item_get_level(a));
		g->last_seen = MAX(g->last_seen, ad_alert_item_get_last_seen(a));
	}
	return groups;
}

/* ---- denials over time ------------------------------------------------------------ */

AdTimeline *ad_timeline_new(double first, double last, guint max_bins)
{
	static const double steps[] = {
		60, 5 * 60, 15 * 60, 30 * 60, 3600, 3 * 3600, 6 * 3600, 12 * 3600,
		86400, 7 * 86400, 30 * 86400, 91 * 86400, 365 * 86400,
	};
	g_autoptr(GDateTime) dt = NULL;
	AdTimeline *t;
	double off, step = steps[G_N_ELEMENTS(steps) - 1];

	if (!(first > 0) || !(last >= first) || !isfinite(last) || max_bins < 1)
		return NULL;
	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		if ((last - first) / steps[i] < max_bins - 1) {
			step = steps[i];
			break;
		}
	}
	/* bins of an hour or more start on the local hour (or midnight) */
	dt = g_date_time_new_from_unix_local((gint64)first);
	off = dt ? (double)g_date_time_get_utc_offset(dt) / G_TIME_SPAN_SECOND : 0;
	t = g_new0(AdTimeline, 1);
	t->step = step;
	t->start = floor((first + off) / step) * step - off;
	if (t->start > first)
		t->start -= step;
	t->n = (guint)MIN((double)max_bins, floor((last - t->start) / step) + 1);
	t->bins = g_new0(double, t->n);
	return t;
}

void ad_timeline_free(AdTimeline *t)
{
	if (!t)
		return;
	g_free(t->bins);
	g_free(t);
}

int ad_timeline_bin_at(const AdTimeline *t, double when)
{
	double i;

	if (!t || when < t->start)
		return -1;
	i = floor((when - t->start) / t->step);
	return i < t->n ? (int)i : -1;
}

void ad_timeline_add_time(AdTimeline *t, double when, double n)
{
	int i = ad_timeline_bin_at(t, when);

	if (i < 0)
		return;
	t->bins[i] += n;
	t->total += n;
	t->max = MAX(t->max, t->bins[i]);
}

/* @n spread over [@a, @b), each bin its share of the overlap */
static void add_span(AdTimeline *t, double a, double b, double n)
{
	int i = ad_timeline_bin_at(t, a);

	if (i >= 0 && (b <= a || ad_timeline_bin_at(t, b - 1e-6) == i)) {
		ad_timeline_add_time(t, a, n);
		return;
	}
	for (i = MAX(0, i); i < (int)t->n; i++) {
		double since, until, overlap;

		ad_timeline_bin_span(t, (guint)i, &since, &until);
		if (since >= b)
			break;
		overlap = MIN(until, b) - MAX(since, a);
		if (overlap > 0)
			ad_timeline_add_time(t, MAX(since, a), n * overlap / (b - a));
	}
}

void ad_timeline_add_alert(AdTimeline *t, double first, double last, guint64 count)
{
	double middle;

	if (!count || !(last > 0))
		return;
	if (!(first > 0) || first > last)
		first = last;
	if (count == 1 || first == last) {
		ad_timeline_add_time(t, last, (double)count);
		return;
	}
	ad_timeline_add_time(t, first, 1);
	ad_timeline_add_time(t, last, 1);
	middle = (double)(count - 2);
	/* the records between: each bin gets its share of the span */
	if (middle > 0)
		add_span(t, first, last, middle);
}

void ad_timeline_add_occurrences(AdTimeline *t, const AdOccurrences *occ, double first,
				 double last, guint64 count)
{
	guint64 known = 0;

	if (!occ) {
		ad_timeline_add_alert(t, first, last, count);
		return;
	}
	for (guint i = 0; i < occ->buckets->len; i++) {
		const AdOccBucket *b = &g_array_index(occ->buckets, AdOccBucket, i);
		double a = (double)b->start, z = (double)(b->start + occ->width);

		/* the alert's own first and last times bound its buckets */
		if (first > 0)
			a = MAX(a, floor(first));
		if (last > 0)
			z = MIN(z, floor(last) + 1);
		add_span(t, a, MAX(a, z), (double)b->n);
		known += b->n;
	}
	if (count > known)
		ad_timeline_add_alert(t, first, last, count - known);
}

void ad_timeline_bin_span(const AdTimeline *t, guint i, double *since, double *until)
{
	*since = t->start + i * t->step;
	*until = *since + t->step;
}
