/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Escaping and shell quoting.
 *
 * ad_escape_bytes(): the result is valid UTF-8 without a control character
 * (C0, DEL, C1, bidirectional overrides and isolates), and it decodes back
 * to exactly the input with escape.h's rules (\\, \n, \t, \r, \xHH,
 * \u{HHHH}): nothing is lost or truncated.  Clean bytes without a
 * backslash are kept as they are.
 *
 * ad_shell_quote() / ad_shell_join(): the input, split at NUL bytes, is an
 * argument vector.  A small POSIX sh word parser (below: single quotes,
 * backslash, double quotes, nothing is expanded: any unquoted character
 * the shell would treat specially is a failure) reads the command line
 * back and must give the arguments back exactly.  tests/unit/test-escape.c
 * checks the same against a real /bin/sh for chosen strings.
 */
#include <string.h>

#include "escape.h"
#include "fuzz-common.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* escape.h's escapes undone; NULL when the text holds an escape it does not define */
static GByteArray *unescape(const char *s)
{
	GByteArray *out = g_byte_array_new();

	while (*s) {
		if (*s != '\\') {
			g_byte_array_append(out, (const guint8 *)s, 1);
			s++;
			continue;
		}
		s++;
		if (*s == '\\' || *s == 'n' || *s == 't' || *s == 'r') {
			guint8 b = *s == '\\' ? '\\' : *s == 'n' ? '\n' : *s == 't' ? '\t' : '\r';

			g_byte_array_append(out, &b, 1);
			s++;
		} else if (*s == 'x' && hexval(s[1]) >= 0 && hexval(s[2]) >= 0) {
			guint8 b = hexval(s[1]) * 16 + hexval(s[2]);

			g_byte_array_append(out, &b, 1);
			s += 3;
		} else if (s[0] == 'u' && s[1] == '{') {
			gunichar c = 0;
			char buf[6];
			int n = 0, len;

			s += 2;
			while (hexval(*s) >= 0 && n < 8) {
				c = c * 16 + hexval(*s++);
				n++;
			}
			if (*s != '}' || n == 0)
				goto bad;
			s++;
			len = g_unichar_to_utf8(c, buf);
			g_byte_array_append(out, (const guint8 *)buf, len);
		} else {
			goto bad;
		}
	}
	return out;
bad:
	g_byte_array_unref(out);
	return NULL;
}

static void check_escape(const uint8_t *data, size_t size)
{
	g_autofree char *e = ad_escape_bytes(data, size);
	size_t len = strlen(e);
	GByteArray *back;

	if (!g_utf8_validate(e, len, NULL))
		ad_fuzz_fail("ad_escape_bytes gives valid UTF-8", e, len);
	for (const char *p = e; *p; p = g_utf8_next_char(p))
		if (ad_unichar_is_hidden(g_utf8_get_char(p)))
			ad_fuzz_fail("ad_escape_bytes leaves no control character", e, len);
	back = unescape(e);
	if (!back)
		ad_fuzz_fail("ad_escape_bytes uses only escape.h's escapes", e, len);
	if (back->len != size || (size && memcmp(back->data, data, size) != 0))
		ad_fuzz_fail("ad_escape_bytes decodes back to its input", e, len);
	g_byte_array_unref(back);
	if (size && ad_bytes_are_clean(data, size) && !memchr(data, '\\', size) &&
	    (len != size || memcmp(e, data, size) != 0))
		ad_fuzz_fail("clean bytes are shown as they are", e, len);
}

/*
 * Reads one POSIX sh word starting at *pp; appends it to @words.  Stops at
 * an unquoted blank or the end.  FALSE when the text holds anything the
 * shell would expand or treat as an operator outside quotes.
 */
static gboolean sh_word(const char **pp, GPtrArray *words)
{
	const char *p = *pp;
	GString *w = g_string_new(NULL);
	gboolean first = TRUE;

	while (*p && *p != ' ') {
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end)
				goto bad;
			g_string_append_len(w, p + 1, end - p - 1);
			p = end + 1;
		} else if (*p == '\\') {
			if (!p[1])
				goto bad;
			if (p[1] != '\n')	/* \newline is a line continuation */
				g_string_append_c(w, p[1]);
			p += 2;
		} else if (*p == '"') {
			p++;
			while (*p != '"') {
				if (!*p || *p == '$' || *p == '`')
					goto bad;	/* unterminated, or expanded */
				if (*p == '\\' && strchr("$`\"\\\n", p[1])) {
					if (p[1] != '\n')
						g_string_append_c(w, p[1]);
					p += 2;
					continue;
				}
				g_string_append_c(w, *p++);
			}
			p++;
		} else if (g_ascii_isalnum(*p) || strchr("_@%+=:,./-", *p) ||
			   (!first && *p == '~')) {
			g_string_append_c(w, *p++);
		} else {
			goto bad;	/* $ ` ; | & < > ( ) * ? [ # ~ blank, control... */
		}
		first = FALSE;
	}
	*pp = p;
	g_ptr_array_add(words, g_string_free(w, FALSE));
	return TRUE;
bad:
	g_string_free(w, TRUE);
	return FALSE;
}

/* the arguments of a simple command line: words separated by single spaces */
static GPtrArray *sh_parse(const char *line)
{
	GPtrArray *words = g_ptr_array_new_with_free_func(g_free);
	const char *p = line;

	while (*p) {
		if (!sh_word(&p, words)) {
			g_ptr_array_unref(words);
			return NULL;
		}
		if (*p == ' ')
			p++;
	}
	return words;
}

static void check_quote(const uint8_t *data, size_t size)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	size_t start = 0;

	/* a C string cannot hold NUL: the input's NULs separate the arguments */
	for (size_t i = 0; i <= size; i++) {
		if (i == size || data[i] == 0) {
			g_ptr_array_add(argv, g_strndup((const char *)data + start, i - start));
			start = i + 1;
		}
	}

	for (guint i = 0; i < argv->len; i++) {
		const char *arg = argv->pdata[i];
		g_autofree char *q = ad_shell_quote(arg);
		GPtrArray *words = sh_parse(q);

		if (!words || words->len != 1 || strcmp(words->pdata[0], arg) != 0)
			ad_fuzz_fail("ad_shell_quote gives back its argument in sh",
				     q, strlen(q));
		g_ptr_array_unref(words);
	}

	g_ptr_array_add(argv, NULL);
	g_autofree char *line = ad_shell_join((const char *const *)argv->pdata);
	GPtrArray *words = sh_parse(line);
	gboolean same = words && words->len == argv->len - 1;

	for (guint i = 0; same && i < words->len; i++)
		same = strcmp(words->pdata[i], argv->pdata[i]) == 0;
	if (!same)
		ad_fuzz_fail("ad_shell_join gives back its argv in sh", line, strlen(line));
	g_ptr_array_unref(words);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	ad_fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_escape(data, size);
	check_quote(data, size);
	return 0;
}
