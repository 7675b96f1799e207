/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define AD_POLICY_ERROR (ad_policy_error_quark())
GQuark ad_policy_error_quark(void);

typedef enum {
	AD_POLICY_ERROR_NOT_FOUND,	/* no policy file could be found */
	AD_POLICY_ERROR_INVALID,	/* the file is not a binary policy */
} AdPolicyError;

/* DESIGN.md's reasons; the order is the JSON name table's order */
typedef enum {
	AD_REASON_ALLOWED,
	AD_REASON_DONTAUDIT,
	AD_REASON_TE_RULE,
	AD_REASON_BOOLEAN,
	AD_REASON_CONSTRAINT,
	AD_REASON_RBAC,
	AD_REASON_BOUNDS,
	AD_REASON_UNKNOWN_TYPE,
	AD_REASON_UNKNOWN_CLASS,
	AD_REASON_UNKNOWN_PERMISSION,
	AD_REASON_INVALID_CONTEXT,
} AdReason;

const char *ad_reason_name(AdReason r);	/* "te_rule" */

typedef struct {
	char *name;
	gboolean value;			/* the value that allows the access */
} AdBoolSetting;

/*
 * The answer for one (scontext, tcontext, tclass, permissions).  Verdicts
 * are cached and shared by the policy: they are immutable and borrowed.
 */
typedef struct {
	AdReason reason;
	guint32 reason_bits;		/* libsepol's SEPOL_COMPUTEAV_* bits */
	GPtrArray *perms_missing;	/* char*: permissions not allowed now */
	/*
	 * Alternatives (GPtrArray of GPtrArray of AdBoolSetting*): each inner
	 * array is a set of boolean settings that together allow every missing
	 * permission; minimal sets only, fewest changes first.
	 */
	GPtrArray *booleans;
	gboolean booleans_partial;	/* booleans grant some perms, not all */
	char *constraint;		/* failed constraint in words, or NULL */
	char *constraint_expr;		/* the raw expression, failing leaves marked */
	gboolean constraint_too;	/* TE denies and a constraint would too */
	GPtrArray *unknown;		/* char*: "type foo_t", "permission frob" */
	char *detail;			/* one sentence explaining unknown/invalid/rbac */
} AdVerdict;

typedef struct _AdPolicy AdPolicy;

/*
 * Loads @path, or when NULL: the kernel's policy when SELinux is enabled,
 * else the newest policy.N of SELINUXTYPE in /etc/selinux/config (the
 * directory can be moved with the AVCDOCTOR_SELINUX_ROOT environment
 * variable, for tests).  One policy per process: libsepol's security
 * server is global.
 */
AdPolicy *ad_policy_load(const char *path, GError **error);
void ad_policy_free(AdPolicy *p);
const char *ad_policy_path(const AdPolicy *p);
gboolean ad_policy_is_mls(const AdPolicy *p);

/*
 * Why is (scontext, tcontext, tclass, perms) denied?  Never fails: names
 * the policy lacks give the unknown_* reasons.  Cached; the result is
 * borrowed from the policy and valid until ad_policy_free().
 */
const AdVerdict *ad_policy_explain(AdPolicy *p, const char *scontext, const char *tcontext,
				   const char *tclass, const char *const *perms, guint n_perms);

/*
 * SELINUX_ERR invalid_context: why is @context invalid in this policy
 * (unknown user/role/type/level, role not authorised for the type, user
 * not authorised for the role, level out of range)?  NULL when it is valid.
 */
char *ad_policy_context_problem(AdPolicy *p, const char *context);

/* name lookups; all borrow nothing and return TRUE when defined */
gboolean ad_policy_has_type(AdPolicy *p, const char *name);
gboolean ad_policy_has_class(AdPolicy *p, const char *name);
gboolean ad_policy_has_perm(AdPolicy *p, const char *tclass, const char *perm);
/* current (default) value of boolean @name: 0, 1, or -1 when undefined */
int ad_policy_bool_value(AdPolicy *p, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdPolicy, ad_policy_free)

G_END_DECLS
