// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The alert document (common/alert-doc.c): a table of hostile alert JSON,
 * each parsed into an AdAlertDoc or refused, never a crash; members of the
 * wrong type are absent, strings never hold a NUL, argument vectors are
 * exact or refused, commands_hex is decoded.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "alert-doc.h"

#define ID "\"id\":\"0123456789abcdef\""

/* texts that are no alert at all */
static void test_refused(void **state)
{
	static const char *const texts[] = {
		"", "null", "[]", "42", "\"id\"", "{", "{\"id\":}", "{}",
		"{\"id\":\"\"}", "{\"id\":17}", "{\"id\":null}", "{\"id\":[\"a\"]}",
		"{\"id\":\"\\u0000abc\"}",
		"{\"id\":\"\xff\xfe\"}",
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(texts); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(texts[i], &error);

		if (doc)
			fail_msg("accepted: %s", texts[i]);
		assert_non_null(error);
	}
	assert_null(ad_alert_doc_parse(NULL, NULL));
	assert_null(ad_alert_doc_new(NULL, NULL));
}

/* members of the wrong type are absent; the rest of the alert still reads */
static void test_wrong_types(void **state)
{
	static const char *const texts[] = {
		"{" ID ",\"level\":3,\"summary\":[],\"count\":\"9\",\"ignored\":\"true\","
		"\"hosts\":{},\"denial\":[],\"suggestions\":{},\"notes\":\"x\",\"paths\":7}",
		"{" ID ",\"level\":\"purple\",\"summary\":null,\"count\":-5,\"hosts\":[1,null,\"\"],"
		"\"denial\":\"AVC\",\"suggestions\":[1,\"a\",null,[]],\"first_seen\":\"x\"}",
		"{" ID ",\"level\":null,\"count\":1e300,\"denial\":{\"scontext\":5,"
		"\"permissions\":[\"read\",2,null],\"permissive\":\"yes\"}}",
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(texts); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(texts[i], &error);

		if (!doc)
			fail_msg("refused %s: %s", texts[i], error->message);
		assert_string_equal(doc->id, "0123456789abcdef");
		assert_int_equal(doc->level, AD_LEVEL_YELLOW);
		assert_string_equal(doc->summary, "");
		assert_false(doc->ignored);
		assert_non_null(doc->hosts);
		assert_null(doc->hosts[0]);
		/* entries that are not objects keep their places */
		for (guint j = 0; j < doc->suggestions->len; j++) {
			const AdSuggestionDoc *s = ad_alert_doc_suggestion(doc, j);

			assert_true(s->not_object);
			assert_null(s->commands);
			assert_false(s->has_apply || s->inexact);
			assert_int_equal(s->verified, -1);
		}
		assert_int_equal(doc->suggestions->len, i == 1 ? 4 : 0);
		assert_int_equal(doc->notes->len, 0);
		assert_non_null(doc->paths);
		assert_true(doc->first_seen == 0);
		if (doc->denial) {
			assert_null(doc->denial->scontext);
			assert_null(doc->denial->stype);
			assert_int_equal(g_strv_length(doc->denial->permissions), 1);
			assert_true(doc->denial->has_permissions);
			assert_false(doc->denial->permissive);
		}
	}
}

/* a whole alert, as analyze writes it */
static void test_alert(void **state)
{
	const char *text =
		"{" ID ",\"count\":3,\"blocked\":2,\"logged_only\":1,\"first_seen\":10.5,"
		"\"level\":\"red\",\"ignored\":true,\"summary\":\"line\\nbreak \\u001b[31m\","
		"\"hosts\":[\"web1\",\"\",\"web2\"],"
		"\"denial\":{\"type\":\"AVC\",\"scontext\":\"system_u:system_r:httpd_t:s0\","
		"\"tcontext\":\"u:r:x\",\"tclass\":\"file\",\"permissions\":[\"read\",\"write\"],"
		"\"suspect\":true},"
		"\"suggestions\":[{\"plugin\":\"p\",\"kind\":\"boolean\",\"confidence\":7,"
		"\"level\":\"green\",\"verified\":true,\"scope\":{\"accesses\":-4,\"domains\":2,"
		"\"examples\":[\"a\",\"b\"]},\"apply\":\"one-click\",\"apply_reason\":\"ok\"}],"
		"\"notes\":[{\"plugin\":\"n\",\"if\":\"x\"}]}";
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(text, NULL);
	const AdSuggestionDoc *s;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(doc->level, AD_LEVEL_RED);
	assert_string_equal(doc->level_name, "red");
	assert_int_equal(doc->count, 3);
	assert_true(doc->has_modes);
	assert_int_equal(doc->blocked, 2);
	assert_int_equal(doc->logged_only, 1);
	assert_true(doc->first_seen == 10.5 && doc->last_seen == 0);
	assert_true(doc->ignored);
	/* as sent: showing is the reader's, through ad_text_shown or ad_clean_text */
	assert_string_equal(doc->summary, "line\nbreak \x1b[31m");
	{
		g_autofree char *clean = ad_clean_text(doc->summary);

		assert_string_equal(clean, "line\nbreak \\x1b[31m");
	}
	assert_int_equal(g_strv_length(doc->hosts), 2);
	assert_string_equal(doc->denial->stype, "httpd_t");
	assert_string_equal(doc->denial->ttype, "x");
	assert_string_equal(doc->denial->permissions[1], "write");
	assert_true(doc->denial->has_permissions);
	assert_true(doc->denial->suspect);
	s = ad_alert_doc_suggestion(doc, 0);
	assert_non_null(s);
	assert_null(ad_alert_doc_suggestion(doc, 1));
	assert_true(s->confidence == 1.0);
	assert_int_equal(s->level, AD_LEVEL_GREEN);
	assert_int_equal(s->verified, 1);
	assert_int_equal(s->accesses, 0);
	assert_int_equal(s->domains, 2);
	assert_string_equal(s->example, "a");
	assert_true(s->has_apply);
	assert_string_equal(s->apply, "one-click");
	assert_null(s->commands);
	assert_int_equal(doc->notes->len, 1);
}

/* what the browser's detail pane and overview read: the denial's details, host counts, times */
static void test_details(void **state)
{
	const char *text =
		"{" ID ",\"count\":4,\"last_seen\":200.25,\"fix_applied\":150,"
		"\"host_counts\":{\"web1\":3,\"\":1,\"bad\":-2,\"odd\":\"7\"},"
		"\"timeline\":{\"width\":60,\"buckets\":[[120,3],[180,1]]},"
		"\"denial\":{\"cmdline\":\"httpd -k start\",\"pid\":42,\"syscall\":\"openat\","
		"\"port\":8080,\"file\":\"audit.log\",\"line\":7}}";
	const char *wrong =
		"{" ID ",\"fix_applied\":\"now\",\"host_counts\":[1],\"timeline\":[[1,2]],"
		"\"denial\":{\"cmdline\":3,\"pid\":\"42\",\"port\":null,\"line\":1.5}}";
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(text, NULL);
	g_autoptr(AdAlertDoc) bad = ad_alert_doc_parse(wrong, NULL);
	g_autoptr(AdAlertDoc) none = ad_alert_doc_parse("{" ID "}", NULL);
	const AdHostCountDoc *h;

	(void)state;
	assert_non_null(doc);
	assert_string_equal(doc->denial->cmdline, "httpd -k start");
	assert_int_equal(doc->denial->pid, 42);
	assert_string_equal(doc->denial->syscall, "openat");
	assert_int_equal(doc->denial->port, 8080);
	assert_string_equal(doc->denial->file, "audit.log");
	assert_int_equal(doc->denial->line, 7);
	assert_non_null(doc->denial->json);
	assert_true(doc->fix_applied == 150);
	/* in the object's order; a count that is not a positive integer is 0 */
	assert_non_null(doc->host_counts);
	assert_int_equal(doc->host_counts->len, 4);
	h = g_ptr_array_index(doc->host_counts, 0);
	assert_string_equal(h->host, "web1");
	assert_int_equal(h->count, 3);
	h = g_ptr_array_index(doc->host_counts, 1);
	assert_string_equal(h->host, "");
	assert_int_equal(h->count, 1);
	assert_int_equal(((AdHostCountDoc *)g_ptr_array_index(doc->host_counts, 2))->count, 0);
	assert_int_equal(((AdHostCountDoc *)g_ptr_array_index(doc->host_counts, 3))->count, 0);
	assert_non_null(doc->occurrences);
	assert_int_equal(ad_occurrences_total(doc->occurrences), 4);
	/* the wrong types are absent */
	assert_non_null(bad);
	assert_null(bad->denial->cmdline);
	assert_int_equal(bad->denial->pid, -1);
	assert_int_equal(bad->denial->port, -1);
	assert_int_equal(bad->denial->line, -1);
	assert_true(bad->fix_applied == 0);
	assert_null(bad->host_counts);
	assert_null(bad->occurrences);
	/* and so are the absent ones */
	assert_null(none->denial);
	assert_null(none->host_counts);
	assert_null(none->occurrences);
	assert_true(none->fix_applied == 0);
}

/* commands: exact vectors or marked malformed; commands_hex decoded */
static void test_commands(void **state)
{
	const char *text =
		"{" ID ",\"suggestions\":["
		"{\"commands\":[[\"restorecon\",\"--\",\"/a b\"],[\"x\",3],\"str\","
		"[\"a\\u0000b\"],[]]},"
		"{\"commands\":[[\"touch\",\"\\\\xff\"]],"
		"\"commands_hex\":[[\"746f756368\",\"ff\"]]},"
		"{\"commands\":[[\"touch\",\"q\"]],\"commands_hex\":[[\"7\",\"zz\"]]},"
		"{\"commands\":{},\"verified\":0,\"apply\":null},"
		"{\"verified\":null,\"commands_hex\":5}"
		"]}";
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(text, NULL);
	const AdSuggestionDoc *s;
	const AdCommandDoc *c;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(doc->suggestions->len, 5);
	s = ad_alert_doc_suggestion(doc, 0);
	assert_int_equal(s->commands->len, 5);
	assert_true(s->commands_malformed);
	assert_false(s->inexact);
	c = g_ptr_array_index(s->commands, 0);
	assert_string_equal(c->argv[2], "/a b");
	assert_null(c->exact);
	for (guint i = 1; i < 4; i++)
		assert_null(((AdCommandDoc *)g_ptr_array_index(s->commands, i))->argv);
	c = g_ptr_array_index(s->commands, 4);
	assert_non_null(c->argv);
	assert_null(c->argv[0]);
	s = ad_alert_doc_suggestion(doc, 1);
	assert_true(s->inexact);
	assert_false(s->commands_malformed);
	c = g_ptr_array_index(s->commands, 0);
	assert_true(c->has_hex);
	assert_string_equal(c->argv[1], "\\xff");
	assert_string_equal(c->exact[0], "touch");
	assert_string_equal(c->exact[1], "\xff");
	/* hex that does not decode leaves the JSON's form */
	s = ad_alert_doc_suggestion(doc, 2);
	c = g_ptr_array_index(s->commands, 0);
	assert_string_equal(c->exact[0], "touch");
	assert_string_equal(c->exact[1], "q");
	/* a proof that is not a boolean is no proof; a null apply is there */
	s = ad_alert_doc_suggestion(doc, 3);
	assert_null(s->commands);
	/* commands that are not a list are malformed, not absent */
	assert_true(s->commands_malformed);
	assert_int_equal(s->verified, 0);
	assert_true(s->has_apply);
	assert_null(s->apply);
	s = ad_alert_doc_suggestion(doc, 4);
	assert_int_equal(s->verified, -1);
	assert_true(s->inexact);
	assert_false(s->has_apply);
	assert_false(s->commands_malformed);
}

/*
 * What the text report and the safety check read beyond the rest: the
 * level there or not, the permissive flag said or not, the suspect
 * reason, the path's exact bytes
 */
static void test_report_members(void **state)
{
	static const struct {
		const char *denial;
		gboolean has_permissive, permissive;
		const char *path, *exact, *reason;
	} cases[] = {
		{ "{\"permissive\":true,\"path\":\"/a\",\"suspect\":true,"
		  "\"suspect_reason\":\"planted\"}", TRUE, TRUE, "/a", "/a", "planted" },
		{ "{\"permissive\":false,\"path\":\"/a\\\\xff\",\"path_hex\":\"2f61ff\"}",
		  TRUE, FALSE, "/a\\xff", "/a\xff", NULL },
		/* null: the record did not say; a string is not a flag */
		{ "{\"permissive\":null,\"path_hex\":\"2f6\",\"suspect_reason\":7}",
		  FALSE, FALSE, NULL, NULL, NULL },
		{ "{\"permissive\":\"yes\",\"path\":\"/b\",\"path_hex\":5,"
		  "\"suspect_reason\":\"x\\u0000y\"}", FALSE, FALSE, "/b", "/b", NULL },
		{ "{\"path\":\"/c\",\"path_hex\":\"2f00\"}", FALSE, FALSE, "/c", "/", NULL },
	};
	g_autoptr(AdAlertDoc) none = ad_alert_doc_parse("{" ID "}", NULL);
	g_autoptr(AdAlertDoc) number = ad_alert_doc_parse("{" ID ",\"level\":3}", NULL);
	g_autoptr(AdAlertDoc) null = ad_alert_doc_parse("{" ID ",\"level\":null}", NULL);

	(void)state;
	assert_false(none->has_level);
	assert_true(number->has_level);
	assert_null(number->level_name);
	assert_int_equal(number->level, AD_LEVEL_YELLOW);
	assert_true(null->has_level);
	assert_null(null->level_name);
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf("{" ID ",\"denial\":%s}", cases[i].denial);
		g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(text, NULL);
		const AdDenialDoc *d;

		if (!doc)
			fail_msg("refused: %s", text);
		d = doc->denial;
		assert_non_null(d);
		assert_int_equal(d->has_permissive, cases[i].has_permissive);
		assert_int_equal(d->permissive, cases[i].permissive);
		assert_string_equal(d->path ? d->path : "(null)",
				    cases[i].path ? cases[i].path : "(null)");
		assert_string_equal(d->path_exact ? d->path_exact : "(null)",
				    cases[i].exact ? cases[i].exact : "(null)");
		assert_string_equal(d->suspect_reason ? d->suspect_reason : "(null)",
				    cases[i].reason ? cases[i].reason : "(null)");
	}
}

/* the small words: levels, ids, context types */
static void test_words(void **state)
{
	AdLevel l = AD_LEVEL_GREEN;
	gsize len = 0;
	g_autofree char *t = ad_context_type("a:b:c_t:s0:c1,c2");

	(void)state;
	assert_string_equal(ad_level_name(AD_LEVEL_RED), "red");
	assert_string_equal(ad_level_name((AdLevel)42), "yellow");
	assert_true(ad_level_from_name("green", &l) && l == AD_LEVEL_GREEN);
	assert_false(ad_level_from_name("Red", &l));
	assert_false(ad_level_from_name(NULL, &l));
	assert_true(ad_alert_id_is_valid("0123456789abcdef"));
	assert_false(ad_alert_id_is_valid("0123456789abcde"));
	assert_false(ad_alert_id_is_valid("0123456789abcdef0"));
	assert_false(ad_alert_id_is_valid("0123456789ABCDEF"));
	assert_false(ad_alert_id_is_valid(NULL));
	assert_string_equal(t, "c_t");
	assert_null(ad_context_type("a:b"));
	assert_null(ad_context_type(NULL));
	assert_non_null(ad_context_type_span("a:b:", &len));
	assert_int_equal(len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_alert),
		cmocka_unit_test(test_details),
		cmocka_unit_test(test_commands),
		cmocka_unit_test(test_report_members),
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
