// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Locale-free numbers for machine-read output, and padding by display
 * width for the columns people read.
 */
#include <string.h>

#include "format.h"

json_object *ad_json_time(double t)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	if (t <= 0)
		return NULL;
	/* g_ascii_formatd: always a '.', whatever LC_NUMERIC says */
	g_ascii_formatd(buf, sizeof(buf), "%.3f", t);
	return json_object_new_double_s(t, buf);
}

/* the columns of one character: 0 for marks and other zero-width ones */
static guint char_width(gunichar c)
{
	if (g_unichar_iszerowidth(c))
		return 0;
	return g_unichar_iswide(c) ? 2 : 1;
}

gsize ad_display_width(const char *s)
{
	gsize w = 0;

	if (!s)
		return 0;
	/* invalid UTF-8 (not shown as such): a column a byte */
	if (!g_utf8_validate(s, -1, NULL))
		return strlen(s);
	for (const char *p = s; *p; p = g_utf8_next_char(p))
		w += char_width(g_utf8_get_char(p));
	return w;
}

void ad_string_append_padded(GString *out, const char *s, gsize width)
{
	gsize w = ad_display_width(s);

	g_string_append(out, s ? s : "");
	for (; w < width; w++)
		g_string_append_c(out, ' ');
}

void ad_string_append_right(GString *out, const char *s, gsize width)
{
	for (gsize w = ad_display_width(s); w < width; w++)
		g_string_append_c(out, ' ');
	g_string_append(out, s ? s : "");
}
