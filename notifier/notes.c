// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The notifier's alerts (AdNote): read from the daemon's JSON, described
 * in a coalesced notification.  No libnotify and no bus here, so that
 * tests/unit/test-notes.c checks them directly.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-c/json.h>

#include "alert-doc.h"
#include "escape.h"
#include "fixit-client.h"
#include "notes.h"
#include "proof-text.h"

#define AD_MAX_TYPES 3		/* source types named in a coalesced body */
#define AD_MAX_LINES 3		/* red summaries listed in a coalesced body */

void ad_note_free(gpointer p)
{
	AdNote *n = p;

	if (!n)
		return;
	g_free(n->id);
	g_free(n->level);
	g_free(n->summary);
	g_free(n->stype);
	g_free(n->proof);
	g_free(n->digest);
	g_free(n->commands);
	g_free(n->fix_words);
	g_free(n);
}

gpointer ad_note_copy(gconstpointer p, gpointer data)
{
	const AdNote *n = p;
	AdNote *c = g_new(AdNote, 1);

	(void)data;
	*c = *n;
	c->id = g_strdup(n->id);
	c->level = g_strdup(n->level);
	c->summary = g_strdup(n->summary);
	c->stype = g_strdup(n->stype);
	c->digest = g_strdup(n->digest);
	c->commands = g_strdup(n->commands);
	c->fix_words = g_strdup(n->fix_words);
	c->proof = g_strdup(n->proof);
	return c;
}

/* TRUE for an alert id as the daemon makes them: 16 lower-case hex digits */
gboolean ad_note_valid_id(const char *id)
{
	return ad_alert_id_is_valid(id);
}

/*
 * The type of a security context ("system_u:system_r:httpd_t:s0" ->
 * "httpd_t"), newly allocated, or NULL when there is none or it holds
 * anything but [A-Za-z0-9_] (it goes into the plain-text title).
 */
char *ad_note_context_type(const char *ctx)
{
	gsize len = 0;
	const char *type = ad_context_type_span(ctx, &len);

	if (!type || !len || len > 64)
		return NULL;
	for (gsize i = 0; i < len; i++)
		if (!g_ascii_isalnum(type[i]) && type[i] != '_')
			return NULL;
	return g_strndup(type, len);
}

/* red 2, yellow (and anything unknown) 1, green 0 */
int ad_note_level_rank(const char *level)
{
	if (g_strcmp0(level, "red") == 0)
		return 2;
	if (g_strcmp0(level, "green") == 0)
		return 0;
	return 1;
}

/*
 * An AdNote from one JSON alert of ListAlerts/GetAlert; NULL when the text
 * is not an alert or when the alert is ignored by this user.
 * @ret_ignored, when not NULL, says which.
 */
AdNote *ad_note_from_json(const char *text, gboolean *ret_ignored)
{
	g_autoptr(AdAlertDoc) doc = ad_alert_doc_parse(text, NULL);
	const AdSuggestionDoc *first;
	g_autoptr(GPtrArray) cmds = NULL;
	AdNote *n;

	if (ret_ignored)
		*ret_ignored = FALSE;
	if (doc && doc->ignored) {
		if (ret_ignored)
			*ret_ignored = TRUE;
		return NULL;
	}
	if (!doc || !ad_alert_id_is_valid(doc->id))
		return NULL;
	n = g_new0(AdNote, 1);
	n->id = g_strdup(doc->id);
	n->level = g_strdup(doc->level_name ? doc->level_name : "yellow");
	n->summary = g_strdup(doc->summary);
	n->count = doc->count;
	if (doc->denial)
		n->stype = ad_note_context_type(doc->denial->scontext);
	/* the one rule the fix helper applies; the digest binds what is shown */
	if (ad_fix_one_click(doc, 0, &cmds, NULL)) {
		GString *shown = g_string_new(NULL);

		for (guint i = 0; i < cmds->len; i++) {
			g_autofree char *line = ad_shell_join(g_ptr_array_index(cmds, i));

			g_string_append_printf(shown, "%s%s", i ? "\n" : "", line);
		}
		n->fixable = TRUE;
		n->digest = ad_fix_digest(cmds);
		n->commands = g_string_free(shown, FALSE);
	}
	/* the fix named and its proof: of the same suggestion, the first */
	if ((first = ad_alert_doc_suggestion(doc, 0))) {
		n->fix_words = ad_fix_words(first);
		n->proof = ad_proof_text_doc(first);
	}
	n->last_seen = doc->last_seen;
	return n;
}

/* the value of option @opt ("-t") in @args, or NULL */
static const char *option_value(const char *const *args, const char *opt)
{
	for (guint i = 1; args[i] && args[i + 1]; i++)
		if (strcmp(args[i], opt) == 0)
			return args[i + 1];
	return NULL;
}

/* the operands of @args: what follows "--", else the last argument; shown escaped */
static char *operands(const char *const *args)
{
	g_autoptr(GString) s = g_string_new(NULL);
	guint n = g_strv_length((char **)args);
	gboolean after = FALSE;

	for (guint i = 1; i < n; i++) {
		const char *a = args[i];

		if (after) {
			g_autofree char *shown = ad_text_shown(a);

			g_string_append_printf(s, "%s%s", s->len ? ", " : "", shown);
		}
		after = after || strcmp(a, "--") == 0;
	}
	if (!s->len && n > 1)
		return ad_text_shown(args[n - 1]);
	return s->len ? g_string_free(g_steal_pointer(&s), FALSE) : NULL;
}

/* "turn on the boolean x", "turn off the booleans x, y", "set the booleans x=1, y=0" */
static char *boolean_words(const char *const *args)
{
	g_autoptr(GString) names = g_string_new(NULL), pairs = g_string_new(NULL);
	guint on = 0, off = 0;

	for (guint i = 1; args[i]; i++) {
		const char *a = args[i];
		const char *eq = strchr(a, '=');
		g_autofree char *name = NULL, *shown = NULL;
		gboolean value;

		if (!eq)
			continue;
		name = g_strndup(a, (gsize)(eq - a));
		shown = ad_text_shown(name);
		value = strcmp(eq + 1, "1") == 0 || g_ascii_strcasecmp(eq + 1, "on") == 0 ||
			g_ascii_strcasecmp(eq + 1, "true") == 0;
		on += value;
		off += !value;
		g_string_append_printf(names, "%s%s", names->len ? ", " : "", shown);
		g_string_append_printf(pairs, "%s%s=%d", pairs->len ? ", " : "", shown, value);
	}
	if (!on && !off)
		return NULL;
	if (on && off)
		return g_strdup_printf(_("set the booleans %s"), pairs->str);
	/* TRANSLATORS: a fix in words: "turn on the boolean httpd_can_network_connect" */
	return g_strdup_printf(on ? ngettext("turn on the boolean %s", "turn on the booleans %s", on)
				  : ngettext("turn off the boolean %s", "turn off the booleans %s",
					     off), names->str);
}

/* the first clause of the suggestion's then-text, "Then " left out; NULL when none */
static char *then_clause(const AdSuggestionDoc *s)
{
	const char *then = s->then_text;
	g_autofree char *clause = NULL;
	gsize len;

	if (!then || !*then)
		return NULL;
	if (g_str_has_prefix(then, "Then "))
		then += 5;
	len = strcspn(then, ":.;");
	clause = g_strndup(then, len);
	return *clause ? ad_text_shown(clause) : NULL;
}

char *ad_fix_words(const AdSuggestionDoc *s)
{
	const AdCommandDoc *cmd;
	const char *const *first;
	const char *prog;

	if (!s || s->not_object)
		return NULL;
	if (g_strcmp0(s->kind, "module") == 0)
		return g_strdup(_("load a local policy module that allows it"));
	if (!s->commands || !s->commands->len ||
	    !(cmd = g_ptr_array_index(s->commands, 0)) || !cmd->argv || !cmd->argv[0])
		return then_clause(s);
	first = (const char *const *)cmd->argv;
	prog = first[0];
	if (g_str_has_suffix(prog, "restorecon")) {
		g_autofree char *paths = operands(first);
		gboolean recursive = g_strv_contains(first, "-R");

		if (paths)
			/* TRANSLATORS: a fix in words: "restore the label of /var/www/index.html" */
			return g_strdup_printf(recursive ? _("restore the labels of %s and what is "
							     "below it")
							 : _("restore the label of %s"), paths);
	} else if (g_str_has_suffix(prog, "setsebool")) {
		char *words = boolean_words(first);

		if (words)
			return words;
	} else if (g_str_has_suffix(prog, "semanage") && first[1] && option_value(first, "-t")) {
		const char *what = first[1];
		g_autofree char *type = ad_text_shown(option_value(first, "-t"));
		g_autofree char *target = operands(first);

		if (strcmp(what, "port") == 0 && option_value(first, "-p") && target) {
			g_autofree char *proto = ad_text_shown(option_value(first, "-p"));

			/* TRANSLATORS: a fix in words: "label port 81/tcp as http_port_t" */
			return g_strdup_printf(_("label port %s/%s as %s"), target, proto, type);
		}
		if (strcmp(what, "fcontext") == 0 && target)
			/* TRANSLATORS: a fix in words: "label /srv/www(/.*)? as httpd_sys_content_t" */
			return g_strdup_printf(_("label %s as %s and restore the labels"), target,
					       type);
	}
	return then_clause(s);
}

/*
 * What the notification of one alert says: its summary, its first fix in
 * words with that fix's proof (checked against the policy, what else it
 * opens), and the commands "Apply the fix" runs as root; markup-escaped
 */
char *ad_note_body(const AdNote *n)
{
	GString *b = g_string_new(NULL);
	g_autofree char *summary = g_markup_escape_text(n->summary, -1);

	g_string_append(b, summary);
	if (n->fix_words) {
		/* TRANSLATORS: the first fix in words, in a notification */
		g_autofree char *line = g_strdup_printf(_("Fix: %s."), n->fix_words);
		g_autofree char *text = g_markup_escape_text(line, -1);

		g_string_append_printf(b, "\n%s", text);
	}
	if (n->proof) {
		g_autofree char *proof = g_markup_escape_text(n->proof, -1);

		g_string_append_printf(b, "\n%s", proof);
	}
	/* what runs as root is shown before anything runs: escaped, one command a line */
	if (n->fixable && n->commands) {
		g_auto(GStrv) lines = g_strsplit(n->commands, "\n", -1);

		g_string_append_printf(b, "\n%s", _("\"Apply the fix\" runs as root:"));
		for (guint i = 0; lines[i]; i++) {
			g_autofree char *shown = ad_text_shown(lines[i]);
			g_autofree char *cmd = g_markup_escape_text(shown, -1);

			g_string_append_printf(b, "\n%s", cmd);
		}
	}
	return g_string_free(b, FALSE);
}

/*
 * The red alerts of a merged notification, listed apart (up to
 * AD_MAX_LINES, latest first): "Don't notify again" leaves them alone.
 */
static void describe_red(GPtrArray *notes, GString *b)
{
	guint red = 0, k = 0;

	for (guint i = 0; i < notes->len; i++)
		red += ad_note_level_rank(((AdNote *)g_ptr_array_index(notes, i))->level) == 2;
	if (!red)
		return;
	g_string_append_printf(b, "\n%s", ngettext("Red alert, not silenced by \"Don't notify "
						    "again\":",
						    "Red alerts, not silenced by \"Don't notify "
						    "again\":", red));
	for (guint i = notes->len; i-- > 0 && k < AD_MAX_LINES;) {
		AdNote *a = g_ptr_array_index(notes, i);
		g_autofree char *esc = NULL;

		if (ad_note_level_rank(a->level) != 2)
			continue;
		esc = g_markup_escape_text(a->summary, -1);
		g_string_append_printf(b, "\n%s", esc);
		k++;
	}
	if (red > k) {
		g_string_append_c(b, '\n');
		g_string_append_printf(b, ngettext("and %u more", "and %u more", red - k), red - k);
	}
}

/* a source domain of a merged notification and its denials */
typedef struct {
	const char *stype;
	guint64 denials;
} AdDomainCount;

static int by_denials(gconstpointer a, gconstpointer b)
{
	const AdDomainCount *x = a, *y = b;

	if (x->denials != y->denials)
		return x->denials > y->denials ? -1 : 1;
	return strcmp(x->stype, y->stype);
}

/* the denials a note stands for: those not told yet, at least one */
static guint64 note_denials(const AdNote *a)
{
	return MAX(a->denials, 1);
}

void ad_notes_describe(GPtrArray *notes, char **ret_title, char **ret_body)
{
	g_autoptr(GHashTable) by_type = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GArray) domains = g_array_new(FALSE, FALSE, sizeof(AdDomainCount));
	g_autofree char *n_text = NULL, *d_text = NULL, *alerts = NULL, *denials = NULL;
	GString *b = g_string_new(NULL);
	guint n = notes->len;
	guint64 total = 0;

	for (guint i = 0; i < n; i++) {
		AdNote *a = g_ptr_array_index(notes, i);
		gpointer idx;

		total += note_denials(a);
		if (!a->stype)
			continue;
		if (g_hash_table_lookup_extended(by_type, a->stype, NULL, &idx)) {
			g_array_index(domains, AdDomainCount, GPOINTER_TO_UINT(idx)).denials +=
				note_denials(a);
		} else {
			AdDomainCount c = { a->stype, note_denials(a) };

			g_hash_table_insert(by_type, a->stype, GUINT_TO_POINTER(domains->len));
			g_array_append_val(domains, c);
		}
	}
	g_array_sort(domains, by_denials);
	n_text = ad_count_text(n);
	d_text = ad_count_text((gint64)total);
	/* TRANSLATORS: a merged notification's title starts "1,619 SELinux alerts" */
	alerts = g_strdup_printf(ngettext("%s SELinux alert", "%s SELinux alerts", n), n_text);
	/* TRANSLATORS: ... and ends "3,314 denials" */
	denials = g_strdup_printf(ngettext("%s denial", "%s denials", total), d_text);
	/* TRANSLATORS: a merged notification's title: "1,619 SELinux alerts, 3,314 denials" */
	*ret_title = g_strdup_printf(_("%s, %s"), alerts, denials);
	if (n <= AD_MAX_LINES) {
		/* a few: their summaries, the latest first */
		for (guint i = n; i-- > 0;) {
			AdNote *a = g_ptr_array_index(notes, i);
			g_autofree char *esc = g_markup_escape_text(a->summary, -1);

			g_string_append_printf(b, "%s%s", b->len ? "\n" : "", esc);
		}
	} else if (domains->len) {
		/* TRANSLATORS: then the source domains with the most denials */
		g_string_append(b, _("Most denials:"));
		for (guint j = 0; j < domains->len && j < AD_MAX_TYPES; j++) {
			AdDomainCount *c = &g_array_index(domains, AdDomainCount, j);
			g_autofree char *count = ad_count_text((gint64)c->denials);

			/* TRANSLATORS: a domain and its denials: "httpd_t (1,204)" */
			g_string_append_printf(b, "%s%s (%s)", j ? ", " : " ", c->stype, count);
		}
		if (domains->len > AD_MAX_TYPES) {
			guint more = domains->len - AD_MAX_TYPES;

			g_string_append_printf(b, ngettext(", and %u other domain",
							   ", and %u other domains", more), more);
		}
	}
	describe_red(notes, b);
	*ret_body = g_string_free(b, FALSE);
}

const char **ad_notes_ignorable(GPtrArray *notes)
{
	GPtrArray *ids = g_ptr_array_new();

	for (guint i = 0; i < notes->len; i++) {
		AdNote *a = g_ptr_array_index(notes, i);

		if (ad_note_level_rank(a->level) < 2)
			g_ptr_array_add(ids, a->id);
	}
	g_ptr_array_add(ids, NULL);
	return (const char **)g_ptr_array_free(ids, FALSE);
}
