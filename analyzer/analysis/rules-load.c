// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading rule files: the strict line scanner (GKeyFile's own errors name
 * no line, and it silently merges a repeated group and keeps the last of a
 * repeated key), the key table, the values, and the safe opening of files
 * and directories.  Any problem rejects the whole file, each problem as
 * "FILE:LINE: message"; the syntax is avcdoctor.rules(5)'s.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <dirent.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "config.h"
#include "paths.h"
#include "escape.h"
#include "rules.h"
#include "rules-private.h"
#include "trusted-file.h"


/* ---- problems ------------------------------------------------------------------ */

typedef struct {
	guint line;			/* 0: the file as a whole */
	char *message;
} Problem;

/* what is wrong with one file, reported sorted by line */
typedef struct {
	const char *file;		/* as shown in messages */
	GArray *items;			/* Problem */
	/*
	 * Names the policy checked against lacks (Problem): not errors, for
	 * rules name the types and booleans of several policies; such a rule
	 * does not fire where its names are missing.  NULL: not collected.
	 */
	GArray *lacks;
} Problems;

static void problem_clear(gpointer p)
{
	g_free(((Problem *)p)->message);
}

static void problem(Problems *pb, guint line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void problem(Problems *pb, guint line, const char *fmt, ...)
{
	Problem p = { .line = line };
	va_list ap;

	va_start(ap, fmt);
	p.message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_array_append_val(pb->items, p);
}

static void lack(Problems *pb, guint line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* a name the policy lacks: reported by check-rules, never an error */
static void lack(Problems *pb, guint line, const char *fmt, ...)
{
	Problem p = { .line = line };
	va_list ap;

	if (!pb->lacks)
		return;
	va_start(ap, fmt);
	p.message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_array_append_val(pb->lacks, p);
}

static int problem_cmp(gconstpointer a, gconstpointer b)
{
	const Problem *x = a, *y = b;

	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * Appends "FILE:LINE: message" for each problem, by line (stable).  A
 * message quotes the file, which may hold terminal escapes: those are
 * escaped (escape.h) before anyone prints them.
 */
static void problems_format_items(const Problems *pb, GArray *items, GPtrArray *messages)
{
	g_array_sort(items, problem_cmp);	/* g_array_sort is stable (merge sort) */
	for (guint i = 0; i < items->len; i++) {
		Problem *p = &g_array_index(items, Problem, i);
		g_autofree char *m = p->line ? g_strdup_printf("%s:%u: %s", pb->file, p->line,
							       p->message)
					     : g_strdup_printf("%s: %s", pb->file, p->message);

		if (ad_bytes_are_clean(m, strlen(m)))
			g_ptr_array_add(messages, g_steal_pointer(&m));
		else
			g_ptr_array_add(messages, ad_escape_str(m));
	}
}

static void problems_format(Problems *pb, GPtrArray *messages)
{
	problems_format_items(pb, pb->items, messages);
}

/* ---- the line scanner ------------------------------------------------------------ */

typedef struct {
	char *key;			/* "If[de]" as written (trimmed) */
	char *base;			/* "If" */
	char *locale;			/* "de", or NULL */
	guint line;
} ScanKey;

typedef struct {
	char *name;
	guint line;
	GPtrArray *keys;		/* ScanKey* in file order */
} ScanGroup;

static void scan_key_free(ScanKey *k)
{
	g_free(k->key);
	g_free(k->base);
	g_free(k->locale);
	g_free(k);
}

static void scan_group_free(ScanGroup *g)
{
	g_free(g->name);
	g_ptr_array_unref(g->keys);
	g_free(g);
}

gboolean rules_valid_chars(const char *s, gsize len, const char *extra)
{
	if (!len)
		return FALSE;
	for (gsize i = 0; i < len; i++)
		if (!g_ascii_isalnum(s[i]) && !strchr(extra, s[i]))
			return FALSE;
	return TRUE;
}

/* the start of a (valid UTF-8) line for a message: at most 60 characters */
static char *excerpt(const char *s, gsize len)
{
	g_autofree char *all = g_strndup(s, len);
	g_autofree char *head = NULL;

	if (g_utf8_strlen(all, -1) <= 60)
		return g_steal_pointer(&all);
	head = g_utf8_substring(all, 0, 59);
	return g_strconcat(head, "…", NULL);
}

/*
 * Splits @text into groups and keys with their lines, the way GKeyFile
 * reads it but stricter: a line that is not blank, a comment, a group
 * header or KEY=VALUE, a key outside a group, a repeated group or key,
 * bytes that are not UTF-8.  Returns the groups; problems go to @pb.
 */
static GPtrArray *scan_text(const char *text, gsize len, Problems *pb)
{
	GPtrArray *groups = g_ptr_array_new_with_free_func((GDestroyNotify)scan_group_free);
	g_autoptr(GHashTable) seen_groups = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) seen_keys = NULL;
	ScanGroup *cur = NULL;
	gboolean bad_group = FALSE;	/* keys after a bad header: reported once */
	guint lineno = 0;
	gsize pos = 0;

	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		gsize n = nl ? (gsize)(nl - line) : len - pos;
		const char *s = line, *e = line + n;
		const char *invalid, *eq, *ke, *bracket;
		ScanKey *k, *first;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (memchr(line, '\0', n)) {
			problem(pb, lineno, "%s", _("NUL byte in the line"));
			continue;
		}
		if (!g_utf8_validate(line, n, &invalid)) {
			problem(pb, lineno, _("not valid UTF-8 (byte %zu of the line)"),
				(gsize)(invalid - line) + 1);
			continue;
		}
		if (memchr(line, '\r', n)) {
			problem(pb, lineno, "%s",
				_("carriage return in the line (DOS line ends?)"));
			continue;
		}
		while (s < e && g_ascii_isspace(*s))
			s++;
		while (e > s && g_ascii_isspace(e[-1]))
			e--;
		if (s == e || *s == '#')
			continue;
		if (*s == '[') {
			const char *close = memchr(s, ']', e - s);
			g_autofree char *name = NULL;
			ScanGroup *first_group;

			if (!close || close != e - 1) {
				problem(pb, lineno, "%s",
					_("a group header is “[name]” alone on its line"));
				cur = NULL;
				bad_group = TRUE;
				continue;
			}
			name = g_strndup(s + 1, close - s - 1);
			if (!rules_valid_chars(name, strlen(name), "_.-")) {
				problem(pb, lineno,
					_("rule name “%s”: use letters, digits, “-”, “_” and “.”"),
					name);
				cur = NULL;
				bad_group = TRUE;
				continue;
			}
			first_group = g_hash_table_lookup(seen_groups, name);
			if (first_group) {
				problem(pb, lineno, _("rule [%s] given twice (first on line %u)"),
					name, first_group->line);
				cur = NULL;
				bad_group = TRUE;
				continue;
			}
			bad_group = FALSE;
			cur = g_new0(ScanGroup, 1);
			cur->name = g_steal_pointer(&name);
			cur->line = lineno;
			cur->keys = g_ptr_array_new_with_free_func((GDestroyNotify)scan_key_free);
			g_ptr_array_add(groups, cur);
			g_hash_table_insert(seen_groups, cur->name, cur);
			g_clear_pointer(&seen_keys, g_hash_table_unref);
			seen_keys = g_hash_table_new(g_str_hash, g_str_equal);
			continue;
		}

		eq = memchr(s, '=', e - s);
		if (!eq) {
			g_autofree char *shown = excerpt(s, e - s);

			problem(pb, lineno,
				/* TRANSLATORS: %s is a line of a rules file; KEY=VALUE stays */
				_("“%s” is not KEY=VALUE, a [rule] header or a # comment"), shown);
			continue;
		}
		ke = eq;
		while (ke > s && g_ascii_isspace(ke[-1]))
			ke--;
		k = g_new0(ScanKey, 1);
		k->key = g_strndup(s, ke - s);
		k->line = lineno;
		bracket = strchr(k->key, '[');
		if (bracket) {
			gsize ll = strlen(bracket + 1);

			k->base = g_strndup(k->key, bracket - k->key);
			if (ll < 2 || bracket[ll] != ']' ||
			    !rules_valid_chars(bracket + 1, ll - 1, "_@.-")) {
				/* TRANSLATORS: KEY[LOCALE] stays as it is */
				problem(pb, lineno, _("key “%s”: a translation is written KEY[LOCALE]"),
					k->key);
				scan_key_free(k);
				continue;
			}
			k->locale = g_strndup(bracket + 1, ll - 1);
		} else {
			k->base = g_strdup(k->key);
		}
		if (!*k->key) {
			g_autofree char *shown = excerpt(s, e - s);

			problem(pb, lineno,
				/* TRANSLATORS: %s is a line of a rules file; KEY=VALUE stays */
				_("“%s” is not KEY=VALUE, a [rule] header or a # comment"), shown);
			scan_key_free(k);
			continue;
		}
		if (!rules_valid_chars(k->base, strlen(k->base), "-")) {
			problem(pb, lineno, _("“%s” is not a key name"), k->key);
			scan_key_free(k);
			continue;
		}
		if (!cur) {
			if (!bad_group)
				problem(pb, lineno, _("key “%s” outside a [rule] group"), k->key);
			scan_key_free(k);
			continue;
		}
		first = g_hash_table_lookup(seen_keys, k->key);
		if (first) {
			problem(pb, lineno, _("key “%s” given twice in [%s] (first on line %u)"),
				k->key, cur->name, first->line);
			scan_key_free(k);
			continue;
		}
		g_ptr_array_add(cur->keys, k);
		g_hash_table_insert(seen_keys, k->key, k);
	}
	return groups;
}

/* ---- keys ------------------------------------------------------------------------- */

typedef enum {
	K_SUMMARY,
	K_SOURCE,
	K_TARGET,
	K_NOT_TARGET,
	K_TYPES,
	K_CLASS,
	K_PERMISSIONS,
	K_REASON,
	K_PATH_PREFIX,
	K_NOT_PATH_PREFIX,
	K_COMM,
	K_KMOD,
	K_BOOLEAN,
	K_KIND,
	K_LEVEL,
	K_CONFIDENCE,
	K_IF,
	K_THEN,
	K_COMMAND,			/* Command, Command2 ... */
	K_N
} KeyId;

static const struct {
	const char *name;
	gboolean translatable;
} key_table[K_N] = {
	[K_SUMMARY] = { "Summary", TRUE },
	[K_SOURCE] = { "Source", FALSE },
	[K_TARGET] = { "Target", FALSE },
	[K_NOT_TARGET] = { "NotTarget", FALSE },
	[K_TYPES] = { "Types", FALSE },
	[K_CLASS] = { "Class", FALSE },
	[K_PERMISSIONS] = { "Permissions", FALSE },
	[K_REASON] = { "Reason", FALSE },
	[K_PATH_PREFIX] = { "PathPrefix", FALSE },
	[K_NOT_PATH_PREFIX] = { "NotPathPrefix", FALSE },
	[K_COMM] = { "Comm", FALSE },
	[K_KMOD] = { "Kmod", FALSE },
	[K_BOOLEAN] = { "Boolean", FALSE },
	[K_KIND] = { "Kind", FALSE },
	[K_LEVEL] = { "Level", FALSE },
	[K_CONFIDENCE] = { "Confidence", FALSE },
	[K_IF] = { "If", TRUE },
	[K_THEN] = { "Then", TRUE },
	[K_COMMAND] = { "Command", FALSE },
};

/* "Command" -> 1, "Command7" -> 7, else 0 */
static guint command_number(const char *key)
{
	if (!g_str_has_prefix(key, "Command"))
		return 0;
	key += strlen("Command");
	if (!*key)
		return 1;
	if (key[0] >= '2' && key[0] <= '0' + AD_RULES_MAX_COMMANDS && !key[1])
		return key[0] - '0';
	return 0;
}

static int key_lookup(const char *base)
{
	if (command_number(base))
		return K_COMMAND;
	for (int i = 0; i < K_N; i++)
		if (strcmp(key_table[i].name, base) == 0)
			return i;
	return -1;
}

/* Levenshtein distance, case-insensitive, for "did you mean" */
static guint edit_distance(const char *a, const char *b)
{
	gsize la = strlen(a), lb = strlen(b);
	g_autofree guint *row = g_new(guint, lb + 1);

	for (gsize j = 0; j <= lb; j++)
		row[j] = j;
	for (gsize i = 1; i <= la; i++) {
		guint diag = row[0];

		row[0] = i;
		for (gsize j = 1; j <= lb; j++) {
			guint up = row[j];
			guint cost = g_ascii_tolower(a[i - 1]) != g_ascii_tolower(b[j - 1]);

			row[j] = MIN(MIN(row[j] + 1, row[j - 1] + 1), diag + cost);
			diag = up;
		}
	}
	return row[lb];
}

static const char *closest_key(const char *base)
{
	const char *best = NULL;
	guint best_d = 3;		/* at most two edits away */

	for (int i = 0; i < K_N; i++) {
		guint d = edit_distance(base, key_table[i].name);

		if (d < best_d) {
			best_d = d;
			best = key_table[i].name;
		}
	}
	return best;
}

/* ---- parsing values ------------------------------------------------------------------ */

typedef struct {
	Problems *pb;
	GKeyFile *kf;
	const char *group;
	AdPolicy *policy;		/* check names against it; NULL: do not */
	const char *policy_name;
} ParseCtx;

/* a list value, items trimmed; NULL (and a problem) when empty or unreadable */
static char **get_list(ParseCtx *pc, const ScanKey *k, gboolean trim)
{
	g_autoptr(GError) error = NULL;
	gsize n = 0;
	char **list = g_key_file_get_string_list(pc->kf, pc->group, k->key, &n, &error);

	if (!list || error) {
		g_strfreev(list);
		/* TRANSLATORS: %s is a key of a rules file (If, Command...) */
		problem(pc->pb, k->line, _("%s: invalid escape sequence (“\\s”, “\\t”, “\\n”, "
					   "“\\\\” and “\\;” are known)"), k->key);
		return NULL;
	}
	for (gsize i = 0; i < n; i++) {
		if (trim)
			g_strstrip(list[i]);
		if (!*list[i]) {
			/* TRANSLATORS: %1$s is a key of a rules file, %2$zu the position of
			   the item in its list */
			problem(pc->pb, k->line, _("%s: empty item %zu"), k->key, i + 1);
			g_strfreev(list);
			return NULL;
		}
	}
	if (!n) {
		/* TRANSLATORS: %s is a key of a rules file (If, Source...) */
		problem(pc->pb, k->line, _("%s is empty"), k->key);
		g_strfreev(list);
		return NULL;
	}
	return list;
}

static char *get_string(ParseCtx *pc, const ScanKey *k)
{
	g_autoptr(GError) error = NULL;
	char *s = g_key_file_get_string(pc->kf, pc->group, k->key, &error);

	if (!s || error) {
		g_free(s);
		/* TRANSLATORS: %s is a key of a rules file (If, Then...) */
		problem(pc->pb, k->line, _("%s: invalid escape sequence (“\\s”, “\\t”, “\\n” "
					   "and “\\\\” are known)"), k->key);
		return NULL;
	}
	g_strchomp(s);
	if (!*s) {
		/* TRANSLATORS: %s is a key of a rules file (If, Source...) */
		problem(pc->pb, k->line, _("%s is empty"), k->key);
		g_free(s);
		return NULL;
	}
	return s;
}

static gboolean is_type_name(const char *s)
{
	return rules_valid_chars(s, strlen(s), "_.-*") && s[0] != '-';
}

static NameSet *parse_names(ParseCtx *pc, const ScanKey *k)
{
	g_auto(GStrv) list = get_list(pc, k, TRUE);
	NameSet *ns;

	if (!list)
		return NULL;
	ns = rules_name_set_new();
	for (guint i = 0; list[i]; i++) {
		if (!is_type_name(list[i])) {
			/* TRANSLATORS: %1$s is a key of a rules file (Source...) */
			problem(pc->pb, k->line, _("%s: “%s” is not a type or attribute name"),
				k->key, list[i]);
			continue;
		}
		if (pc->policy && !strchr(list[i], '*') &&
		    !ad_policy_has_type(pc->policy, list[i]) &&
		    !ad_policy_type_is_attribute(pc->policy, list[i]))
			/* TRANSLATORS: %1$s is a key of a rules file, %2$s an SELinux
			   type, %3$s a policy file */
			lack(pc->pb, k->line, _("%s: type “%s” is not defined in %s"), k->key,
			     list[i], pc->policy_name);
		rules_name_set_add(ns, list[i]);
	}
	return ns;
}

/*
 * Types=: candidate types for {type}, in order of preference.  Not
 * checked against the policy: a list of candidates names types of several
 * policies, and the rule does not fire where the policy defines none.
 */
static char **parse_types(ParseCtx *pc, const ScanKey *k)
{
	g_auto(GStrv) list = get_list(pc, k, TRUE);

	for (guint i = 0; list && list[i]; i++)
		if (!is_type_name(list[i]) || strchr(list[i], '*'))
			/* TRANSLATORS: Types is a key of a rules file */
			problem(pc->pb, k->line, _("Types: “%s” is not a type name"), list[i]);
	return g_steal_pointer(&list);
}

/* class and permission names: [a-z0-9_] (hex permissions too: 0x800000) */
static char **parse_identifiers(ParseCtx *pc, const ScanKey *k, gboolean class)
{
	char **list = get_list(pc, k, TRUE);

	for (guint i = 0; list && list[i]; i++)
		if (!rules_valid_chars(list[i], strlen(list[i]), "_"))
			/* TRANSLATORS: %1$s is a key of a rules file (Class, Permissions) */
			problem(pc->pb, k->line, class ? _("%s: “%s” is not a class name")
				: _("%s: “%s” is not a permission name"), k->key, list[i]);
	return list;
}

static guint32 parse_reasons(ParseCtx *pc, const ScanKey *k)
{
	g_auto(GStrv) list = get_list(pc, k, TRUE);
	guint32 mask = 0;

	for (guint i = 0; list && list[i]; i++) {
		guint r;

		for (r = AD_REASON_ALLOWED; r <= AD_REASON_INVALID_CONTEXT; r++)
			if (strcmp(list[i], ad_reason_name(r)) == 0)
				break;
		if (r > AD_REASON_INVALID_CONTEXT) {
			g_autoptr(GString) known = g_string_new(NULL);

			for (r = AD_REASON_ALLOWED; r <= AD_REASON_INVALID_CONTEXT; r++)
				g_string_append_printf(known, "%s%s", r ? " " : "",
						       ad_reason_name(r));
			/* TRANSLATORS: Reason is a key of a rules file and the known
			   reasons (%2$s) are values: they stay as they are */
			problem(pc->pb, k->line, _("Reason: unknown reason “%s” (known: %s)"),
				list[i], known->str);
			continue;
		}
		mask |= 1u << r;
	}
	return mask;
}

static char **parse_paths(ParseCtx *pc, const ScanKey *k)
{
	char **list = get_list(pc, k, TRUE);

	for (guint i = 0; list && list[i]; i++) {
		gsize n = strlen(list[i]);

		if (list[i][0] != '/')
			/* TRANSLATORS: %1$s is a key of a rules file (PathPrefix...) */
			problem(pc->pb, k->line, _("%s: “%s” is not an absolute path"), k->key,
				list[i]);
		/* "/var/www/" matches like "/var/www" */
		while (n > 1 && list[i][n - 1] == '/')
			list[i][--n] = '\0';
	}
	return list;
}

static gboolean parse_bool_value(const char *s, gboolean *ret)
{
	static const char *const on[] = { "1", "true", "on" }, *const off[] = { "0", "false", "off" };

	for (guint i = 0; i < G_N_ELEMENTS(on); i++) {
		if (g_ascii_strcasecmp(s, on[i]) == 0) {
			*ret = TRUE;
			return TRUE;
		}
		if (g_ascii_strcasecmp(s, off[i]) == 0) {
			*ret = FALSE;
			return TRUE;
		}
	}
	return FALSE;
}

static GPtrArray *parse_booleans(ParseCtx *pc, const ScanKey *k)
{
	g_auto(GStrv) list = get_list(pc, k, TRUE);
	GPtrArray *out;

	if (!list)
		return NULL;
	out = g_ptr_array_new_with_free_func((GDestroyNotify)rules_bool_cond_free);
	for (guint i = 0; list[i]; i++) {
		char *eq = strchr(list[i], '=');
		BoolCond *b;
		gboolean value;

		if (!eq || !parse_bool_value(g_strstrip(eq + 1), &value)) {
			/* TRANSLATORS: Boolean is a key of a rules file; NAME=0 and
			   NAME=1 stay as they are */
			problem(pc->pb, k->line, _("Boolean: “%s” is not NAME=0 or NAME=1"),
				list[i]);
			continue;
		}
		*eq = '\0';
		g_strstrip(list[i]);
		if (!rules_valid_chars(list[i], strlen(list[i]), "_")) {
			/* TRANSLATORS: the first Boolean is a key of a rules file */
			problem(pc->pb, k->line, _("Boolean: “%s” is not a boolean name"), list[i]);
			continue;
		}
		if (pc->policy && ad_policy_bool_value(pc->policy, list[i]) < 0)
			/* TRANSLATORS: the first Boolean is a key of a rules file; %2$s is
			   a policy file */
			lack(pc->pb, k->line, _("Boolean: boolean “%s” is not defined in %s"),
			     list[i], pc->policy_name);
		b = g_new0(BoolCond, 1);
		b->name = g_strdup(list[i]);
		b->value = value;
		g_ptr_array_add(out, b);
	}
	return out;
}

/* checks the names a command passes to setsebool, semanage -t, chcon -t */
static void check_command_names(ParseCtx *pc, const ScanKey *k, char **argv)
{
	g_autofree char *prog = g_path_get_basename(argv[0]);
	gboolean setsebool = strcmp(prog, "setsebool") == 0;
	gboolean typed = strcmp(prog, "semanage") == 0 || strcmp(prog, "chcon") == 0;

	if (!pc->policy)
		return;
	for (guint i = 1; argv[i]; i++) {
		const char *a = argv[i];
		gboolean v;

		if (strchr(a, '{'))
			continue;	/* a value of the denial */
		if (setsebool && a[0] != '-' && !parse_bool_value(a, &v)) {
			g_autofree char *name = g_strndup(a, strcspn(a, "="));

			if (ad_policy_bool_value(pc->policy, name) < 0)
				/* TRANSLATORS: %1$s is a key of a rules file (Command), %3$s a
				   policy file */
				lack(pc->pb, k->line, _("%s: boolean “%s” is not defined in %s"),
				     k->key, name, pc->policy_name);
		}
		if (typed && i > 1 && (strcmp(argv[i - 1], "-t") == 0 ||
				       strcmp(argv[i - 1], "--type") == 0) &&
		    !ad_policy_has_type(pc->policy, a))
			lack(pc->pb, k->line, _("%s: type “%s” is not defined in %s"), k->key, a,
			     pc->policy_name);
	}
}

static char **parse_command(ParseCtx *pc, const ScanKey *k, guint32 *mask)
{
	g_auto(GStrv) argv = NULL;
	g_autoptr(GError) error = NULL;
	gsize n = 0;
	gboolean ok = TRUE;

	argv = g_key_file_get_string_list(pc->kf, pc->group, k->key, &n, &error);
	if (!argv || error) {
		/* TRANSLATORS: %s is a key of a rules file (If, Command...) */
		problem(pc->pb, k->line, _("%s: invalid escape sequence (“\\s”, “\\t”, “\\n”, "
					   "“\\\\” and “\\;” are known)"), k->key);
		return NULL;
	}
	if (!n) {
		/* TRANSLATORS: %s is a key of a rules file (Command, Command2...) */
		problem(pc->pb, k->line, _("%s: empty command"), k->key);
		return NULL;
	}
	for (gsize i = 0; i < n; i++) {
		g_autofree char *msg = NULL;

		if (!*argv[i]) {
			/* TRANSLATORS: %1$s is a key of a rules file (Command...), %2$zu the
			   position of the argument */
			problem(pc->pb, k->line, _("%s: empty argument %zu"), k->key, i + 1);
			ok = FALSE;
			continue;
		}
		msg = rules_template_check(argv[i], mask);
		if (msg) {
			problem(pc->pb, k->line, "%s: %s", k->key, msg);
			ok = FALSE;
		}
	}
	if (ok && strpbrk(argv[0], "{}")) {
		/* TRANSLATORS: %s is a key of a rules file (Command...) */
		problem(pc->pb, k->line, _("%s: the program (first item) must be a fixed name"),
			k->key);
		ok = FALSE;
	}
	if (!ok)
		return NULL;
	check_command_names(pc, k, argv);
	return g_steal_pointer(&argv);
}

/*
 * A text key (Summary, If, Then): the translation for the current locale
 * (a KEY[LOCALE] line, else the gettext catalog), falling back to the
 * original when a translation names a placeholder it may not.  Every
 * translation in the file is checked.
 */
static char *parse_text(ParseCtx *pc, ScanGroup *sg, const ScanKey *k, guint32 *mask,
			gboolean placeholders, char **ret_msgid)
{
	g_autofree char *orig = get_string(pc, k);
	g_autofree char *locale = NULL;
	g_autofree char *translated = NULL;
	guint32 tmask = 0;
	char *msg;

	if (!orig)
		return NULL;
	if (placeholders && (msg = rules_template_check(orig, mask))) {
		problem(pc->pb, k->line, "%s: %s", k->key, msg);
		g_free(msg);
		return NULL;
	}
	for (guint i = 0; i < sg->keys->len; i++) {
		ScanKey *t = g_ptr_array_index(sg->keys, i);
		g_autofree char *v = NULL;

		if (!t->locale || strcmp(t->base, k->base) != 0)
			continue;
		v = get_string(pc, t);
		if (v && placeholders && (msg = rules_template_check(v, &tmask))) {
			problem(pc->pb, t->line, "%s: %s", t->key, msg);
			g_free(msg);
		}
	}
	locale = g_key_file_get_locale_for_key(pc->kf, pc->group, k->base, NULL);
	if (locale)
		translated = g_key_file_get_locale_string(pc->kf, pc->group, k->base, NULL, NULL);
	else
		translated = g_strdup(g_dgettext(GETTEXT_PACKAGE, orig));
	/* the catalog's translation: a reader finds its own there */
	if (ret_msgid && !locale) {
		g_free(*ret_msgid);
		*ret_msgid = g_strdup(orig);
	}
	if (!translated)
		return g_steal_pointer(&orig);
	g_strchomp(translated);
	if (!placeholders)
		return g_steal_pointer(&translated);
	tmask = 0;
	msg = rules_template_check(translated, &tmask);
	/* a translation may leave a placeholder out, never add one the original lacks */
	if (msg || (tmask & ~*mask)) {
		g_free(msg);
		return g_steal_pointer(&orig);
	}
	return g_steal_pointer(&translated);
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* one [group]: a rule, or NULL with problems */
static AdRule *parse_rule(ParseCtx *pc, ScanGroup *sg)
{
	g_autoptr(AdRule) r = g_new0(AdRule, 1);
	const ScanKey *commands[AD_RULES_MAX_COMMANDS + 1] = { NULL };
	gboolean have[K_N] = { FALSE };
	gboolean kind_ok = FALSE;
	guint before = pc->pb->items->len;

	r->id = g_strdup_printf("rule:%s:%s", basename_of(pc->pb->file), sg->name);
	r->file = g_strdup(pc->pb->file);
	r->line = sg->line;
	r->level = AD_LEVEL_YELLOW;
	r->confidence = 0.5;
	pc->group = sg->name;

	for (guint i = 0; i < sg->keys->len; i++) {
		ScanKey *k = g_ptr_array_index(sg->keys, i);
		int id = key_lookup(k->base);

		if (id < 0) {
			const char *close = closest_key(k->base);

			if (close)
				problem(pc->pb, k->line, _("unknown key “%s” (did you mean %s?)"),
					k->base, close);
			else
				problem(pc->pb, k->line, _("unknown key “%s”"), k->base);
			continue;
		}
		if (k->locale) {
			if (!key_table[id].translatable)
				/* TRANSLATORS: %1$s is a key of a rules file, %2$s the key as
				   written (Kind[de]) */
				problem(pc->pb, k->line, _("key %s cannot be translated (%s)"),
					k->base, k->key);
			continue;	/* checked with the untranslated key */
		}
		have[id] = TRUE;
		switch (id) {
		case K_SUMMARY:
			r->summary = parse_text(pc, sg, k, &r->text_mask, FALSE, NULL);
			break;
		case K_SOURCE:
			r->source = parse_names(pc, k);
			break;
		case K_TARGET:
			r->target = parse_names(pc, k);
			break;
		case K_NOT_TARGET:
			r->not_target = parse_names(pc, k);
			break;
		case K_TYPES:
			r->types = parse_types(pc, k);
			break;
		case K_CLASS:
			r->classes = parse_identifiers(pc, k, TRUE);
			break;
		case K_PERMISSIONS:
			r->perms = parse_identifiers(pc, k, FALSE);
			break;
		case K_REASON:
			r->reasons = parse_reasons(pc, k);
			break;
		case K_PATH_PREFIX:
			r->path_prefix = parse_paths(pc, k);
			break;
		case K_NOT_PATH_PREFIX:
			r->not_path_prefix = parse_paths(pc, k);
			break;
		case K_COMM:
			r->comm = get_list(pc, k, FALSE);
			for (guint j = 0; r->comm && r->comm[j]; j++)
				if (strlen(r->comm[j]) > AD_COMM_MAX)
					problem(pc->pb, k->line,
						/* TRANSLATORS: Comm is a key of a rules file */
						ngettext("Comm: “%s” is longer than %d byte: a "
							 "process name never is",
							 "Comm: “%s” is longer than %d bytes: a "
							 "process name never is", AD_COMM_MAX),
						r->comm[j], AD_COMM_MAX);
			break;
		case K_KMOD:
			r->kmod = get_list(pc, k, TRUE);
			break;
		case K_BOOLEAN:
			r->booleans = parse_booleans(pc, k);
			break;
		case K_KIND: {
			g_autofree char *v = get_string(pc, k);

			kind_ok = v && ad_fix_kind_from_name(v, &r->kind);
			if (v && !kind_ok)
				/* TRANSLATORS: Kind is a key of a rules file, the known kinds
				   are its values: they stay as they are */
				problem(pc->pb, k->line, _("Kind: unknown kind “%s” (known: boolean "
							   "relabel fcontext port module dontaudit "
							   "config report_bug attack info)"), v);
			break;
		}
		case K_LEVEL: {
			g_autofree char *v = get_string(pc, k);

			if (v && !ad_level_from_name(v, &r->level))
				problem(pc->pb, k->line,
					/* TRANSLATORS: Level is a key of a rules file, green, yellow
					   and red its values: they stay as they are */
					_("Level: unknown level “%s” (known: green yellow red)"), v);
			break;
		}
		case K_CONFIDENCE: {
			g_autofree char *v = get_string(pc, k);
			char *end = NULL;
			double c;

			if (!v)
				break;
			errno = 0;
			c = g_ascii_strtod(v, &end);
			if (errno || end == v || *end || !(c >= 0.0 && c <= 1.0))
				problem(pc->pb, k->line,
					/* TRANSLATORS: Confidence is a key of a rules file */
					_("Confidence: “%s” is not a number from 0 to 1"), v);
			else
				r->confidence = c;
			break;
		}
		case K_IF:
			r->if_text = parse_text(pc, sg, k, &r->text_mask, TRUE, &r->if_msgid);
			break;
		case K_THEN:
			r->then_text = parse_text(pc, sg, k, &r->text_mask, TRUE, &r->then_msgid);
			break;
		case K_COMMAND:
			commands[command_number(k->base)] = k;
			break;
		default:
			g_assert_not_reached();
		}
	}

	if (pc->policy && r->classes) {
		for (guint i = 0; r->classes[i]; i++)
			if (!ad_policy_has_class(pc->policy, r->classes[i]))
				/* TRANSLATORS: %1$s is a rule name, %3$s a policy file */
				problem(pc->pb, sg->line, _("[%s]: class “%s” is not defined in %s"),
					sg->name, r->classes[i], pc->policy_name);
		for (guint i = 0; r->perms && r->perms[i]; i++) {
			gboolean found = FALSE;

			for (guint j = 0; r->classes[j] && !found; j++)
				found = ad_policy_has_perm(pc->policy, r->classes[j], r->perms[i]);
			if (!found)
				problem(pc->pb, sg->line,
					/* TRANSLATORS: %1$s is a rule name, %3$s a policy file */
					_("[%s]: no class of the rule has the permission “%s” in %s"),
					sg->name, r->perms[i], pc->policy_name);
		}
	}

	r->commands = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	for (guint n = 1; n <= AD_RULES_MAX_COMMANDS; n++) {
		char **argv;

		if (!commands[n])
			continue;
		if (n > 1 && !commands[n - 1]) {
			g_autofree char *prev = n == 2 ? g_strdup("Command")
						       : g_strdup_printf("Command%u", n - 1);

			/* TRANSLATORS: keys of a rules file: "Command3 without Command2" */
			problem(pc->pb, commands[n]->line, _("%s without %s"), commands[n]->base,
				prev);
			continue;
		}
		argv = parse_command(pc, commands[n], &r->cmd_mask);
		if (argv)
			g_ptr_array_add(r->commands, argv);
	}

	if (((r->text_mask | r->cmd_mask) & (1u << PH_TYPE)) && !have[K_TYPES])
		/* TRANSLATORS: %s is a rule name; {type} and Types stay as they are */
		problem(pc->pb, sg->line, _("[%s]: {type} needs Types"), sg->name);
	if (!have[K_SUMMARY])
		/* TRANSLATORS: %s is a rule name; Summary, Kind, If and Then are keys of a
		   rules file: they stay as they are */
		problem(pc->pb, sg->line, _("[%s]: missing Summary"), sg->name);
	if (!have[K_KIND])
		problem(pc->pb, sg->line, _("[%s]: missing Kind"), sg->name);
	if (!have[K_IF])
		problem(pc->pb, sg->line, _("[%s]: missing If"), sg->name);
	if (!have[K_THEN])
		problem(pc->pb, sg->line, _("[%s]: missing Then"), sg->name);
	if (!have[K_SOURCE] && !have[K_TARGET] && !have[K_CLASS] && !have[K_PERMISSIONS])
		/* TRANSLATORS: %s is a rule name; Source, Target, Class and Permissions are
		   keys of a rules file: they stay as they are */
		problem(pc->pb, sg->line, _("[%s]: matches every denial: give at least one of "
					    "Source, Target, Class and Permissions"), sg->name);
	if (kind_ok && !commands[1]) {
		switch (r->kind) {
		case AD_FIX_BOOLEAN:
		case AD_FIX_RELABEL:
		case AD_FIX_FCONTEXT:
		case AD_FIX_PORT:
		case AD_FIX_MODULE:
		case AD_FIX_DONTAUDIT:
			/* TRANSLATORS: %1$s is a rule name; Kind=%2$s and Command stay as
			   they are */
			problem(pc->pb, sg->line, _("[%s]: Kind=%s needs a Command"), sg->name,
				ad_fix_kind_name(r->kind));
			break;
		default:
			break;
		}
	}
	if (pc->pb->items->len != before)
		return NULL;
	return g_steal_pointer(&r);
}

/*
 * Parses one file's text.  Returns its rules, or NULL when anything is
 * wrong (every problem appended to @pb).  With @policy, the names of
 * types, classes, permissions and booleans are checked against it too.
 */
static GPtrArray *parse_rules(const char *text, gsize len, Problems *pb, AdPolicy *policy)
{
	g_autoptr(GPtrArray) groups = NULL;
	g_autoptr(GKeyFile) kf = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) rules = NULL;
	guint before = pb->items->len;
	ParseCtx pc = { .pb = pb, .policy = policy };

	groups = scan_text(text, len, pb);
	if (pb->items->len != before)
		return NULL;
	kf = g_key_file_new();
	if (!g_key_file_load_from_data(kf, text, len, G_KEY_FILE_KEEP_TRANSLATIONS, &error)) {
		/* the scanner is stricter than GKeyFile: not expected */
		problem(pb, 0, "%s", error->message);
		return NULL;
	}
	pc.kf = kf;
	pc.policy_name = policy ? ad_policy_path(policy) : NULL;
	rules = g_ptr_array_new_with_free_func((GDestroyNotify)rules_rule_free);
	for (guint i = 0; i < groups->len; i++) {
		AdRule *r = parse_rule(&pc, g_ptr_array_index(groups, i));

		if (r)
			g_ptr_array_add(rules, r);
	}
	if (pb->items->len != before)
		return NULL;
	return g_steal_pointer(&rules);
}

/* ---- files ------------------------------------------------------------------------------ */

/*
 * Reads @name (relative to @dirfd) into @ret_text.  As root, a file that
 * is not root's or that anyone may write is refused, as audit's loaders
 * do: rules decide what commands an administrator is shown.
 */
static gboolean read_rules_file(int dirfd, const char *name, const char *shown,
				char **ret_text, gsize *ret_len, GError **error)
{
	g_autoptr(GError) local = NULL;

	if (ad_file_read_trusted(dirfd, name, shown, AD_RULES_MAX_FILE, geteuid() == 0,
				 ret_text, ret_len, &local))
		return TRUE;
	if (g_error_matches(local, AD_FILE_ERROR, AD_FILE_ERROR_UNSAFE))
		g_set_error_literal(error, AD_RULES_ERROR, AD_RULES_ERROR_UNSAFE, local->message);
	else if (g_error_matches(local, AD_FILE_ERROR, AD_FILE_ERROR_TOO_LARGE))
		g_set_error(error, AD_RULES_ERROR, AD_RULES_ERROR_SYNTAX,
			    /* TRANSLATORS: %1$s is a file */
			    ngettext("%s: a rules file has at most %d byte",
				     "%s: a rules file has at most %d bytes", AD_RULES_MAX_FILE),
			    shown, AD_RULES_MAX_FILE);
	else
		g_set_error_literal(error, AD_RULES_ERROR, AD_RULES_ERROR_OPEN, local->message);
	return FALSE;
}

/* reads and parses; on success the rules go into @b (when non-NULL) */
static gboolean load_one(AdRuleBook *b, int dirfd, const char *name, const char *shown,
		      AdPolicy *policy, GPtrArray *messages, GPtrArray *ret_lacks, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GPtrArray) rules = NULL;
	g_autoptr(GArray) items = g_array_new(FALSE, FALSE, sizeof(Problem));
	/* the name is quoted in messages: no terminal escapes from a file name */
	g_autofree char *safe = ad_bytes_are_clean(shown, strlen(shown)) ? g_strdup(shown)
									 : ad_escape_str(shown);
	gsize len = 0;
	g_autoptr(GArray) lacks = ret_lacks ? g_array_new(FALSE, FALSE, sizeof(Problem)) : NULL;
	Problems pb = { .file = safe, .items = items, .lacks = lacks };
	guint before = messages->len;

	g_array_set_clear_func(items, problem_clear);
	if (lacks)
		g_array_set_clear_func(lacks, problem_clear);
	if (!read_rules_file(dirfd, name, safe, &text, &len, error))
		return FALSE;
	rules = parse_rules(text, len, &pb, policy);
	problems_format(&pb, messages);
	if (lacks)
		problems_format_items(&pb, lacks, ret_lacks);
	if (!rules) {
		g_autoptr(GString) all = g_string_new(NULL);

		for (guint i = before; i < messages->len; i++)
			g_string_append_printf(all, "%s%s", all->len ? "\n" : "",
					       (char *)g_ptr_array_index(messages, i));
		g_set_error_literal(error, AD_RULES_ERROR, AD_RULES_ERROR_SYNTAX, all->str);
		return FALSE;
	}
	if (b) {
		for (guint i = 0; i < rules->len; i++)
			rules_book_add(b, g_steal_pointer(&rules->pdata[i]));
	}
	return TRUE;
}

gboolean ad_rule_book_load_file(AdRuleBook *b, const char *path, GError **error)
{
	g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func(g_free);

	g_return_val_if_fail(b && path, FALSE);
	return load_one(b, AT_FDCWD, path, path, NULL, messages, NULL, error);
}

/* "9-a.rules" before "10-b.rules": digit runs compare as numbers */
static int natural_cmp(const char *a, const char *b)
{
	const char *pa = a, *pb = b;

	while (*pa && *pb) {
		if (g_ascii_isdigit(*pa) && g_ascii_isdigit(*pb)) {
			const char *sa = pa, *sb = pb, *ea, *eb;
			int c;

			while (*sa == '0')
				sa++;
			while (*sb == '0')
				sb++;
			for (ea = sa; g_ascii_isdigit(*ea); ea++)
				;
			for (eb = sb; g_ascii_isdigit(*eb); eb++)
				;
			if (ea - sa != eb - sb)
				return ea - sa < eb - sb ? -1 : 1;
			c = strncmp(sa, sb, ea - sa);
			if (c)
				return c;
			pa = ea;
			pb = eb;
			continue;
		}
		if (*pa != *pb)
			return (guchar)*pa < (guchar)*pb ? -1 : 1;
		pa++;
		pb++;
	}
	if (*pa || *pb)
		return *pa ? 1 : -1;
	return strcmp(a, b);	/* "01" and "1": still a fixed order */
}

static int natural_cmp_ptr(gconstpointer a, gconstpointer b)
{
	return natural_cmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Opens a rules directory for reading, refusing as root one that another
 * user owns or everyone may write.  A DIR* to close, or NULL with @error
 * (AD_RULES_ERROR_OPEN with the errno in @ret_errno when it cannot be opened).
 */
static DIR *open_rules_dir(const char *dir, int *ret_errno, GError **error)
{
	struct stat st;
	DIR *d;
	int fd;

	*ret_errno = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;

		*ret_errno = e;
		g_set_error(error, AD_RULES_ERROR, AD_RULES_ERROR_OPEN, "%s: %s", dir,
			    g_strerror(e));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!ad_path_trusted_by_root(&st)) {
		if (st.st_uid != 0)
			g_set_error(error, AD_RULES_ERROR, AD_RULES_ERROR_UNSAFE,
				    _("%s: owned by uid %u, not root: refused while running as "
				      "root"), dir, (unsigned)st.st_uid);
		else
			g_set_error(error, AD_RULES_ERROR, AD_RULES_ERROR_UNSAFE,
				    _("%s: writable by users other than root: refused while running as root"),
				    dir);
		close(fd);
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		*ret_errno = e;
		g_set_error(error, AD_RULES_ERROR, AD_RULES_ERROR_OPEN, "%s: %s", dir,
			    g_strerror(e));
		close(fd);
	}
	return d;
}

/* one rules file found in one of the directories */
typedef struct {
	char *name;			/* "10-httpd.rules" */
	guint dir;			/* index into the open directories */
} RulesFile;

static void rules_file_free(RulesFile *f)
{
	g_free(f->name);
	g_free(f);
}

static gint rules_file_cmp(gconstpointer a, gconstpointer b)
{
	const RulesFile *fa = *(RulesFile *const *)a, *fb = *(RulesFile *const *)b;

	return natural_cmp_ptr(&fa->name, &fb->name);
}

static void close_dir(gpointer d)
{
	closedir(d);
}

gboolean ad_rule_book_load_dirs(AdRuleBook *b, const char *const *dirs, GPtrArray *ret_problems,
				GError **error)
{
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func((GDestroyNotify)rules_file_free);
	g_autoptr(GPtrArray) opened = g_ptr_array_new_with_free_func(close_dir);
	g_autoptr(GHashTable) taken = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	guint ndirs = dirs ? g_strv_length((char **)dirs) : 0;

	g_return_val_if_fail(b, FALSE);
	for (guint i = 0; i < ndirs; i++) {
		g_autoptr(GError) derr = NULL;
		struct dirent *de;
		int e;
		DIR *d = open_rules_dir(dirs[i], &e, &derr);

		if (!d) {
			/* a site's directory that does not exist is no problem */
			if (i + 1 < ndirs && e == ENOENT)
				continue;
			if (i + 1 == ndirs && !opened->len) {
				g_propagate_error(error, g_steal_pointer(&derr));
				return FALSE;
			}
			if (ret_problems)
				g_ptr_array_add(ret_problems, g_strdup(derr->message));
			continue;
		}
		g_ptr_array_add(opened, d);
		g_ptr_array_add(names, (gpointer)dirs[i]);
		while ((de = readdir(d))) {
			RulesFile *f;

			if (de->d_name[0] == '.' || !g_str_has_suffix(de->d_name, ".rules"))
				continue;
			/* a file of an earlier directory replaces one of the same name */
			if (g_hash_table_contains(taken, de->d_name))
				continue;
			f = g_new0(RulesFile, 1);
			f->name = g_strdup(de->d_name);
			f->dir = opened->len - 1;
			g_hash_table_add(taken, f->name);
			g_ptr_array_add(files, f);
		}
	}
	g_ptr_array_sort(files, rules_file_cmp);

	for (guint i = 0; i < files->len; i++) {
		const RulesFile *f = g_ptr_array_index(files, i);
		DIR *d = g_ptr_array_index(opened, f->dir);
		g_autofree char *shown = g_build_filename(g_ptr_array_index(names, f->dir),
							  f->name, NULL);
		g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GError) ferr = NULL;

		if (load_one(b, dirfd(d), f->name, shown, NULL, messages, NULL, &ferr))
			continue;
		if (!ret_problems)
			continue;
		if (messages->len) {
			for (guint j = 0; j < messages->len; j++)
				g_ptr_array_add(ret_problems,
						g_strdup(g_ptr_array_index(messages, j)));
		} else {
			g_ptr_array_add(ret_problems, g_strdup(ferr->message));
		}
	}
	return TRUE;
}

gboolean ad_rule_book_load_dir(AdRuleBook *b, const char *dir, GPtrArray *ret_problems,
			       GError **error)
{
	const char *dirs[] = { dir, NULL };

	g_return_val_if_fail(b && dir, FALSE);
	return ad_rule_book_load_dirs(b, dirs, ret_problems, error);
}

guint ad_rule_book_check_file_policy(const char *path, AdPolicy *policy,
				     GPtrArray *ret_messages, GPtrArray *ret_lacks)
{
	g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	guint n;

	g_autoptr(GPtrArray) lacks = g_ptr_array_new_with_free_func(g_free);

	if (load_one(NULL, AT_FDCWD, path, path, policy, messages, lacks, &error)) {
		n = 0;
	} else {
		if (!messages->len)
			g_ptr_array_add(messages, g_strdup(error->message));
		n = messages->len;
	}
	for (guint i = 0; ret_messages && i < n; i++)
		g_ptr_array_add(ret_messages, g_strdup(g_ptr_array_index(messages, i)));
	for (guint i = 0; ret_lacks && i < lacks->len; i++)
		g_ptr_array_add(ret_lacks, g_strdup(g_ptr_array_index(lacks, i)));
	return n;
}

guint ad_rule_book_check_file(const char *path, GPtrArray *ret_messages)
{
	return ad_rule_book_check_file_policy(path, NULL, ret_messages, NULL);
}

char **ad_rules_default_dirs(void)
{
	const char *local = g_getenv("AVCDOCTOR_LOCAL_RULES_DIR");
	const char *shipped = g_getenv("AVCDOCTOR_RULES_DIR");
	char **dirs = g_new0(char *, 3);

	dirs[0] = g_strdup(local && *local ? local : AD_LOCAL_RULES_DIR);
	dirs[1] = g_strdup(shipped && *shipped ? shipped : ad_shipped_rules_dir());
	return dirs;
}
