/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy engine against the real Debian 12 refpolicy
 * (/etc/selinux/default/policy/policy.33): the crafted cases and
 * sepolgen's short.log from the shared corpus, loading and discovery,
 * the caches, and a cross-check of every reason against libsepol's own
 * sepol_compute_av_reason_buffer().  Without that policy file the tests
 * that need it are skipped with a message.
 */
#include "config.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <unistd.h>

#include <cmocka.h>

/* the corpus of real logs in the source tree (ctest sets AD_CORPUS to it too) */
#define AD_TEST_CORPUS AD_SOURCE_DIR "/tests/data/corpus"
#include <gio/gio.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sepol/policydb/services.h>

#include "policy/policy.h"
#include "policy/policy-private.h"
#include "policy/policy-edit.h"

#define REAL_POLICY "/etc/selinux/default/policy/policy.33"

static AdPolicy *pol;

/* ---- helpers -------------------------------------------------------------- */

#define NEED_POLICY()                                                                      \
	do {                                                                               \
		if (!pol) {                                                                \
			print_message("skipped: %s is not available\n", REAL_POLICY);     \
			skip();                                                            \
		}                                                                          \
	} while (0)

/* explain with the permissions given as one space-separated string */
static const AdVerdict *explain(const char *s, const char *t, const char *cls, const char *perms)
{
	g_auto(GStrv) v = g_strsplit(perms, " ", -1);

	return ad_policy_explain(pol, s, t, cls, (const char *const *)v, g_strv_length(v));
}

/* One denial record of the corpus, by serial. */
typedef struct {
	char *scontext, *tcontext, *tclass;
	char **perms;
} Rec;

static void rec_clear(Rec *r)
{
	g_free(r->scontext);
	g_free(r->tcontext);
	g_free(r->tclass);
	g_strfreev(r->perms);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Rec, rec_clear)

/*
 * Finds the AVC/USER_AVC record with @serial in corpus file @file and
 * extracts its contexts, class and permissions; skips the test when the
 * corpus is not there.
 */
static void corpus_record(const char *file, guint serial, Rec *r)
{
	const char *dir = g_getenv("AD_CORPUS");
	g_autofree char *path = NULL, *text = NULL;
	g_autofree char *needle = g_strdup_printf(":%u):", serial);
	g_autoptr(GRegex) re = NULL;
	g_autoptr(GMatchInfo) mi = NULL;
	g_auto(GStrv) lines = NULL;

	if (!dir)
		dir = AD_TEST_CORPUS;
	path = g_build_filename(dir, file, NULL);
	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		print_message("skipped: corpus file %s is not available\n", path);
		skip();
	}
	re = g_regex_new("avc:\\s+(denied|granted)\\s+\\{ ([^}]*) \\}.*"
			 "scontext=(\\S+) tcontext=(\\S+) tclass=(\\S+)",
			 0, 0, NULL);
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		if (!strstr(*l, needle) || !strstr(*l, "avc:"))
			continue;
		g_autofree char *perms = NULL;

		assert_true(g_regex_match(re, *l, 0, &mi));
		perms = g_match_info_fetch(mi, 2);
		r->perms = g_strsplit(perms, " ", -1);
		r->scontext = g_match_info_fetch(mi, 3);
		r->tcontext = g_match_info_fetch(mi, 4);
		r->tclass = g_match_info_fetch(mi, 5);
		return;
	}
	fail_msg("no record %u in %s", serial, path);
}

static const AdVerdict *explain_rec(const char *file, guint serial)
{
	g_auto(Rec) r = { 0 };

	corpus_record(file, serial, &r);
	return ad_policy_explain(pol, r.scontext, r.tcontext, r.tclass,
				 (const char *const *)r.perms, g_strv_length(r.perms));
}

#define CRAFTED "crafted/debian-refpolicy-cases.log"
#define SHORT "selinux-sepolgen-test_data-short.log"

static gboolean has_string(GPtrArray *a, const char *s)
{
	for (guint i = 0; a && i < a->len; i++)
		if (g_str_equal(a->pdata[i], s))
			return TRUE;
	return FALSE;
}

/* Does some alternative consist of exactly the settings @n1=@v1 (and @n2=@v2)? */
static gboolean has_alternative(const AdVerdict *v, const char *n1, gboolean v1, const char *n2,
				gboolean v2)
{
	for (guint i = 0; i < v->booleans->len; i++) {
		GPtrArray *alt = v->booleans->pdata[i];
		guint want = n2 ? 2 : 1, seen = 0;

		if (alt->len != want)
			continue;
		for (guint j = 0; j < alt->len; j++) {
			AdBoolSetting *s = alt->pdata[j];

			if ((g_str_equal(s->name, n1) && s->value == v1) ||
			    (n2 && g_str_equal(s->name, n2) && s->value == v2))
				seen++;
		}
		if (seen == want)
			return TRUE;
	}
	return FALSE;
}

/* Runs @fn with stderr redirected; returns what was written there. */
static char *capture_stderr(void (*fn)(void *), void *arg)
{
	g_autofree char *tmpl = g_build_filename(g_get_tmp_dir(), "ad-stderr-XXXXXX", NULL);
	int fd = g_mkstemp(tmpl);
	int saved = dup(STDERR_FILENO);
	char *out = NULL;

	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	assert_true(g_file_get_contents(tmpl, &out, NULL, NULL));
	g_unlink(tmpl);
	return out;
}

/* ---- loading ----------------------------------------------------------------- */

static void test_load_missing(void **state)
{
	g_autoptr(GError) err = NULL;
	AdPolicy *p = ad_policy_load("/nonexistent/dir/policy.33", &err);

	assert_null(p);
	assert_non_null(err);
	assert_true(g_error_matches(err, AD_POLICY_ERROR, AD_POLICY_ERROR_NOT_FOUND));
	assert_non_null(strstr(err->message, "/nonexistent/dir/policy.33"));
}

typedef struct {
	const char *path;
	GError *err;
	AdPolicy *p;
} LoadCall;

static void load_call(void *arg)
{
	LoadCall *c = arg;

	c->p = ad_policy_load(c->path, &c->err);
}

/* Not a policy, empty, a module magic, a truncated policy: errors, no crash, no stderr. */
static void test_load_not_policy(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("ad-policy-XXXXXX", NULL);
	g_autofree char *text = g_build_filename(dir, "text", NULL);
	g_autofree char *empty = g_build_filename(dir, "empty", NULL);
	g_autofree char *module = g_build_filename(dir, "module.pp", NULL);
	g_autofree char *trunc = g_build_filename(dir, "truncated", NULL);
	const guint8 modmagic[] = { 0x8d, 0xff, 0x7c, 0xf9, 0, 0, 0, 0 };
	const char *paths[4];

	assert_true(g_file_set_contents(text, "SELINUX=enforcing\n", -1, NULL));
	assert_true(g_file_set_contents(empty, "", 0, NULL));
	assert_true(g_file_set_contents(module, (const char *)modmagic, sizeof(modmagic), NULL));
	paths[0] = text;
	paths[1] = empty;
	paths[2] = module;
	paths[3] = NULL;
	if (g_file_test(REAL_POLICY, G_FILE_TEST_EXISTS)) {
		g_autofree char *data = NULL;
		gsize len;

		assert_true(g_file_get_contents(REAL_POLICY, &data, &len, NULL));
		assert_true(g_file_set_contents(trunc, data, len / 3, NULL));
		paths[3] = trunc;
	}

	for (guint i = 0; i < G_N_ELEMENTS(paths) && paths[i]; i++) {
		LoadCall c = { paths[i], NULL, NULL };
		g_autofree char *noise = capture_stderr(load_call, &c);

		assert_null(c.p);
		assert_non_null(c.err);
		assert_true(g_error_matches(c.err, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID));
		assert_non_null(strstr(c.err->message, paths[i]));
		assert_string_equal(noise, "");
		g_error_free(c.err);
	}
	g_unlink(text);
	g_unlink(empty);
	g_unlink(module);
	g_unlink(trunc);
	g_rmdir(dir);
}

/* AVCDOCTOR_SELINUX_ROOT: config + policy.31 and policy.33 -> policy.33; error texts. */
static void test_discovery(void **state)
{
	g_autofree char *root = g_dir_make_tmp("ad-selinux-XXXXXX", NULL);
	g_autofree char *config = g_build_filename(root, "config", NULL);
	g_autofree char *pdir = g_build_filename(root, "default", "policy", NULL);
	g_autofree char *p31 = g_build_filename(pdir, "policy.31", NULL);
	g_autofree char *p33 = g_build_filename(pdir, "policy.33", NULL);
	g_autofree char *p4 = g_build_filename(pdir, "policy.4", NULL);
	g_autofree char *junk = g_build_filename(pdir, "policy.33.bak", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(AdPolicy) p = NULL;

	NEED_POLICY();
	assert_int_equal(g_mkdir_with_parents(pdir, 0700), 0);
	g_setenv("AVCDOCTOR_SELINUX_ROOT", root, TRUE);

	/* no config at all */
	p = ad_policy_load(NULL, &err);
	assert_null(p);
	assert_true(g_error_matches(err, AD_POLICY_ERROR, AD_POLICY_ERROR_NOT_FOUND));
	assert_non_null(strstr(err->message, config));
	g_clear_error(&err);

	/* config names a type without policies */
	assert_true(g_file_set_contents(config, "# test\nSELINUX=permissive\nSELINUXTYPE=default\n",
					-1, NULL));
	p = ad_policy_load(NULL, &err);
	assert_null(p);
	assert_non_null(strstr(err->message, "SELINUXTYPE=default"));
	assert_non_null(strstr(err->message, pdir));
	assert_non_null(strstr(err->message, "holds no policy.N"));
	g_clear_error(&err);

	/* the newest of several (numerically: 33 > 31 > 4), and not policy.33.bak */
	assert_int_equal(symlink(REAL_POLICY, p31), 0);
	assert_int_equal(symlink(REAL_POLICY, p33), 0);
	assert_true(g_file_set_contents(p4, "junk", -1, NULL));
	assert_true(g_file_set_contents(junk, "junk", -1, NULL));
	assert_true(g_file_set_contents(config, "SELINUX=permissive\n  SELINUXTYPE = \"default\"\n",
					-1, NULL));
	p = ad_policy_load(NULL, &err);
	assert_null(err);
	assert_non_null(p);
	assert_string_equal(ad_policy_path(p), p33);
	assert_true(ad_policy_is_mls(p));
	/* a second policy object takes its turn with libsepol's global state */
	assert_int_equal(explain("system_u:system_r:httpd_t:s0", "system_u:object_r:shadow_t:s0",
				 "file", "read")->reason,
			 AD_REASON_TE_RULE);
	assert_int_equal(ad_policy_explain(p, "system_u:system_r:httpd_t:s0",
					   "staff_u:object_r:user_home_t:s0", "file",
					   (const char *const[]){ "read" }, 1)->reason,
			 AD_REASON_BOOLEAN);
	g_clear_pointer(&p, ad_policy_free);

	/* config without SELINUXTYPE */
	assert_true(g_file_set_contents(config, "SELINUX=permissive\n", -1, NULL));
	p = ad_policy_load(NULL, &err);
	assert_null(p);
	assert_non_null(strstr(err->message, "SELINUXTYPE"));
	g_clear_error(&err);

	g_unsetenv("AVCDOCTOR_SELINUX_ROOT");
	g_unlink(p31);
	g_unlink(p33);
	g_unlink(p4);
	g_unlink(junk);
	g_unlink(config);
	g_rmdir(pdir);
	g_autofree char *tdir = g_path_get_dirname(pdir);
	g_rmdir(tdir);
	g_rmdir(root);
}

/*
 * booleans.subs_dist above policy/ (Fedora's tree): an old name stands for
 * the boolean it was renamed to, in values, lookups and changes; a line
 * naming a boolean the policy lacks, or renaming one it defines, is none.
 */
static void test_bool_aliases(void **state)
{
	g_autofree char *root = g_dir_make_tmp("avcdoctor-subs-XXXXXX", NULL);
	g_autofree char *pdir = g_build_filename(root, "policy", NULL);
	g_autofree char *p33 = g_build_filename(pdir, "policy.33", NULL);
	g_autofree char *subs = g_build_filename(root, "booleans.subs_dist", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(AdPolicy) p = NULL;
	const char *const read[] = { "read" };

	(void)state;
	NEED_POLICY();
	assert_int_equal(g_mkdir_with_parents(pdir, 0700), 0);
	assert_int_equal(symlink(REAL_POLICY, p33), 0);
	assert_true(g_file_set_contents(subs, "# old new\n"
					"allow_read_user_content  httpd_read_user_content\n"
					"\tallow_gone no_such_boolean_here\n"
					"httpd_enable_cgi httpd_read_user_content\n"
					"lonely\n", -1, NULL));
	p = ad_policy_load(p33, &err);
	assert_null(err);
	assert_non_null(p);
	assert_int_equal(ad_policy_bool_value(p, "allow_read_user_content"), 0);
	assert_string_equal(ad_policy_bool_primary(p, "allow_read_user_content"),
			    "httpd_read_user_content");
	assert_string_equal(ad_policy_bool_primary(p, "httpd_enable_cgi"), "httpd_enable_cgi");
	assert_int_equal(ad_policy_bool_value(p, "allow_gone"), -1);
	assert_null(ad_policy_bool_primary(p, "allow_gone"));
	assert_null(ad_policy_bool_primary(p, "lonely"));
	/* a change by the old name is a change of the new one */
	assert_int_equal(ad_policy_explain(p, "system_u:system_r:httpd_t:s0",
					   "staff_u:object_r:user_home_t:s0", "file", read, 1)->reason,
			 AD_REASON_BOOLEAN);
	ad_policy_whatif_begin(p);
	assert_true(ad_policy_set_boolean(p, "allow_read_user_content", TRUE, &err));
	assert_int_equal(ad_policy_bool_value(p, "httpd_read_user_content"), 1);
	assert_int_equal(ad_policy_explain(p, "system_u:system_r:httpd_t:s0",
					   "staff_u:object_r:user_home_t:s0", "file", read, 1)->reason,
			 AD_REASON_ALLOWED);
	ad_policy_whatif_end(p);
	assert_int_equal(ad_policy_bool_value(p, "allow_read_user_content"), 0);
	g_clear_pointer(&p, ad_policy_free);

	/* the system's policy, without booleans.subs_dist beside it: no aliases */
	g_unlink(p33);
	g_rmdir(pdir);
	g_unlink(subs);
	g_rmdir(root);
	p = ad_policy_load(REAL_POLICY, &err);
	assert_non_null(p);
	assert_int_equal(ad_policy_bool_value(p, "allow_read_user_content"), -1);
}

/* ---- the crafted cases ---------------------------------------------------------- */

static void test_crafted_101_te_rule(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 101);
	assert_int_equal(v->reason, AD_REASON_TE_RULE);
	assert_int_equal(v->reason_bits, SEPOL_COMPUTEAV_TE);
	assert_int_equal(v->perms_missing->len, 1);
	assert_string_equal(v->perms_missing->pdata[0], "read");
	assert_int_equal(v->booleans->len, 0);
	assert_false(v->constraint_too);
	assert_null(v->constraint);
	assert_int_equal(v->unknown->len, 0);
}

static void test_crafted_103_boolean(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 103);
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_false(v->booleans_partial);
	assert_true(has_alternative(v, "httpd_read_user_content", TRUE, NULL, FALSE));
	assert_int_equal(ad_policy_bool_value(pol, "httpd_read_user_content"), 0);
}

static void test_crafted_104_two_alternatives(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 104);
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_true(v->booleans->len >= 2);
	assert_true(has_alternative(v, "httpd_can_network_connect", TRUE, NULL, FALSE));
	assert_true(has_alternative(v, "httpd_can_network_relay", TRUE, NULL, FALSE));
	/* minimal sets only: nobody needs both */
	assert_false(has_alternative(v, "httpd_can_network_connect", TRUE,
				     "httpd_can_network_relay", TRUE));
}

/* audit2why says dontaudit; the rule is under use_samba_home_dirs && cdrecord_read_content */
static void test_crafted_105_combination(void **state)
{
	const AdVerdict *v;
	GPtrArray *alt;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 105);
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_int_equal(v->booleans->len, 1);
	assert_false(v->booleans_partial);
	alt = v->booleans->pdata[0];
	assert_int_equal(alt->len, 2);
	/* sorted by name */
	assert_string_equal(((AdBoolSetting *)alt->pdata[0])->name, "cdrecord_read_content");
	assert_true(((AdBoolSetting *)alt->pdata[0])->value);
	assert_string_equal(((AdBoolSetting *)alt->pdata[1])->name, "use_samba_home_dirs");
	assert_true(((AdBoolSetting *)alt->pdata[1])->value);
}

static void test_crafted_106_constraint(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 106);
	assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
	assert_int_equal(v->reason_bits, SEPOL_COMPUTEAV_CONS);
	assert_non_null(v->constraint);
	assert_non_null(strstr(v->constraint,
			       "the source role staff_r differs from the target role system_r"));
	assert_non_null(v->constraint_expr);
	assert_true(g_str_has_prefix(v->constraint_expr, "constrain process { transition"));
	assert_non_null(strstr(v->constraint_expr, "(r1 == r2 -Fail-)"));
	/* the leaf that holds is not marked */
	assert_non_null(strstr(v->constraint_expr, "(r2 == system_r)"));
	assert_false(v->constraint_too);
	assert_true(has_string(v->perms_missing, "transition"));
}

static void test_crafted_107_granted(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 107);
	assert_int_equal(v->reason, AD_REASON_ALLOWED);
	assert_int_equal(v->reason_bits, 0);
	assert_int_equal(v->perms_missing->len, 0);
}

static void test_crafted_108_unknown_permission(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 108);
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_PERMISSION);
	assert_true(has_string(v->unknown, "permission frobnicate"));
	assert_non_null(strstr(v->detail, "frobnicate"));
	assert_non_null(strstr(v->detail, "class file"));
}

static void test_crafted_109_unknown_class(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 109);
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_CLASS);
	assert_true(has_string(v->unknown, "class nosuchclass"));
}

static void test_crafted_114_unknown_type(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 114);
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_TYPE);
	assert_int_equal(v->unknown->len, 1);
	assert_string_equal(v->unknown->pdata[0], "type foo_t");
	assert_non_null(strstr(v->detail, "the type foo_t is not defined"));
}

static void test_crafted_115_invalid_context(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain_rec(CRAFTED, 115);
	assert_int_equal(v->reason, AD_REASON_INVALID_CONTEXT);
	assert_int_equal(v->unknown->len, 0);
	assert_non_null(strstr(v->detail, "the user staff_u is not authorised for the role "
					  "auditadm_r"));
}

/* audit2why: DONTAUDIT, ALLOW, TERULE and three CONSTRAINT */
static void test_short_log(void **state)
{
	static const struct {
		guint serial;
		AdReason reason;
	} want[] = {
		{ 978, AD_REASON_DONTAUDIT },	{ 979, AD_REASON_ALLOWED },
		{ 980, AD_REASON_TE_RULE },	{ 981, AD_REASON_CONSTRAINT },
		{ 982, AD_REASON_CONSTRAINT },	{ 985, AD_REASON_CONSTRAINT },
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
		const AdVerdict *v = explain_rec(SHORT, want[i].serial);

		if (v->reason != want[i].reason)
			fail_msg("record %u: %s, want %s", want[i].serial, ad_reason_name(v->reason),
				 ad_reason_name(want[i].reason));
		if (want[i].reason == AD_REASON_CONSTRAINT) {
			assert_non_null(strstr(v->constraint, "the source user staff_u differs from "
							      "the target user"));
			assert_non_null(strstr(v->constraint, "user-based access control"));
			assert_non_null(strstr(v->constraint_expr, "(u1 == u2 -Fail-)"));
		}
	}
	/* 981 asks for read and write: both missing */
	const AdVerdict *v = explain_rec(SHORT, 981);

	assert_int_equal(v->perms_missing->len, 2);
	assert_true(has_string(v->perms_missing, "read"));
	assert_true(has_string(v->perms_missing, "write"));
}

/* ---- more verdicts --------------------------------------------------------------- */

/* TE denies, and the UBAC constraint would deny as well */
static void test_constraint_too(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain("staff_u:staff_r:staff_t:s0", "user_u:object_r:user_tmp_t:s0", "file",
		    "mounton");
	assert_int_equal(v->reason, AD_REASON_TE_RULE);
	assert_true(v->constraint_too);
	assert_non_null(strstr(v->constraint, "the source user staff_u differs from the target "
					      "user user_u"));
	/* same types, same user: no constraint problem */
	v = explain("staff_u:staff_r:staff_t:s0", "staff_u:object_r:user_tmp_t:s0", "file",
		    "mounton");
	assert_int_equal(v->reason, AD_REASON_TE_RULE);
	assert_false(v->constraint_too);
	assert_null(v->constraint);
}

/* MCS: svirt_t may only touch images whose categories it dominates */
static void test_mcs_constraint(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain("system_u:system_r:svirt_t:s0:c1,c2", "system_u:object_r:svirt_image_t:s0:c3,c4",
		    "file", "read");
	assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
	assert_non_null(strstr(v->constraint, "the source level s0:c1,c2 does not dominate the "
					      "target level s0:c3,c4"));
	assert_non_null(strstr(v->constraint, "(mcs_constrained_type)"));
	assert_true(g_str_has_prefix(v->constraint_expr, "mlsconstrain file {"));
	assert_non_null(strstr(v->constraint_expr, "(h1 dom h2 -Fail-)"));
	v = explain("system_u:system_r:svirt_t:s0:c1,c2", "system_u:object_r:svirt_image_t:s0:c1,c2",
		    "file", "read");
	assert_int_equal(v->reason, AD_REASON_ALLOWED);
	/* a range of categories is written as one */
	v = explain("system_u:system_r:svirt_t:s0:c1,c2", "system_u:object_r:svirt_image_t:s0:c0.c9",
		    "file", "read");
	assert_non_null(strstr(v->constraint, "the target level s0:c0.c9"));
}

/* booleans that grant read but nothing that grants write: partial */
static void test_boolean_partial(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain("system_u:system_r:httpd_t:s0", "staff_u:object_r:user_home_t:s0", "file",
		    "read write");
	assert_int_not_equal(v->reason, AD_REASON_BOOLEAN);
	assert_true(v->booleans_partial);
	assert_true(has_alternative(v, "httpd_read_user_content", TRUE, NULL, FALSE));
	/* all of read, getattr and open come with the one boolean */
	v = explain("system_u:system_r:httpd_t:s0", "staff_u:object_r:user_home_t:s0", "file",
		    "read getattr open");
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_false(v->booleans_partial);
	assert_int_equal(v->booleans->len, 1);
}

static void test_rbac(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain("root:staff_r:newrole_t:s0", "root:system_r:sysadm_t:s0", "process",
		    "transition");
	assert_int_equal(v->reason, AD_REASON_RBAC);
	assert_int_equal(v->reason_bits, SEPOL_COMPUTEAV_RBAC);
	assert_non_null(strstr(v->detail, "allow staff_r system_r;"));
	/* sysadm_r may change to staff_r */
	v = explain("root:sysadm_r:newrole_t:s0", "root:staff_r:staff_t:s0", "process",
		    "transition");
	assert_int_equal(v->reason, AD_REASON_ALLOWED);
}

/* 2006 logs: no MLS part on an MLS policy */
static void test_context_without_mls(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain("staff_u:staff_r:staff_t", "system_u:object_r:sysctl_fs_t", "file", "read");
	assert_int_equal(v->reason, AD_REASON_TE_RULE);
	assert_non_null(strstr(v->detail, "has no MLS level; s0 was assumed"));
	v = explain("staff_u:staff_r:staff_t", "user_u:object_r:user_tmp_t", "file", "read");
	assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
	assert_null(ad_policy_context_problem(pol, "user_u:user_r:user_t"));
	/* a context that is wrong anyway is still reported as such */
	v = explain("user_u:system_r:user_t", "system_u:object_r:etc_t", "file", "read");
	assert_int_equal(v->reason, AD_REASON_INVALID_CONTEXT);
}

static void test_hex_permissions(void **state)
{
	const AdVerdict *a, *b, *c;

	NEED_POLICY();
	a = explain("system_u:system_r:httpd_t:s0", "system_u:object_r:shadow_t:s0", "file",
		    "read");
	b = explain("system_u:system_r:httpd_t:s0", "system_u:object_r:shadow_t:s0", "file",
		    "0x2");
	/* read is bit 1 of file; the same verdict, shared */
	assert_ptr_equal(a, b);
	c = explain("system_u:system_r:httpd_t:s0", "system_u:object_r:shadow_t:s0", "file",
		    "0x80000000");
	assert_int_equal(c->reason, AD_REASON_UNKNOWN_PERMISSION);
	assert_true(has_string(c->unknown, "permission 0x80000000"));
}

static void test_unknown_names(void **state)
{
	const AdVerdict *v;

	NEED_POLICY();
	v = explain("test_u:x_r:foo_t:s9:c2000", "system_u:object_r:bar_t:s0", "file", "read");
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_TYPE);
	assert_true(has_string(v->unknown, "user test_u"));
	assert_true(has_string(v->unknown, "role x_r"));
	assert_true(has_string(v->unknown, "type foo_t"));
	assert_true(has_string(v->unknown, "level s9"));
	assert_true(has_string(v->unknown, "category c2000"));
	assert_true(has_string(v->unknown, "type bar_t"));
	/* only an MLS level or category missing: its own reason, in text and JSON alike */
	v = explain("system_u:system_r:httpd_t:s0", "system_u:object_r:etc_t:s0:c2000", "file",
		    "read");
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_LEVEL);
	assert_true(has_string(v->unknown, "category c2000"));
	assert_non_null(strstr(v->detail, "the category c2000 is not defined"));
	v = explain("system_u:system_r:httpd_t:s9", "system_u:object_r:etc_t:s0", "file", "read");
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_LEVEL);
	assert_true(has_string(v->unknown, "level s9"));
	/* a type missing as well: the type is what tells another policy */
	v = explain("system_u:system_r:foo_t:s9", "system_u:object_r:etc_t:s0", "file", "read");
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_TYPE);
	/* as in audit2why, the contexts outrank the class; both are listed */
	v = explain("system_u:system_r:foo_t:s0", "system_u:object_r:etc_t:s0", "nosuchclass",
		    "read");
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_TYPE);
	assert_true(has_string(v->unknown, "class nosuchclass"));
	assert_true(has_string(v->unknown, "type foo_t"));
	/* then the class, then the permissions */
	v = explain("system_u:system_r:httpd_t:s0", "system_u:object_r:etc_t:s0", "nosuchclass",
		    "frobnicate");
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_CLASS);
	v = explain("staff_u:auditadm_r:auditadm_t:s0", "system_u:object_r:etc_t:s0", "file",
		    "frobnicate");
	assert_int_equal(v->reason, AD_REASON_INVALID_CONTEXT);
	assert_true(has_string(v->unknown, "permission frobnicate"));
	/*
	 * no permission at all: only an object manager's "Unknown class" notice
	 * names none, and the class is what the policy it ran with lacked
	 */
	v = ad_policy_explain(pol, "system_u:system_r:httpd_t:s0", "system_u:object_r:etc_t:s0",
			      "file", NULL, 0);
	assert_int_equal(v->reason, AD_REASON_UNKNOWN_CLASS);
	assert_true(has_string(v->unknown, "class file"));
}

static void test_context_problem(void **state)
{
	static const struct {
		const char *context;
		const char *problem;	/* substring, NULL: valid */
	} cases[] = {
		{ "staff_u:staff_r:staff_t:s0-s0:c0.c1023", NULL },
		{ "system_u:object_r:etc_t:s0", NULL },
		{ "staff_u:staff_r:httpd_t:s0", "the role staff_r is not authorised for the type "
						"httpd_t" },
		{ "staff_u:auditadm_r:auditadm_t:s0", "the user staff_u is not authorised for the "
						      "role auditadm_r" },
		{ "staff_u:staff_r:staff_t:s0:c5-s0", "the high level s0 does not dominate the low "
						      "level s0:c5" },
		{ "user_u:user_r:user_t:s0:c5", "the level s0:c5 is outside the range s0 of the "
						"user user_u" },
		{ "test_u:staff_r:staff_t:s0", "the user test_u is not defined in this policy" },
		{ "staff_u:staff_r:staff_t:s9", "the level s9 is not defined" },
		{ "staff_u:staff_r:staff_t:s0:c2000", "the category c2000 is not defined" },
		{ "system_u:object_r:domain:s0", "domain is an attribute, not a type" },
		{ "garbage", "not of the form user:role:type" },
		{ "staff_u:staff_r:staff_t:", "its level is empty" },
		{ "staff_u:staff_r:staff_t:s0-", "a level is empty" },
		{ "staff_u:staff_r:staff_t:-s0", "a level is empty" },
		{ "staff_u:staff_r:staff_t:s0:", "has an empty category list" },
		{ "staff_u:staff_r:staff_t:s0:c5.c1", "the category range c5.c1 is reversed" },
		{ "staff_u:staff_r:staff_t:s0:c1,,c2", "is malformed" },
		{ "staff_u:staff_r:staff_t:s0:c1.", "is malformed" },
		{ "::::", "not of the form" },
		{ "", "not of the form" },
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = ad_policy_context_problem(pol, cases[i].context);

		if (!cases[i].problem && got)
			fail_msg("%s: unexpected problem \"%s\"", cases[i].context, got);
		if (cases[i].problem && (!got || !strstr(got, cases[i].problem)))
			fail_msg("%s: got \"%s\", want \"%s\"", cases[i].context,
				 got ? got : "(valid)", cases[i].problem);
	}
}

static void test_lookups(void **state)
{
	NEED_POLICY();
	assert_true(ad_policy_has_type(pol, "httpd_t"));
	assert_false(ad_policy_has_type(pol, "domain"));	/* an attribute */
	assert_false(ad_policy_has_type(pol, "foo_t"));
	assert_false(ad_policy_has_type(pol, NULL));
	assert_true(ad_policy_has_class(pol, "file"));
	assert_false(ad_policy_has_class(pol, "nosuchclass"));
	assert_true(ad_policy_has_perm(pol, "file", "read"));	/* common file perm */
	assert_true(ad_policy_has_perm(pol, "file", "execute_no_trans"));	/* own perm */
	assert_false(ad_policy_has_perm(pol, "file", "frobnicate"));
	assert_false(ad_policy_has_perm(pol, "nosuchclass", "read"));
	assert_int_equal(ad_policy_bool_value(pol, "httpd_read_user_content"), 0);
	assert_int_equal(ad_policy_bool_value(pol, "authlogin_pam"), 1);
	assert_int_equal(ad_policy_bool_value(pol, "no_such_boolean"), -1);
	assert_string_equal(ad_reason_name(AD_REASON_TE_RULE), "te_rule");
	assert_string_equal(ad_reason_name(AD_REASON_INVALID_CONTEXT), "invalid_context");
	assert_string_equal(ad_reason_name(AD_REASON_UNKNOWN_PERMISSION), "unknown_permission");
	assert_string_equal(ad_reason_name(AD_REASON_UNKNOWN_LEVEL), "unknown_level");
}

/* ---- caches ----------------------------------------------------------------------- */

static void test_cache(void **state)
{
	const AdVerdict *a, *b, *c, *d;

	NEED_POLICY();
	a = explain("staff_u:staff_r:staff_t:s0", "user_u:object_r:user_tmp_t:s0", "file",
		    "read write");
	b = explain("staff_u:staff_r:staff_t:s0", "user_u:object_r:user_tmp_t:s0", "file",
		    "read write");
	c = explain("staff_u:staff_r:staff_t:s0", "user_u:object_r:user_tmp_t:s0", "file",
		    "write read read");
	assert_ptr_equal(a, b);
	assert_ptr_equal(a, c);
	d = explain("staff_u:staff_r:staff_t:s0", "user_u:object_r:user_tmp_t:s0", "file", "read");
	assert_ptr_not_equal(a, d);
	assert_int_equal(d->perms_missing->len, 1);
}

static void explain_unknowns(void *arg)
{
	explain("system_u:system_r:foo_t:s0", "system_u:object_r:etc_t:s0", "file", "read");
	explain("system_u:system_r:httpd_t:s0", "system_u:object_r:etc_t:s0", "file", "frob");
	explain("system_u:system_r:httpd_t:s0", "system_u:object_r:etc_t:s0", "nosuch", "read");
	explain("staff_u:auditadm_r:auditadm_t:s0", "system_u:object_r:etc_t:s0", "file", "read");
	g_free(ad_policy_context_problem(pol, "a:b:c:d:e"));
}

/* libsepol complains about every refused name; none of it may reach stderr */
static void test_quiet(void **state)
{
	g_autofree char *noise = NULL;

	NEED_POLICY();
	noise = capture_stderr(explain_unknowns, NULL);
	assert_string_equal(noise, "");
}

/* many distinct MCS pairs: libsepol's sidtab stays bounded */
static void test_sidtab_bounded(void **state)
{
	NEED_POLICY();
	for (guint i = 0; i < 3 * AD_SIDTAB_MAX; i++) {
		g_autofree char *s = g_strdup_printf("system_u:system_r:svirt_t:s0:c%u,c%u", i % 1000,
						     1000 + i / 1000);
		const AdVerdict *v = explain(s, "system_u:object_r:etc_t:s0", "file", "write");

		assert_int_not_equal(v->reason, AD_REASON_INVALID_CONTEXT);
	}
	assert_true(pol->sidtab.nel <= AD_SIDTAB_MAX);
}

/* ---- the engine against libsepol ------------------------------------------------- */

/*
 * Compares one access with libsepol: the reason bits and the missing
 * permissions must be what sepol_compute_av_reason_buffer() says.
 * Returns libsepol's reason bits, or -1 when a context is invalid.
 */
static int crosscheck_one(AdPolicy *p, const char *s, const char *t, const char *cls,
			  const char **perms, guint n)
{
	guint32 allowed = 0;
	guint want_missing = 0;
	const AdVerdict *v;
	sepol_security_class_t c;
	int reason;

	reason = ad_policy_sepol_reason(p, s, t, cls, perms, n, &allowed);
	v = ad_policy_explain(p, s, t, cls, perms, n);
	if (reason < 0) {
		/* libsepol refuses a name: the engine must say which kind */
		assert_true(v->reason >= AD_REASON_UNKNOWN_TYPE);
		assert_int_equal(v->reason_bits, 0);
		return -1;
	}
	if ((guint32)reason != v->reason_bits)
		fail_msg("%s %s %s %s (%u perms): engine bits %x, libsepol %x", s, t, cls, perms[0],
			 n, v->reason_bits, reason);
	assert_int_equal(sepol_string_to_security_class(cls, &c), 0);
	for (guint k = 0; k < n; k++) {
		sepol_access_vector_t bit = 0;

		assert_int_equal(sepol_string_to_av_perm(c, perms[k], &bit), 0);
		if (!(allowed & bit)) {
			want_missing++;
			if (!has_string(v->perms_missing, perms[k]))
				fail_msg("%s %s %s: %s missing for libsepol, not for the engine", s, t,
					 cls, perms[k]);
		}
	}
	assert_int_equal(v->perms_missing->len, want_missing);
	return reason;
}

/*
 * The engine computes TE, constraints and RBAC itself (libsepol 3.4 is too
 * slow per call); this checks it against libsepol on the corpus accesses
 * and a few thousand drawn from contexts of several users, roles, types
 * and levels, half of them asking for permissions TE allows so that the
 * constraint and RBAC checks are reached.
 */
static void test_crosscheck_libsepol(void **state)
{
	static const char *const contexts[] = {
		"system_u:system_r:httpd_t:s0",
		"system_u:system_r:init_t:s0-s0:c0.c1023",
		"system_u:system_r:sshd_t:s0-s0:c0.c1023",
		"system_u:system_r:crond_t:s0-s0:c0.c1023",
		"system_u:system_r:svirt_t:s0:c1,c2",
		"system_u:system_r:svirt_t:s0:c3,c4",
		"system_u:system_r:cupsd_t:s0",
		"system_u:system_r:syslogd_t:s0",
		"system_u:system_r:postfix_master_t:s0",
		"staff_u:staff_r:staff_t:s0-s0:c0.c1023",
		"staff_u:sysadm_r:sysadm_t:s0-s0:c0.c1023",
		"user_u:user_r:user_t:s0",
		"root:staff_r:staff_t:s0",
		"root:staff_r:newrole_t:s0",
		"root:sysadm_r:newrole_t:s0",
		"root:system_r:sysadm_t:s0",
		"unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023",
		"unconfined_u:system_r:unconfined_t:s0",
		"staff_u:staff_r:cdrecord_t:s0",
		"staff_u:staff_r:staff_su_t:s0",
		"system_u:object_r:etc_t:s0",
		"system_u:object_r:shadow_t:s0",
		"staff_u:object_r:user_home_t:s0",
		"user_u:object_r:user_tmp_t:s0",
		"root:object_r:user_home_dir_t:s0",
		"system_u:object_r:cifs_t:s0",
		"system_u:object_r:http_cache_port_t:s0",
		"system_u:object_r:var_log_t:s0:c5",
		"system_u:object_r:svirt_image_t:s0:c3,c4",
		"system_u:object_r:svirt_image_t:s0:c1,c2",
		"system_u:object_r:httpd_sys_content_t:s0",
	};
	static const char *const classes[] = {
		"file", "dir", "process", "tcp_socket", "unix_stream_socket", "capability", "fd",
		"dbus", "chr_file", "sock_file", "lnk_file",
	};
	static const guint crafted[] = { 101, 103, 104, 105, 106, 107, 110, 111 };
	static const guint shortlog[] = { 978, 979, 980, 981, 982, 985 };
	g_autoptr(GRand) rnd = g_rand_new_with_seed(20240611);
	guint checked = 0, denied = 0, cons = 0, rbac = 0;
	const char *rbac_perms[] = { "transition" };
	int r;

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(crafted) + G_N_ELEMENTS(shortlog); i++) {
		g_auto(Rec) rec = { 0 };

		if (i < G_N_ELEMENTS(crafted))
			corpus_record(CRAFTED, crafted[i], &rec);
		else
			corpus_record(SHORT, shortlog[i - G_N_ELEMENTS(crafted)], &rec);
		assert_true(crosscheck_one(pol, rec.scontext, rec.tcontext, rec.tclass,
					   (const char **)rec.perms, g_strv_length(rec.perms)) >= 0);
	}
	/* every access in every corpus file (2006 Fedora logs: many unknown names) */
	{
		const char *dir = g_getenv("AD_CORPUS");
		g_autoptr(GRegex) re = g_regex_new("avc:\\s+(?:denied|granted)\\s+\\{ ([^}]*) \\}"
						   ".*?scontext=(\\S+) tcontext=(\\S+) "
						   "tclass=([a-z0-9_]+)",
						   0, 0, NULL);
		g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
		guint seen = 0, valid = 0;

		if (!dir)
			dir = AD_TEST_CORPUS;
		g_ptr_array_add(files, g_strdup(dir));
		g_ptr_array_add(files, g_build_filename(dir, "crafted", NULL));
		g_ptr_array_add(files, g_build_filename(dir, "synthetic", NULL));
		for (guint d = 0; d < 3; d++) {
			g_autoptr(GDir) gd = g_dir_open(files->pdata[d], 0, NULL);
			const char *name;

			while (gd && (name = g_dir_read_name(gd))) {
				g_autofree char *path = g_build_filename(files->pdata[d], name, NULL);
				g_autofree char *text = NULL;
				g_autoptr(GMatchInfo) mi = NULL;

				if (!g_str_has_suffix(name, ".log") && !g_str_has_suffix(name, ".txt"))
					continue;
				if (!g_file_get_contents(path, &text, NULL, NULL))
					continue;
				g_regex_match(re, text, 0, &mi);
				for (; g_match_info_matches(mi); g_match_info_next(mi, NULL)) {
					g_autofree char *p = g_match_info_fetch(mi, 1);
					g_autofree char *sc = g_match_info_fetch(mi, 2);
					g_autofree char *tc = g_match_info_fetch(mi, 3);
					g_autofree char *cl = g_match_info_fetch(mi, 4);
					g_auto(GStrv) pv = g_strsplit(p, " ", -1);

					if (!g_strv_length(pv) || !*pv[0])
						continue;
					seen++;
					valid += crosscheck_one(pol, sc, tc, cl, (const char **)pv,
								g_strv_length(pv)) >= 0;
				}
			}
		}
		print_message("cross-checked %u corpus accesses, %u with names libsepol knows\n",
			      seen, valid);
		if (seen)
			assert_true(valid > 500);
	}

	r = crosscheck_one(pol, "root:staff_r:newrole_t:s0", "root:system_r:sysadm_t:s0", "process",
			   rbac_perms, 1);
	assert_int_equal(r, SEPOL_COMPUTEAV_RBAC);

	for (guint round = 0; round < 6000; round++) {
		const char *s = contexts[g_rand_int_range(rnd, 0, G_N_ELEMENTS(contexts))];
		const char *t = contexts[g_rand_int_range(rnd, 0, G_N_ELEMENTS(contexts))];
		const char *cls = classes[g_rand_int_range(rnd, 0, G_N_ELEMENTS(classes))];
		const AdContextInfo *si, *ti;
		guint32 pool = 0xffffffff, requested = 0;
		const char *perms[4];
		guint n = 0, c;

		if (!ad_policy_has_class(pol, cls))
			continue;
		c = ((class_datum_t *)hashtab_search(pol->db.p_classes.table, cls))->s.value;
		if (round % 7 == 0)
			t = s;
		si = ad_context_lookup(pol, s);
		ti = ad_context_lookup(pol, t);
		if (round % 2 && si->ok && ti->ok) {
			guint32 te = ad_te_lookup(pol, si->ctx.type, ti->ctx.type, c)->allowed;

			if (te)
				pool = te;
		}
		for (guint k = 0, want = g_rand_int_range(rnd, 1, 4); k < 64 && n < want; k++) {
			guint bit = g_rand_int_range(rnd, 0, 32);
			const char *name = ad_policy_perm_name(pol, c, bit);

			if (!name || !(pool & (1u << bit)) || (requested & (1u << bit)))
				continue;
			requested |= 1u << bit;
			perms[n++] = name;
		}
		if (!n)
			continue;
		r = crosscheck_one(pol, s, t, cls, perms, n);
		if (r < 0)
			continue;
		checked++;
		denied += r != 0;
		cons += (r & SEPOL_COMPUTEAV_CONS) != 0;
		rbac += (r & SEPOL_COMPUTEAV_RBAC) != 0;
	}
	print_message("cross-checked %u drawn accesses with libsepol: %u denied, %u by a "
		      "constraint, %u by RBAC\n",
		      checked, denied, cons, rbac);
	assert_true(checked > 3000);
	assert_true(denied > 0 && denied < checked);
	assert_true(cons > 20);
}

/* ---- roles, attributes, allowed types ----------------------------------------------- */

/* The context of a SELINUX_ERR "invalid context" record of the corpus, by serial. */
static char *corpus_invalid_context(const char *file, guint serial)
{
	const char *dir = g_getenv("AD_CORPUS");
	g_autofree char *path = NULL, *text = NULL;
	g_autofree char *needle = g_strdup_printf(":%u):", serial);
	g_auto(GStrv) lines = NULL;

	if (!dir)
		dir = AD_TEST_CORPUS;
	path = g_build_filename(dir, file, NULL);
	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		print_message("skipped: corpus file %s is not available\n", path);
		skip();
	}
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		const char *at = strstr(*l, "invalid context ");
		const char *end;

		if (!strstr(*l, needle) || !at)
			continue;
		at += strlen("invalid context ");
		end = strchr(at, ' ');
		return end ? g_strndup(at, end - at) : g_strdup(at);
	}
	fail_msg("no invalid context record %u in %s", serial, path);
	return NULL;
}

static void test_roles(void **state)
{
	g_autofree char *ctx = NULL;
	g_auto(GStrv) f = NULL;

	NEED_POLICY();
	assert_true(ad_policy_has_role(pol, "staff_r"));
	assert_true(ad_policy_has_role(pol, "object_r"));
	assert_false(ad_policy_has_role(pol, "x_r"));
	assert_false(ad_policy_has_role(pol, ""));
	assert_false(ad_policy_has_role(pol, NULL));

	/* crafted 113: staff_u:staff_r:mount_t:s0 is invalid because of the role */
	ctx = corpus_invalid_context(CRAFTED, 113);
	assert_string_equal(ctx, "staff_u:staff_r:mount_t:s0");
	f = g_strsplit(ctx, ":", 4);
	assert_false(ad_policy_role_has_type(pol, f[1], f[2]));
	assert_true(ad_policy_role_has_type(pol, "staff_r", "staff_t"));
	/* reached through an attribute in the policy sources, expanded in the binary */
	assert_true(ad_policy_role_has_type(pol, "staff_r", "dirmngr_t"));
	assert_true(ad_policy_role_has_type(pol, "system_r", "httpd_t"));
	assert_false(ad_policy_role_has_type(pol, "staff_r", "httpd_t"));
	/* the kernel does not check object_r */
	assert_true(ad_policy_role_has_type(pol, "object_r", "shadow_t"));
	/* attributes, unknown names */
	assert_false(ad_policy_role_has_type(pol, "staff_r", "domain"));
	assert_false(ad_policy_role_has_type(pol, "staff_r", "foo_t"));
	assert_false(ad_policy_role_has_type(pol, "x_r", "staff_t"));
	assert_false(ad_policy_role_has_type(pol, NULL, NULL));
}

static void test_attributes(void **state)
{
	NEED_POLICY();
	assert_true(ad_policy_type_is_attribute(pol, "domain"));
	assert_true(ad_policy_type_is_attribute(pol, "port_type"));
	assert_false(ad_policy_type_is_attribute(pol, "httpd_t"));
	assert_false(ad_policy_type_is_attribute(pol, "foo_t"));
	assert_false(ad_policy_type_is_attribute(pol, NULL));

	assert_true(ad_policy_type_has_attribute(pol, "httpd_t", "domain"));
	assert_true(ad_policy_type_has_attribute(pol, "httpd_sys_content_t", "file_type"));
	assert_true(ad_policy_type_has_attribute(pol, "shadow_t", "file_type"));
	assert_true(ad_policy_type_has_attribute(pol, "http_port_t", "port_type"));
	assert_false(ad_policy_type_has_attribute(pol, "httpd_t", "file_type"));
	assert_false(ad_policy_type_has_attribute(pol, "httpd_t", "httpd_t"));	/* not an attribute */
	assert_false(ad_policy_type_has_attribute(pol, "domain", "domain"));	/* not a type */
	assert_false(ad_policy_type_has_attribute(pol, "foo_t", "domain"));
	assert_false(ad_policy_type_has_attribute(pol, "httpd_t", "no_attr"));
}

/* Is @name in the sorted array of strings @a? */
static gboolean sorted_has(GPtrArray *a, const char *name)
{
	for (guint i = 0; i < a->len; i++) {
		int c = strcmp(a->pdata[i], name);

		if (c == 0)
			return TRUE;
		if (c > 0)
			return FALSE;
	}
	return FALSE;
}

/*
 * Checks one types_allowed() answer against the engine's TE vectors for
 * every candidate type: same set, sorted, types only.
 */
static void check_types_allowed(AdPolicy *p, const char *src, const char *cls, const char *perms,
				const char *filter)
{
	g_auto(GStrv) pv = g_strsplit(perms, " ", -1);
	g_autoptr(GPtrArray) got = ad_policy_types_allowed(p, src, cls, (const char *const *)pv,
							   g_strv_length(pv), filter);
	type_datum_t *s = hashtab_search(p->db.p_types.table, src);
	class_datum_t *c = hashtab_search(p->db.p_classes.table, cls);
	guint32 want = 0;
	guint expected = 0;

	assert_non_null(got);
	for (char **q = pv; *q; q++) {
		perm_datum_t *perm = hashtab_search(c->permissions.table, *q);

		if (!perm && c->comdatum)
			perm = hashtab_search(c->comdatum->permissions.table, *q);
		assert_non_null(perm);
		want |= 1u << (perm->s.value - 1);
	}
	for (guint i = 1; i < got->len; i++)
		assert_true(strcmp(got->pdata[i - 1], got->pdata[i]) < 0);
	for (guint t = 1; t <= p->db.p_types.nprim; t++) {
		const char *name = p->db.p_type_val_to_name[t - 1];
		gboolean in;

		if (p->db.type_val_to_struct[t - 1]->flavor == TYPE_ATTRIB ||
		    (filter && !ad_policy_type_has_attribute(p, name, filter)))
			continue;
		in = (ad_te_lookup(p, s->s.value, t, c->s.value)->allowed & want) == want;
		expected += in;
		if (in != sorted_has(got, name))
			fail_msg("%s %s { %s } on %s: engine %d, types_allowed %d", src, cls, perms,
				 name, in, !in);
	}
	assert_int_equal(got->len, expected);
}

static void test_types_allowed(void **state)
{
	const char *read[] = { "read" }, *frob[] = { "frob" };
	const char *open_read[] = { "open", "read" }, *read_open[] = { "read", "open" };
	const char *connect[] = { "name_connect" };
	g_autoptr(GPtrArray) files = NULL, ports = NULL, a = NULL, b = NULL, all = NULL;
	gint64 t0, t1, t2, t3;

	NEED_POLICY();
	t0 = g_get_monotonic_time();
	files = ad_policy_types_allowed(pol, "httpd_t", "file", read, 1, "file_type");
	t1 = g_get_monotonic_time();
	ports = ad_policy_types_allowed(pol, "sshd_t", "tcp_socket", connect, 1, "port_type");
	t2 = g_get_monotonic_time();
	for (guint i = 0; i < 100; i++)
		g_ptr_array_unref(ad_policy_types_allowed(pol, "httpd_t", "file", read, 1,
							  "file_type"));
	t3 = g_get_monotonic_time();
	/* speed is the benchmarks' business (a loaded machine fails any bound): printed only */
	print_message("types_allowed: first %.2f ms (with the index), then %.0f us uncached, "
		      "%.1f us cached (%u types)\n",
		      (t1 - t0) / 1000.0, (double)(t2 - t1), (t3 - t2) / 100.0, files->len);
	g_clear_pointer(&ports, g_ptr_array_unref);
	assert_non_null(files);
	assert_true(sorted_has(files, "httpd_sys_content_t"));
	assert_true(sorted_has(files, "httpd_config_t"));
	/* under httpd_enable_cgi, off by default */
	assert_false(sorted_has(files, "httpd_sys_script_exec_t"));
	assert_false(sorted_has(files, "shadow_t"));
	assert_false(sorted_has(files, "file_type"));
	/* the caller holds a reference to the cached answer, not a copy */
	a = ad_policy_types_allowed(pol, "httpd_t", "file", read, 1, "file_type");
	assert_ptr_equal(a, files);
	g_clear_pointer(&a, g_ptr_array_unref);

	/*
	 * sesearch -A -s httpd_t -c tcp_socket -p name_connect: every rule for
	 * http_port_t is conditional (httpd_can_network_relay,
	 * httpd_graceful_shutdown, both off by default); dns_port_t comes
	 * unconditionally through nsswitch_domain
	 */
	ports = ad_policy_types_allowed(pol, "httpd_t", "tcp_socket", connect, 1, "port_type");
	assert_non_null(ports);
	assert_true(sorted_has(ports, "dns_port_t"));
	assert_false(sorted_has(ports, "http_port_t"));
	for (guint i = 0; i < ports->len; i++)
		assert_true(ad_policy_type_has_attribute(pol, ports->pdata[i], "port_type"));

	/* the permissions' order does not matter, all of them are needed */
	a = ad_policy_types_allowed(pol, "httpd_t", "file", open_read, 2, NULL);
	b = ad_policy_types_allowed(pol, "httpd_t", "file", read_open, 2, NULL);
	assert_int_equal(a->len, b->len);
	for (guint i = 0; i < a->len; i++)
		assert_string_equal(a->pdata[i], b->pdata[i]);
	/* no filter: also non-file types (httpd_t reads its own /proc files) */
	assert_true(sorted_has(a, "httpd_t"));
	assert_true(a->len >= files->len / 2);
	/* no permission: any permission of the class */
	all = ad_policy_types_allowed(pol, "httpd_t", "file", NULL, 0, "file_type");
	assert_true(all->len >= files->len);

	/* an attribute as the source: what its own rules grant */
	g_clear_pointer(&a, g_ptr_array_unref);
	a = ad_policy_types_allowed(pol, "domain", "file", read, 1, "file_type");
	assert_non_null(a);
	assert_true(a->len > 0 && a->len < files->len);
	assert_false(sorted_has(a, "shadow_t"));
	assert_false(sorted_has(a, "httpd_sys_content_t"));

	/* unknown names */
	assert_null(ad_policy_types_allowed(pol, "foo_t", "file", read, 1, NULL));
	assert_null(ad_policy_types_allowed(pol, "httpd_t", "nosuchclass", read, 1, NULL));
	assert_null(ad_policy_types_allowed(pol, "httpd_t", "file", frob, 1, NULL));
	assert_null(ad_policy_types_allowed(pol, "httpd_t", "file", read, 1, "no_attr"));
	assert_null(ad_policy_types_allowed(pol, "httpd_t", "file", read, 1, "httpd_t"));

	/* against the engine's TE vectors, type by type */
	check_types_allowed(pol, "httpd_t", "file", "read", "file_type");
	check_types_allowed(pol, "httpd_t", "tcp_socket", "name_connect", "port_type");
	check_types_allowed(pol, "sshd_t", "dir", "search getattr", NULL);
	check_types_allowed(pol, "cdrecord_t", "file", "read", NULL);
	check_types_allowed(pol, "staff_t", "process", "transition", NULL);
	check_types_allowed(pol, "domain", "file", "read", "file_type");
}

static void test_bool_names(void **state)
{
	g_autoptr(GPtrArray) names = NULL;
	const char *desc;

	NEED_POLICY();
	names = ad_policy_bool_names(pol);
	assert_int_equal(names->len, pol->db.p_bools.nprim);
	assert_true(names->len > 100);
	for (guint i = 1; i < names->len; i++)
		assert_true(strcmp(names->pdata[i - 1], names->pdata[i]) < 0);
	assert_true(sorted_has(names, "httpd_read_user_content"));
	assert_true(sorted_has(names, "use_samba_home_dirs"));

	if (!g_file_test("/usr/share/selinux/devel/policy.xml", G_FILE_TEST_EXISTS)) {
		print_message("skipped: /usr/share/selinux/devel/policy.xml (selinux-policy-dev) "
			      "is not installed\n");
		assert_null(ad_policy_bool_description(pol, "httpd_read_user_content"));
		return;
	}
	desc = ad_policy_bool_description(pol, "httpd_read_user_content");
	assert_non_null(desc);
	assert_non_null(strstr(desc, "home"));
	/* one line, whitespace collapsed */
	assert_string_equal(desc, "Determine whether httpd can read generic user home content "
				  "files.");
	assert_ptr_equal(desc, ad_policy_bool_description(pol, "httpd_read_user_content"));
	assert_null(ad_policy_bool_description(pol, "no_such_boolean"));
	assert_null(ad_policy_bool_description(pol, NULL));
	/* nearly every boolean of the policy is documented */
	{
		guint documented = 0;

		for (guint i = 0; i < names->len; i++) {
			const char *d = ad_policy_bool_description(pol, names->pdata[i]);

			if (!d)
				continue;
			documented++;
			assert_null(strchr(d, '\n'));
			assert_false(g_str_has_prefix(d, " ") || g_str_has_suffix(d, " "));
			assert_null(strstr(d, "  "));
		}
		print_message("%u of %u booleans described\n", documented, names->len);
		assert_true(documented * 10 >= names->len * 9);
	}
}

/* gzip-compresses @data with GIO */
static GBytes *gzip_bytes(const char *data, gsize len)
{
	g_autoptr(GZlibCompressor) z = g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
	g_autoptr(GOutputStream) mem = g_memory_output_stream_new_resizable();
	g_autoptr(GOutputStream) out = g_converter_output_stream_new(mem, G_CONVERTER(z));

	assert_true(g_output_stream_write_all(out, data, len, NULL, NULL, NULL));
	assert_true(g_output_stream_close(out, NULL, NULL));
	return g_memory_output_stream_steal_as_bytes(G_MEMORY_OUTPUT_STREAM(mem));
}

/* policy.xml as refpolicy writes it: ISO-8859-1, a DOCTYPE, interfaces with <desc> too */
static const char docs_xml[] =
	"<?xml version=\"1.0\" encoding=\"ISO-8859-1\" standalone=\"no\"?>\n"
	"<!DOCTYPE policy SYSTEM \"policy.dtd\">\n"
	"<policy>\n<layer name=\"services\">\n<summary>Services.</summary>\n"
	"<module name=\"x\" filename=\"x.if\">\n<summary>X.</summary>\n"
	"<interface name=\"x_read\" lineno=\"1\">\n<summary>Read x.</summary>\n"
	"<desc><p>Not a boolean.</p></desc>\n"
	"<param name=\"domain\">\n<summary>\nDomain.\n</summary>\n</param>\n</interface>\n"
	"<tunable name=\"x_tunable\" dftval=\"false\">\n<desc>\n<p>\nDetermine whether x\n"
	"can\tread &amp; write\n  caf\xe9 files.\n</p>\n</desc>\n</tunable>\n"
	"</module>\n</layer>\n"
	"<bool name=\"x_bool\" dftval=\"true\">\n<desc>\n<p>First.</p><p>Second:</p>"
	"<ul><li>one</li><li>two</li></ul>\n</desc>\n</bool>\n"
	"<bool name=\"x_empty\" dftval=\"true\"><desc></desc></bool>\n"
	"</policy>\n";

static void test_bool_docs_parse(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("ad-docs-XXXXXX", NULL);
	g_autofree char *plain = g_build_filename(dir, "policy.xml", NULL);
	g_autofree char *gz = g_build_filename(dir, "policy.xml.gz", NULL);
	g_autofree char *bad = g_build_filename(dir, "bad.xml", NULL);
	g_autoptr(GBytes) packed = gzip_bytes(docs_xml, strlen(docs_xml));
	GHashTable *saved;

	NEED_POLICY();
	assert_true(g_file_set_contents(plain, docs_xml, -1, NULL));
	assert_true(g_file_set_contents(gz, g_bytes_get_data(packed, NULL),
					g_bytes_get_size(packed), NULL));
	assert_true(g_file_set_contents(bad, "<policy><bool name=\"a_b\" dftval=\"true\"><desc>"
					"<p>Kept.</p></desc></bool><bool name=\"c\"><desc>&nbsp;",
					-1, NULL));
	/* the shared policy's documentation is put aside and restored */
	saved = g_steal_pointer(&pol->bool_docs);
	for (guint i = 0; i < 2; i++) {
		g_autoptr(GError) err = NULL;

		assert_true(ad_bool_docs_load(pol, i ? gz : plain, &err));
		assert_null(err);
		assert_string_equal(ad_policy_bool_description(pol, "x_tunable"),
				    "Determine whether x can read & write caf\xc3\xa9 files.");
		assert_string_equal(ad_policy_bool_description(pol, "x_bool"),
				    "First. Second: one two");
		assert_null(ad_policy_bool_description(pol, "x_empty"));
		assert_null(ad_policy_bool_description(pol, "x_read"));
		g_clear_pointer(&pol->bool_docs, g_hash_table_unref);
	}
	{
		g_autoptr(GError) err = NULL;

		/* an error keeps what came before it, and names the file */
		assert_false(ad_bool_docs_load(pol, bad, &err));
		assert_non_null(err);
		assert_non_null(strstr(err->message, bad));
		assert_string_equal(ad_policy_bool_description(pol, "a_b"), "Kept.");
		g_clear_pointer(&pol->bool_docs, g_hash_table_unref);
		g_clear_error(&err);
		assert_false(ad_bool_docs_load(pol, "/nonexistent/policy.xml", &err));
		assert_non_null(err);
		g_clear_pointer(&pol->bool_docs, g_hash_table_unref);
	}
	/* a gzip file that inflates to 80 MiB (from some 80 KiB) is not held whole */
	{
		g_autoptr(GError) err = NULL;
		gsize n = 80u << 20;
		g_autofree char *big = g_malloc(n);
		g_autoptr(GBytes) bomb = NULL;

		memset(big, ' ', n);
		memcpy(big, docs_xml, strlen(docs_xml));
		bomb = gzip_bytes(big, n);
		assert_true(g_bytes_get_size(bomb) < n / 256);
		assert_true(g_file_set_contents(gz, g_bytes_get_data(bomb, NULL),
						g_bytes_get_size(bomb), NULL));
		assert_false(ad_bool_docs_load(pol, gz, &err));
		assert_non_null(err);
		assert_non_null(strstr(err->message, "MiB"));
		assert_non_null(strstr(err->message, gz));
		g_clear_pointer(&pol->bool_docs, g_hash_table_unref);
	}
	pol->bool_docs = saved;
	g_unlink(plain);
	g_unlink(gz);
	g_unlink(bad);
	g_rmdir(dir);
}

/* ---- edits: the overlay for allow --verify -------------------------------------------- */

/* A policy of its own: edits must not leak into the other tests. */
static AdPolicy *load_private(void)
{
	g_autoptr(GError) err = NULL;
	AdPolicy *p = ad_policy_load(REAL_POLICY, &err);

	assert_null(err);
	assert_non_null(p);
	return p;
}

static const AdVerdict *explain_in(AdPolicy *p, const char *s, const char *t, const char *cls,
				   const char *perms)
{
	g_auto(GStrv) v = g_strsplit(perms, " ", -1);

	return ad_policy_explain(p, s, t, cls, (const char *const *)v, g_strv_length(v));
}

static void test_edit_allow(void **state)
{
	g_autoptr(AdPolicy) ed = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) before = NULL, after = NULL;
	const char *read[] = { "read" }, *bad[] = { "read", "frob" };
	const char *sys_rawio[] = { "sys_rawio" };
	const char *httpd = "system_u:system_r:httpd_t:s0", *shadow = "system_u:object_r:shadow_t:s0";
	const AdVerdict *old, *old2, *now;

	NEED_POLICY();
	ed = load_private();
	/* kept across edits, which empty the verdict cache: referenced */
	old = ad_verdict_ref(explain_in(ed, httpd, shadow, "file", "read"));
	assert_int_equal(old->reason, AD_REASON_TE_RULE);
	old2 = ad_verdict_ref(explain_in(ed, httpd, shadow, "file", "read write"));
	before = ad_policy_types_allowed(ed, "httpd_t", "file", read, 1, "file_type");
	assert_false(sorted_has(before, "shadow_t"));

	assert_true(ad_policy_add_allow(ed, "httpd_t", "shadow_t", "file", read, 1, &err));
	assert_null(err);
	now = explain_in(ed, httpd, shadow, "file", "read");
	assert_int_equal(now->reason, AD_REASON_ALLOWED);
	assert_ptr_not_equal(now, old);
	/* the verdicts handed out before are alive and unchanged */
	assert_int_equal(old->reason, AD_REASON_TE_RULE);
	assert_string_equal(old->perms_missing->pdata[0], "read");
	assert_non_null(strstr(old->detail, "no allow rule grants httpd_t read on shadow_t"));
	assert_int_equal(old2->perms_missing->len, 2);
	g_clear_pointer(&old, ad_verdict_unref);
	g_clear_pointer(&old2, ad_verdict_unref);
	/* write is still missing, read no longer */
	now = explain_in(ed, httpd, shadow, "file", "read write");
	assert_int_equal(now->reason, AD_REASON_TE_RULE);
	assert_int_equal(now->perms_missing->len, 1);
	assert_string_equal(now->perms_missing->pdata[0], "write");
	/* libsepol reads the same table */
	assert_int_equal(crosscheck_one(ed, httpd, shadow, "file", read, 1), 0);
	/* the queries follow */
	after = ad_policy_types_allowed(ed, "httpd_t", "file", read, 1, "file_type");
	assert_true(sorted_has(after, "shadow_t"));
	assert_int_equal(after->len, before->len + 1);
	/* the shared policy did not change */
	assert_int_equal(explain(httpd, shadow, "file", "read")->reason, AD_REASON_TE_RULE);

	/* adding to an existing rule and repeating a rule are fine */
	assert_true(ad_policy_add_allow(ed, "httpd_t", "shadow_t", "file",
					(const char *const[]){ "getattr" }, 1, NULL));
	assert_true(ad_policy_add_allow(ed, "httpd_t", "shadow_t", "file", read, 1, NULL));
	assert_int_equal(explain_in(ed, httpd, shadow, "file", "read getattr")->reason,
			 AD_REASON_ALLOWED);

	/* attributes as the target: every type with the attribute */
	assert_int_equal(explain_in(ed, httpd, "system_u:object_r:etc_t:s0", "file",
				    "write")->reason,
			 AD_REASON_TE_RULE);
	assert_true(ad_policy_add_allow(ed, "httpd_t", "file_type", "file",
					(const char *const[]){ "write" }, 1, NULL));
	assert_int_equal(explain_in(ed, httpd, "system_u:object_r:etc_t:s0", "file",
				    "write")->reason,
			 AD_REASON_ALLOWED);
	assert_int_equal(crosscheck_one(ed, httpd, "system_u:object_r:etc_t:s0", "file",
					(const char *[]){ "write" }, 1), 0);

	/* "self", and "attribute self": each type on itself, not on the others */
	assert_int_equal(explain_in(ed, httpd, httpd, "capability", "sys_rawio")->reason,
			 AD_REASON_TE_RULE);
	assert_true(ad_policy_add_allow(ed, "httpd_t", "self", "capability", sys_rawio, 1,
					NULL));
	assert_int_equal(explain_in(ed, httpd, httpd, "capability", "sys_rawio")->reason,
			 AD_REASON_ALLOWED);
	{
		const char *cupsd = "system_u:system_r:cupsd_t:s0";
		const char *sshd = "system_u:system_r:sshd_t:s0";

		assert_int_equal(explain_in(ed, cupsd, cupsd, "process", "setexec")->reason,
				 AD_REASON_TE_RULE);
		assert_true(ad_policy_add_allow(ed, "domain", "self", "process",
						(const char *const[]){ "setexec" }, 1, NULL));
		assert_int_equal(explain_in(ed, cupsd, cupsd, "process", "setexec")->reason,
				 AD_REASON_ALLOWED);
		assert_int_equal(explain_in(ed, sshd, cupsd, "process", "setexec")->reason,
				 AD_REASON_TE_RULE);
		assert_int_equal(crosscheck_one(ed, cupsd, cupsd, "process",
						(const char *[]){ "setexec" }, 1), 0);
	}

	/* unknown names: all of them in one message, nothing changed */
	assert_false(ad_policy_add_allow(ed, "foo_t", "shadow_t", "file", bad, 2, &err));
	assert_true(g_error_matches(err, AD_POLICY_ERROR, AD_POLICY_ERROR_UNKNOWN));
	assert_non_null(strstr(err->message, "allow foo_t shadow_t:file { read frob };"));
	assert_non_null(strstr(err->message, "the type foo_t and the permission frob are not "
					     "defined in this policy"));
	g_clear_error(&err);
	assert_false(ad_policy_add_allow(ed, "httpd_t", "bar_t", "nosuchclass", read, 1, &err));
	assert_non_null(strstr(err->message, "the type bar_t and the class nosuchclass are"));
	g_clear_error(&err);
	assert_false(ad_policy_add_allow(ed, "httpd_t", "shadow_t", "file", NULL, 0, &err));
	assert_non_null(strstr(err->message, "names no permission"));
	g_clear_error(&err);
	assert_int_equal(explain_in(ed, httpd, shadow, "file", "append")->reason,
			 AD_REASON_TE_RULE);
}

/* crafted 105: cdrecord_t reads cifs_t under use_samba_home_dirs && cdrecord_read_content */
static void test_edit_boolean(void **state)
{
	g_autoptr(AdPolicy) ed = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) ports = NULL;
	g_auto(Rec) r = { 0 };
	const char *connect[] = { "name_connect" };
	const AdVerdict *v, *first;

	NEED_POLICY();
	ed = load_private();
	corpus_record(CRAFTED, 105, &r);
#define EXPLAIN105() ad_policy_explain(ed, r.scontext, r.tcontext, r.tclass, \
				       (const char *const *)r.perms, g_strv_length(r.perms))
	first = ad_verdict_ref(EXPLAIN105());
	assert_int_equal(first->reason, AD_REASON_BOOLEAN);

	/* one of the two: still a boolean, now the other one alone */
	assert_true(ad_policy_set_boolean(ed, "use_samba_home_dirs", TRUE, &err));
	assert_int_equal(ad_policy_bool_value(ed, "use_samba_home_dirs"), 1);
	v = EXPLAIN105();
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_int_equal(v->booleans->len, 1);
	assert_true(has_alternative(v, "cdrecord_read_content", TRUE, NULL, FALSE));
	/* both: allowed, as libsepol says */
	assert_true(ad_policy_set_boolean(ed, "cdrecord_read_content", TRUE, &err));
	v = EXPLAIN105();
	assert_int_equal(v->reason, AD_REASON_ALLOWED);
	assert_int_equal(crosscheck_one(ed, r.scontext, r.tcontext, r.tclass,
					(const char **)r.perms, g_strv_length(r.perms)), 0);
	/* back off: the alternative is now to turn one back on */
	assert_true(ad_policy_set_boolean(ed, "cdrecord_read_content", FALSE, &err));
	v = EXPLAIN105();
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_true(has_alternative(v, "cdrecord_read_content", TRUE, NULL, FALSE));
	/* the first verdict is intact */
	assert_int_equal(first->reason, AD_REASON_BOOLEAN);
	assert_int_equal(first->booleans->len, 1);
	assert_int_equal(((GPtrArray *)first->booleans->pdata[0])->len, 2);
	g_clear_pointer(&first, ad_verdict_unref);
	/* setting the current value changes nothing */
	assert_true(ad_policy_set_boolean(ed, "use_samba_home_dirs", TRUE, &err));
	assert_ptr_equal(EXPLAIN105(), v);
#undef EXPLAIN105

	/* the queries follow the booleans: http_port_t needs httpd_can_network_relay */
	ports = ad_policy_types_allowed(ed, "httpd_t", "tcp_socket", connect, 1, "port_type");
	assert_false(sorted_has(ports, "http_port_t"));
	g_clear_pointer(&ports, g_ptr_array_unref);
	assert_true(ad_policy_set_boolean(ed, "httpd_can_network_relay", TRUE, NULL));
	ports = ad_policy_types_allowed(ed, "httpd_t", "tcp_socket", connect, 1, "port_type");
	assert_true(sorted_has(ports, "http_port_t"));
	assert_true(sorted_has(ports, "squid_port_t"));
	assert_false(sorted_has(ports, "mysqld_port_t"));
	check_types_allowed(ed, "httpd_t", "tcp_socket", "name_connect", "port_type");

	assert_false(ad_policy_set_boolean(ed, "no_such_boolean", TRUE, &err));
	assert_true(g_error_matches(err, AD_POLICY_ERROR, AD_POLICY_ERROR_UNKNOWN));
	assert_non_null(strstr(err->message, "no_such_boolean"));
	/* the shared policy keeps its defaults */
	assert_int_equal(ad_policy_bool_value(pol, "use_samba_home_dirs"), 0);
	assert_int_equal(explain_rec(CRAFTED, 105)->reason, AD_REASON_BOOLEAN);
}

/* crafted 106: the constraint, not TE, denies: an allow rule does not help */
static void test_edit_constraint(void **state)
{
	g_autoptr(AdPolicy) ed = NULL;
	g_auto(Rec) r = { 0 };
	const char *transition[] = { "transition" };
	const AdVerdict *v;

	NEED_POLICY();
	ed = load_private();
	corpus_record(CRAFTED, 106, &r);
	assert_true(ad_policy_add_allow(ed, "staff_t", "dirmngr_t", "process", transition, 1,
					NULL));
	v = ad_policy_explain(ed, r.scontext, r.tcontext, r.tclass, (const char *const *)r.perms,
			      g_strv_length(r.perms));
	assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
	assert_non_null(strstr(v->constraint_expr, "(r1 == r2 -Fail-)"));
}

static void test_edit_roles(void **state)
{
	g_autoptr(AdPolicy) ed = NULL;
	g_autoptr(GError) err = NULL;
	g_autofree char *why = NULL;
	const char *ctx = "staff_u:staff_r:mount_t:s0";
	const AdVerdict *old, *v;

	NEED_POLICY();
	ed = load_private();
	why = ad_policy_context_problem(ed, ctx);
	assert_non_null(why);
	assert_non_null(strstr(why, "the role staff_r is not authorised for the type mount_t"));
	old = ad_verdict_ref(explain_in(ed, ctx, "system_u:object_r:etc_t:s0", "file", "read"));
	assert_int_equal(old->reason, AD_REASON_INVALID_CONTEXT);

	assert_true(ad_policy_add_role_type(ed, "staff_r", "mount_t", &err));
	assert_null(err);
	assert_true(ad_policy_role_has_type(ed, "staff_r", "mount_t"));
	assert_null(ad_policy_context_problem(ed, ctx));
	v = explain_in(ed, ctx, "system_u:object_r:etc_t:s0", "file", "read");
	assert_int_not_equal(v->reason, AD_REASON_INVALID_CONTEXT);
	assert_int_equal(old->reason, AD_REASON_INVALID_CONTEXT);
	assert_non_null(strstr(old->detail, "not authorised"));
	g_clear_pointer(&old, ad_verdict_unref);
	/* libsepol accepts the context now too */
	assert_true(crosscheck_one(ed, ctx, "system_u:object_r:etc_t:s0", "file",
				   (const char *[]){ "read" }, 1) >= 0);
	/* the shared policy did not change */
	assert_false(ad_policy_role_has_type(pol, "staff_r", "mount_t"));

	/* an attribute: all of its types */
	assert_false(ad_policy_role_has_type(ed, "user_r", "sshd_t"));
	assert_true(ad_policy_add_role_type(ed, "user_r", "domain", NULL));
	assert_true(ad_policy_role_has_type(ed, "user_r", "sshd_t"));
	assert_false(ad_policy_role_has_type(ed, "user_r", "shadow_t"));

	assert_false(ad_policy_add_role_type(ed, "x_r", "foo_t", &err));
	assert_true(g_error_matches(err, AD_POLICY_ERROR, AD_POLICY_ERROR_UNKNOWN));
	assert_non_null(strstr(err->message, "\"role x_r types foo_t;\": the role x_r and the "
					     "type foo_t are not defined"));
	g_clear_error(&err);

	/* allow staff_r system_r; lifts the RBAC denial */
	v = explain_in(ed, "root:staff_r:newrole_t:s0", "root:system_r:sysadm_t:s0", "process",
		       "transition");
	assert_int_equal(v->reason, AD_REASON_RBAC);
	assert_true(ad_policy_add_role_allow(ed, "staff_r", "system_r", NULL));
	assert_true(ad_policy_add_role_allow(ed, "staff_r", "system_r", NULL));
	v = explain_in(ed, "root:staff_r:newrole_t:s0", "root:system_r:sysadm_t:s0", "process",
		       "transition");
	assert_int_not_equal(v->reason, AD_REASON_RBAC);
	assert_int_equal(v->reason_bits & SEPOL_COMPUTEAV_RBAC, 0);
	assert_true(crosscheck_one(ed, "root:staff_r:newrole_t:s0", "root:system_r:sysadm_t:s0",
				   "process", (const char *[]){ "transition" }, 1) >= 0);
	assert_false(ad_policy_add_role_allow(ed, "staff_r", "y_r", &err));
	assert_non_null(strstr(err->message, "the role y_r is not defined"));
}

/* ---- a small policy built with checkpolicy --------------------------------------- */

/*
 * What refpolicy does not have: XOR and NOT conditions, more booleans
 * than are enumerated exhaustively, a constraint with "not", a missing
 * role allow rule, typebounds (checkpolicy refuses violations, so only the
 * path through libsepol is exercised), and no MLS.
 */
static const char mini_conf[] =
	"class process\nclass file\nsid kernel\nsid file\n"
	"common file { read write getattr open }\n"
	"class process { transition dyntransition signal }\n"
	"class file inherits file { entrypoint }\n"
	"type a_t;\ntype b_t;\ntype c_t;\ntype parent_t;\ntype child_t;\n"
	"typebounds parent_t child_t;\n"
	"attribute domattr;\ntypeattribute a_t domattr;\n"
	"bool x false;\nbool y false;\nbool z true;\n"
	"@BOOLS@"
	"if (x ^ y) { allow domattr b_t:file read; }\n"
	"if (!z) { allow a_t b_t:file write; }\n"
	"@RULES@"
	"allow a_t b_t:process transition;\n"
	"allow a_t a_t:file getattr;\n"
	"allow parent_t b_t:file read;\n"
	"allow child_t b_t:file read;\n"
	"role ra_r;\nrole rb_r;\n"
	"role ra_r types { a_t child_t parent_t };\nrole rb_r types { b_t };\n"
	"user u1_u roles { ra_r rb_r };\nuser u2_u roles { ra_r };\n"
	"constrain file write (u1 == u2);\n"
	"constrain file getattr not (t1 == t2);\n"
	"sid kernel u1_u:ra_r:a_t\nsid file u1_u:object_r:b_t\n";

static void test_mini_policy(void **state)
{
	g_autofree char *checkpolicy = g_find_program_in_path("checkpolicy");
	g_autofree char *dir = NULL, *conf = NULL, *bin = NULL, *text = NULL;
	g_autoptr(GString) bools = g_string_new(NULL), rules = g_string_new(NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(AdPolicy) mini = NULL;
	const AdVerdict *v;
	int status = -1;
	const char *read[] = { "read" }, *write[] = { "write" }, *rw[] = { "read", "write" };
	const char *getattr[] = { "getattr" }, *transition[] = { "transition" };

	if (!checkpolicy) {
		print_message("skipped: checkpolicy is not installed\n");
		skip();
	}
	for (guint i = 0; i < 20; i++) {
		g_string_append_printf(bools, "bool b%02u false;\n", i);
		g_string_append_printf(rules, "if (b%02u) { allow a_t c_t:file read; }\n", i);
	}
	text = g_strdup(mini_conf);
	{
		g_autoptr(GString) t = g_string_new(text);

		g_string_replace(t, "@BOOLS@", bools->str, 1);
		g_string_replace(t, "@RULES@", rules->str, 1);
		g_free(text);
		text = g_strdup(t->str);
	}
	dir = g_dir_make_tmp("ad-mini-XXXXXX", NULL);
	conf = g_build_filename(dir, "policy.conf", NULL);
	bin = g_build_filename(dir, "policy.33", NULL);
	assert_true(g_file_set_contents(conf, text, -1, NULL));
	{
		const char *argv[] = { checkpolicy, "-c", "33", "-o", bin, conf, NULL };

		assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
					 NULL, NULL, NULL, NULL, &status, NULL));
	}
	assert_true(g_spawn_check_wait_status(status, NULL));
	mini = ad_policy_load(bin, &err);
	assert_null(err);
	assert_false(ad_policy_is_mls(mini));

	/* x ^ y: either one alone */
	v = ad_policy_explain(mini, "u1_u:ra_r:a_t", "u1_u:object_r:b_t", "file", read, 1);
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_int_equal(v->booleans->len, 2);
	assert_true(has_alternative(v, "x", TRUE, NULL, FALSE));
	assert_true(has_alternative(v, "y", TRUE, NULL, FALSE));
	/* !z: z must go off */
	v = ad_policy_explain(mini, "u1_u:ra_r:a_t", "u1_u:object_r:b_t", "file", write, 1);
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_int_equal(v->booleans->len, 1);
	assert_true(has_alternative(v, "z", FALSE, NULL, FALSE));
	/* both permissions: two settings each */
	v = ad_policy_explain(mini, "u1_u:ra_r:a_t", "u1_u:object_r:b_t", "file", rw, 2);
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_int_equal(v->booleans->len, 2);
	assert_true(has_alternative(v, "x", TRUE, "z", FALSE));
	assert_true(has_alternative(v, "y", TRUE, "z", FALSE));
	/* 20 booleans: beyond exhaustive enumeration, still every single one */
	v = ad_policy_explain(mini, "u1_u:ra_r:a_t", "u1_u:object_r:c_t", "file", read, 1);
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_int_equal(v->booleans->len, 20);
	assert_true(has_alternative(v, "b00", TRUE, NULL, FALSE));
	assert_true(has_alternative(v, "b19", TRUE, NULL, FALSE));
	/* no "allow ra_r rb_r;" */
	v = ad_policy_explain(mini, "u1_u:ra_r:a_t", "u1_u:rb_r:b_t", "process", transition, 1);
	assert_int_equal(v->reason, AD_REASON_RBAC);
	assert_non_null(strstr(v->detail, "allow ra_r rb_r;"));
	/* a boolean would do, but the user constraint denies as well */
	v = ad_policy_explain(mini, "u1_u:ra_r:a_t", "u2_u:object_r:b_t", "file", write, 1);
	assert_int_equal(v->reason, AD_REASON_BOOLEAN);
	assert_true(v->constraint_too);
	assert_string_equal(v->constraint, "the source user u1_u differs from the target user u2_u");
	assert_string_equal(v->constraint_expr, "constrain file { write } (u1 == u2 -Fail-);");
	/* "not": the leaf holds, which is the problem */
	v = ad_policy_explain(mini, "u1_u:ra_r:a_t", "u1_u:object_r:a_t", "file", getattr, 1);
	assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
	assert_string_equal(v->constraint, "the source type a_t is the same as the target type a_t");
	/* a bounded type goes through libsepol */
	v = ad_policy_explain(mini, "u1_u:ra_r:child_t", "u1_u:object_r:b_t", "file", read, 1);
	assert_int_equal(v->reason, AD_REASON_ALLOWED);
	v = ad_policy_explain(mini, "u1_u:ra_r:child_t", "u1_u:object_r:b_t", "file", write, 1);
	assert_int_equal(v->reason, AD_REASON_TE_RULE);
	/* a level on a non-MLS policy is dropped, and said so */
	v = ad_policy_explain(mini, "u1_u:ra_r:a_t:s0", "u1_u:object_r:a_t", "file", getattr, 1);
	assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
	assert_non_null(strstr(v->detail, "the level s0 of the context u1_u:ra_r:a_t:s0 was "
					  "ignored"));
	{
		g_autofree char *why = ad_policy_context_problem(mini, "u2_u:rb_r:b_t");

		assert_non_null(why);
		assert_string_equal(why, "the user u2_u is not authorised for the role rb_r");
	}

	/* and libsepol agrees on every one */
	assert_int_equal(crosscheck_one(mini, "u1_u:ra_r:a_t", "u1_u:object_r:b_t", "file", rw, 2),
			 SEPOL_COMPUTEAV_TE);
	assert_int_equal(crosscheck_one(mini, "u1_u:ra_r:a_t", "u1_u:rb_r:b_t", "process",
					transition, 1),
			 SEPOL_COMPUTEAV_RBAC);
	assert_int_equal(crosscheck_one(mini, "u1_u:ra_r:a_t", "u1_u:object_r:a_t", "file",
					getattr, 1),
			 SEPOL_COMPUTEAV_CONS);
	assert_int_equal(crosscheck_one(mini, "u1_u:ra_r:child_t", "u1_u:object_r:b_t", "file",
					read, 1),
			 0);

	g_clear_pointer(&mini, ad_policy_free);
	g_unlink(conf);
	g_unlink(bin);
	g_rmdir(dir);
}

/* ---- speed ---------------------------------------------------------------------------- */

static void test_speed(void **state)
{
	const guint n = 20000;
	g_autoptr(GPtrArray) scons = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) tcons = g_ptr_array_new_with_free_func(g_free);
	const char *read[] = { "read" };
	gint64 t0, t1, t2;

	NEED_POLICY();
	for (guint i = 0; i < n; i++) {
		/* distinct MCS pairs, as from containers: svirt_t vs its images */
		g_ptr_array_add(scons, g_strdup_printf("system_u:system_r:svirt_t:s0:c%u,c%u",
						       i % 1024, 1023 - (i / 1024) % 512));
		g_ptr_array_add(tcons, g_strdup_printf("staff_u:object_r:user_home_t:s0:c%u",
						       (i * 7) % 1024));
	}
	g_autofree const AdVerdict **first = g_new0(const AdVerdict *, n);

	t0 = g_get_monotonic_time();
	for (guint i = 0; i < n; i++) {
		first[i] = ad_policy_explain(pol, scons->pdata[i], tcons->pdata[i], "file", read, 1);
		ad_verdict_ref(first[i]);
	}
	t1 = g_get_monotonic_time();
	for (guint r = 0; r < 5; r++)
		for (guint i = 0; i < n; i++) {
			const AdVerdict *v = ad_policy_explain(pol, scons->pdata[i],
							       tcons->pdata[i], "file", read, 1);

			/* cached: the same answer, not computed again */
			if (v != first[i])
				fail_msg("access %u was not answered from the cache", i);
		}
	t2 = g_get_monotonic_time();
	for (guint i = 0; i < n; i++)
		ad_verdict_unref(first[i]);
	/* speed is the benchmarks' business (a loaded machine fails any bound): printed only */
	print_message("uncached: %.2f us per explain (%.0f/s); cached: %.3f us (%.0f/s)\n",
		      (double)(t1 - t0) / n, n * 1e6 / (double)(t1 - t0),
		      (double)(t2 - t1) / (5.0 * n), 5.0 * n * 1e6 / (double)(t2 - t1));
}

/* ---- bounded verdict memory ------------------------------------------------------- */

#if defined(__SANITIZE_ADDRESS__)
#define AD_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AD_TEST_ASAN 1
#endif
#endif

/* the peak resident set of this process (VmHWM) in KiB, or 0 */
static guint64 vm_hwm_kib(void)
{
	g_autofree char *text = NULL;
	const char *l;

	if (!g_file_get_contents("/proc/self/status", &text, NULL, NULL))
		return 0;
	l = strstr(text, "\nVmHWM:");
	return l ? g_ascii_strtoull(l + strlen("\nVmHWM:"), NULL, 10) : 0;
}

/* the @i-th pair of distinct categories as "s0:cX,cY" (X < Y), 1024 * 511 of them */
static char *mcs_level(guint i)
{
	guint x = i % 1024, y = (x + 1 + (i / 1024) % 511) % 1024;

	return g_strdup_printf("s0:c%u,c%u", MIN(x, y), MAX(x, y));
}

/* sVirt: svirt_t at pair @i reads an image at pair @i + 1, denied by the MCS constraint */
static const AdVerdict *explain_mcs(AdPolicy *p, guint i)
{
	g_autofree char *sl = mcs_level(i), *tl = mcs_level(i + 1);
	g_autofree char *s = g_strconcat("system_u:system_r:svirt_t:", sl, NULL);
	g_autofree char *t = g_strconcat("system_u:object_r:svirt_image_t:", tl, NULL);

	return explain_in(p, s, t, "file", "read");
}

/* httpd_t at pair @i reads shadow_t: denied by TE, the same verdict for every level */
static const AdVerdict *explain_te_mcs(AdPolicy *p, guint i)
{
	g_autofree char *sl = mcs_level(i);
	g_autofree char *s = g_strconcat("system_u:system_r:httpd_t:", sl, NULL);

	return explain_in(p, s, "system_u:object_r:shadow_t:s0", "file", "read");
}

static void check_cache_bounds(AdPolicy *p, guint live0, guint held)
{
	AdCacheStats st;

	ad_policy_cache_stats(p, &st);
	assert_true(st.keys <= AD_VERDICT_CACHE_MAX);
	assert_true(st.verdicts <= st.keys);
	/* one entry may overshoot the estimate: none is bigger than 64 KiB here */
	assert_true(st.bytes <= AD_VERDICT_CACHE_BYTES + (64u << 10));
	assert_true(st.live <= live0 + st.verdicts + held);
}

/*
 * A flood of distinct MCS pairs (the bench's MCS case, SECURITY.md's
 * "10k MCS pairs"): the cache stays under its caps, the peak RSS grows
 * by a bounded amount, an access asked for again while cached gives the
 * same pointer, and an access asked for all along stays cached.
 */
static void test_verdict_cache_bounded(void **state)
{
	const guint n = 300000;
	g_autoptr(AdPolicy) p = NULL;
	const AdVerdict *hot, *te = NULL, *prev = NULL, *v;
	guint64 hwm0, hwm1;
	AdCacheStats st;
	guint live0;

	NEED_POLICY();
	p = load_private();
	ad_policy_cache_stats(p, &st);
	live0 = st.live;
	hwm0 = vm_hwm_kib();
	hot = explain_in(p, "system_u:system_r:httpd_t:s0", "system_u:object_r:user_home_t:s0",
			 "file", "read");
	assert_int_equal(hot->reason, AD_REASON_BOOLEAN);

	for (guint i = 0; i < n; i++) {
		if (i % 3 == 2) {
			v = explain_te_mcs(p, i);
			assert_int_equal(v->reason, AD_REASON_TE_RULE);
			/* a distinct access, an identical verdict: shared */
			if (te)
				assert_ptr_equal(v, te);
			te = v;
		} else {
			v = explain_mcs(p, i);
			assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
		}
		/* the access before is still cached: the same pointer */
		if (prev)
			assert_ptr_equal(i % 3 == 0 ? explain_te_mcs(p, i - 1) : explain_mcs(p, i - 1),
					 prev);
		prev = v;
		if (i % 1000 == 0) {
			/* asked for all along: never evicted, never recomputed */
			assert_ptr_equal(explain_in(p, "system_u:system_r:httpd_t:s0",
						    "system_u:object_r:user_home_t:s0", "file",
						    "read"),
					 hot);
			check_cache_bounds(p, live0, 0);
		}
	}
	check_cache_bounds(p, live0, 0);
	ad_policy_cache_stats(p, &st);
	hwm1 = vm_hwm_kib();
	print_message("%u distinct MCS accesses: %u keys and %u verdicts cached (%zu KiB "
		      "estimated), %" G_GUINT64_FORMAT " generations retired, %u verdicts alive; "
		      "peak RSS %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT " KiB\n",
		      n, st.keys, st.verdicts, st.bytes >> 10, st.rotations, st.live - live0,
		      hwm0, hwm1);
	assert_true(st.rotations >= 2);
	assert_true(st.live - live0 <= AD_VERDICT_CACHE_MAX);
#ifdef AD_TEST_ASAN
	print_message("AddressSanitizer: the peak RSS is not checked (quarantine, redzones)\n");
#else
	/* unbounded, this was ~1.6 KiB per access: ~470 MiB */
	assert_true(hwm0 > 0 && hwm1 - hwm0 < 64 * 1024);
#endif
}

/*
 * A verdict referenced before it is evicted stays valid and unchanged
 * (AddressSanitizer would catch a use after free), also beyond an edit
 * and ad_policy_free(); an unreferenced one goes with the cache.
 */
static void test_verdict_ref(void **state)
{
	g_autoptr(AdPolicy) p = NULL;
	g_autofree char *constraint = NULL, *expr = NULL;
	const AdVerdict *v, *again, *kept;
	AdVerdict mine = { .reason = AD_REASON_TE_RULE };
	AdCacheStats st;
	guint live0;

	NEED_POLICY();
	p = load_private();
	ad_policy_cache_stats(p, &st);
	live0 = st.live;

	v = ad_verdict_ref(explain_mcs(p, 0));
	assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
	constraint = g_strdup(v->constraint);
	expr = g_strdup(v->constraint_expr);
	assert_non_null(strstr(constraint, "the source level s0:c0,c1 does not dominate the target "
					   "level s0:c1,c2"));
	for (guint i = 1; i <= 200000; i++)
		explain_mcs(p, i);
	ad_policy_cache_stats(p, &st);
	assert_true(st.rotations >= 2);
	/* evicted, alive, unchanged */
	assert_int_equal(v->reason, AD_REASON_CONSTRAINT);
	assert_string_equal(v->constraint, constraint);
	assert_string_equal(v->constraint_expr, expr);
	assert_int_equal(v->perms_missing->len, 1);
	assert_string_equal(v->perms_missing->pdata[0], "read");
	/* asked again: computed again, the same answer */
	again = explain_mcs(p, 0);
	assert_ptr_not_equal(again, v);
	assert_string_equal(again->constraint, constraint);
	check_cache_bounds(p, live0, 1);

	/* an edit empties the cache; the referenced verdicts stay */
	kept = ad_verdict_ref(explain_in(p, "system_u:system_r:httpd_t:s0",
					 "system_u:object_r:shadow_t:s0", "file", "read"));
	assert_true(ad_policy_add_allow(p, "httpd_t", "shadow_t", "file",
					(const char *const[]){ "read" }, 1, NULL));
	ad_policy_cache_stats(p, &st);
	assert_int_equal(st.keys, 0);
	assert_int_equal(st.verdicts, 0);
	assert_int_equal(st.live, live0 + 2);
	assert_int_equal(kept->reason, AD_REASON_TE_RULE);
	assert_int_equal(explain_in(p, "system_u:system_r:httpd_t:s0",
				    "system_u:object_r:shadow_t:s0", "file", "read")->reason,
			 AD_REASON_ALLOWED);

	/* and outlive the policy */
	g_clear_pointer(&p, ad_policy_free);
	assert_string_equal(v->constraint, constraint);
	assert_non_null(strstr(kept->detail, "no allow rule grants httpd_t read on shadow_t"));
	ad_verdict_ref(v);
	ad_verdict_unref(v);
	ad_verdict_unref(v);
	ad_verdict_unref(kept);
	ad_policy_cache_stats(pol, &st);
	assert_int_equal(st.live, live0);

	/* a verdict made by the caller: counted, freed with its fields */
	{
		AdVerdict *made = ad_verdict_new();

		made->reason = AD_REASON_INVALID_CONTEXT;
		made->detail = g_strdup("the context is invalid");
		made->constraint_expr = g_strdup("validatetrans");
		g_ptr_array_add(made->unknown, g_strdup("type foo_t"));
		ad_policy_cache_stats(pol, &st);
		assert_int_equal(st.live, live0 + 1);
		assert_ptr_equal(ad_verdict_ref(made), made);
		ad_verdict_unref(made);
		assert_string_equal(made->detail, "the context is invalid");
		ad_verdict_unref(made);
		ad_policy_cache_stats(pol, &st);
		assert_int_equal(st.live, live0);
	}

	/* a verdict the policy did not make is left alone; NULL is fine */
	assert_ptr_equal(ad_verdict_ref(&mine), &mine);
	ad_verdict_unref(&mine);
	ad_verdict_unref(&mine);
	assert_int_equal(mine.ref_count, 0);
	assert_null(ad_verdict_ref(NULL));
	ad_verdict_unref(NULL);
}

/* ---- main ------------------------------------------------------------------------------ */

static int group_setup(void **state)
{
	g_autoptr(GError) err = NULL;

	if (!g_file_test(REAL_POLICY, G_FILE_TEST_EXISTS)) {
		print_message("%s is absent: the tests that need it are skipped\n", REAL_POLICY);
		return 0;
	}
	pol = ad_policy_load(REAL_POLICY, &err);
	if (!pol) {
		print_message("cannot load %s: %s\n", REAL_POLICY, err->message);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	g_clear_pointer(&pol, ad_policy_free);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_missing),
		cmocka_unit_test(test_load_not_policy),
		cmocka_unit_test(test_discovery),
		cmocka_unit_test(test_bool_aliases),
		cmocka_unit_test(test_crafted_101_te_rule),
		cmocka_unit_test(test_crafted_103_boolean),
		cmocka_unit_test(test_crafted_104_two_alternatives),
		cmocka_unit_test(test_crafted_105_combination),
		cmocka_unit_test(test_crafted_106_constraint),
		cmocka_unit_test(test_crafted_107_granted),
		cmocka_unit_test(test_crafted_108_unknown_permission),
		cmocka_unit_test(test_crafted_109_unknown_class),
		cmocka_unit_test(test_crafted_114_unknown_type),
		cmocka_unit_test(test_crafted_115_invalid_context),
		cmocka_unit_test(test_short_log),
		cmocka_unit_test(test_constraint_too),
		cmocka_unit_test(test_mcs_constraint),
		cmocka_unit_test(test_boolean_partial),
		cmocka_unit_test(test_rbac),
		cmocka_unit_test(test_context_without_mls),
		cmocka_unit_test(test_hex_permissions),
		cmocka_unit_test(test_unknown_names),
		cmocka_unit_test(test_context_problem),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_sidtab_bounded),
		cmocka_unit_test(test_crosscheck_libsepol),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_types_allowed),
		cmocka_unit_test(test_bool_names),
		cmocka_unit_test(test_bool_docs_parse),
		cmocka_unit_test(test_edit_allow),
		cmocka_unit_test(test_edit_boolean),
		cmocka_unit_test(test_edit_constraint),
		cmocka_unit_test(test_edit_roles),
		cmocka_unit_test(test_mini_policy),
		cmocka_unit_test(test_speed),
		cmocka_unit_test(test_verdict_cache_bounded),
		cmocka_unit_test(test_verdict_ref),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
