// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Events and records: the tokenised form of audit text.
 */
#include <string.h>

#include "event.h"

AdEvent *ad_event_new(const char *node, gint64 sec, guint msec, guint64 serial)
{
	AdEvent *ev = g_new0(AdEvent, 1);

	ev->ref_count = 1;
	ev->node = g_strdup(node);
	ev->sec = sec;
	ev->msec = msec;
	ev->serial = serial;
	ev->records = g_ptr_array_new_with_free_func((GDestroyNotify)ad_record_free);
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

void ad_record_free(AdRecord *rec)
{
	if (!rec)
		return;
	for (guint i = 0; i < rec->fields->len; i++) {
		AdField *f = &g_array_index(rec->fields, AdField, i);

		g_free(f->name);
		g_free(f->value);
	}
	g_array_unref(rec->fields);
	g_free(rec->type_name);
	g_free(rec->text);
	g_free(rec);
}

static const AdField *record_field(const AdRecord *rec, const char *name, gboolean last)
{
	const AdField *found = NULL;

	for (guint i = 0; i < rec->fields->len; i++) {
		const AdField *f = &g_array_index(rec->fields, AdField, i);

		if (strcmp(f->name, name) == 0) {
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
	guint n = 0;

	for (guint i = 0; i < rec->fields->len; i++)
		if (strcmp(g_array_index(rec->fields, AdField, i).name, name) == 0)
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
