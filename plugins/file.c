// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file: the target has no valid label (unlabeled_t: its label names
 * something the policy no longer defines, or file_t: it never got one,
 * e.g. a file system mounted from a system without SELinux).  Relabel the
 * path, and if many files are affected, the whole system at the next
 * boot.  unlabeled_t and file_t are the types of the policy's "unlabeled"
 * and "file" initial SIDs, which the policy interface does not expose:
 * the names are refpolicy's and Fedora's.  Whatever the verdict: a file
 * without a valid label is wrong also when the policy hides the access
 * (dontaudit, logged because dontaudit rules were disabled) or allows it.
 */
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "file-labels.h"
#include "plugins.h"

static gboolean is_unlabeled_type(const char *t)
{
	return t && (strcmp(t, "unlabeled_t") == 0 || strcmp(t, "file_t") == 0);
}

/*
 * file_contexts has no label for the path: a type the domain may use this
 * way, on evidence: the one file_contexts gives nearest the path (a
 * sibling, another instance of the same program's directory), else the
 * domain's own; proved like the other fixes.  Without either, how to
 * choose one, with the command listing the types.
 */
static AdSuggestion *no_entry(const AdDenial *d, AdPluginEnv *ctx, const char *stype,
	const char *path, const char *shown)
{
	g_autoptr(GPtrArray) cands = ad_file_candidates(ctx, d, stype, path, NULL);
	gboolean dir = g_strcmp0(d->tclass, "dir") == 0;
	g_autofree char *entry = NULL, *spec = NULL, *list = NULL;
	const char *type = NULL;
	AdSuggestion *s;
	int near;

	if (!ad_path_is_standard_dir(path))
		spec = ad_fcontext_spec(path, dir);
	near = ad_file_nearest_candidate(ctx, cands, path, &entry);
	if (near >= 0)
		type = g_ptr_array_index(cands, near);
	else if (cands && cands->len &&
		 ad_file_type_matches_domain(stype, g_ptr_array_index(cands, 0)))
		type = g_ptr_array_index(cands, 0);
	if (!type || !spec) {
		list = cands ? ad_file_type_list(cands, 0, 6) : g_strdup("");
		s = ad_suggestion_new("file", AD_FIX_CONFIG, 0.3, AD_LEVEL_YELLOW);
		ad_suggestion_set_if(s, N_("If you want to give %s a valid label"), shown);
		if (*list)
			ad_suggestion_set_then(s,
				N_("Then add a file context for it (semanage fcontext "
				  "-a) and restore it with restorecon: file_contexts "
				  "has no label for this path, so restorecon alone "
				  "leaves it alone. None of the types %s may use this "
				  "way is its own or given near this path, so which "
				  "one fits what the files are is your choice: %s. "
				  "The command below lists the rules that let %s do "
				  "this, with their types."),
				stype, list, stype);
		else
			ad_suggestion_set_then(s,
				N_("Then add a file context for it (semanage fcontext "
				  "-a) and restore it with restorecon: file_contexts "
				  "has no label for this path, so restorecon alone "
				  "leaves it alone. %s may use no file type this way "
				  "that could be offered; the command below lists the "
				  "rules that let it do this, with their types."),
				stype);
		if (*list)
			ad_suggestion_then_arg(s, 1, ad_file_type_list_msg(cands, 0, 6));
		ad_file_add_lookup_command(s, d, stype);
		return s;
	}
	s = ad_suggestion_new("file", AD_FIX_FCONTEXT, 0.4, AD_LEVEL_YELLOW);
	ad_suggestion_set_if(s, N_("If you want to give %s a valid label"), shown);
	if (entry)
		ad_suggestion_set_then(s,
			N_("Then label it %s, the type file_contexts gives near it "
			  "(%s), which %s may use this way: file_contexts has no "
			  "label for this path, so restorecon alone leaves it "
			  "alone. Check that %s fits what the files are."),
			type, entry, stype, type);
	else
		ad_suggestion_set_then(s,
			N_("Then label it %s, %s's own type for this access: "
			  "file_contexts has no label for this path, so restorecon "
			  "alone leaves it alone. Check that %s fits what the files "
			  "are."),
			type, stype, type);
	ad_file_add_fcontext_commands(s, type, spec, path, dir);
	return s;
}

static int analyze_file(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	g_autofree char *ttype = ad_denial_ttype(d);
	g_autofree char *stype = ad_denial_stype(d);
	g_autofree char *path = NULL, *expected = NULL, *shown = NULL;
	AdSuggestion *s;

	if (d->type != AD_DENIAL_AVC || !is_unlabeled_type(ttype) || !stype ||
	    !ad_policy_has_type(ctx->policy, stype))
		return 0;
	/* relabelto unlabeled_t is a program setting a bad label: the associate plugin's */
	if (ad_denial_has_perm(d, "relabelto"))
		return 0;
	path = ad_file_denial_path(ctx, d);
	if (path && ctx->labels)
		expected = ad_labels_expected_type(ctx->labels, path, ad_class_to_mode(d->tclass));
	if (path) {
		shown = ad_file_display(path);
		if (ctx->labels && !expected) {
			g_ptr_array_add(ret, no_entry(d, ctx, stype, path, shown));
		} else {
			const AdVerdict *after =
				expected ? ad_file_verdict_as(ctx, d, expected) : NULL;
			gboolean fixes = after && after->reason == AD_REASON_ALLOWED;

			s = ad_suggestion_new("file", AD_FIX_RELABEL, fixes || !after ? 0.7 : 0.4,
				AD_LEVEL_GREEN);
			ad_suggestion_set_if(s,
				N_("If you want to fix the label: %s is %s, it "
				  "has no valid SELinux label"),
				shown, ttype);
			if (!expected)
				ad_suggestion_set_then(
					s, N_("Then restore the default labels of the "
					     "path and everything below it. (No "
					     "file_contexts was available to check which "
					     "label it gets.)"));
			else if (fixes)
				ad_suggestion_set_then(s,
					N_("Then restore the default labels of the "
					  "path and everything below it: it gets %s, "
					  "which %s may use this way."),
					expected, stype);
			else
				ad_suggestion_set_then(s,
					N_("Then restore the default labels of the "
					  "path and everything below it: it gets %s. "
					  "%s may not do this on %s either (%s), so "
					  "the access stays denied after the "
					  "relabel."),
					expected, stype, expected, ad_reason_name(after->reason));
			ad_suggestion_add_command(s, "restorecon", "-R", "-v", "--", path, NULL);
			ad_suggestion_set_new_type(s, expected); /* what the proof tries */
			g_ptr_array_add(ret, s);
		}
	}
	/*
	 * Without a path (name=/ is the root of a mounted file system) this
	 * is the one fix offered: above "silence it" when the policy hides it.
	 */
	s = ad_suggestion_new("file", AD_FIX_RELABEL, path ? 0.3 : 0.5, AD_LEVEL_GREEN);
	ad_suggestion_set_if(s, N_("If many files have lost their labels (a policy was removed "
				  "or changed, or the file system was used without SELinux)"));
	ad_suggestion_set_then(s, N_("Then relabel the whole system: 'touch /.autorelabel' asks "
				    "for every file system to be relabeled at the next boot, "
				    "and 'reboot' restarts the machine now to do it. The relabel "
				    "can take a long time on large file systems."));
	ad_suggestion_add_command(s, "touch", "/.autorelabel", NULL);
	ad_suggestion_add_command(s, "reboot", NULL);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_file = {
	.id = "file",
	.priority = 70,
	.classes = AD_FILE_CLASSES,
	/* whatever the verdict: a mislabel is one also when the access is hidden or allowed */
	.reasons = 0,
	.analyze = analyze_file,
};
