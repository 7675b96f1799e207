// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor-browser: a GTK 3 window onto past SELinux denials.
 *
 *   avcdoctor-browser                 the daemon's alerts, live (D-Bus)
 *   avcdoctor-browser --alert ID      the same, with that alert selected
 *                                     (avcdoctor-notify's "Show details")
 *   avcdoctor-browser --ids ID,ID...  the same, only those alerts listed
 *   avcdoctor-browser --since TIME    the same, only alerts seen since TIME
 *                                     (avcdoctor-notify's "Show all")
 *   avcdoctor-browser --level red     (with any of these) only red alerts listed
 *   avcdoctor-browser FILE...         log files analysed here, no daemon
 *
 * Nothing is ever run from an alert: commands are shown and copied.
 */
#include "config.h"

#include <stdio.h>

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "alert-doc.h"
#include "format.h"
#include "i18n.h"
#include "window.h"

#define AD_APP_ID "org.avcdoctor.Browser"

typedef struct {
	char *alert;
	GStrv ids;		/* --ids, each a comma-separated list */
	double since;
	guint levels;		/* --level, as bits 1 << AdLevel; 0 when not given */
	char *policy;
	char *file_contexts;
	GStrv files;
} AdOptions;

static AdOptions opts;

static void act_quit(GSimpleAction *a, GVariant *p, gpointer app)
{
	(void)a, (void)p;
	g_application_quit(app);
}

static void act_about(GSimpleAction *a, GVariant *p, gpointer app)
{
	static const char *const authors[] = { "The avcdoctor developers", NULL };

	(void)a, (void)p;
	gtk_show_about_dialog(gtk_application_get_active_window(app),
			      "program-name", "avcdoctor-browser",
			      "title", _("About avcdoctor"),
			      "version", VERSION,
			      "comments", _("Explains SELinux denials and tells how to fix "
					    "them: the alerts of this system, or of any audit "
					    "log."),
			      "logo-icon-name", "avcdoctor-browser",
			      "license-type", GTK_LICENSE_GPL_2_0,
			      "authors", authors,
			      /* TRANSLATORS: your name(s), shown in the About dialog */
			      "translator-credits", _("translator-credits"),
			      NULL);
}

static const GActionEntry app_actions[] = {
	{ "quit", act_quit, NULL, NULL, NULL, { 0 } },
	{ "about", act_about, NULL, NULL, NULL, { 0 } },
};

static void on_startup(GApplication *app, gpointer data)
{
	static const struct {
		const char *action;
		const char *accels[3];
	} accels[] = {
		{ "win.open", { "<Primary>o", NULL } },
		{ "win.refresh", { "F5", "<Primary>r", NULL } },
		{ "win.find", { "<Primary>f", NULL } },
		{ "win.focus-list", { "<Primary>l", NULL } },
		{ "win.focus-details", { "<Primary>d", NULL } },
		{ "win.show-ignored", { "<Primary>h", NULL } },
		{ "win.group-by-source", { "<Primary>g", NULL } },
		{ "win.overview", { "<Primary><Shift>o", NULL } },
		{ "win.ignore", { "<Primary>i", NULL } },
		{ "app.quit", { "<Primary>q", NULL } },
	};
	g_autoptr(GtkCssProvider) css = gtk_css_provider_new();

	(void)data;
	g_action_map_add_action_entries(G_ACTION_MAP(app), app_actions,
					G_N_ELEMENTS(app_actions), app);
	for (guint i = 0; i < G_N_ELEMENTS(accels); i++)
		gtk_application_set_accels_for_action(GTK_APPLICATION(app), accels[i].action,
						      accels[i].accels);
	gtk_css_provider_load_from_resource(css, "/org/avcdoctor/Browser/browser.css");
	gtk_style_context_add_provider_for_screen(gdk_screen_get_default(),
						  GTK_STYLE_PROVIDER(css),
						  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
	gtk_window_set_default_icon_name("avcdoctor-browser");
}

static void on_activate(GApplication *app, gpointer data)
{
	AdBrowserWindow *w = ad_browser_window_new(GTK_APPLICATION(app), opts.policy,
						   opts.file_contexts);

	(void)data;
	gtk_window_present(GTK_WINDOW(w));
	if (opts.files && opts.files[0])
		ad_browser_window_show_files(w, (const char *const *)opts.files);
	else
		ad_browser_window_show_live(w, opts.alert);
	if (opts.ids || opts.since > 0) {
		g_autofree char *joined = opts.ids ? g_strjoinv(",", opts.ids) : NULL;
		g_auto(GStrv) ids = joined ? g_strsplit(joined, ",", -1) : NULL;

		ad_browser_window_set_batch(w, (const char *const *)ids, opts.since);
	}
	if (opts.levels)
		ad_browser_window_set_levels(w, opts.levels);
}

/* --help, --help-all or --help-gtk: GLib's help, wrapped to 80 columns */
static void print_help(GOptionContext *ctx, gboolean main_only, GOptionGroup *group)
{
	g_autofree char *text = g_option_context_get_help(ctx, main_only, group);
	g_autofree char *wrapped = ad_help_wrap(text, AD_HELP_WIDTH);

	fputs(wrapped, stdout);
}

int main(int argc, char **argv)
{
	gboolean version = FALSE, help = FALSE, help_all = FALSE, help_gtk = FALSE;
	g_auto(GStrv) levels = NULL;
	GOptionEntry entries[] = {
		/* GLib's own, in place: the help is wrapped */
		{ "help", 'h', 0, G_OPTION_ARG_NONE, &help, N_("Show help options"), NULL },
		{ "help-all", 0, 0, G_OPTION_ARG_NONE, &help_all, N_("Show all help options"),
		  NULL },
		{ "help-gtk", 0, 0, G_OPTION_ARG_NONE, &help_gtk, N_("Show GTK's options"), NULL },
		{ "alert", 'a', 0, G_OPTION_ARG_STRING, &opts.alert,
		  N_("Open the daemon's alert ID"), N_("ID") },
		{ "ids", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.ids,
		  N_("List only the daemon's alerts ID,ID,... (a notification's)"), N_("IDS") },
		{ "since", 0, 0, G_OPTION_ARG_DOUBLE, &opts.since,
		  N_("List only the daemon's alerts seen since TIME (seconds since the epoch)"),
		  N_("TIME") },
		{ "level", 0, 0, G_OPTION_ARG_STRING_ARRAY, &levels,
		  N_("Only the alerts of LEVEL: red, yellow, green, or all (comma-separated or "
		     "repeated)"), N_("LEVEL") },
		{ "policy", 'p', 0, G_OPTION_ARG_FILENAME, &opts.policy,
		  N_("Binary policy to analyse log files against (default: the kernel's, else "
		     "the newest installed policy.N)"), N_("FILE") },
		{ "file-contexts", 0, 0, G_OPTION_ARG_FILENAME, &opts.file_contexts,
		  N_("file_contexts to judge labels in log files with (default: the policy's "
		     "own)"), N_("FILE") },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &version,
		  N_("Show the version and exit"), NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opts.files, NULL,
		  N_("[FILE...]") },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = NULL;
	GOptionGroup *gtk_group;
	g_autoptr(GtkApplication) app = NULL;
	g_autoptr(GError) error = NULL;
	int ret;

	ad_i18n_init();

	ctx = g_option_context_new(NULL);
	g_option_context_set_translation_domain(ctx, GETTEXT_PACKAGE);
	g_option_context_set_summary(ctx, _("Browses SELinux alerts: the daemon's, live, or "
					    "those of audit log files analysed here."));
	g_option_context_set_help_enabled(ctx, FALSE);
	g_option_context_add_main_entries(ctx, entries, GETTEXT_PACKAGE);
	gtk_group = gtk_get_option_group(FALSE);
	g_option_context_add_group(ctx, gtk_group);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "avcdoctor-browser: %s %s\n", error->message, _("(see --help)"));
		return 1;
	}
	if (help || help_all || help_gtk) {
		print_help(ctx, help && !help_all && !help_gtk, help_gtk && !help_all ? gtk_group : NULL);
		return 0;
	}
	/* the levels as `avcdoctor list --level` takes them (one parser) */
	if (!ad_levels_parse(levels, &opts.levels)) {
		fprintf(stderr, "avcdoctor-browser: --level: %s %s\n",
			_("give red, yellow, green or all"), _("(see --help)"));
		return 1;
	}
	if (version) {
		printf("avcdoctor-browser %s\n", VERSION);
		return 0;
	}
	if (opts.alert && !ad_alert_id_is_valid(opts.alert)) {
		/* the daemon's own words (analyzer/dbus-service.c) */
		fprintf(stderr, "avcdoctor-browser: --alert: %s\n",
			_("not an alert id: 16 lowercase hexadecimal digits"));
		return 1;
	}
	for (guint i = 0; opts.ids && opts.ids[i]; i++) {
		g_auto(GStrv) ids = g_strsplit(opts.ids[i], ",", -1);

		for (guint j = 0; ids[j]; j++) {
			if (*ids[j] && !ad_alert_id_is_valid(ids[j])) {
				fprintf(stderr, "avcdoctor-browser: --ids: %s\n",
					_("not an alert id: 16 lowercase hexadecimal digits"));
				return 1;
			}
		}
	}
	if (opts.alert && opts.files) {
		fprintf(stderr, "avcdoctor-browser: %s\n",
			_("--alert is for the daemon's alerts, not for log files"));
		return 1;
	}
	if (!gtk_init_check(NULL, NULL)) {
		fprintf(stderr, "avcdoctor-browser: %s\n", _("cannot open the display"));
		return 1;
	}
	app = gtk_application_new(AD_APP_ID, G_APPLICATION_NON_UNIQUE);
	g_signal_connect(app, "startup", G_CALLBACK(on_startup), NULL);
	g_signal_connect(app, "activate", G_CALLBACK(on_activate), NULL);
	ret = g_application_run(G_APPLICATION(app), 1, argv);
	g_free(opts.alert);
	g_strfreev(opts.ids);
	g_free(opts.policy);
	g_free(opts.file_contexts);
	g_strfreev(opts.files);
	return ret;
}
