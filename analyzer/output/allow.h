/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "read/denial.h"
#include "policy/policy.h"

G_BEGIN_DECLS

/*
 * Allow rules built from denials, merged per (source type, target type,
 * class), as audit2allow does but with the reason of each rule kept and
 * names checked against the policy before anything is written.
 */
typedef enum {
	AD_RULE_ALLOW,
	AD_RULE_DONTAUDIT,
} AdRuleKind;

/*
 * The access a record asked for, kept for --verify (which asks the policy
 * again) once per distinct access: a rule keeps no record nor event.
 */
typedef struct {
	AdDenialType type;
	char *scontext;
	char *tcontext;
	char *tclass;
	GPtrArray *perms;		/* char*, as the record listed them */
	char *invalid_context;		/* SELINUX_ERR */
} AdRuleAccess;

/* a record a rule came from */
typedef struct {
	const char *file;		/* interned, as AdRecord's */
	guint line;
	guint64 serial;
	const AdRuleAccess *access;	/* owned by the rule set */
} AdRuleRecord;

/*
 * Why a rule is written commented out although its names are valid: it
 * would not help (a constraint, an invalid context), the access is hidden
 * anyway (dontaudit), or granting it is what an intruder wants (a red
 * alert).  AdRuleOptions.keep_blocked writes such rules live.
 */
typedef enum {
	AD_LEFT_OUT_NONE,
	AD_LEFT_OUT_ATTACK,
	AD_LEFT_OUT_CONSTRAINT,
	AD_LEFT_OUT_INVALID_CONTEXT,
	AD_LEFT_OUT_DONTAUDIT,
} AdLeftOut;

typedef struct {
	char *source;			/* type names, validated against the policy */
	char *target;			/* "self" is never stored: see ad_rule_target_text */
	char *tclass;
	GPtrArray *perms;		/* char*, sorted */
	GPtrArray *verdicts;		/* const AdVerdict* (references), distinct */
	GArray *records;		/* AdRuleRecord: the records that caused it */
	GArray *ioctls;			/* guint16 ioctl commands seen (for -x) */
	gboolean all_permissive;	/* every record said permissive=1 */
	gboolean unknown;		/* names something the policy lacks: not emitted */
	char *unknown_text;		/* why */
	AdLeftOut left_out;		/* written commented out, for left_out_text */
	char *left_out_text;		/* "an allow rule would not help: constraint ..." */
} AdRule;

/* role R types T; for SELINUX_ERR invalid_context */
typedef struct {
	char *role;
	char *type;
	GArray *records;		/* AdRuleRecord */
} AdRoleRule;

typedef struct _AdRuleSet AdRuleSet;

typedef struct {
	AdRuleKind kind;		/* -D */
	gboolean xperms;		/* -x: allowxperm for ioctl */
	gboolean keep_blocked;		/* write left-out rules (AdLeftOut) live */
} AdRuleOptions;

AdRuleSet *ad_rule_set_new(AdPolicy *policy, const AdRuleOptions *opt);
void ad_rule_set_free(AdRuleSet *rs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdRuleSet, ad_rule_set_free)

/* adds one denial (granted records are counted and skipped); @v may be NULL */
void ad_rule_set_add(AdRuleSet *rs, AdDenial *d, const AdVerdict *v);
/*
 * As ad_rule_set_add(); @attack, when not NULL, says that the denial's
 * alert is red and which cause says so (a plugin id, "sys_module"): its
 * rule is left out unless the options keep blocked rules.
 */
void ad_rule_set_add_flagged(AdRuleSet *rs, AdDenial *d, const AdVerdict *v,
			     const char *attack);
/* the JSON name of a left-out reason: "attack", "constraint", ... (NULL for none) */
const char *ad_left_out_name(AdLeftOut l);
/* rules sorted by source, target, class: borrowed AdRule* */
GPtrArray *ad_rule_set_rules(AdRuleSet *rs);
GPtrArray *ad_rule_set_role_rules(AdRuleSet *rs);
guint ad_rule_set_granted(const AdRuleSet *rs);

/* "self" when source == target */
const char *ad_rule_target_text(const AdRule *r);

/* policy language text (what audit2allow prints, comments with the reasons) */
char *ad_rule_set_to_te(AdRuleSet *rs, gboolean with_comments);
/* the same in audit2allow's layout (headers, blank lines), for scripts that parse it */
char *ad_rule_set_to_te_classic(AdRuleSet *rs);
/* a loadable module NAME.te: "module NAME 1.0;", the require block, the rules */
char *ad_rule_set_to_module(AdRuleSet *rs, const char *name);
/* CIL statements */
char *ad_rule_set_to_cil(AdRuleSet *rs);
/* one JSON object per rule */
json_object *ad_rule_to_json(const AdRule *r);
json_object *ad_role_rule_to_json(const AdRoleRule *r);

/* a module name checkmodule accepts: [A-Za-z][A-Za-z0-9_-]* (audit2allow -M my-httpd) */
gboolean ad_module_name_is_valid(const char *name);

G_END_DECLS

/*
 * --verify: adds the set's rules (and role rules) to the in-memory policy
 * and explains every denial that went into the set again.  Appends a
 * report (policy-language comments, or one JSON line when @json) to @out.
 * Returns the number of denials still not allowed, or -1 with @error when
 * the rules could not be added.  The policy keeps the rules afterwards.
 */
gint ad_rule_set_verify(AdRuleSet *rs, gboolean json, GString *out, GError **error);
