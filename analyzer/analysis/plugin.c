// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plugin host: runs the cause plugins and the rule book on a denial
 * and ranks what they suggest.
 */
#include <string.h>

#include "plugin.h"
#include "analysis/proof.h"
#include "analysis/rules.h"

const AdPlugin *ad_plugin_find(const char *id)
{
	for (guint i = 0; ad_plugin_table[i]; i++)
		if (strcmp(ad_plugin_table[i]->id, id) == 0)
			return ad_plugin_table[i];
	return NULL;
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

		if (x->kind == AD_FIX_MODULE && strcmp(x->plugin, "catchall") == 0)
			g_ptr_array_remove_index(s, i);
		else
			i++;
	}
}

GPtrArray *ad_analyze_denial(AdContext *ctx, const AdDenial *d, const AdVerdict *v,
			     guint *ret_failures)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);
	guint failures = 0;

	/* plugins may explain other accesses, which can evict a borrowed verdict */
	ad_verdict_ref(v);

	for (guint i = 0; ad_plugin_table[i]; i++) {
		g_autoptr(GPtrArray) mine =
			g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);
		int r = ad_plugin_table[i]->analyze(d, v, ctx, mine);

		if (r < 0) {
			/* a failing plugin contributes nothing, the others go on */
			failures++;
			continue;
		}
		g_ptr_array_extend_and_steal(out, g_steal_pointer(&mine));
	}
	if (ctx->rules)
		ad_rule_book_apply(ctx->rules, ctx, d, v, out);
	drop_module_beside_attack(out);
	/* dedup first, so that a fix said twice is proved once */
	dedup(out);
	ad_suggestions_prove(ctx, d, v, out);
	ad_suggestions_sort(out);
	dedup(out);
	if (ret_failures)
		*ret_failures = failures;
	ad_verdict_unref(v);
	return out;
}

AdLevel ad_suggestions_level(GPtrArray *s)
{
	for (guint i = 0; i < s->len; i++)
		if (((AdSuggestion *)g_ptr_array_index(s, i))->level == AD_LEVEL_RED)
			return AD_LEVEL_RED;
	if (s->len && ((AdSuggestion *)g_ptr_array_index(s, 0))->level == AD_LEVEL_GREEN)
		return AD_LEVEL_GREEN;
	return AD_LEVEL_YELLOW;
}

char *ad_denial_path_str(const AdDenial *d)
{
	gsize len = d->path.len;
	const char *p = d->path.data;

	if (!len || p[0] != '/' || memchr(p, '\0', len))
		return NULL;
	return g_strndup(p, len);
}

gboolean ad_denial_has_perm(const AdDenial *d, const char *perm)
{
	for (guint i = 0; d->perms && i < d->perms->len; i++)
		if (strcmp(g_ptr_array_index(d->perms, i), perm) == 0)
			return TRUE;
	return FALSE;
}

gboolean ad_denial_has_any_perm(const AdDenial *d, const char *const *perms)
{
	for (guint i = 0; perms[i]; i++)
		if (ad_denial_has_perm(d, perms[i]))
			return TRUE;
	return FALSE;
}

char *ad_denial_stype(const AdDenial *d)
{
	return ad_context_type(d->scontext);
}

char *ad_denial_ttype(const AdDenial *d)
{
	return ad_context_type(d->tcontext);
}

char *ad_module_name(const char *type, gsize max_base, const char *suffix)
{
	GString *s = g_string_new("my_");
	gsize len = strlen(type);

	if (len > 2 && g_str_has_suffix(type, "_t"))
		len -= 2;
	for (gsize i = 0; i < len && s->len < max_base; i++)
		g_string_append_c(s, g_ascii_isalnum(type[i]) ? g_ascii_tolower(type[i]) : '_');
	g_string_append(s, suffix);
	return g_string_free(s, FALSE);
}

gboolean ad_class_is_file(const char *tclass)
{
	static const char *const classes[] = {
		"file", "dir", "lnk_file", "chr_file", "blk_file", "sock_file", "fifo_file",
	};

	for (guint i = 0; tclass && i < G_N_ELEMENTS(classes); i++)
		if (strcmp(classes[i], tclass) == 0)
			return TRUE;
	return FALSE;
}
