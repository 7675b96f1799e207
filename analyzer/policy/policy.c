/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy engine: loads a binary policy into a policydb_t of our own,
 * points libsepol's (global) security server at it, and answers "why was
 * this denied?" with everything cached.
 *
 * How a verdict is computed (see policy.h and docs/ARCHITECTURE.md):
 *   - names: class, permissions (also the kernel's hex form 0x800000),
 *     contexts (policy-context.c: libsepol converts, we diagnose failures);
 *   - TE: allowed/auditdeny vectors per (source type, target type, class),
 *     computed once with libsepol's avtab lookups exactly as
 *     context_struct_compute_av() does, and cached: the TE decision does not
 *     depend on users, roles or levels;
 *   - constraints (policy-constraint.c), the role allow check for process
 *     transitions, bounds (delegated to libsepol), evaluated for the
 *     requested permissions only;
 *   - booleans (policy-bool.c): every combination that grants the missing
 *     permissions, not only single flips.
 * Queries without a denial (roles, attributes, allowed types) live in
 * policy-query.c; in-memory additions for `allow --verify` in
 * policy-edit.c, after which ad_policy_invalidate() drops what they
 * change; verdicts are reference counted, so the ones callers hold stay
 * alive.  The verdict cache is bounded (two generations, see
 * ad_verdict_cache_make_room()): a flood of distinct MCS pairs costs
 * time, not memory.
 * The reason bits equal sepol_compute_av_reason_buffer()'s; the unit test
 * cross-checks that on thousands of accesses.  libsepol's own compute path
 * is not used per call because in 3.4 it formats the text of every
 * constraint it evaluates (20-35 us per call on refpolicy), while this
 * engine needs a few microseconds for a new MCS pair.
 */
#include "config.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <selinux/selinux.h>
#include <sepol/debug.h>
#include <sepol/handle.h>
#include <sepol/policydb/services.h>

#include "escape.h"
#include "hash.h"
#include "policy/policy-private.h"

G_DEFINE_QUARK(ad-policy-error-quark, ad_policy_error)

static const char *const ad_reason_names[] = {
	[AD_REASON_ALLOWED] = "allowed",
	[AD_REASON_DONTAUDIT] = "dontaudit",
	[AD_REASON_TE_RULE] = "te_rule",
	[AD_REASON_BOOLEAN] = "boolean",
	[AD_REASON_CONSTRAINT] = "constraint",
	[AD_REASON_RBAC] = "rbac",
	[AD_REASON_BOUNDS] = "bounds",
	[AD_REASON_UNKNOWN_TYPE] = "unknown_type",
	[AD_REASON_UNKNOWN_CLASS] = "unknown_class",
	[AD_REASON_UNKNOWN_PERMISSION] = "unknown_permission",
	[AD_REASON_INVALID_CONTEXT] = "invalid_context",
	[AD_REASON_UNKNOWN_LEVEL] = "unknown_level",
};

const char *ad_reason_name(AdReason r)
{
	if ((guint)r >= G_N_ELEMENTS(ad_reason_names))
		return "unknown";
	return ad_reason_names[r];
}

/* ---- libsepol's messages ------------------------------------------------ */

/*
 * libsepol reports through a handle; calls made without one (the security
 * server, policydb_read with a NULL handle) use this default handle from
 * libsepol's private debug.h, which prints to stderr.  The library never
 * prints: we keep the last message for error texts instead.
 */
extern sepol_handle_t sepol_compat_handle;

static char ad_sepol_msg[512];

static void G_GNUC_PRINTF(3, 4)
ad_sepol_msg_cb(void *arg, sepol_handle_t *handle, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_vsnprintf(ad_sepol_msg, sizeof(ad_sepol_msg), fmt, ap);
	va_end(ap);
}

static void ad_sepol_quiet(void)
{
	static gsize done;

	if (g_once_init_enter(&done)) {
		sepol_msg_set_callback(&sepol_compat_handle, ad_sepol_msg_cb, NULL);
		g_once_init_leave(&done, 1);
	}
}

const char *ad_sepol_last_message(void)
{
	return ad_sepol_msg;
}

void ad_sepol_clear_message(void)
{
	ad_sepol_msg[0] = '\0';
}

/* ---- loading ------------------------------------------------------------ */

static AdPolicy *ad_active_policy;

/*
 * libsepol's security server is global: point it at @p's policydb and
 * sidtab.  Cheap, so several AdPolicy objects can take turns.
 */
void ad_policy_activate(AdPolicy *p)
{
	if (ad_active_policy == p)
		return;
	sepol_set_policydb(&p->db);
	sepol_set_sidtab(&p->sidtab);
	ad_active_policy = p;
}

/*
 * The whole of the file at @path (a regular file or /sys/fs/selinux/policy,
 * whose size stat does not tell), NULL with errno set when it cannot be read.
 */
static char *read_whole(const char *path, gsize *ret_len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	gsize cap, len = 0;
	char *buf;
	ssize_t n;

	if (fd < 0)
		return NULL;
	cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (gsize)st.st_size + 1 : 1 << 20;
	buf = g_malloc(cap);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			buf = g_realloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	if (n < 0) {
		int e = errno;

		g_free(buf);
		close(fd);
		errno = e;
		return NULL;
	}
	close(fd);
	*ret_len = len;
	return buf;
}

/*
 * Reads the binary policy at @path into @p->db.  The file is read whole
 * and parsed from memory: libsepol reads a policy in pieces of a few bytes,
 * and through stdio that was a quarter of the loading time.
 */
static gboolean ad_policy_read(AdPolicy *p, const char *path, GError **error)
{
	g_autofree char *data = NULL;
	struct policy_file pf;
	guint32 magic = 0;
	gsize len = 0;
	int rc;

	data = read_whole(path, &len);
	if (!data) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_NOT_FOUND,
			    /* TRANSLATORS: %1$s is a file, %2$s the system's error message */
			    _("cannot open SELinux policy %s: %s"), path, g_strerror(errno));
		return FALSE;
	}
	if (len >= sizeof(magic))
		memcpy(&magic, data, sizeof(magic));
	if (GUINT32_FROM_LE(magic) != POLICYDB_MAGIC &&
	    GUINT32_FROM_LE(magic) != POLICYDB_MOD_MAGIC) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    _("%s is not a binary SELinux policy"), path);
		return FALSE;
	}
	if (GUINT32_FROM_LE(magic) == POLICYDB_MOD_MAGIC) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    _("%s is a policy module, not a binary (kernel) policy"), path);
		return FALSE;
	}

	policy_file_init(&pf);
	pf.type = PF_USE_MEMORY;
	pf.data = data;
	pf.len = len;
	if (policydb_init(&p->db) < 0) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    _("cannot read SELinux policy %s: out of memory"), path);
		return FALSE;
	}
	p->db_ready = TRUE;
	ad_sepol_clear_message();
	rc = policydb_read(&p->db, &pf, 0);
	if (rc < 0) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    /* TRANSLATORS: %1$s is a file, %2$s libsepol's message */
			    _("cannot read SELinux policy %s: %s"), path,
			    *ad_sepol_msg ? ad_sepol_msg : _("not a valid binary policy"));
		return FALSE;
	}
	if (p->db.policy_type != POLICY_KERN || !p->db.p_types.nprim || !p->db.p_classes.nprim) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    _("%s is not a binary (kernel) SELinux policy"), path);
		return FALSE;
	}
	return TRUE;
}

typedef struct {
	AdPolicy *p;
	guint cls;
} AdPermFill;

static int ad_perm_fill(hashtab_key_t key, hashtab_datum_t datum, void *arg)
{
	AdPermFill *f = arg;
	perm_datum_t *perm = datum;

	if (perm->s.value >= 1 && perm->s.value <= 32) {
		f->p->perm_names[f->cls * 32 + perm->s.value - 1] = key;
		f->p->class_perms[f->cls] |= 1u << (perm->s.value - 1);
	}
	return 0;
}

/* bit -> permission name for every class, for perms_missing and texts */
static void ad_perm_index_build(AdPolicy *p)
{
	guint n = p->db.p_classes.nprim;

	p->perm_names = g_new0(const char *, (gsize)n * 32);
	p->class_perms = g_new0(guint32, n);
	for (guint c = 0; c < n; c++) {
		class_datum_t *cls = p->db.class_val_to_struct[c];
		AdPermFill f = { p, c };

		if (!cls)
			continue;
		if (cls->comdatum)
			hashtab_map(cls->comdatum->permissions.table, ad_perm_fill, &f);
		hashtab_map(cls->permissions.table, ad_perm_fill, &f);
	}
}

/* The running system's boolean values replace the file's defaults. */
static void ad_policy_live_booleans(AdPolicy *p)
{
	for (guint i = 0; i < p->db.p_bools.nprim; i++) {
		cond_bool_datum_t *b = p->db.bool_val_to_struct[i];
		int v;

		if (!b || !p->db.p_bool_val_to_name[i])
			continue;
		v = security_get_boolean_active(p->db.p_bool_val_to_name[i]);
		if (v >= 0)
			b->state = v ? 1 : 0;
	}
}

/* ---- verdict lifetime ----------------------------------------------------- */

/* A verdict made by the policy: the public part first (same pointer). */
typedef struct {
	AdVerdict pub;
	guint hash;			/* of the content, for the interning */
	guint size;			/* estimated bytes, for the cache bound */
	gboolean expr_interned;		/* pub.constraint_expr is a GRefString */
} AdVerdictPriv;

/* verdicts alive in the process, for ad_policy_cache_stats() */
static gint ad_verdicts_live;

static void ad_verdict_free(AdVerdict *v)
{
	g_clear_pointer(&v->perms_missing, g_ptr_array_unref);
	g_clear_pointer(&v->booleans, g_ptr_array_unref);
	g_clear_pointer(&v->unknown, g_ptr_array_unref);
	g_free(v->constraint);
	if (((AdVerdictPriv *)v)->expr_interned)
		g_clear_pointer(&v->constraint_expr, g_ref_string_release);
	else
		g_free(v->constraint_expr);
	g_free(v->detail);
	g_free((AdVerdictPriv *)v);
	g_atomic_int_add(&ad_verdicts_live, -1);
}

AdVerdict *ad_verdict_new(void)
{
	AdVerdictPriv *vp = g_new0(AdVerdictPriv, 1);
	AdVerdict *v = &vp->pub;

	g_atomic_int_inc(&ad_verdicts_live);
	v->ref_count = 1;
	v->perms_missing = g_ptr_array_new_with_free_func(g_free);
	v->unknown = g_ptr_array_new_with_free_func(g_free);
	return v;
}

const AdVerdict *ad_verdict_ref(const AdVerdict *v)
{
	AdVerdict *w = (AdVerdict *)v;

	/* 0: a verdict built by hand, owned by whoever built it */
	if (w && g_atomic_int_get(&w->ref_count) > 0)
		g_atomic_int_inc(&w->ref_count);
	return v;
}

void ad_verdict_unref(const AdVerdict *v)
{
	AdVerdict *w = (AdVerdict *)v;

	if (!w || g_atomic_int_get(&w->ref_count) <= 0)
		return;
	if (g_atomic_int_dec_and_test(&w->ref_count))
		ad_verdict_free(w);
}

/* alternatives are shared from the boolean cache: their address identifies them */
static gconstpointer ad_verdict_alts(const AdVerdict *v)
{
	return v->booleans && v->booleans->len ? v->booleans : NULL;
}

static guint ad_hash_str(guint h, const char *s)
{
	return h * 31 + (s ? g_str_hash(s) : 0x2d);
}

static guint ad_hash_strv(guint h, GPtrArray *a)
{
	h = h * 31 + (a ? a->len : 0);
	for (guint i = 0; a && i < a->len; i++)
		h = ad_hash_str(h, a->pdata[i]);
	return h;
}

static gboolean ad_strv_equal(GPtrArray *a, GPtrArray *b)
{
	guint n = a ? a->len : 0;

	if (n != (b ? b->len : 0))
		return FALSE;
	for (guint i = 0; i < n; i++)
		if (strcmp(a->pdata[i], b->pdata[i]) != 0)
			return FALSE;
	return TRUE;
}

/* a string's allocation, rounded as malloc does, with its header */
static gsize ad_str_size(const char *s)
{
	return s ? ((strlen(s) + 1 + 15) & ~(gsize)15) + 16 : 0;
}

static gsize ad_strv_size(GPtrArray *a)
{
	gsize n;

	if (!a)
		return 0;
	/* the array, and its pointer block once it holds something (a power of 2) */
	n = 48;
	if (a->len)
		n += MAX(sizeof(gpointer) << g_bit_storage(a->len - 1), 16) + 16;
	for (guint i = 0; i < a->len; i++)
		n += ad_str_size(a->pdata[i]);
	return n;
}

/*
 * Once a computed verdict is complete: its content hash (the interning's
 * key) and its size estimate.
 */
static void ad_verdict_seal(AdVerdict *v)
{
	AdVerdictPriv *vp = (AdVerdictPriv *)v;
	gsize size = sizeof(AdVerdictPriv) + 16;
	guint h = v->reason;

	h = h * 31 + v->reason_bits;
	h = h * 31 + (v->booleans_partial ? 2 : 0) + (v->constraint_too ? 1 : 0);
	h = h * 31 + g_direct_hash(ad_verdict_alts(v));
	h = ad_hash_strv(h, v->perms_missing);
	h = ad_hash_strv(h, v->unknown);
	h = ad_hash_str(h, v->constraint);
	h = ad_hash_str(h, v->constraint_expr);
	h = ad_hash_str(h, v->detail);
	vp->hash = h;

	/* constraint_expr is interned (GRefString), the alternatives are shared */
	size += ad_strv_size(v->perms_missing) + ad_strv_size(v->unknown);
	size += ad_str_size(v->constraint) + ad_str_size(v->detail);
	if (v->booleans && !v->booleans->len)
		size += 48;	/* an empty array of its own */
	vp->size = (guint)MIN(size, G_MAXUINT);
}

static guint ad_verdict_hash(gconstpointer a)
{
	return ((const AdVerdictPriv *)a)->hash;
}

static gboolean ad_verdict_equal(gconstpointer a, gconstpointer b)
{
	const AdVerdict *x = a, *y = b;

	return ((const AdVerdictPriv *)a)->hash == ((const AdVerdictPriv *)b)->hash &&
	       x->reason == y->reason && x->reason_bits == y->reason_bits &&
	       !x->booleans_partial == !y->booleans_partial &&
	       !x->constraint_too == !y->constraint_too &&
	       ad_verdict_alts(x) == ad_verdict_alts(y) &&
	       ad_strv_equal(x->perms_missing, y->perms_missing) &&
	       ad_strv_equal(x->unknown, y->unknown) &&
	       g_strcmp0(x->constraint, y->constraint) == 0 &&
	       g_strcmp0(x->constraint_expr, y->constraint_expr) == 0 &&
	       g_strcmp0(x->detail, y->detail) == 0;
}

static void ad_verdict_gen_init(AdVerdictGen *g)
{
	g->by_key = g_hash_table_new_full(ad_str_hash, g_str_equal, g_free,
					  (GDestroyNotify)ad_verdict_unref);
	g->shared = g_hash_table_new_full(ad_verdict_hash, ad_verdict_equal,
					  (GDestroyNotify)ad_verdict_unref, NULL);
	g->bytes = 0;
}

/* Drops a generation: what nobody else holds is freed. */
static void ad_verdict_gen_clear(AdVerdictGen *g)
{
	g_clear_pointer(&g->by_key, g_hash_table_unref);
	g_clear_pointer(&g->shared, g_hash_table_unref);
	g->bytes = 0;
}

static void ad_te_info_free(AdTeInfo *te)
{
	if (!te)
		return;
	g_clear_pointer(&te->bools, g_ptr_array_unref);
	g_free(te);
}

AdPolicy *ad_policy_load(const char *path, GError **error)
{
	g_autofree char *found = NULL;
	gboolean live;

	found = ad_policy_find(path, &live, error);
	return found ? ad_policy_load_found(found, live, error) : NULL;
}

/*
 * The old boolean names a policy tree keeps beside its policy: Fedora's
 * booleans.subs_dist ("allow_ftpd_anon_write ftpd_anon_write" per line, as
 * libselinux's selinux_boolean_sub() reads it), in the directory above
 * policy/ (/etc/selinux/targeted/booleans.subs_dist for
 * /etc/selinux/targeted/policy/policy.33).  Only the lines whose new name
 * the policy defines and whose old name it does not; a missing file is
 * none.  The binary policy itself keeps no boolean aliases.
 */
static void read_bool_aliases(AdPolicy *p)
{
	g_autofree char *dir = g_path_get_dirname(p->path);
	g_autofree char *base = g_path_get_basename(dir);
	g_autofree char *top = g_path_get_dirname(dir);
	g_autofree char *file = g_build_filename(top, "booleans.subs_dist", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	gsize len = 0;

	if (strcmp(base, "policy") != 0 || !g_file_get_contents(file, &text, &len, NULL) ||
	    len > AD_BOOL_ALIASES_MAX || memchr(text, '\0', len))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		char from[256], to[256];

		/* "OLD NEW", whatever blanks part them; '#' comments */
		if (sscanf(*l, " %255s %255s", from, to) != 2 || from[0] == '#' ||
		    hashtab_search(p->db.p_bools.table, from) ||
		    !hashtab_search(p->db.p_bools.table, to))
			continue;
		if (!p->bool_aliases)
			p->bool_aliases = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
								g_free);
		g_hash_table_replace(p->bool_aliases, g_strdup(from), g_strdup(to));
	}
}

AdPolicy *ad_policy_load_found(const char *path, gboolean live, GError **error)
{
	g_autoptr(AdPolicy) p = NULL;

	g_return_val_if_fail(path != NULL, NULL);
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	ad_sepol_quiet();
	p = g_new0(AdPolicy, 1);
	p->path = g_strdup(path);
	if (!ad_policy_read(p, path, error))
		return NULL;

	p->live_booleans = live;
	if (live)
		ad_policy_live_booleans(p);
	read_bool_aliases(p);
	if (evaluate_conds(&p->db) < 0) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    _("cannot evaluate the conditional rules of %s"), path);
		return NULL;
	}
	if (sepol_sidtab_init(&p->sidtab) < 0) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    _("cannot load SELinux policy %s: out of memory"), path);
		return NULL;
	}
	p->sidtab_ready = TRUE;

	ad_perm_index_build(p);
	p->target_mask = g_new0(guint64, p->db.p_types.nprim / 64 + 1);
	p->target_perms = g_new0(guint32, p->db.p_types.nprim + 1);
	p->bool_scratch = g_new0(guint8, p->db.p_bools.nprim + 1);
	if (ad_bool_index_build(p) < 0) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_INVALID,
			    _("cannot index the conditional rules of %s"), path);
		return NULL;
	}
	p->contexts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					    (GDestroyNotify)ad_context_info_free);
	p->te = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
				      (GDestroyNotify)ad_te_info_free);
	ad_verdict_gen_init(&p->verdicts_cur);
	ad_verdict_gen_init(&p->verdicts_old);
	p->scratch = g_string_sized_new(256);
	p->types_allowed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						 (GDestroyNotify)g_ptr_array_unref);
	ad_constraint_cache_init(p);

	ad_policy_activate(p);
	return g_steal_pointer(&p);
}

void ad_policy_free(AdPolicy *p)
{
	if (!p)
		return;
	if (ad_active_policy == p)
		ad_active_policy = NULL;
	ad_verdict_gen_clear(&p->verdicts_cur);
	ad_verdict_gen_clear(&p->verdicts_old);
	ad_policy_edit_close(p);
	g_clear_pointer(&p->types_allowed, g_hash_table_unref);
	g_clear_pointer(&p->scopes, g_hash_table_unref);
	ad_allow_index_clear(p);
	g_clear_pointer(&p->added_nodes, g_ptr_array_unref);
	g_clear_pointer(&p->bool_docs, g_hash_table_unref);
	g_clear_pointer(&p->bool_aliases, g_hash_table_unref);
	g_clear_pointer(&p->undo_avtab, g_array_unref);
	g_clear_pointer(&p->undo_bools, g_array_unref);
	g_clear_pointer(&p->te, g_hash_table_unref);
	g_clear_pointer(&p->statements, g_hash_table_unref);
	g_clear_pointer(&p->contexts, g_hash_table_unref);
	g_clear_pointer(&p->cond_index, g_hash_table_unref);
	if (p->scratch)
		g_string_free(p->scratch, TRUE);
	if (p->sidtab_ready)
		sepol_sidtab_destroy(&p->sidtab);
	if (p->db_ready)
		policydb_destroy(&p->db);
	g_free(p->perm_names);
	g_free(p->class_perms);
	g_free(p->target_mask);
	g_free(p->target_perms);
	g_free(p->bool_scratch);
	g_free(p->path);
	g_free(p);
}

const char *ad_policy_path(const AdPolicy *p)
{
	return p->path;
}

gboolean ad_policy_is_mls(const AdPolicy *p)
{
	return p->db.mls != 0;
}

/* ---- names ---------------------------------------------------------------- */

class_datum_t *ad_class_lookup(AdPolicy *p, const char *name)
{
	if (!name || !*name)
		return NULL;
	return hashtab_search(p->db.p_classes.table, name);
}

/* The permission bit of @name in @cls, or 0. */
guint32 ad_perm_bit(class_datum_t *cls, const char *name)
{
	perm_datum_t *perm = hashtab_search(cls->permissions.table, name);

	if (!perm && cls->comdatum)
		perm = hashtab_search(cls->comdatum->permissions.table, name);
	if (!perm || perm->s.value < 1 || perm->s.value > 32)
		return 0;
	return 1u << (perm->s.value - 1);
}

const char *ad_policy_perm_name(AdPolicy *p, guint16 tclass, guint bit)
{
	if (!tclass || tclass > p->db.p_classes.nprim || bit >= 32)
		return NULL;
	return p->perm_names[(tclass - 1) * 32 + bit];
}

gboolean ad_policy_has_type(AdPolicy *p, const char *name)
{
	type_datum_t *t;

	if (!name || !*name)
		return FALSE;
	t = hashtab_search(p->db.p_types.table, name);
	return t && t->flavor != TYPE_ATTRIB;
}

gboolean ad_policy_has_class(AdPolicy *p, const char *name)
{
	return ad_class_lookup(p, name) != NULL;
}

gboolean ad_policy_has_perm(AdPolicy *p, const char *tclass, const char *perm)
{
	class_datum_t *cls = ad_class_lookup(p, tclass);

	return cls && perm && *perm && ad_perm_bit(cls, perm) != 0;
}

cond_bool_datum_t *ad_bool_lookup(AdPolicy *p, const char *name)
{
	cond_bool_datum_t *b;
	const char *to;

	if (!name || !*name)
		return NULL;
	b = hashtab_search(p->db.p_bools.table, (hashtab_key_t)name);
	if (b || !p->bool_aliases || !(to = g_hash_table_lookup(p->bool_aliases, name)))
		return b;
	return hashtab_search(p->db.p_bools.table, (hashtab_key_t)to);
}

int ad_policy_bool_value(AdPolicy *p, const char *name)
{
	cond_bool_datum_t *b = ad_bool_lookup(p, name);

	return b ? (b->state ? 1 : 0) : -1;
}

const char *ad_policy_bool_primary(AdPolicy *p, const char *name)
{
	cond_bool_datum_t *b = ad_bool_lookup(p, name);

	return b ? p->db.p_bool_val_to_name[b->s.value - 1] : NULL;
}

/* ---- TE ------------------------------------------------------------------- */

/*
 * The TE vectors of (stype, ttype, tclass), cached: the attribute pairs
 * are walked and looked up in the unconditional and the (currently
 * enabled) conditional tables, as context_struct_compute_av() does.
 */
AdTeInfo *ad_te_lookup(AdPolicy *p, guint16 stype, guint16 ttype, guint16 tclass)
{
	gint64 key = ((gint64)tclass << 32) | ((gint64)stype << 16) | ttype;
	struct sepol_av_decision avd = { 0 };
	ebitmap_node_t *snode, *tnode;
	ebitmap_t *sattr, *tattr;
	avtab_key_t k = { 0 };
	unsigned int i, j;
	AdTeInfo *te;

	te = g_hash_table_lookup(p->te, &key);
	if (te)
		return te;

	avd.allowed = 0;
	avd.auditallow = 0;
	avd.auditdeny = 0xffffffff;
	k.target_class = tclass;
	k.specified = AVTAB_AV;
	sattr = &p->db.type_attr_map[stype - 1];
	tattr = &p->db.type_attr_map[ttype - 1];
	ebitmap_for_each_positive_bit(sattr, snode, i) {
		ebitmap_for_each_positive_bit(tattr, tnode, j) {
			avtab_ptr_t node;

			k.source_type = i + 1;
			k.target_type = j + 1;
			for (node = avtab_search_node(&p->db.te_avtab, &k); node;
			     node = avtab_search_node_next(node, k.specified)) {
				if (node->key.specified == AVTAB_ALLOWED)
					avd.allowed |= node->datum.data;
				else if (node->key.specified == AVTAB_AUDITDENY)
					avd.auditdeny &= node->datum.data;
			}
			cond_compute_av(&p->db.te_cond_avtab, &k, &avd);
		}
	}

	te = g_new0(AdTeInfo, 1);
	te->key = key;
	te->stype = stype;
	te->ttype = ttype;
	te->tclass = tclass;
	te->allowed = avd.allowed;
	te->auditdeny = avd.auditdeny;
	te->bools = g_ptr_array_new_with_free_func((GDestroyNotify)ad_bool_result_free);
	g_hash_table_insert(p->te, &te->key, te);
	return te;
}

/* ---- verdicts ------------------------------------------------------------ */

static int ad_strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends the names of @bits (bit order) to @v->perms_missing. */
static void ad_verdict_add_perms(AdPolicy *p, AdVerdict *v, guint16 tclass, guint32 bits)
{
	for (guint b = 0; b < 32; b++) {
		const char *name;

		if (!(bits & (1u << b)))
			continue;
		name = ad_policy_perm_name(p, tclass, b);
		g_ptr_array_add(v->perms_missing,
				name ? g_strdup(name) : g_strdup_printf("0x%x", 1u << b));
	}
}

/* "a", "a and b", "a, b and c" (for people: the separators are translated) */
char *ad_join_and(GPtrArray *items)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < items->len; i++) {
		if (i > 0)
			/* TRANSLATORS: separate the items of a list: "a, b and c" */
			g_string_append(s, i + 1 == items->len ? C_("list", " and ")
					: C_("list", ", "));
		g_string_append(s, items->pdata[i]);
	}
	return g_string_free(s, FALSE);
}

/*
 * "the type foo_t" for the item "type foo_t" of a verdict's unknown list
 * (which stays as it is: the JSON output has it).
 */
static char *ad_unknown_phrase(const char *item)
{
	const char *name = strchr(item, ' ');
	g_autofree char *kind = name ? g_strndup(item, (gsize)(name - item)) : NULL;

	if (!kind)
		return g_strdup_printf("the %s", item);
	name++;
	if (g_str_equal(kind, "type"))
		/* TRANSLATORS: %s is the name of something the policy does not define */
		return g_strdup_printf(_("the type %s"), name);
	if (g_str_equal(kind, "user"))
		return g_strdup_printf(_("the user %s"), name);
	if (g_str_equal(kind, "role"))
		return g_strdup_printf(_("the role %s"), name);
	if (g_str_equal(kind, "class"))
		return g_strdup_printf(_("the class %s"), name);
	if (g_str_equal(kind, "permission"))
		return g_strdup_printf(_("the permission %s"), name);
	if (g_str_equal(kind, "level"))
		return g_strdup_printf(_("the level %s"), name);
	if (g_str_equal(kind, "category"))
		return g_strdup_printf(_("the category %s"), name);
	return g_strdup_printf("the %s", item);
}

/* "the type foo_t and the user test_u", from a verdict's unknown list */
char *ad_unknown_list(GPtrArray *unknown)
{
	g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < unknown->len; i++)
		g_ptr_array_add(items, ad_unknown_phrase(unknown->pdata[i]));
	return ad_join_and(items);
}

static void ad_append_sentence(char **detail, const char *text)
{
	char *old = *detail;

	if (!text || !*text)
		return;
	*detail = old ? g_strdup_printf("%s; %s", old, text) : g_strdup(text);
	g_free(old);
}

/* Is there an "allow @from @to;" role rule? */
static gboolean ad_role_allowed(AdPolicy *p, guint32 from, guint32 to)
{
	for (role_allow_t *ra = p->db.role_allow; ra; ra = ra->next)
		if (ra->role == from && ra->new_role == to)
			return TRUE;
	return FALSE;
}

/*
 * The reason bits, as context_struct_compute_av() sets them, and the
 * requested bits that survive every check.
 */
static guint32 ad_compute_bits(AdPolicy *p, const AdTeInfo *te, const context_struct_t *s,
			       const context_struct_t *t, guint16 tclass, guint32 requested,
			       guint32 *ret_granted)
{
	guint32 bits = 0, remaining = requested & te->allowed;

	if (requested & ~te->allowed)
		bits |= SEPOL_COMPUTEAV_TE;
	if (remaining) {
		guint32 denied = ad_constraint_check(p, s, t, tclass, remaining, NULL, NULL);

		if (denied) {
			bits |= SEPOL_COMPUTEAV_CONS;
			remaining &= ~denied;
		}
	}
	if (tclass == p->db.process_class && (remaining & p->db.process_trans_dyntrans) &&
	    s->role != t->role && !ad_role_allowed(p, s->role, t->role)) {
		bits |= SEPOL_COMPUTEAV_RBAC;
		remaining &= ~p->db.process_trans_dyntrans;
	}
	*ret_granted = remaining;
	return bits;
}

/*
 * Bounded types (typebounds): libsepol masks the permissions the bounding
 * type lacks.  Rare enough to ask libsepol itself.
 */
static guint32 ad_compute_bits_sepol(AdPolicy *p, const context_struct_t *s,
				     const context_struct_t *t, guint16 tclass, guint32 requested,
				     guint32 *ret_granted)
{
	struct sepol_av_decision avd = { 0 };
	sepol_security_id_t ssid, tsid;
	unsigned int reason = 0;
	char *buf = NULL;

	ad_policy_activate(p);
	ad_sidtab_trim(p);
	if (ad_context_to_sid(p, s, &ssid) < 0 || ad_context_to_sid(p, t, &tsid) < 0 ||
	    sepol_compute_av_reason_buffer(ssid, tsid, tclass, requested, &avd, &reason, &buf,
					   0) < 0) {
		free(buf);
		*ret_granted = 0;
		return SEPOL_COMPUTEAV_TE;
	}
	free(buf);
	*ret_granted = requested & avd.allowed;
	return reason;
}

/* the failing statements: the same for every level pair, kept once (a GRefString) */
static void ad_verdict_set_expr(AdVerdict *v, const char *expr)
{
	if (!expr)
		return;
	v->constraint_expr = g_ref_string_new_intern(expr);
	((AdVerdictPriv *)v)->expr_interned = TRUE;
}

/* Fills reason, booleans, constraint texts and details from the reason bits. */
static void ad_verdict_decide(AdPolicy *p, AdVerdict *v, AdTeInfo *te, const context_struct_t *s,
			      const context_struct_t *t, guint16 tclass, guint32 requested)
{
	const char *sname = p->db.p_type_val_to_name[s->type - 1];
	const char *tname = p->db.p_type_val_to_name[t->type - 1];
	guint32 granted = 0, cons_denied, te_missing = requested & ~te->allowed;
	g_autofree char *words = NULL, *expr = NULL;
	type_datum_t *sdatum = p->db.type_val_to_struct[s->type - 1];

	if (sdatum && sdatum->bounds)
		v->reason_bits = ad_compute_bits_sepol(p, s, t, tclass, requested, &granted);
	else
		v->reason_bits = ad_compute_bits(p, te, s, t, tclass, requested, &granted);
	ad_verdict_add_perms(p, v, tclass, requested & ~granted);

	cons_denied = ad_constraint_check(p, s, t, tclass, requested, &words, &expr);

	if (v->reason_bits == 0) {
		v->reason = AD_REASON_ALLOWED;
		v->detail = g_strdup(_("the current policy allows this access: the record comes "
				       "from another policy, other boolean values, or was granted"));
	} else if (v->reason_bits & SEPOL_COMPUTEAV_TE) {
		const AdBoolResult *br = ad_bool_solve(p, te, te_missing);

		if (br->alts && br->alts->len) {
			v->booleans = g_ptr_array_ref(br->alts);
			v->booleans_partial = br->partial;
		}
		if (v->booleans && !v->booleans_partial) {
			v->reason = AD_REASON_BOOLEAN;
		} else if (requested & ~te->auditdeny) {
			v->reason = AD_REASON_DONTAUDIT;
			/* TRANSLATORS: dontaudit and semodule -DB stay as they are */
			v->detail = g_strdup(_("a dontaudit rule hides this denial in the current "
					       "policy: it was logged under another policy, or with "
					       "dontaudit rules disabled (semodule -DB)"));
		} else {
			g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
			g_autofree char *list = NULL;

			for (guint b = 0; b < 32; b++) {
				const char *n = ad_policy_perm_name(p, tclass, b);

				if ((te_missing & (1u << b)) && n)
					g_ptr_array_add(names, g_strdup(n));
			}
			list = ad_join_and(names);
			v->reason = AD_REASON_TE_RULE;
			/* TRANSLATORS: %1$s is the source type, %2$s permissions ("read and
			   open"), %3$s the target type, %4$s the class; "allow rule" is
			   policy language */
			v->detail = g_strdup_printf(_("no allow rule grants %s %s on %s (class %s)"),
						    sname, list, tname,
						    p->db.p_class_val_to_name[tclass - 1]);
		}
		if (v->booleans_partial)
			ad_append_sentence(&v->detail,
					   _("booleans can grant some of the missing permissions, "
					     "but not all of them"));
		if (cons_denied) {
			v->constraint_too = TRUE;
			v->constraint = g_steal_pointer(&words);
			ad_verdict_set_expr(v, expr);
		}
	} else if (v->reason_bits & SEPOL_COMPUTEAV_CONS) {
		v->reason = AD_REASON_CONSTRAINT;
		v->constraint = g_steal_pointer(&words);
		ad_verdict_set_expr(v, expr);
	} else if (v->reason_bits & SEPOL_COMPUTEAV_RBAC) {
		v->reason = AD_REASON_RBAC;
		/* TRANSLATORS: %1$s and %3$s are one role, %2$s and %4$s another;
		   "allow %3$s %4$s;" is policy language: keep it as it is */
		v->detail = g_strdup_printf(_("the role %s may not change to the role %s: the "
					      "policy has no \"allow %s %s;\" rule"),
					    p->db.p_role_val_to_name[s->role - 1],
					    p->db.p_role_val_to_name[t->role - 1],
					    p->db.p_role_val_to_name[s->role - 1],
					    p->db.p_role_val_to_name[t->role - 1]);
	} else {
		v->reason = AD_REASON_BOUNDS;
		/* TRANSLATORS: %1$s and %2$s are SELinux types (typebounds) */
		v->detail = g_strdup_printf(_("the type %s is bounded by %s, which is not allowed "
					      "this access"),
					    sname,
					    sdatum && sdatum->bounds ?
					    p->db.p_type_val_to_name[sdatum->bounds - 1] : "?");
	}
}

/* "the source context X is invalid: ..." for a failed conversion */
static void ad_verdict_context_problem(AdVerdict *v, const AdContextInfo *ci, gboolean target,
				       const char *str)
{
	g_autofree char *sentence = NULL;

	for (guint i = 0; ci->unknown && i < ci->unknown->len; i++)
		g_ptr_array_add(v->unknown, g_strdup(ci->unknown->pdata[i]));
	/* TRANSLATORS: %1$s is an SELinux context, %2$s what is wrong with it */
	sentence = g_strdup_printf(target ? _("the target context %s is invalid: %s")
				   : _("the source context %s is invalid: %s"), str, ci->problem);
	ad_append_sentence(&v->detail, sentence);
}

/*
 * Computes the verdict for one access; @perms are sorted and unique.
 * Never fails: what the policy lacks becomes an unknown_* reason.
 */
static AdVerdict *ad_explain_compute(AdPolicy *p, const char *scon, const char *tcon,
				     const char *tclass, const char **perms, guint n)
{
	AdVerdict *v = ad_verdict_new();
	g_autoptr(GPtrArray) bad_perms = g_ptr_array_new();
	const AdContextInfo *si, *ti;
	class_datum_t *cls;
	guint32 requested = 0;
	gboolean unknown_class = FALSE, unknown_type = FALSE, invalid = FALSE;
	gboolean unknown_level = FALSE;

	cls = ad_class_lookup(p, tclass);
	if (!cls) {
		unknown_class = TRUE;
		g_ptr_array_add(v->unknown, g_strdup_printf("class %s", tclass));
		v->detail = g_strdup_printf(_("the class %s is not defined in this policy"),
					    tclass);
		if (n == 0)
			ad_append_sentence(&v->detail, _("an object manager (such as dbus-broker) "
							 "needs it: the policy lacks the class"));
	} else {
		guint16 c = cls->s.value;

		for (guint i = 0; i < n; i++) {
			guint32 bit = ad_perm_bit(cls, perms[i]);
			guint64 hex;

			/* the kernel logs permissions it has no name for as one hex mask */
			if (!bit && g_str_has_prefix(perms[i], "0x") &&
			    g_ascii_string_to_unsigned(perms[i] + 2, 16, 1, G_MAXUINT32, &hex, NULL) &&
			    ((guint32)hex & ~p->class_perms[c - 1]) == 0)
				bit = (guint32)hex;
			if (bit)
				requested |= bit;
			else
				g_ptr_array_add(bad_perms, (gpointer)perms[i]);
		}
		if (bad_perms->len) {
			g_autofree char *list = ad_join_and(bad_perms);

			for (guint i = 0; i < bad_perms->len; i++)
				g_ptr_array_add(v->unknown,
						g_strdup_printf("permission %s",
								(char *)bad_perms->pdata[i]));
			/* TRANSLATORS: %1$s is a permission or a list of them ("a, b and
			   c"), %2$s a class */
			v->detail = g_strdup_printf(ngettext("the permission %s is not defined for "
							     "the class %s",
							     "the permissions %s are not defined for "
							     "the class %s", bad_perms->len),
						    list, tclass);
		} else if (n == 0) {
			/* an object manager's "Unknown class": this policy has the class */
			unknown_class = TRUE;
			g_ptr_array_add(v->unknown, g_strdup_printf("class %s", tclass));
			v->detail = g_strdup_printf(_("the policy the record was logged under lacked "
						      "the class %s, which this policy defines: that "
						      "system ran an older or different policy"), tclass);
		}
	}

	si = ad_context_lookup(p, scon);
	ti = ad_context_lookup(p, tcon);
	if (!si->ok) {
		ad_verdict_context_problem(v, si, FALSE, scon);
		unknown_type |= si->reason == AD_REASON_UNKNOWN_TYPE;
		unknown_level |= si->reason == AD_REASON_UNKNOWN_LEVEL;
		invalid |= si->reason == AD_REASON_INVALID_CONTEXT;
	}
	if (!ti->ok) {
		ad_verdict_context_problem(v, ti, TRUE, tcon);
		unknown_type |= ti->reason == AD_REASON_UNKNOWN_TYPE;
		unknown_level |= ti->reason == AD_REASON_UNKNOWN_LEVEL;
		invalid |= ti->reason == AD_REASON_INVALID_CONTEXT;
	}

	if (unknown_class || bad_perms->len || n == 0 || unknown_type || unknown_level || invalid) {
		/* audit2why's order: contexts (BADSCON/BADTCON), class, permissions */
		if (unknown_type)
			v->reason = AD_REASON_UNKNOWN_TYPE;
		else if (unknown_level)
			v->reason = AD_REASON_UNKNOWN_LEVEL;
		else if (invalid)
			v->reason = AD_REASON_INVALID_CONTEXT;
		else if (unknown_class)
			v->reason = AD_REASON_UNKNOWN_CLASS;
		else
			v->reason = AD_REASON_UNKNOWN_PERMISSION;
		/* nothing could be checked: every permission counts as missing */
		for (guint i = 0; i < n; i++)
			g_ptr_array_add(v->perms_missing, g_strdup(perms[i]));
		v->booleans = g_ptr_array_new();
		return v;
	}

	ad_verdict_decide(p, v, ad_te_lookup(p, si->ctx.type, ti->ctx.type, cls->s.value),
			  &si->ctx, &ti->ctx, cls->s.value, requested);
	if (si->note)
		ad_append_sentence(&v->detail, si->note);
	if (ti->note && !(si->note && g_str_equal(si->note, ti->note)))
		ad_append_sentence(&v->detail, ti->note);
	if (!v->booleans)
		v->booleans = g_ptr_array_new();
	return v;
}

/*
 * A string, length first: no content can fake a field boundary.  Built
 * four times per denial for the verdict cache's key, so without a call
 * while @fp has room.  The length is in hex, least significant digit
 * first, and ends in \x1f.
 */
static void ad_fp_str(GString *fp, const char *s)
{
	char buf[2 * sizeof(gsize) + 1];
	gsize len, n = 0;

	if (!s) {
		g_string_append_c(fp, '-');
		return;
	}
	len = strlen(s);
	for (gsize x = len;;) {
		buf[n++] = "0123456789abcdef"[x & 15];
		x >>= 4;
		if (!x)
			break;
	}
	buf[n++] = '\x1f';
	ad_string_append_len(fp, buf, n);
	ad_string_append_len(fp, s, len);
}

/* what one cached access key costs: the string and the table's slots */
static gsize ad_key_size(const char *key)
{
	return ad_str_size(key) + 48;
}

/* what one interned verdict costs: the verdict and the table's slots */
static gsize ad_shared_size(const AdVerdict *v)
{
	return ((const AdVerdictPriv *)v)->size + 24;
}

/*
 * The verdict cache has two generations of at most AD_VERDICT_CACHE_MAX / 2
 * keys and about AD_VERDICT_CACHE_BYTES / 2 each.  Entries go into the
 * current one; a hit in the old one moves the entry (key and reference)
 * to the current one.  Before an insertion into a full current
 * generation, the old generation is dropped (unreferenced: verdicts
 * callers hold survive) and the current one becomes the old one.  So the
 * accesses seen lately stay cached, and a verdict just returned, being in
 * the current generation, outlives the next call in any case.
 *
 * Invariant: every verdict a key of a generation maps to is in the same
 * generation's interning set, so an identical verdict is never made twice
 * while one is cached.
 */
static void ad_verdict_cache_make_room(AdPolicy *p)
{
	AdVerdictGen *cur = &p->verdicts_cur;

	if (g_hash_table_size(cur->by_key) < AD_VERDICT_CACHE_MAX / 2 &&
	    cur->bytes < AD_VERDICT_CACHE_BYTES / 2)
		return;
	ad_verdict_gen_clear(&p->verdicts_old);
	p->verdicts_old = *cur;
	ad_verdict_gen_init(cur);
	p->verdict_rotations++;
}

/*
 * Adds @key -> @v to the current generation, with @v in its interning
 * set (moved from the old generation when it is there).  Takes @key and
 * one reference to @v.
 */
static void ad_verdict_cache_add(AdPolicy *p, char *key, AdVerdict *v)
{
	AdVerdictGen *cur = &p->verdicts_cur, *old = &p->verdicts_old;

	if (!g_hash_table_contains(cur->shared, v)) {
		if (g_hash_table_steal(old->shared, v))
			old->bytes -= MIN(old->bytes, ad_shared_size(v));
		else
			ad_verdict_ref(v);
		g_hash_table_add(cur->shared, v);
		cur->bytes += ad_shared_size(v);
	}
	g_hash_table_insert(cur->by_key, key, v);
	cur->bytes += ad_key_size(key);
}

/*
 * Identical verdicts (the same TE denial for many users, levels or
 * processes) are kept once.  Consumes the reference @v comes with and
 * returns one to the cached verdict equal to it, or @v.
 */
static AdVerdict *ad_verdict_intern(AdPolicy *p, AdVerdict *v)
{
	gpointer found = NULL;

	ad_verdict_seal(v);
	if (g_hash_table_lookup_extended(p->verdicts_cur.shared, v, &found, NULL) ||
	    g_hash_table_lookup_extended(p->verdicts_old.shared, v, &found, NULL)) {
		ad_verdict_unref(v);
		return (AdVerdict *)ad_verdict_ref(found);
	}
	return v;
}

/*
 * After an edit: forget what depended on the changed part, and every
 * verdict (unreferenced: the ones callers hold keep their old answer);
 * new calls compute new ones.
 */
void ad_policy_invalidate(AdPolicy *p, AdInvalidate what)
{
	if (what & AD_INVALIDATE_TE) {
		g_hash_table_remove_all(p->te);
		g_hash_table_remove_all(p->types_allowed);
		g_clear_pointer(&p->scopes, g_hash_table_unref);
	}
	if (what & AD_INVALIDATE_NODES)
		ad_allow_index_clear(p);
	if (what & AD_INVALIDATE_CONTEXTS)
		ad_context_cache_clear(p);
	ad_verdict_gen_clear(&p->verdicts_old);
	ad_verdict_gen_clear(&p->verdicts_cur);
	ad_verdict_gen_init(&p->verdicts_old);
	ad_verdict_gen_init(&p->verdicts_cur);
}

/* Moves the rule-dependent caches to @ret and starts empty ones. */
void ad_policy_caches_stash(AdPolicy *p, AdPolicyCaches *ret)
{
	ret->te = p->te;
	ret->types_allowed = p->types_allowed;
	ret->scopes = g_steal_pointer(&p->scopes);
	ret->cur = p->verdicts_cur;
	ret->old = p->verdicts_old;
	p->te = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL,
				      (GDestroyNotify)ad_te_info_free);
	p->types_allowed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						 (GDestroyNotify)g_ptr_array_unref);
	ad_verdict_gen_init(&p->verdicts_cur);
	ad_verdict_gen_init(&p->verdicts_old);
}

/* Drops the caches filled since ad_policy_caches_stash() and puts @saved back. */
void ad_policy_caches_restore(AdPolicy *p, AdPolicyCaches *saved)
{
	ad_verdict_gen_clear(&p->verdicts_cur);
	ad_verdict_gen_clear(&p->verdicts_old);
	g_clear_pointer(&p->types_allowed, g_hash_table_unref);
	g_clear_pointer(&p->te, g_hash_table_unref);
	g_clear_pointer(&p->scopes, g_hash_table_unref);
	p->te = saved->te;
	p->types_allowed = saved->types_allowed;
	p->scopes = saved->scopes;
	p->verdicts_cur = saved->cur;
	p->verdicts_old = saved->old;
	memset(saved, 0, sizeof(*saved));
}

void ad_policy_cache_stats(AdPolicy *p, AdCacheStats *ret)
{
	const AdVerdictGen *cur = &p->verdicts_cur, *old = &p->verdicts_old;

	ret->keys = g_hash_table_size(cur->by_key) + g_hash_table_size(old->by_key);
	ret->verdicts = g_hash_table_size(cur->shared) + g_hash_table_size(old->shared);
	ret->bytes = cur->bytes + old->bytes;
	ret->rotations = p->verdict_rotations;
	ret->hits = p->verdict_hits;
	ret->misses = p->verdict_misses;
	ret->live = (guint)g_atomic_int_get(&ad_verdicts_live);
}

const AdVerdict *ad_policy_explain(AdPolicy *p, const char *scontext, const char *tcontext,
				   const char *tclass, const char *const *perms, guint n_perms)
{
	const char *stack[32];
	g_autofree const char **heap = NULL;
	const char **sorted = stack;
	gpointer key = NULL, found = NULL;
	AdVerdict *v;
	guint n = 0;

	g_return_val_if_fail(p != NULL, NULL);
	if (!scontext)
		scontext = "";
	if (!tcontext)
		tcontext = "";
	if (!tclass)
		tclass = "";

	if (n_perms > G_N_ELEMENTS(stack))
		sorted = heap = g_new(const char *, n_perms);
	for (guint i = 0; i < n_perms; i++)
		if (perms[i] && *perms[i])
			sorted[n++] = perms[i];
	/* one or two permissions nearly always: no qsort() call for those */
	if (n == 2 && strcmp(sorted[0], sorted[1]) > 0) {
		const char *t = sorted[0];

		sorted[0] = sorted[1];
		sorted[1] = t;
	} else if (n > 2) {
		qsort(sorted, n, sizeof(*sorted), ad_strcmp_ptr);
	}
	if (n > 1) {
		guint w = 1;

		for (guint i = 1; i < n; i++)
			if (strcmp(sorted[i], sorted[w - 1]) != 0)
				sorted[w++] = sorted[i];
		n = w;
	}

	g_string_truncate(p->scratch, 0);
	ad_fp_str(p->scratch, scontext);
	ad_fp_str(p->scratch, tcontext);
	ad_fp_str(p->scratch, tclass);
	for (guint i = 0; i < n; i++)
		ad_fp_str(p->scratch, sorted[i]);
	v = g_hash_table_lookup(p->verdicts_cur.by_key, p->scratch->str);
	if (v) {
		p->verdict_hits++;
		return v;
	}
	if (g_hash_table_lookup_extended(p->verdicts_old.by_key, p->scratch->str, &key, &found)) {
		/* hot again: the entry, key and reference, moves to the current generation */
		p->verdict_hits++;
		g_hash_table_steal(p->verdicts_old.by_key, key);
		p->verdicts_old.bytes -= MIN(p->verdicts_old.bytes, ad_key_size(key));
		ad_verdict_cache_make_room(p);
		ad_verdict_cache_add(p, key, found);
		return found;
	}

	p->verdict_misses++;
	ad_context_cache_trim(p);
	v = ad_explain_compute(p, scontext, tcontext, tclass, sorted, n);
	ad_verdict_cache_make_room(p);
	v = ad_verdict_intern(p, v);
	ad_verdict_cache_add(p, g_strdup(p->scratch->str), v);
	return v;
}

char *ad_policy_context_problem(AdPolicy *p, const char *context)
{
	const AdContextInfo *ci;

	g_return_val_if_fail(p != NULL, NULL);
	ad_context_cache_trim(p);
	ci = ad_context_lookup(p, context ? context : "");
	if (ci->ok)
		return NULL;
	return g_strdup(ci->problem);
}

int ad_policy_sepol_reason(AdPolicy *p, const char *scontext, const char *tcontext,
			   const char *tclass, const char *const *perms, guint n_perms,
			   guint32 *ret_allowed)
{
	struct sepol_av_decision avd = { 0 };
	sepol_security_class_t c;
	sepol_access_vector_t av = 0;
	sepol_security_id_t ssid, tsid;
	const AdContextInfo *si, *ti;
	unsigned int reason = 0;
	char *buf = NULL;

	ad_policy_activate(p);
	if (sepol_string_to_security_class(tclass, &c) < 0)
		return -1;
	for (guint i = 0; i < n_perms; i++) {
		sepol_access_vector_t bit;

		if (sepol_string_to_av_perm(c, perms[i], &bit) < 0)
			return -1;
		av |= bit;
	}
	ad_context_cache_trim(p);
	si = ad_context_lookup(p, scontext);
	ti = ad_context_lookup(p, tcontext);
	if (!si->ok || !ti->ok)
		return -1;
	ad_sidtab_trim(p);
	if (ad_context_to_sid(p, &si->ctx, &ssid) < 0 || ad_context_to_sid(p, &ti->ctx, &tsid) < 0)
		return -1;
	if (sepol_compute_av_reason_buffer(ssid, tsid, c, av, &avd, &reason, &buf, 0) < 0) {
		free(buf);
		return -1;
	}
	free(buf);
	if (ret_allowed)
		*ret_allowed = avd.allowed;
	return (int)reason;
}
