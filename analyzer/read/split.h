// SPDX-License-Identifier: GPL-2.0-or-later
/* Where lines and records begin and end in audit text (split.c). */
#ifndef AD_READ_SPLIT_H
#define AD_READ_SPLIT_H

#include <glib.h>

#include "header.h"

/* what ad_split_scan_line() saw in a line */
enum {
	SEEN_NUL = 1,		/* a NUL byte */
	SEEN_GS = 2,		/* a \x1d (log_format=ENRICHED) */
	SEEN_UNKNOWN = 4,	/* not scanned: look for all */
	SEEN_ESC = 8,		/* an ESC: terminal colours in pasted text */
};

char *ad_split_scan_line(char *p, const char *end, guint *seen);
char *ad_split_enriched_separator(char *line, gsize len);
const char *ad_split_find_header(const char *p, const char *end, AdHeader *h);
const char *ad_split_next(const char *s, const char *end, gboolean *refuse);

#endif
