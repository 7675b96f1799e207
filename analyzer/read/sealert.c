// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setroubleshoot's report pasted without its raw audit messages, gathered
 * into the denial it describes.  The summary sentence gives the
 * permissions (setroubleshoot's signature.py: "SELinux is preventing %s
 * from %s access on the %s %s.", "... from '%s' accesses on ...", "...
 * from using the %s access on a process.", "... from using the %s
 * capability."), else the catchall plugin's "If you believe that %s should
 * be allowed %s access on the %s %s by default."; the "Additional
 * Information:" block gives the contexts and, in "Target Objects  PATH [
 * CLASS ]", the class.  sealert wraps a value at 80 columns under a
 * 30-column indent (Python's textwrap: after a hyphen, at a blank, or
 * inside a word longer than the 50 columns left).  Everything in a report
 * is the pasted text's: values go into the record only when they are one
 * token without quotes.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "sealert.h"

enum { F_SCON, F_TCON, F_TOBJ, F_SOURCE, F_TCLASS, F_MODE, F_N, F_OTHER = F_N };

/* the block's keys: longer ones first ("Source Path" is not "Source") */
static const struct {
	const char *key;
	int field;
} keys[] = {
	{ "Source Context", F_SCON },
	{ "Target Context", F_TCON },
	{ "Target Objects", F_TOBJ },
	{ "Target Class", F_TCLASS },
	{ "Enforcing Mode", F_MODE },
	{ "Source Path", F_OTHER },
	{ "Source RPM Packages", F_OTHER },
	{ "Target RPM Packages", F_OTHER },
	{ "Source", F_SOURCE },
};

struct AdSealert {
	gboolean open;		/* a report is being read */
	gboolean summary;	/* its summary sentence was read */
	gboolean block;		/* its "Additional Information:" was */
	gboolean raw;		/* its raw AVC was read: it gives no denial of its own */
	guint line;		/* its first line */
	GString *perms;		/* "read write": empty when none */
	GString *klass;		/* the class the summary names */
	GString *field[F_N];
	int last;		/* the field the next indented line may continue, or -1 */
	gsize last_piece;	/* the length of that field's last line */
};

AdSealert *ad_sealert_new(void)
{
	AdSealert *s = g_new0(AdSealert, 1);

	s->perms = g_string_new(NULL);
	s->klass = g_string_new(NULL);
	for (int i = 0; i < F_N; i++)
		s->field[i] = g_string_new(NULL);
	s->last = -1;
	return s;
}

void ad_sealert_free(AdSealert *s)
{
	if (!s)
		return;
	g_string_free(s->perms, TRUE);
	g_string_free(s->klass, TRUE);
	for (int i = 0; i < F_N; i++)
		g_string_free(s->field[i], TRUE);
	g_free(s);
}

gboolean ad_sealert_open(const AdSealert *s)
{
	return s->open;
}

static gboolean has_prefix(const char *p, const char *end, const char *prefix)
{
	gsize n = strlen(prefix);

	return (gsize)(end - p) >= n && memcmp(p, prefix, n) == 0;
}

static gboolean is_word_char(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

/* the end of a permission or class name at @p (NULL when none) */
static const char *word_end(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && is_word_char(*q))
		q++;
	return q > p ? q : NULL;
}

/*
 * The permissions at @p: "read" or, quoted, "'read, write'" (the summary's
 * list) or "read write" up to @stop (the catchall's).  Put in @out, blank
 * separated; returns the position after them, NULL when @p holds none.
 */
static const char *parse_perms(const char *p, const char *end, const char *stop, GString *out)
{
	const char *q;

	g_string_truncate(out, 0);
	if (p < end && *p == '\'') {
		for (p++;;) {
			if (!(q = word_end(p, end)))
				return NULL;
			g_string_append_printf(out, "%s%.*s", out->len ? " " : "", (int)(q - p), p);
			if (q < end && *q == '\'')
				return q + 1;
			if (!has_prefix(q, end, ", "))
				return NULL;
			p = q + 2;
		}
	}
	for (;;) {
		if (!(q = word_end(p, end)))
			return NULL;
		g_string_append_printf(out, "%s%.*s", out->len ? " " : "", (int)(q - p), p);
		if (!stop || has_prefix(q, end, stop) || q >= end || *q != ' ')
			return q;
		p = q + 1;
	}
}

/* the class a summary names in words ("directory", "shared memory") */
static void class_of_words(const char *p, const char *end, GString *out)
{
	static const struct {
		const char *words, *klass;
	} names[] = {
		{ "directory ", "dir" }, { "shared memory ", "shm" }, { "message queue ", "msgq" },
		{ "semaphore ", "sem" }, { "message ", "msg" },
	};
	const char *q;

	for (guint i = 0; i < G_N_ELEMENTS(names); i++)
		if (has_prefix(p, end, names[i].words)) {
			g_string_assign(out, names[i].klass);
			return;
		}
	if ((q = word_end(p, end)) && q < end && *q == ' ')
		g_string_append_len(out, p, q - p);
}

/*
 * The summary after "SELinux is preventing ": its permissions and class
 * into @s; FALSE when it is not in a form setroubleshoot writes.
 */
static gboolean parse_summary(AdSealert *s, const char *p, const char *end)
{
	const char *q;

	g_string_truncate(s->klass, 0);
	for (const char *f = p; (f = g_strstr_len(f, end - f, " from ")) != NULL; f++) {
		q = f + 6;
		if (has_prefix(q, end, "using the ")) {
			const char *a = parse_perms(q + 10, end, NULL, s->perms);

			if (a && (has_prefix(a, end, " access on a process") ||
				  has_prefix(a, end, " accesses on a process"))) {
				g_string_assign(s->klass, "process");
				return TRUE;
			}
			if (a && (has_prefix(a, end, " capability") ||
				  has_prefix(a, end, " capabilities"))) {
				g_string_assign(s->klass, "capability");
				return TRUE;
			}
		}
		q = parse_perms(q, end, NULL, s->perms);
		if (q && has_prefix(q, end, " access on the "))
			q += 15;
		else if (q && has_prefix(q, end, " accesses on the "))
			q += 17;
		else
			continue;
		class_of_words(q, end, s->klass);
		return TRUE;
	}
	g_string_truncate(s->perms, 0);
	return FALSE;
}

/*
 * The catchall plugin's "If you believe that SOURCE should be allowed read
 * write access on the NAME CLASS by default.": its permissions into @perms.
 */
static gboolean parse_catchall(const char *p, const char *end, GString *perms)
{
	const char *a = g_strstr_len(p, end - p, " should be allowed "), *q;

	if (!a || !has_prefix(p, end, "If you believe that ") || end - p < 12 ||
	    memcmp(end - 12, " by default.", 12) != 0)
		return FALSE;
	q = parse_perms(a + 19, end, " access on the ", perms);
	return q && has_prefix(q, end, " access on the ");
}

/* a new report, begun at line @line */
static void report_start(AdSealert *s, guint line)
{
	s->open = TRUE;
	s->summary = s->block = s->raw = FALSE;
	s->line = line;
	g_string_truncate(s->perms, 0);
	g_string_truncate(s->klass, 0);
	for (int i = 0; i < F_N; i++)
		g_string_truncate(s->field[i], 0);
	s->last = -1;
}

/* one token without quotes or control characters: what may go into a record */
static gboolean is_token(const GString *v, gboolean blanks)
{
	if (!v->len || v->len > 4096)
		return FALSE;
	for (gsize i = 0; i < v->len; i++)
		if ((guchar)v->str[i] < 0x20 || v->str[i] == '"' || v->str[i] == 0x7f ||
		    (!blanks && v->str[i] == ' '))
			return FALSE;
	return TRUE;
}

/* the open report, ended: into @done; FALSE when it gives nothing (its raw AVC was read) */
static gboolean report_end(AdSealert *s, AdSealertReport *done)
{
	g_autoptr(GString) klass = g_string_new(NULL);
	g_autoptr(GString) name = g_string_new(NULL);
	GString *body;
	const GString *obj = s->field[F_TOBJ];
	const char *open;

	if (!s->open)
		return FALSE;
	s->open = FALSE;
	if (s->raw)
		return FALSE;
	done->body = NULL;
	done->line = s->line;
	/* "Target Objects  /etc/passwd [ file ]" */
	open = obj->len >= 5 ? g_strrstr(obj->str, " [ ") : NULL;
	if (open && g_str_has_suffix(obj->str, " ]")) {
		g_string_append_len(klass, open + 3, obj->str + obj->len - 2 - (open + 3));
		g_string_append_len(name, obj->str, open - obj->str);
	}
	if (s->field[F_TCLASS]->len)
		g_string_assign(klass, s->field[F_TCLASS]->str);
	if (!klass->len || !word_end(klass->str, klass->str + klass->len) ||
	    word_end(klass->str, klass->str + klass->len) != klass->str + klass->len)
		g_string_assign(klass, s->klass->str);
	if (!s->block) {
		done->missing = _("a setroubleshoot summary without its \"Additional Information\" "
				  "and its raw audit messages: it names no contexts, so no denial "
				  "is read from it");
		return TRUE;
	}
	if (!s->perms->len) {
		done->missing = _("a setroubleshoot report without its raw audit messages and "
				  "without the summary that names the permissions (\"SELinux is "
				  "preventing ... from read access on ...\"): no denial is read "
				  "from it");
		return TRUE;
	}
	/* a context wrapped after its hyphen whose next line is lost ends in '-' */
	if (!is_token(s->field[F_SCON], FALSE) || !is_token(s->field[F_TCON], FALSE) ||
	    g_str_has_suffix(s->field[F_SCON]->str, "-") ||
	    g_str_has_suffix(s->field[F_TCON]->str, "-") || !klass->len) {
		done->missing = _("a setroubleshoot report without its raw audit messages lacks "
				  "its source context, target context or class: no denial is read "
				  "from it");
		return TRUE;
	}
	body = g_string_new(NULL);
	g_string_printf(body, "avc:  denied  { %s } for ", s->perms->str);
	if (is_token(s->field[F_SOURCE], TRUE) && strcmp(s->field[F_SOURCE]->str, "<Unknown>"))
		g_string_append_printf(body, " comm=\"%s\"", s->field[F_SOURCE]->str);
	if (is_token(name, TRUE) && strcmp(name->str, "None") && strcmp(name->str, "Unknown") &&
	    strcmp(name->str, "(null)"))
		g_string_append_printf(body, " %s=\"%s\"", name->str[0] == '/' ? "path" : "name",
				       name->str);
	g_string_append_printf(body, " scontext=%s tcontext=%s tclass=%s", s->field[F_SCON]->str,
			       s->field[F_TCON]->str, klass->str);
	/* the whole system was permissive: the access was not denied */
	if (g_ascii_strcasecmp(s->field[F_MODE]->str, "Permissive") == 0)
		g_string_append(body, " permissive=1");
	done->body = g_string_free(body, FALSE);
	return TRUE;
}

/* a line of the block: "Source Context                VALUE" (or one blank, as some copies have it) */
static int block_field(const char *p, const char *end, const char **value)
{
	for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
		gsize n = strlen(keys[i].key);

		if ((gsize)(end - p) < n || g_ascii_strncasecmp(p, keys[i].key, n) != 0)
			continue;
		if (p + n < end && p[n] != ' ')
			continue;
		for (p += n; p < end && *p == ' '; p++)
			;
		*value = p;
		return keys[i].field;
	}
	return -1;
}

/* the next line of a wrapped value, joined as textwrap broke it */
static void field_continues(AdSealert *s, const char *p, const char *end)
{
	GString *v = s->field[s->last];
	gboolean token = s->last == F_SCON || s->last == F_TCON;

	if (v->len && !token && v->str[v->len - 1] != '-' && s->last_piece < 50)
		g_string_append_c(v, ' ');
	g_string_append_len(v, p, end - p);
	s->last_piece = end - p;
}

gboolean ad_sealert_line(AdSealert *s, const char *p, const char *end, guint line,
			 AdSealertReport *done)
{
	const char *value;
	gsize indent = 0;
	int f;

	/* quote markers, indentation */
	while (p < end && (*p == '>' || *p == ' ' || *p == '\t')) {
		indent = *p == '>' ? 0 : indent + 1;
		p++;
	}
	if (p >= end)
		return FALSE;
	if (!s->open && *p != 'S' && *p != 'A' && *p != 'a' && *p != 'I')
		return FALSE;
	if (has_prefix(p, end, "SELinux is preventing ")) {
		gboolean ended = report_end(s, done);

		report_start(s, line);
		s->summary = parse_summary(s, p + 22, end);
		if (!s->summary)
			s->open = FALSE;
		return ended;
	}
	if (has_prefix(p, end, "If you believe that ")) {
		g_autoptr(GString) perms = g_string_new(NULL);
		gboolean ended = FALSE;

		if (!parse_catchall(p, end, perms))
			return FALSE;
		if (!s->open || s->block) {
			ended = report_end(s, done);
			report_start(s, line);
		}
		if (!s->perms->len)
			g_string_assign(s->perms, perms->str);
		return ended;
	}
	if (g_ascii_strncasecmp(p, "Additional Information:", 23) == 0 && p + 23 == end) {
		gboolean ended = FALSE;

		if (!s->open || s->block) {
			ended = report_end(s, done);
			report_start(s, line);
		}
		s->block = TRUE;
		return ended;
	}
	if (!s->open)
		return FALSE;
	if (has_prefix(p, end, "Hash: "))
		return report_end(s, done);
	if (!s->block)
		return FALSE;
	/* a context is one token: a line of words is no part of it */
	if (indent >= 8 && s->last >= 0 &&
	    ((s->last != F_SCON && s->last != F_TCON) || !memchr(p, ' ', end - p))) {
		field_continues(s, p, end);
		return FALSE;
	}
	s->last = -1;
	f = block_field(p, end, &value);
	if (f >= 0 && f < F_N) {
		g_string_assign(s->field[f], "");
		g_string_append_len(s->field[f], value, end - value);
		s->last = f;
		s->last_piece = end - value;
	}
	return FALSE;
}

/* " KEY=VALUE" with VALUE ending at a blank or @end, in [@p, @end) */
static gboolean has_field(const char *p, const char *end, const char *key, const GString *value)
{
	gsize kn = strlen(key);

	for (const char *q = p; (q = g_strstr_len(q, end - q, key)) != NULL; q += kn) {
		const char *v = q + kn;

		if (q > p && q[-1] != ' ')
			continue;
		if ((gsize)(end - v) >= value->len && memcmp(v, value->str, value->len) == 0 &&
		    (v + value->len == end || v[value->len] == ' '))
			return TRUE;
	}
	return FALSE;
}

void ad_sealert_record(AdSealert *s, const char *p, const char *end)
{
	if (!s->open)
		return;
	/* a summary alone: the denial after it is the one it sums up */
	if (!s->field[F_SCON]->len) {
		s->raw = TRUE;
		return;
	}
	if (has_field(p, end, "scontext=", s->field[F_SCON]) &&
	    has_field(p, end, "tcontext=", s->field[F_TCON]))
		s->raw = TRUE;
}

gboolean ad_sealert_finish(AdSealert *s, AdSealertReport *done)
{
	return report_end(s, done);
}
