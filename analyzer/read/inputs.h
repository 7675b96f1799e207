/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include "read/event.h"

G_BEGIN_DECLS

/*
 * Input files read by a thread of their own.  The thread runs the reader
 * (lines into records into events) while the caller explains and renders
 * what came before: the two halves of a report command's work run on two
 * cores.  While the caller is behind, the thread also splits the fields of
 * the records a denial is built from, and builds the denials when the
 * queue is full; else the caller does (items may arrive with their records
 * split or not, their denials built or not).
 * Everything arrives in input order, events and problems interleaved as
 * the reader met them; at most a few batches wait, so memory stays bounded
 * however fast the file is read.
 */
typedef enum {
	AD_INPUT_EVENT,		/* ev: an event */
	AD_INPUT_PROBLEM,	/* file, line, message: a record that was rejected */
	AD_INPUT_ERROR,		/* message: a file that could not be opened or read */
	AD_INPUT_NOTE,		/* file, line, message: what was assumed to read a file */
} AdInputKind;

typedef struct {
	AdInputKind kind;
	AdEvent *ev;		/* owned by the item */
	/*
	 * The event's denials (AdDenial*) when the thread built them, with
	 * the problems of its records queued just before the event; NULL
	 * when the caller builds them.  Owned by the item.
	 */
	GPtrArray *denials;
	const char *file;	/* interned */
	guint line;
	char *message;		/* owned by the item */
} AdInput;

typedef struct _AdInputs AdInputs;

/*
 * audit.log and its rotations in @dir, oldest first, as ausearch reads
 * them: audit.log.N from the highest N down (also compressed ones,
 * audit.log.2.gz), logrotate's dated audit.log-DATE by date, then
 * audit.log.  NULL with @error when @dir holds none of them.  The names
 * only: ad_inputs_start() opens each with ad_open_rotation().
 */
char **ad_audit_log_files(const char *dir, GError **error);

/*
 * Opens the log @name of directory @dirfd (@dir in messages) for reading,
 * as only a log the directory holds may be read from it: a regular file,
 * or a symbolic link to one named in the same directory (one step).  It
 * never follows a link out of the directory, never waits on a FIFO and
 * never reads a device (opened O_NOFOLLOW | O_NONBLOCK, then fstat).  The
 * descriptor, or -1 with @error saying why the file is not read.
 */
int ad_open_rotation(int dirfd, const char *dir, const char *name, GError **error);

/*
 * starts reading @files in order ("-" is standard input; a directory is
 * read as ad_audit_log_files() lists it)
 */
AdInputs *ad_inputs_start(const char *const *files);
/* the next item, NULL after the last; valid until the next call */
const AdInput *ad_inputs_next(AdInputs *in);
/*
 * Waits until the reading thread is a full queue ahead (it waits for room)
 * or has read everything: a consumer that is behind, as a slow one is,
 * without depending on how fast either thread runs (for tests).
 */
void ad_inputs_wait_ahead(AdInputs *in);
/*
 * Stops reading after the chunk being read and waits for the thread (which
 * may be blocked in read() on a terminal or pipe until input comes).
 */
void ad_inputs_free(AdInputs *in);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdInputs, ad_inputs_free)

G_END_DECLS
