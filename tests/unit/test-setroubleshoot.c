// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setroubleshoot's view of a stored suggestion (dispatcher/setroubleshoot.c):
 * do_text lines are the commands quoted, or comments; fixable only for the
 * programs the fix helper applies; and above all, a do_text that Cockpit
 * would run in a root shell by itself (one line starting with "setsebool")
 * is only ever a setsebool of policy booleans with plain values.  And the
 * replies that grow with the store (get_all_alerts, get_alert, ListAlerts)
 * stay below the bus' message limit, marshalled, with the largest alerts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dbus-service.h"
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

/* do_text of suggestion 0 of the alert @o, read as the dispatcher reads it */
static char *doc_do_text(json_object *o, gboolean *ret_fixable)
{
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_new(o, NULL);

	assert_non_null(doc);
	return ad_setroubleshoot_do_text(doc, 0, is_boolean, NULL, ret_fixable);
}

/* get_alert's reply of the alert @o, read as the dispatcher reads it */
static GVariant *doc_alert_reply(json_object *o, const char *local_id, AdBooleanCheck check,
				 gpointer data)
{
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_new(o, NULL);

	assert_non_null(doc);
	return ad_setroubleshoot_alert_reply(doc, local_id, check, data);
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
	t = doc_do_text(o, ret_fixable);
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
			t = doc_do_text(o, &fixable);
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
	g_autoptr(GVariant) v = doc_alert_reply(o, "0123456789abcdef-7", is_boolean,
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

/* the size of @body marshalled as the reply to a method call, as the bus gets it */
static gsize marshalled_size(GVariant *body)
{
	g_autoptr(GDBusMessage) call = g_dbus_message_new_method_call(
		":1.1", AD_SETROUBLESHOOTD_PATH, AD_SETROUBLESHOOTD_INTERFACE, "get_all_alerts");
	g_autoptr(GDBusMessage) reply = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree guchar *blob = NULL;
	gsize size = 0;

	g_dbus_message_set_serial(call, 1);
	reply = g_dbus_message_new_method_reply(call);
	g_dbus_message_set_body(reply, body);
	blob = g_dbus_message_to_blob(reply, &size, G_DBUS_CAPABILITY_FLAGS_NONE, &error);
	assert_non_null(blob);
	return size;
}

#define BUS_LIMIT (32u << 20)	/* the system bus' max_message_size */

/*
 * The largest alerts a store holds: as many as max_alerts allows (10,000),
 * each summary naming a path of PATH_MAX bytes that are not UTF-8, which
 * escaping makes four times as long.  Without the cap the reply would
 * take the dispatcher off the bus; with it, the newest that fit are sent.
 */
static void test_get_all_alerts_capped(void **state)
{
	const guint n = 10000;
	g_autoptr(GPtrArray) alerts = g_ptr_array_new_with_free_func(ad_setroubleshoot_listed_free);
	g_autofree char *path = g_malloc(4096 + 1);
	g_autoptr(GVariant) uncapped = NULL;
	g_autoptr(GVariant) v = NULL;
	g_autoptr(GVariant) list = NULL;
	guint left_out = 0, uncapped_left_out = 0;
	gsize size, kept;

	(void)state;
	path[0] = '/';
	/* control characters: each escaped to four bytes */
	memset(path + 1, 0x01, 4095);
	path[4096] = '\0';
	for (guint i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		g_autofree char *summary = g_strdup_printf("httpd was denied write on %s", path);
		g_autofree char *id = g_strdup_printf("%016x", i);
		AdSetroubleshootListed *l = g_new0(AdSetroubleshootListed, 1);

		json_object_object_add(o, "id", json_object_new_string(id));
		json_object_object_add(o, "summary", json_object_new_string(summary));
		json_object_object_add(o, "count", json_object_new_int64(i));
		l->doc = ad_alert_doc_new(o, NULL);
		l->local_id = g_strdup_printf("%016x-%u", i, i + 1);
		json_object_put(o);
		g_ptr_array_add(alerts, l);
	}
	/* uncapped, the reply would be n times that of one alert: over the bus' limit */
	{
		g_autoptr(GPtrArray) one = g_ptr_array_new();

		g_ptr_array_add(one, g_ptr_array_index(alerts, 0));
		uncapped = g_variant_ref_sink(ad_setroubleshoot_alerts_reply(one, G_MAXSIZE,
									     &uncapped_left_out));
		assert_int_equal(uncapped_left_out, 0);
		assert_true(n * marshalled_size(uncapped) > 2 * BUS_LIMIT);
	}

	v = g_variant_ref_sink(ad_setroubleshoot_alerts_reply(alerts, AD_DISPATCH_MAX_REPLY,
							      &left_out));
	size = marshalled_size(v);
	print_message("get_all_alerts: %zu bytes, %u of %u alerts left out\n", size, left_out, n);
	assert_true(size <= AD_DISPATCH_MAX_REPLY + 4096);
	assert_true(size < BUS_LIMIT);
	list = g_variant_get_child_value(v, 0);
	kept = g_variant_n_children(list);
	assert_true(kept > 0 && left_out > 0);
	assert_int_equal(kept + left_out, n);
	/* the newest are kept, in their order: the last one is the last alert */
	{
		g_autoptr(GVariant) first = g_variant_get_child_value(list, 0);
		g_autoptr(GVariant) last = g_variant_get_child_value(list, kept - 1);
		const char *id_first, *id_last;
		g_autofree char *want_first = g_strdup_printf("%016x-%u", n - (guint)kept,
							      n - (guint)kept + 1);

		g_variant_get(first, "(&s&si)", &id_first, NULL, NULL);
		g_variant_get(last, "(&s&si)", &id_last, NULL, NULL);
		assert_string_equal(id_first, want_first);
		assert_string_equal(id_last, "000000000000270f-10000");
	}
}

/* get_alert of an event of 1,024 records of 8 KiB that escape to four times that */
static void test_get_alert_capped(void **state)
{
	json_object *o = json_object_new_object();
	json_object *records = json_object_new_array();
	g_autofree char *rec = g_malloc(8192 + 1);
	g_autoptr(GVariant) v = NULL;
	g_autoptr(GVariant) events = NULL;
	g_autoptr(GVariant) last = NULL;
	gsize size, n;

	(void)state;
	memset(rec, 0x01, 8192);
	rec[8192] = '\0';
	for (guint i = 0; i < 1024; i++)
		json_object_array_add(records, json_object_new_string(rec));
	json_object_object_add(o, "id", json_object_new_string("0123456789abcdef"));
	json_object_object_add(o, "summary", json_object_new_string("S"));
	json_object_object_add(o, "records", records);
	v = g_variant_ref_sink(doc_alert_reply(o, "0123456789abcdef-1", is_boolean,
							     NULL));
	json_object_put(o);
	size = marshalled_size(v);
	print_message("get_alert: %zu bytes\n", size);
	assert_true(size <= AD_DISPATCH_MAX_ALERT + 4096);
	events = g_variant_get_child_value(v, 3);
	n = g_variant_n_children(events);
	assert_true(n > 1 && n < 1024);
	last = g_variant_get_child_value(events, n - 1);
	assert_non_null(strstr(g_variant_get_string(last, NULL), "more records"));
}

/*
 * ListAlerts: an alert's JSON is trimmed to AD_DISPATCH_MAX_ALERT (its
 * records, then its lists, each count said), and the reply keeps the newest
 * texts within AD_DISPATCH_MAX_REPLY
 */
static void test_list_alerts_capped(void **state)
{
	json_object *o = json_object_new_object();
	json_object *records = json_object_new_array();
	json_object *paths = json_object_new_array();
	g_autofree char *rec = g_malloc(8192 + 1);
	g_autofree char *text = NULL;
	g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GVariant) v = NULL;
	json_object *back, *left = NULL;
	guint left_out = 0;
	gsize size;

	(void)state;
	memset(rec, 'r', 8192);
	rec[8192] = '\0';
	for (guint i = 0; i < 1024; i++)
		json_object_array_add(records, json_object_new_string(rec));
	for (guint i = 0; i < 32; i++)
		json_object_array_add(paths, json_object_new_string(rec));
	json_object_object_add(o, "id", json_object_new_string("0123456789abcdef"));
	json_object_object_add(o, "summary", json_object_new_string("S"));
	json_object_object_add(o, "records", records);
	json_object_object_add(o, "paths", paths);
	text = ad_alert_json_text(o, AD_DISPATCH_MAX_ALERT);
	json_object_put(o);
	assert_non_null(text);
	assert_true(strlen(text) <= AD_DISPATCH_MAX_ALERT);
	back = json_tokener_parse(text);
	assert_non_null(back);
	assert_true(json_object_object_get_ex(back, "records_left_out", &left));
	assert_true(json_object_get_int64(left) > 800);
	assert_false(json_object_object_get_ex(back, "paths_left_out", NULL));
	json_object_put(back);
	/* a summary alone larger than an alert may be: left out, never cut */
	{
		g_autofree char *big = g_malloc0(AD_DISPATCH_MAX_ALERT + 2);
		json_object *huge = json_object_new_object();

		memset(big, 's', AD_DISPATCH_MAX_ALERT + 1);
		json_object_object_add(huge, "summary", json_object_new_string(big));
		assert_null(ad_alert_json_text(huge, AD_DISPATCH_MAX_ALERT));
		json_object_put(huge);
	}
	/* 40 alerts of nearly 1 MiB each: 16 MiB at most go, the newest */
	for (guint i = 0; i < 40; i++) {
		char *t = g_malloc(AD_DISPATCH_MAX_ALERT - 64);

		memset(t, 'a' + i % 26, AD_DISPATCH_MAX_ALERT - 65);
		t[AD_DISPATCH_MAX_ALERT - 65] = '\0';
		g_ptr_array_add(texts, t);
	}
	v = g_variant_ref_sink(ad_dbus_texts_reply(texts, AD_DISPATCH_MAX_REPLY, &left_out));
	size = marshalled_size(v);
	print_message("ListAlerts: %zu bytes, %u of 40 left out\n", size, left_out);
	assert_true(size <= AD_DISPATCH_MAX_REPLY + 4096);
	assert_true(left_out > 20 && left_out < 40);
	{
		g_autoptr(GVariant) list = g_variant_get_child_value(v, 0);
		g_autoptr(GVariant) last = g_variant_get_child_value(list, g_variant_n_children(list) - 1);

		assert_int_equal(g_variant_n_children(list) + left_out, 40);
		assert_int_equal(g_variant_get_string(last, NULL)[0], 'a' + 39 % 26);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setsebool),
		cmocka_unit_test(test_cockpit_never_runs_record_text),
		cmocka_unit_test(test_lines_and_fixable),
		cmocka_unit_test(test_alert_reply),
		cmocka_unit_test(test_get_all_alerts_capped),
		cmocka_unit_test(test_get_alert_capped),
		cmocka_unit_test(test_list_alerts_capped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
