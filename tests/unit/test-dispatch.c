// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the dispatcher (pipeline.c, dbus-service.c): the
 * configuration, the bounded queue and its shedding, the pipeline (same
 * alerts as `analyze`, own denials, coalesced updates, bounded memory,
 * policy reloads, the store across restarts), and the D-Bus service on a
 * private session bus (argument checks, error names, signals, the
 * introspection data being the XML of the repository).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

#include "clock.h"
#include "dbus-service.h"
#include "log.h"
#include "pipeline.h"
#include "queue.h"
#include "self.h"
#include "mail.h"
#include "read/reader.h"

#define REAL_POLICY "/etc/selinux/default/policy/policy.33"

/* ---------------------------------------------------------------- helpers */


/* a monotonic clock the tests move by hand instead of sleeping */
static gint64 fake_mono_us;

static gint64 fake_monotonic(gpointer data)
{
	(void)data;
	return fake_mono_us;
}

/* runs the dispatcher on the fake clock from now on, starting at the real time */
static void use_fake_clock(void)
{
	static const AdClock fake = { .monotonic_us = fake_monotonic };

	fake_mono_us = g_get_monotonic_time();
	ad_clock_set(&fake);
}

static char *tmpdir;

static const char *corpus_file(const char *name)
{
	static char path[4096];
	const char *dir = g_getenv("AD_CORPUS");

	g_snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/data/corpus", name);
	return path;
}

static char *read_corpus(const char *name, gsize *len)
{
	char *text = NULL;

	assert_true(g_file_get_contents(corpus_file(name), &text, len, NULL));
	return text;
}

/* a configuration for tests: no store, no bus, the real policy, an empty rules dir */
static void test_config(AdDispatchConfig *c)
{
	g_autofree char *rules = g_build_filename(tmpdir, "rules", NULL);

	g_mkdir_with_parents(rules, 0700);
	ad_dispatch_config_init(c);
	g_clear_pointer(&c->db_path, g_free);
	c->bus = AD_BUS_NONE;
	c->policy = g_strdup(REAL_POLICY);
	c->rules_dir = g_strdup(rules);
	c->log = AD_LOG_STDERR;
	/* the corpus is from 2023: an age cap would prune it at once */
	c->max_age_days = 0;
}

typedef struct {
	GPtrArray *added;	/* char* id */
	GPtrArray *updated;	/* char* "id count" */
	guint64 shed;
} Sink;

static void sink_added(const char *id, const char *level, const char *summary, gpointer ud)
{
	Sink *s = ud;

	assert_true(g_utf8_validate(summary, -1, NULL));
	assert_true(g_str_has_prefix(summary, "SELinux is preventing"));
	g_ptr_array_add(s->added, g_strdup(id));
}

static void sink_updated(const char *id, const char *level, const char *summary,
			 guint64 count, gpointer ud)
{
	Sink *s = ud;

	g_ptr_array_add(s->updated, g_strdup_printf("%s %" G_GUINT64_FORMAT, id, count));
}

static void sink_shed(guint64 shed, gpointer ud)
{
	((Sink *)ud)->shed = shed;
}

static Sink *sink_new(AdDispatch *d)
{
	Sink *s = g_new0(Sink, 1);
	AdDispatchSink ds = { sink_added, sink_updated, sink_shed, s };

	s->added = g_ptr_array_new_with_free_func(g_free);
	s->updated = g_ptr_array_new_with_free_func(g_free);
	ad_dispatch_set_sink(d, &ds);
	return s;
}

static void sink_free(Sink *s)
{
	g_ptr_array_unref(s->added);
	g_ptr_array_unref(s->updated);
	g_free(s);
}

static AdDispatch *dispatch_new(AdDispatchConfig *c, FILE *out)
{
	g_autoptr(GError) error = NULL;
	AdDispatch *d = ad_dispatch_new(c, out, &error);

	if (!d)
		print_error("ad_dispatch_new: %s\n", error->message);
	assert_non_null(d);
	return d;
}

/* @n single-record AVC events of one second, same signature, distinct serials */
static GString *flood(guint n, guint first_serial, const char *node, const char *stype)
{
	GString *s = g_string_new(NULL);
	g_autofree char *prefix = node ? g_strdup_printf("node=%s ", node) : g_strdup("");

	for (guint i = 0; i < n; i++)
		g_string_append_printf(s, "%stype=AVC msg=audit(1700000100.123:%u): avc:  "
				       "denied  { read } for  pid=%u comm=\"httpd\" name=\"f%u\" "
				       "dev=\"sda1\" ino=%u scontext=system_u:system_r:%s:s0 "
				       "tcontext=system_u:object_r:shadow_t:s0 tclass=file "
				       "permissive=0\n", prefix, first_serial + i, 40000 + i % 100,
				       i, i, stype);
	return s;
}

/* the number of items of the first value of a reply */
static gsize reply_len(GVariant *r)
{
	g_autoptr(GVariant) v = g_variant_get_child_value(r, 0);

	return g_variant_n_children(v);
}

/* runs the default main context for @ms milliseconds */
static void spin(guint ms)
{
	gint64 until = g_get_monotonic_time() + ms * 1000;

	while (g_get_monotonic_time() < until)
		g_main_context_iteration(NULL, FALSE), g_usleep(1000);
}

static void json_put(gpointer o)
{
	json_object_put(o);
}

/* ---------------------------------------------------------------- configuration */

static void write_file(const char *path, const char *text)
{
	assert_true(g_file_set_contents(path, text, -1, NULL));
	chmod(path, 0644);
}

static void test_config_file(void **state)
{
	g_autofree char *path = g_build_filename(tmpdir, "full.conf", NULL);
	g_autoptr(GError) error = NULL;
	AdDispatchConfig c;

	write_file(path, "# comment\n[store]\npath=/tmp/x/alerts.db\nmax_alerts=5\n"
			 "max_age_days=0\ncommit_interval_ms=50\n[bus]\ntype=session\n"
			 "admin_group=wheel\nupdate_interval_ms=0\n[analysis]\npolicy=/p\n"
			 "file_contexts=\nrules_dir=/r\nfile_checks=false\nevent_timeout_ms=7\n"
			 "[limits]\nqueue_bytes=2M\nmemory_alerts=16\n[log]\ntarget=both\n");
	ad_dispatch_config_init(&c);
	assert_string_equal(c.db_path, AD_STORE_DEFAULT_PATH);
	assert_int_equal(c.bus, AD_BUS_SYSTEM);
	assert_true(c.file_checks);
	assert_true(ad_dispatch_config_load(&c, path, FALSE, &error));
	assert_string_equal(c.db_path, "/tmp/x/alerts.db");
	assert_int_equal(c.max_alerts, 5);
	assert_int_equal(c.max_age_days, 0);
	assert_int_equal(c.commit_interval_ms, 50);
	assert_int_equal(c.bus, AD_BUS_SESSION);
	assert_string_equal(c.admin_group, "wheel");
	assert_int_equal(c.update_interval_ms, 0);
	assert_string_equal(c.policy, "/p");
	assert_null(c.file_contexts);
	assert_string_equal(c.rules_dir, "/r");
	assert_false(c.file_checks);
	assert_int_equal(c.event_timeout_ms, 7);
	assert_int_equal(c.queue_bytes, 2u << 20);
	assert_int_equal(c.memory_alerts, 16);
	assert_int_equal(c.log, AD_LOG_BOTH);
	ad_dispatch_config_clear(&c);

	/* "none": no store; the shipped example file is the defaults */
	write_file(path, "[store]\npath=none\n");
	ad_dispatch_config_init(&c);
	assert_true(ad_dispatch_config_load(&c, path, FALSE, &error));
	assert_null(c.db_path);
	ad_dispatch_config_clear(&c);
	{
		g_autofree char *shipped = g_build_filename(g_getenv("AD_SOURCE_DIR"), "dispatcher",
							    "avcdoctor.conf", NULL);
		AdDispatchConfig def, got;

		ad_dispatch_config_init(&def);
		ad_dispatch_config_init(&got);
		assert_true(ad_dispatch_config_load(&got, shipped, FALSE, &error));
		assert_string_equal(got.db_path, def.db_path);
		assert_int_equal(got.max_alerts, def.max_alerts);
		assert_int_equal(got.max_age_days, def.max_age_days);
		assert_int_equal(got.commit_interval_ms, def.commit_interval_ms);
		assert_int_equal(got.bus, def.bus);
		assert_string_equal(got.admin_group, def.admin_group);
		assert_int_equal(got.update_interval_ms, def.update_interval_ms);
		assert_null(got.policy);
		assert_int_equal(got.file_checks, def.file_checks);
		assert_int_equal(got.event_timeout_ms, def.event_timeout_ms);
		assert_int_equal(got.queue_bytes, def.queue_bytes);
		assert_int_equal(got.memory_alerts, def.memory_alerts);
		assert_int_equal(got.log, def.log);
		ad_dispatch_config_clear(&def);
		ad_dispatch_config_clear(&got);
	}
}

static void test_config_errors(void **state)
{
	static const struct {
		const char *text, *error;
	} cases[] = {
		{ "[store]\npaht=/x\n", "[store] paht: unknown key" },
		{ "[stor]\npath=/x\n", "[stor] path: unknown key" },
		{ "[store]\npath=relative.db\n", "an absolute path or \"none\"" },
		{ "[store]\nmax_alerts=-1\n", "[store] max_alerts: not a valid value" },
		{ "[store]\nmax_alerts=12x\n", "[store] max_alerts: not a valid value" },
		{ "[store]\ncommit_interval_ms=5000\n", "out of range 10..1000" },
		{ "[bus]\ntype=tcp\n", "[bus] type: system, session or none" },
		{ "[bus]\nadmin_group=a:b\n", "[bus] admin_group: not a group name" },
		{ "[analysis]\nfile_checks=maybe\n", "[analysis] file_checks: not a valid value" },
		{ "[limits]\nqueue_bytes=1K\n", "out of range" },
		{ "[log]\ntarget=journal\n", "syslog, stderr or both" },
		{ "not a key file\n", "bad.conf" },
	};
	g_autofree char *path = g_build_filename(tmpdir, "bad.conf", NULL);

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		AdDispatchConfig c;

		write_file(path, cases[i].text);
		ad_dispatch_config_init(&c);
		assert_false(ad_dispatch_config_load(&c, path, FALSE, &error));
		assert_non_null(error);
		if (!strstr(error->message, cases[i].error) || !strstr(error->message, path))
			print_error("case %u: [%s] lacks [%s]\n", i, error->message,
				    cases[i].error);
		assert_non_null(strstr(error->message, cases[i].error));
		assert_non_null(strstr(error->message, path));
		/* nothing of a bad file is taken */
		assert_string_equal(c.db_path, AD_STORE_DEFAULT_PATH);
		ad_dispatch_config_clear(&c);
	}
}

static void test_config_unsafe(void **state)
{
	g_autofree char *path = g_build_filename(tmpdir, "unsafe.conf", NULL);
	g_autofree char *link = g_build_filename(tmpdir, "link.conf", NULL);
	g_autoptr(GError) error = NULL;
	AdDispatchConfig c;

	ad_dispatch_config_init(&c);
	write_file(path, "[store]\nmax_alerts=7\n");
	chmod(path, 0666);
	/* world-writable: refused when running as root, accepted otherwise */
	assert_false(ad_dispatch_config_load(&c, path, TRUE, &error));
	assert_int_equal(error->code, AD_DISPATCH_ERROR_UNSAFE);
	g_clear_error(&error);
	assert_true(ad_dispatch_config_load(&c, path, FALSE, &error));
	chmod(path, 0644);
	if (geteuid() == 0) {
		assert_true(ad_dispatch_config_load(&c, path, TRUE, &error));
		/* owned by someone else */
		assert_int_equal(chown(path, 65534, 65534), 0);
		assert_false(ad_dispatch_config_load(&c, path, TRUE, &error));
		assert_non_null(strstr(error->message, "owned by uid 65534"));
		g_clear_error(&error);
		assert_int_equal(chown(path, 0, 0), 0);
	} else {
		assert_false(ad_dispatch_config_load(&c, path, TRUE, &error));
		assert_non_null(strstr(error->message, "not root"));
		g_clear_error(&error);
	}
	/* never through a symbolic link */
	unlink(link);
	assert_int_equal(symlink(path, link), 0);
	assert_false(ad_dispatch_config_load(&c, link, FALSE, &error));
	assert_non_null(strstr(error->message, "symbolic link"));
	ad_dispatch_config_clear(&c);
}

/* ---------------------------------------------------------------- the queue */

static void test_count_denials(void **state)
{
	static const struct {
		const char *text;
		guint n;
	} cases[] = {
		{ "", 0 },
		{ "type=AVC msg=audit(1.2:3): avc: denied\n", 1 },
		{ "node=web1 type=AVC msg=audit(1.2:3): x\ntype=SYSCALL msg=audit(1.2:3): x\n", 1 },
		{ "type=USER_AVC msg=x\ntype=SELINUX_ERR msg=x\ntype=USER_SELINUX_ERR msg=x", 3 },
		{ "type=AVC_PATH msg=x\ntype=AVCX msg=x\n type=AVC msg=x\nnode=a\n", 0 },
		{ "type=1400 msg=audit(1.2:3): x\n", 1 },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++)
		assert_int_equal(ad_count_denial_lines(cases[i].text, strlen(cases[i].text)),
				 cases[i].n);
}

static GBytes *chunk(const char *s)
{
	return g_bytes_new(s, strlen(s));
}

static void test_queue_shed(void **state)
{
	AdDispatchQueue *q = ad_dispatch_queue_new(100);
	const char *avc = "type=AVC msg=audit(1.2:3): avc: denied { read } for pid=1 x=yyyy\n";
	gboolean shed;
	AdQueueStats st;
	GBytes *b;

	assert_int_equal(strlen(avc), 65);
	/* an empty queue takes anything, even beyond the limit */
	assert_true(ad_dispatch_queue_push(q, chunk(avc), FALSE, &shed));
	assert_false(shed);
	assert_false(ad_dispatch_queue_push(q, chunk(avc), FALSE, &shed));
	assert_true(shed);
	ad_dispatch_queue_stats(q, &st);
	assert_int_equal(st.shed_denials, 1);
	assert_int_equal(st.shed_lines, 1);
	assert_int_equal(st.shed_bytes, 65);
	assert_int_equal(ad_dispatch_queue_bytes(q), 65);
	b = ad_dispatch_queue_pop(q);
	assert_non_null(b);
	g_bytes_unref(b);
	assert_null(ad_dispatch_queue_pop(q));
	assert_false(ad_dispatch_queue_closed_and_empty(q));
	assert_true(ad_dispatch_queue_push(q, chunk("type=SYSCALL msg=x\n"), FALSE, &shed));
	assert_false(ad_dispatch_queue_push(q, chunk("type=SYSCALL msg=y\n"), FALSE, &shed));
	assert_false(shed);
	ad_dispatch_queue_close(q);
	assert_false(ad_dispatch_queue_closed_and_empty(q));
	g_bytes_unref(ad_dispatch_queue_pop(q));
	g_bytes_unref(ad_dispatch_queue_pop(q));
	assert_true(ad_dispatch_queue_closed_and_empty(q));
	ad_dispatch_queue_stats(q, &st);
	assert_int_equal(st.shed_denials, 1);
	assert_int_equal(st.peak_bytes, 65);
	ad_dispatch_queue_free(q);
}

static gpointer push_waiting(gpointer q)
{
	for (guint i = 0; i < 50; i++)
		ad_dispatch_queue_push(q, chunk("type=AVC msg=audit(1.2:3): avc: denied xxxxxx\n"),
				       TRUE, NULL);
	ad_dispatch_queue_close(q);
	return NULL;
}

/* a regular file as input waits for room instead of dropping */
static void test_queue_wait(void **state)
{
	AdDispatchQueue *q = ad_dispatch_queue_new(100);
	GThread *t = g_thread_new("push", push_waiting, q);
	AdQueueStats st;
	guint got = 0;

	while (!ad_dispatch_queue_closed_and_empty(q)) {
		GBytes *b = ad_dispatch_queue_pop(q);

		if (b) {
			got++;
			g_bytes_unref(b);
		} else {
			g_usleep(100);
		}
	}
	g_thread_join(t);
	assert_int_equal(got, 50);
	ad_dispatch_queue_stats(q, &st);
	assert_int_equal(st.shed_lines, 0);
	assert_true(st.peak_bytes <= 100);
	ad_dispatch_queue_free(q);
}

/* ---------------------------------------------------------------- the pipeline */

/* the crafted cases: the alerts of `avcdoctor analyze`, JSON Lines with its keys */
static void test_pipeline_crafted(void **state)
{
	AdDispatchConfig c;
	g_autofree char *text = NULL;
	g_autofree char *json = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GHashTable) last = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							   json_put);
	size_t json_len = 0;
	FILE *out = open_memstream(&json, &json_len);
	AdDispatchStats st;
	AdDispatch *d;
	Sink *s;
	gsize len;
	guint64 total = 0;

	test_config(&c);
	d = dispatch_new(&c, out);
	s = sink_new(d);
	text = read_corpus("crafted/debian-refpolicy-cases.log", &len);
	/* fed in odd pieces: lines split anywhere */
	for (gsize off = 0; off < len; off += 777)
		ad_dispatch_feed(d, text + off, MIN(777, len - off));
	ad_dispatch_finish(d);
	ad_dispatch_stats(d, &st);
	assert_int_equal(st.denials, 15);
	assert_int_equal(st.granted, 1);
	assert_int_equal(st.own, 0);
	assert_int_equal(st.alerts_new, 13);
	assert_int_equal(s->added->len, 13);
	/* the one repeated alert: its update at the end, with the final count */
	assert_int_equal(s->updated->len, 1);
	assert_non_null(strstr(g_ptr_array_index(s->updated, 0), " 2"));
	fclose(out);
	lines = g_strsplit(json, "\n", -1);
	for (char **l = lines; *l && **l; l++) {
		json_object *o = json_tokener_parse(*l);
		json_object *v;

		assert_non_null(o);
		for (const char *const *k = (const char *const[]){ "id", "count", "first_seen",
								   "last_seen", "level", "hosts",
								   "ignored", "summary", "denial",
								   "records", "suggestions",
								   "notes", NULL };
		     *k; k++)
			assert_true(json_object_object_get_ex(o, *k, &v));
		json_object_object_get_ex(o, "id", &v);
		g_hash_table_insert(last, g_strdup(json_object_get_string(v)), o);
	}
	assert_int_equal(g_hash_table_size(last), 13);
	GHashTableIter it;
	gpointer val;

	g_hash_table_iter_init(&it, last);
	while (g_hash_table_iter_next(&it, NULL, &val)) {
		json_object *v;

		json_object_object_get_ex(val, "count", &v);
		total += json_object_get_uint64(v);
	}
	assert_int_equal(total, 14);
	{
		g_autofree char *sum = ad_dispatch_summary(d);

		assert_non_null(strstr(sum, "15 denial records in 13 alerts"));
		assert_non_null(strstr(sum, "0 denials not analysed"));
	}
	ad_dispatch_free(d);
	sink_free(s);
	ad_dispatch_config_clear(&c);
}

/* an exec's three inheritance checks: one alert, one occurrence, twice two execs */
static void test_exec_checks(void **state)
{
	static const char *const perms[] = { "siginh", "rlimitinh", "noatsecure" };
	g_autoptr(GString) text = g_string_new(NULL);
	g_autofree char *json = NULL;
	size_t json_len = 0;
	FILE *out = open_memstream(&json, &json_len);
	g_auto(GStrv) lines = NULL;
	json_object *o = NULL, *v;
	AdDispatchConfig c;
	AdDispatchStats st;
	AdDispatch *d;
	Sink *s;

	for (guint exec = 0; exec < 2; exec++)
		for (guint i = 0; i < G_N_ELEMENTS(perms); i++)
			g_string_append_printf(text, "type=AVC msg=audit(1700000300.%03u:%u): avc:  "
					       "denied  { %s } for  pid=7 comm=\"su\" "
					       "scontext=staff_u:sysadm_r:sysadm_t:s0 "
					       "tcontext=staff_u:sysadm_r:sysadm_su_t:s0 "
					       "tclass=process permissive=0\n",
					       100 * exec, 400 + exec, perms[i]);
	test_config(&c);
	d = dispatch_new(&c, out);
	s = sink_new(d);
	ad_dispatch_feed(d, text->str, text->len);
	ad_dispatch_finish(d);
	ad_dispatch_stats(d, &st);
	assert_int_equal(st.denials, 6);
	assert_int_equal(st.alerts_new, 1);
	assert_int_equal(s->added->len, 1);
	fclose(out);
	lines = g_strsplit(json, "\n", -1);
	for (char **l = lines; *l && **l; l++) {
		if (o)
			json_object_put(o);
		o = json_tokener_parse(*l);
	}
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "count", &v));
	assert_int_equal(json_object_get_uint64(v), 2);
	assert_true(json_object_object_get_ex(o, "summary", &v));
	assert_non_null(strstr(json_object_get_string(v), "SELinux is preventing sysadm_t from "
							 "passing noatsecure, rlimitinh and siginh"));
	json_object_put(o);
	ad_dispatch_free(d);
	sink_free(s);
	ad_dispatch_config_clear(&c);
}

/* 1000 identical denials: one AlertAdded, then at most one AlertUpdated per interval */
static void test_coalesced_updates(void **state)
{
	AdDispatchConfig c;
	g_autoptr(GString) text = flood(1000, 1, NULL, "httpd_t");
	g_autoptr(GString) more = flood(1, 5000, NULL, "httpd_t");
	AdDispatch *d;
	Sink *s;

	test_config(&c);
	c.update_interval_ms = 1000;
	use_fake_clock();
	d = dispatch_new(&c, NULL);
	s = sink_new(d);
	ad_dispatch_feed(d, text->str, text->len);
	ad_dispatch_tick(d);
	assert_int_equal(s->added->len, 1);
	assert_int_equal(s->updated->len, 0);
	fake_mono_us += 1100000;
	ad_dispatch_tick(d);
	assert_int_equal(s->updated->len, 1);
	assert_true(g_str_has_suffix(g_ptr_array_index(s->updated, 0), " 1000"));
	/* seen again right after an update: held back until the interval is over */
	ad_dispatch_feed(d, more->str, more->len);
	ad_dispatch_tick(d);
	assert_int_equal(s->updated->len, 1);
	fake_mono_us += 1100000;
	ad_dispatch_tick(d);
	assert_int_equal(s->updated->len, 2);
	assert_true(g_str_has_suffix(g_ptr_array_index(s->updated, 1), " 1001"));
	ad_dispatch_tick(d);
	assert_int_equal(s->updated->len, 2);
	ad_dispatch_free(d);
	sink_free(s);
	ad_dispatch_config_clear(&c);
	ad_clock_set(NULL);
}

/* the denials of one text, built as the dispatcher builds them */
static void collect_denials(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, NULL, NULL);
}

static GPtrArray *denials_of(const char *text)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autoptr(AdReader) r = ad_reader_new(collect_denials, NULL, out);

	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	return out;
}

static void test_own_denials(void **state)
{
	AdSelf self;
	g_autofree char *mine = NULL, *other = NULL, *exe_mine = NULL, *remote = NULL;
	g_autofree char *dbus = NULL, *planted = NULL;
	g_autoptr(GPtrArray) d1 = NULL, d2 = NULL, d3 = NULL, d4 = NULL, d5 = NULL, d6 = NULL;

	ad_self_init(&self);
	assert_int_equal(self.pid, getpid());
	assert_non_null(self.exe);
	g_clear_pointer(&self.context, g_free);	/* as on a host without SELinux */
	mine = g_strdup_printf("type=AVC msg=audit(1.1:1): avc:  denied  { read } for  pid=%d "
			       "comm=\"x\" scontext=system_u:system_r:httpd_t:s0 "
			       "tcontext=system_u:object_r:shadow_t:s0 tclass=file\n", getpid());
	other = g_strdup_printf("type=AVC msg=audit(1.1:2): avc:  denied  { read } for  pid=%d "
				"comm=\"avcdoctor-dispa\" scontext=system_u:system_r:httpd_t:s0 "
				"tcontext=system_u:object_r:shadow_t:s0 tclass=file\n",
				getpid() + 1);
	exe_mine = g_strdup_printf("%stype=SYSCALL msg=audit(1.1:2): arch=c000003e syscall=2 "
				   "pid=%d comm=\"x\" exe=\"%s\"\n", other, getpid() + 1,
				   self.exe);
	remote = g_strdup_printf("node=elsewhere %s", mine);
	dbus = g_strdup_printf("type=USER_AVC msg=audit(1.1:3): pid=1 uid=103 auid=4294967295 "
			       "ses=4294967295 msg='avc:  denied  { send_msg } for msgtype=signal "
			       "interface=org.avcdoctor.Alerts1 member=AlertAdded dest=:1.5 "
			       "spid=%d tpid=99 scontext=system_u:system_r:httpd_t:s0 "
			       "tcontext=system_u:system_r:init_t:s0 tclass=dbus permissive=0 "
			       "exe=\"/usr/bin/dbus-daemon\" sauid=103 hostname=? addr=? "
			       "terminal=?'\n", getpid());
	planted = g_strdup_printf("type=USER_AVC msg=audit(1.1:4): pid=1 uid=0 auid=1000 ses=2 "
				  "msg='avc:  denied  { start } for auid=1000 uid=1000 gid=1000 "
				  "cmdline=\"/tmp/x spid=%d\" scontext=user_u:user_r:user_t:s0 "
				  "tcontext=system_u:object_r:systemd_unit_file_t:s0 tclass=service "
				  "permissive=0 exe=\"/usr/lib/systemd/systemd\" sauid=0 hostname=? "
				  "addr=? terminal=?'\n", getpid());
	d1 = denials_of(mine);
	d2 = denials_of(other);
	d3 = denials_of(exe_mine);
	d4 = denials_of(remote);
	d5 = denials_of(dbus);
	d6 = denials_of(planted);
	assert_int_equal(d1->len, 1);
	assert_true(ad_self_is_own_denial(&self, g_ptr_array_index(d1, 0)));
	/* our comm alone proves nothing: anyone can name a process so */
	assert_false(ad_self_is_own_denial(&self, g_ptr_array_index(d2, 0)));
	assert_true(ad_self_is_own_denial(&self, g_ptr_array_index(d3, 0)));
	/* with SELinux on, our binary in another domain is not us */
	self.context = g_strdup("system_u:system_r:auditd_t:s0");
	assert_false(ad_self_is_own_denial(&self, g_ptr_array_index(d3, 0)));
	g_clear_pointer(&self.context, g_free);
	/* a process of another host with our pid is not us */
	assert_false(ad_self_is_own_denial(&self, g_ptr_array_index(d4, 0)));
	/* dbus-daemon denying our own signal */
	assert_int_equal(d5->len, 1);
	assert_true(ad_self_is_own_denial(&self, g_ptr_array_index(d5, 0)));
	/* our pid planted as spid in another object manager's command line is not us */
	assert_int_equal(d6->len, 1);
	assert_false(ad_self_is_own_denial(&self, g_ptr_array_index(d6, 0)));
	ad_self_clear(&self);

	/* through the pipeline: counted, never an alert */
	{
		AdDispatchConfig c;
		AdDispatch *d;
		AdDispatchStats st;
		Sink *s;

		test_config(&c);
		d = dispatch_new(&c, NULL);
		s = sink_new(d);
		ad_dispatch_feed(d, mine, strlen(mine));
		ad_dispatch_finish(d);
		ad_dispatch_stats(d, &st);
		assert_int_equal(st.denials, 1);
		assert_int_equal(st.own, 1);
		assert_int_equal(s->added->len, 0);
		ad_dispatch_free(d);
		sink_free(s);
		ad_dispatch_config_clear(&c);
	}
}

/* the alerts held in memory are bounded: the set starts over beyond the cap */
static void test_memory_cap(void **state)
{
	AdDispatchConfig c;
	AdDispatchStats st;
	AdDispatch *d;
	Sink *s;

	test_config(&c);
	c.memory_alerts = 16;
	d = dispatch_new(&c, NULL);
	s = sink_new(d);
	for (guint i = 0; i < 40; i++) {
		g_autofree char *type = g_strdup_printf("test%u_t", i);
		g_autoptr(GString) t = flood(2, 100 + 2 * i, NULL, type);

		ad_dispatch_feed(d, t->str, t->len);
	}
	ad_dispatch_finish(d);
	ad_dispatch_stats(d, &st);
	assert_int_equal(st.denials, 80);
	assert_true(st.set_restarts >= 2);
	/* without a store, an alert forgotten by a restart is announced again */
	assert_int_equal(st.alerts_new, 40 + st.set_restarts);
	ad_dispatch_free(d);
	sink_free(s);
	ad_dispatch_config_clear(&c);
}

/* MAC_POLICY_LOAD of this host reloads the policy (at most once a second); a remote one does not */
static void test_policy_load(void **state)
{
	const char *remote = "node=elsewhere type=MAC_POLICY_LOAD msg=audit(1700000200.1:7): "
			     "auid=4294967295 ses=4294967295 lsm=selinux res=1\n";
	const char *local = "type=MAC_POLICY_LOAD msg=audit(1700000200.1:8): auid=4294967295 "
			    "ses=4294967295 lsm=selinux res=1\n";
	g_autoptr(GString) avc = flood(3, 10, NULL, "httpd_t");
	g_autoptr(GError) error = NULL;
	AdDispatchConfig c;
	AdDispatchStats st;
	AdDispatch *d;
	Sink *s;

	test_config(&c);
	use_fake_clock();
	d = dispatch_new(&c, NULL);
	s = sink_new(d);
	ad_dispatch_feed(d, avc->str, avc->len);
	ad_dispatch_feed(d, remote, strlen(remote));
	ad_dispatch_feed(d, local, strlen(local));
	fake_mono_us += 1100000;
	ad_dispatch_tick(d);
	ad_dispatch_stats(d, &st);
	assert_int_equal(st.policy_loads, 1);
	assert_int_equal(st.policy_reloads, 1);
	/* the alerts held were dropped with the old policy: the next one is new to the set */
	ad_dispatch_feed(d, avc->str, avc->len);
	ad_dispatch_finish(d);
	ad_dispatch_stats(d, &st);
	assert_int_equal(st.alerts_new, 2);
	/* SIGHUP's reload, with a configuration that keeps the store and the bus */
	assert_true(ad_dispatch_reload(d, NULL, &error));
	ad_dispatch_stats(d, &st);
	assert_int_equal(st.policy_reloads, 2);
	ad_dispatch_free(d);
	sink_free(s);
	ad_dispatch_config_clear(&c);
	ad_clock_set(NULL);
}

/* the store across restarts: an alert is new once; counts go on */
static void test_store_restart(void **state)
{
	g_autofree char *db = g_build_filename(tmpdir, "alerts.db", NULL);
	g_autofree char *text = NULL;
	AdDispatchConfig c;
	gsize len;

	text = read_corpus("crafted/debian-refpolicy-cases.log", &len);
	test_config(&c);
	c.db_path = g_strdup(db);
	for (guint run = 0; run < 2; run++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GPtrArray) list = NULL;
		g_autofree char *one = NULL;
		AdDispatch *d = dispatch_new(&c, NULL);
		Sink *s = sink_new(d);

		assert_non_null(ad_dispatch_store(d));
		ad_dispatch_feed(d, text, len);
		ad_dispatch_finish(d);
		assert_int_equal(s->added->len, run == 0 ? 13 : 0);
		if (run == 1) {
			/* every alert seen again: one update each, with the store's total */
			assert_int_equal(s->updated->len, 13);
			for (guint i = 0; i < s->updated->len; i++) {
				const char *u = g_ptr_array_index(s->updated, i);

				assert_true(g_str_has_suffix(u, " 2") || g_str_has_suffix(u, " 4"));
			}
		}
		list = ad_dispatch_list(d, 0, TRUE, 0, NULL, NULL, &error);
		assert_non_null(list);
		assert_int_equal(list->len, 13);
		one = ad_dispatch_get(d, "853997c3dff518a1", 0, &error);
		assert_non_null(one);
		assert_non_null(strstr(one, "\"id\":\"853997c3dff518a1\""));
		assert_null(ad_dispatch_get(d, "853997c3dff518a", 0, &error));
		assert_int_equal(error->code, AD_STORE_ERROR_INVALID);
		g_clear_error(&error);
		assert_null(ad_dispatch_get(d, "0000000000000000", 0, &error));
		assert_int_equal(error->code, AD_STORE_ERROR_NOT_FOUND);
		ad_dispatch_free(d);
		sink_free(s);
	}
	ad_dispatch_config_clear(&c);
}

typedef struct {
	int fd;
	guint n;
} Writer;

static gpointer write_flood(gpointer data)
{
	Writer *w = data;
	g_autoptr(GString) t = flood(w->n, 1, "web1", "httpd_t");
	gsize off = 0;

	while (off < t->len) {
		ssize_t n = write(w->fd, t->str + off, MIN(t->len - off, 4096));

		assert_true(n > 0);
		off += n;
	}
	close(w->fd);
	return NULL;
}

static gboolean quit_loop(gpointer loop)
{
	g_main_loop_quit(loop);
	return G_SOURCE_REMOVE;
}

/*
 * A pipe written faster than the analysis runs (the main loop does not run
 * at all until the writer is done): the reader thread never makes the
 * writer wait; what does not fit is dropped and counted, exactly.
 */
static void test_reader_thread_sheds(void **state)
{
	AdDispatchConfig c;
	AdDispatchStats st;
	AdDispatch *d;
	GMainLoop *loop = g_main_loop_new(NULL, FALSE);
	Writer w = { -1, 20000 };
	int fds[2];
	GThread *t;
	Sink *s;

	test_config(&c);
	c.queue_bytes = 64 << 10;
	d = dispatch_new(&c, NULL);
	s = sink_new(d);
	assert_int_equal(pipe(fds), 0);
	w.fd = fds[1];
	ad_dispatch_start(d, fds[0], quit_loop, loop);
	t = g_thread_new("writer", write_flood, &w);
	g_thread_join(t);	/* all written while nothing was analysed */
	g_main_loop_run(loop);
	ad_dispatch_stats(d, &st);
	assert_true(st.queue.shed_denials > 0);
	assert_int_equal(st.denials + st.queue.shed_denials, 20000);
	assert_true(st.queue.peak_bytes <= (64 << 10) + (64 << 10));
	assert_int_equal(s->shed, st.queue.shed_denials);
	assert_int_equal(s->added->len, 1);
	ad_dispatch_free(d);
	close(fds[0]);
	g_main_loop_unref(loop);
	sink_free(s);
	ad_dispatch_config_clear(&c);
}

/* ---------------------------------------------------------------- D-Bus */

static void test_dbus_helpers(void **state)
{
	struct passwd *nobody = getpwnam("nobody");
	GError e = { AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND, (char *)"x" };

	assert_true(ad_dbus_uid_is_admin(0, NULL));
	assert_true(ad_dbus_uid_is_admin(geteuid(), "no-such-group-here"));
	if (nobody && nobody->pw_uid != geteuid()) {
		struct group *g = getgrgid(nobody->pw_gid);

		assert_false(ad_dbus_uid_is_admin(nobody->pw_uid, "root"));
		assert_false(ad_dbus_uid_is_admin(nobody->pw_uid, "no-such-group-here"));
		assert_false(ad_dbus_uid_is_admin(nobody->pw_uid, NULL));
		/* the primary group counts */
		if (g)
			assert_true(ad_dbus_uid_is_admin(nobody->pw_uid, g->gr_name));
	}
	assert_string_equal(ad_dbus_error_name(&e), "org.avcdoctor.Error.NotFound");
	e.code = AD_STORE_ERROR_INVALID;
	assert_string_equal(ad_dbus_error_name(&e), "org.avcdoctor.Error.InvalidArgs");
	e.code = AD_STORE_ERROR_IO;
	assert_string_equal(ad_dbus_error_name(&e), "org.avcdoctor.Error.Failed");
	e.domain = AD_DISPATCH_ERROR;
	e.code = AD_DISPATCH_ERROR_ACCESS;
	assert_string_equal(ad_dbus_error_name(&e), "org.avcdoctor.Error.AccessDenied");
	e.code = AD_DISPATCH_ERROR_NO_STORE;
	assert_string_equal(ad_dbus_error_name(&e), "org.avcdoctor.Error.NotSupported");
}

/* the interface compiled in is the XML of the repository, member for member */
static void test_dbus_introspection(void **state)
{
	g_autofree char *path = g_build_filename(g_getenv("AD_SOURCE_DIR"), "data",
						 "org.avcdoctor.Alerts1.xml", NULL);
	g_autofree char *xml = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusNodeInfo) file = NULL;
	GDBusInterfaceInfo *a, *b;
	GString *ga = g_string_new(NULL), *gb = g_string_new(NULL);

	assert_true(g_file_get_contents(path, &xml, NULL, &error));
	file = g_dbus_node_info_new_for_xml(xml, &error);
	assert_non_null(file);
	a = g_dbus_node_info_lookup_interface(file, AD_DBUS_INTERFACE);
	b = g_dbus_node_info_lookup_interface(ad_dbus_node_info(), AD_DBUS_INTERFACE);
	assert_non_null(a);
	assert_non_null(b);
	g_dbus_interface_info_generate_xml(a, 0, ga);
	g_dbus_interface_info_generate_xml(b, 0, gb);
	assert_string_equal(ga->str, gb->str);
	assert_non_null(g_dbus_interface_info_lookup_signal(b, "AlertAdded"));
	assert_non_null(g_dbus_interface_info_lookup_property(b, "Shed"));
	g_string_free(ga, TRUE);
	g_string_free(gb, TRUE);
}

typedef struct {
	GPtrArray *signals;	/* char* "Name id" */
} Seen;

static void on_signal(GDBusConnection *c, const char *sender, const char *path,
		      const char *iface, const char *name, GVariant *params, gpointer ud)
{
	Seen *seen = ud;
	const char *id = "";

	if (g_variant_is_of_type(params, G_VARIANT_TYPE("(sss)")) ||
	    g_variant_is_of_type(params, G_VARIANT_TYPE("(ssst)")))
		g_variant_get_child(params, 0, "&s", &id);
	g_ptr_array_add(seen->signals, g_strdup_printf("%s %s", name, id));
}

typedef struct {
	gboolean done;
	GVariant *reply;
	GError *error;
} Reply;

static void call_done(GObject *source, GAsyncResult *res, gpointer user_data)
{
	Reply *r = user_data;

	r->reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &r->error);
	r->done = TRUE;
}

/*
 * Calls @iface.@method and returns the reply, or NULL with the D-Bus error
 * name in @ret_error.  The service runs in this thread's main context:
 * the call is asynchronous and the context turns until it is answered.
 */
static GVariant *call_iface(GDBusConnection *c, const char *iface, const char *method,
			    GVariant *args, char **ret_error)
{
	Reply r = { 0 };

	g_dbus_connection_call(c, AD_DBUS_NAME, AD_DBUS_PATH, iface, method, args, NULL,
			       G_DBUS_CALL_FLAGS_NONE, 5000, NULL, call_done, &r);
	while (!r.done)
		g_main_context_iteration(NULL, TRUE);
	if (!r.reply) {
		*ret_error = g_dbus_error_get_remote_error(r.error);
		g_error_free(r.error);
	}
	return r.reply;
}

static GVariant *call(GDBusConnection *c, const char *method, GVariant *args,
		      char **ret_error)
{
	return call_iface(c, AD_DBUS_INTERFACE, method, args, ret_error);
}

static void test_dbus_service(void **state)
{
	g_autoptr(GTestDBus) bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_autofree char *db = g_build_filename(tmpdir, "dbus.db", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	GDBusConnection *server, *client;
	AdDbusService *service;
	AdDispatchConfig c;
	AdDispatch *d;
	Seen seen = { g_ptr_array_new_with_free_func(g_free) };
	char *err = NULL;
	GVariant *r;
	gsize len;

	g_test_dbus_up(bus);
	test_config(&c);
	c.db_path = g_strdup(db);
	c.bus = AD_BUS_SESSION;
	d = dispatch_new(&c, NULL);
	service = ad_dbus_service_new(d, AD_BUS_SESSION);
	assert_true(ad_dbus_service_start(service));
	server = ad_dbus_service_connection(service);
	assert_non_null(server);
	client = g_dbus_connection_new_for_address_sync(
		g_test_dbus_get_bus_address(bus),
		G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
			G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
		NULL, NULL, &error);
	assert_non_null(client);
	for (guint i = 0; i < 200 && !ad_dbus_service_owns_name(service); i++)
		spin(5);
	assert_true(ad_dbus_service_owns_name(service));
	g_dbus_connection_signal_subscribe(client, AD_DBUS_NAME, AD_DBUS_INTERFACE, NULL,
					   AD_DBUS_PATH, NULL, G_DBUS_SIGNAL_FLAGS_NONE, on_signal,
					   &seen, NULL);
	r = g_dbus_connection_call_sync(client, "org.freedesktop.DBus", "/org/freedesktop/DBus",
					"org.freedesktop.DBus", "GetId", NULL, NULL,
					G_DBUS_CALL_FLAGS_NONE, 5000, NULL, NULL);
	g_variant_unref(r);

	/* the crafted cases: 13 AlertAdded */
	text = read_corpus("crafted/debian-refpolicy-cases.log", &len);
	ad_dispatch_feed(d, text, len);
	ad_dispatch_finish(d);
	for (guint i = 0; i < 400 && seen.signals->len < 14; i++)
		spin(5);
	assert_int_equal(seen.signals->len, 14);
	assert_true(g_str_has_prefix(g_ptr_array_index(seen.signals, 0),
				     "AlertAdded 853997c3dff518a1"));

	/* ListAlerts, GetAlert, SetFilter, DeleteAlert; the values checked */
	r = call(client, "ListAlerts", g_variant_new("(dbs)", 0.0, TRUE, ""), &err);
	assert_non_null(r);
	{
		g_autofree const char **list = NULL;

		g_variant_get(r, "(^a&s)", &list);
		json_object *o = json_tokener_parse(list[0]);

		assert_int_equal(g_strv_length((char **)list), 13);
		assert_non_null(o);
		json_object_put(o);
	}
	g_variant_unref(r);
	r = call(client, "ListAlerts", g_variant_new("(dbs)", -1.0, TRUE, ""), &err);
	assert_null(r);
	assert_string_equal(err, "org.avcdoctor.Error.InvalidArgs");
	g_clear_pointer(&err, g_free);
	r = call(client, "ListAlerts", g_variant_new("(dbs)", 0.0, TRUE, "web\x1b[2J"), &err);
	assert_null(r);
	assert_string_equal(err, "org.avcdoctor.Error.InvalidArgs");
	g_clear_pointer(&err, g_free);
	r = call(client, "ListAlerts", g_variant_new("(dbs)", 0.0, TRUE, "nosuchhost"), &err);
	assert_non_null(r);
	assert_int_equal(reply_len(r), 0);
	g_variant_unref(r);

	static const char *const bad_ids[] = { "", "853997C3DFF518A1", "853997c3dff518a",
					       "853997c3dff518a1 ", "../../etc/passwd",
					       "853997c3dff518a1';--" };
	for (guint i = 0; i < G_N_ELEMENTS(bad_ids); i++) {
		assert_null(call(client, "GetAlert", g_variant_new("(s)", bad_ids[i]), &err));
		assert_string_equal(err, "org.avcdoctor.Error.InvalidArgs");
		g_clear_pointer(&err, g_free);
		assert_null(call(client, "DeleteAlert", g_variant_new("(s)", bad_ids[i]), &err));
		assert_string_equal(err, "org.avcdoctor.Error.InvalidArgs");
		g_clear_pointer(&err, g_free);
	}
	assert_null(call(client, "GetAlert", g_variant_new("(s)", "0123456789abcdef"), &err));
	assert_string_equal(err, "org.avcdoctor.Error.NotFound");
	g_clear_pointer(&err, g_free);
	/* a wrong signature is refused by GDBus against the introspection data */
	assert_null(call(client, "GetAlert", g_variant_new("(i)", 1), &err));
	assert_string_equal(err, "org.freedesktop.DBus.Error.InvalidArgs");
	g_clear_pointer(&err, g_free);
	r = call(client, "GetAlert", g_variant_new("(s)", "853997c3dff518a1"), &err);
	assert_non_null(r);
	g_variant_unref(r);
	assert_null(call(client, "SetFilter", g_variant_new("(ss)", "853997c3dff518a1",
							     "sometimes"), &err));
	assert_string_equal(err, "org.avcdoctor.Error.InvalidArgs");
	g_clear_pointer(&err, g_free);
	r = call(client, "SetFilter", g_variant_new("(ss)", "853997c3dff518a1", "always"), &err);
	assert_non_null(r);
	g_variant_unref(r);
	r = call(client, "ListAlerts", g_variant_new("(dbs)", 0.0, FALSE, ""), &err);
	assert_non_null(r);
	assert_int_equal(reply_len(r), 12);
	g_variant_unref(r);
	r = call(client, "DeleteAlert", g_variant_new("(s)", "853997c3dff518a1"), &err);
	assert_non_null(r);
	g_variant_unref(r);
	assert_null(call(client, "DeleteAlert", g_variant_new("(s)", "853997c3dff518a1"), &err));
	assert_string_equal(err, "org.avcdoctor.Error.NotFound");
	g_clear_pointer(&err, g_free);

	/* properties */
	r = call_iface(client, "org.freedesktop.DBus.Properties", "Get",
		       g_variant_new("(ss)", AD_DBUS_INTERFACE, "Shed"), &err);
	assert_non_null(r);
	{
		g_autoptr(GVariant) v = NULL;

		g_variant_get(r, "(v)", &v);
		assert_int_equal(g_variant_get_uint64(v), 0);
	}
	g_variant_unref(r);

	ad_dbus_service_free(service);
	ad_dispatch_free(d);
	g_object_unref(client);
	g_ptr_array_unref(seen.signals);
	ad_dispatch_config_clear(&c);
	g_test_dbus_down(bus);
}

/* ---------------------------------------------------------------- main */

static int setup(void **state)
{
	tmpdir = g_dir_make_tmp("test-dispatch-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", tmpdir);

	if (system(cmd) != 0)
		return -1;
	g_free(tmpdir);
	return 0;
}

/* quoted-printable undone (RFC 2045 6.7): soft breaks removed, =XX decoded */
static char *qp_decode(const char *s)
{
	GString *out = g_string_new(NULL);

	for (const char *p = s; *p; p++) {
		if (*p != '=') {
			g_string_append_c(out, *p);
		} else if (p[1] == '\n') {
			p++;
		} else {
			assert_true(g_ascii_isxdigit(p[1]) && g_ascii_isxdigit(p[2]));
			g_string_append_c(out, (char)(g_ascii_xdigit_value(p[1]) * 16 +
						      g_ascii_xdigit_value(p[2])));
			p += 2;
		}
	}
	return g_string_free(out, FALSE);
}

/* the longest line of @s, in octets */
static gsize longest_line(const char *s)
{
	gsize max = 0;

	while (*s) {
		const char *nl = strchr(s, '\n');
		gsize n = nl ? (gsize)(nl - s) : strlen(s);

		max = MAX(max, n);
		if (!nl)
			break;
		s = nl + 1;
	}
	return max;
}

/*
 * A record's 3,000-byte path in a mail: no line over 998 octets (RFC 5322),
 * the body quoted-printable and exactly what it would have been; a short
 * body stays 8bit and as it is; the headers are the same either way
 */
static void test_mail_long_lines(void **state)
{
	g_autofree char *rcpt = g_build_filename(g_get_tmp_dir(), "ad-test-mail-rcpt", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(AdMailer) m = NULL;
	g_autoptr(GString) path = g_string_new("/srv/");
	g_autofree char *report = NULL, *msg = NULL, *body = NULL, *want = NULL;
	g_autofree char *short_msg = NULL;
	AdAlert a = { .id = "0123456789abcdef", .level = AD_LEVEL_YELLOW };
	const char *sep;

	(void)state;
	assert_true(g_file_set_contents(rcpt, "admin@example.org\n", -1, NULL));
	m = ad_mailer_new(rcpt, "/bin/true", 0, FALSE, NULL, &error);
	g_unlink(rcpt);
	assert_non_null(m);
	/* '=', a space before the end, UTF-8, as a path may hold them */
	while (path->len < 3000)
		g_string_append(path, "caf\xc3\xa9=d\xc3\xa9j\xc3\xa0 vu/");
	report = g_strdup_printf("httpd was denied write on %s \nWhat to do: nothing.\n", path->str);
	msg = ad_mailer_message(m, &a, "A summary", report);
	assert_true(longest_line(msg) <= 76);
	assert_non_null(strstr(msg, "\nContent-Transfer-Encoding: quoted-printable\n"));
	sep = strstr(msg, "\n\n");
	assert_non_null(sep);
	body = qp_decode(sep + 2);
	want = g_strdup_printf("A summary\n\n%s\nFor details run: avcdoctor show %s\n", report,
			       a.id);
	assert_string_equal(body, want);
	/* short lines: 8bit, as they are */
	short_msg = ad_mailer_message(m, &a, "A summary", "short = fine \n");
	assert_non_null(strstr(short_msg, "\nContent-Transfer-Encoding: 8bit\n"));
	assert_non_null(strstr(short_msg, "\n\nA summary\n\nshort = fine \n"));
	/* the same headers but the encoding */
	assert_int_equal(strstr(msg, "Content-Transfer") - msg,
			 strstr(short_msg, "Content-Transfer") - short_msg);
	assert_memory_equal(msg, short_msg, strstr(msg, "Content-Transfer") - msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_file),
		cmocka_unit_test(test_mail_long_lines),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_config_unsafe),
		cmocka_unit_test(test_count_denials),
		cmocka_unit_test(test_queue_shed),
		cmocka_unit_test(test_queue_wait),
		cmocka_unit_test(test_pipeline_crafted),
		cmocka_unit_test(test_coalesced_updates),
		cmocka_unit_test(test_exec_checks),
		cmocka_unit_test(test_own_denials),
		cmocka_unit_test(test_memory_cap),
		cmocka_unit_test(test_policy_load),
		cmocka_unit_test(test_store_restart),
		cmocka_unit_test(test_reader_thread_sheds),
		cmocka_unit_test(test_dbus_helpers),
		cmocka_unit_test(test_dbus_introspection),
		cmocka_unit_test(test_dbus_service),
	};

	if (access(REAL_POLICY, R_OK) != 0) {
		fprintf(stderr, "no %s: install selinux-policy-default\n", REAL_POLICY);
		return 1;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
