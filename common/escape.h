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
 * Display form of bytes from a record: valid UTF-8 with no control
 * character left.  Printable text is kept; "\\" doubles; C0 controls,
 * DEL, invalid UTF-8 and NUL become \n, \t, \r or \xHH; C1 controls and
 * bidirectional overrides become \u{HHHH}.  Nothing is ever truncated.
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

/* TRUE when the bytes can be shown as they are: valid UTF-8, no NUL, C0, C1 or bidi control */
gboolean ad_bytes_are_clean(const void *data, gsize len);

/*
 * One argument quoted for a POSIX shell: left alone when made only of
 * [A-Za-z0-9_@%+=:,./-] (and not empty), else in single quotes with each
 * ' written as '\''.  Any byte sequence survives: `sh -c` gives it back.
 */
char *ad_shell_quote(const char *arg);
/* an argument vector as one command line, each argument quoted */
char *ad_shell_join(const char *const *argv);

G_END_DECLS
