// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * expected: denials the policy's design expects, told from the policy's
 * own attributes, so that they are explained and silenced rather than
 * taken for intrusions or "fixed" by loosening the policy.
 *
 * Password hashes.  The domains with the attribute
 * can_read_shadow_passwords (unix_chkpwd's chkpwd_t, say) may read the
 * password files; the programs that authenticate users (login, su, sudo,
 * sshd, screen lockers) are instead allowed to start such a helper.
 * PAM's pam_unix tries to read /etc/shadow itself first and asks the
 * helper when refused, so the denial is logged on every login and
 * nothing fails:
 * The password files are the password types (ad_safety_password_type():
 * shadow_t, passwd_file_t, the policy's authentication files): a helper
 * may read much else (logs, /proc), which makes no other denial expected.
 * Only reading is ever expected.
 *   - a domain that may start a password helper reading a password file:
 *     expected, silence it with a dontaudit module (green);
 *   - the helper's own program (its file labelled with the entry point of
 *     such a helper) running in a domain that may not start the helper:
 *     a missing transition in the policy, not an intrusion (yellow).
 * Either way the generic "a program read the password hashes" intrusion
 * warning and a local module allowing the read are dropped
 * (AdSuggestion.expected).
 */
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "analysis/safety.h"
#include "plugins.h"

#define AUTH_ATTRIBUTE "can_read_shadow_passwords"
/*
 * Unconfined domains have every attribute, the password helper's too:
 * Fedora's httpd_t may start CGI scripts unconfined
 * (httpd_unconfined_script_t), which is no password helper.
 */
#define UNCONFINED_ATTRIBUTE "unconfined_domain_type"

/* reading permissions: what pam_unix's attempt at the file asks */
static const char *const read_perms[] = {
	"read", "open", "getattr", "ioctl", "lock", "map", NULL,
};

/* Are all of @d's permissions reading ones? */
static gboolean only_reads(const AdDenial *d)
{
	if (!d->perms || !d->perms->len)
		return FALSE;
	for (guint i = 0; i < d->perms->len; i++)
		if (!g_strv_contains(read_perms, g_ptr_array_index(d->perms, i)))
			return FALSE;
	return TRUE;
}

/* May @domain read @ttype objects of @tclass?  @ttype may be an alias. */
static gboolean may_read(AdPolicy *p, const char *domain, const char *ttype, const char *tclass)
{
	const char *perms[] = { "read" };
	g_autoptr(GPtrArray) t = ad_policy_types_allowed(p, domain, tclass, perms, 1, NULL);
	const char *primary = ad_policy_type_primary(p, ttype);

	return t && g_ptr_array_find_with_equal_func(t, primary ? primary : ttype, g_str_equal,
						     NULL);
}

/*
 * A password helper @stype may start that may read @ttype: a domain
 * other than @stype with the attribute AUTH_ATTRIBUTE, not unconfined,
 * that @stype may transition to.  Owned, or NULL.
 */
static char *password_helper(AdPolicy *p, const char *stype, const char *ttype,
			     const char *tclass)
{
	const char *perms[] = { "transition" };
	g_autoptr(GPtrArray) t = ad_policy_types_allowed(p, stype, "process", perms, 1, NULL);

	for (guint i = 0; t && i < t->len; i++) {
		const char *h = g_ptr_array_index(t, i);

		if (strcmp(h, stype) != 0 && ad_policy_type_has_attribute(p, h, AUTH_ATTRIBUTE) &&
		    !ad_policy_type_has_attribute(p, h, UNCONFINED_ATTRIBUTE) &&
		    may_read(p, h, ttype, tclass))
			return g_strdup(h);
	}
	return NULL;
}

/*
 * The password helper whose program @d's executable is: its file type by
 * file_contexts (FOO_exec_t) is the entry point of FOO_t, which has the
 * attribute AUTH_ATTRIBUTE.  Owned, or NULL; @ret_exec_type: the file type.
 */
static char *helper_of_program(AdPluginEnv *ctx, const AdDenial *d, const char *ttype,
			       char **ret_exec_type)
{
	const char *perms[] = { "entrypoint" };
	g_autofree char *etype = NULL;
	g_autofree char *domain = ad_denial_program_domain(ctx, d, &etype);
	g_autoptr(GPtrArray) entries = NULL;

	if (!domain)
		return NULL;
	if (!ad_policy_type_has_attribute(ctx->policy, domain, AUTH_ATTRIBUTE) ||
	    !may_read(ctx->policy, domain, ttype, d->tclass))
		return NULL;
	entries = ad_policy_types_allowed(ctx->policy, domain, "file", perms, 1, NULL);
	if (!entries || !g_ptr_array_find_with_equal_func(entries, etype, g_str_equal, NULL))
		return NULL;
	*ret_exec_type = g_steal_pointer(&etype);
	return g_steal_pointer(&domain);
}

static int analyze_expected(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	g_autofree char *stype = ad_denial_stype(d);
	g_autofree char *ttype = ad_denial_ttype(d);
	g_autofree char *helper = NULL, *exec_type = NULL;
	AdSuggestion *s;

	if (!stype || !ttype || !only_reads(d) ||
	    !ad_policy_type_is_attribute(ctx->policy, AUTH_ATTRIBUTE) ||
	    !ad_safety_password_type(ctx->policy, ttype))
		return 0;
	helper = password_helper(ctx->policy, stype, ttype, d->tclass);
	if (helper) {
		g_autofree char *name = ad_module_name(d, "_dontaudit");
		g_autofree char *pp = g_strdup_printf("%s.pp", name);

		s = ad_suggestion_new("expected", AD_FIX_DONTAUDIT, 0.8, AD_LEVEL_GREEN);
		s->expected = TRUE;
		ad_suggestion_set_if(s, N_("If %s was checking a password"), stype);
		ad_suggestion_set_then(s, N_("Then nothing is wrong and nothing needs loosening: "
					    "the policy lets %s check passwords only through the "
					    "helper %s (unix_chkpwd), which may read %s files; %s "
					    "may not read them itself. PAM's pam_unix tries the "
					    "file first and asks the helper when refused, so the "
					    "login still works. To stop the message, load a "
					    "dontaudit module: it hides this denial and allows "
					    "nothing."), stype, helper, ttype, stype);
		ad_suggestion_add_allow_command(s, d, ctx,
						(const char *const[]){ "-D", "-M", name, NULL });
		ad_suggestion_add_command(s, "semodule", "-X", "300", "-i", pp, NULL);
		g_ptr_array_add(ret, s);
		return 1;
	}
	helper = helper_of_program(ctx, d, ttype, &exec_type);
	if (!helper)
		return 0;
	s = ad_suggestion_new("expected", AD_FIX_REPORT_BUG, 0.6, AD_LEVEL_YELLOW);
	s->expected = TRUE;
	ad_suggestion_set_if(s, N_("If %s should check passwords"), stype);
	ad_suggestion_set_then(s, N_("Then report a missing rule against the policy rather than "
				    "an intrusion: the program is the password helper (its file "
				    "type %s is the entry point of %s, which may read %s "
				    "files), but it ran in %s, which may not start it in %s. "
				    "If %s has no reason to check passwords, find out what "
				    "started the helper."),
			       exec_type, helper, ttype, stype, helper, stype);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_expected = {
	.id = "expected",
	.priority = 90,
	.classes = AD_NAMES("file"),
	.reasons = AD_REASON_BIT(AD_REASON_TE_RULE) | AD_REASON_BIT(AD_REASON_BOOLEAN) |
		   AD_REASON_BIT(AD_REASON_DONTAUDIT),
	.analyze = analyze_expected,
};
