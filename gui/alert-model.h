/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gio/gio.h>

#include "alert-item.h"

G_BEGIN_DECLS

/* the list columns, in display order; also the sort keys */
typedef enum {
	AD_COLUMN_LEVEL,
	AD_COLUMN_SUMMARY,
	AD_COLUMN_SOURCE,
	AD_COLUMN_TARGET,
	AD_COLUMN_CLASS,
	AD_COLUMN_PERMISSIONS,
	AD_COLUMN_COUNT,
	AD_COLUMN_LAST_SEEN,
	AD_COLUMN_HOST,
	AD_N_COLUMNS
} AdColumn;

/* what the list shows; the zeroed struct shows every alert that is not ignored */
typedef struct {
	const char *text;	/* words that must all occur (case-insensitive), or NULL */
	const char *host;	/* a host name the alert was seen on, or NULL for all */
	guint levels;		/* the levels shown, as bits 1 << AdLevel (ad_levels_parse); 0 = all */
	/* together: seen in [since, until) between its first and last time */
	double since;		/* last seen at or after (seconds since the epoch), 0 = any */
	double until;		/* first seen before, 0 = any */
	gboolean show_ignored;
	GHashTable *ids;	/* only the alerts of these ids (a notification's), or NULL */
} AdAlertFilter;

/*
 * A notification's batch (--ids, --since): the alerts of @ids (NULL: any)
 * last seen at or after @since (0: any).  The list and the overview keep
 * to it until "Show all alerts".
 */
typedef struct {
	GHashTable *ids;
	double since;
} AdAlertBatch;

/* TRUE when @a is of @b; every alert is of a NULL batch */
gboolean ad_alert_batch_contains(const AdAlertBatch *b, AdAlertItem *a);

/* TRUE when @a passes @f */
gboolean ad_alert_filter_matches(const AdAlertFilter *f, AdAlertItem *a);
/* orders two alerts by @column (ties: last seen, newest first, then id) */
int ad_alert_compare(AdAlertItem *a, AdAlertItem *b, AdColumn column, gboolean descending);

/*
 * AdAlertModel: every alert the browser knows, one per id, and the
 * filtered, sorted view of them as a GListModel of AdAlertItem.  No GTK:
 * the window mirrors the view into its tree view.  An alert that comes
 * again (a D-Bus update, a re-read) replaces the one with its id, so an
 * id is never listed twice.
 *
 * Signals: GListModel's items-changed for the view; "hosts-changed" when the
 * set of host names (ad_alert_model_get_hosts) changes.
 */
#define AD_TYPE_ALERT_MODEL (ad_alert_model_get_type())
G_DECLARE_FINAL_TYPE(AdAlertModel, ad_alert_model, AD, ALERT_MODEL, GObject)

AdAlertModel *ad_alert_model_new(void);
/* adds @a, or replaces the alert with its id; the model takes a reference */
void ad_alert_model_upsert(AdAlertModel *m, AdAlertItem *a);
/* parses and upserts each JSON text; returns how many were rejected (reasons in @ret_errors) */
guint ad_alert_model_load_json(AdAlertModel *m, const char *const *texts, GPtrArray *ret_errors);
/* removes the alert with @id; FALSE when there is none */
gboolean ad_alert_model_remove(AdAlertModel *m, const char *id);
void ad_alert_model_clear(AdAlertModel *m);
/* the alert with @id, shown or not; borrowed, or NULL */
AdAlertItem *ad_alert_model_lookup(AdAlertModel *m, const char *id);
/* every alert, shown or not, in no order (owned array of borrowed items) */
GPtrArray *ad_alert_model_get_all(AdAlertModel *m);
/* the position of @id in the view, or -1 when it is not shown */
int ad_alert_model_find(AdAlertModel *m, const char *id);
/* how many alerts there are, shown or not; and how many of them are ignored */
guint ad_alert_model_get_total(AdAlertModel *m);
guint ad_alert_model_get_n_ignored(AdAlertModel *m);
/* the filter is copied */
void ad_alert_model_set_filter(AdAlertModel *m, const AdAlertFilter *f);
void ad_alert_model_set_sort(AdAlertModel *m, AdColumn column, gboolean descending);
void ad_alert_model_get_sort(AdAlertModel *m, AdColumn *ret_column, gboolean *ret_descending);
/* the distinct host names of all alerts, sorted (owned) */
GStrv ad_alert_model_get_hosts(AdAlertModel *m);

G_END_DECLS
