/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "dispatch-config.h"

G_BEGIN_DECLS

/* The dispatcher's log lines (log.c). */

/* one function for every log line of the dispatcher: syslog, stderr or both */
void ad_dispatch_log_set_target(AdLogTarget t);
void ad_dispatch_log(int priority, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/*
 * A message that may repeat at the rate of the input (a full disk fails
 * every write): logged at most once per @interval_us, the next one saying
 * how many were held back meanwhile.
 */
typedef struct {
	gint64 interval_us;
	gint64 logged_us;	/* monotonic time of the last one logged, 0: none yet */
	guint64 held;		/* not logged since */
	char *last_held;	/* the last of those */
} AdLogLimit;

void ad_dispatch_log_limited(AdLogLimit *l, gint64 now_us, int priority, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);
/* at the end: the last one held back and how many were, if any; frees @l's text */
void ad_dispatch_log_limit_flush(AdLogLimit *l, int priority);

G_END_DECLS
