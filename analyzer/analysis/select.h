/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "read/denial.h"

G_BEGIN_DECLS

#define AD_SELECT_ERROR (ad_select_error_quark())
GQuark ad_select_error_quark(void);

/*
 * Which denials a report looks at, as ausearch selects records: a time
 * window and lists of commands, source and target types, classes and
 * hosts (a list matches when any of its values does; all given lists must
 * match).  Unset members select everything.
 */
typedef struct {
	double since, until;		/* seconds since the epoch; 0: open */
	char **comms;			/* comm= values, exactly */
	char **sources;			/* source types */
	char **targets;			/* target types */
	char **classes;
	char **hosts;			/* node= names; "" or "local" for records without one */
} AdSelect;

void ad_select_clear(AdSelect *s);
gboolean ad_select_is_empty(const AdSelect *s);
/* TRUE when @d is selected; a record without a time is outside any time window */
gboolean ad_select_denial(const AdSelect *s, const AdDenial *d);
/* TRUE when a value (a type, a class, a host...) is in @list, or @list is unset */
gboolean ad_select_in(char *const *list, const char *value);

/*
 * A time as ausearch takes it, now being ad_clock_real_us(): "now",
 * "recent" (10 minutes ago), "this-hour", "today", "yesterday",
 * "this-week" (the locale's first day of the week), "week-ago",
 * "this-month", "this-year"; seconds since the epoch (also "@SECONDS");
 * an age ("90s", "30m", "12h", "2d", "1w"); a date YYYY-MM-DD, MM/DD/YYYY
 * or DD.MM.YYYY with an optional " HH:MM[:SS]", in local time.  FALSE
 * with @error saying what is accepted.
 */
gboolean ad_time_parse(const char *s, double *ret, GError **error);

G_END_DECLS
