/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

G_BEGIN_DECLS

/*
 * Numbers and columns the same in every locale: what a program writes for
 * other programs never takes LC_NUMERIC's decimal comma, and what lines up
 * in a terminal is counted in columns, not bytes.
 */

/* a time (seconds since the epoch) as a JSON number to the millisecond,
 * "1700000001.100" under any locale; NULL (JSON null) when @t <= 0 */
json_object *ad_json_time(double t);
/* the columns a terminal gives UTF-8 text @s: wide characters two,
 * combining marks and other zero-width characters none */
gsize ad_display_width(const char *s);
/* appends @s, then spaces up to @width columns (none when @s is as wide) */
void ad_string_append_padded(GString *out, const char *s, gsize width);
/* appends spaces up to @width columns with @s, then @s: aligned to the right */
void ad_string_append_right(GString *out, const char *s, gsize width);

/* the width every program's --help keeps to */
#define AD_HELP_WIDTH 80
/*
 * @text (GLib's help) with every line wider than @width columns wrapped
 * at spaces: an option's description continues under its column, other
 * lines under their own indentation.  Owned.
 */
char *ad_help_wrap(const char *text, guint width);

G_END_DECLS
