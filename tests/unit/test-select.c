// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for select.c, the one filter of analyze, list and the
 * browser: time windows (a second's end, a bar's end, no time), types,
 * commands, hosts ("local"), ids, words, and why an alert is left out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>
#include <glib.h>

#include "analysis/select.h"

static const char *const alert_text =
	"{\"id\":\"0123456789abcdef\",\"level\":\"red\",\"first_seen\":100.5,"
	"\"last_seen\":200.25,\"ignored\":true,\"hosts\":[\"web1\",\"web2\"],"
	"\"commands\":[\"nginx\"],\"denial\":{\"scontext\":\"u:r:httpd_t:s0\","
	"\"tcontext\":\"u:object_r:shadow_t:s0\",\"tclass\":\"file\",\"comm\":\"httpd\"}}";

static AdSelectVerdict verdict(const AdSelect *s)
{
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(alert_text, NULL);
	AdSelectItem it;

	assert_non_null(doc);
	ad_select_item_of_doc(&it, doc);
	it.text = "httpd_t reads shadow_t";
	return ad_select_item(s, &it);
}

static void test_window(void **state)
{
	(void)state;
	/* until covers its whole second; a bar's end does not */
	assert_int_equal(verdict(&(AdSelect){ .until = 100 }), AD_SELECT_IN);
	assert_int_equal(verdict(&(AdSelect){ .until = 99 }), AD_SELECT_OUT);
	assert_int_equal(verdict(&(AdSelect){ .until = 100.5, .until_before = TRUE }),
			 AD_SELECT_OUT);
	assert_int_equal(verdict(&(AdSelect){ .since = 200.25 }), AD_SELECT_IN);
	assert_int_equal(verdict(&(AdSelect){ .since = 201 }), AD_SELECT_OUT);
}

static void test_lists(void **state)
{
	char *httpd[] = { "httpd_t", NULL }, *shadow[] = { "shadow_t", NULL };
	char *nginx[] = { "nginx", NULL }, *other[] = { "sshd", NULL };
	char *web2[] = { "web2", NULL }, *local[] = { "local", NULL };
	char *words[] = { "reads", "shadow", NULL }, *nope[] = { "writes", NULL };

	(void)state;
	assert_int_equal(verdict(&(AdSelect){ .sources = httpd, .targets = shadow }),
			 AD_SELECT_IN);
	assert_int_equal(verdict(&(AdSelect){ .sources = shadow }), AD_SELECT_OUT);
	/* the denial's comm or one of the alert's commands */
	assert_int_equal(verdict(&(AdSelect){ .comms = nginx }), AD_SELECT_IN);
	assert_int_equal(verdict(&(AdSelect){ .comms = other }), AD_SELECT_OUT);
	assert_int_equal(verdict(&(AdSelect){ .hosts = web2 }), AD_SELECT_IN);
	assert_int_equal(verdict(&(AdSelect){ .hosts = local }), AD_SELECT_OUT);
	assert_int_equal(verdict(&(AdSelect){ .words = words }), AD_SELECT_IN);
	assert_int_equal(verdict(&(AdSelect){ .words = nope }), AD_SELECT_OUT);
}

static void test_alert_only(void **state)
{
	g_autoptr(GHashTable) ids = g_hash_table_new(g_str_hash, g_str_equal);
	g_auto(GStrv) words = ad_select_words("  HTTPD_T\tshadow ");

	(void)state;
	assert_int_equal(verdict(&(AdSelect){ .hide_ignored = TRUE }), AD_SELECT_IGNORED);
	assert_int_equal(verdict(&(AdSelect){ .levels = 1u << AD_LEVEL_GREEN }),
			 AD_SELECT_OTHER_LEVEL);
	assert_int_equal(verdict(&(AdSelect){ .levels = 1u << AD_LEVEL_RED }),
			 AD_SELECT_IN);
	/* left out by a filter before being counted as ignored */
	assert_int_equal(verdict(&(AdSelect){ .hide_ignored = TRUE, .until = 1 }), AD_SELECT_OUT);
	assert_int_equal(verdict(&(AdSelect){ .ids = ids }), AD_SELECT_OUT);
	g_hash_table_add(ids, "0123456789abcdef");
	assert_int_equal(verdict(&(AdSelect){ .ids = ids }), AD_SELECT_IN);
	assert_int_equal(g_strv_length(words), 2);
	assert_string_equal(words[0], "httpd_t");
	assert_null(ad_select_words(" \t "));
}

/* an item without a time is outside any window; a record without node= is "local" */
static void test_unknown(void **state)
{
	char *local[] = { "local", NULL }, *none[] = { "", NULL };
	AdSelectItem it = { .hosts = none };

	(void)state;
	assert_int_equal(ad_select_item(&(AdSelect){ .since = 1 }, &it), AD_SELECT_OUT);
	assert_int_equal(ad_select_item(&(AdSelect){ .until = 1 }, &it), AD_SELECT_OUT);
	assert_int_equal(ad_select_item(&(AdSelect){ .hosts = local }, &it), AD_SELECT_IN);
	assert_int_equal(ad_select_item(&(AdSelect){ .hosts = none }, &it), AD_SELECT_IN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_alert_only),
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
