// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text of an alert rendered from its document (analysis/alert-text.c),
 * as `show`, `list` and sealert's -l print a stored alert: hostile
 * documents give a report, never a crash, with nothing unescaped in it;
 * what a member of the wrong type would have said is left out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "analysis/alert-text.h"
#include "escape.h"

#define ID "\"id\":\"0123456789abcdef\""

/* the report of @text (an alert's JSON), which must parse */
static char *render(const char *text)
{
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(text, NULL);
	GString *out = g_string_new(NULL);

	if (!doc)
		fail_msg("refused: %s", text);
	ad_alert_doc_render(out, doc);
	return g_string_free(out, FALSE);
}

/* every line of @report shows only clean text */
static void assert_clean(const char *report)
{
	g_auto(GStrv) lines = g_strsplit(report, "\n", -1);

	for (guint i = 0; lines[i]; i++)
		if (!ad_bytes_are_clean(lines[i], strlen(lines[i])))
			fail_msg("line %u not clean: %s", i, lines[i]);
}

/* hostile documents: a report with every line clean */
static void test_hostile(void **state)
{
	static const char *const texts[] = {
		"{" ID "}",
		"{" ID ",\"level\":3,\"summary\":[],\"count\":\"9\",\"hosts\":{},\"denial\":[],"
		"\"suggestions\":{},\"notes\":\"x\",\"paths\":7,\"records\":null}",
		"{" ID ",\"level\":\"\\u001b[31mred\",\"summary\":\"a\\u0085b\\u202ec\","
		"\"count\":-5,\"hosts\":[1,null,\"\",\"\\u001b\"],\"suggestions\":[1,\"a\",null,[]],"
		"\"notes\":[{\"plugin\":\"\\u001b\",\"if\":7,\"then\":\"\\r\\n\"}],"
		"\"records\":[\"type=AVC \\u001b]0;x\\u0007\",3],\"paths\":[\"/a\\nb\"]}",
		"{" ID ",\"count\":1e300,\"host_counts\":{\"\\u001b\":-1,\"\":\"x\"},"
		"\"filter\":\"\\u001b\",\"denial\":{\"type\":\"USER_AVC\",\"exe\":\"/x\\u009b\","
		"\"permissive\":\"yes\",\"port\":\"80\",\"suspect\":true,\"suspect_reason\":[]},"
		"\"suggestions\":[{\"plugin\":\"p\",\"kind\":\"\\u001b\",\"confidence\":1e9,"
		"\"if\":\"\\u001b[2J\",\"commands\":[[\"rm\",\"-rf\",\"/\\u001b\"],[1],\"x\"],"
		"\"commands_hex\":[[\"726d\",\"2d7266\",\"2f0a\"]],\"verified\":\"yes\","
		"\"scope\":{\"accesses\":\"many\",\"examples\":[\"\\u001b\"]}}]}",
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(texts); i++) {
		g_autofree char *report = render(texts[i]);

		assert_non_null(strstr(report, "Raw Audit Messages:"));
		assert_clean(report);
	}
}

/* what each member of the wrong type leaves out, and what stays */
static void test_members(void **state)
{
	g_autofree char *none = render("{" ID "}");
	g_autofree char *wrong = render(
		"{" ID ",\"level\":\"purple\",\"count\":2,\"denial\":{\"permissive\":\"yes\","
		"\"port\":\"80\",\"scontext\":5,\"type\":\"AVC\",\"exe\":\"/bin/x\"},"
		"\"suggestions\":[{\"plugin\":\"p\",\"kind\":\"relabel\",\"confidence\":0.5,"
		"\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/a b\"],[\"x\",3]],"
		"\"verified\":\"yes\"}]}");
	g_autofree char *hex = render(
		"{" ID ",\"suggestions\":[{\"plugin\":\"p\",\"kind\":\"relabel\","
		"\"commands\":[[\"touch\",\"\\\\x1b\"]],\"commands_hex\":[[\"746f756368\",\"1b\"]]}],"
		"\"denial\":{\"permissive\":null}}");

	(void)state;
	/* no denial: no Permissive row; contexts and class every denial has are "?" */
	assert_null(strstr(none, "Permissive"));
	assert_non_null(strstr(none, "Source Context         ?\n"));
	assert_non_null(strstr(none, "Hosts                  local\n"));
	/* an unknown level as it is; a permissive flag that is not a boolean is unknown */
	assert_non_null(strstr(wrong, "Level: purple   Alert 0123456789abcdef   Seen 2 times\n"));
	assert_non_null(strstr(wrong, "Permissive             unknown\n"));
	assert_null(strstr(wrong, "Port"));
	assert_non_null(strstr(wrong, "Source Context         ?\n"));
	assert_non_null(strstr(wrong, "Source Executable      /bin/x\n"));
	/* a command that is not a list of strings is not shown; the others are */
	assert_non_null(strstr(wrong, "Do\n# restorecon -v -- '/a b'\n\n"));
	/* a proof that is not a boolean is no proof */
	assert_non_null(strstr(wrong, "not enough"));
	/* the bytes that would run, escaped because they cannot be shown as they are */
	assert_non_null(strstr(hex, "# (contains control characters, shown escaped)\n"));
	assert_clean(hex);
	/* null: the record did not say */
	assert_non_null(strstr(hex, "Permissive             unknown\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_members),
	};

	/* the report's words as written, whatever the caller's language */
	g_setenv("LANGUAGE", "C", TRUE);
	g_setenv("LC_ALL", "C", TRUE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
