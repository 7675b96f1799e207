// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plugin host: runs the cause plugins and the rule book on a denial
 * and ranks what they suggest.
 */
#include <string.h>
#include <sys/stat.h>

#include "plugin.h"
#include "analysis/proof.h"
#include "analysis/safety.h"
#include "analysis/rules.h"
#include "read/signature.h"

const AdPlugin *ad_plugin_find(const char *id)
{
	for (guint i = 0; ad_plugin_table[i]; i++)
		if (strcmp(ad_plugin_table[i]->id, id) == 0)
			return ad_plugin_table[i];
	return NULL;
}

/* TRUE when @name is in the NULL-terminated @list */
static gboolean in_list(const char *const *list, const char *name)
{
	for (guint i = 0; name && list[i]; i++)
		if (strcmp(list[i], name) == 0)
			return TRUE;
	return FALSE;
}

gboolean ad_plugin_wants(const AdPlugin *p, const AdDenial *d, const AdVerdict *v)
{
	if (d->granted || !v)
		return FALSE;
	if (p->classes && !in_list(p->classes, d->tclass))
		return FALSE;
	if (p->reasons && !(p->reasons & AD_REASON_BIT(v->reason)))
		return FALSE;
	if (p->perms) {
		gboolean any = FALSE;

		for (guint i = 0; !any && d->perms && i < d->perms->len; i++)
			any = in_list(p->perms, g_ptr_array_index(d->perms, i));
		if (!any)
			return FALSE;
	}
	return TRUE;
}

/* keeps the first of two suggestions with the same commands (plugin and rule agree) */
static gboolean same_commands(const AdSuggestion *a, const AdSuggestion *b)
{
	if (a->kind != b->kind || a->commands->len != b->commands->len || !a->commands->len)
		return FALSE;
	for (guint i = 0; i < a->commands->len; i++)
		if (!g_strv_equal(g_ptr_array_index(a->commands, i),
				  g_ptr_array_index(b->commands, i)))
			return FALSE;
	return TRUE;
}

static void dedup(GPtrArray *s)
{
	for (guint i = 0; i < s->len; i++)
		for (guint j = i + 1; j < s->len;)
			if (same_commands(g_ptr_array_index(s, i), g_ptr_array_index(s, j)))
				g_ptr_array_remove_index(s, j);
			else
				j++;
}

/*
 * A denial the policy's design expects (a plugin said so from the
 * policy's own attributes) is neither an intrusion nor a missing rule:
 * intrusion warnings from generic rules and local modules that would
 * loosen what the design keeps closed are dropped.
 */
static void drop_beside_expected(GPtrArray *s)
{
	gboolean expected = FALSE;

	for (guint i = 0; i < s->len && !expected; i++)
		expected = ((AdSuggestion *)g_ptr_array_index(s, i))->expected;
	if (!expected)
		return;
	for (guint i = 0; i < s->len;) {
		const AdSuggestion *x = g_ptr_array_index(s, i);

		if (!x->expected && (x->kind == AD_FIX_ATTACK || x->level == AD_LEVEL_RED ||
				     x->kind == AD_FIX_MODULE || x->adds_rules))
			g_ptr_array_remove_index(s, i);
		else
			i++;
	}
}

/* a possible intrusion is investigated, not turned into a local module */
static void drop_module_beside_attack(GPtrArray *s)
{
	gboolean attack = FALSE;

	for (guint i = 0; i < s->len && !attack; i++)
		attack = ((AdSuggestion *)g_ptr_array_index(s, i))->level == AD_LEVEL_RED;
	if (!attack)
		return;
	for (guint i = 0; i < s->len;) {
		const AdSuggestion *x = g_ptr_array_index(s, i);

		if (x->kind == AD_FIX_MODULE)
			g_ptr_array_remove_index(s, i);
		else
			i++;
	}
}

/*
 * Labels first: when restorecon gives the target back the label
 * file_contexts says (a suggestion of the restorecon plugin with the type
 * it restores), a module granting the access on the current, wrong label
 * is dropped (restorecon offers what the restored label lacks itself,
 * proved with the relabel), and a boolean proved on the wrong label ranks
 * after the fixes on the right one.  Not for a customizable current type,
 * which someone may have set on purpose, nor when the label restored is a
 * generic one.
 */
static void labels_first(AdPluginEnv *ctx, const AdDenial *d, GPtrArray *s)
{
	g_autofree char *ttype = NULL;
	gboolean relabel = FALSE;

	for (guint i = 0; i < s->len && !relabel; i++) {
		const AdSuggestion *x = g_ptr_array_index(s, i);

		/* restoring a generic label (default_t) is no first step: nothing to put first */
		relabel = !x->note && x->new_type && g_strcmp0(x->plugin, "restorecon") == 0 &&
			  !ad_policy_file_type_is_generic(ctx->policy, x->new_type);
	}
	if (!relabel)
		return;
	ttype = ad_denial_ttype(d);
	if (ctx->labels && ttype && ad_labels_is_customizable(ctx->labels, ttype))
		return;
	for (guint i = 0; i < s->len;) {
		AdSuggestion *x = g_ptr_array_index(s, i);

		if (x->note || x->new_type || x->harmless || x->kind == AD_FIX_DONTAUDIT) {
			i++;
			continue;
		}
		if (x->adds_rules || x->kind == AD_FIX_MODULE) {
			g_ptr_array_remove_index(s, i);
			continue;
		}
		if (x->set_booleans && x->set_booleans->len)
			x->wrong_label = TRUE;
		i++;
	}
}

GPtrArray *ad_analyze_denial(AdPluginEnv *ctx, const AdDenial *d, const AdVerdict *v,
			     guint *ret_failures)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);
	guint failures = 0;

	/* plugins may explain other accesses, which can evict a borrowed verdict */
	ad_verdict_ref(v);

	for (guint i = 0; ad_plugin_table[i]; i++) {
		const AdPlugin *p = ad_plugin_table[i];
		g_autoptr(GPtrArray) mine = NULL;
		int r;

		if (!ad_plugin_wants(p, d, v))
			continue;
		mine = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);
		r = p->analyze(d, v, ctx, mine);
		if (r < 0) {
			/* a failing plugin contributes nothing, the others go on */
			failures++;
			continue;
		}
		for (guint j = 0; j < mine->len; j++) {
			AdSuggestion *s = g_ptr_array_index(mine, j);

			if (g_strcmp0(s->plugin, p->id) != 0) {
				g_free(s->plugin);
				s->plugin = g_strdup(p->id);
			}
			s->priority = p->priority;
		}
		g_ptr_array_extend_and_steal(out, g_steal_pointer(&mine));
	}
	if (ctx->rules)
		ad_rule_book_apply(ctx->rules, ctx, d, v, out);
	drop_beside_expected(out);
	drop_module_beside_attack(out);
	labels_first(ctx, d, out);
	/* dedup first, so that a fix said twice is proved once */
	dedup(out);
	ad_suggestions_prove(ctx, d, v, out);
	ad_suggestions_sort(out);
	dedup(out);
	ad_safety_judge(ctx, d, out);
	if (ret_failures)
		*ret_failures = failures;
	ad_verdict_unref(v);
	return out;
}

/* the attributes of the domains that run inside a container */
static const char *const container_attributes[] = {
	"container_domain", "svirt_sandbox_domain", "sandbox_net_domain",
};
/* the same by name, for a policy without those attributes */
static const char *const container_domains[] = {
	"container_t", "container_init_t", "container_engine_t", "container_kvm_t",
	"container_userns_t", "svirt_lxc_net_t",
};

gboolean ad_denial_in_container(AdPluginEnv *ctx, const AdDenial *d)
{
	g_autofree char *stype = ad_denial_stype(d);
	const char *primary;
	gboolean attributes = FALSE;

	if (!stype || !ctx || !ctx->policy)
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(container_attributes); i++) {
		if (!ad_policy_type_is_attribute(ctx->policy, container_attributes[i]))
			continue;
		attributes = TRUE;
		if (ad_policy_type_has_attribute(ctx->policy, stype, container_attributes[i]))
			return TRUE;
	}
	if (attributes)
		return FALSE;
	/* an alias (svirt_lxc_net_t of container_t) by its primary name too */
	primary = ad_policy_type_primary(ctx->policy, stype);
	for (guint i = 0; i < G_N_ELEMENTS(container_domains); i++)
		if (strcmp(stype, container_domains[i]) == 0 ||
		    (primary && strcmp(primary, container_domains[i]) == 0))
			return TRUE;
	return FALSE;
}

/*
 * The domain @d's program runs in when started properly, by the naming
 * convention of the policy: its file type by file_contexts, FOO_exec_t,
 * names FOO_t.  A suspect record's exe is not trusted.  Owned, or NULL;
 * @ret_exec_type (may be NULL) gets the file type.
 */
char *ad_denial_program_domain(AdPluginEnv *ctx, const AdDenial *d, char **ret_exec_type)
{
	g_autofree char *exe = NULL, *etype = NULL;
	char *domain;

	if (!ctx->labels || !d->exe.data || d->suspect)
		return NULL;
	exe = g_strndup(d->exe.data, d->exe.len);
	if (exe[0] != '/' || strlen(exe) != d->exe.len)
		return NULL;
	etype = ad_labels_expected_type(ctx->labels, exe, S_IFREG);
	if (!etype || !g_str_has_suffix(etype, "_exec_t"))
		return NULL;
	domain = g_strdup_printf("%.*s_t", (int)(strlen(etype) - strlen("_exec_t")), etype);
	if (ret_exec_type)
		*ret_exec_type = g_steal_pointer(&etype);
	return domain;
}

char *ad_module_name(const AdDenial *d, const char *suffix)
{
	g_autofree char *type = ad_denial_stype(d);
	g_autofree char *id = ad_denial_signature(d);
	GString *s = g_string_new("avcdoctor_");
	gsize len = type ? strlen(type) : 0;

	if (len > 2 && g_str_has_suffix(type, "_t"))
		len -= 2;
	for (gsize i = 0; i < len && i < AD_MODULE_NAME_DOMAIN_MAX; i++)
		g_string_append_c(s, g_ascii_isalnum(type[i]) ? g_ascii_tolower(type[i]) : '_');
	g_string_append_printf(s, "_%.8s%s", id, suffix);
	return g_string_free(s, FALSE);
}


/* "read,open": the permissions as `allow --perm` takes them */
static char *perm_list(const AdDenial *d)
{
	GString *p = g_string_new(NULL);

	for (guint i = 0; d->perms && i < d->perms->len; i++)
		g_string_append_printf(p, "%s%s", i ? "," : "",
				       (char *)g_ptr_array_index(d->perms, i));
	return g_string_free(p, FALSE);
}

gboolean ad_suggestion_add_allow_command(AdSuggestion *s, const AdDenial *d, AdPluginEnv *ctx,
					 const char *const *options)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();
	g_autofree char *stype = ad_denial_stype(d);
	g_autofree char *ttype = ad_denial_ttype(d);
	g_autofree char *perms = perm_list(d);
	g_auto(GStrv) argv = NULL;
	gboolean from_stdin = FALSE;

	g_strv_builder_add_many(b, "avcdoctor", "allow", NULL);
	if (ctx->stored_alerts) {
		g_autofree char *id = ad_denial_signature(d);

		g_strv_builder_add_many(b, "--alert", id, NULL);
	} else {
		if (stype)
			g_strv_builder_add_many(b, "--source", stype, NULL);
		if (ttype)
			g_strv_builder_add_many(b, "--target", ttype, NULL);
		if (d->tclass)
			g_strv_builder_add_many(b, "--class", d->tclass, NULL);
		if (*perms)
			g_strv_builder_add_many(b, "--perm", perms, NULL);
	}
	for (guint i = 0; options && options[i]; i++)
		g_strv_builder_add(b, options[i]);
	if (!ctx->stored_alerts && !ctx->input_files) {
		g_strv_builder_add(b, AD_DEFAULT_AUDIT_LOG);
	} else if (!ctx->stored_alerts) {
		/* "--": a file named "-x" is a file, not an option */
		g_strv_builder_add(b, "--");
		for (guint i = 0; ctx->input_files[i]; i++) {
			g_strv_builder_add(b, ctx->input_files[i]);
			from_stdin |= strcmp(ctx->input_files[i], "-") == 0;
		}
	}
	argv = g_strv_builder_end(b);
	ad_suggestion_add_argv(s, (const char *const *)argv);
	return from_stdin;
}
