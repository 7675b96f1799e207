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

#define AD_MAX_TYPES 3		/* source types named in a coalesced title */
#define AD_MAX_LINES 3		/* summaries listed in a coalesced body */

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
	g_free(n->fix_text);
	g_free(n);
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
		n->fix_text = g_strdup(ad_alert_doc_suggestion(doc, 0)->then_text);
	}
	if ((first = ad_alert_doc_suggestion(doc, 0)))
		n->proof = ad_proof_text_doc(first);
	return n;
}

/*
 * What the notification of one alert says: its summary, and whether its
 * first fix was checked against the policy and what else it opens, as
 * analyze and the browser say it; markup-escaped
 */
char *ad_note_body(const AdNote *n)
{
	GString *b = g_string_new(NULL);
	g_autofree char *summary = g_markup_escape_text(n->summary, -1);

	g_string_append(b, summary);
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
		if (n->fix_text && *n->fix_text) {
			g_autofree char *clean = ad_text_shown(n->fix_text);
			g_autofree char *text = g_markup_escape_text(clean, -1);

			g_string_append_printf(b, "\n%s", text);
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
	if (red > k)
		g_string_append_printf(b, "\n%s", _("Run \"avcdoctor list\" to see them all."));
}

/*
 * What a coalesced notification says about @notes (AdNote, oldest first):
 * the title names the count and up to AD_MAX_TYPES source types; the body
 * lists up to AD_MAX_LINES summaries, latest first, markup-escaped (the
 * body is the one place a notification server reads markup).
 */
void ad_notes_describe(GPtrArray *notes, char **ret_title, char **ret_body)
{
	g_autoptr(GPtrArray) types = g_ptr_array_new();
	GString *t = g_string_new(NULL);
	GString *b = g_string_new(NULL);
	guint n = notes->len;

	for (guint i = n; i-- > 0;) {
		AdNote *a = g_ptr_array_index(notes, i);
		gboolean seen = FALSE;

		if (!a->stype)
			continue;
		for (guint j = 0; j < types->len && !seen; j++)
			seen = strcmp(g_ptr_array_index(types, j), a->stype) == 0;
		if (!seen)
			g_ptr_array_add(types, a->stype);
	}
	g_string_printf(t, ngettext("%u new SELinux denial", "%u new SELinux denials", n), n);
	for (guint j = 0; j < types->len && j < AD_MAX_TYPES; j++)
		g_string_append_printf(t, "%s%s", j ? ", " : ": ",
				       (const char *)g_ptr_array_index(types, j));
	if (types->len > AD_MAX_TYPES)
		g_string_append(t, ", ...");
	/* the latest first: they are what the user has not seen */
	for (guint i = n, k = 0; i-- > 0 && k < AD_MAX_LINES; k++) {
		AdNote *a = g_ptr_array_index(notes, i);
		g_autofree char *esc = g_markup_escape_text(a->summary, -1);

		g_string_append_printf(b, "%s%s", k ? "\n" : "", esc);
	}
	if (n > AD_MAX_LINES)
		g_string_append_printf(b, "\n%s", _("Run \"avcdoctor list\" to see them all."));
	describe_red(notes, b);
	*ret_title = g_string_free(t, FALSE);
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
