// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writing the alert store: recording occurrences (batched in memory,
 * flushed once per alert), deleting, pruning by count and age, and the
 * per-user ignore filters.
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
#include "clock.h"
#include "store-core.h"

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
	sqlite3_stmt *q = store_stmt(s, ST_INSERT_ALERT, error);
	g_autofree char *perms = perms_text(a);
	g_autofree char *summary = ad_alert_summary(a);
	g_autofree char *analysis = analysis_text(a);
	g_autofree char *denial = store_denial_json_text(a->latest, a->verdict);
	g_autoptr(GBytes) records = store_records_blob(a->latest);
	StoreAlert *sa;

	if (!q)
		return NULL;
	sqlite3_bind_text(q, 1, a->id, -1, SQLITE_STATIC);
	store_bind_text_or_null(q, 2, a->latest->record_type);
	store_bind_text_or_null(q, 3, a->stype);
	store_bind_text_or_null(q, 4, a->ttype);
	store_bind_text_or_null(q, 5, a->tclass);
	sqlite3_bind_text(q, 6, perms, -1, SQLITE_STATIC);
	sqlite3_bind_double(q, 7, t);
	sqlite3_bind_text(q, 8, ad_level_name(a->level), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 9, summary, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 10, analysis, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 11, denial, -1, SQLITE_STATIC);
	store_bind_bytes(q, 12, records);
	if (!store_run(s, q, error))
		return NULL;
	sa = store_alert_new(a->id, sqlite3_last_insert_rowid(s->db));
	sa->first_seen = sa->last_seen = t;
	sa->level = a->level;
	store_details_init(sa);
	g_hash_table_insert(s->alerts, sa->id, sa);
	return sa;
}

static gboolean write_analysis(AdStore *s, StoreAlert *sa, const AdAlert *a, GError **error)
{
	sqlite3_stmt *q = store_stmt(s, ST_UPDATE_ANALYSIS, error);
	g_autofree char *summary = ad_alert_summary(a);
	g_autofree char *analysis = analysis_text(a);

	if (!q)
		return FALSE;
	sqlite3_bind_int64(q, 1, sa->num);
	sqlite3_bind_text(q, 2, ad_level_name(a->level), -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, summary, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, analysis, -1, SQLITE_STATIC);
	if (!store_run(s, q, error))
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
	if (!(q = store_stmt(s, ST_INSERT_ITEM, error)))
		return FALSE;
	sqlite3_bind_int64(q, 1, sa->num);
	sqlite3_bind_int(q, 2, kind);
	store_bind_bytes(q, 3, b);
	if (!store_run(s, q, error))
		return FALSE;
	g_array_append_val(hashes, h);
	return TRUE;
}

static double now_seconds(void)
{
	return ad_clock_real_us() / 1e6;
}

static gboolean writable(AdStore *s, GError **error)
{
	if (!s->readonly)
		return TRUE;
	g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
		    _("the alert store %s is open read-only"), s->path);
	return FALSE;
}

/*
 * The start of an edit: the store is writable and a write transaction is
 * open, with the records filed so far written first when @flush (so that
 * the edit sees them).  FALSE with @error and nothing left open when not.
 */
static gboolean edit_begin(AdStore *s, gboolean flush, GError **error)
{
	if (!writable(s, error) || !store_begin(s, error))
		return FALSE;
	if (flush && !store_flush(s, error)) {
		store_abort_txn(s);
		return FALSE;
	}
	return TRUE;
}

/* an edit of an alert the store does not hold: the transaction ends, FALSE with NOT_FOUND */
static gboolean no_alert(AdStore *s, const char *id, GError **error)
{
	store_commit_locked(s, NULL);
	g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, _("no alert %s"), id);
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
	if (!store_check_id(a->id, error) || !store_begin(s, error))
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
		if (!sa->details && !store_load_details(s, sa, error))
			goto fail;
	}
	sa->count++;
	if (denial->permissive == 0 && sa->blocked >= 0)
		sa->blocked++;
	else if (denial->permissive == 1 && sa->logged_only >= 0)
		sa->logged_only++;
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
	/* when it happened, in the alert's bounded buckets */
	if (!sa->pending_occ)
		sa->pending_occ = ad_occurrences_new();
	ad_occurrences_add(sa->pending_occ, t, 1);
	hc = g_hash_table_lookup(sa->hosts, host);
	if (!hc && g_hash_table_size(sa->hosts) < AD_STORE_MAX_HOSTS)
		hc = store_add_host(sa, host);
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
	store_abort_txn(s);
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
	ok = s->readonly || store_commit_locked(s, error);
	g_mutex_unlock(&s->lock);
	return ok;
}

gboolean ad_store_set_analysis(AdStore *s, const AdAlert *a, GError **error)
{
	gboolean ok = FALSE;
	StoreAlert *sa;

	g_return_val_if_fail(s && a, FALSE);
	g_mutex_lock(&s->lock);
	if (!store_check_id(a->id, error) || !a->latest || !edit_begin(s, FALSE, error))
		goto out;
	sa = g_hash_table_lookup(s->alerts, a->id);
	if (!sa) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, _("no alert %s"),
			    a->id);
		goto out;
	}
	if (!write_analysis(s, sa, a, error)) {
		store_abort_txn(s);
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
	static const int which[] = { ST_DELETE_ALERT, ST_DELETE_HOSTS, ST_DELETE_ITEMS,
				     ST_RETIRE_NUM };

	for (guint i = 0; i < G_N_ELEMENTS(which); i++) {
		sqlite3_stmt *q = store_stmt(s, which[i], error);

		if (!q)
			return FALSE;
		sqlite3_bind_int64(q, 1, num);
		if (!store_run(s, q, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean delete_filters(AdStore *s, const char *id, GError **error)
{
	sqlite3_stmt *q = store_stmt(s, ST_DELETE_FILTERS, error);

	if (!q)
		return FALSE;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
	return store_run(s, q, error);
}

gboolean ad_store_delete(AdStore *s, const char *id, GError **error)
{
	gboolean ok = FALSE;
	StoreAlert *sa;

	g_return_val_if_fail(s, FALSE);
	if (!store_check_id(id, error))
		return FALSE;
	g_mutex_lock(&s->lock);
	if (!edit_begin(s, TRUE, error))
		goto out;
	sa = g_hash_table_lookup(s->alerts, id);
	if (!sa) {
		no_alert(s, id, error);
		goto out;
	}
	/* an explicit delete forgets the users' filters too (pruning keeps them) */
	if (!delete_num(s, sa->num, error) || !delete_filters(s, id, error))
		goto fail;
	g_hash_table_remove(s->alerts, id);
	ok = store_commit_locked(s, error);
	goto out;
fail:
	store_abort_txn(s);
out:
	g_mutex_unlock(&s->lock);
	return ok;
}

gboolean ad_store_set_fix_applied(AdStore *s, const char *id, double when, GError **error)
{
	gboolean ok = FALSE;
	sqlite3_stmt *q;

	g_return_val_if_fail(s, FALSE);
	if (!store_check_id(id, error))
		return FALSE;
	g_mutex_lock(&s->lock);
	if (!edit_begin(s, TRUE, error))
		goto out;
	if (!(q = store_stmt(s, ST_SET_FIX_APPLIED, error)))
		goto fail;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(q, 2, when);
	if (!store_run(s, q, error))
		goto fail;
	if (sqlite3_changes(s->db) == 0) {
		no_alert(s, id, error);
		goto out;
	}
	ok = store_commit_locked(s, error);
	goto out;
fail:
	store_abort_txn(s);
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
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
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
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	return TRUE;
}

/*
 * Alerts not seen for max_age_days go first, then the oldest by last_seen
 * until at most max_alerts remain.  The users' filters of pruned alerts
 * stay: an alert someone chose to ignore is still ignored when it returns.
 */
guint ad_store_prune(AdStore *s, double now, GError **ret_error)
{
	g_autoptr(GArray) nums = g_array_new(FALSE, FALSE, sizeof(gint64));
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	double cutoff = -G_MAXDOUBLE;
	guint n = 0;

	g_return_val_if_fail(s, 0);
	g_mutex_lock(&s->lock);
	if (s->readonly || (!s->limits.max_alerts && !s->limits.max_age_days) ||
	    !edit_begin(s, TRUE, &error))
		goto out;
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
	if (store_commit_locked(s, &error)) {
		n = nums->len;
		goto out;
	}
fail:
	store_abort_txn(s);
out:
	if (error)
		g_propagate_prefixed_error(ret_error, g_steal_pointer(&error),
					   _("pruning failed: "));
	g_mutex_unlock(&s->lock);
	return n;
}

/* ------------------------------------------------------------ filters */

AdFilter store_get_filter_locked(AdStore *s, const char *id, gint64 uid)
{
	sqlite3_stmt *q;
	AdFilter f = AD_FILTER_NEVER;

	if (uid < 0 || !(q = store_stmt(s, ST_SELECT_FILTER, NULL)))
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
	f = store_get_filter_locked(s, id, uid);
	g_mutex_unlock(&s->lock);
	return f;
}

/* writes one filter row inside the open transaction; FALSE with @error */
static gboolean write_filter(AdStore *s, const char *id, gint64 uid, AdFilter filter,
			     GError **error)
{
	/* "never" is the default: no row */
	sqlite3_stmt *q = store_stmt(s, filter == AD_FILTER_NEVER ? ST_DELETE_FILTER
								   : ST_SET_FILTER, error);

	if (!q)
		return FALSE;
	sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, uid);
	if (filter != AD_FILTER_NEVER)
		sqlite3_bind_text(q, 3, ad_filter_name(filter), -1, SQLITE_STATIC);
	return store_run(s, q, error);
}

gboolean ad_store_set_filter(AdStore *s, const char *id, gint64 uid, AdFilter filter,
			     GError **error)
{
	gboolean ok = FALSE;

	g_return_val_if_fail(s, FALSE);
	if (!store_check_id(id, error))
		return FALSE;
	if (uid < 0 || uid > G_MAXUINT32 || (guint)filter > AD_FILTER_ALWAYS) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
			    _("bad user id or filter"));
		return FALSE;
	}
	g_mutex_lock(&s->lock);
	if (!edit_begin(s, FALSE, error))
		goto out;
	if (!g_hash_table_lookup(s->alerts, id)) {
		no_alert(s, id, error);
		goto out;
	}
	if (!write_filter(s, id, uid, filter, error))
		goto fail;
	ok = store_commit_locked(s, error);
	goto out;
fail:
	store_abort_txn(s);
out:
	g_mutex_unlock(&s->lock);
	return ok;
}

gboolean ad_store_set_filters(AdStore *s, const char *const *ids, gint64 uid, AdFilter filter,
			      gboolean skip_red, guint *ret_set, GError **error)
{
	gboolean ok = FALSE;
	guint n = 0;

	g_return_val_if_fail(s && ids, FALSE);
	*ret_set = 0;
	for (guint i = 0; ids[i]; i++)
		if (!store_check_id(ids[i], error))
			return FALSE;
	if (uid < 0 || uid > G_MAXUINT32 || (guint)filter > AD_FILTER_ALWAYS) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
			    _("bad user id or filter"));
		return FALSE;
	}
	g_mutex_lock(&s->lock);
	if (!edit_begin(s, FALSE, error))
		goto out;
	for (guint i = 0; ids[i]; i++) {
		StoreAlert *sa = g_hash_table_lookup(s->alerts, ids[i]);

		if (!sa || (skip_red && sa->level == AD_LEVEL_RED))
			continue;
		if (!write_filter(s, ids[i], uid, filter, error))
			goto fail;
		n++;
	}
	if (!store_commit_locked(s, error))
		goto out;
	*ret_set = n;
	ok = TRUE;
	goto out;
fail:
	store_abort_txn(s);
out:
	g_mutex_unlock(&s->lock);
	return ok;
}

gboolean ad_store_set_fix_module(AdStore *s, const char *name, const char *id, double when,
				 GError **error)
{
	gboolean ok = FALSE;
	sqlite3_stmt *q;

	g_return_val_if_fail(s && name, FALSE);
	if (!store_check_id(id, error))
		return FALSE;
	g_mutex_lock(&s->lock);
	if (!edit_begin(s, TRUE, error))
		goto out;
	if (!(q = store_stmt(s, ST_SET_FIX_MODULE, error)))
		goto fail;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(q, 2, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(q, 3, when);
	if (!store_run(s, q, error))
		goto fail;
	ok = store_commit_locked(s, error);
	goto out;
fail:
	store_abort_txn(s);
out:
	g_mutex_unlock(&s->lock);
	return ok;
}
