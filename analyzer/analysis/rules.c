// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rule book: declarative knowledge of known causes, read from
 * rules/NN-topic.rules files in GKeyFile syntax.  avcdoctor.rules(5) is the
 * reference for the syntax; this file implements it.
 *
 * Loading is strict.  A file is first checked line by line here, because
 * GKeyFile's own errors name no line and it silently merges a repeated
 * group and keeps the last of a repeated key.  Then every key of every
 * group is validated; any problem rejects the whole file, each problem as
 * "FILE:LINE: message".
 *
 * Matching is indexed by class and cached per (source type, target type,
 * class): a flood of one denial costs a hash lookup.  Commands are built
 * argument by argument from the denial's values; nothing goes through a
 * shell, and a value that could be mistaken for something else (a
 * relative or non-canonical path, control characters, a leading '-')
 * keeps the rule from firing instead of being passed on.
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
#include "policy/labels.h"
#include "rules.h"
#include "rules-private.h"

G_DEFINE_QUARK(ad-rules-error-quark, ad_rules_error)

/* ---- placeholders ----------------------------------------------------------- */



static const char *const ph_names[PH_N] = {
	[PH_SOURCE] = "source",		[PH_TARGET] = "target",
	[PH_CLASS] = "class",		[PH_PERMS] = "perms",
	[PH_PATH] = "path",		[PH_PATH_DIR] = "path_dir",
	[PH_PATH_REGEX] = "path_regex", [PH_FILE_REGEX] = "file_regex",
	[PH_COMM] = "comm",
	[PH_EXE] = "exe",		[PH_PORT] = "port",
	[PH_TCONTEXT] = "tcontext",	[PH_SCONTEXT] = "scontext",
	[PH_TYPE] = "type",		[PH_NAME] = "name",
	[PH_NAME_REGEX] = "name_regex",
};

static int ph_lookup(const char *name, gsize len)
{
	for (int i = 0; i < PH_N; i++)
		if (strlen(ph_names[i]) == len && strncmp(ph_names[i], name, len) == 0)
			return i;
	return -1;
}

/*
 * Checks the placeholders of @s ("{path}", "{{" and "}}" for literal
 * braces, as in Python's str.format) and ORs their bits into @ret_mask.
 * Returns NULL when fine, else a message the caller frees.
 */
char *rules_template_check(const char *s, guint32 *ret_mask)
{
	guint32 mask = 0;

	for (const char *p = s; *p; p++) {
		const char *end;
		int ph;

		if (*p == '}') {
			if (p[1] != '}')
				return g_strdup(_("single “}” (write “}}” for a brace)"));
			p++;
			continue;
		}
		if (*p != '{')
			continue;
		if (p[1] == '{') {
			p++;
			continue;
		}
		end = strchr(p + 1, '}');
		if (!end)
			/* TRANSLATORS: %s is the rest of a text from a rules file */
			return g_strdup_printf(_("unterminated placeholder “%s” (write “{{” for a "
						 "brace)"), p);
		ph = ph_lookup(p + 1, end - p - 1);
		if (ph < 0) {
			g_autofree char *name = g_strndup(p + 1, end - p - 1);
			g_autoptr(GString) known = g_string_new(NULL);

			for (int i = 0; i < PH_N; i++)
				g_string_append_printf(known, "%s{%s}", i ? " " : "", ph_names[i]);
			/* TRANSLATORS: %1$s is a placeholder name, %2$s the list of the
			   known ones ({source} {target} ...), as they are */
			return g_strdup_printf(_("unknown placeholder “{%s}” (known: %s)"), name,
					       known->str);
		}
		mask |= 1u << ph;
		p = end;
	}
	*ret_mask |= mask;
	return NULL;
}

/* @s with every placeholder replaced by @values (all used ones are set: checked before) */
static char *template_expand(const char *s, char *const values[PH_N])
{
	GString *out = g_string_new(NULL);

	ad_template_expand(out, s, ph_names, (const char *const *)values, PH_N);
	return g_string_free(out, FALSE);
}

/* ---- rules ------------------------------------------------------------------- */

/* type names: exact names (types or attributes) and '*' globs */


NameSet *rules_name_set_new(void)
{
	NameSet *ns = g_new0(NameSet, 1);

	ns->exact = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	ns->globs = g_ptr_array_new_with_free_func((GDestroyNotify)g_pattern_spec_free);
	return ns;
}

static void name_set_free(NameSet *ns)
{
	if (!ns)
		return;
	g_hash_table_unref(ns->exact);
	g_ptr_array_unref(ns->globs);
	g_free(ns);
}

void rules_name_set_add(NameSet *ns, const char *name)
{
	if (strchr(name, '*'))
		g_ptr_array_add(ns->globs, g_pattern_spec_new(name));
	else
		g_hash_table_add(ns->exact, g_strdup(name));
}

/*
 * Is @type in @ns: by name, by glob, or (with a policy) because it has an
 * attribute @ns names, or because it and a name of @ns are one type under
 * two names (an alias: logs from older systems use the old name).
 */
static gboolean name_set_match(const NameSet *ns, const char *type, AdPolicy *policy)
{
	GHashTableIter it;
	gpointer key;
	const char *primary;

	if (!type)
		return FALSE;
	if (g_hash_table_contains(ns->exact, type))
		return TRUE;
	for (guint i = 0; i < ns->globs->len; i++)
		if (g_pattern_spec_match_string(g_ptr_array_index(ns->globs, i), type))
			return TRUE;
	if (!policy)
		return FALSE;
	primary = ad_policy_type_primary(policy, type);
	if (primary && strcmp(primary, type) != 0 && g_hash_table_contains(ns->exact, primary))
		return TRUE;
	g_hash_table_iter_init(&it, ns->exact);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		const char *kp;

		if (ad_policy_type_has_attribute(policy, type, key))
			return TRUE;
		kp = primary ? ad_policy_type_primary(policy, key) : NULL;
		if (kp && strcmp(kp, primary) == 0)
			return TRUE;
	}
	return FALSE;
}

void rules_bool_cond_free(BoolCond *b)
{
	g_free(b->name);
	g_free(b);
}

void rules_rule_free(AdRule *r)
{
	if (!r)
		return;
	g_free(r->id);
	g_free(r->file);
	g_free(r->summary);
	name_set_free(r->source);
	name_set_free(r->target);
	name_set_free(r->not_target);
	g_strfreev(r->classes);
	g_strfreev(r->perms);
	g_strfreev(r->types);
	g_strfreev(r->path_prefix);
	g_strfreev(r->not_path_prefix);
	g_strfreev(r->comm);
	g_strfreev(r->kmod);
	if (r->booleans)
		g_ptr_array_unref(r->booleans);
	g_free(r->if_text);
	g_free(r->then_text);
	g_free(r->if_msgid);
	g_free(r->then_msgid);
	if (r->commands)
		g_ptr_array_unref(r->commands);
	g_free(r);
}


static void index_array_free(gpointer a)
{
	g_array_unref(a);
}

AdRuleBook *ad_rule_book_new(void)
{
	AdRuleBook *b = g_new0(AdRuleBook, 1);

	b->rules = g_ptr_array_new_with_free_func((GDestroyNotify)rules_rule_free);
	b->by_class = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, index_array_free);
	b->any_class = g_array_new(FALSE, FALSE, sizeof(guint));
	b->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, index_array_free);
	return b;
}

void ad_rule_book_free(AdRuleBook *b)
{
	if (!b)
		return;
	g_ptr_array_unref(b->rules);
	g_hash_table_unref(b->by_class);
	g_array_unref(b->any_class);
	g_hash_table_unref(b->cache);
	g_free(b);
}

guint ad_rule_book_size(const AdRuleBook *b)
{
	return b ? b->rules->len : 0;
}

/* takes @r into @b and its class index */
void rules_book_add(AdRuleBook *b, AdRule *r)
{
	guint idx = b->rules->len;

	g_ptr_array_add(b->rules, r);
	if (!r->classes) {
		g_array_append_val(b->any_class, idx);
	} else {
		for (guint i = 0; r->classes[i]; i++) {
			GArray *a = g_hash_table_lookup(b->by_class, r->classes[i]);

			if (!a) {
				a = g_array_new(FALSE, FALSE, sizeof(guint));
				g_hash_table_insert(b->by_class, g_strdup(r->classes[i]), a);
			}
			/* a class listed twice is one entry */
			if (!a->len || g_array_index(a, guint, a->len - 1) != idx)
				g_array_append_val(a, idx);
		}
	}
	g_hash_table_remove_all(b->cache);
}

/* ---- matching ------------------------------------------------------------------------ */

/* the values of one denial for the placeholders: text form and command form */
typedef struct {
	char *text[PH_N];		/* shown in If/Then; NULL: none */
	char *cmd[PH_N];		/* one command argument; NULL: not usable */
} Values;

static void values_clear(Values *v)
{
	for (int i = 0; i < PH_N; i++) {
		g_free(v->text[i]);
		g_free(v->cmd[i]);
	}
}

/* for display: the bytes as they are when clean, else escaped */
static char *text_of_bytes(const void *data, gsize len)
{
	return ad_bytes_are_clean(data, len) ? g_strndup(data, len) : ad_escape_bytes(data, len);
}

/* a name-like value fit for an argument: printable, no leading '-' */
static char *cmd_of_name(const char *s, const char *extra)
{
	if (!s || !rules_valid_chars(s, strlen(s), extra) || s[0] == '-')
		return NULL;
	return g_strdup(s);
}

/*
 * A path fit for a command: absolute, canonical (no "//", "/./", "/../",
 * no trailing '/'), printable UTF-8 without control characters, not
 * absurdly long.  The kernel writes canonical paths; anything else comes
 * from a crafted log.
 */
static gboolean path_is_usable(const char *p, gsize len)
{
	if (!len || len > AD_RULES_MAX_PATH || p[0] != '/' || memchr(p, '\0', len) ||
	    !ad_bytes_are_clean(p, len))
		return FALSE;
	if (len == 1)
		return TRUE;
	if (p[len - 1] == '/')
		return FALSE;
	for (gsize i = 0; i < len; i++) {
		if (p[i] != '/')
			continue;
		if (i + 1 < len && p[i + 1] == '/')
			return FALSE;
		if (i + 1 < len && p[i + 1] == '.' && (i + 2 == len || p[i + 2] == '/'))
			return FALSE;
		if (i + 2 < len && p[i + 1] == '.' && p[i + 2] == '.' &&
		    (i + 3 == len || p[i + 3] == '/'))
			return FALSE;
	}
	return TRUE;
}

static void values_fill(Values *v, const AdDenial *d, const char *stype, const char *ttype,
			AdLabels *labels)
{
	const char *ctx_chars = "_.-:,";

	memset(v, 0, sizeof(*v));
	if (stype) {
		v->text[PH_SOURCE] = text_of_bytes(stype, strlen(stype));
		v->cmd[PH_SOURCE] = cmd_of_name(stype, "_.-");
	}
	if (ttype) {
		v->text[PH_TARGET] = text_of_bytes(ttype, strlen(ttype));
		v->cmd[PH_TARGET] = cmd_of_name(ttype, "_.-");
	}
	if (d->tclass) {
		v->text[PH_CLASS] = text_of_bytes(d->tclass, strlen(d->tclass));
		v->cmd[PH_CLASS] = cmd_of_name(d->tclass, "_");
	}
	if (d->perms && d->perms->len) {
		g_autoptr(GString) s = g_string_new(NULL);
		gboolean ok = TRUE;

		for (guint i = 0; i < d->perms->len; i++) {
			const char *p = g_ptr_array_index(d->perms, i);

			ok = ok && rules_valid_chars(p, strlen(p), "_");
			g_string_append_printf(s, "%s%s", i ? " " : "", p);
		}
		v->text[PH_PERMS] = text_of_bytes(s->str, s->len);
		if (ok)
			v->cmd[PH_PERMS] = g_strdup(s->str);
	}
	if (d->scontext) {
		v->text[PH_SCONTEXT] = text_of_bytes(d->scontext, strlen(d->scontext));
		v->cmd[PH_SCONTEXT] = cmd_of_name(d->scontext, ctx_chars);
	}
	if (d->tcontext) {
		v->text[PH_TCONTEXT] = text_of_bytes(d->tcontext, strlen(d->tcontext));
		v->cmd[PH_TCONTEXT] = cmd_of_name(d->tcontext, ctx_chars);
	}
	if (d->port >= 0) {
		v->text[PH_PORT] = g_strdup_printf("%" PRId64, d->port);
		v->cmd[PH_PORT] = g_strdup(v->text[PH_PORT]);
	}
	if (d->comm.len) {
		gsize len = d->comm.len;
		const char *c = d->comm.data;

		v->text[PH_COMM] = text_of_bytes(c, len);
		if (ad_bytes_are_clean(c, len) && c[0] != '-')
			v->cmd[PH_COMM] = g_strndup(c, len);
	}
	if (d->exe.len) {
		gsize len = d->exe.len;
		const char *e = d->exe.data;

		v->text[PH_EXE] = text_of_bytes(e, len);
		if (path_is_usable(e, len))
			v->cmd[PH_EXE] = g_strndup(e, len);
	}
	if (d->name.len) {
		gsize len = d->name.len;
		const char *n = d->name.data;

		/* one file name (the last component): no '/', not "." or ".." */
		v->text[PH_NAME] = text_of_bytes(n, len);
		if (len <= 255 && !memchr(n, '/', len) && !memchr(n, '\0', len) &&
		    ad_bytes_are_clean(n, len) && !(len == 1 && n[0] == '.') &&
		    !(len == 2 && n[0] == '.' && n[1] == '.')) {
			g_autofree char *name = g_strndup(n, len);
			g_autofree char *abs = g_strconcat("/", name, NULL);
			g_autofree char *spec = ad_fcontext_spec(abs, FALSE);

			v->cmd[PH_NAME] = g_strdup(name);
			/* the spec of "/NAME" without its '/': one component */
			if (spec) {
				v->cmd[PH_NAME_REGEX] = g_strdup(spec + 1);
				v->text[PH_NAME_REGEX] = g_strdup(spec + 1);
			}
		}
	}
	if (d->path.len) {
		gsize len = d->path.len;
		const char *p = d->path.data;

		/*
		 * The kernel's PARENT path record names a directory with
		 * one trailing '/' ("/var/www/html/uploads/"): that path is
		 * the directory itself, without the '/'.
		 */
		gboolean is_dir = len > 1 && p[len - 1] == '/';

		len -= is_dir;
		v->text[PH_PATH] = text_of_bytes(p, len);
		if (path_is_usable(p, len)) {
			g_autofree char *dir = NULL;

			v->cmd[PH_PATH] = g_strndup(p, len);
			is_dir = is_dir || g_strcmp0(d->tclass, "dir") == 0;
			dir = is_dir ? g_strdup(v->cmd[PH_PATH]) : g_path_get_dirname(v->cmd[PH_PATH]);
			if (!ad_path_is_standard_dir(v->cmd[PH_PATH])) {
				v->cmd[PH_FILE_REGEX] = ad_labels_fcontext_spec(labels, v->cmd[PH_PATH],
									   FALSE);
				v->text[PH_FILE_REGEX] = g_strdup(v->cmd[PH_FILE_REGEX]);
			}
			if (!ad_path_is_standard_dir(dir)) {
				v->cmd[PH_PATH_REGEX] = ad_labels_fcontext_spec(labels, dir, TRUE);
				v->text[PH_PATH_REGEX] = g_strdup(v->cmd[PH_PATH_REGEX]);
				v->text[PH_PATH_DIR] = g_strdup(dir);
				v->cmd[PH_PATH_DIR] = g_steal_pointer(&dir);
			}
		}
	}
}

/*
 * Path prefix on a component boundary: "/var/www" matches "/var/www/x",
 * not "/var/wwwx".  A '*' in the prefix matches within one component, as
 * in glob(7): "/home/" "*" "/.ssh" matches "/home/ann/.ssh/id_rsa".
 */
static gboolean path_has_prefix(const char *p, gsize len, const char *prefix)
{
	g_autofree char *head = NULL;
	gsize n = strlen(prefix);
	guint parts = 0;
	gsize cut = 0;

	if (n == 1 && prefix[0] == '/')
		return len && p[0] == '/';
	if (!strchr(prefix, '*'))
		return len >= n && memcmp(p, prefix, n) == 0 && (len == n || p[n] == '/');
	if (memchr(p, '\0', len))
		return FALSE;
	for (const char *c = prefix; *c; c++)
		parts += *c == '/';
	/* the first @parts components of @p */
	for (cut = 0; cut < len; cut++)
		if (p[cut] == '/' && cut && --parts == 0)
			break;
	head = g_strndup(p, cut);
	return fnmatch(prefix, head, FNM_PATHNAME) == 0;
}

static gboolean path_matches_any(const AdDenial *d, char **prefixes)
{
	if (!d->path.data)
		return FALSE;
	for (guint i = 0; prefixes[i]; i++)
		if (path_has_prefix(d->path.data, d->path.len, prefixes[i]))
			return TRUE;
	return FALSE;
}

static gboolean bytes_in_list(AdBytes b, char **list)
{
	if (!b.data)
		return FALSE;
	for (guint i = 0; list[i]; i++)
		if (ad_bytes_equal_str(b, list[i]))
			return TRUE;
	return FALSE;
}

static gboolean denial_has_any_perm(const AdDenial *d, char **perms)
{
	for (guint i = 0; d->perms && i < d->perms->len; i++)
		if (g_strv_contains((const char *const *)perms, g_ptr_array_index(d->perms, i)))
			return TRUE;
	return FALSE;
}

/* the type/class part of matching, done once per (stype, ttype, tclass) */
static gboolean rule_matches_types(const AdRule *r, const char *stype, const char *ttype,
				   AdPolicy *policy)
{
	if (r->source && !name_set_match(r->source, stype, policy))
		return FALSE;
	if (r->target && !name_set_match(r->target, ttype, policy))
		return FALSE;
	if (r->not_target && name_set_match(r->not_target, ttype, policy))
		return FALSE;
	return TRUE;
}

/* the rest: permissions, reason, path, process, module, booleans */
static gboolean rule_matches_denial(const AdRule *r, const AdDenial *d, const AdVerdict *v,
				    AdPolicy *policy)
{
	if (r->perms && !denial_has_any_perm(d, r->perms))
		return FALSE;
	if (r->reasons) {
		if (!v || !(r->reasons & (1u << v->reason)))
			return FALSE;
	} else if (v && v->reason == AD_REASON_ALLOWED) {
		return FALSE;	/* the policy allows it now: nothing to fix */
	}
	if (r->path_prefix && !path_matches_any(d, r->path_prefix))
		return FALSE;
	if (r->not_path_prefix && path_matches_any(d, r->not_path_prefix))
		return FALSE;
	if (r->comm && !bytes_in_list(d->comm, r->comm))
		return FALSE;
	if (r->kmod) {
		if (d->type != AD_DENIAL_AVC || !d->record)
			return FALSE;
		if (!bytes_in_list(ad_record_bytes(d->record, "kmod"), r->kmod))
			return FALSE;
	}
	for (guint i = 0; r->booleans && i < r->booleans->len; i++) {
		BoolCond *b = g_ptr_array_index(r->booleans, i);

		if (!policy || ad_policy_bool_value(policy, b->name) != (int)b->value)
			return FALSE;
	}
	return TRUE;
}

/* length-prefixed: no byte of a name can make two signatures collide */
static char *signature_key(const char *stype, const char *ttype, const char *tclass)
{
	stype = stype ? stype : "";
	ttype = ttype ? ttype : "";
	tclass = tclass ? tclass : "";
	return g_strdup_printf("%zu:%s%zu:%s%s", strlen(stype), stype, strlen(ttype), ttype,
			       tclass);
}

static int uint_cmp(gconstpointer a, gconstpointer b)
{
	guint x = *(const guint *)a, y = *(const guint *)b;

	return x < y ? -1 : x > y;
}

/* the rules whose class, source and target fit; borrowed from the cache */
static GArray *candidates(AdRuleBook *b, const char *stype, const char *ttype,
			  const char *tclass, AdPolicy *policy)
{
	g_autofree char *key = signature_key(stype, ttype, tclass);
	GArray *out = g_hash_table_lookup(b->cache, key);
	GArray *by_class;

	if (b->cache_policy != policy) {
		g_hash_table_remove_all(b->cache);
		b->cache_policy = policy;
		out = NULL;
	}
	if (out)
		return out;
	out = g_array_new(FALSE, FALSE, sizeof(guint));
	by_class = tclass ? g_hash_table_lookup(b->by_class, tclass) : NULL;
	for (guint pass = 0; pass < 2; pass++) {
		GArray *list = pass ? by_class : b->any_class;

		for (guint i = 0; list && i < list->len; i++) {
			guint idx = g_array_index(list, guint, i);

			if (rule_matches_types(g_ptr_array_index(b->rules, idx), stype, ttype,
					       policy))
				g_array_append_val(out, idx);
		}
	}
	g_array_sort(out, uint_cmp);	/* load order, whatever the index */
	if (g_hash_table_size(b->cache) >= AD_RULES_CACHE_MAX)
		g_hash_table_remove_all(b->cache);
	g_hash_table_insert(b->cache, g_steal_pointer(&key), out);
	return out;
}

/* every placeholder in @mask has a value in @values */
static gboolean values_cover(char *const values[PH_N], guint32 mask)
{
	for (int i = 0; i < PH_N; i++)
		if ((mask & (1u << i)) && !values[i])
			return FALSE;
	return TRUE;
}

/*
 * The value of {type} for @r and @d: the first of the rule's Types= that
 * the policy defines and lets the source use for the denied access (the
 * target relabelled to it); else the first the policy defines; without a
 * policy, the first.  Borrowed from @r; NULL when the policy defines none.
 */
static const char *rule_type(const AdRule *r, const AdDenial *d, AdPolicy *policy)
{
	const char *first = NULL;

	for (guint i = 0; r->types && r->types[i]; i++) {
		g_autofree char *tcon = NULL;
		const AdVerdict *v;

		if (!policy)
			return r->types[i];
		if (!ad_policy_has_type(policy, r->types[i]))
			continue;
		if (!first)
			first = r->types[i];
		tcon = ad_context_with_type(d->tcontext, r->types[i]);
		if (!tcon || !d->perms || !d->perms->len)
			continue;
		v = ad_policy_explain(policy, d->scontext, tcon, d->tclass,
				      (const char *const *)d->perms->pdata, d->perms->len);
		if (v && v->reason == AD_REASON_ALLOWED)
			return r->types[i];
	}
	return first;
}

/*
 * Does the policy define what a command of a rule names: the booleans it
 * gives setsebool, the type after semanage's or chcon's -t?  Rules name
 * those of several policies (Fedora's renamed booleans, its container
 * types); where the policy lacks one the rule does not fire.  A boolean
 * named by an old name the policy tree keeps (booleans.subs_dist) is
 * rewritten in @argv to the policy's name, and noted in @renamed (old
 * name -> new).
 */
static gboolean command_names_defined(char **argv, AdPolicy *policy, GHashTable *renamed)
{
	g_autofree char *prog = g_path_get_basename(argv[0]);
	gboolean setsebool = strcmp(prog, "setsebool") == 0;
	gboolean typed = strcmp(prog, "semanage") == 0 || strcmp(prog, "chcon") == 0;

	for (guint i = 1; policy && argv[i]; i++) {
		if (setsebool && argv[i][0] != '-' && strchr(argv[i], '=')) {
			gsize len = strcspn(argv[i], "=");
			g_autofree char *name = g_strndup(argv[i], len);
			const char *primary = ad_policy_bool_primary(policy, name);

			if (!primary)
				return FALSE;
			if (strcmp(primary, name) != 0) {
				char *arg = g_strconcat(primary, argv[i] + len, NULL);

				g_hash_table_replace(renamed, g_steal_pointer(&name), g_strdup(primary));
				g_free(argv[i]);
				argv[i] = arg;
			}
		}
		if (typed && (strcmp(argv[i - 1], "-t") == 0 || strcmp(argv[i - 1], "--type") == 0) &&
		    !ad_policy_has_type(policy, argv[i]))
			return FALSE;
	}
	return TRUE;
}

static gboolean word_char(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

/* @text with each whole word that is a key of @renamed replaced by its value; owned */
static char *rename_words(const char *text, GHashTable *renamed);

/*
 * A rule's If or Then as a message: its template (@msgid, which readers
 * translate) with the values of the placeholders it names; the text
 * rendered here (@text expanded, in no language) when the rule file
 * translates it itself or a boolean was renamed in it
 */
static AdMsg *rule_text(const char *text, const char *msgid, GHashTable *renamed,
			char *const values[PH_N])
{
	g_autofree char *tmpl = rename_words(text, renamed);
	AdMsg *m = ad_msg_new();
	const char *names[PH_N];
	const char *used[PH_N];
	guint n = 0;

	if (!msgid || g_hash_table_size(renamed)) {
		g_autofree char *t = template_expand(tmpl, values);

		ad_msg_add_text(m, t);
		return m;
	}
	for (int i = 0; i < PH_N; i++) {
		g_autofree char *ph = g_strdup_printf("{%s}", ph_names[i]);

		if (values[i] && strstr(msgid, ph)) {
			names[n] = ph_names[i];
			used[n++] = values[i];
		}
	}
	ad_msg_add_template(m, msgid, names, used, n);
	return m;
}

static char *rename_words(const char *text, GHashTable *renamed)
{
	GString *out;
	const char *p = text;

	if (!g_hash_table_size(renamed))
		return g_strdup(text);
	out = g_string_new(NULL);
	while (*p) {
		const char *q = p;
		g_autofree char *word = NULL;
		const char *to;

		if (!word_char(*p)) {
			g_string_append_c(out, *p++);
			continue;
		}
		while (word_char(*q))
			q++;
		word = g_strndup(p, q - p);
		to = g_hash_table_lookup(renamed, word);
		g_string_append(out, to ? to : word);
		p = q;
	}
	return g_string_free(out, FALSE);
}

static AdSuggestion *rule_suggest(const AdRule *r, const Values *in, const AdDenial *d,
				  AdPolicy *policy)
{
	Values copy = *in;	/* shallow: only {type} differs per rule */
	const Values *vals = &copy;
	g_autoptr(GHashTable) renamed = NULL;
	AdSuggestion *s;

	if (r->types) {
		const char *t = rule_type(r, d, policy);

		copy.text[PH_TYPE] = (char *)t;
		copy.cmd[PH_TYPE] = (char *)t;
	}
	if (!values_cover(vals->text, r->text_mask) || !values_cover(vals->cmd, r->cmd_mask))
		return NULL;
	s = ad_suggestion_new(r->id, r->kind, r->confidence, r->level);
	renamed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	for (guint i = 0; i < r->commands->len; i++) {
		char **tmpl = g_ptr_array_index(r->commands, i);
		guint n = g_strv_length(tmpl);
		g_autoptr(GPtrArray) argv = g_ptr_array_new_full(n + 1, g_free);

		for (guint j = 0; j < n; j++)
			g_ptr_array_add(argv, template_expand(tmpl[j], vals->cmd));
		g_ptr_array_add(argv, NULL);
		if (!command_names_defined((char **)argv->pdata, policy, renamed)) {
			ad_suggestion_free(s);
			return NULL;
		}
		ad_suggestion_add_argv(s, (const char *const *)argv->pdata);
	}
	/* the texts name a renamed boolean as the commands do: in the template, not in a value */
	if (r->if_text)
		ad_suggestion_take_if(s, rule_text(r->if_text, r->if_msgid, renamed, vals->text));
	if (r->then_text)
		ad_suggestion_take_then(s, rule_text(r->then_text, r->then_msgid, renamed, vals->text));
	return s;
}

void ad_rule_book_apply(AdRuleBook *b, AdPluginEnv *ctx, const AdDenial *d, const AdVerdict *v,
			GPtrArray *ret)
{
	g_autofree char *stype = NULL, *ttype = NULL;
	AdPolicy *policy = ctx ? ctx->policy : NULL;
	GArray *cands;
	Values vals;
	gboolean filled = FALSE;

	if (!b || !d || !ret || !b->rules->len || d->granted)
		return;
	stype = ad_context_type(d->scontext);
	ttype = ad_context_type(d->tcontext);
	cands = candidates(b, stype, ttype, d->tclass, policy);
	for (guint i = 0; i < cands->len; i++) {
		const AdRule *r = g_ptr_array_index(b->rules, g_array_index(cands, guint, i));
		AdSuggestion *s;

		if (!rule_matches_denial(r, d, v, policy))
			continue;
		if (!filled) {
			values_fill(&vals, d, stype, ttype, ctx ? ctx->labels : NULL);
			filled = TRUE;
		}
		s = rule_suggest(r, &vals, d, policy);
		if (s)
			g_ptr_array_add(ret, s);
	}
	if (filled)
		values_clear(&vals);
}
