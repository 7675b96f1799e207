// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stored messages (common/msg.c): a table of hostile messages, as a copied
 * store may hold them, each rendered or refused (the reader then shows the
 * stored text); the bounds on widths, nesting, pieces and output; a test
 * catalog whose translations change the conversions of their msgids, which
 * must never make a message read another argument; and well-formed
 * messages made by the writer's functions, through JSON and back.
 */
#include "config.h"

#include <locale.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <cmocka.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "msg.h"

/* the rendering of the message @json, NULL when refused */
static char *render(const char *json)
{
	json_object *j = json_tokener_parse(json);
	char *t = ad_msg_render_json(j);

	json_object_put(j);
	return t;
}

typedef struct {
	const char *json;
	const char *expect;	/* NULL: refused, the stored text is shown */
} Case;

static void run_cases(const Case *cases, guint n)
{
	for (guint i = 0; i < n; i++) {
		g_autofree char *t = render(cases[i].json);

		if (g_strcmp0(t, cases[i].expect))
			fail_msg("%s: rendered %s%s%s, expected %s%s%s", cases[i].json,
				 t ? "\"" : "", t ? t : "(refused)", t ? "\"" : "",
				 cases[i].expect ? "\"" : "",
				 cases[i].expect ? cases[i].expect : "(refused)",
				 cases[i].expect ? "\"" : "");
	}
}

#define M1(fmt, args) "[{\"msgid\":\"" fmt "\",\"args\":[" args "]}]"

/* what is no message at all */
static void test_not_messages(void **state)
{
	static const Case cases[] = {
		{ "null", NULL },
		{ "42", NULL },
		{ "\"text\"", NULL },
		{ "{}", NULL },
		{ "[]", NULL },
		{ "[42]", NULL },
		{ "[null]", NULL },
		{ "[[]]", NULL },
		{ "[{}]", NULL },
		{ "[{\"msgid\":5}]", NULL },
		{ "[{\"msgid\":null}]", NULL },
		{ "[{\"template\":5}]", NULL },
		{ "[{\"msgid\":\"a\",\"args\":{}}]", NULL },
		{ "[{\"msgid\":\"a\",\"args\":\"x\"}]", NULL },
		{ "[{\"msgid\":\"%s\",\"args\":[null]}]", NULL },
		{ "[{\"msgid\":\"%s\",\"args\":[true]}]", NULL },
		{ "[{\"msgid\":\"%s\",\"args\":[{}]}]", NULL },
		/* a plural without its count, or with one that is no count */
		{ "[{\"msgid\":\"a\",\"plural\":\"b\"}]", NULL },
		{ "[{\"msgid\":\"a\",\"plural\":\"b\",\"n\":-1}]", NULL },
		{ "[{\"msgid\":\"a\",\"plural\":\"b\",\"n\":\"2\"}]", NULL },
		{ "[{\"msgid\":\"a\",\"plural\":\"b\",\"n\":2.5}]", NULL },
		{ "[{\"msgid\":\"a\",\"plural\":7,\"n\":2}]", NULL },
		/* a template's values: strings in an object */
		{ "[{\"template\":\"{a}\",\"values\":[\"x\"]}]", NULL },
		{ "[{\"template\":\"{a}\",\"values\":{\"a\":1}}]", NULL },
		{ "[{\"template\":\"{a}\",\"values\":{\"a\":null}}]", NULL },
		/* NULs and invalid UTF-8, anywhere */
		{ "[\"a\\u0000b\"]", NULL },
		{ M1("%s", "\"a\\u0000b\""), NULL },
		{ "[{\"msgid\":\"a\\u0000%n\"}]", NULL },
		{ "[{\"template\":\"{a}\",\"values\":{\"a\":\"x\\u0000y\"}}]", NULL },
		{ "[\"\xff\xfe\"]", NULL },
		{ M1("%s", "\"\xc3\""), NULL },
		{ M1("%s", "\"\xed\xa0\x80\""), NULL },
		{ "[{\"msgid\":\"\xc0\xaf%s\",\"args\":[\"a\"]}]", NULL },
		{ "[{\"template\":\"{a}\",\"values\":{\"a\":\"\xf8\x88\x80\x80\x80\"}}]", NULL },
		{ "[{\"template\":\"{a}\",\"values\":{\"\xff\":\"x\"}}]", NULL },
	};

	(void)state;
	run_cases(cases, G_N_ELEMENTS(cases));
	assert_null(ad_msg_render_json(NULL));
	assert_null(ad_msg_from_json(NULL));
	assert_null(ad_msg_render(NULL));
}

/* conversions the formatter does not take, and broken ones */
static void test_refused_conversions(void **state)
{
	static const Case cases[] = {
		{ M1("%n", "1"), NULL },
		{ M1("%hhn", "1"), NULL },
		{ M1("%ln", "1"), NULL },
		{ M1("a%sb%n", "\"x\",1"), NULL },
		{ M1("%p", "1"), NULL },
		{ M1("%m", ""), NULL },
		{ M1("%*d", "5,1"), NULL },
		{ M1("%-*d", "5,1"), NULL },
		{ M1("%.*s", "5,\"x\""), NULL },
		{ M1("%1$*2$d", "1,5"), NULL },
		{ M1("%ls", "\"x\""), NULL },
		{ M1("%S", "\"x\""), NULL },
		{ M1("%C", "65"), NULL },
		{ M1("%hs", "\"x\""), NULL },
		{ M1("%lf", "1.5"), NULL },
		{ M1("%Lf", "1.5"), NULL },
		{ M1("%Ld", "1"), NULL },
		{ M1("%Id", "1"), NULL },
		{ M1("%b", "1"), NULL },
		{ M1("%B", "1"), NULL },
		{ M1("%k", "1"), NULL },
		{ M1("%r", "1"), NULL },
		{ M1("%v", "1"), NULL },
		{ M1("%w", "1"), NULL },
		{ M1("%", ""), NULL },
		{ M1("ab%", ""), NULL },
		{ M1("%l", "1"), NULL },
		{ M1("%5", "1"), NULL },
		{ M1("%.", "1"), NULL },
		{ M1("%-", ""), NULL },
		{ M1("%--------s", "\"x\""), NULL },
		/* a '%' escape takes no flag, width or position */
		{ M1("%5%", ""), NULL },
		{ M1("%-%", ""), NULL },
		{ M1("%1$%", ""), NULL },
		/* a position is 1 or more */
		{ M1("%0$s", "\"x\""), NULL },
	};

	(void)state;
	run_cases(cases, G_N_ELEMENTS(cases));
}

/* each conversion against its argument's type, and the count of arguments */
static void test_arguments(void **state)
{
	static const Case cases[] = {
		{ M1("%s", "5"), NULL },
		{ M1("%s", "1.5"), NULL },
		{ M1("%d", "\"5\""), NULL },
		{ M1("%d", "1.5"), NULL },
		{ M1("%u", "[\"word\"]"), NULL },
		{ M1("%f", "1"), NULL },
		{ M1("%f", "\"1.5\""), NULL },
		{ M1("%c", "\"A\""), NULL },
		/* a character: printable ASCII or a control, never NUL nor beyond */
		{ M1("%c", "65"), "A" },
		{ M1("%c", "0"), NULL },
		{ M1("%c", "-1"), NULL },
		{ M1("%c", "200"), NULL },
		{ M1("%c", "321"), NULL },
		/* too few, too many */
		{ "[{\"msgid\":\"%s\"}]", NULL },
		{ M1("%s and %s", "\"a\""), NULL },
		{ M1("%s", "\"a\",\"b\""), NULL },
		{ M1("plain", "\"a\""), NULL },
		{ M1("%d", "1,2"), NULL },
		{ M1("%s", "\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\","
			  "\"l\",\"m\",\"n\",\"o\",\"p\",\"q\",\"r\",\"s\",\"t\",\"u\",\"v\",\"w\","
			  "\"x\",\"y\",\"z\",\"A\",\"B\",\"C\",\"D\",\"E\",\"F\",\"G\""), NULL },
		/* well typed */
		{ M1("%s", "\"a\""), "a" },
		{ M1("%d|%i|%u|%x|%X|%o", "-5,7,8,255,255,8"), "-5|7|8|ff|FF|10" },
		{ M1("%hhd %hd %ld %lld %jd %zd %td %qd", "300,70000,-1,-2,3,4,5,6"),
		  "300 70000 -1 -2 3 4 5 6" },
		{ M1("%lu", "9223372036854775807"), "9223372036854775807" },
		{ M1("%d", "-9223372036854775808"), "-9223372036854775808" },
		{ M1("%.2f %e %g", "1.5,2.5,0.25"), "1.50 2.500000e+00 0.25" },
		{ M1("%5s|%-5s|%.2s", "\"ab\",\"cd\",\"efg\""), "   ab|cd   |ef" },
		{ M1("%05d|%+d|% d|%#x|%'d", "42,3,4,255,1000"), "00042|+3| 4|0xff|1000" },
		/* a string argument may be a message of its own */
		{ M1("[%s]", "[\"word\"]"), "[word]" },
		{ M1("[%6s]", "[{\"msgid\":\"%d\",\"args\":[7]}]"), "[     7]" },
		/* a nested message that is refused refuses the whole */
		{ M1("[%s]", "[{\"msgid\":\"%n\",\"args\":[1]}]"), NULL },
	};

	(void)state;
	run_cases(cases, G_N_ELEMENTS(cases));
}

/* %%, positions, texts and templates */
static void test_forms(void **state)
{
	static const Case cases[] = {
		{ M1("100%%", ""), "100%" },
		{ M1("%%s", ""), "%s" },
		{ M1("%%%s%%", "\"x\""), "%x%" },
		{ M1("%%d %d", "3"), "%d 3" },
		/* positions: a reordering, an argument read twice */
		{ M1("%2$s %1$s", "\"a\",\"b\""), "b a" },
		{ M1("%1$s%1$s", "\"a\""), "aa" },
		/* ...but never a message read twice: each reading renders it all again */
		{ M1("%1$s%1$s", "[\"a\"]"), NULL },
		{ M1("%1$s%1$.0s", "[\"a\"]"), NULL },
		{ M1("%2$s%1$s%2$s", "\"a\",[\"b\"]"), NULL },
		{ M1("%2$s%1$s%1$s", "\"a\",[\"b\"]"), "baa" },
		{ M1("%2$d %1$s", "\"a\",5"), "5 a" },
		/* ...never an argument it does not hold, nor one left unread */
		{ M1("%3$s", "\"a\",\"b\""), NULL },
		{ M1("%2$s", "\"a\",\"b\""), NULL },
		{ M1("%99999999999999999999$s", "\"a\""), NULL },
		/* ...nor one read as two types, nor positions mixed with the order */
		{ M1("%1$s %1$d", "\"a\""), NULL },
		{ M1("%1$d %1$u", "1"), NULL },
		{ M1("%s %1$s", "\"a\""), NULL },
		{ M1("%1$s %s", "\"a\",\"b\""), NULL },
		/* texts are shown as they are: a '%' in one is no conversion */
		{ "[\"a %n b %s\"]", "a %n b %s" },
		{ "[\"\"]", "" },
		{ "[\"a\",\"b\",{\"msgid\":\"%d\",\"args\":[1]},\"c\"]", "ab1c" },
		/* no msgid is "": gettext would answer with a catalog's header */
		{ "[{\"msgid\":\"\"}]", "" },
		/* templates: unknown placeholders are left out, braces doubled */
		{ "[{\"template\":\"{a} and {b}\",\"values\":{\"a\":\"x\"}}]", "x and " },
		{ "[{\"template\":\"{{a}} {a}} {\",\"values\":{\"a\":\"x\"}}]", "{a} x} {" },
		{ "[{\"template\":\"%s %n {a}\",\"values\":{\"a\":\"%s\"}}]", "%s %n %s" },
		{ "[{\"template\":\"{a}\"}]", "" },
		/* arguments and values are shown as the writer escaped them: control
		 * characters are the reader's to escape, as in the stored text */
		{ M1("<%s>", "\"\\u001b[31m\\u0007\\n\""), "<\x1b[31m\a\n>" },
		{ "[{\"template\":\"{a}\",\"values\":{\"a\":\"\\u001b]0;t\\u0007\"}}]",
		  "\x1b]0;t\a" },
		{ M1("%s", "\"\xc3\xa9t\xc3\xa9 \xe2\x80\xae\""), "\xc3\xa9t\xc3\xa9 \xe2\x80\xae" },
		/* a precision that cuts a character in two leaves no valid text */
		{ M1("%.1s", "\"\xc3\xa9\""), NULL },
		/* the same after ASCII read eight bytes at a time, and a whole one */
		{ M1("%.17s", "\"abcdefghijklmnop\xc3\xa9\""), NULL },
		{ M1("%.18s", "\"abcdefghijklmnop\xc3\xa9\""), "abcdefghijklmnop\xc3\xa9" },
	};

	(void)state;
	run_cases(cases, G_N_ELEMENTS(cases));
}

/* in @j: four messages, each in the argument of the one above, each reading it @times by @conv */
static void nested_readings(GString *j, const char *conv, guint times, const char *leaf)
{
	g_string_truncate(j, 0);
	for (guint i = 0; i < 4; i++) {
		g_string_append(j, "[{\"msgid\":\"");
		for (guint k = 0; k < times; k++)
			g_string_append(j, conv);
		g_string_append(j, "\",\"args\":[");
	}
	g_string_append(j, leaf);
	for (guint i = 0; i < 4; i++)
		g_string_append(j, "]}]");
}

/* widths, precisions, nesting, pieces and the length of the text */
static void test_bounds(void **state)
{
	g_autoptr(GString) j = g_string_new(NULL);
	g_autofree char *big = g_strnfill(600 * 1024, 'x');
	g_autofree char *t = NULL;

	(void)state;
	/* widths and precisions up to 1024 */
	t = render(M1("%1024s", "\"a\""));
	assert_non_null(t);
	assert_int_equal(strlen(t), 1024);
	g_clear_pointer(&t, g_free);
	t = render(M1("%1024.1024f", "1e308"));
	assert_non_null(t);
	assert_int_equal(strlen(t), 309 + 1 + 1024);
	g_clear_pointer(&t, g_free);
	assert_null(render(M1("%1025s", "\"a\"")));
	assert_null(render(M1("%.1025f", "1.5")));
	assert_null(render(M1("%.1025s", "\"a\"")));
	assert_null(render(M1("%99999999999999999999999d", "1")));
	assert_null(render(M1("%.99999999999999999999999d", "1")));
	assert_null(render(M1("%2147483648d", "1")));

	/* nesting: a message in an argument, four deep, not five */
	for (guint depth = 4; depth <= 5; depth++) {
		g_string_truncate(j, 0);
		for (guint i = 0; i < depth; i++)
			g_string_append(j, "[{\"msgid\":\"(%s)\",\"args\":[");
		g_string_append(j, "[\"x\"]");
		for (guint i = 0; i < depth; i++)
			g_string_append(j, "]}]");
		t = render(j->str);
		if (depth == 4)
			assert_string_equal(t, "((((x))))");
		else
			assert_null(t);
		g_clear_pointer(&t, g_free);
	}
	/* far deeper: refused without recursing through all of it */
	g_string_truncate(j, 0);
	for (guint i = 0; i < 10000; i++)
		g_string_append(j, "[{\"msgid\":\"%s\",\"args\":[");
	g_string_append(j, "\"x\"");
	for (guint i = 0; i < 10000; i++)
		g_string_append(j, "]}]");
	assert_null(render(j->str));

	/* pieces: 256 in all, those inside arguments counted */
	for (guint n = 256; n <= 257; n++) {
		g_string_assign(j, "[");
		for (guint i = 0; i < n; i++)
			g_string_append(j, i ? ",\"a\"" : "\"a\"");
		g_string_append(j, "]");
		t = render(j->str);
		if (n == 256)
			assert_int_equal(strlen(t), 256);
		else
			assert_null(t);
		g_clear_pointer(&t, g_free);
	}
	g_string_assign(j, "[{\"msgid\":\"%s\",\"args\":[[");
	for (guint i = 0; i < 256; i++)
		g_string_append(j, i ? ",\"a\"" : "\"a\"");
	g_string_append(j, "]]}]");
	assert_null(render(j->str));

	/* a text of at most 1 MiB, however it grows */
	g_string_printf(j, M1("%%1$s%%1$s", "\"%s\""), big);
	assert_null(render(j->str));
	g_string_printf(j, M1("%%s", "\"%s\""), big);
	t = render(j->str);
	assert_non_null(t);
	assert_int_equal(strlen(t), strlen(big));
	g_clear_pointer(&t, g_free);
	g_string_assign(j, "[{\"msgid\":\"");
	for (guint i = 0; i < 1100; i++)
		g_string_append(j, "%1$1024s");
	g_string_append(j, "\",\"args\":[\"a\"]}]");
	assert_null(render(j->str));
	/* a template naming one long value many times */
	g_string_assign(j, "[{\"template\":\"");
	for (guint i = 0; i < 100000; i++)
		g_string_append(j, "{a}");
	g_string_append_printf(j, "\",\"values\":{\"a\":\"%s\"}}]", big);
	assert_null(render(j->str));
	/* ...or many placeholders: found in one pass, not one search each */
	g_string_assign(j, "[{\"template\":\"");
	for (guint i = 0; i < 100000; i++)
		g_string_append_printf(j, "{a%u}", i);
	g_string_append(j, "\",\"values\":{\"a99999\":\"z\"}}]");
	t = render(j->str);
	assert_string_equal(t, "z");
	g_clear_pointer(&t, g_free);
	/* ...or many a '{' that no '}' closes: shown as it is */
	g_string_assign(j, "[{\"template\":\"");
	for (guint i = 0; i < 200000; i++)
		g_string_append(j, "{x");
	g_string_append(j, "\",\"values\":{\"x\":\"z\"}}]");
	t = render(j->str);
	assert_int_equal(strlen(t), 400000);
	assert_true(g_str_has_prefix(t, "{x{x"));
	g_clear_pointer(&t, g_free);
	/* each level of nesting reading its argument 32 times */
	nested_readings(j, "%1$64s", 32, "\"x\"");
	assert_null(render(j->str));
	/*
	 * ...or reading it many times in a text that does not grow (a
	 * precision of 0): 200 to the fourth readings, were they rendered
	 */
	nested_readings(j, "%1$.0s", 200, "[\"x\"]");
	assert_null(render(j->str));
	/* ...and many such pieces side by side */
	g_string_assign(j, "[");
	for (guint i = 0; i < 200; i++)
		g_string_append_printf(j, "%s{\"msgid\":\"%%1$1024s%%1$1024s\",\"args\":[\"a\"]}",
				       i ? "," : "");
	g_string_append(j, "]");
	t = render(j->str);
	assert_non_null(t);
	assert_int_equal(strlen(t), 200 * 2048);
	g_clear_pointer(&t, g_free);
}

/* ------------------------------------------------------------ the writer's messages */

/* @m through JSON text and back renders as @expect, and as @m does */
static void assert_round_trip(const AdMsg *m, const char *expect)
{
	g_autofree char *direct = ad_msg_render(m);
	json_object *j = ad_msg_to_json(m);
	json_object *back = json_tokener_parse(json_object_to_json_string(j));
	g_autoptr(AdMsg) parsed = ad_msg_from_json(back);
	g_autofree char *t = parsed ? ad_msg_render(parsed) : NULL;
	g_autoptr(AdMsg) copy = ad_msg_copy(m);
	g_autofree char *c = ad_msg_render(copy);

	if (g_strcmp0(direct, expect) || g_strcmp0(t, expect) || g_strcmp0(c, expect))
		fail_msg("%s: rendered %s, from JSON %s, copied %s; expected %s",
			 json_object_to_json_string(j), direct, t, c, expect);
	json_object_put(back);
	json_object_put(j);
}

/* a rule's placeholders: a name matches only whole, neither a prefix nor an extension of it */
static void test_template_names(void **state)
{
	static const char *const names[] = { "a", "ab", "abcd" };
	static const char *const values[] = { "A", "AB", NULL };
	g_autoptr(GString) out = g_string_new(NULL);

	(void)state;
	ad_template_expand(out, "{ab}|{a}|{abc}|{abcd}|{}|{{a}}|{b", names, values, 3);
	assert_string_equal(out->str, "AB|A||||{a}|{b");
}

static void test_round_trips(void **state)
{
	static const char *const names[] = { "domain", "perm", "none" };
	static const char *const values[] = { "httpd_t", "{read}", NULL };
	g_autoptr(AdMsg) m = ad_msg_new();
	g_autoptr(AdMsg) word = ad_msg_new();
	g_autoptr(AdMsg) all = ad_msg_new();
	char c = 'q';

	(void)state;
	assert_true(ad_msg_is_empty(m));
	assert_true(ad_msg_is_empty(NULL));
	ad_msg_add(m, "plain");
	assert_false(ad_msg_is_empty(m));
	assert_round_trip(m, "plain");
	ad_msg_add_msg(all, m);

	g_clear_pointer(&m, ad_msg_free);
	m = ad_msg_new();
	ad_msg_add(m, "%s: %d %u %ld %lu %lld %zu %zd %jd %hhd %c %x %.1f %e %5s%%",
		   "a %s b", -1, 2u, -3L, 4UL, -5LL, (size_t)6, (ssize_t)-7, (intmax_t)8,
		   (signed char)9, c, 255u, 2.25, 1e10, "r");
	assert_round_trip(m, "a %s b: -1 2 -3 4 -5 6 -7 8 9 q ff 2.2 1.000000e+10     r%");
	ad_msg_add_msg(all, m);

	/* a word translated where it is read, inside a sentence */
	g_clear_pointer(&m, ad_msg_free);
	m = ad_msg_new();
	ad_msg_add(m, "allow %s to %s", "httpd_t", "reading or searching");
	/* untranslated, it renders as the string did: the text need not be rendered anew */
	assert_true(ad_msg_set_arg(m, 1, NULL));
	assert_round_trip(m, "allow httpd_t to reading or searching");
	ad_msg_add_msg(all, m);
	/* a message of its own as an argument, three deep */
	ad_msg_add(word, "%s and %s", "x", "y");
	ad_msg_set_arg(word, 1, NULL);
	g_clear_pointer(&m, ad_msg_free);
	m = ad_msg_new();
	ad_msg_add(m, "{%s}", "");
	/* a place kept: the message now says more than the string did */
	assert_false(ad_msg_set_arg(m, 0, ad_msg_copy(word)));
	ad_msg_add(m, "<%s>", "");
	ad_msg_set_arg(m, 0, g_steal_pointer(&word));
	assert_round_trip(m, "{x and y}<x and y>");
	ad_msg_add_msg(all, m);
	/* an empty word stays empty */
	g_clear_pointer(&m, ad_msg_free);
	m = ad_msg_new();
	ad_msg_add(m, "[%s]", "");
	assert_true(ad_msg_set_arg(m, 0, NULL));
	assert_round_trip(m, "[]");

	/* plural forms, with and without their count */
	for (gulong n = 0; n <= 2; n++) {
		g_clear_pointer(&m, ad_msg_free);
		m = ad_msg_new();
		ad_msg_add_plural(m, "%lu file in %s", "%lu files in %s", n, n, "/srv");
		assert_round_trip(m, n == 1 ? "1 file in /srv" : n ? "2 files in /srv"
								  : "0 files in /srv");
	}
	ad_msg_add_msg(all, m);

	/* a rule's template with its placeholders */
	g_clear_pointer(&m, ad_msg_free);
	m = ad_msg_new();
	ad_msg_add_template(m, "Allow {domain} {{{perm}}} {none}.\n", names, values, 3);
	assert_round_trip(m, "Allow httpd_t {{read}} .");
	ad_msg_add_msg(all, m);

	/* texts in no language, and a conversion the formatter does not take:
	 * rendered by the writer */
	g_clear_pointer(&m, ad_msg_free);
	m = ad_msg_new();
	ad_msg_add_text(m, "100% ");
	ad_msg_add_text(m, NULL);
	ad_msg_add_text(m, "");
	ad_msg_add(m, "%s at %p", "x", (void *)NULL);
	assert_round_trip(m, "100% x at (nil)");
	ad_msg_add_msg(all, m);

	assert_round_trip(all, "plain"
			  "a %s b: -1 2 -3 4 -5 6 -7 8 9 q ff 2.2 1.000000e+10     r%"
			  "allow httpd_t to reading or searching"
			  "{x and y}<x and y>"
			  "2 files in /srv"
			  "Allow httpd_t {{read}} ."
			  "100% x at (nil)");
}

/* ------------------------------------------------------------ a hostile catalog */

typedef struct {
	const char *msgid;	/* "singular\0plural" for a plural entry */
	gsize idlen;
	const char *msgstr;	/* "form0\0form1" */
	gsize strlen;
} Entry;

#define E(id, str) { id, sizeof(id) - 1, str, sizeof(str) - 1 }

/* a translation for each way a catalog may go wrong */
static const Entry entries[] = {
	E("", "Content-Type: text/plain; charset=UTF-8\n"
	      "Plural-Forms: nplurals=2; plural=(n > 1);\n"
	      "X-Secret: the header\n"),
	E("Hello %s", "Bonjour %s"),
	E("%s needs %d", "%2$d pour %1$s"),
	E("%s then %d", "%d puis %s"),
	E("only %s", "%s et %s"),
	E("pick %s", "choisir %2$s"),
	E("first %s of %s", "%2$s seul"),
	E("count %d", "compte %s"),
	E("number %d", "nombre %c"),
	E("unsigned %u", "non signé %d"),
	E("bad %s", "mauvais %n"),
	E("star %s", "étoile %*s"),
	E("wide %s", "large %2000s"),
	E("percent %s", "pour cent %s %"),
	E("mixed %s %s", "mélangé %2$s %s"),
	E("reading", "lecture"),
	E("%s or %s", "%s ou %s"),
	E("char %c", "caractère %c"),
	E("twice %s", "deux fois %1$s, %1$s"),
	E("%d file\0%d files", "%d fichier\0%d fichiers"),
	E("%d dir\0%d dirs", "%d dossier\0%s dossiers"),
	E("Allow {domain} to {perm}", "Autoriser {domain} à {perm}"),
	E("Deny {domain}", "Refuser {domain} {secret}"),
};

static int entry_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp((*(const Entry *const *)a)->msgid, (*(const Entry *const *)b)->msgid);
}

static void put32(GByteArray *b, guint32 v)
{
	g_byte_array_append(b, (const guint8 *)&v, 4);
}

/* @dir/xx/LC_MESSAGES/GETTEXT_PACKAGE.mo of entries[], sorted, no hash table */
static void write_catalog(const char *dir)
{
	g_autoptr(GPtrArray) sorted = g_ptr_array_new();
	g_autoptr(GByteArray) b = g_byte_array_new();
	g_autofree char *sub = g_build_filename(dir, "xx", "LC_MESSAGES", NULL);
	g_autofree char *path = g_build_filename(sub, GETTEXT_PACKAGE ".mo", NULL);
	guint32 n = G_N_ELEMENTS(entries), off = 28 + 16 * n;
	g_autoptr(GError) error = NULL;

	for (guint i = 0; i < n; i++)
		g_ptr_array_add(sorted, (gpointer)&entries[i]);
	g_ptr_array_sort(sorted, entry_cmp);
	put32(b, 0x950412de);
	put32(b, 0);
	put32(b, n);
	put32(b, 28);
	put32(b, 28 + 8 * n);
	put32(b, 0);
	put32(b, off);
	for (guint i = 0; i < n; i++) {
		const Entry *e = g_ptr_array_index(sorted, i);

		put32(b, e->idlen);
		put32(b, off);
		off += e->idlen + 1;
	}
	for (guint i = 0; i < n; i++) {
		const Entry *e = g_ptr_array_index(sorted, i);

		put32(b, e->strlen);
		put32(b, off);
		off += e->strlen + 1;
	}
	for (guint i = 0; i < n; i++) {
		const Entry *e = g_ptr_array_index(sorted, i);

		g_byte_array_append(b, (const guint8 *)e->msgid, e->idlen + 1);
	}
	for (guint i = 0; i < n; i++) {
		const Entry *e = g_ptr_array_index(sorted, i);

		g_byte_array_append(b, (const guint8 *)e->msgstr, e->strlen + 1);
	}
	assert_int_equal(g_mkdir_with_parents(sub, 0700), 0);
	if (!g_file_set_contents(path, (const char *)b->data, b->len, &error))
		fail_msg("%s", error->message);
}

static char *catalog_dir;

/* the test catalog, as language xx; skipped when no UTF-8 locale lets gettext use it */
static int catalog_setup(void **state)
{
	(void)state;
	catalog_dir = g_dir_make_tmp("test-msg-XXXXXX", NULL);
	assert_non_null(catalog_dir);
	write_catalog(catalog_dir);
	bindtextdomain(GETTEXT_PACKAGE, catalog_dir);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	g_setenv("LANGUAGE", "xx", TRUE);
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "C.utf8");
	return 0;
}

static int catalog_teardown(void **state)
{
	g_autofree char *sub = g_build_filename(catalog_dir, "xx", "LC_MESSAGES", NULL);
	g_autofree char *mo = g_build_filename(sub, GETTEXT_PACKAGE ".mo", NULL);
	g_autofree char *xx = g_build_filename(catalog_dir, "xx", NULL);

	(void)state;
	g_unlink(mo);
	g_rmdir(sub);
	g_rmdir(xx);
	g_rmdir(catalog_dir);
	g_clear_pointer(&catalog_dir, g_free);
	setlocale(LC_ALL, "C");
	return 0;
}

static void test_catalog(void **state)
{
	static const Case cases[] = {
		/* translations that keep their msgid's conversions */
		{ M1("Hello %s", "\"x\""), "Bonjour x" },
		{ M1("%s needs %d", "\"x\",3"), "3 pour x" },
		{ M1("%s or %s", "[{\"msgid\":\"reading\"}],\"y\""), "lecture ou y" },
		{ M1("char %c", "65"), "caractère A" },
		{ "[{\"msgid\":\"%d file\",\"plural\":\"%d files\",\"n\":1,\"args\":[1]}]",
		  "1 fichier" },
		{ "[{\"msgid\":\"%d file\",\"plural\":\"%d files\",\"n\":3,\"args\":[3]}]",
		  "3 fichiers" },
		{ "[{\"template\":\"Allow {domain} to {perm}\","
		  "\"values\":{\"domain\":\"httpd_t\",\"perm\":\"read\"}}]",
		  "Autoriser httpd_t à read" },
		/* translations that would read another argument, or one as another
		 * type, or take what the formatter refuses: the original */
		{ M1("%s then %d", "\"x\",3"), "x then 3" },
		{ M1("only %s", "\"a\""), "only a" },
		{ M1("only %s", "\"a\",\"b\""), NULL },
		{ M1("pick %s", "\"a\""), "pick a" },
		{ M1("pick %s", "\"a\",\"b\""), NULL },
		{ M1("count %d", "3"), "count 3" },
		{ M1("number %d", "65"), "number 65" },
		{ M1("unsigned %u", "4294967295"), "unsigned 4294967295" },
		{ M1("bad %s", "\"x\""), "bad x" },
		{ M1("star %s", "\"x\""), "star x" },
		{ M1("wide %s", "\"x\""), "wide x" },
		{ M1("percent %s", "\"x\""), "percent x" },
		{ M1("mixed %s %s", "\"x\",\"y\""), "mixed x y" },
		{ "[{\"msgid\":\"%d dir\",\"plural\":\"%d dirs\",\"n\":1,\"args\":[1]}]",
		  "1 dossier" },
		{ "[{\"msgid\":\"%d dir\",\"plural\":\"%d dirs\",\"n\":2,\"args\":[2]}]",
		  "2 dirs" },
		/* a translation may read a message twice (not the stored original) */
		{ M1("twice %s", "[\"w\"]"), "deux fois w, w" },
		{ M1("twice %1$s%1$s", "[\"w\"]"), NULL },
		/* a translation may leave an argument out: reading less is no harm */
		{ M1("first %s of %s", "\"a\",\"b\""), "b seul" },
		/* a template whose translation adds a placeholder: the original */
		{ "[{\"template\":\"Deny {domain}\","
		  "\"values\":{\"domain\":\"x\",\"secret\":\"s\"}}]", "Deny x" },
		/* never the catalog's header */
		{ "[{\"msgid\":\"\"}]", "" },
		{ "[{\"msgid\":\"\",\"plural\":\"\",\"n\":1}]", "" },
		{ M1("%s", "[{\"msgid\":\"\"}]"), "" },
	};

	(void)state;
	if (strcmp(g_dgettext(GETTEXT_PACKAGE, "Hello %s"), "Bonjour %s")) {
		print_message("no UTF-8 locale lets gettext read the test catalog\n");
		skip();
	}
	run_cases(cases, G_N_ELEMENTS(cases));
}

/* the writer's words, translated where the message is read */
static void test_catalog_round_trip(void **state)
{
	g_autoptr(AdMsg) m = ad_msg_new();

	(void)state;
	if (strcmp(g_dgettext(GETTEXT_PACKAGE, "Hello %s"), "Bonjour %s"))
		skip();
	ad_msg_add(m, "%s or %s", "reading", "x");
	/* translated where it is rendered: the text rendered before says "reading" */
	assert_false(ad_msg_set_arg(m, 0, NULL));
	ad_msg_add_text(m, "; ");
	ad_msg_add_plural(m, "%d file", "%d files", 2, 2);
	assert_round_trip(m, "lecture ou x; 2 fichiers");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_messages),
		cmocka_unit_test(test_refused_conversions),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_template_names),
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test_setup_teardown(test_catalog, catalog_setup, catalog_teardown),
		cmocka_unit_test_setup_teardown(test_catalog_round_trip, catalog_setup,
						catalog_teardown),
	};

	setlocale(LC_ALL, "C");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
