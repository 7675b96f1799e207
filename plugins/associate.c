// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * associate (with setroubleshoot's filesystem_associate): a file was to
 * get a label that cannot label files.  Either a program or a user
 * relabeled it with a type that is not a file type (a domain or port
 * type: relabelto, or filesystem associate with the file's new type as
 * the source), or a copy kept the label of the file system it came from
 * (nfs_t, tmpfs_t, ...: cp -a, cp --preserve=context, rsync -X, tar
 * --selinux).  Whether a type is a file type or a file system type comes
 * from the policy's file_type and filesystem_type attributes.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "escape.h"
#include "file-labels.h"
#include "plugins.h"

static int analyze_associate(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			     GPtrArray *ret)
{
	g_autofree char *stype = ad_denial_stype(d);
	g_autofree char *ttype = ad_denial_ttype(d);
	g_autofree char *path = NULL, *shown = NULL;
	gboolean nameless;	/* shown is "the file", a msgid */
	const char *label; /* the label that cannot be set */
	AdSuggestion *s;

	if (d->type != AD_DENIAL_AVC || !stype || !ttype)
		return 0;
	if (strcmp(d->tclass, "filesystem") == 0 && ad_denial_has_perm(d, "associate"))
		label = stype; /* the file's new label is the subject here */
	else if (ad_class_is_file(d->tclass) && ad_denial_has_perm(d, "relabelto"))
		label = ttype;
	else
		return 0;
	if (!ad_policy_has_type(ctx->policy, label))
		return 0; /* an unknown type: the verdict says so */
	path = ad_denial_path_str(d);
	shown = path	       ? ad_file_display(path)
		: d->name.data ? ad_escape_bytes(d->name.data, d->name.len)
			       : g_strdup(N_("the file"));
	nameless = !path && !d->name.data;

	if (ad_policy_type_has_attribute(ctx->policy, label, "filesystem_type")) {
		s = ad_suggestion_new("associate", AD_FIX_CONFIG, 0.8, AD_LEVEL_GREEN);
		ad_suggestion_set_if(
			s, N_("If %s was copied or moved from another file system"), shown);
		if (nameless)
			ad_suggestion_if_arg_msgid(s, 0);
		ad_suggestion_set_then(s,
			N_("Then copy it without keeping its SELinux label: %s "
			  "is the label of a whole file system (such as NFS, "
			  "CIFS or tmpfs), not one a file can carry here. Use "
			  "plain cp instead of cp -a or cp --preserve=context, "
			  "rsync without -X, tar without --selinux; or copy with "
			  "cp -Z, which gives the copy its default label."),
			label);
		g_ptr_array_add(ret, s);
		return 1;
	}
	if (ad_policy_type_has_attribute(ctx->policy, label, "file_type"))
		return 0;
	s = ad_suggestion_new("associate", AD_FIX_CONFIG, 0.8, AD_LEVEL_GREEN);
	ad_suggestion_set_if(s, N_("If you (or a program) tried to label %s with %s"), shown, label);
	ad_suggestion_set_then(s,
		N_("Then choose a file type instead: %s is not a type for "
		  "files (the policy does not give it the file_type "
		  "attribute), so no file may carry it. To make %s usable "
		  "by a program, label it with a file type that program's "
		  "domain may use; the file types are listed by the command "
		  "below (setools)."),
		label, shown);
	if (nameless) {
		ad_suggestion_if_arg_msgid(s, 0);
		ad_suggestion_then_arg_msgid(s, 1);
	}
	ad_suggestion_add_command(s, "seinfo", "-a", "file_type", "-x", NULL);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_associate = {
	.id = "associate",
	.priority = 100,
	.perms = AD_NAMES("associate", "relabelto"),
	.reasons = AD_REASONS_DENIED,
	.analyze = analyze_associate,
};
