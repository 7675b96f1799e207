// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setroubleshoot's view of a stored suggestion (dispatcher/setroubleshoot.c):
 * do_text lines are the commands quoted, or comments; fixable only for the
 * programs the fix helper applies; and above all, a do_text that Cockpit
 * would run in a root shell by itself (one line starting with "setsebool")
 * is only ever a setsebool of policy booleans with plain values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "setroubleshoot.h"

#define NOT_EXACT \
	"(not shown exactly: an argument holds control or invisible characters or bytes that " \
	"are not UTF-8) "

/* the policy's booleans, for these tests */
static gboolean is_boolean(const char *name, gpointer user_data)
{
	return strcmp(name, "httpd_read_user_content") == 0 ||
	       strcmp(name, "ftpd_full_access") == 0;
}

/* an alert of one suggestion @sugg (taken) */
static json_object *alert_of(json_object *sugg)
{
	json_object *o = json_object_new_object();
	json_object *list = json_object_new_array();

	json_object_object_add(o, "id", json_object_new_string("0123456789abcdef"));
	json_object_object_add(o, "level", json_object_new_string("yellow"));
	json_object_array_add(list, sugg);
	json_object_object_add(o, "suggestions", list);
	return o;
}

/* do_text of a suggestion given as JSON text; @ret_fixable set */
static char *do_text(const char *json, gboolean *ret_fixable)
{
	json_object *s = json_tokener_parse(json);
	json_object *o;
	char *t;

	assert_non_null(s);
	o = alert_of(s);
	t = ad_setroubleshoot_do_text(o, 0, is_boolean, NULL, ret_fixable);
	json_object_put(o);
	return t;
}

static void expect(const char *json, const char *want, gboolean want_fixable)
{
	gboolean fixable = !want_fixable;
	g_autofree char *t = do_text(json, &fixable);

	if (strcmp(t, want) != 0 || fixable != want_fixable)
		print_error("%s\n  got  %s (fixable %d)\n  want %s (fixable %d)\n", json, t,
			    fixable, want, want_fixable);
	assert_string_equal(t, want);
	assert_int_equal(fixable, want_fixable);
}

/* what Cockpit does with a do_text: does it run it in a root shell itself? */
static gboolean cockpit_runs(const char *t, gboolean fixable)
{
	return !fixable && g_str_has_prefix(t, "setsebool") && !strchr(t, '\n');
}

static void test_setsebool(void **state)
{
	/* a plain setsebool of policy booleans: kept, fixable */
	expect("{\"commands\":[[\"setsebool\",\"-P\",\"httpd_read_user_content=1\"]]}",
	       "setsebool -P httpd_read_user_content=1", TRUE);
	expect("{\"commands\":[[\"setsebool\",\"-P\",\"httpd_read_user_content\",\"on\","
	       "\"ftpd_full_access\",\"off\"]]}",
	       "setsebool -P httpd_read_user_content on ftpd_full_access off", TRUE);
	/*
	 * a name the policy does not have (the helper checks it against the
	 * policy when it runs); a value setsebool does not take, record text:
	 * the one rule the helper applies says not fixable
	 */
	expect("{\"commands\":[[\"setsebool\",\"-P\",\"no_such_bool=1\"]]}",
	       "# setsebool -P no_such_bool=1", TRUE);
	expect("{\"commands\":[[\"setsebool\",\"httpd_read_user_content=yes\"]]}",
	       "# setsebool httpd_read_user_content=yes", FALSE);
	expect("{\"commands\":[[\"setsebool\",\"-P\",\"httpd_read_user_content=1;reboot\"]]}",
	       "# setsebool -P 'httpd_read_user_content=1;reboot'", FALSE);
	expect("{\"commands\":[[\"setsebool\",\"-P\",\"$(reboot)=1\"]]}",
	       "# setsebool -P '$(reboot)=1'", FALSE);
	expect("{\"commands\":[[\"setsebool\",\"-P\"]]}", "# setsebool -P", FALSE);
	expect("{\"commands\":[[\"setsebool\",\"httpd_read_user_content\"]]}",
	       "# setsebool httpd_read_user_content", FALSE);
	expect("{\"commands\":[[\"setsebool\",\"-P\",\"-P\",\"httpd_read_user_content=1\"]]}",
	       "# setsebool -P -P httpd_read_user_content=1", FALSE);
	/* two commands: each a "# " line, as Cockpit shows commands among prose */
	expect("{\"commands\":[[\"setsebool\",\"-P\",\"httpd_read_user_content=1\"],"
	       "[\"restorecon\",\"-v\",\"--\",\"/srv/x\"]]}",
	       "# setsebool -P httpd_read_user_content=1\n# restorecon -v -- /srv/x", TRUE);
}

/* whatever the record holds, Cockpit never runs a do_text but a checked setsebool */
static void test_cockpit_never_runs_record_text(void **state)
{
	static const char *const hostile[] = {
		"x$(touch /tmp/pwned)", "x`id`", "x;id", "a'b", "a\nsetsebool x=1", "=1",
		"httpd_read_user_content=1 ; id", "httpd_read_user_content=1\nid", "",
	};
	static const char *const progs[] = { "setsebool", "restorecon", "semanage", "chcon" };

	for (guint p = 0; p < G_N_ELEMENTS(progs); p++) {
		for (guint i = 0; i < G_N_ELEMENTS(hostile); i++) {
			json_object *o = json_object_new_object();
			json_object *cmds = json_object_new_array();
			json_object *argv = json_object_new_array();
			g_autofree char *t = NULL;
			gboolean fixable;

			json_object_array_add(argv, json_object_new_string(progs[p]));
			json_object_array_add(argv, json_object_new_string("-P"));
			json_object_array_add(argv, json_object_new_string(hostile[i]));
			json_object_array_add(cmds, argv);
			json_object_object_add(o, "commands", cmds);
			o = alert_of(o);
			t = ad_setroubleshoot_do_text(o, 0, is_boolean, NULL, &fixable);
			json_object_put(o);
			assert_false(cockpit_runs(t, FALSE));
			/* one command, one line, whatever the argument holds */
			assert_null(strchr(t, '\n'));
		}
	}
}

static void test_lines_and_fixable(void **state)
{
	/* quoted, one a line */
	expect("{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/var/www/a'b$(id).html\"]]}",
	       "restorecon -v -- '/var/www/a'\\''b$(id).html'", TRUE);
	/* a newline in an argument: prose with the escaped form, not fixable */
	expect("{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/var/www/a\\nb\"]]}",
	       NOT_EXACT "restorecon -v -- '/var/www/a\\nb'", FALSE);
	/*
	 * an invisible character (a bidi mark, a tag): what Cockpit shows would
	 * not be what runs; prose with the escaped form, not fixable
	 */
	expect("{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/var/www/a\\u061cb\"]]}",
	       NOT_EXACT "restorecon -v -- '/var/www/a\\u{061c}b'", FALSE);
	expect("{\"commands\":[[\"semanage\",\"fcontext\",\"-a\",\"-t\",\"x_t\",\"--\","
	       "\"/srv/x\\udb40\\udc41\"]]}",
	       NOT_EXACT "semanage fcontext -a -t x_t -- '/srv/x\\u{e0041}'", FALSE);
	/* stored escaped (not UTF-8): prose, not fixable */
	expect("{\"commands\":[[\"restorecon\",\"--\",\"/a\\\\xffb\"]],"
	       "\"commands_hex\":[[\"726573746f7265636f6e\",\"2d2d\",\"2fff62\"]]}",
	       NOT_EXACT "restorecon -- '/a\\\\xffb'", FALSE);
	/* semanage: only fcontext, port, boolean */
	expect("{\"commands\":[[\"semanage\",\"port\",\"-a\",\"-t\",\"http_port_t\",\"-p\","
	       "\"tcp\",\"8081\"]]}",
	       "semanage port -a -t http_port_t -p tcp 8081", TRUE);
	expect("{\"commands\":[[\"semanage\",\"permissive\",\"-a\",\"httpd_t\"]]}",
	       "semanage permissive -a httpd_t", FALSE);
	/* a module: avcdoctor allow -M, then semodule -i */
	expect("{\"commands\":[[\"avcdoctor\",\"allow\",\"--alert\",\"0123456789abcdef\",\"-M\","
	       "\"my_httpd\"],[\"semodule\",\"-X\",\"300\",\"-i\",\"my_httpd.pp\"]]}",
	       "# avcdoctor allow --alert 0123456789abcdef -M my_httpd\n"
	       "# semodule -X 300 -i my_httpd.pp", TRUE);
	expect("{\"commands\":[[\"avcdoctor\",\"allow\",\"-M\",\"my_httpd\"]]}",
	       "avcdoctor allow -M my_httpd", FALSE);
	expect("{\"commands\":[[\"chcon\",\"-t\",\"httpd_sys_content_t\",\"/srv/x\"]]}",
	       "chcon -t httpd_sys_content_t /srv/x", FALSE);
	/* no commands: nothing to show, nothing to fix */
	expect("{\"commands\":[]}", "", FALSE);
	expect("{}", "", FALSE);
	expect("{\"commands\":[[1,2]]}", NOT_EXACT "?", FALSE);
}

static void test_alert_reply(void **state)
{
	json_object *o = json_tokener_parse(
		"{\"id\":\"0123456789abcdef\",\"count\":3,\"first_seen\":1700000001.5,"
		"\"last_seen\":1700000002.25,\"level\":\"green\",\"summary\":\"S\\u0001\","
		"\"records\":[\"type=AVC msg=x\"],\"suggestions\":["
		"{\"kind\":\"boolean\",\"if\":\"If a\",\"then\":\"Then b\",\"commands\":"
		"[[\"setsebool\",\"-P\",\"httpd_read_user_content=1\"]]},"
		"{\"kind\":\"report_bug\",\"if\":null,\"then\":\"T\",\"commands\":[]}]}");
	g_autoptr(GVariant) v = ad_setroubleshoot_alert_reply(o, "0123456789abcdef-7", is_boolean,
							     NULL);
	g_autofree char *text = g_variant_print(v, FALSE);

	assert_string_equal(g_variant_get_type_string(v), "(ssiasa(ssssbbi)tts)");
	assert_string_equal(text,
			    "('0123456789abcdef-7', 'S\\\\x01', 3, ['type=AVC msg=x'], "
			    "[('If a', 'Then b', 'setsebool -P httpd_read_user_content=1', '0', "
			    "true, false, 100), ('', 'T', '', '1', false, true, 99)], "
			    "1700000001500000, 1700000002250000, 'green')");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setsebool),
		cmocka_unit_test(test_cockpit_never_runs_record_text),
		cmocka_unit_test(test_lines_and_fixable),
		cmocka_unit_test(test_alert_reply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
