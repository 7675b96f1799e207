/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * One audit record, tokenised.  Field values are kept as the raw text of
 * the log (quotes removed); ad_record_bytes() decodes the kernel's hex
 * encoding of untrusted strings.  Records are owned by their AdEvent.
 */
typedef struct {
	char *name;		/* field name, e.g. "scontext" */
	char *value;		/* raw value text, quotes stripped; see ad_field_quoted() */
} AdField;

/*
 * Whether the value was in "..." or '...' in the log.  The split text keeps
 * the opening quote just before a quoted value, where an unquoted one has
 * the NUL that ended its name: two pointers make a field, not three words.
 */
static inline gboolean ad_field_quoted(const AdField *f)
{
	return f->value[-1] == '"' || f->value[-1] == '\'';
}

/* fields kept per record: the rest of a longer record is not split */
#define AD_MAX_FIELDS	4096

typedef struct _AdEvent AdEvent;
typedef struct _AdRecord AdRecord;

/*
 * The records of an event, in the event's memory.  It reads like a
 * GPtrArray (g_ptr_array_index(ev->records, i), ev->records->len); records
 * are added with ad_event_add_record().
 */
typedef struct {
	AdRecord **pdata;
	guint len;
	guint alloc;
} AdRecordList;

struct _AdRecord {
	AdEvent *event;		/* the event whose memory holds the record */
	const char *type_name;	/* "AVC", "SYSCALL", "UNKNOWN[1234]" */
	int type;		/* record type number, 0 when unknown */
	char *text;		/* the whole record as a normalised raw line */
	char *body;		/* the part after "msg=audit(...): " */
	gsize body_len;		/* its length; 0: not known, strlen() it */
	AdField *fields;	/* use ad_record_fields(): split on first use */
	guint n_fields;
	const char *file;	/* input name, "-" for stdin; interned */
	guint line;		/* 1-based line number in that input */
	gboolean interpreted;	/* came from `ausearch -i` style text */
	gboolean journal;	/* a journal line's record without a stamp: journald
				 * may have decoded a value that holds blanks */
};

/*
 * An event: the records that share (node, timestamp, serial).  Refcounted
 * because every denial built from it keeps it for its raw records.
 *
 * The records, their text and their split fields live in the event's own
 * memory (an arena freed with the event): a record costs no allocation of
 * its own.  Only one thread may add to an event or split its records at a
 * time; once built, an event can be read from any thread.
 */
struct _AdEvent {
	gint ref_count;
	char *node;		/* node= prefix, NULL when absent */
	gint64 sec;		/* timestamp, seconds */
	guint msec;		/* milliseconds */
	guint64 serial;		/* 0 when the input had none */
	/* the time is a journal or syslog prefix's: no audit(...) stamp, no serial */
	gboolean time_from_prefix;
	AdRecordList *records;	/* in input order */
	gpointer arena;		/* private: blocks of the event's memory */
	char *arena_next;	/* private: the free part of the newest block */
	char *arena_end;
};

AdEvent *ad_event_new(const char *node, gint64 sec, guint msec, guint64 serial);
AdEvent *ad_event_ref(AdEvent *ev);
void ad_event_unref(AdEvent *ev);
double ad_event_time(const AdEvent *ev);
/* first record of type @type, NULL when none; borrowed */
const AdRecord *ad_event_find_record(const AdEvent *ev, int type);
/* private: ad_event_alloc() when the newest block is full */
gpointer ad_event_alloc_block(AdEvent *ev, gsize size);

/*
 * @size bytes of the event's memory, 8-byte aligned, freed with the event.
 * Inline: an event's records, texts and fields make some twenty-five
 * requests, most a pointer bump.
 */
static inline gpointer ad_event_alloc(AdEvent *ev, gsize size)
{
	size = (size + 7) & ~(gsize)7;
	if (G_LIKELY((gsize)(ev->arena_end - ev->arena_next) >= size)) {
		char *p = ev->arena_next;

		ev->arena_next = p + size;
		return p;
	}
	return ad_event_alloc_block(ev, size);
}
/* a new record of @ev (not yet in ev->records), zeroed but for event */
AdRecord *ad_event_new_record(AdEvent *ev);
/* appends @rec, made by ad_event_new_record(ev), to ev->records */
void ad_event_add_record(AdEvent *ev, AdRecord *rec);
/* the record's fields in order of appearance, @n_fields of them; borrowed */
const AdField *ad_record_fields(const AdRecord *rec, guint *n_fields);
/* first value of field @name, NULL when absent; borrowed */
const char *ad_record_get(const AdRecord *rec, const char *name);
/* last value of field @name (USER_AVC trusted fields), NULL when absent */
const char *ad_record_get_last(const AdRecord *rec, const char *name);
/*
 * Bytes from a record, kept exactly as decoded: any byte, NUL too.  A view
 * into memory that someone else owns (for a denial's fields, its event's);
 * data is NULL when the record did not hold the field.
 */
typedef struct {
	const char *data;
	gsize len;
} AdBytes;

#define AD_BYTES_NONE ((AdBytes){ NULL, 0 })

static inline gboolean ad_bytes_present(AdBytes b)
{
	return b.data != NULL;
}

/* @a when the record held it, else @b */
static inline AdBytes ad_bytes_or(AdBytes a, AdBytes b)
{
	return a.data ? a : b;
}

/* whether @b holds exactly the text @s */
gboolean ad_bytes_equal_str(AdBytes b, const char *s);
/* whether @a holds the same bytes as @g (FALSE when either is absent) */
gboolean ad_bytes_equal_gbytes(AdBytes a, GBytes *g);
/* a copy in memory of its own, for keeping; NULL when @b is absent */
GBytes *ad_bytes_dup(AdBytes b);

/*
 * Value of @name decoded to bytes: hex-encoded unquoted values of raw
 * (not interpreted) records are decoded, everything else is taken as is.
 * The bytes are the field's text or a decoded copy in the event's memory:
 * valid while the event lives.  Like the first split of a record's fields,
 * it writes to the event: one thread at a time.
 */
AdBytes ad_record_bytes(const AdRecord *rec, const char *name);
/* @value decoded as ad_record_bytes() would, in a GBytes of its own */
GBytes *ad_decode_value(const char *value, gboolean quoted, gboolean interpreted);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdEvent, ad_event_unref)

/* Record type numbers (linux/audit.h), named so the code reads well. */
enum {
	AD_REC_USER_AVC = 1107,
	AD_REC_USER_SELINUX_ERR = 1122,
	AD_REC_DAEMON_START = 1200,
	AD_REC_SYSCALL = 1300,
	AD_REC_PATH = 1302,
	AD_REC_SOCKADDR = 1306,
	AD_REC_CWD = 1307,
	AD_REC_EXECVE = 1309,
	AD_REC_EOE = 1320,
	AD_REC_PROCTITLE = 1327,
	AD_REC_AVC = 1400,
	AD_REC_SELINUX_ERR = 1401,
	AD_REC_AVC_PATH = 1402,
	AD_REC_MAC_POLICY_LOAD = 1403,
	AD_REC_MAC_STATUS = 1404,
	AD_REC_FANOTIFY = 1331,
};

G_END_DECLS
