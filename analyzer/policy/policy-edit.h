/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once
/*
 * Changing a loaded policy in memory, for `allow --verify` and for proving
 * fixes.  Kept out of policy.h so that what may only read the policy (the
 * cause plugins and the rules) cannot change it: tests/layering.sh checks
 * that they do not include this header.
 */
#include "policy/policy.h"

G_BEGIN_DECLS

/* ---- edits: what a module would add, in memory (allow --verify) ------------ */

/*
 * These change the loaded policy and nothing else (never the kernel or a
 * file).  Later answers follow the change.  They empty the verdict cache:
 * a verdict handed out before stays valid (and unchanged) only while its
 * holder has a reference (ad_verdict_ref()).  They return TRUE, or FALSE
 * with @error set: AD_POLICY_ERROR_UNKNOWN and a message naming each name
 * the policy does not define, AD_POLICY_ERROR_FAILED for anything else
 * (no permission given, out of memory).
 */

/*
 * allow @source_type @target_type:@tclass { @perms };  unconditional.  The
 * types may be attributes; @target_type "self" means each source type on
 * itself (the kernel policy's expansion).
 */
gboolean ad_policy_add_allow(AdPolicy *p, const char *source_type, const char *target_type,
			     const char *tclass, const char *const *perms, guint n_perms,
			     GError **error);
/*
 * dontaudit @source_type @target_type:@tclass { @perms };  unconditional,
 * the names as for ad_policy_add_allow().  Allows nothing: the denials of
 * these permissions are no longer logged.
 */
gboolean ad_policy_add_dontaudit(AdPolicy *p, const char *source_type,
				 const char *target_type, const char *tclass,
				 const char *const *perms, guint n_perms, GError **error);
/*
 * The permissions of @tclass whose denial the policy does not log for
 * @source_type on @target_type (types, not attributes): a new array of
 * names borrowed from the policy, in bit order; NULL for an unknown name.
 */
GPtrArray *ad_policy_dontaudited(AdPolicy *p, const char *source_type,
				 const char *target_type, const char *tclass);
/* role @role types @type;  (@type may be an attribute: all of its types) */
gboolean ad_policy_add_role_type(AdPolicy *p, const char *role, const char *type,
				 GError **error);
/* allow @from_role @to_role;  (role changes on process transitions) */
gboolean ad_policy_add_role_allow(AdPolicy *p, const char *from_role, const char *to_role,
				  GError **error);
/* Sets boolean @name; the conditional rules follow, as after setsebool. */
gboolean ad_policy_set_boolean(AdPolicy *p, const char *name, gboolean value,
			       GError **error);

/*
 * Trying a change: edits made between ad_policy_whatif_begin() and
 * ad_policy_whatif_end() are undone at the end, and the answers cached
 * before are kept (not recomputed).  Verdicts handed out in between are
 * valid until the end unless referenced.  Not nested.
 */
void ad_policy_whatif_begin(AdPolicy *p);
void ad_policy_whatif_end(AdPolicy *p);

G_END_DECLS
