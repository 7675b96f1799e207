// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fcontext (setroubleshoot's catchall_labels): the target carries a
 * generic label (default_t, etc_t, var_lib_t, mnt_t, ... as file_contexts
 * gives it to unclaimed names under standard directories), that label is
 * what file_contexts expects for the path (restorecon would not change
 * it), and the domain may use other file types this way: the data sits
 * where the policy expects nothing in particular.  Suggests a file context
 * for the location with the best of the domain's own types, and lists the
 * others; when none of its own fits, the shared type file_contexts gives
 * nearest the path (a sibling, another instance of the program's
 * directory), else no type: how to choose one, with the command listing
 * the types the domain may use this way.
 */
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "file-labels.h"
#include "plugins.h"

/* more candidates than this: the domain is broad, the choice a guess */
#define AD_FCONTEXT_MANY 150

/* @types without the one at @skip, borrowed: for listing the others */
static GPtrArray *without(GPtrArray *types, int skip)
{
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; i < types->len; i++)
		if ((int)i != skip)
			g_ptr_array_add(out, g_ptr_array_index(types, i));
	return out;
}

/*
 * None of the domain's own types fits: a shared type is offered only on
 * evidence, the one file_contexts gives nearest the path (another
 * instance of the same program's directory, a sibling: the type other
 * copies of this data have); else the choice is the administrator's, and
 * the suggestion says how to make it.
 */
static AdSuggestion *not_own_type(const AdDenial *d, AdPluginEnv *ctx, GPtrArray *cands,
	const char *stype, const char *ttype, const char *path, const char *dir,
	const char *spec, gboolean subtree)
{
	g_autofree char *entry = NULL, *shown = ad_file_display(dir);
	g_autofree char *perms = ad_file_perm_words(d), *list = NULL;
	int near = spec ? ad_file_nearest_candidate(ctx, cands, path, &entry) : -1;
	g_autoptr(GPtrArray) others = without(cands, near);
	AdSuggestion *s;

	list = ad_file_type_list(others, 0, 6);
	if (near < 0) {
		s = ad_suggestion_new("fcontext", AD_FIX_CONFIG, 0.2, AD_LEVEL_YELLOW);
		ad_suggestion_set_if(
			s, N_("If you want %s to have %s access on %s"), stype, perms, shown);
		ad_suggestion_if_arg(s, 1, ad_file_perm_words_msg(d));
		ad_suggestion_set_then(s,
			N_("Then give it a label %s may use this way, with a file "
			  "context (semanage fcontext -a) and restorecon. Its label "
			  "%s is the generic one file_contexts gives this location, "
			  "so restorecon alone would not change it. None of the "
			  "types %s may use this way is its own, and file_contexts "
			  "gives none of them near this path, so which one fits what "
			  "the files are is your choice: %s. The command below lists "
			  "the rules that let %s do this, with their types."),
			stype, ttype, stype, list, stype);
		ad_suggestion_then_arg(s, 3, ad_file_type_list_msg(others, 0, 6));
		ad_file_add_lookup_command(s, d, stype);
		return s;
	}
	s = ad_suggestion_new("fcontext", AD_FIX_FCONTEXT, 0.4, AD_LEVEL_YELLOW);
	ad_suggestion_set_if(s,
		subtree ? N_("If you want %s to have %s access on %s and the files in it")
			: N_("If you want %s to have %s access on %s"),
		stype, perms, shown);
	ad_suggestion_if_arg(s, 1, ad_file_perm_words_msg(d));
	{
		g_autoptr(AdMsg) then = ad_msg_new();
		const char *type = g_ptr_array_index(cands, near);

		ad_msg_add(then, N_("Then give it the label file_contexts gives near it: %s, "
			  "as for %s, which %s may use this way. Its label %s is "
			  "the generic one file_contexts gives this location, so "
			  "restorecon alone would not change it. None of the types "
			  "%s may use this way is its own: check that %s fits what "
			  "the files are."),
			type, entry, stype, ttype, stype, type);
		if (*list) {
			ad_msg_add(then, N_(" Other types %s may use this way: %s."), stype, list);
			ad_msg_set_arg(then, 1, ad_file_type_list_msg(others, 0, 6));
		}
		ad_suggestion_take_then(s, g_steal_pointer(&then));
		ad_file_add_fcontext_commands(s, type, spec, dir, subtree);
	}
	return s;
}

static int analyze_fcontext(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	/* transitions, relabels and the cases other plugins know better */
	static const char *const skip_perms[] = {
		"entrypoint",
		"execute_no_trans",
		"relabelto",
		"relabelfrom",
		"mounton",
		NULL,
	};
	g_autofree char *stype = NULL, *ttype = NULL, *path = NULL, *expected = NULL;
	g_autofree char *dir = NULL, *spec = NULL, *shown = NULL, *perms = NULL, *others = NULL;
	g_autoptr(GPtrArray) cands = NULL;
	g_autoptr(AdSuggestion) s = NULL;
	gboolean subtree, mine, broad;
	const char *best;

	if (d->type != AD_DENIAL_AVC || !ctx->labels || !d->perms || !d->perms->len ||
	    ad_denial_has_any_perm(d, skip_perms) || ad_file_is_swap_setup(d))
		return 0;
	stype = ad_denial_stype(d);
	ttype = ad_denial_ttype(d);
	if (!stype || !ttype || !(path = ad_file_denial_path(ctx, d)) || ad_path_is_standard_dir(path) ||
		ad_file_on_labelless_fs(ctx, d, ttype))
		return 0;
	expected = ad_labels_expected_type(ctx->labels, path, ad_class_to_mode(d->tclass));
	if (!expected || strcmp(expected, ttype) != 0 || !ad_file_type_is_generic(ctx, ttype))
		return 0;
	/*
	 * A login user's domain writing into a system location is not solved
	 * by labeling the location as the user's files.
	 */
	if (ad_policy_type_has_attribute(ctx->policy, stype, "userdomain"))
		return 0;
	cands = ad_file_candidates(ctx, d, stype, path, NULL);
	if (!cands || !cands->len)
		return 0;

	/* the directory when it holds the data too, else the one object */
	if (strcmp(d->tclass, "dir") == 0) {
		dir = g_strdup(path);
		subtree = TRUE;
	} else {
		g_autofree char *parent = g_path_get_dirname(path);
		g_autofree char *ptype = ad_labels_expected_type(ctx->labels, parent, S_IFDIR);

		subtree = !ad_path_is_standard_dir(parent) && g_strcmp0(ptype, ttype) == 0;
		dir = g_strdup(subtree ? parent : path);
	}
	spec = ad_labels_fcontext_spec(ctx->labels, dir, subtree);
	best = g_ptr_array_index(cands, 0);
	mine = ad_file_type_matches_domain(stype, best);
	shown = ad_file_display(dir);
	perms = ad_file_perm_words(d);
	others = ad_file_type_list(cands, 1, 5);

	if (!mine) {
		g_ptr_array_add(ret, not_own_type(d, ctx, cands, stype, ttype, path, dir, spec,
						  subtree));
		return 1;
	}
	/* a domain that may use very many types makes the best candidate a guess */
	broad = cands->len > AD_FCONTEXT_MANY;
	s = ad_suggestion_new("fcontext", AD_FIX_FCONTEXT, broad ? 0.3 : 0.5,
		broad ? AD_LEVEL_YELLOW : AD_LEVEL_GREEN);
	ad_suggestion_set_if(s,
		subtree ? N_("If you want %s to have %s access on %s and the "
			    "files in it")
			: N_("If you want %s to have %s access on %s"),
		stype, perms, shown);
	ad_suggestion_if_arg(s, 1, ad_file_perm_words_msg(d));
	{
		g_autoptr(AdMsg) then = ad_msg_new();

		ad_msg_add(then, N_("Then give it a label %s may use this way, such as "
			  "%s, with a file context and restorecon. Its label "
			  "%s is the generic one file_contexts gives this "
			  "location, so restorecon alone would not change "
			  "it."),
			stype, best, ttype);
		if (*others) {
			ad_msg_add(then, N_(" Other types %s may use this way: %s."), stype, others);
			ad_msg_set_arg(then, 1, ad_file_type_list_msg(cands, 1, 5));
		}
		if (broad)
			ad_msg_add_plural(then,
				" %s may use %u type this way, so this "
				"choice is a guess: check that %s fits what "
				"the files are.",
				" %s may use %u types this way, so this "
				"choice is a guess: check that %s fits what "
				"the files are.", cands->len,
				stype, cands->len, best);
		if (!spec)
			ad_msg_add(then, N_(" The path holds control characters, which a "
					"file context cannot name: no command is offered."));
		ad_suggestion_take_then(s, g_steal_pointer(&then));
	}
	if (spec)
		ad_file_add_fcontext_commands(s, best, spec, dir, subtree);
	g_ptr_array_add(ret, g_steal_pointer(&s));
	return 1;
}

const AdPlugin ad_plugin_fcontext = {
	.id = "fcontext",
	.priority = 5,
	/* devices are the device plugin's */
	.classes = AD_NAMES("file", "dir", "lnk_file", "sock_file", "fifo_file"),
	.reasons = AD_REASONS_DENIED,
	.analyze = analyze_fcontext,
};
