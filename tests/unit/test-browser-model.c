// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The browser's model, headless: alerts parsed from JSON (hostile text
 * included), filtering, sorting, grouping by id, the view staying in step
 * with its items-changed signals, the offline file source producing
 * the same alerts as `avcdoctor analyze --json`, and the chart of a log
 * the same as that of the daemon's store fed the same log.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "alert-model.h"
#include "analysis/alert.h"
#include "file-source.h"
#include "overview-model.h"
#include "read/reader.h"
#include "store.h"

#define POLICY "/etc/selinux/default/policy/policy.33"

static const AdFileSourceOptions with_policy = { .policy = POLICY };

/* one alert object as the daemon sends it; @host NULL for the local host */
static char *alert_json(const char *id, const char *level, const char *summary,
			const char *stype, const char *ttype, const char *tclass, guint64 count,
			double last_seen, const char *host, gboolean ignored)
{
	json_object *o = json_object_new_object(), *d = json_object_new_object();
	json_object *hosts = json_object_new_array(), *sugg = json_object_new_array();
	json_object *s = json_object_new_object(), *cmds = json_object_new_array();
	json_object *argv = json_object_new_array();
	g_autofree char *sc = g_strdup_printf("system_u:system_r:%s:s0", stype);
	g_autofree char *tc = g_strdup_printf("system_u:object_r:%s:s0", ttype);
	char *text;

	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "count", json_object_new_uint64(count));
	json_object_object_add(o, "first_seen", json_object_new_double(last_seen - 10));
	json_object_object_add(o, "last_seen", json_object_new_double(last_seen));
	json_object_object_add(o, "level", json_object_new_string(level));
	if (host)
		json_object_array_add(hosts, json_object_new_string(host));
	json_object_object_add(o, "hosts", hosts);
	json_object_object_add(o, "ignored", json_object_new_boolean(ignored));
	json_object_object_add(o, "summary", json_object_new_string(summary));
	json_object_object_add(d, "scontext", json_object_new_string(sc));
	json_object_object_add(d, "tcontext", json_object_new_string(tc));
	json_object_object_add(d, "tclass", json_object_new_string(tclass));
	json_object_object_add(d, "reason", json_object_new_string("boolean"));
	json_object_object_add(d, "comm", json_object_new_string("httpd"));
	json_object_object_add(o, "denial", d);
	json_object_object_add(s, "plugin", json_object_new_string("boolean"));
	json_object_object_add(s, "kind", json_object_new_string("boolean"));
	json_object_object_add(s, "confidence", json_object_new_double(0.9));
	json_object_object_add(s, "if", json_object_new_string("If you want to allow it"));
	json_object_object_add(s, "then", json_object_new_string("Then turn it on."));
	json_object_array_add(argv, json_object_new_string("setsebool"));
	json_object_array_add(argv, json_object_new_string("-P"));
	json_object_array_add(argv, json_object_new_string("httpd_read_user_content=1"));
	json_object_array_add(cmds, argv);
	json_object_object_add(s, "commands", cmds);
	json_object_object_add(s, "shell", json_object_new_string("setsebool -P "
								   "httpd_read_user_content=1"));
	json_object_array_add(sugg, s);
	json_object_object_add(o, "suggestions", sugg);
	text = g_strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return text;
}

static AdAlertItem *item(const char *id, const char *level, const char *summary,
			 const char *stype, guint64 count, double last_seen, const char *host,
			 gboolean ignored)
{
	g_autofree char *text = alert_json(id, level, summary, stype, "etc_t", "file", count,
					   last_seen, host, ignored);
	g_autoptr(GError) error = NULL;
	AdAlertItem *a = ad_alert_item_new_from_json(text, &error);

	assert_non_null(a);
	return a;
}

/* the ids of the view, joined by spaces */
static char *view_ids(AdAlertModel *m)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < g_list_model_get_n_items(G_LIST_MODEL(m)); i++) {
		g_autoptr(AdAlertItem) a = g_list_model_get_item(G_LIST_MODEL(m), i);

		g_string_append_printf(s, "%s%s", i ? " " : "", ad_alert_item_get_id(a));
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* five alerts of different levels, hosts, counts and times */
static AdAlertModel *sample_model(void)
{
	AdAlertModel *m = ad_alert_model_new();
	AdAlertItem *items[] = {
		item("a", "yellow", "SELinux is preventing httpd from read access", "httpd_t", 3,
		     1000, "web1", FALSE),
		item("b", "red", "SELinux is preventing sshd from write access", "sshd_t", 1, 3000,
		     "web2", FALSE),
		item("c", "green", "SELinux is preventing cups from getattr access", "cupsd_t", 7,
		     2000, NULL, FALSE),
		item("d", "yellow", "SELinux is preventing postfix from unlink", "postfix_t", 2,
		     4000, "web1", TRUE),
		item("e", "red", "SELinux is preventing Bash from execute access", "unconfined_t",
		     5, 5000, "mail", FALSE),
	};

	for (guint i = 0; i < G_N_ELEMENTS(items); i++) {
		ad_alert_model_upsert(m, items[i]);
		g_object_unref(items[i]);
	}
	return m;
}

static void set_filter(AdAlertModel *m, const char *text, const char *host, guint levels,
		       double since, gboolean show_ignored)
{
	AdAlertFilter f = { .text = text, .host = host, .levels = levels, .since = since,
			    .show_ignored = show_ignored };

	ad_alert_model_set_filter(m, &f);
}

static void test_parse(void **state)
{
	g_autofree char *text = alert_json("0123456789abcdef", "red", "SELinux is preventing x",
					   "httpd_t", "shadow_t", "file", 42, 1700000000.5,
					   "web1", TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(AdAlertItem) a = ad_alert_item_new_from_json(text, &error);
	g_autoptr(GPtrArray) sugg = NULL;
	g_autofree char *why = NULL;
	AdSuggestionView *s;

	(void)state;
	assert_non_null(a);
	assert_string_equal(ad_alert_item_get_id(a), "0123456789abcdef");
	assert_int_equal(ad_alert_item_get_level(a), AD_LEVEL_RED);
	assert_string_equal(ad_alert_item_get_source(a), "httpd_t");
	assert_string_equal(ad_alert_item_get_target(a), "shadow_t");
	assert_string_equal(ad_alert_item_get_tclass(a), "file");
	assert_int_equal(ad_alert_item_get_count(a), 42);
	assert_true(ad_alert_item_get_last_seen(a) == 1700000000.5);
	assert_string_equal(ad_alert_item_get_hosts_text(a), "web1");
	assert_true(ad_alert_item_get_ignored(a));
	sugg = ad_alert_item_get_suggestions(a);
	assert_int_equal(sugg->len, 1);
	s = g_ptr_array_index(sugg, 0);
	assert_string_equal(s->kind, "boolean");
	/* exactly the analyzer's quoted text: this is what Copy puts on the clipboard */
	assert_string_equal(s->shell, "setsebool -P httpd_read_user_content=1");
	why = ad_alert_item_explain(a);
	assert_non_null(strstr(why, "boolean"));
}

/* a table of bad inputs: each is an error with a message, never a crash */
static void test_parse_bad(void **state)
{
	static const struct {
		const char *text;
		const char *error;
	} cases[] = {
		{ "", "not valid JSON" },
		{ "{", "not valid JSON" },
		{ "[1,2]", "no id" },
		{ "\"id\"", "no id" },
		{ "{\"summary\":\"x\"}", "no id" },
		{ "{\"id\":17}", "no id" },
		{ "{\"id\":\"\"}", "no id" },
		{ "{\"id\":\"a\xff\"}", "not UTF-8" },
		{ "null", "not valid JSON" },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(AdAlertItem) a = ad_alert_item_new_from_json(cases[i].text, &error);

		assert_null(a);
		assert_non_null(error);
		if (!strstr(error->message, cases[i].error))
			fail_msg("case %u: \"%s\" does not say \"%s\"", i, error->message,
				 cases[i].error);
	}
}

/* wrong types are tolerated field by field; hostile text is cleaned, markup kept literal */
static void test_parse_hostile(void **state)
{
	const char *text = "{\"id\":\"x1\",\"level\":\"purple\",\"count\":\"many\","
			   "\"hosts\":[\"\",7,\"h\\u001b[31m\"],\"ignored\":1,"
			   "\"summary\":\"<b>bold</b> \\u001b]0;title\\u0007 \\u202e evil\","
			   "\"denial\":{\"scontext\":42,\"tclass\":[\"x\"]},"
			   "\"suggestions\":[7,{\"commands\":[[\"rm\",\"-f\",\"--\","
			   "\"a b;$(id)\"]]}],\"records\":\"no\"}";
	g_autoptr(GError) error = NULL;
	g_autoptr(AdAlertItem) a = ad_alert_item_new_from_json(text, &error);
	g_autoptr(GPtrArray) sugg = NULL;
	AdSuggestionView *s;
	const char *sum;

	(void)state;
	assert_non_null(a);
	assert_int_equal(ad_alert_item_get_level(a), AD_LEVEL_YELLOW);
	assert_int_equal(ad_alert_item_get_count(a), 0);
	assert_false(ad_alert_item_get_ignored(a));
	assert_string_equal(ad_alert_item_get_source(a), "");
	assert_string_equal(ad_alert_item_get_tclass(a), "");
	sum = ad_alert_item_get_summary(a);
	assert_non_null(strstr(sum, "<b>bold</b>"));	/* text, shown as text */
	assert_null(strchr(sum, '\x1b'));
	assert_null(strchr(sum, '\x07'));
	assert_null(strstr(sum, "\u202e"));
	assert_true(g_utf8_validate(sum, -1, NULL));
	assert_null(strchr(ad_alert_item_get_hosts_text(a), '\x1b'));
	sugg = ad_alert_item_get_suggestions(a);
	assert_int_equal(sugg->len, 1);
	s = g_ptr_array_index(sugg, 0);
	/* no "shell": quoted from the argument vector, never passed on raw */
	assert_string_equal(s->shell, "rm -f -- 'a b;$(id)'");
}

/* sets a filter and checks the ids the view shows, in order */
static void expect_view(AdAlertModel *m, const char *text, const char *host, guint levels,
			double since, gboolean show_ignored, const char *want)
{
	g_autofree char *ids = NULL;

	set_filter(m, text, host, levels, since, show_ignored);
	ids = view_ids(m);
	if (strcmp(ids, want) != 0)
		fail_msg("filter \"%s\" %s %#x %g %d: \"%s\", wanted \"%s\"", text ? text : "",
			 host ? host : "-", levels, since, show_ignored, ids, want);
}

static void test_filter(void **state)
{
	const guint G = 1u << AD_LEVEL_GREEN, Y = 1u << AD_LEVEL_YELLOW, R = 1u << AD_LEVEL_RED;
	g_autoptr(AdAlertModel) m = sample_model();
	g_autofree char *ids = view_ids(m);

	(void)state;
	/* the default: newest first, the ignored one hidden */
	assert_string_equal(ids, "e b c a");
	assert_int_equal(ad_alert_model_get_total(m), 5);
	assert_int_equal(ad_alert_model_get_n_ignored(m), 1);
	expect_view(m, NULL, NULL, 0, 0, TRUE, "e d b c a");
	/* text: every word, case-insensitive, in summary, types or commands */
	expect_view(m, "PREVENTING bash", NULL, 0, 0, FALSE, "e");
	expect_view(m, "sshd_t", NULL, 0, 0, FALSE, "b");
	expect_view(m, "  httpd   read ", NULL, 0, 0, FALSE, "a");
	expect_view(m, "nothing-like-this", NULL, 0, 0, FALSE, "");
	/* host */
	expect_view(m, NULL, "web1", 0, 0, TRUE, "d a");
	/* levels: those of the set, as `list --level` parses them */
	expect_view(m, NULL, NULL, Y | R, 0, FALSE, "e b a");
	expect_view(m, NULL, NULL, R, 0, FALSE, "e b");
	expect_view(m, NULL, NULL, G | R, 0, FALSE, "e b c");
	expect_view(m, NULL, NULL, G, 0, TRUE, "c");
	expect_view(m, NULL, NULL, AD_LEVELS_ALL, 0, FALSE, "e b c a");
	{
		char *red_green[] = { "red", " green", NULL }, *all[] = { "yellow,all", NULL };
		char *bad[] = { "red,purple", NULL }, *empty[] = { NULL };
		guint levels;

		assert_true(ad_levels_parse(red_green, &levels));
		assert_int_equal(levels, G | R);
		assert_true(ad_levels_parse(all, &levels));
		assert_int_equal(levels, AD_LEVELS_ALL);
		assert_false(ad_levels_parse(bad, &levels));
		assert_true(ad_levels_parse(empty, &levels));
		assert_int_equal(levels, 0);
	}
	/* time: last seen at or after */
	expect_view(m, NULL, NULL, 0, 3000, FALSE, "e b");
	/* all together */
	expect_view(m, "preventing", "web1", Y | R, 500, TRUE, "d a");
	/* the free-standing matcher agrees with the model */
	{
		AdAlertFilter f = { .text = "POSTFIX", .host = "web1", .levels = Y | R,
				    .since = 4000, .show_ignored = TRUE };

		assert_true(ad_alert_filter_matches(&f, ad_alert_model_lookup(m, "d")));
		f.show_ignored = FALSE;
		assert_false(ad_alert_filter_matches(&f, ad_alert_model_lookup(m, "d")));
	}
}

static void test_sort(void **state)
{
	static const struct {
		AdColumn column;
		gboolean descending;
		const char *ids;
	} cases[] = {
		{ AD_COLUMN_LAST_SEEN, TRUE, "e d b c a" },
		{ AD_COLUMN_LAST_SEEN, FALSE, "a c b d e" },
		{ AD_COLUMN_COUNT, TRUE, "c e a d b" },
		{ AD_COLUMN_COUNT, FALSE, "b d a e c" },
		/* level ties: newest first */
		{ AD_COLUMN_LEVEL, TRUE, "e b d a c" },
		{ AD_COLUMN_LEVEL, FALSE, "c d a e b" },
		{ AD_COLUMN_SOURCE, FALSE, "c a d b e" },
		{ AD_COLUMN_SOURCE, TRUE, "e b d a c" },
		/* empty host (local) last whichever the order */
		{ AD_COLUMN_HOST, FALSE, "e d a b c" },
		{ AD_COLUMN_SUMMARY, FALSE, "e c a d b" },
		/* equal classes: newest first, then id */
		{ AD_COLUMN_CLASS, FALSE, "e d b c a" },
	};
	g_autoptr(AdAlertModel) m = sample_model();

	(void)state;
	set_filter(m, NULL, NULL, 0, 0, TRUE);
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *ids = NULL;
		AdColumn c;
		gboolean desc;

		ad_alert_model_set_sort(m, cases[i].column, cases[i].descending);
		ad_alert_model_get_sort(m, &c, &desc);
		assert_int_equal(c, cases[i].column);
		ids = view_ids(m);
		if (strcmp(ids, cases[i].ids) != 0)
			fail_msg("case %u: \"%s\", wanted \"%s\"", i, ids, cases[i].ids);
	}
}

static void count_signal(GObject *obj, gpointer data)
{
	(void)obj;
	(*(int *)data)++;
}

/* an alert seen again replaces the one with its id: one row per alert */
static void test_grouping(void **state)
{
	g_autoptr(AdAlertModel) m = sample_model();
	g_autoptr(AdAlertItem) again = item("a", "red", "SELinux is preventing httpd from read "
					    "access", "httpd_t", 4, 6000, "web3", FALSE);
	g_autofree char *ids = NULL;
	g_auto(GStrv) hosts = NULL;
	int hosts_changed = 0;

	(void)state;
	g_signal_connect(m, "hosts-changed", G_CALLBACK(count_signal), &hosts_changed);
	hosts = ad_alert_model_get_hosts(m);
	assert_int_equal(g_strv_length(hosts), 3);	/* mail web1 web2 */
	assert_string_equal(hosts[0], "mail");
	ad_alert_model_upsert(m, again);
	assert_int_equal(ad_alert_model_get_total(m), 5);
	assert_ptr_equal(ad_alert_model_lookup(m, "a"), again);
	assert_int_equal(ad_alert_item_get_count(ad_alert_model_lookup(m, "a")), 4);
	ids = view_ids(m);
	assert_string_equal(ids, "a e b c");	/* moved to the top: newest */
	/* web3 came; web1 stays (d) */
	assert_int_equal(hosts_changed, 1);
	g_strfreev(hosts);
	hosts = ad_alert_model_get_hosts(m);
	assert_int_equal(g_strv_length(hosts), 4);
	/* removing the only alert of web2 takes the host away */
	assert_true(ad_alert_model_remove(m, "b"));
	assert_false(ad_alert_model_remove(m, "b"));
	assert_int_equal(hosts_changed, 2);
	assert_int_equal(ad_alert_model_find(m, "b"), -1);
	assert_int_equal(ad_alert_model_find(m, "a"), 0);
	assert_int_equal(ad_alert_model_find(m, "d"), -1);	/* ignored: hidden */
	/* the same JSON loaded twice is still one alert each */
	{
		g_autofree char *t1 = alert_json("z1", "green", "s", "x_t", "y_t", "file", 1, 10,
						 NULL, FALSE);
		const char *texts[] = { t1, t1, "garbage", NULL };
		g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func(g_free);

		assert_int_equal(ad_alert_model_load_json(m, texts, errors), 1);
		assert_int_equal(errors->len, 1);
		assert_int_equal(ad_alert_model_get_total(m), 5);
	}
	ad_alert_model_clear(m);
	assert_int_equal(ad_alert_model_get_total(m), 0);
	assert_int_equal(g_list_model_get_n_items(G_LIST_MODEL(m)), 0);
	assert_int_equal(ad_alert_model_get_n_ignored(m), 0);
}

/* what the window does with items-changed: a mirror that must equal the view */
static void on_items_changed(GListModel *list, guint pos, guint removed, guint added,
			     gpointer data)
{
	GPtrArray *mirror = data;

	assert_true(pos + removed <= mirror->len);
	g_ptr_array_remove_range(mirror, pos, removed);
	for (guint i = 0; i < added; i++)
		g_ptr_array_insert(mirror, pos + i, g_list_model_get_item(list, pos + i));
}

static void test_mirror(void **state)
{
	g_autoptr(AdAlertModel) m = ad_alert_model_new();
	g_autoptr(GPtrArray) mirror = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GRand) rnd = g_rand_new_with_seed(7);
	static const char *const levels[] = { "green", "yellow", "red" };
	static const char *const hosts[] = { NULL, "web1", "web2" };

	(void)state;
	g_signal_connect(m, "items-changed", G_CALLBACK(on_items_changed), mirror);
	for (guint step = 0; step < 3000; step++) {
		int op = g_rand_int_range(rnd, 0, 10);
		g_autofree char *id = g_strdup_printf("id%02d", g_rand_int_range(rnd, 0, 30));

		if (op < 6) {
			g_autoptr(AdAlertItem) a = item(id, levels[g_rand_int_range(rnd, 0, 3)],
							"summary", "x_t",
							g_rand_int_range(rnd, 1, 5),
							g_rand_int_range(rnd, 0, 20),
							hosts[g_rand_int_range(rnd, 0, 3)],
							g_rand_int_range(rnd, 0, 4) == 0);

			ad_alert_model_upsert(m, a);
		} else if (op < 8) {
			ad_alert_model_remove(m, id);
		} else if (op < 9) {
			set_filter(m, NULL, hosts[g_rand_int_range(rnd, 0, 3)],
				   g_rand_int_range(rnd, 0, 8), g_rand_int_range(rnd, 0, 10),
				   g_rand_boolean(rnd));
		} else {
			ad_alert_model_set_sort(m, g_rand_int_range(rnd, 0, AD_N_COLUMNS),
						g_rand_boolean(rnd));
		}
		assert_int_equal(mirror->len, g_list_model_get_n_items(G_LIST_MODEL(m)));
		for (guint i = 0; i < mirror->len; i++) {
			g_autoptr(AdAlertItem) a = g_list_model_get_item(G_LIST_MODEL(m), i);

			assert_ptr_equal(a, g_ptr_array_index(mirror, i));
			/* sorted, and each shown row passes the filter */
			if (i) {
				AdColumn c;
				gboolean desc;

				ad_alert_model_get_sort(m, &c, &desc);
				assert_true(ad_alert_compare(g_ptr_array_index(mirror, i - 1), a,
							     c, desc) < 0);
			}
			assert_int_equal(ad_alert_model_find(m, ad_alert_item_get_id(a)), (int)i);
		}
	}
}

/* the offline source: the log's denials grouped into alerts, as `analyze --json` */
static void test_file_source(void **state)
{
	g_autofree char *log = g_build_filename(g_getenv("AD_SOURCE_DIR"), "tests", "data",
						"sample.log", NULL);
	const char *files[] = { log, NULL };
	g_autoptr(AdFileReport) report = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) alerts = NULL;
	g_autoptr(AdAlertModel) m = ad_alert_model_new();
	AdAlertItem *shadow;

	(void)state;
	alerts = ad_file_source_analyse(files, &with_policy, &report, &error);
	assert_non_null(alerts);
	assert_int_equal(report->denials, 14);	/* and one granted record */
	assert_int_equal(alerts->len, 13);
	g_ptr_array_add(alerts, NULL);
	assert_int_equal(ad_alert_model_load_json(m, (const char *const *)alerts->pdata, NULL), 0);
	assert_int_equal(ad_alert_model_get_total(m), 13);
	/* two reads of /etc/shadow by httpd: one alert seen twice */
	shadow = ad_alert_model_lookup(m, "853997c3dff518a1");
	assert_non_null(shadow);
	assert_int_equal(ad_alert_item_get_count(shadow), 2);
	assert_string_equal(ad_alert_item_get_source(shadow), "httpd_t");
	assert_string_equal(ad_alert_item_get_target(shadow), "shadow_t");
	/* the boolean fix of the home-content alert, quoted by the analyzer */
	{
		AdAlertItem *home = ad_alert_model_lookup(m, "eae55f992cc44cfe");
		g_autoptr(GPtrArray) sugg = NULL;

		assert_non_null(home);
		sugg = ad_alert_item_get_suggestions(home);
		assert_true(sugg->len >= 1);
		assert_string_equal(((AdSuggestionView *)g_ptr_array_index(sugg, 0))->shell,
				    "setsebool -P httpd_read_user_content=1");
	}
}

static void on_store_event(AdEvent *ev, gpointer data)
{
	ad_event_build_denials(ev, data, NULL, NULL);
}

/*
 * The alerts of @log as the daemon serves them: each denial recorded in a
 * store (in batches, as the dispatcher commits) and listed as JSON
 */
static GPtrArray *stored_alerts(const char *log, const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "alerts.db", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) denials =
		g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autoptr(AdReader) r = ad_reader_new(on_store_event, NULL, denials);
	g_autoptr(AdStore) s = NULL;
	g_autoptr(GPtrArray) list = NULL;
	AdAlertSet *set = ad_alert_set_new();
	GPtrArray *texts = g_ptr_array_new_with_free_func(g_free);
	gsize len;

	assert_true(g_file_get_contents(log, &text, &len, NULL));
	ad_reader_feed(r, text, len);
	ad_reader_end_source(r);
	s = ad_store_open(path, NULL, NULL, &error);
	assert_non_null(s);
	for (guint i = 0; i < denials->len; i++) {
		AdDenial *d = g_ptr_array_index(denials, i);
		AdAlert *a = ad_alert_set_add(set, d, NULL, NULL);

		if (a)
			assert_true(ad_store_record(s, a, d, NULL, &error));
		if (i % 7 == 6)
			assert_true(ad_store_commit(s, &error));
	}
	assert_true(ad_store_commit(s, &error));
	list = ad_store_list(s, 0, TRUE, 0, NULL, &error);
	assert_non_null(list);
	for (guint i = 0; i < list->len; i++)
		g_ptr_array_add(texts, g_strdup(json_object_to_json_string_ext(
					       g_ptr_array_index(list, i), JSON_C_TO_STRING_PLAIN)));
	g_ptr_array_add(texts, NULL);
	ad_alert_set_free(set);
	g_unlink(path);
	return texts;
}

/*
 * The daemon's chart of a log and the log's own chart agree, bar for bar:
 * the store keeps when each denial happened (in minute buckets, the
 * chart's narrowest bar), the file source the exact times
 */
static void test_chart_live_offline(void **state)
{
	static const char *const logs[] = {
		"tests/data/sample.log",
		"tests/data/corpus/selinux-audit2allow-test.log",
		"tests/data/corpus/avc-parser-multi_AVC.log",
		"tests/data/corpus/crafted/debian-refpolicy-cases.log",
	};
	g_autofree char *dir = g_dir_make_tmp("test-chart-XXXXXX", NULL);

	(void)state;
	for (guint k = 0; k < G_N_ELEMENTS(logs); k++) {
		g_autofree char *log = g_build_filename(g_getenv("AD_SOURCE_DIR"), logs[k], NULL);
		const char *files[] = { log, NULL };
		g_autoptr(AdFileReport) report = NULL;
		g_autoptr(GPtrArray) offline = ad_file_source_analyse(files, &with_policy, &report,
								     NULL);
		g_autoptr(GPtrArray) live = stored_alerts(log, dir);
		g_autoptr(AdAlertModel) m = ad_alert_model_new();
		g_autoptr(AdAlertModel) mo = ad_alert_model_new();
		g_autoptr(AdOverview) o = NULL;
		g_autoptr(AdTimeline) exact = NULL, stored = NULL, from_file = NULL;
		g_autoptr(GPtrArray) all = NULL, all_o = NULL;

		assert_non_null(offline);
		g_ptr_array_add(offline, NULL);
		assert_int_equal(ad_alert_model_load_json(m, (const char *const *)live->pdata, NULL),
				 0);
		assert_int_equal(ad_alert_model_load_json(mo, (const char *const *)offline->pdata,
							  NULL), 0);
		o = ad_alert_model_overview(mo, TRUE, NULL);
		exact = ad_timeline_new(o->first_seen, o->last_seen, 60);
		stored = ad_timeline_new(o->first_seen, o->last_seen, 60);
		from_file = ad_timeline_new(o->first_seen, o->last_seen, 60);
		assert_non_null(exact);
		for (guint i = 0; i < report->times->len; i++)
			ad_timeline_add_time(exact, g_array_index(report->times, double, i), 1);
		all = ad_alert_model_get_all(m);
		all_o = ad_alert_model_get_all(mo);
		assert_int_equal(all->len, all_o->len);
		for (guint i = 0; i < all->len; i++) {
			AdAlertItem *a = g_ptr_array_index(all, i);

			assert_non_null(ad_alert_item_get_occurrences(a));
			ad_timeline_add_occurrences(stored, ad_alert_item_get_occurrences(a),
						    ad_alert_item_get_first_seen(a),
						    ad_alert_item_get_last_seen(a),
						    ad_alert_item_get_count(a));
		}
		for (guint i = 0; i < all_o->len; i++) {
			AdAlertItem *a = g_ptr_array_index(all_o, i);

			ad_timeline_add_occurrences(from_file, ad_alert_item_get_occurrences(a),
						    ad_alert_item_get_first_seen(a),
						    ad_alert_item_get_last_seen(a),
						    ad_alert_item_get_count(a));
		}
		assert_int_equal(exact->n, stored->n);
		assert_true(exact->total > 0);
		for (guint i = 0; i < exact->n; i++) {
			if (fabs(exact->bins[i] - stored->bins[i]) > 1e-9 ||
			    fabs(exact->bins[i] - from_file->bins[i]) > 1e-9)
				print_error("%s: bar %u: log %g, store %g, file buckets %g\n",
					    logs[k], i, exact->bins[i], stored->bins[i],
					    from_file->bins[i]);
			assert_true(fabs(exact->bins[i] - stored->bins[i]) < 1e-9);
			assert_true(fabs(exact->bins[i] - from_file->bins[i]) < 1e-9);
		}
	}
	g_rmdir(dir);
}

/*
 * Alerts whose host or path holds bytes that are not UTF-8 (node=web\xff1,
 * a file name with \xff) or a terminal escape: every one is shown, the red
 * shadow_t read among them.
 */
static void test_file_source_invalid_utf8(void **state)
{
	g_autofree char *log = g_build_filename(g_getenv("AD_SOURCE_DIR"), "tests", "data",
						"hostile", "invalid-utf8-node.log", NULL);
	const char *files[] = { log, NULL };
	g_autoptr(AdFileReport) report = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) alerts = NULL;
	g_autoptr(AdAlertModel) m = ad_alert_model_new();
	gboolean shadow = FALSE;

	(void)state;
	alerts = ad_file_source_analyse(files, &with_policy, &report, &error);
	assert_non_null(alerts);
	assert_int_equal(report->denials, 2);
	assert_int_equal(alerts->len, 2);
	for (guint i = 0; i < alerts->len; i++) {
		g_autoptr(GError) item_error = NULL;
		g_autoptr(AdAlertItem) item =
			ad_alert_item_new_from_json(g_ptr_array_index(alerts, i), &item_error);

		if (item_error)
			print_error("alert %u: %s\n", i, item_error->message);
		assert_non_null(item);
		shadow = shadow || strcmp(ad_alert_item_get_target(item), "shadow_t") == 0;
	}
	assert_true(shadow);
	g_ptr_array_add(alerts, NULL);
	assert_int_equal(ad_alert_model_load_json(m, (const char *const *)alerts->pdata, NULL), 0);
	assert_int_equal(ad_alert_model_get_total(m), 2);
}

/* a site's rules.d (standing for /etc/avcdoctor/rules.d) is used offline too */
static void test_file_source_site_rules(void **state)
{
	g_autofree char *log = g_build_filename(g_getenv("AD_SOURCE_DIR"), "tests", "data",
						"corpus", "crafted", "debian-refpolicy-cases.log",
						NULL);
	g_autofree char *site = g_build_filename(g_getenv("AD_SOURCE_DIR"), "tests", "data",
						 "site-rules", NULL);
	const char *files[] = { log, NULL };
	g_autoptr(GPtrArray) plain = NULL, with_site = NULL;
	gboolean found = FALSE;

	(void)state;
	g_setenv("AVCDOCTOR_LOCAL_RULES_DIR", "/nonexistent/rules.d", TRUE);
	plain = ad_file_source_analyse(files, &with_policy, NULL, NULL);
	assert_non_null(plain);
	for (guint i = 0; i < plain->len; i++)
		assert_null(strstr(g_ptr_array_index(plain, i), "site-webapp-shadow"));
	g_setenv("AVCDOCTOR_LOCAL_RULES_DIR", site, TRUE);
	with_site = ad_file_source_analyse(files, &with_policy, NULL, NULL);
	g_unsetenv("AVCDOCTOR_LOCAL_RULES_DIR");
	assert_non_null(with_site);
	for (guint i = 0; i < with_site->len; i++)
		if (strstr(g_ptr_array_index(with_site, i),
			   "\"plugin\":\"rule:90-site.rules:site-webapp-shadow\""))
			found = TRUE;
	assert_true(found);
}

/* --file-contexts: the labels a log's files should have come from the file given */
static void test_file_source_file_contexts(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("avcdoctor-fc-XXXXXX", NULL);
	g_autofree char *log = g_build_filename(dir, "audit.log", NULL);
	g_autofree char *fc = g_build_filename(dir, "file_contexts", NULL);
	const char *files[] = { log, NULL };
	AdFileSourceOptions opt = { .policy = POLICY, .file_contexts = fc };
	g_autoptr(GPtrArray) plain = NULL, custom = NULL;
	/* the relabel first: only the given file_contexts makes it the fix */
	const char *relabel = "\"suggestions\":[{\"plugin\":\"restorecon\"";

	(void)state;
	assert_non_null(dir);
	assert_true(g_file_set_contents(log,
		"type=AVC msg=audit(1700000000.100:10): avc:  denied  { read } for  pid=7 "
		"comm=\"httpd\" name=\"index.html\" dev=\"sda1\" ino=9 "
		"scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:default_t:s0 "
		"tclass=file permissive=0\n"
		"type=PATH msg=audit(1700000000.100:10): item=0 name=\"/srv/webdata/index.html\" "
		"inode=9 nametype=NORMAL\n", -1, NULL));
	assert_true(g_file_set_contents(fc,
		"/srv/webdata(/.*)?\tsystem_u:object_r:httpd_sys_content_t:s0\n", -1, NULL));
	plain = ad_file_source_analyse(files, &with_policy, NULL, NULL);
	custom = ad_file_source_analyse(files, &opt, NULL, NULL);
	assert_non_null(plain);
	assert_non_null(custom);
	assert_int_equal(plain->len, 1);
	assert_int_equal(custom->len, 1);
	/* the policy's own file_contexts labels /srv/webdata var_t: no use to httpd */
	assert_null(strstr(g_ptr_array_index(plain, 0), relabel));
	assert_non_null(strstr(g_ptr_array_index(custom, 0), relabel));
	g_unlink(log);
	g_unlink(fc);
	g_rmdir(dir);
}

/* the Permissions column: the denied permissions, clean, and sortable */
static void test_permissions_column(void **state)
{
	static const char *const texts[] = {
		"{\"id\":\"p1\",\"count\":1,\"last_seen\":10,\"level\":\"yellow\",\"hosts\":[],"
		"\"summary\":\"x\",\"denial\":{\"scontext\":\"u:r:a_t:s0\","
		"\"tcontext\":\"u:r:b_t:s0\",\"tclass\":\"file\","
		"\"permissions\":[\"write\",\"append\"]}}",
		"{\"id\":\"p2\",\"count\":1,\"last_seen\":20,\"level\":\"yellow\",\"hosts\":[],"
		"\"summary\":\"x\",\"denial\":{\"scontext\":\"u:r:a_t:s0\","
		"\"tcontext\":\"u:r:b_t:s0\",\"tclass\":\"file\","
		"\"permissions\":[\"read\",\"\\u001b[31mopen\"]}}",
		NULL,
	};
	g_autoptr(AdAlertModel) m = ad_alert_model_new();
	g_autofree char *ids = NULL;
	AdAlertItem *p2;

	(void)state;
	assert_int_equal(ad_alert_model_load_json(m, texts, NULL), 0);
	assert_string_equal(ad_alert_item_get_perms(ad_alert_model_lookup(m, "p1")),
			    "write append");
	p2 = ad_alert_model_lookup(m, "p2");
	/* an escape sequence from a record is shown escaped, never raw */
	assert_null(strchr(ad_alert_item_get_perms(p2), '\033'));
	assert_true(g_str_has_prefix(ad_alert_item_get_perms(p2), "read \\x1b"));
	ad_alert_model_set_sort(m, AD_COLUMN_PERMISSIONS, FALSE);
	ids = view_ids(m);
	assert_string_equal(ids, "p2 p1");
}

/* occurrences of @needle in @hay, case-insensitive */
static guint occurrences(const char *hay, const char *needle)
{
	g_autofree char *h = g_utf8_casefold(hay, -1), *n = g_utf8_casefold(needle, -1);
	guint k = 0;

	for (const char *p = strstr(h, n); p; p = strstr(p + 1, n))
		k++;
	return k;
}

/* everything the detail pane says in words: the explanation and each suggestion */
static char *pane_words(AdAlertItem *a)
{
	g_autoptr(GPtrArray) sugg = ad_alert_item_get_suggestions(a);
	g_autofree char *why = ad_alert_item_explain(a);
	GString *s = g_string_new(why);

	for (guint i = 0; i < sugg->len; i++) {
		AdSuggestionView *v = g_ptr_array_index(sugg, i);

		g_string_append_printf(s, "\n%s\n%s", v->if_text ? v->if_text : "",
				       v->then_text ? v->then_text : "");
	}
	return g_string_free(s, FALSE);
}

/* the detail pane says a constraint and "the current policy allows this access" once */
static void test_explain_once(void **state)
{
	g_autofree char *log = g_build_filename(g_getenv("AD_SOURCE_DIR"), "tests", "data",
						"plugins", "constraint.log", NULL);
	const char *files[] = { log, NULL };
	static const char *const texts[] = {
		/* allowed: the reason's sentence and the verdict's detail said the same */
		"{\"id\":\"al\",\"count\":1,\"last_seen\":10,\"level\":\"green\","
		"\"summary\":\"x\",\"denial\":{\"reason\":\"allowed\",\"detail\":"
		"\"the current policy allows this access: the record comes from another "
		"policy, other boolean values, or was granted\"}}",
		/* a constraint no suggestion quotes: the explanation says it */
		"{\"id\":\"te\",\"count\":1,\"last_seen\":10,\"level\":\"yellow\","
		"\"summary\":\"x\",\"denial\":{\"reason\":\"te_rule\",\"detail\":"
		"\"no allow rule grants a_t read on b_t (class file)\",\"constraint\":"
		"\"the source user u1 differs from the target user u2\","
		"\"constraint_too\":true}}",
		NULL,
	};
	g_autoptr(AdAlertModel) m = ad_alert_model_new();
	g_autoptr(GPtrArray) alerts = NULL;
	g_autofree char *allowed = NULL, *te = NULL, *why = NULL;
	guint n = 0;

	(void)state;
	assert_int_equal(ad_alert_model_load_json(m, texts, NULL), 0);
	allowed = pane_words(ad_alert_model_lookup(m, "al"));
	assert_int_equal(occurrences(allowed, "the current policy allows this access"), 1);
	why = ad_alert_item_explain(ad_alert_model_lookup(m, "al"));
	assert_true(g_str_has_prefix(why, "The current policy allows this access: the record"));
	te = pane_words(ad_alert_model_lookup(m, "te"));
	assert_int_equal(occurrences(te, "the source user u1 differs from the target user u2"), 1);
	assert_non_null(strstr(te, "No allow rule grants a_t read on b_t"));
	/* the analyzer's constraint alert: its constraint plugin quotes the constraint */
	alerts = ad_file_source_analyse(files, &with_policy, NULL, NULL);
	assert_non_null(alerts);
	g_ptr_array_add(alerts, NULL);
	ad_alert_model_load_json(m, (const char *const *)alerts->pdata, NULL);
	for (guint i = 0; i < g_list_model_get_n_items(G_LIST_MODEL(m)); i++) {
		g_autoptr(AdAlertItem) a = g_list_model_get_item(G_LIST_MODEL(m), i);
		const AdDenialDoc *d = ad_alert_item_get_doc(a)->denial;
		const char *c = d ? d->constraint : NULL;
		g_autofree char *words = NULL;

		if (!c || !g_str_has_prefix(c, "the source role staff_r"))
			continue;
		n++;
		words = pane_words(a);
		assert_int_equal(occurrences(words, c), 1);
	}
	assert_int_equal(n, 1);
}

/*
 * The detail pane says what `why` says: a rule allowed only with a boolean
 * off is closed on purpose (not "switched off by a boolean"); an alert
 * whose denials were partly blocked says so, whatever its latest one was
 */
static void test_explain_modes(void **state)
{
	static const char *const texts[] = {
		"{\"id\":\"off\",\"count\":1,\"last_seen\":10,\"level\":\"yellow\","
		"\"summary\":\"x\",\"denial\":{\"reason\":\"boolean\",\"booleans\":"
		"[[{\"name\":\"authlogin_pam\",\"value\":false}]]}}",
		"{\"id\":\"on\",\"count\":1,\"last_seen\":10,\"level\":\"yellow\","
		"\"summary\":\"x\",\"denial\":{\"reason\":\"boolean\",\"booleans\":"
		"[[{\"name\":\"httpd_can_network_connect\",\"value\":true}]]}}",
		"{\"id\":\"mixed\",\"count\":3,\"blocked\":2,\"logged_only\":1,"
		"\"last_seen\":10,\"level\":\"yellow\",\"summary\":\"x\","
		"\"denial\":{\"reason\":\"te_rule\",\"permissive\":true}}",
		"{\"id\":\"logged\",\"count\":2,\"blocked\":0,\"logged_only\":2,"
		"\"last_seen\":10,\"level\":\"yellow\",\"summary\":\"x\","
		"\"denial\":{\"reason\":\"te_rule\",\"permissive\":true}}",
		NULL,
	};
	g_autoptr(AdAlertModel) m = ad_alert_model_new();
	g_autofree char *off = NULL, *on = NULL, *mixed = NULL, *logged = NULL;

	(void)state;
	assert_int_equal(ad_alert_model_load_json(m, texts, NULL), 0);
	off = ad_alert_item_explain(ad_alert_model_lookup(m, "off"));
	on = ad_alert_item_explain(ad_alert_model_lookup(m, "on"));
	mixed = ad_alert_item_explain(ad_alert_model_lookup(m, "mixed"));
	logged = ad_alert_item_explain(ad_alert_model_lookup(m, "logged"));
	assert_non_null(strstr(off, "only while a boolean is off"));
	assert_null(strstr(off, "switched off by a boolean"));
	assert_non_null(strstr(on, "switched off by a boolean"));
	assert_null(strstr(mixed, "Nothing was blocked"));
	assert_non_null(strstr(mixed, "2 blocked, 1 only logged"));
	assert_non_null(strstr(logged, "Nothing was blocked"));
}

/* the overview entry @name of @list, or NULL */
static const AdOverviewEntry *entry_named(GPtrArray *list, const char *name)
{
	for (guint i = 0; i < list->len; i++) {
		const AdOverviewEntry *e = g_ptr_array_index(list, i);

		if (g_str_equal(e->name, name))
			return e;
	}
	return NULL;
}

/* the overview pane's counts: the core's overview over the browser's alerts */
static void test_overview_counts(void **state)
{
	g_autoptr(AdAlertModel) m = sample_model();
	g_autoptr(AdOverview) o = ad_alert_model_overview(m, FALSE, NULL);
	g_autoptr(AdOverview) all = ad_alert_model_overview(m, TRUE, NULL);
	g_autoptr(GPtrArray) items = ad_alert_model_get_all(m);
	guint64 records = 0;
	guint n = 0;

	(void)state;
	/* d is ignored: left out unless asked for */
	assert_int_equal(o->alerts, 4);
	assert_int_equal(o->records, 3 + 1 + 7 + 5);
	assert_int_equal(all->alerts, 5);
	assert_int_equal(all->records, 3 + 1 + 7 + 5 + 2);
	/* counted against the alerts themselves */
	for (guint i = 0; i < items->len; i++) {
		AdAlertItem *a = g_ptr_array_index(items, i);

		if (ad_alert_item_get_ignored(a))
			continue;
		n++;
		records += ad_alert_item_get_count(a);
	}
	assert_int_equal(o->alerts, n);
	assert_int_equal(o->records, records);
	assert_int_equal(o->alerts_by_level[AD_LEVEL_RED], 2);
	assert_int_equal(o->records_by_level[AD_LEVEL_RED], 6);
	assert_int_equal(o->alerts_by_level[AD_LEVEL_YELLOW], 1);
	assert_int_equal(o->alerts_by_level[AD_LEVEL_GREEN], 1);
	assert_int_equal(o->records_by_level[AD_LEVEL_GREEN], 7);
	/* each sample alert's first fix is a boolean */
	assert_int_equal(o->alerts_by_fix[AD_FIX_BOOLEAN], 4);
	assert_int_equal(o->alerts_by_fix[AD_FIX_INFO + 1], 0);
	/* the domains, most records first */
	assert_int_equal(o->sources->len, 4);
	assert_string_equal(((AdOverviewEntry *)g_ptr_array_index(o->sources, 0))->name,
			    "cupsd_t");
	assert_string_equal(((AdOverviewEntry *)g_ptr_array_index(o->sources, 3))->name,
			    "sshd_t");
	/* hosts: the alert without node= is the unnamed host "" */
	assert_int_equal(entry_named(o->hosts, "")->records, 7);
	assert_int_equal(entry_named(o->hosts, "mail")->records, 5);
	assert_int_equal(entry_named(o->hosts, "web1")->alerts, 1);
	assert_null(entry_named(o->hosts, "this host"));
	assert_true(o->first_seen == 990 && o->last_seen == 5000);
}

/* the overview of a notification's batch counts its alerts only, not the store's */
static void test_overview_batch(void **state)
{
	g_autoptr(AdAlertModel) m = sample_model();
	g_autoptr(GHashTable) ids = g_hash_table_new(g_str_hash, g_str_equal);
	AdAlertBatch by_ids = { .ids = ids }, by_time = { .since = 3000 };
	AdAlertBatch both = { .ids = ids, .since = 2500 };
	g_autoptr(AdOverview) o = NULL, t = NULL, b = NULL, none = NULL;

	(void)state;
	g_hash_table_add(ids, "a");
	g_hash_table_add(ids, "c");
	g_hash_table_add(ids, "d");	/* ignored: counted only with the ignored */
	o = ad_alert_model_overview(m, FALSE, &by_ids);
	assert_int_equal(o->alerts, 2);
	assert_int_equal(o->records, 3 + 7);
	assert_int_equal(o->alerts_by_level[AD_LEVEL_RED], 0);
	assert_int_equal(o->alerts_by_level[AD_LEVEL_YELLOW], 1);
	assert_int_equal(o->sources->len, 2);
	assert_null(entry_named(o->hosts, "mail"));
	assert_true(o->first_seen == 990 && o->last_seen == 2000);
	g_clear_pointer(&o, ad_overview_free);
	o = ad_alert_model_overview(m, TRUE, &by_ids);
	assert_int_equal(o->alerts, 3);
	assert_int_equal(o->records, 3 + 7 + 2);
	/* --since: the alerts last seen since then (b, e; d is ignored) */
	t = ad_alert_model_overview(m, FALSE, &by_time);
	assert_int_equal(t->alerts, 2);
	assert_int_equal(t->records, 1 + 5);
	assert_int_equal(t->alerts_by_level[AD_LEVEL_RED], 2);
	/* both: of the ids and seen since; none of them is */
	b = ad_alert_model_overview(m, TRUE, &both);
	assert_int_equal(b->alerts, 1);	/* d, last seen at 4000 */
	g_hash_table_remove_all(ids);
	g_hash_table_add(ids, "x");
	none = ad_alert_model_overview(m, FALSE, &by_ids);
	assert_int_equal(none->alerts, 0);
	assert_int_equal(none->records, 0);
	/* the batch test the list and the overview share */
	assert_true(ad_alert_batch_contains(NULL, ad_alert_model_lookup(m, "a")));
	assert_false(ad_alert_batch_contains(&by_ids, ad_alert_model_lookup(m, "a")));
	assert_true(ad_alert_batch_contains(&by_time, ad_alert_model_lookup(m, "b")));
	assert_false(ad_alert_batch_contains(&by_time, ad_alert_model_lookup(m, "c")));
}

/* the overview of a real log agrees with the file source's own count */
static void test_overview_file(void **state)
{
	g_autofree char *log = g_build_filename(g_getenv("AD_SOURCE_DIR"), "tests", "data",
						"sample.log", NULL);
	const char *files[] = { log, NULL };
	g_autoptr(AdFileReport) report = NULL;
	g_autoptr(GPtrArray) alerts = NULL;
	g_autoptr(AdAlertModel) m = ad_alert_model_new();
	g_autoptr(AdOverview) o = NULL;
	g_autoptr(AdTimeline) t = NULL;
	guint fixes = 0;

	(void)state;
	alerts = ad_file_source_analyse(files, &with_policy, &report, NULL);
	assert_non_null(alerts);
	g_ptr_array_add(alerts, NULL);
	ad_alert_model_load_json(m, (const char *const *)alerts->pdata, NULL);
	o = ad_alert_model_overview(m, FALSE, NULL);
	/* as `avcdoctor analyze --summary`: 14 denied records (the 15th was granted) */
	assert_int_equal(o->alerts, 13);
	assert_int_equal(o->records, 14);
	assert_int_equal(report->denials, o->records);
	for (guint k = 0; k <= AD_FIX_INFO + 1; k++)
		fixes += o->alerts_by_fix[k];
	assert_int_equal(fixes, 13);
	/* a log without node= names no host: one unnamed host, never "this host" */
	assert_int_equal(o->hosts->len, 1);
	assert_string_equal(((AdOverviewEntry *)g_ptr_array_index(o->hosts, 0))->name, "");
	/* the file's record times: every denial in the chart */
	assert_int_equal(report->times->len, o->records);
	t = ad_timeline_new(o->first_seen, o->last_seen, 60);
	assert_non_null(t);
	for (guint i = 0; i < report->times->len; i++)
		ad_timeline_add_time(t, g_array_index(report->times, double, i), 1);
	assert_true(t->total == o->records);
}

/* the list grouped by source domain: groups in the view's order, with counts */
static void test_groups(void **state)
{
	g_autoptr(AdAlertModel) m = sample_model();
	g_autoptr(GPtrArray) groups = NULL;
	AdAlertItem *more[] = {
		item("f", "red", "SELinux is preventing httpd from write", "httpd_t", 2, 2500,
		     NULL, FALSE),
		item("g", "green", "SELinux is preventing httpd from open", "httpd_t", 4, 500,
		     NULL, FALSE),
	};
	AdAlertGroup *g;
	guint n = 0;

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(more); i++) {
		ad_alert_model_upsert(m, more[i]);
		g_object_unref(more[i]);
	}
	/* newest first: e b f c a g */
	groups = ad_alert_groups_new(G_LIST_MODEL(m));
	assert_int_equal(groups->len, 4);
	g = g_ptr_array_index(groups, 2);
	assert_string_equal(g->source, "httpd_t");
	assert_int_equal(g->items->len, 3);
	assert_string_equal(ad_alert_item_get_id(g_ptr_array_index(g->items, 0)), "f");
	assert_string_equal(ad_alert_item_get_id(g_ptr_array_index(g->items, 2)), "g");
	assert_int_equal(g->records, 2 + 3 + 4);
	assert_int_equal(g->level, AD_LEVEL_RED);
	/* the group row's Last seen: its newest alert's */
	assert_true(g->last_seen == 2500);
	for (guint i = 0; i < groups->len; i++)
		n += ((AdAlertGroup *)g_ptr_array_index(groups, i))->items->len;
	assert_int_equal(n, g_list_model_get_n_items(G_LIST_MODEL(m)));
	/* the sort orders the groups: most records first puts cupsd_t (7) first */
	g_ptr_array_unref(groups);
	ad_alert_model_set_sort(m, AD_COLUMN_COUNT, TRUE);
	groups = ad_alert_groups_new(G_LIST_MODEL(m));
	assert_string_equal(((AdAlertGroup *)g_ptr_array_index(groups, 0))->source, "cupsd_t");
	g = g_ptr_array_index(groups, 2);
	assert_string_equal(g->source, "httpd_t");
	assert_string_equal(ad_alert_item_get_id(g_ptr_array_index(g->items, 0)), "g");
	/* the filter applies first: red only leaves f in httpd_t's group */
	g_ptr_array_unref(groups);
	set_filter(m, NULL, NULL, 1u << AD_LEVEL_RED, 0, FALSE);
	groups = ad_alert_groups_new(G_LIST_MODEL(m));
	assert_int_equal(groups->len, 3);
	for (guint i = 0; i < groups->len; i++) {
		g = g_ptr_array_index(groups, i);
		if (g_str_equal(g->source, "httpd_t"))
			assert_int_equal(g->items->len, 1);
	}
}

/* the chart's bins, an alert spread between its first and last time, and a bar's filter */
static void test_timeline(void **state)
{
	g_autoptr(AdTimeline) t = ad_timeline_new(1000, 5000, 60);
	g_autoptr(AdAlertModel) m = sample_model();
	g_autofree char *ids = NULL;
	double since, until, sum = 0;
	int bin;

	(void)state;
	assert_non_null(t);
	assert_null(ad_timeline_new(0, 5000, 60));
	/* 4000 s in at most 60 bins: five minutes each */
	assert_true(t->step == 300);
	assert_true(t->start <= 1000 && t->start + t->n * t->step > 5000);
	assert_true(t->n <= 60);
	assert_int_equal(ad_timeline_bin_at(t, t->start - 1), -1);
	/* six records from 1000 to 2200: one at each end, four spread */
	ad_timeline_add_alert(t, 1000, 2200, 6);
	for (guint i = 0; i < t->n; i++)
		sum += t->bins[i];
	assert_true(fabs(sum - 6) < 1e-9 && fabs(t->total - 6) < 1e-9);
	bin = ad_timeline_bin_at(t, 1600);
	assert_true(fabs(t->bins[bin] - 1) < 1e-9);	/* a full bin inside: 4 * 300 / 1200 */
	assert_true(t->bins[ad_timeline_bin_at(t, 4000)] == 0);
	/* one record, or a first time equal to the last: all in one bin */
	ad_timeline_add_alert(t, 4000, 4000, 3);
	assert_true(t->bins[ad_timeline_bin_at(t, 4000)] == 3 && t->max == 3);
	/* a bar's span as the list's filter: alerts seen in it between first and last */
	ad_timeline_bin_span(t, (guint)ad_timeline_bin_at(t, 2995), &since, &until);
	assert_true(since <= 2995 && until > 2995 && until - since == 300);
	{
		AdAlertFilter f = { .since = 2995, .until = 2996 };

		ad_alert_model_set_filter(m, &f);
		ids = view_ids(m);
		assert_string_equal(ids, "b");	/* seen from 2990 to 3000 */
		f.since = 3001;
		f.until = 3990;
		ad_alert_model_set_filter(m, &f);
		g_free(ids);
		ids = view_ids(m);
		assert_string_equal(ids, "");
	}
}

static void test_file_source_errors(void **state)
{
	const char *missing[] = { "/nonexistent/audit.log", NULL };
	g_autofree char *log = g_build_filename(g_getenv("AD_SOURCE_DIR"), "tests", "data",
						"sample.log", NULL);
	const char *ok[] = { log, NULL };
	const char *some[] = { "/nonexistent/audit.log", log, NULL };
	g_autoptr(AdFileReport) report = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) alerts = NULL;

	(void)state;
	alerts = ad_file_source_analyse(missing, &with_policy, &report, &error);
	assert_null(alerts);
	assert_non_null(error);
	assert_non_null(strstr(error->message, "/nonexistent/audit.log"));
	g_clear_error(&error);
	alerts = ad_file_source_analyse(ok, &(AdFileSourceOptions){ .policy = "/nonexistent/policy.33" },
					&report, &error);
	assert_null(alerts);
	assert_non_null(error);
	g_clear_error(&error);
	/* one file missing, the other read: alerts, and the problem reported */
	alerts = ad_file_source_analyse(some, &with_policy, &report, &error);
	assert_non_null(alerts);
	assert_int_equal(alerts->len, 13);
	assert_int_equal(report->problems, 1);
	assert_non_null(strstr(g_ptr_array_index(report->messages, 0), "/nonexistent"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_hostile),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_grouping),
		cmocka_unit_test(test_mirror),
		cmocka_unit_test(test_chart_live_offline),
		cmocka_unit_test(test_file_source),
		cmocka_unit_test(test_file_source_invalid_utf8),
		cmocka_unit_test(test_file_source_site_rules),
		cmocka_unit_test(test_file_source_file_contexts),
		cmocka_unit_test(test_permissions_column),
		cmocka_unit_test(test_file_source_errors),
		cmocka_unit_test(test_explain_once),
		cmocka_unit_test(test_explain_modes),
		cmocka_unit_test(test_overview_counts),
		cmocka_unit_test(test_overview_batch),
		cmocka_unit_test(test_overview_file),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_timeline),
	};
	g_autofree char *rules = g_build_filename(g_getenv("AD_SOURCE_DIR") ?
						  g_getenv("AD_SOURCE_DIR") : ".", "rules", NULL);

	g_setenv("AVCDOCTOR_RULES_DIR", rules, TRUE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
