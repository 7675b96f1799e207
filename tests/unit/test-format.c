// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for format.c: JSON times with a point under a locale with a
 * decimal comma, and columns padded by display width, not bytes.
 */
#include <locale.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>
#include <json-c/json.h>

#include "format.h"

/* under de_DE or fr_FR (when generated) printf's %.3f writes a comma: never here */
static void test_json_time_any_locale(void **state)
{
	const char *locales[] = { "C", "de_DE.UTF-8", "fr_FR.UTF-8" };

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(locales); i++) {
		json_object *t, *back;

		if (!setlocale(LC_ALL, locales[i]))
			continue;	/* not generated here: tests/locales.sh says so */
		t = ad_json_time(1700000001.1);
		assert_string_equal(json_object_to_json_string(t), "1700000001.100");
		back = json_tokener_parse(json_object_to_json_string(t));
		assert_true(json_object_is_type(back, json_type_double));
		json_object_put(back);
		json_object_put(t);
	}
	setlocale(LC_ALL, "C");
	/* no time: JSON null */
	assert_null(ad_json_time(0));
	assert_null(ad_json_time(-5));
}

static void test_display_width(void **state)
{
	(void)state;
	assert_int_equal(ad_display_width(""), 0);
	assert_int_equal(ad_display_width(NULL), 0);
	assert_int_equal(ad_display_width("httpd_t"), 7);
	/* one column a letter, however many bytes */
	assert_int_equal(ad_display_width("Größe"), 5);
	assert_int_equal(ad_display_width("système"), 7);
	/* a combining accent takes no column: e + U+0301 */
	assert_int_equal(ad_display_width("syste\xcc\x81me"), 7);
	/* wide characters take two */
	assert_int_equal(ad_display_width("\xe6\x97\xa5\xe6\x9c\xac"), 4);
	/* invalid UTF-8: a column a byte */
	assert_int_equal(ad_display_width("a\xffz"), 3);
}

static void test_padding(void **state)
{
	g_autoptr(GString) out = g_string_new(NULL);

	(void)state;
	ad_string_append_padded(out, "Größe", 8);
	g_string_append_c(out, '|');
	ad_string_append_padded(out, "size", 8);
	g_string_append_c(out, '|');
	/* as wide already: nothing added, nothing cut */
	ad_string_append_padded(out, "élément", 3);
	g_string_append_c(out, '|');
	ad_string_append_right(out, "Anzahl", 7);
	g_string_append_c(out, '|');
	ad_string_append_right(out, "42", 7);
	assert_string_equal(out->str, "Größe   |size    |élément| Anzahl|     42");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_time_any_locale),
		cmocka_unit_test(test_display_width),
		cmocka_unit_test(test_padding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
