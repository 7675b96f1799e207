/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define AD_POLICY_ERROR (ad_policy_error_quark())
GQuark ad_policy_error_quark(void);

typedef enum {
	AD_POLICY_ERROR_NOT_FOUND,	/* no policy file could be found */
	AD_POLICY_ERROR_INVALID,	/* the file is not a binary policy */
	AD_POLICY_ERROR_UNKNOWN,	/* an edit names something the policy lacks */
	AD_POLICY_ERROR_FAILED,		/* an edit could not be made */
} AdPolicyError;

/* the reasons of why --json; the order is the JSON name table's order */
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
	/* only an MLS/MCS sensitivity or category of a context is not defined */
	AD_REASON_UNKNOWN_LEVEL,
} AdReason;
#define AD_REASON_LAST AD_REASON_UNKNOWN_LEVEL

const char *ad_reason_name(AdReason r);	/* "te_rule" */

typedef struct {
	char *name;
	gboolean value;			/* the value that allows the access */
} AdBoolSetting;

/*
 * The answer for one (scontext, tcontext, tclass, permissions).  Verdicts
 * are cached and shared by the policy: they are immutable and reference
 * counted, see ad_policy_explain() for how long a borrowed one lives and
 * ad_verdict_ref() for keeping one longer.
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
	/*
	 * Private: the reference count.  0 in a verdict built by hand
	 * (zero-initialised, not by ad_verdict_new()): ad_verdict_ref() and
	 * ad_verdict_unref() leave it alone, its maker frees it.
	 */
	gint ref_count;
} AdVerdict;

/*
 * A verdict for the caller to fill (SELINUX_ERR records, tests), counted
 * like the policy's: the caller has the one reference and drops it with
 * ad_verdict_unref(), which frees every field: perms_missing and unknown
 * are empty arrays that free their g_malloc'd strings, booleans is NULL
 * (an array whose elements free themselves, if set), strings are
 * g_malloc'd.
 */
AdVerdict *ad_verdict_new(void);
/*
 * Keeps @v alive beyond what ad_policy_explain() promises, also beyond
 * ad_policy_free() (a verdict holds no pointer into the policy).  Returns
 * @v; NULL-safe.  Atomic: the last unref may happen in another thread.
 */
const AdVerdict *ad_verdict_ref(const AdVerdict *v);
/* Drops a reference (ad_verdict_ref(), ad_verdict_new()); the last one frees @v.  NULL-safe. */
void ad_verdict_unref(const AdVerdict *v);

typedef struct _AdPolicy AdPolicy;

/*
 * Loads @path, or when NULL: the kernel's policy when SELinux is enabled,
 * else the newest policy.N of SELINUXTYPE in /etc/selinux/config (the
 * directory can be moved with the AVCDOCTOR_SELINUX_ROOT environment
 * variable, for tests).  One policy per process: libsepol's security
 * server is global.
 */
AdPolicy *ad_policy_load(const char *path, GError **error);
/*
 * ad_policy_load() in two steps, for a caller that starts other work
 * once it knows which file is loaded: the file (a copy of @path, or the
 * default), @ret_live: whether the running system's boolean values apply;
 * then loading it.
 */
char *ad_policy_find(const char *path, gboolean *ret_live, GError **error);
AdPolicy *ad_policy_load_found(const char *path, gboolean live, GError **error);
void ad_policy_free(AdPolicy *p);
const char *ad_policy_path(const AdPolicy *p);
gboolean ad_policy_is_mls(const AdPolicy *p);

/*
 * Why is (scontext, tcontext, tclass, perms) denied?  Never fails: names
 * the policy lacks give the unknown_* reasons.
 *
 * The result is borrowed: it stays valid until the next call into @p
 * that may evict verdicts, i.e. the next ad_policy_explain(), any edit
 * (ad_policy_add_*, ad_policy_set_boolean) or ad_policy_free().  Whoever
 * keeps a verdict longer (in an alert, a rule set, a cache keyed by the
 * pointer, across a plugin that explains something else) takes a
 * reference with ad_verdict_ref() and drops it with ad_verdict_unref().
 * A table keyed by verdict pointers must hold a reference per key: the
 * address of an evicted verdict is soon the address of another one.
 *
 * Cached, with bounded memory (a flood of distinct MCS pairs must not
 * grow the process): 65536 accesses and about 32 MiB of verdicts at most
 * (AD_VERDICT_CACHE_MAX, AD_VERDICT_CACHE_BYTES), in two generations, so
 * that the accesses seen lately stay cached.  While an access is cached,
 * asking again returns the same pointer; identical verdicts of different
 * accesses are shared.  Verdicts someone holds a reference to survive
 * eviction, but are no longer returned for new calls.
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
/*
 * current (default) value of boolean @name: 0, 1, or -1 when undefined.
 * Here and wherever a boolean is named, an old name the policy tree keeps
 * (booleans.subs_dist beside policy/, as on Fedora: allow_ftpd_anon_write
 * for ftpd_anon_write) stands for the boolean it was renamed to.
 */
int ad_policy_bool_value(AdPolicy *p, const char *name);
/* the policy's name of boolean @name (itself, or what an old name became); borrowed, NULL: none */
const char *ad_policy_bool_primary(AdPolicy *p, const char *name);

/* ---- roles ---------------------------------------------------------------- */

gboolean ad_policy_has_role(AdPolicy *p, const char *role);
/*
 * May @role go with the type @type in a context ("role R types T", with
 * the attributes expanded as in the kernel policy)?  TRUE for object_r,
 * which the kernel does not check; FALSE for unknown names and attributes.
 */
gboolean ad_policy_role_has_type(AdPolicy *p, const char *role, const char *type);

/*
 * The roles the SELinux user @user is authorised for ("user U roles
 * {...}"), object_r left out, sorted: a new array the caller frees.  NULL
 * when the policy does not define @user.
 */
GPtrArray *ad_policy_user_roles(AdPolicy *p, const char *user);

/* ---- queries for the cause plugins ----------------------------------------- */

gboolean ad_policy_type_is_attribute(AdPolicy *p, const char *name);
/* Does the type @type have the attribute @attribute?  FALSE for unknown names. */
gboolean ad_policy_type_has_attribute(AdPolicy *p, const char *type, const char *attribute);
/*
 * The primary name of the type @name, which may be an alias (an older
 * name the policy keeps: "qemu_t" for "svirt_t"); borrowed from the
 * policy.  NULL for attributes and unknown names.
 */
const char *ad_policy_type_primary(AdPolicy *p, const char *name);

/*
 * A generic file type: what labels whatever nobody claimed in a standard
 * place (default_t, etc_t, var_t, usr_t, lib_t, tmp_t, var_lib_t,
 * device_t, user_home_t ...), so that access to it is access to every
 * object carrying it.  By the policy's base_file_type attribute where it
 * has one (Fedora's), less the single programs and libraries it also holds
 * (shell_exec_t, textrel_shlib_t), and by a list of refpolicy's names
 * (analyzer/policy/policy-query.c) otherwise and for the types the
 * attribute leaves out (user_home_t, user_tmp_t, var_log_t).  An alias
 * counts as its primary name.
 */
gboolean ad_policy_file_type_is_generic(AdPolicy *p, const char *type);

/*
 * Every type (never an attribute) on which @source_type may have all of
 * @perms of @tclass, by unconditional rules or conditional rules enabled
 * under the current boolean values, attributes expanded on both sides (TE
 * only: constraints and MLS are not considered).  With @attribute_filter,
 * only the types that have that attribute ("file_type", "port_type").
 * @source_type may be an attribute: what the rules written for it grant.
 * No permission: the types with any permission of @tclass.  Sorted; a
 * reference to the cached array, which the caller unrefs and must not
 * change; its names are the policy's, valid until ad_policy_free().  NULL
 * when a name is not defined.  Cached per arguments.
 */
GPtrArray *ad_policy_types_allowed(AdPolicy *p, const char *source_type, const char *tclass,
				   const char *const *perms, guint n_perms,
				   const char *attribute_filter);

/* The booleans of the policy, sorted: a new array of char* the caller frees. */
GPtrArray *ad_policy_bool_names(AdPolicy *p);
/* The types (not attributes) and the classes of the policy, sorted, as above. */
GPtrArray *ad_policy_type_names(AdPolicy *p);
GPtrArray *ad_policy_class_names(AdPolicy *p);
/*
 * What the boolean is for, in one line ("Determine whether httpd can read
 * generic user home content files."), from refpolicy's policy.xml
 * (selinux-policy-dev on Debian, selinux-policy-devel on Fedora; plain or
 * gzip-compressed) at /usr/share/selinux/devel/policy.xml, or the file
 * AVCDOCTOR_POLICY_XML names.  Read once, on first use.  NULL when the
 * documentation is not installed or does not describe @name.  Borrowed,
 * valid until ad_policy_free().
 */
const char *ad_policy_bool_description(AdPolicy *p, const char *name);
/*
 * The descriptions ad_policy_bool_description() gives, read now (name ->
 * text; empty when the documentation is not installed), for a caller that
 * reads them while the policy loads and hands them over with
 * ad_policy_set_bool_docs() (taken).  Needs no policy: any thread.
 */
GHashTable *ad_bool_docs_read(void);
void ad_policy_set_bool_docs(AdPolicy *p, GHashTable *docs);

/* ---- scope: what else a change opens, counted from the rules --------------- */

/*
 * The accesses (source type, target type, class, permission; attributes
 * expanded) that the conditional rules switched on by setting @names to
 * @values add, counted rule by rule; @ret_domains: the source types that
 * gain any; up to 3 examples "s t:class perm" appended to @examples
 * (may be NULL).  -1 when a boolean is not defined.  Cached per setting.
 */
gint64 ad_policy_bool_scope(AdPolicy *p, const char *const *names, const gboolean *values,
			    guint n, gint64 *ret_domains, GPtrArray *examples);
/*
 * The accesses of @tclass on objects of type @type that the current rules
 * grant to source types other than @except (a type name, may be NULL);
 * @ret_domains: how many such source types; examples as above.  With
 * @perms, only those permissions count.  -1 when a name is not defined.
 * Cached per arguments.
 */
gint64 ad_policy_type_scope(AdPolicy *p, const char *type, const char *tclass,
			    const char *const *perms, guint n_perms, const char *except,
			    gint64 *ret_domains, GPtrArray *examples);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdPolicy, ad_policy_free)

G_END_DECLS
