// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mounton: a file system is to be mounted on a directory (or file) whose
 * label is not a mount point's, and the label is the one file_contexts
 * gives the path (else restorecon is the fix).  Suggests a file context
 * for the mount point itself, not what is below it (that is another file
 * system once mounted), with the type file_contexts gives mount points
 * under /mnt, when the domain may mount on it; else another type the
 * domain may mount on.
 */
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "file-labels.h"
#include "plugins.h"

static gboolean in_list(GPtrArray *types, const char *t)
{
	for (guint i = 0; t && types && i < types->len; i++)
		if (strcmp(g_ptr_array_index(types, i), t) == 0)
			return TRUE;
	return FALSE;
}

static int analyze_mounton(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	static const char *const mounton[] = {"mounton"};
	g_autofree char *stype = NULL, *ttype = NULL, *path = NULL, *expected = NULL;
	g_autofree char *mnt = NULL, *spec = NULL, *shown = NULL, *others = NULL;
	g_autoptr(GPtrArray) allowed = NULL;
	g_autoptr(AdSuggestion) s = NULL;
	const char *best = NULL;

	if (d->type != AD_DENIAL_AVC || !ctx->labels)
		return 0;
	stype = ad_denial_stype(d);
	ttype = ad_denial_ttype(d);
	if (!stype || !ttype || !(path = ad_file_denial_path(ctx, d)) || ad_path_is_standard_dir(path))
		return 0;
	allowed = ad_policy_types_allowed(ctx->policy, stype, d->tclass, mounton, 1, "file_type");
	if (!allowed || !allowed->len)
		return 0;
	expected = ad_labels_expected_type(ctx->labels, path, ad_class_to_mode(d->tclass));
	/* restorecon gives it a label it may mount on: the restorecon plugin says so */
	if (expected && strcmp(expected, ttype) != 0 && in_list(allowed, expected))
		return 0;
	mnt = ad_labels_expected_type(ctx->labels, "/mnt/avcdoctor-unclaimed-name", S_IFDIR);
	if (in_list(allowed, mnt)) {
		best = mnt;
	} else {
		for (guint i = 0; !best && i < allowed->len; i++) {
			const char *t = g_ptr_array_index(allowed, i);

			if (ad_policy_type_has_attribute(ctx->policy, t, "mountpoint") &&
				!ad_policy_type_has_attribute(ctx->policy, t, "filesystem_type"))
				best = t;
		}
	}
	if (!best)
		return 0;
	spec = ad_labels_fcontext_spec(ctx->labels, path, FALSE);
	shown = ad_file_display(path);
	others = allowed->len > 1 ? ad_file_type_list(allowed, 0, 6) : g_strdup("");
	s = ad_suggestion_new("mounton", AD_FIX_FCONTEXT, 0.6, AD_LEVEL_GREEN);
	ad_suggestion_set_if(s, N_("If you want to mount a file system on %s"), shown);
	ad_suggestion_set_then(s,
		N_("Then label the mount point %s, a type %s may mount on; "
		  "%s is %s%s. Only the mount point is labeled: what is "
		  "mounted on it keeps its own labels.%s%s%s"),
		best, stype, shown, ttype,
		expected && strcmp(expected, ttype) == 0 ? N_(", the label file_contexts gives it")
							 : "",
		*others ? N_(" Types it may mount on: ") : "", others, *others ? "." : "");
	ad_suggestion_then_arg_msgid(s, 4);
	ad_suggestion_then_arg_msgid(s, 5);
	if (*others)
		ad_suggestion_then_arg(s, 6, ad_file_type_list_msg(allowed, 0, 6));
	if (spec) {
		ad_suggestion_add_command(
			s, "semanage", "fcontext", "-a", "-t", best, "--", spec, NULL);
		ad_suggestion_add_command(s, "restorecon", "-v", "--", path, NULL);
	}
	g_ptr_array_add(ret, g_steal_pointer(&s));
	return 1;
}

const AdPlugin ad_plugin_mounton = {
	.id = "mounton",
	.priority = 10,
	.classes = AD_FILE_CLASSES,
	.perms = AD_NAMES("mounton"),
	.reasons = AD_REASONS_DENIED,
	.analyze = analyze_mounton,
};
