// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text of an alert, from its alert document (AdAlertDoc): what
 * `analyze`, `show` and the other front ends print.  See alert-text.h.
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n.h>

#include "analysis/alert-text.h"
#include "analysis/suggest.h"
#include "format.h"
#include "i18n.h"
#include "alert-doc.h"
#include "escape.h"
#include "proof-text.h"
#include "output/report.h"

/*
 * The local time zone, kept for a minute and for as long as TZ stays the
 * same: GLib reads /etc/localtime anew (readlink, stat, parse) for every
 * local time when TZ is unset, which cost a report with two times more
 * than the rest of its text.  Re-read after a minute, so that a daemon
 * follows a change of the system's zone.  A reference; unref it.
 */
static GTimeZone *local_zone(void)
{
	static GMutex lock;
	static GTimeZone *zone;
	static char *zone_tz;
	static gint64 zone_at;
	const char *tz = g_getenv("TZ");
	gint64 now = g_get_monotonic_time();
	GTimeZone *ret;

	g_mutex_lock(&lock);
	if (!zone || g_strcmp0(zone_tz, tz) != 0 || now - zone_at > 60 * G_USEC_PER_SEC) {
		g_clear_pointer(&zone, g_time_zone_unref);
		g_free(zone_tz);
		zone = g_time_zone_new_local();
		zone_tz = g_strdup(tz);
		zone_at = now;
	}
	ret = g_time_zone_ref(zone);
	g_mutex_unlock(&lock);
	return ret;
}

char *ad_text_time(double t, const char *fmt)
{
	g_autoptr(GTimeZone) zone = NULL;
	g_autoptr(GDateTime) utc = NULL;
	g_autoptr(GDateTime) dt = NULL;

	if (!(t > 0) || !(utc = g_date_time_new_from_unix_utc((gint64)t)))
		return g_strdup(T_("(unknown)"));
	zone = local_zone();
	dt = g_date_time_to_timezone(utc, zone);
	return dt ? g_date_time_format(dt, fmt) : g_strdup(T_("(unknown)"));
}

/* "local, web1 (3), ..." with counts, or names only; at most @max names, then "+N" */
char *ad_alert_doc_hosts(const AdAlertDoc *doc, gboolean counts, guint max)
{
	g_autoptr(GString) s = g_string_new(NULL);
	guint n = 0, total = 0;

	if (doc->host_counts) {
		for (guint i = 0; i < doc->host_counts->len; i++) {
			const AdHostCountDoc *hc = g_ptr_array_index(doc->host_counts, i);
			g_autofree char *h = NULL;

			if (++total > max)
				continue;
			h = *hc->host ? ad_text_shown(hc->host) : g_strdup(T_("local"));
			g_string_append_printf(s, "%s%s", n++ ? (counts ? ", " : ",") : "", h);
			if (counts)
				g_string_append_printf(s, " (%" PRId64 ")",
						       (gint64)MIN(hc->count, G_MAXINT64));
		}
	} else {
		total = g_strv_length(doc->hosts);
		for (guint i = 0; i < total && i < max; i++) {
			g_autofree char *h = ad_text_shown(doc->hosts[i]);

			g_string_append_printf(s, "%s%s", n++ ? "," : "", h);
		}
	}
	if (!total)
		g_string_append(s, T_("local"));
	if (total > max)
		g_string_append_printf(s, ngettext(",+%u more", ",+%u more", total - max),
				       total - max);
	return g_string_free(g_steal_pointer(&s), FALSE);
}

char *ad_alert_doc_level_text(const AdAlertDoc *doc)
{
	AdLevel l;

	return ad_level_from_name(doc->level_name, &l) ? g_strdup(ad_level_display(l))
						       : ad_text_shown(doc->level_name);
}

/* wraps @text at ~78 columns: words are what the spaces separate */
static void append_wrapped(GString *out, const char *text)
{
	gsize col = 0;

	for (const char *p = text; *p;) {
		const char *space = strchr(p, ' ');
		gsize len = space ? (gsize)(space - p) : strlen(p);

		if (len) {
			if (col && col + 1 + len > 78) {
				g_string_append_c(out, '\n');
				col = 0;
			} else if (col) {
				g_string_append_c(out, ' ');
				col++;
			}
			g_string_append_len(out, p, len);
			col += len;
		}
		p += len;
		if (*p)
			p++;
	}
	g_string_append_c(out, '\n');
}

/*
 * "Label                  value": the label padded to 22 columns (by
 * display width: a translated label's accents take one column each)
 */
static void append_row(GString *out, const char *label, const char *value)
{
	ad_string_append_padded(out, label, 22);
	g_string_append_c(out, ' ');
	g_string_append(out, value);
	g_string_append_c(out, '\n');
}

/* a row of @value as shown (escaped where needed), nothing when @value is NULL */
static void append_field(GString *out, const char *label, const char *value)
{
	g_autofree char *v = NULL;

	if (!value)
		return;
	v = ad_text_shown(value);
	append_row(out, label, v);
}

/* the same, "?" when @value is NULL: a field every denial has */
static void append_known(GString *out, const char *label, const char *value)
{
	append_field(out, label, value ? value : "?");
}

/*
 * One argument vector of a suggestion, quoted for a shell, as `analyze`
 * prints it: from its exact bytes ("commands_hex") when the JSON could
 * only hold them escaped.
 */
static void append_command(GString *out, const AdCommandDoc *c)
{
	const char *const *argv = (const char *const *)(c->exact ? c->exact : c->argv);
	g_autofree char *line = ad_shell_join(argv);
	g_autofree char *esc = NULL;

	/* a command that needs escaping to be shown is not copy-pasteable */
	if (ad_bytes_are_clean(line, strlen(line))) {
		g_string_append(out, "# ");
		g_string_append(out, line);
		g_string_append_c(out, '\n');
		return;
	}
	esc = ad_escape_str(line);
	g_string_append(out, T_("# (contains control characters, shown escaped)\n"));
	g_string_append_printf(out, "# %s\n", esc);
}

/* "Checked against the policy: ..." of a suggestion */
static void append_proof(GString *out, const AdSuggestionDoc *s)
{
	g_autofree char *proof = ad_proof_text_doc(s);
	g_autofree char *esc = proof ? ad_text_shown(proof) : NULL;

	if (esc)
		append_wrapped(out, esc);
}

/* @text as shown, wrapped; nothing when it is NULL */
static void append_text(GString *out, const char *text)
{
	g_autofree char *t = text ? ad_text_shown(text) : NULL;

	if (t)
		append_wrapped(out, t);
}

/*
 * The notes of an alert, after its suggestions: facts worth knowing that
 * change nothing, under their own heading so that none reads as a fix
 */
static void append_notes(GString *out, GPtrArray *notes)
{
	for (guint i = 0; i < notes->len; i++) {
		const AdSuggestionDoc *n = g_ptr_array_index(notes, i);
		g_autofree char *plugin = ad_text_shown(n->plugin);

		/* TRANSLATORS: the heading of a note (a fact, not a fix): the plugin that says it */
		g_string_append_printf(out, T_("\n*****  Note (%s)  *****\n\n"), plugin);
		append_text(out, n->if_text);
		append_text(out, n->then_text);
	}
}

/* a suggestion: its heading, its texts, its proof and its commands */
static void append_suggestion(GString *out, const AdSuggestionDoc *s)
{
	g_autofree char *plugin = ad_text_shown(s->plugin);
	g_autofree char *kind = ad_text_shown(s->kind);

	/* TRANSLATORS: a suggestion's heading: plugin, confidence, kind of fix */
	g_string_append_printf(out, T_("\n*****  %s (%.0f%% confidence, %s)  *****\n\n"),
			       plugin, s->confidence * 100, kind);
	append_text(out, s->if_text);
	append_text(out, s->then_text);
	append_proof(out, s);
	if (s->commands && s->commands->len)
		g_string_append(out, T_("Do\n"));
	for (guint j = 0; s->commands && j < s->commands->len; j++) {
		const AdCommandDoc *c = g_ptr_array_index(s->commands, j);

		/* a command that is not a list of strings is not shown */
		if (c->argv)
			append_command(out, c);
	}
}

/* the rows of a list, the label on the first: "Target Objects", "Programs Seen" */
static void append_list(GString *out, const char *label, char **values)
{
	for (guint i = 0; values[i]; i++)
		append_field(out, i ? "" : label, values[i]);
}

/* the Permissive row: the counts of both modes, else what the denial's record said */
static void append_permissive(GString *out, const AdAlertDoc *doc)
{
	const AdDenialDoc *d = doc->denial;

	if (doc->has_modes) {
		/* an alert with a blocked denial says so */
		g_autofree char *perm = ad_permissive_text(doc->count, doc->blocked,
							   doc->logged_only);

		append_row(out, T_("Permissive"), perm);
	} else if (d) {
		/* unknown: the record did not say (kernels before the permissive= field) */
		append_row(out, T_("Permissive"),
			   !d->has_permissive ? T_("unknown")
			   : d->permissive ? T_("yes (nothing was blocked)") : T_("no"));
	}
}

/* "Additional Information:": the denial's details and the alert's counts and filter */
static void append_details(GString *out, const AdAlertDoc *doc)
{
	const AdDenialDoc *d = doc->denial;
	g_autofree char *hosts = ad_alert_doc_hosts(doc, TRUE, G_MAXUINT);
	g_autofree char *first = ad_text_time(doc->first_seen, "%Y-%m-%d %H:%M:%S %Z");
	g_autofree char *last = ad_text_time(doc->last_seen, "%Y-%m-%d %H:%M:%S %Z");
	g_autofree char *count = g_strdup_printf("%" PRId64, (gint64)MIN(doc->count, G_MAXINT64));

	g_string_append(out, T_("\nAdditional Information:\n"));
	append_known(out, T_("Source Context"), d ? d->scontext : NULL);
	append_known(out, T_("Target Context"), d ? d->tcontext : NULL);
	append_list(out, T_("Target Objects"), doc->paths);
	append_known(out, T_("Target Class"), d ? d->tclass : NULL);
	if (d && g_strcmp0(d->type, "USER_AVC") == 0)
		/* the object manager that checked and logged the access, not the subject */
		append_field(out, T_("Reported By"), doc->reported_by ? doc->reported_by : d->exe);
	else
		append_field(out, T_("Source Executable"), d ? d->exe : NULL);
	append_field(out, T_("Source Command"), d ? d->comm : NULL);
	if (g_strv_length(doc->commands) > 1)
		append_list(out, T_("Programs Seen"), doc->commands);
	append_field(out, T_("Command Line"), d ? d->cmdline : NULL);
	if (d && d->port >= 0) {
		g_autofree char *n = g_strdup_printf("%" PRId64, d->port);

		append_row(out, T_("Port"), n);
	}
	append_field(out, T_("Syscall"), d ? d->syscall : NULL);
	append_permissive(out, doc);
	append_row(out, T_("Hosts"), hosts);
	append_row(out, T_("Alert Count"), count);
	append_row(out, T_("First Seen"), first);
	append_row(out, T_("Last Seen"), last);
	append_field(out, T_("Reason"), d ? d->reason : NULL);
	if (d && d->suspect)
		append_field(out, T_("Warning"), d->suspect_reason);
	if (doc->filter && strcmp(doc->filter, "never") != 0) {
		g_autofree char *f = g_strconcat(strcmp(doc->filter, "always") == 0
						 ? T_("always ignored")
						 : strcmp(doc->filter, "after_first") == 0
						 ? T_("ignored after the first time") : "?",
						 doc->ignored ? T_(" (ignored now)") : "", NULL);

		append_row(out, T_("Your Filter"), f);
	}
}

void ad_alert_doc_render(GString *out, const AdAlertDoc *doc)
{
	g_autofree char *summary = ad_text_shown(doc->summary);
	g_autofree char *id = ad_text_shown(doc->id);
	g_autofree char *level = ad_alert_doc_level_text(doc);

	g_string_append(out, "--------------------------------------------------------------------"
			     "------------\n");
	append_wrapped(out, summary);
	g_string_append_printf(out, ngettext("Level: %s   Alert %s   Seen %" PRId64 " time\n",
					     "Level: %s   Alert %s   Seen %" PRId64 " times\n",
					     (gulong)doc->count),
			       level, id, (gint64)MIN(doc->count, G_MAXINT64));
	for (guint i = 0; i < doc->suggestions->len; i++)
		append_suggestion(out, g_ptr_array_index(doc->suggestions, i));
	append_notes(out, doc->notes);
	append_details(out, doc);
	g_string_append(out, T_("\nRaw Audit Messages:\n"));
	for (guint i = 0; doc->records[i]; i++) {
		g_autofree char *r = ad_text_shown(doc->records[i]);

		g_string_append(out, r);
		g_string_append_c(out, '\n');
	}
	g_string_append_c(out, '\n');
}

static char *permissive_both(guint64 blocked, guint64 logged_only)
{
	g_autofree char *b = g_strdup_printf(ngettext("%" PRIu64 " blocked", "%" PRIu64 " blocked",
						      blocked), blocked);
	g_autofree char *l = g_strdup_printf(ngettext("%" PRIu64 " only logged",
						      "%" PRIu64 " only logged", logged_only),
					     logged_only);

	/* TRANSLATORS: the Permissive line of an alert whose denials were in both
	 * modes: "3 blocked", "1 only logged" */
	return g_strdup_printf(T_("no: %s, %s (permissive)"), b, l);
}

char *ad_permissive_text(guint64 count, guint64 blocked, guint64 logged_only)
{
	if (blocked && logged_only)
		return permissive_both(blocked, logged_only);
	if (blocked)
		return g_strdup(T_("no"));
	if (logged_only && logged_only == count)
		return g_strdup(T_("yes (nothing was blocked)"));
	if (logged_only)
		return g_strdup_printf(ngettext("%" PRIu64 " only logged (permissive), the "
						"others unknown",
						"%" PRIu64 " only logged (permissive), the "
						"others unknown", logged_only), logged_only);
	return g_strdup(T_("unknown"));
}
