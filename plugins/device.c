// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * device: a device node has the generic device label (what file_contexts
 * gives an unknown name under /dev: device_t), so the policy does not
 * know what kind of device it is.  Lists the device types the domain may
 * use this way; when one of them is the domain's own, suggests a file
 * context for the node with it (udev labels new nodes from file_contexts
 * too); else the one file_contexts gives sibling nodes (/dev/frob[0-9]+
 * for /dev/frob7); else a type for the device is needed, from the
 * policy's maintainers (with the command that lists the types the domain
 * may use this way, for a device that is one of those kinds).  Whatever the verdict: a node
 * with the generic label is mislabeled also when the access is hidden.
 */
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "file-labels.h"
#include "plugins.h"

static int analyze_device(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	g_autofree char *stype = NULL, *ttype = NULL, *path = NULL, *expected = NULL;
	g_autofree char *generic = NULL, *spec = NULL, *shown = NULL, *list = NULL;
	g_autofree char *entry = NULL;
	int near;
	g_autoptr(GPtrArray) cands = NULL;
	g_autoptr(AdSuggestion) s = NULL;
	gboolean blk = g_strcmp0(d->tclass, "blk_file") == 0;
	const char *best;

	if (d->type != AD_DENIAL_AVC || !ctx->labels || !d->perms || !d->perms->len)
		return 0;
	stype = ad_denial_stype(d);
	ttype = ad_denial_ttype(d);
	generic = ad_labels_expected_type(
		ctx->labels, "/dev/avcdoctor-unclaimed-name", blk ? S_IFBLK : S_IFCHR);
	if (!stype || !ttype || !generic || strcmp(ttype, generic) != 0 ||
		!ad_policy_has_type(ctx->policy, stype))
		return 0;
	path = ad_file_denial_path(ctx, d);
	if (path) {
		expected = ad_labels_expected_type(ctx->labels, path, blk ? S_IFBLK : S_IFCHR);
		/* file_contexts knows this node: restorecon's case */
		if (expected && strcmp(expected, ttype) != 0)
			return 0;
	}
	/* without a path: a msgid, in the reader's language (ad_suggestion_if_arg_msgid) */
	shown = path ? ad_file_display(path)
		     : g_strdup(blk ? N_("this block device") : N_("this character device"));
	cands = ad_file_candidates(ctx, d, stype, path, "device_node");
	best = cands && cands->len ? g_ptr_array_index(cands, 0) : NULL;
	if (best && path && ad_file_type_matches_domain(stype, best) &&
		(spec = ad_labels_fcontext_spec(ctx->labels, path, FALSE))) {
		list = ad_file_type_list(cands, 1, 5);
		s = ad_suggestion_new("device", AD_FIX_FCONTEXT, 0.4, AD_LEVEL_YELLOW);
		ad_suggestion_set_if(s, N_("If %s is a device %s should use"), shown, stype);
		ad_suggestion_set_then(s,
			N_("Then label it %s, %s's device type: it has the "
			  "generic label %s, which file_contexts gives device "
			  "nodes it does not know.%s%s%s"),
			best, stype, ttype,
			*list ? N_(" Other device types it may use this way: ") : "", list,
			*list ? "." : "");
		if (*list) {
			ad_suggestion_then_arg_msgid(s, 3);
			ad_suggestion_then_arg(s, 4, ad_file_type_list_msg(cands, 1, 5));
		}
		ad_suggestion_add_command(s, "semanage", "fcontext", "-a", "-f", blk ? "b" : "c",
			"-t", best, "--", spec, NULL);
		ad_suggestion_add_command(s, "restorecon", "-v", "--", path, NULL);
	} else if (path && (near = ad_file_nearest_candidate(ctx, cands, path, &entry)) >= 0 &&
		   (spec = ad_fcontext_spec(path, FALSE))) {
		/* a sibling node file_contexts knows (/dev/frob[0-9]+ for /dev/frob7) */
		const char *type = g_ptr_array_index(cands, near);

		s = ad_suggestion_new("device", AD_FIX_FCONTEXT, 0.3, AD_LEVEL_YELLOW);
		ad_suggestion_set_if(s, N_("If %s is a device %s should use"), shown, stype);
		ad_suggestion_set_then(s,
			N_("Then label it %s, the type file_contexts gives the nodes "
			  "near it (%s), which %s may use this way: it has the "
			  "generic label %s, which file_contexts gives device nodes "
			  "it does not know. Check that it is that kind of device."),
			type, entry, stype, ttype);
		ad_suggestion_add_command(s, "semanage", "fcontext", "-a", "-f", blk ? "b" : "c",
			"-t", type, "--", spec, NULL);
		ad_suggestion_add_command(s, "restorecon", "-v", "--", path, NULL);
	} else {
		list = cands ? ad_file_type_list(cands, 0, 5) : NULL;
		s = ad_suggestion_new("device", list && *list ? AD_FIX_CONFIG : AD_FIX_REPORT_BUG,
			0.3, AD_LEVEL_YELLOW);
		ad_suggestion_set_if(s, N_("If %s is a device %s should use"), shown, stype);
		if (!path)
			ad_suggestion_if_arg_msgid(s, 0);
		if (list && *list) {
			ad_suggestion_set_then(s,
				N_("Then it needs a device type: it has the generic "
				  "label %s, so the policy does not know what "
				  "kind of device it is, and file_contexts gives "
				  "none of the device types %s may use this way "
				  "(%s) to a node near it. If it is one of those "
				  "kinds, label it with that type (semanage fcontext "
				  "-a -f %s, then restorecon); the command below "
				  "lists the rules that let %s use devices this "
				  "way, with their types. Else a new device type is "
				  "needed: report it to the policy's maintainers."),
				ttype, stype, list, blk ? "b" : "c", stype);
			ad_suggestion_then_arg(s, 2, ad_file_type_list_msg(cands, 0, 5));
			ad_file_add_lookup_command(s, d, stype);
		} else {
			ad_suggestion_set_then(s,
				N_("Then it needs a device type: it has the generic "
				  "label %s, so the policy does not know what "
				  "kind of device it is, and %s may use no "
				  "device type this way. A new device type is "
				  "needed: report it to the policy's "
				  "maintainers."),
				ttype, stype);
		}
	}
	g_ptr_array_add(ret, g_steal_pointer(&s));
	return 1;
}

const AdPlugin ad_plugin_device = {
	.id = "device",
	.priority = 10,
	.classes = AD_NAMES("chr_file", "blk_file"),
	/* whatever the verdict: a mislabel is one also when the access is hidden or allowed */
	.reasons = 0,
	.analyze = analyze_device,
};
