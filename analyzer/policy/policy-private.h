/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internals of the policy engine shared by policy.c (loading, caches,
 * verdicts), policy-context.c (context conversion and diagnosis),
 * policy-bool.c (boolean alternatives and descriptions),
 * policy-constraint.c (constraints in words), policy-query.c (roles,
 * attributes, allowed types) and policy-edit.c (in-memory additions).
 * Not part of the library's interface; the unit test includes it to
 * cross-check the engine against libsepol.
 *
 * libsepol is linked statically (libsepol.a): the sidtab, avtab, ebitmap
 * and conditional helpers used here are not exported by libsepol.so.2.
 */
#pragma once

#include <glib.h>

#include <sepol/policydb/avtab.h>
#include <sepol/policydb/conditional.h>
#include <sepol/policydb/constraint.h>
#include <sepol/policydb/context.h>
#include <sepol/policydb/ebitmap.h>
#include <sepol/policydb/hashtab.h>
#include <sepol/policydb/policydb.h>
#include <sepol/policydb/sidtab.h>

#include "policy/policy.h"

G_BEGIN_DECLS

/*
 * contexts cached at most, and an estimate of their bytes at most (huge
 * context strings); the cache is emptied beyond (nothing borrows them)
 */
#define AD_CONTEXT_CACHE_MAX 65536
#define AD_CONTEXT_CACHE_BYTES (16u << 20)
/* SIDs kept at most: libsepol's sidtab search is linear and never shrinks */
#define AD_SIDTAB_MAX 64
/* ad_policy_types_allowed() answers cached at most; emptied beyond */
#define AD_TYPES_ALLOWED_CACHE_MAX 1024
/*
 * The verdict cache: access keys at most, and an estimate of the bytes
 * of keys and verdicts at most, both over the two generations (each
 * holds half; see ad_verdict_cache_make_room() in policy.c).  Callers
 * may override them at build time (-DAD_VERDICT_CACHE_MAX=...).
 */
#ifndef AD_VERDICT_CACHE_MAX
#define AD_VERDICT_CACHE_MAX 65536
#endif
#ifndef AD_VERDICT_CACHE_BYTES
#define AD_VERDICT_CACHE_BYTES (32u << 20)
#endif
/* booleans enumerated exhaustively at most (2^N assignments) */
#define AD_BOOL_ENUM_MAX 16
/* booleans.subs_dist larger than this is not read (Fedora's: 2 KiB) */
#define AD_BOOL_ALIASES_MAX (1 << 20)
/* alternatives kept at most per verdict */
#define AD_BOOL_ALTS_MAX 32

/* One context string as the policy sees it. */
typedef struct {
	gboolean ok;			/* ctx is valid */
	context_struct_t ctx;		/* our own copy (SIDs are transient) */
	char *note;			/* e.g. "no MLS part; s0 assumed", or NULL */
	/* when !ok: */
	AdReason reason;		/* AD_REASON_UNKNOWN_TYPE or _INVALID_CONTEXT */
	GPtrArray *unknown;		/* char*: "type foo_t", "user test_u" */
	char *problem;			/* the sentence, without the context */
} AdContextInfo;

/* Boolean alternatives for one (source type, target type, class, missing bits). */
typedef struct {
	guint32 missing;
	GPtrArray *alts;		/* shared with verdicts (refcounted), or NULL */
	gboolean partial;
} AdBoolResult;

/* The TE decision for (source type, target type, class): MLS and users do not matter. */
typedef struct {
	gint64 key;			/* hash key, see ad_te_key() */
	guint16 stype, ttype, tclass;
	guint32 allowed;		/* unconditional + currently active conditional */
	guint32 auditdeny;		/* cleared bits are dontaudit */
	GPtrArray *bools;		/* AdBoolResult*, a few per triple */
} AdTeInfo;

/*
 * The allow rules of one rule table by source type or attribute value:
 * rules[offset[v]] .. rules[offset[v + 1] - 1] have source v.  The nodes
 * are libsepol's: their permission bits and AVTAB_ENABLED are read live.
 */
typedef struct {
	guint32 *offset;		/* nprim + 2 entries */
	avtab_ptr_t *rules;
} AdAllowIndex;

/* One conditional allow rule indexed under (class, source type or attribute). */
typedef struct {
	cond_node_t *node;
	guint32 perms;
	guint16 target;			/* type or attribute value */
	gboolean when_true;		/* in the node's true list */
} AdCondRule;

/*
 * One generation of the verdict cache.  Every entry of either table holds
 * a reference to its verdict.
 */
typedef struct {
	GHashTable *by_key;		/* access key string -> AdVerdict* */
	GHashTable *shared;		/* set of AdVerdict*, by content: the interning */
	gsize bytes;			/* estimate: keys and the verdicts in shared */
} AdVerdictGen;

/* what ad_policy_cache_stats() reports (for tests and debugging) */
typedef struct {
	guint keys;			/* cached access keys, both generations */
	guint verdicts;			/* cached distinct verdicts, both generations */
	gsize bytes;			/* their estimated size */
	guint64 rotations;		/* generations retired so far */
	guint64 hits, misses;		/* ad_policy_explain() calls answered from the cache or not */
	guint live;			/* verdicts alive in the process (cached or referenced) */
} AdCacheStats;

/*
 * The caches that follow the policy's rules, set aside while a change is
 * tried (ad_policy_whatif_begin()) and put back afterwards: the change is
 * undone exactly, so what they hold is right again.
 */
typedef struct {
	GHashTable *te, *types_allowed, *scopes;
	AdVerdictGen cur, old;
} AdPolicyCaches;

/* one undo step of a tried change */
typedef struct {
	avtab_datum_t *datum;		/* an allow entry and its bits before */
	guint32 old;
} AdUndoAvtab;

struct _AdPolicy {
	char *path;
	gboolean live_booleans;		/* boolean values taken from the kernel */
	policydb_t db;
	gboolean db_ready;
	sidtab_t sidtab;
	gboolean sidtab_ready;

	const char **perm_names;	/* [class_value - 1) * 32 + bit] */
	guint32 *class_perms;		/* [class_value - 1]: all defined bits */
	guint64 *target_mask;		/* scratch: a bitset over type values */
	guint8 *bool_scratch;		/* scratch: one value per boolean */

	GHashTable *cond_index;		/* GUINT (class << 16 | source) -> GArray of AdCondRule */
	GHashTable *contexts;		/* string -> AdContextInfo* */
	gsize contexts_bytes;		/* estimate of what contexts holds */
	GHashTable *te;			/* gint64* -> AdTeInfo* */
	/* verdicts: new ones go to cur; a hit in old moves the entry to cur */
	AdVerdictGen verdicts_cur, verdicts_old;
	guint64 verdict_rotations, verdict_hits, verdict_misses;
	GHashTable *statements;		/* AdStatementKey* -> char*: constraint texts */
	GString *scratch;

	guint32 *target_perms;		/* scratch: allowed bits per type or attribute value */
	/*
	 * te_avtab, te_cond_avtab by source and by class; each built on its
	 * first query.  They hold libsepol's nodes, whose bits and
	 * AVTAB_ENABLED are read live: a boolean change or a change of an
	 * entry's bits leaves them right, only a new node drops them.
	 */
	AdAllowIndex allow_index[2];
	gboolean allow_index_ready;
	AdAllowIndex class_index[2];
	gboolean class_index_ready;
	/* the allow rules in table order, between building the one index and the other */
	avtab_ptr_t *allow_nodes[2];
	guint32 n_allow_nodes[2];
	/* te_avtab nodes added since the indexes were built (tried modules); bounded */
	GPtrArray *added_nodes;
	GHashTable *types_allowed;	/* key string -> GPtrArray of const char* (type names) */
	GHashTable *bool_docs;		/* boolean name -> description; NULL: not read yet */
	/* an old boolean name -> the policy's (booleans.subs_dist); NULL: none */
	GHashTable *bool_aliases;

	GHashTable *scopes;		/* key string -> AdScopeCount*; NULL: none yet */
	/* a tried change (policy-edit.c): the caches set aside, and how to undo it */
	gboolean whatif;
	AdPolicyCaches whatif_saved;
	GArray *undo_avtab;		/* AdUndoAvtab */
	GArray *undo_bools;		/* AdUndoBool */
};

/* one boolean's value before a tried change */
typedef struct {
	cond_bool_datum_t *b;
	int old;
} AdUndoBool;

/* what an edit invalidates, for ad_policy_invalidate() */
typedef enum {
	AD_INVALIDATE_TE = 1 << 0,	/* TE vectors, boolean solutions, verdicts, queries */
	AD_INVALIDATE_CONTEXTS = 1 << 1, /* context validity, verdicts */
	AD_INVALIDATE_NODES = 1 << 2,	/* a rule table node was added: the rule indexes */
} AdInvalidate;

/* policy.c */
void ad_policy_activate(AdPolicy *p);
const char *ad_sepol_last_message(void);
void ad_sepol_clear_message(void);
const char *ad_policy_perm_name(AdPolicy *p, guint16 tclass, guint bit);
class_datum_t *ad_class_lookup(AdPolicy *p, const char *name);
guint32 ad_perm_bit(class_datum_t *cls, const char *name);
char *ad_join_and(GPtrArray *items);
char *ad_unknown_list(GPtrArray *unknown);
void ad_policy_invalidate(AdPolicy *p, AdInvalidate what);
void ad_policy_cache_stats(AdPolicy *p, AdCacheStats *ret);
void ad_policy_caches_stash(AdPolicy *p, AdPolicyCaches *ret);
void ad_policy_caches_restore(AdPolicy *p, AdPolicyCaches *saved);
AdTeInfo *ad_te_lookup(AdPolicy *p, guint16 stype, guint16 ttype, guint16 tclass);
/*
 * Asks libsepol itself (sepol_compute_av_reason_buffer): the reference the
 * engine is tested against, and the path for bounded types.  Returns the
 * reason bits, or -1 when a name or context is not known.
 */
int ad_policy_sepol_reason(AdPolicy *p, const char *scontext, const char *tcontext,
			   const char *tclass, const char *const *perms, guint n_perms,
			   guint32 *ret_allowed);

/* policy-context.c */
const AdContextInfo *ad_context_lookup(AdPolicy *p, const char *str);
void ad_context_cache_trim(AdPolicy *p);
void ad_context_cache_clear(AdPolicy *p);
void ad_context_info_free(AdContextInfo *ci);
char *ad_mls_level_to_string(AdPolicy *p, const mls_level_t *l);
char *ad_mls_range_to_string(AdPolicy *p, const mls_range_t *r);
void ad_sidtab_trim(AdPolicy *p);
int ad_context_to_sid(AdPolicy *p, const context_struct_t *c, sepol_security_id_t *ret_sid);

/* policy-bool.c */
int ad_bool_index_build(AdPolicy *p);
const AdBoolResult *ad_bool_solve(AdPolicy *p, AdTeInfo *te, guint32 missing);
void ad_bool_result_free(AdBoolResult *r);
/* the boolean descriptions of policy.xml at @path into @p; FALSE with @error */
gboolean ad_bool_docs_load(AdPolicy *p, const char *path, GError **error);
/* the boolean @name, or the one an old name of booleans.subs_dist stands for; NULL: none */
cond_bool_datum_t *ad_bool_lookup(AdPolicy *p, const char *name);
int ad_cond_eval(const cond_expr_t *e, const guint8 *values, guint nbools);

/* policy-query.c */
void ad_allow_index_clear(AdPolicy *p);
void ad_allow_index_ready(AdPolicy *p);
void ad_class_index_ready(AdPolicy *p);
guint32 ad_class_index_target(const AdAllowIndex *ix, guint16 tclass, guint16 target,
			      guint32 *ret_end);
void ad_allow_index_node_added(AdPolicy *p, avtab_ptr_t node);
type_datum_t *ad_type_lookup(AdPolicy *p, const char *name);
role_datum_t *ad_role_lookup(AdPolicy *p, const char *name);
/* copies of the names of a symbol table's val_to_name[0..n) (NULLs skipped), sorted */
GPtrArray *ad_names_sorted(char **val_to_name, guint n);

/* policy-constraint.c */
void ad_constraint_cache_init(AdPolicy *p);
guint32 ad_constraint_check(AdPolicy *p, const context_struct_t *s, const context_struct_t *t,
			    guint16 tclass, guint32 requested, char **ret_words, char **ret_expr);

/* ends a what-if left open (policy-edit.c), as the policy is freed */
void ad_policy_edit_close(AdPolicy *p);

G_END_DECLS
