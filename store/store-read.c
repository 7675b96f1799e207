// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the alert store: alerts as `analyze --json` objects, counts
 * and lookups, for the dispatcher's D-Bus service and `avcdoctor list`.
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

#include "alert-doc.h"
#include "escape.h"
#include "format.h"
#include "output/report.h"
#include "store-core.h"

/* ------------------------------------------------------------ reading */

/*
 * Stored text written by an earlier version under a locale with a decimal
 * comma ("time":1700000001,100, from printf's %.3f), parsed with the comma
 * read as the point.  In valid JSON the comma after a member's number
 * is followed by the next member's key, never by digits, so the repair
 * cannot change valid text; it is tried only on text that does not parse,
 * and kept only when the result parses.  NULL when it does not.
 */
static json_object *parse_decimal_commas(const char *text)
{
	static GRegex *comma;
	g_autofree char *fixed = NULL;

	if (g_once_init_enter(&comma)) {
		GRegex *re = g_regex_new("(?<!\\\\)(\"[A-Za-z_]+\":-?[0-9]+),([0-9]+)(?=[,}\\]])",
					 G_REGEX_OPTIMIZE, 0, NULL);

		g_once_init_leave(&comma, re);
	}
	fixed = g_regex_replace(comma, text, -1, 0, "\\1.\\2", 0, NULL);
	return fixed && strcmp(fixed, text) != 0 ? json_tokener_parse(fixed) : NULL;
}

/* a JSON object from stored text; NULL when it is none (a damaged or foreign store) */
static json_object *parse_object(const char *text)
{
	json_object *o = text ? json_tokener_parse(text) : NULL;

	if (!o && text)
		o = parse_decimal_commas(text);

	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

static gboolean add_hosts(AdStore *s, json_object *o, gint64 num, GError **error)
{
	sqlite3_stmt *q = store_stmt(s, ST_SELECT_HOSTS, error);
	json_object *names = json_object_new_array();
	json_object *hex = json_object_new_array();
	json_object *counts = json_object_new_object();
	gboolean any_hex = FALSE;
	int rc;

	json_object_object_add(o, AD_KEY_HOSTS, names);
	json_object_object_add(o, AD_KEY_HOST_COUNTS, counts);
	if (!q) {
		json_object_put(hex);
		return FALSE;
	}
	sqlite3_bind_int64(q, 1, num);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *host = (const char *)sqlite3_column_text(q, 0);

		gsize len;
		g_autofree char *esc = NULL;

		host = host ? host : "";
		len = strlen(host);
		/* JSON stays valid UTF-8: escaped names, the exact ones in hosts_hex */
		esc = ad_escape_bytes(host, len);
		if (*host) {
			json_object_array_add(names, ad_json_string_bytes(host, len));
			if (ad_bytes_are_clean(host, len)) {
				json_object_array_add(hex, NULL);
			} else {
				g_autofree char *x = ad_bytes_hex(host, len);

				json_object_array_add(hex, json_object_new_string(x));
				any_hex = TRUE;
			}
		}
		json_object_object_add(counts, ad_bytes_are_clean(host, len) ? host : esc,
				       json_object_new_int64(sqlite3_column_int64(q, 1)));
	}
	sqlite3_reset(q);
	if (any_hex)
		json_object_object_add(o, AD_KEY_HOSTS_HEX, hex);
	else
		json_object_put(hex);
	if (rc != SQLITE_DONE) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		return FALSE;
	}
	return TRUE;
}

static gboolean add_items(AdStore *s, json_object *o, gint64 num, GError **error)
{
	sqlite3_stmt *q = store_stmt(s, ST_SELECT_ITEMS, error);
	json_object *lists[2] = { json_object_new_array(), json_object_new_array() };
	int rc;

	json_object_object_add(o, AD_KEY_PATHS, lists[0]);
	json_object_object_add(o, AD_KEY_COMMANDS, lists[1]);
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
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
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
 * One alert as the `analyze --json` object, from a row of ST_LIST / ST_GET:
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
	AdFilter f = store_get_filter_locked(s, id, uid);

	*ret_ignored = ad_filter_is_ignored(f, count);
	json_object_object_add(o, AD_KEY_ID, json_object_new_string(id));
	json_object_object_add(o, AD_KEY_COUNT, json_object_new_uint64(count));
	/*
	 * Blocked and only logged occurrences, as analyze says them; unknown
	 * for an alert stored before they were counted (and then not the
	 * stale figures of its stored analysis either)
	 */
	if (sqlite3_column_type(row, 11) != SQLITE_NULL && sqlite3_column_type(row, 12) != SQLITE_NULL) {
		json_object_object_add(o, AD_KEY_BLOCKED, json_object_new_int64(sqlite3_column_int64(row, 11)));
		json_object_object_add(o, AD_KEY_LOGGED_ONLY,
				       json_object_new_int64(sqlite3_column_int64(row, 12)));
	} else if (analysis) {
		json_object_object_del(analysis, AD_KEY_BLOCKED);
		json_object_object_del(analysis, AD_KEY_LOGGED_ONLY);
	}
	json_object_object_add(o, AD_KEY_FIRST_SEEN, ad_json_time(sqlite3_column_double(row, 3)));
	json_object_object_add(o, AD_KEY_LAST_SEEN, ad_json_time(sqlite3_column_double(row, 4)));
	json_object_object_add(o, AD_KEY_LEVEL, json_object_new_string(level ? level : "yellow"));
	if (!add_hosts(s, o, num, error))
		goto fail;
	json_object_object_add(o, AD_KEY_IGNORED, json_object_new_boolean(*ret_ignored));
	json_object_object_add(o, AD_KEY_FILTER, json_object_new_string(ad_filter_name(f)));
	json_object_object_add(o, AD_KEY_SUMMARY, json_object_new_string(summary ? summary : ""));
	json_object_object_add(o, AD_KEY_DENIAL, parse_object((const char *)sqlite3_column_text(row, 8)));
	json_object_object_add(o, AD_KEY_RECORDS, records_json(sqlite3_column_blob(row, 9),
							  sqlite3_column_bytes(row, 9)));
	if (analysis && json_object_object_get_ex(analysis, AD_KEY_SUGGESTIONS, &sugg) &&
	    json_object_is_type(sugg, json_type_array))
		json_object_object_add(o, AD_KEY_SUGGESTIONS, json_object_get(sugg));
	else
		json_object_object_add(o, AD_KEY_SUGGESTIONS, json_object_new_array());
	/* the facts beside the fixes; none in an analysis stored before they were apart */
	if (analysis && json_object_object_get_ex(analysis, AD_KEY_NOTES, &sugg) &&
	    json_object_is_type(sugg, json_type_array))
		json_object_object_add(o, AD_KEY_NOTES, json_object_get(sugg));
	else
		json_object_object_add(o, AD_KEY_NOTES, json_object_new_array());
	if (!add_items(s, o, num, error))
		goto fail;
	/*
	 * when its denials happened, in time buckets; none for an alert stored
	 * before they were kept (its chart spreads its count between first and
	 * last seen)
	 */
	if (sqlite3_column_type(row, 13) != SQLITE_NULL) {
		g_autoptr(AdOccurrences) occ = ad_occurrences_new();

		if (ad_occurrences_parse(occ, (const char *)sqlite3_column_text(row, 13)))
			json_object_object_add(o, "timeline", ad_occurrences_to_json(occ));
	}
	/* only when set: a store without applied fixes reads as before */
	if (sqlite3_column_type(row, 10) != SQLITE_NULL)
		json_object_object_add(o, AD_KEY_FIX_APPLIED, ad_json_time(sqlite3_column_double(row, 10)));

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
	if (!store_flush_for_read(s, error) || !(q = store_stmt(s, ST_LIST, error)))
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
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		goto out;
	}
	ret = g_steal_pointer(&list);
out:
	g_mutex_unlock(&s->lock);
	return ret;
}

/*
 * Binds alert @id to @q's first parameter and steps to its row: TRUE on
 * the row, else FALSE with @error (no such alert, or the store failed).
 * The caller resets @q.
 */
static gboolean step_to_alert(AdStore *s, sqlite3_stmt *q, const char *id, GError **error)
{
	int rc;

	sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		return TRUE;
	if (rc == SQLITE_DONE)
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, _("no alert %s"), id);
	else
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
	return FALSE;
}

json_object *ad_store_get(AdStore *s, const char *id, gint64 uid, GError **error)
{
	json_object *o = NULL;
	sqlite3_stmt *q;
	gboolean ignored;

	g_return_val_if_fail(s, NULL);
	if (!store_check_id(id, error))
		return NULL;
	g_mutex_lock(&s->lock);
	if (!store_flush_for_read(s, error) || !(q = store_stmt(s, ST_GET, error)))
		goto out;
	if (step_to_alert(s, q, id, error))
		o = row_to_json(s, q, uid, &ignored, error);
	sqlite3_reset(q);
out:
	g_mutex_unlock(&s->lock);
	return o;
}

GBytes *ad_store_get_records(AdStore *s, const char *id, GError **error)
{
	GBytes *b = NULL;
	sqlite3_stmt *q;

	g_return_val_if_fail(s, NULL);
	if (!store_check_id(id, error))
		return NULL;
	g_mutex_lock(&s->lock);
	if (!store_flush_for_read(s, error) || !(q = store_stmt(s, ST_GET_RECORDS, error)))
		goto out;
	if (step_to_alert(s, q, id, error))
		b = g_bytes_new(sqlite3_column_blob(q, 0), sqlite3_column_bytes(q, 0));
	sqlite3_reset(q);
out:
	g_mutex_unlock(&s->lock);
	return b;
}

guint ad_store_count(AdStore *s)
{
	sqlite3_stmt *q;
	guint n = 0;

	g_return_val_if_fail(s, 0);
	g_mutex_lock(&s->lock);
	if ((q = store_stmt(s, ST_COUNT, NULL)) && sqlite3_step(q) == SQLITE_ROW)
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
		store_refresh_map(s);
	if (!s->readonly && !s->stale) {
		StoreAlert *sa = g_hash_table_lookup(s->alerts, id);

		if ((found = sa != NULL)) {
			count = sa->count;
			level = sa->level;
		}
	} else if ((q = store_stmt(s, ST_LOOKUP, NULL))) {
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
	if (!store_flush_for_read(s, error))
		goto out;
	if (sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, s->path);
		goto out;
	}
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && g_strcmp0((const char *)sqlite3_column_text(q, 0), "ok") == 0)
		ok = TRUE;
	else if (rc == SQLITE_ROW)
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_CORRUPT, "%s: %s", s->path,
			    (const char *)sqlite3_column_text(q, 0));
	else
		store_set_db_error(error, s->db, AD_STORE_ERROR_CORRUPT, s->path);
	sqlite3_finalize(q);
out:
	g_mutex_unlock(&s->lock);
	return ok;
}

/* the row number of @id, or -1, and its analysis generation */
static gint64 alert_num(AdStore *s, const char *id, gint64 *ret_gen)
{
	sqlite3_stmt *q;
	gint64 num = -1, gen = 1;

	g_mutex_lock(&s->lock);
	if ((q = store_stmt(s, ST_NUM, NULL))) {
		sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) == SQLITE_ROW) {
			num = sqlite3_column_int64(q, 0);
			gen = sqlite3_column_int64(q, 1);
		}
		sqlite3_reset(q);
	}
	g_mutex_unlock(&s->lock);
	if (ret_gen)
		*ret_gen = gen;
	return num;
}

/* the one spelling of a local id */
static char *format_local_id(const char *id, gint64 num, gint64 gen)
{
	if (gen <= 1)
		return g_strdup_printf("%s-%" G_GINT64_FORMAT, id, num);
	return g_strdup_printf("%s-%" G_GINT64_FORMAT ".%" G_GINT64_FORMAT, id, num, gen);
}

char *ad_store_local_id(AdStore *s, const char *id)
{
	gint64 num, gen;

	if (!s || !ad_alert_id_is_valid(id) || (num = alert_num(s, id, &gen)) < 0)
		return NULL;
	return format_local_id(id, num, gen);
}

gboolean ad_store_parse_local_id(const char *local_id, char ret_id[17], gint64 *ret_num,
				 gint64 *ret_gen)
{
	g_autofree char *again = NULL, *digits = NULL;
	char id[17];
	guint64 num, gen = 1;
	const char *dot;

	if (!local_id || strlen(local_id) < 18 || strlen(local_id) > 16 + 1 + 19 + 1 + 19 ||
	    local_id[16] != '-')
		return FALSE;
	memcpy(id, local_id, 16);
	id[16] = '\0';
	dot = strchr(local_id + 17, '.');
	digits = dot ? g_strndup(local_id + 17, dot - (local_id + 17)) : g_strdup(local_id + 17);
	if (!ad_alert_id_is_valid(id) || !g_ascii_isdigit(*digits) ||
	    !g_ascii_string_to_unsigned(digits, 10, 1, G_MAXINT64, &num, NULL) ||
	    (dot && (!g_ascii_isdigit(dot[1]) ||
		     !g_ascii_string_to_unsigned(dot + 1, 10, 2, G_MAXINT64, &gen, NULL))))
		return FALSE;
	/* one spelling per alert: no leading zeros, no sign, no ".1" */
	again = format_local_id(id, (gint64)num, (gint64)gen);
	if (strcmp(again, local_id) != 0)
		return FALSE;
	memcpy(ret_id, id, 17);
	*ret_num = (gint64)num;
	if (ret_gen)
		*ret_gen = (gint64)gen;
	return TRUE;
}

json_object *ad_store_get_local(AdStore *s, const char *local_id, gboolean same_analysis,
				gint64 uid, GError **error)
{
	char id[17];
	gint64 num, gen, current;

	g_return_val_if_fail(s, NULL);
	if (!ad_store_parse_local_id(local_id, id, &num, &gen)) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
			    _("not a local alert id: an alert id, '-' and a number"));
		return NULL;
	}
	if (alert_num(s, id, &current) != num) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, _("no alert %s"),
			    local_id);
		return NULL;
	}
	if (same_analysis && current != gen) {
		g_set_error_literal(error, AD_STORE_ERROR, AD_STORE_ERROR_CHANGED,
				    _("the alert changed since you read it: reload"));
		return NULL;
	}
	return ad_store_get(s, id, uid, error);
}

char *ad_store_fix_module_alert(AdStore *s, const char *name)
{
	sqlite3_stmt *q;
	char *alert = NULL;

	g_return_val_if_fail(s && name, NULL);
	g_mutex_lock(&s->lock);
	if (store_flush_for_read(s, NULL) && (q = store_stmt(s, ST_GET_FIX_MODULE, NULL))) {
		sqlite3_bind_text(q, 1, name, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) == SQLITE_ROW)
			alert = g_strdup((const char *)sqlite3_column_text(q, 0));
		sqlite3_reset(q);
	}
	g_mutex_unlock(&s->lock);
	return alert;
}
