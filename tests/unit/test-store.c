/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The alert store: alerts built from the crafted corpus through the reader,
 * the denial builder and the alert set; counts, hosts, bounded paths,
 * per-user filters, delete, pruning, migrations, unsafe paths, damaged
 * files, ids, a kill -9 loop and a throughput figure.
 *
 * The binary also serves the shell tests (tests/cli-store.sh):
 *   test-store --fill DB [--policy FILE] [--log FILE]
 *                                         a store from the crafted cases, with hosts
 *                                         web1 and web2 besides the local one, and the
 *                                         denials of FILE; analysed with a policy
 *   test-store --serve DB                 a stand-in for the D-Bus service on the
 *                                         system bus (DBUS_SYSTEM_BUS_ADDRESS) over DB
 * AD_TEST_FILTER=test_kill9 runs the tests whose names match.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <setjmp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <gio/gio.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "analysis/alert.h"
#include "policy/labels.h"
#include "read/denial.h"
#include "analysis/plugin.h"
#include "policy/policy.h"
#include "read/reader.h"
#include "read/signature.h"
#include "dbus-service.h"
#include "occurrences.h"
#include "store.h"

#define CRAFTED "crafted/debian-refpolicy-cases.log"

/* ---------------------------------------------------------------- helpers */

static void on_event(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, NULL, NULL);
}

/* the denials of a text, as the dispatcher and the CLI build them */
static GPtrArray *denials_of_text(const char *text, gsize len)
{
	GPtrArray *denials = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autoptr(AdReader) r = ad_reader_new(on_event, NULL, denials);

	ad_reader_set_source(r, "test");
	ad_reader_feed(r, text, len);
	ad_reader_end_source(r);
	return denials;
}

static char *corpus_text(const char *name)
{
	const char *dir = g_getenv("AD_CORPUS");
	g_autofree char *path = g_build_filename(dir ? dir : "tests/data/corpus", name, NULL);
	char *text = NULL;
	g_autoptr(GError) error = NULL;

	if (!g_file_get_contents(path, &text, NULL, &error))
		print_error("%s\n", error->message);
	assert_non_null(text);
	return text;
}

/* every line of @text with "node=NAME " in front */
static char *with_node(const char *text, const char *node)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GString *s = g_string_new(NULL);

	for (char **l = lines; *l; l++)
		if (**l)
			g_string_append_printf(s, "node=%s %s\n", node, *l);
	return g_string_free(s, FALSE);
}

/* the crafted cases three times: the local host, web1, web2 */
static GPtrArray *crafted_denials(void)
{
	g_autofree char *text = corpus_text(CRAFTED);
	g_autofree char *web1 = with_node(text, "web1");
	g_autofree char *web2 = with_node(text, "web2");
	g_autofree char *all = g_strconcat(text, web1, web2, NULL);

	return denials_of_text(all, strlen(all));
}

typedef struct {
	char *dir;
	char *path;
	AdAlertSet *set;
} Fixture;

static int setup(void **state)
{
	Fixture *f = g_new0(Fixture, 1);

	f->dir = g_dir_make_tmp("test-store-XXXXXX", NULL);
	assert_non_null(f->dir);
	f->path = g_build_filename(f->dir, "alerts.db", NULL);
	f->set = ad_alert_set_new();
	*state = f;
	return 0;
}

static void rm_rf(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK)) {
			chmod(p, 0700);
			rm_rf(p);
		} else {
			g_unlink(p);
		}
	}
	g_rmdir(dir);
}

static int teardown(void **state)
{
	Fixture *f = *state;

	rm_rf(f->dir);
	g_free(f->dir);
	g_free(f->path);
	ad_alert_set_free(f->set);
	g_free(f);
	return 0;
}

/* files one denial under its alert and records it; returns whether the store found it new */
static gboolean record(AdStore *s, AdAlertSet *set, AdDenial *d)
{
	g_autoptr(GError) error = NULL;
	gboolean is_new = -1;
	AdAlert *a = ad_alert_set_add(set, d, NULL, NULL);

	if (!a)
		return FALSE;	/* granted: not an alert */
	if (!ad_store_record(s, a, d, &is_new, &error))
		print_error("record: %s\n", error->message);
	assert_null(error);
	assert_true(is_new == TRUE || is_new == FALSE);
	return is_new;
}

static void commit(AdStore *s)
{
	g_autoptr(GError) error = NULL;

	if (!ad_store_commit(s, &error))
		print_error("commit: %s\n", error->message);
	assert_null(error);
}

static AdStore *open_store(const char *path, const AdStoreLimits *limits)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *warning = NULL;
	AdStore *s = ad_store_open(path, limits, &warning, &error);

	if (!s)
		print_error("open %s: %s\n", path, error->message);
	assert_non_null(s);
	if (warning)
		print_error("unexpected warning: %s\n", warning);
	assert_null(warning);
	return s;
}

static json_object *get(AdStore *s, const char *id, gint64 uid)
{
	g_autoptr(GError) error = NULL;
	json_object *o = ad_store_get(s, id, uid, &error);

	if (!o)
		print_error("get %s: %s\n", id, error->message);
	assert_non_null(o);
	return o;
}

static json_object *key(json_object *o, const char *k)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, k, &v))
		print_error("no key \"%s\" in %s\n", k, json_object_to_json_string(o));
	assert_true(json_object_object_get_ex(o, k, NULL));
	return v;
}

static gint64 key_int(json_object *o, const char *k)
{
	return json_object_get_int64(key(o, k));
}

static gboolean key_bool(json_object *o, const char *k)
{
	return json_object_get_boolean(key(o, k));
}

static const char *key_str(json_object *o, const char *k)
{
	return json_object_get_string(key(o, k));
}

/* runs one SQL query on the file directly and returns the first column as text */
static char *sql_text(const char *path, const char *sql)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	char *ret = NULL;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		ret = g_strdup((const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	sqlite3_close(db);
	return ret;
}

static void assert_sql(const char *path, const char *sql, const char *want)
{
	g_autofree char *got = sql_text(path, sql);

	if (g_strcmp0(got, want) != 0)
		print_error("%s: got %s, wanted %s\n", sql, got ? got : "(null)", want);
	assert_string_equal(got ? got : "(null)", want);
}

static void assert_error(GError *error, int code)
{
	if (!error)
		print_error("no error, wanted code %d\n", code);
	assert_non_null(error);
	if (!g_error_matches(error, AD_STORE_ERROR, code))
		print_error("wanted code %d, got %d: %s\n", code, error->code, error->message);
	assert_true(g_error_matches(error, AD_STORE_ERROR, code));
}

/* a line of a generated log: one AVC of httpd_t on a file of type @ttype */
static void append_avc(GString *s, double t, guint serial, const char *ttype, const char *path,
		       const char *comm)
{
	g_string_append_printf(s, "type=AVC msg=audit(%.3f:%u): avc:  denied  { read } for  "
			       "pid=100 comm=\"%s\" path=\"%s\" dev=\"sda1\" ino=%u "
			       "scontext=system_u:system_r:httpd_t:s0 "
			       "tcontext=system_u:object_r:%s:s0 tclass=file permissive=0\n",
			       t, serial, comm, path, serial, ttype);
}

/* ---------------------------------------------------------------- tests */

static void test_create_record_list(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) denials = crafted_denials();
	g_autoptr(AdStore) s = open_store(f->path, NULL);
	g_autoptr(GPtrArray) list = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GHashTable) summaries = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
								 g_free);
	GPtrArray *alerts;
	guint news = 0;
	struct stat st;

	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(ad_store_count(s), 0);
	assert_string_equal(ad_store_path(s), f->path);

	for (guint i = 0; i < denials->len; i++) {
		AdDenial *d = g_ptr_array_index(denials, i);

		if (record(s, f->set, d)) {
			/* the summary is the one of the analysis: as of the first occurrence */
			g_autofree char *id = ad_denial_signature(d);
			AdAlert *a = NULL;

			for (guint j = 0; j < ad_alert_set_alerts(f->set)->len; j++)
				if (!strcmp(((AdAlert *)g_ptr_array_index(
						     ad_alert_set_alerts(f->set), j))->id, id))
					a = g_ptr_array_index(ad_alert_set_alerts(f->set), j);
			assert_non_null(a);
			g_hash_table_insert(summaries, g_strdup(a->id), ad_alert_summary(a));
			news++;
		}
	}
	alerts = ad_alert_set_alerts(f->set);
	assert_true(alerts->len >= 10);
	assert_int_equal(news, alerts->len);
	/* visible on this connection before the commit */
	assert_int_equal(ad_store_count(s), alerts->len);
	commit(s);
	g_clear_pointer(&s, ad_store_close);

	/* written, and read back by a new writer and by a reader */
	for (int pass = 0; pass < 2; pass++) {
		s = pass ? ad_store_open_readonly(f->path, &error) : open_store(f->path, NULL);
		assert_non_null(s);
		assert_int_equal(ad_store_count(s), alerts->len);
		for (guint i = 0; i < alerts->len; i++) {
			AdAlert *a = g_ptr_array_index(alerts, i);
			json_object *o = get(s, a->id, 0);
			json_object *hc = key(o, "host_counts");
			json_object *hosts = key(o, "hosts");
			guint64 count = 0;

			assert_string_equal(key_str(o, "id"), a->id);
			assert_int_equal(key_int(o, "count"), a->count);
			assert_int_equal(a->count % 3, 0);
			assert_int_equal(json_object_array_length(hosts), 2);
			assert_string_equal(json_object_get_string(
						    json_object_array_get_idx(hosts, 0)), "web1");
			assert_string_equal(json_object_get_string(
						    json_object_array_get_idx(hosts, 1)), "web2");
			assert_int_equal(key_int(hc, ""), a->count / 3);
			assert_int_equal(key_int(hc, "web1"), a->count / 3);
			assert_int_equal(key_int(hc, "web2"), a->count / 3);
			assert_true(json_object_get_double(key(o, "first_seen")) ==
				    a->first_seen);
			assert_true(json_object_get_double(key(o, "last_seen")) == a->last_seen);
			assert_string_equal(key_str(o, "level"), "yellow");
			assert_false(key_bool(o, "ignored"));
			assert_string_equal(key_str(o, "filter"), "never");
			/* the latest denial: the web2 copy, with its raw records */
			assert_string_equal(key_str(key(o, "denial"), "node"), "web2");
			assert_true(json_object_array_length(key(o, "records")) >= 1);
			assert_non_null(strstr(json_object_get_string(
						       json_object_array_get_idx(key(o, "records"),
										 0)),
					       "node=web2"));
			assert_true(json_object_is_type(key(o, "suggestions"), json_type_array));
			assert_true(json_object_is_type(key(o, "paths"), json_type_array));
			assert_true(json_object_is_type(key(o, "commands"), json_type_array));
			assert_string_equal(key_str(o, "summary"),
					    g_hash_table_lookup(summaries, a->id));
			assert_true(ad_store_lookup(s, a->id, &count, NULL));
			assert_int_equal(count, a->count);
			json_object_put(o);
		}
		list = ad_store_list(s, 0, FALSE, 0, NULL, &error);
		assert_non_null(list);
		assert_int_equal(list->len, alerts->len);
		/* oldest first */
		for (guint i = 1; i < list->len; i++)
			assert_true(json_object_get_double(key(g_ptr_array_index(list, i - 1),
							       "last_seen")) <=
				    json_object_get_double(key(g_ptr_array_index(list, i),
							       "last_seen")));
		g_clear_pointer(&list, g_ptr_array_unref);
		/* since: only the alerts last seen at or after it */
		list = ad_store_list(s, 1700000010.0, TRUE, 0, NULL, &error);
		assert_non_null(list);
		assert_true(list->len > 0 && list->len < alerts->len);
		for (guint i = 0; i < list->len; i++)
			assert_true(json_object_get_double(key(g_ptr_array_index(list, i),
							       "last_seen")) >= 1700000010.0);
		g_clear_pointer(&list, g_ptr_array_unref);
		/* host: every alert was seen on web1, none on web3 */
		list = ad_store_list(s, 0, TRUE, 0, "web1", &error);
		assert_int_equal(list->len, alerts->len);
		g_clear_pointer(&list, g_ptr_array_unref);
		list = ad_store_list(s, 0, TRUE, 0, "web3", &error);
		assert_int_equal(list->len, 0);
		g_clear_pointer(&list, g_ptr_array_unref);
		g_clear_pointer(&s, ad_store_close);
	}

	/* the same denials again: no new alert, counts double */
	s = open_store(f->path, NULL);
	for (guint i = 0; i < denials->len; i++)
		assert_false(record(s, f->set, g_ptr_array_index(denials, i)));
	commit(s);
	for (guint i = 0; i < alerts->len; i++) {
		AdAlert *a = g_ptr_array_index(alerts, i);
		json_object *o = get(s, a->id, 0);

		assert_int_equal(key_int(o, "count"), a->count);
		assert_int_equal(key_int(key(o, "host_counts"), "web1"), a->count / 3);
		json_object_put(o);
	}
	assert_true(ad_store_integrity_check(s, &error));
	/* read-only stores refuse writes */
	g_clear_pointer(&s, ad_store_close);
	s = ad_store_open_readonly(f->path, &error);
	assert_true(ad_store_commit(s, &error));
	assert_false(ad_store_delete(s, ((AdAlert *)g_ptr_array_index(alerts, 0))->id, &error));
	assert_error(error, AD_STORE_ERROR_INVALID);
}

/* many files, one signature: the count grows, the paths stop at AD_ALERT_MAX_PATHS */
static void test_paths_bounded(void **state)
{
	Fixture *f = *state;
	g_autoptr(GString) log = g_string_new(NULL);
	g_autoptr(GPtrArray) denials = NULL;
	g_autoptr(AdStore) s = open_store(f->path, NULL);
	AdAlert *a;
	json_object *o, *paths;

	for (guint i = 0; i < 100; i++) {
		g_autofree char *p = g_strdup_printf("/srv/www/f%u", i);
		g_autofree char *comm = g_strdup_printf("c%u", i % 40);

		append_avc(log, 1700000000 + i, 1000 + i, "var_t", p, comm);
	}
	/* a hex-encoded path holding an ESC sequence */
	g_string_append(log, "type=AVC msg=audit(1700000200.000:2000): avc:  denied  { read } for "
			     " pid=100 comm=\"x\" path=2F746D702F1B5B33316D dev=\"sda1\" ino=1 "
			     "scontext=system_u:system_r:httpd_t:s0 "
			     "tcontext=system_u:object_r:var_t:s0 tclass=file permissive=0\n");
	denials = denials_of_text(log->str, log->len);
	assert_int_equal(denials->len, 101);
	for (guint i = 0; i < denials->len; i++)
		record(s, f->set, g_ptr_array_index(denials, i));
	commit(s);
	assert_int_equal(ad_alert_set_alerts(f->set)->len, 1);
	a = g_ptr_array_index(ad_alert_set_alerts(f->set), 0);
	o = get(s, a->id, 0);
	assert_int_equal(key_int(o, "count"), 101);
	paths = key(o, "paths");
	assert_int_equal(json_object_array_length(paths), AD_ALERT_MAX_PATHS);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(paths, 0)),
			    "/srv/www/f0");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
						paths, AD_ALERT_MAX_PATHS - 1)), "/srv/www/f31");
	assert_int_equal(json_object_array_length(key(o, "commands")), AD_ALERT_MAX_PATHS);
	/* the latest denial is the last one, and what came from the record is escaped */
	assert_string_equal(key_str(key(o, "denial"), "path"), "/tmp/\\x1b[31m");
	json_object_put(o);

	/* a new session: the bound holds across reopening, the escape path too */
	g_clear_pointer(&s, ad_store_close);
	s = open_store(f->path, NULL);
	{
		g_autoptr(GString) more = g_string_new(NULL);
		g_autoptr(GPtrArray) d2 = NULL;

		append_avc(more, 1700000300, 3000, "var_t", "/srv/www/late", "late");
		d2 = denials_of_text(more->str, more->len);
		assert_false(record(s, f->set, g_ptr_array_index(d2, 0)));
	}
	commit(s);
	o = get(s, a->id, 0);
	assert_int_equal(key_int(o, "count"), 102);
	assert_int_equal(json_object_array_length(key(o, "paths")), AD_ALERT_MAX_PATHS);
	json_object_put(o);
	assert_sql(f->path, "SELECT count(*) FROM alert_items", "64");
}

static void test_filters(void **state)
{
	Fixture *f = *state;
	g_autoptr(GString) log = g_string_new(NULL);
	g_autoptr(GPtrArray) denials = NULL;
	g_autoptr(AdStore) s = open_store(f->path, NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) list = NULL;
	const char *once, *twice;
	json_object *o;

	append_avc(log, 1700000000, 1, "var_t", "/a", "a");
	append_avc(log, 1700000001, 2, "etc_t", "/b", "b");
	append_avc(log, 1700000002, 3, "etc_t", "/b", "b");
	denials = denials_of_text(log->str, log->len);
	for (guint i = 0; i < denials->len; i++)
		record(s, f->set, g_ptr_array_index(denials, i));
	commit(s);
	once = ((AdAlert *)g_ptr_array_index(ad_alert_set_alerts(f->set), 0))->id;
	twice = ((AdAlert *)g_ptr_array_index(ad_alert_set_alerts(f->set), 1))->id;

	assert_int_equal(ad_store_get_filter(s, once, 1000), AD_FILTER_NEVER);
	assert_true(ad_store_set_filter(s, once, 1000, AD_FILTER_ALWAYS, &error));
	assert_int_equal(ad_store_get_filter(s, once, 1000), AD_FILTER_ALWAYS);
	assert_int_equal(ad_store_get_filter(s, once, 1001), AD_FILTER_NEVER);
	/* hidden for 1000 only */
	list = ad_store_list(s, 0, FALSE, 1000, NULL, &error);
	assert_int_equal(list->len, 1);
	assert_string_equal(key_str(g_ptr_array_index(list, 0), "id"), twice);
	g_clear_pointer(&list, g_ptr_array_unref);
	list = ad_store_list(s, 0, FALSE, 1001, NULL, &error);
	assert_int_equal(list->len, 2);
	g_clear_pointer(&list, g_ptr_array_unref);
	list = ad_store_list(s, 0, TRUE, 1000, NULL, &error);
	assert_int_equal(list->len, 2);
	g_clear_pointer(&list, g_ptr_array_unref);
	o = get(s, once, 1000);
	assert_true(key_bool(o, "ignored"));
	assert_string_equal(key_str(o, "filter"), "always");
	json_object_put(o);
	/* no user (-1): nothing is ignored */
	o = get(s, once, -1);
	assert_false(key_bool(o, "ignored"));
	json_object_put(o);

	/* after_first: ignored once the alert is seen more than once */
	assert_true(ad_store_set_filter(s, once, 1001, AD_FILTER_AFTER_FIRST, &error));
	assert_true(ad_store_set_filter(s, twice, 1001, AD_FILTER_AFTER_FIRST, &error));
	o = get(s, once, 1001);
	assert_false(key_bool(o, "ignored"));	/* count 1 */
	assert_string_equal(key_str(o, "filter"), "after_first");
	json_object_put(o);
	o = get(s, twice, 1001);
	assert_true(key_bool(o, "ignored"));	/* count 2 */
	json_object_put(o);
	record(s, f->set, g_ptr_array_index(denials, 0));
	commit(s);
	o = get(s, once, 1001);
	assert_true(key_bool(o, "ignored"));
	json_object_put(o);
	assert_false(ad_filter_is_ignored(AD_FILTER_AFTER_FIRST, 1));
	assert_true(ad_filter_is_ignored(AD_FILTER_AFTER_FIRST, 2));
	assert_true(ad_filter_is_ignored(AD_FILTER_ALWAYS, 1));
	assert_false(ad_filter_is_ignored(AD_FILTER_NEVER, 100));

	/* unignore: "never" */
	assert_true(ad_store_set_filter(s, once, 1000, AD_FILTER_NEVER, &error));
	assert_int_equal(ad_store_get_filter(s, once, 1000), AD_FILTER_NEVER);
	/* the filters survive reopening */
	g_clear_pointer(&s, ad_store_close);
	s = ad_store_open_readonly(f->path, &error);
	assert_int_equal(ad_store_get_filter(s, once, 1001), AD_FILTER_AFTER_FIRST);
	g_clear_pointer(&s, ad_store_close);
	s = open_store(f->path, NULL);

	/* bad arguments */
	assert_false(ad_store_set_filter(s, "0123456789abcdef", 1000, AD_FILTER_ALWAYS, &error));
	assert_error(error, AD_STORE_ERROR_NOT_FOUND);
	g_clear_error(&error);
	assert_false(ad_store_set_filter(s, once, -1, AD_FILTER_ALWAYS, &error));
	assert_error(error, AD_STORE_ERROR_INVALID);
	g_clear_error(&error);
	assert_false(ad_store_set_filter(s, once, 1000, 7, &error));
	assert_error(error, AD_STORE_ERROR_INVALID);
	g_clear_error(&error);

	/* names */
	for (AdFilter i = AD_FILTER_NEVER; i <= AD_FILTER_ALWAYS; i++) {
		AdFilter back;

		assert_true(ad_filter_from_name(ad_filter_name(i), &back));
		assert_int_equal(back, i);
	}
	{
		AdFilter back = AD_FILTER_ALWAYS;

		assert_false(ad_filter_from_name("sometimes", &back));
		assert_false(ad_filter_from_name(NULL, &back));
		assert_int_equal(back, AD_FILTER_ALWAYS);
	}
	assert_string_equal(ad_filter_name(AD_FILTER_AFTER_FIRST), "after_first");
}

static void test_delete(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) denials = crafted_denials();
	g_autoptr(AdStore) s = open_store(f->path, NULL);
	g_autoptr(GError) error = NULL;
	g_autofree char *local = NULL, *again = NULL;
	json_object *o;
	AdAlert *a;
	guint n;
	char id[17];
	gint64 num;

	for (guint i = 0; i < denials->len; i++)
		record(s, f->set, g_ptr_array_index(denials, i));
	commit(s);
	n = ad_store_count(s);
	a = g_ptr_array_index(ad_alert_set_alerts(f->set), 0);
	/* the local id names this alert until it is deleted */
	local = ad_store_local_id(s, a->id);
	assert_non_null(local);
	assert_true(ad_store_parse_local_id(local, id, &num, NULL));
	assert_string_equal(id, a->id);
	o = ad_store_get_local(s, local, TRUE, 0, &error);
	assert_non_null(o);
	json_object_put(o);
	/* the modules the fix helper loaded, and for which alert */
	{
		g_autofree char *none = ad_store_fix_module_alert(s, "my_httpd");
		g_autofree char *owner = NULL;

		assert_null(none);
		assert_true(ad_store_set_fix_module(s, "my_httpd", a->id, 1700000000, &error));
		owner = ad_store_fix_module_alert(s, "my_httpd");
		assert_string_equal(owner, a->id);
		assert_false(ad_store_set_fix_module(s, "my_httpd", "../x", 1700000000, &error));
		assert_error(error, AD_STORE_ERROR_INVALID);
		g_clear_error(&error);
	}
	/* a batch: unknown ids passed over, one transaction */
	{
		const char *ids[] = { a->id, "0123456789abcdef", NULL };
		guint set = 99;

		assert_true(ad_store_set_filters(s, ids, 1000, AD_FILTER_ALWAYS, TRUE, &set,
						 &error));
		assert_int_equal(set, 1);
		assert_int_equal(ad_store_get_filter(s, a->id, 1000), AD_FILTER_ALWAYS);
		ids[1] = "../x";
		assert_false(ad_store_set_filters(s, ids, 1000, AD_FILTER_NEVER, TRUE, &set,
						  &error));
		assert_error(error, AD_STORE_ERROR_INVALID);
		g_clear_error(&error);
		assert_int_equal(ad_store_get_filter(s, a->id, 1000), AD_FILTER_ALWAYS);
	}
	assert_true(ad_store_set_filter(s, a->id, 1000, AD_FILTER_ALWAYS, &error));
	assert_true(ad_store_delete(s, a->id, &error));
	assert_int_equal(ad_store_count(s), n - 1);
	assert_null(ad_store_get(s, a->id, 0, &error));
	assert_error(error, AD_STORE_ERROR_NOT_FOUND);
	g_clear_error(&error);
	assert_false(ad_store_lookup(s, a->id, NULL, NULL));
	/* an explicit delete forgets the filters too */
	assert_int_equal(ad_store_get_filter(s, a->id, 1000), AD_FILTER_NEVER);
	assert_false(ad_store_delete(s, a->id, &error));
	assert_error(error, AD_STORE_ERROR_NOT_FOUND);
	g_clear_error(&error);
	/* no orphans */
	g_autofree char *sql = g_strdup_printf("SELECT count(*) FROM alert_hosts WHERE alert NOT IN "
					       "(SELECT num FROM alerts)");
	assert_sql(f->path, sql, "0");
	/* it comes back as a new alert, with a new local id; the old one names nothing */
	assert_true(record(s, f->set, a->latest));
	commit(s);
	assert_int_equal(ad_store_count(s), n);
	again = ad_store_local_id(s, a->id);
	assert_non_null(again);
	assert_string_not_equal(again, local);
	assert_null(ad_store_get_local(s, local, FALSE, 0, &error));
	assert_error(error, AD_STORE_ERROR_NOT_FOUND);
	g_clear_error(&error);
	/* malformed local ids */
	for (const char *const *bad = (const char *const[]){ "", "x", "0123456789abcdef",
			"0123456789abcdef-", "0123456789abcdef-01", "0123456789abcdef-+1",
			"0123456789abcdef- 1", "0123456789ABCDEF-1", "0123456789abcdef-1x",
			"0123456789abcdef-99999999999999999999", "0123456789abcdef-1.",
			"0123456789abcdef-1.1", "0123456789abcdef-1.0", "0123456789abcdef-1.02",
			"0123456789abcdef-1.x", "0123456789abcdef-1.2.3", "0123456789abcdef-.2",
			NULL }; *bad; bad++) {
		assert_false(ad_store_parse_local_id(*bad, id, &num, NULL));
		assert_null(ad_store_get_local(s, *bad, FALSE, 0, &error));
		assert_error(error, AD_STORE_ERROR_INVALID);
		g_clear_error(&error);
	}

	/* a delete by another process (avcdoctor delete --db) is seen by the writer */
	{
		g_autoptr(AdStore) other = open_store(f->path, NULL);
		guint64 count = 0;

		assert_true(ad_store_delete(other, a->id, &error));
		assert_true(record(s, f->set, a->latest));
		commit(s);
		assert_true(ad_store_lookup(other, a->id, &count, NULL));
		assert_int_equal(count, 1);
	}
}

/* alerts with last_seen 1700000000 + i * 3600 for i < @n, distinct types */
static void record_hourly(AdStore *s, AdAlertSet *set, guint n)
{
	g_autoptr(GString) log = g_string_new(NULL);
	g_autoptr(GPtrArray) denials = NULL;

	for (guint i = 0; i < n; i++) {
		g_autofree char *t = g_strdup_printf("type%u_t", i);

		append_avc(log, 1700000000 + i * 3600.0, i + 1, t, "/x", "x");
	}
	denials = denials_of_text(log->str, log->len);
	assert_int_equal(denials->len, n);
	for (guint i = 0; i < denials->len; i++)
		assert_true(record(s, set, g_ptr_array_index(denials, i)));
	commit(s);
}

static void test_prune_count(void **state)
{
	Fixture *f = *state;
	AdStoreLimits limits = { .max_alerts = 3 };
	g_autoptr(AdStore) s = open_store(f->path, &limits);
	g_autoptr(GPtrArray) list = NULL;
	g_autoptr(GError) error = NULL;
	GPtrArray *alerts;

	record_hourly(s, f->set, 10);
	alerts = ad_alert_set_alerts(f->set);
	/* someone ignores the oldest; pruning keeps that decision */
	assert_true(ad_store_set_filter(s, ((AdAlert *)g_ptr_array_index(alerts, 0))->id, 1000,
					AD_FILTER_ALWAYS, &error));
	assert_int_equal(ad_store_prune(s, 1700000000 + 10 * 3600.0, NULL), 7);
	assert_int_equal(ad_store_count(s), 3);
	list = ad_store_list(s, 0, TRUE, 0, NULL, &error);
	assert_int_equal(list->len, 3);
	for (guint i = 0; i < 3; i++)
		assert_string_equal(key_str(g_ptr_array_index(list, i), "id"),
				    ((AdAlert *)g_ptr_array_index(alerts, 7 + i))->id);
	assert_int_equal(ad_store_prune(s, 1700000000 + 10 * 3600.0, NULL), 0);
	assert_sql(f->path, "SELECT count(*) FROM alert_hosts", "3");
	assert_sql(f->path, "SELECT count(*) FROM alert_items", "6");
	/* the oldest comes back: new, and still ignored by 1000 */
	{
		/*
		 * ad_alert_set_add() drops a->latest before it takes the new
		 * denial: when they are the same, hold a reference of our own
		 */
		g_autoptr(AdDenial) d = ad_denial_ref(((AdAlert *)g_ptr_array_index(alerts,
										   0))->latest);

		assert_true(record(s, f->set, d));
	}
	commit(s);
	{
		json_object *o = get(s, ((AdAlert *)g_ptr_array_index(alerts, 0))->id, 1000);

		assert_true(key_bool(o, "ignored"));
		json_object_put(o);
	}
	/* no caps: nothing pruned */
	g_clear_pointer(&s, ad_store_close);
	s = open_store(f->path, NULL);
	assert_int_equal(ad_store_prune(s, 1e12, NULL), 0);
	/* caps set later (a configuration reload) */
	limits.max_alerts = 1;
	ad_store_set_limits(s, &limits);
	assert_int_equal(ad_store_prune(s, 1e12, NULL), 3);
	assert_int_equal(ad_store_count(s), 1);
	ad_store_set_limits(s, NULL);
}

static void test_prune_age(void **state)
{
	Fixture *f = *state;
	AdStoreLimits limits = { .max_age_days = 1 };
	g_autoptr(AdStore) s = open_store(f->path, &limits);

	record_hourly(s, f->set, 10);
	/* "now" just before 30 hours after the first: the first 6 (0..5 h) are older than a day */
	assert_int_equal(ad_store_prune(s, 1700000000 + 30 * 3600.0 - 1, NULL), 6);
	assert_int_equal(ad_store_count(s), 4);
	/* both caps */
	g_clear_pointer(&s, ad_store_close);
	limits.max_alerts = 2;
	s = open_store(f->path, &limits);
	assert_int_equal(ad_store_prune(s, 1700000000 + 30 * 3600.0 - 1, NULL), 2);
	assert_int_equal(ad_store_count(s), 2);
	assert_int_equal(ad_store_prune(s, 1e12, NULL), 2);
	assert_int_equal(ad_store_count(s), 0);
}

/* the new analysis is written when the level changes, or when asked */
static void test_level_change(void **state)
{
	Fixture *f = *state;
	g_autoptr(GString) log = g_string_new(NULL);
	g_autoptr(GPtrArray) denials = NULL;
	g_autoptr(AdStore) s = open_store(f->path, NULL);
	g_autoptr(GError) error = NULL;
	AdAlert *a;
	AdSuggestion *sg;
	AdLevel level;
	json_object *o;

	append_avc(log, 1700000000, 1, "shadow_t", "/etc/shadow", "httpd");
	append_avc(log, 1700000001, 2, "shadow_t", "/etc/shadow", "httpd");
	denials = denials_of_text(log->str, log->len);
	record(s, f->set, g_ptr_array_index(denials, 0));
	commit(s);
	a = g_ptr_array_index(ad_alert_set_alerts(f->set), 0);
	o = get(s, a->id, 0);
	assert_string_equal(key_str(o, "level"), "yellow");
	assert_int_equal(json_object_array_length(key(o, "suggestions")), 0);
	json_object_put(o);

	a->suggestions = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);
	sg = ad_suggestion_new("test", AD_FIX_ATTACK, 0.9, AD_LEVEL_RED);
	ad_suggestion_set_if(sg, "If httpd should never read /etc/shadow");
	ad_suggestion_add_command(sg, "ausearch", "-m", "AVC", "-c", "httpd", NULL);
	g_ptr_array_add(a->suggestions, sg);
	a->level = AD_LEVEL_RED;
	record(s, f->set, g_ptr_array_index(denials, 1));
	assert_true(ad_store_lookup(s, a->id, NULL, &level));
	assert_int_equal(level, AD_LEVEL_RED);
	commit(s);
	/* a batch of filters passes a red alert over when asked to */
	{
		const char *ids[] = { a->id, NULL };
		guint set = 99;

		assert_true(ad_store_set_filters(s, ids, 1000, AD_FILTER_ALWAYS, TRUE, &set,
						 &error));
		assert_int_equal(set, 0);
		assert_int_equal(ad_store_get_filter(s, a->id, 1000), AD_FILTER_NEVER);
	}
	o = get(s, a->id, 0);
	assert_string_equal(key_str(o, "level"), "red");
	assert_int_equal(json_object_array_length(key(o, "suggestions")), 1);
	assert_string_equal(key_str(json_object_array_get_idx(key(o, "suggestions"), 0), "kind"),
			    "attack");
	json_object_put(o);

	/*
	 * set_analysis: rewritten without a record; a changed analysis is a new
	 * generation with a new local id, the same one is not
	 */
	{
		g_autofree char *before = ad_store_local_id(s, a->id);
		g_autofree char *same = NULL, *after = NULL;
		char id[17];
		gint64 num, gen;

		assert_true(ad_store_set_analysis(s, a, &error));
		commit(s);
		same = ad_store_local_id(s, a->id);
		assert_string_equal(same, before);
		sg->kind = AD_FIX_INFO;
		assert_true(ad_store_set_analysis(s, a, &error));
		commit(s);
		after = ad_store_local_id(s, a->id);
		assert_string_not_equal(after, before);
		assert_true(ad_store_parse_local_id(after, id, &num, &gen));
		assert_true(ad_store_parse_local_id(before, id, &num, NULL));
		assert_true(gen > 1);
		assert_string_equal(id, a->id);
		/* the earlier local id: the same life, another analysis */
		assert_null(ad_store_get_local(s, before, TRUE, 0, &error));
		assert_error(error, AD_STORE_ERROR_CHANGED);
		g_clear_error(&error);
		o = ad_store_get_local(s, before, FALSE, 0, &error);
		assert_non_null(o);
		json_object_put(o);
		o = ad_store_get_local(s, after, TRUE, 0, &error);
		assert_non_null(o);
		json_object_put(o);
	}
	o = get(s, a->id, 0);
	assert_string_equal(key_str(json_object_array_get_idx(key(o, "suggestions"), 0), "kind"),
			    "info");
	assert_int_equal(key_int(o, "count"), 2);
	json_object_put(o);
	{
		AdAlert other = *a;

		other.id = (char *)"0123456789abcdef";
		assert_false(ad_store_set_analysis(s, &other, &error));
	}
	assert_error(error, AD_STORE_ERROR_NOT_FOUND);
}

/* an empty file is schema 0 and is migrated; other databases are left alone */
/* one denial of httpd_t reading etc_t, with @permissive ("" for no such field) */
static AdDenial *mode_denial(guint serial, const char *permissive)
{
	g_autofree char *text = g_strdup_printf(
		"type=AVC msg=audit(1700000000.%03u:%u): avc:  denied  { read } for  pid=1 "
		"comm=\"httpd\" name=\"f\" scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:object_r:etc_t:s0 tclass=file%s%s\n",
		serial, serial, *permissive ? " permissive=" : "", permissive);
	g_autoptr(GPtrArray) denials = denials_of_text(text, strlen(text));

	assert_int_equal(denials->len, 1);
	return ad_denial_ref(g_ptr_array_index(denials, 0));
}

/*
 * Occurrences blocked (enforcing) and only logged (permissive) are counted
 * and kept across reopening, as analyze counts them; a record that does not
 * say counts in neither
 */
/*
 * When the denials happened: one alert's occurrences in minute buckets,
 * written at each commit and added to what is stored (across a reopen),
 * the same buckets as AdOccurrences makes of the same times
 */
static void test_timeline(void **state)
{
	Fixture *f = *state;
	static const double times[] = { 1700000000.5, 1700000005.1, 1700000070.0,
					1700003600.9, 1700003601.0 };
	g_autoptr(AdStore) s = open_store(f->path, NULL);
	g_autoptr(AdOccurrences) want = ad_occurrences_new();
	g_autofree char *id = NULL;
	json_object *o, *got;

	for (guint i = 0; i < G_N_ELEMENTS(times); i++) {
		g_autoptr(GString) text = g_string_new(NULL);
		g_autoptr(GPtrArray) d = NULL;

		append_avc(text, times[i], 100 + i, "etc_t", "/etc/x", "tl");
		d = denials_of_text(text->str, text->len);
		record(s, f->set, g_ptr_array_index(d, 0));
		if (!id)
			id = ad_denial_signature(g_ptr_array_index(d, 0));
		ad_occurrences_add(want, times[i], 1);
		if (i == 2) {
			commit(s);
			g_clear_pointer(&s, ad_store_close);
			s = open_store(f->path, NULL);
		}
	}
	commit(s);
	o = get(s, id, 0);
	assert_int_equal(key_int(o, "count"), 5);
	got = key(o, "timeline");
	assert_non_null(got);
	{
		json_object *w = ad_occurrences_to_json(want);

		assert_string_equal(json_object_to_json_string(got),
				    json_object_to_json_string(w));
		assert_string_equal(json_object_to_json_string(got),
				    "{ \"width\": 60, \"buckets\": [ [ 1699999980, 2 ], "
				    "[ 1700000040, 1 ], [ 1700003580, 2 ] ] }");
		json_object_put(w);
	}
	json_object_put(o);
}

static void test_mode_counts(void **state)
{
	Fixture *f = *state;
	static const char *const modes[] = { "0", "1", "0", "" };
	g_autoptr(AdStore) s = open_store(f->path, NULL);
	g_autofree char *id = NULL;
	json_object *o;

	for (guint i = 0; i < G_N_ELEMENTS(modes); i++) {
		g_autoptr(AdDenial) d = mode_denial(i + 1, modes[i]);

		record(s, f->set, d);
		if (!id)
			id = ad_denial_signature(d);
	}
	commit(s);
	o = get(s, id, 0);
	assert_int_equal(key_int(o, "count"), 4);
	assert_int_equal(key_int(o, "blocked"), 2);
	assert_int_equal(key_int(o, "logged_only"), 1);
	json_object_put(o);
	g_clear_pointer(&s, ad_store_close);

	s = open_store(f->path, NULL);
	{
		g_autoptr(AdDenial) d = mode_denial(9, "1");

		record(s, f->set, d);
	}
	commit(s);
	o = get(s, id, 0);
	assert_int_equal(key_int(o, "count"), 5);
	assert_int_equal(key_int(o, "blocked"), 2);
	assert_int_equal(key_int(o, "logged_only"), 2);
	json_object_put(o);
}

static void test_migrations(void **state)
{
	Fixture *f = *state;
	g_autoptr(GError) error = NULL;
	g_autoptr(AdStore) s = NULL;
	g_autofree char *version = NULL;
	sqlite3 *db = NULL;

	/* read-only on an empty file: migrated in memory, the file untouched */
	assert_true(g_file_set_contents(f->path, "", 0, NULL));
	assert_int_equal(chmod(f->path, 0600), 0);
	s = ad_store_open_readonly(f->path, &error);
	if (!s)
		print_error("%s\n", error->message);
	assert_non_null(s);
	assert_int_equal(ad_store_count(s), 0);
	g_clear_pointer(&s, ad_store_close);
	{
		struct stat st;

		assert_int_equal(stat(f->path, &st), 0);
		assert_int_equal(st.st_size, 0);
	}
	s = open_store(f->path, NULL);
	g_clear_pointer(&s, ad_store_close);
	version = sql_text(f->path, "PRAGMA user_version");
	assert_int_equal(atoi(version), AD_STORE_SCHEMA_VERSION);
	g_free(version);
	version = sql_text(f->path, "PRAGMA application_id");
	assert_int_equal(atoi(version), 0x41564344);
	g_free(version);
	version = sql_text(f->path, "PRAGMA journal_mode");
	assert_string_equal(version, "wal");
	/* opening again does nothing more */
	s = open_store(f->path, NULL);
	g_clear_pointer(&s, ad_store_close);

	/*
	 * a version 1 store with alerts: version 2 numbers new alerts above
	 * them, version 3 adds fix_applied, version 4 the blocked and only
	 * logged counts (unknown for the alerts already stored)
	 */
	{
		g_autoptr(GPtrArray) denials = crafted_denials();
		g_autofree char *v1 = g_strconcat(f->path, ".v1", NULL);
		g_autofree char *wal = g_strconcat(v1, "-wal", NULL);
		g_autofree char *shm = g_strconcat(v1, "-shm", NULL);
		g_autofree char *v = NULL;

		s = open_store(v1, NULL);
		for (guint i = 0; i < denials->len; i++)
			record(s, f->set, g_ptr_array_index(denials, i));
		commit(s);
		g_clear_pointer(&s, ad_store_close);
		assert_int_equal(sqlite3_open(v1, &db), SQLITE_OK);
		/* back to version 1: without what versions 2 and 3 add */
		assert_int_equal(sqlite3_exec(db, "DROP TABLE retired; "
					      "ALTER TABLE alerts DROP COLUMN fix_applied; "
					      "ALTER TABLE alerts DROP COLUMN blocked; "
					      "ALTER TABLE alerts DROP COLUMN logged_only; "
					      "ALTER TABLE alerts DROP COLUMN analysis_gen; "
					      "DROP TABLE fix_modules; DROP TABLE held_mails; "
					      "ALTER TABLE alerts DROP COLUMN timeline; "
					      "PRAGMA user_version = 1", NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
		s = open_store(v1, NULL);
		g_clear_pointer(&s, ad_store_close);
		v = sql_text(v1, "PRAGMA user_version");
		assert_int_equal(atoi(v), AD_STORE_SCHEMA_VERSION);
		assert_sql(v1, "SELECT high = (SELECT max(num) FROM alerts) AND high > 0 "
			       "FROM retired", "1");
		/* version 3: no fix applied yet to any alert */
		assert_sql(v1, "SELECT count(*) = count(*) FILTER (WHERE fix_applied IS NULL) "
			       "FROM alerts", "1");
		/* version 4: not counted then, so unknown, and not the stored analysis' figure */
		assert_sql(v1, "SELECT count(*) = count(*) FILTER (WHERE blocked IS NULL AND "
			       "logged_only IS NULL) FROM alerts", "1");
		/* version 8: when the old denials happened is not known */
		assert_sql(v1, "SELECT count(*) = count(*) FILTER (WHERE timeline IS NULL) "
			       "FROM alerts", "1");
		/* version 6: no module loaded by the fix helper yet */
		assert_sql(v1, "SELECT count(*) FROM fix_modules", "0");
		/* version 7: no mail held back yet */
		assert_sql(v1, "SELECT count(*) FROM held_mails", "0");
		/* version 5: every alert at its first analysis */
		assert_sql(v1, "SELECT count(*) = count(*) FILTER (WHERE analysis_gen = 1) "
			       "FROM alerts", "1");
		{
			g_autofree char *old_id = sql_text(v1, "SELECT id FROM alerts LIMIT 1");
			json_object *o;

			s = open_store(v1, NULL);
			o = get(s, old_id, 0);
			assert_false(json_object_object_get_ex(o, "blocked", NULL));
			assert_false(json_object_object_get_ex(o, "logged_only", NULL));
			assert_false(json_object_object_get_ex(o, "timeline", NULL));
			json_object_put(o);
			/* a new occurrence does not make the old ones counted */
			for (guint i = 0; i < denials->len; i++) {
				g_autofree char *sig = ad_denial_signature(g_ptr_array_index(denials, i));

				if (strcmp(sig, old_id) == 0) {
					record(s, f->set, g_ptr_array_index(denials, i));
					break;
				}
			}
			commit(s);
			o = get(s, old_id, 0);
			assert_false(json_object_object_get_ex(o, "blocked", NULL));
			/* its buckets start with the new occurrence; the count holds all */
			{
				g_autoptr(AdOccurrences) occ =
					ad_occurrences_from_json(key(o, "timeline"));

				assert_non_null(occ);
				assert_int_equal(ad_occurrences_total(occ), 1);
				assert_true(key_int(o, "count") > 1);
			}
			json_object_put(o);
			g_clear_pointer(&s, ad_store_close);
		}
		g_unlink(v1);
		g_unlink(wal);
		g_unlink(shm);
	}

	/* a newer schema: refused, not moved */
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_null(ad_store_open(f->path, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_OPEN);
	assert_non_null(strstr(error->message, "newer"));
	g_clear_error(&error);
	assert_null(ad_store_open_readonly(f->path, &error));
	assert_error(error, AD_STORE_ERROR_OPEN);
	g_clear_error(&error);
	assert_true(g_file_test(f->path, G_FILE_TEST_EXISTS));

	/* another program's database: refused, not moved */
	g_unlink(f->path);
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE notes (t TEXT)", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(chmod(f->path, 0600), 0);
	assert_null(ad_store_open(f->path, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_OPEN);
	assert_non_null(strstr(error->message, "not an avcdoctor alert store"));
	g_clear_error(&error);
	assert_sql(f->path, "SELECT count(*) FROM notes", "0");
}

/*
 * A store written by an earlier version under a locale with a decimal
 * comma holds "time":1700000001,100 in its denial JSON: read back whole,
 * with the time as the number it was
 */
static void test_decimal_comma(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) denials = crafted_denials();
	g_autofree char *id = NULL, *text = NULL, *broken = NULL;
	g_autoptr(GRegex) point = g_regex_new("(\"time\":[0-9]+)\\.([0-9]+)", 0, 0, NULL);
	AdStore *s = open_store(f->path, NULL);
	sqlite3 *db;
	sqlite3_stmt *q;
	json_object *o, *d, *t;

	for (guint i = 0; i < denials->len; i++)
		record(s, f->set, g_ptr_array_index(denials, i));
	commit(s);
	g_clear_pointer(&s, ad_store_close);
	id = sql_text(f->path, "SELECT id FROM alerts WHERE denial LIKE '%\"time\":%' LIMIT 1");
	text = sql_text(f->path, "SELECT denial FROM alerts WHERE denial LIKE '%\"time\":%' LIMIT 1");
	broken = g_regex_replace(point, text, -1, 0, "\\1,\\2", 0, NULL);
	assert_string_not_equal(broken, text);
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "UPDATE alerts SET denial = ? WHERE id = ?", -1,
					    &q, NULL), SQLITE_OK);
	sqlite3_bind_text(q, 1, broken, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, id, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(q), SQLITE_DONE);
	sqlite3_finalize(q);
	sqlite3_close(db);

	s = open_store(f->path, NULL);
	o = get(s, id, 0);
	assert_true(json_object_object_get_ex(o, "denial", &d));
	assert_true(json_object_is_type(d, json_type_object));
	assert_true(json_object_object_get_ex(d, "time", &t));
	assert_true(json_object_is_type(t, json_type_double));
	{
		json_object *orig = json_tokener_parse(text), *ot;

		/* the time it was written with, to the millisecond */
		assert_true(json_object_object_get_ex(orig, "time", &ot));
		assert_true(json_object_get_double(t) > 1e9);
		assert_true(fabs(json_object_get_double(t) - json_object_get_double(ot)) < 1e-6);
		json_object_put(orig);
	}
	json_object_put(o);
	g_clear_pointer(&s, ad_store_close);
}

static void test_unsafe_paths(void **state)
{
	Fixture *f = *state;
	g_autoptr(GError) error = NULL;
	g_autofree char *target = g_build_filename(f->dir, "target", NULL);
	g_autofree char *sub = g_build_filename(f->dir, "sub", NULL);
	g_autofree char *sub_db = g_build_filename(sub, "alerts.db", NULL);
	g_autofree char *deep_db = g_build_filename(f->dir, "a", "b", "alerts.db", NULL);
	g_autofree char *hard = g_build_filename(f->dir, "hard", NULL);
	g_autofree char *wal = g_strconcat(f->path, "-wal", NULL);
	g_autofree char *warning = NULL;
	g_autoptr(AdStore) s = NULL;
	struct stat st;

	/* a symlink at the path: refused, the target untouched */
	assert_true(g_file_set_contents(target, "precious", -1, NULL));
	assert_int_equal(symlink(target, f->path), 0);
	assert_null(ad_store_open(f->path, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	assert_non_null(strstr(error->message, "symbolic link"));
	g_clear_error(&error);
	assert_null(ad_store_open_readonly(f->path, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	g_clear_error(&error);
	/* a dangling one is not followed to create a file either */
	g_unlink(target);
	assert_null(ad_store_open(f->path, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	g_clear_error(&error);
	assert_false(g_file_test(target, G_FILE_TEST_EXISTS));
	g_unlink(f->path);

	/* a linked directory component: refused before any file is made there */
	{
		g_autofree char *real = g_build_filename(f->dir, "real", NULL);
		g_autofree char *linked = g_build_filename(f->dir, "linked", NULL);
		g_autofree char *via = g_build_filename(linked, "alerts.db", NULL);
		g_autofree char *made = g_build_filename(real, "alerts.db", NULL);

		assert_int_equal(g_mkdir(real, 0700), 0);
		assert_int_equal(symlink(real, linked), 0);
		assert_null(ad_store_open(via, NULL, NULL, &error));
		assert_error(error, AD_STORE_ERROR_UNSAFE);
		assert_non_null(strstr(error->message, "symbolic link"));
		g_clear_error(&error);
		assert_false(g_file_test(made, G_FILE_TEST_EXISTS));
		g_unlink(linked);
		g_rmdir(real);
	}

	/* a planted -wal link */
	assert_int_equal(symlink(target, wal), 0);
	assert_null(ad_store_open(f->path, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	g_clear_error(&error);
	g_unlink(wal);
	g_unlink(f->path);

	/* a world- or group-writable directory */
	assert_int_equal(g_mkdir(sub, 0700), 0);
	assert_int_equal(chmod(sub, 01777), 0);
	assert_null(ad_store_open(sub_db, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	assert_non_null(strstr(error->message, "writable by others"));
	g_clear_error(&error);
	assert_int_equal(chmod(sub, 0770), 0);
	assert_null(ad_store_open(sub_db, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	g_clear_error(&error);
	assert_false(g_file_test(sub_db, G_FILE_TEST_EXISTS));
	assert_int_equal(chmod(sub, 0750), 0);
	s = open_store(sub_db, NULL);
	g_clear_pointer(&s, ad_store_close);

	/* missing directories are created 0700 */
	s = open_store(deep_db, NULL);
	g_clear_pointer(&s, ad_store_close);
	{
		g_autofree char *d = g_path_get_dirname(deep_db);

		assert_int_equal(stat(d, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0700);
	}

	/* a file with more links, or not a regular file */
	assert_true(g_file_set_contents(hard, "", 0, NULL));
	assert_int_equal(link(hard, f->path), 0);
	assert_null(ad_store_open(f->path, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	g_clear_error(&error);
	g_unlink(f->path);
	assert_int_equal(mkfifo(f->path, 0600), 0);
	assert_null(ad_store_open(f->path, NULL, NULL, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	g_clear_error(&error);
	assert_null(ad_store_open_readonly(f->path, &error));
	assert_error(error, AD_STORE_ERROR_UNSAFE);
	g_clear_error(&error);
	g_unlink(f->path);

	/* too open a mode is narrowed to 0640 at most, and said */
	s = open_store(f->path, NULL);
	g_clear_pointer(&s, ad_store_close);
	assert_int_equal(chmod(f->path, 0666), 0);
	s = ad_store_open(f->path, NULL, &warning, &error);
	assert_non_null(s);
	assert_non_null(warning);
	assert_non_null(strstr(warning, "0640"));
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	g_clear_pointer(&s, ad_store_close);
	g_clear_pointer(&warning, g_free);
	/* 0640 is kept (a group may read the store with --db) */
	s = open_store(f->path, NULL);
	g_clear_pointer(&s, ad_store_close);
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);

	/* owned by another user (only root can make one) */
	if (geteuid() == 0) {
		assert_int_equal(chown(f->path, 65534, 65534), 0);
		assert_null(ad_store_open(f->path, NULL, NULL, &error));
		assert_error(error, AD_STORE_ERROR_UNSAFE);
		g_clear_error(&error);
		assert_int_equal(chown(f->path, 0, 0), 0);
		assert_int_equal(chown(f->dir, 65534, 65534), 0);
		assert_null(ad_store_open(f->path, NULL, NULL, &error));
		assert_error(error, AD_STORE_ERROR_UNSAFE);
		g_clear_error(&error);
		/* reading is still possible */
		s = ad_store_open_readonly(f->path, &error);
		assert_non_null(s);
		g_clear_pointer(&s, ad_store_close);
		assert_int_equal(chown(f->dir, 0, 0), 0);
	}
}

/* garbage, or a damaged page: moved aside once, a new store made; readers are told */
static void test_corrupt(void **state)
{
	Fixture *f = *state;
	g_autoptr(GError) error = NULL;
	g_autofree char *warning = NULL;
	g_autoptr(AdStore) s = NULL;
	g_autoptr(GPtrArray) denials = crafted_denials();
	g_autoptr(GDir) d = NULL;
	char garbage[8192];
	const char *name;
	guint moved = 0;

	for (guint i = 0; i < sizeof(garbage); i++)
		garbage[i] = "this is not a database\n"[i % 23];
	assert_true(g_file_set_contents(f->path, garbage, sizeof(garbage), NULL));
	assert_int_equal(chmod(f->path, 0600), 0);

	/* a reader says so and leaves it */
	assert_null(ad_store_open_readonly(f->path, &error));
	assert_error(error, AD_STORE_ERROR_CORRUPT);
	g_clear_error(&error);

	s = ad_store_open(f->path, NULL, &warning, &error);
	if (!s)
		print_error("%s\n", error->message);
	assert_non_null(s);
	assert_non_null(warning);
	assert_non_null(strstr(warning, ".corrupt-"));
	assert_int_equal(ad_store_count(s), 0);
	for (guint i = 0; i < denials->len; i++)
		record(s, f->set, g_ptr_array_index(denials, i));
	commit(s);
	g_clear_pointer(&s, ad_store_close);
	g_clear_pointer(&warning, g_free);
	/* the garbage is kept beside it, byte for byte */
	d = g_dir_open(f->dir, 0, NULL);
	while ((name = g_dir_read_name(d))) {
		if (g_str_has_prefix(name, "alerts.db.corrupt-")) {
			g_autofree char *p = g_build_filename(f->dir, name, NULL);
			g_autofree char *c = NULL;
			gsize len;

			assert_true(g_file_get_contents(p, &c, &len, NULL));
			assert_int_equal(len, sizeof(garbage));
			assert_memory_equal(c, garbage, len);
			moved++;
		}
	}
	assert_int_equal(moved, 1);

	/* no loop: the new store opens quietly */
	s = open_store(f->path, NULL);
	assert_true(ad_store_count(s) > 0);
	g_clear_pointer(&s, ad_store_close);

	/* a damaged page of a real store (the root page of the alerts table) */
	{
		int fd = open(f->path, O_WRONLY);

		assert_true(fd >= 0);
		assert_int_equal(pwrite(fd, garbage, 4096, 4096), 4096);
		close(fd);
	}
	assert_null(ad_store_open_readonly(f->path, &error));
	assert_error(error, AD_STORE_ERROR_CORRUPT);
	g_clear_error(&error);
	s = ad_store_open(f->path, NULL, &warning, &error);
	assert_non_null(s);
	assert_non_null(warning);
	assert_non_null(strstr(warning, "damaged"));
	assert_int_equal(ad_store_count(s), 0);
	assert_true(ad_store_integrity_check(s, &error));
}

static const char *const bad_ids[] = {
	"", "0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "0123456789abcdeg",
	"'; DROP TABLE alerts; --", "../../etc/passwd", "0123456789abcde\n", " 0123456789abcde",
	"0123456789abcdef\x1b[31m", "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
	NULL,
};

static void test_invalid_ids(void **state)
{
	Fixture *f = *state;
	g_autoptr(AdStore) s = open_store(f->path, NULL);

	for (guint i = 0; i < G_N_ELEMENTS(bad_ids); i++) {
		const char *id = bad_ids[i];
		g_autoptr(GError) error = NULL;

		assert_false(ad_alert_id_is_valid(id));
		assert_null(ad_store_get(s, id, 0, &error));
		assert_error(error, AD_STORE_ERROR_INVALID);
		g_clear_error(&error);
		assert_false(ad_store_set_filter(s, id, 0, AD_FILTER_ALWAYS, &error));
		assert_error(error, AD_STORE_ERROR_INVALID);
		g_clear_error(&error);
		assert_false(ad_store_delete(s, id, &error));
		assert_error(error, AD_STORE_ERROR_INVALID);
		g_clear_error(&error);
		assert_int_equal(ad_store_get_filter(s, id, 0), AD_FILTER_NEVER);
		assert_false(ad_store_lookup(s, id, NULL, NULL));
	}
	assert_true(ad_alert_id_is_valid("0123456789abcdef"));
	/* no alert (a granted record), or one whose id is not one */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(GPtrArray) denials = crafted_denials();
		AdDenial *d = g_ptr_array_index(denials, 0);
		AdAlert *a = ad_alert_set_add(f->set, d, NULL, NULL);
		AdAlert bad = *a;
		gboolean is_new = 7;

		assert_false(ad_store_record(s, NULL, d, &is_new, &error));
		assert_error(error, AD_STORE_ERROR_INVALID);
		g_clear_error(&error);
		bad.id = (char *)"0123456789ABCDEF";
		assert_false(ad_store_record(s, &bad, d, &is_new, &error));
		assert_error(error, AD_STORE_ERROR_INVALID);
		assert_int_equal(is_new, 7);	/* untouched on failure */
		assert_int_equal(ad_store_count(s), 0);
	}
	{
		g_autoptr(GError) error = NULL;

		assert_null(ad_store_get(s, "0123456789abcdef", 0, &error));
		assert_error(error, AD_STORE_ERROR_NOT_FOUND);
	}
	/* every id the signature function makes is valid */
	{
		g_autoptr(GPtrArray) denials = crafted_denials();

		for (guint i = 0; i < denials->len; i++) {
			g_autofree char *id = ad_denial_signature(g_ptr_array_index(denials, i));

			assert_true(ad_alert_id_is_valid(id));
		}
	}
}

/* ---------------------------------------------------------------- kill -9 */

/* distinct signatures: @n types, each with a few paths */
static GPtrArray *many_denials(guint n, guint per_type)
{
	g_autoptr(GString) log = g_string_new(NULL);
	guint serial = 1;

	for (guint i = 0; i < n; i++)
		for (guint j = 0; j < per_type; j++) {
			g_autofree char *t = g_strdup_printf("kill%u_t", i);
			g_autofree char *p = g_strdup_printf("/srv/%u/%u", i, j);

			append_avc(log, 1700000000 + serial * 0.001, serial, t, p, "w");
			serial++;
		}
	return denials_of_text(log->str, log->len);
}

/* the writer: records from @start on, commits every few, reports "ID COUNT" after each */
G_GNUC_NORETURN static void writer_child(const char *path, GPtrArray *denials, guint start,
					 int report_fd)
{
	g_autoptr(AdAlertSet) set = ad_alert_set_new();
	g_autoptr(GHashTable) batch = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GError) error = NULL;
	AdStore *s;
	guint every;

	g_random_set_seed(getpid() ^ (guint32)g_get_monotonic_time());
	every = g_random_int_range(1, 40);
	s = ad_store_open(path, NULL, NULL, &error);

	if (!s)
		_exit(3);
	for (guint i = start;; i++) {
		AdDenial *d = g_ptr_array_index(denials, i % denials->len);
		AdAlert *a = ad_alert_set_add(set, d, NULL, NULL);

		if (!ad_store_record(s, a, d, NULL, &error))
			_exit(4);
		g_hash_table_add(batch, a->id);
		if (i % every)
			continue;
		if (!ad_store_commit(s, &error))
			_exit(5);
		GHashTableIter it;
		gpointer id;

		g_hash_table_iter_init(&it, batch);
		while (g_hash_table_iter_next(&it, &id, NULL)) {
			guint64 count = 0;
			char line[64];
			int len;

			ad_store_lookup(s, id, &count, NULL);
			len = g_snprintf(line, sizeof(line), "%s %" G_GUINT64_FORMAT "\n",
					 (char *)id, count);
			if (write(report_fd, line, len) != len)
				_exit(6);
		}
		g_hash_table_remove_all(batch);
	}
}

static void test_kill9(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) denials = many_denials(300, 3);
	g_autoptr(GHashTable) committed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
								 NULL);
	guint rounds = 20, start = 0;

	for (guint round = 0; round < rounds; round++) {
		int fds[2];
		pid_t pid;
		int status;
		g_autoptr(GString) reports = g_string_new(NULL);
		char buf[4096];
		ssize_t n;

		assert_int_equal(pipe(fds), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			writer_child(f->path, denials, start, fds[1]);
		}
		close(fds[1]);
		g_usleep(g_random_int_range(1000, 25000));
		/*
		 * a loaded machine may not have let the writer commit anything
		 * in any round so far: the last round waits for one commit
		 */
		if (round + 1 == rounds && !g_hash_table_size(committed)) {
			while ((n = read(fds[0], buf, sizeof(buf))) > 0) {
				g_string_append_len(reports, buf, n);
				if (memchr(buf, '\n', n))
					break;
			}
		}
		kill(pid, SIGKILL);
		while ((n = read(fds[0], buf, sizeof(buf))) > 0)
			g_string_append_len(reports, buf, n);
		close(fds[0]);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (!WIFSIGNALED(status))
			print_error("round %u: the writer exited with %d\n", round,
				    WEXITSTATUS(status));
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

		/* every complete report line is a committed state */
		g_auto(GStrv) lines = g_strsplit(reports->str, "\n", -1);
		guint nlines = g_strv_length(lines);

		for (guint i = 0; i + 1 < nlines; i++) {
			g_auto(GStrv) parts = g_strsplit(lines[i], " ", 2);
			guint64 c = g_ascii_strtoull(parts[1], NULL, 10);

			assert_true(ad_alert_id_is_valid(parts[0]));
			if (c > GPOINTER_TO_SIZE(g_hash_table_lookup(committed, parts[0])))
				g_hash_table_insert(committed, g_strdup(parts[0]),
						    GSIZE_TO_POINTER(c));
		}
		start += 97;

		/* reopen: no damage reported, integrity ok, everything committed is there */
		g_autoptr(GError) error = NULL;
		g_autoptr(AdStore) s = open_store(f->path, NULL);
		GHashTableIter it;
		gpointer id, c;

		if (!ad_store_integrity_check(s, &error))
			print_error("round %u: %s\n", round, error->message);
		assert_null(error);
		/* one transaction: an alert's count is the sum of its hosts' */
		assert_sql(f->path, "SELECT count(*) FROM alerts a WHERE count != (SELECT "
			   "coalesce(sum(count), 0) FROM alert_hosts WHERE alert = a.num)", "0");
		g_hash_table_iter_init(&it, committed);
		while (g_hash_table_iter_next(&it, &id, &c)) {
			guint64 count = 0;

			assert_true(ad_store_lookup(s, id, &count, NULL));
			if (count < GPOINTER_TO_SIZE(c))
				print_error("round %u: %s has %" G_GUINT64_FORMAT ", %zu were "
					    "committed\n", round, (char *)id, count,
					    GPOINTER_TO_SIZE(c));
			assert_true(count >= GPOINTER_TO_SIZE(c));
		}
	}
	print_message("kill -9: %u rounds, %u alerts committed and found again\n", rounds,
		      g_hash_table_size(committed));
	assert_true(g_hash_table_size(committed) > 0);
}

/* ---------------------------------------------------------------- threads */

typedef struct {
	AdStore *s;
	GPtrArray *denials;
	gint done;
	guint reads;
} ThreadState;

static gpointer writer_thread(gpointer data)
{
	ThreadState *ts = data;
	g_autoptr(AdAlertSet) set = ad_alert_set_new();

	for (guint i = 0; i < 20000; i++) {
		AdDenial *d = g_ptr_array_index(ts->denials, i % ts->denials->len);
		AdAlert *a = ad_alert_set_add(set, d, NULL, NULL);

		if (a && !ad_store_record(ts->s, a, d, NULL, NULL))
			return GINT_TO_POINTER(1);
		if (i % 1000 == 999 && !ad_store_commit(ts->s, NULL))
			return GINT_TO_POINTER(2);
	}
	g_atomic_int_set(&ts->done, 1);
	return NULL;
}

/* the dispatcher's two sides on one store: records and commits, lists and gets */
static void test_threads(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) denials = many_denials(50, 4);
	ThreadState ts = { .s = open_store(f->path, NULL), .denials = denials };
	GThread *t = g_thread_new("writer", writer_thread, &ts);

	while (!g_atomic_int_get(&ts.done)) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GPtrArray) list = ad_store_list(ts.s, 0, TRUE, 0, NULL, &error);

		assert_non_null(list);
		for (guint i = 0; i < list->len && i < 3; i++) {
			json_object *o = get(ts.s, key_str(g_ptr_array_index(list, i), "id"), 0);

			json_object_put(o);
		}
		ts.reads++;
	}
	assert_null(g_thread_join(t));
	assert_int_equal(ad_store_count(ts.s), 50);
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(GPtrArray) list = ad_store_list(ts.s, 0, TRUE, 0, NULL, &error);
		guint64 total = 0;

		for (guint i = 0; i < list->len; i++)
			total += key_int(g_ptr_array_index(list, i), "count");
		assert_int_equal(total, 20000);
	}
	print_message("threads: %u reads while 20000 records were written\n", ts.reads);
	ad_store_close(ts.s);
}

/* ---------------------------------------------------------------- throughput */

static void test_throughput(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) denials = crafted_denials();
	g_autoptr(AdStore) s = open_store(f->path, NULL);
	g_autoptr(GPtrArray) many = NULL;
	g_autoptr(GString) log = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	const guint total = 100000;
	gint64 t0, t1, last_commit;
	guint n = 0, i = 0;
	g_autoptr(GPtrArray) alerts = g_ptr_array_new();

	/* the alerts as the dispatcher has them: filed once, then recorded */
	while (alerts->len < denials->len) {
		AdDenial *d = g_ptr_array_index(denials, alerts->len);

		g_ptr_array_add(alerts, ad_alert_set_add(f->set, d, NULL, NULL));
	}
	/* the store alone: 100k records of known alerts, a commit every 100 ms */
	t0 = last_commit = g_get_monotonic_time();
	for (n = 0; n < total; i++) {
		AdDenial *d = g_ptr_array_index(denials, i % denials->len);
		AdAlert *a = g_ptr_array_index(alerts, i % denials->len);

		if (!a)
			continue;
		assert_true(ad_store_record(s, a, d, NULL, &error));
		n++;
		if ((n & 1023) == 0 && g_get_monotonic_time() - last_commit > 100000) {
			commit(s);
			last_commit = g_get_monotonic_time();
		}
	}
	commit(s);
	t1 = g_get_monotonic_time();
	print_message("store: %u records of known alerts in %.3f s: %.0f records/s\n", total,
		      (t1 - t0) / 1e6, total / ((t1 - t0) / 1e6));

	/* the whole path: 100k same-second AVC lines read, built, filed and recorded */
	for (guint j = 0; j < total; j++) {
		g_autofree char *p = g_strdup_printf("/srv/www/f%u", j % 5000);
		g_autofree char *t = g_strdup_printf("flood%u_t", j % 50);

		append_avc(log, 1700001000.5, 100000 + j, t, p, "httpd");
	}
	t0 = g_get_monotonic_time();
	many = denials_of_text(log->str, log->len);
	t1 = g_get_monotonic_time();
	assert_int_equal(many->len, total);
	{
		g_autoptr(GPtrArray) filed = g_ptr_array_sized_new(many->len);
		gint64 t2, t3;

		for (guint j = 0; j < many->len; j++)
			g_ptr_array_add(filed, ad_alert_set_add(f->set, g_ptr_array_index(many, j),
								NULL, NULL));
		t2 = last_commit = g_get_monotonic_time();
		for (guint j = 0; j < many->len; j++) {
			assert_true(ad_store_record(s, g_ptr_array_index(filed, j),
						    g_ptr_array_index(many, j), NULL, &error));
			if ((j & 1023) == 0 && g_get_monotonic_time() - last_commit > 100000) {
				commit(s);
				last_commit = g_get_monotonic_time();
			}
		}
		commit(s);
		t3 = g_get_monotonic_time();
		print_message("100000 same-second denials, 50 alerts, 5000 paths: reader + denials "
			      "%.3f s, alert set %.3f s, store %.3f s: %.0f denials/s end to end "
			      "(no policy, no plugins)\n", (t1 - t0) / 1e6, (t2 - t1) / 1e6,
			      (t3 - t2) / 1e6, total / ((t3 - t0) / 1e6));
	}

	/* no batching: a commit after every record (what "lose only the event in flight" costs) */
	{
		gint64 t2 = g_get_monotonic_time();

		for (guint j = 0; j < 10000; j++) {
			AdAlert *a = g_ptr_array_index(alerts, j % denials->len);

			if (!a)
				continue;
			assert_true(ad_store_record(s, a, g_ptr_array_index(denials, j % denials->len),
						    NULL, &error));
			commit(s);
		}
		print_message("store: a commit per record: %.0f records/s\n",
			      10000 / ((g_get_monotonic_time() - t2) / 1e6));
	}

	/* new alerts: each one is an insert with its analysis */
	{
		g_autoptr(GPtrArray) fresh = many_denials(10000, 1);
		gint64 t2 = g_get_monotonic_time();

		for (guint j = 0; j < fresh->len; j++) {
			AdDenial *d = g_ptr_array_index(fresh, j);
			AdAlert *a = ad_alert_set_add(f->set, d, NULL, NULL);

			assert_true(ad_store_record(s, a, d, NULL, &error));
		}
		commit(s);
		print_message("store: 10000 new alerts in %.3f s\n",
			      (g_get_monotonic_time() - t2) / 1e6);
	}
	assert_true(ad_store_integrity_check(s, &error));
}

/* ---------------------------------------------------------------- helpers for cli-store.sh */

/*
 * A store from the crafted cases (three hosts) and the denials of @log_path
 * when given, analysed when a policy is given.
 */
static int fill(const char *path, const char *policy_path, const char *log_path)
{
	g_autoptr(GPtrArray) denials = crafted_denials();
	g_autoptr(AdAlertSet) set = ad_alert_set_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *warning = NULL;
	AdPolicy *policy = NULL;
	AdLabels *labels = NULL;
	AdPluginEnv ctx = { 0 };
	AdStore *s;

	if (policy_path && !(policy = ad_policy_load(policy_path, &error))) {
		fprintf(stderr, "%s\n", error->message);
		return 1;
	}
	/* file_contexts beside the policy, as the dispatcher and analyze read it */
	if (policy_path)
		labels = ad_labels_open(NULL, policy_path, NULL);
	ctx.policy = policy;
	ctx.labels = labels;
	/* the alerts go to a store, as the dispatcher's: commands name them by id */
	ctx.stored_alerts = TRUE;
	if (log_path) {
		g_autofree char *text = NULL;
		gsize len;
		g_autoptr(GPtrArray) more = NULL;

		if (!g_file_get_contents(log_path, &text, &len, &error)) {
			fprintf(stderr, "%s\n", error->message);
			return 1;
		}
		more = denials_of_text(text, len);
		g_ptr_array_extend_and_steal(denials, g_steal_pointer(&more));
	}
	if (!(s = ad_store_open(path, NULL, &warning, &error))) {
		fprintf(stderr, "%s\n", error->message);
		return 1;
	}
	for (guint i = 0; i < denials->len; i++) {
		AdDenial *d = g_ptr_array_index(denials, i);
		const AdVerdict *v = NULL;
		gboolean is_new;
		AdAlert *a;

		if (policy && d->scontext && d->tcontext && d->tclass && d->perms && d->perms->len)
			v = ad_policy_explain(policy, d->scontext, d->tcontext, d->tclass,
					      (const char *const *)d->perms->pdata, d->perms->len);
		if (!(a = ad_alert_set_add(set, d, v, &is_new)))
			continue;
		if (is_new && policy)
			ad_alert_analyse(a, &ctx);
		if (!ad_store_record(s, a, d, NULL, &error)) {
			fprintf(stderr, "%s\n", error->message);
			return 1;
		}
	}
	if (!ad_store_commit(s, &error)) {
		fprintf(stderr, "%s\n", error->message);
		return 1;
	}
	ad_store_close(s);	/* before the policy its verdicts came from */
	if (labels)
		ad_labels_free(labels);
	ad_policy_free(policy);
	return 0;
}

/* ---- a stand-in for the D-Bus service, to test the CLI's side of the contract */

static AdStore *served;

static gint64 caller_uid(GDBusMethodInvocation *inv)
{
	g_autoptr(GVariant) r = g_dbus_connection_call_sync(
		g_dbus_method_invocation_get_connection(inv), "org.freedesktop.DBus",
		"/org/freedesktop/DBus", "org.freedesktop.DBus", "GetConnectionUnixUser",
		g_variant_new("(s)", g_dbus_method_invocation_get_sender(inv)),
		G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
	guint32 uid;

	if (!r)
		return -1;
	g_variant_get(r, "(u)", &uid);
	return uid;
}

/* fails a call as the real service does: its error names (dbus-service.c) */
static void reply_error(GDBusMethodInvocation *inv, const GError *error)
{
	g_dbus_method_invocation_return_dbus_error(inv, ad_dbus_error_name(error),
						   error->message);
}

static void on_call(GDBusConnection *c, const char *sender, const char *object,
		    const char *iface, const char *method, GVariant *params,
		    GDBusMethodInvocation *inv, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	gint64 uid = caller_uid(inv);

	if (g_strcmp0(method, "ListAlerts") == 0) {
		double since;
		gboolean all;
		const char *host;
		g_autoptr(GPtrArray) list = NULL;
		GVariantBuilder b;

		g_variant_get(params, "(db&s)", &since, &all, &host);
		if (!(list = ad_store_list(served, since, all, uid, host, &error))) {
			reply_error(inv, error);
			return;
		}
		g_variant_builder_init(&b, G_VARIANT_TYPE("as"));
		for (guint i = 0; i < list->len; i++)
			g_variant_builder_add(&b, "s", json_object_to_json_string_ext(
						      g_ptr_array_index(list, i),
						      JSON_C_TO_STRING_PLAIN));
		g_dbus_method_invocation_return_value(inv, g_variant_new("(as)", &b));
	} else if (g_strcmp0(method, "GetAlert") == 0) {
		const char *id;
		json_object *o;

		g_variant_get(params, "(&s)", &id);
		if (!(o = ad_store_get(served, id, uid, &error))) {
			reply_error(inv, error);
			return;
		}
		g_dbus_method_invocation_return_value(
			inv, g_variant_new("(s)", json_object_to_json_string_ext(
						   o, JSON_C_TO_STRING_PLAIN)));
		json_object_put(o);
	} else if (g_strcmp0(method, "SetFilter") == 0) {
		const char *id, *name;
		AdFilter filter;

		g_variant_get(params, "(&s&s)", &id, &name);
		if (!ad_filter_from_name(name, &filter))
			g_set_error(&error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID, "bad filter");
		else
			ad_store_set_filter(served, id, uid, filter, &error);
		if (error)
			reply_error(inv, error);
		else
			g_dbus_method_invocation_return_value(inv, NULL);
	} else if (g_strcmp0(method, "DeleteAlert") == 0) {
		const char *id;

		g_variant_get(params, "(&s)", &id);
		if (!ad_store_delete(served, id, &error))
			reply_error(inv, error);
		else
			g_dbus_method_invocation_return_value(inv, NULL);
	}
}

static void on_name(GDBusConnection *c, const char *name, gpointer user_data)
{
	/* ready: the shell test waits for this line */
	printf("serving %s\n", name);
	fflush(stdout);
}

static void on_name_lost(GDBusConnection *c, const char *name, gpointer user_data)
{
	fprintf(stderr, "lost or could not own %s\n", name);
	exit(1);
}

static int serve(const char *path)
{
	static const GDBusInterfaceVTable vtable = { on_call, NULL, NULL, { 0 } };
	const char *src = g_getenv("AD_SOURCE_DIR");
	g_autofree char *xml_path = g_build_filename(src ? src : ".", "data",
						     "org.avcdoctor.Alerts1.xml", NULL);
	g_autofree char *xml = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusNodeInfo) node = NULL;
	g_autoptr(GDBusConnection) bus = NULL;
	g_autoptr(GMainLoop) loop = g_main_loop_new(NULL, FALSE);

	if (!g_file_get_contents(xml_path, &xml, NULL, &error) ||
	    !(node = g_dbus_node_info_new_for_xml(xml, &error)) ||
	    !(served = ad_store_open(path, NULL, NULL, &error)) ||
	    !(bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, &error)) ||
	    !g_dbus_connection_register_object(bus, "/org/avcdoctor/Daemon",
					       node->interfaces[0], &vtable, NULL, NULL, &error)) {
		fprintf(stderr, "%s\n", error->message);
		return 1;
	}
	g_bus_own_name_on_connection(bus, "org.avcdoctor.Daemon", G_BUS_NAME_OWNER_FLAGS_NONE,
				     on_name, on_name_lost, NULL, NULL);
	g_main_loop_run(loop);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_record_list, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prune_count, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prune_age, setup, teardown),
		cmocka_unit_test_setup_teardown(test_level_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrations, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decimal_comma, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsafe_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid_ids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kill9, setup, teardown),
		cmocka_unit_test_setup_teardown(test_throughput, setup, teardown),
	};

	if (argc >= 3 && strcmp(argv[1], "--fill") == 0) {
		const char *policy = NULL, *log = NULL;

		for (int i = 3; i + 1 < argc; i += 2) {
			if (strcmp(argv[i], "--policy") == 0)
				policy = argv[i + 1];
			else if (strcmp(argv[i], "--log") == 0)
				log = argv[i + 1];
		}
		return fill(argv[2], policy, log);
	}
	if (argc == 3 && strcmp(argv[1], "--serve") == 0)
		return serve(argv[2]);
	if (g_getenv("AD_TEST_FILTER"))
		cmocka_set_test_filter(g_getenv("AD_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
