// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bounded queue between the stdin reader thread and the analysis:
 * whole lines, counted in bytes; what does not fit is dropped and its
 * denial records counted.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <selinux/selinux.h>

#include "queue.h"
#include "escape.h"

/* ---- the queue -------------------------------------------------------------- */

struct _AdDispatchQueue {
	GMutex lock;
	GCond space;		/* a chunk was taken: a waiting writer may go on */
	gboolean aborted;	/* no more waiting: the dispatcher is going away */
	GQueue chunks;		/* GBytes*, oldest first */
	gsize bytes, max_bytes;
	gint n_chunks;		/* atomic: read by the main loop's prepare without the lock */
	gint closed;		/* atomic */
	AdQueueStats stats;
};

AdDispatchQueue *ad_dispatch_queue_new(gsize max_bytes)
{
	AdDispatchQueue *q = g_new0(AdDispatchQueue, 1);

	g_mutex_init(&q->lock);
	g_cond_init(&q->space);
	g_queue_init(&q->chunks);
	q->max_bytes = max_bytes;
	return q;
}

void ad_dispatch_queue_free(AdDispatchQueue *q)
{
	if (!q)
		return;
	g_queue_clear_full(&q->chunks, (GDestroyNotify)g_bytes_unref);
	g_cond_clear(&q->space);
	g_mutex_clear(&q->lock);
	g_free(q);
}

/* is @p (at a line start, @n bytes) a denial record's header? */
static gboolean line_is_denial(const char *p, gsize n)
{
	static const char *const types[] = {
		"AVC ", "USER_AVC ", "SELINUX_ERR ", "USER_SELINUX_ERR ",
		"1400 ", "1107 ", "1401 ", "1122 ",
	};

	if (n > 5 && memcmp(p, "node=", 5) == 0) {
		const char *sp = memchr(p, ' ', n);

		if (!sp)
			return FALSE;
		n -= sp + 1 - p;
		p = sp + 1;
	}
	if (n < 5 || memcmp(p, "type=", 5) != 0)
		return FALSE;
	p += 5;
	n -= 5;
	for (guint i = 0; i < G_N_ELEMENTS(types); i++) {
		gsize l = strlen(types[i]);

		if (n >= l && memcmp(p, types[i], l) == 0)
			return TRUE;
	}
	return FALSE;
}

guint ad_count_denial_lines(const char *text, gsize len)
{
	const char *p = text, *end = text + len;
	guint n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		gsize l = nl ? (gsize)(nl - p) : (gsize)(end - p);

		if (line_is_denial(p, l))
			n++;
		p = nl ? nl + 1 : end;
	}
	return n;
}

static guint count_lines(const char *p, gsize len)
{
	guint n = 0;

	for (const char *e = p + len; (p = memchr(p, '\n', e - p)); p++)
		n++;
	return n;
}

gboolean ad_dispatch_queue_push(AdDispatchQueue *q, GBytes *chunk, gboolean wait,
				gboolean *ret_shed)
{
	gsize len = g_bytes_get_size(chunk);
	gboolean was_empty, shed;

	g_mutex_lock(&q->lock);
	while (wait && !q->aborted && q->chunks.length && q->bytes + len > q->max_bytes)
		g_cond_wait(&q->space, &q->lock);
	was_empty = q->chunks.length == 0;
	/* an empty queue always takes one chunk: nothing is dropped while idle */
	shed = !was_empty && q->bytes + len > q->max_bytes;
	if (!shed) {
		g_queue_push_tail(&q->chunks, chunk);
		q->bytes += len;
		q->stats.peak_bytes = MAX(q->stats.peak_bytes, q->bytes);
		g_atomic_int_inc(&q->n_chunks);
	}
	g_mutex_unlock(&q->lock);
	if (shed) {
		gsize n;
		const char *p = g_bytes_get_data(chunk, &n);
		guint denials = ad_count_denial_lines(p, n);
		guint lines = count_lines(p, n);

		g_mutex_lock(&q->lock);
		q->stats.shed_denials += denials;
		q->stats.shed_lines += lines;
		q->stats.shed_bytes += n;
		g_mutex_unlock(&q->lock);
		g_bytes_unref(chunk);
	}
	if (ret_shed)
		*ret_shed = shed;
	return was_empty;
}

GBytes *ad_dispatch_queue_pop(AdDispatchQueue *q)
{
	GBytes *b;

	if (!g_atomic_int_get(&q->n_chunks))
		return NULL;
	g_mutex_lock(&q->lock);
	b = g_queue_pop_head(&q->chunks);
	if (b) {
		q->bytes -= g_bytes_get_size(b);
		g_atomic_int_dec_and_test(&q->n_chunks);
		g_cond_signal(&q->space);
	}
	g_mutex_unlock(&q->lock);
	return b;
}

guint64 ad_dispatch_queue_discard(AdDispatchQueue *q)
{
	guint64 denials = 0;
	GBytes *b;

	while ((b = ad_dispatch_queue_pop(q))) {
		gsize n;
		const char *p = g_bytes_get_data(b, &n);
		guint d = ad_count_denial_lines(p, n);
		guint l = count_lines(p, n);

		g_mutex_lock(&q->lock);
		q->stats.shed_denials += d;
		q->stats.shed_lines += l;
		q->stats.shed_bytes += n;
		g_mutex_unlock(&q->lock);
		denials += d;
		g_bytes_unref(b);
	}
	return denials;
}

void ad_dispatch_queue_abort(AdDispatchQueue *q)
{
	g_mutex_lock(&q->lock);
	q->aborted = TRUE;
	g_cond_broadcast(&q->space);
	g_mutex_unlock(&q->lock);
}

void ad_dispatch_queue_close(AdDispatchQueue *q)
{
	g_atomic_int_set(&q->closed, 1);
}

gboolean ad_dispatch_queue_has_work(AdDispatchQueue *q, gboolean finished)
{
	return g_atomic_int_get(&q->n_chunks) || (!finished && g_atomic_int_get(&q->closed));
}

gboolean ad_dispatch_queue_closed_and_empty(AdDispatchQueue *q)
{
	return g_atomic_int_get(&q->closed) && !g_atomic_int_get(&q->n_chunks);
}

void ad_dispatch_queue_stats(AdDispatchQueue *q, AdQueueStats *ret)
{
	g_mutex_lock(&q->lock);
	*ret = q->stats;
	g_mutex_unlock(&q->lock);
}

gsize ad_dispatch_queue_bytes(AdDispatchQueue *q)
{
	gsize n;

	g_mutex_lock(&q->lock);
	n = q->bytes;
	g_mutex_unlock(&q->lock);
	return n;
}
