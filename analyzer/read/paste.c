// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pasted text: what a forum, a mailer, a chat, grep or a terminal did to
 * audit records, undone at the edges of lines only.  The reader calls
 * these where a line is not a record as it stands; a clean log never
 * reaches them.
 */
#include <string.h>
#include <time.h>

#include "paste.h"

gsize ad_paste_strip_ansi(char *line, gsize len)
{
	char *o = line;
	const char *p = line, *end = line + len;

	while (p < end) {
		const char *q;

		if (*p != 0x1b) {
			*o++ = *p++;
			continue;
		}
		q = p + 1;
		if (q < end && *q == '[') {
			/* CSI: parameters, then a final byte @ to ~ */
			for (q++; q < end && (guchar)*q >= 0x30 && (guchar)*q < 0x40; q++)
				;
			if (q < end && (guchar)*q >= 0x40 && (guchar)*q <= 0x7e) {
				p = q + 1;
				continue;
			}
		} else if (q < end && *q == ']') {
			/* OSC: up to BEL or ESC \, no blank between (it would span records) */
			for (q++; q < end && *q != 0x07 && *q != 0x1b && *q != ' ' && *q != '\t'; q++)
				;
			if (q < end && *q == 0x07) {
				p = q + 1;
				continue;
			}
			if (q + 1 < end && q[0] == 0x1b && q[1] == '\\') {
				p = q + 2;
				continue;
			}
		} else if (q < end && (guchar)*q >= 0x40 && (guchar)*q <= 0x5f) {
			p = q + 1;	/* a two-byte sequence */
			continue;
		}
		p++;	/* a lone ESC: the bytes after it are kept */
	}
	*o = '\0';
	return o - line;
}

/* "type=", "node=" or a lost-letter "ype=" of a record at @p */
static gboolean starts_record(const char *p, const char *end)
{
	gsize n = end - p;

	return (n >= 5 && (memcmp(p, "type=", 5) == 0 || memcmp(p, "node=", 5) == 0)) ||
	       (n >= 5 && memcmp(p, "ype=", 4) == 0 && g_ascii_isupper(p[4]));
}

static gboolean is_name_char(char c)
{
	return g_ascii_isalnum(c) || c == '.' || c == '_' || c == '/' || c == '~' || c == '+' ||
	       c == '-';
}

const char *ad_paste_skip_prefix(const char *p, const char *end)
{
	const char *s = p, *t;

	/* quote markers and indentation */
	while (s < end && (*s == '>' || *s == ' ' || *s == '\t'))
		s++;
	if (starts_record(s, end))
		return s;
	/* grep: "NAME:", "NUMBER:" / "NUMBER-", "NAME:NUMBER:" / "NAME-NUMBER-" */
	for (t = s; t < end && g_ascii_isdigit(*t); t++)
		;
	if (t > s && t < end && (*t == ':' || *t == '-') && starts_record(t + 1, end))
		return t + 1;
	for (t = s; t < end && is_name_char(*t); t++)
		;
	if (t == s || t >= end || *t != ':')
		return p;
	t++;
	if (starts_record(t, end))
		return t;
	s = t;
	for (; t < end && g_ascii_isdigit(*t); t++)
		;
	if (t > s && t < end && (*t == ':' || *t == '-') && starts_record(t + 1, end))
		return t + 1;
	return p;
}

const char *ad_paste_find_avc(const char *p, const char *end)
{
	const char *q;

	while ((q = g_strstr_len(p, end - p, "avc:")) != NULL) {
		const char *s = q + 4;

		while (s < end && *s == ' ')
			s++;
		if ((gsize)(end - s) >= 6 &&
		    (memcmp(s, "denied", 6) == 0 || memcmp(s, "granted", 6) == 0)) {
			s += s[0] == 'd' ? 6 : 7;
			while (s < end && *s == ' ')
				s++;
			if (s < end && *s == '{')
				return q;
		}
		p = q + 4;
	}
	return NULL;
}

/* "NAME=" of a field at @p, or NULL */
static const char *after_field_name(const char *p, const char *end)
{
	const char *s = p;

	while (s < end && (g_ascii_isalnum(*s) || *s == '_' || *s == '-'))
		s++;
	return s > p && s < end && *s == '=' ? s + 1 : NULL;
}

gboolean ad_paste_has_denial(const char *p, const char *end)
{
	const char *open = memchr(p, '{', end - p), *close;

	if (!open || !(close = memchr(open, '}', end - open)))
		return FALSE;
	return g_strstr_len(close, end - close, "scontext=") &&
	       g_strstr_len(close, end - close, "tcontext=") &&
	       g_strstr_len(close, end - close, "tclass=");
}

/* how a word reads in a record: a field, a word of the avc text, or neither */
enum { WORD_NO, WORD_OPEN, WORD_OK };

static int classify(const char *w, const char *end, gboolean in_braces)
{
	static const char *const keywords[] = {
		"avc:", "denied", "granted", "{", "}", "for", ":", "):", ")", "'",
	};
	gsize n = end - w;
	const char *v;

	for (guint i = 0; i < G_N_ELEMENTS(keywords); i++)
		if (strlen(keywords[i]) == n && memcmp(w, keywords[i], n) == 0)
			return WORD_OK;
	if (in_braces) {
		const char *s = w;

		while (s < end && (g_ascii_isalnum(*s) || *s == '_'))
			s++;
		return s == end ? WORD_OK : WORD_NO;
	}
	v = after_field_name(w, end);
	if (!v)
		return WORD_NO;
	if (v == end)
		return WORD_OPEN;
	if (*v == '"') {
		const char *q = memchr(v + 1, '"', end - v - 1);

		return q && q + 1 == end ? WORD_OK : q ? WORD_NO : WORD_OPEN;
	}
	return WORD_OK;
}

/* the word of [@p, @end) at @p: its end */
static const char *word_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/*
 * The fields whose `ausearch -i` value may hold blanks, printed unquoted:
 * a thread name ("rs:main Q:Reg"), a path ("/memfd:x (deleted)"), a
 * command line.  The words after one, up to the next field, are its value.
 */
gboolean ad_paste_holds_blanks(const char *name, gsize len)
{
	static const char *const names[] = {
		"comm", "exe", "path", "name", "cwd", "proctitle", "key", "cmd",
	};

	for (guint i = 0; i < G_N_ELEMENTS(names); i++)
		if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
			return TRUE;
	return FALSE;
}

/*
 * In an `ausearch -i` record, whether the word [@w, @we) opens a value that
 * may hold blanks (1), is another field (0), or is no field (-1).
 */
static int opens_blank_value(const char *w, const char *we)
{
	const char *v = after_field_name(w, we);

	if (!v)
		return -1;
	return ad_paste_holds_blanks(w, (v - 1) - w) ? 1 : 0;
}

/* whether [@prev, @end) of an `ausearch -i` record ends inside a value that may hold blanks */
static gboolean ends_in_blank_value(const char *prev, const char *end)
{
	for (const char *w = end; w > prev;) {
		const char *we = w;
		int o;

		while (w > prev && w[-1] == ' ')
			w--;
		we = w;
		while (w > prev && w[-1] != ' ')
			w--;
		if (w == we)
			break;
		if ((o = opens_blank_value(w, we)) >= 0)
			return o == 1;
	}
	return FALSE;
}

int ad_paste_continues(const char *prev, const char *prev_end, gboolean prev_full,
		       const char *cont, const char *cont_end, gboolean cont_full,
		       gboolean interpreted)
{
	const char *l, *f, *fe, *p;
	gboolean braces = FALSE, braces_after, open;
	guint quotes = 0;
	int lc, fc;

	while (prev_end > prev && prev_end[-1] == ' ')
		prev_end--;
	while (cont < cont_end && (*cont == ' ' || *cont == '\t'))
		cont++;
	if (prev_end == prev || cont == cont_end)
		return -1;
	for (p = prev; p < prev_end; p++) {
		if (*p == '{')
			braces = TRUE;
		else if (*p == '}')
			braces = FALSE;
		else if (*p == '"')
			quotes++;
	}
	for (l = prev_end; l > prev && l[-1] != ' '; l--)
		;
	f = cont;
	fe = word_end(f, cont_end);
	/* ausearch -i: the record ends inside a value that may hold blanks */
	open = interpreted && ends_in_blank_value(prev, prev_end);
	/* every word after the first must read as part of a record */
	braces_after = braces;
	for (p = f; p < fe; p++)
		braces_after = *p == '{' ? TRUE : *p == '}' ? FALSE : braces_after;
	if (interpreted && opens_blank_value(f, fe) >= 0)
		open = opens_blank_value(f, fe) == 1;
	fc = open && opens_blank_value(f, fe) < 0 ? WORD_OK : -1;
	for (p = fe; p < cont_end;) {
		const char *we;
		int c;

		while (p < cont_end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == cont_end)
			break;
		we = word_end(p, cont_end);
		c = classify(p, we, braces_after && *p != '}');
		if (interpreted && opens_blank_value(p, we) >= 0)
			open = opens_blank_value(p, we) == 1;
		else if (open)
			c = WORD_OK;	/* a word of the value */
		/* the last word of a line cut at full width may be cut too */
		if ((c == WORD_NO || c == WORD_OPEN) && !(we == cont_end && cont_full))
			return -1;
		if (*p == '{')
			braces_after = TRUE;
		else if (*p == '}')
			braces_after = FALSE;
		p = we;
	}
	lc = classify(l, prev_end, braces && *l != '{');
	if (lc == WORD_NO && interpreted && ends_in_blank_value(prev, prev_end))
		lc = WORD_OK;	/* a word of a value that holds blanks */
	if (fc < 0)
		fc = classify(f, fe, braces && *f != '}');
	if (lc == WORD_OK && fc != WORD_NO && !(quotes % 2))
		return 1;
	/* no space: a cut inside a word, which only a line cut at full width has */
	if (!prev_full)
		return -1;
	if (quotes % 2)
		return 0;	/* inside "...": raw values hold no space */
	if (prev_end[-1] == '=')
		return 0;
	{
		/* the two halves of one word */
		gsize n = (prev_end - l) + (fe - f);
		g_autofree char *w = g_malloc(n + 1);

		memcpy(w, l, prev_end - l);
		memcpy(w + (prev_end - l), f, fe - f);
		w[n] = '\0';
		if (classify(w, w + n, braces && *l != '{') != WORD_NO)
			return 0;
	}
	return -1;
}

/* ---- dates ---------------------------------------------------------------------------- */

typedef struct {
	int a, b, c;		/* the three numbers of the date, as written */
	int la, lc;		/* digits of the first and last */
	char sep;
	int hour, min, sec;
} DateParts;

static const char *digits(const char *p, int max, int *v, int *n)
{
	int x = 0, i = 0;

	while (i < max && g_ascii_isdigit(p[i])) {
		x = x * 10 + (p[i] - '0');
		i++;
	}
	if (i == 0 || g_ascii_isdigit(p[i]))
		return NULL;
	*v = x;
	if (n)
		*n = i;
	return p + i;
}

/* "D1 SEP D2 SEP D3[.] HH:MM:SS" at @p: the position after the seconds */
static const char *date_parts(const char *p, DateParts *d)
{
	int lb;

	if (!(p = digits(p, 4, &d->a, &d->la)))
		return NULL;
	d->sep = *p;
	if (d->sep != '/' && d->sep != '.' && d->sep != '-')
		return NULL;
	if (!(p = digits(p + 1, 2, &d->b, &lb)) || *p != d->sep)
		return NULL;
	if (!(p = digits(p + 1, 4, &d->c, &d->lc)))
		return NULL;
	if (*p == '.')
		p++;
	if (*p != ' ')
		return NULL;
	while (*p == ' ')
		p++;
	if (!(p = digits(p, 2, &d->hour, NULL)) || *p != ':' ||
	    !(p = digits(p + 1, 2, &d->min, NULL)) || *p != ':' ||
	    !(p = digits(p + 1, 2, &d->sec, NULL)))
		return NULL;
	if (d->hour > 23 || d->min > 59 || d->sec > 60)
		return NULL;
	if (d->la == 4 ? d->lc > 2 : (d->la > 2 || (d->lc != 2 && d->lc != 4)))
		return NULL;
	return p;
}

/* seconds of the date read with the day first or not (before 1970: < 0); -1 when it is no date */
static gint64 date_secs(const DateParts *d, gboolean day_first)
{
	struct tm tm = { 0 };
	int y, m, day;

	if (d->la == 4) {
		y = d->a;
		m = d->b;
		day = d->c;
	} else {
		y = d->lc == 2 ? d->c + (d->c < 70 ? 2000 : 1900) : d->c;
		m = day_first ? d->b : d->a;
		day = day_first ? d->a : d->b;
	}
	if (m < 1 || m > 12 || day < 1 || day > 31)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = day;
	tm.tm_hour = d->hour;
	tm.tm_min = d->min;
	tm.tm_sec = d->sec;
	tm.tm_isdst = -1;
	return mktime(&tm);
}

/* whether the date says which number is the day: 1 month first, 2 day first, 0 not */
static int date_tells(const DateParts *d)
{
	if (d->la == 4)
		return 0;
	if (d->a > 12 && d->b <= 12)
		return 2;
	if (d->b > 12 && d->a <= 12)
		return 1;
	return 0;
}

/*
 * Day and month order for the input from the dates in [@ahead, @ahead_end)
 * after @cur: a date that tells, else the reading that keeps the dates in
 * order (month first when both do, as in the C and US locales).
 */
static void decide_order(AdDateOrder *st, const DateParts *cur, const char *ahead,
			 const char *ahead_end)
{
	gint64 prev_m = st->have_last ? st->last : -1, prev_d = prev_m;
	guint back_m = 0, back_d = 0;
	const char *p = ahead;
	guint seen = 0;
	DateParts next;

	for (const DateParts *d = cur; d; ) {
		gint64 m = date_secs(d, FALSE), dd = date_secs(d, TRUE);
		const char *q;

		if (m >= 0 && prev_m >= 0 && m < prev_m)
			back_m++;
		if (dd >= 0 && prev_d >= 0 && dd < prev_d)
			back_d++;
		if (m >= 0)
			prev_m = m;
		else
			back_m += 1000;
		if (dd >= 0)
			prev_d = dd;
		else
			back_d += 1000;
		d = NULL;
		/* the next interpreted stamp ahead with the same shape */
		while (p && p < ahead_end && seen < 4096 &&
		       (q = g_strstr_len(p, ahead_end - p, "audit(")) != NULL) {
			char buf[48];
			gsize n = MIN((gsize)(ahead_end - (q + 6)), sizeof(buf) - 1);

			p = q + 6;
			seen++;
			/* the input ahead is not NUL-terminated: a copy that is */
			memcpy(buf, p, n);
			buf[n] = '\0';
			if (!date_parts(buf, &next) || next.sep != cur->sep || next.la != cur->la)
				continue;
			if (date_tells(&next)) {
				st->order = date_tells(&next);
				st->assumed = FALSE;
				return;
			}
			d = &next;
			break;
		}
	}
	st->order = back_d < back_m ? 2 : 1;
	st->assumed = TRUE;
}

const char *ad_paste_parse_date(const char *p, AdDateOrder *st, const char *ahead,
				const char *ahead_end, gint64 *sec)
{
	DateParts d;
	const char *e = date_parts(p, &d);
	gboolean day_first;
	int tells;
	gint64 s;

	if (!e)
		return NULL;
	tells = date_tells(&d);
	if (d.la == 4) {
		day_first = FALSE;
	} else if (tells) {
		day_first = tells == 2;
		/* one date that tells settles it, also over an assumption */
		if (d.sep == '/' && (st->order == 0 || st->assumed)) {
			st->order = tells;
			st->assumed = FALSE;
		}
	} else if (d.sep != '/') {
		day_first = TRUE;	/* dd.mm.yyyy, dd-mm-yy: no locale puts the month first */
	} else {
		if (st->order == 0)
			decide_order(st, &d, ahead, ahead_end);
		day_first = st->order == 2;
	}
	s = date_secs(&d, day_first);
	/* before 1970 is a date too: ausearch -i prints an event time of 0 so west of UTC */
	if (s == -1)
		return NULL;
	st->last = s;
	st->have_last = TRUE;
	*sec = s;
	return e;
}

/* the characters of a stamp: digits and the separators of dates and times */
static gboolean is_stamp_char(char c)
{
	return g_ascii_isdigit(c) || c == '.' || c == ':' || c == '/' || c == '-' || c == ' ';
}

gboolean ad_paste_is_interpreted_stamp(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && (g_ascii_isdigit(*q) || *q == '/' || *q == '.' || *q == '-'))
		q++;
	if (q - p < 6 || q >= end || *q != ' ')
		return FALSE;
	p = ++q;
	while (q < end && (g_ascii_isdigit(*q) || *q == ':' || *q == '.'))
		q++;
	if (q - p < 8 || q >= end || *q != ')')
		return FALSE;
	/* ") : ", or ")  : " where a record had no event time of its own */
	for (q++; q < end && *q == ' '; q++)
		;
	return q - p > 10 && q < end && *q == ':';
}

gboolean ad_paste_ends_denial(const char *p, const char *end)
{
	const char *w = end;

	while (w > p && w[-1] == ' ')
		w--;
	end = w;
	while (w > p && w[-1] != ' ')
		w--;
	return (end - w > 7 && memcmp(w, "tclass=", 7) == 0) ||
	       (end - w > 11 && memcmp(w, "permissive=", 11) == 0);
}

gboolean ad_paste_is_cut_stamp(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && is_stamp_char(*q))
		q++;
	return q == end && end - p >= 1 && end - p < 40 && p[0] != ' ';
}

gboolean ad_paste_finishes_stamp(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && (g_ascii_isdigit(*q) || *q == '.' || *q == ':'))
		q++;
	return q > p && q - p < 40 && q < end && *q == ')';
}

/* ---- journal and syslog prefixes ------------------------------------------------------- */

/* the number of [@p, @p + @n), all digits; -1 when it is not */
static int fixed_digits(const char *p, const char *end, int n)
{
	int v = 0;

	if (end - p < n)
		return -1;
	for (int i = 0; i < n; i++) {
		if (!g_ascii_isdigit(p[i]))
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

/* "HH:MM:SS" at @p: the position after it */
static const char *clock_time(const char *p, const char *end, AdJournalStamp *js)
{
	if (end - p < 8 || p[2] != ':' || p[5] != ':')
		return NULL;
	js->hour = fixed_digits(p, end, 2);
	js->min = fixed_digits(p + 3, end, 2);
	js->sec = fixed_digits(p + 6, end, 2);
	if (js->hour < 0 || js->hour > 23 || js->min < 0 || js->min > 59 || js->sec < 0 ||
	    js->sec > 60)
		return NULL;
	return p + 8;
}

/* "Nov 23 06:17:29" (or "Nov  3") at @p: the position after it */
static const char *classic_stamp(const char *p, const char *end, AdJournalStamp *js)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";

	if (end - p < 15 || p[3] != ' ')
		return NULL;
	js->mon = 0;
	for (int m = 0; m < 12; m++)
		if (memcmp(p, months + 3 * m, 3) == 0)
			js->mon = m + 1;
	if (!js->mon)
		return NULL;
	p += 4;
	if (*p == ' ')
		p++;
	if (!g_ascii_isdigit(*p))
		return NULL;
	js->mday = *p++ - '0';
	if (g_ascii_isdigit(*p))
		js->mday = js->mday * 10 + (*p++ - '0');
	if (js->mday < 1 || js->mday > 31 || *p != ' ')
		return NULL;
	js->year = 0;
	js->has_zone = FALSE;
	js->usec = 0;
	return clock_time(p + 1, end, js);
}

/* "2025-11-23T06:17:29[.123456][Z|+01:00|+0100]" at @p: the position after it */
static const char *iso_stamp(const char *p, const char *end, AdJournalStamp *js)
{
	if (end - p < 19 || p[4] != '-' || p[7] != '-' || p[10] != 'T')
		return NULL;
	js->year = fixed_digits(p, end, 4);
	js->mon = fixed_digits(p + 5, end, 2);
	js->mday = fixed_digits(p + 8, end, 2);
	if (js->year < 1970 || js->mon < 1 || js->mon > 12 || js->mday < 1 || js->mday > 31 ||
	    !(p = clock_time(p + 11, end, js)))
		return NULL;
	js->usec = 0;
	if (p < end && (*p == '.' || *p == ',')) {
		guint scale = 100000;

		for (p++; p < end && g_ascii_isdigit(*p); p++, scale /= 10)
			js->usec += (*p - '0') * scale;
	}
	js->has_zone = FALSE;
	if (p < end && *p == 'Z') {
		js->has_zone = TRUE;
		js->zone = 0;
		p++;
	} else if (p < end && (*p == '+' || *p == '-')) {
		int sign = *p == '-' ? -1 : 1, h = fixed_digits(p + 1, end, 2), m;

		p += 3;
		if (p < end && *p == ':')
			p++;
		m = fixed_digits(p, end, 2);
		if (h < 0 || h > 14 || m < 0 || m > 59)
			return NULL;
		p += 2;
		js->has_zone = TRUE;
		js->zone = sign * (h * 3600 + m * 60);
	}
	return p;
}

static gboolean is_host_char(char c)
{
	return g_ascii_isalnum(c) || c == '.' || c == '-' || c == '_';
}

/* "IDENT: " or "IDENT[PID]: " at @p: the position after it */
static const char *syslog_ident(const char *p, const char *end)
{
	const char *s = p;

	while (p < end && (is_host_char(*p) || *p == '/' || *p == '@'))
		p++;
	if (p == s)
		return NULL;
	if (p < end && *p == '[') {
		const char *d = ++p;

		while (p < end && g_ascii_isdigit(*p))
			p++;
		if (p == d || p >= end || *p != ']')
			return NULL;
		p++;
	}
	if (p >= end || *p != ':' || (p + 1 < end && p[1] != ' '))
		return NULL;
	return p + 1 < end ? p + 2 : p + 1;
}

const char *ad_paste_journal_prefix(const char *p, const char *end, AdJournalStamp *js)
{
	const char *q = g_ascii_isdigit(*p) ? iso_stamp(p, end, js) : classic_stamp(p, end, js);
	const char *h, *id;

	if (!q || q >= end || *q != ' ')
		return NULL;
	q++;
	/* "HOST IDENT: ", or "IDENT: " alone */
	if ((id = syslog_ident(q, end)) != NULL) {
		js->host = NULL;
		js->host_len = 0;
		return id;
	}
	for (h = q; h < end && is_host_char(*h); h++)
		;
	if (h == q || h >= end || *h != ' ' || !(id = syslog_ident(h + 1, end)))
		return NULL;
	js->host = q;
	js->host_len = h - q;
	return id;
}

gint64 ad_paste_journal_time(const AdJournalStamp *js, int year)
{
	struct tm tm = { 0 };
	gint64 t;

	if (year < 1970)
		return -1;
	tm.tm_year = year - 1900;
	tm.tm_mon = js->mon - 1;
	tm.tm_mday = js->mday;
	tm.tm_hour = js->hour;
	tm.tm_min = js->min;
	tm.tm_sec = js->sec;
	if (js->has_zone) {
		t = timegm(&tm);
		return t == -1 ? -1 : t - js->zone;
	}
	tm.tm_isdst = -1;
	t = mktime(&tm);
	return t;
}

/* ---- one field per line ----------------------------------------------------------------- */

gboolean ad_paste_form_line(const char *p, const char *end, const char **key, gsize *key_len,
			    const char **value, gsize *value_len)
{
	static const char *const colon_keys[] = { "scontext", "tcontext", "tclass", "permissive" };
	const char *k, *q, *open, *close;

	while (p < end && (*p == '>' || *p == ' ' || *p == '\t'))
		p++;
	if (end - p >= 2 && (*p == '-' || *p == '*') && p[1] == ' ')
		p += 2;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (p >= end)
		return FALSE;
	/* the permissions: "avc:  denied  { read }", "denied { read }", "{ read }" */
	open = memchr(p, '{', end - p);
	if (open && !memchr(p, '=', end - p) && (close = memchr(open, '}', end - open)) &&
	    close > open + 1 && (close + 1 == end || (end - close == 5 && memcmp(close + 1, " for", 4) == 0))) {
		for (q = open + 1; q < close; q++)
			if (!g_ascii_isalnum(*q) && *q != '_' && *q != ' ')
				return FALSE;
		*key = NULL;
		*key_len = 0;
		*value = open;
		*value_len = close + 1 - open;
		return open == p || ad_paste_find_avc(p, end) ||
		       (open - p >= 7 && memcmp(open - 7, "denied ", 7) == 0);
	}
	for (k = p; k < end && (g_ascii_isalnum(*k) || *k == '_'); k++)
		;
	if (k == p || k >= end || !g_ascii_isalpha(*p))
		return FALSE;
	if (*k == '=') {
		q = k + 1;
		/* one field: no " NAME=" after it */
		for (const char *w = q; (w = memchr(w, ' ', end - w)) != NULL; w++)
			if (after_field_name(w + 1, end))
				return FALSE;
	} else if (*k == ':' && k + 1 < end && k[1] == ' ') {
		gboolean known = FALSE;

		for (guint i = 0; i < G_N_ELEMENTS(colon_keys); i++)
			known |= strlen(colon_keys[i]) == (gsize)(k - p) &&
				 memcmp(colon_keys[i], p, k - p) == 0;
		if (!known)
			return FALSE;
		for (q = k + 1; q < end && *q == ' '; q++)
			;
		if (memchr(q, ' ', end - q))
			return FALSE;
	} else {
		return FALSE;
	}
	if (q >= end)
		return FALSE;
	*key = p;
	*key_len = k - p;
	*value = q;
	*value_len = end - q;
	return TRUE;
}
