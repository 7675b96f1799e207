// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The programs' clock, replaceable so that tests of ages, intervals and
 * time filters run on a fixed time instead of sleeping.
 */
#include <stdlib.h>

#include "clock.h"

static AdClock current;
static gboolean env_checked;
static gint64 env_offset_us;	/* AVCDOCTOR_NOW minus the real time at the first question */

void ad_clock_set(const AdClock *clock)
{
	if (clock)
		current = *clock;
	else
		current = (AdClock){ 0 };
}

/* AVCDOCTOR_NOW: the wall clock as a script test sets it */
static gint64 env_offset(void)
{
	if (!env_checked) {
		const char *now = secure_getenv("AVCDOCTOR_NOW");
		char *end;
		double secs;

		env_checked = TRUE;
		if (now && *now) {
			secs = g_ascii_strtod(now, &end);
			if (!*end && secs >= 0 && secs < 1e11)
				env_offset_us = (gint64)(secs * G_USEC_PER_SEC) -
						g_get_real_time();
		}
	}
	return env_offset_us;
}

gint64 ad_clock_real_us(void)
{
	if (current.real_us)
		return current.real_us(current.data);
	return g_get_real_time() + env_offset();
}

gint64 ad_clock_monotonic_us(void)
{
	if (current.monotonic_us)
		return current.monotonic_us(current.data);
	return g_get_monotonic_time();
}
