/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The one clock of the programs, which tests can set: wall-clock time (for
 * ages, "today", pruning) and monotonic time (for intervals, timeouts).
 * By default GLib's.  A test sets it with ad_clock_set(), or a script test
 * with AVCDOCTOR_NOW=SECONDS (the wall clock starts there and runs on with
 * the real one; ignored in set-id programs).
 */
typedef struct {
	gint64 (*real_us)(gpointer data);	/* microseconds since the epoch */
	gint64 (*monotonic_us)(gpointer data);
	gpointer data;
} AdClock;

/* installs @clock (copied; NULL: back to GLib's clock).  Not thread-safe: set it first. */
void ad_clock_set(const AdClock *clock);
gint64 ad_clock_real_us(void);
gint64 ad_clock_monotonic_us(void);

G_END_DECLS
