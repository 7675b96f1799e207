// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * refpolicy interface definitions, read without m4: see ifaces.h.
 *
 * Each file is scanned for define(`NAME', `BODY'), interface(`NAME', `BODY')
 * and template(`NAME', `BODY') (m4 quotes nest; "#" starts a comment outside
 * them).  Bodies are split into tokens once; an interface is then evaluated
 * with $1 as its argument: macros without arguments (permission and class
 * sets) are replaced by their tokens, calls to patterns and interfaces are
 * evaluated with their arguments substituted, and the allow rules collected.
 * Anything else makes the interface unusable.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "ifaces.h"
#include "paths.h"

#define MAX_DEPTH 6

typedef enum { M_DEFINE, M_INTERFACE, M_TEMPLATE } MacroKind;

typedef struct {
	char *name;
	MacroKind kind;
	GPtrArray *toks;	/* char* */
} Macro;

typedef struct {
	char *name;
	GHashTable *grants;	/* "target\tclass" -> GHashTable set of perms */
	guint n_perms;
	int valid;		/* against the policy: -1 unknown, 0 no, 1 yes */
} Iface;

typedef struct {
	Iface *iface;
	char *target;		/* "self" for $1 */
	GHashTable *perms;	/* borrowed from iface->grants */
} Entry;

struct _AdIfaces {
	GHashTable *macros;	/* name -> Macro* */
	GHashTable *ifaces;	/* name -> Iface* (usable ones) */
	GHashTable *by_class;	/* class -> GPtrArray of Entry* */
	guint n_defined;
	GStringChunk *strings;
};

const char *ad_ifaces_default_dir(void)
{
	const char *env = ad_env_path("AVCDOCTOR_IFACES_DIR");

	return env && *env ? env : AD_IFACES_DIR;
}

static void macro_free(Macro *m)
{
	g_free(m->name);
	g_ptr_array_unref(m->toks);
	g_free(m);
}

static void iface_free(Iface *i)
{
	g_free(i->name);
	g_hash_table_unref(i->grants);
	g_free(i);
}

void ad_ifaces_free(AdIfaces *ifs)
{
	if (!ifs)
		return;
	g_hash_table_unref(ifs->macros);
	g_hash_table_unref(ifs->ifaces);
	g_hash_table_unref(ifs->by_class);
	g_string_chunk_free(ifs->strings);
	g_free(ifs);
}

/* ---- tokens ---------------------------------------------------------------- */

static gboolean is_word(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

/* the body's tokens: words and single punctuation; quotes and comments dropped */
static GPtrArray *tokenize(AdIfaces *ifs, const char *s, gsize len)
{
	GPtrArray *toks = g_ptr_array_new();
	const char *end = s + len;

	while (s < end) {
		if (*s == '#') {
			while (s < end && *s != '\n')
				s++;
		} else if (is_word(*s)) {
			const char *b = s;

			while (s < end && is_word(*s))
				s++;
			g_ptr_array_add(toks, g_string_chunk_insert_len(ifs->strings, b, s - b));
		} else if (strchr("{}(),;:~*", *s)) {
			g_ptr_array_add(toks, g_string_chunk_insert_len(ifs->strings, s, 1));
			s++;
		} else {
			s++;	/* blanks, quotes */
		}
	}
	return toks;
}

/* at s (just after "`"): the end of the quoted text, nesting; NULL if unterminated */
static const char *quote_end(const char *s, const char *end)
{
	int depth = 1;

	for (; s < end; s++) {
		if (*s == '`')
			depth++;
		else if (*s == '\'' && --depth == 0)
			return s;
	}
	return NULL;
}

static void scan_file(AdIfaces *ifs, const char *text, gsize len)
{
	const char *s = text, *end = text + len;
	static const struct { const char *kw; MacroKind kind; } kws[] = {
		{ "define(`", M_DEFINE }, { "interface(`", M_INTERFACE },
		{ "template(`", M_TEMPLATE },
	};

	while (s < end) {
		gboolean found = FALSE;

		if (*s == '#') {
			while (s < end && *s != '\n')
				s++;
			continue;
		}
		if (s > text && is_word(s[-1])) {
			s++;
			continue;
		}
		for (guint k = 0; k < G_N_ELEMENTS(kws) && !found; k++) {
			gsize kl = strlen(kws[k].kw);
			const char *name, *name_end, *body, *body_end;

			if ((gsize)(end - s) < kl || memcmp(s, kws[k].kw, kl) != 0)
				continue;
			name = s + kl;
			name_end = quote_end(name, end);
			if (!name_end)
				return;
			body = name_end + 1;
			while (body < end && (*body == ',' || g_ascii_isspace(*body)))
				body++;
			if (body < end && *body == '`') {
				body++;
				body_end = quote_end(body, end);
				if (!body_end)
					return;
			} else {
				/* define(`x', y): unquoted up to the closing parenthesis */
				body_end = body;
				while (body_end < end && *body_end != ')')
					body_end++;
			}
			found = TRUE;
			ifs->n_defined += kws[k].kind != M_DEFINE;
			Macro *m = g_new0(Macro, 1);

			m->name = g_strndup(name, name_end - name);
			m->kind = kws[k].kind;
			m->toks = tokenize(ifs, body, body_end - body);
			g_hash_table_replace(ifs->macros, m->name, m);
			s = body_end + 1;
		}
		if (!found)
			s++;
	}
}

static void scan_dir(AdIfaces *ifs, const char *dir, int depth)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *n;

	if (!d || depth > 4)
		return;
	while ((n = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, n, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
			scan_dir(ifs, path, depth + 1);
		} else if (g_str_has_suffix(n, ".if") || g_str_has_suffix(n, ".spt")) {
			g_autofree char *text = NULL;
			gsize len;

			if (g_file_get_contents(path, &text, &len, NULL))
				scan_file(ifs, text, len);
		}
	}
}

/* ---- evaluation ------------------------------------------------------------- */

typedef struct {
	GPtrArray *grants;	/* char* quadruples: source, target, class, perm */
	gboolean bad;
} Ev;

static gboolean is_param(const char *t)
{
	return t[0] == '$' && t[1] >= '1' && t[1] <= '9' && !t[2];
}

/* names of argument-less macros (permission and class sets) replaced, recursively */
static void expand_sets(AdIfaces *ifs, GPtrArray *in, guint from, guint to, GPtrArray *out,
			int depth, Ev *ev)
{
	for (guint i = from; i < to && !ev->bad; i++) {
		const char *t = g_ptr_array_index(in, i);
		Macro *m = g_hash_table_lookup(ifs->macros, t);

		if (m && m->kind == M_DEFINE) {
			if (depth > MAX_DEPTH) {
				ev->bad = TRUE;
				return;
			}
			expand_sets(ifs, m->toks, 0, m->toks->len, out, depth + 1, ev);
		} else {
			g_ptr_array_add(out, (gpointer)t);
		}
	}
}

/* a set of names at toks[*i]: one word or { words }; FALSE for ~, *, - */
static gboolean read_set(GPtrArray *toks, guint *i, GPtrArray *out)
{
	const char *t;

	if (*i >= toks->len)
		return FALSE;
	t = g_ptr_array_index(toks, *i);
	if (strcmp(t, "{") != 0) {
		if (!is_word(t[0]) || t[0] == '-')
			return FALSE;
		g_ptr_array_add(out, (gpointer)t);
		(*i)++;
		return TRUE;
	}
	int depth = 0;

	for (; *i < toks->len; (*i)++) {
		t = g_ptr_array_index(toks, *i);
		if (strcmp(t, "{") == 0) {
			depth++;
		} else if (strcmp(t, "}") == 0) {
			if (--depth == 0) {
				(*i)++;
				return out->len > 0;
			}
		} else if (!is_word(t[0]) || t[0] == '-') {
			return FALSE;
		} else {
			g_ptr_array_add(out, (gpointer)t);
		}
	}
	return FALSE;
}

/* "allow A B:C P;" in toks[from, to) (without the keyword and ';') */
static void eval_allow(AdIfaces *ifs, GPtrArray *toks, guint from, guint to, int depth,
		       Ev *ev)
{
	g_autoptr(GPtrArray) x = g_ptr_array_new();
	g_autoptr(GPtrArray) src = g_ptr_array_new();
	g_autoptr(GPtrArray) tgt = g_ptr_array_new();
	g_autoptr(GPtrArray) cls = g_ptr_array_new();
	g_autoptr(GPtrArray) perms = g_ptr_array_new();
	guint i = 0;

	expand_sets(ifs, toks, from, to, x, depth, ev);
	if (ev->bad)
		return;
	if (!read_set(x, &i, src) || !read_set(x, &i, tgt) || i >= x->len ||
	    strcmp(g_ptr_array_index(x, i++), ":") != 0 || !read_set(x, &i, cls) ||
	    !read_set(x, &i, perms) || i != x->len) {
		ev->bad = TRUE;
		return;
	}
	for (guint a = 0; a < src->len; a++)
		for (guint b = 0; b < tgt->len; b++)
			for (guint c = 0; c < cls->len; c++)
				for (guint d = 0; d < perms->len; d++) {
					g_ptr_array_add(ev->grants, g_ptr_array_index(src, a));
					g_ptr_array_add(ev->grants, g_ptr_array_index(tgt, b));
					g_ptr_array_add(ev->grants, g_ptr_array_index(cls, c));
					g_ptr_array_add(ev->grants, g_ptr_array_index(perms, d));
				}
}

static void eval_body(AdIfaces *ifs, GPtrArray *body, GPtrArray *args, int depth, Ev *ev);

/* NAME(args) at toks[*i]; *i ends after ')' */
static void eval_call(AdIfaces *ifs, GPtrArray *toks, guint *i, int depth, Ev *ev)
{
	const char *name = g_ptr_array_index(toks, *i);
	g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_ptr_array_unref);
	GPtrArray *cur = g_ptr_array_new();
	int paren = 0;

	g_ptr_array_add(args, cur);
	for ((*i)++; *i < toks->len; (*i)++) {
		const char *t = g_ptr_array_index(toks, *i);

		if (strcmp(t, "(") == 0) {
			if (paren++ == 0)
				continue;
		} else if (strcmp(t, ")") == 0) {
			if (--paren == 0)
				break;
		} else if (strcmp(t, ",") == 0 && paren == 1) {
			cur = g_ptr_array_new();
			g_ptr_array_add(args, cur);
			continue;
		}
		g_ptr_array_add(cur, (gpointer)t);
	}
	if (*i >= toks->len) {
		ev->bad = TRUE;
		return;
	}
	(*i)++;
	if (strcmp(name, "gen_require") == 0)
		return;
	Macro *m = g_hash_table_lookup(ifs->macros, name);

	if (!m || m->kind == M_TEMPLATE || depth >= MAX_DEPTH) {
		ev->bad = TRUE;
		return;
	}
	eval_body(ifs, m->toks, args, depth + 1, ev);
}

static void eval_body(AdIfaces *ifs, GPtrArray *body, GPtrArray *args, int depth, Ev *ev)
{
	g_autoptr(GPtrArray) toks = g_ptr_array_new();

	/* $N substituted */
	for (guint i = 0; i < body->len; i++) {
		const char *t = g_ptr_array_index(body, i);

		if (is_param(t)) {
			guint n = t[1] - '1';
			GPtrArray *a = n < args->len ? g_ptr_array_index(args, n) : NULL;

			if (!a || !a->len) {
				ev->bad = TRUE;
				return;
			}
			for (guint j = 0; j < a->len; j++)
				g_ptr_array_add(toks, g_ptr_array_index(a, j));
		} else if (strchr(t, '$')) {
			ev->bad = TRUE;	/* $1_t, $*, $@ */
			return;
		} else {
			g_ptr_array_add(toks, (gpointer)t);
		}
	}
	for (guint i = 0; i < toks->len && !ev->bad;) {
		const char *t = g_ptr_array_index(toks, i);
		const char *next = i + 1 < toks->len ? g_ptr_array_index(toks, i + 1) : "";

		if (strcmp(t, ";") == 0) {
			i++;
		} else if (strcmp(t, "allow") == 0 || strcmp(t, "dontaudit") == 0) {
			guint j = i + 1;

			while (j < toks->len && strcmp(g_ptr_array_index(toks, j), ";") != 0)
				j++;
			if (j >= toks->len) {
				ev->bad = TRUE;
				return;
			}
			if (t[0] == 'a')
				eval_allow(ifs, toks, i + 1, j, depth, ev);
			i = j + 1;
		} else if (strcmp(next, "(") == 0 && is_word(t[0])) {
			eval_call(ifs, toks, &i, depth, ev);
		} else {
			ev->bad = TRUE;
		}
	}
}

static void add_entry(AdIfaces *ifs, Iface *f, const char *key, GHashTable *perms)
{
	const char *tab = strchr(key, '\t');
	Entry *e = g_new0(Entry, 1);
	char *cls = g_string_chunk_insert_const(ifs->strings, tab + 1);
	GPtrArray *list = g_hash_table_lookup(ifs->by_class, cls);

	e->iface = f;
	e->target = g_string_chunk_insert_len(ifs->strings, key, tab - key);
	e->perms = perms;
	if (!list) {
		list = g_ptr_array_new_with_free_func(g_free);
		g_hash_table_insert(ifs->by_class, cls, list);
	}
	g_ptr_array_add(list, e);
}

static void evaluate(AdIfaces *ifs, Macro *m)
{
	g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(
		(GDestroyNotify)g_ptr_array_unref);
	GPtrArray *a1 = g_ptr_array_new();
	Ev ev = { g_ptr_array_new(), FALSE };

	g_ptr_array_add(a1, "$1");
	g_ptr_array_add(args, a1);
	eval_body(ifs, m->toks, args, 0, &ev);
	if (!ev.bad && ev.grants->len) {
		Iface *f = g_new0(Iface, 1);

		f->name = g_strdup(m->name);
		f->valid = -1;
		f->grants = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						  (GDestroyNotify)g_hash_table_unref);
		for (guint i = 0; i < ev.grants->len && !ev.bad; i += 4) {
			const char *s = g_ptr_array_index(ev.grants, i);
			const char *t = g_ptr_array_index(ev.grants, i + 1);
			const char *c = g_ptr_array_index(ev.grants, i + 2);
			const char *p = g_ptr_array_index(ev.grants, i + 3);

			if (strcmp(s, "$1") != 0) {
				ev.bad = TRUE;	/* grants another domain something */
				break;
			}
			if (strcmp(t, "$1") == 0)
				t = "self";
			if (strchr(t, '$') || strchr(c, '$') || strchr(p, '$')) {
				ev.bad = TRUE;
				break;
			}
			g_autofree char *key = g_strdup_printf("%s\t%s", t, c);
			GHashTable *set = g_hash_table_lookup(f->grants, key);

			if (!set) {
				set = g_hash_table_new(g_str_hash, g_str_equal);
				g_hash_table_insert(f->grants, g_steal_pointer(&key), set);
			}
			if (g_hash_table_add(set, (gpointer)p))
				f->n_perms++;
		}
		if (ev.bad) {
			iface_free(f);
		} else {
			GHashTableIter it;
			gpointer k, v;

			g_hash_table_insert(ifs->ifaces, f->name, f);
			g_hash_table_iter_init(&it, f->grants);
			while (g_hash_table_iter_next(&it, &k, &v))
				add_entry(ifs, f, k, v);
		}
	}
	g_ptr_array_unref(ev.grants);
}

AdIfaces *ad_ifaces_load(const char *dir, GError **error)
{
	AdIfaces *ifs;
	GHashTableIter it;
	gpointer v;

	if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    /* TRANSLATORS: %s is a directory; selinux-policy-dev is a
			       package name */
			    _("%s: no such directory (the refpolicy interface definitions "
			      "come with selinux-policy-dev)"), dir);
		return NULL;
	}
	ifs = g_new0(AdIfaces, 1);
	ifs->strings = g_string_chunk_new(1 << 16);
	ifs->macros = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					    (GDestroyNotify)macro_free);
	ifs->ifaces = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					    (GDestroyNotify)iface_free);
	ifs->by_class = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					      (GDestroyNotify)g_ptr_array_unref);
	scan_dir(ifs, dir, 0);
	g_hash_table_iter_init(&it, ifs->macros);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		Macro *m = v;

		if (m->kind == M_INTERFACE)
			evaluate(ifs, m);
	}
	return ifs;
}

guint ad_ifaces_n_defined(const AdIfaces *ifs)
{
	return ifs->n_defined;
}

guint ad_ifaces_n_usable(const AdIfaces *ifs)
{
	return g_hash_table_size(ifs->ifaces);
}

gboolean ad_ifaces_grants(const AdIfaces *ifs, const char *name, const char *target,
			  const char *tclass, const char *perm)
{
	Iface *f = g_hash_table_lookup(ifs->ifaces, name);
	g_autofree char *key = g_strdup_printf("%s\t%s", target, tclass);
	GHashTable *set = f ? g_hash_table_lookup(f->grants, key) : NULL;

	return set && g_hash_table_contains(set, perm);
}

guint ad_ifaces_n_perms(const AdIfaces *ifs, const char *name)
{
	Iface *f = g_hash_table_lookup(ifs->ifaces, name);

	return f ? f->n_perms : 0;
}

/* ---- matching ---------------------------------------------------------------- */

/* every name the interface uses exists in @policy (checked once) */
static gboolean iface_valid(Iface *f, AdPolicy *policy)
{
	GHashTableIter it;
	gpointer k, v;

	if (!policy)
		return TRUE;
	if (f->valid >= 0)
		return f->valid;
	f->valid = 1;
	g_hash_table_iter_init(&it, f->grants);
	while (f->valid && g_hash_table_iter_next(&it, &k, &v)) {
		g_auto(GStrv) tc = g_strsplit(k, "\t", 2);
		GHashTableIter pi;
		gpointer p;

		if ((strcmp(tc[0], "self") != 0 && !ad_policy_has_type(policy, tc[0])) ||
		    !ad_policy_has_class(policy, tc[1])) {
			f->valid = 0;
			break;
		}
		g_hash_table_iter_init(&pi, v);
		while (g_hash_table_iter_next(&pi, &p, NULL))
			if (!ad_policy_has_perm(policy, tc[1], p)) {
				f->valid = 0;
				break;
			}
	}
	return f->valid;
}

static gboolean target_matches(AdPolicy *policy, const char *source, const char *target,
			       const char *itarget)
{
	if (strcmp(itarget, "self") == 0)
		return strcmp(source, target) == 0;
	if (strcmp(itarget, target) == 0)
		return TRUE;
	return policy && ad_policy_type_is_attribute(policy, itarget) &&
	       ad_policy_type_has_attribute(policy, target, itarget);
}

const char *ad_ifaces_match(AdIfaces *ifs, AdPolicy *policy, const char *source,
			    const char *target, const char *tclass,
			    const char *const *perms, guint n_perms)
{
	GPtrArray *list = g_hash_table_lookup(ifs->by_class, tclass);
	g_autoptr(GHashTable) granted = NULL;	/* Iface* -> its perms on target:tclass */
	GHashTableIter it;
	gpointer k, v;
	Iface *best = NULL;
	guint best_extra = 0;

	if (!list || !n_perms)
		return NULL;
	granted = g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)g_hash_table_unref);
	for (guint i = 0; i < list->len; i++) {
		Entry *e = g_ptr_array_index(list, i);
		GHashTable *set;
		GHashTableIter pi;
		gpointer p;

		if (!target_matches(policy, source, target, e->target))
			continue;
		set = g_hash_table_lookup(granted, e->iface);
		if (!set) {
			set = g_hash_table_new(g_str_hash, g_str_equal);
			g_hash_table_insert(granted, e->iface, set);
		}
		g_hash_table_iter_init(&pi, e->perms);
		while (g_hash_table_iter_next(&pi, &p, NULL))
			g_hash_table_add(set, p);
	}
	/*
	 * "Exactly the needed access": the fewest permissions beyond @perms on
	 * @target:@tclass itself (read_files before rw_files), then the fewest
	 * permissions overall (no directory search it does not need), then the name.
	 */
	g_hash_table_iter_init(&it, granted);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		Iface *f = k;
		guint extra = g_hash_table_size(v);
		gboolean all = TRUE;

		for (guint p = 0; p < n_perms && all; p++)
			all = g_hash_table_contains(v, perms[p]);
		if (!all)
			continue;
		extra -= n_perms;
		if (best && (extra > best_extra ||
			     (extra == best_extra && (f->n_perms > best->n_perms ||
						      (f->n_perms == best->n_perms &&
						       strcmp(f->name, best->name) > 0)))))
			continue;
		if (!iface_valid(f, policy))
			continue;
		best = f;
		best_extra = extra;
	}
	return best ? best->name : NULL;
}

const char *ad_ifaces_match_rule(AdIfaces *ifs, AdPolicy *policy, const AdRule *r)
{
	if (r->unknown || r->left_out)
		return NULL;
	return ad_ifaces_match(ifs, policy, r->source, r->target, r->tclass,
			       (const char *const *)r->perms->pdata, r->perms->len);
}

/* ---- output ------------------------------------------------------------------ */

static char *rule_line(const AdRule *r)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "allow %s %s:%s ", r->source, ad_rule_target_text(r),
			       r->tclass);
	if (r->perms->len == 1) {
		g_string_append(s, g_ptr_array_index(r->perms, 0));
	} else {
		g_string_append(s, "{ ");
		for (guint i = 0; i < r->perms->len; i++)
			g_string_append_printf(s, "%s ", (char *)g_ptr_array_index(r->perms, i));
		g_string_append_c(s, '}');
	}
	g_string_append_c(s, ';');
	return g_string_free(s, FALSE);
}

char *ad_ifaces_rewrite(AdIfaces *ifs, AdPolicy *policy, AdRuleSet *rs, const char *te,
			gboolean module, guint *n_calls)
{
	g_autoptr(GPtrArray) rules = ad_rule_set_rules(rs);
	g_autoptr(GHashTable) calls = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							    g_free);
	g_autoptr(GHashTable) done = g_hash_table_new(g_str_hash, g_str_equal);
	g_auto(GStrv) lines = g_strsplit(te, "\n", -1);
	GString *out = g_string_new(NULL);
	guint n = 0;

	for (guint i = 0; i < rules->len; i++) {
		const AdRule *r = g_ptr_array_index(rules, i);
		const char *name = ad_ifaces_match_rule(ifs, policy, r);

		/* names come from the rule set: validated against the policy */
		if (name)
			g_hash_table_replace(calls, rule_line(r),
					     g_strdup_printf("%s(%s)", name, r->source));
	}
	for (guint i = 0; lines[i]; i++) {
		const char *call = g_hash_table_lookup(calls, lines[i]);

		if (i)
			g_string_append_c(out, '\n');
		if (module && i == 0 && g_str_has_prefix(lines[i], "module ") &&
		    g_str_has_suffix(lines[i], " 1.0;")) {
			g_autofree char *name = g_strndup(lines[i] + 7, strlen(lines[i]) - 12);

			g_string_append_printf(out, "policy_module(%s, 1.0)", name);
			continue;
		}
		if (!call) {
			g_string_append(out, lines[i]);
			continue;
		}
		n++;
		g_string_append_printf(out, "# %s\n", lines[i]);
		if (g_hash_table_contains(done, call)) {
			/* a comment of the module, for people */
			g_string_append(out, "# ");
			/* TRANSLATORS: a comment in a generated policy module: %s is an
			   interface call such as apache_read_log(httpd_t), as it is */
			g_string_append_printf(out, _("(granted by %s above)"), call);
		} else {
			g_hash_table_add(done, (gpointer)call);
			g_string_append(out, call);
		}
	}
	if (n_calls)
		*n_calls = n;
	return g_string_free(out, FALSE);
}
