// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sealert: avcdoctor called by setroubleshoot's command name (a link that
 * the avcdoctor-sealert package installs where setroubleshoot is not)
 * takes sealert's options: -a FILE analyses a log, -l ID shows a stored
 * alert (avcdoctor-dispatch's log line names `sealert -l LOCAL_ID`), -b
 * opens the browser.  The options are translated into `avcdoctor analyze`,
 * `show` and `list` arguments; those that have no meaning here say what to
 * do instead.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "analysis/alert-text.h"
#include "cli.h"
#include "cmd-sealert.h"
#include "cmd-store.h"
#include "config.h"
#include "escape.h"
#include "options.h"
#include "store.h"

typedef struct {
	char *analyze, *lookup, *policy, *db, *fix, *plugin, *user, *password;
	gboolean browser, service, noservice, version, help;
	char **rest;
} SealertOptions;

static void options_clear(SealertOptions *o)
{
	g_free(o->analyze);
	g_free(o->lookup);
	g_free(o->policy);
	g_free(o->db);
	g_free(o->fix);
	g_free(o->plugin);
	g_free(o->user);
	g_free(o->password);
	g_strfreev(o->rest);
}

/* an option of setroubleshoot's sealert that has no meaning here */
static int refuse(const char *option, const char *instead)
{
	fprintf(stderr, _("sealert: %s is not supported by avcdoctor: %s\n"), option, instead);
	return AD_EXIT_INPUT;
}

/* is @s setroubleshoot's own kind of local id, a UUID (8-4-4-4-12 hex digits)? */
static gboolean is_uuid(const char *s)
{
	static const int groups[] = { 8, 4, 4, 4, 12 };

	for (guint g = 0; g < G_N_ELEMENTS(groups); g++) {
		for (int i = 0; i < groups[g]; i++, s++)
			if (!g_ascii_isxdigit(*s))
				return FALSE;
		if (*s != (g + 1 < G_N_ELEMENTS(groups) ? '-' : '\0'))
			return FALSE;
		s++;
	}
	return TRUE;
}

/* runs the avcdoctor command of @b's arguments (argv[0] is the command name) */
static int run(GStrvBuilder *b, int (*cmd)(int argc, char **argv))
{
	g_auto(GStrv) args = g_strv_builder_end(b);
	/* option parsing rearranges the array: a copy of it, the strings stay in args */
	guint n = g_strv_length(args);
	g_autofree char **v = g_memdup2(args, (n + 1) * sizeof(char *));

	return cmd(n, v);
}

/*
 * -l "*": every alert that `avcdoctor list` shows (not those the caller
 * ignores), each as `show` prints it, oldest first, as setroubleshoot's
 * sealert prints every alert in full
 */
static int lookup_all(const char *db)
{
	g_autoptr(GPtrArray) list = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	guint shown = 0, hidden = 0;
	int status;

	if (!(list = ad_cli_fetch_alerts("sealert", db, &status)))
		return status;
	for (guint i = 0; i < list->len; i++) {
		const AdAlertDoc *a = g_ptr_array_index(list, i);

		if (a->ignored) {
			hidden++;
			continue;
		}
		if (shown++)
			g_string_append_c(out, '\n');
		ad_alert_doc_render(out, a);
	}
	fwrite(out->str, 1, out->len, stdout);
	fflush(stdout);
	/* the count where the report ends: on stderr, as it is not part of it */
	fprintf(stderr, ngettext("%u alert", "%u alerts", shown), shown);
	if (hidden)
		fprintf(stderr, ngettext(" (%u ignored alert not shown: avcdoctor list --all)",
					 " (%u ignored alerts not shown: avcdoctor list --all)",
					 hidden), hidden);
	fputs(".\n", stderr);
	return AD_EXIT_OK;
}

/*
 * -l ID: "*" shows every alert (lookup_all); an alert id (16 hex digits) or the local id
 * that setroubleshoot's clients and the dispatcher's log line use
 * ("ID-NUM" or "ID-NUM.GEN") shows that alert.  A local id names one life
 * of an alert: the alert shown is the one now stored under its alert id.
 */
static int lookup(const SealertOptions *o)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();
	char id[17];
	gint64 num;

	if (strcmp(o->lookup, "*") == 0)
		return lookup_all(o->db);
	if (is_uuid(o->lookup)) {
		g_autofree char *shown = ad_escape_str(o->lookup);

		fprintf(stderr, _("sealert: %s is an alert id of setroubleshoot, whose alerts "
				  "avcdoctor does not have: `sealert -l \"*\"` lists avcdoctor's "
				  "alerts, `sealert -a /var/log/audit/audit.log` analyses the log "
				  "again\n"), shown);
		return AD_EXIT_INPUT;
	}
	g_strv_builder_add(b, "show");
	if (o->db)
		g_strv_builder_add_many(b, "--db", o->db, NULL);
	g_strv_builder_add(b, "--");
	if (ad_store_parse_local_id(o->lookup, id, &num, NULL))
		g_strv_builder_add(b, id);
	else
		g_strv_builder_add(b, o->lookup);	/* show says what is wrong with it */
	return run(b, ad_cmd_show);
}

/* -b: the browser, beside this program when it is there, else on PATH */
static int browser(void)
{
	g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *dir = self ? g_path_get_dirname(self) : NULL;
	g_autofree char *beside = dir ? g_build_filename(dir, "avcdoctor-browser", NULL) : NULL;
	g_autofree char *path = NULL;
	char *argv[2] = { NULL, NULL };

	if (beside && g_file_test(beside, G_FILE_TEST_IS_EXECUTABLE))
		path = g_steal_pointer(&beside);
	else
		path = g_find_program_in_path("avcdoctor-browser");
	if (!path) {
		fputs(_("sealert: -b opens avcdoctor-browser, which is not installed (the package "
			"avcdoctor-desktop has it); `sealert -l \"*\"` lists the alerts\n"), stderr);
		return AD_EXIT_INPUT;
	}
	argv[0] = path;
	fflush(stdout);
	execv(path, argv);
	fprintf(stderr, "sealert: %s: %s\n", path, g_strerror(errno));
	return AD_EXIT_INPUT;
}

int ad_sealert_main(int argc, char **argv)
{
	SealertOptions o = { 0 };
	GOptionEntry entries[] = {
		{ "analyze", 'a', 0, G_OPTION_ARG_FILENAME, &o.analyze,
		  N_("Analyse the audit log FILE: its denials grouped into alerts, each with "
		     "ranked fixes (avcdoctor analyze FILE)"), N_("FILE") },
		{ "lookupid", 'l', 0, G_OPTION_ARG_STRING, &o.lookup,
		  N_("Show the stored alert ID, as the log line names it (avcdoctor show); "
		     "\"*\" shows every alert"), N_("ID") },
		{ "browser", 'b', 0, G_OPTION_ARG_NONE, &o.browser,
		  N_("Open the alert browser (avcdoctor-browser)"), NULL },
		{ "policy", 0, 0, G_OPTION_ARG_FILENAME, &o.policy,
		  N_("With -a: the binary policy to analyse against (default: the kernel's)"),
		  N_("POLICY") },
		{ "db", 0, 0, G_OPTION_ARG_FILENAME, &o.db,
		  N_("With -l: read the alert store PATH instead of asking avcdoctor-dispatch"),
		  N_("PATH") },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &o.version, N_("Show the version and exit"),
		  NULL },
		{ "service", 's', 0, G_OPTION_ARG_NONE, &o.service,
		  N_("Not supported: avcdoctor-notify, started with the desktop session, "
		     "announces the alerts"), NULL },
		{ "noservice", 'S', 0, G_OPTION_ARG_NONE, &o.noservice,
		  N_("Not supported: use -b"), NULL },
		{ "fix", 'f', 0, G_OPTION_ARG_STRING, &o.fix,
		  N_("Not supported: apply a fix from avcdoctor-browser or Cockpit, or run "
		     "the commands that -l ID shows"), N_("ID") },
		{ "plugin", 'P', 0, G_OPTION_ARG_STRING, &o.plugin,
		  N_("Not supported (for -f)"), N_("NAME") },
		{ "user", 'u', 0, G_OPTION_ARG_STRING, &o.user,
		  N_("Not supported: the alerts are read as you"), N_("USER") },
		{ "password", 'p', 0, G_OPTION_ARG_STRING, &o.password,
		  N_("Not supported: the alerts are read as you"), N_("PASSWORD") },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.rest, NULL, NULL },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *help = NULL;
	int modes, ret;

	g_set_prgname("sealert");
	ctx = ad_cli_context_new(NULL, _("avcdoctor in setroubleshoot's sealert's place: "
					 "sealert -a FILE analyses a log, sealert -l ID "
					 "shows an alert of avcdoctor-dispatch, sealert -b "
					 "opens the browser."), &o.help);
	g_option_context_set_description(ctx, _(
		"ID is what avcdoctor-dispatch's log line names (\"For complete SELinux "
		"messages run: sealert -l ID\"): a local id (ID-NUM) or an alert id (16 hex "
		"digits), as `sealert -l \"*\"` lists them. Alerts are for root and the members "
		"of the group avcdoctor. See sealert(1) and avcdoctor(1)."));
	g_option_context_add_main_entries(ctx, entries, GETTEXT_PACKAGE);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "sealert: %s %s\n", error->message, _("(see --help)"));
		ret = AD_EXIT_INPUT;
		goto out;
	}
	{
		g_autofree char *text = g_option_context_get_help(ctx, TRUE, NULL);

		help = ad_help_wrap(text, AD_HELP_WIDTH);
	}
	if (o.help) {
		fputs(help, stdout);
		ret = AD_EXIT_OK;
		goto out;
	}
	if (o.version) {
		printf("sealert (avcdoctor %s)\n", VERSION);
		ret = AD_EXIT_OK;
		goto out;
	}
	if (o.service) {
		ret = refuse("-s", _("avcdoctor-notify, started with the desktop session, announces "
				     "new alerts; `sealert -b` opens the browser"));
		goto out;
	}
	if (o.noservice) {
		ret = refuse("-S", _("`sealert -b` opens the browser"));
		goto out;
	}
	if (o.fix || o.plugin) {
		ret = refuse(o.fix ? "-f" : "-P",
			     _("apply a fix with \"Apply\" in avcdoctor-browser or Cockpit's SELinux "
			       "page, or run as root the commands that `sealert -l ID` shows"));
		goto out;
	}
	if (o.user || o.password) {
		ret = refuse(o.user ? "-u" : "-p",
			     _("no log-on: the alerts are read as the user who runs sealert (root "
			       "and the members of the group avcdoctor may)"));
		goto out;
	}
	if (o.rest && o.rest[0]) {
		g_autofree char *shown = ad_escape_str(o.rest[0]);

		fprintf(stderr, _("sealert: unexpected argument \"%s\": give a log with -a FILE or "
				  "an alert with -l ID\n"), shown);
		ret = AD_EXIT_INPUT;
		goto out;
	}
	modes = !!o.analyze + !!o.lookup + !!o.browser;
	if (modes > 1) {
		fputs(_("sealert: give one of -a, -l and -b\n"), stderr);
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (modes == 0) {
		fputs(help, stderr);
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if ((o.policy && !o.analyze) || (o.db && !o.lookup)) {
		fprintf(stderr, _("sealert: %s goes with %s\n"), o.policy ? "--policy" : "--db",
			o.policy ? "-a" : "-l");
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (o.browser) {
		ret = browser();
	} else if (o.lookup) {
		ret = lookup(&o);
	} else {
		g_autoptr(GStrvBuilder) b = g_strv_builder_new();

		g_strv_builder_add(b, "analyze");
		if (o.policy)
			g_strv_builder_add_many(b, "-p", o.policy, NULL);
		g_strv_builder_add_many(b, "--", o.analyze, NULL);
		ret = run(b, ad_cmd_analyze);
	}
out:
	options_clear(&o);
	return ret;
}
