/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once
/* the reader's header scanners (read/header.c); internal to read/ */
#include <glib.h>

G_BEGIN_DECLS

/*
 * The text at @s, which runs to @end (a NUL), starts with the literal
 * @lit.  The length is known at compile time, so the comparison is a word
 * or two, and it never reads past @end.
 */
#define has_prefix(s, end, lit) \
	((s) <= (end) && (gsize)((end) - (s)) >= sizeof(lit) - 1 && \
	 memcmp((s), (lit), sizeof(lit) - 1) == 0)

/* a record header as found on a line: parse_record() goes on from it */
typedef struct {
	const char *name;	/* the type name, name_len bytes */
	gsize name_len;
	const char *stamp;	/* what follows "audit(" */
} AdHeader;

/* the bytes of a record type name: A-Z 0-9 _ and the brackets of UNKNOWN[1234] */
extern const guint8 ad_header_type_char[256];

/* the first "type=" from @p on, before @end; NULL when none */
const char *ad_header_find_type_eq(const char *p, const char *end);
/* "type=NAME msg=audit(" or "type=NAME audit(" at @p (up to @end)?  Fills @h. */
gboolean ad_header_at(const char *p, const char *end, AdHeader *h);
/* where the next kernel record starts on a line of records run together, or NULL */
const char *ad_header_next_record(const char *p, const char *end, AdHeader *h);
/*
 * where the next ausearch -i record starts on a joined line, after the
 * record whose body is @body and stamp @stamp (@denial: it is a denial)
 */
const char *ad_header_next_interpreted(const char *body, const char *line_end,
				       const char *stamp, gsize stamp_len, gboolean denial,
				       AdHeader *h);

/* what starts a record on a line (ad_header_next_start()) */
typedef enum {
	AD_START_NONE,
	AD_START_HEADER,	/* [node=N ]type=NAME [msg=]audit(: the header in the AdHeader */
	AD_START_JOURNAL,	/* a journal or syslog prefix ("Nov 23 06:17:29 host audit[1]: ") */
	AD_START_AUDIT,		/* journald's "audit[PID]: TYPE " or "audit: TYPE " alone */
	AD_START_AVC,		/* "avc:  denied  {" or "avc:  granted  {" */
} AdStartKind;

/*
 * The first record start in [@p, @end) after @p, at a word that a blank
 * comes before (or ", '" of a printed list): what a line of records run
 * together is split at.  With
 * @quotes, starts inside "..." (counted from @p) are text, not records:
 * right for kernel text, where no unquoted value holds a blank or a quote.
 * @h gets the header of an AD_START_HEADER.  NULL when there is none.
 */
const char *ad_header_next_start(const char *p, const char *end, gboolean quotes,
				 AdStartKind *kind, AdHeader *h);

/* user-space records are written one per line, whatever their text holds */
gboolean ad_header_is_user_type(int type);
/* decimal digits into @v; the position after them, NULL when none or overflowing */
const char *ad_header_parse_u64(const char *p, guint64 *v);
/* the name of record type @type, in @buf when libaudit has none */
const char *ad_header_type_name(int type, char buf[32]);

G_END_DECLS
