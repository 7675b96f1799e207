// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Expected file labels from file_contexts (fcontext.c, which answers as
 * libselinux's selabel does), and the customizable types.
 */
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "alert-doc.h"
#include "fcontext.h"
#include "labels.h"
#include "policy/policy.h"

struct _AdLabels {
	AdFcontexts *fc;		/* under lock: it reuses one match block */
	GMutex lock;
	GHashTable *cache;		/* under lock: "mode\x1fpath" -> context or "" */
	char *path;
	GHashTable *customizable;	/* type -> itself */
	/*
	 * How many entries of file_contexts (with .local and .homedirs) label
	 * files with each type, and the places each type is used in
	 * ("type\x1f/var/lib": an entry for the type starts with /var/lib/).
	 * Read at the first question, from the files selabel reads, and
	 * dropped with the labels: reopening them (a reload) reads them anew.
	 */
	GMutex uses_lock;
	GHashTable *uses;		/* type -> count; NULL until asked */
	GHashTable *places;		/* "type\x1fplace" set */
	GHashTable *entries;		/* type -> GPtrArray of Entry: where it is given */
};

/* one entry of file_contexts as ad_labels_type_nearness() compares it */
typedef struct {
	char *spec;		/* the regular expression, as written */
	char *lit;		/* its literal start, escapes undone, no trailing '/' */
	gboolean whole;		/* the last name of lit is complete ("/dev/frob[0-9]" : no) */
} Entry;

static void entry_free(Entry *e)
{
	g_free(e->spec);
	g_free(e->lit);
	g_free(e);
}

static void entries_free(gpointer p)
{
	g_ptr_array_unref(p);
}

/* POLICYROOT of a policy file: its directory's parent */
static char *policy_root(const char *policy_path)
{
	g_autofree char *dir = policy_path ? g_path_get_dirname(policy_path) : NULL;

	return dir ? g_path_get_dirname(dir) : NULL;
}

static void load_customizable(AdLabels *l, const char *root)
{
	g_autofree char *path = g_build_filename(root, "contexts", "customizable_types", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (char **p = lines; *p; p++) {
		char *t = g_strstrip(*p);

		if (*t && *t != '#')
			g_hash_table_add(l->customizable, g_strdup(t));
	}
}

AdLabels *ad_labels_open(const char *file_contexts, const char *policy_path, GError **error)
{
	g_autofree char *root = policy_root(policy_path);
	g_autofree char *path = NULL;
	AdFcontexts *fc;
	AdLabels *l;

	if (file_contexts)
		path = g_strdup(file_contexts);
	else if (root)
		path = g_build_filename(root, "contexts", "files", "file_contexts", NULL);
	if (!path || !g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
		if (path)
			g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_NOT_FOUND,
				    /* TRANSLATORS: %s is a file; file_contexts and --file-contexts
				       stay as they are */
				    _("no file_contexts found: %s; use --file-contexts FILE"),
				    path);
		else
			g_set_error_literal(error, AD_POLICY_ERROR, AD_POLICY_ERROR_NOT_FOUND,
					    /* TRANSLATORS: file_contexts and --file-contexts stay
					       as they are */
					    _("no file_contexts found; use --file-contexts FILE"));
		return NULL;
	}
	fc = ad_fcontexts_load(path, NULL);
	if (!fc) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    /* TRANSLATORS: %s is a file_contexts file */
			    _("%s: cannot read the file contexts"), path);
		return NULL;
	}
	l = g_new0(AdLabels, 1);
	l->fc = fc;
	l->path = g_steal_pointer(&path);
	l->customizable = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_mutex_init(&l->lock);
	l->cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_mutex_init(&l->uses_lock);
	if (root)
		load_customizable(l, root);
	return l;
}

void ad_labels_free(AdLabels *l)
{
	if (!l)
		return;
	ad_fcontexts_free(l->fc);
	g_free(l->path);
	g_hash_table_unref(l->customizable);
	g_clear_pointer(&l->uses, g_hash_table_unref);
	g_clear_pointer(&l->places, g_hash_table_unref);
	g_clear_pointer(&l->entries, g_hash_table_unref);
	g_mutex_clear(&l->lock);
	g_hash_table_unref(l->cache);
	g_mutex_clear(&l->uses_lock);
	g_free(l);
}

const char *ad_labels_path(const AdLabels *l)
{
	return l->path;
}

mode_t ad_class_to_mode(const char *tclass)
{
	static const struct { const char *name; mode_t mode; } map[] = {
		{ "file", S_IFREG }, { "dir", S_IFDIR }, { "lnk_file", S_IFLNK },
		{ "chr_file", S_IFCHR }, { "blk_file", S_IFBLK }, { "sock_file", S_IFSOCK },
		{ "fifo_file", S_IFIFO },
	};

	for (guint i = 0; tclass && i < G_N_ELEMENTS(map); i++)
		if (strcmp(map[i].name, tclass) == 0)
			return map[i].mode;
	return 0;
}

char *ad_labels_expected(AdLabels *l, const char *path, mode_t mode)
{
	g_autofree char *key = NULL;
	const char *con;
	char *ret;

	if (!path || path[0] != '/' || strlen(path) > 4096)
		return NULL;
	/* the plugins ask the same few paths again for every denial */
	key = g_strdup_printf("%o\x1f%s", (unsigned)mode, path);
	g_mutex_lock(&l->lock);
	con = g_hash_table_lookup(l->cache, key);
	if (!con) {
		if (g_hash_table_size(l->cache) > 65536)
			g_hash_table_remove_all(l->cache);
		con = ad_fcontexts_lookup(l->fc, path, mode);
		g_hash_table_insert(l->cache, g_steal_pointer(&key), g_strdup(con ? con : ""));
	}
	ret = con && *con ? g_strdup(con) : NULL;
	g_mutex_unlock(&l->lock);
	return ret;
}

char *ad_labels_expected_type(AdLabels *l, const char *path, mode_t mode)
{
	g_autofree char *con = ad_labels_expected(l, path, mode);

	if (!con || strcmp(con, "<<none>>") == 0)
		return NULL;
	return ad_context_type(con);
}

gboolean ad_labels_is_customizable(AdLabels *l, const char *type)
{
	return type && g_hash_table_contains(l->customizable, type);
}

/*
 * The first two directories of @len bytes of @path ("/var/lib/x/y" ->
 * "/var/lib"), without its last component when @drop_last (a file name,
 * or a part of one); owned, NULL when none is left
 */
static char *place_of(const char *path, gsize len, gboolean drop_last)
{
	const char *comp[2];
	gsize comp_len[2];
	guint n, total = 0;

	/* the first two non-empty components, and how many there are */
	for (gsize i = 0; i < len;) {
		gsize start, end;

		while (i < len && path[i] == '/')
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && path[i] != '/')
			i++;
		end = i;
		if (total < 2) {
			comp[total] = path + start;
			comp_len[total] = end - start;
		}
		total++;
	}
	if (drop_last && total)
		total--;
	n = MIN(total, 2);
	if (!n)
		return NULL;
	return n == 1 ? g_strdup_printf("/%.*s", (int)comp_len[0], comp[0])
		      : g_strdup_printf("/%.*s/%.*s", (int)comp_len[0], comp[0],
					(int)comp_len[1], comp[1]);
}

/*
 * The literal start of the regular expression @re (up to white space):
 * escaped characters ("\\.") are themselves, a character made optional by
 * '?', '*' or '{' is dropped, a trailing '/' too.  @ret_whole: the last
 * name is complete (the expression ends there, or goes on with "(/" or
 * after a '/').  Owned.
 */
static char *literal_start(const char *re, gboolean *ret_whole)
{
	GString *s = g_string_new(NULL);
	const char *p = re;
	gboolean slash_before = FALSE;

	for (; *p && *p != ' ' && *p != '\t'; p++) {
		if (*p == '\\' && p[1] && strchr(".^$*+?()[]{}|\\-/", p[1])) {
			g_string_append_c(s, *++p);
			continue;
		}
		if (strchr(".^$*+?()[]{}|\\", *p))
			break;
		g_string_append_c(s, *p);
	}
	if ((*p == '?' || *p == '*' || *p == '{') && s->len)
		g_string_truncate(s, s->len - 1);
	slash_before = s->len && s->str[s->len - 1] == '/';
	*ret_whole = !*p || *p == ' ' || *p == '\t' || slash_before ||
		     (*p == '(' && p[1] == '/');
	while (s->len > 1 && s->str[s->len - 1] == '/')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}

/* keeps where @line (an entry of file_contexts) gives @type, for ad_labels_type_nearness() */
static void add_entry(AdLabels *l, const char *type, const char *line)
{
	GPtrArray *list = g_hash_table_lookup(l->entries, type);
	Entry *e;

	if (!list) {
		list = g_ptr_array_new_with_free_func((GDestroyNotify)entry_free);
		g_hash_table_insert(l->entries, g_strdup(type), list);
	}
	e = g_new0(Entry, 1);
	e->spec = g_strndup(line, strcspn(line, " \t"));
	e->lit = literal_start(line, &e->whole);
	g_ptr_array_add(list, e);
}

/* counts the entries of one file_contexts file into l->uses and l->places */
static void count_file(AdLabels *l, const char *path)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (char **p = lines; *p; p++) {
		g_autofree char *type = NULL, *place = NULL;
		char *line = g_strstrip(*p);
		char *ctx = strrchr(line, ' ');
		char *tab = strrchr(line, '\t');
		gboolean complete;
		gsize lit;

		if (!*line || *line == '#')
			continue;
		if (tab && (!ctx || tab > ctx))
			ctx = tab;
		if (!ctx || !(type = ad_context_type(ctx + 1)))
			continue;
		g_hash_table_insert(l->uses, g_strdup(type),
			GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(l->uses, type)) + 1));
		/* the literal start of the regular expression: whole names only */
		lit = strcspn(line, ".^$*+?()[]{}|\\ \t");
		complete = !line[lit] || line[lit] == ' ' || line[lit] == '\t' ||
			   (lit && line[lit - 1] == '/') ||
			   (line[lit] == '(' && line[lit + 1] == '/');
		if ((place = place_of(line, lit, !complete)))
			g_hash_table_add(l->places, g_strdup_printf("%s\x1f%s", type, place));
		add_entry(l, type, line);
	}
}

/* reads file_contexts and its .local and .homedirs for the counts, once; under uses_lock */
static void count_uses(AdLabels *l)
{
	g_autofree char *local = NULL, *homedirs = NULL;

	if (l->uses)
		return;
	local = g_strconcat(l->path, ".local", NULL);
	homedirs = g_strconcat(l->path, ".homedirs", NULL);
	l->uses = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	l->places = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	l->entries = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, entries_free);
	count_file(l, l->path);
	count_file(l, local);
	count_file(l, homedirs);
}

void ad_labels_read_ahead(AdLabels *l)
{
	g_mutex_lock(&l->uses_lock);
	count_uses(l);
	g_mutex_unlock(&l->uses_lock);
}

guint ad_labels_type_uses(AdLabels *l, const char *type, const char *path,
			  gboolean *ret_same_place)
{
	g_autofree char *place = path ? place_of(path, strlen(path), TRUE) : NULL;
	g_autofree char *key = place ? g_strdup_printf("%s\x1f%s", type, place) : NULL;
	guint n;

	g_mutex_lock(&l->uses_lock);
	count_uses(l);
	n = GPOINTER_TO_UINT(g_hash_table_lookup(l->uses, type));
	if (ret_same_place)
		*ret_same_place = key && g_hash_table_contains(l->places, key);
	g_mutex_unlock(&l->uses_lock);
	return n;
}

/*
 * How near the entry @e lies to @path: 0 when it says nothing about it;
 * else 4 for each directory of @path (not @path itself) the entry starts
 * with, plus 2 when the next name begins the same ("webapp" and
 * "webapp2", "frob" of "/dev/frob[0-9]+" and "frob0": another instance
 * of the same program's directory, a sibling node).  Directories shared
 * count only when the deepest of them is not a standard one (/var/lib,
 * /dev, /opt hold everything) or the next name begins the same.
 */
static guint entry_nearness(const Entry *e, const char *path)
{
	g_auto(GStrv) pc = g_strsplit(path + 1, "/", -1);
	g_auto(GStrv) lc = g_strsplit(e->lit[0] == '/' ? e->lit + 1 : e->lit, "/", -1);
	guint np = g_strv_length(pc), nl = g_strv_length(lc), k = 0;
	gboolean stem = FALSE;
	g_autoptr(GString) dir = g_string_new(NULL);

	if (e->lit[0] != '/' || !*pc[0])
		return 0;
	if (nl == 1 && !*lc[0])
		nl = 0;		/* "/" itself */
	while (k + 1 < np && k < nl && (k + 1 < nl || e->whole) && strcmp(pc[k], lc[k]) == 0) {
		g_string_append_printf(dir, "/%s", pc[k]);
		k++;
	}
	if (k < np && k < nl) {
		gsize lp = strlen(pc[k]), ll = strlen(lc[k]), n = 0;
		gboolean partial = k + 1 == nl && !e->whole;

		while (n < lp && n < ll && pc[k][n] == lc[k][n])
			n++;
		stem = n >= 3 && (partial ? n == ll : n + 2 >= MIN(lp, ll));
	}
	if (!stem && (!k || ad_path_is_standard_dir(dir->str)))
		return 0;
	return 4 * k + (stem ? 2 : 0);
}

guint ad_labels_type_nearness(AdLabels *l, const char *type, const char *path,
			      char **ret_entry)
{
	GPtrArray *list;
	const Entry *best = NULL;
	guint max = 0;

	if (ret_entry)
		*ret_entry = NULL;
	if (!type || !path || path[0] != '/')
		return 0;
	g_mutex_lock(&l->uses_lock);
	count_uses(l);
	list = g_hash_table_lookup(l->entries, type);
	for (guint i = 0; list && i < list->len; i++) {
		const Entry *e = g_ptr_array_index(list, i);
		guint n = entry_nearness(e, path);

		if (n > max) {
			max = n;
			best = e;
		}
	}
	if (best && ret_entry)
		*ret_entry = g_strdup(best->spec);
	g_mutex_unlock(&l->uses_lock);
	return max;
}

/* FHS and distribution directories: a fix never relabels these wholesale */
static const char *const standard_dirs[] = {
	"/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
	"/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp",
	"/usr", "/usr/bin", "/usr/include", "/usr/lib", "/usr/lib32", "/usr/lib64",
	"/usr/libexec", "/usr/local", "/usr/local/bin", "/usr/local/etc", "/usr/local/lib",
	"/usr/local/sbin", "/usr/local/share", "/usr/sbin", "/usr/share", "/usr/src", "/var",
	"/var/cache", "/var/lib", "/var/local", "/var/lock", "/var/log", "/var/mail",
	"/var/opt", "/var/run", "/var/spool", "/var/tmp", "/var/www",
};

/*
 * file_contexts splits a line at white space, and its regular expressions
 * are matched against the path's bytes: a space, and a byte that is not
 * part of a UTF-8 character (which could not be shown in the command
 * either), become ".", which matches any byte.  Control bytes are refused:
 * a path holding one comes from a crafted log.
 */
char *ad_fcontext_spec(const char *path, gboolean subtree)
{
	g_autoptr(GString) s = NULL;
	const char *p, *end;

	if (!path || path[0] != '/')
		return NULL;
	end = path + strlen(path);
	/* a directory named with trailing '/' (a PARENT path record) is itself */
	while (end - path > 1 && end[-1] == '/')
		end--;
	s = g_string_sized_new(end - path + 8);
	for (p = path; p < end;) {
		unsigned char c = *p;

		if (c < 0x20 || c == 0x7f)
			return NULL;
		if (c >= 0x80) {
			gunichar u = g_utf8_get_char_validated(p, end - p);

			if (u == (gunichar)-1 || u == (gunichar)-2) {
				g_string_append_c(s, '.');
				p++;
				continue;
			}
			if (u < 0xa0)	/* C1 control */
				return NULL;
			/* a whole UTF-8 character is kept as it is */
			g_string_append_len(s, p, g_utf8_skip[c]);
			p += g_utf8_skip[c];
			continue;
		}
		if (c == ' ')
			g_string_append_c(s, '.');
		else if (strchr(".^$*+?()[]{}|\\", c))
			g_string_append_printf(s, "\\%c", c);
		else
			g_string_append_c(s, c);
		p++;
	}
	if (subtree)
		g_string_append(s, end - path == 1 ? ".*" : "(/.*)?");
	return g_string_free(g_steal_pointer(&s), FALSE);
}

gboolean ad_path_is_standard_dir(const char *path)
{
	if (!path)
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(standard_dirs); i++)
		if (strcmp(path, standard_dirs[i]) == 0)
			return TRUE;
	/* a user's home directory as a whole */
	return g_str_has_prefix(path, "/home/") && path[6] && !strchr(path + 6, '/');
}

char *ad_labels_fcontext_spec(AdLabels *l, const char *path, gboolean subtree)
{
	g_autofree char *alias = NULL;

	if (l && path) {
		g_mutex_lock(&l->lock);
		alias = ad_fcontexts_alias(l->fc, path);
		g_mutex_unlock(&l->lock);
	}
	return ad_fcontext_spec(alias ? alias : path, subtree);
}
