// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Locale-free numbers for machine-read output, and padding by display
 * width for the columns people read (and --help wrapped to them).
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

/*
 * Where an option line's description starts: after "  -x, --long=ARG"
 * and the run of two or more spaces GLib pads it with; 0 when @line is no
 * option line.
 */
static gsize description_column(const char *line)
{
	const char *p;

	if (strncmp(line, "  -", 3) != 0)
		return 0;
	p = strstr(line + 3, "  ");
	if (!p)
		return 0;
	while (*p == ' ')
		p++;
	return *p ? (gsize)(p - line) : 0;
}

/* appends @line wrapped at @width, continuation lines indented by @indent bytes of it */
static void wrap_line(GString *out, const char *line, gsize start, gsize indent, guint width)
{
	g_auto(GStrv) words = g_strsplit(line + start, " ", -1);
	g_autofree char *head = g_strndup(line, start);
	gsize col = ad_display_width(head);
	gboolean first = TRUE;

	g_string_append(out, head);
	for (guint i = 0; words[i]; i++) {
		gsize w = ad_display_width(words[i]);

		if (!*words[i])
			continue;
		if (!first && col + 1 + w > width) {
			g_string_append_c(out, '\n');
			for (col = 0; col < indent; col++)
				g_string_append_c(out, ' ');
			first = TRUE;
		}
		if (!first) {
			g_string_append_c(out, ' ');
			col++;
		}
		g_string_append(out, words[i]);
		col += w;
		first = FALSE;
	}
	g_string_append_c(out, '\n');
}

char *ad_help_wrap(const char *text, guint width)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GString *out = g_string_new(NULL);

	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];
		gsize col, lead = strspn(l, " ");

		if (!lines[i + 1] && !*l)
			break;		/* the text's last newline */
		if (ad_display_width(l) <= width) {
			g_string_append_printf(out, "%s\n", l);
			continue;
		}
		col = description_column(l);
		if (col && col <= width / 2) {
			wrap_line(out, l, col, col, width);
		} else if (col) {
			/* a long option name: its description below it */
			g_autofree char *opt = g_strndup(l, col);

			g_strchomp(opt);
			g_string_append_printf(out, "%s\n", opt);
			g_autofree char *desc = g_strconcat("        ", l + col, NULL);
			wrap_line(out, desc, 8, 8, width);
		} else {
			wrap_line(out, l, lead, lead, width);
		}
	}
	return g_string_free(out, FALSE);
}
