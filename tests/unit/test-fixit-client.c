// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for client/fix-rule.c's one rule, ad_fix_one_click(): which
 * stored suggestions the browser, the notifier, Cockpit's "fixable" and
 * the fix helper itself apply with one click (the analysis' "apply"
 * decision, the fix helper's allow-list, a module built from this alert
 * only and never for a red alert, not a fix the policy showed useless,
 * commands shown exactly, nothing hidden in an argument), JSON that is not
 * a suggestion; and the digest
 * that binds the commands shown to those run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "fixit-client.h"

#define ID "0123456789abcdef"

/* the rule's answer for suggestion @index of the alert @o, read as every reader reads it */
static gboolean one_click_doc(json_object *o, guint index, GPtrArray **ret, GError **error)
{
	g_autoptr(AdAlertDoc) doc = o ? ad_alert_doc_new(o, NULL) : NULL;

	return ad_fix_one_click(doc, index, ret, error);
}

/* the rule's answer for @sugg (JSON text) as suggestion 0 of a @level alert */
static gboolean one_click(const char *sugg, const char *level, GError **error)
{
	g_autofree char *text = g_strdup_printf("{\"id\":\"" ID "\",\"level\":\"%s\","
						"\"suggestions\":[%s]}", level, sugg);
	json_object *o = json_tokener_parse(text);
	gboolean ok;

	assert_non_null(o);
	ok = one_click_doc(o, 0, NULL, error);
	json_object_put(o);
	return ok;
}

static void test_applicable(void **state)
{
	static const struct {
		const char *sugg;
		gboolean fixable;
	} cases[] = {
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/var/www/a b\"]],\"verified\":true}", TRUE },
		{ "{\"commands\":[[\"setsebool\",\"-P\",\"httpd_read_user_content=1\"]]}", TRUE },
		{ "{\"commands\":[[\"semanage\",\"port\",\"-a\",\"-t\",\"http_port_t\",\"-p\","
		  "\"tcp\",\"8081\"]],\"verified\":true}", TRUE },
		{ "{\"commands\":[[\"avcdoctor\",\"allow\",\"--alert\",\"0123456789abcdef\","
		  "\"--verify\",\"-M\",\"my_httpd\"],[\"semodule\",\"-X\",\"300\",\"-i\","
		  "\"my_httpd.pp\"]]}", TRUE },
		/* a module of another alert, a module not built first */
		{ "{\"commands\":[[\"avcdoctor\",\"allow\",\"--alert\",\"fedcba9876543210\","
		  "\"-M\",\"m\"],[\"semodule\",\"-i\",\"m.pp\"]]}", FALSE },
		{ "{\"commands\":[[\"semodule\",\"-i\",\"my_httpd.pp\"]]}", FALSE },
		/* proved not to work; no command; other programs; a path before "--" */
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\"]],\"verified\":false}", FALSE },
		{ "{\"commands\":[]}", FALSE },
		{ "{\"commands\":[[\"semodule\",\"-B\"]]}", FALSE },
		{ "{\"commands\":[[\"chcon\",\"-t\",\"x_t\",\"/x\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"/x\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"x\"]]}", FALSE },
		{ "{\"commands\":[[\"setsebool\",\"-P\",\"a=1;id\"]]}", FALSE },
		{ "{\"commands\":[[\"semanage\",\"fcontext\",\"-a\",\"-t\",\"x_t\",\"/x(/.*)?\"]]}",
		  FALSE },
		{ "{\"commands\":[[\"semanage\",\"fcontext\",\"-a\",\"-t\",\"x_t\",\"--\","
		  "\"/x(/.*)?\"]]}", TRUE },
		{ "{\"commands\":[[\"semanage\",\"login\",\"-a\",\"x\"]]}", FALSE },
		/*
		 * what is shown is not what runs: a bidi mark, a tag character, a
		 * variation selector, a Hangul filler, a soft hyphen, a no-break
		 * space, a newline in an argument
		 */
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/var/www/a\\u061cb\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\udb40\\udc41\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\ufe0f\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\u3164y\"]]}", FALSE },
		{ "{\"commands\":[[\"semanage\",\"fcontext\",\"-a\",\"-t\",\"x_t\",\"--\","
		  "\"/srv/a\\u00adb(/.*)?\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\u00a0y\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\ny\"]]}", FALSE },
		/* visible text that is not ASCII is fine */
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/srv/caf\\u00e9\"]]}", TRUE },
		/* not a suggestion: no commands, a command that is not a list of strings */
		{ "{}", FALSE },
		{ "[]", FALSE },
		{ "{\"commands\":\"restorecon -v -- /x\"}", FALSE },
		{ "{\"commands\":[\"restorecon\"]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",7]]}", FALSE },
		/* setsebool's values in lower case only, as the helper runs them */
		{ "{\"commands\":[[\"setsebool\",\"-P\",\"httpd_x=ON\"]]}", FALSE },
		{ "{\"commands\":[[\"setsebool\",\"-P\",\"httpd_x=on\"]]}", TRUE },
		/* what cannot be shown as it runs: escaped bytes, a control character */
		{ "{\"commands\":[[\"restorecon\",\"--\",\"/a\\\\xffb\"]],"
		  "\"commands_hex\":[[\"726573746f7265636f6e\",\"2d2d\",\"2fff62\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/var/www/a\\nb\"]]}", FALSE },
		/* the analysis' decision */
		{ "{\"apply\":\"one-click\",\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\"]]}",
		  TRUE },
		{ "{\"apply\":\"by-hand\",\"apply_reason\":\"a system file\",\"commands\":"
		  "[[\"restorecon\",\"-v\",\"--\",\"/x\"]]}", FALSE },
		{ "{\"apply\":\"never\",\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\"]]}",
		  FALSE },
		{ "{\"apply\":null,\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\"]]}", FALSE },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;

		if (one_click(cases[i].sugg, "yellow", &error) != cases[i].fixable)
			fail_msg("case %u: %s", i, cases[i].sugg);
		/* a refusal says why */
		if (!cases[i].fixable && (!error || error->domain != AD_FIXIT_ERROR))
			fail_msg("case %u: no reason", i);
	}
	assert_false(one_click_doc(NULL, 0, NULL, NULL));
}

/* the reasons: the analysis' own, the proof's, the index's */
static void test_reasons(void **state)
{
	g_autoptr(GError) by_hand = NULL, unproved = NULL, range = NULL;
	json_object *o = json_tokener_parse("{\"id\":\"" ID "\",\"suggestions\":[]}");

	(void)state;
	assert_false(one_click("{\"apply\":\"by-hand\",\"apply_reason\":\"/etc/passwd is a "
			       "system file\",\"commands\":[[\"restorecon\",\"-v\",\"--\","
			       "\"/x\"]]}", "yellow", &by_hand));
	assert_non_null(strstr(by_hand->message, "/etc/passwd is a system file"));
	assert_int_equal(by_hand->code, AD_FIXIT_ERROR_NOT_ALLOWED);
	assert_false(one_click("{\"verified\":false,\"commands\":[[\"restorecon\",\"-v\","
			       "\"--\",\"/x\"]]}", "yellow", &unproved));
	assert_int_equal(unproved->code, AD_FIXIT_ERROR_NOT_PROVED);
	assert_false(one_click_doc(o, 0, NULL, &range));
	assert_int_equal(range->code, AD_FIXIT_ERROR_INVALID_ARGS);
	json_object_put(o);
}

/* a red alert: no module with one click; other fixes as for any alert */
static void test_red(void **state)
{
	static const char module[] =
		"{\"commands\":[[\"avcdoctor\",\"allow\",\"--alert\",\"" ID "\",\"-M\","
		"\"m\"],[\"semodule\",\"-X\",\"300\",\"-i\",\"m.pp\"]]}";

	(void)state;
	assert_true(one_click(module, "yellow", NULL));
	assert_false(one_click(module, "red", NULL));
	assert_true(one_click("{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\"]]}",
			      "red", NULL));
}

/* the digest: the commands of the rule, every byte and every boundary */
static void test_digest(void **state)
{
	static const char *const a[] = { "restorecon", "-v", "--", "/x y", NULL };
	static const char *const b[] = { "restorecon", "-v", "--", "/x", "y", NULL };
	static const char *const c[] = { "restorecon", "-v", "--", "/x z", NULL };
	g_autoptr(GPtrArray) one = g_ptr_array_new(), two = g_ptr_array_new();
	g_autoptr(GPtrArray) three = g_ptr_array_new(), got = NULL;
	g_autofree char *da = NULL, *db = NULL, *dc = NULL, *again = NULL, *stored = NULL;
	json_object *o = json_tokener_parse(
		"{\"id\":\"" ID "\",\"suggestions\":[{\"commands\":[[\"restorecon\",\"-v\","
		"\"--\",\"/x y\"]]}]}");

	(void)state;
	g_ptr_array_add(one, (gpointer)a);
	g_ptr_array_add(two, (gpointer)b);
	g_ptr_array_add(three, (gpointer)c);
	da = ad_fix_digest(one);
	db = ad_fix_digest(two);
	dc = ad_fix_digest(three);
	again = ad_fix_digest(one);
	assert_int_equal(strlen(da), 64);
	assert_string_equal(da, again);
	assert_string_not_equal(da, db);	/* one argument or two */
	assert_string_not_equal(da, dc);
	assert_true(one_click_doc(o, 0, &got, NULL));
	stored = ad_fix_digest(got);
	assert_string_equal(stored, da);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_applicable),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_red),
		cmocka_unit_test(test_digest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
