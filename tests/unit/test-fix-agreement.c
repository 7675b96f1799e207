// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One applicability for every reader: for every suggestion of every alert
 * that the golden analyses of the corpus hold (the .jsonl files of tests/golden), the
 * fix helper's rule (ad_fix_one_click, which avcdoctor-fixit asks before it
 * runs anything), Cockpit's "fixable" (setroubleshoot's do_text), the
 * notifier's Apply button (its first suggestion) and the browser's (which
 * offers the rule's answer for a suggestion it shows, so it must show
 * them all, in the stored order) give the same answer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "alert-doc.h"
#include "alert-item.h"
#include "fix-rule.h"
#include "notes.h"
#include "setroubleshoot.h"

static gboolean any_boolean(const char *name, gpointer data)
{
	(void)data;
	return name && *name;
}

/* the four answers for each suggestion of the alert @line; counts what was checked */
static void check_alert(const char *line, guint *ret_suggestions, guint *ret_fixable)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(line, &error);
	g_autoptr(AdAlertItem) item = NULL;
	g_autoptr(GPtrArray) views = NULL;
	g_autoptr(AdNote) note = NULL;

	if (!doc)
		fail_msg("not an alert (%s): %.80s", error->message, line);
	item = ad_alert_item_new_from_json(line, &error);
	assert_non_null(item);
	views = ad_alert_item_get_suggestions(item);
	/* the browser offers Apply per shown suggestion only when it shows them all */
	assert_int_equal(views->len, doc->suggestions->len);
	note = ad_note_from_json(line, NULL);
	for (guint i = 0; i < doc->suggestions->len; i++) {
		g_autoptr(GPtrArray) cmds = NULL;
		gboolean rule = ad_fix_one_click(doc, i, &cmds, NULL);
		gboolean cockpit = !rule;
		g_autofree char *text = ad_setroubleshoot_do_text(doc, i, any_boolean, NULL,
								  &cockpit);

		if (cockpit != rule)
			fail_msg("alert %s suggestion %u: fix helper %d, Cockpit %d", doc->id, i,
				 rule, cockpit);
		if (i == 0 && note && note->fixable != rule)
			fail_msg("alert %s: fix helper %d, notifier %d", doc->id, rule,
				 note->fixable);
		if (i == 0 && note && rule) {
			g_autofree char *digest = ad_fix_digest(cmds);

			assert_string_equal(note->digest, digest);
		}
		(*ret_suggestions)++;
		*ret_fixable += rule;
	}
}

static void test_corpus(void **state)
{
	const char *src = g_getenv("AD_SOURCE_DIR");
	g_autofree char *dir = g_build_filename(src ? src : ".", "tests", "golden", NULL);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	guint files = 0, suggestions = 0, fixable = 0;

	(void)state;
	assert_non_null(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = NULL, *text = NULL;
		g_auto(GStrv) lines = NULL;

		if (!g_str_has_suffix(name, ".jsonl"))
			continue;
		path = g_build_filename(dir, name, NULL);
		assert_true(g_file_get_contents(path, &text, NULL, NULL));
		lines = g_strsplit(text, "\n", -1);
		for (guint i = 0; lines[i]; i++) {
			/* the alerts; an overview's summary line is no alert */
			if (g_str_has_prefix(lines[i], "{\"id\":"))
				check_alert(lines[i], &suggestions, &fixable);
		}
		files++;
	}
	print_message("%u files, %u suggestions, %u applicable with one click\n", files,
		      suggestions, fixable);
	assert_true(files > 0);
	/* both answers are seen: the test is not vacuous */
	assert_true(fixable > 0 && fixable < suggestions);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
