/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

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
	char *fix_text;		/* when fixable: what the fix says it does, or NULL */
	char *proof;		/* its first suggestion checked against the policy, or NULL */
	guint64 count;		/* occurrences when it was read (0 = unknown) */
} AdNote;

void ad_note_free(gpointer p);
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
void ad_notes_describe(GPtrArray *notes, char **ret_title, char **ret_body);
/*
 * The ids of @notes that "Don't notify again" on their merged notification
 * silences: the alerts that are not red (a red one needs its own decision).
 * NULL-terminated, the strings borrowed from @notes.
 */
const char **ad_notes_ignorable(GPtrArray *notes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdNote, ad_note_free)

G_END_DECLS
