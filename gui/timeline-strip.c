// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The timeline strip of the detail pane (see timeline-strip.h).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n.h>

#include "alert-item.h"
#include "timeline-strip.h"

typedef struct {
	double axis_first, axis_last;
	double first, last;
	guint64 count;
	AdOccurrences *occ;		/* when its denials happened, or NULL */
} Strip;

static void strip_free(gpointer p)
{
	Strip *s = p;

	ad_occurrences_free(s->occ);
	g_free(s);
}

/* x of time @t on a strip of width @w (margins of 6 pixels) */
static double x_of(const Strip *s, double t, double w)
{
	double span = s->axis_last - s->axis_first;

	if (span <= 0)
		return w / 2;
	return 6 + (w - 12) * CLAMP((t - s->axis_first) / span, 0.0, 1.0);
}

static gboolean on_draw(GtkWidget *w, cairo_t *cr, gpointer data)
{
	Strip *s = g_object_get_data(G_OBJECT(w), "ad-strip");
	GtkStyleContext *sc = gtk_widget_get_style_context(w);
	double width = gtk_widget_get_allocated_width(w);
	double mid = gtk_widget_get_allocated_height(w) / 2.0;
	double a, b;
	GdkRGBA fg;

	(void)data;
	if (!s || !(s->last > 0))
		return FALSE;
	gtk_style_context_get_color(sc, gtk_style_context_get_state(sc), &fg);
	/* the span of all alerts */
	cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.25);
	cairo_rectangle(cr, 6, mid - 1, width - 12, 2);
	cairo_fill(cr);
	/* this alert: from its first to its last time, a tick at each end */
	a = x_of(s, s->first > 0 ? s->first : s->last, width);
	b = x_of(s, s->last, width);
	cairo_set_source_rgba(cr, 0.75, 0.11, 0.16, 0.85);
	cairo_rectangle(cr, a, mid - 4, MAX(2, b - a), 8);
	cairo_fill(cr);
	cairo_rectangle(cr, a - 1, mid - 8, 2, 16);
	cairo_rectangle(cr, b - 1, mid - 8, 2, 16);
	cairo_fill(cr);
	/* when the denials happened: a bar per bucket, as high as its share */
	if (s->occ && s->occ->buckets->len) {
		guint64 max = 0;

		for (guint i = 0; i < s->occ->buckets->len; i++)
			max = MAX(max, g_array_index(s->occ->buckets, AdOccBucket, i).n);
		cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.8);
		for (guint i = 0; i < s->occ->buckets->len && max; i++) {
			const AdOccBucket *bk = &g_array_index(s->occ->buckets, AdOccBucket, i);
			/* a bucket within the alert's own first and last time */
			double t0 = MAX((double)bk->start, s->first > 0 ? floor(s->first) : 0);
			double t1 = MIN((double)(bk->start + s->occ->width), floor(s->last) + 1);
			double x0 = x_of(s, t0, width), x1 = x_of(s, MAX(t0, t1), width);
			double h = MAX(2.0, (mid - 1) * (double)bk->n / (double)max);

			cairo_rectangle(cr, x0, mid - h, MAX(2.0, x1 - x0), h);
		}
		cairo_fill(cr);
	}
	return FALSE;
}

GtkWidget *ad_timeline_strip_new(void)
{
	GtkWidget *w = gtk_drawing_area_new();

	gtk_widget_set_size_request(w, 120, 22);
	gtk_widget_set_hexpand(w, TRUE);
	g_object_set_data_full(G_OBJECT(w), "ad-strip", g_new0(Strip, 1), strip_free);
	g_signal_connect(w, "draw", G_CALLBACK(on_draw), NULL);
	return w;
}

void ad_timeline_strip_set(GtkWidget *strip, double axis_first, double axis_last, double first,
			   double last, guint64 count, const AdOccurrences *occ)
{
	Strip *s = g_object_get_data(G_OBJECT(strip), "ad-strip");
	g_autofree char *from = NULL, *to = NULL, *all_from = NULL, *all_to = NULL;
	g_autofree char *text = NULL;

	if (!(axis_first > 0) || axis_last < axis_first) {
		axis_first = first > 0 ? first : last;
		axis_last = last;
	}
	/* an alert outside the span given (a live update): the span grows */
	s->axis_first = first > 0 ? MIN(axis_first, first) : axis_first;
	s->axis_last = MAX(axis_last, last);
	s->first = first;
	s->last = last;
	s->count = count;
	g_clear_pointer(&s->occ, ad_occurrences_free);
	if (occ) {
		s->occ = ad_occurrences_new();
		ad_occurrences_merge(s->occ, occ);
	}
	from = ad_format_time(first > 0 ? first : last);
	to = ad_format_time(last);
	all_from = ad_format_time(s->axis_first);
	all_to = ad_format_time(s->axis_last);
	/* TRANSLATORS: "Seen 6 times from A to B, within all alerts' span from C to D" */
	text = g_strdup_printf(ngettext("Seen %" PRIu64 " time from %s to %s, within the "
					"alerts' span from %s to %s",
					"Seen %" PRIu64 " times from %s to %s, within the "
					"alerts' span from %s to %s", count),
			       count, from, to, all_from, all_to);
	atk_object_set_name(gtk_widget_get_accessible(strip), text);
	gtk_widget_set_tooltip_text(strip, text);
	gtk_widget_set_visible(strip, last > 0);
	gtk_widget_queue_draw(strip);
}
