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
 *   compiled (__pycache__, *.pyc): Python goes on without the cache;
 * - executable memory (execmem) asked for by a regular-expression JIT that
 *   falls back to the interpreter when refused (PCRE2, GLib's
 *   G_REGEX_OPTIMIZE), in the programs where the policy's maintainers
 *   found it so and hid it (jit_fallbacks below; a JIT that does not fall
 *   back, Java's, JavaScript's, QEMU's TCG, is not in it).  A blocked
 *   execmem that succeeded anyway is the first kind already.
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

/*
 * Programs whose execmem comes from a regular-expression JIT that falls back
 * to the interpreter, by the name the kernel gives the process (comm: the
 * process sets it, which is good enough to hide a denial, never to allow
 * anything), with the maintainers' change that hid it.
 */
static const struct {
	const char *comm;
	const char *jit;
} jit_fallbacks[] = {
	/* fedora-selinux/selinux-policy#1566, "Dontaudit ftpd the execmem permission" */
	{ "proftpd", "PCRE's JIT" },
	/* #1767, "Dontaudit aide the execmem permission" (pcre2's JIT) */
	{ "aide", "PCRE2's JIT" },
	/* #2063, "dontaudit execmem for modemmanager" (g_regex_match_full) */
	{ "ModemManager", "GLib's regular-expression JIT" },
	/* #3208: libvirt's daemons use G_REGEX_OPTIMIZE; none needs execmem */
	{ "libvirtd", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	{ "virtqemud", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	{ "virtstoraged", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	{ "virtnetworkd", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	{ "virtnodedevd", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	{ "virtsecretd", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	{ "virtinterfaced", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	{ "virtnwfilterd", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	{ "virtproxyd", "GLib's G_REGEX_OPTIMIZE (PCRE2's JIT)" },
	/* syslog-ng's documentation: its PCRE filters JIT-compile (flags(disable-jit)) */
	{ "syslog-ng", "PCRE's JIT" },
};

/* the JIT of a program of jit_fallbacks asking for execmem alone, or NULL */
static const char *jit_fallback(const AdDenial *d)
{
	if (g_strcmp0(d->tclass, "process") != 0 || d->perms->len != 1 ||
	    !ad_denial_has_perm(d, "execmem") || !d->comm.data)
		return NULL;
	for (guint i = 0; i < G_N_ELEMENTS(jit_fallbacks); i++)
		if (d->comm.len == strlen(jit_fallbacks[i].comm) &&
		    memcmp(d->comm.data, jit_fallbacks[i].comm, d->comm.len) == 0)
			return jit_fallbacks[i].jit;
	return NULL;
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

static int analyze_harmless(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			    GPtrArray *ret)
{
	g_autofree char *stype = NULL, *name = NULL, *pp = NULL;
	g_autoptr(GString) perms = g_string_new(NULL);
	gboolean fell_back, cache;
	const char *jit = NULL;
	AdSuggestion *s;

	(void)v;
	if (!d->perms || !d->perms->len || !d->tclass)
		return 0;
	fell_back = d->success == 1 && d->permissive == 0 && d->syscall &&
		    strcmp(d->syscall, "execve") != 0 && strcmp(d->syscall, "execveat") != 0;
	cache = (ad_class_is_file(d->tclass)) &&
		only_perms(d, cache_perms, G_N_ELEMENTS(cache_perms)) &&
		(is_bytecode_cache(d->path) || is_bytecode_cache(d->name));
	if (!fell_back && !cache && !(jit = jit_fallback(d)))
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
	if (jit) {
		g_autofree char *comm = g_strndup(d->comm.data, d->comm.len);

		ad_suggestion_set_if(s, N_("If the program works (%s asking for executable memory "
					  "for %s)"), comm, jit);
		ad_suggestion_set_then(s,
			N_("Then this denial costs nothing: %s compiles regular expressions "
			  "to machine code when it may, and matches them without compiling "
			  "when it may not. The policy's maintainers hide this denial for "
			  "this program rather than let %s write and run code in memory; the "
			  "dontaudit module does the same and allows nothing."),
			jit, stype);
	} else if (cache) {
		ad_suggestion_set_if(s, N_("If the program works (an interpreter writing a "
					  "byte-code cache such as __pycache__ or .pyc)"));
		ad_suggestion_set_then(s,
			N_("Then this denial costs nothing: the interpreter could not save "
			  "the compiled form of a module next to its source and compiles it "
			  "in memory instead. Do not let %s write there; hide the denial with "
			  "a dontaudit module, which allows nothing (or have the cache "
			  "written at install time, or elsewhere: PYTHONPYCACHEPREFIX)."),
			stype);
	} else {
		ad_suggestion_set_if(s, N_("If the program works (the call succeeded although %s "
					  "was refused)"), perms->str);
		ad_suggestion_set_then(s,
			N_("Then this denial costs nothing: the record says the system call "
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
