/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The bounded queue between the stdin reader thread and the analysis (queue.c). */

typedef struct _AdDispatchQueue AdDispatchQueue;

/* counters of what the queue had to drop */
typedef struct {
	guint64 shed_denials;		/* denial records dropped: "N denials not analysed" */
	guint64 shed_lines;
	guint64 shed_bytes;
	gsize peak_bytes;
} AdQueueStats;

AdDispatchQueue *ad_dispatch_queue_new(gsize max_bytes);
void ad_dispatch_queue_free(AdDispatchQueue *q);
/*
 * Takes @chunk (whole lines; owned) when it fits; otherwise, with @wait,
 * waits for room, and without, drops it and counts what it held (sets
 * @ret_shed).  An empty queue takes any chunk.  Returns TRUE when the
 * queue was empty before (the consumer may need a wake-up).  Thread-safe.
 */
gboolean ad_dispatch_queue_push(AdDispatchQueue *q, GBytes *chunk, gboolean wait,
				gboolean *ret_shed);
/* drops what is queued, counted as shed; returns the denial records dropped */
guint64 ad_dispatch_queue_discard(AdDispatchQueue *q);
/* wakes and stops every waiting writer (their chunks are then queued) */
void ad_dispatch_queue_abort(AdDispatchQueue *q);
/* the oldest chunk, or NULL when empty; the caller owns it.  Thread-safe. */
GBytes *ad_dispatch_queue_pop(AdDispatchQueue *q);
/* marks the end of the input (after the last chunk) */
void ad_dispatch_queue_close(AdDispatchQueue *q);
/*
 * Work for the main loop: a chunk is queued, or the queue was closed and
 * the dispatcher has not finished yet.  Lock-free (atomics): called from
 * the main loop's prepare.
 */
gboolean ad_dispatch_queue_has_work(AdDispatchQueue *q, gboolean finished);
gboolean ad_dispatch_queue_closed_and_empty(AdDispatchQueue *q);
void ad_dispatch_queue_stats(AdDispatchQueue *q, AdQueueStats *ret);
gsize ad_dispatch_queue_bytes(AdDispatchQueue *q);
/* the number of denial records (AVC, USER_AVC, SELINUX_ERR...) in lines of text */
guint ad_count_denial_lines(const char *text, gsize len);

G_END_DECLS
