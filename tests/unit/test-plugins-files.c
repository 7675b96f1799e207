// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the file-label plugins (restorecon, restorecon_source,
 * file, fcontext, associate, mounton, device) against the real
 * Debian refpolicy and its file_contexts: records go through the reader,
 * the denial builder and the policy engine as in `avcdoctor analyze`.
 * Hostile paths stay one exact argument.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "read/denial.h"
#include "escape.h"
#include "read/event.h"
#include "file-labels.h"
#include "policy/labels.h"
#include "analysis/plugin.h"
#include "policy/policy.h"
#include "read/reader.h"

#define REAL_POLICY "/etc/selinux/default/policy/policy.33"
#define REAL_FC "/etc/selinux/default/contexts/files/file_contexts"

static AdPolicy *policy;
static AdLabels *labels;
static AdPluginEnv ctx;

#define NEED_POLICY()                                                                              \
	do {                                                                                       \
		if (!policy || !labels) {                                                          \
			print_message(                                                             \
				"skipped: %s or %s is not available\n", REAL_POLICY, REAL_FC);     \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

static int group_setup(void **state)
{
	if (g_file_test(REAL_POLICY, G_FILE_TEST_EXISTS) &&
		g_file_test(REAL_FC, G_FILE_TEST_EXISTS)) {
		g_autoptr(GError) err = NULL;

		policy = ad_policy_load(REAL_POLICY, &err);
		assert_non_null(policy);
		labels = ad_labels_open(REAL_FC, REAL_POLICY, &err);
		assert_non_null(labels);
	}
	ctx.policy = policy;
	ctx.labels = labels;
	ctx.rules = NULL;
	ctx.local = FALSE; /* never look at this host's files */
	return 0;
}

static int group_teardown(void **state)
{
	g_clear_pointer(&labels, ad_labels_free);
	g_clear_pointer(&policy, ad_policy_free);
	return 0;
}

/* ---------------------------------------------------------------- helpers */

static void on_denial_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	print_error("%s:%u: %s\n", rec->file, rec->line, message);
	fail();
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, on_denial_problem, NULL);
}

static void on_reader_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	print_error("%s:%u: %s\n", file, line, message);
	fail();
}

/* the corpus holds malformed records on purpose: they are skipped, not failures */
static void ignore_denial_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
}

static void ignore_reader_problem(
	const char *file, guint line, const char *message, gpointer user_data)
{
}

static void on_event_lenient(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, ignore_denial_problem, NULL);
}

/* every denial of @text, in order */
static GPtrArray *denials_of(const char *text)
{
	GPtrArray *denials = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autoptr(AdReader) r = ad_reader_new(on_event, on_reader_problem, denials);

	ad_reader_set_source(r, "test");
	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	return denials;
}

/* the single denial of @text; owned */
static AdDenial *one_denial(const char *text)
{
	g_autoptr(GPtrArray) all = denials_of(text);

	assert_int_equal(all->len, 1);
	return ad_denial_ref(g_ptr_array_index(all, 0));
}

static const AdVerdict *explain(const AdDenial *d)
{
	return ad_policy_explain(policy, d->scontext, d->tcontext, d->tclass,
		(const char *const *)d->perms->pdata, d->perms->len);
}

/* what plugin @id suggests for @d (empty when it does not match) */
static GPtrArray *run_plugin(const char *id, const AdDenial *d)
{
	const AdPlugin *p = ad_plugin_find(id);
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);
	int r;

	assert_non_null(p);
	/* as the host runs it: only for what the plugin declares it looks at */
	r = ad_plugin_wants(p, d, explain(d)) ? p->analyze(d, explain(d), &ctx, out) : 0;
	assert_true(r >= 0);
	assert_true(r == 1 ? out->len > 0 : out->len == 0);
	return out;
}

/* every plugin, ranked, as analyze runs them */
static GPtrArray *run_all(const AdDenial *d)
{
	guint failures = 99;
	GPtrArray *out = ad_analyze_denial(&ctx, d, explain(d), &failures);

	assert_int_equal(failures, 0);
	return out;
}

static AdSuggestion *nth(GPtrArray *s, guint i)
{
	assert_true(i < s->len);
	return g_ptr_array_index(s, i);
}

/* asserts command @i of @s is exactly the NULL-terminated list of arguments */
static void assert_command(const AdSuggestion *s, guint i, ...)
{
	char **argv;
	va_list ap;
	guint n = 0;

	assert_true(i < s->commands->len);
	argv = g_ptr_array_index(s->commands, i);
	va_start(ap, i);
	for (const char *want = va_arg(ap, const char *); want; want = va_arg(ap, const char *)) {
		assert_non_null(argv[n]);
		if (strcmp(argv[n], want) != 0)
			print_error("argument %u: got '%s', wanted '%s'\n", n, argv[n], want);
		assert_string_equal(argv[n], want);
		n++;
	}
	va_end(ap);
	assert_null(argv[n]);
}

static gboolean any_kind(GPtrArray *s, AdFixKind kind)
{
	for (guint i = 0; i < s->len; i++)
		if (((AdSuggestion *)g_ptr_array_index(s, i))->kind == kind)
			return TRUE;
	return FALSE;
}

/* the first suggestion of @plugin in @s, or NULL */
static AdSuggestion *find_plugin(GPtrArray *s, const char *plugin)
{
	for (guint i = 0; i < s->len; i++)
		if (strcmp(((AdSuggestion *)g_ptr_array_index(s, i))->plugin, plugin) == 0)
			return g_ptr_array_index(s, i);
	return NULL;
}

/* the kernel's hex form of @len bytes */
static char *hex(const char *bytes, gsize len)
{
	GString *s = g_string_new(NULL);

	for (gsize i = 0; i < len; i++)
		g_string_append_printf(s, "%02X", (unsigned char)bytes[i]);
	return g_string_free(s, FALSE);
}

/*
 * One file denial event as the kernel logs it: AVC, SYSCALL (openat or
 * @syscall), CWD "/" and a PATH record whose name field is @name_field as
 * it appears in the log ("\"/x\"" quoted, or hex).
 */
static char *file_event(guint serial, const char *perms, const char *comm, const char *scon,
	const char *tcon, const char *tclass, const char *name_field, const char *syscall)
{
	return g_strdup_printf(
		"type=AVC msg=audit(1700000100.000:%u): avc:  denied  { %s } for  pid=100 "
		"comm=\"%s\" name=\"x\" dev=\"sda1\" ino=%u scontext=%s tcontext=%s tclass=%s "
		"permissive=0\n"
		"type=SYSCALL msg=audit(1700000100.000:%u): arch=c000003e syscall=%s "
		"success=no exit=-13 a0=ffffff9c a1=55 a2=0 a3=0 items=1 ppid=1 pid=100 "
		"auid=4294967295 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 "
		"tty=(none) ses=4294967295 comm=\"%s\" exe=\"/usr/bin/%s\" subj=%s key=(null)\n"
		"type=CWD msg=audit(1700000100.000:%u): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000100.000:%u): item=0 name=%s inode=%u dev=08:01 "
		"mode=0100644 ouid=0 ogid=0 rdev=00:00 obj=%s nametype=NORMAL cap_fp=0 cap_fi=0 "
		"cap_fe=0 cap_fver=0 cap_frootid=0\n",
		serial, perms, comm, serial, scon, tcon, tclass, serial, syscall ? syscall : "257",
		comm, comm, scon, serial, serial, name_field, serial, tcon);
}

/* file_event() with a plain quoted path */
static AdDenial *file_denial(const char *perms, const char *comm, const char *stype,
	const char *ttype, const char *tclass, const char *path)
{
	g_autofree char *scon = g_strdup_printf("system_u:system_r:%s:s0", stype);
	g_autofree char *tcon = g_strdup_printf("system_u:object_r:%s:s0", ttype);
	g_autofree char *name = g_strdup_printf("\"%s\"", path);
	g_autofree char *text = file_event(900, perms, comm, scon, tcon, tclass, name, NULL);

	return one_denial(text);
}

/* the events of the crafted corpus with serial @serial */
static AdDenial *crafted(guint64 serial)
{
	const char *dir = g_getenv("AD_CORPUS");
	g_autofree char *path = g_build_filename(
		dir ? dir : "tests/data/corpus", "crafted", "debian-refpolicy-cases.log", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GPtrArray) all = NULL;

	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	all = denials_of(text);
	for (guint i = 0; i < all->len; i++) {
		AdDenial *d = g_ptr_array_index(all, i);

		if (ad_denial_serial(d) == serial)
			return ad_denial_ref(d);
	}
	fail_msg("no serial %" G_GUINT64_FORMAT " in %s", serial, path);
	return NULL;
}

/* ---------------------------------------------------------------- helpers' own tests */

static void test_clean_path(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"/var/www/html/index.html", "/var/www/html/index.html"},
		{"/var//www/./html/", "/var/www/html"},
		{"/", "/"},
		{"//", "/"},
		{"/var/www/../etc/shadow", NULL},
		{"/var/www/..", NULL},
		{"/tmp/x (deleted)", NULL},
		{"/memfd:foo", NULL},
		{"/memfd:foo (deleted)", NULL},
		{"/proc/1/status", NULL},
		{"/proc", NULL},
		{"/sys/fs/selinux/enforce", NULL},
		{"/dev/pts/0", NULL},
		{"/dev/ptsx", "/dev/ptsx"},
		{"/processes", "/processes"},
		{"index.html", NULL},
		{"", NULL},
		{"/var/www/html/$(touch /tmp/pwned);x", "/var/www/html/$(touch /tmp/pwned);x"},
		{"/a\nb", "/a\nb"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = ad_file_clean_path(cases[i].in);

		if (g_strcmp0(got, cases[i].out) != 0)
			print_error("'%s': got '%s'\n", cases[i].in, got ? got : "(null)");
		assert_true(g_strcmp0(got, cases[i].out) == 0);
	}
	assert_null(ad_file_clean_path(NULL));
}

static void test_fcontext_spec(void **state)
{
	static const struct {
		const char *path;
		gboolean subtree;
		const char *spec;
	} cases[] = {
		{"/data/www", TRUE, "/data/www(/.*)?"},
		{"/data/www", FALSE, "/data/www"},
		{"/data/my.site+x", TRUE, "/data/my\\.site\\+x(/.*)?"},
		{"/a^b$c*d?e(f)g[h]i{j}k|l\\m", FALSE,
			"/a\\^b\\$c\\*d\\?e\\(f\\)g\\[h\\]i\\{j\\}k\\|l\\\\m"},
		{"/data/my site", TRUE, "/data/my.site(/.*)?"},
		{"/", TRUE, "/.*"},
		{"/srv/$(id);x", FALSE, "/srv/\\$\\(id\\);x"},
		{"/srv/caf\xc3\xa9", FALSE, "/srv/caf\xc3\xa9"},
		{"/srv/a\nb", FALSE, NULL},
		{"/srv/a\tb", TRUE, NULL},
		{"/srv/a\x1b[31m", FALSE, NULL},
		{"/srv/a\xc2\x9b" "b", FALSE, NULL},		/* C1 control */
		{"srv/x", FALSE, NULL},				/* relative */
		{NULL, FALSE, NULL},
		/* white space never: semanage would take the rest for a type */
		{"/srv/my  web site", FALSE, "/srv/my..web.site"},
		{"/srv/ lead", TRUE, "/srv/.lead(/.*)?"},
		/* quotes are plain characters of a regex and of file_contexts */
		{"/srv/it's \"x\"", FALSE, "/srv/it's.\"x\""},
		/* a directory named with its trailing '/': the directory */
		{"/srv/up/", TRUE, "/srv/up(/.*)?"},
		{"/srv/up//", FALSE, "/srv/up"},
		{"//", TRUE, "/.*"},
		/* bytes that are not UTF-8: any byte; whole characters kept */
		{"/srv/\xff\xfe", FALSE, "/srv/.."},
		{"/srv/a\xc3", TRUE, "/srv/a.(/.*)?"},
		{"/srv/\xe2\x82\xac\xe2\x82", FALSE, "/srv/\xe2\x82\xac.."},
		{"/srv/\xc0\xaf", FALSE, "/srv/.."},	/* overlong '/' */
		{"/srv/\xf0\x9f\x98\x80 x", FALSE, "/srv/\xf0\x9f\x98\x80.x"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = ad_fcontext_spec(cases[i].path, cases[i].subtree);

		if (g_strcmp0(got, cases[i].spec) != 0)
			print_error("case %u: got '%s'\n", i, got ? got : "(null)");
		assert_true(g_strcmp0(got, cases[i].spec) == 0);
		/* never white space, always valid UTF-8 */
		assert_true(!got || (!strpbrk(got, " \t\n\r\v\f") && g_utf8_validate(got, -1, NULL)));
	}
}

static void test_context_with_type(void **state)
{
	g_autofree char *a =
		ad_file_context_with_type("staff_u:object_r:user_home_t:s0", "httpd_sys_content_t");
	g_autofree char *b = ad_file_context_with_type("u:r:t:s0-s0:c0.c1023", "x_t");
	g_autofree char *c = ad_file_context_with_type("u:r:t", "x_t");
	g_autofree char *d = ad_file_context_with_type("garbage", "x_t");

	assert_string_equal(a, "staff_u:object_r:httpd_sys_content_t:s0");
	assert_string_equal(b, "u:r:x_t:s0-s0:c0.c1023");
	assert_string_equal(c, "u:r:x_t");
	assert_null(d);
}

static void test_generic_types(void **state)
{
	static const char *const generic[] = {
		"default_t",
		"etc_t",
		"var_t",
		"var_lib_t",
		"usr_t",
		"mnt_t",
		"home_root_t",
		"var_log_t",
		"tmp_t",
	};
	static const char *const specific[] = {
		"shadow_t",
		"httpd_sys_content_t",
		"user_home_t",
		"user_home_dir_t",
		"bin_t",
		"ssh_home_t",
		"admin_home_t",
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(generic); i++) {
		if (!ad_file_type_is_generic(&ctx, generic[i]))
			print_error("%s should be generic\n", generic[i]);
		assert_true(ad_file_type_is_generic(&ctx, generic[i]));
	}
	for (guint i = 0; i < G_N_ELEMENTS(specific); i++) {
		if (ad_file_type_is_generic(&ctx, specific[i]))
			print_error("%s should not be generic\n", specific[i]);
		assert_false(ad_file_type_is_generic(&ctx, specific[i]));
	}
	assert_true(ad_path_is_standard_dir("/etc"));
	assert_true(ad_path_is_standard_dir("/var/lib"));
	assert_false(ad_path_is_standard_dir("/data"));
	assert_false(ad_path_is_standard_dir("/var/lib/app"));
	/* the plugins and the rules engine once disagreed on these */
	assert_true(ad_path_is_standard_dir("/var/www"));
	assert_true(ad_path_is_standard_dir("/usr/local/etc"));
	assert_true(ad_path_is_standard_dir("/home/ann"));
	assert_false(ad_path_is_standard_dir("/home/ann/public_html"));
	assert_false(ad_path_is_standard_dir("/home/"));
}

/* ---------------------------------------------------------------- restorecon */

/* the brief's case: a page moved from a home directory keeps user_home_t */
static void test_restorecon_mislabeled(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL, all = NULL;
	AdSuggestion *r;

	NEED_POLICY();
	d = file_denial(
		"read", "httpd", "httpd_t", "user_home_t", "file", "/var/www/html/index.html");
	s = run_plugin("restorecon", d);
	assert_int_equal(s->len, 1);
	r = nth(s, 0);
	assert_int_equal(r->kind, AD_FIX_RELABEL);
	assert_int_equal(r->level, AD_LEVEL_GREEN);
	assert_true(r->confidence >= 0.9);
	assert_int_equal(r->commands->len, 1);
	assert_command(r, 0, "restorecon", "-v", "--", "/var/www/html/index.html", NULL);
	assert_non_null(strstr(r->if_text, "httpd_sys_content_t"));
	assert_non_null(strstr(r->then_text, "fixes the denial"));

	/* ranked first among everything, above flipping httpd_read_user_content */
	all = run_all(d);
	assert_string_equal(nth(all, 0)->plugin, "restorecon");
	assert_non_null(find_plugin(all, "boolean"));
	assert_null(find_plugin(all, "fcontext"));
	assert_null(find_plugin(all, "file"));
	assert_int_equal(ad_suggestions_level(all), AD_LEVEL_GREEN);
}

/* the label already matches file_contexts: no relabel from anyone, a note instead */
static void test_restorecon_label_right(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL, all = NULL;

	NEED_POLICY();
	d = file_denial("write", "httpd", "httpd_t", "httpd_sys_content_t", "file",
		"/var/www/html/index.html");
	s = run_plugin("restorecon", d);
	assert_int_equal(s->len, 1);
	assert_int_equal(nth(s, 0)->kind, AD_FIX_INFO);
	assert_int_equal(nth(s, 0)->commands->len, 0);
	assert_true(nth(s, 0)->confidence < 0.1);
	assert_non_null(strstr(nth(s, 0)->then_text, "already"));
	all = run_all(d);
	assert_false(any_kind(all, AD_FIX_RELABEL));
	/* httpd_sys_content_t is not generic: no file context for web content either */
	assert_null(find_plugin(all, "fcontext"));
}

/* crafted 101: httpd_t reading /etc/shadow; shadow_t is right, a relabel is not the answer */
static void test_crafted_shadow(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) all = NULL;
	g_autofree char *path = NULL;

	NEED_POLICY();
	d = crafted(101);
	path = ad_denial_path_str(d);
	assert_string_equal(path, "/etc/shadow");
	all = run_all(d);
	assert_true(all->len > 0);
	assert_false(any_kind(all, AD_FIX_RELABEL));
	assert_false(any_kind(all, AD_FIX_FCONTEXT));
	assert_int_not_equal(nth(all, 0)->kind, AD_FIX_RELABEL);
	assert_non_null(find_plugin(all, "restorecon"));
	assert_int_equal(find_plugin(all, "restorecon")->kind, AD_FIX_INFO);
	for (const char *const *id = (const char *const[]){"file", "fcontext", "associate",
		     "mounton", "device", "restorecon_source", NULL};
		*id; id++)
		assert_null(find_plugin(all, *id));
}

/* crafted 103 and 105: no path in the record (name= only) → nothing file-label */
static void test_crafted_no_path(void **state)
{
	static const guint64 serials[] = {102, 103, 105, 110};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(serials); i++) {
		g_autoptr(AdDenial) d = crafted(serials[i]);
		g_autoptr(GPtrArray) all = run_all(d);

		assert_false(any_kind(all, AD_FIX_RELABEL));
		assert_false(any_kind(all, AD_FIX_FCONTEXT));
		assert_null(find_plugin(all, "restorecon"));
	}
}

/* a hostile name stays one argument, after "--", and survives the shell rendering */
static void test_restorecon_hostile_path(void **state)
{
	static const char *const paths[] = {
		"/var/www/html/$(touch /tmp/pwned);x",
		"/var/www/html/`id`;x';id;'",
		"/var/www/html/-rf",
		"/var/www/html/a;id;b",
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(paths); i++) {
		g_autofree char *h = hex(paths[i], strlen(paths[i]));
		g_autofree char *text =
			file_event(901, "read", "httpd", "system_u:system_r:httpd_t:s0",
				"staff_u:object_r:user_home_t:s0", "file", h, NULL);
		g_autoptr(AdDenial) d = one_denial(text);
		g_autoptr(GPtrArray) s = run_plugin("restorecon", d);
		g_autofree char *line = NULL;
		g_autofree char *quoted = ad_shell_quote(paths[i]);
		char **argv;

		assert_int_equal(s->len, 1);
		assert_command(nth(s, 0), 0, "restorecon", "-v", "--", paths[i], NULL);
		argv = g_ptr_array_index(nth(s, 0)->commands, 0);
		line = ad_shell_join((const char *const *)argv);
		assert_true(g_str_has_suffix(line, quoted));
		assert_true(g_str_has_prefix(line, "restorecon -v -- "));
	}
}

/* a newline (hex-encoded name): one exact argument, never split into two lines' worth */
static void test_restorecon_newline_path(void **state)
{
	static const char path[] = "/var/www/html/a\ntype=AVC msg=audit(1:2): x.html";
	g_autofree char *h = hex(path, strlen(path));
	g_autofree char *text = NULL;
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL;
	g_autoptr(GPtrArray) all = NULL;

	NEED_POLICY();
	text = file_event(902, "read", "httpd", "system_u:system_r:httpd_t:s0",
		"staff_u:object_r:user_home_t:s0", "file", h, NULL);
	d = one_denial(text);
	s = run_plugin("restorecon", d);
	for (guint i = 0; i < s->len; i++) {
		for (guint j = 0; j < nth(s, i)->commands->len; j++) {
			char **argv = g_ptr_array_index(nth(s, i)->commands, j);

			assert_int_equal(g_strv_length(argv), 4);
			assert_string_equal(argv[3], path);
		}
	}
	/* and whatever every plugin offers keeps the bytes in one argument */
	all = run_all(d);
	for (guint i = 0; i < all->len; i++) {
		for (guint j = 0; j < nth(all, i)->commands->len; j++) {
			char **argv = g_ptr_array_index(nth(all, i)->commands, j);

			for (guint k = 0; argv[k]; k++)
				if (strchr(argv[k], '\n'))
					assert_string_equal(argv[k], path);
		}
	}
}

/* paths restorecon must not touch, and labels it cannot change */
static void test_restorecon_skips(void **state)
{
	static const struct {
		const char *ttype, *tclass, *path, *perms;
	} cases[] = {
		{"user_home_t", "file", "/proc/1/environ", "read"},
		{"user_home_t", "file", "/sys/kernel/x", "read"},
		{"user_home_t", "file", "/var/www/html/../../etc/x", "read"},
		{"user_home_t", "file", "/var/www/html/x (deleted)", "read"},
		{"nfs_t", "file", "/var/www/html/index.html", "read"},
		{"cifs_t", "file", "/var/www/html/index.html", "read"},
		{"user_home_t", "file", "/var/www/html/index.html", "create"},
		{"user_home_t", "file", "/var/www/html/index.html", "relabelto"},
		{"user_home_t", "file", "/tmp/x", "read"}, /* <<none>> in file_contexts */
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(AdDenial) d = file_denial(cases[i].perms, "httpd", "httpd_t",
			cases[i].ttype, cases[i].tclass, cases[i].path);
		g_autoptr(GPtrArray) s = run_plugin("restorecon", d);

		if (s->len)
			print_error("case %u (%s) matched\n", i, cases[i].path);
		assert_int_equal(s->len, 0);
	}
}

/* a relative name with no CWD record: no path to relabel */
static void test_restorecon_relative(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL;

	NEED_POLICY();
	d = one_denial("type=AVC msg=audit(1700000150.000:940): avc:  denied  { read } for  "
		       "pid=1 comm=\"httpd\" name=\"index.html\" dev=\"sda1\" ino=5 "
		       "scontext=system_u:system_r:httpd_t:s0 "
		       "tcontext=staff_u:object_r:user_home_t:s0 tclass=file permissive=0\n"
		       "type=PATH msg=audit(1700000150.000:940): item=0 name=\"index.html\" "
		       "inode=5 dev=08:01 mode=0100644 obj=staff_u:object_r:user_home_t:s0 "
		       "nametype=NORMAL\n");
	s = run_plugin("restorecon", d);
	assert_int_equal(s->len, 0);
}

/*
 * The expected label would not allow the access either: labels first, the
 * rest worked out on the restored label and offered with the relabel
 * (the booleans httpd_sys_content_t needs, a module on it), never on
 * user_home_t; the whole analysis drops the catchall's module on it.
 */
static void test_restorecon_expected_denied_too(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL, all = NULL;
	AdSuggestion *module = NULL, *boolean = NULL;

	NEED_POLICY();
	/* httpd_t may write httpd_sys_content_t only under three booleans */
	d = file_denial(
		"write", "httpd", "httpd_t", "user_home_t", "file", "/var/www/html/index.html");
	assert_int_equal(ad_file_verdict_as(&ctx, d, "httpd_sys_content_t")->reason,
			 AD_REASON_BOOLEAN);
	s = run_plugin("restorecon", d);
	for (guint i = 0; i < s->len; i++) {
		AdSuggestion *x = nth(s, i);

		assert_string_equal(x->base_type, "httpd_sys_content_t");
		if (x->kind == AD_FIX_MODULE)
			module = x;
		else if (x->kind == AD_FIX_RELABEL)
			boolean = x;
	}
	assert_non_null(boolean);
	assert_string_equal(boolean->new_type, "httpd_sys_content_t");
	assert_command(boolean, 0, "restorecon", "-v", "--", "/var/www/html/index.html", NULL);
	assert_command(boolean, 1, "setsebool", "-P", "httpd_builtin_scripting=1",
		       "httpd_enable_cgi=1", "httpd_unified=1", NULL);
	assert_non_null(module);
	assert_true(module->adds_rules);
	assert_string_equal(module->new_type, "httpd_sys_content_t");
	assert_command(module, 0, "restorecon", "-v", "--", "/var/www/html/index.html", NULL);
	assert_string_equal(((char **)g_ptr_array_index(module->commands, 1))[5],
			    "httpd_sys_content_t");

	all = run_all(d);
	assert_true(all->len >= 2);
	/* proved as a whole, and nothing on the wrong label */
	assert_int_equal(nth(all, 0)->proof, AD_PROOF_OK);
	assert_non_null(nth(all, 0)->new_type);
	for (guint i = 0; i < all->len; i++)
		assert_false(nth(all, i)->adds_rules && !nth(all, i)->new_type);
}

/* a mislabeled directory: the directory and what is in it */
static void test_restorecon_dir(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL;

	NEED_POLICY();
	d = file_denial("search", "sshd", "sshd_t", "user_home_t", "dir", "/root/.ssh");
	s = run_plugin("restorecon", d);
	assert_int_equal(s->len, 1);
	assert_command(nth(s, 0), 0, "restorecon", "-R", "-v", "--", "/root/.ssh", NULL);
	assert_non_null(strstr(nth(s, 0)->if_text, "ssh_home_t"));
}

/*
 * setroubleshoot's sshd_root, computed from file_contexts by restorecon:
 * Debian's refpolicy labels root's files user_home_t (Fedora: admin_home_t)
 */
static void test_sshd_root(void **state)
{
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) all = NULL, s2 = NULL;

	NEED_POLICY();
	d = file_denial(
		"read", "sshd", "sshd_t", "user_home_t", "file", "/root/.ssh/authorized_keys");
	all = run_all(d);
	assert_string_equal(nth(all, 0)->plugin, "restorecon");
	assert_int_equal(nth(all, 0)->kind, AD_FIX_RELABEL);
	assert_true(nth(all, 0)->confidence >= 0.9);
	assert_command(
		nth(all, 0), 0, "restorecon", "-v", "--", "/root/.ssh/authorized_keys", NULL);

	/* Fedora's admin_home_t is not defined here: still a relabel, with less confidence */
	d2 = file_denial(
		"read", "sshd", "sshd_t", "admin_home_t", "file", "/root/.ssh/authorized_keys");
	s2 = run_plugin("restorecon", d2);
	assert_int_equal(s2->len, 1);
	assert_true(nth(s2, 0)->confidence <= 0.5);
	assert_non_null(strstr(nth(s2, 0)->then_text, "not defined in this policy"));
}

/* a mislabeled device node (file_contexts knows it) is restorecon's */
static void test_restorecon_device_node(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) all = NULL;

	NEED_POLICY();
	d = file_denial("read", "agetty", "getty_t", "device_t", "chr_file", "/dev/ttyS0");
	all = run_all(d);
	assert_string_equal(nth(all, 0)->plugin, "restorecon");
	assert_true(nth(all, 0)->confidence >= 0.9);
	assert_command(nth(all, 0), 0, "restorecon", "-v", "--", "/dev/ttyS0", NULL);
	assert_null(find_plugin(all, "device"));
}

/* ---------------------------------------------------------------- file (unlabeled) */

static void test_file_unlabeled(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL, all = NULL;

	NEED_POLICY();
	d = file_denial(
		"read", "httpd", "httpd_t", "unlabeled_t", "file", "/var/www/html/index.html");
	s = run_plugin("file", d);
	assert_int_equal(s->len, 2);
	assert_int_equal(nth(s, 0)->kind, AD_FIX_RELABEL);
	assert_true(nth(s, 0)->confidence > 0.65 && nth(s, 0)->confidence < 0.75);
	assert_command(
		nth(s, 0), 0, "restorecon", "-R", "-v", "--", "/var/www/html/index.html", NULL);
	assert_true(nth(s, 1)->confidence > 0.25 && nth(s, 1)->confidence < 0.35);
	assert_int_equal(nth(s, 1)->commands->len, 2);
	assert_command(nth(s, 1), 0, "touch", "/.autorelabel", NULL);
	assert_command(nth(s, 1), 1, "reboot", NULL);
	assert_non_null(strstr(nth(s, 1)->then_text, "next boot"));
	/* restorecon leaves unlabeled targets to this plugin: one relabel row, not two */
	all = run_all(d);
	assert_null(find_plugin(all, "restorecon"));
	assert_string_equal(nth(all, 0)->plugin, "file");
}

/* no path: only the full relabel */
static void test_file_unlabeled_no_path(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL;

	NEED_POLICY();
	d = one_denial("type=AVC msg=audit(1700000200.000:950): avc:  denied  { read } for  "
		       "pid=1 comm=\"httpd\" name=\"x\" dev=\"sda1\" ino=5 "
		       "scontext=system_u:system_r:httpd_t:s0 "
		       "tcontext=system_u:object_r:unlabeled_t:s0 tclass=file permissive=0\n");
	s = run_plugin("file", d);
	assert_int_equal(s->len, 1);
	assert_command(nth(s, 0), 0, "touch", "/.autorelabel", NULL);
	assert_command(nth(s, 0), 1, "reboot", NULL);
}

/* ---------------------------------------------------------------- fcontext */

static void test_fcontext_data_dir(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL, all = NULL;
	AdSuggestion *f;

	NEED_POLICY();
	d = file_denial("read", "httpd", "httpd_t", "default_t", "file", "/data/www/index.html");
	s = run_plugin("fcontext", d);
	assert_int_equal(s->len, 1);
	f = nth(s, 0);
	assert_int_equal(f->kind, AD_FIX_FCONTEXT);
	assert_true(f->confidence >= 0.4 && f->confidence <= 0.6);
	assert_int_equal(f->commands->len, 2);
	assert_command(f, 0, "semanage", "fcontext", "-a", "-t", "httpd_sys_content_t", "--",
		"/data/www(/.*)?", NULL);
	assert_command(f, 1, "restorecon", "-R", "-v", "--", "/data/www", NULL);
	/* the other candidates are listed */
	assert_non_null(strstr(f->then_text, "Other types"));
	assert_non_null(strstr(f->then_text, "default_t"));
	/* restorecon says the label is right; no relabel offered */
	all = run_all(d);
	assert_false(any_kind(all, AD_FIX_RELABEL));
	assert_string_equal(nth(all, 0)->plugin, "fcontext");
}

/* metacharacters of the path are escaped in the specification */
static void test_fcontext_escape(void **state)
{
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL;

	NEED_POLICY();
	d = file_denial(
		"read", "httpd", "httpd_t", "default_t", "file", "/data/my.site+x/index.html");
	s = run_plugin("fcontext", d);
	assert_int_equal(s->len, 1);
	assert_command(nth(s, 0), 0, "semanage", "fcontext", "-a", "-t", "httpd_sys_content_t",
		"--", "/data/my\\.site\\+x(/.*)?", NULL);
	assert_command(nth(s, 0), 1, "restorecon", "-R", "-v", "--", "/data/my.site+x", NULL);
}

/* writes need a writable type; a file right under a standard directory is labeled alone */
static void test_fcontext_write_and_standard_parent(void **state)
{
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL;
	char **argv;

	NEED_POLICY();
	d = file_denial("write", "httpd", "httpd_t", "var_lib_t", "file", "/var/lib/app/db");
	s = run_plugin("fcontext", d);
	assert_int_equal(s->len, 1);
	argv = g_ptr_array_index(nth(s, 0)->commands, 0);
	/* a type of httpd's own that file_contexts uses under /var/lib */
	assert_string_equal(argv[4], "httpd_var_lib_t");
	assert_string_equal(argv[6], "/var/lib/app(/.*)?");
	assert_command(nth(s, 0), 1, "restorecon", "-R", "-v", "--", "/var/lib/app", NULL);

	d2 = file_denial("write", "httpd", "httpd_t", "var_lib_t", "file", "/var/lib/app.db");
	s2 = run_plugin("fcontext", d2);
	assert_int_equal(s2->len, 1);
	argv = g_ptr_array_index(nth(s2, 0)->commands, 0);
	assert_string_equal(argv[6], "/var/lib/app\\.db");
	assert_command(nth(s2, 0), 1, "restorecon", "-v", "--", "/var/lib/app.db", NULL);
}

/* not for specific types, standard directories, transitions or wrong labels */
static void test_fcontext_skips(void **state)
{
	static const struct {
		const char *perms, *ttype, *tclass, *path;
	} cases[] = {
		{"read", "shadow_t", "file", "/etc/shadow"},
		{"write", "httpd_sys_content_t", "file", "/var/www/html/index.html"},
		{"read", "etc_t", "dir", "/etc"},
		{"read", "user_home_t", "file", "/var/www/html/index.html"}, /* restorecon's */
		{"entrypoint", "default_t", "file", "/data/x"},
		{"execute_no_trans", "default_t", "file", "/data/x"},
		{"read", "default_t", "chr_file", "/data/x"},
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(AdDenial) d = file_denial(cases[i].perms, "httpd", "httpd_t",
			cases[i].ttype, cases[i].tclass, cases[i].path);
		g_autoptr(GPtrArray) s = run_plugin("fcontext", d);

		if (s->len)
			print_error("case %u (%s) matched\n", i, cases[i].path);
		assert_int_equal(s->len, 0);
	}
}

/* a control byte: no file context can name it, so no command, but the advice stands */
static void test_fcontext_control_byte(void **state)
{
	static const char path[] = "/data/a\x1b[2Jb/index.html";
	g_autofree char *h = hex(path, strlen(path));
	g_autofree char *text = NULL;
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL;

	NEED_POLICY();
	text = file_event(903, "read", "httpd", "system_u:system_r:httpd_t:s0",
		"system_u:object_r:default_t:s0", "file", h, NULL);
	d = one_denial(text);
	s = run_plugin("fcontext", d);
	assert_int_equal(s->len, 1);
	assert_int_equal(nth(s, 0)->commands->len, 0);
	assert_non_null(strstr(nth(s, 0)->then_text, "control characters"));
	/* texts are valid UTF-8 (escaped where shown) */
	assert_true(g_utf8_validate(nth(s, 0)->if_text, -1, NULL));
}

/* a name that is not UTF-8: exact bytes in the command, escaped in the texts */
static void test_invalid_utf8_path(void **state)
{
	static const char path[] = "/var/www/html/caf\xe9\xff.html";
	g_autofree char *h = hex(path, strlen(path));
	g_autofree char *text = NULL;
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL;

	NEED_POLICY();
	text = file_event(904, "read", "httpd", "system_u:system_r:httpd_t:s0",
		"staff_u:object_r:user_home_t:s0", "file", h, NULL);
	d = one_denial(text);
	s = run_plugin("restorecon", d);
	assert_int_equal(s->len, 1);
	assert_command(nth(s, 0), 0, "restorecon", "-v", "--", path, NULL);
	assert_true(g_utf8_validate(nth(s, 0)->if_text, -1, NULL));
	assert_non_null(strstr(nth(s, 0)->if_text, "caf\\xe9\\xff.html"));
}

/* ---------------------------------------------------------------- associate */

static void test_associate_not_a_file_type(void **state)
{
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL;

	NEED_POLICY();
	/* chcon -t httpd_t index.html: the file's new label is the source of associate */
	d = one_denial("type=AVC msg=audit(1700000300.000:960): avc:  denied  { associate } for  "
		       "pid=1 comm=\"chcon\" name=\"index.html\" dev=\"sda1\" ino=7 "
		       "scontext=unconfined_u:object_r:httpd_t:s0 "
		       "tcontext=system_u:object_r:fs_t:s0 tclass=filesystem permissive=0\n");
	s = run_plugin("associate", d);
	assert_int_equal(s->len, 1);
	assert_int_equal(nth(s, 0)->kind, AD_FIX_CONFIG);
	assert_non_null(strstr(nth(s, 0)->then_text, "file_type"));
	assert_command(nth(s, 0), 0, "seinfo", "-a", "file_type", "-x", NULL);

	/* relabelto a domain type */
	d2 = file_denial("relabelto", "chcon", "unconfined_t", "httpd_t", "file",
		"/var/www/html/index.html");
	s2 = run_plugin("associate", d2);
	assert_int_equal(s2->len, 1);
	assert_non_null(strstr(nth(s2, 0)->if_text, "httpd_t"));
}

static void test_associate_filesystem_label(void **state)
{
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL;

	NEED_POLICY();
	/* a copy kept the label of the file system it came from (tracefs_t) */
	d = one_denial("type=AVC msg=audit(1700000300.000:961): avc:  denied  { associate } for  "
		       "pid=1 comm=\"cp\" name=\"x\" dev=\"sda1\" ino=8 "
		       "scontext=system_u:object_r:tracefs_t:s0 "
		       "tcontext=system_u:object_r:fs_t:s0 tclass=filesystem permissive=0\n");
	s = run_plugin("associate", d);
	assert_int_equal(s->len, 1);
	assert_int_equal(nth(s, 0)->kind, AD_FIX_CONFIG);
	assert_non_null(strstr(nth(s, 0)->then_text, "cp -a"));
	assert_int_equal(nth(s, 0)->commands->len, 0);

	/* a file type that may not go on this file system: not this plugin's */
	d2 = one_denial("type=AVC msg=audit(1700000300.000:962): avc:  denied  { associate } "
			"for  pid=1 comm=\"cp\" name=\"x\" dev=\"sda1\" ino=9 "
			"scontext=system_u:object_r:httpd_sys_content_t:s0 "
			"tcontext=system_u:object_r:fs_t:s0 tclass=filesystem permissive=0\n");
	s2 = run_plugin("associate", d2);
	assert_int_equal(s2->len, 0);
}

/* ---------------------------------------------------------------- mounton, swap, device */

static void test_mounton(void **state)
{
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL, all = NULL;

	NEED_POLICY();
	d = file_denial("mounton", "glusterd", "glusterd_t", "default_t", "dir", "/data/brick");
	s = run_plugin("mounton", d);
	assert_int_equal(s->len, 1);
	assert_int_equal(nth(s, 0)->kind, AD_FIX_FCONTEXT);
	/* only the mount point: no (/.*)? */
	assert_command(nth(s, 0), 0, "semanage", "fcontext", "-a", "-t", "mnt_t", "--",
		"/data/brick", NULL);
	assert_command(nth(s, 0), 1, "restorecon", "-v", "--", "/data/brick", NULL);
	all = run_all(d);
	assert_null(find_plugin(all, "fcontext"));
	assert_string_equal(nth(all, 0)->plugin, "mounton");

	/* never on a standard directory */
	d2 = file_denial("mounton", "glusterd", "glusterd_t", "var_lib_t", "dir", "/var/lib");
	s2 = run_plugin("mounton", d2);
	assert_int_equal(s2->len, 0);
}

/* swap files are the rules' ([swapfile]): the generic file context stays quiet */
static void test_fcontext_quiet_on_swap(void **state)
{
	g_autofree char *text = NULL, *text2 = NULL;
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL;

	NEED_POLICY();
	/* x86_64 syscall 167 is swapon */
	text = file_event(970, "read write", "swapon", "system_u:system_r:fsadm_t:s0",
		"system_u:object_r:default_t:s0", "file", "\"/swapfile\"", "167");
	d = one_denial(text);
	assert_string_equal(d->syscall, "swapon");
	s = run_plugin("fcontext", d);
	assert_int_equal(s->len, 0);
	/* mkswap opens it (openat): known by its command */
	text2 = file_event(971, "write", "mkswap", "system_u:system_r:fsadm_t:s0",
		"system_u:object_r:default_t:s0", "file", "\"/swapfile\"", NULL);
	d2 = one_denial(text2);
	s2 = run_plugin("fcontext", d2);
	assert_int_equal(s2->len, 0);
}

static void test_device(void **state)
{
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL;

	NEED_POLICY();
	d = file_denial(
		"read write", "httpd", "httpd_t", "device_t", "chr_file", "/dev/frobnicator0");
	s = run_plugin("device", d);
	assert_int_equal(s->len, 1);
	/* a type to choose by hand (with the command listing them), a label, or a bug */
	assert_true(nth(s, 0)->kind == AD_FIX_CONFIG || nth(s, 0)->kind == AD_FIX_FCONTEXT ||
		    nth(s, 0)->kind == AD_FIX_REPORT_BUG);
	assert_non_null(strstr(nth(s, 0)->then_text, "device_t"));
	assert_null(strstr(nth(s, 0)->then_text, "TYPE"));

	/* ptys are not offered: devpts labels them, not file_contexts */
	assert_null(strstr(nth(s, 0)->then_text, "devpts_t"));

	/* a known node with the wrong label is restorecon's, not this plugin's */
	d2 = file_denial("read", "agetty", "getty_t", "device_t", "chr_file", "/dev/ttyS0");
	s2 = run_plugin("device", d2);
	assert_int_equal(s2->len, 0);
}

/* ---------------------------------------------------------------- restorecon_source */

/*
 * The program's own label is wrong: logrotate labeled bin_t runs in cron's
 * domain instead of logrotate_t.  Written for the case: the PATH record of
 * the program (as an execve event has it) beside the object's.
 */
static const char logrotate_event[] =
	"type=AVC msg=audit(1700000400.000:980): avc:  denied  { %s } for  pid=9 "
	"comm=\"logrotate\" name=\"access.log\" dev=\"sda1\" ino=78 "
	"scontext=system_u:system_r:%s:s0 tcontext=system_u:object_r:httpd_log_t:s0 "
	"tclass=file permissive=0\n"
	"type=SYSCALL msg=audit(1700000400.000:980): arch=c000003e syscall=257 success=no "
	"exit=-13 a0=3 a1=0 a2=0 a3=0 items=2 ppid=1 pid=9 auid=4294967295 uid=0 gid=0 "
	"euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=4294967295 "
	"comm=\"logrotate\" exe=\"/usr/sbin/logrotate\" subj=system_u:system_r:%s:s0 "
	"key=(null)\n"
	"type=CWD msg=audit(1700000400.000:980): cwd=\"/\"\n"
	"type=PATH msg=audit(1700000400.000:980): item=0 name=\"/usr/sbin/logrotate\" "
	"inode=77 dev=08:01 mode=0100755 ouid=0 ogid=0 rdev=00:00 "
	"obj=system_u:object_r:bin_t:s0 nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 "
	"cap_fver=0 cap_frootid=0\n"
	"type=PATH msg=audit(1700000400.000:980): item=1 name=\"/var/log/apache2/access.log\" "
	"inode=78 dev=08:01 mode=0100644 ouid=0 ogid=0 rdev=00:00 "
	"obj=system_u:object_r:httpd_log_t:s0 nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 "
	"cap_fver=0 cap_frootid=0\n";

static void test_restorecon_source(void **state)
{
	g_autofree char *text = NULL, *text2 = NULL;
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL, all = NULL;

	NEED_POLICY();
	text = g_strdup_printf(logrotate_event, "write", "system_cronjob_t", "system_cronjob_t");
	d = one_denial(text);
	s = run_plugin("restorecon_source", d);
	assert_int_equal(s->len, 1);
	assert_int_equal(nth(s, 0)->kind, AD_FIX_RELABEL);
	assert_int_equal(nth(s, 0)->level, AD_LEVEL_GREEN);
	assert_true(nth(s, 0)->confidence >= 0.7);
	assert_command(nth(s, 0), 0, "restorecon", "-v", "--", "/usr/sbin/logrotate", NULL);
	assert_non_null(strstr(nth(s, 0)->if_text, "logrotate_exec_t"));
	assert_non_null(strstr(nth(s, 0)->if_text, "bin_t"));
	/* the target's label is right: no relabel of the log */
	all = run_all(d);
	assert_string_equal(nth(all, 0)->plugin, "restorecon_source");

	/* already in the program's own domain: the label matters less here */
	text2 = g_strdup_printf(logrotate_event, "watch", "logrotate_t", "logrotate_t");
	d2 = one_denial(text2);
	s2 = run_plugin("restorecon_source", d2);
	assert_int_equal(s2->len, 1);
	assert_true(nth(s2, 0)->confidence < 0.5);
}

/* without the program's label in the record (and not on this host) nothing is guessed */
static void test_restorecon_source_unknown_label(void **state)
{
	g_autoptr(AdDenial) d = NULL, d2 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL;

	NEED_POLICY();
	d = crafted(101);
	s = run_plugin("restorecon_source", d);
	assert_int_equal(s->len, 0);
	/* the exe's label right: nothing either */
	d2 = file_denial(
		"read", "httpd", "httpd_t", "user_home_t", "file", "/var/www/html/index.html");
	s2 = run_plugin("restorecon_source", d2);
	assert_int_equal(s2->len, 0);
}

/* ---------------------------------------------------------------- the whole corpus */

/* every plugin survives every record of the corpus; commands never hold a NUL-split path */
static void test_corpus_smoke(void **state)
{
	static const char *const files[] = {
		"crafted/debian-refpolicy-cases.log",
		"avc-parser-tpm-enforcing.log",
		"selinux-audit2allow-test.log",
		"avc-parser-multi_AVC.log",
		"synthetic/avc-parser-edge_case_stress_test.log",
	};
	const char *dir = g_getenv("AD_CORPUS");

	NEED_POLICY();
	for (guint f = 0; f < G_N_ELEMENTS(files); f++) {
		g_autofree char *path =
			g_build_filename(dir ? dir : "tests/data/corpus", files[f], NULL);
		g_autofree char *text = NULL;
		GPtrArray *denials =
			g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
		g_autoptr(AdReader) r = NULL;

		if (!g_file_get_contents(path, &text, NULL, NULL)) {
			g_ptr_array_unref(denials);
			continue;
		}
		r = ad_reader_new(on_event_lenient, ignore_reader_problem, denials);
		ad_reader_feed(r, text, strlen(text));
		ad_reader_end_source(r);
		for (guint i = 0; i < denials->len; i++) {
			AdDenial *d = g_ptr_array_index(denials, i);
			g_autoptr(GPtrArray) all = NULL;

			if (!d->scontext || !d->tcontext || !d->tclass || !d->perms ||
				!d->perms->len)
				continue;
			all = run_all(d);
			for (guint j = 0; j < all->len; j++)
				assert_true(nth(all, j)->confidence >= 0 &&
					    nth(all, j)->confidence <= 1);
		}
		g_ptr_array_unref(denials);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_path),
		cmocka_unit_test(test_fcontext_spec),
		cmocka_unit_test(test_context_with_type),
		cmocka_unit_test(test_generic_types),
		cmocka_unit_test(test_restorecon_mislabeled),
		cmocka_unit_test(test_restorecon_label_right),
		cmocka_unit_test(test_crafted_shadow),
		cmocka_unit_test(test_crafted_no_path),
		cmocka_unit_test(test_restorecon_hostile_path),
		cmocka_unit_test(test_restorecon_newline_path),
		cmocka_unit_test(test_restorecon_skips),
		cmocka_unit_test(test_restorecon_relative),
		cmocka_unit_test(test_restorecon_expected_denied_too),
		cmocka_unit_test(test_restorecon_dir),
		cmocka_unit_test(test_sshd_root),
		cmocka_unit_test(test_restorecon_device_node),
		cmocka_unit_test(test_file_unlabeled),
		cmocka_unit_test(test_file_unlabeled_no_path),
		cmocka_unit_test(test_fcontext_data_dir),
		cmocka_unit_test(test_fcontext_escape),
		cmocka_unit_test(test_fcontext_write_and_standard_parent),
		cmocka_unit_test(test_fcontext_skips),
		cmocka_unit_test(test_fcontext_control_byte),
		cmocka_unit_test(test_invalid_utf8_path),
		cmocka_unit_test(test_associate_not_a_file_type),
		cmocka_unit_test(test_associate_filesystem_label),
		cmocka_unit_test(test_mounton),
		cmocka_unit_test(test_fcontext_quiet_on_swap),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_restorecon_source),
		cmocka_unit_test(test_restorecon_source_unknown_label),
		cmocka_unit_test(test_corpus_smoke),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
