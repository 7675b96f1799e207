// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for notifier/notes.c: the notifier's reading of the daemon's
 * JSON (hostile or broken text included) and what a coalesced notification
 * says (counts, source types, escaping of the summaries).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "notes.h"

static void test_valid_id(void **state)
{
	(void)state;
	assert_true(ad_note_valid_id("0123456789abcdef"));
	assert_false(ad_note_valid_id(NULL));
	assert_false(ad_note_valid_id(""));
	assert_false(ad_note_valid_id("0123456789ABCDEF"));	/* upper case */
	assert_false(ad_note_valid_id("0123456789abcde"));	/* 15 digits */
	assert_false(ad_note_valid_id("0123456789abcdef0"));
	assert_false(ad_note_valid_id("0123456789abcdeg"));
	assert_false(ad_note_valid_id("../../etc/passwd"));
	assert_false(ad_note_valid_id("--alert=x -e sh "));
}

static void check_type(const char *ctx, const char *want)
{
	g_autofree char *t = ad_note_context_type(ctx);

	if (!want)
		assert_null(t);
	else
		assert_string_equal(t, want);
}

static void test_context_type(void **state)
{
	(void)state;
	check_type("system_u:system_r:httpd_t:s0", "httpd_t");
	check_type("system_u:system_r:httpd_t:s0:c1,c2", "httpd_t");
	check_type("u:r:t", "t");
	check_type(NULL, NULL);
	check_type("", NULL);
	check_type("u:r", NULL);
	check_type("u:r::s0", NULL);
	/* anything but [A-Za-z0-9_] would reach the plain-text title */
	check_type("u:r:<b>x</b>:s0", NULL);
	check_type("u:r:a&b:s0", NULL);
	check_type("u:r:a b:s0", NULL);
	check_type("u:r:t\xc3\xa9:s0", NULL);
	/* over 64 characters */
	check_type("u:r:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:s0", NULL);
}

static void test_level_rank(void **state)
{
	(void)state;
	assert_int_equal(ad_note_level_rank("red"), 2);
	assert_int_equal(ad_note_level_rank("yellow"), 1);
	assert_int_equal(ad_note_level_rank("green"), 0);
	assert_int_equal(ad_note_level_rank(NULL), 1);
	assert_int_equal(ad_note_level_rank("purple"), 1);
}

static void test_from_json(void **state)
{
	gboolean ignored = TRUE;
	g_autoptr(AdNote) n = ad_note_from_json(
		"{\"id\":\"0123456789abcdef\",\"level\":\"red\",\"summary\":\"SELinux is "
		"preventing <b>x</b>\",\"count\":7,"
		"\"denial\":{\"scontext\":\"system_u:system_r:httpd_t:s0\"}}",
		&ignored);

	(void)state;
	assert_non_null(n);
	assert_false(ignored);
	assert_string_equal(n->id, "0123456789abcdef");
	assert_string_equal(n->level, "red");
	/* kept as text: escaping is the describer's job */
	assert_string_equal(n->summary, "SELinux is preventing <b>x</b>");
	assert_string_equal(n->stype, "httpd_t");
	/* the count told: an update with no more occurrences is not news */
	assert_int_equal(n->count, 7);
}

/*
 * One alert's notification: the summary, then its first fix checked
 * against the policy and what else it opens, as analyze says it; escaped
 */
static void test_body_proof(void **state)
{
	g_autoptr(AdNote) ok = ad_note_from_json(
		"{\"id\":\"0123456789abcdef\",\"summary\":\"SELinux is preventing <b>x</b>\","
		"\"suggestions\":[{\"kind\":\"module\",\"verified\":true,\"scope\":{\"accesses\":1204,"
		"\"domains\":57,\"examples\":[\"a_t b_t:file read\"]}},{\"verified\":false}]}",
		NULL);
	g_autoptr(AdNote) short_of = ad_note_from_json(
		"{\"id\":\"0123456789abcdef\",\"summary\":\"s\",\"suggestions\":"
		"[{\"verified\":false,\"still_denied\":\"a constraint still blocks it.\"}]}", NULL);
	g_autoptr(AdNote) none = ad_note_from_json(
		"{\"id\":\"0123456789abcdef\",\"summary\":\"s\",\"suggestions\":"
		"[{\"verified\":null}]}", NULL);
	g_autofree char *b1 = NULL, *b2 = NULL, *b3 = NULL;

	(void)state;
	assert_non_null(ok);
	b1 = ad_note_body(ok);
	assert_string_equal(b1, "SELinux is preventing &lt;b&gt;x&lt;/b&gt;\n"
			    "Fix: load a local policy module that allows it.\n"
			    "Checked against the policy: this stops the denial. Also allows 1,204 "
			    "other accesses for 57 domains (e.g. a_t b_t:file read).");
	b2 = ad_note_body(short_of);
	assert_string_equal(b2, "s\nChecked against the policy: not enough, a constraint still "
			    "blocks it.");
	/* not a change of the policy: nothing to prove, nothing said */
	b3 = ad_note_body(none);
	assert_string_equal(b3, "s");
}

static void test_from_json_defaults(void **state)
{
	g_autoptr(AdNote) n = ad_note_from_json("{\"id\":\"0123456789abcdef\"}", NULL);

	(void)state;
	assert_non_null(n);
	assert_string_equal(n->level, "yellow");
	assert_string_equal(n->summary, "");
	assert_null(n->stype);
	assert_int_equal(n->count, 0);	/* unknown */
}

/* the notifier offers "Apply the fix" for the first suggestion only */
static void test_fixable(void **state)
{
	(void)state;
	{
		g_autoptr(AdNote) n = ad_note_from_json(
			"{\"id\":\"0123456789abcdef\",\"suggestions\":[{\"commands\":"
			"[[\"restorecon\",\"-v\",\"--\",\"/x\"]]}]}", NULL);
		g_autoptr(AdNote) m = ad_note_from_json(
			"{\"id\":\"0123456789abcdef\",\"suggestions\":[{\"commands\":[]},"
			"{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\"]]}]}", NULL);

		assert_true(n->fixable);
		assert_false(m->fixable);	/* only the first suggestion counts */
	}
}

/*
 * what "Apply the fix" runs is in the body before anything runs: the
 * commands quoted and escaped, what the fix says of itself; the digest
 * is that of those commands
 */
static void test_body_commands(void **state)
{
	g_autoptr(AdNote) n = ad_note_from_json(
		"{\"id\":\"0123456789abcdef\",\"summary\":\"s\",\"suggestions\":[{"
		"\"then\":\"relabel <it>\",\"commands\":[[\"restorecon\",\"-v\",\"--\","
		"\"/var/www/a b&<c>\"]]}]}", NULL);
	g_autoptr(AdNote) by_hand = ad_note_from_json(
		"{\"id\":\"0123456789abcdef\",\"summary\":\"s\",\"suggestions\":[{"
		"\"apply\":\"by-hand\",\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\"]]}]}",
		NULL);
	g_autofree char *b = NULL, *b2 = NULL;

	(void)state;
	assert_true(n->fixable);
	assert_int_equal(strlen(n->digest), 64);
	b = ad_note_body(n);
	/* the fix named by what it does, with the path it restores */
	assert_string_equal(b, "s\nFix: restore the label of /var/www/a b&amp;&lt;c&gt;.\n"
			    "\"Apply the fix\" runs as root:\n"
			    "restorecon -v -- &apos;/var/www/a b&amp;&lt;c&gt;&apos;");
	/* the analysis said by hand: no Apply, no commands said to run */
	assert_false(by_hand->fixable);
	assert_null(by_hand->digest);
	b2 = ad_note_body(by_hand);
	/* ... though the fix is named all the same */
	assert_string_equal(b2, "s\nFix: restore the label of /x.");
}

/* a merged notification: its red alerts listed apart, and never ignored with it */
static void test_red_apart(void **state)
{
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(ad_note_free);
	g_autofree char *title = NULL, *body = NULL;
	g_autofree const char **ids = NULL;
	static const char *const json[] = {
		"{\"id\":\"000000000000000a\",\"level\":\"yellow\",\"summary\":\"one\"}",
		"{\"id\":\"000000000000000b\",\"level\":\"red\",\"summary\":\"shadow <w>\"}",
		"{\"id\":\"000000000000000c\",\"level\":\"green\",\"summary\":\"three\"}",
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(json); i++)
		g_ptr_array_add(notes, ad_note_from_json(json[i], NULL));
	ad_notes_describe(notes, &title, &body);
	assert_string_equal(body, "three\nshadow &lt;w&gt;\none\n"
			    "Red alert, not silenced by \"Don't notify again\":\nshadow &lt;w&gt;");
	ids = ad_notes_ignorable(notes);
	assert_string_equal(ids[0], "000000000000000a");
	assert_string_equal(ids[1], "000000000000000c");
	assert_null(ids[2]);
}

static void test_from_json_ignored(void **state)
{
	gboolean ignored = FALSE;
	AdNote *n = ad_note_from_json("{\"id\":\"0123456789abcdef\",\"ignored\":true}",
				      &ignored);

	(void)state;
	assert_null(n);
	assert_true(ignored);
}

static void test_from_json_bad(void **state)
{
	static const char *const bad[] = {
		"", "not json", "[]", "42", "null", "{", "{\"id\":42}",
		"{\"id\":\"0123456789ABCDEF\"}", "{\"id\":\"x; rm -rf /\"}",
		"{\"summary\":\"no id\"}", "{\"id\":null}",
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		gboolean ignored = TRUE;

		assert_null(ad_note_from_json(bad[i], &ignored));
		assert_false(ignored);
	}
	/* a denial that is no object, members that are no strings: the defaults */
	g_autoptr(AdNote) n = ad_note_from_json(
		"{\"id\":\"0123456789abcdef\",\"denial\":[1,2],\"summary\":7,\"level\":null}",
		NULL);
	assert_non_null(n);
	assert_null(n->stype);
	assert_string_equal(n->summary, "");
	assert_string_equal(n->level, "yellow");
	g_autoptr(AdNote) m = ad_note_from_json(
		"{\"id\":\"0123456789abcdef\",\"summary\":null,"
		"\"denial\":{\"scontext\":null}}", NULL);
	assert_non_null(m);
	assert_string_equal(m->summary, "");
	assert_null(m->stype);
	g_autofree char *title = NULL, *body = NULL;
	g_autoptr(GPtrArray) notes = g_ptr_array_new();

	g_ptr_array_add(notes, m);
	ad_notes_describe(notes, &title, &body);
	assert_string_equal(body, "");
}

static AdNote *note(const char *id, const char *summary, const char *stype)
{
	AdNote *n = g_new0(AdNote, 1);

	n->id = g_strdup(id);
	n->level = g_strdup("yellow");
	n->summary = g_strdup(summary);
	n->stype = g_strdup(stype);
	return n;
}

static void test_describe_one(void **state)
{
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(ad_note_free);
	g_autofree char *title = NULL, *body = NULL;

	(void)state;
	g_ptr_array_add(notes, note("0000000000000001", "a <b>bold</b> & bad name", "httpd_t"));
	ad_notes_describe(notes, &title, &body);
	assert_string_equal(title, "1 SELinux alert, 1 denial");
	/* the body is the one place servers read markup: escaped */
	assert_string_equal(body, "a &lt;b&gt;bold&lt;/b&gt; &amp; bad name");
}

static void test_describe_many(void **state)
{
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(ad_note_free);
	g_autofree char *title = NULL, *body = NULL;
	static const char *const types[] = { "a_t", "b_t", "a_t", NULL, "c_t", "d_t", "e_t" };

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(types); i++) {
		g_autofree char *id = g_strdup_printf("%016x", i);
		g_autofree char *s = g_strdup_printf("summary %u", i);

		g_ptr_array_add(notes, note(id, s, types[i]));
	}
	/* the denials each stands for: b_t most, then the others */
	for (guint i = 0; i < notes->len; i++)
		((AdNote *)g_ptr_array_index(notes, i))->denials = i == 1 ? 1500 : 10;
	ad_notes_describe(notes, &title, &body);
	/* alerts and denials counted apart, in digits people read */
	assert_string_equal(title, "7 SELinux alerts, 1,560 denials");
	/* no shell command: the domains with the most denials */
	assert_string_equal(body, "Most denials: b_t (1,500), a_t (20), c_t (10), "
				  "and 2 other domains");
}

static void test_describe_three(void **state)
{
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(ad_note_free);
	g_autofree char *title = NULL, *body = NULL;

	(void)state;
	g_ptr_array_add(notes, note("0000000000000001", "one", "x_t"));
	g_ptr_array_add(notes, note("0000000000000002", "two", "x_t"));
	g_ptr_array_add(notes, note("0000000000000003", "three", NULL));
	ad_notes_describe(notes, &title, &body);
	assert_string_equal(title, "3 SELinux alerts, 3 denials");
	assert_string_equal(body, "three\ntwo\none");
}

/* the first fix in words: what it does and to what, never a command line */
static void check_words(const char *suggestion, const char *want)
{
	g_autofree char *text = g_strdup_printf("{\"id\":\"0123456789abcdef\","
						"\"suggestions\":[%s]}", suggestion);
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(text, NULL);
	g_autofree char *words = NULL;

	assert_non_null(doc);
	words = ad_fix_words(ad_alert_doc_suggestion(doc, 0));
	if (!want)
		assert_null(words);
	else
		assert_string_equal(words, want);
}

static void test_fix_words(void **state)
{
	(void)state;
	check_words("{\"kind\":\"relabel\",\"commands\":[[\"restorecon\",\"-v\",\"--\","
		    "\"/var/www/html/index.html\"]]}",
		    "restore the label of /var/www/html/index.html");
	check_words("{\"kind\":\"relabel\",\"commands\":[[\"restorecon\",\"-R\",\"-v\",\"--\","
		    "\"/srv\"]]}", "restore the labels of /srv and what is below it");
	check_words("{\"kind\":\"boolean\",\"commands\":[[\"setsebool\",\"-P\","
		    "\"httpd_can_network_connect=1\"]]}",
		    "turn on the boolean httpd_can_network_connect");
	check_words("{\"kind\":\"boolean\",\"commands\":[[\"setsebool\",\"-P\",\"a=1\",\"b=on\"]]}",
		    "turn on the booleans a, b");
	check_words("{\"kind\":\"boolean\",\"commands\":[[\"setsebool\",\"-P\",\"a=1\",\"b=0\"]]}",
		    "set the booleans a=1, b=0");
	check_words("{\"kind\":\"port\",\"commands\":[[\"semanage\",\"port\",\"-a\",\"-t\","
		    "\"http_port_t\",\"-p\",\"tcp\",\"81\"]]}", "label port 81/tcp as http_port_t");
	check_words("{\"kind\":\"fcontext\",\"commands\":[[\"semanage\",\"fcontext\",\"-a\","
		    "\"-t\",\"public_content_t\",\"--\",\"/srv(/.*)?\"],[\"restorecon\"]]}",
		    "label /srv(/.*)? as public_content_t and restore the labels");
	check_words("{\"kind\":\"module\",\"commands\":[[\"semodule\",\"-i\",\"x.pp\"]]}",
		    "load a local policy module that allows it");
	/* no command: the first clause of what it says */
	check_words("{\"kind\":\"attack\",\"then\":\"Then investigate: only login programs.\"}",
		    "investigate");
	/* record text escaped: a control character in a path */
	check_words("{\"commands\":[[\"restorecon\",\"--\",\"/x\\u001b[31m\"]]}",
		    "restore the label of /x\\x1b[31m");
	check_words("{}", NULL);
	check_words("[]", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_id),
		cmocka_unit_test(test_context_type),
		cmocka_unit_test(test_level_rank),
		cmocka_unit_test(test_from_json),
		cmocka_unit_test(test_from_json_defaults),
		cmocka_unit_test(test_body_proof),
		cmocka_unit_test(test_from_json_ignored),
		cmocka_unit_test(test_fixable),
		cmocka_unit_test(test_body_commands),
		cmocka_unit_test(test_red_apart),
		cmocka_unit_test(test_from_json_bad),
		cmocka_unit_test(test_describe_one),
		cmocka_unit_test(test_describe_many),
		cmocka_unit_test(test_describe_three),
		cmocka_unit_test(test_fix_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
