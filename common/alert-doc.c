// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The alert document (alert-doc.h): the key names, the level names, the
 * alert-id check, the context-type parser, and the one reader of an
 * alert's JSON.  The text is untrusted: every member is checked for its
 * type, a member of the wrong type is taken as absent, and no string holds
 * a NUL or bytes that are not UTF-8.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "alert-doc.h"
#include "escape.h"
#include "msg.h"

G_DEFINE_QUARK(ad-alert-doc-error-quark, ad_alert_doc_error)

/* ------------------------------------------------------------ small words */

static const char *const level_names[] = { "green", "yellow", "red" };

const char *ad_level_name(AdLevel l)
{
	return (guint)l < G_N_ELEMENTS(level_names) ? level_names[l] : "yellow";
}

gboolean ad_level_from_name(const char *name, AdLevel *ret)
{
	for (guint i = 0; i < G_N_ELEMENTS(level_names); i++) {
		if (g_strcmp0(name, level_names[i]) == 0) {
			*ret = i;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean ad_levels_parse(char **args, guint *ret)
{
	*ret = 0;
	for (guint i = 0; args && args[i]; i++) {
		g_auto(GStrv) parts = g_strsplit(args[i], ",", -1);

		for (guint j = 0; parts[j]; j++) {
			AdLevel l;

			g_strstrip(parts[j]);
			if (strcmp(parts[j], "all") == 0)
				*ret |= AD_LEVELS_ALL;
			else if (ad_level_from_name(parts[j], &l))
				*ret |= 1u << l;
			else
				return FALSE;
		}
	}
	return TRUE;
}

gboolean ad_alert_id_is_valid(const char *id)
{
	if (!id)
		return FALSE;
	for (int i = 0; i < 16; i++)
		if (!g_ascii_isdigit(id[i]) && !(id[i] >= 'a' && id[i] <= 'f'))
			return FALSE;
	return id[16] == '\0';
}

const char *ad_context_type_span(const char *context, gsize *ret_len)
{
	const char *p, *q;

	if (!context)
		return NULL;
	p = strchr(context, ':');
	if (!p || !(p = strchr(p + 1, ':')))
		return NULL;
	p++;
	q = strchr(p, ':');
	*ret_len = q ? (gsize)(q - p) : strlen(p);
	return p;
}

char *ad_context_type(const char *context)
{
	gsize len;
	const char *p = ad_context_type_span(context, &len);

	return p ? g_strndup(p, len) : NULL;
}

/*
 * @s made safe to show: each line kept when clean, else escaped
 * (\xHH, \u{HHHH}); newlines stay.  Owned; "" for NULL.
 */
char *ad_clean_text(const char *s)
{
	g_autoptr(GString) out = NULL;
	const char *p = s, *nl;

	if (!s)
		return g_strdup("");
	if (ad_bytes_are_clean(s, strlen(s)))
		return g_strdup(s);
	out = g_string_new(NULL);
	do {
		g_autofree char *line = NULL;

		nl = strchr(p, '\n');
		line = ad_escape_bytes(p, nl ? (gsize)(nl - p) : strlen(p));
		g_string_append(out, line);
		if (nl)
			g_string_append_c(out, '\n');
		p = nl ? nl + 1 : NULL;
	} while (p);
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/* ------------------------------------------------------------ typed members */

/* adds @s to @b and frees it (g_strv_builder_take() is GLib 2.80) */
static void builder_take(GStrvBuilder *b, char *s)
{
	g_strv_builder_add(b, s);
	g_free(s);
}

/* the member @key of @o when @o is an object and the member has @type, else NULL */
static json_object *member(json_object *o, const char *key, json_type type)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

/* a JSON string as a C string: NULL when not a string, or holding a NUL or bytes not UTF-8 */
static char *string_of(json_object *v)
{
	const char *s;
	int len;

	if (!v || !json_object_is_type(v, json_type_string))
		return NULL;
	s = json_object_get_string(v);
	len = json_object_get_string_len(v);
	if (len < 0 || !ad_utf8_valid(s, len))
		return NULL;
	return g_strdup(s);
}

static char *text(json_object *o, const char *key)
{
	return string_of(member(o, key, json_type_string));
}

/* a number member, or @def when absent or not a number */
static double number(json_object *o, const char *key, double def)
{
	json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return def;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return def;
	return json_object_get_double(v);
}

/* a count: an integer member (0 when negative), a number truncated into range, else 0 */
static guint64 count_of(json_object *o, const char *key)
{
	json_object *v = member(o, key, json_type_int);
	double d;

	if (v)
		return json_object_get_int64(v) > 0 ? json_object_get_uint64(v) : 0;
	d = number(o, key, 0);
	if (!(d > 0))
		return 0;
	return d >= 18446744073709551615.0 ? G_MAXUINT64 : (guint64)d;
}

/* an integer member, or -1 when absent or not an integer */
static gint64 integer(json_object *o, const char *key)
{
	json_object *v = member(o, key, json_type_int);

	return v ? json_object_get_int64(v) : -1;
}

static gboolean flag(json_object *o, const char *key)
{
	json_object *v = member(o, key, json_type_boolean);

	return v && json_object_get_boolean(v);
}

/* the string members of the array member @key; never NULL; empty strings kept when @empty */
static GStrv strings(json_object *o, const char *key, gboolean empty)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();
	json_object *arr = member(o, key, json_type_array);

	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		char *s = string_of(json_object_array_get_idx(arr, i));

		if (s && (empty || *s))
			builder_take(b, s);
		else
			g_free(s);
	}
	return g_strv_builder_end(b);
}

/* ------------------------------------------------------------ commands */

char *ad_unhex(const char *hex)
{
	gsize len = strlen(hex);
	char *out;

	if (len % 2)
		return NULL;
	out = g_malloc(len / 2 + 1);
	for (gsize i = 0; i < len / 2; i++) {
		int hi = g_ascii_xdigit_value(hex[2 * i]), lo = g_ascii_xdigit_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			g_free(out);
			return NULL;
		}
		out[i] = (char)(hi << 4 | lo);
	}
	out[len / 2] = '\0';
	return out;
}

static void command_free(gpointer p)
{
	AdCommandDoc *c = p;

	g_strfreev(c->argv);
	g_strfreev(c->exact);
	g_free(c);
}

/*
 * One command: its argument vector, every argument a string without NUL
 * (NULL otherwise), and, when @hex is an array as long, the exact bytes
 * of each argument decoded from it (the JSON form where a hex string does
 * not decode).
 */
static AdCommandDoc *command_of(json_object *argv, json_object *hex)
{
	AdCommandDoc *c = g_new0(AdCommandDoc, 1);
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();
	size_t n;

	if (!json_object_is_type(argv, json_type_array))
		return c;
	n = json_object_array_length(argv);
	for (size_t i = 0; i < n; i++) {
		char *s = string_of(json_object_array_get_idx(argv, i));

		if (!s)
			return c;
		builder_take(b, s);
	}
	c->argv = g_strv_builder_end(b);
	c->has_hex = hex != NULL;
	if (hex && json_object_is_type(hex, json_type_array) && json_object_array_length(hex) == n) {
		g_autoptr(GStrvBuilder) e = g_strv_builder_new();

		for (size_t i = 0; i < n; i++) {
			json_object *h = json_object_array_get_idx(hex, i);
			char *exact = json_object_is_type(h, json_type_string)
					      ? ad_unhex(json_object_get_string(h)) : NULL;

			builder_take(e, exact ? exact : g_strdup(c->argv[i]));
		}
		c->exact = g_strv_builder_end(e);
	}
	return c;
}

static void commands_of(AdSuggestionDoc *s, json_object *o)
{
	json_object *cmds = member(o, AD_KEY_COMMANDS, json_type_array);
	json_object *hex = member(o, AD_KEY_COMMANDS_HEX, json_type_array);
	json_object *v = NULL;

	s->inexact = json_object_is_type(o, json_type_object) &&
		     json_object_object_get_ex(o, AD_KEY_COMMANDS_HEX, NULL);
	/* "commands" that are not a list: nothing of them may run */
	s->commands_malformed = !cmds && json_object_is_type(o, json_type_object) &&
				json_object_object_get_ex(o, AD_KEY_COMMANDS, &v) && v;
	if (!cmds)
		return;
	s->commands = g_ptr_array_new_with_free_func(command_free);
	for (size_t i = 0; i < json_object_array_length(cmds); i++) {
		AdCommandDoc *c = command_of(json_object_array_get_idx(cmds, i),
					     hex ? json_object_array_get_idx(hex, i) : NULL);

		s->commands_malformed |= !c->argv;
		g_ptr_array_add(s->commands, c);
	}
}

/*
 * A text in the reader's language: @msg_key rendered (msg.h) when it is a
 * message, else @key as the writer rendered it; NULL when neither
 */
static char *localized(json_object *o, const char *key, const char *msg_key)
{
	json_object *m = NULL;
	char *t = NULL;

	if (json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, msg_key, &m))
		t = ad_msg_render_json(m);
	return t ? t : text(o, key);
}

/* ------------------------------------------------------------ suggestions */

static void suggestion_free(gpointer p)
{
	AdSuggestionDoc *s = p;

	g_free(s->plugin);
	g_free(s->kind);
	g_free(s->if_text);
	g_free(s->then_text);
	g_free(s->shell);
	if (s->commands)
		g_ptr_array_unref(s->commands);
	g_free(s->still_denied);
	g_free(s->example);
	g_free(s->generic_type);
	g_free(s->apply);
	g_free(s->apply_reason);
	g_free(s);
}

static AdSuggestionDoc *suggestion_of(json_object *o)
{
	AdSuggestionDoc *s = g_new0(AdSuggestionDoc, 1);
	g_autofree char *level = text(o, AD_KEY_LEVEL);
	json_object *v = NULL, *scope, *acc, *dom, *ex;

	s->json = o;
	s->not_object = !json_object_is_type(o, json_type_object);
	s->plugin = text(o, AD_KEY_PLUGIN);
	s->kind = text(o, AD_KEY_KIND);
	if (!level || !ad_level_from_name(level, &s->level))
		s->level = AD_LEVEL_YELLOW;
	s->confidence = CLAMP(number(o, AD_KEY_CONFIDENCE, 0), 0.0, 1.0);
	s->if_text = localized(o, AD_KEY_IF, AD_KEY_IF_MSG);
	s->then_text = localized(o, AD_KEY_THEN, AD_KEY_THEN_MSG);
	s->shell = text(o, AD_KEY_SHELL);
	commands_of(s, o);
	/* a proof that is there but not a boolean is no proof: not proved */
	s->verified = -1;
	if (!s->not_object && json_object_object_get_ex(o, AD_KEY_VERIFIED, &v) && v)
		s->verified = json_object_is_type(v, json_type_boolean) &&
			      json_object_get_boolean(v) ? 1 : 0;
	s->still_denied = localized(o, AD_KEY_STILL_DENIED, AD_KEY_STILL_DENIED_MSG);
	scope = member(o, AD_KEY_SCOPE, json_type_object);
	acc = member(scope, AD_KEY_ACCESSES, json_type_int);
	dom = member(scope, AD_KEY_DOMAINS, json_type_int);
	ex = member(scope, AD_KEY_EXAMPLES, json_type_array);
	s->accesses = acc ? MAX(json_object_get_int64(acc), 0) : -1;
	s->domains = dom ? json_object_get_int64(dom) : 0;
	if (ex && json_object_array_length(ex))
		s->example = string_of(json_object_array_get_idx(ex, 0));
	s->generic_type = text(scope, AD_KEY_GENERIC_TYPE);
	acc = member(scope, AD_KEY_TYPE_PATHS, json_type_int);
	s->type_paths = acc ? json_object_get_int64(acc) : -1;
	s->has_apply = !s->not_object && json_object_object_get_ex(o, AD_KEY_APPLY, NULL);
	s->apply = text(o, AD_KEY_APPLY);
	s->apply_reason = text(o, AD_KEY_APPLY_REASON);
	return s;
}

/* the objects of the array member @key as AdSuggestionDoc; never NULL */
static GPtrArray *suggestions_of(json_object *o, const char *key)
{
	GPtrArray *ret = g_ptr_array_new_with_free_func(suggestion_free);
	json_object *arr = member(o, key, json_type_array);

	for (size_t i = 0; arr && i < json_object_array_length(arr); i++)
		g_ptr_array_add(ret, suggestion_of(json_object_array_get_idx(arr, i)));
	return ret;
}

const AdSuggestionDoc *ad_alert_doc_suggestion(const AdAlertDoc *doc, guint index)
{
	return doc && index < doc->suggestions->len ? g_ptr_array_index(doc->suggestions, index)
						    : NULL;
}

/* ------------------------------------------------------------ the alert */

static void denial_free(AdDenialDoc *d)
{
	if (!d)
		return;
	g_free(d->type);
	g_free(d->scontext);
	g_free(d->tcontext);
	g_free(d->stype);
	g_free(d->ttype);
	g_free(d->tclass);
	g_strfreev(d->permissions);
	g_free(d->comm);
	g_free(d->exe);
	g_free(d->path);
	g_free(d->path_exact);
	g_free(d->name);
	g_free(d->reason);
	g_free(d->detail);
	g_free(d->constraint);
	g_free(d->suspect_reason);
	g_free(d->cmdline);
	g_free(d->syscall);
	g_free(d->file);
	g_free(d);
}

static AdDenialDoc *denial_of(json_object *o)
{
	g_autofree char *path_hex = text(o, AD_KEY_PATH_HEX);
	AdDenialDoc *d;

	if (!o)
		return NULL;
	d = g_new0(AdDenialDoc, 1);
	d->json = o;
	d->type = text(o, AD_KEY_TYPE);
	d->scontext = text(o, AD_KEY_SCONTEXT);
	d->tcontext = text(o, AD_KEY_TCONTEXT);
	d->stype = ad_context_type(d->scontext);
	d->ttype = ad_context_type(d->tcontext);
	d->tclass = text(o, AD_KEY_TCLASS);
	d->permissions = strings(o, AD_KEY_PERMISSIONS, TRUE);
	d->has_permissions = member(o, AD_KEY_PERMISSIONS, json_type_array) != NULL;
	d->comm = text(o, AD_KEY_COMM);
	d->exe = text(o, AD_KEY_EXE);
	d->path = text(o, AD_KEY_PATH);
	d->path_exact = path_hex ? ad_unhex(path_hex) : g_strdup(d->path);
	d->name = text(o, AD_KEY_NAME);
	d->reason = text(o, AD_KEY_REASON);
	d->detail = text(o, AD_KEY_DETAIL);
	d->constraint = text(o, AD_KEY_CONSTRAINT);
	d->permissive = flag(o, AD_KEY_PERMISSIVE);
	d->has_permissive = member(o, AD_KEY_PERMISSIVE, json_type_boolean) != NULL;
	d->suspect = flag(o, AD_KEY_SUSPECT);
	d->suspect_reason = text(o, AD_KEY_SUSPECT_REASON);
	d->cmdline = text(o, AD_KEY_CMDLINE);
	d->pid = integer(o, AD_KEY_PID);
	d->syscall = text(o, AD_KEY_SYSCALL);
	d->port = integer(o, AD_KEY_PORT);
	d->file = text(o, AD_KEY_FILE);
	d->line = integer(o, AD_KEY_LINE);
	return d;
}

static void host_count_free(AdHostCountDoc *h)
{
	g_free(h->host);
	g_free(h);
}

/* "host_counts": {"web1": 3, "": 1} in order; a host name not UTF-8 is left out */
static GPtrArray *host_counts_of(json_object *o)
{
	json_object *counts = member(o, AD_KEY_HOST_COUNTS, json_type_object);
	GPtrArray *ret;

	if (!counts)
		return NULL;
	ret = g_ptr_array_new_with_free_func((GDestroyNotify)host_count_free);
	json_object_object_foreach(counts, host, v) {
		AdHostCountDoc *h;

		(void)v;
		if (!g_utf8_validate(host, -1, NULL))
			continue;
		h = g_new0(AdHostCountDoc, 1);
		h->host = g_strdup(host);
		h->count = count_of(counts, host);
		g_ptr_array_add(ret, h);
	}
	return ret;
}

void ad_alert_doc_free(AdAlertDoc *doc)
{
	if (!doc)
		return;
	json_object_put(doc->json);
	g_free(doc->id);
	g_free(doc->level_name);
	g_free(doc->summary);
	g_free(doc->filter);
	g_free(doc->reported_by);
	g_strfreev(doc->hosts);
	denial_free(doc->denial);
	if (doc->suggestions)
		g_ptr_array_unref(doc->suggestions);
	if (doc->notes)
		g_ptr_array_unref(doc->notes);
	g_strfreev(doc->records);
	g_strfreev(doc->paths);
	g_strfreev(doc->commands);
	if (doc->host_counts)
		g_ptr_array_unref(doc->host_counts);
	ad_occurrences_free(doc->occurrences);
	g_free(doc);
}

AdAlertDoc *ad_alert_doc_new(json_object *o, GError **error)
{
	g_autoptr(AdAlertDoc) doc = NULL;

	if (!o || !json_object_is_type(o, json_type_object)) {
		g_set_error(error, AD_ALERT_DOC_ERROR, 0, _("the alert has no id"));
		return NULL;
	}
	doc = g_new0(AdAlertDoc, 1);
	doc->json = json_object_get(o);
	doc->id = text(o, AD_KEY_ID);
	if (!doc->id || !*doc->id) {
		g_set_error(error, AD_ALERT_DOC_ERROR, 0, _("the alert has no id"));
		return NULL;
	}
	doc->level_name = text(o, AD_KEY_LEVEL);
	doc->has_level = json_object_object_get_ex(o, AD_KEY_LEVEL, NULL);
	if (!doc->level_name || !ad_level_from_name(doc->level_name, &doc->level))
		doc->level = AD_LEVEL_YELLOW;
	doc->summary = localized(o, AD_KEY_SUMMARY, AD_KEY_SUMMARY_MSG);
	if (!doc->summary)
		doc->summary = g_strdup("");
	doc->count = count_of(o, AD_KEY_COUNT);
	doc->has_modes = json_object_object_get_ex(o, AD_KEY_BLOCKED, NULL) &&
			 json_object_object_get_ex(o, AD_KEY_LOGGED_ONLY, NULL);
	doc->blocked = count_of(o, AD_KEY_BLOCKED);
	doc->logged_only = count_of(o, AD_KEY_LOGGED_ONLY);
	doc->first_seen = number(o, AD_KEY_FIRST_SEEN, 0);
	doc->last_seen = number(o, AD_KEY_LAST_SEEN, 0);
	doc->ignored = flag(o, AD_KEY_IGNORED);
	doc->filter = text(o, AD_KEY_FILTER);
	doc->reported_by = text(o, AD_KEY_REPORTED_BY);
	doc->hosts = strings(o, AD_KEY_HOSTS, FALSE);
	doc->denial = denial_of(member(o, AD_KEY_DENIAL, json_type_object));
	doc->has_suggestions = member(o, AD_KEY_SUGGESTIONS, json_type_array) != NULL;
	doc->suggestions = suggestions_of(o, AD_KEY_SUGGESTIONS);
	doc->notes = suggestions_of(o, AD_KEY_NOTES);
	doc->records = strings(o, AD_KEY_RECORDS, TRUE);
	doc->paths = strings(o, AD_KEY_PATHS, TRUE);
	doc->commands = strings(o, AD_KEY_COMMANDS, TRUE);
	doc->host_counts = host_counts_of(o);
	doc->fix_applied = number(o, AD_KEY_FIX_APPLIED, 0);
	doc->occurrences = ad_occurrences_from_json(member(o, AD_KEY_TIMELINE, json_type_object));
	return g_steal_pointer(&doc);
}

/* ------------------------------------------------------------ built in memory */

char *ad_alert_doc_text(const char *s)
{
	return s && ad_utf8_valid(s, -1) ? g_strdup(s) : NULL;
}

AdAlertDoc *ad_alert_doc_new_empty(void)
{
	AdAlertDoc *doc = g_new0(AdAlertDoc, 1);

	doc->level = AD_LEVEL_YELLOW;
	doc->summary = g_strdup("");
	doc->hosts = g_new0(char *, 1);
	doc->suggestions = g_ptr_array_new_with_free_func(suggestion_free);
	doc->notes = g_ptr_array_new_with_free_func(suggestion_free);
	doc->records = g_new0(char *, 1);
	doc->paths = g_new0(char *, 1);
	doc->commands = g_new0(char *, 1);
	return doc;
}

AdDenialDoc *ad_denial_doc_new(void)
{
	AdDenialDoc *d = g_new0(AdDenialDoc, 1);

	d->permissions = g_new0(char *, 1);
	d->pid = -1;
	d->port = -1;
	d->line = -1;
	return d;
}

AdSuggestionDoc *ad_alert_doc_add_suggestion(AdAlertDoc *doc, gboolean note)
{
	AdSuggestionDoc *s = g_new0(AdSuggestionDoc, 1);

	s->level = AD_LEVEL_YELLOW;
	s->verified = -1;
	s->accesses = -1;
	s->type_paths = -1;
	/* a suggestion's JSON always has its "commands" array, a note's none */
	if (!note)
		s->commands = g_ptr_array_new_with_free_func(command_free);
	g_ptr_array_add(note ? doc->notes : doc->suggestions, s);
	return s;
}

void ad_suggestion_doc_add_command(AdSuggestionDoc *s, GStrv argv, GStrv exact)
{
	AdCommandDoc *c = g_new0(AdCommandDoc, 1);

	if (!s->commands)
		s->commands = g_ptr_array_new_with_free_func(command_free);
	c->argv = argv;
	c->exact = exact;
	c->has_hex = exact != NULL;
	g_ptr_array_add(s->commands, c);
}

void ad_alert_doc_add_host_count(AdAlertDoc *doc, const char *host, guint64 count)
{
	AdHostCountDoc *h = g_new0(AdHostCountDoc, 1);

	if (!doc->host_counts)
		doc->host_counts = g_ptr_array_new_with_free_func(
			(GDestroyNotify)host_count_free);
	h->host = g_strdup(host);
	h->count = count;
	g_ptr_array_add(doc->host_counts, h);
}

AdAlertDoc *ad_alert_doc_parse(const char *text_, GError **error)
{
	json_tokener *tok;
	json_object *o;
	enum json_tokener_error jerr;
	AdAlertDoc *doc;

	if (!text_ || !ad_utf8_valid(text_, -1)) {
		g_set_error(error, AD_ALERT_DOC_ERROR, 0, _("the alert is not UTF-8 text"));
		return NULL;
	}
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, text_, (int)MIN(strlen(text_), (size_t)G_MAXINT));
	jerr = json_tokener_get_error(tok);
	json_tokener_free(tok);
	if (!o || jerr != json_tokener_success) {
		g_set_error(error, AD_ALERT_DOC_ERROR, 0, _("the alert is not valid JSON: %s"),
			    json_tokener_error_desc(jerr == json_tokener_success
							    ? json_tokener_error_parse_eof : jerr));
		json_object_put(o);
		return NULL;
	}
	doc = ad_alert_doc_new(o, error);
	json_object_put(o);
	return doc;
}

/* ------------------------------------------------------------ texts in the reader's language */

/* @key of @o rendered from @msg_key, when that is a message; @msg_key removed with @strip */
static void localize_member(json_object *o, const char *key, const char *msg_key,
			    gboolean strip)
{
	json_object *j = NULL;
	g_autofree char *t = NULL;

	if (!json_object_object_get_ex(o, msg_key, &j))
		return;
	t = ad_msg_render_json(j);
	if (t)
		json_object_object_add(o, key, json_object_new_string(t));
	if (strip)
		json_object_object_del(o, msg_key);
}

/* the "if", "then" and "still_denied" of each object in @arr */
static void localize_list(json_object *arr, gboolean strip)
{
	if (!arr || !json_object_is_type(arr, json_type_array))
		return;
	for (gsize i = 0; i < json_object_array_length(arr); i++) {
		json_object *s = json_object_array_get_idx(arr, i);

		if (!s || !json_object_is_type(s, json_type_object))
			continue;
		localize_member(s, AD_KEY_IF, AD_KEY_IF_MSG, strip);
		localize_member(s, AD_KEY_THEN, AD_KEY_THEN_MSG, strip);
		localize_member(s, AD_KEY_STILL_DENIED, AD_KEY_STILL_DENIED_MSG, strip);
	}
}

void ad_alert_json_localize(json_object *alert, gboolean strip)
{
	if (!alert || !json_object_is_type(alert, json_type_object))
		return;
	localize_member(alert, AD_KEY_SUMMARY, AD_KEY_SUMMARY_MSG, strip);
	localize_list(json_object_object_get(alert, AD_KEY_SUGGESTIONS), strip);
	localize_list(json_object_object_get(alert, AD_KEY_NOTES), strip);
}

/* ------------------------------------------------------------ the text for a message */

static char *json_text(json_object *o)
{
	const char *t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE);

	/* D-Bus strings must be UTF-8; the store's texts are, but never trust that */
	return g_utf8_validate(t, -1, NULL) ? g_strdup(t) : g_utf8_make_valid(t, -1);
}

/* the bytes an array entry takes in the JSON text: itself and a comma */
static gsize entry_size(json_object *v)
{
	return strlen(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE)) + 1;
}

/* drops entries from the end of array @key (and of @twin beside it) until @excess is met */
static void trim_list(json_object *o, const char *key, const char *twin, gsize *excess)
{
	json_object *arr = NULL, *tw = NULL;
	g_autofree char *note = NULL;
	size_t n, dropped = 0;

	if (!json_object_object_get_ex(o, key, &arr) || !json_object_is_type(arr, json_type_array))
		return;
	if (twin && (!json_object_object_get_ex(o, twin, &tw) ||
		     !json_object_is_type(tw, json_type_array)))
		tw = NULL;
	n = json_object_array_length(arr);
	while (n && *excess) {
		gsize sz = entry_size(json_object_array_get_idx(arr, n - 1));

		if (tw && json_object_array_length(tw) == n) {
			sz += entry_size(json_object_array_get_idx(tw, n - 1));
			json_object_array_del_idx(tw, n - 1, 1);
		}
		json_object_array_del_idx(arr, n - 1, 1);
		n--;
		dropped++;
		*excess -= MIN(*excess, sz);
	}
	if (!dropped)
		return;
	note = g_strdup_printf("%s_left_out", key);
	json_object_object_add(o, note, json_object_new_uint64(dropped));
}

char *ad_alert_json_text(json_object *o, gsize max)
{
	static const char *const lists[][2] = {
		{ AD_KEY_RECORDS, NULL }, { AD_KEY_PATHS, NULL }, { AD_KEY_COMMANDS, NULL },
		{ AD_KEY_HOSTS, AD_KEY_HOSTS_HEX },
	};
	char *text = json_text(o);
	gsize len = strlen(text), excess;

	if (len <= max)
		return text;
	g_free(text);
	/* a little more than the excess: each "<key>_left_out" adds some 30 bytes */
	excess = len - max + 128;
	for (guint i = 0; i < G_N_ELEMENTS(lists) && excess; i++)
		trim_list(o, lists[i][0], lists[i][1], &excess);
	text = json_text(o);
	if (strlen(text) <= max)
		return text;
	g_free(text);
	return NULL;
}
