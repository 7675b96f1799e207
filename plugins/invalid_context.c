// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * invalid_context: the kernel could not compute a new context (SELINUX_ERR
 * "security_compute_sid: invalid context"), typically on a domain
 * transition that keeps the caller's user and role: a role not authorised
 * for the new type, a user not authorised for the role, a level outside
 * the user's range.  The policy says which (ad_policy_context_problem());
 * when a role lacks the type, a local module with "role R types T;" is the fix
 * (`avcdoctor allow` writes it from the SELINUX_ERR record), though
 * starting the service through its service manager is often the right
 * one.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

static int analyze_invalid_context(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
				   GPtrArray *ret)
{
	g_auto(GStrv) parts = NULL;
	g_autofree char *stype = NULL, *name = NULL, *pp = NULL, *problem = NULL;
	AdSuggestion *s;

	if (d->type != AD_DENIAL_SELINUX_ERR && d->type != AD_DENIAL_USER_SELINUX_ERR)
		return 0;
	if (d->err_kind != AD_ERR_INVALID_CONTEXT || !d->invalid_context)
		return 0;
	parts = g_strsplit(d->invalid_context, ":", 4);
	stype = d->scontext ? ad_denial_stype(d) : NULL;

	if (g_strv_length(parts) >= 3 && stype && ad_policy_has_role(ctx->policy, parts[1]) &&
	    ad_policy_has_type(ctx->policy, parts[2]) &&
	    !ad_policy_type_is_attribute(ctx->policy, parts[2]) &&
	    !ad_policy_role_has_type(ctx->policy, parts[1], parts[2])) {
		const char *role = parts[1], *type = parts[2];

		name = ad_module_name(d, "");
		pp = g_strdup_printf("%s.pp", name);
		s = ad_suggestion_new("invalid_context", AD_FIX_MODULE, 0.6, AD_LEVEL_YELLOW);
		ad_suggestion_set_if(s, N_("If users with the role %s should run programs in %s"),
				     role, type);
		ad_suggestion_set_then(s, N_("Then authorise the role for the type with a local "
					    "module (role %s types %s;). The role %s is not "
					    "authorised for %s, so the transition from %s, which "
					    "keeps the caller's role, has nowhere to go. If %s is "
					    "a service, start it through its service manager "
					    "(systemctl, run_init) instead: it then runs with the "
					    "role system_r and needs no change."),
				       role, type, role, type, stype, type);
		ad_suggestion_add_allow_command(s, d, ctx, (const char *const[]){ "--verify",
										  "-M", name, NULL });
		ad_suggestion_add_command(s, "semodule", "-X", "300", "-i", pp, NULL);
		g_ptr_array_add(ret, s);
		return 1;
	}

	problem = ad_policy_context_problem(ctx->policy, d->invalid_context);
	if (!problem) {
		s = ad_suggestion_new("invalid_context", AD_FIX_INFO, 0.5, AD_LEVEL_GREEN);
		ad_suggestion_set_if(s, N_("If this happened before the policy was changed, or on "
					  "another machine"));
		ad_suggestion_set_then(s, N_("Then nothing needs to be done here: %s is valid in "
					    "this policy. The policy the kernel ran when it was "
					    "logged did not allow it."), d->invalid_context);
		g_ptr_array_add(ret, s);
		return 1;
	}
	s = ad_suggestion_new("invalid_context", AD_FIX_CONFIG, 0.5, AD_LEVEL_YELLOW);
	ad_suggestion_set_if(s, N_("If the program should be able to run as %s"),
			     d->invalid_context);
	ad_suggestion_set_then(s, N_("Then change what makes it invalid: %s. The SELinux user "
				    "must be allowed the role (semanage user -l lists the roles "
				    "and ranges of each user, semanage user -m -R changes "
				    "them), the role must be allowed the type, and the level "
				    "must lie in the user's range."), problem);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_invalid_context = {
	.id = "invalid_context",
	.priority = 100,
	.reasons = AD_REASON_BIT(AD_REASON_INVALID_CONTEXT),
	.analyze = analyze_invalid_context,
};
