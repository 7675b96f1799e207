/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/*
 * g_string_append_len() and g_string_append() without a call while @out
 * has room: rendering appends a dozen pieces per denial, and GLib 2.74
 * inlines neither.
 */
static inline void ad_string_append_len(GString *out, const char *s, gsize len)
{
	if (out->len + len < out->allocated_len) {
		memcpy(out->str + out->len, s, len);
		out->len += len;
		out->str[out->len] = '\0';
	} else {
		g_string_append_len(out, s, len);
	}
}

static inline void ad_string_append(GString *out, const char *s)
{
	ad_string_append_len(out, s, strlen(s));
}

/*
 * Display form of bytes from a record: valid UTF-8 with nothing hidden.
 * Printable text is kept; "\\" doubles; C0 controls, DEL, invalid UTF-8
 * and NUL become \n, \t, \r or \xHH; every other code point that
 * ad_unichar_is_hidden() names becomes \u{HHHH}.  Nothing is ever
 * truncated.
 */
char *ad_escape_bytes(const void *data, gsize len);
/* the same, appended to @out */
void ad_escape_append(GString *out, const void *data, gsize len);
char *ad_escape_str(const char *s);
char *ad_escape_gbytes(GBytes *b);
/* a text to show (terminal, log line, D-Bus text): @s as it is when clean, else escaped; "" for NULL; owned */
char *ad_text_shown(const char *s);

/* @len bytes as lowercase hex digits, two a byte: the exact form beside an escaped one */
char *ad_bytes_hex(const void *data, gsize len);

/*
 * Whether code point @c is not shown as it is, by its Unicode category:
 * controls (C0, DEL, C1), format characters (Cf: bidi marks, overrides and
 * isolates, zero-width characters, U+00AD, U+061C, U+180E, U+206A-206F,
 * tags), line and paragraph separators, spaces other than U+0020,
 * private-use, unassigned and surrogate code points, and the blanks of
 * other categories (variation selectors, Hangul fillers such as U+3164,
 * the combining grapheme joiner).  The category is GLib's Unicode data.
 */
gboolean ad_unichar_is_hidden(gunichar c);

/*
 * g_utf8_validate() of @s (@len bytes, or to its NUL when -1), faster on
 * the ASCII that nearly every text is: a NUL within @len bytes is invalid
 */
gboolean ad_utf8_valid(const char *s, gssize len);

/* TRUE when the bytes can be shown as they are: valid UTF-8, no NUL and nothing hidden */
gboolean ad_bytes_are_clean(const void *data, gsize len);

/*
 * TRUE when @s holds something that is not shown as it is (a hidden code
 * point, a control, bytes that are not UTF-8): a command holding one must
 * never be offered to run with one click, since what is seen is not what
 * runs.  FALSE for NULL.
 */
gboolean ad_text_has_hidden(const char *s);

/*
 * One argument quoted for a POSIX shell: left alone when made only of
 * [A-Za-z0-9_@%+=:,./-] (and not empty), else in single quotes with each
 * ' written as '\''.  Any byte sequence survives: `sh -c` gives it back.
 */
char *ad_shell_quote(const char *arg);
/* an argument vector as one command line, each argument quoted */
char *ad_shell_join(const char *const *argv);

G_END_DECLS
