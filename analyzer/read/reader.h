/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include "read/event.h"

G_BEGIN_DECLS

#define AD_READER_ERROR (ad_reader_error_quark())
GQuark ad_reader_error_quark(void);

typedef enum {
	AD_READER_ERROR_OPEN,
	AD_READER_ERROR_READ,
} AdReaderError;

/*
 * Turns text (raw audit logs, `ausearch --raw` / `ausearch -i` output,
 * kernel-log and journal lines) into AdEvents.  Chunks of any size may be
 * fed; event assembly is linear in the input whatever the timestamps.
 *
 * on_event gets a borrowed event (ref it to keep it).  on_problem gets a
 * message naming what is wrong with the line; the rest of the input goes on.
 */
typedef void (*AdEventFunc)(AdEvent *ev, gpointer user_data);
typedef void (*AdProblemFunc)(const char *file, guint line, const char *message,
			      gpointer user_data);

typedef struct _AdReader AdReader;

AdReader *ad_reader_new(AdEventFunc on_event, AdProblemFunc on_problem,
			gpointer user_data);
void ad_reader_free(AdReader *r);

/*
 * Notes: what the reader assumed to read an input (denials without a
 * readable header, the order of day and month in its dates), once per
 * input, with the first line concerned.  Not rejections: not counted in
 * ad_reader_rejected().  Same user_data as the other callbacks.
 */
void ad_reader_set_note_func(AdReader *r, AdProblemFunc on_note);

/* name used in messages for what is fed next; resets the line counter */
void ad_reader_set_source(AdReader *r, const char *name);
void ad_reader_feed(AdReader *r, const char *buf, gsize len);
/*
 * The modification time of what is fed next (after ad_reader_set_source()):
 * the year of journal and syslog lines whose prefix names none, when no
 * stamped record of the input tells it.  ad_reader_read_file() and
 * ad_reader_read_fd() set it for a regular file.
 */
void ad_reader_set_mtime(AdReader *r, gint64 mtime);
/* end of one input: the last unterminated line is a record; open events are emitted */
void ad_reader_end_source(AdReader *r);
/* emit events whose newest record is older than @max_age seconds of wall clock */
void ad_reader_age(AdReader *r, double max_age);
/* reads a whole file ("-" is stdin); FALSE with @error when it cannot be opened */
gboolean ad_reader_read_file(AdReader *r, const char *path, GError **error);
/* the same from @fd, open for reading (not closed), named @path in messages */
gboolean ad_reader_read_fd(AdReader *r, int fd, const char *path, GError **error);
/*
 * Called by ad_reader_read_file() after each chunk it has fed (and once at
 * the end of the file), so that a caller can pass on what it has buffered
 * before the next read() may block.  Returning FALSE stops reading the file.
 */
typedef gboolean (*AdChunkFunc)(gpointer user_data);
void ad_reader_set_chunk_func(AdReader *r, AdChunkFunc func, gpointer user_data);

/* counters for the closing summary */
guint64 ad_reader_lines(const AdReader *r);
guint64 ad_reader_records(const AdReader *r);
guint64 ad_reader_rejected(const AdReader *r);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdReader, ad_reader_free)

G_END_DECLS
