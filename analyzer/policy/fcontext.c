// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file_contexts lookups, with the semantics of libselinux's file backend
 * (label_file.c): which files are read and in which order, how a line
 * splits into a regular expression, an optional file type and a context,
 * the "stem" (first path component) that narrows the entries tried, exact
 * paths sorted after regular expressions, the last matching entry winning,
 * <<none>>, duplicate and trailing slashes, and the .subs_dist / .subs
 * aliases.
 *
 * Why not selabel_lookup(): libselinux creates a PCRE2 match block for
 * every expression it tries, and tries every entry of the path's stem, so
 * a lookup costs about half a millisecond; an analysis asks hundreds.
 * Here one match block is reused, expressions are compiled at their first
 * use, and an entry whose literal start (the text before its first
 * special character) is not a prefix of the path is skipped without
 * running the expression.  tests/unit/test-fcontext.c compares every
 * answer with selabel_lookup() on the installed policy's file_contexts.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>
#include <pcre2.h>

#include "fcontext.h"
#include "policy/policy.h"

typedef struct {
	char *regex;		/* as written */
	char *context;		/* raw, or "<<none>>" */
	mode_t mode;		/* S_IF*, 0 = any file type */
	int stem;		/* index into fc->stems, -1 = none */
	gboolean exact;		/* no special character: sorted after the others */
	char *prefix;		/* what every match starts with ("" = unknown) */
	gsize prefix_len;
	pcre2_code *code;	/* compiled at first use */
	gboolean broken;	/* did not compile */
} Spec;

/* an alias "/lib /usr/lib": a path under @from is looked up under @to */
typedef struct {
	char *from, *to;
	gsize from_len;
} Sub;

struct _AdFcontexts {
	GArray *specs;		/* Spec, in lookup order (tried last to first) */
	GPtrArray *stems;	/* "/usr", ... */
	GHashTable *stem_ids;	/* stem -> index + 1 */
	/*
	 * For each stem, the indexes of the entries a path of that stem may
	 * match (its own and those without a stem), ascending; the last one
	 * for a path whose stem no entry has
	 */
	GPtrArray *tried;	/* GArray of guint, by stem id; [stems->len]: no stem */
	GArray *subs, *dist_subs;	/* Sub, in file order (the last line wins) */
	pcre2_match_data *match;
	guint skipped;
};

static void spec_clear(gpointer p)
{
	Spec *s = p;

	g_free(s->regex);
	g_free(s->context);
	g_free(s->prefix);
	if (s->code)
		pcre2_code_free(s->code);
}

static void sub_clear(gpointer p)
{
	Sub *s = p;

	g_free(s->from);
	g_free(s->to);
}

/* the characters that make an entry a regular expression, as libselinux counts them */
static gboolean is_special(char c)
{
	return c && strchr(".^$?*+|[({", c) != NULL;
}

/* an entry with none of them (a '\' hides the next character) is an exact path */
static gboolean regex_is_exact(const char *re)
{
	for (const char *c = re; *c; c++) {
		if (*c == '\\') {
			if (!*++c)
				break;
			continue;
		}
		if (is_special(*c))
			return FALSE;
	}
	return TRUE;
}

/*
 * The stem: the first path component ("/usr" of "/usr/bin/.*"), when it
 * holds no special character; its length, or 0
 */
static gsize stem_length(const char *s, gboolean of_entry)
{
	const char *slash = s[0] ? strchr(s + 1, '/') : NULL;

	if (!slash)
		return 0;
	for (const char *c = s; of_entry && c < slash; c++)
		if (is_special(*c))
			return 0;
	return slash - s;
}

/* TRUE when @re has a '|' outside every group and bracket expression */
static gboolean has_top_alternation(const char *re)
{
	int depth = 0;

	for (const char *c = re; *c; c++) {
		if (*c == '\\') {
			if (!*++c)
				break;
		} else if (*c == '[') {
			/* a bracket expression: "]" right after "[" or "[^" is a member */
			c++;
			if (*c == '^')
				c++;
			if (*c == ']')
				c++;
			while (*c && *c != ']') {
				if (*c == '\\' && c[1])
					c++;
				c++;
			}
			if (!*c)
				return TRUE;	/* unbalanced: assume the worst */
		} else if (*c == '(') {
			depth++;
		} else if (*c == ')') {
			depth--;
		} else if (*c == '|' && depth <= 0) {
			return TRUE;
		}
	}
	return FALSE;
}

/*
 * The literal text every path matching ^@re$ begins with: the characters
 * before the first special one, "\." read as ".", without the last one
 * when a quantifier (?, *, +, {) follows it.  "" when there is none, or
 * when an alternation at the top could match without it.
 */
static char *literal_prefix(const char *re)
{
	g_autoptr(GString) out = g_string_new(NULL);
	gsize last_unit = 0;	/* out->len before the last literal character */
	const char *c = re;

	if (has_top_alternation(re))
		return g_strdup("");
	while (*c) {
		if (*c == '\\') {
			/* an escaped letter or digit is a class or a reference, not a letter */
			if (!c[1] || g_ascii_isalnum(c[1]))
				break;
			last_unit = out->len;
			g_string_append_c(out, c[1]);
			c += 2;
			continue;
		}
		if (is_special(*c) || *c == ')') {
			if (strchr("?*+{", *c))
				g_string_truncate(out, last_unit);
			break;
		}
		last_unit = out->len;
		g_string_append_c(out, *c);
		c++;
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

/* "-d" -> S_IFDIR, ...; (mode_t)-1 for what libselinux refuses */
static mode_t type_to_mode(const char *t)
{
	if (t[0] != '-' || !t[1] || t[2])
		return (mode_t)-1;
	switch (t[1]) {
	case 'b': return S_IFBLK;
	case 'c': return S_IFCHR;
	case 'd': return S_IFDIR;
	case 'p': return S_IFIFO;
	case 'l': return S_IFLNK;
	case 's': return S_IFSOCK;
	case '-': return S_IFREG;
	default: return (mode_t)-1;
	}
}

static int stem_id(AdFcontexts *fc, const char *s, gsize len, gboolean add)
{
	g_autofree char *stem = g_strndup(s, len);
	gpointer id = g_hash_table_lookup(fc->stem_ids, stem);

	if (id)
		return GPOINTER_TO_INT(id) - 1;
	if (!add)
		return -1;
	g_ptr_array_add(fc->stems, g_strdup(stem));
	g_hash_table_insert(fc->stem_ids, g_steal_pointer(&stem), GINT_TO_POINTER(fc->stems->len));
	return (int)fc->stems->len - 1;
}

/*
 * Splits @line at white space into at most three fields, as libselinux
 * does; the number of fields, or -1 for a byte that is not ASCII
 */
static int split_fields(char *line, char *fields[3])
{
	int n = 0;
	char *p = line;

	while (n < 3) {
		while (g_ascii_isspace(*p))
			p++;
		if (!*p)
			break;
		fields[n] = p;
		while (*p && !g_ascii_isspace(*p)) {
			if ((unsigned char)*p >= 0x80)
				return -1;
			p++;
		}
		n++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* adds the entries of one file; FALSE when it cannot be read */
static gboolean read_entries(AdFcontexts *fc, const char *path, GError **error)
{
	g_autofree char *text = NULL;
	char *line, *next;

	if (!g_file_get_contents(path, &text, NULL, error))
		return FALSE;
	for (line = text; line; line = next) {
		char *fields[3] = { NULL, NULL, NULL };
		Spec s = { 0 };
		gsize stem_len;
		int n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		while (g_ascii_isspace(*line))
			line++;
		if (!*line || *line == '#')
			continue;
		n = split_fields(line, fields);
		if (n < 2) {
			fc->skipped++;
			continue;
		}
		if (n == 3 && (s.mode = type_to_mode(fields[1])) == (mode_t)-1) {
			fc->skipped++;
			continue;
		}
		stem_len = stem_length(fields[0], TRUE);
		s.regex = g_strdup(fields[0]);
		s.context = g_strdup(fields[n - 1]);
		s.stem = stem_len ? stem_id(fc, fields[0], stem_len, TRUE) : -1;
		s.exact = regex_is_exact(fields[0]);
		s.prefix = literal_prefix(fields[0]);
		s.prefix_len = strlen(s.prefix);
		g_array_append_val(fc->specs, s);
	}
	return TRUE;
}

/* reads an alias file ("FROM TO" per line, '#' comments); a missing one is none */
static void read_subs(GArray *subs, const char *path)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *fields[3] = { NULL, NULL, NULL };
		char *p = *l;
		Sub sub;

		while (g_ascii_isspace(*p))
			p++;
		if (*p == '#' || split_fields(p, fields) < 2)
			continue;
		sub.from = g_strdup(fields[0]);
		sub.to = g_strdup(fields[1]);
		sub.from_len = strlen(sub.from);
		g_array_append_val(subs, sub);
	}
}

/* exact paths after the regular expressions, each group in file order */
static void sort_specs(AdFcontexts *fc)
{
	GArray *sorted = g_array_sized_new(FALSE, FALSE, sizeof(Spec), fc->specs->len);

	for (int pass = 0; pass < 2; pass++)
		for (guint i = 0; i < fc->specs->len; i++) {
			Spec *s = &g_array_index(fc->specs, Spec, i);

			if (s->exact == (pass == 1))
				g_array_append_val(sorted, *s);
		}
	/* the entries moved: the old array must not free them */
	g_array_set_clear_func(fc->specs, NULL);
	g_array_unref(fc->specs);
	g_array_set_clear_func(sorted, spec_clear);
	fc->specs = sorted;
}

/* fills fc->tried: which entries each stem's paths are tried against */
static void index_stems(AdFcontexts *fc)
{
	fc->tried = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	for (guint id = 0; id <= fc->stems->len; id++)
		g_ptr_array_add(fc->tried, g_array_new(FALSE, FALSE, sizeof(guint)));
	for (guint i = 0; i < fc->specs->len; i++) {
		const Spec *s = &g_array_index(fc->specs, Spec, i);

		if (s->stem >= 0) {
			g_array_append_val(g_ptr_array_index(fc->tried, s->stem), i);
			continue;
		}
		for (guint id = 0; id <= fc->stems->len; id++)
			g_array_append_val(g_ptr_array_index(fc->tried, id), i);
	}
}

AdFcontexts *ad_fcontexts_load(const char *path, GError **error)
{
	g_autoptr(AdFcontexts) fc = g_new0(AdFcontexts, 1);
	static const char *const more[] = { ".homedirs", ".local" };

	fc->specs = g_array_new(FALSE, FALSE, sizeof(Spec));
	g_array_set_clear_func(fc->specs, spec_clear);
	fc->stems = g_ptr_array_new_with_free_func(g_free);
	fc->stem_ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	fc->subs = g_array_new(FALSE, FALSE, sizeof(Sub));
	g_array_set_clear_func(fc->subs, sub_clear);
	fc->dist_subs = g_array_new(FALSE, FALSE, sizeof(Sub));
	g_array_set_clear_func(fc->dist_subs, sub_clear);
	fc->match = pcre2_match_data_create(1, NULL);
	if (!read_entries(fc, path, error))
		return NULL;
	for (guint i = 0; i < G_N_ELEMENTS(more); i++) {
		g_autofree char *p = g_strconcat(path, more[i], NULL);

		read_entries(fc, p, NULL);
	}
	{
		g_autofree char *dist = g_strconcat(path, ".subs_dist", NULL);
		g_autofree char *local = g_strconcat(path, ".subs", NULL);

		read_subs(fc->dist_subs, dist);
		read_subs(fc->subs, local);
	}
	sort_specs(fc);
	index_stems(fc);
	return g_steal_pointer(&fc);
}

void ad_fcontexts_free(AdFcontexts *fc)
{
	if (!fc)
		return;
	g_array_unref(fc->specs);
	g_ptr_array_unref(fc->stems);
	g_hash_table_unref(fc->stem_ids);
	if (fc->tried)
		g_ptr_array_unref(fc->tried);
	g_array_unref(fc->subs);
	g_array_unref(fc->dist_subs);
	pcre2_match_data_free(fc->match);
	g_free(fc);
}

guint ad_fcontexts_count(const AdFcontexts *fc)
{
	return fc->specs->len;
}

guint ad_fcontexts_skipped(const AdFcontexts *fc)
{
	return fc->skipped;
}

/* @key under the alias of @subs it falls under (the last such line), or NULL; owned */
static char *apply_subs(GArray *subs, const char *key)
{
	for (guint i = subs->len; i-- > 0;) {
		const Sub *s = &g_array_index(subs, Sub, i);
		char next;

		/* the prefix first: a key shorter than it has no byte at from_len */
		if (strncmp(key, s->from, s->from_len) != 0)
			continue;
		next = key[s->from_len];
		if (next != '/' && next != '\0')
			continue;
		/* an alias to "/" must not double the slash */
		if (next == '/' && strcmp(s->to, "/") == 0)
			return g_strconcat(s->to, key + s->from_len + 1, NULL);
		return g_strconcat(s->to, key + s->from_len, NULL);
	}
	return NULL;
}

char *ad_fcontexts_alias(AdFcontexts *fc, const char *path)
{
	g_autofree char *sub = NULL;
	char *sub2;

	if (!fc || !path)
		return NULL;
	sub = apply_subs(fc->subs, path);
	sub2 = apply_subs(fc->dist_subs, sub ? sub : path);
	return sub2 ? sub2 : g_steal_pointer(&sub);
}

/* compiles @s at its first use, as libselinux does: anchored, '.' matching newlines too */
static gboolean spec_compile(Spec *s)
{
	g_autofree char *anchored = NULL;
	PCRE2_SIZE offset;
	int err;

	if (s->code)
		return TRUE;
	if (s->broken)
		return FALSE;
	anchored = g_strconcat("^", s->regex, "$", NULL);
	s->code = pcre2_compile((PCRE2_SPTR)anchored, PCRE2_ZERO_TERMINATED, PCRE2_DOTALL, &err,
				&offset, NULL);
	s->broken = !s->code;
	return !s->broken;
}

const char *ad_fcontexts_lookup(AdFcontexts *fc, const char *path, mode_t mode)
{
	g_autoptr(GString) clean = NULL;
	g_autofree char *sub = NULL, *sub2 = NULL;
	const char *key;
	gsize len, stem_len;
	int file_stem = -1;
	GArray *tried;

	if (!path || !*path)
		return NULL;
	/* runs of '/' count as one, and a trailing one as none */
	clean = g_string_sized_new(strlen(path));
	for (const char *p = path; *p; p++)
		if (*p != '/' || p[1] != '/')
			g_string_append_c(clean, *p);
	if (clean->len > 1 && clean->str[clean->len - 1] == '/')
		g_string_truncate(clean, clean->len - 1);
	key = clean->str;
	/* the local aliases first, then the distribution's on the result */
	sub = apply_subs(fc->subs, key);
	sub2 = apply_subs(fc->dist_subs, sub ? sub : key);
	if (sub2)
		key = sub2;
	else if (sub)
		key = sub;
	len = strlen(key);
	stem_len = stem_length(key, FALSE);
	if (stem_len)
		file_stem = stem_id(fc, key, stem_len, FALSE);
	mode &= S_IFMT;
	tried = g_ptr_array_index(fc->tried, file_stem >= 0 ? (guint)file_stem : fc->stems->len);
	for (guint j = tried->len; j-- > 0;) {
		Spec *s = &g_array_index(fc->specs, Spec, g_array_index(tried, guint, j));
		int rc;

		if (mode && s->mode && mode != s->mode)
			continue;
		if (s->prefix_len && (s->prefix_len > len || memcmp(key, s->prefix, s->prefix_len)))
			continue;
		/* an expression that does not compile ends libselinux's lookup */
		if (!spec_compile(s))
			return NULL;
		rc = pcre2_match(s->code, (PCRE2_SPTR)key, len, 0, 0, fc->match, NULL);
		if (rc == PCRE2_ERROR_NOMATCH)
			continue;
		/* a match, or an error (a limit) that ends libselinux's lookup too */
		if (rc < 0 || strcmp(s->context, "<<none>>") == 0)
			return NULL;
		return s->context;
	}
	return NULL;
}
