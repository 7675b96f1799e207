// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor: explains SELinux denials.  main() only picks the command.
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli.h"
#include "config.h"

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} AdCommand;

static const AdCommand commands[] = {
	{ "why", ad_cmd_why, N_("explain each denial record (audit2why)") },
};

static void usage(FILE *f)
{
	fprintf(f, _("Usage: avcdoctor COMMAND [OPTIONS] [FILE...]\n\nCommands:\n"));
	for (guint i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, _(commands[i].summary));
	fprintf(f, _("\n\"avcdoctor COMMAND --help\" describes a command's options.\n"));
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	if (argc < 2) {
		usage(stderr);
		return AD_EXIT_INPUT;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return AD_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("avcdoctor %s\n", VERSION);
		return AD_EXIT_OK;
	}
	for (guint i = 0; i < G_N_ELEMENTS(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, _("avcdoctor: unknown command \"%s\"\n\n"), argv[1]);
	usage(stderr);
	return AD_EXIT_INPUT;
}
