// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text of an alert, from its JSON object: what `analyze`, `show` and
 * the other front ends print.  See alert-text.h.
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
#include "output/report.h"

json_object *ad_json_member(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *ad_json_member_str(json_object *o, const char *key)
{
	json_object *v = ad_json_member(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

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
char *ad_alert_json_hosts(json_object *o, gboolean counts, guint max)
{
	json_object *hc = ad_json_member(o, AD_KEY_HOST_COUNTS);
	json_object *names = ad_json_member(o, AD_KEY_HOSTS);
	g_autoptr(GString) s = g_string_new(NULL);
	guint n = 0, total = 0;

	if (hc && json_object_is_type(hc, json_type_object)) {
		json_object_object_foreach(hc, host, count) {
			g_autofree char *h = *host ? ad_text_shown(host) : g_strdup(T_("local"));

			if (++total > max)
				continue;
			g_string_append_printf(s, "%s%s", n++ ? (counts ? ", " : ",") : "", h);
			if (counts)
				g_string_append_printf(s, " (%" PRId64 ")",
						       json_object_get_int64(count));
		}
	} else if (names && json_object_is_type(names, json_type_array)) {
		total = json_object_array_length(names);
		for (guint i = 0; i < total && i < max; i++) {
			g_autofree char *h = ad_text_shown(json_object_get_string(
				json_object_array_get_idx(names, i)));

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

char *ad_alert_json_level(json_object *o)
{
	const char *name = ad_json_member_str(o, AD_KEY_LEVEL);
	AdLevel l;

	return ad_level_from_name(name, &l) ? g_strdup(ad_level_display(l)) : ad_text_shown(name);
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
 * prints it: from its exact bytes (@hex_argv, "commands_hex") when the
 * JSON could only hold them escaped.
 */
static void append_command(GString *out, json_object *argv, json_object *hex_argv)
{
	g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *line = NULL;
	g_autofree char *esc = NULL;
	gboolean use_hex = hex_argv && json_object_is_type(hex_argv, json_type_array) &&
			   json_object_array_length(hex_argv) == json_object_array_length(argv);

	for (guint i = 0; i < json_object_array_length(argv); i++) {
		json_object *a = json_object_array_get_idx(argv, i);
		json_object *h = use_hex ? json_object_array_get_idx(hex_argv, i) : NULL;
		char *exact = h && json_object_is_type(h, json_type_string)
				      ? ad_unhex(json_object_get_string(h)) : NULL;

		if (exact)
			g_ptr_array_add(args, exact);
		else if (json_object_is_type(a, json_type_string))
			g_ptr_array_add(args, g_strdup(json_object_get_string(a)));
	}
	g_ptr_array_add(args, NULL);
	line = ad_shell_join((const char *const *)args->pdata);
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
static void append_proof(GString *out, json_object *s)
{
	g_autofree char *proof = ad_suggestion_proof_text_json(s);
	g_autofree char *esc = proof ? ad_text_shown(proof) : NULL;

	if (esc)
		append_wrapped(out, esc);
}

/*
 * The notes of an alert, after its suggestions: facts worth knowing that
 * change nothing, under their own heading so that none reads as a fix
 */
static void append_notes(GString *out, json_object *notes)
{
	for (guint i = 0; notes && json_object_is_type(notes, json_type_array) &&
			  i < json_object_array_length(notes); i++) {
		json_object *n = json_object_array_get_idx(notes, i);
		const char *if_text = ad_json_member_str(n, AD_KEY_IF);
		const char *then_text = ad_json_member_str(n, AD_KEY_THEN);
		g_autofree char *plugin = ad_text_shown(ad_json_member_str(n, AD_KEY_PLUGIN));

		/* TRANSLATORS: the heading of a note (a fact, not a fix): the plugin that says it */
		g_string_append_printf(out, T_("\n*****  Note (%s)  *****\n\n"), plugin);
		if (if_text) {
			g_autofree char *t = ad_text_shown(if_text);

			append_wrapped(out, t);
		}
		if (then_text) {
			g_autofree char *t = ad_text_shown(then_text);

			append_wrapped(out, t);
		}
	}
}

void ad_alert_json_render(GString *out, json_object *o)
{
	json_object *d = ad_json_member(o, AD_KEY_DENIAL);
	json_object *sugg = ad_json_member(o, AD_KEY_SUGGESTIONS);
	json_object *paths = ad_json_member(o, AD_KEY_PATHS);
	json_object *comms = ad_json_member(o, AD_KEY_COMMANDS);
	json_object *records = ad_json_member(o, AD_KEY_RECORDS);
	json_object *port = ad_json_member(d, "port");
	g_autofree char *summary = ad_text_shown(ad_json_member_str(o, AD_KEY_SUMMARY));
	g_autofree char *id = ad_text_shown(ad_json_member_str(o, AD_KEY_ID));
	g_autofree char *level = ad_alert_json_level(o);
	g_autofree char *hosts = ad_alert_json_hosts(o, TRUE, G_MAXUINT);
	g_autofree char *first = ad_text_time(json_object_get_double(ad_json_member(o, AD_KEY_FIRST_SEEN)),
					     "%Y-%m-%d %H:%M:%S %Z");
	g_autofree char *last = ad_text_time(json_object_get_double(ad_json_member(o, AD_KEY_LAST_SEEN)),
					    "%Y-%m-%d %H:%M:%S %Z");
	gint64 count = json_object_get_int64(ad_json_member(o, AD_KEY_COUNT));
	const char *filter = ad_json_member_str(o, AD_KEY_FILTER);

	g_string_append(out, "--------------------------------------------------------------------"
			     "------------\n");
	append_wrapped(out, summary);
	g_string_append_printf(out, ngettext("Level: %s   Alert %s   Seen %" PRId64 " time\n",
					     "Level: %s   Alert %s   Seen %" PRId64 " times\n",
					     count < 0 ? 0 : (gulong)count),
			       level, id, count);
	for (guint i = 0; sugg && json_object_is_type(sugg, json_type_array) &&
			  i < json_object_array_length(sugg); i++) {
		json_object *s = json_object_array_get_idx(sugg, i);
		json_object *cmds = ad_json_member(s, AD_KEY_COMMANDS);
		g_autofree char *plugin = ad_text_shown(ad_json_member_str(s, AD_KEY_PLUGIN));
		g_autofree char *kind = ad_text_shown(ad_json_member_str(s, AD_KEY_KIND));
		g_autofree char *if_text = ad_json_member_str(s, AD_KEY_IF) ? ad_text_shown(ad_json_member_str(s, AD_KEY_IF)) : NULL;
		g_autofree char *then_text = ad_json_member_str(s, AD_KEY_THEN) ? ad_text_shown(ad_json_member_str(s, AD_KEY_THEN))
								   : NULL;

		/* TRANSLATORS: a suggestion's heading: plugin, confidence, kind of fix */
		g_string_append_printf(out, T_("\n*****  %s (%.0f%% confidence, %s)  *****\n\n"),
				       plugin, json_object_get_double(ad_json_member(s, AD_KEY_CONFIDENCE)) * 100,
				       kind);
		if (if_text)
			append_wrapped(out, if_text);
		if (then_text)
			append_wrapped(out, then_text);
		append_proof(out, s);
		if (cmds && json_object_is_type(cmds, json_type_array) &&
		    json_object_array_length(cmds))
			g_string_append(out, T_("Do\n"));
		for (guint j = 0; cmds && json_object_is_type(cmds, json_type_array) &&
				  j < json_object_array_length(cmds); j++) {
			json_object *argv = json_object_array_get_idx(cmds, j);
			json_object *hex = ad_json_member(s, AD_KEY_COMMANDS_HEX);

			if (json_object_is_type(argv, json_type_array))
				append_command(out, argv, hex && json_object_is_type(
							hex, json_type_array)
							? json_object_array_get_idx(hex, j) : NULL);
		}
	}
	append_notes(out, ad_json_member(o, AD_KEY_NOTES));
	g_string_append(out, T_("\nAdditional Information:\n"));
	append_known(out, T_("Source Context"), ad_json_member_str(d, AD_KEY_SCONTEXT));
	append_known(out, T_("Target Context"), ad_json_member_str(d, AD_KEY_TCONTEXT));
	for (guint i = 0; paths && json_object_is_type(paths, json_type_array) &&
			  i < json_object_array_length(paths); i++)
		append_field(out, i ? "" : T_("Target Objects"),
			     json_object_get_string(json_object_array_get_idx(paths, i)));
	append_known(out, T_("Target Class"), ad_json_member_str(d, AD_KEY_TCLASS));
	if (g_strcmp0(ad_json_member_str(d, AD_KEY_TYPE), "USER_AVC") == 0) {
		/* the object manager that checked and logged the access, not the subject */
		const char *by = ad_json_member_str(o, AD_KEY_REPORTED_BY);

		append_field(out, T_("Reported By"), by ? by : ad_json_member_str(d, AD_KEY_EXE));
	} else {
		append_field(out, T_("Source Executable"), ad_json_member_str(d, AD_KEY_EXE));
	}
	append_field(out, T_("Source Command"), ad_json_member_str(d, AD_KEY_COMM));
	for (guint i = 0; comms && json_object_is_type(comms, json_type_array) &&
			  json_object_array_length(comms) > 1 && i < json_object_array_length(comms);
	     i++)
		append_field(out, i ? "" : T_("Programs Seen"),
			     json_object_get_string(json_object_array_get_idx(comms, i)));
	append_field(out, T_("Command Line"), ad_json_member_str(d, "cmdline"));
	if (port && json_object_is_type(port, json_type_int)) {
		g_autofree char *n = g_strdup_printf("%" PRId64, json_object_get_int64(port));

		append_row(out, T_("Port"), n);
	}
	append_field(out, T_("Syscall"), ad_json_member_str(d, "syscall"));
	if (ad_json_member(o, AD_KEY_BLOCKED) && ad_json_member(o, AD_KEY_LOGGED_ONLY)) {
		/* the counts of both modes: an alert with a blocked denial says so */
		g_autofree char *perm = ad_permissive_text(
			(guint64)MAX(count, 0),
			(guint64)MAX(json_object_get_int64(ad_json_member(o, AD_KEY_BLOCKED)), 0),
			(guint64)MAX(json_object_get_int64(ad_json_member(o, AD_KEY_LOGGED_ONLY)), 0));

		append_row(out, T_("Permissive"), perm);
	} else if (d) {
		/* null: the record did not say (kernels before the permissive= field) */
		json_object *perm = ad_json_member(d, AD_KEY_PERMISSIVE);

		append_row(out, T_("Permissive"),
			   !perm ? T_("unknown")
			   : json_object_get_boolean(perm) ? T_("yes (nothing was blocked)")
			   : T_("no"));
	}
	append_row(out, T_("Hosts"), hosts);
	{
		g_autofree char *n = g_strdup_printf("%" PRId64, count);

		append_row(out, T_("Alert Count"), n);
	}
	append_row(out, T_("First Seen"), first);
	append_row(out, T_("Last Seen"), last);
	append_field(out, T_("Reason"), ad_json_member_str(d, AD_KEY_REASON));
	if (json_object_get_boolean(ad_json_member(d, AD_KEY_SUSPECT)))
		append_field(out, T_("Warning"), ad_json_member_str(d, "suspect_reason"));
	if (filter && strcmp(filter, "never") != 0) {
		g_autofree char *f = g_strconcat(strcmp(filter, "always") == 0 ? T_("always ignored")
						 : strcmp(filter, "after_first") == 0
						 ? T_("ignored after the first time") : "?",
						 json_object_get_boolean(ad_json_member(o, AD_KEY_IGNORED))
						 ? T_(" (ignored now)") : "", NULL);

		append_row(out, T_("Your Filter"), f);
	}
	g_string_append(out, T_("\nRaw Audit Messages:\n"));
	for (guint i = 0; records && json_object_is_type(records, json_type_array) &&
			  i < json_object_array_length(records); i++) {
		g_autofree char *r = ad_text_shown(json_object_get_string(
			json_object_array_get_idx(records, i)));

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
