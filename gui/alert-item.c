// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AdAlertItem: one alert of the browser, parsed from its JSON object.
 *
 * Whatever the source (the daemon over D-Bus, or a log file analysed here)
 * an alert reaches the browser as the JSON text of `avcdoctor analyze
 * --json`, so there is one parse path: the one reader of alert JSON,
 * AdAlertDoc (common/alert-doc.h), which the item holds.  The text is
 * untrusted (records are attacker-controlled, and a broken daemon could send
 * anything): a bad object is an error, never a crash, and every string is
 * cleaned before it is shown.
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
	AdAlertDoc *doc;		/* the alert as the one reader read it */
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
};

G_DEFINE_TYPE(AdAlertItem, ad_alert_item, G_TYPE_OBJECT)
G_DEFINE_QUARK(ad-alert-item-error-quark, ad_alert_item_error)

static void ad_alert_item_finalize(GObject *obj)
{
	AdAlertItem *a = AD_ALERT_ITEM(obj);

	ad_alert_doc_free(a->doc);
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

/* @s (a string of the document, or NULL) made safe to show; "" for NULL */
static char *shown(const char *s)
{
	return ad_clean_text(s);
}

/* the named hosts of the alert, cleaned (the document has no empty names) */
static GStrv clean_hosts(const AdAlertDoc *doc)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();

	for (guint i = 0; doc->hosts[i]; i++) {
		g_autofree char *name = shown(doc->hosts[i]);

		if (*name)
			g_strv_builder_add(b, name);
	}
	return g_strv_builder_end(b);
}

/* what the search box looks in: the columns, paths and commands, casefolded */
static char *make_haystack(AdAlertItem *a)
{
	const AdDenialDoc *d = a->doc->denial;
	char *const *lists[] = { a->doc->paths, a->doc->commands };
	g_autoptr(GString) s = g_string_new(NULL);

	g_string_append_printf(s, "%s\n%s\n%s\n%s\n%s\n%s\n", a->id, a->summary, a->source,
			       a->target, a->tclass, a->hosts_text);
	if (d) {
		const char *values[] = { d->comm, d->exe, d->path, d->name, d->scontext,
					 d->tcontext };

		for (guint i = 0; i < G_N_ELEMENTS(values); i++) {
			g_autofree char *v = values[i] ? shown(values[i]) : NULL;

			if (v)
				g_string_append_printf(s, "%s\n", v);
		}
	}
	for (guint i = 0; i < G_N_ELEMENTS(lists); i++) {
		for (guint j = 0; lists[i][j]; j++) {
			g_autofree char *t = shown(lists[i][j]);

			g_string_append_printf(s, "%s\n", t);
		}
	}
	return g_utf8_casefold(s->str, -1);
}

/* the denial's permissions as one clean line, "read write"; owned, "" when none */
static char *perms_text(const AdDenialDoc *d)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; d && d->permissions[i]; i++) {
		g_autofree char *t = shown(d->permissions[i]);

		g_string_append_printf(s, "%s%s", s->len ? " " : "", t);
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* the object of the denial: its path, a full path seen, its name, its port, else NULL */
static char *denial_object(const AdAlertDoc *doc)
{
	const AdDenialDoc *d = doc->denial;

	if (d->path && *d->path)
		return shown(d->path);
	for (guint i = 0; doc->paths[i]; i++) {
		if (doc->paths[i][0] == '/')
			return shown(doc->paths[i]);
	}
	if (d->name && *d->name)
		return shown(d->name);
	if (d->port >= 0)
		/* TRANSLATORS: the object of a denial in the alert list: a port number */
		return g_strdup_printf(_("port %" PRId64), d->port);
	return NULL;
}

/*
 * The list's line: what tells one alert from the next comes first, the
 * program, the permissions and the object ("httpd: read /etc/shadow
 * (file)"), where every summary would start "SELinux is preventing".
 * The program is the record's comm (the sender's domain for a USER_AVC,
 * which an object manager writes about someone else), else the source type.
 */
static char *make_headline(AdAlertItem *a)
{
	const AdDenialDoc *d = a->doc->denial;
	g_autofree char *comm = NULL, *exe = NULL, *object = NULL;
	const char *who = NULL;

	if (!d)
		return g_strdup(a->summary);
	if (!d->type || !g_str_has_prefix(d->type, "USER_")) {
		comm = d->comm ? shown(d->comm) : NULL;
		exe = d->exe ? shown(d->exe) : NULL;
		who = comm && *comm ? comm : exe && *exe ? exe : NULL;
	}
	if (!who)
		who = *a->source ? a->source : "?";
	object = denial_object(a->doc);
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
	g_autoptr(GError) doc_error = NULL;
	const AdDenialDoc *d;
	json_tokener *tok;
	json_object *o;
	enum json_tokener_error jerr;

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
	/* the one reader of alert JSON; it references the object */
	a->doc = ad_alert_doc_new(o, &doc_error);
	json_object_put(o);
	if (!a->doc) {
		g_set_error_literal(error, AD_ALERT_ITEM_ERROR, 0, doc_error->message);
		return NULL;
	}
	d = a->doc->denial;
	a->id = shown(a->doc->id);
	a->level = a->doc->level;
	a->summary = shown(a->doc->summary);
	a->source = d && d->stype ? shown(d->stype) : g_strdup("");
	a->target = d && d->ttype ? shown(d->ttype) : g_strdup("");
	a->tclass = d && d->tclass ? shown(d->tclass) : g_strdup("");
	a->perms = perms_text(d);
	a->count = a->doc->count;
	a->first_seen = a->doc->first_seen;
	a->last_seen = a->doc->last_seen ? a->doc->last_seen : a->first_seen;
	a->hosts = clean_hosts(a->doc);
	a->hosts_text = g_strjoinv(", ", a->hosts);
	a->headline = make_headline(a);
	a->ignored = a->doc->ignored;
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
const AdOccurrences *ad_alert_item_get_occurrences(AdAlertItem *a)
{
	return a->doc->occurrences;
}

const char *const *ad_alert_item_get_hosts(AdAlertItem *a) { return (const char *const *)a->hosts; }
const char *ad_alert_item_get_hosts_text(AdAlertItem *a) { return a->hosts_text; }
gboolean ad_alert_item_get_ignored(AdAlertItem *a) { return a->ignored; }
const AdAlertDoc *ad_alert_item_get_doc(AdAlertItem *a) { return a->doc; }
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
static char *suggestion_shell(const AdSuggestionDoc *s)
{
	g_autoptr(GString) out = NULL;

	if (s->shell || !s->commands)
		return shown(s->shell);
	out = g_string_new(NULL);
	for (guint i = 0; i < s->commands->len; i++) {
		const AdCommandDoc *c = g_ptr_array_index(s->commands, i);
		g_autofree char *line = NULL, *clean = NULL;

		if (!c->argv)
			continue;
		line = ad_shell_join((const char *const *)c->argv);
		clean = shown(line);
		g_string_append_printf(out, "%s%s", out->len ? "\n" : "", clean);
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/* the proof in words, cleaned for display; NULL when there is none */
static char *suggestion_proof(const AdSuggestionDoc *s)
{
	g_autofree char *text = ad_suggestion_proof_text_json(s->json);

	return text ? shown(text) : NULL;
}

/* a string of the document made safe to show, NULL when absent */
static char *shown_or_null(const char *s)
{
	return s ? shown(s) : NULL;
}

/* the views of the document's suggestions or notes, in order */
static GPtrArray *get_views(GPtrArray *docs)
{
	GPtrArray *ret = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_view_free);

	for (guint i = 0; i < docs->len; i++) {
		const AdSuggestionDoc *s = g_ptr_array_index(docs, i);
		AdSuggestionView *v;

		if (s->not_object)
			continue;
		v = g_new0(AdSuggestionView, 1);
		v->plugin = shown_or_null(s->plugin);
		v->kind = shown_or_null(s->kind);
		v->confidence = s->confidence;
		v->if_text = shown_or_null(s->if_text);
		v->then_text = shown_or_null(s->then_text);
		v->shell = suggestion_shell(s);
		v->proof = suggestion_proof(s);
		v->verified = s->verified;
		g_ptr_array_add(ret, v);
	}
	return ret;
}

GPtrArray *ad_alert_item_get_suggestions(AdAlertItem *a)
{
	return get_views(a->doc->suggestions);
}

GPtrArray *ad_alert_item_get_notes(AdAlertItem *a)
{
	return get_views(a->doc->notes);
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
	const AdDenialDoc *d = a->doc->denial;
	g_autofree char *reason = NULL, *detail = NULL, *constraint = NULL;
	gboolean detail_says_why;
	AdReason r;

	if (!d)
		return g_strdup(_("The alert holds no denial to explain."));
	reason = shown_or_null(d->reason);
	detail = shown_or_null(d->detail);
	detail_says_why = detail && *detail && reason &&
			  (g_str_equal(reason, "allowed") || g_str_equal(reason, "dontaudit"));
	/* as `why` says it: a boolean to turn off is not "switched off by a boolean" */
	if (!ad_reason_from_name(reason, &r))
		g_string_append(s, _("The reason for this denial is not known."));
	else if (!detail_says_why && ad_denial_json_reason_text(d->json))
		g_string_append(s, ad_denial_json_reason_text(d->json));
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
	constraint = shown_or_null(d->constraint);
	if (constraint && *constraint && !suggestions_say(a, constraint))
		g_string_append_printf(s, "\n%s %s", _("Constraint:"), constraint);
	/* the alert's occurrences in both modes when counted, else its latest denial's */
	if (a->doc->has_modes) {
		guint64 count = ad_alert_item_get_count(a);
		guint64 blocked = a->doc->blocked, logged = a->doc->logged_only;

		if (blocked && logged) {
			g_autofree char *text = ad_permissive_text(count, blocked, logged);

			/* TRANSLATORS: then "no: 2 blocked, 1 only logged (permissive)" */
			g_string_append_printf(s, "\n%s %s", _("Permissive:"), text);
		} else if (!blocked && logged && logged == count)
			g_string_append_printf(s, "\n%s", _("Nothing was blocked: SELinux was "
							    "permissive for this access and only "
							    "logged it."));
	} else if (d->permissive) {
		g_string_append_printf(s, "\n%s", _("Nothing was blocked: SELinux was permissive "
						    "for this access and only logged it."));
	}
	if (d->suspect)
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
