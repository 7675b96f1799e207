// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where lines and records begin and end in audit text: the newline scan
 * over the input, auditd's ENRICHED separator, the first record header of
 * a line and the next place where a line may be cut into two records.
 * None of it keeps state: the reader (reader.c) decides what to do there.
 */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <glib.h>

#include "header.h"
#include "paste.h"
#include "split.h"

/*
 * The \x1d that starts the interpreted fields auditd's ENRICHED format
 * appends, or NULL.  Text a caller hands to the kernel (a USER_AVC
 * message) may hold a \x1d of its own: a separator before the trailing
 * fields libselinux appends would cut them off, leaving fields the caller
 * wrote as the last ones.  auditd writes one separator, last, and only
 * upper-case field names after it: a \x1d followed by any other name is
 * text of the record.
 */
char *ad_split_enriched_separator(char *line, gsize len)
{
	char *gs = memrchr(line, 0x1d, len);
	const char *p, *end = line + len;

	if (!gs)
		return NULL;
	for (p = gs + 1; p < end; p++) {
		const char *name;

		while (p < end && *p == ' ')
			p++;
		name = p;
		while (p < end && ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
				   *p == '_'))
			p++;
		if (p == end)
			break;
		if (*p != '=' || p == name)
			return NULL;
		p++;
		if (p < end && (*p == '"' || *p == '{')) {
			/* a quoted value, or a SADDR={ fam=inet laddr=... } group */
			const char *q = memchr(p + 1, *p == '"' ? '"' : '}', end - p - 1);

			/* auditd closes what it opens: an open one is caller text */
			if (!q)
				return NULL;
			p = q;
		}
		while (p < end && *p != ' ')
			p++;
	}
	return gs;
}

/* whether a word of [@p, @end) but a node= holds a '=' */
static gboolean holds_field(const char *p, const char *end)
{
	const char *eq;

	while ((eq = memchr(p, '=', end - p)) != NULL) {
		const char *w = eq;

		while (w > p && w[-1] != ' ')
			w--;
		if (eq - w < 4 || memcmp(eq - 4, "node", 4) != 0)
			return TRUE;
		p = eq + 1;
	}
	return FALSE;
}

/*
 * Where the record that starts at @s ends on its line, which runs to @end:
 * the next record start (ad_header_next_start()) that is safe to split at,
 * or NULL.  Every record start found begins a record of its own, so that
 * no record takes fields from the next; but only where the start cannot
 * be text of the record before:
 * - kernel text holds no blank and no quote in an unquoted value: every
 *   start there is one;
 * - `ausearch -i` values hold blanks (a path, a command line): a start ends
 *   the record only when the record is a whole denial (its last word
 *   tclass= or permissive=); the next interpreted header is left to
 *   parse_record(), which compares its stamp;
 * - a user-space record's text is the sender's (a dbus member, a command
 *   line): never split; a record start after a quote that may close its
 *   message may be a second record or the sender's text, which cannot be
 *   told apart, and @refuse is set: the line is not read further.
 */
const char *ad_split_next(const char *s, const char *end, gboolean *refuse)
{
	const char *content, *from, *w, *user, *stamp;
	gboolean interpreted, own = TRUE;
	AdJournalStamp js;
	AdStartKind kind;
	AdHeader h;

	*refuse = FALSE;
	content = ad_paste_journal_prefix(s, end, &js);
	if (!content)
		content = s;
	/*
	 * A user-space record's message: its "msg='" comes before any '"'
	 * (pid= uid= ses= subj= are unquoted); in kernel text a quote can only
	 * be inside a "..." value, after which a "msg='" is that value's text.
	 */
	user = memchr(s, '\'', end - s) ? memmem(s, end - s, "msg='", 5) : NULL;
	if (user && memchr(s, '"', user - s))
		user = NULL;
	stamp = memmem(s, end - s, "audit(", 6);
	interpreted = stamp && ad_paste_is_interpreted_stamp(stamp + 6, end);
	/* a quote the sender opens in a user-space record must not hide what follows it */
	for (from = content; (w = ad_header_next_start(from, end, !interpreted && !user, &kind, &h));
	     from = w) {
		if (own) {
			/* what the record's own start may come after: "audit: ", "[ 12.3] ", node= */
			if (!holds_field(content, w) && !ad_paste_find_avc(content, w))
				continue;
			own = FALSE;
		}
		if (kind == AD_START_AVC && !ad_paste_find_avc(s, w))
			continue;	/* the record's own avc text */
		if (user && user < w) {
			if (memchr(user + 5, '\'', w - (user + 5))) {
				*refuse = TRUE;
				return w;
			}
			continue;
		}
		if (interpreted && stamp < w) {
			if (kind == AD_START_HEADER && ad_paste_is_interpreted_stamp(h.stamp, end))
				continue;
			if (!ad_paste_ends_denial(content, w))
				continue;
		}
		return w;
	}
	return NULL;
}

/* the first record header on [@p, @end), after any syslog/journal/dmesg prefix */
const char *ad_split_find_header(const char *p, const char *end, AdHeader *h)
{
	for (const char *q = p; (q = ad_header_find_type_eq(q, end)) != NULL; q++) {
		/* after a space, or an item of a printed list: "['type=...", ", 'type=..." */
		if (q != p && q[-1] != ' ' && !(q[-1] == '\'' && q - p >= 2 && (q[-2] == '[' ||
		    (q - p >= 3 && q[-2] == ' ' && q[-3] == ','))))
			continue;
		if (!ad_header_at(q, end, h))
			continue;
		/* a node= right before belongs to it */
		if (q - p >= 6) {
			const char *n = q - 1;

			while (n > p && n[-1] != ' ')
				n--;
			if (strncmp(n, "node=", 5) == 0)
				return n;
		}
		return q;
	}
	return NULL;
}

/*
 * The first newline from @p on, or NULL when there is none before @end;
 * @seen gets SEEN_NUL, SEEN_GS and SEEN_ESC for the bytes before it.  One pass does
 * what three memchr() calls per line did (newline, NUL, \x1d).
 */
char *ad_split_scan_line(char *p, const char *end, guint *seen)
{
	*seen = 0;
#ifdef __SSE2__
	/* control bytes (< 0x20) are rare but for the newline: stop at each */
	const __m128i top = _mm_set1_epi8(0x1f);

	while (end - p >= 32) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 16));
		guint mask = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(a, top), a)) |
			     (guint)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(b, top), b)) << 16;

		for (; mask; mask &= mask - 1) {
			char *c = p + __builtin_ctz(mask);

			if (*c == '\n')
				return c;
			if (*c == '\0')
				*seen |= SEEN_NUL;
			else if (*c == 0x1d)
				*seen |= SEEN_GS;
			else if (*c == 0x1b)
				*seen |= SEEN_ESC;
		}
		p += 32;
	}
#endif
	for (; p < end; p++) {
		if (*p == '\n')
			return p;
		if (*p == '\0')
			*seen |= SEEN_NUL;
		else if (*p == 0x1d)
			*seen |= SEEN_GS;
		else if (*p == 0x1b)
			*seen |= SEEN_ESC;
	}
	return NULL;
}
