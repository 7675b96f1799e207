/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

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
