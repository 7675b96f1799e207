// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers shared by the file-label plugins: usable paths, file system
 * kinds, "what if the target had type T", generic types, fcontext
 * specifications and ranked candidate types.  See file-labels.h.
 */
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "escape.h"
#include "file-labels.h"

/* labels come from the kernel here, not from file_contexts */
static const char *const kernel_trees[] = {"/proc", "/sys", "/dev/pts", "/memfd:"};

char *ad_file_clean_path(const char *path)
{
	g_auto(GStrv) parts = NULL;
	g_autoptr(GString) out = NULL;

	if (!path || path[0] != '/' || strlen(path) > 4096)
		return NULL;
	/* d_path() of an unlinked file: nothing left to relabel */
	if (g_str_has_suffix(path, " (deleted)"))
		return NULL;
	out = g_string_new(NULL);
	parts = g_strsplit(path, "/", -1);
	for (char **p = parts; *p; p++) {
		if (!**p || strcmp(*p, ".") == 0)
			continue;
		if (strcmp(*p, "..") == 0)
			return NULL;
		g_string_append_c(out, '/');
		g_string_append(out, *p);
	}
	if (!out->len)
		g_string_append_c(out, '/');
	for (guint i = 0; i < G_N_ELEMENTS(kernel_trees); i++) {
		gsize n = strlen(kernel_trees[i]);

		if (strncmp(out->str, kernel_trees[i], n) == 0 &&
			(out->str[n] == '\0' || out->str[n] == '/' ||
				kernel_trees[i][n - 1] == ':'))
			return NULL;
	}
	return g_string_free(g_steal_pointer(&out), FALSE);
}

char *ad_file_denial_path(AdPluginEnv *ctx, const AdDenial *d)
{
	g_autofree char *p = NULL;

	if (ad_denial_in_container(ctx, d))
		return NULL;
	p = ad_denial_path_str(d);
	return ad_file_clean_path(p);
}

gboolean ad_file_on_labelless_fs(AdPluginEnv *ctx, const AdDenial *d, const char *ttype)
{
	/* s_id of network and FUSE file systems as the AVC's dev= shows it */
	static const char *const devs[] = {"cifs", "smb3", "nfs", "nfs4", "9p", "fuse"};

	if (ttype && ad_policy_type_is_attribute(ctx->policy, "noxattrfs")) {
		if (ad_policy_type_has_attribute(ctx->policy, ttype, "noxattrfs"))
			return TRUE;
	} else if (ttype && (strcmp(ttype, "nfs_t") == 0 || strcmp(ttype, "cifs_t") == 0)) {
		return TRUE;
	}
	for (guint i = 0; d->dev && i < G_N_ELEMENTS(devs); i++)
		if (strcmp(d->dev, devs[i]) == 0)
			return TRUE;
	return FALSE;
}

char *ad_file_context_with_type(const char *context, const char *type)
{
	const char *p, *q;

	if (!context || !type || !(p = strchr(context, ':')) || !(p = strchr(p + 1, ':')))
		return NULL;
	q = strchr(p + 1, ':');
	return g_strdup_printf("%.*s%s%s", (int)(p + 1 - context), context, type, q ? q : "");
}

const AdVerdict *ad_file_verdict_as(AdPluginEnv *ctx, const AdDenial *d, const char *type)
{
	g_autofree char *tcon = ad_file_context_with_type(d->tcontext, type);

	return ad_policy_explain(
		ctx->policy, d->scontext, tcon ? tcon : d->tcontext, d->tclass, AD_DENIAL_PERMS(d));
}

gboolean ad_file_is_swap_setup(const AdDenial *d)
{
	gsize len = d->comm.len;
	const char *comm = d->comm.data;

	if (d->syscall && strcmp(d->syscall, "swapon") == 0)
		return TRUE;
	return comm && ((len == 6 && memcmp(comm, "swapon", 6) == 0) ||
			       (len == 6 && memcmp(comm, "mkswap", 6) == 0));
}

/* ---- generic types and standard directories ---------------------------------- */

/* directories whose unclaimed children get a catch-all label */
static const char *const probe_dirs[] = {
	"/",
	"/etc",
	"/var",
	"/var/lib",
	"/var/cache",
	"/var/log",
	"/var/spool",
	"/var/opt",
	"/usr",
	"/usr/share",
	"/usr/local",
	"/opt",
	"/srv",
	"/mnt",
	"/media",
	"/run",
	"/tmp",
	"/var/tmp",
};

#define AD_PROBE_NAME "avcdoctor-unclaimed-name"

/* the generic types of ctx->labels, as a set; owned */
static GHashTable *generic_types(AdPluginEnv *ctx)
{
	GHashTable *set = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	if (!ctx->labels)
		return set;
	for (guint i = 0; i < G_N_ELEMENTS(probe_dirs); i++) {
		g_autofree char *child = g_build_filename(probe_dirs[i], AD_PROBE_NAME, NULL);
		char *t;

		if ((t = ad_labels_expected_type(ctx->labels, probe_dirs[i], S_IFDIR)))
			g_hash_table_add(set, t);
		if ((t = ad_labels_expected_type(ctx->labels, child, S_IFREG)))
			g_hash_table_add(set, t);
		if ((t = ad_labels_expected_type(ctx->labels, child, S_IFDIR)))
			g_hash_table_add(set, t);
	}
	/* the home directories' parent, not the homes: those have their own types */
	if (ctx->labels) {
		char *t = ad_labels_expected_type(ctx->labels, "/home", S_IFDIR);

		if (t)
			g_hash_table_add(set, t);
	}
	return set;
}

gboolean ad_file_type_is_generic(AdPluginEnv *ctx, const char *type)
{
	g_autoptr(GHashTable) set = generic_types(ctx);

	return type && g_hash_table_contains(set, type);
}

/* ---- how much and where file_contexts uses each type -------------------------- */

/* ---- candidate types ---------------------------------------------------------- */

/* length of the first '_'-separated word of @s */
static gsize first_word(const char *s)
{
	const char *us = strchr(s, '_');

	return us ? (gsize)(us - s) : strlen(s);
}

/*
 * Number of '_'-separated words @stype and @type start with in common
 * ("httpd_sys_script_t", "httpd_sys_rw_content_t": 2), where a first
 * word that merely extends the other by a letter or two counts ("ntpd_t",
 * "ntp_drift_t"; "sshd_t", "ssh_home_t": 1).  "_t" is not a word.
 */
static guint common_words(const char *stype, const char *type)
{
	gsize a = first_word(stype), b = first_word(type);
	guint words = 0;

	if (a != b) {
		gsize n = MIN(a, b);

		return n >= 3 && MAX(a, b) - n <= 2 && strncmp(stype, type, n) == 0 &&
				       type[b] == '_' && stype[a] == '_'
			       ? 1
			       : 0;
	}
	for (gsize i = 0;; i++) {
		if (stype[i] != type[i] || !stype[i])
			break;
		if (stype[i] == '_')
			words++;
	}
	return words;
}

guint ad_file_common_words(const char *a, const char *b)
{
	return a && b ? common_words(a, b) : 0;
}

gboolean ad_file_type_matches_domain(const char *stype, const char *type)
{
	return stype && type && common_words(stype, type) > 0;
}

/*
 * How a type's name fits data at @path, by refpolicy's naming conventions
 * (policy attributes do not tell data from configuration or keys): data
 * types (_content_t, _data_t, _db_t, _var_lib_t, ...) fit data outside
 * /etc, configuration and secrets (_etc_t, _conf_t, _cert_t, _keytab_t,
 * ...) fit only /etc.
 */
static int name_fit(const char *type, const char *path)
{
	static const char *const data[] = {
		"_content_t",
		"_data_t",
		"_db_t",
		"_share_t",
		"_var_lib_t",
		"_spool_t",
		"_cache_t",
		"_files_t",
		"_home_t",
		"_image_t",
	};
	static const char *const config[] = {
		"_etc_t",
		"_conf_t",
		"_config_t",
		"_cert_t",
		"_keytab_t",
		"_key_t",
		"_keys_t",
		"_secret_t",
		"_passwd_t",
		"_unit_t",
		"_initrc_exec_t",
	};
	gboolean etc = path && (strncmp(path, "/etc/", 5) == 0);

	for (guint i = 0; i < G_N_ELEMENTS(data); i++)
		if (g_str_has_suffix(type, data[i]))
			return etc ? 0 : 15;
	for (guint i = 0; i < G_N_ELEMENTS(config); i++)
		if (g_str_has_suffix(type, config[i]))
			return etc ? 15 : -25;
	return 0;
}

typedef struct {
	char *type;
	int score;
	guint uses;
} Candidate;

static void candidate_free(Candidate *c)
{
	g_free(c->type);
	g_free(c);
}

static int candidate_cmp(gconstpointer pa, gconstpointer pb)
{
	const Candidate *a = *(Candidate *const *)pa, *b = *(Candidate *const *)pb;

	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->uses != b->uses)
		return a->uses > b->uses ? -1 : 1;
	return strcmp(a->type, b->type);
}

static gboolean has_attr(AdPluginEnv *ctx, const char *type, const char *attr)
{
	return ad_policy_type_has_attribute(ctx->policy, type, attr);
}

/* FALSE when the policy lacks @attr: the filter then does not apply */
static gboolean lacks_attr(AdPluginEnv *ctx, const char *type, const char *attr)
{
	return ad_policy_type_is_attribute(ctx->policy, attr) &&
	       !ad_policy_type_has_attribute(ctx->policy, type, attr);
}

static gboolean in_sorted(GPtrArray *types, const char *type)
{
	guint lo = 0, hi = types ? types->len : 0;

	while (lo < hi) {
		guint mid = (lo + hi) / 2;
		int c = strcmp(g_ptr_array_index(types, mid), type);

		if (!c)
			return TRUE;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return FALSE;
}

static gboolean under(const char *path, const char *dir)
{
	gsize n = strlen(dir);

	return path && strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

GPtrArray *ad_file_candidates(AdPluginEnv *ctx, const AdDenial *d, const char *stype,
	const char *path, const char *attribute)
{
	/* write-like permissions a candidate may grant beyond what was asked */
	static const char *const extra[] = {
		"write",
		"append",
		"create",
		"unlink",
		"rename",
		"setattr",
	};
	g_autoptr(GPtrArray) allowed = NULL;
	g_autoptr(GPtrArray) ranked = NULL;
	g_autoptr(GHashTable) generic = NULL;
	g_autoptr(GPtrArray) everyone = NULL;
	g_autofree char *ttype = ad_denial_ttype(d);
	GPtrArray *extra_ok[G_N_ELEMENTS(extra)] = {0};
	gboolean exec = ad_denial_has_perm(d, "execute");
	gboolean device =
		g_strcmp0(d->tclass, "chr_file") == 0 || g_strcmp0(d->tclass, "blk_file") == 0;
	GPtrArray *out;

	if (!d->perms->len)
		return NULL;
	/* device types (null_device_t) need not be file types */
	allowed = ad_policy_types_allowed(ctx->policy, stype, d->tclass, AD_DENIAL_PERMS(d),
		device ? "device_node" : "file_type");
	if (!allowed)
		return NULL;
	generic = generic_types(ctx);
	/* what every process may use (ld.so.cache, libraries): labeling data so opens it to all */
	if (ad_policy_type_is_attribute(ctx->policy, "domain"))
		everyone = ad_policy_types_allowed(ctx->policy, "domain", d->tclass,
			AD_DENIAL_PERMS(d), device ? "device_node" : "file_type");
	for (guint i = 0; i < G_N_ELEMENTS(extra); i++)
		if (!ad_denial_has_perm(d, extra[i]) &&
			ad_policy_has_perm(ctx->policy, d->tclass, extra[i]))
			extra_ok[i] = ad_policy_types_allowed(ctx->policy, stype, d->tclass,
				&extra[i], 1, device ? "device_node" : "file_type");
	ranked = g_ptr_array_new_with_free_func((GDestroyNotify)candidate_free);
	for (guint i = 0; i < allowed->len; i++) {
		const char *t = g_ptr_array_index(allowed, i);
		gboolean same_place = FALSE;
		Candidate *c;
		guint uses;
		int fit;

		if (g_strcmp0(t, ttype) == 0 || g_hash_table_contains(generic, t) ||
			(everyone && in_sorted(everyone, t)))
			continue;
		/* never offer to relabel data as shadow, policy or key files */
		if (!device && (lacks_attr(ctx, t, "non_auth_file_type") ||
				       lacks_attr(ctx, t, "non_security_file_type")))
			continue;
		/* file system labels (nfs_t, tmpfs_t, proc_t) are not per-file labels */
		if (has_attr(ctx, t, "filesystem_type"))
			continue;
		/*
		 * Program types only for an execute, but content is content:
		 * Fedora makes httpd_sys_content_t an entry type (scripts
		 * labelled so may run), and without it web content under /data
		 * got httpd_user_ra_content_t.
		 */
		if (!exec && (has_attr(ctx, t, "exec_type") || has_attr(ctx, t, "entry_type")) &&
			!g_str_has_suffix(t, "_content_t"))
			continue;
		if (device != has_attr(ctx, t, "device_node"))
			continue;
		if (attribute && !has_attr(ctx, t, attribute))
			continue;
		uses = ctx->labels ? ad_labels_type_uses(ctx->labels, t, path, &same_place) : 0;
		/* device nodes get their types from file_contexts (udev): never a pty's */
		if (device && (!uses || has_attr(ctx, t, "ptynode")))
			continue;
		c = g_new0(Candidate, 1);
		c->type = g_strdup(t);
		c->uses = uses;
		fit = name_fit(t, path);
		/* a type file_contexts already uses in the same place (/var/lib, /srv/www) */
		if (same_place)
			fit += 30;
		/* labels that fit the place: logs under /var/log, runtime files under /run */
		if (has_attr(ctx, t, "logfile"))
			fit += under(path, "/var/log") ? 20 : -20;
		if (has_attr(ctx, t, "pidfile") || has_attr(ctx, t, "lockfile"))
			fit += under(path, "/run") || under(path, "/var/run") ? 20 : -20;
		if (has_attr(ctx, t, "configfile"))
			fit += under(path, "/etc") ? 20 : -20;
		if (has_attr(ctx, t, "tmpfile") || has_attr(ctx, t, "tmpfsfile"))
			fit -= 30;
		/* customizable types (public_content_t) are the ones meant to be assigned */
		if (ctx->labels && ad_labels_is_customizable(ctx->labels, t))
			fit += 10;
		/*
		 * The domain's own types first, unless the type does not fit the
		 * place (its keys or temporary files for data under /data): then a
		 * shared type that fits (public_content_t) is the better advice.
		 */
		c->score = fit + (fit >= 0 ? 100 * (int)MIN(common_words(stype, t), 3) : 0);
		/* least privilege breaks ties: read-only content before read-write */
		for (guint j = 0; j < G_N_ELEMENTS(extra); j++)
			if (extra_ok[j] && in_sorted(extra_ok[j], t))
				c->score -= 3;
		/* a type no file_contexts entry uses is only reached by type transitions */
		if (!c->uses)
			c->score -= 5;
		g_ptr_array_add(ranked, c);
	}
	for (guint i = 0; i < G_N_ELEMENTS(extra); i++)
		if (extra_ok[i])
			g_ptr_array_unref(extra_ok[i]);
	g_ptr_array_sort(ranked, candidate_cmp);
	out = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < ranked->len; i++)
		g_ptr_array_add(out, g_strdup(((Candidate *)g_ptr_array_index(ranked, i))->type));
	return out;
}

int ad_file_nearest_candidate(AdPluginEnv *ctx, GPtrArray *cands, const char *path,
	char **ret_entry)
{
	guint max = 0;
	int best = -1;

	if (ret_entry)
		*ret_entry = NULL;
	for (guint i = 0; ctx->labels && path && cands && i < cands->len; i++) {
		g_autofree char *entry = NULL;
		guint n = ad_labels_type_nearness(
			ctx->labels, g_ptr_array_index(cands, i), path, &entry);

		if (n > max) {
			max = n;
			best = (int)i;
			if (ret_entry) {
				g_free(*ret_entry);
				*ret_entry = g_steal_pointer(&entry);
			}
		}
	}
	return best;
}

void ad_file_add_fcontext_commands(AdSuggestion *s, const char *type, const char *spec,
	const char *path, gboolean subtree)
{
	ad_suggestion_add_command(s, "semanage", "fcontext", "-a", "-t", type, "--", spec, NULL);
	if (subtree)
		ad_suggestion_add_command(s, "restorecon", "-R", "-v", "--", path, NULL);
	else
		ad_suggestion_add_command(s, "restorecon", "-v", "--", path, NULL);
}

void ad_file_add_lookup_command(AdSuggestion *s, const AdDenial *d, const char *stype)
{
	g_autoptr(GString) perms = g_string_new(NULL);

	for (guint i = 0; i < d->perms->len; i++)
		g_string_append_printf(perms, "%s%s", i ? "," : "",
			(const char *)g_ptr_array_index(d->perms, i));
	ad_suggestion_add_command(
		s, "sesearch", "-A", "-s", stype, "-c", d->tclass, "-p", perms->str, NULL);
}

/* @m rendered in the writer's language; owned */
static char *rendered(AdMsg *m)
{
	char *t = ad_msg_render(m);

	ad_msg_free(m);
	return t ? t : g_strdup("");
}

AdMsg *ad_file_perm_words_msg(const AdDenial *d)
{
	AdMsg *m = ad_msg_new();

	for (guint i = 0; i < d->perms->len; i++) {
		if (i && i + 1 == d->perms->len)
			ad_msg_add(m, N_(" and "));
		else if (i)
			ad_msg_add_text(m, ", ");
		ad_msg_add_text(m, g_ptr_array_index(d->perms, i));
	}
	return m;
}

char *ad_file_perm_words(const AdDenial *d)
{
	return rendered(ad_file_perm_words_msg(d));
}

AdMsg *ad_file_type_list_msg(GPtrArray *types, guint from, guint max)
{
	AdMsg *m = ad_msg_new();
	guint n = 0;

	for (guint i = from; types && i < types->len && n < max; i++, n++) {
		if (n)
			ad_msg_add_text(m, ", ");
		ad_msg_add_text(m, g_ptr_array_index(types, i));
	}
	if (types && types->len > from + n)
		ad_msg_add_plural(m, " and %u more", " and %u more",
				  types->len - from - n, types->len - from - n);
	return m;
}

char *ad_file_type_list(GPtrArray *types, guint from, guint max)
{
	return rendered(ad_file_type_list_msg(types, from, max));
}

char *ad_file_display(const char *path)
{
	/* texts are plain text, escaped where shown; JSON needs valid UTF-8 */
	return g_utf8_validate(path, -1, NULL) ? g_strdup(path) : ad_escape_str(path);
}
