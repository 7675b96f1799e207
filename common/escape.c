// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Escaping of attacker-controlled text for terminals, logs and shells.
 */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "escape.h"

/*
 * Code points that render as nothing (or as something else) without being
 * format characters: Unicode's default-ignorable ones of other categories
 * (the combining grapheme joiner, Hangul fillers, Khmer inherent vowels,
 * Mongolian and standard variation selectors) and the blank Braille pattern.
 */
static const struct {
	gunichar first, last;
} blank_ranges[] = {
	{ 0x034f, 0x034f },	/* combining grapheme joiner */
	{ 0x115f, 0x1160 },	/* Hangul choseong and jungseong fillers */
	{ 0x17b4, 0x17b5 },	/* Khmer inherent vowels */
	{ 0x180b, 0x180f },	/* Mongolian free variation selectors, vowel separator */
	{ 0x2800, 0x2800 },	/* Braille pattern blank */
	{ 0x3164, 0x3164 },	/* Hangul filler */
	{ 0xfe00, 0xfe0f },	/* variation selectors */
	{ 0xffa0, 0xffa0 },	/* halfwidth Hangul filler */
	{ 0xe0000, 0xe0fff },	/* tags, variation selectors supplement */
};

gboolean ad_unichar_is_hidden(gunichar c)
{
	if (c < 0xa0)
		return c < 0x20 || c >= 0x7f;	/* C0, DEL, C1 */
	switch (g_unichar_type(c)) {
	case G_UNICODE_CONTROL:
	case G_UNICODE_FORMAT:			/* bidi marks and controls, U+00AD, U+061C, tags */
	case G_UNICODE_UNASSIGNED:
	case G_UNICODE_PRIVATE_USE:
	case G_UNICODE_SURROGATE:
	case G_UNICODE_LINE_SEPARATOR:
	case G_UNICODE_PARAGRAPH_SEPARATOR:
	case G_UNICODE_SPACE_SEPARATOR:		/* no-break and other spaces look like ' ' */
		return TRUE;
	case G_UNICODE_OTHER_LETTER:
	case G_UNICODE_NON_SPACING_MARK:
	case G_UNICODE_OTHER_SYMBOL:
		for (guint i = 0; i < G_N_ELEMENTS(blank_ranges); i++)
			if (c >= blank_ranges[i].first && c <= blank_ranges[i].last)
				return TRUE;
		return FALSE;
	default:
		return FALSE;
	}
}

/*
 * Eight bytes at a time up to the first that is not ASCII or is a NUL
 * (a word has such a byte when its high bit is set or when subtracting
 * one from it borrows); g_utf8_validate() judges the rest, from a
 * character's start
 */
gboolean ad_utf8_valid(const char *s, gssize len)
{
	const guint64 ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	gsize n = len < 0 ? strlen(s) : (gsize)len, i = 0;

	for (; i + 8 <= n; i += 8) {
		guint64 w;

		memcpy(&w, s + i, sizeof(w));
		if ((w | ((w - ones) & ~w)) & highs)
			break;
	}
	return g_utf8_validate(s + i, n - i, NULL);
}

gboolean ad_bytes_are_clean(const void *data, gsize len)
{
	const char *s = data, *end, *p;

	/* empty GBytes may hold a NULL pointer: no arithmetic on it */
	if (!len)
		return TRUE;
	end = s + len;

	/* printable ASCII, nearly every text, byte by byte; from the first other byte on, decoded */
	for (p = s; p < end && (guchar)*p >= 0x20 && (guchar)*p < 0x7f; p++)
		;
	if (p == end)
		return TRUE;
	s = p;
	if (!g_utf8_validate(s, end - s, &p) || p != end)
		return FALSE;
	for (p = s; p < end; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (ad_unichar_is_hidden(c))
			return FALSE;
	}
	return TRUE;
}

/* whether @c is shown as it is: printable ASCII but the backslash */
static inline gboolean is_plain(guchar c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/* how many bytes from @s on are plain; 16 at a time where SSE2 is there */
static gsize plain_run(const guchar *s, const guchar *end)
{
	const guchar *p = s;

#ifdef __SSE2__
	const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
	const __m128i backslash = _mm_set1_epi8('\\');

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		/* signed: below 0x20 are the C0 controls and every byte from 0x80 */
		__m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, space),
					   _mm_or_si128(_mm_cmpeq_epi8(v, del),
							_mm_cmpeq_epi8(v, backslash)));
		int mask = _mm_movemask_epi8(bad);

		if (mask)
			return (p - s) + __builtin_ctz(mask);
		p += 16;
	}
#endif
	while (p < end && is_plain(*p))
		p++;
	return p - s;
}

void ad_escape_append(GString *out, const void *data, gsize len)
{
	const guchar *s = data, *end;

	if (!len)
		return;
	end = s + len;
	while (s < end) {
		const guchar *run = s;

		/* plain bytes are copied a run at a time */
		s += plain_run(s, end);
		if (s > run)
			ad_string_append_len(out, (const char *)run, s - run);
		if (s == end)
			break;
		if (*s < 0x80) {
			switch (*s) {
			case '\\': ad_string_append(out, "\\\\"); break;
			case '\n': ad_string_append(out, "\\n"); break;
			case '\t': ad_string_append(out, "\\t"); break;
			case '\r': ad_string_append(out, "\\r"); break;
			default:
				/* C0 controls and DEL: printable ASCII went by runs above */
				g_string_append_printf(out, "\\x%02x", *s);
			}
			s++;
			continue;
		}
		gunichar c = g_utf8_get_char_validated((const char *)s, end - s);

		if (c == (gunichar)-1 || c == (gunichar)-2) {
			g_string_append_printf(out, "\\x%02x", *s);
			s++;
			continue;
		}
		const guchar *next = (const guchar *)g_utf8_next_char(s);

		if (ad_unichar_is_hidden(c))
			g_string_append_printf(out, "\\u{%04x}", c);
		else
			ad_string_append_len(out, (const char *)s, next - s);
		s = next;
	}
}

char *ad_escape_bytes(const void *data, gsize len)
{
	GString *out = g_string_sized_new(len + 8);

	ad_escape_append(out, data, len);
	return g_string_free(out, FALSE);
}

char *ad_escape_str(const char *s)
{
	return s ? ad_escape_bytes(s, strlen(s)) : NULL;
}

char *ad_escape_gbytes(GBytes *b)
{
	gsize len;
	const void *data;

	if (!b)
		return NULL;
	data = g_bytes_get_data(b, &len);
	return ad_escape_bytes(data, len);
}

gboolean ad_text_has_hidden(const char *s)
{
	return s && !ad_bytes_are_clean(s, strlen(s));
}

char *ad_text_shown(const char *s)
{
	if (!s)
		return g_strdup("");
	return ad_bytes_are_clean(s, strlen(s)) ? g_strdup(s) : ad_escape_str(s);
}

static gboolean is_shell_safe(char c)
{
	return g_ascii_isalnum(c) || strchr("_@%+=:,./-", c) != NULL;
}

char *ad_shell_quote(const char *arg)
{
	GString *out;

	if (*arg) {
		const char *p = arg;

		while (*p && is_shell_safe(*p))
			p++;
		if (!*p)
			return g_strdup(arg);
	}
	out = g_string_new("'");
	for (const char *p = arg; *p; p++) {
		if (*p == '\'')
			ad_string_append(out, "'\\''");
		else
			g_string_append_c(out, *p);
	}
	g_string_append_c(out, '\'');
	return g_string_free(out, FALSE);
}

char *ad_shell_join(const char *const *argv)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; argv[i]; i++) {
		g_autofree char *q = ad_shell_quote(argv[i]);

		if (i)
			g_string_append_c(out, ' ');
		ad_string_append(out, q);
	}
	return g_string_free(out, FALSE);
}

char *ad_bytes_hex(const void *data, gsize len)
{
	static const char digits[] = "0123456789abcdef";
	const guchar *s = data;
	char *hex = g_malloc(len * 2 + 1);

	for (gsize i = 0; i < len; i++) {
		hex[2 * i] = digits[s[i] >> 4];
		hex[2 * i + 1] = digits[s[i] & 15];
	}
	hex[len * 2] = '\0';
	return hex;
}
