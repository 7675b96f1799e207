// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader: audit text in, AdEvents out.
 *
 * Why not libauparse for event assembly: libauparse 3.0.9 keeps its open
 * events in a list that it walks for every record, and when many events
 * share one timestamp second (a denial flood is exactly that) the cost per
 * record grows with the number of events of that second: 20k same-second
 * events take seconds, 100k take minutes (bench/auparse-flood.sh measures
 * it).  Here open events live in a hash table keyed by (node, time,
 * serial) plus a FIFO, and an event is complete on EOE, when the stream
 * has moved on by more than AD_EVENT_TIMEOUT seconds, or when more than
 * AD_MAX_OPEN events are pending: every record costs O(1).
 *
 * It also reads forms libauparse does not: `ausearch -i` text, kernel-log
 * and journal lines, records without a header, several records on a line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib/gi18n.h>
#include <libaudit.h>

#include "clock.h"
#include "header.h"
#include "paste.h"
#include "reader.h"
#include "reader-private.h"
#include "sealert.h"
#include "split.h"

#define AD_MAX_LINE	(4u << 20)	/* longer lines are rejected, not buffered */
#define AD_MAX_OPEN	64		/* pending events before the oldest is emitted */
#define AD_EVENT_TIMEOUT 2		/* seconds, as auditd's end-of-event timeout */
/*
 * What one event may hold: records under one stamp past either bound start
 * an event of their own (with the same stamp), so that one writer cannot
 * make the reader hold an unbounded event.  A kernel event has tens of
 * records of a few hundred bytes.
 */
#define AD_MAX_EVENT_RECORDS 4096
#define AD_MAX_EVENT_BYTES (8u << 20)

/*
 * A record line this short may be the first part of a record that a
 * mailer or a forum wrapped (at 72-80 columns, quote markers and prefixes
 * on top): the next line may continue it.
 */
#define AD_WRAP_COLS 120
/*
 * At most this many lines and bytes make one wrapped record (a kernel
 * record is at most 8970 bytes): each line joined copies the record, and
 * lines of fields after a short record must not make that quadratic.
 */
#define AD_WRAP_MAX_LINES 64
#define AD_WRAP_MAX_BYTES 16384

G_DEFINE_QUARK(ad-reader-error-quark, ad_reader_error)

/* an event still taking records; kept in the event's own memory */
typedef struct {
	AdEvent *ev;
	GList link;		/* in AdReader.queue */
	gboolean keyed;		/* in AdReader.open under (node, sec, msec, serial) */
	double touched;		/* monotonic time of the last record, for ad_reader_age */
	gboolean complete;	/* EOE seen, or a single-record event */
	gboolean alone;		/* a denial without header: no record joins it */
	gsize bytes;		/* text of its records */
} OpenEvent;

struct _AdReader {
	AdEventFunc on_event;
	AdProblemFunc on_problem;
	gpointer user_data;

	const char *source;	/* interned */
	guint line_no;
	GString *partial;	/* an unterminated line between feeds */
	gboolean discarding;	/* inside an overlong line */

	GHashTable *open;	/* set of keyed OpenEvent*, by (node, sec, msec, serial) */
	OpenEvent *last_keyed;	/* the keyed event the last record went to, or NULL */
	GQueue queue;		/* of OpenEvent* (links inside them), oldest first */
	GHashTable *newest;	/* node -> newest second seen, this source */
	gint64 newest_local;	/* the same for records without node=, when have_local */
	gboolean have_local;
	double now;		/* monotonic time of the chunk being fed */
	GHashTable *types;	/* record type name -> number + 1, a bounded cache */
	struct {
		guint len;
		char name[28];
		int type;
	} recent[16];		/* in front of types: the names of the last records */
	OpenEvent *headerless;	/* event of records without a timestamp */
	struct {
		guint len;	/* 0: none yet */
		char text[40];	/* "1700000000.123:45)", the ')' included */
		gint64 sec;
		guint msec;
		guint64 serial;
		gboolean interpreted;
	} stamp;		/* the last stamp parsed: an event's records share it */
	AdChunkFunc on_chunk;
	gpointer chunk_data;
	AdProblemFunc on_note;

	/* pasted text, per input */
	AdDateOrder dates;	/* day and month order of `ausearch -i` dates */
	guint date_line;	/* where an order was first assumed */
	guint n_headerless;	/* denials read without a readable header */
	guint headerless_line;	/* the first of them */
	const char *ahead, *ahead_end;	/* the input after the line being read */
	/* the last record of the line before, which the next line may continue */
	OpenEvent *cont_oe;
	AdRecord *cont_rec;
	guint cont_line;
	gboolean cont_short;	/* its line was short enough to be wrapped */
	gsize cont_len;		/* the length of the record's last line */
	gsize cont_width;	/* ... and of its first */
	guint cont_lines;	/* the lines joined to it */
	char cont_quote[8];	/* the quote markers ("> ") its line began with */
	guint cont_quote_len;
	char *cut_header;	/* a record whose audit(...) a wrap cut, for the next line */
	guint cut_line;
	/* the journal or syslog prefix of the record being read, when it has one */
	AdJournalStamp js;
	gboolean have_js;
	char host[256];		/* its host name, NUL-terminated */
	/* what gives a journal time its year: a stamped record, the file's mtime */
	gint64 year_ref;	/* a stamp of this input, when have_year_ref */
	gboolean have_year_ref;
	gint64 mtime;		/* of the file being read, when have_mtime */
	gboolean have_mtime;
	guint n_noyear;		/* journal records whose year nothing tells */
	guint noyear_line;	/* the first of them */

	char *line_node;	/* the node= a record of this line began with */
	/* a denial pasted one field per line, gathered: "{ perms }", then " KEY=VALUE" */
	GString *form;		/* empty: none */
	gboolean form_perms;	/* it has its permissions */
	guint form_line;	/* its first line */
	guint form_lines;
	AdSealert *sealert;	/* a setroubleshoot report without its raw records */

	guint64 lines, records, rejected;
};

static void reader_problem(AdReader *r, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean cut_header_continues(AdReader *r, const char *p, const char *end);

static void reader_problem(AdReader *r, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	r->rejected++;
	if (!r->on_problem)
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	r->on_problem(r->source, r->line_no, msg, r->user_data);
}

/* open events are found by what identifies an event: node, time, serial */
static guint open_hash(gconstpointer p)
{
	const AdEvent *ev = ((const OpenEvent *)p)->ev;
	guint h = (guint)ev->serial * 2654435761u ^ (guint)ev->sec * 40503u ^ ev->msec;

	return ev->node ? h ^ g_str_hash(ev->node) : h;
}

static gboolean open_equal(gconstpointer a, gconstpointer b)
{
	const AdEvent *x = ((const OpenEvent *)a)->ev, *y = ((const OpenEvent *)b)->ev;

	return x->serial == y->serial && x->sec == y->sec && x->msec == y->msec &&
	       g_strcmp0(x->node, y->node) == 0;
}

AdReader *ad_reader_new(AdEventFunc on_event, AdProblemFunc on_problem, gpointer user_data)
{
	AdReader *r = g_new0(AdReader, 1);

	r->on_event = on_event;
	r->on_problem = on_problem;
	r->user_data = user_data;
	r->source = g_intern_static_string("-");
	r->partial = g_string_new(NULL);
	r->form = g_string_new(NULL);
	r->sealert = ad_sealert_new();
	r->types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	r->open = g_hash_table_new(open_hash, open_equal);
	r->newest = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_queue_init(&r->queue);
	return r;
}

/* hands one event to the callback and forgets it */
static void emit(AdReader *r, OpenEvent *oe)
{
	AdEvent *ev = oe->ev;

	g_queue_unlink(&r->queue, &oe->link);
	if (oe->keyed)
		g_hash_table_remove(r->open, oe);
	if (r->last_keyed == oe)
		r->last_keyed = NULL;
	if (r->headerless == oe)
		r->headerless = NULL;
	if (r->cont_oe == oe) {
		r->cont_oe = NULL;
		r->cont_rec = NULL;
	}
	if (ev->records->len && r->on_event)
		r->on_event(ev, r->user_data);
	ad_event_unref(ev);	/* oe was in its memory */
}

static void emit_all(AdReader *r)
{
	while (r->queue.head)
		emit(r, r->queue.head->data);
}

void ad_reader_free(AdReader *r)
{
	if (!r)
		return;
	emit_all(r);
	g_hash_table_unref(r->open);
	g_hash_table_unref(r->newest);
	g_string_free(r->partial, TRUE);
	g_string_free(r->form, TRUE);
	ad_sealert_free(r->sealert);
	g_hash_table_unref(r->types);
	g_free(r->cut_header);
	g_free(r->line_node);
	g_free(r);
}

/* what was assumed about the input just read: said once for the whole input */
static void flush_notes(AdReader *r)
{
	guint line = r->line_no;

	if (r->on_note && r->n_headerless) {
		g_autofree char *msg = g_strdup_printf(
			ngettext("%u denial record without a readable audit(...) header (the "
				 "first here): analysed with its time and serial unknown",
				 "%u denial records without a readable audit(...) header (the "
				 "first here): analysed with their time and serial unknown",
				 r->n_headerless), r->n_headerless);

		r->line_no = r->headerless_line;
		r->on_note(r->source, r->line_no, msg, r->user_data);
	}
	if (r->on_note && r->n_noyear) {
		g_autofree char *msg = g_strdup_printf(
			ngettext("%u journal or syslog record (the first here) whose prefix names "
				 "no year, and nothing in the input tells it: its time is unknown",
				 "%u journal or syslog records (the first here) whose prefix names "
				 "no year, and nothing in the input tells it: their time is unknown",
				 r->n_noyear), r->n_noyear);

		r->line_no = r->noyear_line;
		r->on_note(r->source, r->line_no, msg, r->user_data);
	}
	r->line_no = line;
	r->n_headerless = 0;
	r->n_noyear = 0;
}

/* says once per input which order of day and month a date was read in */
static void note_date_order(AdReader *r)
{
	if (!r->dates.assumed || r->dates.noted)
		return;
	r->dates.noted = TRUE;
	if (r->on_note)
		r->on_note(r->source, r->line_no,
			   r->dates.order == 2
			   ? _("no date tells day from month: read as day/month/year, the "
			       "order that keeps the dates in sequence")
			   : _("no date tells day from month: read as month/day/year, the "
			       "order that keeps the dates in sequence (or, where both do, the "
			       "C and US locales' order)"), r->user_data);
}

void ad_reader_set_note_func(AdReader *r, AdProblemFunc on_note)
{
	r->on_note = on_note;
}

void ad_reader_set_source(AdReader *r, const char *name)
{
	if (r->cut_header)
		cut_header_continues(r, "", "");
	flush_notes(r);
	memset(&r->dates, 0, sizeof(r->dates));
	r->cont_oe = NULL;
	r->cont_rec = NULL;
	r->source = g_intern_string(name ? name : "-");
	r->line_no = 0;
	/* an older file after a newer one must not look stale */
	g_hash_table_remove_all(r->newest);
	r->have_local = FALSE;
	r->have_year_ref = FALSE;
	r->have_mtime = FALSE;
	g_string_truncate(r->partial, 0);
	r->discarding = FALSE;
}

void ad_reader_set_mtime(AdReader *r, gint64 mtime)
{
	r->mtime = mtime;
	r->have_mtime = mtime > 0;
}

guint64 ad_reader_lines(const AdReader *r)
{
	return r->lines;
}

guint64 ad_reader_records(const AdReader *r)
{
	return r->records;
}

guint64 ad_reader_rejected(const AdReader *r)
{
	return r->rejected;
}

/*
 * Parses the inside of "audit(...)": raw "1700000001.100:101" or
 * interpreted "09/04/2025 18:19:00.303:503" (local time, TZ; the date in
 * the order of ausearch's locale, see ad_paste_parse_date()).  Returns
 * the position after the closing parenthesis, NULL when malformed.
 */
static const char *parse_stamp(AdReader *r, const char *p, gint64 *sec, guint *msec,
			       guint64 *serial, gboolean *interpreted)
{
	const char *sep = p;
	char *e;

	*interpreted = FALSE;
	while (sep - p < 5 && g_ascii_isdigit(*sep))
		sep++;
	if (sep - p < 5 && sep > p && (*sep == '/' || *sep == '.' || *sep == '-') &&
	    (e = (char *)ad_paste_parse_date(p, &r->dates, r->ahead, r->ahead_end, sec))) {
		*interpreted = TRUE;
		if (r->dates.assumed && !r->dates.noted)
			note_date_order(r);
		p = e;
	} else {
		guint64 v;

		if (!(p = ad_header_parse_u64(p, &v)) || v > G_MAXINT64)
			return NULL;
		*sec = v;
	}
	*msec = 0;
	if (*p == '.') {
		guint64 v;

		p++;
		if (!(e = (char *)ad_header_parse_u64(p, &v)) || e - p > 9)
			return NULL;
		/* normalise to milliseconds whatever the digit count */
		for (int d = e - p; d < 3; d++)
			v *= 10;
		for (int d = e - p; d > 3; d--)
			v /= 10;
		*msec = v;
		p = e;
	}
	if (*p != ':')
		return NULL;
	p++;
	if (!(p = ad_header_parse_u64(p, serial)) || *p != ')')
		return NULL;
	return p + 1;
}

#define AD_MAX_TYPE_CACHE 256	/* names come from the input: the cache is bounded */

/*
 * Record type name → number (libaudit's table), 0 when unknown.  libaudit
 * compares the name with its table entry by entry, for every record: the
 * answers are cached per reader.
 */
static int type_number(AdReader *r, const char *name, gsize len)
{
	char s[64];
	gpointer hit;
	int t;
	guint slot;

	if (len >= sizeof(s) || len == 0)
		return 0;
	/* a log names a handful of types over and over: a slot per name, mostly */
	slot = (len * 31 + (guchar)name[0] + 7 * (guchar)name[len - 1]) % G_N_ELEMENTS(r->recent);
	if (r->recent[slot].len == len && memcmp(r->recent[slot].name, name, len) == 0)
		return r->recent[slot].type;
	memcpy(s, name, len);
	s[len] = '\0';
	if (g_hash_table_lookup_extended(r->types, s, NULL, &hit)) {
		t = GPOINTER_TO_INT(hit);
	} else {
		if (g_str_has_prefix(s, "UNKNOWN[")) {
			gint64 n = g_ascii_strtoll(s + 8, NULL, 10);

			t = n > 0 && n <= G_MAXINT ? (int)n : 0;
		} else {
			t = audit_name_to_msg_type(s);
		}
		if (t < 0)
			t = 0;
		if (g_hash_table_size(r->types) < AD_MAX_TYPE_CACHE)
			g_hash_table_insert(r->types, g_strdup(s), GINT_TO_POINTER(t));
	}
	if (len <= sizeof(r->recent[slot].name)) {
		r->recent[slot].len = len;
		memcpy(r->recent[slot].name, name, len);
		r->recent[slot].type = t;
	}
	return t;
}

static OpenEvent *open_event(AdReader *r, const char *node, gboolean keyed, gint64 sec,
			     guint msec, guint64 serial)
{
	AdEvent *ev = ad_event_new(node, sec, msec, serial);
	OpenEvent *oe = ad_event_alloc(ev, sizeof(OpenEvent));

	memset(oe, 0, sizeof(*oe));
	oe->ev = ev;
	oe->link.data = oe;
	g_queue_push_tail_link(&r->queue, &oe->link);
	oe->keyed = keyed;
	if (keyed)
		g_hash_table_add(r->open, oe);
	return oe;
}

static gint64 *newest_of(AdReader *r, const char *node)
{
	return node ? g_hash_table_lookup(r->newest, node)
		    : r->have_local ? &r->newest_local : NULL;
}

/*
 * An event the stream of its own node has left behind by more than the
 * end-of-event timeout.  Never the event just added to, never one without
 * a timestamp (those end when the next header-less denial starts).
 */
static gboolean stale(AdReader *r, OpenEvent *head, OpenEvent *current)
{
	gint64 *newest;

	if (head == current || !head->keyed)
		return FALSE;
	newest = newest_of(r, head->ev->node);
	return newest && head->ev->sec + AD_EVENT_TIMEOUT < *newest;
}

/*
 * The event a record goes into, opened when new.  Records with a timestamp
 * go by (node, time, serial); header-less ones (journal "audit[pid]: AVC
 * ..." lines, bare "SELINUX_ERR op=..." lines) are grouped with the
 * header-less records just before them until a new denial starts a new
 * event.
 */
static OpenEvent *event_for(AdReader *r, int type, const char *node, gboolean has_stamp,
			    gint64 sec, guint msec, guint64 serial)
{
	OpenEvent *oe;

	if (has_stamp) {
		AdEvent key_ev = { .node = (char *)node, .sec = sec, .msec = msec,
				   .serial = serial };
		OpenEvent key = { .ev = &key_ev };
		gint64 *newest;

		/* the records of an event mostly come together: the last one first */
		oe = r->last_keyed;
		if (!oe || !oe->keyed || !open_equal(oe, &key))
			oe = g_hash_table_lookup(r->open, &key);
		if (!oe)
			oe = open_event(r, node, TRUE, sec, msec, serial);
		r->last_keyed = oe;
		newest = newest_of(r, node);
		if (!newest) {
			if (node) {
				newest = g_new(gint64, 1);
				g_hash_table_insert(r->newest, g_strdup(node), newest);
			} else {
				r->have_local = TRUE;
				newest = &r->newest_local;
			}
			*newest = sec;
		} else if (sec > *newest) {
			*newest = sec;
		}
		return oe;
	}
	gboolean starts = type == AD_REC_AVC || type == AD_REC_USER_AVC ||
			  type == AD_REC_SELINUX_ERR || ad_header_is_user_type(type);

	oe = r->headerless;
	if (oe && !oe->alone && (oe->ev->sec != sec || g_strcmp0(oe->ev->node, node) != 0)) {
		/* another time or host: another event */
		oe->complete = TRUE;
		r->headerless = NULL;
		oe = NULL;
	}
	if (oe && oe->alone) {
		/* emitted in input order, once the events before it are */
		oe->complete = TRUE;
		r->headerless = NULL;
		oe = NULL;
	} else if (oe && starts) {
		/* a denial after the event's own context records: a new event */
		if (ad_event_find_record(oe->ev, AD_REC_SYSCALL) ||
		    ad_event_find_record(oe->ev, AD_REC_PROCTITLE) ||
		    ad_event_find_record(oe->ev, AD_REC_USER_AVC))
			oe = NULL;
	}
	if (!oe) {
		if (r->headerless)
			emit(r, r->headerless);
		oe = open_event(r, node, FALSE, sec, msec, 0);
		oe->ev->time_from_prefix = sec > 0;
		r->headerless = oe;
	}
	return oe;
}

/* files @rec, made in oe's memory, into its event; emits what is complete */
static void add_record(AdReader *r, OpenEvent *oe, AdRecord *rec, gboolean has_stamp,
		       guint64 serial)
{
	r->records++;
	ad_event_add_record(oe->ev, rec);
	oe->touched = r->now;
	oe->bytes += strlen(rec->text);
	if (!oe->complete && (oe->ev->records->len >= AD_MAX_EVENT_RECORDS ||
			      oe->bytes >= AD_MAX_EVENT_BYTES)) {
		reader_problem(r, _("more than %u records or %u MiB under one event stamp: "
				    "the records after them are read as another event"),
			       AD_MAX_EVENT_RECORDS, AD_MAX_EVENT_BYTES >> 20);
		oe->complete = TRUE;
		if (oe->keyed) {
			g_hash_table_remove(r->open, oe);
			oe->keyed = FALSE;
		}
		if (r->headerless == oe)
			r->headerless = NULL;
	}
	/* the next line may continue it, while its event is open */
	r->cont_oe = oe;
	r->cont_rec = rec;
	r->cont_line = r->line_no;

	if (rec->type == AD_REC_EOE || (has_stamp && ad_header_is_user_type(rec->type)) ||
	    (has_stamp && serial == 0)) {
		/* complete; emitted in input order, once the events before it are */
		oe->complete = TRUE;
		if (oe->keyed) {
			g_hash_table_remove(r->open, oe);
			oe->keyed = FALSE;
		}
	}
	/* emit what the stream has left behind: O(1) amortised per record */
	while (r->queue.head) {
		OpenEvent *head = r->queue.head->data;

		if (head->complete || r->queue.length > AD_MAX_OPEN || stale(r, head, oe))
			emit(r, head);
		else
			break;
	}
}

void ad_reader_age(AdReader *r, double max_age)
{
	double now = ad_clock_monotonic_us() / 1e6;

	while (r->queue.head) {
		OpenEvent *head = r->queue.head->data;

		if (now - head->touched < max_age)
			break;
		emit(r, head);
	}
}

static gboolean headerless_denial(AdReader *r, const char *name, gsize name_len,
				  const char *text, const char *end, gboolean may_wrap);

/* a record in @oe's memory, with a copy of its type name */
static AdRecord *record_new(AdReader *r, OpenEvent *oe, const char *tname, gsize tname_len,
			    int type, gboolean interpreted)
{
	AdRecord *rec = ad_event_new_record(oe->ev);
	char *tn = ad_event_alloc(oe->ev, tname_len + 1);

	memcpy(tn, tname, tname_len);
	tn[tname_len] = '\0';
	rec->type_name = tn;
	rec->type = type;
	rec->file = r->source;
	rec->line = r->line_no;
	rec->interpreted = interpreted;
	return rec;
}

/*
 * One record from @start: [node=N ]type=NAME msg=audit(STAMP): BODY, or
 * the kernel-log form type=NUMBER audit(STAMP): BODY, whose header the
 * caller found (@h).  Returns the end of the record: the next record's
 * start on the same line, whose header is then in @h, or the line end.
 */
static const char *parse_record(AdReader *r, const char *start, AdHeader *h,
				const char *line_end)
{
	const char *p = start, *name = h->name, *body, *end, *stamp = h->stamp;
	g_autofree char *node = NULL;
	gsize stamp_len;
	gsize name_len = h->name_len;
	gint64 sec;
	guint msec;
	guint64 serial;
	gboolean interpreted;
	int type;
	const char *tname;
	gsize tname_len;
	char tbuf[32];

	if (has_prefix(p, line_end, "node=")) {
		const char *q = strchr(p, ' ');

		node = g_strndup(p + 5, q - (p + 5));
		p = q + 1;
		g_free(r->line_node);
		r->line_node = g_strdup(node);
	} else if (r->line_node) {
		/* a later record on a line that began with node= belongs to that node */
		node = g_strdup(r->line_node);
	} else if (r->have_js && r->js.host) {
		/* a syslog line's host: the node it was logged on */
		node = g_strdup(r->host);
	}
	if (r->stamp.len && (gsize)(line_end - stamp) >= r->stamp.len &&
	    memcmp(stamp, r->stamp.text, r->stamp.len) == 0) {
		/* the same text up to its ')': the same stamp, parsed once */
		sec = r->stamp.sec;
		msec = r->stamp.msec;
		serial = r->stamp.serial;
		interpreted = r->stamp.interpreted;
		p = stamp + r->stamp.len;
	} else {
		p = parse_stamp(r, stamp, &sec, &msec, &serial, &interpreted);
		if (!p) {
			const char *next = ad_header_next_record(stamp, line_end, h);

			end = next ? next : line_end;
			if (!next && !r->cut_header && ad_paste_is_cut_stamp(stamp, line_end)) {
				/* "audit(1580863503.1" at the line's end: the next line may finish it */
				r->cut_header = g_strndup(start, line_end - start);
				r->cut_line = r->line_no;
				return end;
			}
			if (!headerless_denial(r, name, name_len, stamp, end, FALSE))
				reader_problem(r, "%s",
					       _("malformed audit(...) timestamp: record skipped"));
			return end;
		}
		r->stamp.len = (gsize)(p - stamp) <= sizeof(r->stamp.text) ? p - stamp : 0;
		memcpy(r->stamp.text, stamp, r->stamp.len);
		r->stamp.sec = sec;
		r->stamp.msec = msec;
		r->stamp.serial = serial;
		r->stamp.interpreted = interpreted;
	}
	if (sec > 0) {
		/* what gives the journal lines of this input their year */
		r->year_ref = sec;
		r->have_year_ref = TRUE;
	}
	stamp_len = (p - 1) - stamp;
	if (g_ascii_isdigit(name[0])) {
		type = atoi(name);
		tname = ad_header_type_name(type, tbuf);
		tname_len = strlen(tname);
	} else {
		type = type_number(r, name, name_len);
		tname = name;
		tname_len = name_len;
	}
	/* "): " raw, ") : " interpreted */
	while (*p == ' ')
		p++;
	if (*p == ':')
		p++;
	while (*p == ' ')
		p++;
	body = p;

	end = line_end;
	if (!interpreted && !ad_header_is_user_type(type)) {
		const char *next = ad_header_next_record(body, line_end, h);

		if (next)
			end = next;
	} else if (interpreted && !ad_header_is_user_type(type)) {
		const char *next = ad_header_next_interpreted(body, line_end, stamp, stamp_len,
							   type == AD_REC_AVC, h);

		if (next)
			end = next;
	}
	OpenEvent *oe = event_for(r, type, node, TRUE, sec, msec, serial);
	AdRecord *rec = record_new(r, oe, tname, tname_len, type, interpreted);
	const char *text_end = end;

	while (text_end > body && text_end[-1] == ' ')
		text_end--;
	/* a record of a printed list: "..., 'type=A ...', 'type=B ..." */
	if (end < line_end && *end == 't' && text_end - body >= 4 &&
	    memcmp(text_end - 4, "', '", 4) == 0)
		text_end -= 4;
	{
		/* "[node=N ]type=T msg=audit(STAMP): BODY" */
		gsize node_len = node ? strlen(node) : 0;
		gsize body_len = text_end - body;
		char *t = ad_event_alloc(oe->ev, (node ? node_len + 6 : 0) + tname_len +
						 stamp_len + body_len + 20);
		char *o = t;

#define PUT(src, n) do { memcpy(o, (src), (n)); o += (n); } while (0)
		if (node) {
			PUT("node=", 5);
			PUT(node, node_len);
			*o++ = ' ';
		}
		PUT("type=", 5);
		PUT(tname, tname_len);
		PUT(" msg=audit(", 11);
		PUT(stamp, stamp_len);
		PUT("): ", 3);
		rec->body = o;
		rec->body_len = body_len;
		PUT(body, body_len);
#undef PUT
		*o = '\0';
		rec->text = t;
	}
	add_record(r, oe, rec, TRUE, serial);
	return end;
}

/*
 * The seconds of the journal prefix's time.  A classic syslog prefix names
 * no year: it is the year that puts the time nearest a stamped record of
 * the same input read before it, else the last one not after the file's
 * modification time (a log is written before it was last changed), else
 * unknown (0), said once per input.  Not a record ahead: what is ahead
 * depends on how the input was cut into pieces, and the same input must
 * read the same however it comes.
 */
static gint64 journal_time(AdReader *r)
{
	const AdJournalStamp *js = &r->js;
	gint64 ref = 0, t;
	struct tm tm;
	time_t tt;

	if (js->year)
		return MAX(ad_paste_journal_time(js, js->year), 0);
	if (r->have_year_ref)
		ref = r->year_ref;
	if (ref > 0) {
		gint64 best = 0;

		tt = ref;
		localtime_r(&tt, &tm);
		for (int y = tm.tm_year + 1900 - 1; y <= tm.tm_year + 1900 + 1; y++) {
			t = ad_paste_journal_time(js, y);
			if (t > 0 && (!best || ABS(t - ref) < ABS(best - ref)))
				best = t;
		}
		return best;
	}
	if (r->have_mtime) {
		tt = r->mtime;
		localtime_r(&tt, &tm);
		for (int y = tm.tm_year + 1900; y >= tm.tm_year + 1900 - 1; y--) {
			t = ad_paste_journal_time(js, y);
			if (t > 0 && t <= r->mtime + 86400)
				return t;
		}
	}
	if (!r->n_noyear++)
		r->noyear_line = r->line_no;
	return 0;
}

/*
 * A record without an audit(...) stamp: journald's "audit[1234]: AVC avc: ..."
 * or a bare "SELINUX_ERR op=..." line.  @name/@name_len is the type.  A
 * journal prefix gives it a time and a host; its serial stays unknown.
 */
static void parse_headerless(AdReader *r, const char *name, gsize name_len, const char *body,
			     const char *line_end)
{
	int type = type_number(r, name, name_len);
	gint64 sec = r->have_js ? journal_time(r) : 0;
	const char *node = r->have_js && r->js.host ? r->host : NULL;
	OpenEvent *oe = event_for(r, type, node, FALSE, sec, sec ? r->js.usec / 1000 : 0, 0);
	AdRecord *rec = record_new(r, oe, name, name_len, type, FALSE);
	g_autofree char *text = NULL;

	rec->journal = r->have_js;

	while (line_end > body && line_end[-1] == ' ')
		line_end--;
	text = g_strdup_printf("%s%s%stype=%.*s msg=audit(%" G_GINT64_FORMAT ".%03u:0): %.*s",
			       node ? "node=" : "", node ? node : "", node ? " " : "",
			       (int)name_len, name, sec, sec ? r->js.usec / 1000 : 0,
			       (int)(line_end - body), body);
	rec->text = ad_event_alloc(oe->ev, strlen(text) + 1);
	strcpy(rec->text, text);
	rec->body = strstr(rec->text, "): ") + 3;
	add_record(r, oe, rec, FALSE, 0);
}

/*
 * A denial record whose header is missing or unreadable ("type=AVC avc:
 * ...", "type=AVC msg=audit(garbage): avc: ...", a bare "avc:  denied ..."
 * line): what the analysis needs is the denial, so it is read alone, its
 * time and serial unknown, and counted for the one note on the input.
 * @name: AVC or USER_AVC (or their numbers); @text: where its body may
 * start.  When the denial is only begun on a line that may have been
 * wrapped (@may_wrap), the next lines may complete it.  FALSE when
 * [@text, @end) holds no denial.
 */
static gboolean headerless_denial(AdReader *r, const char *name, gsize name_len,
				  const char *text, const char *end, gboolean may_wrap)
{
	int type = g_ascii_isdigit(name[0]) ? atoi(name) : type_number(r, name, name_len);
	const char *avc = ad_paste_find_avc(text, end), *body;

	if (!avc || (type != AD_REC_AVC && type != AD_REC_USER_AVC))
		return FALSE;
	if (type == AD_REC_AVC) {
		body = avc;
	} else {
		/* USER_AVC: "pid=... msg='avc: ...'" after whatever the header left */
		const char *m = g_strstr_len(text, end - text, "pid=");

		if (!m || m > avc)
			m = g_strstr_len(text, end - text, "msg='");
		if (!m || m > avc || avc - m < 5 || memcmp(avc - 5, "msg='", 5) != 0)
			return FALSE;
		body = m;
	}
	if (!ad_paste_has_denial(avc, end) &&
	    !(may_wrap && g_strstr_len(avc, end - avc, "} for") && end - avc < AD_WRAP_COLS))
		return FALSE;
	/* without a serial nothing tells which records belong with it */
	if (r->headerless) {
		r->headerless->complete = TRUE;
		r->headerless = NULL;
	}
	if (type == AD_REC_AVC)
		parse_headerless(r, "AVC", 3, body, end);
	else
		parse_headerless(r, "USER_AVC", 8, body, end);
	if (r->headerless)
		r->headerless->alone = TRUE;
	/* a journal prefix may have given it a time: then only its serial is unknown */
	if (!(r->headerless && r->headerless->ev->sec) && !r->n_headerless++)
		r->headerless_line = r->line_no;
	return TRUE;
}

/* "NAME " at @p where NAME is a record type libaudit knows */
static gsize known_type_prefix(AdReader *r, const char *p)
{
	const char *q = p;

	while (g_ascii_isupper(*q) || g_ascii_isdigit(*q) || *q == '_')
		q++;
	if (q - p < 3 || *q != ' ')
		return 0;
	return type_number(r, p, q - p) ? (gsize)(q - p) : 0;
}

/*
 * The line [@p, @end) continues the record of the line before, which a
 * mailer or a forum wrapped: its words are appended to that record.
 * @line: where the line starts, with the quote markers the record's line
 * had.  FALSE when it does not continue it.
 */
static gboolean continue_record(AdReader *r, const char *line, const char *p, const char *end)
{
	AdRecord *rec = r->cont_rec;
	AdEvent *ev;
	gsize text_len, body_len, add;
	char *t;
	int how;

	if (!rec || r->cont_line + 1 != r->line_no || rec->fields ||
	    r->cont_lines >= AD_WRAP_MAX_LINES)
		return FALSE;
	/*
	 * A line of any length may have been wrapped when what it holds is a
	 * denial without its contexts or class: alone it is no denial.
	 */
	if (!r->cont_short &&
	    !((rec->type == AD_REC_AVC || rec->type == AD_REC_USER_AVC) &&
	      ad_paste_find_avc(rec->body, rec->body + strlen(rec->body)) &&
	      !ad_paste_has_denial(rec->body, rec->body + strlen(rec->body))))
		return FALSE;
	/* a line that starts a record of its own, behind a prefix, continues none */
	if (ad_paste_skip_prefix(p, end) != p || g_strstr_len(p, end - p, "audit(") ||
	    has_prefix(p, end, "ype=") || ad_paste_find_avc(p, end))
		return FALSE;
	if (r->cont_quote_len) {
		if ((gsize)(end - line) < r->cont_quote_len ||
		    memcmp(line, r->cont_quote, r->cont_quote_len) != 0)
			return FALSE;
		p = line + r->cont_quote_len;
	}
	body_len = rec->body_len ? rec->body_len : strlen(rec->body);
	/* cut at full width: as long as the record's first line, which a terminal cut */
	how = ad_paste_continues(rec->body, rec->body + body_len,
				 r->cont_len >= AD_PASTE_FULL_COLS && r->cont_len >= r->cont_width,
				 p, end,
				 end - line >= AD_PASTE_FULL_COLS && (gsize)(end - line) >= r->cont_width,
				 rec->interpreted);
	if (how < 0)
		return FALSE;
	while (*p == ' ' || *p == '\t')
		p++;
	ev = r->cont_oe->ev;
	while (body_len && rec->body[body_len - 1] == ' ')
		body_len--;
	text_len = (rec->body - rec->text) + body_len;
	add = end - p;
	if (text_len + add > AD_WRAP_MAX_BYTES)
		return FALSE;
	t = ad_event_alloc(ev, text_len + 1 + add + 1);
	memcpy(t, rec->text, text_len);
	if (how)
		t[text_len++] = ' ';
	memcpy(t + text_len, p, add);
	t[text_len + add] = '\0';
	rec->body = t + (rec->body - rec->text);
	rec->body_len = t + text_len + add - rec->body;
	rec->text = t;
	r->cont_line = r->line_no;
	r->cont_short = end - line <= AD_WRAP_COLS;
	r->cont_len = end - line;
	r->cont_lines++;
	return TRUE;
}

/* every record from @start to @end on a line, the first one's header in @h */
static void parse_records(AdReader *r, const char *start, AdHeader *h, const char *end)
{
	while (start && start < end) {
		start = parse_record(r, start, h, end);
		if (start >= end)
			break;
	}
}

/*
 * A line that is no record as it stands: what a paste made of one.  A
 * grep or quote prefix, a lost first letter, a header without a stamp or
 * no header at all, the kernel's old "audit(STAMP): avc: ..." form.
 * FALSE when none of them gives a record.
 */
static gboolean pasted_line(AdReader *r, char *line, const char *p, const char *end,
			    gboolean may_wrap)
{
	char *s = (char *)ad_paste_skip_prefix(p, end);
	g_autofree char *fixed = NULL;
	const char *start, *q, *avc;
	AdHeader h;

	if (has_prefix(s, end, "ype=")) {
		/* "ype=SYSCALL": the first letter lost in copying, of a type libaudit knows */
		const char *n = s + 4;

		for (q = n; ad_header_type_char[(guchar)*q]; q++)
			;
		if (!type_number(r, n, q - n))
			return FALSE;
		if (s > line) {
			*--s = 't';
		} else {
			fixed = g_strconcat("t", s, NULL);
			end = fixed + (end - s) + 1;
			s = fixed;
		}
	}
	if (s != p && (start = ad_split_find_header(s, end, &h)) == s) {
		parse_records(r, start, &h, end);
		return TRUE;
	}
	if (s != p && has_prefix(s, end, "node=") && (start = ad_split_find_header(s, end, &h)) &&
	    start == s) {
		parse_records(r, start, &h, end);
		return TRUE;
	}
	p = s;
	/* "type=AVC avc:  denied ...": a header without its audit(...) */
	if (has_prefix(p, end, "type=")) {
		const char *n = p + 5;

		for (q = n; ad_header_type_char[(guchar)*q]; q++)
			;
		return q > n && headerless_denial(r, n, q - n, q, end, may_wrap);
	}
	/* the old kernel form: "kernel: audit(1181843442.374:71): avc:  denied ..." */
	q = g_strstr_len(p, end - p, "audit(");
	if (q && (q == p || q[-1] == ' ')) {
		const char *close = memchr(q, ')', end - q);

		if (close && has_prefix(close, end, "): avc:")) {
			h.name = "AVC";
			h.name_len = 3;
			h.stamp = q + 6;
			parse_records(r, q, &h, end);
			return TRUE;
		}
	}
	/* a bare "avc:  denied  { ... } for ..." */
	avc = ad_paste_find_avc(p, end);
	if (avc && avc - p >= 5 && memcmp(avc - 5, "msg='", 5) == 0)
		return headerless_denial(r, "USER_AVC", 8, p, end, may_wrap);
	if (avc)
		return headerless_denial(r, "AVC", 3, avc, end, may_wrap);
	return FALSE;
}

static void process_line(AdReader *r, char *line, gsize len, guint seen);
static void process_segment(AdReader *r, char *line, const char *p, const char *end,
			    gsize len, gboolean first, gboolean last);
static void form_flush(AdReader *r);
/*
 * The line after a record whose "audit(" a hard wrap cut ("audit(1580863503.1"
 * + "97:786): avc: ..."): when [@p, @end) finishes the stamp, the two are
 * read as the one line they were (TRUE); else the cut record is reported
 * and the line is read as it stands (FALSE).
 */
static gboolean cut_header_continues(AdReader *r, const char *p, const char *end)
{
	g_autofree char *head = g_steal_pointer(&r->cut_header);
	guint line = r->line_no;

	if (ad_paste_finishes_stamp(p, end)) {
		g_autofree char *joined = g_strconcat(head, p, NULL);

		process_line(r, joined, strlen(joined), SEEN_UNKNOWN);
		return TRUE;
	}
	r->line_no = r->cut_line;
	reader_problem(r, "%s", _("malformed audit(...) timestamp: record skipped"));
	r->line_no = line;
	return FALSE;
}

#define AD_FORM_MAX_LINES 64

/*
 * The denial gathered from lines of one field each, read as a record
 * without a header when its fields make a whole denial (permissions,
 * scontext, tcontext, tclass); else the lines were not a denial.
 */
static void form_flush(AdReader *r)
{
	g_autofree char *body = NULL;
	guint line = r->line_no;

	if (!r->form->len)
		return;
	body = g_strdup_printf("avc:  denied  %s", r->form->str);
	g_string_truncate(r->form, 0);
	if (!r->form_perms || !ad_paste_has_denial(body, body + strlen(body)))
		return;
	r->line_no = r->form_line;
	/* its lines stand for one record: they continue none, and none continues it */
	r->cont_rec = NULL;
	headerless_denial(r, "AVC", 3, body, body + strlen(body), FALSE);
	r->cont_rec = NULL;
	r->line_no = line;
}

/* a setroubleshoot report the lines ended: its denial read, or why there is none said */
static void sealert_report(AdReader *r, AdSealertReport *rep)
{
	guint line = r->line_no;

	if (!rep->body) {
		if (r->on_note)
			r->on_note(r->source, rep->line, rep->missing, r->user_data);
		return;
	}
	r->line_no = rep->line;
	r->cont_rec = NULL;
	headerless_denial(r, "AVC", 3, rep->body, rep->body + strlen(rep->body), FALSE);
	r->cont_rec = NULL;
	r->line_no = line;
	g_free(rep->body);
}

/*
 * A line of a denial pasted one field per line: gathered (TRUE).  A field
 * the gathered ones already hold starts another denial, never merged
 * into the first.
 */
static gboolean form_add(AdReader *r, const char *p, const char *end)
{
	const char *key, *value;
	gsize key_len, value_len;

	if (!ad_paste_form_line(p, end, &key, &key_len, &value, &value_len))
		return FALSE;
	if (r->form->len) {
		g_autofree char *field = key ? g_strdup_printf(" %.*s=", (int)key_len, key) : NULL;

		if ((key ? strstr(r->form->str, field) != NULL : r->form_perms) ||
		    r->form_lines >= AD_FORM_MAX_LINES)
			form_flush(r);
	}
	if (!r->form->len) {
		r->form_line = r->line_no;
		r->form_lines = 0;
		r->form_perms = FALSE;
	}
	r->form_lines++;
	if (!key) {
		/* the permissions come first, as in a record */
		g_autofree char *rest = g_strdup(r->form->str);

		g_string_printf(r->form, "%.*s for %s", (int)value_len, value, rest);
		r->form_perms = TRUE;
	} else {
		gboolean quote = memchr(value, ' ', value_len) && value[0] != '"';

		/* a value with blanks as the kernel would have quoted it */
		g_string_append_printf(r->form, " %.*s=%s%.*s%s", (int)key_len, key,
				       quote ? "\"" : "", (int)value_len, value, quote ? "\"" : "");
	}
	return TRUE;
}

/*
 * @seen: what ad_split_scan_line() found in the line (SEEN_NUL, SEEN_GS, SEEN_ESC),
 * or SEEN_UNKNOWN when the line was not scanned.
 */
static void process_line(AdReader *r, char *line, gsize len, guint seen)
{
	const char *p, *end;
	char *gs = NULL;
	AdSealertReport rep;

	r->lines++;
	if ((seen & SEEN_UNKNOWN) ? memchr(line, '\0', len) != NULL : (seen & SEEN_NUL)) {
		reader_problem(r, "%s", _("line holds NUL bytes: skipped"));
		return;
	}
	/* terminal colours (grep --color, a coloured prompt): never inside a raw value */
	if ((seen & SEEN_ESC) || ((seen & SEEN_UNKNOWN) && memchr(line, 0x1b, len)))
		len = ad_paste_strip_ansi(line, len);
	while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
		line[--len] = '\0';
	/* log_format=ENRICHED: interpreted copies follow a \x1d separator */
	if (seen & (SEEN_UNKNOWN | SEEN_GS))
		gs = ad_split_enriched_separator(line, len);
	if (gs) {
		*gs = '\0';
		len = gs - line;
	}
	end = line + len;
	p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (r->cut_header && cut_header_continues(r, p, end))
		return;
	if (ad_sealert_line(r->sealert, line, end, r->line_no, &rep))
		sealert_report(r, &rep);
	else if (ad_sealert_open(r->sealert) && g_strstr_len(p, end - p, "avc:"))
		ad_sealert_record(r->sealert, p, end);
	/* the lines of one field each end at the first that is not one */
	if (r->form->len) {
		const char *k, *v;
		gsize kn, vn;

		if (!ad_paste_form_line(p, end, &k, &kn, &v, &vn))
			form_flush(r);
	}
	if (!*p || has_prefix(p, end, "time->"))
		return;
	if (has_prefix(p, end, "----")) {
		/* ausearch's event separator: everything before is complete */
		emit_all(r);
		return;
	}

	g_clear_pointer(&r->line_node, g_free);
	for (char *seg = (char *)p; seg;) {
		gboolean refuse = FALSE;
		char *next = (char *)ad_split_next(seg, end, &refuse);

		if (refuse) {
			reader_problem(r, "%s", _("a user-space record, whose text is the sender's, "
						  "holds what reads as another record after a quote: "
						  "records run together there cannot be told apart: "
						  "the rest of the line is skipped"));
			return;
		}
		char *cut = next ? next - 1 : (char *)end;
		guint64 records = r->records;

		/* a blank, or the quotes of a printed list: each record's text ends there */
		if (next && *cut == '\'' && cut - seg >= 3 && cut[-1] == ' ' && cut[-2] == ',' &&
		    cut[-3] == '\'')
			cut -= 3;
		*cut = '\0';
		process_segment(r, line, seg, cut, len, seg == p, !next);
		/* a record that text followed on its line does not go on in the next */
		if (!next && seg != p && r->records == records && r->cont_line == r->line_no)
			r->cont_rec = NULL;
		seg = next;
	}
}

/*
 * The journal or syslog prefix at @p, if there is one (and, when @after is
 * given, it ends there): the time and host of the record after it.
 */
static void take_journal_prefix(AdReader *r, const char *p, const char *end,
				const char *after)
{
	const char *q = ad_paste_journal_prefix(p, end, &r->js);

	r->have_js = q && (!after || q == after);
	if (r->have_js && r->js.host) {
		gsize n = MIN(r->js.host_len, sizeof(r->host) - 1);

		memcpy(r->host, r->js.host, n);
		r->host[n] = '\0';
		r->js.host = r->host;
	}
}

/*
 * Where journald's "audit[PID]: TYPE " or "audit: TYPE " in [@p, @lim)
 * names the type of a record, TYPE one libaudit knows, or NULL; @n gets
 * the type's length, @pid whether it is the form with a pid.
 */
static const char *journal_type(AdReader *r, const char *p, const char *lim, gsize *n,
				gboolean *pid)
{
	const char *q = memmem(p, lim - p, "audit[", 6);

	*pid = FALSE;
	if (q) {
		const char *c = memmem(q, lim - q, "]: ", 3);

		if (c && (*n = known_type_prefix(r, c + 3))) {
			*pid = TRUE;
			return c + 3;
		}
	}
	q = memmem(p, lim - p, "audit: ", 7);
	if (q && (*n = known_type_prefix(r, q + 7)))
		return q + 7;
	return NULL;
}

/*
 * One record of a line, or the records a header starts, from @p to @end (a
 * NUL): the line split at each record start (ad_split_next()) or the line
 * whole.  @first: it starts the line (it may continue the line before);
 * @last: it ends it (it may go on in the next).
 */
static void process_segment(AdReader *r, char *line, const char *p, const char *end,
				gsize len, gboolean first, gboolean last)
{
	const char *start, *jt;
	gboolean pid;
	AdHeader h;
	gsize n;

	/* a journal or syslog prefix: the record's time and host */
	take_journal_prefix(r, p, end, NULL);
	/* the first record on the line, after any syslog/journal/dmesg prefix */
	start = ad_split_find_header(p, end, &h);
	/*
	 * journald: "... audit[1234]: AVC avc:  denied ...", or without a pid
	 * "... audit: PROCTITLE proctitle=...".  A header after that is in
	 * the record's text (a USER_AVC sender's, which ad_split_next() left
	 * whole): the record is the journal's, not one the sender wrote.
	 */
	jt = journal_type(r, p, start ? start : end, &n, &pid);
	if (start && !jt) {
		parse_records(r, start, &h, end);
		goto done;
	}
	if (!start && first && continue_record(r, line, p, end))
		return;
	if (jt) {
		/* "It addresses the following AVC denial: Dec 11 13:42:42 host audit[657]: ..." */
		for (const char *w = p; pid && !r->have_js && w && w < jt; w = strchr(w, ' ')) {
			while (*w == ' ')
				w++;
			take_journal_prefix(r, w, end, jt);
		}
		parse_headerless(r, jt, n, jt + n + 1, end);
		goto done;
	}
	/* a bare record: "SELINUX_ERR op=... scontext=..." */
	n = known_type_prefix(r, p);

	if (n && strchr(p + n, '=')) {
		parse_headerless(r, p, n, p + n + 1, end);
		goto done;
	}
	if (pasted_line(r, line, p, end, last && len <= AD_WRAP_COLS))
		goto done;
	/* a denial pasted one field per line */
	if (first && last && form_add(r, p, end))
		return;
	if (strstr(p, "msg=audit(") || (strstr(p, "type=") && strstr(p, "avc:"))) {
		reader_problem(r, "%s", _("not a well-formed audit record: skipped"));
		return;
	}
	/* anything else (shell prompts, other log lines) is not audit text */
	return;
done:
	if (r->cont_line == r->line_no) {
		/* a short record line: the next line may continue it */
		guint k = 0;

		r->cont_short = len <= AD_WRAP_COLS;
		r->cont_len = r->cont_width = len;
		r->cont_lines = 0;
		while (k < len && k < sizeof(r->cont_quote) &&
		       (line[k] == '>' || (line[k] == ' ' && k && line[k - 1] == '>')))
			k++;
		memcpy(r->cont_quote, line, k);
		r->cont_quote_len = k;
	}
}

static void take_line(AdReader *r, char *line, gsize len, guint seen)
{
	r->line_no++;
	if (r->discarding) {
		r->discarding = FALSE;
		return;
	}
	process_line(r, line, len, seen);
}

/*
 * Splits @buf into lines.  A line that lies whole in a @writable buffer
 * is processed where it is (its newline becomes the NUL that ends it);
 * any other line is put together in r->partial first.
 */
static void feed(AdReader *r, char *buf, gsize len, gboolean writable)
{
	char *p = buf, *end = buf + len;

	r->now = ad_clock_monotonic_us() / 1e6;

	while (p < end) {
		guint seen;
		char *nl = ad_split_scan_line(p, end, &seen);
		gsize n = nl ? (gsize)(nl - p) : (gsize)(end - p);

		if (r->discarding) {
			if (nl)
				take_line(r, NULL, 0, SEEN_UNKNOWN);
			p = nl ? nl + 1 : end;
			continue;
		}
		if (r->partial->len + n > AD_MAX_LINE) {
			r->line_no++;
			r->lines++;
			reader_problem(r, _("line longer than %u bytes: skipped"), AD_MAX_LINE);
			r->line_no--;
			g_string_truncate(r->partial, 0);
			r->discarding = TRUE;
			continue;
		}
		if (!nl) {
			g_string_append_len(r->partial, p, n);
			break;
		}
		/* what the dates of `ausearch -i` text may look ahead into */
		r->ahead = nl + 1;
		r->ahead_end = end;
		if (r->partial->len) {
			g_string_append_len(r->partial, p, n);
			take_line(r, r->partial->str, r->partial->len, SEEN_UNKNOWN);
			g_string_truncate(r->partial, 0);
		} else if (writable) {
			*nl = '\0';
			take_line(r, p, n, seen);
		} else {
			/* one reusable buffer: process_line writes into the line */
			g_string_append_len(r->partial, p, n);
			take_line(r, r->partial->str, n, seen);
			g_string_truncate(r->partial, 0);
		}
		p = nl + 1;
	}
}

void ad_reader_feed(AdReader *r, const char *buf, gsize len)
{
	feed(r, (char *)buf, len, FALSE);	/* not written to */
}

void ad_reader_end_source(AdReader *r)
{
	AdSealertReport rep;

	r->now = ad_clock_monotonic_us() / 1e6;
	r->ahead = r->ahead_end = NULL;
	if (r->partial->len && !r->discarding) {
		g_autofree char *line = g_strndup(r->partial->str, r->partial->len);

		r->line_no++;
		process_line(r, line, r->partial->len, SEEN_UNKNOWN);
	}
	g_string_truncate(r->partial, 0);
	r->discarding = FALSE;
	if (r->cut_header)
		cut_header_continues(r, "", "");
	form_flush(r);
	if (ad_sealert_finish(r->sealert, &rep))
		sealert_report(r, &rep);
	emit_all(r);
	flush_notes(r);
}

void ad_reader_set_chunk_func(AdReader *r, AdChunkFunc func, gpointer user_data)
{
	r->on_chunk = func;
	r->chunk_data = user_data;
}

void ad_reader_feed_owned(AdReader *r, char *buf, gsize len)
{
	feed(r, buf, len, TRUE);
}

gboolean ad_reader_chunk(AdReader *r)
{
	return !r->on_chunk || r->on_chunk(r->chunk_data);
}
