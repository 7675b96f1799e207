// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the cause plugins that are not about file labels (ports,
 * memory protections, leaks, permissive, policy mismatch, invalid
 * contexts, constraints, intrusion indicators, capabilities, IPv6) and
 * for the port lookup (policy-ports.c), against the real Debian policy.
 * Records go through the reader and the denial builder as in the
 * programs; verdicts come from the policy engine.
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

#include <sepol/policydb/services.h>

#include "read/denial.h"
#include "escape.h"
#include "policy/labels.h"
#include "analysis/plugin.h"
#include "analysis/alert.h"
#include "plugins.h"
#include "policy/policy-ports.h"
#include "policy/policy-private.h"
#include "read/reader.h"
#include "read/signature.h"
#include "policy/policy-edit.h"

#define REAL_POLICY "/etc/selinux/default/policy/policy.33"

static AdPolicy *policy;
static AdLabels *labels;

#define NEED_POLICY()                                                                      \
	do {                                                                               \
		if (!policy) {                                                             \
			print_message("skipped: %s is not available\n", REAL_POLICY);     \
			skip();                                                            \
		}                                                                          \
	} while (0)

/* ---------------------------------------------------------------- helpers */

static void on_event(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, NULL, NULL);
}

/* the denials of @text (raw audit records), in input order */
static GPtrArray *denials_of(const char *text)
{
	GPtrArray *denials = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autoptr(AdReader) r = ad_reader_new(on_event, NULL, denials);

	ad_reader_set_source(r, "test");
	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	return denials;
}

static void verdict_free(AdVerdict *v)
{
	if (!v)
		return;
	g_free(v->detail);
	g_free(v);
}

/* SELINUX_ERR verdicts are made by the programs (cli.c): the same here */
static AdVerdict *err_verdict(const AdDenial *d)
{
	AdVerdict *v = g_new0(AdVerdict, 1);
	g_autofree char *why = ad_policy_context_problem(policy, d->invalid_context);

	v->reason = AD_REASON_INVALID_CONTEXT;
	v->detail = why ? g_strdup_printf("The context %s is invalid: %s.", d->invalid_context,
					  why)
			: g_strdup_printf("The context %s is valid in this policy.",
					  d->invalid_context);
	return v;
}

/* One denial with its verdict and context, ready for the plugins. */
typedef struct {
	GPtrArray *denials;
	AdDenial *d;
	const AdVerdict *v;
	AdVerdict *own;		/* SELINUX_ERR verdict, owned */
	AdPluginEnv ctx;
} Case;

static void case_free(Case *c)
{
	if (!c)
		return;
	verdict_free(c->own);
	g_ptr_array_unref(c->denials);
	g_free(c);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Case, case_free)

static const AdVerdict *verdict_for(Case *c, AdDenial *d)
{
	if (d->type == AD_DENIAL_SELINUX_ERR || d->type == AD_DENIAL_USER_SELINUX_ERR) {
		verdict_free(c->own);
		c->own = err_verdict(d);
		return c->own;
	}
	return ad_policy_explain(policy, d->scontext, d->tcontext, d->tclass,
				 (const char *const *)d->perms->pdata, d->perms->len);
}

/* the @index-th denial of @text */
static Case *case_new(const char *text, guint index)
{
	Case *c = g_new0(Case, 1);

	c->denials = denials_of(text);
	assert_true(index < c->denials->len);
	c->d = g_ptr_array_index(c->denials, index);
	c->v = verdict_for(c, c->d);
	c->ctx.policy = policy;
	c->ctx.labels = labels;
	return c;
}

/* what @plugin says about the case; asserts the return value */
static GPtrArray *run(const AdPlugin *plugin, Case *c, int want)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);

	/* as the host runs it: only for what the plugin declares it looks at */
	assert_int_equal(ad_plugin_wants(plugin, c->d, c->v) ?
				 plugin->analyze(c->d, c->v, &c->ctx, out) : 0, want);
	if (want == 0)
		assert_int_equal(out->len, 0);
	for (guint i = 0; i < out->len; i++) {
		AdSuggestion *s = g_ptr_array_index(out, i);

		assert_string_equal(s->plugin, plugin->id);
		assert_true(s->confidence > 0 && s->confidence <= 1);
		assert_non_null(s->if_text);
		assert_non_null(s->then_text);
		assert_true(g_utf8_validate(s->if_text, -1, NULL));
		assert_true(g_utf8_validate(s->then_text, -1, NULL));
	}
	return out;
}

static AdSuggestion *only(GPtrArray *s)
{
	assert_int_equal(s->len, 1);
	return g_ptr_array_index(s, 0);
}

static void assert_contains(const char *text, const char *part)
{
	if (!text || !strstr(text, part))
		fail_msg("\"%s\" not in \"%s\"", part, text ? text : "(null)");
}

/* command @i of @s as one shell line */
static char *command_line(const AdSuggestion *s, guint i)
{
	assert_true(i < s->commands->len);
	return ad_shell_join(g_ptr_array_index(s->commands, i));
}

static void assert_command(const AdSuggestion *s, guint i, const char *want)
{
	g_autofree char *line = command_line(s, i);

	assert_string_equal(line, want);
}

/* suggestion @s's command @i is @before, the module name of @d's alert (+ @suffix), @after */
static void assert_module_command(const AdSuggestion *s, guint i, const char *before,
				  const AdDenial *d, const char *suffix, const char *after)
{
	g_autofree char *name = ad_module_name(d, suffix);
	g_autofree char *id = ad_denial_signature(d);
	g_autofree char *want = NULL;

	/* one name per alert: the domain, then the alert id's first 8 characters */
	assert_true(g_str_has_prefix(name, "avcdoctor_"));
	assert_true(strncmp(name + strlen(name) - strlen(suffix) - 8, id, 8) == 0);
	want = g_strconcat(before, name, after, NULL);
	assert_command(s, i, want);
}

/* the index of the first suggestion of @plugin in @all, -1 when none */
static int index_of(GPtrArray *all, const char *plugin)
{
	for (guint i = 0; i < all->len; i++)
		if (strcmp(((AdSuggestion *)g_ptr_array_index(all, i))->plugin, plugin) == 0)
			return (int)i;
	return -1;
}

static GPtrArray *analyze_all(Case *c)
{
	guint failures = 99;
	GPtrArray *all = ad_analyze_denial(&c->ctx, c->d, c->v, &failures);

	assert_int_equal(failures, 0);
	return all;
}

/* ---------------------------------------------------------------- records */

/* selinux-audit2allow-test.log, serial 851 */
#define REC_BIND_81                                                                        \
	"node=james.example.com type=AVC msg=audit(1165963069.244:851): avc:  denied  { "   \
	"name_bind } for  pid=21134 comm=\"httpd\" src=81 "                                \
	"scontext=system_u:system_r:httpd_t:s0 "                                            \
	"tcontext=system_u:object_r:reserved_port_t:s0 tclass=tcp_socket\n"

/* crafted/debian-refpolicy-cases.log */
#define REC_104                                                                            \
	"type=AVC msg=audit(1700000004.100:104): avc:  denied  { name_connect } for  "      \
	"pid=100 comm=\"httpd\" dest=8080 scontext=system_u:system_r:httpd_t:s0 "          \
	"tcontext=system_u:object_r:http_cache_port_t:s0 tclass=tcp_socket permissive=0\n"  \
	"type=SOCKADDR msg=audit(1700000004.100:104): "                                    \
	"saddr=02001F907F0000010000000000000000\n"
#define REC_102                                                                            \
	"type=AVC msg=audit(1700000002.100:102): avc:  denied  { read } for  pid=100 "     \
	"comm=\"httpd\" name=\"shadow\" dev=\"sda1\" ino=1 "                                \
	"scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:shadow_t:s0 "   \
	"tclass=file permissive=1\n"
#define REC_106                                                                            \
	"type=AVC msg=audit(1700000006.100:106): avc:  denied  { transition } for  "        \
	"pid=300 comm=\"bash\" path=\"/usr/bin/dirmngr\" dev=\"sda1\" ino=4 "              \
	"scontext=root:staff_r:staff_t:s0 tcontext=root:system_r:dirmngr_t:s0 "            \
	"tclass=process permissive=0\n"
#define REC_108                                                                            \
	"type=AVC msg=audit(1700000008.100:108): avc:  denied  { frobnicate } for  "        \
	"pid=500 comm=\"x\" scontext=system_u:system_r:httpd_t:s0 "                        \
	"tcontext=system_u:object_r:shadow_t:s0 tclass=file permissive=0\n"
#define REC_109                                                                            \
	"type=AVC msg=audit(1700000009.100:109): avc:  denied  { read } for  pid=500 "     \
	"comm=\"x\" scontext=system_u:system_r:httpd_t:s0 "                                \
	"tcontext=system_u:object_r:shadow_t:s0 tclass=nosuchclass permissive=0\n"
#define REC_112                                                                            \
	"type=SELINUX_ERR msg=audit(1700000012.100:112): op=security_compute_sid "          \
	"invalid_context=\"staff_u:staff_r:httpd_t:s0\" "                                  \
	"scontext=staff_u:staff_r:staff_t:s0 tcontext=system_u:object_r:httpd_exec_t:s0 "  \
	"tclass=process\n"
#define REC_113                                                                            \
	"type=SELINUX_ERR msg=audit(1700000013.100:113): security_compute_sid:  invalid "  \
	"context staff_u:staff_r:mount_t:s0 for scontext=staff_u:staff_r:staff_t:s0 "      \
	"tcontext=system_u:object_r:mount_exec_t:s0 tclass=process\n"
#define REC_114                                                                            \
	"type=AVC msg=audit(1700000014.100:114): avc:  denied  { read } for  pid=900 "     \
	"comm=\"foo\" scontext=system_u:system_r:foo_t:s0 "                                \
	"tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0\n"
#define REC_115                                                                            \
	"type=AVC msg=audit(1700000015.100:115): avc:  denied  { execstack } for  pid=901 " \
	"comm=\"x\" scontext=staff_u:auditadm_r:auditadm_t:s0 "                            \
	"tcontext=staff_u:auditadm_r:auditadm_t:s0 tclass=process permissive=0\n"

/* a denial of @perms on @tclass between two contexts (written for the tests) */
static char *avc(const char *perms, const char *scontext, const char *tcontext,
		 const char *tclass, const char *extra)
{
	return g_strdup_printf("type=AVC msg=audit(1700002000.100:300): avc:  denied  { %s } "
			       "for  pid=3000 comm=\"t\" %s scontext=%s tcontext=%s tclass=%s "
			       "permissive=0\n", perms, extra ? extra : "", scontext, tcontext,
			       tclass);
}

/* ---------------------------------------------------------------- ports */

static void test_port_type(void **state)
{
	static const struct {
		const char *proto;
		guint port;
		const char *type;
		gboolean defined;
	} cases[] = {
		{ "tcp", 80, "http_port_t", TRUE },
		{ "tcp", 8080, "http_cache_port_t", TRUE },
		{ "tcp", 40000, "unreserved_port_t", FALSE },
		{ "tcp", 65535, "unreserved_port_t", FALSE },
		{ "tcp", 81, "reserved_port_t", FALSE },
		{ "tcp", 600, "hi_reserved_port_t", FALSE },
		{ "tcp", 3306, "mysqld_port_t", TRUE },
		{ "udp", 53, "dns_port_t", TRUE },
		{ "udp", 8080, "unreserved_port_t", FALSE },
		{ "sctp", 80, "reserved_port_t", FALSE },
		/* no portcon covers port 0 or DCCP: the "port" initial SID */
		{ "tcp", 0, "port_t", FALSE },
		{ "dccp", 80, "port_t", FALSE },
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *t = ad_policy_port_type(policy, cases[i].proto, cases[i].port);

		if (!t || strcmp(t, cases[i].type) != 0)
			fail_msg("%s/%u: %s, wanted %s", cases[i].proto, cases[i].port,
				 t ? t : "(null)", cases[i].type);
		assert_int_equal(ad_policy_port_is_defined(policy, cases[i].proto,
							   cases[i].port), cases[i].defined);
		/* cached: the same answer again */
		g_free(t);
		t = ad_policy_port_type(policy, cases[i].proto, cases[i].port);
		assert_string_equal(t, cases[i].type);
	}
	assert_null(ad_policy_port_type(policy, "icmp", 80));
	assert_null(ad_policy_port_type(policy, NULL, 80));
	assert_null(ad_policy_port_type(policy, "tcp", 65536));
	assert_false(ad_policy_port_is_defined(policy, "tcp", 70000));

	assert_true(ad_policy_port_type_is_generic(policy, "reserved_port_t"));
	assert_true(ad_policy_port_type_is_generic(policy, "hi_reserved_port_t"));
	assert_true(ad_policy_port_type_is_generic(policy, "unreserved_port_t"));
	assert_true(ad_policy_port_type_is_generic(policy, "port_t"));
	assert_false(ad_policy_port_type_is_generic(policy, "http_port_t"));
	assert_false(ad_policy_port_type_is_generic(policy, "xserver_port_t"));
	assert_false(ad_policy_port_type_is_generic(policy, NULL));

	assert_string_equal(ad_port_protocol_of_class("tcp_socket"), "tcp");
	assert_string_equal(ad_port_protocol_of_class("sctp_socket"), "sctp");
	assert_null(ad_port_protocol_of_class("unix_stream_socket"));
	assert_null(ad_port_protocol_of_class(NULL));
}

/* libsepol's own portcon lookup (sepol_port_sid) agrees on every port */
static void test_port_type_libsepol(void **state)
{
	static const struct {
		const char *name;
		guint8 number;
	} protos[] = { { "tcp", 6 }, { "udp", 17 }, { "sctp", 132 } };
	guint checked = 0;

	NEED_POLICY();
	ad_policy_activate(policy);
	for (guint i = 0; i < G_N_ELEMENTS(protos); i++) {
		for (guint port = 1; port <= 65535; port += port < 2048 ? 1 : 7) {
			sepol_security_id_t sid = 0;
			sepol_security_context_t con = NULL;
			size_t len = 0;
			g_autofree char *mine = ad_policy_port_type(policy, protos[i].name, port);
			g_autofree char *theirs = NULL;

			assert_int_equal(sepol_port_sid(0, 0, protos[i].number, port, &sid), 0);
			assert_int_equal(sepol_sid_to_context(sid, &con, &len), 0);
			theirs = ad_context_type(con);
			free(con);
			if (g_strcmp0(mine, theirs) != 0)
				fail_msg("%s/%u: %s, libsepol says %s", protos[i].name, port,
					 mine ? mine : "(null)", theirs ? theirs : "(null)");
			checked++;
		}
	}
	assert_true(checked > 20000);
}

static void test_bind_generic_port(void **state)
{
	g_autoptr(Case) c = NULL;
	g_autoptr(GPtrArray) s = NULL;
	g_autoptr(GPtrArray) all = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c = case_new(REC_BIND_81, 0);
	assert_int_equal(c->v->reason, AD_REASON_TE_RULE);
	s = run(&ad_plugin_bind_ports, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_PORT);
	assert_int_equal(sg->level, AD_LEVEL_GREEN);
	assert_true(sg->confidence >= 0.8);
	assert_command(sg, 0, "semanage port -a -t http_port_t -p tcp 81");
	assert_contains(sg->then_text, "reserved_port_t");
	/* connect_ports does not answer for a bind */
	g_clear_pointer(&s, g_ptr_array_unref);
	s = run(&ad_plugin_connect_ports, c, 0);
	/* ranked first overall */
	all = analyze_all(c);
	assert_int_equal(index_of(all, "bind_ports"), 0);
}

/* a port another service owns by name: -m, and a yellow level */
static void test_bind_defined_port(void **state)
{
	g_autofree char *text = avc("name_bind", "system_u:system_r:httpd_t:s0",
				    "system_u:object_r:mysqld_port_t:s0", "tcp_socket",
				    "src=3306");
	g_autoptr(Case) c = NULL;
	g_autoptr(GPtrArray) s = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c = case_new(text, 0);
	s = run(&ad_plugin_bind_ports, c, 1);
	sg = only(s);
	assert_int_equal(sg->level, AD_LEVEL_YELLOW);
	assert_command(sg, 0, "semanage port -m -t http_port_t -p tcp 3306");
	assert_contains(sg->then_text, "already defined");
	assert_contains(sg->then_text, "mysqld_port_t");
}

/* logged as reserved_port_t, labelled http_port_t by this policy: already fixed */
static void test_bind_relabelled_since(void **state)
{
	g_autofree char *text = avc("name_bind", "system_u:system_r:httpd_t:s0",
				    "system_u:object_r:reserved_port_t:s0", "tcp_socket",
				    "src=80");
	g_autoptr(Case) c = NULL;
	g_autoptr(GPtrArray) s = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c = case_new(text, 0);
	s = run(&ad_plugin_bind_ports, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_INFO);
	assert_int_equal(sg->commands->len, 0);
	assert_contains(sg->then_text, "nothing needs to be done");
	assert_contains(sg->then_text, "http_port_t");
}

/* crafted 104: the boolean is the fix; the port plugin says why not to relabel */
static void test_connect_cache_port(void **state)
{
	g_autoptr(Case) c = NULL;
	g_autoptr(GPtrArray) s = NULL;
	g_autoptr(GPtrArray) all = NULL;
	AdSuggestion *sg, *first;
	int port_at;

	NEED_POLICY();
	c = case_new(REC_104, 0);
	assert_int_equal(c->d->port, 8080);
	assert_int_equal(c->v->reason, AD_REASON_BOOLEAN);
	s = run(&ad_plugin_connect_ports, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_INFO);
	assert_int_equal(sg->commands->len, 0);
	assert_contains(sg->then_text, "http_cache_port_t");
	assert_contains(sg->then_text, "boolean");

	all = analyze_all(c);
	first = g_ptr_array_index(all, 0);
	assert_string_equal(first->plugin, "boolean");
	/* the narrowest boolean first: relaying to cache ports, not connecting to every port */
	assert_command(first, 0, "setsebool -P httpd_can_network_relay=1");
	assert_int_equal(first->proof, AD_PROOF_OK);
	for (guint i = 1; i < all->len; i++) {
		AdSuggestion *x = g_ptr_array_index(all, i);

		if (x->kind == AD_FIX_BOOLEAN && x->proof == AD_PROOF_OK)
			assert_true(first->scope.accesses <= x->scope.accesses);
	}
	port_at = index_of(all, "connect_ports");
	assert_true(port_at > 0);
	/* a note, not a fix: below every fix, the boolean alternatives among them */
	assert_true(((AdSuggestion *)g_ptr_array_index(all, port_at))->note);
	for (guint i = 0; i < all->len; i++)
		if (((AdSuggestion *)g_ptr_array_index(all, i))->kind == AD_FIX_BOOLEAN)
			assert_true((int)i < port_at);
}

/* no port number in the record: nothing to label */
static void test_port_unknown(void **state)
{
	g_autofree char *text = avc("name_bind", "system_u:system_r:httpd_t:s0",
				    "system_u:object_r:reserved_port_t:s0", "tcp_socket", NULL);
	g_autoptr(Case) c = NULL;
	g_autoptr(GPtrArray) s = NULL;

	NEED_POLICY();
	c = case_new(text, 0);
	s = run(&ad_plugin_bind_ports, c, 0);
}

/* ---------------------------------------------------------------- memory */

/* selinux-sepolgen-test_data-httpd.log: mono (12982), gnome-screensaver (12658) */
#define REC_MONO                                                                           \
	"type=AVC msg=audit(1163776867.943:12982): avc:  denied  { execheap } for  "       \
	"pid=14873 comm=\"mono\" scontext=staff_u:staff_r:staff_t:s0 "                    \
	"tcontext=staff_u:staff_r:staff_t:s0 tclass=process\n"                             \
	"type=AVC msg=audit(1163776867.943:12982): avc:  denied  { execmem } for  "        \
	"pid=14873 comm=\"mono\" scontext=staff_u:staff_r:staff_t:s0 "                    \
	"tcontext=staff_u:staff_r:staff_t:s0 tclass=process\n"
#define REC_EXECSTACK                                                                      \
	"type=AVC msg=audit(1163776200.670:12658): avc:  denied  { execstack } for  "      \
	"pid=13074 comm=\"gnome-screensav\" scontext=staff_u:staff_r:staff_t:s0 "         \
	"tcontext=staff_u:staff_r:staff_t:s0 tclass=process\n"

static void test_execmem(void **state)
{
	g_autoptr(Case) heap = NULL, mem = NULL, stack = NULL, other = NULL;
	g_autoptr(GPtrArray) s1 = NULL, s2 = NULL, s3 = NULL, s4 = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	heap = case_new(REC_MONO, 0);
	s1 = run(&ad_plugin_execmem, heap, 1);
	sg = only(s1);
	assert_int_equal(sg->kind, AD_FIX_REPORT_BUG);
	assert_int_equal(sg->level, AD_LEVEL_YELLOW);
	assert_contains(sg->if_text, "execheap");
	assert_contains(sg->then_text, "No boolean");

	mem = case_new(REC_MONO, 1);
	assert_int_equal(mem->v->reason, AD_REASON_BOOLEAN);
	s2 = run(&ad_plugin_execmem, mem, 1);
	sg = only(s2);
	assert_contains(sg->then_text, "allow_execmem is on");
	assert_true(sg->confidence < 0.5);

	/* the combination the engine finds: allow_execstack && allow_execmem */
	stack = case_new(REC_EXECSTACK, 0);
	s3 = run(&ad_plugin_execmem, stack, 1);
	sg = only(s3);
	assert_contains(sg->then_text, "allow_execstack is on");
	assert_contains(sg->then_text, "allow_execmem is on");
	assert_contains(sg->then_text, "noexecstack");
	assert_int_equal(sg->commands->len, 0);

	/* not a memory permission */
	other = case_new(REC_106, 0);
	s4 = run(&ad_plugin_execmem, other, 0);
}

static void test_execmod(void **state)
{
	g_autofree char *text = avc("execmod", "staff_u:staff_r:staff_t:s0",
				    "system_u:object_r:usr_t:s0", "file",
				    "path=\"/opt/game/lib/libold.so.1\" dev=\"sda1\" ino=42");
	/* attacker-chosen path: kept as one argument, never shell text */
	g_autofree char *evil = avc("execmod", "staff_u:staff_r:staff_t:s0",
				    "system_u:object_r:usr_t:s0", "file",
				    "path=\"/tmp/$(touch /tmp/pwned);x.so\" dev=\"sda1\" ino=42");
	/* hex-encoded path with a newline: no file_contexts line can name it */
	g_autofree char *ctl = avc("execmod", "staff_u:staff_r:staff_t:s0",
				   "system_u:object_r:usr_t:s0", "file",
				   "path=2F746D702F610A622E736F dev=\"sda1\" ino=42");
	g_autoptr(Case) c = NULL, e = NULL, k = NULL;
	g_autoptr(GPtrArray) s = NULL, se = NULL, sk = NULL;
	AdSuggestion *sg;
	char **argv;

	NEED_POLICY();
	c = case_new(text, 0);
	s = run(&ad_plugin_execmod, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_FCONTEXT);
	assert_command(sg, 0, "semanage fcontext -a -t textrel_shlib_t -- "
			      "'/opt/game/lib/libold\\.so\\.1'");
	assert_command(sg, 1, "restorecon -v -- /opt/game/lib/libold.so.1");
	assert_contains(sg->then_text, "TEXTREL");

	e = case_new(evil, 0);
	se = run(&ad_plugin_execmod, e, 1);
	sg = only(se);
	argv = g_ptr_array_index(sg->commands, 1);
	assert_string_equal(argv[2], "--");
	assert_string_equal(argv[3], "/tmp/$(touch /tmp/pwned);x.so");
	argv = g_ptr_array_index(sg->commands, 0);
	/* file_contexts fields are separated by white space: a space matches as "." */
	assert_string_equal(argv[6], "/tmp/\\$\\(touch./tmp/pwned\\);x\\.so");

	k = case_new(ctl, 0);
	sk = run(&ad_plugin_execmod, k, 1);
	sg = only(sk);
	assert_int_equal(sg->commands->len, 0);
	assert_contains(sg->then_text, "control characters");
}

static void test_mmap_zero(void **state)
{
	g_autofree char *user = avc("mmap_zero", "staff_u:staff_r:staff_t:s0",
				    "staff_u:staff_r:staff_t:s0", "memprotect", NULL);
	g_autofree char *wine = avc("mmap_zero", "system_u:system_r:wine_t:s0",
				    "system_u:system_r:wine_t:s0", "memprotect", NULL);
	g_autoptr(Case) u = NULL, w = NULL;
	g_autoptr(GPtrArray) su = NULL, sw = NULL, all = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	u = case_new(user, 0);
	su = run(&ad_plugin_mmap_zero, u, 1);
	sg = only(su);
	assert_int_equal(sg->kind, AD_FIX_ATTACK);
	assert_int_equal(sg->level, AD_LEVEL_RED);
	all = analyze_all(u);
	assert_int_equal(ad_suggestions_level(all), AD_LEVEL_RED);
	assert_int_equal(index_of(all, "mmap_zero"), 0);

	/* wine_t: mmap_low_allowed in the verdict, wine_mmap_zero_ignore in the policy */
	w = case_new(wine, 0);
	assert_int_equal(w->v->reason, AD_REASON_BOOLEAN);
	sw = run(&ad_plugin_mmap_zero, w, 1);
	sg = only(sw);
	assert_int_equal(sg->kind, AD_FIX_DONTAUDIT);
	assert_int_not_equal(sg->level, AD_LEVEL_RED);
	assert_command(sg, 0, "setsebool -P wine_mmap_zero_ignore=1");
}

/* ---------------------------------------------------------------- leaks */

#define REC_LEAK                                                                           \
	"type=AVC msg=audit(1700001005.100:205): avc:  denied  { read write } for  "       \
	"pid=2005 comm=\"mount\" path=\"pipe:[31337]\" dev=\"pipefs\" ino=31337 "         \
	"scontext=system_u:system_r:mount_t:s0 tcontext=system_u:system_r:crond_t:s0 "     \
	"tclass=fifo_file permissive=0\n"                                                  \
	"type=SYSCALL msg=audit(1700001005.100:205): arch=c000003e syscall=59 success=yes "\
	"exit=0 a0=55d0 a1=55d1 a2=55d2 a3=0 items=2 ppid=2000 pid=2005 auid=0 uid=0 "     \
	"gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 "              \
	"comm=\"mount\" exe=\"/usr/bin/mount\" subj=system_u:system_r:mount_t:s0 "         \
	"key=(null)\n"
/* selinux-sepolgen-test_data-audit.log 1066: a leak the policy dontaudits */
#define REC_LEAK_1066                                                                      \
	"type=AVC msg=audit(1162850424.808:1066): avc:  denied  { read write } for  "      \
	"pid=6595 comm=\"gnome-settings-\" name=\"[98613]\" dev=sockfs ino=98613 "         \
	"scontext=staff_u:staff_r:staff_t:s0 tcontext=staff_u:staff_r:staff_dbusd_t:s0 "   \
	"tclass=netlink_selinux_socket\n"                                                  \
	"type=SYSCALL msg=audit(1162850424.808:1066): arch=40000003 syscall=11 "           \
	"success=yes exit=0 a0=8e5d9b0 a1=8e5ccd8 a2=8e5db70 a3=b items=0 ppid=6594 "      \
	"pid=6595 auid=500 uid=500 gid=500 euid=500 suid=500 fsuid=500 egid=500 sgid=500 " \
	"fsgid=500 tty=(none) comm=\"gnome-settings-\" "                                    \
	"exe=\"/usr/libexec/gnome-settings-daemon\" subj=staff_u:staff_r:staff_t:s0 "      \
	"key=(null)\n"
/* selinux-sepolgen-test_data-httpd.log 11234: the executed file itself, not a leak */
#define REC_EXEC_11234                                                                     \
	"type=AVC msg=audit(1163772874.970:11234): avc:  denied  { execute } for  "        \
	"pid=8103 comm=\"dbus-daemon\" name=\"dhcdbd\" dev=dm-0 ino=9984544 "              \
	"scontext=staff_u:staff_r:staff_dbusd_t:s0 "                                        \
	"tcontext=system_u:object_r:dhcpc_exec_t:s0 tclass=file\n"                         \
	"type=AVC msg=audit(1163772874.970:11234): avc:  denied  { read } for  pid=8103 "  \
	"comm=\"dbus-daemon\" name=\"dhcdbd\" dev=dm-0 ino=9984544 "                        \
	"scontext=staff_u:staff_r:staff_dbusd_t:s0 "                                        \
	"tcontext=system_u:object_r:dhcpc_exec_t:s0 tclass=file\n"                         \
	"type=SYSCALL msg=audit(1163772874.970:11234): arch=40000003 syscall=11 "          \
	"success=no exit=-13 a0=8e2d9b0 a1=8e2ccd8 a2=8e2db70 a3=0 items=0 ppid=1 "        \
	"pid=8103 auid=4294967295 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 "       \
	"fsgid=0 tty=(none) comm=\"dbus-daemon\" exe=\"/bin/dbus-daemon\" "                \
	"subj=staff_u:staff_r:staff_dbusd_t:s0 key=(null)\n"

static void test_leaks(void **state)
{
	g_autoptr(Case) c = NULL, da = NULL, ex = NULL, noexec = NULL;
	g_autoptr(GPtrArray) s = NULL, sd = NULL, se = NULL, sn = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c = case_new(REC_LEAK, 0);
	assert_string_equal(c->d->syscall, "execve");
	s = run(&ad_plugin_leaks, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_DONTAUDIT);
	/* the alert's access only: source, target, class and permissions */
	assert_module_command(sg, 0, "avcdoctor allow --source mount_t --target crond_t --class "
			      "fifo_file --perm read,write -D -M ", c->d, "_leaks",
			      " /var/log/audit/audit.log");
	assert_module_command(sg, 1, "semodule -X 300 -i ", c->d, "_leaks", ".pp");
	assert_contains(sg->then_text, "leaked file descriptor");

	/* 32-bit execve (syscall 11 with arch i386), dontaudit: explained, no module */
	da = case_new(REC_LEAK_1066, 0);
	assert_string_equal(da->d->syscall, "execve");
	assert_int_equal(da->v->reason, AD_REASON_DONTAUDIT);
	sd = run(&ad_plugin_leaks, da, 1);
	sg = only(sd);
	assert_int_equal(sg->kind, AD_FIX_INFO);
	assert_int_equal(sg->commands->len, 0);

	/* read on the file being executed is not a leak */
	ex = case_new(REC_EXEC_11234, 1);
	assert_true(ad_denial_has_perm(ex->d, "read"));
	se = run(&ad_plugin_leaks, ex, 0);

	/* the same access outside execve is not a leak either */
	{
		g_autofree char *text = avc("read write", "system_u:system_r:mount_t:s0",
					    "system_u:system_r:crond_t:s0", "fifo_file", NULL);

		noexec = case_new(text, 0);
		sn = run(&ad_plugin_leaks, noexec, 0);
	}
}

/* ---------------------------------------------------------------- state of the system */

static void test_permissive(void **state)
{
	g_autoptr(Case) c = NULL, enforcing = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL, all = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c = case_new(REC_102, 0);
	assert_int_equal(c->d->permissive, 1);
	s = run(&ad_plugin_permissive, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_INFO);
	assert_true(sg->confidence <= 0.2);
	assert_contains(sg->then_text, "nothing was blocked");
	assert_contains(sg->then_text, "enforcing");
	all = analyze_all(c);
	assert_true(index_of(all, "permissive") >= 0);

	enforcing = case_new(REC_106, 0);
	s2 = run(&ad_plugin_permissive, enforcing, 0);
}

static void test_policy_mismatch(void **state)
{
	static const struct {
		const char *text;
		AdReason reason;
		const char *name;
		const char *hint;
	} cases[] = {
		{ REC_108, AD_REASON_UNKNOWN_PERMISSION, "frobnicate", "semodule -l" },
		{ REC_109, AD_REASON_UNKNOWN_CLASS, "nosuchclass", "semodule -l" },
		{ REC_114, AD_REASON_UNKNOWN_TYPE, "foo_t", "semodule -l" },
		{ REC_115, AD_REASON_INVALID_CONTEXT, "auditadm_r", "semanage user -l" },
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(Case) c = case_new(cases[i].text, 0);
		g_autoptr(GPtrArray) s = NULL, all = NULL;
		AdSuggestion *sg;

		assert_int_equal(c->v->reason, cases[i].reason);
		s = run(&ad_plugin_policy_mismatch, c, 1);
		sg = only(s);
		/* "the log comes from another policy" is a fact: a note */
		assert_int_equal(sg->kind, AD_FIX_INFO);
		assert_true(sg->note);
		assert_true(sg->confidence >= 0.7);
		assert_contains(sg->then_text, cases[i].name);
		assert_contains(sg->then_text, cases[i].hint);
		all = analyze_all(c);
		assert_int_equal(index_of(all, "policy_mismatch"), 0);
	}
	{
		/* the kernel could not name the permission: newer kernel */
		g_autofree char *text = avc("read 0x80000000", "system_u:system_r:httpd_t:s0",
					    "system_u:object_r:shadow_t:s0", "file", NULL);
		g_autoptr(Case) c = case_new(text, 0);
		g_autoptr(GPtrArray) s = run(&ad_plugin_policy_mismatch, c, 1);

		assert_contains(only(s)->then_text, "handle_unknown");
	}
}

static void test_invalid_context(void **state)
{
	g_autoptr(Case) c112 = NULL, c113 = NULL, user = NULL, valid = NULL, avc115 = NULL;
	g_autoptr(GPtrArray) s112 = NULL, s113 = NULL, su = NULL, sv = NULL, s115 = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c112 = case_new(REC_112, 0);
	assert_int_equal(c112->d->err_kind, AD_ERR_INVALID_CONTEXT);
	s112 = run(&ad_plugin_invalid_context, c112, 1);
	sg = only(s112);
	assert_int_equal(sg->kind, AD_FIX_MODULE);
	assert_int_equal(sg->level, AD_LEVEL_YELLOW);
	assert_contains(sg->then_text, "role staff_r types httpd_t;");
	assert_module_command(sg, 0, "avcdoctor allow --source staff_t --target httpd_exec_t "
			      "--class process --perm transition --verify -M ", c112->d, "",
			      " /var/log/audit/audit.log");
	assert_module_command(sg, 1, "semodule -X 300 -i ", c112->d, "", ".pp");

	/* the old "security_compute_sid:  invalid context" form */
	c113 = case_new(REC_113, 0);
	s113 = run(&ad_plugin_invalid_context, c113, 1);
	assert_contains(only(s113)->then_text, "role staff_r types mount_t;");

	/* a user not authorised for the role: words, no module */
	user = case_new("type=SELINUX_ERR msg=audit(1700002001.100:301): "
			"op=security_compute_sid invalid_context=\"staff_u:auditadm_r:"
			"auditadm_t:s0\" scontext=staff_u:staff_r:staff_t:s0 "
			"tcontext=system_u:object_r:shell_exec_t:s0 tclass=process\n", 0);
	su = run(&ad_plugin_invalid_context, user, 1);
	sg = only(su);
	assert_int_equal(sg->kind, AD_FIX_CONFIG);
	assert_contains(sg->then_text, "auditadm_r");
	assert_contains(sg->then_text, "semanage user");

	/* valid in this policy: nothing to change */
	valid = case_new("type=SELINUX_ERR msg=audit(1700002002.100:302): "
			 "op=security_compute_sid invalid_context=\"system_u:system_r:"
			 "httpd_t:s0\" scontext=system_u:system_r:initrc_t:s0 "
			 "tcontext=system_u:object_r:httpd_exec_t:s0 tclass=process\n", 0);
	sv = run(&ad_plugin_invalid_context, valid, 1);
	assert_int_equal(only(sv)->kind, AD_FIX_INFO);

	/* an AVC with an invalid context is policy_mismatch's */
	avc115 = case_new(REC_115, 0);
	s115 = run(&ad_plugin_invalid_context, avc115, 0);
}

static void test_constraint(void **state)
{
	g_autoptr(Case) c = NULL, te = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL, all = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c = case_new(REC_106, 0);
	assert_int_equal(c->v->reason, AD_REASON_CONSTRAINT);
	s = run(&ad_plugin_constraint, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_CONFIG);
	assert_contains(sg->then_text, "an allow rule will not help");
	assert_contains(sg->then_text, "The source role staff_r differs");
	assert_contains(sg->then_text, "newrole -r");
	assert_contains(sg->then_text, "system_r");
	assert_int_equal(sg->commands->len, 0);
	all = analyze_all(c);
	assert_int_equal(index_of(all, "constraint"), 0);
	/* catchall's module would not help and is not offered */
	assert_int_equal(index_of(all, "catchall") > 0, TRUE);
	assert_int_equal(((AdSuggestion *)g_ptr_array_index(all, index_of(all, "catchall")))
				 ->kind, AD_FIX_REPORT_BUG);

	te = case_new(REC_LEAK, 0);
	s2 = run(&ad_plugin_constraint, te, 0);
}

/* ---------------------------------------------------------------- intrusions */

static void expect_attack(const AdPlugin *plugin, const char *text, AdLevel level)
{
	g_autoptr(Case) c = case_new(text, 0);
	g_autoptr(GPtrArray) s = run(plugin, c, 1);
	g_autoptr(GPtrArray) all = analyze_all(c);
	AdSuggestion *sg = only(s);

	if (sg->level != level)
		fail_msg("%s on %s: level %s", plugin->id, text, ad_level_name(sg->level));
	if (level == AD_LEVEL_RED) {
		assert_int_equal(sg->kind, AD_FIX_ATTACK);
		assert_int_equal(sg->commands->len, 0);
		assert_int_equal(ad_suggestions_level(all), AD_LEVEL_RED);
		assert_int_equal(index_of(all, plugin->id), 0);
	}
}

static void test_attacks(void **state)
{
	g_autofree char *sysmod = avc("sys_module", "system_u:system_r:httpd_t:s0",
				      "system_u:system_r:httpd_t:s0", "capability",
				      "capability=16");
	g_autofree char *modwrite = avc("read write", "user_u:user_r:user_t:s0",
					"system_u:object_r:modules_object_t:s0", "file",
					"name=\"tun.ko\"");
	g_autofree char *modread = avc("read", "user_u:user_r:user_t:s0",
				       "system_u:object_r:modules_object_t:s0", "file",
				       "name=\"tun.ko\"");
	g_autofree char *boot = avc("write", "user_u:user_r:user_t:s0",
				    "system_u:object_r:boot_t:s0", "dir", "name=\"/\"");
	g_autofree char *config = avc("create", "user_u:user_r:user_t:s0",
				      "staff_u:object_r:selinux_config_t:s0", "file",
				      "name=\"config\"");
	g_autofree char *loadpol = avc("load_policy", "user_u:user_r:user_t:s0",
				       "system_u:object_r:security_t:s0", "security", NULL);
	/* a user who may take sysadm_r: an administrator in the wrong role, or a helper */
	g_autofree char *staffboot = avc("write", "staff_u:staff_r:staff_t:s0",
					 "system_u:object_r:boot_t:s0", "dir", "name=\"grub2\"");
	g_autofree char *staffpol = avc("create", "staff_u:staff_r:staff_t:s0",
					"staff_u:object_r:selinux_config_t:s0", "file",
					"name=\"config\"");
	g_autofree char *enforce = avc("write", "system_u:system_r:httpd_t:s0",
				       "system_u:object_r:security_t:s0", "file",
				       "name=\"enforce\"");
	g_autofree char *context = avc("write", "system_u:system_r:httpd_t:s0",
				       "system_u:object_r:security_t:s0", "file",
				       "name=\"context\"");
	/* a policy tool denied one more policy file: a bug, not an attack */
	g_autofree char *tool = avc("write", "system_u:system_r:checkpolicy_t:s0",
				    "system_u:object_r:selinux_config_t:s0", "file",
				    "name=\"config\"");
	g_autoptr(Case) q = NULL, r = NULL;
	g_autoptr(GPtrArray) sq = NULL, sr = NULL;

	NEED_POLICY();
	expect_attack(&ad_plugin_sys_module, sysmod, AD_LEVEL_RED);
	expect_attack(&ad_plugin_kernel_modules, modwrite, AD_LEVEL_RED);
	expect_attack(&ad_plugin_kernel_modules, boot, AD_LEVEL_RED);
	expect_attack(&ad_plugin_selinuxpolicy, config, AD_LEVEL_RED);
	expect_attack(&ad_plugin_setenforce, loadpol, AD_LEVEL_RED);
	/* a boolean grants write on security_t for queries: still red, ranked first */
	expect_attack(&ad_plugin_setenforce, enforce, AD_LEVEL_RED);
	expect_attack(&ad_plugin_selinuxpolicy, tool, AD_LEVEL_YELLOW);
	expect_attack(&ad_plugin_kernel_modules, staffboot, AD_LEVEL_YELLOW);
	expect_attack(&ad_plugin_selinuxpolicy, staffpol, AD_LEVEL_YELLOW);
	{
		g_autoptr(Case) c = case_new(staffboot, 0);
		g_autoptr(GPtrArray) s = run(&ad_plugin_kernel_modules, c, 1);

		assert_int_equal(only(s)->kind, AD_FIX_CONFIG);
		assert_contains(only(s)->then_text, "the role sysadm_r, in which sysadm_t may");
	}

	q = case_new(context, 0);
	sq = run(&ad_plugin_setenforce, q, 0);
	r = case_new(modread, 0);
	sr = run(&ad_plugin_kernel_modules, r, 0);
}

/*
 * Authentication programs reading the password file: the policy's design
 * (they may start the helper chkpwd_t, which may read shadow_t) makes it
 * expected: silenced, never loosened; turning authlogin_pam off comes last.
 */
static void test_expected(void **state)
{
	g_autofree char *login = avc("read", "system_u:system_r:local_login_t:s0-s0:c0.c1023",
				     "system_u:object_r:shadow_t:s0", "file", "name=\"shadow\"");
	g_autofree char *su = avc("read", "staff_u:sysadm_r:sysadm_su_t:s0-s0:c0.c1023",
				  "system_u:object_r:shadow_t:s0", "file", "name=\"shadow\"");
	g_autofree char *httpd = avc("read", "system_u:system_r:httpd_t:s0",
				     "system_u:object_r:shadow_t:s0", "file", "name=\"shadow\"");
	g_autofree char *write = avc("write", "system_u:system_r:local_login_t:s0-s0:c0.c1023",
				     "system_u:object_r:shadow_t:s0", "file", "name=\"shadow\"");
	/* unix_chkpwd run by a monitoring agent that may not start chkpwd_t */
	const char *helper =
		"type=SYSCALL msg=audit(1700002000.100:300): arch=c000003e syscall=257 "
		"success=no exit=-13 pid=3000 comm=\"unix_chkpwd\" exe=\"/usr/sbin/unix_chkpwd\" "
		"subj=system_u:system_r:zabbix_agent_t:s0 key=(null)\n"
		"type=AVC msg=audit(1700002000.100:300): avc:  denied  { read } for  pid=3000 "
		"comm=\"unix_chkpwd\" name=\"shadow\" scontext=system_u:system_r:zabbix_agent_t:s0 "
		"tcontext=system_u:object_r:shadow_t:s0 tclass=file permissive=0\n";
	g_autoptr(Case) c = NULL, c2 = NULL, c3 = NULL, c4 = NULL, c5 = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL, s3 = NULL, s4 = NULL, s5 = NULL, all = NULL;
	AdSuggestion *sg, *off;

	NEED_POLICY();
	c = case_new(login, 0);
	s = run(&ad_plugin_expected, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_DONTAUDIT);
	assert_int_equal(sg->level, AD_LEVEL_GREEN);
	assert_true(sg->expected);
	assert_contains(sg->then_text, "chkpwd_t");
	assert_module_command(sg, 1, "semodule -X 300 -i ", c->d, "_dontaudit", ".pp");
	all = analyze_all(c);
	assert_int_equal(index_of(all, "expected"), 0);
	assert_int_equal(ad_suggestions_level(all), AD_LEVEL_GREEN);
	/* no module loosening what the design keeps closed */
	for (guint i = 0; i < all->len; i++)
		assert_int_not_equal(((AdSuggestion *)g_ptr_array_index(all, i))->kind,
				     AD_FIX_MODULE);
	/* where the policy turns the read on with authlogin_pam off: last, yellow, explained */
	if (c->v->reason == AD_REASON_BOOLEAN) {
		off = g_ptr_array_index(all, index_of(all, "boolean"));
		assert_true(index_of(all, "boolean") > 0);
		assert_int_equal(off->level, AD_LEVEL_YELLOW);
		assert_true(off->confidence <= 0.2);
		assert_contains(off->if_text, "authlogin_pam");
		assert_contains(off->then_text, "loosens the policy");
		assert_command(off, 0, "setsebool -P authlogin_pam=0");
	}

	c2 = case_new(su, 0);
	s2 = run(&ad_plugin_expected, c2, 1);
	assert_int_equal(only(s2)->kind, AD_FIX_DONTAUDIT);

	/* a web server may start no password helper: not expected */
	c3 = case_new(httpd, 0);
	s3 = run(&ad_plugin_expected, c3, 0);
	/* writing the password file is no password check */
	c4 = case_new(write, 0);
	s4 = run(&ad_plugin_expected, c4, 0);

	if (!labels)
		return;
	c5 = case_new(helper, 0);
	s5 = run(&ad_plugin_expected, c5, 1);
	sg = only(s5);
	assert_int_equal(sg->kind, AD_FIX_REPORT_BUG);
	assert_int_equal(sg->level, AD_LEVEL_YELLOW);
	assert_contains(sg->then_text, "chkpwd_exec_t is the entry point of chkpwd_t");
}

/* secure_mode_insmod on: kmod_t is refused by the administrator's lock, not attacked */
static void test_lockdown(void **state)
{
	g_autofree char *text = avc("sys_module", "system_u:system_r:kmod_t:s0",
				    "system_u:system_r:kmod_t:s0", "capability", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(Case) c = NULL;
	g_autoptr(GPtrArray) s = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	assert_true(ad_policy_set_boolean(policy, "secure_mode_insmod", TRUE, &err));
	c = case_new(text, 0);
	assert_int_equal(c->v->reason, AD_REASON_BOOLEAN);
	s = run(&ad_plugin_sys_module, c, 1);
	sg = only(s);
	/* a boolean deliberately on is a fact to know, not a fix */
	assert_true(sg->note);
	assert_int_equal(sg->kind, AD_FIX_INFO);
	assert_contains(sg->then_text, "secure_mode_insmod");
	assert_true(ad_policy_set_boolean(policy, "secure_mode_insmod", FALSE, &err));
}

/* ---------------------------------------------------------------- capabilities, IPv6 */

static void test_dac_override(void **state)
{
	/* selinux-sepolgen-test_data-httpd.log 11254 */
	static const char rec[] =
		"type=AVC msg=audit(1163772875.170:11254): avc:  denied  { dac_override } for  "
		"pid=8094 comm=\"dhcdbd\" capability=1 scontext=staff_u:staff_r:staff_t:s0 "
		"tcontext=staff_u:staff_r:staff_t:s0 tclass=capability\n";
	g_autofree char *with_path = g_strdup_printf(
		"type=AVC msg=audit(1700002003.100:303): avc:  denied  { dac_read_search } for  "
		"pid=3003 comm=\"t\" capability=2 scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:system_r:httpd_t:s0 tclass=capability permissive=0\n"
		"type=SYSCALL msg=audit(1700002003.100:303): arch=c000003e syscall=257 "
		"success=no exit=-13 items=1 ppid=1 pid=3003 uid=0 comm=\"t\" exe=\"/t\"\n"
		"type=CWD msg=audit(1700002003.100:303): cwd=\"/\"\n"
		"type=PATH msg=audit(1700002003.100:303): item=0 name=\"/srv/secret\" inode=5 "
		"nametype=NORMAL\n");
	g_autoptr(Case) c = NULL, p = NULL;
	g_autoptr(GPtrArray) s = NULL, sp = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c = case_new(rec, 0);
	s = run(&ad_plugin_dac_override, c, 1);
	sg = only(s);
	assert_int_equal(sg->kind, AD_FIX_CONFIG);
	assert_int_equal(sg->level, AD_LEVEL_GREEN);
	assert_int_equal(sg->commands->len, 3);
	assert_command(sg, 0, "auditctl -w /etc/shadow -p w -k avcdoctor-path");
	assert_command(sg, 1, "ausearch -m AVC -ts recent -i");
	assert_command(sg, 2, "auditctl -W /etc/shadow -p w -k avcdoctor-path");

	p = case_new(with_path, 0);
	sp = run(&ad_plugin_dac_override, p, 1);
	sg = only(sp);
	assert_command(sg, 0, "ls -ld -- /srv/secret");
	assert_contains(sg->then_text, "/srv/secret");
}

static void test_sys_resource(void **state)
{
	/* selinux-sepolgen-test_data-httpd.log 12023 */
	static const char rec[] =
		"type=AVC msg=audit(1163775243.394:12023): avc:  denied  { sys_resource } for  "
		"pid=11049 comm=\"udevd\" capability=24 scontext=staff_u:staff_r:staff_t:s0 "
		"tcontext=staff_u:staff_r:staff_t:s0 tclass=capability\n";
	g_autoptr(Case) c = NULL;
	g_autoptr(GPtrArray) s = NULL;

	NEED_POLICY();
	c = case_new(rec, 0);
	s = run(&ad_plugin_sys_resource, c, 1);
	/* find the resource that ran out: a change to make, not a fact */
	assert_int_equal(only(s)->kind, AD_FIX_CONFIG);
	assert_false(only(s)->note);
	assert_int_equal(only(s)->level, AD_LEVEL_GREEN);
}

static void test_disable_ipv6(void **state)
{
	static const struct {
		const char *kmod;
		int want;
	} cases[] = {
		{ "kmod=\"net-pf-10\"", 1 },
		{ "kmod=\"net-pf-10-proto-132\"", 1 },
		{ "kmod=\"net-pf-1\"", 0 },
		{ "kmod=\"net-pf-100\"", 0 },
		{ NULL, 0 },
	};

	NEED_POLICY();
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = avc("module_request", "system_u:system_r:httpd_t:s0",
					    "system_u:system_r:kernel_t:s0", "system",
					    cases[i].kmod);
		g_autoptr(Case) c = case_new(text, 0);
		g_autoptr(GPtrArray) s = run(&ad_plugin_disable_ipv6, c, cases[i].want);

		if (cases[i].want) {
			assert_int_equal(only(s)->kind, AD_FIX_CONFIG);
			assert_command(only(s), 0, "sysctl -w net.ipv6.conf.all.disable_ipv6=1");
		}
	}
}

/*
 * A blocked check whose system call succeeded anyway (a capability tried
 * before a fallback), and the byte-code cache of an interpreter: silenced
 * first, never a module granting the capability or the write first.
 */
static char *with_syscall(const char *perms, const char *tcontext, const char *tclass,
			  const char *extra, int permissive, const char *syscall,
			  const char *success)
{
	return g_strdup_printf(
		"type=AVC msg=audit(1700003000.100:400): avc:  denied  { %s } for  pid=4000 "
		"comm=\"tool\" %s scontext=system_u:system_r:httpd_t:s0 tcontext=%s "
		"tclass=%s permissive=%d\n"
		"type=SYSCALL msg=audit(1700003000.100:400): arch=c000003e syscall=%s "
		"success=%s exit=0 a0=3 a1=0 a2=0 a3=0 items=0 ppid=1 pid=4000 auid=0 uid=0 "
		"gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 "
		"comm=\"tool\" exe=\"/usr/sbin/tool\" subj=system_u:system_r:httpd_t:s0 "
		"key=(null)\n",
		perms, extra ? extra : "", tcontext, tclass, permissive, syscall, success);
}

static void assert_harmless_first(Case *c)
{
	g_autoptr(GPtrArray) all = analyze_all(c);
	AdSuggestion *first;

	assert_true(all->len > 0);
	first = g_ptr_array_index(all, 0);
	assert_string_equal(first->plugin, "harmless");
	assert_int_equal(first->kind, AD_FIX_DONTAUDIT);
	assert_false(first->adds_rules);
}

static void test_harmless(void **state)
{
	static const char cap[] = "system_u:system_r:httpd_t:s0";
	g_autofree char *ok = with_syscall("sys_admin", cap, "capability", "capability=21", 0,
					   "ioctl", "yes");
	g_autofree char *failed = with_syscall("sys_admin", cap, "capability", "capability=21",
					       0, "ioctl", "no");
	g_autofree char *logged = with_syscall("sys_admin", cap, "capability", "capability=21",
					       1, "ioctl", "yes");
	g_autofree char *cache = with_syscall("write add_name", "system_u:object_r:usr_t:s0",
					      "dir", "name=\"__pycache__\"", 0, "openat", "no");
	g_autofree char *read = with_syscall("read", "system_u:object_r:usr_t:s0", "dir",
					     "name=\"__pycache__\"", 0, "openat", "no");
	g_autoptr(Case) c_ok = NULL, c_failed = NULL, c_logged = NULL, c_cache = NULL;
	g_autoptr(Case) c_read = NULL, c_leak = NULL;
	g_autoptr(GPtrArray) s = NULL, s2 = NULL, s3 = NULL, s4 = NULL, s5 = NULL;
	g_autoptr(GPtrArray) leak_all = NULL;
	AdSuggestion *sg;

	NEED_POLICY();
	c_ok = case_new(ok, 0);
	assert_int_equal(c_ok->d->success, 1);
	s = run(&ad_plugin_harmless, c_ok, 1);
	sg = only(s);
	assert_true(sg->harmless);
	assert_int_equal(sg->kind, AD_FIX_DONTAUDIT);
	assert_module_command(sg, 0, "avcdoctor allow --source httpd_t --target httpd_t --class "
			      "capability --perm sys_admin -D -M ", c_ok->d, "_dontaudit",
			      " /var/log/audit/audit.log");
	assert_contains(sg->then_text, "success=yes");
	assert_harmless_first(c_ok);
	/* the call failed, or nothing was blocked: no sign of a fallback */
	c_failed = case_new(failed, 0);
	s2 = run(&ad_plugin_harmless, c_failed, 0);
	c_logged = case_new(logged, 0);
	s3 = run(&ad_plugin_harmless, c_logged, 0);
	/* writing __pycache__ into a system directory */
	c_cache = case_new(cache, 0);
	s4 = run(&ad_plugin_harmless, c_cache, 1);
	assert_contains(only(s4)->then_text, "compiles it in memory");
	assert_harmless_first(c_cache);
	/* reading it is no cache write */
	c_read = case_new(read, 0);
	s5 = run(&ad_plugin_harmless, c_read, 0);
	/* a leaked descriptor: its dontaudit before anything that allows it */
	c_leak = case_new(REC_LEAK, 0);
	leak_all = analyze_all(c_leak);
	assert_string_equal(((AdSuggestion *)g_ptr_array_index(leak_all, 0))->plugin, "leaks");
}

/* ---------------------------------------------------------------- the whole corpus */

static const AdPlugin *const mine[] = {
	&ad_plugin_bind_ports, &ad_plugin_connect_ports, &ad_plugin_execmem,
	&ad_plugin_execmod, &ad_plugin_mmap_zero, &ad_plugin_leaks, &ad_plugin_permissive,
	&ad_plugin_policy_mismatch, &ad_plugin_invalid_context, &ad_plugin_constraint,
	&ad_plugin_sys_module, &ad_plugin_kernel_modules, &ad_plugin_selinuxpolicy,
	&ad_plugin_setenforce, &ad_plugin_dac_override, &ad_plugin_sys_resource,
	&ad_plugin_disable_ipv6,
};

static void test_table(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(mine); i++) {
		gboolean listed = FALSE;

		assert_ptr_equal(ad_plugin_find(mine[i]->id), mine[i]);
		for (guint j = 0; ad_plugin_table[j]; j++)
			listed |= ad_plugin_table[j] == mine[i];
		assert_true(listed);
	}
}

/*
 * Every denial of every corpus log through every plugin of this file:
 * no failure, well-formed suggestions (the run() checks), and each
 * plugin matches something somewhere.
 */
static void test_corpus(void **state)
{
	const char *dir = g_getenv("AD_CORPUS");
	static const char *const files[] = {
		"selinux-sepolgen-test_data-httpd.log", "selinux-sepolgen-test_data-audit.log",
		"selinux-sepolgen-tests-audit.txt", "selinux-audit2allow-test.log",
		"selinux-notebook-auditing-examples.log", "avc-parser-tpm-enforcing.log",
		"avc-parser-tpm-permissive.log", "avc-parser-network_AVC.log",
		"crafted/debian-refpolicy-cases.log",
		"synthetic/avc-parser-edge_case_stress_test.log",
		"synthetic/avc-parser-malformed_permissions_test.log",
	};
	guint matched[G_N_ELEMENTS(mine)] = { 0 };
	guint denials = 0;

	NEED_POLICY();
	if (!dir) {
		print_message("skipped: AD_CORPUS is not set\n");
		skip();
	}
	for (guint f = 0; f < G_N_ELEMENTS(files); f++) {
		g_autofree char *path = g_build_filename(dir, files[f], NULL);
		g_autofree char *text = NULL;
		g_autoptr(GPtrArray) list = NULL;
		Case c = { 0 };

		if (!g_file_get_contents(path, &text, NULL, NULL))
			fail_msg("cannot read %s", path);
		list = denials_of(text);
		c.ctx.policy = policy;
		c.ctx.labels = labels;
		for (guint i = 0; i < list->len; i++) {
			c.d = g_ptr_array_index(list, i);
			if (c.d->type != AD_DENIAL_SELINUX_ERR &&
			    c.d->type != AD_DENIAL_USER_SELINUX_ERR &&
			    (!c.d->scontext || !c.d->tcontext || !c.d->tclass || !c.d->perms))
				continue;
			c.v = verdict_for(&c, c.d);
			denials++;
			for (guint k = 0; k < G_N_ELEMENTS(mine); k++) {
				GPtrArray *out = g_ptr_array_new_with_free_func(
					(GDestroyNotify)ad_suggestion_free);
				int r = mine[k]->analyze(c.d, c.v, &c.ctx, out);

				assert_true(r == 0 || r == 1);
				assert_true(r == 1 ? out->len > 0 : out->len == 0);
				for (guint j = 0; j < out->len; j++) {
					AdSuggestion *s = g_ptr_array_index(out, j);

					assert_true(g_utf8_validate(s->if_text, -1, NULL));
					assert_true(g_utf8_validate(s->then_text, -1, NULL));
					for (guint n = 0; n < s->commands->len; n++)
						assert_non_null(((char **)g_ptr_array_index(
							s->commands, n))[0]);
				}
				matched[k] += r;
				g_ptr_array_unref(out);
			}
		}
		verdict_free(c.own);
	}
	assert_true(denials > 5000);
	for (guint k = 0; k < G_N_ELEMENTS(mine); k++)
		print_message("%-16s matched %u of %u denials\n", mine[k]->id, matched[k], denials);
	/* what the corpus holds (Fedora-typed logs judged by Debian's policy) */
	assert_true(matched[0] > 0);	/* bind_ports */
	assert_true(matched[2] > 0);	/* execmem */
	assert_true(matched[5] > 0);	/* leaks */
	assert_true(matched[6] > 0);	/* permissive */
	assert_true(matched[7] > 1000);	/* policy_mismatch: most 2006 types are Fedora's */
	assert_true(matched[8] > 0);	/* invalid_context */
	assert_true(matched[9] > 0);	/* constraint */
	assert_true(matched[10] > 0);	/* sys_module */
	assert_true(matched[11] > 0);	/* kernel_modules */
	assert_true(matched[12] > 0);	/* selinuxpolicy */
	assert_true(matched[13] > 0);	/* setenforce */
	assert_true(matched[14] > 0);	/* dac_override */
}

/* ---------------------------------------------------------------- main */

static int group_setup(void **state)
{
	g_autoptr(GError) err = NULL;

	if (!g_file_test(REAL_POLICY, G_FILE_TEST_EXISTS))
		return 0;
	policy = ad_policy_load(REAL_POLICY, &err);
	if (!policy) {
		fprintf(stderr, "%s\n", err->message);
		return -1;
	}
	labels = ad_labels_open(NULL, REAL_POLICY, NULL);
	return 0;
}

static int group_teardown(void **state)
{
	g_clear_pointer(&labels, ad_labels_free);
	g_clear_pointer(&policy, ad_policy_free);
	return 0;
}

/* the host runs a plugin only for the classes, permissions and reasons it declares */
static void test_plugin_declarations(void **state)
{
	const AdPlugin sockets = {
		.id = "test-sockets",
		.classes = AD_NAMES("tcp_socket", "udp_socket"),
		.perms = AD_NAMES("name_bind", "name_connect"),
		.reasons = AD_REASON_BIT(AD_REASON_BOOLEAN),
	};
	const AdPlugin files = { .id = "test-files", .classes = AD_NAMES("file") };
	const AdPlugin any = { .id = "test-any" };
	g_autoptr(Case) c = case_new(REC_104, 0);	/* name_connect, tcp_socket, boolean */

	(void)state;
	assert_int_equal(c->v->reason, AD_REASON_BOOLEAN);
	assert_true(ad_plugin_wants(&sockets, c->d, c->v));
	assert_false(ad_plugin_wants(&files, c->d, c->v));
	assert_true(ad_plugin_wants(&any, c->d, c->v));
	/* no verdict: no plugin runs */
	assert_false(ad_plugin_wants(&any, c->d, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plugin_declarations),
		cmocka_unit_test(test_port_type),
		cmocka_unit_test(test_port_type_libsepol),
		cmocka_unit_test(test_bind_generic_port),
		cmocka_unit_test(test_bind_defined_port),
		cmocka_unit_test(test_bind_relabelled_since),
		cmocka_unit_test(test_connect_cache_port),
		cmocka_unit_test(test_port_unknown),
		cmocka_unit_test(test_execmem),
		cmocka_unit_test(test_execmod),
		cmocka_unit_test(test_mmap_zero),
		cmocka_unit_test(test_leaks),
		cmocka_unit_test(test_harmless),
		cmocka_unit_test(test_permissive),
		cmocka_unit_test(test_policy_mismatch),
		cmocka_unit_test(test_invalid_context),
		cmocka_unit_test(test_constraint),
		cmocka_unit_test(test_attacks),
		cmocka_unit_test(test_lockdown),
		cmocka_unit_test(test_dac_override),
		cmocka_unit_test(test_sys_resource),
		cmocka_unit_test(test_disable_ipv6),
		cmocka_unit_test(test_expected),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
