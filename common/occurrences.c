// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An alert's occurrences in bounded time buckets (see occurrences.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "occurrences.h"

/* the widths a set grows through: the browser chart's bar widths */
static const gint64 widths[] = {
	60, 5 * 60, 15 * 60, 30 * 60, 3600, 3 * 3600, 6 * 3600, 12 * 3600,
	86400, 7 * 86400, 30 * 86400, 91 * 86400, 365 * 86400,
};

/* the largest width: a bucket per year holds any span the store keeps */
#define AD_OCC_LAST_WIDTH (365 * 86400)

AdOccurrences *ad_occurrences_new(void)
{
	AdOccurrences *o = g_new0(AdOccurrences, 1);

	o->width = widths[0];
	o->buckets = g_array_new(FALSE, FALSE, sizeof(AdOccBucket));
	return o;
}

void ad_occurrences_free(AdOccurrences *o)
{
	if (!o)
		return;
	g_array_unref(o->buckets);
	g_free(o);
}

/* adds @n at the bucket starting at @start (a multiple of the width), kept in order */
static void add_at(AdOccurrences *o, gint64 start, guint64 n)
{
	guint lo = 0, hi = o->buckets->len;
	AdOccBucket b = { start, n };

	/* floods come in time order: the last bucket first */
	if (hi && g_array_index(o->buckets, AdOccBucket, hi - 1).start == start) {
		g_array_index(o->buckets, AdOccBucket, hi - 1).n += n;
		return;
	}
	while (lo < hi) {
		guint mid = (lo + hi) / 2;
		gint64 s = g_array_index(o->buckets, AdOccBucket, mid).start;

		if (s == start) {
			g_array_index(o->buckets, AdOccBucket, mid).n += n;
			return;
		}
		if (s < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	g_array_insert_val(o->buckets, lo, b);
}

/* floor(@t / @w) * @w for negative values too */
static gint64 align(gint64 t, gint64 w)
{
	gint64 q = t / w;

	if (t % w < 0)
		q--;
	return q * w;
}

/* the buckets merged into buckets of @width (a larger width of the ladder) */
static void rebucket(AdOccurrences *o, gint64 width)
{
	g_autoptr(GArray) old = o->buckets;

	o->width = width;
	o->buckets = g_array_new(FALSE, FALSE, sizeof(AdOccBucket));
	for (guint i = 0; i < old->len; i++) {
		AdOccBucket *b = &g_array_index(old, AdOccBucket, i);

		add_at(o, align(b->start, width), b->n);
	}
}

/* the next widths, until at most AD_OCC_MAX_BUCKETS are left */
static void coarsen(AdOccurrences *o)
{
	while (o->buckets->len > AD_OCC_MAX_BUCKETS && o->width < AD_OCC_LAST_WIDTH) {
		for (guint i = 0; i < G_N_ELEMENTS(widths); i++) {
			if (widths[i] > o->width) {
				rebucket(o, widths[i]);
				break;
			}
		}
	}
}

void ad_occurrences_add(AdOccurrences *o, double when, guint64 n)
{
	if (!o || !n || !(when > 0) || when > 1e15)
		return;
	add_at(o, align((gint64)when, o->width), n);
	coarsen(o);
}

void ad_occurrences_merge(AdOccurrences *o, const AdOccurrences *from)
{
	if (!o || !from)
		return;
	/* the coarser of the two widths: a bucket is never split */
	if (o->width < from->width)
		rebucket(o, from->width);
	for (guint i = 0; i < from->buckets->len; i++) {
		AdOccBucket *b = &g_array_index(from->buckets, AdOccBucket, i);

		add_at(o, align(b->start, o->width), b->n);
	}
	coarsen(o);
}

guint64 ad_occurrences_total(const AdOccurrences *o)
{
	guint64 n = 0;

	for (guint i = 0; o && i < o->buckets->len; i++)
		n += g_array_index(o->buckets, AdOccBucket, i).n;
	return n;
}

char *ad_occurrences_to_text(const AdOccurrences *o)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "%" G_GINT64_FORMAT, o->width);
	for (guint i = 0; i < o->buckets->len; i++) {
		AdOccBucket *b = &g_array_index(o->buckets, AdOccBucket, i);

		g_string_append_printf(s, " %" G_GINT64_FORMAT ":%" G_GUINT64_FORMAT,
				       b->start / o->width, b->n);
	}
	return g_string_free(s, FALSE);
}

/* a width of the ladder, else 0 */
static gint64 known_width(gint64 w)
{
	for (guint i = 0; i < G_N_ELEMENTS(widths); i++)
		if (widths[i] == w)
			return w;
	return 0;
}

gboolean ad_occurrences_parse(AdOccurrences *o, const char *text)
{
	g_auto(GStrv) parts = NULL;
	gint64 width;
	char *end;

	g_array_set_size(o->buckets, 0);
	o->width = widths[0];
	if (!text || !*text)
		return FALSE;
	parts = g_strsplit(text, " ", -1);
	width = known_width(g_ascii_strtoll(parts[0], &end, 10));
	if (!width || *end)
		return FALSE;
	o->width = width;
	for (guint i = 1; parts[i]; i++) {
		gint64 index = g_ascii_strtoll(parts[i], &end, 10);
		guint64 n;

		if (*end != ':' || llabs(index) > G_MAXINT64 / width / 2)
			goto bad;
		n = g_ascii_strtoull(end + 1, &end, 10);
		if (*end)
			goto bad;
		add_at(o, index * width, n);
	}
	coarsen(o);
	return TRUE;
bad:
	g_array_set_size(o->buckets, 0);
	o->width = widths[0];
	return FALSE;
}

json_object *ad_occurrences_to_json(const AdOccurrences *o)
{
	json_object *t = json_object_new_object();
	json_object *arr = json_object_new_array_ext((int)o->buckets->len);

	json_object_object_add(t, "width", json_object_new_int64(o->width));
	for (guint i = 0; i < o->buckets->len; i++) {
		AdOccBucket *b = &g_array_index(o->buckets, AdOccBucket, i);
		json_object *pair = json_object_new_array_ext(2);

		json_object_array_add(pair, json_object_new_int64(b->start));
		json_object_array_add(pair, json_object_new_uint64(b->n));
		json_object_array_add(arr, pair);
	}
	json_object_object_add(t, "buckets", arr);
	return t;
}

AdOccurrences *ad_occurrences_from_json(json_object *t)
{
	g_autoptr(AdOccurrences) o = NULL;
	json_object *w, *arr;
	gint64 width;

	if (!t || !json_object_is_type(t, json_type_object) ||
	    !json_object_object_get_ex(t, "width", &w) || !json_object_is_type(w, json_type_int) ||
	    !json_object_object_get_ex(t, "buckets", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return NULL;
	width = known_width(json_object_get_int64(w));
	if (!width)
		return NULL;
	o = ad_occurrences_new();
	o->width = width;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *pair = json_object_array_get_idx(arr, i);
		json_object *s, *n;

		if (!json_object_is_type(pair, json_type_array) ||
		    json_object_array_length(pair) != 2)
			return NULL;
		s = json_object_array_get_idx(pair, 0);
		n = json_object_array_get_idx(pair, 1);
		if (!json_object_is_type(s, json_type_int) || !json_object_is_type(n, json_type_int) ||
		    json_object_get_int64(n) < 0)
			return NULL;
		add_at(o, align(json_object_get_int64(s), width), json_object_get_uint64(n));
	}
	coarsen(o);
	return g_steal_pointer(&o);
}
