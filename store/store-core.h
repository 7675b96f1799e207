/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The store's core, which its other parts share (store-core.c: statements,
 * the in-memory map and transactions; store-write.c; store-read.c;
 * store-open.c; store-mail.c).  Not for use outside store/.
 */
#pragma once

#include <sqlite3.h>

#include "occurrences.h"
#include "store.h"

G_BEGIN_DECLS

#define AD_STORE_APPLICATION_ID 0x41564344	/* "AVCD" */
#define BUSY_TIMEOUT_MS 5000

enum {
	ST_BEGIN,
	ST_COMMIT,
	ST_ROLLBACK,
	ST_DATA_VERSION,
	ST_INSERT_ALERT,
	ST_UPDATE_ALERT,
	ST_UPDATE_ANALYSIS,
	ST_UPSERT_HOST,
	ST_INSERT_ITEM,
	ST_SELECT_HOSTS,
	ST_SELECT_ITEMS,
	ST_SELECT_FILTER,
	ST_SET_FILTER,
	ST_DELETE_FILTER,
	ST_DELETE_FILTERS,
	ST_DELETE_ALERT,
	ST_DELETE_HOSTS,
	ST_DELETE_ITEMS,
	ST_LIST,
	ST_GET,
	ST_COUNT,
	ST_LOOKUP,
	ST_RETIRE_NUM,
	ST_NUM,
	ST_GET_RECORDS,
	ST_SET_FIX_APPLIED,
	ST_GET_FIX_MODULE,
	ST_SET_FIX_MODULE,
	ST_GET_TIMELINE,
	ST_N
};


typedef struct {
	char *host;			/* key of StoreAlert.hosts */
	guint64 pending;		/* occurrences not written yet */
	double last_seen;		/* of the pending ones */
} HostCount;

/* what the writer keeps in memory of one alert */
typedef struct {
	char *id;
	gint64 num;
	guint64 count;
	gint64 blocked, logged_only;	/* -1: not counted (a row from before version 4) */
	double first_seen, last_seen;
	AdLevel level;
	gboolean dirty;			/* in AdStore.dirty */
	gboolean details;		/* hosts and items below are loaded */
	GHashTable *hosts;		/* host -> HostCount*, every host stored or pending */
	GPtrArray *dirty_hosts;		/* HostCount* with pending > 0 */
	GArray *item_hashes[2];		/* guint: g_bytes_hash of the stored paths, commands */
	GBytes *last_item[2];		/* the last item seen: a flood skips the lookup */
	AdOccurrences *pending_occ;	/* occurrences not written yet, or NULL */
	AdDenial *latest;		/* pending latest denial and its verdict */
	const AdVerdict *verdict;
} StoreAlert;

struct _AdStore {
	GMutex lock;
	sqlite3 *db;
	char *path;
	gboolean readonly;
	AdStoreLimits limits;
	sqlite3_stmt *st[ST_N];
	int setup_rc;			/* SQLite's code when opening failed */
	/* writer only */
	gboolean in_txn;
	gboolean stale;			/* the map must be reloaded before use */
	gint64 data_version;
	GHashTable *alerts;		/* id -> StoreAlert* */
	GPtrArray *dirty;		/* StoreAlert*, borrowed */
};

/* shared helpers: see their definitions for what they do */
void store_abort_txn(AdStore *s);
HostCount *store_add_host(StoreAlert *sa, const char *host);
gboolean store_begin(AdStore *s, GError **error);
void store_bind_bytes(sqlite3_stmt *q, int i, GBytes *b);
void store_bind_text_or_null(sqlite3_stmt *q, int i, const char *t);
gboolean store_check_id(const char *id, GError **error);
gboolean store_commit_locked(AdStore *s, GError **error);
char *store_denial_json_text(const AdDenial *d, const AdVerdict *v);
void store_details_init(StoreAlert *sa);
gboolean store_flush_for_read(AdStore *s, GError **error);
gboolean store_flush(AdStore *s, GError **error);
AdFilter store_get_filter_locked(AdStore *s, const char *id, gint64 uid);
gboolean store_load_details(AdStore *s, StoreAlert *sa, GError **error);
GBytes *store_records_blob(const AdDenial *d);
void store_refresh_map(AdStore *s);
gboolean store_run(AdStore *s, sqlite3_stmt *q, GError **error);
void store_set_db_error(GError **error, sqlite3 *db, int code, const char *what);
sqlite3_stmt *store_stmt(AdStore *s, int which, GError **error);
StoreAlert *store_alert_new(const char *id, gint64 num);
void store_alert_free(StoreAlert *sa);
void store_drop_pending(AdStore *s);
gboolean store_load_map(AdStore *s, GError **error);

G_END_DECLS
