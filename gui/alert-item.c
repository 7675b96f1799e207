// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AdAlertItem: one alert of the browser, parsed from its JSON object.
 *
 * Whatever the source (the daemon over D-Bus, or a log file analysed here)
 * an alert reaches the browser as the JSON text of `avcdoctor analyze
 * --json`, so there is one parse path.  The text is untrusted (records are
 * attacker-controlled, and a broken daemon could send anything): a bad
 * object is an error, never a crash, and every string is cleaned before it
 * is shown.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <glib/gi18n.h>

#include "alert-item.h"
#include "analysis/alert.h"
#include "analysis/alert-text.h"
#include "read/denial.h"
#include "escape.h"
#include "output/report.h"

struct _AdAlertItem {
	GObject parent_instance;
	json_object *json;
	char *id;
	AdLevel level;
	char *summary;
	char *headline;			/* the list's line: program, permissions, object */
	char *source;
	char *target;
	char *tclass;
	guint64 count;
	double first_seen;
	double last_seen;
	GStrv hosts;
	char *hosts_text;
	char *perms;			/* "read write", the denied permissions */
	gboolean ignored;
	char *haystack;
	AdOccurrences *occurrences;	/* "timeline", or NULL */
};

G_DEFINE_TYPE(AdAlertItem, ad_alert_item, G_TYPE_OBJECT)
G_DEFINE_QUARK(ad-alert-item-error-quark, ad_alert_item_error)

static void ad_alert_item_finalize(GObject *obj)
{
	AdAlertItem *a = AD_ALERT_ITEM(obj);

	json_object_put(a->json);
	g_free(a->id);
	g_free(a->summary);
	g_free(a->headline);
	g_free(a->source);
	g_free(a->target);
	g_free(a->tclass);
	g_strfreev(a->hosts);
	g_free(a->hosts_text);
	g_free(a->perms);
	g_free(a->haystack);
	ad_occurrences_free(a->occurrences);
	G_OBJECT_CLASS(ad_alert_item_parent_class)->finalize(obj);
}

static void ad_alert_item_class_init(AdAlertItemClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = ad_alert_item_finalize;
}

static void ad_alert_item_init(AdAlertItem *a)
{
	(void)a;
}

char *ad_json_get_text(json_object *o, const char *key)
{
	json_object *v;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return ad_clean_text(json_object_get_string(v));
}

/* a number member, or @def when absent or not a number */
static double json_get_double(json_object *o, const char *key, double def)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return def;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return def;
	return json_object_get_double(v);
}

/* the type of a context member of the denial, "" when there is none */
static char *context_type(json_object *denial, const char *key)
{
	g_autofree char *ctx = ad_json_get_text(denial, key);
	char *type = ctx ? ad_context_type(ctx) : NULL;

	return type ? type : g_strdup("");
}

/* the named hosts of the alert, without duplicates or empty names */
static GStrv parse_hosts(json_object *o)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();
	json_object *arr;

	if (json_object_object_get_ex(o, "hosts", &arr) &&
	    json_object_is_type(arr, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			json_object *h = json_object_array_get_idx(arr, i);
			g_autofree char *name = NULL;

			if (!json_object_is_type(h, json_type_string))
				continue;
			name = ad_clean_text(json_object_get_string(h));
			if (*name)
				g_strv_builder_add(b, name);
		}
	}
	return g_strv_builder_end(b);
}

/* what the search box looks in: the columns, paths and commands, casefolded */
static char *make_haystack(AdAlertItem *a)
{
	static const char *const lists[] = { "paths", "commands" };
	g_autoptr(GString) s = g_string_new(NULL);
	json_object *denial = NULL;
	g_autofree char *joined = NULL;

	g_string_append_printf(s, "%s\n%s\n%s\n%s\n%s\n%s\n", a->id, a->summary, a->source,
			       a->target, a->tclass, a->hosts_text);
	if (json_object_object_get_ex(a->json, "denial", &denial)) {
		static const char *const keys[] = { "comm", "exe", "path", "name", "scontext",
						    "tcontext" };

		for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
			g_autofree char *v = ad_json_get_text(denial, keys[i]);

			if (v)
				g_string_append_printf(s, "%s\n", v);
		}
	}
	for (guint i = 0; i < G_N_ELEMENTS(lists); i++) {
		json_object *arr;

		if (!json_object_object_get_ex(a->json, lists[i], &arr) ||
		    !json_object_is_type(arr, json_type_array))
			continue;
		for (size_t j = 0; j < json_object_array_length(arr); j++) {
			json_object *v = json_object_array_get_idx(arr, j);

			if (json_object_is_type(v, json_type_string)) {
				g_autofree char *t = ad_clean_text(json_object_get_string(v));

				g_string_append_printf(s, "%s\n", t);
			}
		}
	}
	joined = g_utf8_casefold(s->str, -1);
	return g_steal_pointer(&joined);
}

/* the denial's permissions as one clean line, "read write"; owned, "" when none */
static char *perms_text(json_object *denial)
{
	g_autoptr(GString) s = g_string_new(NULL);
	json_object *perms;

	if (!denial || !json_object_object_get_ex(denial, "permissions", &perms) ||
	    !json_object_is_type(perms, json_type_array))
		return g_strdup("");
	for (gsize i = 0; i < json_object_array_length(perms); i++) {
		json_object *p = json_object_array_get_idx(perms, i);
		g_autofree char *t = NULL;

		if (!json_object_is_type(p, json_type_string))
			continue;
		t = ad_clean_text(json_object_get_string(p));
		g_string_append_printf(s, "%s%s", s->len ? " " : "", t);
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* the object of the denial: its path, a full path seen, its name, its port, else NULL */
static char *denial_object(json_object *o, json_object *denial)
{
	json_object *v, *paths;
	char *text = ad_json_get_text(denial, "path");

	if (text && *text)
		return text;
	g_free(text);
	if (json_object_object_get_ex(o, "paths", &paths) &&
	    json_object_is_type(paths, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(paths); i++) {
			v = json_object_array_get_idx(paths, i);
			if (json_object_is_type(v, json_type_string) &&
			    json_object_get_string(v)[0] == '/')
				return ad_clean_text(json_object_get_string(v));
		}
	}
	text = ad_json_get_text(denial, "name");
	if (text && *text)
		return text;
	g_free(text);
	if (json_object_object_get_ex(denial, "port", &v) && json_object_is_type(v, json_type_int))
		/* TRANSLATORS: the object of a denial in the alert list: a port number */
		return g_strdup_printf(_("port %" PRId64), json_object_get_int64(v));
	return NULL;
}

/*
 * The list's line: what tells one alert from the next comes first, the
 * program, the permissions and the object ("httpd: read /etc/shadow
 * (file)"), where every summary would start "SELinux is preventing".
 * The program is the record's comm (the sender's domain for a USER_AVC,
 * which an object manager writes about someone else), else the source type.
 */
static char *make_headline(AdAlertItem *a, json_object *denial)
{
	g_autofree char *type = ad_json_get_text(denial, "type");
	g_autofree char *comm = NULL, *exe = NULL, *object = NULL;
	const char *who = NULL;

	if (!denial)
		return g_strdup(a->summary);
	if (!type || !g_str_has_prefix(type, "USER_")) {
		comm = ad_json_get_text(denial, "comm");
		exe = ad_json_get_text(denial, "exe");
		who = comm && *comm ? comm : exe && *exe ? exe : NULL;
	}
	if (!who)
		who = *a->source ? a->source : "?";
	object = denial_object(a->json, denial);
	if (!*a->perms)
		return g_strdup(a->summary);
	if (!object)
		object = g_strdup(*a->target ? a->target : "?");
	/* TRANSLATORS: a line of the alert list: program, permissions, object, class */
	return g_strdup_printf(_("%s: %s %s (%s)"), who, a->perms, object,
			       *a->tclass ? a->tclass : "?");
}

AdAlertItem *ad_alert_item_new_from_json(const char *text, GError **error)
{
	g_autoptr(AdAlertItem) a = NULL;
	json_tokener *tok;
	json_object *o, *denial = NULL, *v;
	enum json_tokener_error jerr;
	g_autofree char *level = NULL;

	if (!text || !g_utf8_validate(text, -1, NULL)) {
		g_set_error(error, AD_ALERT_ITEM_ERROR, 0, _("the alert is not UTF-8 text"));
		return NULL;
	}
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, text, (int)MIN(strlen(text), (size_t)G_MAXINT));
	jerr = json_tokener_get_error(tok);
	json_tokener_free(tok);
	if (!o || jerr != json_tokener_success) {
		g_set_error(error, AD_ALERT_ITEM_ERROR, 0, _("the alert is not valid JSON: %s"),
			    json_tokener_error_desc(jerr == json_tokener_success
							    ? json_tokener_error_parse_eof : jerr));
		json_object_put(o);
		return NULL;
	}
	/* the texts in the browser's language, whatever the daemon's (msg.h) */
	ad_alert_json_localize(o, FALSE);
	a = g_object_new(AD_TYPE_ALERT_ITEM, NULL);
	a->json = o;
	a->id = ad_json_get_text(o, "id");
	if (!json_object_is_type(o, json_type_object) || !a->id || !*a->id) {
		g_set_error(error, AD_ALERT_ITEM_ERROR, 0, _("the alert has no id"));
		return NULL;
	}
	level = ad_json_get_text(o, "level");
	if (!level || !ad_level_from_name(level, &a->level))
		a->level = AD_LEVEL_YELLOW;
	a->summary = ad_json_get_text(o, "summary");
	if (!a->summary)
		a->summary = g_strdup("");
	if (json_object_object_get_ex(o, "denial", &denial) &&
	    !json_object_is_type(denial, json_type_object))
		denial = NULL;
	a->source = context_type(denial, "scontext");
	a->target = context_type(denial, "tcontext");
	a->tclass = ad_json_get_text(denial, "tclass");
	if (!a->tclass)
		a->tclass = g_strdup("");
	a->perms = perms_text(denial);
	a->count = (guint64)MAX(0.0, json_get_double(o, "count", 0));
	if (json_object_object_get_ex(o, "count", &v) && json_object_is_type(v, json_type_int))
		a->count = json_object_get_uint64(v);
	a->first_seen = json_get_double(o, "first_seen", 0);
	a->last_seen = json_get_double(o, "last_seen", a->first_seen);
	a->occurrences = ad_occurrences_from_json(ad_json_member(o, "timeline"));
	a->hosts = parse_hosts(o);
	a->hosts_text = g_strjoinv(", ", a->hosts);
	a->headline = make_headline(a, denial);
	a->ignored = json_object_object_get_ex(o, "ignored", &v) &&
		     json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v);
	a->haystack = make_haystack(a);
	return g_steal_pointer(&a);
}

const char *ad_alert_item_get_id(AdAlertItem *a) { return a->id; }
AdLevel ad_alert_item_get_level(AdAlertItem *a) { return a->level; }
const char *ad_alert_item_get_summary(AdAlertItem *a) { return a->summary; }
const char *ad_alert_item_get_headline(AdAlertItem *a) { return a->headline; }
const char *ad_alert_item_get_source(AdAlertItem *a) { return a->source; }
const char *ad_alert_item_get_target(AdAlertItem *a) { return a->target; }
const char *ad_alert_item_get_perms(AdAlertItem *a)
{
	return a->perms;
}

const char *ad_alert_item_get_tclass(AdAlertItem *a) { return a->tclass; }
guint64 ad_alert_item_get_count(AdAlertItem *a) { return a->count; }
double ad_alert_item_get_first_seen(AdAlertItem *a) { return a->first_seen; }
double ad_alert_item_get_last_seen(AdAlertItem *a) { return a->last_seen; }
const AdOccurrences *ad_alert_item_get_occurrences(AdAlertItem *a) { return a->occurrences; }
const char *const *ad_alert_item_get_hosts(AdAlertItem *a) { return (const char *const *)a->hosts; }
const char *ad_alert_item_get_hosts_text(AdAlertItem *a) { return a->hosts_text; }
gboolean ad_alert_item_get_ignored(AdAlertItem *a) { return a->ignored; }
json_object *ad_alert_item_get_json(AdAlertItem *a) { return a->json; }
const char *ad_alert_item_get_haystack(AdAlertItem *a) { return a->haystack; }

void ad_suggestion_view_free(AdSuggestionView *s)
{
	if (!s)
		return;
	g_free(s->plugin);
	g_free(s->kind);
	g_free(s->if_text);
	g_free(s->then_text);
	g_free(s->shell);
	g_free(s->proof);
	g_free(s);
}

/*
 * The shell text of a suggestion: its "shell" member, which the analyzer
 * quoted; from "commands" (argument vectors, quoted here the same way)
 * when an older producer left it out.
 */
static char *suggestion_shell(json_object *s)
{
	g_autoptr(GString) out = NULL;
	json_object *cmds;
	char *shell = ad_json_get_text(s, "shell");

	if (shell || !json_object_object_get_ex(s, "commands", &cmds) ||
	    !json_object_is_type(cmds, json_type_array))
		return shell ? shell : g_strdup("");
	out = g_string_new(NULL);
	for (size_t i = 0; i < json_object_array_length(cmds); i++) {
		json_object *argv = json_object_array_get_idx(cmds, i);
		g_autoptr(GPtrArray) args = g_ptr_array_new();
		g_autofree char *line = NULL, *clean = NULL;

		if (!json_object_is_type(argv, json_type_array))
			continue;
		for (size_t j = 0; j < json_object_array_length(argv); j++) {
			json_object *arg = json_object_array_get_idx(argv, j);

			if (json_object_is_type(arg, json_type_string))
				g_ptr_array_add(args, (gpointer)json_object_get_string(arg));
		}
		g_ptr_array_add(args, NULL);
		line = ad_shell_join((const char *const *)args->pdata);
		clean = ad_clean_text(line);
		g_string_append_printf(out, "%s%s", out->len ? "\n" : "", clean);
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/* the proof in words, cleaned for display; @ret_verified as AdSuggestionView's */
static char *suggestion_proof(json_object *s, int *ret_verified)
{
	g_autofree char *text = ad_suggestion_proof_text_json(s);
	json_object *v;

	*ret_verified = -1;
	if (json_object_object_get_ex(s, "verified", &v) &&
	    json_object_is_type(v, json_type_boolean))
		*ret_verified = json_object_get_boolean(v) ? 1 : 0;
	return text ? ad_clean_text(text) : NULL;
}

/* the views of the alert's array @key ("suggestions" or "notes"), in order */
static GPtrArray *get_views(AdAlertItem *a, const char *key)
{
	GPtrArray *ret = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_view_free);
	json_object *arr;

	if (!json_object_object_get_ex(a->json, key, &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return ret;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *s = json_object_array_get_idx(arr, i);
		AdSuggestionView *v;

		if (!json_object_is_type(s, json_type_object))
			continue;
		v = g_new0(AdSuggestionView, 1);
		v->plugin = ad_json_get_text(s, "plugin");
		v->kind = ad_json_get_text(s, "kind");
		v->confidence = CLAMP(json_get_double(s, "confidence", 0), 0.0, 1.0);
		v->if_text = ad_json_get_text(s, "if");
		v->then_text = ad_json_get_text(s, "then");
		v->shell = suggestion_shell(s);
		v->proof = suggestion_proof(s, &v->verified);
		g_ptr_array_add(ret, v);
	}
	return ret;
}

GPtrArray *ad_alert_item_get_suggestions(AdAlertItem *a)
{
	return get_views(a, "suggestions");
}

GPtrArray *ad_alert_item_get_notes(AdAlertItem *a)
{
	return get_views(a, "notes");
}

/* TRUE when the if or then text of a suggestion or a note of @a says @text already */
static gboolean suggestions_say(AdAlertItem *a, const char *text)
{
	g_autoptr(GPtrArray) list = ad_alert_item_get_suggestions(a);
	g_autoptr(GPtrArray) notes = ad_alert_item_get_notes(a);
	g_autofree char *folded = g_utf8_casefold(text, -1);

	g_ptr_array_extend_and_steal(list, g_steal_pointer(&notes));

	for (guint i = 0; i < list->len; i++) {
		const AdSuggestionView *v = g_ptr_array_index(list, i);
		const char *parts[] = { v->if_text, v->then_text };

		for (guint j = 0; j < G_N_ELEMENTS(parts); j++) {
			g_autofree char *p = parts[j] ? g_utf8_casefold(parts[j], -1) : NULL;

			if (p && strstr(p, folded))
				return TRUE;
		}
	}
	return FALSE;
}

/*
 * The reason in words, the verdict's detail and the constraint, each said
 * once: for an allowed or a dontaudit denial the detail says why it was
 * logged (the reason's own sentence would repeat it), and a constraint that
 * a suggestion already quotes in full is not quoted again above it.
 */
char *ad_alert_item_explain(AdAlertItem *a)
{
	g_autoptr(GString) s = g_string_new(NULL);
	json_object *denial = NULL, *v;
	g_autofree char *reason = NULL, *detail = NULL, *constraint = NULL;
	gboolean detail_says_why;
	AdReason r;

	if (!json_object_object_get_ex(a->json, "denial", &denial) ||
	    !json_object_is_type(denial, json_type_object))
		return g_strdup(_("The alert holds no denial to explain."));
	reason = ad_json_get_text(denial, "reason");
	detail = ad_json_get_text(denial, "detail");
	detail_says_why = detail && *detail && reason &&
			  (g_str_equal(reason, "allowed") || g_str_equal(reason, "dontaudit"));
	/* as `why` says it: a boolean to turn off is not "switched off by a boolean" */
	if (!ad_reason_from_name(reason, &r))
		g_string_append(s, _("The reason for this denial is not known."));
	else if (!detail_says_why && ad_denial_json_reason_text(denial))
		g_string_append(s, ad_denial_json_reason_text(denial));
	if (detail && *detail) {
		/* the JSON detail is a clause ("the source context ... is invalid"): a sentence here */
		gunichar first = g_utf8_get_char(detail);
		const char *rest = g_utf8_next_char(detail);
		gsize len = strlen(detail);

		if (s->len)
			g_string_append_c(s, '\n');
		g_string_append_unichar(s, g_unichar_toupper(first));
		g_string_append(s, rest);
		if (detail[len - 1] != '.')
			g_string_append_c(s, '.');
	}
	constraint = ad_json_get_text(denial, "constraint");
	if (constraint && *constraint && !suggestions_say(a, constraint))
		g_string_append_printf(s, "\n%s %s", _("Constraint:"), constraint);
	/* the alert's occurrences in both modes when counted, else its latest denial's */
	if (json_object_object_get_ex(a->json, "blocked", &v) &&
	    json_object_object_get_ex(a->json, "logged_only", NULL)) {
		guint64 count = ad_alert_item_get_count(a);
		guint64 blocked = MAX(json_object_get_int64(v), 0);
		guint64 logged = MAX(json_object_get_int64(ad_json_member(a->json, "logged_only")), 0);

		if (blocked && logged) {
			g_autofree char *text = ad_permissive_text(count, blocked, logged);

			/* TRANSLATORS: then "no: 2 blocked, 1 only logged (permissive)" */
			g_string_append_printf(s, "\n%s %s", _("Permissive:"), text);
		} else if (!blocked && logged && logged == count)
			g_string_append_printf(s, "\n%s", _("Nothing was blocked: SELinux was "
							    "permissive for this access and only "
							    "logged it."));
	} else if (json_object_object_get_ex(denial, "permissive", &v) &&
		   json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v)) {
		g_string_append_printf(s, "\n%s", _("Nothing was blocked: SELinux was permissive "
						    "for this access and only logged it."));
	}
	if (json_object_object_get_ex(denial, "suspect", &v) &&
	    json_object_is_type(v, json_type_boolean) && json_object_get_boolean(v))
		g_string_append_printf(s, "\n%s", _("The record is suspect: it names a context "
						    "or class more than once, as a forged "
						    "USER_AVC would."));
	return g_string_free(g_steal_pointer(&s), FALSE);
}

const char *ad_level_label(AdLevel level)
{
	switch (level) {
	case AD_LEVEL_GREEN:
		return _("Green");
	case AD_LEVEL_RED:
		return _("Red");
	case AD_LEVEL_YELLOW:
	default:
		return _("Yellow");
	}
}

char *ad_format_time(double t)
{
	g_autoptr(GDateTime) dt = NULL;

	if (t <= 0)
		return g_strdup("");
	dt = g_date_time_new_from_unix_local((gint64)t);
	return dt ? g_date_time_format(dt, "%Y-%m-%d %H:%M:%S") : g_strdup("");
}
