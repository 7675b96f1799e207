// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening the alert store safely: the directory and file checks, the
 * schema set-up and migrations, moving a corrupt file aside once, and
 * the read-only opening used by `--db`.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gi18n.h>
#include <sqlite3.h>

#include "escape.h"
#include "output/report.h"
#include "store-core.h"

/* ------------------------------------------------------------ errors and filters */

G_DEFINE_QUARK(ad-store-error-quark, ad_store_error)

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

/* ------------------------------------------------------------ schema */

/*
 * Migrations: entry N takes a store from user_version N to N + 1, inside
 * one transaction with the version bump.  The next version is one more entry.
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

/*
 * Version 2: the highest alert number ever deleted, so that a new row never
 * takes the number of a deleted one (an alert that comes back after it was
 * deleted is a new alert to setroubleshoot's clients, whose local_id holds
 * the number).  Starts at the highest number in use.
 */
static const char schema_v2[] =
	"CREATE TABLE retired (high INTEGER NOT NULL);"
	"INSERT INTO retired VALUES (coalesce((SELECT max(num) FROM alerts), 0));";

/* version 3: when a fix of the alert was last applied (avcdoctor-fixit), NULL for never */
static const char schema_v3[] = "ALTER TABLE alerts ADD COLUMN fix_applied REAL;";

/*
 * Version 4: of the occurrences, how many were blocked (enforcing) and how
 * many only logged (permissive).  NULL in the rows of an older store,
 * which did not count them: such an alert says nothing rather than a
 * guess, and keeps saying nothing (its earlier occurrences stay uncounted).
 */
static const char schema_v4[] =
	"ALTER TABLE alerts ADD COLUMN blocked INTEGER;"
	"ALTER TABLE alerts ADD COLUMN logged_only INTEGER;";

/*
 * Version 5: the generation of an alert's stored analysis, one more each
 * time the analysis stored for it changes (a recurrence after a policy
 * load analysed otherwise).  The local id names it, so that a fix read
 * from one analysis is never applied from another.  The rows of an older
 * store start at 1.
 */
static const char schema_v5[] =
	"ALTER TABLE alerts ADD COLUMN analysis_gen INTEGER NOT NULL DEFAULT 1;";

/*
 * Version 6: the policy modules the fix helper loaded, and for which
 * alert: it replaces an installed module only when it wrote that module
 * for the same alert, never an administrator's or another alert's.
 */
static const char schema_v6[] =
	"CREATE TABLE fix_modules ("
	" name TEXT PRIMARY KEY, alert TEXT NOT NULL, loaded REAL NOT NULL) WITHOUT ROWID;";

/*
 * Version 7: the alert mails held back by the hourly limit, sent when a
 * budget allows again, so that a restart or a reload does not lose them
 * (store-mail.c).
 */
static const char schema_v7[] =
	"CREATE TABLE held_mails ("
	" num INTEGER PRIMARY KEY, alert TEXT NOT NULL, level TEXT NOT NULL,"
	" held REAL NOT NULL, summary TEXT NOT NULL, report TEXT NOT NULL);";

/*
 * Version 8: when each alert's denials happened, occurrence counts in
 * bounded time buckets (common/occurrences.h, as text: "WIDTH INDEX:N
 * ..."), so that charts show when denials really happened.  NULL in the
 * rows of an older store: their charts spread the count between first and
 * last seen, and the buckets start with the next occurrence.
 */
static const char schema_v8[] = "ALTER TABLE alerts ADD COLUMN timeline TEXT;";

static const Migration migrations[] = {
	{ schema_v1, NULL },		/* 0 -> 1 */
	{ schema_v2, NULL },		/* 1 -> 2 */
	{ schema_v3, NULL },		/* 2 -> 3 */
	{ schema_v4, NULL },		/* 3 -> 4 */
	{ schema_v5, NULL },		/* 4 -> 5 */
	{ schema_v6, NULL },		/* 5 -> 6 */
	{ schema_v7, NULL },		/* 6 -> 7 */
	{ schema_v8, NULL },		/* 7 -> 8 */
};

G_STATIC_ASSERT(G_N_ELEMENTS(migrations) == AD_STORE_SCHEMA_VERSION);

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
	/* a caller that must know whether it was kept commits first */
	if (!s->readonly && s->in_txn)
		(void)store_commit_locked(s, NULL);
	store_drop_pending(s);
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
/*
 * The first existing component of @dir that is a symbolic link, or NULL
 * (owned).  A store is never reached through one: SQLite would refuse it
 * only after the file was made, and a link can be moved elsewhere.
 */
static char *linked_component(const char *dir)
{
	g_autofree char *abs = g_canonicalize_filename(dir, NULL);
	g_autoptr(GString) p = g_string_new(NULL);
	g_auto(GStrv) parts = g_strsplit(abs, "/", -1);

	for (guint i = 0; parts[i]; i++) {
		struct stat st;

		if (!*parts[i])
			continue;
		g_string_append_printf(p, "/%s", parts[i]);
		if (lstat(p->str, &st) < 0)
			return NULL;	/* the rest is made, as directories */
		if (S_ISLNK(st.st_mode))
			return g_strdup(p->str);
	}
	return NULL;
}

static gboolean dir_is_safe(const char *dir, gboolean create, GError **error)
{
	struct stat st;
	g_autofree char *link = create ? linked_component(dir) : NULL;

	if (link) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_UNSAFE,
			    _("%s is a symbolic link; the alert store is never opened "
			      "through one"), link);
		return FALSE;
	}
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
 * removed (noted in @ret_note).  Returns its device and inode.  With
 * @existing, the file must already be an SQLite database: nothing is
 * created and nothing else is changed.
 */
static gboolean prepare_file(const char *path, gboolean existing, struct stat *ret_st,
			     char **ret_note, GError **error)
{
	int fd = open(path, O_RDWR | (existing ? 0 : O_CREAT) | O_NOFOLLOW | O_CLOEXEC |
			    O_NOCTTY | O_NONBLOCK, 0600);
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
	if (existing) {
		static const char magic[16] = "SQLite format 3";
		char head[16];

		if (pread(fd, head, sizeof(head), 0) != sizeof(head) ||
		    memcmp(head, magic, sizeof(head)) != 0) {
			close(fd);
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
				    _("%s is not an avcdoctor alert store; it was left alone"),
				    path);
			return FALSE;
		}
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
	if (!store_load_map(s, error)) {
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

/* TRUE when @path begins as every SQLite database does; read-only, links not followed */
static gboolean has_sqlite_header(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	gboolean ok;

	if (fd < 0)
		return FALSE;
	ok = read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	     memcmp(head, magic, sizeof(magic)) == 0;
	close(fd);
	return ok;
}

/*
 * Opens @path for writing.  The dispatcher's own store (@own) is created
 * when missing, and moved aside and made anew when damaged.  Anything
 * else (a file named on the command line) must already be a store: it is
 * never created, moved or changed when it is not one.
 */
static AdStore *open_rw(const char *path, const AdStoreLimits *limits, gboolean own,
			char **ret_warning, GError **error)
{
	g_autoptr(GString) warning = g_string_new(NULL);
	g_autofree char *dir = NULL;
	struct stat existing;

	path = path ? path : AD_STORE_DEFAULT_PATH;
	dir = g_path_get_dirname(path);
	if (!dir_is_safe(dir, own, error))
		return NULL;
	if (!own && (lstat(path, &existing) < 0 || !S_ISREG(existing.st_mode) ||
		     existing.st_size == 0 || !has_sqlite_header(path))) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_OPEN,
			    _("%s: not an alert store: nothing was changed"), path);
		return NULL;
	}
	/* a damaged file is moved aside once; a second failure is an error, not a loop */
	for (int attempt = 0; attempt < 2; attempt++) {
		g_autoptr(AdStore) s = store_new(path, FALSE);
		g_autofree char *why = NULL, *note = NULL, *moved = NULL;
		struct stat st;
		Setup r;

		if (!companions_are_safe(path, error) ||
		    !prepare_file(path, !own, &st, &note, error))
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
		if (!own) {
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_CORRUPT,
				    _("%s: not an alert store (%s): nothing was changed"), path,
				    why);
			return NULL;
		}
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

AdStore *ad_store_open(const char *path, const AdStoreLimits *limits, char **ret_warning,
		       GError **error)
{
	return open_rw(path, limits, TRUE, ret_warning, error);
}

AdStore *ad_store_open_existing(const char *path, char **ret_warning, GError **error)
{
	return open_rw(path, NULL, FALSE, ret_warning, error);
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
