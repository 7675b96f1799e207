// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The alert store's core: its statements, the map of alerts in memory and
 * transactions, under store.h's functions (store-open.c, store-write.c,
 * store-read.c).  The store is SQLite in WAL mode, one row per alert
 * (signature).
 *
 * Layout (schema version 2, PRAGMA user_version; application_id "AVCD"):
 *   alerts       one row per signature: counters, level, summary, the analysis
 *                (the `analyze --json` object without its per-occurrence keys),
 *                the latest denial's why object and the latest event's raw records
 *   alert_hosts  (alert, host) -> count, last seen; "" is the local host
 *   alert_items  distinct paths (kind 0) and commands (kind 1), at most
 *                AD_ALERT_MAX_PATHS of each per alert, in order of first sight
 *   filters      (alert id, uid) -> "after_first" | "always"; no row = "never"
 *   retired      one row: the highest alert number (num) ever deleted; new
 *                rows are numbered above it, so a number is never reused
 *
 * Speed: ad_store_record() runs no SQL for an alert already known.  The
 * first record of a batch opens a write transaction (BEGIN IMMEDIATE) and
 * checks PRAGMA data_version, so another process's changes (a `delete
 * --db`) are noticed; counters, hosts and the latest event then
 * accumulate in memory and are written once per alert by the flush that
 * ad_store_commit() (and every reading call) does.  New alerts and level
 * changes are written at once, with the analysis JSON.
 *
 * Safety: the directory is created 0700 and must not be writable by group
 * or others nor owned by another user (else someone could plant the -wal
 * or -shm files SQLite opens by name); the file is created 0600 by us with
 * O_NOFOLLOW, must be a regular file with one link, owned by us; mode bits
 * beyond 0640 are removed (an administrator may chgrp the store and make it
 * 0640 so that a group can read it with `--db`; -wal and -shm follow the
 * file's mode).  Any file that SQLite says is not a database or damaged,
 * or that fails PRAGMA quick_check, is renamed PATH.corrupt-UNIXTIME (its
 * -wal beside it) and a new store is created, once: a second failure is an
 * error, never a loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <sqlite3.h>

#include "escape.h"
#include "output/report.h"
#include "store-core.h"

gboolean store_check_id(const char *id, GError **error)
{
	if (ad_alert_id_is_valid(id))
		return TRUE;
	g_autofree char *shown = id ? ad_escape_str(id) : g_strdup("(null)");

	g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
		    _("\"%s\" is not an alert id (16 lowercase hex digits)"), shown);
	return FALSE;
}

/* ------------------------------------------------------------ the store */

static const char *const statements[ST_N] = {
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_DATA_VERSION] = "PRAGMA data_version",
	[ST_INSERT_ALERT] = "INSERT INTO alerts (num, id, record_type, stype, ttype, tclass, "
			    "perms, count, first_seen, last_seen, level, summary, analysis, "
			    "denial, records, blocked, logged_only) VALUES (max(coalesce((SELECT "
			    "max(num) FROM alerts), 0), coalesce((SELECT max(high) FROM "
			    "retired), 0)) + 1, ?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, ?7, ?8, ?9, ?10, "
			    "?11, ?12, 0, 0)",
	[ST_UPDATE_ALERT] = "UPDATE alerts SET count = ?2, first_seen = ?3, last_seen = ?4, "
			    "denial = coalesce(?5, denial), records = coalesce(?6, records), "
			    "blocked = ?7, logged_only = ?8, timeline = coalesce(?9, timeline) "
			    "WHERE num = ?1",
	/* a stored analysis that changes is a new generation of the alert */
	[ST_UPDATE_ANALYSIS] = "UPDATE alerts SET level = ?2, summary = ?3, analysis = ?4, "
			       "analysis_gen = analysis_gen + (analysis IS NOT ?4) "
			       "WHERE num = ?1",
	[ST_UPSERT_HOST] = "INSERT INTO alert_hosts (alert, host, count, last_seen) "
			   "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (alert, host) DO UPDATE SET "
			   "count = count + excluded.count, "
			   "last_seen = max(last_seen, excluded.last_seen)",
	[ST_INSERT_ITEM] = "INSERT OR IGNORE INTO alert_items (alert, kind, value) "
			   "VALUES (?1, ?2, ?3)",
	[ST_SELECT_HOSTS] = "SELECT host, count FROM alert_hosts WHERE alert = ?1 ORDER BY host",
	[ST_SELECT_ITEMS] = "SELECT kind, value FROM alert_items WHERE alert = ?1 "
			    "ORDER BY rowid",
	[ST_SELECT_FILTER] = "SELECT filter FROM filters WHERE id = ?1 AND uid = ?2",
	[ST_SET_FILTER] = "INSERT OR REPLACE INTO filters (id, uid, filter) VALUES (?1, ?2, ?3)",
	[ST_DELETE_FILTER] = "DELETE FROM filters WHERE id = ?1 AND uid = ?2",
	[ST_DELETE_FILTERS] = "DELETE FROM filters WHERE id = ?1",
	[ST_DELETE_ALERT] = "DELETE FROM alerts WHERE num = ?1",
	[ST_DELETE_HOSTS] = "DELETE FROM alert_hosts WHERE alert = ?1",
	[ST_DELETE_ITEMS] = "DELETE FROM alert_items WHERE alert = ?1",
	[ST_RETIRE_NUM] = "UPDATE retired SET high = max(high, ?1)",
	[ST_NUM] = "SELECT num, analysis_gen FROM alerts WHERE id = ?1",
	[ST_LIST] = "SELECT num, id, count, first_seen, last_seen, level, summary, analysis, "
		    "denial, records, fix_applied, blocked, logged_only, timeline FROM alerts "
		    "WHERE last_seen >= ?1 AND (?2 IS NULL OR "
		    "EXISTS (SELECT 1 FROM alert_hosts h WHERE h.alert = alerts.num AND "
		    "h.host = ?2)) ORDER BY last_seen, num",
	[ST_GET] = "SELECT num, id, count, first_seen, last_seen, level, summary, analysis, "
		   "denial, records, fix_applied, blocked, logged_only, timeline FROM alerts "
		   "WHERE id = ?1",
	[ST_COUNT] = "SELECT count(*) FROM alerts",
	[ST_LOOKUP] = "SELECT count, level FROM alerts WHERE id = ?1",
	[ST_GET_RECORDS] = "SELECT records FROM alerts WHERE id = ?1",
	[ST_SET_FIX_APPLIED] = "UPDATE alerts SET fix_applied = ?2 WHERE id = ?1",
	[ST_GET_FIX_MODULE] = "SELECT alert FROM fix_modules WHERE name = ?1",
	[ST_SET_FIX_MODULE] = "INSERT OR REPLACE INTO fix_modules (name, alert, loaded) "
			      "VALUES (?1, ?2, ?3)",
	[ST_GET_TIMELINE] = "SELECT timeline FROM alerts WHERE num = ?1",
};

void store_alert_free(StoreAlert *sa)
{
	g_free(sa->id);
	g_clear_pointer(&sa->hosts, g_hash_table_unref);
	g_clear_pointer(&sa->dirty_hosts, g_ptr_array_unref);
	for (int k = 0; k < 2; k++) {
		g_clear_pointer(&sa->item_hashes[k], g_array_unref);
		g_clear_pointer(&sa->last_item[k], g_bytes_unref);
	}
	g_clear_pointer(&sa->latest, ad_denial_unref);
	g_clear_pointer(&sa->verdict, ad_verdict_unref);
	g_clear_pointer(&sa->pending_occ, ad_occurrences_free);
	g_free(sa);
}

static void host_count_free(HostCount *h)
{
	g_free(h->host);
	g_free(h);
}

/*
 * The error of the last call on @db as a GError; @what names the operation.
 * Damage found while running is AD_STORE_ERROR_CORRUPT: closing and opening
 * the store again moves the file aside.
 */
void store_set_db_error(GError **error, sqlite3 *db, int code, const char *what)
{
	int rc = sqlite3_errcode(db) & 0xff;

	if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)
		code = AD_STORE_ERROR_CORRUPT;
	g_set_error(error, AD_STORE_ERROR, code, "%s: %s", what, sqlite3_errmsg(db));
}

sqlite3_stmt *store_stmt(AdStore *s, int which, GError **error)
{
	if (!s->st[which] &&
	    sqlite3_prepare_v3(s->db, statements[which], -1, SQLITE_PREPARE_PERSISTENT,
			       &s->st[which], NULL) != SQLITE_OK) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot prepare a statement"));
		return NULL;
	}
	sqlite3_reset(s->st[which]);
	sqlite3_clear_bindings(s->st[which]);
	return s->st[which];
}

/* steps a statement that returns no rows */
gboolean store_run(AdStore *s, sqlite3_stmt *q, GError **error)
{
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return TRUE;
	store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot write the alert store"));
	return FALSE;
}

static gboolean run_simple(AdStore *s, int which, GError **error)
{
	sqlite3_stmt *q = store_stmt(s, which, error);

	return q && store_run(s, q, error);
}

void store_bind_text_or_null(sqlite3_stmt *q, int i, const char *t)
{
	if (t)
		sqlite3_bind_text(q, i, t, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(q, i);
}

/* ------------------------------------------------------------ the map */

StoreAlert *store_alert_new(const char *id, gint64 num)
{
	StoreAlert *sa = g_new0(StoreAlert, 1);

	sa->id = g_strdup(id);
	sa->num = num;
	return sa;
}

/* a blocked / logged_only column: NULL (a row from an older store) is -1 */
static gint64 column_count(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, i);
}

/* reads every alert's id, key and counters: the writer then runs no SELECT per record */
gboolean store_load_map(AdStore *s, GError **error)
{
	sqlite3_stmt *q = NULL;
	int rc;

	g_hash_table_remove_all(s->alerts);
	if (sqlite3_prepare_v2(s->db, "SELECT num, id, count, first_seen, last_seen, level, "
			       "blocked, logged_only FROM alerts", -1, &q, NULL) != SQLITE_OK) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(q, 1);
		StoreAlert *sa;
		AdLevel level = AD_LEVEL_YELLOW;

		if (!ad_alert_id_is_valid(id))
			continue;
		sa = store_alert_new(id, sqlite3_column_int64(q, 0));
		sa->count = sqlite3_column_int64(q, 2);
		sa->first_seen = sqlite3_column_double(q, 3);
		sa->last_seen = sqlite3_column_double(q, 4);
		ad_level_from_name((const char *)sqlite3_column_text(q, 5), &level);
		sa->level = level;
		sa->blocked = column_count(q, 6);
		sa->logged_only = column_count(q, 7);
		g_hash_table_insert(s->alerts, sa->id, sa);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	s->stale = FALSE;
	return TRUE;
}

void store_details_init(StoreAlert *sa)
{
	sa->hosts = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					  (GDestroyNotify)host_count_free);
	sa->dirty_hosts = g_ptr_array_new();
	for (int k = 0; k < 2; k++)
		sa->item_hashes[k] = g_array_new(FALSE, FALSE, sizeof(guint));
	sa->details = TRUE;
}

HostCount *store_add_host(StoreAlert *sa, const char *host)
{
	HostCount *h = g_new0(HostCount, 1);

	h->host = g_strdup(host);
	g_hash_table_insert(sa->hosts, h->host, h);
	return h;
}

/* the hosts and items of an alert, read the first time it is seen in a session */
gboolean store_load_details(AdStore *s, StoreAlert *sa, GError **error)
{
	sqlite3_stmt *q;
	int rc;

	store_details_init(sa);
	if (!(q = store_stmt(s, ST_SELECT_HOSTS, error)))
		return FALSE;
	sqlite3_bind_int64(q, 1, sa->num);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		store_add_host(sa, (const char *)sqlite3_column_text(q, 0));
	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		goto fail;
	if (!(q = store_stmt(s, ST_SELECT_ITEMS, error)))
		return FALSE;
	sqlite3_bind_int64(q, 1, sa->num);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int k = sqlite3_column_int(q, 0);
		g_autoptr(GBytes) b = g_bytes_new(sqlite3_column_blob(q, 1),
						  sqlite3_column_bytes(q, 1));
		guint h = g_bytes_hash(b);

		if (k == 0 || k == 1)
			g_array_append_val(sa->item_hashes[k], h);
	}
	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		goto fail;
	return TRUE;
fail:
	store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
	return FALSE;
}

/* outside a transaction: what other connections committed is read again */
void store_refresh_map(AdStore *s)
{
	sqlite3_stmt *q = store_stmt(s, ST_DATA_VERSION, NULL);
	gint64 version;

	if (!q || sqlite3_step(q) != SQLITE_ROW) {
		if (q)
			sqlite3_reset(q);
		s->stale = TRUE;
		return;
	}
	version = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if ((version != s->data_version || s->stale) && store_load_map(s, NULL))
		s->data_version = version;
}

/* ------------------------------------------------------------ transactions */

void store_drop_pending(AdStore *s)
{
	for (guint i = 0; i < s->dirty->len; i++) {
		StoreAlert *sa = g_ptr_array_index(s->dirty, i);

		sa->dirty = FALSE;
		g_clear_pointer(&sa->latest, ad_denial_unref);
		g_clear_pointer(&sa->pending_occ, ad_occurrences_free);
	}
	g_ptr_array_set_size(s->dirty, 0);
}

/* a failed write: nothing of the batch stays, the map is read again */
void store_abort_txn(AdStore *s)
{
	if (s->in_txn && sqlite3_get_autocommit(s->db) == 0) {
		sqlite3_stmt *q = store_stmt(s, ST_ROLLBACK, NULL);

		if (q)
			store_run(s, q, NULL);
	}
	s->in_txn = FALSE;
	store_drop_pending(s);
	s->stale = TRUE;
}

/* opens the batch's write transaction; reloads the map when another connection wrote */
gboolean store_begin(AdStore *s, GError **error)
{
	sqlite3_stmt *q;
	gint64 version;

	if (s->in_txn)
		return TRUE;
	if (!run_simple(s, ST_BEGIN, error))
		return FALSE;
	s->in_txn = TRUE;
	if (!(q = store_stmt(s, ST_DATA_VERSION, error)))
		goto fail;
	if (sqlite3_step(q) != SQLITE_ROW) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		goto fail;
	}
	version = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if ((version != s->data_version || s->stale) && !store_load_map(s, error))
		goto fail;
	s->data_version = version;
	return TRUE;
fail:
	store_abort_txn(s);
	return FALSE;
}

char *store_denial_json_text(const AdDenial *d, const AdVerdict *v)
{
	json_object *o = ad_denial_to_json(d, v);
	char *t = g_strdup(ad_json_line(o));

	json_object_put(o);
	return t;
}

/* the raw records of the denial's event, one per line */
GBytes *store_records_blob(const AdDenial *d)
{
	GString *s = g_string_new(NULL);
	const AdEvent *ev = d->event;

	for (guint i = 0; ev && i < ev->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(ev->records, i);

		if (i)
			g_string_append_c(s, '\n');
		g_string_append(s, rec->text);
	}
	return g_string_free_to_bytes(s);
}

void store_bind_bytes(sqlite3_stmt *q, int i, GBytes *b)
{
	gsize len;
	const void *data = g_bytes_get_data(b, &len);

	sqlite3_bind_blob64(q, i, data ? data : "", len, SQLITE_TRANSIENT);
}

/* a blocked / logged_only count: -1 (not counted) is NULL */
static void bind_count(sqlite3_stmt *q, int i, gint64 n)
{
	if (n < 0)
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_int64(q, i, n);
}

/*
 * The alert's stored occurrences with the pending ones added, as text
 * (bounded: ad_occurrences_add coarsens); NULL when none are pending.
 */
static char *timeline_text(AdStore *s, StoreAlert *sa, GError **error, gboolean *ret_ok)
{
	sqlite3_stmt *q;
	g_autoptr(AdOccurrences) occ = NULL;
	int rc;

	*ret_ok = TRUE;
	if (!sa->pending_occ)
		return NULL;
	if (!(q = store_stmt(s, ST_GET_TIMELINE, error))) {
		*ret_ok = FALSE;
		return NULL;
	}
	occ = ad_occurrences_new();
	sqlite3_bind_int64(q, 1, sa->num);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		ad_occurrences_parse(occ, (const char *)sqlite3_column_text(q, 0));
	sqlite3_reset(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		*ret_ok = FALSE;
		return NULL;
	}
	ad_occurrences_merge(occ, sa->pending_occ);
	return ad_occurrences_to_text(occ);
}

/* writes what accumulated in memory (inside the open transaction) */
gboolean store_flush(AdStore *s, GError **error)
{
	for (guint i = 0; i < s->dirty->len; i++) {
		StoreAlert *sa = g_ptr_array_index(s->dirty, i);
		gboolean ok;
		g_autofree char *timeline = timeline_text(s, sa, error, &ok);
		sqlite3_stmt *q = ok ? store_stmt(s, ST_UPDATE_ALERT, error) : NULL;
		g_autofree char *denial = NULL;
		g_autoptr(GBytes) records = NULL;

		if (!q)
			return FALSE;
		store_bind_text_or_null(q, 9, timeline);
		sqlite3_bind_int64(q, 1, sa->num);
		sqlite3_bind_int64(q, 2, (sqlite3_int64)sa->count);
		sqlite3_bind_double(q, 3, sa->first_seen);
		sqlite3_bind_double(q, 4, sa->last_seen);
		bind_count(q, 7, sa->blocked);
		bind_count(q, 8, sa->logged_only);
		if (sa->latest) {
			denial = store_denial_json_text(sa->latest, sa->verdict);
			records = store_records_blob(sa->latest);
			sqlite3_bind_text(q, 5, denial, -1, SQLITE_STATIC);
			store_bind_bytes(q, 6, records);
		}
		if (!store_run(s, q, error))
			return FALSE;
		for (guint j = 0; j < sa->dirty_hosts->len; j++) {
			HostCount *h = g_ptr_array_index(sa->dirty_hosts, j);

			if (!(q = store_stmt(s, ST_UPSERT_HOST, error)))
				return FALSE;
			sqlite3_bind_int64(q, 1, sa->num);
			sqlite3_bind_text(q, 2, h->host, -1, SQLITE_STATIC);
			sqlite3_bind_int64(q, 3, (sqlite3_int64)h->pending);
			sqlite3_bind_double(q, 4, h->last_seen);
			if (!store_run(s, q, error))
				return FALSE;
			h->pending = 0;
		}
		g_ptr_array_set_size(sa->dirty_hosts, 0);
		g_clear_pointer(&sa->latest, ad_denial_unref);
		g_clear_pointer(&sa->verdict, ad_verdict_unref);
		g_clear_pointer(&sa->pending_occ, ad_occurrences_free);
		sa->dirty = FALSE;
	}
	g_ptr_array_set_size(s->dirty, 0);
	return TRUE;
}

/* flush + COMMIT; on failure the batch is rolled back */
gboolean store_commit_locked(AdStore *s, GError **error)
{
	if (!s->in_txn)
		return TRUE;
	if (!store_flush(s, error) || !run_simple(s, ST_COMMIT, error)) {
		store_abort_txn(s);
		return FALSE;
	}
	s->in_txn = FALSE;
	return TRUE;
}

/* before a read: what is pending becomes visible to this connection */
gboolean store_flush_for_read(AdStore *s, GError **error)
{
	if (s->readonly || !s->in_txn)
		return TRUE;
	if (!store_flush(s, error)) {
		store_abort_txn(s);
		return FALSE;
	}
	return TRUE;
}
