// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Finding record headers ("type=NAME msg=audit(") in a line of audit text,
 * and where the next record starts when several run together: the
 * reader's scanners, apart from its state.
 */
#include <string.h>

#include <libaudit.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "header.h"
#include "paste.h"

#ifdef __SSE2__
/* a "type=" at one of the sixteen places from @p on but the first @skip */
static inline const char *type_eq_in_block(const char *p, guint skip)
{
	const __m128i t = _mm_set1_epi8('t'), eq = _mm_set1_epi8('=');
	__m128i first = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i last = _mm_loadu_si128((const __m128i *)(const void *)(p + 4));
	guint mask = _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(first, t),
						     _mm_cmpeq_epi8(last, eq)));

	for (mask &= ~0u << skip; mask; mask &= mask - 1) {
		const char *c = p + __builtin_ctz(mask);

		if (c[1] == 'y' && c[2] == 'p' && c[3] == 'e')
			return c;
	}
	return NULL;
}
#endif

/*
 * The first "type=" in [@p, @end), or NULL: every line is searched for
 * the records on it.  SSE2 compares sixteen places at a time for a 't'
 * with a '=' four bytes on, then checks the three bytes between.
 */
const char *ad_header_find_type_eq(const char *p, const char *end)
{
#ifdef __SSE2__
	const char *start = p, *c;

	for (; end - p >= 16 + 4; p += 16)
		if ((c = type_eq_in_block(p, 0)) != NULL)
			return c;
	if (p != start && end - p > 4)
		/* the last places in a block that overlaps the one before */
		return type_eq_in_block(end - (16 + 4), 16 + 4 - (end - p));
#endif
	for (; end - p >= 5; p++)
		if (memcmp(p, "type=", 5) == 0)
			return p;
	return NULL;
}

/* the bytes of a record type name: A-Z 0-9 _ and the brackets of UNKNOWN[1234] */
const guint8 ad_header_type_char[256] = {
	['A' ... 'Z'] = 1, ['0' ... '9'] = 1, ['_'] = 1, ['['] = 1, [']'] = 1,
};

/* "type=NAME msg=audit(" or "type=NAME audit(" at @p (up to @end)?  Fills @h. */
gboolean ad_header_at(const char *p, const char *end, AdHeader *h)
{
	const char *n;

	if (!has_prefix(p, end, "type="))
		return FALSE;
	n = p + 5;
	p = n;
	while (ad_header_type_char[(guchar)*p])
		p++;
	if (p == n || *p != ' ')
		return FALSE;
	h->name = n;
	h->name_len = p - n;
	if (has_prefix(p, end, " msg=audit("))
		h->stamp = p + 11;
	else if (has_prefix(p, end, " audit("))
		h->stamp = p + 7;
	else
		return FALSE;
	return TRUE;
}

/*
 * Where the next record starts on a line of kernel records run together:
 * " type=X msg=audit(" or " node=N type=X msg=audit(" outside any quotes,
 * or ", 'type=X msg=audit(" (a program's list of record strings printed
 * as Python prints one).  Kernel values cannot hold a space or a quote
 * unquoted (they are hex-encoded then), so this cannot be forged from
 * inside a field.
 */
const char *ad_header_next_record(const char *p, const char *end, AdHeader *h)
{
	const char *outside = p;	/* known to be outside any quotes */
	const char *cand = p;

	for (;;) {
		const char *q, *start;
		guint quotes = 0;

		cand = ad_header_find_type_eq(cand, end);
		if (!cand)
			return NULL;
		if (cand == p || !(cand[-1] == ' ' || (cand[-1] == '\'' && cand - p >= 3 &&
							     cand[-2] == ' ' && cand[-3] == ',')) ||
		    !ad_header_at(cand, end, h)) {
			cand += 5;
			continue;
		}
		/* a node= right before belongs to it: " node=N type=..." */
		start = cand;
		for (q = cand - 1; q > p && q[-1] != ' ' && q[-1] != '"'; q--)
			;
		if (cand[-1] == ' ' && q >= p && q < cand - 1 && strncmp(q, "node=", 5) == 0 &&
		    q > p && q[-1] == ' ')
			start = q;
		/* inside "..." it is text, not a record: go on after the closing quote */
		for (q = outside; (q = memchr(q, '"', start - q)) != NULL; q++)
			quotes++;
		if (quotes % 2 == 0)
			return start;
		q = strchr(cand, '"');
		if (!q)
			return NULL;
		outside = cand = q + 1;
	}
}

/*
 * Where the next record starts on a line of ausearch -i records run together
 * (a bug tracker joined the lines): " type=X msg=audit(DATE TIME:SERIAL) : ".
 * Interpreted values are not hex-encoded (a proctitle, a path holds spaces):
 * split only where the next header has this record's very stamp (records of
 * one event, which a value written before the event cannot know), or where
 * this record is a whole denial (last word tclass= or permissive=) and the
 * next one a denial too.  A path made to look like a denial's end imitates
 * that, but such a path already spoils ausearch -i's unquoted fields.
 */
const char *ad_header_next_interpreted(const char *body, const char *line_end,
					   const char *stamp, gsize stamp_len,
					   gboolean denial, AdHeader *h)
{
	const char *cand = body;

	while ((cand = ad_header_find_type_eq(cand, line_end)) != NULL) {
		const char *start = cand, *q;

		if (cand == body || cand[-1] != ' ' || !ad_header_at(cand, line_end, h) ||
		    !ad_paste_is_interpreted_stamp(h->stamp, line_end)) {
			cand += 5;
			continue;
		}
		for (q = cand - 1; q > body && q[-1] != ' '; q--)
			;
		if (q < cand - 1 && strncmp(q, "node=", 5) == 0 && q > body)
			start = q;
		if ((gsize)(line_end - h->stamp) > stamp_len &&
		    memcmp(h->stamp, stamp, stamp_len) == 0 && h->stamp[stamp_len] == ')')
			return start;
		if (denial && ad_paste_ends_denial(body, start) &&
		    ((h->name_len == 3 && memcmp(h->name, "AVC", 3) == 0) ||
		     (h->name_len == 8 && memcmp(h->name, "USER_AVC", 8) == 0)))
			return start;
		cand += 5;
	}
	return NULL;
}

/* "TYPE " at @p: a record type's shape (upper case, digits, '_'), three bytes or more */
static gboolean type_word(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && (g_ascii_isupper(*q) || g_ascii_isdigit(*q) || *q == '_'))
		q++;
	return q - p >= 3 && q < end && *q == ' ' && g_ascii_isupper(*p);
}

/* journald's "audit[PID]: TYPE " or "audit: TYPE " at @p */
static gboolean audit_ident(const char *p, const char *end)
{
	if (has_prefix(p, end, "audit: "))
		return type_word(p + 7, end);
	if (!has_prefix(p, end, "audit["))
		return FALSE;
	p += 6;
	if (!g_ascii_isdigit(*p))
		return FALSE;
	while (p < end && g_ascii_isdigit(*p))
		p++;
	return has_prefix(p, end, "]: ") && type_word(p + 3, end);
}

/* "avc:  denied  {" (any blanks) at @p */
static gboolean avc_start(const char *p, const char *end)
{
	return has_prefix(p, end, "avc:") && ad_paste_find_avc(p, MIN(end, p + 40)) == p;
}

/* a journal prefix at @p whose line goes on with a record */
static gboolean journal_start(const char *p, const char *end)
{
	AdJournalStamp js;
	const char *q = ad_paste_journal_prefix(p, end, &js);
	AdHeader h;

	if (!q)
		return FALSE;
	/* "kernel: [ 1234.5678] audit: type=1400 audit(...)" */
	if (*q == '[') {
		const char *c = memchr(q, ']', MIN(end - q, 24));

		if (!c || c[1] != ' ')
			return FALSE;
		q = c + 2;
	}
	if (has_prefix(q, end, "audit: ") && !type_word(q + 7, end))
		q += 7;
	return type_word(q, end) || audit_ident(q, end) || avc_start(q, end) ||
	       ad_header_at(q, end, &h) ||
	       (has_prefix(q, end, "node=") && ad_header_at(q + strcspn(q, " ") + 1, end, &h));
}

const char *ad_header_next_start(const char *p, const char *end, gboolean quotes,
				 AdStartKind *kind, AdHeader *h)
{
	const char *w = p + 1;

	/* from blank to blank: a record starts only at a word (memchr finds them fast) */
	while (w < end) {
		const char *sp = memchr(w - 1, ' ', end - (w - 1));

		if (!sp)
			break;
		if (quotes) {
			/* a "..." before the blank: a kernel value, no blank inside, skipped whole */
			const char *q = memchr(w - 1, '"', sp - (w - 1));

			if (q) {
				const char *c = memchr(q + 1, '"', end - (q + 1));

				if (!c)
					break;
				w = c + 2;
				continue;
			}
		}
		w = sp + 1;
		if (w >= end)
			break;
		switch (*w) {
		case 't':
			if (ad_header_at(w, end, h)) {
				*kind = AD_START_HEADER;
				return w;
			}
			break;
		case '\'':
			/* an item of a printed list of records: "', 'type=..." */
			if (w - p >= 3 && w[-2] == ',' && w[-3] == '\'' && ad_header_at(w + 1, end, h)) {
				*kind = AD_START_HEADER;
				return w + 1;
			}
			break;
		case 'n':
			if (has_prefix(w, end, "node=")) {
				const char *nsp = memchr(w, ' ', end - w);

				if (nsp && nsp - w < 260 && ad_header_at(nsp + 1, end, h)) {
					*kind = AD_START_HEADER;
					return w;
				}
			}
			break;
		case 'a':
			if (audit_ident(w, end)) {
				*kind = AD_START_AUDIT;
				return w;
			}
			if (avc_start(w, end)) {
				*kind = AD_START_AVC;
				return w;
			}
			break;
		case 'A': case 'D': case 'F': case 'J': case 'M': case 'N': case 'O': case 'S':
		case '1': case '2':
			if (journal_start(w, end)) {
				*kind = AD_START_JOURNAL;
				return w;
			}
			break;
		default:
			break;
		}
		w++;
	}
	*kind = AD_START_NONE;
	return NULL;
}

/* user-space records are written one per line, whatever their text holds */
gboolean ad_header_is_user_type(int type)
{
	return (type >= 1100 && type <= 1299) || (type >= 2100 && type <= 2999);
}

/*
 * Decimal digits at @p into @v; the position after them, or NULL when
 * there are none or the number overflows.  (strtoull with its locale and
 * sign handling was a tenth of the reader's time.)
 */
const char *ad_header_parse_u64(const char *p, guint64 *v)
{
	const char *start = p;
	guint64 n = 0;

	while (*p >= '0' && *p <= '9') {
		guint d = *p - '0';

		/* the division only for numbers that may overflow */
		if (n >= G_MAXUINT64 / 10 && n > (G_MAXUINT64 - d) / 10)
			return NULL;
		n = n * 10 + d;
		p++;
	}
	if (p == start)
		return NULL;
	*v = n;
	return p;
}

/* the name of type number @type, in @buf when libaudit has none */
const char *ad_header_type_name(int type, char buf[32])
{
	const char *n = audit_msg_type_to_name(type);

	if (n)
		return n;
	g_snprintf(buf, 32, "UNKNOWN[%d]", type);
	return buf;
}
