// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the commands' option handling shares: --help wrapped to 80
 * columns, --sort and --level, and the pager.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "config.h"
#include "escape.h"
#include "format.h"
#include "options.h"

/* prints "avcdoctor: MESSAGE" on standard error, after what standard output holds */
void ad_cli_message(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("avcdoctor: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

GOptionContext *ad_cli_context_new(const char *param, const char *summary, gboolean *help)
{
	const GOptionEntry entries[] = {
		{ "help", 'h', 0, G_OPTION_ARG_NONE, help, N_("Show help options"), NULL },
		{ NULL }
	};
	GOptionContext *ctx = g_option_context_new(param);

	g_option_context_set_translation_domain(ctx, GETTEXT_PACKAGE);
	g_option_context_set_summary(ctx, summary);
	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_add_main_entries(ctx, entries, GETTEXT_PACKAGE);
	return ctx;
}

int ad_cli_context_parse(GOptionContext *ctx, const char *cmd, const gboolean *help,
			 int *argc, char ***argv)
{
	g_autoptr(GError) error = NULL;

	if (!g_option_context_parse(ctx, argc, argv, &error)) {
		ad_cli_message("%s: %s %s", cmd, error->message, _("(see --help)"));
		return -1;
	}
	if (*help) {
		ad_cli_print_help(ctx);
		return 0;
	}
	return 1;
}

void ad_cli_print_help(GOptionContext *ctx)
{
	g_autofree char *text = g_option_context_get_help(ctx, TRUE, NULL);
	g_autofree char *wrapped = ad_help_wrap(text, AD_HELP_WIDTH);

	fputs(wrapped, stdout);
}

/* ------------------------------------------------------------ --sort, --level */

gboolean ad_sort_parse(const char *s, AdSort *ret)
{
	static const char *const names[] = {
		[AD_SORT_LEVEL] = "level", [AD_SORT_COUNT] = "count", [AD_SORT_TIME] = "time",
	};

	*ret = AD_SORT_DEFAULT;
	if (!s)
		return TRUE;
	for (guint i = AD_SORT_LEVEL; i < G_N_ELEMENTS(names); i++)
		if (strcmp(s, names[i]) == 0) {
			*ret = i;
			return TRUE;
		}
	return FALSE;
}

gboolean ad_cli_sort_levels(const char *cmd, const char *sort, char **levels, AdSort *ret_sort,
			    guint *ret_levels)
{
	if (!ad_sort_parse(sort, ret_sort)) {
		ad_cli_message("%s: --sort: %s %s", cmd, _("give level, count or time"),
			       _("(see --help)"));
		return FALSE;
	}
	if (!ad_levels_parse(levels, ret_levels)) {
		ad_cli_message("%s: --level: %s %s", cmd, _("give red, yellow, green or all"),
			       _("(see --help)"));
		return FALSE;
	}
	return TRUE;
}

int ad_sort_compare(AdSort sort, AdLevel la, guint64 ca, guint64 seqa, AdLevel lb, guint64 cb,
		    guint64 seqb)
{
	if (sort == AD_SORT_LEVEL && la != lb)
		return la > lb ? -1 : 1;
	if ((sort == AD_SORT_LEVEL || sort == AD_SORT_COUNT) && ca != cb)
		return ca > cb ? -1 : 1;
	return seqa < seqb ? -1 : seqa > seqb;
}

/* ------------------------------------------------------------ the pager */

static GPid pager_pid;

/* at exit: the pager gets its end of file and is waited for, so that the shell's prompt
 * comes after it */
static void pager_wait(void)
{
	int status;

	fflush(stdout);
	fflush(stderr);
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	while (waitpid(pager_pid, &status, 0) < 0 && errno == EINTR)
		;
}

gboolean ad_pager_active(void)
{
	return pager_pid > 0;
}

gboolean ad_pager_start(gboolean no_pager)
{
	static gboolean tried;
	const char *value = g_getenv("AVCDOCTOR_PAGER");
	g_auto(GStrv) argv = NULL;
	g_auto(GStrv) envp = NULL;
	g_autoptr(GError) error = NULL;
	gboolean chosen;
	int in;

	if (tried || no_pager || !isatty(STDOUT_FILENO))
		return FALSE;
	tried = TRUE;
	if (!value)
		value = g_getenv("PAGER");
	chosen = value != NULL;
	if (!value)
		value = "less";
	/* the user's own words, split as a shell would split them; no shell runs them */
	if (!*value || strcmp(value, "cat") == 0 || !g_shell_parse_argv(value, NULL, &argv, NULL))
		return FALSE;
	envp = g_get_environ();
	/* quit when it fits one screen, colours, no screen clearing: as git does */
	if (!g_environ_getenv(envp, "LESS"))
		envp = g_environ_setenv(envp, "LESS", "FRX", TRUE);
	if (!g_environ_getenv(envp, "LV"))
		envp = g_environ_setenv(envp, "LV", "-c", TRUE);
	fflush(stdout);
	fflush(stderr);
	if (!g_spawn_async_with_pipes(NULL, argv, envp,
				      G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
				      &pager_pid, &in, NULL, NULL, &error)) {
		if (chosen) {
			g_autofree char *shown = ad_escape_str(value);

			ad_cli_message(_("cannot start the pager %s: %s"), shown, error->message);
		}
		pager_pid = 0;
		return FALSE;
	}
	dup2(in, STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(in, STDERR_FILENO);
	close(in);
	atexit(pager_wait);
	return TRUE;
}
