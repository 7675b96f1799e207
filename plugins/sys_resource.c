// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sys_resource: a process hit a resource limit and asked for the
 * capability to exceed it (capability sys_resource): the disk blocks
 * reserved for root, a raised rlimit, more processes or open files, a
 * bigger message queue.  The usual cause is a nearly full disk or a low
 * limit, not a missing rule: the capability would let the domain eat the
 * reserve meant to keep the system working.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

static int analyze_sys_resource(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
				GPtrArray *ret)
{
	g_autofree char *stype = NULL;
	AdSuggestion *s;

	stype = ad_denial_stype(d);
	if (!stype)
		return 0;

	s = ad_suggestion_new("sys_resource", AD_FIX_CONFIG,
			      v->reason == AD_REASON_TE_RULE ? 0.5 : 0.3, AD_LEVEL_GREEN);
	ad_suggestion_set_if(s, N_("If you want to know why %s needed sys_resource"), stype);
	ad_suggestion_set_then(s, N_("Then look for a resource that ran out: the program hit a "
				    "limit and asked for the capability to go beyond it (the "
				    "disk space reserved for root, the number of processes or "
				    "open files, a raised resource limit). Usually a file system "
				    "is nearly full (df -h) or a limit is too low (ulimit -a, "
				    "LimitNOFILE= of a systemd service): fix that and the "
				    "capability is not needed. If nothing fails, the denial is "
				    "harmless."));
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_sys_resource = {
	.id = "sys_resource",
	.priority = 10,
	.classes = AD_NAMES("capability", "cap_userns"),
	.perms = AD_NAMES("sys_resource"),
	.reasons = AD_REASON_BIT(AD_REASON_TE_RULE) | AD_REASON_BIT(AD_REASON_BOOLEAN) |
		   AD_REASON_BIT(AD_REASON_DONTAUDIT),
	.analyze = analyze_sys_resource,
};
