// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * catchall: the fallback when no known cause explains a denial.  A local
 * module built with `avcdoctor allow` (verified against the policy), and
 * "report a bug" when the policy itself looks wrong.  Also says so when
 * the current policy already allows the access or hides it (dontaudit).
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

static int analyze_catchall(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			    GPtrArray *ret)
{
	g_autofree char *stype = ad_denial_stype(d);
	g_autofree char *name = NULL, *pp = NULL;
	AdSuggestion *s;

	if (!stype)
		return 0;
	switch (v->reason) {
	case AD_REASON_ALLOWED:
		s = ad_suggestion_new("catchall", AD_FIX_INFO, 0.5, AD_LEVEL_GREEN);
		ad_suggestion_set_if(s, N_("If this denial happened before the policy was changed"));
		ad_suggestion_set_then(s, N_("Then nothing needs to be done: the current policy "
					    "allows this access (a boolean was turned on or a "
					    "module was loaded since)."));
		g_ptr_array_add(ret, s);
		return 1;
	case AD_REASON_DONTAUDIT:
		s = ad_suggestion_new("catchall", AD_FIX_DONTAUDIT, 0.4, AD_LEVEL_GREEN);
		ad_suggestion_set_if(s, N_("If you do not want to see this harmless denial"));
		ad_suggestion_set_then(s, N_("Then rebuild the policy with its dontaudit rules "
					    "enabled: the policy already hides this access, it "
					    "was logged because dontaudit rules were disabled "
					    "(semodule -DB)."));
		ad_suggestion_add_command(s, "semodule", "-B", NULL);
		g_ptr_array_add(ret, s);
		return 1;
	case AD_REASON_TE_RULE:
	case AD_REASON_BOOLEAN:
	case AD_REASON_RBAC:
		break;
	case AD_REASON_CONSTRAINT:
	case AD_REASON_BOUNDS:
		s = ad_suggestion_new("catchall", AD_FIX_REPORT_BUG, 0.1, AD_LEVEL_YELLOW);
		ad_suggestion_set_if(s, N_("If you believe %s should be allowed this access"),
				     stype);
		ad_suggestion_set_then(s, N_("Then report a bug against the policy: a constraint "
					    "or bound blocks it, which a local allow rule cannot "
					    "change."));
		g_ptr_array_add(ret, s);
		return 1;
	default:
		return 0;
	}
	name = ad_module_name(d, "");
	pp = g_strdup_printf("%s.pp", name);
	s = ad_suggestion_new("catchall", AD_FIX_MODULE, v->reason == AD_REASON_BOOLEAN ? 0.1
										 : 0.2,
			      AD_LEVEL_YELLOW);
	ad_suggestion_set_if(s, N_("If you believe %s should be allowed %s access on the %s by "
				  "default"), stype, (char *)g_ptr_array_index(d->perms, 0),
			     d->tclass);
	ad_suggestion_set_then(s, N_("Then you can allow it now with a local policy module built "
				    "from the denials (check what it allows before loading it), "
				    "and report this as a bug."));
	if (ad_suggestion_add_allow_command(s, d, ctx, (const char *const[]){ "--verify", "-M",
										name, NULL }))
		ad_suggestion_set_then(s, N_("Then you can allow it now with a local policy module "
					    "built from the denials (check what it allows before "
					    "loading it), and report this as a bug. The denials were "
					    "read from standard input: give the command the same "
					    "records on its standard input."));
	ad_suggestion_add_command(s, "semodule", "-X", "300", "-i", pp, NULL);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_catchall = {
	.id = "catchall",
	.priority = 1,
	.analyze = analyze_catchall,
};
