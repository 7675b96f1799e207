/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "alert-doc.h"
#include "read/denial.h"

G_BEGIN_DECLS

#define AD_SELECT_ERROR (ad_select_error_quark())
GQuark ad_select_error_quark(void);

/*
 * Which denials or alerts a report or a list looks at, as ausearch selects
 * records: a time window and lists of commands, source and target types,
 * classes and hosts (a list matches when any of its values does; all
 * given lists must match); for alerts also their levels, ids, whether
 * ignored ones count, and search words.  The one filter of analyze, list
 * and the browser.  Unset members select everything.
 */
typedef struct {
	double since, until;		/* seconds since the epoch; 0: open */
	/* @until is a chart bar's end, seen before it; else it covers its whole second (ausearch's -te) */
	gboolean until_before;
	char **comms;			/* comm= values, exactly */
	char **sources;			/* source types */
	char **targets;			/* target types */
	char **classes;
	char **hosts;			/* node= names; "" or "local" for records without one */
	guint levels;			/* 1 << AdLevel of each level shown; 0: all */
	gboolean hide_ignored;		/* an ignored alert is left out */
	GHashTable *ids;		/* only the alerts of these ids (a set), or NULL */
	char **words;			/* casefolded words the item's text must all hold (ad_select_words) */
} AdSelect;

/* what the filter looks at of a denial or an alert (borrowed strings) */
typedef struct {
	double first_seen, last_seen;	/* a denial's time is both; 0: unknown */
	const char *stype, *ttype, *tclass;
	const char *comm;		/* NULL when unknown */
	char *const *commands;		/* an alert's other commands (the store's list), or NULL */
	char *const *hosts;		/* where seen; "" for a record without node= */
	AdLevel level;
	gboolean ignored;
	const char *id;
	const char *text;		/* casefolded text the search words are looked for in */
} AdSelectItem;

/* why an item is left out, in the order checked */
typedef enum {
	AD_SELECT_IN,			/* selected */
	AD_SELECT_OUT,			/* outside the window, types, classes, hosts, ids or words */
	AD_SELECT_IGNORED,		/* ignored, and ignored alerts are hidden */
	AD_SELECT_OTHER_LEVEL,		/* of a level not shown */
} AdSelectVerdict;

/* frees what @s holds (its lists; @ids is unreferenced) and empties it */
void ad_select_clear(AdSelect *s);
/* what @s says of @it: a time window leaves out an item without a time */
AdSelectVerdict ad_select_item(const AdSelect *s, const AdSelectItem *it);
/* TRUE when @d is selected */
gboolean ad_select_denial(const AdSelect *s, const AdDenial *d);
/* @it of the alert @doc, borrowing from it (@it->text is left NULL) */
void ad_select_item_of_doc(AdSelectItem *it, const AdAlertDoc *doc);
/* the casefolded words of a search text, for AdSelect.words; NULL when there are none */
GStrv ad_select_words(const char *text);

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
