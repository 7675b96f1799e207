/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "alert.h"

G_BEGIN_DECLS

#define AD_STORE_ERROR (ad_store_error_quark())
GQuark ad_store_error_quark(void);

typedef enum {
	AD_STORE_ERROR_OPEN,		/* cannot open or create */
	AD_STORE_ERROR_CORRUPT,		/* moved aside; a new store was created */
	AD_STORE_ERROR_UNSAFE,		/* symlink, wrong owner or mode */
	AD_STORE_ERROR_NOT_FOUND,	/* no such alert */
	AD_STORE_ERROR_INVALID,		/* bad argument (an id that is not an id) */
	AD_STORE_ERROR_IO,
} AdStoreError;

#define AD_STORE_DEFAULT_PATH "/var/lib/avcdoctor/alerts.db"

/* per-user notification filter of an alert (setroubleshoot's three) */
typedef enum {
	AD_FILTER_NEVER,		/* never ignore: notify every time (default) */
	AD_FILTER_AFTER_FIRST,		/* notify the first time only */
	AD_FILTER_ALWAYS,		/* always ignore */
} AdFilter;

const char *ad_filter_name(AdFilter f);
gboolean ad_filter_from_name(const char *name, AdFilter *ret);

typedef struct {
	guint max_alerts;		/* oldest (by last_seen) pruned beyond; 0 = no cap */
	guint max_age_days;		/* alerts not seen for longer are pruned; 0 = none */
} AdStoreLimits;

/*
 * The alert store: SQLite in WAL mode, versioned schema with migrations.
 * One alert per signature (alert.h) with count, first/last seen, hosts
 * with counts, a bounded list of distinct paths and commands, the latest
 * full event (raw records), the analysis (DESIGN.md's analyze JSON) and
 * level; per-user filters.  The file and its directory are created with
 * safe modes (0700 dir, 0600/0640 file), never through a symlink.  A
 * corrupt store is moved aside (ALERTS.db.corrupt-TIMESTAMP) and a new one
 * created; @ret_warning (when non-NULL) then says so.
 */
typedef struct _AdStore AdStore;

AdStore *ad_store_open(const char *path, const AdStoreLimits *limits, char **ret_warning,
		       GError **error);
/* read-only access for list/show on a copied store */
AdStore *ad_store_open_readonly(const char *path, GError **error);
void ad_store_close(AdStore *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdStore, ad_store_close)

/*
 * Records one denial of @a (already updated by ad_alert_set_add and, when
 * new, analysed): inserts or updates the alert row, its host count and
 * path list.  @denial is the denial just seen.  Sets @ret_new when the
 * store had no such alert.  Writes are batched in a transaction that
 * ad_store_commit() ends (the dispatcher commits at least every 100 ms).
 */
gboolean ad_store_record(AdStore *s, const AdAlert *a, const AdDenial *denial,
			 gboolean *ret_new, GError **error);
gboolean ad_store_commit(AdStore *s, GError **error);
/* applies the caps (max alerts, max age); returns the number pruned */
guint ad_store_prune(AdStore *s, double now);

/* JSON objects with DESIGN.md's analyze keys ("ignored" is for @uid) */
GPtrArray *ad_store_list(AdStore *s, double since, gboolean include_ignored, gint64 uid,
			 const char *host, GError **error);	/* json_object* (owned) */
json_object *ad_store_get(AdStore *s, const char *id, gint64 uid, GError **error);
gboolean ad_store_set_filter(AdStore *s, const char *id, gint64 uid, AdFilter filter,
			     GError **error);
AdFilter ad_store_get_filter(AdStore *s, const char *id, gint64 uid);
gboolean ad_store_delete(AdStore *s, const char *id, GError **error);
guint ad_store_count(AdStore *s);
/* an alert id as ad_denial_signature makes them: 16 lowercase hex digits */
gboolean ad_alert_id_is_valid(const char *id);

G_END_DECLS
