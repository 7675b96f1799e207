// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor check-rules: lints rule files.  Every problem is printed as
 * "FILE:LINE: message" on stderr; a clean file as "FILE: N rules, OK" on
 * stdout.  Exit status 1 when any file has a problem.
 */
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli.h"
#include "cmd-check-rules.h"
#include "options.h"
#include "config.h"
#include "analysis/rules.h"

int ad_cmd_check_rules(int argc, char **argv)
{
	g_autofree char *policy_path = NULL;
	g_autofree char *param = NULL;
	g_autoptr(GOptionContext) oc = NULL;
	g_autoptr(GError) error = NULL;
	AdPolicy *policy = NULL;
	gboolean problems = FALSE;
	gboolean dashdash = FALSE;
	gboolean help = FALSE;
	int parsed;
	const GOptionEntry entries[] = {
		{ "policy", 'p', 0, G_OPTION_ARG_FILENAME, &policy_path,
		  N_("also check the names of types, classes, permissions and booleans "
		     "against this binary policy"), N_("FILE") },
		G_OPTION_ENTRY_NULL
	};

	param = g_strdup_printf("check-rules %s", _("FILE..."));
	oc = ad_cli_context_new(param, _("Checks rule files (see avcdoctor.rules(5)) and says "
					 "what is wrong with them."), &help);
	g_option_context_add_main_entries(oc, entries, GETTEXT_PACKAGE);
	g_option_context_set_description(
		oc, _("Every problem is printed as FILE:LINE: message on stderr; a clean "
		      "file as\n\"FILE: N rules, OK\". Exit status: 0 when every file is "
		      "clean, 1 otherwise,\n2 when the policy given with -p cannot be "
		      "loaded."));
	parsed = ad_cli_context_parse(oc, "check-rules", &help, &argc, &argv);
	if (parsed <= 0)
		return parsed < 0 ? AD_EXIT_INPUT : AD_EXIT_OK;
	if (argc < 2 || (argc == 2 && strcmp(argv[1], "--") == 0)) {
		ad_cli_message("check-rules: %s", _("no FILE given (see --help)"));
		return AD_EXIT_INPUT;
	}
	if (policy_path) {
		policy = ad_policy_load(policy_path, &error);
		if (!policy) {
			ad_cli_message("%s", error->message);
			return AD_EXIT_NO_POLICY;
		}
	}

	for (int i = 1; i < argc; i++) {
		const char *file = argv[i];
		g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GPtrArray) lacks = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(AdRuleBook) book = NULL;

		/* GOption leaves in argv the "--" that ends the options */
		if (!dashdash && strcmp(file, "--") == 0) {
			dashdash = TRUE;
			continue;
		}

		guint n = ad_rule_book_check_file_policy(file, policy, messages, lacks);

		/* names of another policy: said, not failed (those rules do not fire here) */
		fflush(stdout);
		for (guint j = 0; j < lacks->len; j++)
			fprintf(stderr, "%s\n", (char *)g_ptr_array_index(lacks, j));
		if (n) {
			for (guint j = 0; j < messages->len; j++)
				fprintf(stderr, "%s\n", (char *)g_ptr_array_index(messages, j));
			problems = TRUE;
			continue;
		}
		book = ad_rule_book_new();
		if (!ad_rule_book_load_file(book, file, &error)) {
			/* changed between the two reads */
			fflush(stdout);
			fprintf(stderr, "%s\n", error->message);
			g_clear_error(&error);
			problems = TRUE;
			continue;
		}
		printf(ngettext("%s: %u rule, OK\n", "%s: %u rules, OK\n",
				ad_rule_book_size(book)),
		       file, ad_rule_book_size(book));
	}
	ad_policy_free(policy);
	return problems ? AD_EXIT_INPUT : AD_EXIT_OK;
}
