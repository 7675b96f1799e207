// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Events and records: the tokenised form of audit text.
 */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "event.h"
#include "paste.h"

/*
 * The event's memory: blocks handed out by bumping a pointer, all freed
 * with the event.  An event of a kernel denial (AVC, SYSCALL, CWD, PATH,
 * PROCTITLE) fits in three blocks where each record, text, field array and
 * field buffer used to be an allocation of its own.
 *
 * Blocks are of one size, and each thread keeps the blocks of the events
 * it freed for the next events: blocks of this size are past glibc's
 * per-thread cache, and freeing them one by one cost more than the rest of
 * the reading.  A request too large for a block gets a block of its own.
 *
 * Threads trade spare blocks through a shared list, BLOCK_TRADE at a time:
 * the report commands free events in the reading thread while the other
 * thread also splits fields into them, so one thread's spares pile up
 * while the other would allocate.
 */
typedef struct ArenaBlock {
	struct ArenaBlock *next;
	gsize size;		/* bytes of data; the event's cursor tells what is used */
	char data[];
} ArenaBlock;

#define BLOCK_BYTES	2048				/* a standard block, header included */
#define BLOCK_DATA	(BLOCK_BYTES - sizeof(ArenaBlock))
#define POOL_MAX	512				/* spare blocks kept per thread: 1 MiB */
#define BLOCK_TRADE	64				/* blocks moved to or from the shared list */
#define SHARED_MAX	512				/* spare blocks on the shared list */

typedef struct {
	ArenaBlock *spare;
	guint n;
} BlockPool;

static GMutex shared_lock;
static BlockPool shared;	/* under shared_lock */
static gint shared_n;		/* shared.n, also read without the lock */

/* moves up to @n blocks from @from to @to */
static void pool_move(BlockPool *from, BlockPool *to, guint n)
{
	while (n-- && from->spare) {
		ArenaBlock *b = from->spare;

		from->spare = b->next;
		from->n--;
		b->next = to->spare;
		to->spare = b;
		to->n++;
	}
}

static void pool_free(gpointer data)
{
	BlockPool *pool = data;

	while (pool->spare) {
		ArenaBlock *b = pool->spare;

		pool->spare = b->next;
		g_free(b);
	}
	g_free(pool);
}

static GPrivate pool_key = G_PRIVATE_INIT(pool_free);

static BlockPool *pool_get(void)
{
	BlockPool *pool = g_private_get(&pool_key);

	if (!pool) {
		pool = g_new0(BlockPool, 1);
		g_private_set(&pool_key, pool);
	}
	return pool;
}

static ArenaBlock *block_new(gsize size)
{
	ArenaBlock *b;

	if (size <= BLOCK_DATA) {
		BlockPool *pool = pool_get();

		if (!pool->spare && g_atomic_int_get(&shared_n)) {
			g_mutex_lock(&shared_lock);
			pool_move(&shared, pool, BLOCK_TRADE);
			g_atomic_int_set(&shared_n, shared.n);
			g_mutex_unlock(&shared_lock);
		}
		if (pool->spare) {
			b = pool->spare;
			pool->spare = b->next;
			pool->n--;
		} else {
			b = g_malloc(BLOCK_BYTES);
		}
		b->size = BLOCK_DATA;
	} else {
		b = g_malloc(sizeof(ArenaBlock) + size);
		b->size = size;
	}
	b->next = NULL;
	return b;
}

static void blocks_free(ArenaBlock *b)
{
	BlockPool *pool = b ? pool_get() : NULL;

	while (b) {
		ArenaBlock *next = b->next;

		if (b->size == BLOCK_DATA && pool->n >= POOL_MAX) {
			g_mutex_lock(&shared_lock);
			if (shared.n < SHARED_MAX)
				pool_move(pool, &shared, BLOCK_TRADE);
			g_atomic_int_set(&shared_n, shared.n);
			g_mutex_unlock(&shared_lock);
		}
		if (b->size == BLOCK_DATA && pool->n < POOL_MAX) {
			b->next = pool->spare;
			pool->spare = b;
			pool->n++;
		} else {
			g_free(b);
		}
		b = next;
	}
}

gpointer ad_event_alloc_block(AdEvent *ev, gsize size)
{
	ArenaBlock *b = ev->arena;
	ArenaBlock *nb = block_new(size);

	if (b && size > BLOCK_DATA / 2) {
		/* a big request: the current block goes on being filled */
		nb->next = b->next;
		b->next = nb;
		return nb->data;
	}
	nb->next = b;
	ev->arena = nb;
	ev->arena_next = nb->data + size;
	ev->arena_end = nb->data + nb->size;
	return nb->data;
}

AdRecord *ad_event_new_record(AdEvent *ev)
{
	AdRecord *rec = ad_event_alloc(ev, sizeof(AdRecord));

	memset(rec, 0, sizeof(*rec));
	rec->event = ev;
	return rec;
}

void ad_event_add_record(AdEvent *ev, AdRecord *rec)
{
	AdRecordList *l = ev->records;

	if (l->len == l->alloc) {
		/* the old array stays in the arena until the event goes */
		AdRecord **p = ad_event_alloc(ev, 2 * l->alloc * sizeof(AdRecord *));

		memcpy(p, l->pdata, l->len * sizeof(AdRecord *));
		l->pdata = p;
		l->alloc *= 2;
	}
	l->pdata[l->len++] = rec;
}

/* the event lives at the start of its own first block */
AdEvent *ad_event_new(const char *node, gint64 sec, guint msec, guint64 serial)
{
	ArenaBlock *b = block_new(sizeof(AdEvent));
	AdEvent *ev = (AdEvent *)(void *)b->data;

	memset(ev, 0, sizeof(*ev));
	ev->arena = b;
	ev->arena_next = b->data + ((sizeof(AdEvent) + 7) & ~(gsize)7);
	ev->arena_end = b->data + b->size;
	ev->ref_count = 1;
	ev->node = g_strdup(node);
	ev->sec = sec;
	ev->msec = msec;
	ev->serial = serial;
	ev->records = ad_event_alloc(ev, sizeof(AdRecordList));
	ev->records->len = 0;
	ev->records->alloc = 8;
	ev->records->pdata = ad_event_alloc(ev, 8 * sizeof(AdRecord *));
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
	blocks_free(ev->arena);		/* ev with it */
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


/* byte classes of the tokenizer: one table lookup per byte */
enum { CH_NAME = 1, CH_SPACE = 2 };

static const guint8 char_class[256] = {
	['\t'] = CH_SPACE, ['\n'] = CH_SPACE, ['\v'] = CH_SPACE, ['\f'] = CH_SPACE,
	['\r'] = CH_SPACE, [' '] = CH_SPACE,
	['-'] = CH_NAME, ['_'] = CH_NAME,
	['0' ... '9'] = CH_NAME, ['A' ... 'Z'] = CH_NAME, ['a' ... 'z'] = CH_NAME,
};

static gboolean is_field_name_char(char c)
{
	return char_class[(guchar)c] & CH_NAME;
}

static gboolean is_space(char c)
{
	return char_class[(guchar)c] & CH_SPACE;
}

/* the first blank or NUL from @p on (the text ends in a NUL at @end) */
static char *value_end(char *p, const char *end)
{
#ifdef __SSE2__
	const __m128i space = _mm_set1_epi8(' '), nul = _mm_setzero_si128();
	const __m128i tab = _mm_set1_epi8('\t'), four = _mm_set1_epi8(4);

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		/* \t \n \v \f \r: v - '\t' is 0 to 4, unsigned */
		__m128i t = _mm_sub_epi8(v, tab);
		__m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(t, four), t);
		__m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space),
							 _mm_cmpeq_epi8(v, nul)), ctl);
		int mask = _mm_movemask_epi8(stop);

		if (mask)
			return p + __builtin_ctz(mask);
		p += 16;
	}
#endif
	while (*p && !is_space(*p))
		p++;
	return p;
}

#define TK_STACK	64		/* fields kept on the stack during a split */

/*
 * The state of one split.  The tokenizer works on a copy of the body in
 * the event's memory and cuts it in place: a NUL where each name and
 * value ends, so no field is copied on its own.  Fields go on the stack
 * (or a spill array for long records) and are copied to the event's
 * memory once their number is known.
 */
typedef struct {
	AdRecord *rec;
	AdField stack[TK_STACK];
	GArray *spill;	/* of AdField, once the stack is full */
	guint n;
} Tokenizer;

/* a field whose name and value are already NUL-terminated in the copy */
static void add_field(Tokenizer *tk, char *name, char *value)
{
	AdField f = { .name = name, .value = value };

	if (tk->n >= AD_MAX_FIELDS)
		return;
	if (tk->n < TK_STACK) {
		tk->stack[tk->n] = f;
	} else {
		if (!tk->spill) {
			tk->spill = g_array_sized_new(FALSE, FALSE, sizeof(AdField), 2 * TK_STACK);
			g_array_append_vals(tk->spill, tk->stack, TK_STACK);
		}
		g_array_append_val(tk->spill, f);
	}
	tk->n++;
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
 * Splits @s, a writable copy that ends in a NUL at @end, into name=value
 * fields, writing a NUL at the end of each name and value.  Values in
 * "..." end at the next quote (the kernel hex-encodes any value holding
 * one).  msg='...' of user-space records runs to the last quote of the
 * record, and a second copy of the text inside is split as well, so the
 * trailing fields that libselinux appends come last (ad_record_get_last()
 * finds them).  In a journal line's record without a stamp, journald may
 * have decoded a hex-encoded value: an unquoted value of a field that may
 * hold blanks (a path "/memfd:x (deleted)") runs to the next field.
 */
static void tokenize(Tokenizer *tk, char *s, char *end, int depth)
{
	AdRecord *rec = tk->rec;
	char *p = s;

	/*
	 * The text ends in a NUL at @end and every NUL written is behind @p:
	 * the scans stop at @end without comparing with it (NUL is neither a
	 * name byte nor a blank).
	 */
	while (p < end) {
		while (is_space(*p))
			p++;
		if (p >= end)
			break;
		char *name = p;

		while (is_field_name_char(*p))
			p++;
		if (p == name || p >= end || *p != '=') {
			/* a word that is no field: "avc:", "denied", "{", "read" */
			while (*p && !is_space(*p))
				p++;
			continue;
		}
		gsize name_len = p - name;

		*p++ = '\0'; /* '=' */
		if (p < end && *p == '"') {
			char *v = ++p;
			char *q = memchr(v, '"', end - v);

			if (!q)
				q = end;
			*q = '\0';
			add_field(tk, name, v);
			p = q < end ? q + 1 : end;
		} else if (p < end && *p == '\'') {
			char *v = ++p;
			char *q = end;

			while (q > v && q[-1] != '\'')
				q--;
			if (q == v)	/* no closing quote: to the end */
				q = end + 1;
			if (depth == 0 && q - 1 > v) {
				/* the inside, split in a copy of its own */
				gsize in_len = (q - 1) - v;
				char *in = ad_event_alloc(rec->event, in_len + 1);

				memcpy(in, v, in_len);
				in[in_len] = '\0';
				q[-1] = '\0';
				add_field(tk, name, v);
				tokenize(tk, in, in + in_len, depth + 1);
			} else {
				q[-1] = '\0';
				add_field(tk, name, v);
			}
			p = q <= end ? q : end;
		} else if ((rec->interpreted && !(name_len == 3 && memcmp(name, "msg", 3) == 0)) ||
			   (rec->journal && ad_paste_holds_blanks(name, name_len))) {
			char *v = p;
			gsize len;

			if (rec->interpreted && name_len == 9 && memcmp(name, "proctitle", 9) == 0) {
				len = end - v;
				while (len && v[len - 1] == ' ')
					len--;
			} else {
				len = interpreted_value_len(v, end);
			}
			p = v + len;	/* a blank or the end */
			if (p < end)
				*p++ = '\0';
			add_field(tk, name, v);
		} else {
			char *v = p;

			p = value_end(p, end);
			if (p < end)
				*p++ = '\0';
			add_field(tk, name, v);
		}
	}
}

/*
 * Fields are split on first use: most records of a log (USER_*, CRED_*,
 * and every event without a denial) are never looked into.  The fields
 * and the cut copy of the body go into the event's memory.
 */
const AdField *ad_record_fields(const AdRecord *crec, guint *n_fields)
{
	AdRecord *rec = (AdRecord *)crec;

	if (!rec->fields) {
		Tokenizer tk;	/* not zeroed whole: the stack is written before it is read */
		gsize len = rec->body_len ? rec->body_len : strlen(rec->body);
		char *copy = ad_event_alloc(rec->event, len + 1);

		memcpy(copy, rec->body, len + 1);
		tk.rec = rec;
		tk.spill = NULL;
		tk.n = 0;
		tokenize(&tk, copy, copy + len, 0);
		rec->fields = ad_event_alloc(rec->event, MAX(tk.n, 1) * sizeof(AdField));
		memcpy(rec->fields, tk.spill ? (AdField *)(void *)tk.spill->data : tk.stack,
		       tk.n * sizeof(AdField));
		rec->n_fields = tk.n;
		if (tk.spill)
			g_array_unref(tk.spill);
	}
	*n_fields = rec->n_fields;
	return rec->fields;
}

/* whether the names, whose first two bytes are equal, are equal */
static inline gboolean same_name_from(const char *a, const char *b)
{
	/* names are short: a loop costs less than the strcmp() call */
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static const AdField *record_field(const AdRecord *rec, const char *name, gboolean last)
{
	const AdField *found = NULL;
	guint n;
	const AdField *fields = ad_record_fields(rec, &n);

	for (guint i = 0; i < n; i++) {
		const AdField *f = &fields[i];

		/*
		 * The first two bytes rule out nearly every field (both names
		 * hold at least one byte and a NUL)
		 */
		if (f->name[0] == name[0] && f->name[1] == name[1] &&
		    (!name[1] || same_name_from(f->name + 2, name + 2))) {
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

/*
 * The kernel hex-encodes an untrusted string when it holds a space, a
 * quote, a control byte or a byte above 0x7e, and then prints it without
 * quotes.  So: decode only unquoted values of raw records that are an even
 * number of hex digits.  Interpreted (ausearch -i) text is already decoded.
 */
/* a hex digit's value + 1, 0 for any other byte */
static const guint8 hex_digit[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* whether @value may be the kernel's hex encoding of a string */
static gboolean may_be_hex(const char *value, gsize len, gboolean quoted, gboolean interpreted)
{
	/* "(null)" and "(none)" are ruled out by their first byte */
	return !quoted && !interpreted && len >= 2 && len % 2 == 0 &&
	       hex_digit[(guchar)value[0]] && hex_digit[(guchar)value[1]];
}

/* decodes the @len hex digits at @value into @out; FALSE at a byte that is no digit */
static gboolean decode_hex(const char *value, gsize len, guint8 *out)
{
	for (gsize i = 0; i < len / 2; i++) {
		guint hi = hex_digit[(guchar)value[2 * i]], lo = hex_digit[(guchar)value[2 * i + 1]];

		if (!hi || !lo)
			return FALSE;
		out[i] = ((hi - 1) << 4) | (lo - 1);
	}
	return TRUE;
}

GBytes *ad_decode_value(const char *value, gboolean quoted, gboolean interpreted)
{
	gsize len = strlen(value);

	if (may_be_hex(value, len, quoted, interpreted)) {
		guint8 *buf = g_malloc(len / 2);

		if (decode_hex(value, len, buf))
			return g_bytes_new_take(buf, len / 2);
		g_free(buf);
	}
	return g_bytes_new(value, len);
}

AdBytes ad_record_bytes(const AdRecord *rec, const char *name)
{
	const AdField *f = record_field(rec, name, FALSE);
	gsize len;

	if (!f)
		return AD_BYTES_NONE;
	len = strlen(f->value);
	if (may_be_hex(f->value, len, ad_field_quoted(f), rec->interpreted)) {
		/*
		 * Digits that do not decode (an even-length word starting with
		 * two of them) leave their room in the arena unused: rare, and
		 * bounded by the record's size.
		 */
		guint8 *buf = ad_event_alloc(rec->event, len / 2 + 1);

		if (decode_hex(f->value, len, buf)) {
			buf[len / 2] = '\0';
			return (AdBytes){ (const char *)buf, len / 2 };
		}
	}
	return (AdBytes){ f->value, len };
}

gboolean ad_bytes_equal_str(AdBytes b, const char *s)
{
	return b.data && b.len == strlen(s) && memcmp(b.data, s, b.len) == 0;
}

gboolean ad_bytes_equal_gbytes(AdBytes a, GBytes *g)
{
	gsize len;
	const char *data = g ? g_bytes_get_data(g, &len) : NULL;

	/* an empty GBytes may hold a NULL pointer: no memcmp() on it */
	return a.data && g && a.len == len && (len == 0 || memcmp(a.data, data, len) == 0);
}

GBytes *ad_bytes_dup(AdBytes b)
{
	return b.data ? g_bytes_new(b.data, b.len) : NULL;
}

