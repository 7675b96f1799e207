// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for client/fixit-client.c's ad_fixit_suggestion_applicable():
 * which stored suggestions the browser and the notifier offer to apply
 * (the fix helper's allow-list, a module built from this alert only, not
 * a fix the policy showed useless, nothing hidden in an argument), and
 * JSON that is not a suggestion.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "fixit-client.h"

static void test_applicable(void **state)
{
	static const struct {
		const char *sugg;
		gboolean fixable;
	} cases[] = {
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/var/www/a b\"]],\"verified\":true}", TRUE },
		{ "{\"commands\":[[\"setsebool\",\"-P\",\"httpd_read_user_content=1\"]]}", TRUE },
		{ "{\"commands\":[[\"semanage\",\"port\",\"-a\",\"-t\",\"http_port_t\",\"-p\","
		  "\"tcp\",\"8081\"]],\"verified\":true}", TRUE },
		{ "{\"commands\":[[\"avcdoctor\",\"allow\",\"--alert\",\"0123456789abcdef\","
		  "\"--verify\",\"-M\",\"my_httpd\"],[\"semodule\",\"-X\",\"300\",\"-i\","
		  "\"my_httpd.pp\"]]}", TRUE },
		/* a module of another alert, a module not built first */
		{ "{\"commands\":[[\"avcdoctor\",\"allow\",\"--alert\",\"fedcba9876543210\","
		  "\"-M\",\"m\"],[\"semodule\",\"-i\",\"m.pp\"]]}", FALSE },
		{ "{\"commands\":[[\"semodule\",\"-i\",\"my_httpd.pp\"]]}", FALSE },
		/* proved not to work; no command; other programs; a path before "--" */
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\"]],\"verified\":false}", FALSE },
		{ "{\"commands\":[]}", FALSE },
		{ "{\"commands\":[[\"semodule\",\"-B\"]]}", FALSE },
		{ "{\"commands\":[[\"chcon\",\"-t\",\"x_t\",\"/x\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"/x\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"x\"]]}", FALSE },
		{ "{\"commands\":[[\"setsebool\",\"-P\",\"a=1;id\"]]}", FALSE },
		{ "{\"commands\":[[\"semanage\",\"fcontext\",\"-a\",\"-t\",\"x_t\",\"/x(/.*)?\"]]}",
		  FALSE },
		{ "{\"commands\":[[\"semanage\",\"fcontext\",\"-a\",\"-t\",\"x_t\",\"--\","
		  "\"/x(/.*)?\"]]}", TRUE },
		{ "{\"commands\":[[\"semanage\",\"login\",\"-a\",\"x\"]]}", FALSE },
		/*
		 * what is shown is not what runs: a bidi mark, a tag character, a
		 * variation selector, a Hangul filler, a soft hyphen, a no-break
		 * space, a newline in an argument
		 */
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/var/www/a\\u061cb\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\udb40\\udc41\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\ufe0f\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\u3164y\"]]}", FALSE },
		{ "{\"commands\":[[\"semanage\",\"fcontext\",\"-a\",\"-t\",\"x_t\",\"--\","
		  "\"/srv/a\\u00adb(/.*)?\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\u00a0y\"]]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/x\\ny\"]]}", FALSE },
		/* visible text that is not ASCII is fine */
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",\"/srv/caf\\u00e9\"]]}", TRUE },
		/* not a suggestion: no commands, a command that is not a list of strings */
		{ "{}", FALSE },
		{ "[]", FALSE },
		{ "{\"commands\":\"restorecon -v -- /x\"}", FALSE },
		{ "{\"commands\":[\"restorecon\"]}", FALSE },
		{ "{\"commands\":[[\"restorecon\",\"-v\",\"--\",7]]}", FALSE },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		json_object *o = json_tokener_parse(cases[i].sugg);

		assert_non_null(o);
		if (ad_fixit_suggestion_applicable(o, "0123456789abcdef") != cases[i].fixable)
			fail_msg("case %u: %s", i, cases[i].sugg);
		json_object_put(o);
	}
	assert_false(ad_fixit_suggestion_applicable(NULL, "0123456789abcdef"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_applicable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
