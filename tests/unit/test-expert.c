// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The advice an expert gives, checked on a small policy and file_contexts
 * written here and compiled with checkpolicy, where every answer is known
 * by construction.  Each class of case runs the whole analysis (plugins,
 * proofs, ranking) as `avcdoctor analyze` does:
 *
 * - labels first: a file labelled var_t where file_contexts says
 *   web_sys_content_t, denied what that label does not grant either: the
 *   type next to it, or the relabel with the boolean or the module the
 *   restored label needs, proved as one change; never a module on var_t;
 * - generic types are broad: a module on var_t (base_file_type) or on
 *   user_home_t (the documented list) says so in its scope and ranks
 *   after a specific type;
 * - harmless denials: execmem asked for by a regular-expression JIT that
 *   falls back (the programs whose denial the maintainers hid) gets the
 *   dontaudit module first; a JIT that needs it (java) does not; a
 *   dontaudit fix is proved to hide exactly the denied access and allow
 *   nothing;
 * - ports that have an owner: web_t connecting to the database's or the
 *   mail server's port is their client: the boolean or the module first,
 *   never the port relabelled to web_port_t (named after web_t);
 * - concrete label types: a file context, device label or port label names
 *   the type the evidence points to (the entry file_contexts gives a
 *   sibling, the domain's own type, the ports next to it, the program's
 *   name), proved; without evidence, the commands that list the types,
 *   never a "TYPE" placeholder.
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
#include "analysis/plugin.h"
#include "analysis/proof.h"
#include "analysis/suggest.h"
#include "policy/labels.h"
#include "policy/policy.h"
#include "compiled-policy.h"

/*
 * web_t: reads web_sys_content_t under web_read, writes web_sys_rw_content_t;
 * var_t and spool_area_t are generic by the base_file_type attribute,
 * user_home_t by name; data_t is a file type nobody is given.
 */
static const char policy_conf[] =
	"class process\nclass file\nclass dir\nclass lnk_file\nclass chr_file\n"
	"class blk_file\nclass sock_file\nclass fifo_file\nclass tcp_socket\n"
	"class capability\n"
	"sid kernel\nsid unlabeled\n"
	"common file { ioctl read write create getattr setattr lock relabelfrom relabelto "
	"append unlink link rename execute open }\n"
	"class process { transition execmem execstack execheap siginh rlimitinh noatsecure }\n"
	"class file inherits file { execute_no_trans entrypoint execmod }\n"
	"class dir inherits file { add_name remove_name reparent search rmdir }\n"
	"class lnk_file inherits file\nclass chr_file inherits file\n"
	"class blk_file inherits file\nclass sock_file inherits file\n"
	"class fifo_file inherits file\n"
	"class tcp_socket { name_connect name_bind }\n"
	"class capability { sys_admin dac_read_search }\n"
	"sensitivity s0;\ndominance { s0 }\ncategory c0;\nlevel s0:c0;\n"
	"mlsconstrain process transition ( h1 dom h2 );\n"
	"attribute domain;\nattribute file_type;\nattribute base_file_type;\n"
	"attribute port_type;\nattribute device_node;\n"
	"type web_t, domain;\ntype other_t, domain;\n"
	"type file_t, file_type;\ntype device_t, file_type;\ntype port_t, port_type;\n"
	"type frob_device_t, device_node;\ntype null_device_t, device_node;\n"
	"type var_t, file_type, base_file_type;\ntype spool_area_t, file_type, base_file_type;\n"
	"type user_home_t, file_type;\ntype data_t, file_type;\n"
	"type web_sys_content_t, file_type;\ntype web_sys_rw_content_t, file_type;\n"
	"type web_port_t, port_type;\ntype db_port_t, port_type;\ntype mail_port_t, port_type;\n"
	"type db_t, domain;\ntype mail_t, domain;\n"
	"bool web_read false;\nbool web_db false;\nbool web_quiet false;\n"
	"if (web_quiet) { dontaudit web_t data_t:file { read write }; }\n"
	"if (web_db) { allow web_t db_port_t:tcp_socket name_connect; }\n"
	"allow db_t db_port_t:tcp_socket name_bind;\n"
	"allow mail_t mail_port_t:tcp_socket name_bind;\n"
	"allow web_t web_port_t:tcp_socket name_connect;\n"
	"if (web_read) { allow web_t web_sys_content_t:file { read open getattr }; }\n"
	"allow web_t web_sys_rw_content_t:file { read write open getattr append };\n"
	"allow other_t web_sys_content_t:file { read open getattr };\n"
	"allow other_t web_sys_rw_content_t:file { read open getattr };\n"
	"allow web_t web_port_t:tcp_socket name_bind;\n"
	"allow other_t { db_port_t mail_port_t }:tcp_socket name_bind;\n"
	"allow other_t { frob_device_t null_device_t }:chr_file { read open };\n"
	"role system_r;\nrole system_r types { domain };\n"
	"user system_u roles { system_r } level s0 range s0 - s0:c0;\n"
	"sid kernel system_u:system_r:web_t:s0\n"
	"sid unlabeled system_u:object_r:data_t:s0\n"
	"fs_use_xattr ext4 system_u:object_r:data_t:s0;\n"
	"genfscon proc / system_u:object_r:data_t:s0\n"
	"portcon tcp 25 system_u:object_r:mail_port_t:s0\n"
	"portcon tcp 80 system_u:object_r:web_port_t:s0\n"
	"portcon tcp 5432 system_u:object_r:db_port_t:s0\n";

static const char file_contexts[] =
	"/var(/.*)?\tsystem_u:object_r:var_t:s0\n"
	"/var/spool(/.*)?\tsystem_u:object_r:spool_area_t:s0\n"
	"/var/www(/.*)?\tsystem_u:object_r:web_sys_content_t:s0\n"
	"/var/www/uploads(/.*)?\tsystem_u:object_r:web_sys_rw_content_t:s0\n"
	"/home/[^/]+(/.*)?\tsystem_u:object_r:user_home_t:s0\n"
	"/var/lib/shop(/.*)?\tsystem_u:object_r:web_sys_rw_content_t:s0\n"
	"/srv/shop(/.*)?\tsystem_u:object_r:web_sys_rw_content_t:s0\n"
	"/dev(/.*)?\tsystem_u:object_r:device_t:s0\n"
	"/dev/frob[0-9]+\t-c\tsystem_u:object_r:frob_device_t:s0\n"
	"/dev/null\t-c\tsystem_u:object_r:null_device_t:s0\n";

static char *dir;
static AdPolicy *pol;
static AdLabels *labels;
static AdPluginEnv ctx;

/* Compiles policy_conf with checkpolicy (MLS, version 33), loads it and file_contexts. */
static int setup(void **state)
{
	g_autofree char *bin = NULL, *fc = NULL;
	g_autoptr(GError) error = NULL;

	(void)state;
	dir = g_dir_make_tmp("test-expert-XXXXXX", NULL);
	if (!dir || !(bin = ad_test_compile_policy(dir, policy_conf)))
		return -1;
	fc = g_build_filename(dir, "file_contexts", NULL);
	if (!g_file_set_contents(fc, file_contexts, -1, NULL))
		return -1;
	pol = ad_policy_load(bin, &error);
	if (!pol) {
		fprintf(stderr, "%s\n", error->message);
		return -1;
	}
	labels = ad_labels_open(fc, bin, &error);
	if (!labels) {
		fprintf(stderr, "%s\n", error->message);
		return -1;
	}
	ctx.policy = pol;
	ctx.labels = labels;
	ctx.proofs = ad_proof_cache_new();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ad_test_remove_dir(dir);
	g_clear_pointer(&dir, g_free);
	g_clear_pointer(&ctx.proofs, g_hash_table_unref);
	g_clear_pointer(&labels, ad_labels_free);
	g_clear_pointer(&pol, ad_policy_free);
	return 0;
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, NULL, NULL);
}

/* the one denial of @text */
static AdDenial *denial_of(const char *text)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	AdReader *r = ad_reader_new(on_event, NULL, out);

	ad_reader_set_source(r, "test");
	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	ad_reader_free(r);
	assert_int_equal(out->len, 1);
	return ad_denial_ref(g_ptr_array_index(out, 0));
}

/* an AVC of @stype on the file @path labelled @ttype, with its PATH record */
static AdDenial *avc_of(const char *stype, const char *perm, const char *ttype,
			const char *tclass, const char *path)
{
	static guint serial = 100;
	g_autofree char *text = NULL;

	serial++;
	text = g_strdup_printf(
		"type=AVC msg=audit(1700000001.100:%u): avc:  denied  { %s } for  pid=100 "
		"comm=\"web\" name=\"x\" dev=\"sda1\" ino=1 scontext=system_u:system_r:%s:s0 "
		"tcontext=system_u:object_r:%s:s0 tclass=%s permissive=0\n"
		"type=PATH msg=audit(1700000001.100:%u): item=0 name=\"%s\" inode=1 "
		"nametype=NORMAL\n",
		serial, perm, stype, ttype, tclass, serial, path);
	return denial_of(text);
}

/* an AVC of web_t on the file @path labelled @ttype, with its PATH record */
static AdDenial *file_avc(const char *perm, const char *ttype, const char *tclass,
			  const char *path)
{
	return avc_of("web_t", perm, ttype, tclass, path);
}

/* the whole analysis of @d, ranked */
static GPtrArray *analyse(const AdDenial *d)
{
	const AdVerdict *v = ad_policy_explain(pol, d->scontext, d->tcontext, d->tclass,
					       (const char *const *)d->perms->pdata,
					       d->perms->len);
	guint failures = 99;
	GPtrArray *s = ad_analyze_denial(&ctx, d, v, &failures);

	assert_int_equal(failures, 0);
	return s;
}

static AdSuggestion *nth(GPtrArray *s, guint i)
{
	assert_true(i < s->len);
	return g_ptr_array_index(s, i);
}

/* the index of the first suggestion of @plugin and @kind, or -1 */
static int find(GPtrArray *s, const char *plugin, AdFixKind kind)
{
	for (guint i = 0; i < s->len; i++)
		if (strcmp(nth(s, i)->plugin, plugin) == 0 && nth(s, i)->kind == kind)
			return (int)i;
	return -1;
}

/* does argument vector @i of @s hold @arg? */
static gboolean command_has(const AdSuggestion *s, guint i, const char *arg)
{
	char **argv;

	if (i >= s->commands->len)
		return FALSE;
	argv = g_ptr_array_index(s->commands, i);
	for (guint j = 0; argv[j]; j++)
		if (strcmp(argv[j], arg) == 0)
			return TRUE;
	return FALSE;
}

/* nothing grants the access on the label restorecon is about to change */
static void assert_nothing_on_wrong_label(GPtrArray *s)
{
	for (guint i = 0; i < s->len; i++) {
		const AdSuggestion *x = nth(s, i);

		assert_false(x->adds_rules && !x->new_type);
		assert_false(x->kind == AD_FIX_MODULE && !x->new_type);
	}
}

/* ---------------------------------------------------------------- labels first */

/*
 * A page labelled var_t where file_contexts says web_sys_content_t, and web_t
 * writes it, which web_sys_content_t does not grant either: the type next
 * to it (web_sys_rw_content_t) first, proved; the relabel with a module on
 * web_sys_content_t as one proved change after it; no module on var_t.
 */
static void test_labels_first_type_next_to_it(void **state)
{
	g_autoptr(AdDenial) d = file_avc("write", "var_t", "file", "/var/www/html/page.html");
	g_autoptr(GPtrArray) s = analyse(d);
	const AdSuggestion *first;
	int module;

	(void)state;
	assert_true(s->len >= 2);
	first = nth(s, 0);
	assert_string_equal(first->plugin, "restorecon");
	assert_int_equal(first->kind, AD_FIX_FCONTEXT);
	assert_string_equal(first->new_type, "web_sys_rw_content_t");
	assert_int_equal(first->proof, AD_PROOF_OK);
	assert_true(command_has(first, 0, "web_sys_rw_content_t"));
	assert_true(command_has(first, 1, "restorecon"));
	/* only the object: the directory's other pages keep their label */
	assert_true(command_has(first, 0, "/var/www/html/page\\.html"));

	module = find(s, "restorecon", AD_FIX_MODULE);
	assert_true(module > 0);
	assert_int_equal(nth(s, module)->proof, AD_PROOF_OK);
	assert_string_equal(nth(s, module)->new_type, "web_sys_content_t");
	assert_true(nth(s, module)->adds_rules);
	assert_true(command_has(nth(s, module), 0, "restorecon"));
	/* the module is for the restored label, built from what follows the relabel */
	assert_true(command_has(nth(s, module), 1, "web_sys_content_t"));
	assert_false(command_has(nth(s, module), 1, "var_t"));
	assert_int_equal(nth(s, module)->apply, AD_APPLY_BY_HAND);
	assert_nothing_on_wrong_label(s);
}

/*
 * Read where web_sys_content_t needs the boolean web_read: the relabel and
 * the boolean, proved together; never the boolean or a module alone on
 * var_t ahead of it.
 */
static void test_labels_first_with_boolean(void **state)
{
	g_autoptr(AdDenial) d = file_avc("read", "var_t", "file", "/var/www/html/page.html");
	g_autoptr(GPtrArray) s = analyse(d);
	int combo;

	(void)state;
	combo = find(s, "restorecon", AD_FIX_RELABEL);
	assert_true(combo >= 0);
	assert_int_equal(nth(s, combo)->proof, AD_PROOF_OK);
	assert_string_equal(nth(s, combo)->new_type, "web_sys_content_t");
	assert_true(command_has(nth(s, combo), 0, "restorecon"));
	assert_true(command_has(nth(s, combo), 1, "web_read=1"));
	/* every fix ahead of the last is on the right label */
	assert_non_null(nth(s, 0)->new_type);
	assert_int_equal(nth(s, 0)->proof, AD_PROOF_OK);
	assert_nothing_on_wrong_label(s);
}

/* a file the right label serves: the plain relabel, no combination */
static void test_labels_first_relabel_enough(void **state)
{
	g_autoptr(AdDenial) d = file_avc("write", "var_t", "file", "/var/www/uploads/a.jpg");
	g_autoptr(GPtrArray) s = analyse(d);

	(void)state;
	assert_string_equal(nth(s, 0)->plugin, "restorecon");
	assert_int_equal(nth(s, 0)->kind, AD_FIX_RELABEL);
	assert_int_equal(nth(s, 0)->proof, AD_PROOF_OK);
	assert_int_equal(nth(s, 0)->commands->len, 1);
	assert_int_equal(find(s, "restorecon", AD_FIX_MODULE), -1);
	assert_nothing_on_wrong_label(s);
}

/* ---------------------------------------------------------------- generic types */

/* by attribute (base_file_type), by refpolicy's name, not a specific type */
static void test_generic_types(void **state)
{
	(void)state;
	assert_true(ad_policy_file_type_is_generic(pol, "var_t"));
	assert_true(ad_policy_file_type_is_generic(pol, "spool_area_t"));
	assert_true(ad_policy_file_type_is_generic(pol, "user_home_t"));
	assert_false(ad_policy_file_type_is_generic(pol, "web_sys_content_t"));
	assert_false(ad_policy_file_type_is_generic(pol, "data_t"));
	assert_false(ad_policy_file_type_is_generic(pol, "no_such_t"));
}

/*
 * web_t writes a file under /var/lib, where var_t is the right label: the
 * module on var_t says it opens every var_t object and how many paths
 * file_contexts gives it, and ranks after the domain's own type.
 */
static void test_generic_module_is_broad(void **state)
{
	g_autoptr(AdDenial) d = file_avc("write", "var_t", "file", "/var/lib/webapp/state");
	g_autoptr(GPtrArray) s = analyse(d);
	g_autofree char *text = NULL;
	int module, fcontext;

	(void)state;
	module = find(s, "catchall", AD_FIX_MODULE);
	fcontext = find(s, "fcontext", AD_FIX_FCONTEXT);
	assert_true(module >= 0);
	assert_true(fcontext >= 0);
	assert_true(fcontext < module);
	assert_string_equal(nth(s, fcontext)->new_type, "web_sys_rw_content_t");
	assert_int_equal(nth(s, module)->proof, AD_PROOF_OK);
	assert_string_equal(nth(s, module)->scope.generic_type, "var_t");
	assert_int_equal(nth(s, module)->scope.type_paths, 1);
	text = ad_suggestion_proof_text(nth(s, module));
	assert_non_null(strstr(text, "var_t is a generic type"));
	assert_non_null(strstr(text, "1 path"));
}

/* a module on a specific type is not broad */
static void test_specific_module_not_broad(void **state)
{
	g_autoptr(AdDenial) d = file_avc("write", "data_t", "file", "/srv/x");
	g_autoptr(GPtrArray) s = analyse(d);
	int module;

	(void)state;
	module = find(s, "catchall", AD_FIX_MODULE);
	assert_true(module >= 0);
	assert_null(nth(s, module)->scope.generic_type);
}

/* ---------------------------------------------------------------- ports with an owner */

/* web_t connecting to @ttype port @port */
static AdDenial *connect_avc(const char *ttype, guint port)
{
	static guint serial = 500;
	g_autofree char *text = g_strdup_printf(
		"type=AVC msg=audit(1700000001.100:%u): avc:  denied  { name_connect } for  "
		"pid=100 comm=\"web\" dest=%u scontext=system_u:system_r:web_t:s0 "
		"tcontext=system_u:object_r:%s:s0 tclass=tcp_socket permissive=0\n",
		serial++, port, ttype);

	return denial_of(text);
}

/* no port fix at all, and a note that says whose port it is */
static void assert_port_kept(GPtrArray *s, const AdDenial *d)
{
	g_autoptr(GPtrArray) notes = NULL;

	for (guint i = 0; i < s->len; i++)
		assert_int_not_equal(nth(s, i)->kind, AD_FIX_PORT);
	notes = ad_suggestions_take_notes(s);
	assert_int_equal(notes->len, 1);
	assert_string_equal(((AdSuggestion *)g_ptr_array_index(notes, 0))->plugin,
			    "connect_ports");
	assert_non_null(strstr(((AdSuggestion *)g_ptr_array_index(notes, 0))->then_text,
			       "client"));
	(void)d;
}

/* the database's port under a boolean: the boolean first */
static void test_port_owner_boolean(void **state)
{
	g_autoptr(AdDenial) d = connect_avc("db_port_t", 5432);
	g_autoptr(GPtrArray) s = analyse(d);

	(void)state;
	assert_string_equal(nth(s, 0)->plugin, "boolean");
	assert_int_equal(nth(s, 0)->proof, AD_PROOF_OK);
	assert_port_kept(s, d);
}

/* the mail server's port, no boolean: the module for the connection first */
static void test_port_owner_module(void **state)
{
	g_autoptr(AdDenial) d = connect_avc("mail_port_t", 25);
	g_autoptr(GPtrArray) s = analyse(d);

	(void)state;
	assert_string_equal(nth(s, 0)->plugin, "catchall");
	assert_int_equal(nth(s, 0)->kind, AD_FIX_MODULE);
	assert_int_equal(nth(s, 0)->proof, AD_PROOF_OK);
	assert_port_kept(s, d);
}

/* ---------------------------------------------------------------- concrete label types */

/* no command of @s names a placeholder type */
static void assert_no_placeholder(GPtrArray *s)
{
	for (guint i = 0; i < s->len; i++) {
		const AdSuggestion *x = nth(s, i);

		for (guint j = 0; j < x->commands->len; j++)
			assert_false(command_has(x, j, "TYPE"));
		assert_null(strstr(x->then_text, "-t TYPE"));
	}
}

/* the one suggestion of @plugin, whatever its kind */
static const AdSuggestion *of_plugin(GPtrArray *s, const char *plugin)
{
	const AdSuggestion *found = NULL;

	for (guint i = 0; i < s->len; i++)
		if (strcmp(nth(s, i)->plugin, plugin) == 0) {
			assert_null(found);
			found = nth(s, i);
		}
	assert_non_null(found);
	return found;
}

/* is @cmd the first command of @x, as its argument vector joined by spaces? */
static void assert_command(const AdSuggestion *x, guint i, const char *cmd)
{
	g_autofree char *joined = NULL;

	assert_true(i < x->commands->len);
	joined = g_strjoinv(" ", g_ptr_array_index(x->commands, i));
	assert_string_equal(joined, cmd);
}

/*
 * other_t reads data under /var/lib/shop2, labelled var_t as file_contexts
 * says; none of the types it may read is its own.  file_contexts gives
 * /var/lib/shop (another instance of the same program's directory)
 * web_sys_rw_content_t: that one, proved, although web_sys_content_t
 * would rank first without the evidence.
 */
static void test_label_type_from_sibling(void **state)
{
	g_autoptr(AdDenial) d = avc_of("other_t", "read", "var_t", "file", "/var/lib/shop2/cart");
	g_autoptr(GPtrArray) s = analyse(d);
	const AdSuggestion *x;

	(void)state;
	assert_no_placeholder(s);
	x = of_plugin(s, "fcontext");
	assert_int_equal(x->kind, AD_FIX_FCONTEXT);
	assert_string_equal(x->new_type, "web_sys_rw_content_t");
	assert_int_equal(x->proof, AD_PROOF_OK);
	assert_command(x, 0, "semanage fcontext -a -t web_sys_rw_content_t -- /var/lib/shop2(/.*)?");
	assert_command(x, 1, "restorecon -R -v -- /var/lib/shop2");
	assert_non_null(strstr(x->then_text, "/var/lib/shop(/.*)?"));
}

/*
 * The same without a sibling: no type is guessed; how to choose one, with
 * the command that lists the rules, spelled out.
 */
static void test_label_type_by_hand(void **state)
{
	g_autoptr(AdDenial) d = avc_of("other_t", "read", "var_t", "file", "/var/lib/misc9/x");
	g_autoptr(GPtrArray) s = analyse(d);
	const AdSuggestion *x;

	(void)state;
	assert_no_placeholder(s);
	x = of_plugin(s, "fcontext");
	assert_int_equal(x->kind, AD_FIX_CONFIG);
	assert_null(x->new_type);
	assert_int_equal(x->commands->len, 1);
	assert_command(x, 0, "sesearch -A -s other_t -c file -p read");
	assert_non_null(strstr(x->then_text, "web_sys_content_t"));
}

/*
 * A file without a valid label (file_t) where file_contexts has no entry:
 * the type given near it, else the domain's own type, proved; else how to
 * choose one.
 */
static void test_unlabeled_without_entry(void **state)
{
	g_autoptr(AdDenial) near = file_avc("write", "file_t", "file", "/srv/shop2/x");
	g_autoptr(AdDenial) own = file_avc("write", "file_t", "file", "/data/x");
	g_autoptr(AdDenial) none = avc_of("other_t", "read", "file_t", "file", "/data/y");
	g_autoptr(GPtrArray) s = analyse(near);
	g_autoptr(GPtrArray) t = analyse(own);
	g_autoptr(GPtrArray) u = analyse(none);
	int i;

	(void)state;
	assert_no_placeholder(s);
	assert_no_placeholder(t);
	assert_no_placeholder(u);
	i = find(s, "file", AD_FIX_FCONTEXT);
	assert_true(i >= 0);
	assert_string_equal(nth(s, i)->new_type, "web_sys_rw_content_t");
	assert_int_equal(nth(s, i)->proof, AD_PROOF_OK);
	assert_non_null(strstr(nth(s, i)->then_text, "/srv/shop(/.*)?"));
	assert_command(nth(s, i), 0, "semanage fcontext -a -t web_sys_rw_content_t -- /srv/shop2/x");

	i = find(t, "file", AD_FIX_FCONTEXT);
	assert_true(i >= 0);
	assert_string_equal(nth(t, i)->new_type, "web_sys_rw_content_t");
	assert_int_equal(nth(t, i)->proof, AD_PROOF_OK);
	assert_non_null(strstr(nth(t, i)->then_text, "own type"));

	assert_int_equal(find(u, "file", AD_FIX_FCONTEXT), -1);
	i = find(u, "file", AD_FIX_CONFIG);
	assert_true(i >= 0);
	assert_command(nth(u, i), 0, "sesearch -A -s other_t -c file -p read");
}

/*
 * A device node with the generic label: the type file_contexts gives the
 * nodes beside it (/dev/frob[0-9]+ for /dev/frobnic), proved; an unknown
 * name gets no guess.
 */
static void test_device_type_from_sibling(void **state)
{
	g_autoptr(AdDenial) d = avc_of("other_t", "read", "device_t", "chr_file", "/dev/frobnic");
	g_autoptr(AdDenial) e = avc_of("other_t", "read", "device_t", "chr_file", "/dev/zz9");
	g_autoptr(GPtrArray) s = analyse(d);
	g_autoptr(GPtrArray) t = analyse(e);
	const AdSuggestion *x;

	(void)state;
	assert_no_placeholder(s);
	assert_no_placeholder(t);
	x = of_plugin(s, "device");
	assert_int_equal(x->kind, AD_FIX_FCONTEXT);
	assert_string_equal(x->new_type, "frob_device_t");
	assert_int_equal(x->proof, AD_PROOF_OK);
	assert_command(x, 0, "semanage fcontext -a -f c -t frob_device_t -- /dev/frobnic");
	x = of_plugin(t, "device");
	assert_int_equal(x->kind, AD_FIX_CONFIG);
	assert_command(x, 0, "sesearch -A -s other_t -c chr_file -p read");
}

/* other_t binding @port as the program @comm */
static AdDenial *bind_avc(const char *comm, guint port)
{
	static guint serial = 600;
	g_autofree char *text = g_strdup_printf(
		"type=AVC msg=audit(1700000001.100:%u): avc:  denied  { name_bind } for  "
		"pid=100 comm=\"%s\" src=%u scontext=system_u:system_r:other_t:s0 "
		"tcontext=system_u:object_r:port_t:s0 tclass=tcp_socket permissive=0\n",
		serial++, comm, port);

	return denial_of(text);
}

/*
 * No port type is named after other_t: the one of the ports next to this
 * one (db_port_t, 5432 for 5433), the one the program is named after
 * (mail_port_t for mail-relay), else none: the commands that show the
 * port's label and the types other_t may bind.
 */
static void test_port_type_evidence(void **state)
{
	g_autoptr(AdDenial) next = bind_avc("other", 5433);
	g_autoptr(AdDenial) named = bind_avc("mail-relay", 40000);
	g_autoptr(AdDenial) none = bind_avc("other", 40000);
	g_autoptr(GPtrArray) s = analyse(next);
	g_autoptr(GPtrArray) t = analyse(named);
	g_autoptr(GPtrArray) u = analyse(none);
	const AdSuggestion *x;

	(void)state;
	assert_no_placeholder(s);
	assert_no_placeholder(t);
	assert_no_placeholder(u);
	x = of_plugin(s, "bind_ports");
	assert_int_equal(x->kind, AD_FIX_PORT);
	assert_string_equal(x->new_type, "db_port_t");
	assert_int_equal(x->proof, AD_PROOF_OK);
	assert_command(x, 0, "semanage port -a -t db_port_t -p tcp 5433");
	assert_non_null(strstr(x->then_text, "5432"));
	x = of_plugin(t, "bind_ports");
	assert_string_equal(x->new_type, "mail_port_t");
	assert_int_equal(x->proof, AD_PROOF_OK);
	x = of_plugin(u, "bind_ports");
	assert_int_equal(x->kind, AD_FIX_CONFIG);
	assert_null(x->new_type);
	assert_command(x, 0, "seinfo --portcon 40000");
	assert_command(x, 1, "sesearch -A -s other_t -c tcp_socket -p name_bind");
}

/* ---------------------------------------------------------------- harmless: JITs */

/* web_t (as the process @comm) asking for @perm on itself */
static AdDenial *process_avc(const char *comm, const char *perm)
{
	static guint serial = 700;
	g_autofree char *text = g_strdup_printf(
		"type=AVC msg=audit(1700000001.100:%u): avc:  denied  { %s } for  pid=100 "
		"comm=\"%s\" scontext=system_u:system_r:web_t:s0 "
		"tcontext=system_u:system_r:web_t:s0 tclass=process permissive=0\n",
		serial++, perm, comm);

	return denial_of(text);
}

/* libvirt's daemons match regular expressions with GLib's JIT, which falls back */
static void test_jit_fallback_silenced(void **state)
{
	g_autoptr(AdDenial) d = process_avc("virtqemud", "execmem");
	g_autoptr(GPtrArray) s = analyse(d);

	(void)state;
	assert_string_equal(nth(s, 0)->plugin, "harmless");
	assert_int_equal(nth(s, 0)->kind, AD_FIX_DONTAUDIT);
	assert_true(nth(s, 0)->harmless);
	assert_true(command_has(nth(s, 0), 0, "-D"));
	assert_non_null(strstr(nth(s, 0)->then_text, "G_REGEX_OPTIMIZE"));
	/* the module granting it is still there, after */
	assert_true(find(s, "catchall", AD_FIX_MODULE) > 0);
}

/*
 * A dontaudit fix is proved like the others: it hides exactly the denied
 * access and allows nothing.  The JIT's module: proved, its scope the one
 * rule, its proof in words.  A boolean that hides more than the denied
 * permission, or one that allows the access, is not enough.
 */
static void test_dontaudit_proved(void **state)
{
	g_autoptr(AdDenial) jit = process_avc("virtqemud", "execmem");
	g_autoptr(AdDenial) rd = file_avc("read", "data_t", "file", "/srv/data");
	g_autoptr(AdDenial) page = file_avc("read", "web_sys_content_t", "file", "/var/www/x");
	g_autoptr(GPtrArray) s = analyse(jit);
	g_autoptr(GPtrArray) tries = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ad_suggestion_free);
	g_autofree char *text = ad_suggestion_proof_text(nth(s, 0));
	const AdVerdict *v;
	AdSuggestion *x;

	(void)state;
	assert_int_equal(nth(s, 0)->kind, AD_FIX_DONTAUDIT);
	assert_true(nth(s, 0)->hides_rules);
	assert_false(nth(s, 0)->adds_rules);
	assert_int_equal(nth(s, 0)->proof, AD_PROOF_OK);
	assert_int_equal(nth(s, 0)->scope.accesses, 0);
	assert_string_equal(g_ptr_array_index(nth(s, 0)->scope.examples, 0),
			    "dontaudit web_t self:process { execmem };");
	assert_string_equal(text, "Checked against the policy: this hides exactly the denied "
			    "access and allows nothing.");

	/* a module hiding read on data_t; the boolean hiding read and write */
	x = ad_suggestion_new("t", AD_FIX_DONTAUDIT, 0.5, AD_LEVEL_GREEN);
	ad_suggestion_add_command(x, "avcdoctor", "allow", "-D", "-M", "m", NULL);
	g_ptr_array_add(tries, x);
	x = ad_suggestion_new("t", AD_FIX_DONTAUDIT, 0.5, AD_LEVEL_GREEN);
	ad_suggestion_add_command(x, "setsebool", "-P", "web_quiet=1", NULL);
	g_ptr_array_add(tries, x);
	v = ad_policy_explain(pol, rd->scontext, rd->tcontext, rd->tclass,
			      (const char *const *)rd->perms->pdata, rd->perms->len);
	ad_suggestions_prove(&ctx, rd, v, tries);
	assert_int_equal(nth(tries, 0)->proof, AD_PROOF_OK);
	assert_int_equal(nth(tries, 1)->proof, AD_PROOF_FAILED);
	assert_non_null(strstr(nth(tries, 1)->still_denied, "write"));

	/* a "dontaudit" that turns on the boolean allowing the access */
	g_ptr_array_set_size(tries, 0);
	x = ad_suggestion_new("t", AD_FIX_DONTAUDIT, 0.5, AD_LEVEL_GREEN);
	ad_suggestion_add_command(x, "setsebool", "-P", "web_read=1", NULL);
	g_ptr_array_add(tries, x);
	v = ad_policy_explain(pol, page->scontext, page->tcontext, page->tclass,
			      (const char *const *)page->perms->pdata, page->perms->len);
	ad_suggestions_prove(&ctx, page, v, tries);
	assert_int_equal(nth(tries, 0)->proof, AD_PROOF_FAILED);
	assert_non_null(strstr(nth(tries, 0)->still_denied, "not hide"));
	/* the policy is as it was */
	assert_int_equal(ad_policy_explain(pol, rd->scontext, rd->tcontext, rd->tclass,
					   (const char *const *)rd->perms->pdata,
					   rd->perms->len)->reason, AD_REASON_TE_RULE);
}

/* a JIT that needs the memory, and execstack from the same program: not silenced */
static void test_jit_needed_not_silenced(void **state)
{
	g_autoptr(AdDenial) java = process_avc("java", "execmem");
	g_autoptr(AdDenial) stack = process_avc("virtqemud", "execstack");
	g_autoptr(GPtrArray) s = analyse(java);
	g_autoptr(GPtrArray) t = analyse(stack);

	(void)state;
	assert_int_equal(find(s, "harmless", AD_FIX_DONTAUDIT), -1);
	assert_int_equal(find(t, "harmless", AD_FIX_DONTAUDIT), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels_first_type_next_to_it),
		cmocka_unit_test(test_labels_first_with_boolean),
		cmocka_unit_test(test_labels_first_relabel_enough),
		cmocka_unit_test(test_generic_types),
		cmocka_unit_test(test_generic_module_is_broad),
		cmocka_unit_test(test_specific_module_not_broad),
		cmocka_unit_test(test_port_owner_boolean),
		cmocka_unit_test(test_port_owner_module),
		cmocka_unit_test(test_label_type_from_sibling),
		cmocka_unit_test(test_label_type_by_hand),
		cmocka_unit_test(test_unlabeled_without_entry),
		cmocka_unit_test(test_device_type_from_sibling),
		cmocka_unit_test(test_port_type_evidence),
		cmocka_unit_test(test_jit_fallback_silenced),
		cmocka_unit_test(test_jit_needed_not_silenced),
		cmocka_unit_test(test_dontaudit_proved),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
