// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An alert's occurrences in bounded time buckets (common/occurrences.c):
 * minute buckets, the width growing along the chart's widths past
 * AD_OCC_MAX_BUCKETS with every occurrence kept, the store's text and the
 * JSON read back, hostile text refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <glib.h>

#include "occurrences.h"

static void test_minutes(void **state)
{
	g_autoptr(AdOccurrences) o = ad_occurrences_new();
	g_autofree char *text = NULL;

	(void)state;
	ad_occurrences_add(o, 1700000000.5, 1);
	ad_occurrences_add(o, 1700000039.9, 2);	/* the same minute */
	ad_occurrences_add(o, 1699999000.0, 1);	/* earlier: kept in order */
	ad_occurrences_add(o, 0, 5);		/* no time: not counted */
	ad_occurrences_add(o, -3, 5);
	assert_int_equal(o->width, 60);
	assert_int_equal(o->buckets->len, 2);
	assert_int_equal(ad_occurrences_total(o), 4);
	text = ad_occurrences_to_text(o);
	assert_string_equal(text, "60 28333316:1 28333333:3");
}

/* a month of denials every minute: bounded, every occurrence still counted */
static void test_bounded(void **state)
{
	g_autoptr(AdOccurrences) o = ad_occurrences_new();

	(void)state;
	for (guint i = 0; i < 30 * 24 * 60; i++)
		ad_occurrences_add(o, 1700000000.0 + i * 60.0, 1);
	assert_true(o->buckets->len <= AD_OCC_MAX_BUCKETS);
	assert_int_equal(o->width, 12 * 3600);
	assert_int_equal(ad_occurrences_total(o), 30 * 24 * 60);
	for (guint i = 0; i < o->buckets->len; i++)
		assert_int_equal(g_array_index(o->buckets, AdOccBucket, i).start % o->width, 0);
}

static void test_round_trip(void **state)
{
	g_autoptr(AdOccurrences) o = ad_occurrences_new();
	g_autoptr(AdOccurrences) back = ad_occurrences_new();
	g_autoptr(AdOccurrences) merged = ad_occurrences_new();
	g_autoptr(AdOccurrences) from_json = NULL;
	g_autofree char *text = NULL, *again = NULL;
	json_object *j;

	(void)state;
	for (guint i = 0; i < 500; i++)
		ad_occurrences_add(o, 1700000000.0 + i * 97.0, i % 3 + 1);
	text = ad_occurrences_to_text(o);
	assert_true(ad_occurrences_parse(back, text));
	again = ad_occurrences_to_text(back);
	assert_string_equal(text, again);
	j = ad_occurrences_to_json(o);
	from_json = ad_occurrences_from_json(j);
	json_object_put(j);
	assert_non_null(from_json);
	assert_int_equal(from_json->width, o->width);
	assert_int_equal(ad_occurrences_total(from_json), ad_occurrences_total(o));
	/* merged into a finer set: the coarser width, nothing lost */
	ad_occurrences_add(merged, 1600000000.0, 1);
	ad_occurrences_merge(merged, o);
	assert_int_equal(merged->width, o->width);
	assert_int_equal(ad_occurrences_total(merged), ad_occurrences_total(o) + 1);
}

/* the store's text and a JSON alert are untrusted: anything odd reads as none */
static void test_hostile(void **state)
{
	static const char *const bad_text[] = {
		"", "x", "61 1:1", "60 1", "60 1:x", "60 1:1 2", "60 99999999999999999999:1",
		"60 1:1\n",
	};
	static const char *const bad_json[] = {
		"null", "[]", "{}", "{\"width\": 61, \"buckets\": []}",
		"{\"width\": 60, \"buckets\": [[1]]}", "{\"width\": 60, \"buckets\": [[1, -2]]}",
		"{\"width\": \"60\", \"buckets\": []}", "{\"width\": 60, \"buckets\": [[\"a\", 1]]}",
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(bad_text); i++) {
		g_autoptr(AdOccurrences) o = ad_occurrences_new();

		assert_false(ad_occurrences_parse(o, bad_text[i]));
		assert_int_equal(o->buckets->len, 0);
	}
	for (guint i = 0; i < G_N_ELEMENTS(bad_json); i++) {
		json_object *j = json_tokener_parse(bad_json[i]);

		assert_null(ad_occurrences_from_json(j));
		json_object_put(j);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minutes),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
