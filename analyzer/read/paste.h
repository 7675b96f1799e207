/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What the reader needs for text pasted from a forum, a mail, a chat or a
 * terminal: cleaning at the edges of a line, spotting a denial without a
 * header, joining lines a mailer wrapped, and the dates of `ausearch -i`
 * in the order of any locale.  Private to the reader.
 */
#include <glib.h>

G_BEGIN_DECLS

/*
 * Removes terminal escape sequences (ESC [ parameters final, ESC ] ... BEL
 * or ESC \, and two-byte ESC X with X in @..._) from @line in place; the
 * new length.  The kernel hex-encodes every control byte of a value, but
 * not of the text a process hands it in a user message (USER_AVC): a
 * sequence there must not swallow the fields appended after that text,
 * so only a complete sequence without white space is removed (an OSC
 * only when terminated), and of a lone or unfinished one the ESC alone.
 */
gsize ad_paste_strip_ansi(char *line, gsize len);

/*
 * Where the record starts after a quote marker ("> ", ">>"), indentation
 * or a grep prefix ("6:", "6-", "audit.log:", "audit.log.1:42:") at the
 * start of @p; @p itself when there is none of them.  Only a prefix that a
 * record ("type=", "node=", a lost-letter "ype=") follows counts.
 */
const char *ad_paste_skip_prefix(const char *p, const char *end);

/* whether [@p, @end) holds an avc body's denial: { perms } and scontext, tcontext, tclass */
gboolean ad_paste_has_denial(const char *p, const char *end);

/* the "avc:  denied  {" (or granted) in [@p, @end), or NULL */
const char *ad_paste_find_avc(const char *p, const char *end);

/*
 * Whether the field @name (@len bytes) may hold blanks where its value is
 * printed unquoted: a thread name ("rs:main Q:Reg"), a path
 * ("/memfd:x (deleted)"), a command line.
 */
gboolean ad_paste_holds_blanks(const char *name, gsize len);

/*
 * Whether the line [@cont, @cont_end) continues a record whose text so far
 * ends at @prev_end (starting at @prev): -1 no, 1 yes with a space between
 * (a mailer wrapped at a space), 0 yes without (the wrap cut a word).  It
 * continues only when every word of it reads as a field of a record and
 * its first word makes a field with the end of the record, or completes it.
 * A word is taken to be cut only at the end of a line that was cut at full
 * width: @prev_full for the record's last line, @cont_full for this one.
 * In an `ausearch -i` record (@interpreted), the words after a field whose
 * value may hold blanks (comm, exe, path, name, cwd, proctitle, key, cmd)
 * are its value up to the next field, on either line.
 */
int ad_paste_continues(const char *prev, const char *prev_end, gboolean prev_full,
		       const char *cont, const char *cont_end, gboolean cont_full,
		       gboolean interpreted);

/* a line at least this long may have been cut at a terminal's full width */
#define AD_PASTE_FULL_COLS 60

/* how `ausearch -i` dates of one input are read: day and month in which order */
typedef struct {
	int order;		/* 0 undecided, 1 month first, 2 day first */
	gboolean assumed;	/* decided without a date that tells */
	gboolean noted;		/* the caller has said what was assumed */
	gint64 last;		/* the last date read (seconds), for the order */
	gboolean have_last;
} AdDateOrder;

/*
 * Reads the "DATE TIME" of an interpreted stamp at @p: DATE in any order
 * ausearch prints by locale (dd.mm.yyyy, dd/mm/yyyy, mm/dd/yyyy,
 * yyyy-mm-dd, dd-mm-yy, two- or four-digit years), TIME hh:mm:ss, local
 * time.  Day and month of slashed dates where both are 12 or less are
 * decided for the whole input in @st: from a date that tells (13 or more
 * in one place) in the rest of the input at hand [@ahead, @ahead_end),
 * else from the order of the dates there.  Returns the position after
 * the seconds and @sec, or NULL when @p is no such date.
 */
const char *ad_paste_parse_date(const char *p, AdDateOrder *st, const char *ahead,
				const char *ahead_end, gint64 *sec);

/*
 * "DATE TIME.MS:SERIAL) : " at @p (up to @end): the shape of an
 * interpreted stamp after "msg=audit(", not its values.
 */
gboolean ad_paste_is_interpreted_stamp(const char *p, const char *end);

/* the last word of [@p, @end) starts with "tclass=" or "permissive=": a denial's end */
gboolean ad_paste_ends_denial(const char *p, const char *end);

/*
 * [@p, @end) is the start of a stamp cut at the line's end ("1580863503.1"):
 * the inside of "audit(" a hard wrap cut before its ')'.
 */
gboolean ad_paste_is_cut_stamp(const char *p, const char *end);

/* @p starts with the rest of a cut stamp: digits, '.' and ':' up to a ')' */
gboolean ad_paste_finishes_stamp(const char *p, const char *end);

/* the time and host of a journal or syslog line's prefix */
typedef struct {
	int year;		/* 0: the prefix has none ("Nov 23 06:17:29") */
	int mon, mday, hour, min, sec;	/* mon 1-12 */
	guint usec;
	gboolean has_zone;	/* an ISO prefix's offset (Z, +01:00): not local time */
	int zone;		/* seconds east of UTC */
	const char *host;	/* NULL: the line names none ("Dec 08 06:43:24 audit[7055]:") */
	gsize host_len;
} AdJournalStamp;

/*
 * A journal or syslog prefix at @p: "Nov 23 06:17:29 HOST IDENT[PID]: " (the
 * classic form, day padded or not, HOST optional) or "2025-11-23T06:17:29.123+01:00
 * HOST IDENT: " (journalctl -o short-iso, RFC 3339 syslog).  Returns the
 * position after the IDENT's ": ", NULL when @p holds none.
 */
const char *ad_paste_journal_prefix(const char *p, const char *end, AdJournalStamp *js);

/* the seconds of @js in year @year (local time unless it has a zone); -1 when none */
gint64 ad_paste_journal_time(const AdJournalStamp *js, int year);

/*
 * A line of a denial pasted one field per line (from a form or a ticket):
 * "KEY=VALUE", "KEY: VALUE" for the fields a denial cannot do without
 * (scontext, tcontext, tclass, permissive), or the permissions
 * ("avc:  denied  { read }", "{ read write }"), after quote markers,
 * indentation or a list bullet.  @key gets the field's name (NULL for the
 * permissions, whose "{ ... }" is then @value), @value its value: spans of
 * the line.  FALSE when the line is none of them.
 */
gboolean ad_paste_form_line(const char *p, const char *end, const char **key, gsize *key_len,
			    const char **value, gsize *value_len);

G_END_DECLS
