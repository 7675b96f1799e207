// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Selecting denials and alerts by time, command, types, class and host
 * (and, for alerts, level, id and search words): the one filter of why,
 * allow, analyze, list and the browser, with ausearch's time words.
 */
#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "clock.h"
#include "select.h"

G_DEFINE_QUARK(ad-select-error-quark, ad_select_error)

void ad_select_clear(AdSelect *s)
{
	g_clear_pointer(&s->comms, g_strfreev);
	g_clear_pointer(&s->sources, g_strfreev);
	g_clear_pointer(&s->targets, g_strfreev);
	g_clear_pointer(&s->classes, g_strfreev);
	g_clear_pointer(&s->hosts, g_strfreev);
	g_clear_pointer(&s->ids, g_hash_table_unref);
	g_clear_pointer(&s->words, g_strfreev);
	*s = (AdSelect){ 0 };
}

/* TRUE when @value is in @list, or @list is unset; NULL is "" */
static gboolean in(char *const *list, const char *value)
{
	if (!list)
		return TRUE;
	for (guint i = 0; list[i]; i++)
		if (g_strcmp0(list[i], value ? value : "") == 0)
			return TRUE;
	return FALSE;
}

/* TRUE when one of @values is in @list */
static gboolean any_in(char *const *list, char *const *values)
{
	for (guint i = 0; values && values[i]; i++)
		if (in(list, values[i]))
			return TRUE;
	return FALSE;
}

/* TRUE when @it was seen in the window of @s (an item without a time is outside any) */
static gboolean in_window(const AdSelect *s, const AdSelectItem *it)
{
	if (!s->since && !s->until)
		return TRUE;
	if (!it->last_seen)
		return FALSE;
	if (s->since && it->last_seen < s->since)
		return FALSE;
	if (s->until && (s->until_before ? it->first_seen >= s->until
					 : (double)(gint64)it->first_seen > s->until))
		return FALSE;
	return TRUE;
}

AdSelectVerdict ad_select_item(const AdSelect *s, const AdSelectItem *it)
{
	if (s->ids && !(it->id && g_hash_table_contains(s->ids, it->id)))
		return AD_SELECT_OUT;
	if (!in_window(s, it))
		return AD_SELECT_OUT;
	if (s->sources && (!it->stype || !in(s->sources, it->stype)))
		return AD_SELECT_OUT;
	if (s->targets && (!it->ttype || !in(s->targets, it->ttype)))
		return AD_SELECT_OUT;
	if (!in(s->classes, it->tclass))
		return AD_SELECT_OUT;
	if (s->comms && !(it->comm && in(s->comms, it->comm)) && !any_in(s->comms, it->commands))
		return AD_SELECT_OUT;
	/* a record without node= is "local" too */
	if (s->hosts && !any_in(s->hosts, it->hosts) &&
	    !(it->hosts && g_strv_contains((const char *const *)it->hosts, "") &&
	      in(s->hosts, "local")))
		return AD_SELECT_OUT;
	for (guint i = 0; s->words && s->words[i]; i++)
		if (!it->text || !strstr(it->text, s->words[i]))
			return AD_SELECT_OUT;
	if (s->hide_ignored && it->ignored)
		return AD_SELECT_IGNORED;
	if (s->levels && !(s->levels & (1u << it->level)))
		return AD_SELECT_OTHER_LEVEL;
	return AD_SELECT_IN;
}

gboolean ad_select_denial(const AdSelect *s, const AdDenial *d)
{
	const AdEvent *ev = d->event;
	double t = ev && ev->sec > 0 ? ev->sec + ev->msec / 1000.0 : 0;
	g_autofree char *stype = ad_context_type(d->scontext);
	g_autofree char *ttype = ad_context_type(d->tcontext);
	g_autofree char *comm = d->comm.data ? g_strndup(d->comm.data, d->comm.len) : NULL;
	char *hosts[] = { (char *)(ev && ev->node ? ev->node : ""), NULL };
	AdSelectItem it = {
		.first_seen = t, .last_seen = t,
		.stype = stype, .ttype = ttype, .tclass = d->tclass,
		.comm = comm, .hosts = hosts, .level = AD_LEVEL_YELLOW,
	};

	return ad_select_item(s, &it) == AD_SELECT_IN;
}

void ad_select_item_of_doc(AdSelectItem *it, const AdAlertDoc *doc)
{
	const AdDenialDoc *d = doc->denial;

	*it = (AdSelectItem){
		.first_seen = doc->first_seen, .last_seen = doc->last_seen,
		.stype = d ? d->stype : NULL, .ttype = d ? d->ttype : NULL,
		.tclass = d ? d->tclass : NULL, .comm = d ? d->comm : NULL,
		.commands = doc->commands, .hosts = doc->hosts,
		.level = doc->level, .ignored = doc->ignored, .id = doc->id,
	};
}

GStrv ad_select_words(const char *text)
{
	g_autofree char *folded = NULL;
	g_auto(GStrv) parts = NULL;
	g_autoptr(GStrvBuilder) b = NULL;
	guint n = 0;

	if (!text || !*text)
		return NULL;
	folded = g_utf8_casefold(text, -1);
	parts = g_strsplit_set(folded, " \t\n", -1);
	b = g_strv_builder_new();
	for (guint i = 0; parts[i]; i++) {
		if (*parts[i]) {
			g_strv_builder_add(b, parts[i]);
			n++;
		}
	}
	return n ? g_strv_builder_end(b) : NULL;
}

/* the locale's first day of the week, 1 = Monday ... 7 = Sunday (glibc's _NL_TIME_FIRST_WEEKDAY) */
static int first_weekday(void)
{
#ifdef _NL_TIME_FIRST_WEEKDAY
	union { char *p; unsigned long v; } week1st = { .p = nl_langinfo(_NL_TIME_WEEK_1STDAY) };
	int first = *nl_langinfo(_NL_TIME_FIRST_WEEKDAY);	/* 1 = week1st's day */
	/* week1st 19971130 is a Sunday, 19971201 a Monday */
	int base = week1st.v == 19971201 ? 1 : 7;
	int day = (base - 1 + first - 1) % 7 + 1;

	return day >= 1 && day <= 7 ? day : 1;
#else
	return 1;
#endif
}

/* a date with an optional time, in local time: "2024-11-19", "11/19/2024 15:26", "19.11.2024 15:26:24" */
static gboolean parse_date(const char *s, double *ret)
{
	int y = 0, m = 0, d = 0, H = 0, M = 0, S = 0, n = 0, rest;
	g_autoptr(GDateTime) dt = NULL;
	g_autoptr(GTimeZone) tz = g_time_zone_new_local();

	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 && n == 10) {
		/* ISO */
	} else if (sscanf(s, "%2d/%2d/%4d%n", &m, &d, &y, &n) == 3 && n >= 8) {
		/* ausearch's US form */
	} else if (sscanf(s, "%2d.%2d.%4d%n", &d, &m, &y, &n) == 3 && n >= 8) {
		/* the dotted European form */
	} else {
		return FALSE;
	}
	if (s[n] == ' ' || s[n] == 'T') {
		rest = 0;
		if (sscanf(s + n + 1, "%2d:%2d%n", &H, &M, &rest) != 2)
			return FALSE;
		n += 1 + rest;
		if (s[n] == ':') {
			rest = 0;
			if (sscanf(s + n + 1, "%2d%n", &S, &rest) != 1)
				return FALSE;
			n += 1 + rest;
		}
	}
	if (s[n])
		return FALSE;
	dt = g_date_time_new(tz, y, m, d, H, M, S);
	if (!dt)
		return FALSE;
	*ret = g_date_time_to_unix(dt);
	return TRUE;
}

gboolean ad_time_parse(const char *s, double *ret, GError **error)
{
	gint64 now_us = ad_clock_real_us();
	g_autoptr(GTimeZone) tz = g_time_zone_new_local();
	g_autoptr(GDateTime) now = g_date_time_new_from_unix_local(now_us / G_USEC_PER_SEC);
	g_autoptr(GDateTime) day = NULL;
	double now_s = now_us / 1e6;
	char *end;
	double v;

	day = g_date_time_new(tz, g_date_time_get_year(now), g_date_time_get_month(now),
			      g_date_time_get_day_of_month(now), 0, 0, 0);
	if (!s || !*s)
		goto bad;
	if (!strcmp(s, "now")) {
		*ret = now_s;
		return TRUE;
	}
	if (!strcmp(s, "recent")) {
		*ret = now_s - 600;
		return TRUE;
	}
	if (!strcmp(s, "this-hour")) {
		*ret = g_date_time_to_unix(day) + 3600 * g_date_time_get_hour(now);
		return TRUE;
	}
	if (!strcmp(s, "today") || !strcmp(s, "yesterday")) {
		g_autoptr(GDateTime) t = g_date_time_add_days(day, s[0] == 'y' ? -1 : 0);

		*ret = g_date_time_to_unix(t);
		return TRUE;
	}
	if (!strcmp(s, "this-week")) {
		int back = (g_date_time_get_day_of_week(now) - first_weekday() + 7) % 7;
		g_autoptr(GDateTime) t = g_date_time_add_days(day, -back);

		*ret = g_date_time_to_unix(t);
		return TRUE;
	}
	if (!strcmp(s, "week-ago")) {
		*ret = now_s - 7 * 86400;
		return TRUE;
	}
	if (!strcmp(s, "this-month") || !strcmp(s, "this-year")) {
		g_autoptr(GDateTime) t = g_date_time_new(tz, g_date_time_get_year(now),
							 s[5] == 'm' ? g_date_time_get_month(now) : 1,
							 1, 0, 0, 0);

		*ret = g_date_time_to_unix(t);
		return TRUE;
	}
	if (parse_date(s, ret))
		return TRUE;
	v = g_ascii_strtod(s[0] == '@' ? s + 1 : s, &end);
	if (g_ascii_isdigit(s[s[0] == '@']) && v >= 0) {
		static const struct {
			char unit;
			double seconds;
		} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
			      { 'w', 7 * 86400 } };

		if (!*end) {
			*ret = v;
			return TRUE;
		}
		for (guint i = 0; s[0] != '@' && i < G_N_ELEMENTS(units); i++)
			if (end[0] == units[i].unit && !end[1]) {
				*ret = now_s - v * units[i].seconds;
				return TRUE;
			}
	}
bad:
	g_set_error(error, AD_SELECT_ERROR, 0,
		    /* TRANSLATORS: the words and forms stay as they are */
		    _("\"%s\" is not a time: now, recent, this-hour, today, yesterday, "
		      "this-week, week-ago, this-month, this-year, seconds since the epoch, "
		      "an age (30m, 12h, 2d, 1w) or a date (YYYY-MM-DD, MM/DD/YYYY or "
		      "DD.MM.YYYY, with HH:MM[:SS])"), s ? s : "");
	return FALSE;
}
