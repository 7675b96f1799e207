/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/*
 * A GHashFunc for strings, like g_str_hash() but eight bytes a step: the
 * keys of the verdict cache, the alert set and the rule set are a hundred
 * bytes and more, looked up once per denial, and g_str_hash() takes one
 * byte a step.  Bytes are read with memcpy(), so keys need no alignment.
 */
static inline guint ad_str_hash(gconstpointer key)
{
	const char *s = key;
	gsize len = strlen(s);
	guint64 h = (guint64)len * 0x9e3779b97f4a7c15ull;
	guint64 w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0x94d049bb133111ebull;
	h ^= h >> 29;
	return (guint)(h ^ (h >> 32));
}

G_END_DECLS
