// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor list | show ID | ignore ID | unignore ID | delete ID: the
 * alerts of avcdoctor-dispatch, asked of its D-Bus service on the system bus
 * (client/: the names and the generated AdAlerts1 proxy), or read from a store file with --db PATH (read-only for
 * list and show, so a copied store can be read by anyone who can read it).
 *
 * Everything shown comes from audit records or from a file that may have
 * been copied from elsewhere: every string is escaped for the terminal
 * unless it is clean already.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "alert-doc.h"
#include "alerts-client.h"
#include "alerts1-generated.h"
#include "analysis/alert-text.h"
#include "analysis/select.h"
#include "cli.h"
#include "cmd-store.h"
#include "config.h"
#include "escape.h"
#include "format.h"
#include "options.h"
#include "output/report.h"
#include "store.h"

enum { AD_EXIT_NO_STORE = 2 };

typedef struct {
	char *db;
	char *since, *until;
	char **comms, **sources, **targets, **classes, **hosts;
	gboolean all;
	gboolean all_short;		/* -a: --all's deprecated spelling */
	gboolean json;
	gboolean after_first;
	gboolean no_pager;
	char *sort;
	char **levels;
	gboolean version;
	gboolean help;			/* -h: printed */
	char **args;
} StoreOptions;

static void options_clear(StoreOptions *o)
{
	g_free(o->db);
	g_free(o->since);
	g_free(o->until);
	g_free(o->sort);
	g_strfreev(o->levels);
	g_strfreev(o->comms);
	g_strfreev(o->sources);
	g_strfreev(o->targets);
	g_strfreev(o->classes);
	g_strfreev(o->hosts);
	g_strfreev(o->args);
}

/* ------------------------------------------------------------ options */

enum { OPT_LIST = 1 << 0, OPT_JSON = 1 << 1, OPT_AFTER_FIRST = 1 << 2, OPT_ID = 1 << 3 };

/* parses the options of @cmd; FALSE and a message on bad usage */
static gboolean parse(const char *cmd, const char *summary, guint which, StoreOptions *o,
		      int *argc, char ***argv)
{
	GOptionEntry common[] = {
		{ "db", 0, 0, G_OPTION_ARG_FILENAME, &o->db,
		  N_("Use the alert store PATH directly instead of the avcdoctor-dispatch service"),
		  N_("PATH") },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &o->version, N_("Show the version and exit"),
		  NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->args, NULL, NULL },
		{ NULL }
	};
	GOptionEntry list[] = {
		{ "since", 0, 0, G_OPTION_ARG_STRING, &o->since,
		  N_("Only alerts last seen at or after TIME: now, recent, this-hour, today, "
		     "yesterday, this-week, week-ago, this-month, this-year, seconds since the "
		     "epoch, a date (YYYY-MM-DD[ HH:MM[:SS]]), or an age such as 30m, 2h, 7d, 1w"),
		  N_("TIME") },
		{ "until", 0, 0, G_OPTION_ARG_STRING, &o->until,
		  N_("Only alerts first seen at or before TIME"), N_("TIME") },
		{ "comm", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &o->comms,
		  N_("Only alerts of the command NAME (comm=); repeatable"), N_("NAME") },
		{ "source", 's', 0, G_OPTION_ARG_STRING_ARRAY, &o->sources,
		  N_("Only alerts whose source type is TYPE; repeatable"), N_("TYPE") },
		{ "target", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->targets,
		  N_("Only alerts whose target type is TYPE; repeatable"), N_("TYPE") },
		{ "class", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->classes,
		  N_("Only alerts on objects of CLASS; repeatable"), N_("CLASS") },
		{ "all", 0, 0, G_OPTION_ARG_NONE, &o->all,
		  N_("Include the alerts you ignore"), NULL },
		/* -a reads the log's rotations in why, allow and analyze: the old spelling here */
		{ "deprecated-a", 'a', G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o->all_short,
		  NULL, NULL },
		{ "host", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->hosts,
		  N_("Only alerts seen on NODE (the node= name of a remote host); repeatable"),
		  N_("NODE") },
		{ "level", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->levels,
		  N_("Only the alerts of LEVEL: red, yellow, green, or all (comma-separated or "
		     "repeated)"), N_("LEVEL") },
		{ "sort", 0, 0, G_OPTION_ARG_STRING, &o->sort,
		  N_("The order of the alerts: level (red first, then yellow, green, most "
		     "denials first; the default of the text list), count (most denials first) "
		     "or time (first seen first; the default of --json)"), N_("ORDER") },
		{ NULL }
	};
	GOptionEntry pager[] = {
		{ "no-pager", 0, 0, G_OPTION_ARG_NONE, &o->no_pager,
		  N_("Write to the terminal directly, not through $PAGER (less)"), NULL },
		{ NULL }
	};
	GOptionEntry json[] = {
		{ "json", 0, 0, G_OPTION_ARG_NONE, &o->json,
		  N_("JSON Lines on standard output, one object per alert"), NULL },
		{ NULL }
	};
	GOptionEntry after_first[] = {
		{ "after-first", 0, 0, G_OPTION_ARG_NONE, &o->after_first,
		  N_("Ignore it only after its first occurrence: announce new alerts once"),
		  NULL },
		{ NULL }
	};
	g_autofree char *param = g_strdup_printf("%s%s", cmd, which & OPT_ID ? " ID" : "");
	g_autoptr(GOptionContext) ctx = ad_cli_context_new(param, summary, &o->help);
	guint nargs;
	int parsed;

	g_option_context_set_description(ctx, _(
		"Without --db, the alerts are asked of the avcdoctor-dispatch service on the "
		"system bus.\nID is an alert id as `avcdoctor list` shows it (16 hex digits).\n\n"
		"Exit status: 0 done, 1 bad usage, a bad ID or no such alert, 2 no store or no "
		"service to ask."));
	g_option_context_add_main_entries(ctx, common, GETTEXT_PACKAGE);
	if (which & OPT_LIST)
		g_option_context_add_main_entries(ctx, list, GETTEXT_PACKAGE);
	if (which & OPT_JSON) {
		g_option_context_add_main_entries(ctx, json, GETTEXT_PACKAGE);
		g_option_context_add_main_entries(ctx, pager, GETTEXT_PACKAGE);
	}
	if (which & OPT_AFTER_FIRST)
		g_option_context_add_main_entries(ctx, after_first, GETTEXT_PACKAGE);
	parsed = ad_cli_context_parse(ctx, cmd, &o->help, argc, argv);
	if (parsed < 0)
		return FALSE;
	if (parsed == 0)
		return TRUE;
	if (o->version || o->help)
		return TRUE;
	if (o->all_short) {
		ad_cli_message(_("%s: -a is deprecated here (in why, allow and analyze it reads "
				 "the log's rotations): write --all"), cmd);
		o->all = TRUE;
	}
	nargs = o->args ? g_strv_length(o->args) : 0;
	if (nargs != ((which & OPT_ID) ? 1u : 0u)) {
		if (which & OPT_ID)
			ad_cli_message(_("%s: give one alert ID (see --help)"), cmd);
		else
			ad_cli_message(_("%s: no arguments expected (see --help)"), cmd);
		return FALSE;
	}
	if ((which & OPT_ID) && !ad_alert_id_is_valid(o->args[0])) {
		g_autofree char *shown = ad_escape_str(o->args[0]);

		ad_cli_message(_("%s: \"%s\" is not an alert id (16 lowercase hex "
				 "digits, as `avcdoctor list` shows them)"), cmd, shown);
		return FALSE;
	}
	return TRUE;
}

/* ------------------------------------------------------------ where the alerts are */

typedef struct {
	AdStore *store;			/* --db */
	AdAlerts1 *bus;			/* else: the service's proxy */
} Source;

static void source_clear(Source *src)
{
	g_clear_pointer(&src->store, ad_store_close);
	g_clear_object(&src->bus);
}

/* what a failure means for the user, and the exit status */
static int report_error(const char *cmd, GError *error)
{
	g_autofree char *msg = NULL;

	g_dbus_error_strip_remote_error(error);
	msg = ad_escape_str(error->message);
	if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)) {
		ad_cli_message(_("%s: the avcdoctor-dispatch service is not running; "
				 "use --db PATH to read a store directly"), cmd);
		return AD_EXIT_NO_STORE;
	}
	if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_AUTH_FAILED) ||
	    g_error_matches(error, AD_ALERTS_ERROR, AD_ALERTS_ERROR_ACCESS_DENIED)) {
		ad_cli_message(_("%s: the avcdoctor-dispatch service refused: %s (alerts "
				 "are for root and the administrators' group)"), cmd, msg);
		return AD_EXIT_NO_STORE;
	}
	ad_cli_message("%s: %s", cmd, msg);
	if (g_error_matches(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND) ||
	    g_error_matches(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID) ||
	    g_error_matches(error, AD_ALERTS_ERROR, AD_ALERTS_ERROR_NOT_FOUND) ||
	    g_error_matches(error, AD_ALERTS_ERROR, AD_ALERTS_ERROR_INVALID_ARGS) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS))
		return AD_EXIT_INPUT;
	return AD_EXIT_NO_STORE;
}

/*
 * Opens what the options name: the store (read-only unless @write) or the
 * system bus.  Returns 0, else prints why and returns the exit status.
 */
static int source_open(Source *src, const char *cmd, const StoreOptions *o, gboolean write)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *owner = NULL;

	/* registers the service's error names before any reply arrives */
	(void)AD_ALERTS_ERROR;
	if (o->db) {
		g_autofree char *warning = NULL;
		struct stat st;

		if (write && lstat(o->db, &st) < 0) {
			g_autofree char *shown = ad_escape_str(o->db);

			ad_cli_message(_("%s: no alert store at %s"), cmd, shown);
			return AD_EXIT_NO_STORE;
		}
		src->store = write ? ad_store_open_existing(o->db, &warning, &error)
				   : ad_store_open_readonly(o->db, &error);
		if (warning) {
			g_autofree char *w = ad_escape_str(warning);

			ad_cli_message("%s", w);
		}
		return src->store ? 0 : report_error(cmd, error);
	}
	src->bus = ad_alerts1_proxy_new_for_bus_sync(G_BUS_TYPE_SYSTEM,
						     G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
						     G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS |
						     G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START,
						     AD_DBUS_NAME, AD_DBUS_PATH, NULL, &error);
	if (!src->bus) {
		g_autofree char *m = ad_escape_str(error->message);

		ad_cli_message(_("%s: the avcdoctor-dispatch service is not running; use "
				 "--db PATH to read a store directly (no system bus: %s)"), cmd, m);
		return AD_EXIT_NO_STORE;
	}
	/* no owner of the name: the proxy would refuse every call */
	owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(src->bus));
	if (!owner) {
		g_autoptr(GError) gone = g_error_new_literal(G_DBUS_ERROR,
							     G_DBUS_ERROR_NAME_HAS_NO_OWNER, "");

		return report_error(cmd, gone);
	}
	return 0;
}

static json_object *parse_alert(const char *text, GError **error)
{
	json_object *o = json_tokener_parse(text);

	if (o && json_object_is_type(o, json_type_object))
		return o;
	json_object_put(o);
	g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_IO,
		    _("the avcdoctor-dispatch service sent an alert that is not a JSON object"));
	return NULL;
}

static void json_put(gpointer o)
{
	json_object_put(o);
}

/*
 * Every alert (ignored ones too: they are counted); json_object*.  Their
 * texts in the user's language, whoever's the dispatcher's was (msg.h).
 */
static GPtrArray *source_list(Source *src, double since, const char *host, GError **error)
{
	g_auto(GStrv) texts = NULL;
	g_autoptr(GPtrArray) list = NULL;

	if (src->store) {
		list = ad_store_list(src->store, since, TRUE, getuid(), host, error);
	} else {
		if (!ad_alerts1_call_list_alerts_sync(src->bus, since, TRUE, host ? host : "",
						      &texts, NULL, error))
			return NULL;
		list = g_ptr_array_new_with_free_func(json_put);
		for (guint i = 0; texts[i]; i++) {
			json_object *o = parse_alert(texts[i], error);

			if (!o)
				return NULL;
			g_ptr_array_add(list, o);
		}
	}
	for (guint i = 0; list && i < list->len; i++)
		ad_alert_json_localize(g_ptr_array_index(list, i), TRUE);
	return g_steal_pointer(&list);
}

/* one alert, its texts in the user's language */
static json_object *source_get(Source *src, const char *id, GError **error)
{
	g_autofree char *text = NULL;
	json_object *o;

	if (src->store)
		o = ad_store_get(src->store, id, getuid(), error);
	else if (!ad_alerts1_call_get_alert_sync(src->bus, id, &text, NULL, error))
		return NULL;
	else
		o = parse_alert(text, error);
	ad_alert_json_localize(o, TRUE);
	return o;
}

static gboolean source_set_filter(Source *src, const char *id, AdFilter f, GError **error)
{
	if (src->store)
		return ad_store_set_filter(src->store, id, getuid(), f, error);
	return ad_alerts1_call_set_filter_sync(src->bus, id, ad_filter_name(f), NULL, error);
}

static gboolean source_delete(Source *src, const char *id, GError **error)
{
	if (src->store)
		return ad_store_delete(src->store, id, error);
	return ad_alerts1_call_delete_alert_sync(src->bus, id, NULL, error);
}

/* ------------------------------------------------------------ showing */

/* the columns of list, padded by display width (translated headings, levels) */
static void list_row(GString *out, const char *id, const char *level, const char *count,
		     const char *last, const char *hosts, const char *rest)
{
	ad_string_append_padded(out, id, 16);
	g_string_append(out, "  ");
	ad_string_append_padded(out, level, 6);
	g_string_append(out, "  ");
	ad_string_append_right(out, count, 7);
	g_string_append(out, "  ");
	ad_string_append_padded(out, last, 19);
	g_string_append(out, "  ");
	ad_string_append_padded(out, hosts, 15);
	g_string_append(out, "  ");
	g_string_append(out, rest);
	g_string_append_c(out, '\n');
}

/* one line: ID LEVEL COUNT LAST-SEEN HOSTS SUMMARY */
static void list_line(GString *out, const AdAlertDoc *doc)
{
	g_autofree char *id = ad_text_shown(doc->id);
	g_autofree char *level = ad_alert_doc_level_text(doc);
	g_autofree char *summary = ad_text_shown(doc->summary);
	g_autofree char *last = ad_text_time(doc->last_seen, "%Y-%m-%d %H:%M:%S");
	g_autofree char *hosts = ad_alert_doc_hosts(doc, FALSE, 3);
	g_autofree char *count = g_strdup_printf("%" PRId64,
						 (gint64)MIN(doc->count, G_MAXINT64));
	g_autofree char *rest = g_strconcat(doc->ignored ? _("(ignored) ") : "", summary, NULL);

	list_row(out, id, level, count, last, hosts, rest);
}

static void print_json(json_object *o)
{
	printf("%s\n", ad_json_line(o));
}

/* ------------------------------------------------------------ the commands */

AdAlertDoc *ad_cli_fetch_alert(const char *cmd, const char *db, const char *id, int *ret_status)
{
	StoreOptions o = { .db = (char *)db };
	Source src = { 0 };
	g_autoptr(GError) error = NULL;
	json_object *a = NULL;
	AdAlertDoc *doc = NULL;

	*ret_status = source_open(&src, cmd, &o, FALSE);
	if (*ret_status)
		return NULL;
	a = source_get(&src, id, &error);
	if (a)
		doc = ad_alert_doc_new(a, &error);
	if (!doc)
		*ret_status = report_error(cmd, error);
	json_object_put(a);
	source_clear(&src);
	return doc;
}

GPtrArray *ad_cli_fetch_alerts(const char *cmd, const char *db, int *ret_status)
{
	StoreOptions o = { .db = (char *)db };
	Source src = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) list = NULL;
	GPtrArray *docs = NULL;

	*ret_status = source_open(&src, cmd, &o, FALSE);
	if (*ret_status)
		return NULL;
	if ((list = source_list(&src, 0, NULL, &error)))
		docs = g_ptr_array_new_with_free_func((GDestroyNotify)ad_alert_doc_free);
	for (guint i = 0; docs && i < list->len; i++) {
		AdAlertDoc *doc = ad_alert_doc_new(g_ptr_array_index(list, i), &error);

		if (doc)
			g_ptr_array_add(docs, doc);
		else
			g_clear_pointer(&docs, g_ptr_array_unref);
	}
	if (!docs)
		*ret_status = report_error(cmd, error);
	source_clear(&src);
	return docs;
}

static int version(void)
{
	printf("avcdoctor %s\n", VERSION);
	return AD_EXIT_OK;
}

/* an alert chosen by list, with what it is sorted by */
typedef struct {
	json_object *alert;		/* borrowed from the list */
	AdAlertDoc *doc;		/* owned */
	guint seq;			/* its place in the list (first seen first) */
} Listed;

static void listed_clear(gpointer p)
{
	ad_alert_doc_free(((Listed *)p)->doc);
}

static AdSort list_sort;

static int compare_listed(gconstpointer pa, gconstpointer pb)
{
	const Listed *a = pa, *b = pb;

	return ad_sort_compare(list_sort, a->doc->level, (gint64)MIN(a->doc->count, G_MAXINT64),
			       a->seq, b->doc->level, (gint64)MIN(b->doc->count, G_MAXINT64), b->seq);
}

int ad_cmd_list(int argc, char **argv)
{
	StoreOptions o = { 0 };
	Source src = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) list = NULL;
	g_autoptr(GArray) chosen = g_array_new(FALSE, FALSE, sizeof(Listed));
	g_autoptr(GString) out = g_string_new(NULL);
	AdSelect select = { 0 };
	double since = 0, until = 0;
	guint shown_n = 0, hidden = 0, other_levels = 0, levels = 0;
	AdSort sort = AD_SORT_DEFAULT;
	FILE *account;
	int ret;

	if (!parse("list", _("Lists the alerts of avcdoctor-dispatch: one line per alert, red "
			     "first."), OPT_LIST | OPT_JSON, &o, &argc, &argv)) {
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (o.help || o.version) {
		ret = o.help ? AD_EXIT_OK : version();
		goto out;
	}
	if ((o.since && !ad_time_parse(o.since, &since, &error)) ||
	    (o.until && !ad_time_parse(o.until, &until, &error))) {
		g_autofree char *m = ad_escape_str(error->message);

		ad_cli_message("list: %s: %s", o.since && !since ? "--since" : "--until", m);
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (!ad_cli_sort_levels("list", o.sort, o.levels, &sort, &levels)) {
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (!levels)
		levels = AD_LEVELS_ALL;
	g_array_set_clear_func(chosen, listed_clear);
	/* since, and one host, are asked of the source; the rest is chosen here */
	select = (AdSelect){
		.until = until, .comms = g_steal_pointer(&o.comms),
		.sources = g_steal_pointer(&o.sources), .targets = g_steal_pointer(&o.targets),
		.classes = g_steal_pointer(&o.classes), .levels = levels, .hide_ignored = !o.all,
	};
	if (o.hosts && o.hosts[0] && o.hosts[1])
		select.hosts = g_strdupv(o.hosts);
	if (sort == AD_SORT_DEFAULT)
		sort = o.json ? AD_SORT_TIME : AD_SORT_LEVEL;
	if ((ret = source_open(&src, "list", &o, FALSE)))
		goto out;
	/* one host is asked of the source; several are chosen here */
	if (!(list = source_list(&src, since,
				 o.hosts && o.hosts[0] && !o.hosts[1] ? o.hosts[0] : NULL,
				 &error))) {
		ret = report_error("list", error);
		goto out;
	}
	for (guint i = 0; i < list->len; i++) {
		json_object *a = g_ptr_array_index(list, i);
		AdSelectItem item;
		Listed l = { a, ad_alert_doc_new(a, &error), i };

		if (!l.doc) {
			ret = report_error("list", error);
			goto out;
		}
		ad_select_item_of_doc(&item, l.doc);
		switch (ad_select_item(&select, &item)) {
		case AD_SELECT_IN:
			g_array_append_val(chosen, l);
			continue;
		case AD_SELECT_IGNORED:
			hidden++;
			break;
		case AD_SELECT_OTHER_LEVEL:
			other_levels++;
			break;
		case AD_SELECT_OUT:
			break;
		}
		ad_alert_doc_free(l.doc);
	}
	list_sort = sort;
	g_array_sort(chosen, compare_listed);
	if (!o.json && chosen->len)
		list_row(out, _("ID"), _("LEVEL"), _("COUNT"), _("LAST SEEN"), _("HOSTS"),
			 _("SUMMARY"));
	for (guint i = 0; i < chosen->len; i++) {
		const Listed *l = &g_array_index(chosen, Listed, i);

		shown_n++;
		if (o.json)
			g_string_append_printf(out, "%s\n", ad_json_line(l->alert));
		else
			list_line(out, l->doc);
	}
	if (out->len)
		ad_pager_start(o.no_pager);
	fwrite(out->str, 1, out->len, stdout);
	fflush(stdout);		/* before a count on stderr */
	account = o.json ? stderr : stdout;
	fprintf(account, ngettext("%u alert", "%u alerts", shown_n), shown_n);
	if (hidden)
		fprintf(account, ngettext(" (%u ignored alert not shown; --all shows it)",
					  " (%u ignored alerts not shown; --all shows them)", hidden),
			hidden);
	if (other_levels)
		fprintf(account, ngettext(" (%u alert of another level not shown; --level=all "
					  "shows it)",
					  " (%u alerts of other levels not shown; --level=all "
					  "shows them)", other_levels), other_levels);
	fputs(".\n", account);
	ret = AD_EXIT_OK;
out:
	ad_select_clear(&select);
	source_clear(&src);
	options_clear(&o);
	return ret;
}

int ad_cmd_show(int argc, char **argv)
{
	StoreOptions o = { 0 };
	Source src = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(AdAlertDoc) doc = NULL;
	json_object *a = NULL;
	int ret;

	if (!parse("show", _("Shows one alert of avcdoctor-dispatch with its analysis and "
			     "fixes."), OPT_JSON | OPT_ID, &o, &argc, &argv)) {
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (o.help || o.version) {
		ret = o.help ? AD_EXIT_OK : version();
		goto out;
	}
	if ((ret = source_open(&src, "show", &o, FALSE)))
		goto out;
	if (!(a = source_get(&src, o.args[0], &error)) ||
	    (!o.json && !(doc = ad_alert_doc_new(a, &error)))) {
		ret = report_error("show", error);
		goto out;
	}
	ad_pager_start(o.no_pager);
	if (o.json) {
		print_json(a);
	} else {
		g_autoptr(GString) out = g_string_new(NULL);

		ad_alert_doc_render(out, doc);
		fwrite(out->str, 1, out->len, stdout);
	}
	ret = AD_EXIT_OK;
out:
	json_object_put(a);
	source_clear(&src);
	options_clear(&o);
	return ret;
}

/* ignore, unignore: the caller's filter */
static int set_filter(const char *cmd, const char *summary, gboolean ignore, int argc, char **argv)
{
	StoreOptions o = { 0 };
	Source src = { 0 };
	g_autoptr(GError) error = NULL;
	AdFilter f;
	int ret;

	if (!parse(cmd, summary, ignore ? OPT_ID | OPT_AFTER_FIRST : OPT_ID, &o, &argc, &argv)) {
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (o.help || o.version) {
		ret = o.help ? AD_EXIT_OK : version();
		goto out;
	}
	f = !ignore ? AD_FILTER_NEVER : o.after_first ? AD_FILTER_AFTER_FIRST : AD_FILTER_ALWAYS;
	if ((ret = source_open(&src, cmd, &o, TRUE)))
		goto out;
	if (!source_set_filter(&src, o.args[0], f, &error)) {
		ret = report_error(cmd, error);
		goto out;
	}
	printf(f == AD_FILTER_NEVER ? _("Alert %s is no longer ignored.\n")
	       : f == AD_FILTER_ALWAYS ? _("Alert %s is ignored from now on.\n")
				       : _("Alert %s is ignored after its first occurrence.\n"),
	       o.args[0]);
	ret = AD_EXIT_OK;
out:
	source_clear(&src);
	options_clear(&o);
	return ret;
}

int ad_cmd_ignore(int argc, char **argv)
{
	return set_filter("ignore", _("Ignores an alert for you: no more notifications, hidden "
				      "from `avcdoctor list` (--all shows it)."), TRUE, argc, argv);
}

int ad_cmd_unignore(int argc, char **argv)
{
	return set_filter("unignore", _("Stops ignoring an alert for you."), FALSE, argc, argv);
}

int ad_cmd_delete(int argc, char **argv)
{
	StoreOptions o = { 0 };
	Source src = { 0 };
	g_autoptr(GError) error = NULL;
	int ret;

	if (!parse("delete", _("Deletes an alert (for every user); it comes back as a new alert "
			       "if the denial happens again."), OPT_ID, &o, &argc, &argv)) {
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (o.help || o.version) {
		ret = o.help ? AD_EXIT_OK : version();
		goto out;
	}
	if ((ret = source_open(&src, "delete", &o, TRUE)))
		goto out;
	if (!source_delete(&src, o.args[0], &error)) {
		ret = report_error("delete", error);
		goto out;
	}
	printf(_("Alert %s deleted.\n"), o.args[0]);
	ret = AD_EXIT_OK;
out:
	source_clear(&src);
	options_clear(&o);
	return ret;
}
