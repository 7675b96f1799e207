/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdarg.h>

#include <glib.h>
#include <json-c/json.h>

G_BEGIN_DECLS

/*
 * A text that is translated when it is read, not when it is written: the
 * dispatcher stores an alert's summary and its fixes' texts as messages
 * (their msgids with typed arguments), and every reader renders them in
 * its own language with ad_msg_render().  A message is a row of pieces,
 * concatenated:
 *
 *   - a text in no language (a value, a separator, a text only the writer
 *     could word): shown as it is;
 *   - a msgid, a printf format marked N_() (or a singular and plural pair
 *     with its count), with its arguments: strings (values, escaped by the
 *     writer as the text always was), integers, doubles, or messages of
 *     their own (a translated word inside a sentence);
 *   - a rule's text (a rule file's If= or Then=): its template, translated as the rule
 *     book translates it, with the values of its {placeholders}.
 *
 * As JSON (docs/ARCHITECTURE.md, "Texts in the reader's language"): an
 * array of pieces, each a string (a text), {"msgid", "plural", "n",
 * "args"} or {"template", "values"}.  A message read from JSON is
 * untrusted: its formats are never given to printf, only to a formatter
 * that takes each conversion's argument of the type it names; a msgid
 * must read each of its arguments (a message argument once), its
 * translation is used only when it reads none but those, each as the
 * same conversion; and a message that does not fit is refused (the
 * reader then shows the text the writer rendered beside it).
 */
typedef struct _AdMsg AdMsg;

AdMsg *ad_msg_new(void);
void ad_msg_free(AdMsg *m);
AdMsg *ad_msg_copy(const AdMsg *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdMsg, ad_msg_free)

/*
 * Appends @msgid, a format marked N_(), and its arguments, each taken as
 * the type of its conversion says (%s a string, %d, %u and friends with
 * their length modifiers an integer, %f and friends a double).  A format
 * with a conversion the formatter does not know (%p, %n, a '*' width) is
 * appended rendered, in the writer's language.
 */
void ad_msg_add(AdMsg *m, const char *msgid, ...) G_GNUC_PRINTF(2, 3);
void ad_msg_addv(AdMsg *m, const char *msgid, va_list ap) G_GNUC_PRINTF(2, 0);
/* the same with a plural form: ngettext(@msgid, @plural, @n) */
void ad_msg_add_plural(AdMsg *m, const char *msgid, const char *plural, gulong n, ...)
	G_GNUC_PRINTF(3, 5);
/* appends @text as it is, in no language (NULL: nothing) */
void ad_msg_add_text(AdMsg *m, const char *text);
/* appends the pieces of @other */
void ad_msg_add_msg(AdMsg *m, const AdMsg *other);
/*
 * Argument @index (from 0) of the last piece added, a string, becomes
 * the message @arg (taken): a word translated itself.  @arg NULL: the
 * string is a msgid, translated when the message is rendered.  @arg must
 * render as the string did (an empty string keeps a place for it): one
 * that says something else is a critical, a plugin's mistake.  TRUE when
 * @m surely renders as it did before (in the calling thread's locale): a
 * text rendered from it need not be rendered anew.  FALSE when it may not
 * (a msgid translated, a message in a place kept).
 */
gboolean ad_msg_set_arg(AdMsg *m, guint index, AdMsg *arg);
/*
 * Appends a rule's text: @tmpl is the template as the rule file writes it
 * (its msgid), @names and @values (@n of each) its placeholders' values.
 */
void ad_msg_add_template(AdMsg *m, const char *tmpl, const char *const *names,
			 const char *const *values, guint n);
gboolean ad_msg_is_empty(const AdMsg *m);
/*
 * Appends the template @tmpl (a rule's text) with its placeholders filled:
 * "{name}" is the value of @names[i] in @values (nothing when it has none
 * or the name is not there), "{{" and "}}" are braces
 */
void ad_template_expand(GString *out, const char *tmpl, const char *const *names,
			const char *const *values, guint n);

/*
 * The text in the language of the calling thread's locale (gettext
 * follows uselocale()).  Owned; NULL when a message read from JSON does
 * not fit its arguments.
 */
char *ad_msg_render(const AdMsg *m);

json_object *ad_msg_to_json(const AdMsg *m);
/* a message from untrusted JSON; NULL when it is not one */
AdMsg *ad_msg_from_json(json_object *j);
/* ad_msg_render() of ad_msg_from_json(): NULL when absent or not a message */
char *ad_msg_render_json(json_object *j);

G_END_DECLS
