/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

G_BEGIN_DECLS

/*
 * When an alert's denials happened: occurrence counts in time buckets of
 * one width, bounded.  The width starts at a minute and grows along the
 * chart's own widths (5, 15, 30 minutes, 1, 3, 6, 12 hours, a day, a
 * week, 30, 91, 365 days), merging buckets, whenever more than
 * AD_OCC_MAX_BUCKETS would be kept: an alert denied every minute for a
 * month keeps 30 daily counts, one denied twice keeps two exact minutes.
 * Buckets start at multiples of their width since the epoch (UTC).
 * The store keeps them per alert (as text), the browser draws them; one
 * code for both, so that the daemon's chart and a log's agree.
 */
#define AD_OCC_MAX_BUCKETS 96

typedef struct {
	gint64 start;		/* seconds since the epoch, a multiple of the width */
	guint64 n;
} AdOccBucket;

typedef struct {
	gint64 width;		/* seconds */
	GArray *buckets;	/* AdOccBucket, by start */
} AdOccurrences;

AdOccurrences *ad_occurrences_new(void);
void ad_occurrences_free(AdOccurrences *o);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdOccurrences, ad_occurrences_free)
/* @n occurrences at @when (seconds; ignored when not after the epoch) */
void ad_occurrences_add(AdOccurrences *o, double when, guint64 n);
/* every bucket of @from added to @o */
void ad_occurrences_merge(AdOccurrences *o, const AdOccurrences *from);
guint64 ad_occurrences_total(const AdOccurrences *o);
/*
 * As the store keeps them: "WIDTH INDEX:N INDEX:N ..." (INDEX = start /
 * WIDTH); NULL text, or text that is not that, reads as none (a new,
 * empty set; FALSE from ad_occurrences_parse).
 */
char *ad_occurrences_to_text(const AdOccurrences *o);
gboolean ad_occurrences_parse(AdOccurrences *o, const char *text);
/* {"width": 60, "buckets": [[START, N], ...]}, what JSON alerts carry as "timeline" */
json_object *ad_occurrences_to_json(const AdOccurrences *o);
/* from that object; NULL when it is not one (untrusted text: checked) */
AdOccurrences *ad_occurrences_from_json(json_object *timeline);

G_END_DECLS
