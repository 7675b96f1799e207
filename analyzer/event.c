// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Events and records: the tokenised form of audit text.
 */
#include <string.h>

#include "event.h"

/*
 * The event's memory: blocks taken from malloc, handed out by bumping a
 * pointer, all freed with the event.  An event of a kernel denial (AVC,
 * SYSCALL, CWD, PATH, PROCTITLE) fits in two or three blocks where each
 * record, text, field array and field buffer used to be an allocation.
 */
typedef struct ArenaBlock {
	struct ArenaBlock *next;
	gsize size;		/* bytes of data */
	gsize used;
	char data[];
} ArenaBlock;

#define ARENA_FIRST	1024	/* bytes of an event's first block */
#define ARENA_MAX_STEP	(64u << 10)	/* blocks grow by doubling up to this */

gpointer ad_event_alloc(AdEvent *ev, gsize size)
{
	ArenaBlock *b = ev->arena;
	gsize at;

	size = (size + 7) & ~(gsize)7;
	if (!b || b->size - b->used < size) {
		gsize want = b ? MIN(b->size * 2, ARENA_MAX_STEP) : ARENA_FIRST;
		ArenaBlock *nb;

		want = MAX(want, size);
		nb = g_malloc(sizeof(ArenaBlock) + want);
		nb->size = want;
		nb->used = 0;
		if (b && b->size - b->used >= 256) {
			/* a big request: keep filling the current block afterwards */
			nb->next = b->next;
			b->next = nb;
			nb->used = size;
			return nb->data;
		}
		nb->next = b;
		ev->arena = b = nb;
	}
	at = b->used;
	b->used += size;
	return b->data + at;
}

AdRecord *ad_event_new_record(AdEvent *ev)
{
	AdRecord *rec = ad_event_alloc(ev, sizeof(AdRecord));

	memset(rec, 0, sizeof(*rec));
	rec->event = ev;
	return rec;
}

AdEvent *ad_event_new(const char *node, gint64 sec, guint msec, guint64 serial)
{
	AdEvent *ev = g_new0(AdEvent, 1);

	ev->ref_count = 1;
	ev->node = g_strdup(node);
	ev->sec = sec;
	ev->msec = msec;
	ev->serial = serial;
	ev->records = g_ptr_array_sized_new(8);
	return ev;
}

AdEvent *ad_event_ref(AdEvent *ev)
{
	if (ev)
		g_atomic_int_inc(&ev->ref_count);
	return ev;
}

void ad_event_unref(AdEvent *ev)
{
	if (!ev || !g_atomic_int_dec_and_test(&ev->ref_count))
		return;
	g_free(ev->node);
	g_ptr_array_unref(ev->records);
	for (ArenaBlock *b = ev->arena, *next; b; b = next) {
		next = b->next;
		g_free(b);
	}
	g_free(ev);
}

double ad_event_time(const AdEvent *ev)
{
	return (double)ev->sec + ev->msec / 1000.0;
}

const AdRecord *ad_event_find_record(const AdEvent *ev, int type)
{
	for (guint i = 0; i < ev->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(ev->records, i);

		if (rec->type == type)
			return rec;
	}
	return NULL;
}

#define AD_MAX_FIELDS	4096		/* fields kept per record */

static gboolean is_field_name_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '-';
}

/* the state of one split: ad_record_fields() reserved the room for it */
typedef struct {
	AdRecord *rec;
	AdField *fields;
	guint n;	/* fields written */
	guint cap;	/* fields reserved */
	char *out;	/* next free byte of the names and values */
	char *limit;	/* end of their room */
} Tokenizer;

/*
 * Appends a field; names and values are copied into the record's field
 * buffer, sized by ad_record_fields() so that it never needs to grow, and
 * the field is written into the room reserved in rec->fields (one per '='
 * of the body, which bounds the number of fields).
 */
static void add_field(Tokenizer *tk, const char *name, gsize name_len,
		      const char *value, gsize value_len, gboolean quoted)
{
	char **out = &tk->out;
	AdField *f;

	/* the room is sized for every field; the check only guards that sum */
	if (tk->n >= tk->cap || (gsize)(tk->limit - *out) < name_len + value_len + 2)
		return;
	f = &tk->fields[tk->n++];
	f->name = *out;
	memcpy(*out, name, name_len);
	(*out)[name_len] = '\0';
	*out += name_len + 1;
	f->value = *out;
	memcpy(*out, value, value_len);
	(*out)[value_len] = '\0';
	*out += value_len + 1;
	f->quoted = quoted;
}

/* length of an interpreted (ausearch -i) value: up to the next " name=" */
static gsize interpreted_value_len(const char *v, const char *end)
{
	const char *p = v;

	while (p < end) {
		if (*p == ' ') {
			const char *q = p;

			while (q < end && *q == ' ')
				q++;
			const char *n = q;

			while (n < end && is_field_name_char(*n))
				n++;
			if (n > q && n < end && *n == '=')
				break;
			/* the end of an interpreted group: saddr={ ... lport=8080 } */
			if (*q == '}' && (q + 1 == end || q[1] == ' '))
				break;
			if (q >= end)
				break;
			p = q;
			continue;
		}
		p++;
	}
	/* drop trailing blanks */
	while (p > v && p[-1] == ' ')
		p--;
	return p - v;
}

/*
 * Splits @s into name=value fields.  Values in "..." end at the next
 * quote (the kernel hex-encodes any value holding one).  msg='...' of
 * user-space records runs to the last quote of the record, and the text
 * inside is split as well, so the trailing fields that libselinux appends
 * come last (ad_record_get_last() finds them).
 */
static void tokenize(Tokenizer *tk, const char *s, const char *end, int depth)
{
	AdRecord *rec = tk->rec;
	const char *p = s;

	while (p < end) {
		while (p < end && g_ascii_isspace(*p))
			p++;
		if (p >= end)
			break;
		const char *name = p;

		while (p < end && is_field_name_char(*p))
			p++;
		if (p == name || p >= end || *p != '=') {
			/* a word that is no field: "avc:", "denied", "{", "read" */
			while (p < end && !g_ascii_isspace(*p))
				p++;
			continue;
		}
		gsize name_len = p - name;

		p++; /* '=' */
		if (p < end && *p == '"') {
			const char *v = ++p;
			const char *q = memchr(v, '"', end - v);

			if (!q)
				q = end;
			add_field(tk, name, name_len, v, q - v, TRUE);
			p = q < end ? q + 1 : end;
		} else if (p < end && *p == '\'') {
			const char *v = ++p;
			const char *q = end;

			while (q > v && q[-1] != '\'')
				q--;
			if (q == v)	/* no closing quote: to the end */
				q = end + 1;
			add_field(tk, name, name_len, v, (q - 1) - v, TRUE);
			if (depth == 0)
				tokenize(tk, v, q - 1, depth + 1);
			p = q <= end ? q : end;
		} else if (rec->interpreted &&
			   !(name_len == 3 && memcmp(name, "msg", 3) == 0)) {
			const char *v = p;
			gsize len;

			if (name_len == 9 && memcmp(name, "proctitle", 9) == 0) {
				len = end - v;
				while (len && v[len - 1] == ' ')
					len--;
			} else {
				len = interpreted_value_len(v, end);
			}
			add_field(tk, name, name_len, v, len, FALSE);
			p = v + len;
		} else {
			const char *v = p;

			while (p < end && !g_ascii_isspace(*p))
				p++;
			add_field(tk, name, name_len, v, p - v, FALSE);
		}
	}
}

/*
 * Fields are split on first use: most records of a log (USER_*, CRED_*,
 * and every event without a denial) are never looked into.  The fields,
 * names and values go into the event's memory.
 */
const AdField *ad_record_fields(const AdRecord *crec, guint *n_fields)
{
	AdRecord *rec = (AdRecord *)crec;
	Tokenizer tk = { .rec = rec };
	gsize len;

	if (!rec->fields) {
		len = strlen(rec->body);
		/* every field has its own '=': their count bounds the number of fields */
		for (const char *p = rec->body; (p = memchr(p, '=', rec->body + len - p)) != NULL;
		     p++)
			tk.cap++;
		tk.cap = MIN(tk.cap, AD_MAX_FIELDS);
		tk.fields = ad_event_alloc(rec->event, MAX(tk.cap, 1) * sizeof(AdField));
		/*
		 * Names and values with their NULs: the body once, and once more
		 * for the inside of msg='...', which is split too.
		 */
		gsize room = 2 * len + 2 * tk.cap + 16;

		tk.out = ad_event_alloc(rec->event, room);
		tk.limit = tk.out + room;
		tokenize(&tk, rec->body, rec->body + len, 0);
		rec->fields = tk.fields;
		rec->n_fields = tk.n;
	}
	*n_fields = rec->n_fields;
	return rec->fields;
}

static const AdField *record_field(const AdRecord *rec, const char *name, gboolean last)
{
	const AdField *found = NULL;
	guint n;
	const AdField *fields = ad_record_fields(rec, &n);

	for (guint i = 0; i < n; i++) {
		const AdField *f = &fields[i];

		/* the first byte rules out nearly every field without a call */
		if (f->name[0] == name[0] && strcmp(f->name, name) == 0) {
			found = f;
			if (!last)
				break;
		}
	}
	return found;
}

const char *ad_record_get(const AdRecord *rec, const char *name)
{
	const AdField *f = record_field(rec, name, FALSE);

	return f ? f->value : NULL;
}

const char *ad_record_get_last(const AdRecord *rec, const char *name)
{
	const AdField *f = record_field(rec, name, TRUE);

	return f ? f->value : NULL;
}

guint ad_record_count(const AdRecord *rec, const char *name)
{
	guint n = 0, len;
	const AdField *fields = ad_record_fields(rec, &len);

	for (guint i = 0; i < len; i++)
		if (strcmp(fields[i].name, name) == 0)
			n++;
	return n;
}

/*
 * The kernel hex-encodes an untrusted string when it holds a space, a
 * quote, a control byte or a byte above 0x7e, and then prints it without
 * quotes.  So: decode only unquoted values of raw records that are an even
 * number of hex digits.  Interpreted (ausearch -i) text is already decoded.
 */
GBytes *ad_decode_value(const char *value, gboolean quoted, gboolean interpreted)
{
	gsize len = strlen(value);

	if (!quoted && !interpreted && len >= 2 && len % 2 == 0 &&
	    strcmp(value, "(null)") != 0 && strcmp(value, "(none)") != 0) {
		gboolean hex = TRUE;

		for (gsize i = 0; i < len && hex; i++)
			hex = g_ascii_isxdigit(value[i]);
		if (hex) {
			guint8 *buf = g_malloc(len / 2);

			for (gsize i = 0; i < len / 2; i++)
				buf[i] = (g_ascii_xdigit_value(value[2 * i]) << 4) |
					 g_ascii_xdigit_value(value[2 * i + 1]);
			return g_bytes_new_take(buf, len / 2);
		}
	}
	return g_bytes_new(value, len);
}

GBytes *ad_record_get_bytes(const AdRecord *rec, const char *name)
{
	const AdField *f = record_field(rec, name, FALSE);

	if (!f)
		return NULL;
	return ad_decode_value(f->value, f->quoted, rec->interpreted);
}
