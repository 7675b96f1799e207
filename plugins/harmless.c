// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * harmless: denials that cost nothing, which experts silence rather than
 * allow.  Two kinds are told from the records themselves:
 *
 * - the system call succeeded (SYSCALL success=yes) although the access
 *   was blocked: the kernel asked, was refused and took another way, as
 *   it does for capability checks tried before a fallback (sys_admin,
 *   checkpoint_restore, dac_read_search, net_admin ...).  A permissive
 *   record says success=yes whatever happened, so only a blocked one
 *   counts; an execve is left to the leaks plugin (descriptors closed
 *   while the new program starts);
 * - an interpreter writing a byte-code cache next to the library it
 *   compiled (__pycache__, *.pyc): Python goes on without the cache.
 *
 * The answer is a dontaudit module that hides exactly this access, ranked
 * before anything that allows it (AdSuggestion.harmless): a capability or
 * write access to a system directory is never the first thing offered.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

/* what writing a cache file asks for; anything else is not a cache write */
static const char *const cache_perms[] = {
	"write", "add_name", "create", "remove_name", "rename", "setattr", "open", "append",
	"unlink",
};

static gboolean only_perms(const AdDenial *d, const char *const *list, gsize n)
{
	for (guint i = 0; i < d->perms->len; i++) {
		gboolean found = FALSE;

		for (gsize j = 0; j < n && !found; j++)
			found = strcmp(g_ptr_array_index(d->perms, i), list[j]) == 0;
		if (!found)
			return FALSE;
	}
	return TRUE;
}

/* TRUE when @b (a path or a name) is a byte-code cache: __pycache__, *.pyc */
static gboolean is_bytecode_cache(AdBytes b)
{
	g_autofree char *s = NULL;

	if (!b.data || !b.len || memchr(b.data, '\0', b.len))
		return FALSE;
	s = g_strndup(b.data, b.len);
	return strstr(s, "__pycache__") || g_str_has_suffix(s, ".pyc") ||
	       strstr(s, ".pyc.");
}

static int analyze_harmless(const AdDenial *d, const AdVerdict *v, AdContext *ctx,
			    GPtrArray *ret)
{
	g_autofree char *stype = NULL, *name = NULL, *pp = NULL;
	g_autoptr(GString) perms = g_string_new(NULL);
	gboolean fell_back, cache;
	AdSuggestion *s;

	(void)v;
	if (!d->perms || !d->perms->len || !d->tclass)
		return 0;
	fell_back = d->success == 1 && d->permissive == 0 && d->syscall &&
		    strcmp(d->syscall, "execve") != 0 && strcmp(d->syscall, "execveat") != 0;
	cache = (ad_class_is_file(d->tclass)) &&
		only_perms(d, cache_perms, G_N_ELEMENTS(cache_perms)) &&
		(is_bytecode_cache(d->path) || is_bytecode_cache(d->name));
	if (!fell_back && !cache)
		return 0;
	stype = ad_denial_stype(d);
	if (!stype)
		return 0;
	for (guint i = 0; i < d->perms->len; i++)
		g_string_append_printf(perms, "%s%s", i ? " " : "",
				       (char *)g_ptr_array_index(d->perms, i));
	name = ad_module_name(d, "_dontaudit");
	pp = g_strdup_printf("%s.pp", name);
	s = ad_suggestion_new("harmless", AD_FIX_DONTAUDIT, 0.8, AD_LEVEL_GREEN);
	s->harmless = TRUE;
	if (cache) {
		ad_suggestion_set_if(s, _("If the program works (an interpreter writing a "
					  "byte-code cache such as __pycache__ or .pyc)"));
		ad_suggestion_set_then(s,
			_("Then this denial costs nothing: the interpreter could not save "
			  "the compiled form of a module next to its source and compiles it "
			  "in memory instead. Do not let %s write there; hide the denial with "
			  "a dontaudit module, which allows nothing (or have the cache "
			  "written at install time, or elsewhere: PYTHONPYCACHEPREFIX)."),
			stype);
	} else {
		ad_suggestion_set_if(s, _("If the program works (the call succeeded although %s "
					  "was refused)"), perms->str);
		ad_suggestion_set_then(s,
			_("Then this denial costs nothing: the record says the system call "
			  "succeeded (success=yes) while the access was blocked, so the "
			  "kernel checked %s, was refused and went on another way. Experts "
			  "silence such checks rather than allow them: the dontaudit module "
			  "hides this access of %s and allows nothing."),
			perms->str, stype);
	}
	ad_suggestion_add_allow_command(s, d, ctx, (const char *const[]){ "-D", "-M", name,
									  NULL });
	ad_suggestion_add_command(s, "semodule", "-X", "300", "-i", pp, NULL);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_harmless = {
	.id = "harmless",
	.priority = 7,
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_harmless,
};
