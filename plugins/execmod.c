// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execmod: a process changed code of a file it had mapped (file
 * { execmod }).  A shared library with text relocations (built without
 * -fPIC) needs this when it is loaded; the policy lets the domain do it
 * on libraries labelled textrel_shlib_t.  Anything else modifying mapped
 * code is suspicious.
 *
 * Whether the library really has text relocations is not checked:
 * setroubleshoot ran eu-readelf on the file, which fails silently when
 * the tool is missing and reads an attacker's file as root; the text says
 * how to check instead.  The label to offer comes from the policy (the
 * types the domain may execmod; textrel_shlib_t when it is one of them)
 * and file_contexts (a relabel is enough when it already expects it).
 */
#include <string.h>

#include <glib/gi18n.h>

#include "escape.h"
#include "file-labels.h"
#include "plugins.h"

#define AD_TEXTREL_TYPE "textrel_shlib_t"

static gboolean contains(GPtrArray *names, const char *name)
{
	return names && g_ptr_array_find_with_equal_func(names, name, g_str_equal, NULL);
}

static int analyze_execmod(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			   GPtrArray *ret)
{
	static const char *const perms[] = { "execmod" };
	g_autofree char *stype = NULL, *ttype = NULL, *path = NULL, *spec = NULL;
	g_autofree char *shown = NULL, *expected = NULL;
	g_autoptr(GPtrArray) allowed = NULL;
	gboolean textrel;
	AdSuggestion *s;

	stype = ad_denial_stype(d);
	ttype = ad_denial_ttype(d);
	if (!stype || !ttype)
		return 0;
	/* a container's path is not the host's: nothing to relabel there */
	path = ad_denial_in_container(ctx, d) ? NULL : ad_denial_path_str(d);
	if (path) {
		spec = ad_labels_fcontext_spec(ctx->labels, path, FALSE);
		shown = ad_bytes_are_clean(path, strlen(path)) ? g_strdup(path)
								: ad_escape_str(path);
	}
	allowed = ad_policy_types_allowed(ctx->policy, stype, "file", perms, 1, "file_type");

	textrel = strcmp(ttype, AD_TEXTREL_TYPE) != 0 &&
		  ad_policy_has_type(ctx->policy, AD_TEXTREL_TYPE) &&
		  contains(allowed, AD_TEXTREL_TYPE);
	if (path && !spec && textrel) {
		/* control bytes: no file_contexts line can name it, and no command is offered */
		s = ad_suggestion_new("execmod", AD_FIX_FCONTEXT, 0.3, AD_LEVEL_YELLOW);
		ad_suggestion_set_if(s, N_("If you trust %s and want %s to load it although it "
					  "has text relocations"), shown, stype);
		ad_suggestion_set_then(s, N_("Then move it to a path without control characters "
					    "and label it %s there: file_contexts cannot name this "
					    "path. The control characters are themselves "
					    "suspicious: check where the file came from."),
				       AD_TEXTREL_TYPE);
		g_ptr_array_add(ret, s);
		return 1;
	}
	if (path && textrel) {
		if (ctx->labels)
			expected = ad_labels_expected_type(ctx->labels, path, 0);
		if (g_strcmp0(expected, AD_TEXTREL_TYPE) == 0) {
			s = ad_suggestion_new("execmod", AD_FIX_RELABEL, 0.6, AD_LEVEL_GREEN);
			ad_suggestion_set_if(s, N_("If you want %s to load %s, a library with text "
						  "relocations"), stype, shown);
			ad_suggestion_set_then(s, N_("Then restore its label: file_contexts already "
						    "gives it %s, which %s may modify when loading "
						    "it; it is labelled %s now."),
					       AD_TEXTREL_TYPE, stype, ttype);
		} else {
			s = ad_suggestion_new("execmod", AD_FIX_FCONTEXT, 0.5, AD_LEVEL_YELLOW);
			ad_suggestion_set_if(s, N_("If you trust %s and want %s to load it although "
						  "it has text relocations"), shown, stype);
			ad_suggestion_set_then(s, N_("Then label it %s, the type of libraries whose "
						    "code is patched when they are loaded. "
						    "avcdoctor did not check that the file has "
						    "text relocations (`readelf -d FILE` lists "
						    "TEXTREL when it does): if it has none, the "
						    "program modified mapped code, which is a sign "
						    "of compromise. Better still, ask for the "
						    "library to be built with -fPIC."),
					       AD_TEXTREL_TYPE);
			ad_suggestion_add_command(s, "semanage", "fcontext", "-a", "-t",
						  AD_TEXTREL_TYPE, "--", spec, NULL);
		}
		ad_suggestion_add_command(s, "restorecon", "-v", "--", path, NULL);
		g_ptr_array_add(ret, s);
		return 1;
	}

	s = ad_suggestion_new("execmod", AD_FIX_REPORT_BUG, v->booleans && v->booleans->len
								    ? 0.3 : 0.4,
			      AD_LEVEL_YELLOW);
	ad_suggestion_set_if(s, N_("If you did not expect %s to modify the code of %s"), stype,
			     shown ? shown : ttype);
	if (strcmp(ttype, AD_TEXTREL_TYPE) == 0)
		ad_suggestion_set_then(s, N_("Then report it: the file is already labelled %s, "
					    "but this policy does not let %s patch such "
					    "libraries. If the program is not expected to load "
					    "it, it may have been compromised."),
				       AD_TEXTREL_TYPE, stype);
	else if (!path)
		ad_suggestion_set_then(s, N_("Then find the file (the record names no path; "
					    "ausearch -i shows the event's PATH records) and check "
					    "whether it is a library with text relocations "
					    "(`readelf -d FILE` lists TEXTREL): such a library "
					    "needs the label %s, if %s may use it. A program that "
					    "modifies mapped code otherwise may have been "
					    "compromised: investigate and report it."),
				       AD_TEXTREL_TYPE, stype);
	else
		ad_suggestion_set_then(s, N_("Then report it: %s may not patch the code of "
					    "libraries under any label of this policy, so only a "
					    "local policy module would allow it. If the program "
					    "is not expected to do this, it may have been "
					    "compromised."), stype);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_execmod = {
	.id = "execmod",
	.priority = 10,
	.classes = AD_NAMES("file"),
	.perms = AD_NAMES("execmod"),
	.reasons = AD_REASONS_RULE,
	.analyze = analyze_execmod,
};
