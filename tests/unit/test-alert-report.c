// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `analyze` renders its text report from an alert document built in
 * memory (ad_alert_to_doc), not from the JSON it writes for --json and the
 * store: the two documents must be the same, member by member, or the
 * report and every other reader would say different things.  Checked on
 * every alert of the corpus logs, of the plugin cases and of hostile
 * records (bytes not UTF-8, control characters, planted markup), analysed
 * against the real policy with its file labels and rule book as `analyze`
 * does.  Skips when the policy is not installed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "alert-doc.h"
#include "analysis/alert.h"
#include "analysis/alert-text.h"
#include "analysis/analysis.h"
#include "escape.h"
#include "read/reader.h"

#define REAL_POLICY "/etc/selinux/default/policy/policy.33"

static AdAnalysis *an;

static void on_event(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, NULL, NULL);
}

/* the document `analyze --json` writes, with the host counts the text report adds */
static AdAlertDoc *doc_from_json(const AdAlert *a)
{
	json_object *o = ad_alert_to_json(a);
	json_object *counts = json_object_new_object();
	g_autoptr(GList) keys = g_list_sort(g_hash_table_get_keys(a->hosts),
					    (GCompareFunc)strcmp);
	AdAlertDoc *doc;

	for (GList *l = keys; l; l = l->next) {
		g_autofree char *esc = ad_escape_str(l->data);

		json_object_object_add(counts, esc, json_object_new_uint64(GPOINTER_TO_SIZE(
					       g_hash_table_lookup(a->hosts, l->data))));
	}
	json_object_object_add(o, AD_KEY_HOST_COUNTS, counts);
	doc = ad_alert_doc_new(o, NULL);
	json_object_put(o);
	assert_non_null(doc);
	return doc;
}

#define SAME_STR(what, x, y)                                                                       \
	do {                                                                                       \
		if (g_strcmp0(x, y) != 0)                                                          \
			fail_msg("%s: %s: %s: \"%s\" in memory, \"%s\" from JSON", file, id, what, \
				 (x) ? (x) : "(null)", (y) ? (y) : "(null)");                       \
	} while (0)
#define SAME_NUM(what, x, y)                                                                       \
	do {                                                                                       \
		if ((x) != (y))                                                                    \
			fail_msg("%s: %s: %s: %g in memory, %g from JSON", file, id, what,         \
				 (double)(x), (double)(y));                                        \
	} while (0)

static void same_strv(const char *file, const char *id, const char *what, char **x, char **y)
{
	guint n = x ? g_strv_length(x) : 0;

	SAME_NUM(what, n, y ? g_strv_length(y) : 0);
	for (guint i = 0; i < n; i++)
		SAME_STR(what, x[i], y[i]);
}

static void same_suggestion(const char *file, const char *id, const AdSuggestionDoc *x,
			    const AdSuggestionDoc *y)
{
	SAME_STR("plugin", x->plugin, y->plugin);
	SAME_STR("kind", x->kind, y->kind);
	SAME_NUM("level", x->level, y->level);
	SAME_NUM("confidence", x->confidence, y->confidence);
	SAME_STR("if", x->if_text, y->if_text);
	SAME_STR("then", x->then_text, y->then_text);
	SAME_NUM("commands", !x->commands, !y->commands);
	for (guint i = 0; x->commands && i < x->commands->len; i++) {
		const AdCommandDoc *cx = g_ptr_array_index(x->commands, i);
		const AdCommandDoc *cy = g_ptr_array_index(y->commands, i);

		SAME_NUM("commands", x->commands->len, y->commands->len);
		same_strv(file, id, "argv", cx->argv, cy->argv);
		same_strv(file, id, "exact", cx->exact, cy->exact);
		SAME_NUM("has_hex", cx->has_hex, cy->has_hex);
	}
	SAME_NUM("commands_malformed", x->commands_malformed, y->commands_malformed);
	SAME_NUM("inexact", x->inexact, y->inexact);
	SAME_NUM("verified", x->verified, y->verified);
	SAME_STR("still_denied", x->still_denied, y->still_denied);
	SAME_NUM("accesses", x->accesses, y->accesses);
	SAME_NUM("domains", x->domains, y->domains);
	SAME_STR("example", x->example, y->example);
	SAME_STR("generic_type", x->generic_type, y->generic_type);
	SAME_NUM("type_paths", x->type_paths, y->type_paths);
	SAME_NUM("has_apply", x->has_apply, y->has_apply);
	SAME_STR("apply", x->apply, y->apply);
	SAME_STR("apply_reason", x->apply_reason, y->apply_reason);
}

static void same_denial(const char *file, const char *id, const AdDenialDoc *x,
			const AdDenialDoc *y)
{
	SAME_NUM("denial", !x, !y);
	if (!x)
		return;
	SAME_STR("type", x->type, y->type);
	SAME_STR("scontext", x->scontext, y->scontext);
	SAME_STR("tcontext", x->tcontext, y->tcontext);
	SAME_STR("stype", x->stype, y->stype);
	SAME_STR("ttype", x->ttype, y->ttype);
	SAME_STR("tclass", x->tclass, y->tclass);
	same_strv(file, id, "permissions", x->permissions, y->permissions);
	SAME_NUM("has_permissions", x->has_permissions, y->has_permissions);
	SAME_STR("comm", x->comm, y->comm);
	SAME_STR("exe", x->exe, y->exe);
	SAME_STR("path", x->path, y->path);
	SAME_STR("path_exact", x->path_exact, y->path_exact);
	SAME_STR("name", x->name, y->name);
	SAME_STR("reason", x->reason, y->reason);
	SAME_STR("detail", x->detail, y->detail);
	SAME_STR("constraint", x->constraint, y->constraint);
	SAME_NUM("permissive", x->permissive, y->permissive);
	SAME_NUM("has_permissive", x->has_permissive, y->has_permissive);
	SAME_NUM("suspect", x->suspect, y->suspect);
	SAME_STR("suspect_reason", x->suspect_reason, y->suspect_reason);
	SAME_STR("cmdline", x->cmdline, y->cmdline);
	SAME_NUM("pid", x->pid, y->pid);
	SAME_STR("syscall", x->syscall, y->syscall);
	SAME_NUM("port", x->port, y->port);
	SAME_STR("file", x->file, y->file);
	SAME_NUM("line", x->line, y->line);
}

/* every member the JSON form has (the "json" and "shell" members aside), and the report */
static void same_doc(const char *file, const AdAlertDoc *x, const AdAlertDoc *y)
{
	const char *id = y->id;
	g_autoptr(GString) tx = g_string_new(NULL);
	g_autoptr(GString) ty = g_string_new(NULL);

	SAME_STR("id", x->id, y->id);
	SAME_NUM("level", x->level, y->level);
	SAME_STR("level_name", x->level_name, y->level_name);
	SAME_NUM("has_level", x->has_level, y->has_level);
	SAME_STR("summary", x->summary, y->summary);
	SAME_NUM("count", x->count, y->count);
	SAME_NUM("has_modes", x->has_modes, y->has_modes);
	SAME_NUM("blocked", x->blocked, y->blocked);
	SAME_NUM("logged_only", x->logged_only, y->logged_only);
	SAME_NUM("first_seen", x->first_seen, y->first_seen);
	SAME_NUM("last_seen", x->last_seen, y->last_seen);
	SAME_NUM("ignored", x->ignored, y->ignored);
	SAME_STR("filter", x->filter, y->filter);
	SAME_STR("reported_by", x->reported_by, y->reported_by);
	same_strv(file, id, "hosts", x->hosts, y->hosts);
	same_denial(file, id, x->denial, y->denial);
	SAME_NUM("has_suggestions", x->has_suggestions, y->has_suggestions);
	SAME_NUM("suggestions", x->suggestions->len, y->suggestions->len);
	for (guint i = 0; i < x->suggestions->len; i++)
		same_suggestion(file, id, g_ptr_array_index(x->suggestions, i),
				g_ptr_array_index(y->suggestions, i));
	SAME_NUM("notes", x->notes->len, y->notes->len);
	for (guint i = 0; i < x->notes->len; i++)
		same_suggestion(file, id, g_ptr_array_index(x->notes, i),
				g_ptr_array_index(y->notes, i));
	same_strv(file, id, "records", x->records, y->records);
	same_strv(file, id, "paths", x->paths, y->paths);
	same_strv(file, id, "commands", x->commands, y->commands);
	SAME_NUM("host_counts", !x->host_counts, !y->host_counts);
	SAME_NUM("host_counts", x->host_counts->len, y->host_counts->len);
	for (guint i = 0; i < x->host_counts->len; i++) {
		const AdHostCountDoc *hx = g_ptr_array_index(x->host_counts, i);
		const AdHostCountDoc *hy = g_ptr_array_index(y->host_counts, i);

		SAME_STR("host_counts", hx->host, hy->host);
		SAME_NUM("host_counts", hx->count, hy->count);
	}
	SAME_NUM("fix_applied", x->fix_applied, y->fix_applied);
	SAME_NUM("occurrences", !x->occurrences, !y->occurrences);
	ad_alert_doc_render(tx, x);
	ad_alert_doc_render(ty, y);
	SAME_STR("report", tx->str, ty->str);
}

/* the alerts of @path analysed as `analyze` does; returns how many were compared */
static guint check_log(const char *path)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) denials =
		g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autoptr(AdAlertSet) set = ad_alert_set_new();
	GPtrArray *alerts;
	gsize len;

	if (!g_file_get_contents(path, &text, &len, &error))
		fail_msg("%s", error->message);
	{
		g_autoptr(AdReader) r = ad_reader_new(on_event, NULL, denials);

		ad_reader_set_source(r, path);
		ad_reader_feed(r, text, len);
		ad_reader_end_source(r);
	}
	for (guint i = 0; i < denials->len; i++) {
		AdDenial *d = g_ptr_array_index(denials, i);

		ad_alert_set_add(set, d, ad_analysis_explain(an, d), NULL);
	}
	alerts = ad_alert_set_alerts(set);
	for (guint i = 0; i < alerts->len; i++) {
		AdAlert *a = g_ptr_array_index(alerts, i);
		g_autoptr(AdAlertDoc) mem = NULL;
		g_autoptr(AdAlertDoc) json = NULL;

		ad_alert_analyse(a, ad_analysis_context(an));
		mem = ad_alert_to_doc(a);
		json = doc_from_json(a);
		same_doc(path, mem, json);
	}
	return alerts->len;
}

/* every log of a folder of tests/data (with @any, every file) */
static guint check_dir(const char *sub, gboolean any)
{
	g_autofree char *path = g_build_filename(g_getenv("AD_SOURCE_DIR"), "tests", "data", sub,
						 NULL);
	g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
	const char *name;
	guint n = 0;

	assert_non_null(dir);
	while ((name = g_dir_read_name(dir))) {
		g_autofree char *file = g_build_filename(path, name, NULL);

		if (any || g_str_has_suffix(name, ".log") || g_str_has_suffix(name, ".txt"))
			n += check_log(file);
	}
	return n;
}

static void test_corpus(void **state)
{
	(void)state;
	if (!an)
		skip();
	assert_true(check_dir("corpus", FALSE) > 100);
	assert_true(check_dir("corpus/crafted", FALSE) > 10);
	assert_true(check_dir("corpus/synthetic", FALSE) > 0);
	assert_true(check_dir("pasted", FALSE) > 10);
}

static void test_plugins(void **state)
{
	(void)state;
	if (!an)
		skip();
	assert_true(check_dir("plugins", FALSE) > 30);
	assert_true(check_dir("expert", FALSE) > 0);
}

/* records with bytes that are not UTF-8, control characters and planted markup */
static void test_hostile(void **state)
{
	(void)state;
	if (!an)
		skip();
	assert_true(check_dir("hostile", FALSE) > 5);
	/* the reader's fuzzing finds: records that once broke it */
	assert_true(check_dir("fuzz/fuzz-reader", TRUE) + check_dir("fuzz/fuzz-pairs", TRUE) > 0);
}

/*
 * Backslashes in clean text (kept as they are by JSON, doubled by an
 * escape), bytes that are not UTF-8 (hex fields), a host's name, a
 * USER_AVC's object manager and a denial of an exec
 */
static void test_crafted(void **state)
{
	static const char records[] =
		"node=web\\1 type=AVC msg=audit(1700000000.123:42): avc:  denied  { write } for  "
		"pid=10 comm=\"a\\b\" name=\"x\\y\" dev=\"sda1\" ino=5 "
		"scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:var_t:s0 "
		"tclass=file permissive=0\n"
		"node=web\\1 type=SYSCALL msg=audit(1700000000.123:42): arch=c000003e syscall=2 "
		"success=no exit=-13 pid=10 comm=\"a\\b\" exe=\"/usr/bin/a\\b\" "
		"subj=system_u:system_r:httpd_t:s0 key=(null)\n"
		"node=web\\1 type=PATH msg=audit(1700000000.123:42): item=0 "
		"name=\"/var/www/x\\y\" inode=5 dev=08:01 mode=0100644\n"
		"type=AVC msg=audit(1700000001.000:43): avc:  denied  { read } for  pid=11 "
		"comm=61FF62 path=2F746D702F1B5B33316D41FE dev=\"sda1\" ino=6 "
		"scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:tmp_t:s0 "
		"tclass=file permissive=1\n"
		"type=USER_AVC msg=audit(1700000002.000:44): pid=1 uid=81 auid=4294967295 ses=4294967295 "
		"subj=system_u:system_r:system_dbusd_t:s0-s0:c0.c1023 msg='avc:  denied  { send_msg } "
		"for msgtype=method_call interface=org.x member=Y dest=org.x spid=2 tpid=3 "
		"scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:system_r:init_t:s0 "
		"tclass=dbus permissive=0  exe=\"/usr/bin/dbus-daemon\" sauid=81 hostname=? addr=? "
		"terminal=?'\n"
		"type=AVC msg=audit(1700000003.000:45): avc:  denied  { siginh } for  pid=12 "
		"comm=\"x\" scontext=system_u:system_r:unconfined_t:s0 "
		"tcontext=system_u:system_r:httpd_t:s0 tclass=process permissive=0\n";
	g_autofree char *path = NULL;
	int fd;

	(void)state;
	if (!an)
		skip();
	fd = g_file_open_tmp("test-alert-report-XXXXXX.log", &path, NULL);
	assert_true(fd >= 0);
	close(fd);
	assert_true(g_file_set_contents(path, records, -1, NULL));
	assert_int_equal(check_log(path), 4);
	g_unlink(path);
}

static int setup(void **state)
{
	g_autofree char *rules = g_build_filename(g_getenv("AD_SOURCE_DIR"), "rules", NULL);
	const char *const dirs[] = { rules, NULL };
	AdAnalysisOptions opt = { .rules_dirs = dirs };
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);

	(void)state;
	if (!g_file_test(REAL_POLICY, G_FILE_TEST_EXISTS))
		return 0;
	an = ad_analysis_new_with_knowledge(REAL_POLICY, &opt, problems, NULL);
	assert_non_null(an);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	g_clear_pointer(&an, ad_analysis_free);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
		cmocka_unit_test(test_plugins),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_crafted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
