// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy_mismatch: the record does not fit the policy it is judged
 * against.  It names a type, class or permission this policy lacks
 * (unknown_type, unknown_level, unknown_class, unknown_permission), or contexts the
 * policy rejects (invalid_context on an AVC: the kernel logs only
 * contexts that were valid when it logged them).  The log comes from
 * another machine or another version of the policy, or a module that
 * defined the names was removed since.  No fix applies, so this ranks
 * high; audit2why drops such records silently.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

/* "type foo_t and permission frob"; owned */
static char *unknown_text(const AdVerdict *v)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; v->unknown && i < v->unknown->len; i++) {
		if (i)
			g_string_append(s, i + 1 == v->unknown->len ? _(" and ") : ", ");
		g_string_append(s, g_ptr_array_index(v->unknown, i));
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* @text as a sentence of its own: capital first letter, final full stop; owned */
static char *sentence(const char *text)
{
	GString *s = g_string_new(text);

	if (s->len && g_ascii_islower(s->str[0]))
		s->str[0] = g_ascii_toupper(s->str[0]);
	if (s->len && s->str[s->len - 1] != '.')
		g_string_append_c(s, '.');
	return g_string_free(s, FALSE);
}

/* a permission the kernel could not name ("0x800000"): the kernel is newer than the policy */
static gboolean has_numeric_perm(const AdDenial *d)
{
	for (guint i = 0; d->perms && i < d->perms->len; i++)
		if (g_str_has_prefix(g_ptr_array_index(d->perms, i), "0x"))
			return TRUE;
	return FALSE;
}

static int analyze_policy_mismatch(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
				   GPtrArray *ret)
{
	g_autofree char *names = NULL;
	g_autoptr(AdMsg) then = ad_msg_new();
	const char *policy = ad_policy_path(ctx->policy);
	AdSuggestion *s;

	/* SELINUX_ERR invalid_context is the invalid_context plugin's */
	if (v->reason == AD_REASON_INVALID_CONTEXT && d->type != AD_DENIAL_AVC &&
	    d->type != AD_DENIAL_USER_AVC)
		return 0;
	names = unknown_text(v);

	s = ad_note_new("policy_mismatch", 0.8);
	ad_suggestion_set_if(s, N_("If this log comes from another machine, or from before the "
				  "policy changed"));
	if (*names)
		ad_msg_add(then, N_("Then analyse it with the policy it was logged "
					       "under (avcdoctor analyze -p POLICY FILE): the "
					       "policy %s does not define %s."), policy, names);
	else
		ad_msg_add(then, N_("Then analyse it with the policy it was logged "
					       "under (avcdoctor analyze -p POLICY FILE): the "
					       "contexts of the record are not valid in the policy "
					       "%s, so the kernel that logged them used another "
					       "policy."), policy);
	if (v->detail) {
		g_autofree char *detail = sentence(v->detail);

		ad_msg_add(then, " %s", detail);
	}
	if (v->reason == AD_REASON_UNKNOWN_PERMISSION && has_numeric_perm(d))
		ad_msg_add(then, N_(" The kernel logged a permission by number because "
					"the policy it ran did not define it: the kernel is newer "
					"than that policy, and its handle_unknown setting decided "
					"the access."));
	else if (v->reason == AD_REASON_INVALID_CONTEXT)
		ad_msg_add(then, N_(" If the log is from this machine, the SELinux users "
					"or their roles changed since (semanage user -l shows the "
					"roles of each user), or a module was removed."));
	else
		ad_msg_add(then, N_(" If the log is from this machine, a policy module that "
					"defined them was removed or disabled since: semodule -l "
					"lists the installed modules. No rule or label change can "
					"be suggested until the names are known."));
	ad_suggestion_take_then(s, g_steal_pointer(&then));
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_policy_mismatch = {
	.id = "policy_mismatch",
	.priority = 100,
	.reasons = AD_REASON_BIT(AD_REASON_UNKNOWN_TYPE) | AD_REASON_BIT(AD_REASON_UNKNOWN_LEVEL) |
		   AD_REASON_BIT(AD_REASON_UNKNOWN_CLASS) | AD_REASON_BIT(AD_REASON_UNKNOWN_PERMISSION) |
		   AD_REASON_BIT(AD_REASON_INVALID_CONTEXT),
	.analyze = analyze_policy_mismatch,
};
