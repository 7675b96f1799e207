// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * constraint: a constraint of the policy forbids the access, whatever
 * the allow rules say, so a module from audit2allow would not help
 * (setroubleshoot had no plugin for this; its catchall offered one).
 * The verdict has the constraint in words and its expression with the
 * failing leaves marked; which attributes they compare (users, roles,
 * types, MLS levels) decides the advice: run the program with the right
 * role or level, map the login to another SELinux user, or, for types,
 * report it.  Also when TE denies the access and a constraint would deny
 * it too: an allow rule alone would not be enough.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

typedef enum {
	LEAF_USER = 1 << 0,
	LEAF_ROLE = 1 << 1,
	LEAF_TYPE = 1 << 2,
	LEAF_LEVEL = 1 << 3,
} LeafKind;

/*
 * What the failing leaves of @expr compare: "(r1 == r2 -Fail-)" is a
 * role leaf; u1/u2/u3 users, t1/t2/t3 types, l1/l2/h1/h2 levels.
 */
static guint failing_leaves(const char *expr)
{
	guint kinds = 0;

	for (const char *f = expr ? strstr(expr, "-Fail-") : NULL; f;
	     f = strstr(f + 1, "-Fail-")) {
		const char *open = f;

		while (open > expr && *open != '(')
			open--;
		if (*open == '(')
			open++;
		while (*open == ' ')
			open++;
		switch (*open) {
		case 'u':
			kinds |= LEAF_USER;
			break;
		case 'r':
			kinds |= LEAF_ROLE;
			break;
		case 't':
			kinds |= LEAF_TYPE;
			break;
		case 'l':
		case 'h':
			kinds |= LEAF_LEVEL;
			break;
		default:
			break;
		}
	}
	return kinds;
}

/* the @n-th ':'-field of a context ("staff_r" for 1 of "u:staff_r:t:s0"); owned */
static char *context_field(const char *context, guint n)
{
	g_auto(GStrv) parts = context ? g_strsplit(context, ":", 4) : NULL;

	return parts && g_strv_length(parts) > n ? g_strdup(parts[n]) : NULL;
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

static int analyze_constraint(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			      GPtrArray *ret)
{
	g_autofree char *stype = NULL;
	g_autoptr(AdMsg) then = ad_msg_new();
	guint kinds;
	AdSuggestion *s;

	/* a missing rule counts only when a constraint would block the access too */
	if (v->reason == AD_REASON_TE_RULE && !v->constraint_too)
		return 0;
	if (d->type != AD_DENIAL_AVC && d->type != AD_DENIAL_USER_AVC)
		return 0; /* validatetrans errors have no expression to read */
	stype = ad_denial_stype(d);
	if (!stype)
		return 0;
	kinds = failing_leaves(v->constraint_expr);

	if (v->reason == AD_REASON_CONSTRAINT)
		ad_msg_add(then, N_("Then an allow rule will not help: a constraint of the "
					"policy forbids this access whatever the rules allow."));
	else
		ad_msg_add(then, N_("Then an allow rule alone will not be enough: a constraint "
					"of the policy would still forbid this access."));
	if (v->constraint) {
		g_autofree char *words = sentence(v->constraint);

		ad_msg_add(then, " %s", words);
	}
	if (kinds & LEAF_ROLE) {
		g_autofree char *srole = context_field(d->scontext, 1);
		g_autofree char *trole = context_field(d->tcontext, 1);

		ad_msg_add(then, N_(" Run the program with the role the policy expects "
					       "(the process has %s, the target %s): start "
					       "services through their service manager (systemctl, "
					       "run_init) so that they run as system_r, or change "
					       "role first (newrole -r ROLE, runcon -r ROLE)."),
				       srole ? srole : "?", trole ? trole : "?");
	}
	if (kinds & LEAF_USER) {
		g_autofree char *suser = context_field(d->scontext, 0);
		g_autofree char *tuser = context_field(d->tcontext, 0);

		ad_msg_add(then, N_(" The SELinux users differ (%s and %s): log in as, "
					       "or map the login to, the user the object belongs "
					       "to (semanage login -l), or keep the object's user "
					       "when creating it."),
				       suser ? suser : "?", tuser ? tuser : "?");
	}
	if (kinds & LEAF_LEVEL)
		ad_msg_add(then, N_(" The security levels do not fit: the process's level must "
					"dominate (or equal) the object's. Run the program with a "
					"suitable level (runcon -l LEVEL) or give the object a "
					"level it may use (chcon -l LEVEL)."));
	if ((kinds & LEAF_TYPE) && !(kinds & (LEAF_ROLE | LEAF_USER | LEAF_LEVEL)))
		ad_msg_add(then, N_(" Only a change to the policy's type attributes "
					       "would exempt %s: report it if you believe it "
					       "should be."), stype);

	s = ad_suggestion_new("constraint", kinds & (LEAF_ROLE | LEAF_USER | LEAF_LEVEL)
						    ? AD_FIX_CONFIG : AD_FIX_REPORT_BUG,
			      v->reason == AD_REASON_CONSTRAINT ? 0.6 : 0.25, AD_LEVEL_YELLOW);
	ad_suggestion_set_if(s, N_("If %s should be allowed %s on the %s"), stype,
			     (char *)g_ptr_array_index(d->perms, 0), d->tclass);
	ad_suggestion_take_then(s, g_steal_pointer(&then));
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_constraint = {
	.id = "constraint",
	.priority = 50,
	.reasons = AD_REASON_BIT(AD_REASON_CONSTRAINT) | AD_REASON_BIT(AD_REASON_TE_RULE),
	.analyze = analyze_constraint,
};
