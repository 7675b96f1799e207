/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "alert-doc.h"

G_BEGIN_DECLS

/* one alert waiting for, or shown in, the notification */
typedef struct {
	char *id;
	char *level;
	char *summary;
	char *stype;		/* source type, or NULL */
	gboolean fixable;	/* avcdoctor-fixit may apply its first suggestion */
	char *digest;		/* when fixable: ad_fix_digest() of its commands */
	char *commands;		/* when fixable: its commands, shell-quoted, one a line */
	char *fix_words;	/* its first suggestion in words ("restore the label of
				 * /srv/x"), or NULL */
	char *proof;		/* that suggestion checked against the policy, or NULL */
	guint64 count;		/* occurrences when it was read (0 = unknown) */
	guint64 denials;	/* occurrences the user was not told of yet */
	double last_seen;	/* seconds since the epoch, 0 = unknown */
} AdNote;

void ad_note_free(gpointer p);
/* a copy of @n (a GCopyFunc: @data unused) */
gpointer ad_note_copy(gconstpointer n, gpointer data);
/*
 * the body of the notification of @n alone: summary, proof of its first
 * fix and, when it is fixable, the commands "Apply the fix" runs as root
 * and what the fix says of itself; markup
 */
char *ad_note_body(const AdNote *n);
/* TRUE for an alert id as the daemon makes them: 16 lower-case hex digits */
gboolean ad_note_valid_id(const char *id);
/* "system_u:system_r:httpd_t:s0" -> "httpd_t"; NULL unless [A-Za-z0-9_]{1,64} */
char *ad_note_context_type(const char *ctx);
int ad_note_level_rank(const char *level);
/* one alert of ListAlerts/GetAlert; NULL when not an alert, or ignored (@ret_ignored) */
AdNote *ad_note_from_json(const char *text, gboolean *ret_ignored);
/*
 * A merged notification of @notes (oldest first): the title counts the
 * alerts and their denials ("1,619 SELinux alerts, 3,314 denials"), the
 * body gives the summaries of up to three alerts, else names the source
 * domains with the most denials, and lists the red alerts apart;
 * markup-escaped body.
 */
void ad_notes_describe(GPtrArray *notes, char **ret_title, char **ret_body);
/*
 * The first fix of an alert (a suggestion's JSON) in words, as a
 * notification names it: "restore the label of /srv/www/index.html",
 * "turn on the boolean httpd_can_network_connect", "label port 81/tcp as
 * http_port_t"; else the first clause of what the suggestion says.  Clean
 * text (record text escaped), not markup; NULL when it says nothing.
 */
char *ad_fix_words(const AdSuggestionDoc *suggestion);
/*
 * The ids of @notes that "Don't notify again" on their merged notification
 * silences: the alerts that are not red (a red one needs its own decision).
 * NULL-terminated, the strings borrowed from @notes.
 */
const char **ad_notes_ignorable(GPtrArray *notes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdNote, ad_note_free)

G_END_DECLS
