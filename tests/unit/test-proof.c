// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Proofs and scope on a small policy written here and compiled with
 * checkpolicy, where every answer is known by construction: a boolean
 * that allows the denied access and much else, a narrow one, a relabel
 * that still needs a boolean, a port type, a local module.  The same
 * policy checks that rules match a type's alias and attribute and pick
 * {type} from Types= by what the policy allows.
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
#include <glib/gstdio.h>

#include "read/denial.h"
#include "read/reader.h"
#include "analysis/alert.h"
#include "analysis/plugin.h"
#include "analysis/proof.h"
#include "analysis/rules.h"
#include "analysis/suggest.h"
#include "policy/policy.h"
#include "compiled-policy.h"

/*
 * domain = app_t (alias old_app_t), other1_t, other2_t, other3_t: 4 types;
 * file_type = data_t, wrong_t, good_t, ok_t: 4 types; file has 4 permissions.
 *   broad_bool:  domain file_type:file, all 4 permissions = 4 x 4 x 4 = 64 accesses
 *   narrow_bool: app_t data_t:file read = 1 access (the denied one)
 *   needs_bool:  app_t good_t:file read
 * good_t: other1_t may read it (1 other access, 1 other domain);
 * ok_t: only app_t may read it; web_port_t: app_t, other1_t, other2_t connect.
 * sig_bool: app_t other1_t:process siginh, the first of an exec's three checks.
 */
static const char policy_conf[] =
	"class process\nclass file\nclass dir\nclass tcp_socket\n"
	"sid kernel\nsid unlabeled\n"
	"common file { read write getattr open }\n"
	"class process { transition siginh rlimitinh noatsecure }\n"
	"class file inherits file\n"
	"class dir inherits file { search }\n"
	"class tcp_socket { name_connect name_bind }\n"
	"sensitivity s0;\ndominance { s0 }\ncategory c0;\nlevel s0:c0;\n"
	"mlsconstrain process transition ( h1 dom h2 );\n"
	"attribute domain;\nattribute file_type;\n"
	"type app_t, domain;\ntypealias app_t alias old_app_t;\n"
	"type other1_t, domain;\ntype other2_t, domain;\ntype other3_t, domain;\n"
	"type data_t, file_type;\ntype wrong_t, file_type;\n"
	"type good_t, file_type;\ntype ok_t, file_type;\n"
	"type web_port_t;\ntype unreserved_port_t;\n"
	"bool broad_bool false;\nbool narrow_bool false;\nbool needs_bool false;\n"
	"bool sig_bool false;\n"
	"if (sig_bool) { allow app_t other1_t:process siginh; }\n"
	"allow app_t other1_t:process transition;\n"
	"if (broad_bool) { allow domain file_type:file { read write getattr open }; }\n"
	"if (narrow_bool) { allow app_t data_t:file read; }\n"
	"if (needs_bool) { allow app_t good_t:file read; }\n"
	"allow app_t ok_t:file read;\n"
	"allow other1_t good_t:file read;\n"
	"allow app_t web_port_t:tcp_socket name_connect;\n"
	"allow other1_t web_port_t:tcp_socket name_connect;\n"
	"allow other2_t web_port_t:tcp_socket name_connect;\n"
	"role system_r;\nrole system_r types { domain };\n"
	"user system_u roles { system_r } level s0 range s0 - s0:c0;\n"
	"sid kernel system_u:system_r:app_t:s0\n"
	"sid unlabeled system_u:object_r:data_t:s0\n"
	"fs_use_xattr ext4 system_u:object_r:data_t:s0;\n"
	"genfscon proc / system_u:object_r:data_t:s0\n"
	"portcon tcp 80 system_u:object_r:web_port_t:s0\n";

static char *dir;
static AdPolicy *pol;
static GHashTable *proofs;

/* Compiles policy_conf with checkpolicy (MLS, version 33) and loads it. */
static int setup(void **state)
{
	g_autofree char *bin = NULL;
	g_autoptr(GError) error = NULL;

	(void)state;
	dir = g_dir_make_tmp("test-proof-XXXXXX", NULL);
	if (!dir || !(bin = ad_test_compile_policy(dir, policy_conf)))
		return -1;
	pol = ad_policy_load(bin, &error);
	if (!pol) {
		fprintf(stderr, "%s\n", error->message);
		return -1;
	}
	proofs = ad_proof_cache_new();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ad_test_remove_dir(dir);
	g_clear_pointer(&dir, g_free);
	g_clear_pointer(&proofs, g_hash_table_unref);
	g_clear_pointer(&pol, ad_policy_free);
	return 0;
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, NULL, NULL);
}

/* the one denial of an AVC: @stype @ttype:@tclass { @perm } */
static AdDenial *avc(const char *perm, const char *stype, const char *ttype, const char *tclass)
{
	static guint serial = 100;
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autofree char *text = g_strdup_printf(
		"type=AVC msg=audit(1700000001.100:%u): avc:  denied  { %s } for  pid=100 "
		"comm=\"app\" name=\"x\" dev=\"sda1\" ino=1 scontext=system_u:system_r:%s:s0 "
		"tcontext=system_u:object_r:%s:s0 tclass=%s permissive=0\n",
		serial++, perm, stype, ttype, tclass);
	AdReader *r = ad_reader_new(on_event, NULL, out);

	ad_reader_set_source(r, "test");
	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	ad_reader_free(r);
	assert_int_equal(out->len, 1);
	return ad_denial_ref(g_ptr_array_index(out, 0));
}

static const AdVerdict *verdict(const AdDenial *d)
{
	return ad_policy_explain(pol, d->scontext, d->tcontext, d->tclass,
				 (const char *const *)d->perms->pdata, d->perms->len);
}

/* proves @list (AdSuggestion*) for @d, as the analysis does */
static void prove(const AdDenial *d, GPtrArray *list)
{
	AdPluginEnv ctx = { .policy = pol, .proofs = proofs };

	ad_suggestions_prove(&ctx, d, verdict(d), list);
}

static AdSuggestion *suggestion(GPtrArray *list, const char *plugin, AdFixKind kind)
{
	AdSuggestion *s = ad_suggestion_new(plugin, kind, 0.5, AD_LEVEL_GREEN);

	g_ptr_array_add(list, s);
	return s;
}

static GPtrArray *new_list(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);
}

/* a boolean that allows the access and 63 others, and one that allows just it */
static void test_broad_and_narrow_boolean(void **state)
{
	g_autoptr(AdDenial) d = avc("read", "app_t", "data_t", "file");
	g_autoptr(GPtrArray) list = new_list();
	AdSuggestion *broad, *narrow;

	assert_int_equal(verdict(d)->reason, AD_REASON_BOOLEAN);
	broad = suggestion(list, "broad", AD_FIX_BOOLEAN);
	ad_suggestion_add_command(broad, "setsebool", "-P", "broad_bool=1", NULL);
	narrow = suggestion(list, "narrow", AD_FIX_BOOLEAN);
	ad_suggestion_add_command(narrow, "setsebool", "-P", "narrow_bool=1", NULL);
	prove(d, list);

	assert_int_equal(broad->proof, AD_PROOF_OK);
	assert_null(broad->still_denied);
	assert_int_equal(broad->scope.accesses, 64 - 1);
	assert_int_equal(broad->scope.domains, 4);
	assert_non_null(broad->scope.examples);
	assert_true(broad->scope.examples->len >= 1);

	assert_int_equal(narrow->proof, AD_PROOF_OK);
	assert_int_equal(narrow->scope.accesses, 0);
	assert_int_equal(narrow->scope.domains, 0);

	/* the same plugin confidence: the narrower one ranks first */
	ad_suggestions_sort(list);
	assert_string_equal(((AdSuggestion *)g_ptr_array_index(list, 0))->plugin, "narrow");
	/* the proof left the policy as it was */
	assert_int_equal(ad_policy_bool_value(pol, "broad_bool"), 0);
	assert_int_equal(ad_policy_bool_value(pol, "narrow_bool"), 0);
	assert_int_equal(verdict(d)->reason, AD_REASON_BOOLEAN);
}

/*
 * The ranking's special places, from proof results set by hand: silencing
 * a harmless denial before every fix; a boolean opening the access to
 * hundreds of domains after the local module granting just it; notes
 * after everything.
 */
static void test_rank_harmless_broad_notes(void **state)
{
	g_autoptr(GPtrArray) list = new_list();
	g_autoptr(GPtrArray) notes = NULL;
	AdSuggestion *s;
	static const char *const want[] = { "silence", "narrow_bool", "module", "global_bool" };

	(void)state;
	s = suggestion(list, "note", AD_FIX_INFO);
	s->note = TRUE;
	s = suggestion(list, "global_bool", AD_FIX_BOOLEAN);
	ad_suggestion_add_command(s, "setsebool", "-P", "domain_can_mmap_files=1", NULL);
	s->proof = AD_PROOF_OK;
	s->scope.accesses = 11259075;
	s->scope.domains = 899;
	s = suggestion(list, "module", AD_FIX_MODULE);
	s->adds_rules = TRUE;
	s->proof = AD_PROOF_OK;
	s->scope.accesses = 0;
	s->scope.domains = 0;
	s = suggestion(list, "narrow_bool", AD_FIX_BOOLEAN);
	ad_suggestion_add_command(s, "setsebool", "-P", "narrow_bool=1", NULL);
	s->proof = AD_PROOF_OK;
	s->scope.accesses = 3;
	s->scope.domains = 1;
	s = suggestion(list, "silence", AD_FIX_DONTAUDIT);
	s->harmless = TRUE;
	ad_suggestions_sort(list);
	notes = ad_suggestions_take_notes(list);
	assert_int_equal(list->len, G_N_ELEMENTS(want));
	for (guint i = 0; i < G_N_ELEMENTS(want); i++)
		assert_string_equal(((AdSuggestion *)g_ptr_array_index(list, i))->plugin, want[i]);
	assert_int_equal(notes->len, 1);
	assert_string_equal(((AdSuggestion *)g_ptr_array_index(notes, 0))->plugin, "note");
	assert_int_equal(ad_suggestions_level(list), AD_LEVEL_GREEN);
}

/*
 * wrong_t -> good_t is not enough (needs_bool); with needs_bool it is,
 * as one combined fix; ok_t works alone.  Scopes: good_t is read by
 * other1_t besides (1 access, 1 domain); ok_t by no one else.
 */
static void test_relabel_needs_boolean(void **state)
{
	g_autoptr(AdDenial) d = avc("read", "app_t", "wrong_t", "file");
	g_autoptr(GPtrArray) list = new_list();
	AdSuggestion *alone, *combined, *ok;

	/* broad_bool would allow it too, as it allows every domain every file type */
	assert_int_equal(verdict(d)->reason, AD_REASON_BOOLEAN);
	alone = suggestion(list, "relabel-good", AD_FIX_FCONTEXT);
	ad_suggestion_add_command(alone, "semanage", "fcontext", "-a", "-t", "good_t", "--",
				  "/srv/x", NULL);
	combined = suggestion(list, "relabel-good-bool", AD_FIX_FCONTEXT);
	ad_suggestion_add_command(combined, "semanage", "fcontext", "-a", "-t", "good_t", "--",
				  "/srv/x", NULL);
	ad_suggestion_add_command(combined, "setsebool", "-P", "needs_bool=1", NULL);
	ok = suggestion(list, "relabel-ok", AD_FIX_FCONTEXT);
	ad_suggestion_add_command(ok, "semanage", "fcontext", "-a", "-t", "ok_t", "--",
				  "/srv/x", NULL);
	prove(d, list);

	assert_int_equal(alone->proof, AD_PROOF_FAILED);
	assert_non_null(alone->still_denied);
	if (!strstr(alone->still_denied, "needs_bool=1") &&
	    !strstr(alone->still_denied, "broad_bool=1"))
		fail_msg("%s", alone->still_denied);
	assert_int_equal(alone->scope.accesses, 1);
	assert_int_equal(alone->scope.domains, 1);

	assert_int_equal(combined->proof, AD_PROOF_OK);
	assert_null(combined->still_denied);

	assert_int_equal(ok->proof, AD_PROOF_OK);
	assert_int_equal(ok->scope.accesses, 0);
	assert_int_equal(ok->scope.domains, 0);

	/* proved before unproved; among proved, the narrower first */
	ad_suggestions_sort(list);
	assert_string_equal(((AdSuggestion *)g_ptr_array_index(list, 0))->plugin, "relabel-ok");
	assert_string_equal(((AdSuggestion *)g_ptr_array_index(list, 2))->plugin,
			    "relabel-good");
	assert_true(alone->confidence < alone->plugin_confidence);
}

/* labelling the port web_port_t: two other domains may connect to it */
static void test_port_type(void **state)
{
	g_autoptr(AdDenial) d = avc("name_connect", "app_t", "unreserved_port_t", "tcp_socket");
	g_autoptr(GPtrArray) list = new_list();
	AdSuggestion *port, *module;

	port = suggestion(list, "port", AD_FIX_PORT);
	ad_suggestion_add_command(port, "semanage", "port", "-a", "-t", "web_port_t", "-p", "tcp",
				  "8080", NULL);
	module = suggestion(list, "module", AD_FIX_MODULE);
	ad_suggestion_add_command(module, "avcdoctor", "allow", "-M", "my_app", NULL);
	prove(d, list);

	assert_int_equal(port->proof, AD_PROOF_OK);
	assert_int_equal(port->scope.accesses, 2);
	assert_int_equal(port->scope.domains, 2);

	/* the module allows exactly the denied access */
	assert_true(module->adds_rules);
	assert_int_equal(module->proof, AD_PROOF_OK);
	assert_int_equal(module->scope.accesses, 0);
	/* and was taken back */
	assert_int_equal(verdict(d)->reason, AD_REASON_TE_RULE);
}

/* a boolean that does not concern the access, and a type the policy lacks */
static void test_unproved(void **state)
{
	g_autoptr(AdDenial) d = avc("write", "app_t", "ok_t", "file");
	g_autoptr(GPtrArray) list = new_list();
	AdSuggestion *b, *t, *info;

	b = suggestion(list, "bool", AD_FIX_BOOLEAN);
	ad_suggestion_add_command(b, "setsebool", "-P", "narrow_bool=1", NULL);
	t = suggestion(list, "type", AD_FIX_FCONTEXT);
	ad_suggestion_add_command(t, "chcon", "-t", "nosuch_t", "/srv/x", NULL);
	info = suggestion(list, "info", AD_FIX_INFO);
	prove(d, list);

	assert_int_equal(b->proof, AD_PROOF_FAILED);
	/* still denied, and only the broad boolean would allow it */
	if (!strstr(b->still_denied, "would still need the boolean setting broad_bool=1"))
		fail_msg("%s", b->still_denied);
	assert_int_equal(t->proof, AD_PROOF_FAILED);
	assert_non_null(strstr(t->still_denied, "nosuch_t"));
	assert_int_equal(info->proof, AD_PROOF_NONE);
	/* broad_bool would allow it: the verdict says so */
	assert_int_equal(verdict(d)->reason, AD_REASON_BOOLEAN);
}

/* rules: an alias, an attribute, and {type} chosen by the policy */
/* does @s set the boolean @name? */
static gboolean sets_bool(const AdSuggestion *s, const char *name)
{
	for (guint i = 0; s->set_booleans && i < s->set_booleans->len; i++)
		if (strcmp(((AdBoolSetting *)g_ptr_array_index(s->set_booleans, i))->name, name) == 0)
			return TRUE;
	return FALSE;
}

/*
 * An exec's three checks (siginh, rlimitinh, noatsecure: three records of
 * one event) are one alert, whose fixes must stop all three: a boolean
 * that allows siginh alone proves for its latest record but not for the
 * alert, and is never shown as a fix that works
 */
static void test_exec_checks(void **state)
{
	static const char *const perms[] = { "siginh", "rlimitinh", "noatsecure" };
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autoptr(GString) text = g_string_new(NULL);
	g_autoptr(AdAlertSet) set = ad_alert_set_new();
	g_autoptr(GPtrArray) one = new_list();
	AdPluginEnv ctx = { .policy = pol, .proofs = proofs };
	AdReader *r = ad_reader_new(on_event, NULL, out);
	AdAlert *a = NULL;
	AdSuggestion *s;
	guint sig_fixes = 0;

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(perms); i++)
		g_string_append_printf(text, "type=AVC msg=audit(1700000002.100:900): avc:  denied  "
				       "{ %s } for  pid=7 comm=\"app\" scontext=system_u:system_r:"
				       "app_t:s0 tcontext=system_u:system_r:other1_t:s0 "
				       "tclass=process permissive=0\n", perms[i]);
	ad_reader_set_source(r, "test");
	ad_reader_feed(r, text->str, text->len);
	ad_reader_end_source(r);
	ad_reader_free(r);
	assert_int_equal(out->len, 3);
	for (guint i = 0; i < out->len; i++) {
		AdDenial *d = g_ptr_array_index(out, i);
		AdAlert *got = ad_alert_set_add(set, d, verdict(d), NULL);

		assert_true(!a || got == a);
		a = got;
	}
	/* the boolean does stop the siginh record alone */
	s = suggestion(one, "boolean", AD_FIX_BOOLEAN);
	ad_suggestion_add_command(s, "setsebool", "-P", "sig_bool=1", NULL);
	prove(g_ptr_array_index(out, 0), one);
	assert_int_equal(s->proof, AD_PROOF_OK);
	/* ... but not the alert */
	ad_alert_analyse(a, &ctx);
	for (guint i = 0; i < a->suggestions->len; i++) {
		AdSuggestion *x = g_ptr_array_index(a->suggestions, i);

		if (!sets_bool(x, "sig_bool"))
			continue;
		sig_fixes++;
		assert_int_equal(x->proof, AD_PROOF_FAILED);
		assert_non_null(x->still_denied);
	}
	/* the boolean is no fix of the alert: offered at most as one that is not enough */
	assert_true(sig_fixes <= 1);
	for (guint i = 0; i < a->suggestions->len; i++) {
		AdSuggestion *x = g_ptr_array_index(a->suggestions, i);

		assert_true(x->proof != AD_PROOF_OK || !sets_bool(x, "sig_bool"));
	}
}

static void test_rules_alias_attribute_types(void **state)
{
	static const char text[] =
		"[by-name]\nSummary=s\nSource=app_t\nClass=file\nKind=info\nIf=If a\nThen=Then b\n"
		"[by-alias]\nSummary=s\nSource=old_app_t\nClass=file\nKind=info\nIf=If a\n"
		"Then=Then b\n"
		"[by-attribute]\nSummary=s\nSource=domain\nClass=file\nKind=info\nIf=If a\n"
		"Then=Then b\n"
		"[pick]\nSummary=s\nSource=domain\nTypes=nosuch_t;wrong_t;good_t;ok_t\nClass=file\n"
		"Kind=fcontext\nIf=If {name}\nThen=Then label it {type}\n"
		"Command=semanage;fcontext;-a;-t;{type};--;/srv/(.*/)?{name_regex}\n";
	g_autofree char *path = g_build_filename(dir, "t.rules", NULL);
	g_autoptr(GError) error = NULL;
	AdRuleBook *b = ad_rule_book_new();
	g_autoptr(AdDenial) by_alias = avc("read", "old_app_t", "wrong_t", "file");
	g_autoptr(AdDenial) other = avc("read", "other3_t", "wrong_t", "file");
	g_autoptr(GPtrArray) s1 = new_list(), s2 = new_list();
	AdPluginEnv ctx = { .policy = pol, .rules = b };
	const char *want1[] = { "by-name", "by-alias", "by-attribute", "pick" };

	assert_true(g_file_set_contents(path, text, -1, NULL));
	g_chmod(path, 0644);
	if (!ad_rule_book_load_file(b, path, &error))
		fail_msg("%s", error->message);
	ad_rule_book_apply(b, &ctx, by_alias, verdict(by_alias), s1);
	assert_int_equal(s1->len, 4);
	for (guint i = 0; i < 4; i++) {
		const AdSuggestion *s = g_ptr_array_index(s1, i);

		assert_non_null(strstr(s->plugin, want1[i]));
	}
	{
		/* ok_t is the first candidate app_t may read: nosuch_t is skipped */
		const AdSuggestion *s = g_ptr_array_index(s1, 3);
		char **argv = g_ptr_array_index(s->commands, 0);

		assert_string_equal(argv[4], "ok_t");
		assert_string_equal(argv[6], "/srv/(.*/)?x");
		assert_string_equal(s->then_text, "Then label it ok_t");
	}
	/* other3_t: only the attribute matches; no candidate allows it: the first defined */
	ad_rule_book_apply(b, &ctx, other, verdict(other), s2);
	assert_int_equal(s2->len, 2);
	{
		const AdSuggestion *s = g_ptr_array_index(s2, 1);
		char **argv = g_ptr_array_index(s->commands, 0);

		assert_non_null(strstr(s->plugin, "pick"));
		assert_string_equal(argv[4], "wrong_t");
	}
	ad_rule_book_free(b);
}

/* {type} without Types= is refused */
static void test_rules_type_needs_types(void **state)
{
	static const char text[] = "[t]\nSummary=s\nSource=app_t\nKind=fcontext\nIf=If a\n"
				   "Then=Then b\nCommand=chcon;-t;{type};/x\n";
	g_autofree char *path = g_build_filename(dir, "bad.rules", NULL);
	g_autoptr(GError) error = NULL;
	AdRuleBook *b = ad_rule_book_new();

	assert_true(g_file_set_contents(path, text, -1, NULL));
	g_chmod(path, 0644);
	assert_false(ad_rule_book_load_file(b, path, &error));
	assert_non_null(strstr(error->message, "{type} needs Types"));
	ad_rule_book_free(b);
}

/*
 * The cache of proofs is bounded: a stream of distinct fixes (a long-running
 * dispatcher sees them) never holds more than AD_PROOF_CACHE_MAX results, and
 * a proof asked after the cache was emptied is still right.
 */
static void test_proof_cache_bounded(void **state)
{
	g_autoptr(AdDenial) d = avc("read", "app_t", "data_t", "file");

	for (guint i = 0; i < AD_PROOF_CACHE_MAX + 50; i++) {
		g_autoptr(GPtrArray) list = new_list();
		g_autofree char *arg = g_strdup_printf("no_such_bool_%u=1", i);
		AdSuggestion *s = suggestion(list, "many", AD_FIX_BOOLEAN);

		ad_suggestion_add_command(s, "setsebool", "-P", arg, NULL);
		prove(d, list);
		assert_true(g_hash_table_size(proofs) <= AD_PROOF_CACHE_MAX);
	}
	assert_true(g_hash_table_size(proofs) >= 1);
	{
		g_autoptr(GPtrArray) list = new_list();
		AdSuggestion *narrow = suggestion(list, "narrow", AD_FIX_BOOLEAN);

		ad_suggestion_add_command(narrow, "setsebool", "-P", "narrow_bool=1", NULL);
		prove(d, list);
		assert_int_equal(narrow->proof, AD_PROOF_OK);
		assert_true(g_hash_table_size(proofs) <= AD_PROOF_CACHE_MAX);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_broad_and_narrow_boolean),
		cmocka_unit_test(test_rank_harmless_broad_notes),
		cmocka_unit_test(test_relabel_needs_boolean),
		cmocka_unit_test(test_port_type),
		cmocka_unit_test(test_unproved),
		cmocka_unit_test(test_exec_checks),
		cmocka_unit_test(test_rules_alias_attribute_types),
		cmocka_unit_test(test_rules_type_needs_types),
		cmocka_unit_test(test_proof_cache_bounded),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
