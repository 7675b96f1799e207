/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "output/allow.h"
#include "policy/policy.h"

G_BEGIN_DECLS

/*
 * refpolicy interfaces (allow -R): the interface definitions of
 * selinux-policy-dev (the .if files under /usr/share/selinux/devel/include, with the
 * permission sets and patterns of the support .spt files) read in C, without m4.
 *
 * Only what can be known exactly is kept: an interface is usable when,
 * after expanding permission-set macros, patterns (read_files_pattern ...)
 * and calls to other interfaces (a few levels deep), its body is nothing but
 * gen_require blocks and "allow $1 TYPE:CLASS PERMS;" rules (dontaudit
 * rules are ignored: they grant nothing).  Interfaces with anything else
 * (type transitions, attributes, conditionals, optional_policy, tunables,
 * rules for other domains, a second parameter ...) are left out, so a
 * suggested call never grants more than what is listed for it.
 */
typedef struct _AdIfaces AdIfaces;

#define AD_IFACES_DIR "/usr/share/selinux/devel/include"

/* $AVCDOCTOR_IFACES_DIR (a test hook) or AD_IFACES_DIR */
const char *ad_ifaces_default_dir(void);

/* reads every .spt and .if under @dir; NULL with @error when @dir is unreadable */
AdIfaces *ad_ifaces_load(const char *dir, GError **error);
void ad_ifaces_free(AdIfaces *ifs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdIfaces, ad_ifaces_free)

/* interfaces defined, and those usable for suggestions */
guint ad_ifaces_n_defined(const AdIfaces *ifs);
guint ad_ifaces_n_usable(const AdIfaces *ifs);
/* does usable interface @name grant $1 @perm on @target:@tclass ("self" for $1)? */
gboolean ad_ifaces_grants(const AdIfaces *ifs, const char *name, const char *target,
			  const char *tclass, const char *perm);
/* every permission a usable interface grants, all classes counted; 0 when unusable */
guint ad_ifaces_n_perms(const AdIfaces *ifs, const char *name);

/*
 * The usable interface that grants @source all of @perms on @target:@tclass
 * with the fewest permissions overall (ties: the first name), or NULL.  An
 * interface rule on an attribute counts for the types that have it, and one
 * on self (or $1) when @source == @target; both need @policy (may be NULL:
 * exact names only).  With @policy, interfaces naming a type, class or
 * permission the policy lacks are not suggested.  Borrowed.
 */
const char *ad_ifaces_match(AdIfaces *ifs, AdPolicy *policy, const char *source,
			    const char *target, const char *tclass,
			    const char *const *perms, guint n_perms);
const char *ad_ifaces_match_rule(AdIfaces *ifs, AdPolicy *policy, const AdRule *r);

/*
 * @te is ad_rule_set_to_te() or ad_rule_set_to_module() of @rs: every allow
 * rule that an interface covers becomes "# allow ...;" followed by
 * "INTERFACE(SOURCE)" (once per source; the reason comments stay).  With
 * @module, "module NAME 1.0;" becomes "policy_module(NAME, 1.0)" for the
 * refpolicy build system.  @n_calls (may be NULL) gets the rules replaced.
 */
char *ad_ifaces_rewrite(AdIfaces *ifs, AdPolicy *policy, AdRuleSet *rs, const char *te,
			gboolean module, guint *n_calls);

G_END_DECLS
