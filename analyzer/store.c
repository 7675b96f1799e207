// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The alert store: SQLite in WAL mode, one row per alert (signature).
 *
 * Layout (schema version 1, PRAGMA user_version; application_id "AVCD"):
 *   alerts       one row per signature: counters, level, summary, the analysis
 *                (DESIGN.md's analyze object without its per-occurrence keys),
 *                the latest denial's why object and the latest event's raw records
 *   alert_hosts  (alert, host) -> count, last seen; "" is the local host
 *   alert_items  distinct paths (kind 0) and commands (kind 1), at most
 *                AD_ALERT_MAX_PATHS of each per alert, in order of first sight
 *   filters      (alert id, uid) -> "after_first" | "always"; no row = "never"
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

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <sqlite3.h>

#include "escape.h"
#include "report.h"
#include "store.h"

#define AD_STORE_APPLICATION_ID 0x41564344	/* "AVCD" */
#define BUSY_TIMEOUT_MS 5000

/* ------------------------------------------------------------ errors */

static const GDBusErrorEntry store_error_entries[] = {
	{ AD_STORE_ERROR_OPEN, "org.avcdoctor.Alerts1.Error.Open" },
	{ AD_STORE_ERROR_CORRUPT, "org.avcdoctor.Alerts1.Error.Corrupt" },
	{ AD_STORE_ERROR_UNSAFE, "org.avcdoctor.Alerts1.Error.Unsafe" },
	{ AD_STORE_ERROR_NOT_FOUND, "org.avcdoctor.Alerts1.Error.NotFound" },
	{ AD_STORE_ERROR_INVALID, "org.avcdoctor.Alerts1.Error.Invalid" },
	{ AD_STORE_ERROR_IO, "org.avcdoctor.Alerts1.Error.IO" },
};

/*
 * Registered with GDBus: a service that returns an AD_STORE_ERROR through
 * g_dbus_method_invocation_return_gerror() hands the same domain and code
 * to a client that has called this function before its call.
 */
GQuark ad_store_error_quark(void)
{
	static gsize quark;

	g_dbus_error_register_error_domain("ad-store-error-quark", &quark, store_error_entries,
					   G_N_ELEMENTS(store_error_entries));
	return (GQuark)quark;
}

static const char *const filter_names[] = { "never", "after_first", "always" };

const char *ad_filter_name(AdFilter f)
{
	return (guint)f < G_N_ELEMENTS(filter_names) ? filter_names[f] : "never";
}

gboolean ad_filter_from_name(const char *name, AdFilter *ret)
{
	for (guint i = 0; i < G_N_ELEMENTS(filter_names); i++) {
		if (g_strcmp0(name, filter_names[i]) == 0) {
			*ret = i;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean ad_filter_is_ignored(AdFilter f, guint64 count)
{
	return f == AD_FILTER_ALWAYS || (f == AD_FILTER_AFTER_FIRST && count > 1);
}

gboolean ad_alert_id_is_valid(const char *id)
{
	if (!id)
		return FALSE;
	for (int i = 0; i < 16; i++)
		if (!g_ascii_isdigit(id[i]) && !(id[i] >= 'a' && id[i] <= 'f'))
			return FALSE;
	return id[16] == '\0';
}

static gboolean check_id(const char *id, GError **error)
{
	if (ad_alert_id_is_valid(id))
		return TRUE;
	g_autofree char *shown = id ? ad_escape_str(id) : g_strdup("(null)");

	g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
		    _("\"%s\" is not an alert id (16 lowercase hex digits)"), shown);
	return FALSE;
}

/* ------------------------------------------------------------ schema */

/*
 * Migrations: entry N takes a store from user_version N to N + 1, inside
 * one transaction with the version bump.  Version 2 is one more entry.
 */
typedef struct {
	const char *sql;
	gboolean (*func)(sqlite3 *db, GError **error);	/* after sql; may be NULL */
} Migration;

static const char schema_v1[] =
	"CREATE TABLE alerts ("
	" num INTEGER PRIMARY KEY,"		/* stable key of the child rows */
	" id TEXT NOT NULL UNIQUE,"		/* 16 hex digits (ad_denial_signature) */
	" record_type TEXT, stype TEXT, ttype TEXT, tclass TEXT,"
	" perms TEXT NOT NULL DEFAULT '',"	/* sorted, space separated */
	" count INTEGER NOT NULL DEFAULT 0,"
	" first_seen REAL NOT NULL, last_seen REAL NOT NULL,"
	" level TEXT NOT NULL,"
	" summary TEXT NOT NULL,"
	" analysis TEXT NOT NULL,"		/* JSON object */
	" denial TEXT,"				/* JSON: why object of the latest denial */
	" records BLOB);"			/* raw records of the latest event, \\n-separated */
	"CREATE INDEX alerts_last_seen ON alerts(last_seen);"
	"CREATE TABLE alert_hosts ("
	" alert INTEGER NOT NULL, host TEXT NOT NULL,"
	" count INTEGER NOT NULL, last_seen REAL NOT NULL,"
	" PRIMARY KEY (alert, host)) WITHOUT ROWID;"
	"CREATE INDEX alert_hosts_host ON alert_hosts(host);"
	"CREATE TABLE alert_items ("
	" alert INTEGER NOT NULL, kind INTEGER NOT NULL, value BLOB NOT NULL,"
	" UNIQUE (alert, kind, value));"
	"CREATE TABLE filters ("
	" id TEXT NOT NULL, uid INTEGER NOT NULL, filter TEXT NOT NULL,"
	" PRIMARY KEY (id, uid)) WITHOUT ROWID;";

static const Migration migrations[] = {
	{ schema_v1, NULL },		/* 0 -> 1 */
};

G_STATIC_ASSERT(G_N_ELEMENTS(migrations) == AD_STORE_SCHEMA_VERSION);

/* ------------------------------------------------------------ the store */

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
	ST_N
};

static const char *const statements[ST_N] = {
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_DATA_VERSION] = "PRAGMA data_version",
	[ST_INSERT_ALERT] = "INSERT INTO alerts (id, record_type, stype, ttype, tclass, perms, "
			    "count, first_seen, last_seen, level, summary, analysis, denial, "
			    "records) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, ?7, ?7, ?8, ?9, ?10, "
			    "?11, ?12)",
	[ST_UPDATE_ALERT] = "UPDATE alerts SET count = ?2, first_seen = ?3, last_seen = ?4, "
			    "denial = coalesce(?5, denial), records = coalesce(?6, records) "
			    "WHERE num = ?1",
	[ST_UPDATE_ANALYSIS] = "UPDATE alerts SET level = ?2, summary = ?3, analysis = ?4 "
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
	[ST_LIST] = "SELECT num, id, count, first_seen, last_seen, level, summary, analysis, "
		    "denial, records FROM alerts WHERE last_seen >= ?1 AND (?2 IS NULL OR "
		    "EXISTS (SELECT 1 FROM alert_hosts h WHERE h.alert = alerts.num AND "
		    "h.host = ?2)) ORDER BY last_seen, num",
	[ST_GET] = "SELECT num, id, count, first_seen, last_seen, level, summary, analysis, "
		   "denial, records FROM alerts WHERE id = ?1",
	[ST_COUNT] = "SELECT count(*) FROM alerts",
	[ST_LOOKUP] = "SELECT count, level FROM alerts WHERE id = ?1",
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
	double first_seen, last_seen;
	AdLevel level;
	gboolean dirty;			/* in AdStore.dirty */
	gboolean details;		/* hosts and items below are loaded */
	GHashTable *hosts;		/* host -> HostCount*, every host stored or pending */
	GPtrArray *dirty_hosts;		/* HostCount* with pending > 0 */
	GArray *item_hashes[2];		/* guint: g_bytes_hash of the stored paths, commands */
	GBytes *last_item[2];		/* the last item seen: a flood skips the lookup */
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

static void store_alert_free(StoreAlert *sa)
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
static void set_db_error(GError **error, sqlite3 *db, int code, const char *what)
{
	int rc = sqlite3_errcode(db) & 0xff;

	if (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)
		code = AD_STORE_ERROR_CORRUPT;
	g_set_error(error, AD_STORE_ERROR, code, "%s: %s", what, sqlite3_errmsg(db));
}

static sqlite3_stmt *stmt(AdStore *s, int which, GError **error)
{
	if (!s->st[which] &&
	    sqlite3_prepare_v3(s->db, statements[which], -1, SQLITE_PREPARE_PERSISTENT,
			       &s->st[which], NULL) != SQLITE_OK) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot prepare a statement"));
		return NULL;
	}
	sqlite3_reset(s->st[which]);
	sqlite3_clear_bindings(s->st[which]);
	return s->st[which];
}

/* steps a statement that returns no rows */
static gboolean run(AdStore *s, sqlite3_stmt *q, GError **error)
{
	int rc = sqlite3_step(q);

	sqlite3_reset(q);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return TRUE;
	set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot write the alert store"));
	return FALSE;
}

static gboolean run_simple(AdStore *s, int which, GError **error)
{
	sqlite3_stmt *q = stmt(s, which, error);

	return q && run(s, q, error);
}

static void bind_text_or_null(sqlite3_stmt *q, int i, const char *t)
{
	if (t)
		sqlite3_bind_text(q, i, t, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(q, i);
}

/* ------------------------------------------------------------ the map */

static StoreAlert *store_alert_new(const char *id, gint64 num)
{
	StoreAlert *sa = g_new0(StoreAlert, 1);

	sa->id = g_strdup(id);
	sa->num = num;
	return sa;
}

/* reads every alert's id, key and counters: the writer then runs no SELECT per record */
static gboolean load_map(AdStore *s, GError **error)
{
	sqlite3_stmt *q = NULL;
	int rc;

	g_hash_table_remove_all(s->alerts);
	if (sqlite3_prepare_v2(s->db, "SELECT num, id, count, first_seen, last_seen, level "
			       "FROM alerts", -1, &q, NULL) != SQLITE_OK) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
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
		g_hash_table_insert(s->alerts, sa->id, sa);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	s->stale = FALSE;
	return TRUE;
}

static void details_init(StoreAlert *sa)
{
	sa->hosts = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					  (GDestroyNotify)host_count_free);
	sa->dirty_hosts = g_ptr_array_new();
	for (int k = 0; k < 2; k++)
		sa->item_hashes[k] = g_array_new(FALSE, FALSE, sizeof(guint));
	sa->details = TRUE;
}

static HostCount *add_host(StoreAlert *sa, const char *host)
{
	HostCount *h = g_new0(HostCount, 1);

	h->host = g_strdup(host);
	g_hash_table_insert(sa->hosts, h->host, h);
	return h;
}

/* the hosts and items of an alert, read the first time it is seen in a session */
static gboolean load_details(AdStore *s, StoreAlert *sa, GError **error)
{
	sqlite3_stmt *q;
	int rc;

	details_init(sa);
	if (!(q = stmt(s, ST_SELECT_HOSTS, error)))
		return FALSE;
	sqlite3_bind_int64(q, 1, sa->num);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		add_host(sa, (const char *)sqlite3_column_text(q, 0));
	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		goto fail;
	if (!(q = stmt(s, ST_SELECT_ITEMS, error)))
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
	set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
	return FALSE;
}

/* outside a transaction: what other connections committed is read again */
static void refresh_map(AdStore *s)
{
	sqlite3_stmt *q = stmt(s, ST_DATA_VERSION, NULL);
	gint64 version;

	if (!q || sqlite3_step(q) != SQLITE_ROW) {
		if (q)
			sqlite3_reset(q);
		s->stale = TRUE;
		return;
	}
	version = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if ((version != s->data_version || s->stale) && load_map(s, NULL))
		s->data_version = version;
}

/* ------------------------------------------------------------ transactions */

static void drop_pending(AdStore *s)
{
	for (guint i = 0; i < s->dirty->len; i++) {
		StoreAlert *sa = g_ptr_array_index(s->dirty, i);

		sa->dirty = FALSE;
		g_clear_pointer(&sa->latest, ad_denial_unref);
	}
	g_ptr_array_set_size(s->dirty, 0);
}

/* a failed write: nothing of the batch stays, the map is read again */
static void abort_txn(AdStore *s)
{
	if (s->in_txn && sqlite3_get_autocommit(s->db) == 0) {
		sqlite3_stmt *q = stmt(s, ST_ROLLBACK, NULL);

		if (q)
			run(s, q, NULL);
	}
	s->in_txn = FALSE;
	drop_pending(s);
	s->stale = TRUE;
}

/* opens the batch's write transaction; reloads the map when another connection wrote */
static gboolean begin(AdStore *s, GError **error)
{
	sqlite3_stmt *q;
	gint64 version;

	if (s->in_txn)
		return TRUE;
	if (!run_simple(s, ST_BEGIN, error))
		return FALSE;
	s->in_txn = TRUE;
	if (!(q = stmt(s, ST_DATA_VERSION, error)))
		goto fail;
	if (sqlite3_step(q) != SQLITE_ROW) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		goto fail;
	}
	version = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	if ((version != s->data_version || s->stale) && !load_map(s, error))
		goto fail;
	s->data_version = version;
	return TRUE;
fail:
	abort_txn(s);
	return FALSE;
}

static char *denial_json_text(const AdDenial *d, const AdVerdict *v)
{
	json_object *o = ad_denial_to_json(d, v);
	char *t = g_strdup(ad_json_line(o));

	json_object_put(o);
	return t;
}

/* the raw records of the denial's event, one per line */
static GBytes *records_blob(const AdDenial *d)
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

static void bind_bytes(sqlite3_stmt *q, int i, GBytes *b)
{
	gsize len;
	const void *data = g_bytes_get_data(b, &len);

	sqlite3_bind_blob64(q, i, data ? data : "", len, SQLITE_TRANSIENT);
}

/* writes what accumulated in memory (inside the open transaction) */
static gboolean flush(AdStore *s, GError **error)
{
	for (guint i = 0; i < s->dirty->len; i++) {
		StoreAlert *sa = g_ptr_array_index(s->dirty, i);
		sqlite3_stmt *q = stmt(s, ST_UPDATE_ALERT, error);
		g_autofree char *denial = NULL;
		g_autoptr(GBytes) records = NULL;

		if (!q)
			return FALSE;
		sqlite3_bind_int64(q, 1, sa->num);
		sqlite3_bind_int64(q, 2, (sqlite3_int64)sa->count);
		sqlite3_bind_double(q, 3, sa->first_seen);
		sqlite3_bind_double(q, 4, sa->last_seen);
		if (sa->latest) {
			denial = denial_json_text(sa->latest, sa->verdict);
			records = records_blob(sa->latest);
			sqlite3_bind_text(q, 5, denial, -1, SQLITE_STATIC);
			bind_bytes(q, 6, records);
		}
		if (!run(s, q, error))
			return FALSE;
		for (guint j = 0; j < sa->dirty_hosts->len; j++) {
			HostCount *h = g_ptr_array_index(sa->dirty_hosts, j);

			if (!(q = stmt(s, ST_UPSERT_HOST, error)))
				return FALSE;
			sqlite3_bind_int64(q, 1, sa->num);
			sqlite3_bind_text(q, 2, h->host, -1, SQLITE_STATIC);
			sqlite3_bind_int64(q, 3, (sqlite3_int64)h->pending);
			sqlite3_bind_double(q, 4, h->last_seen);
			if (!run(s, q, error))
				return FALSE;
			h->pending = 0;
		}
		g_ptr_array_set_size(sa->dirty_hosts, 0);
		g_clear_pointer(&sa->latest, ad_denial_unref);
		g_clear_pointer(&sa->verdict, ad_verdict_unref);
		sa->dirty = FALSE;
	}
	g_ptr_array_set_size(s->dirty, 0);
	return TRUE;
}

/* flush + COMMIT; on failure the batch is rolled back */
static gboolean commit_locked(AdStore *s, GError **error)
{
	if (!s->in_txn)
		return TRUE;
	if (!flush(s, error) || !run_simple(s, ST_COMMIT, error)) {
		abort_txn(s);
		return FALSE;
	}
	s->in_txn = FALSE;
	return TRUE;
}

/* before a read: what is pending becomes visible to this connection */
static gboolean flush_for_read(AdStore *s, GError **error)
{
	if (s->readonly || !s->in_txn)
		return TRUE;
	if (!flush(s, error)) {
		abort_txn(s);
		return FALSE;
	}
	return TRUE;
}

/* ------------------------------------------------------------ recording */

static char *perms_text(const AdAlert *a)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; a->perms && i < a->perms->len; i++)
		g_string_append_printf(s, "%s%s", i ? " " : "",
				       (char *)g_ptr_array_index(a->perms, i));
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/*
 * An alert's analysis as stored: the analyze object without what the store
 * keeps elsewhere, fresher (counts, times, hosts, the latest denial and its
 * records, paths).
 */
static char *analysis_text(const AdAlert *a)
{
	json_object *o = ad_alert_analysis_to_json(a);
	char *t;

	t = g_strdup(ad_json_line(o));
	json_object_put(o);
	return t;
}

static StoreAlert *insert_alert(AdStore *s, const AdAlert *a, double t, GError **error)
{
	sqlite3_stmt *q = stmt(s, ST_INSERT_ALERT, error);
	g_autofree char *perms = perms_text(a);
	g_autofree char *summary = ad_alert_summary(a);
	g_autofree char *analysis = analysis_text(a);
	g_autofree char *denial = denial_json_text(a->latest, a->verdict);
	g_autoptr(GBytes) records = records_blob(a->latest);
	StoreAlert *sa;

	if (!q)
		return NULL;
	sqlite3_bind_text(q, 1, a->id, -1, SQLITE_STATIC);
	bind_text_or_null(q, 2, a->latest->record_type);
	bind_text_or_null(q, 3, a->stype);
	bind_text_or_null(q, 4, a->ttype);
	bind_text_or_null(q, 5, a->tclass);
	sqlite3_bind_text(q, 6, perms, -1, SQLITE_STATIC);
	sqlite3_bind_double(q, 7, t);
	sqlite3_bind_text(q, 8, ad_level_name(a->level), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 9, summary, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 10, analysis, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 11, denial, -1, SQLITE_STATIC);
	bind_bytes(q, 12, records);
	if (!run(s, q, error))
		return NULL;
	sa = store_alert_new(a->id, sqlite3_last_insert_rowid(s->db));
	sa->first_seen = sa->last_seen = t;
	sa->level = a->level;
	details_init(sa);
	g_hash_table_insert(s->alerts, sa->id, sa);
	return sa;
}

static gboolean write_analysis(AdStore *s, StoreAlert *sa, const AdAlert *a, GError **error)
{
	sqlite3_stmt *q = stmt(s, ST_UPDATE_ANALYSIS, error);
	g_autofree char *summary = ad_alert_summary(a);
	g_autofree char *analysis = analysis_text(a);

	if (!q)
		return FALSE;
	sqlite3_bind_int64(q, 1, sa->num);
	sqlite3_bind_text(q, 2, ad_level_name(a->level), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, summary, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, analysis, -1, SQLITE_STATIC);
	if (!run(s, q, error))
		return FALSE;
	sa->level = a->level;
	return TRUE;
}

/* keeps a distinct path or command while the alert has fewer than AD_ALERT_MAX_PATHS */
static gboolean remember_item(AdStore *s, StoreAlert *sa, int kind, AdBytes item,
			      GError **error)
{
	GArray *hashes = sa->item_hashes[kind];
	sqlite3_stmt *q;
	GBytes *b;
	guint h;

	if (!item.data || hashes->len >= AD_ALERT_MAX_PATHS)
		return TRUE;
	if (ad_bytes_equal_gbytes(item, sa->last_item[kind]))
		return TRUE;
	g_clear_pointer(&sa->last_item[kind], g_bytes_unref);
	b = sa->last_item[kind] = ad_bytes_dup(item);
	h = g_bytes_hash(b);
	/* a hash collision only costs one distinct path in a list that is bounded anyway */
	for (guint i = 0; i < hashes->len; i++)
		if (g_array_index(hashes, guint, i) == h)
			return TRUE;
	if (!(q = stmt(s, ST_INSERT_ITEM, error)))
		return FALSE;
	sqlite3_bind_int64(q, 1, sa->num);
	sqlite3_bind_int(q, 2, kind);
	bind_bytes(q, 3, b);
	if (!run(s, q, error))
		return FALSE;
	g_array_append_val(hashes, h);
	return TRUE;
}

static double now_seconds(void)
{
	return g_get_real_time() / 1e6;
}

static gboolean writable(AdStore *s, GError **error)
{
	if (!s->readonly)
		return TRUE;
	g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
		    _("the alert store %s is open read-only"), s->path);
	return FALSE;
}

static gboolean record_locked(AdStore *s, const AdAlert *a, const AdDenial *denial,
			      gboolean *ret_new, GError **error)
{
	StoreAlert *sa;
	gboolean is_new;
	double t = ad_denial_time(denial);
	const char *host = ad_denial_node(denial);
	HostCount *hc;

	if (!writable(s, error))
		return FALSE;
	if (!a || !a->latest) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
			    _("no alert to record (a granted record is not an alert)"));
		return FALSE;
	}
	if (!check_id(a->id, error) || !begin(s, error))
		return FALSE;
	if (t <= 0)
		t = now_seconds();	/* no timestamp: seen now, not at the epoch */
	host = host ? host : "";
	sa = g_hash_table_lookup(s->alerts, a->id);
	is_new = sa == NULL;
	if (is_new) {
		if (!(sa = insert_alert(s, a, t, error)))
			goto fail;
	} else {
		if (a->suggestions && a->level != sa->level && !write_analysis(s, sa, a, error))
			goto fail;
		if (!sa->details && !load_details(s, sa, error))
			goto fail;
	}
	sa->count++;
	if (t < sa->first_seen)
		sa->first_seen = t;
	if (t >= sa->last_seen || sa->count == 1) {
		double lt = ad_denial_time(a->latest);

		sa->last_seen = MAX(t, sa->last_seen);
		/* the alert's latest denial, once it is at least as new as what is stored */
		if (!is_new && (lt >= sa->last_seen || lt <= 0)) {
			if (sa->latest != a->latest) {
				g_clear_pointer(&sa->latest, ad_denial_unref);
				sa->latest = ad_denial_ref(a->latest);
			}
			ad_verdict_ref(a->verdict);
			ad_verdict_unref(sa->verdict);
			sa->verdict = a->verdict;
		}
	}
	hc = g_hash_table_lookup(sa->hosts, host);
	if (!hc && g_hash_table_size(sa->hosts) < AD_STORE_MAX_HOSTS)
		hc = add_host(sa, host);
	if (hc) {
		if (!hc->pending++) {
			g_ptr_array_add(sa->dirty_hosts, hc);
			hc->last_seen = t;
		}
		hc->last_seen = MAX(hc->last_seen, t);
	}
	if (!remember_item(s, sa, 0, ad_bytes_or(denial->path, denial->name), error) ||
	    !remember_item(s, sa, 1, ad_bytes_or(denial->exe, denial->comm), error))
		goto fail;
	if (!sa->dirty) {
		sa->dirty = TRUE;
		g_ptr_array_add(s->dirty, sa);
	}
	if (ret_new)
		*ret_new = is_new;
	return TRUE;
fail:
	abort_txn(s);
	return FALSE;
}

gboolean ad_store_record(AdStore *s, const AdAlert *a, const AdDenial *denial,
			 gboolean *ret_new, GError **error)
{
	gboolean ok;

	g_return_val_if_fail(s && denial, FALSE);
	g_mutex_lock(&s->lock);
	ok = record_locked(s, a, denial, ret_new, error);
	g_mutex_unlock(&s->lock);
	return ok;
}

gboolean ad_store_commit(AdStore *s, GError **error)
{
	gboolean ok;

	g_return_val_if_fail(s, FALSE);
	g_mutex_lock(&s->lock);
	ok = s->readonly || commit_locked(s, error);
	g_mutex_unlock(&s->lock);
	return ok;
}

gboolean ad_store_set_analysis(AdStore *s, const AdAlert *a, GError **error)
{
	gboolean ok = FALSE;
	StoreAlert *sa;

	g_return_val_if_fail(s && a, FALSE);
	g_mutex_lock(&s->lock);
	if (!writable(s, error) || !check_id(a->id, error) || !a->latest || !begin(s, error))
		goto out;
	sa = g_hash_table_lookup(s->alerts, a->id);
	if (!sa) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, _("no alert %s"),
			    a->id);
		goto out;
	}
	if (!write_analysis(s, sa, a, error)) {
		abort_txn(s);
		goto out;
	}
	ok = TRUE;
out:
	g_mutex_unlock(&s->lock);
	return ok;
}

/* ------------------------------------------------------------ deleting */

static gboolean delete_num(AdStore *s, gint64 num, GError **error)
{
	static const int which[] = { ST_DELETE_ALERT, ST_DELETE_HOSTS, ST_DELETE_ITEMS };

	for (guint i = 0; i < G_N_ELEMENTS(which); i++) {
		sqlite3_stmt *q = stmt(s, which[i], error);

		if (!q)
			return FALSE;
		sqlite3_bind_int64(q, 1, num);
		if (!run(s, q, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean delete_filters(AdStore *s, const char *id, GError **error)
{
	sqlite3_stmt *q = stmt(s, ST_DELETE_FILTERS, error);

	if (!q)
		return FALSE;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
	return run(s, q, error);
}

gboolean ad_store_delete(AdStore *s, const char *id, GError **error)
{
	gboolean ok = FALSE;
	StoreAlert *sa;

	g_return_val_if_fail(s, FALSE);
	if (!check_id(id, error))
		return FALSE;
	g_mutex_lock(&s->lock);
	if (!writable(s, error) || !begin(s, error))
		goto out;
	if (!flush(s, error))
		goto fail;
	sa = g_hash_table_lookup(s->alerts, id);
	if (!sa) {
		commit_locked(s, NULL);
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, _("no alert %s"), id);
		goto out;
	}
	/* an explicit delete forgets the users' filters too (pruning keeps them) */
	if (!delete_num(s, sa->num, error) || !delete_filters(s, id, error))
		goto fail;
	g_hash_table_remove(s->alerts, id);
	ok = commit_locked(s, error);
	goto out;
fail:
	abort_txn(s);
out:
	g_mutex_unlock(&s->lock);
	return ok;
}

/* ids and keys of the alerts a query selects (?1 a time, ?2 a number) */
static gboolean collect(AdStore *s, const char *sql, double arg1, gint64 arg2, GArray *nums,
			GPtrArray *ids, GError **error)
{
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	sqlite3_bind_double(q, 1, arg1);
	sqlite3_bind_int64(q, 2, arg2);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		gint64 num = sqlite3_column_int64(q, 0);

		g_array_append_val(nums, num);
		g_ptr_array_add(ids, g_strdup((const char *)sqlite3_column_text(q, 1)));
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	return TRUE;
}

/*
 * Alerts not seen for max_age_days go first, then the oldest by last_seen
 * until at most max_alerts remain.  The users' filters of pruned alerts
 * stay: an alert someone chose to ignore is still ignored when it returns.
 */
guint ad_store_prune(AdStore *s, double now)
{
	g_autoptr(GArray) nums = g_array_new(FALSE, FALSE, sizeof(gint64));
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	double cutoff = -G_MAXDOUBLE;
	guint n = 0;

	g_return_val_if_fail(s, 0);
	g_mutex_lock(&s->lock);
	if (s->readonly || (!s->limits.max_alerts && !s->limits.max_age_days) ||
	    !begin(s, &error))
		goto out;
	if (!flush(s, &error))
		goto fail;
	if (s->limits.max_age_days) {
		cutoff = now - s->limits.max_age_days * 86400.0;
		if (!collect(s, "SELECT num, id FROM alerts WHERE last_seen < ?1", cutoff, 0, nums,
			     ids, &error))
			goto fail;
	}
	if (s->limits.max_alerts) {
		guint left = g_hash_table_size(s->alerts) - nums->len;

		if (left > s->limits.max_alerts &&
		    !collect(s, "SELECT num, id FROM alerts WHERE last_seen >= ?1 "
			     "ORDER BY last_seen, num LIMIT ?2", cutoff,
			     left - s->limits.max_alerts, nums, ids, &error))
			goto fail;
	}
	for (guint i = 0; i < nums->len; i++) {
		if (!delete_num(s, g_array_index(nums, gint64, i), &error))
			goto fail;
		g_hash_table_remove(s->alerts, g_ptr_array_index(ids, i));
	}
	if (commit_locked(s, &error)) {
		n = nums->len;
		goto out;
	}
fail:
	abort_txn(s);
out:
	if (error)
		g_warning("alert store %s: pruning failed: %s", s->path, error->message);
	g_mutex_unlock(&s->lock);
	return n;
}

/* ------------------------------------------------------------ filters */

static AdFilter get_filter_locked(AdStore *s, const char *id, gint64 uid)
{
	sqlite3_stmt *q;
	AdFilter f = AD_FILTER_NEVER;

	if (uid < 0 || !(q = stmt(s, ST_SELECT_FILTER, NULL)))
		return f;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, uid);
	if (sqlite3_step(q) == SQLITE_ROW &&
	    !ad_filter_from_name((const char *)sqlite3_column_text(q, 0), &f))
		f = AD_FILTER_NEVER;
	sqlite3_reset(q);
	return f;
}

AdFilter ad_store_get_filter(AdStore *s, const char *id, gint64 uid)
{
	AdFilter f;

	if (!s || !ad_alert_id_is_valid(id))
		return AD_FILTER_NEVER;
	g_mutex_lock(&s->lock);
	f = get_filter_locked(s, id, uid);
	g_mutex_unlock(&s->lock);
	return f;
}

gboolean ad_store_set_filter(AdStore *s, const char *id, gint64 uid, AdFilter filter,
			     GError **error)
{
	gboolean ok = FALSE;
	sqlite3_stmt *q;

	g_return_val_if_fail(s, FALSE);
	if (!check_id(id, error))
		return FALSE;
	if (uid < 0 || uid > G_MAXUINT32 || (guint)filter > AD_FILTER_ALWAYS) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
			    _("bad user id or filter"));
		return FALSE;
	}
	g_mutex_lock(&s->lock);
	if (!writable(s, error) || !begin(s, error))
		goto out;
	if (!g_hash_table_lookup(s->alerts, id)) {
		commit_locked(s, NULL);
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, _("no alert %s"), id);
		goto out;
	}
	/* "never" is the default: no row */
	q = stmt(s, filter == AD_FILTER_NEVER ? ST_DELETE_FILTER : ST_SET_FILTER, error);
	if (!q)
		goto fail;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, uid);
	if (filter != AD_FILTER_NEVER)
		sqlite3_bind_text(q, 3, ad_filter_name(filter), -1, SQLITE_STATIC);
	if (!run(s, q, error))
		goto fail;
	ok = commit_locked(s, error);
	goto out;
fail:
	abort_txn(s);
out:
	g_mutex_unlock(&s->lock);
	return ok;
}

/* ------------------------------------------------------------ reading */

static json_object *time_json(double t)
{
	char buf[64];

	if (t <= 0)
		return NULL;
	g_snprintf(buf, sizeof(buf), "%.3f", t);
	return json_object_new_double_s(t, buf);
}

/* a JSON object from stored text; NULL when it is none (a damaged or foreign store) */
static json_object *parse_object(const char *text)
{
	json_object *o = text ? json_tokener_parse(text) : NULL;

	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

static gboolean add_hosts(AdStore *s, json_object *o, gint64 num, GError **error)
{
	sqlite3_stmt *q = stmt(s, ST_SELECT_HOSTS, error);
	json_object *names = json_object_new_array();
	json_object *counts = json_object_new_object();
	int rc;

	json_object_object_add(o, "hosts", names);
	json_object_object_add(o, "host_counts", counts);
	if (!q)
		return FALSE;
	sqlite3_bind_int64(q, 1, num);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *host = (const char *)sqlite3_column_text(q, 0);

		host = host ? host : "";
		if (*host)
			json_object_array_add(names, json_object_new_string(host));
		json_object_object_add(counts, host,
				       json_object_new_int64(sqlite3_column_int64(q, 1)));
	}
	sqlite3_reset(q);
	if (rc != SQLITE_DONE) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	return TRUE;
}

static gboolean add_items(AdStore *s, json_object *o, gint64 num, GError **error)
{
	sqlite3_stmt *q = stmt(s, ST_SELECT_ITEMS, error);
	json_object *lists[2] = { json_object_new_array(), json_object_new_array() };
	int rc;

	json_object_object_add(o, "paths", lists[0]);
	json_object_object_add(o, "commands", lists[1]);
	if (!q)
		return FALSE;
	sqlite3_bind_int64(q, 1, num);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int k = sqlite3_column_int(q, 0);
		g_autofree char *v = ad_escape_bytes(sqlite3_column_blob(q, 1),
						     sqlite3_column_bytes(q, 1));

		if (k == 0 || k == 1)
			json_object_array_add(lists[k], json_object_new_string(v));
	}
	sqlite3_reset(q);
	if (rc != SQLITE_DONE) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	return TRUE;
}

static json_object *records_json(const void *data, gsize len)
{
	json_object *arr = json_object_new_array();
	const char *p = data, *end = p + len;

	while (p && p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *stop = nl ? nl : end;
		g_autofree char *esc = ad_escape_bytes(p, stop - p);

		json_object_array_add(arr, json_object_new_string(esc));
		p = nl ? nl + 1 : end;
	}
	return arr;
}

/*
 * One alert as DESIGN.md's analyze object, from a row of ST_LIST / ST_GET:
 * the fixed keys in their order, "host_counts", "filter" and "commands"
 * beside them, then whatever else the stored analysis holds.  Strings that
 * came from records are escaped (records, paths, commands).
 */
static json_object *row_to_json(AdStore *s, sqlite3_stmt *row, gint64 uid, gboolean *ret_ignored,
				GError **error)
{
	gint64 num = sqlite3_column_int64(row, 0);
	const char *id = (const char *)sqlite3_column_text(row, 1);
	guint64 count = sqlite3_column_int64(row, 2);
	const char *level = (const char *)sqlite3_column_text(row, 5);
	const char *summary = (const char *)sqlite3_column_text(row, 6);
	json_object *analysis = parse_object((const char *)sqlite3_column_text(row, 7));
	json_object *o = json_object_new_object();
	json_object *sugg = NULL;
	AdFilter f = get_filter_locked(s, id, uid);

	*ret_ignored = ad_filter_is_ignored(f, count);
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "count", json_object_new_uint64(count));
	json_object_object_add(o, "first_seen", time_json(sqlite3_column_double(row, 3)));
	json_object_object_add(o, "last_seen", time_json(sqlite3_column_double(row, 4)));
	json_object_object_add(o, "level", json_object_new_string(level ? level : "yellow"));
	if (!add_hosts(s, o, num, error))
		goto fail;
	json_object_object_add(o, "ignored", json_object_new_boolean(*ret_ignored));
	json_object_object_add(o, "filter", json_object_new_string(ad_filter_name(f)));
	json_object_object_add(o, "summary", json_object_new_string(summary ? summary : ""));
	json_object_object_add(o, "denial", parse_object((const char *)sqlite3_column_text(row, 8)));
	json_object_object_add(o, "records", records_json(sqlite3_column_blob(row, 9),
							  sqlite3_column_bytes(row, 9)));
	if (analysis && json_object_object_get_ex(analysis, "suggestions", &sugg) &&
	    json_object_is_type(sugg, json_type_array))
		json_object_object_add(o, "suggestions", json_object_get(sugg));
	else
		json_object_object_add(o, "suggestions", json_object_new_array());
	if (!add_items(s, o, num, error))
		goto fail;
	if (analysis) {
		json_object_object_foreach(analysis, key, val) {
			if (!json_object_object_get_ex(o, key, NULL))
				json_object_object_add(o, key, json_object_get(val));
		}
		json_object_put(analysis);
	}
	return o;
fail:
	json_object_put(analysis);
	json_object_put(o);
	return NULL;
}

static void json_put(gpointer o)
{
	json_object_put(o);
}

/* the caller owns the array; it frees its objects */
GPtrArray *ad_store_list(AdStore *s, double since, gboolean include_ignored, gint64 uid,
			 const char *host, GError **error)
{
	g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func(json_put);
	GPtrArray *ret = NULL;
	sqlite3_stmt *q;
	int rc;

	g_return_val_if_fail(s, NULL);
	g_mutex_lock(&s->lock);
	if (!flush_for_read(s, error) || !(q = stmt(s, ST_LIST, error)))
		goto out;
	sqlite3_bind_double(q, 1, since);
	if (host && *host)
		sqlite3_bind_text(q, 2, host, -1, SQLITE_TRANSIENT);
	/* row_to_json uses other statements: ST_LIST stays on its row meanwhile */
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		gboolean ignored;
		json_object *o;

		if (!ad_alert_id_is_valid((const char *)sqlite3_column_text(q, 1)))
			continue;
		if (!(o = row_to_json(s, q, uid, &ignored, error))) {
			sqlite3_reset(q);
			goto out;
		}
		if (ignored && !include_ignored)
			json_object_put(o);
		else
			g_ptr_array_add(list, o);
	}
	sqlite3_reset(q);
	if (rc != SQLITE_DONE) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		goto out;
	}
	ret = g_steal_pointer(&list);
out:
	g_mutex_unlock(&s->lock);
	return ret;
}

json_object *ad_store_get(AdStore *s, const char *id, gint64 uid, GError **error)
{
	json_object *o = NULL;
	sqlite3_stmt *q;
	gboolean ignored;
	int rc;

	g_return_val_if_fail(s, NULL);
	if (!check_id(id, error))
		return NULL;
	g_mutex_lock(&s->lock);
	if (!flush_for_read(s, error) || !(q = stmt(s, ST_GET, error)))
		goto out;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		o = row_to_json(s, q, uid, &ignored, error);
	else if (rc == SQLITE_DONE)
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, _("no alert %s"), id);
	else
		set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
	sqlite3_reset(q);
out:
	g_mutex_unlock(&s->lock);
	return o;
}

guint ad_store_count(AdStore *s)
{
	sqlite3_stmt *q;
	guint n = 0;

	g_return_val_if_fail(s, 0);
	g_mutex_lock(&s->lock);
	if ((q = stmt(s, ST_COUNT, NULL)) && sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	if (q)
		sqlite3_reset(q);
	g_mutex_unlock(&s->lock);
	return n;
}

gboolean ad_store_lookup(AdStore *s, const char *id, guint64 *ret_count, AdLevel *ret_level)
{
	gboolean found = FALSE;
	guint64 count = 0;
	AdLevel level = AD_LEVEL_YELLOW;
	sqlite3_stmt *q;

	if (!s || !ad_alert_id_is_valid(id))
		return FALSE;
	g_mutex_lock(&s->lock);
	if (!s->readonly && !s->in_txn)
		refresh_map(s);
	if (!s->readonly && !s->stale) {
		StoreAlert *sa = g_hash_table_lookup(s->alerts, id);

		if ((found = sa != NULL)) {
			count = sa->count;
			level = sa->level;
		}
	} else if ((q = stmt(s, ST_LOOKUP, NULL))) {
		sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
		if ((found = sqlite3_step(q) == SQLITE_ROW)) {
			count = sqlite3_column_int64(q, 0);
			ad_level_from_name((const char *)sqlite3_column_text(q, 1), &level);
		}
		sqlite3_reset(q);
	}
	g_mutex_unlock(&s->lock);
	if (found && ret_count)
		*ret_count = count;
	if (found && ret_level)
		*ret_level = level;
	return found;
}

void ad_store_set_limits(AdStore *s, const AdStoreLimits *limits)
{
	g_return_if_fail(s);
	g_mutex_lock(&s->lock);
	if (limits)
		s->limits = *limits;
	else
		memset(&s->limits, 0, sizeof(s->limits));
	g_mutex_unlock(&s->lock);
}

const char *ad_store_path(const AdStore *s)
{
	return s ? s->path : NULL;
}

gboolean ad_store_integrity_check(AdStore *s, GError **error)
{
	sqlite3_stmt *q = NULL;
	gboolean ok = FALSE;
	int rc;

	g_return_val_if_fail(s, FALSE);
	g_mutex_lock(&s->lock);
	if (!flush_for_read(s, error))
		goto out;
	if (sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK) {
		set_db_error(error, s->db, AD_STORE_ERROR_IO, s->path);
		goto out;
	}
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && g_strcmp0((const char *)sqlite3_column_text(q, 0), "ok") == 0)
		ok = TRUE;
	else if (rc == SQLITE_ROW)
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_CORRUPT, "%s: %s", s->path,
			    (const char *)sqlite3_column_text(q, 0));
	else
		set_db_error(error, s->db, AD_STORE_ERROR_CORRUPT, s->path);
	sqlite3_finalize(q);
out:
	g_mutex_unlock(&s->lock);
	return ok;
}

/* ------------------------------------------------------------ opening */

typedef enum {
	SETUP_OK,
	SETUP_CORRUPT,		/* not a database, damaged: move it aside (writer) */
	SETUP_FAIL,		/* @error set; the file is left alone */
} Setup;

static gboolean is_corrupt_code(int rc)
{
	return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB;
}

/* classifies a failed call: damage, or an error worth reporting as such */
static Setup setup_failed(AdStore *s, int rc, const char *what, char **ret_why, GError **error)
{
	s->setup_rc = rc;
	if (is_corrupt_code(rc)) {
		*ret_why = g_strdup(sqlite3_errmsg(s->db));
		return SETUP_CORRUPT;
	}
	g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN, "%s: %s: %s", s->path, what,
		    sqlite3_errmsg(s->db));
	return SETUP_FAIL;
}

static Setup exec(AdStore *s, const char *sql, char **ret_why, GError **error)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? SETUP_OK : setup_failed(s, rc, sql, ret_why, error);
}

/* the first column of the first row of @sql, as text (owned) */
static Setup query_text(AdStore *s, const char *sql, char **ret, char **ret_why, GError **error)
{
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &q, NULL);

	if (rc == SQLITE_OK) {
		rc = sqlite3_step(q);
		if (rc == SQLITE_ROW) {
			*ret = g_strdup((const char *)sqlite3_column_text(q, 0));
			rc = SQLITE_OK;
		} else if (rc == SQLITE_DONE) {
			*ret = NULL;
			rc = SQLITE_OK;
		}
	}
	if (rc != SQLITE_OK) {
		Setup r = setup_failed(s, rc, sql, ret_why, error);

		sqlite3_finalize(q);
		return r;
	}
	sqlite3_finalize(q);
	return SETUP_OK;
}

static Setup query_int(AdStore *s, const char *sql, gint64 *ret, char **ret_why, GError **error)
{
	g_autofree char *t = NULL;
	Setup r = query_text(s, sql, &t, ret_why, error);

	*ret = t ? g_ascii_strtoll(t, NULL, 10) : 0;
	return r;
}

/* what every connection gets: no code from the file (triggers, views), defensive mode */
static void harden(sqlite3 *db)
{
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
}

static Setup quick_check(AdStore *s, char **ret_why, GError **error)
{
	g_autofree char *res = NULL;
	Setup r = query_text(s, "PRAGMA quick_check", &res, ret_why, error);

	if (r == SETUP_OK && g_strcmp0(res, "ok") != 0) {
		*ret_why = g_strdup_printf("quick_check: %s", res ? res : "no answer");
		return SETUP_CORRUPT;
	}
	return r;
}

/* the schema version of a store; refuses other applications' databases and newer schemas */
static Setup schema_version(AdStore *s, gint64 *ret, char **ret_why, GError **error)
{
	gint64 app = 0, version = 0, tables = 0;
	Setup r;

	if ((r = query_int(s, "PRAGMA application_id", &app, ret_why, error)) != SETUP_OK ||
	    (r = query_int(s, "PRAGMA user_version", &version, ret_why, error)) != SETUP_OK ||
	    (r = query_int(s, "SELECT count(*) FROM sqlite_schema", &tables, ret_why, error)) !=
		    SETUP_OK)
		return r;
	if ((app && app != AD_STORE_APPLICATION_ID) || (!app && (version || tables))) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
			    _("%s is an SQLite database but not an avcdoctor alert store"),
			    s->path);
		return SETUP_FAIL;
	}
	if (version > AD_STORE_SCHEMA_VERSION) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
			    _("%s has schema version %" PRId64 ", made by a newer avcdoctor "
			      "(this one knows up to %d)"), s->path, version,
			    AD_STORE_SCHEMA_VERSION);
		return SETUP_FAIL;
	}
	*ret = version;
	return SETUP_OK;
}

/* brings the schema up to date, one transaction per step */
static Setup migrate(AdStore *s, char **ret_why, GError **error)
{
	for (;;) {
		gint64 version;
		Setup r;
		g_autofree char *bump = NULL;

		if ((r = exec(s, "BEGIN IMMEDIATE", ret_why, error)) != SETUP_OK)
			return r;
		/* read inside the transaction: another process may have migrated meanwhile */
		if ((r = schema_version(s, &version, ret_why, error)) != SETUP_OK)
			goto fail;
		if (version >= AD_STORE_SCHEMA_VERSION)
			return exec(s, "COMMIT", ret_why, error);
		bump = g_strdup_printf("PRAGMA application_id = %d; PRAGMA user_version = %"
				       PRId64, AD_STORE_APPLICATION_ID, version + 1);
		if ((r = exec(s, migrations[version].sql, ret_why, error)) != SETUP_OK)
			goto fail;
		if (migrations[version].func && !migrations[version].func(s->db, error)) {
			r = SETUP_FAIL;
			goto fail;
		}
		if ((r = exec(s, bump, ret_why, error)) != SETUP_OK ||
		    (r = exec(s, "COMMIT", ret_why, error)) != SETUP_OK)
			goto fail;
		continue;
fail:
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		if (r == SETUP_FAIL)
			g_prefix_error(error, _("cannot bring the alert store to schema version %"
						PRId64 ": "), version + 1);
		return r;
	}
}

static AdStore *store_new(const char *path, gboolean readonly)
{
	AdStore *s = g_new0(AdStore, 1);

	g_mutex_init(&s->lock);
	s->path = g_strdup(path);
	s->readonly = readonly;
	s->alerts = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					  (GDestroyNotify)store_alert_free);
	s->dirty = g_ptr_array_new();
	s->stale = TRUE;
	return s;
}

static void store_disconnect(AdStore *s)
{
	for (int i = 0; i < ST_N; i++)
		g_clear_pointer(&s->st[i], sqlite3_finalize);
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}

void ad_store_close(AdStore *s)
{
	if (!s)
		return;
	g_mutex_lock(&s->lock);
	if (!s->readonly && s->in_txn) {
		g_autoptr(GError) error = NULL;

		if (!commit_locked(s, &error))
			g_warning("alert store %s: %s", s->path, error->message);
	}
	drop_pending(s);
	g_mutex_unlock(&s->lock);
	store_disconnect(s);
	g_hash_table_unref(s->alerts);
	g_ptr_array_unref(s->dirty);
	g_free(s->path);
	g_mutex_clear(&s->lock);
	g_free(s);
}

/*
 * The directory of a writable store: created 0700 when missing; it must be
 * ours or root's and writable by nobody else, or whoever can write there
 * could plant the -wal and -shm files that SQLite opens by name.
 */
static gboolean dir_is_safe(const char *dir, gboolean create, GError **error)
{
	struct stat st;

	if (create && g_mkdir_with_parents(dir, 0700) < 0) {
		int e = errno;

		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
			    _("cannot create the directory %s: %s"), dir, g_strerror(e));
		return FALSE;
	}
	if (stat(dir, &st) < 0) {
		int e = errno;

		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN, "%s: %s", dir,
			    g_strerror(e));
		return FALSE;
	}
	if (!S_ISDIR(st.st_mode)) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE, _("%s is not a directory"),
			    dir);
		return FALSE;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
			    _("the directory %s belongs to uid %u, not to uid %u or root"), dir,
			    (guint)st.st_uid, (guint)geteuid());
		return FALSE;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
			    _("the directory %s is writable by others (mode %04o); it must be "
			      "0700 or 0750"), dir, (guint)(st.st_mode & 07777));
		return FALSE;
	}
	return TRUE;
}

/* SQLite's companions of the file must not be links planted to elsewhere */
static gboolean companions_are_safe(const char *path, GError **error)
{
	static const char *const suffixes[] = { "-wal", "-shm", "-journal" };

	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++) {
		g_autofree char *p = g_strconcat(path, suffixes[i], NULL);
		struct stat st;

		if (lstat(p, &st) < 0)
			continue;
		if (!S_ISREG(st.st_mode) || st.st_nlink > 1 || st.st_uid != geteuid()) {
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
				    _("%s is not a regular file of ours; refusing to open the "
				      "store beside it"), p);
			return FALSE;
		}
	}
	return TRUE;
}

/*
 * Creates or checks the store file itself, never through a symlink: a
 * regular file with one link, owned by us; mode bits beyond 0640 are
 * removed (noted in @ret_note).  Returns its device and inode.
 */
static gboolean prepare_file(const char *path, struct stat *ret_st, char **ret_note,
			     GError **error)
{
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK,
		      0600);
	struct stat st;
	int e;

	if (fd < 0) {
		e = errno;
		if (e == ELOOP)
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
				    _("%s is a symbolic link; the alert store is never opened "
				      "through one"), path);
		else
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN, "%s: %s", path,
				    g_strerror(e));
		return FALSE;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN, "%s: %s", path,
			    g_strerror(e));
		return FALSE;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		close(fd);
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
			    !S_ISREG(st.st_mode) ? _("%s is not a regular file")
			    : st.st_uid != geteuid() ? _("%s belongs to another user")
						     : _("%s has other hard links"), path);
		return FALSE;
	}
	if (st.st_mode & 07137) {
		mode_t mode = st.st_mode & 0640;

		if (fchmod(fd, mode) < 0) {
			e = errno;
			close(fd);
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
				    _("%s has mode %04o and cannot be made %04o: %s"), path,
				    (guint)(st.st_mode & 07777), (guint)mode, g_strerror(e));
			return FALSE;
		}
		*ret_note = g_strdup_printf(_("%s had mode %04o; it was made %04o"), path,
					    (guint)(st.st_mode & 07777), (guint)mode);
	}
	close(fd);	/* before SQLite takes its POSIX locks, which any close() would drop */
	*ret_st = st;
	return TRUE;
}

/* connects and sets up a writable store: WAL, checks, migrations, the map */
static Setup setup_rw(AdStore *s, const struct stat *file, char **ret_why, GError **error)
{
	g_autofree char *mode = NULL;
	gint64 version;
	struct stat st;
	int rc;
	Setup r;

	rc = sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc != SQLITE_OK)
		return s->db ? setup_failed(s, rc, _("cannot open"), ret_why, error)
			     : (g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
					    "%s: %s", s->path, sqlite3_errstr(rc)), SETUP_FAIL);
	/* the file SQLite opened is the one checked */
	if (lstat(s->path, &st) < 0 || st.st_dev != file->st_dev || st.st_ino != file->st_ino) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
			    _("%s was replaced while it was being opened"), s->path);
		return SETUP_FAIL;
	}
	harden(s->db);
	/* damage and identity first: another program's database is not switched to WAL */
	if ((r = quick_check(s, ret_why, error)) != SETUP_OK ||
	    (r = schema_version(s, &version, ret_why, error)) != SETUP_OK ||
	    (r = query_text(s, "PRAGMA journal_mode = WAL", &mode, ret_why, error)) != SETUP_OK)
		return r;
	if (g_strcmp0(mode, "wal") != 0) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
			    _("%s: cannot use write-ahead logging (journal mode %s)"), s->path,
			    mode ? mode : "?");
		return SETUP_FAIL;
	}
	if ((r = exec(s, "PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 16777216; "
		      "PRAGMA foreign_keys = OFF", ret_why, error)) != SETUP_OK ||
	    (r = migrate(s, ret_why, error)) != SETUP_OK)
		return r;
	if (query_int(s, "PRAGMA data_version", &s->data_version, ret_why, error) != SETUP_OK)
		return SETUP_FAIL;
	if (!load_map(s, error)) {
		if (is_corrupt_code(sqlite3_errcode(s->db))) {
			g_clear_error(error);
			*ret_why = g_strdup(sqlite3_errmsg(s->db));
			return SETUP_CORRUPT;
		}
		return SETUP_FAIL;
	}
	return SETUP_OK;
}

/* renames a damaged store (and its -wal) PATH.corrupt-UNIXTIME; returns the new name */
static char *move_aside(const char *path, GError **error)
{
	gint64 now = time(NULL);

	for (int i = 0; i < 100; i++) {
		g_autofree char *target = i ? g_strdup_printf("%s.corrupt-%" PRId64 "-%d",
							      path, now, i)
					    : g_strdup_printf("%s.corrupt-%" PRId64,
							      path, now);
		g_autofree char *wal = g_strconcat(path, "-wal", NULL);
		g_autofree char *wal_target = g_strconcat(target, "-wal", NULL);
		g_autofree char *shm = g_strconcat(path, "-shm", NULL);
		struct stat st;

		if (lstat(target, &st) == 0)
			continue;
		if (rename(path, target) < 0) {
			int e = errno;

			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_IO,
				    _("cannot move the damaged store %s aside: %s"), path,
				    g_strerror(e));
			return NULL;
		}
		/* a stale log must not be replayed into the new store */
		if (rename(wal, wal_target) < 0 && errno != ENOENT)
			unlink(wal);
		unlink(shm);
		return g_steal_pointer(&target);
	}
	g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_IO,
		    _("cannot move the damaged store %s aside: too many earlier copies"), path);
	return NULL;
}

AdStore *ad_store_open(const char *path, const AdStoreLimits *limits, char **ret_warning,
		       GError **error)
{
	g_autoptr(GString) warning = g_string_new(NULL);
	g_autofree char *dir = NULL;

	path = path ? path : AD_STORE_DEFAULT_PATH;
	dir = g_path_get_dirname(path);
	if (!dir_is_safe(dir, TRUE, error))
		return NULL;
	/* a damaged file is moved aside once; a second failure is an error, not a loop */
	for (int attempt = 0; attempt < 2; attempt++) {
		g_autoptr(AdStore) s = store_new(path, FALSE);
		g_autofree char *why = NULL, *note = NULL, *moved = NULL;
		struct stat st;
		Setup r;

		if (!companions_are_safe(path, error) || !prepare_file(path, &st, &note, error))
			return NULL;
		if (note)
			g_string_append_printf(warning, "%s%s", warning->len ? "; " : "", note);
		if (limits)
			s->limits = *limits;
		r = setup_rw(s, &st, &why, error);
		if (r == SETUP_OK) {
			if (ret_warning)
				*ret_warning = warning->len ? g_strdup(warning->str) : NULL;
			return g_steal_pointer(&s);
		}
		if (r == SETUP_FAIL)
			return NULL;
		store_disconnect(s);
		if (attempt > 0) {
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_CORRUPT,
				    _("%s: a newly created alert store is damaged too (%s)"), path,
				    why);
			return NULL;
		}
		if (!(moved = move_aside(path, error)))
			return NULL;
		g_string_append_printf(warning, _("%sthe alert store %s was damaged (%s): it was "
						  "moved aside to %s and a new, empty store was "
						  "created"), warning->len ? "; " : "", path, why,
				       moved);
	}
	g_assert_not_reached();
}

/* "file:" URI of a path for SQLite, with @query */
static char *file_uri(const char *path, const char *query)
{
	g_autofree char *esc = g_uri_escape_string(path, "/", FALSE);

	return g_strdup_printf("file:%s?%s", esc, query);
}

/* read-only: checks, and an older schema migrated in a copy in memory */
static Setup setup_ro(AdStore *s, gboolean immutable, char **ret_why, GError **error)
{
	g_autofree char *uri = file_uri(s->path, immutable ? "immutable=1" : "mode=ro");
	gint64 version = 0;
	Setup r;
	int rc;

	rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
			     SQLITE_OPEN_NOFOLLOW, NULL);
	if (rc != SQLITE_OK)
		return s->db ? setup_failed(s, rc, _("cannot open"), ret_why, error)
			     : (g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
					    "%s: %s", s->path, sqlite3_errstr(rc)), SETUP_FAIL);
	harden(s->db);
	if ((r = exec(s, "PRAGMA query_only = 1", ret_why, error)) != SETUP_OK ||
	    (r = quick_check(s, ret_why, error)) != SETUP_OK ||
	    (r = schema_version(s, &version, ret_why, error)) != SETUP_OK)
		return r;
	if (version < AD_STORE_SCHEMA_VERSION) {
		sqlite3 *mem = NULL;
		sqlite3_backup *b;

		if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
			sqlite3_close(mem);
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN, "%s: %s", s->path,
				    _("out of memory"));
			return SETUP_FAIL;
		}
		b = sqlite3_backup_init(mem, "main", s->db, "main");
		rc = b ? sqlite3_backup_step(b, -1) : SQLITE_ERROR;
		sqlite3_backup_finish(b);
		if (rc != SQLITE_DONE) {
			r = setup_failed(s, rc, _("cannot copy"), ret_why, error);
			sqlite3_close(mem);
			return r;
		}
		sqlite3_close(s->db);
		s->db = mem;
		harden(s->db);
		if ((r = migrate(s, ret_why, error)) != SETUP_OK)
			return r;
		exec(s, "PRAGMA query_only = 1", ret_why, NULL);
	}
	return SETUP_OK;
}

AdStore *ad_store_open_readonly(const char *path, GError **error)
{
	g_autofree char *dir = NULL;
	struct stat st;
	int fd;

	path = path ? path : AD_STORE_DEFAULT_PATH;
	if (lstat(path, &st) < 0) {
		int e = errno;

		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
			    e == ENOENT ? _("no alert store at %s") : "%s: %s", path,
			    g_strerror(e));
		return NULL;
	}
	if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode)) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
			    S_ISLNK(st.st_mode) ? _("%s is a symbolic link; the alert store is "
						    "never opened through one")
						: _("%s is not a regular file"), path);
		return NULL;
	}
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;

		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN, _("cannot read %s: %s"),
			    path, g_strerror(e));
		return NULL;
	}
	close(fd);
	dir = g_path_get_dirname(path);
	/*
	 * Where others may write, SQLite must not create or open the -shm and
	 * -wal files by name: read the file alone (immutable).  Elsewhere mode=ro
	 * sees what a running writer committed; when that fails (a directory we
	 * cannot write, no -shm yet), the file alone is read too.
	 */
	gboolean safe = dir_is_safe(dir, FALSE, NULL);

	for (int immutable = !safe; immutable < 2; immutable++) {
		g_autoptr(AdStore) s = store_new(path, TRUE);
		g_autoptr(GError) local = NULL;
		g_autofree char *why = NULL;
		Setup r = setup_ro(s, immutable, &why, &local);

		if (r == SETUP_OK)
			return g_steal_pointer(&s);
		if (r == SETUP_CORRUPT) {
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_CORRUPT,
				    _("the alert store %s is damaged (%s)"), path, why);
			return NULL;
		}
		switch (s->setup_rc & 0xff) {
		case SQLITE_CANTOPEN:
		case SQLITE_READONLY:
		case SQLITE_PERM:
		case SQLITE_IOERR:
			break;
		default:
			immutable = 1;	/* not a matter of how it is opened */
			break;
		}
		if (immutable) {
			g_propagate_error(error, g_steal_pointer(&local));
			return NULL;
		}
		g_debug("%s; reading the file alone", local->message);
	}
	g_assert_not_reached();
}
