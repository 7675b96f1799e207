/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scope: what else a change opens, counted from the policy's rules over
 * types (attributes expanded), so that two fixes that both stop a denial
 * can be compared.  A boolean opens the accesses of the conditional rules
 * it switches on; a new label on an object exposes it to every domain the
 * rules let at that type.  The answers are cached per question in the
 * policy (bounded; emptied by edits), so each is computed once.
 */
#include "config.h"

#include <string.h>

#include "policy/policy-private.h"

/* scope answers cached at most; emptied beyond */
#define AD_SCOPE_CACHE_MAX 1024
/* examples kept per answer */
#define AD_SCOPE_EXAMPLES 3

typedef struct {
	gint64 accesses;
	gint64 domains;
	GPtrArray *examples;		/* char* */
	guint32 *bits;			/* type scopes: per source type value - 1, or NULL */
} AdScopeCount;

static void ad_scope_count_free(AdScopeCount *c)
{
	if (!c)
		return;
	g_ptr_array_unref(c->examples);
	g_free(c->bits);
	g_free(c);
}

static AdScopeCount *ad_scope_cached(AdPolicy *p, const char *key)
{
	return p->scopes ? g_hash_table_lookup(p->scopes, key) : NULL;
}

static void ad_scope_cache(AdPolicy *p, const char *key, AdScopeCount *c)
{
	if (!p->scopes)
		p->scopes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						  (GDestroyNotify)ad_scope_count_free);
	if (g_hash_table_size(p->scopes) >= AD_SCOPE_CACHE_MAX)
		g_hash_table_remove_all(p->scopes);
	g_hash_table_insert(p->scopes, g_strdup(key), c);
}

static gint64 ad_scope_answer(const AdScopeCount *c, gint64 *ret_domains, GPtrArray *examples)
{
	if (ret_domains)
		*ret_domains = c->domains;
	for (guint i = 0; examples && i < c->examples->len; i++)
		g_ptr_array_add(examples, g_strdup(g_ptr_array_index(c->examples, i)));
	return c->accesses;
}

/* the types of a rule's side: the type itself, or every type of the attribute */
static const ebitmap_t *ad_side_types(AdPolicy *p, guint32 value, ebitmap_t *single)
{
	type_datum_t *t = p->db.type_val_to_struct[value - 1];

	if (t && t->flavor == TYPE_ATTRIB)
		return &p->db.attr_type_map[value - 1];
	ebitmap_init(single);
	ebitmap_set_bit(single, value - 1, 1);
	return single;
}

static guint ad_popcount(guint32 bits)
{
	return (guint)__builtin_popcount(bits);
}

/* "ftpd_t user_home_t:file write": the first type of each side, the first permission */
static char *ad_scope_example(AdPolicy *p, guint s, guint t, guint16 tclass, guint32 bits)
{
	guint bit = (guint)__builtin_ctz(bits);
	const char *perm = ad_policy_perm_name(p, tclass, bit);

	return g_strdup_printf("%s %s:%s %s", p->db.p_type_val_to_name[s],
			       p->db.p_type_val_to_name[t], p->db.p_class_val_to_name[tclass - 1],
			       perm ? perm : "?");
}

/* Counts one switched-on list of conditional rules into @c; marks the sources in @gain. */
static void ad_scope_count_list(AdPolicy *p, cond_av_list_t *list, AdScopeCount *c,
				guint8 *gain)
{
	for (; list; list = list->next) {
		avtab_ptr_t a = list->node;
		ebitmap_t one_s, one_t;
		const ebitmap_t *S, *T;
		ebitmap_node_t *ns, *nt;
		unsigned int s, t;
		guint n_s, n_t;

		if (!a || !(a->key.specified & AVTAB_ALLOWED) || !a->datum.data)
			continue;
		S = ad_side_types(p, a->key.source_type, &one_s);
		T = ad_side_types(p, a->key.target_type, &one_t);
		n_s = ebitmap_cardinality((ebitmap_t *)S);
		n_t = ebitmap_cardinality((ebitmap_t *)T);
		c->accesses += (gint64)n_s * n_t * ad_popcount(a->datum.data);
		ebitmap_for_each_positive_bit(S, ns, s)
			gain[s] = 1;
		if (c->examples->len < AD_SCOPE_EXAMPLES && n_s && n_t) {
			ebitmap_for_each_positive_bit(S, ns, s)
				break;
			ebitmap_for_each_positive_bit(T, nt, t)
				break;
			g_ptr_array_add(c->examples, ad_scope_example(p, s, t, a->key.target_class,
								      a->datum.data));
		}
		if (S == &one_s)
			ebitmap_destroy(&one_s);
		if (T == &one_t)
			ebitmap_destroy(&one_t);
	}
}

gint64 ad_policy_bool_scope(AdPolicy *p, const char *const *names, const gboolean *values,
			    guint n, gint64 *ret_domains, GPtrArray *examples)
{
	g_autoptr(GString) key = g_string_new("b");
	g_autofree guint8 *now = NULL, *then = NULL, *gain = NULL;
	guint nbools = p->db.p_bools.nprim;
	AdScopeCount *c;

	for (guint i = 0; i < n; i++)
		g_string_append_printf(key, " %s=%d", names[i], values[i] ? 1 : 0);
	c = ad_scope_cached(p, key->str);
	if (c)
		return ad_scope_answer(c, ret_domains, examples);

	now = g_new0(guint8, nbools + 1);
	for (guint i = 0; i < nbools; i++)
		now[i] = p->db.bool_val_to_struct[i]->state ? 1 : 0;
	then = g_memdup2(now, nbools + 1);
	for (guint i = 0; i < n; i++) {
		cond_bool_datum_t *b = ad_bool_lookup(p, names[i]);

		if (!b)
			return -1;
		then[b->s.value - 1] = values[i] ? 1 : 0;
	}
	c = g_new0(AdScopeCount, 1);
	c->examples = g_ptr_array_new_with_free_func(g_free);
	gain = g_new0(guint8, p->db.p_types.nprim + 1);
	for (cond_node_t *node = p->db.cond_list; node; node = node->next) {
		int before = ad_cond_eval(node->expr, now, nbools);
		int after = ad_cond_eval(node->expr, then, nbools);

		if (before < 0 || after < 0 || before == after)
			continue;
		ad_scope_count_list(p, after ? node->true_list : node->false_list, c, gain);
	}
	for (guint i = 0; i < p->db.p_types.nprim; i++)
		c->domains += gain[i];
	ad_scope_cache(p, key->str, c);
	return ad_scope_answer(c, ret_domains, examples);
}

typedef struct {
	AdPolicy *p;
	const ebitmap_t *targets;	/* the type and its attributes */
	guint16 tclass;
	guint32 mask;
	guint32 *bits;			/* per source type value - 1 */
} AdTypeScan;

/* ORs what the allow entry @r grants on the scanned type into the bits of its sources */
static void ad_type_scan_one(AdTypeScan *scan, avtab_ptr_t r, gboolean conditional)
{
	AdPolicy *p = scan->p;
	guint32 src = r->key.source_type, bits;
	type_datum_t *sd;
	ebitmap_node_t *ns;
	unsigned int s;

	if (!(r->key.specified & AVTAB_ALLOWED) || r->key.target_class != scan->tclass)
		return;
	if (conditional && !(r->key.specified & AVTAB_ENABLED))
		return;
	if (!r->key.target_type || !ebitmap_get_bit((ebitmap_t *)scan->targets,
						     r->key.target_type - 1))
		return;
	bits = r->datum.data & scan->mask;
	if (!bits || !src || src > p->db.p_types.nprim)
		return;
	sd = p->db.type_val_to_struct[src - 1];
	if (sd && sd->flavor == TYPE_ATTRIB) {
		ebitmap_for_each_positive_bit(&p->db.attr_type_map[src - 1], ns, s)
			scan->bits[s] |= bits;
	} else {
		scan->bits[src - 1] |= bits;
	}
}

/*
 * Scans the allow entries of the class whose target is the type or one of
 * its attributes (indexed once by class, sorted by target).
 */
static void ad_type_scan(AdTypeScan *scan)
{
	AdPolicy *p = scan->p;
	ebitmap_node_t *n;
	unsigned int bit;

	ad_class_index_ready(p);
	for (guint t = 0; t < 2; t++) {
		const AdAllowIndex *ix = &p->class_index[t];

		ebitmap_for_each_positive_bit(scan->targets, n, bit) {
			guint32 end, i = ad_class_index_target(ix, scan->tclass, bit + 1, &end);

			for (; i < end && ix->rules[i]->key.target_type == bit + 1; i++)
				ad_type_scan_one(scan, ix->rules[i], t == 1);
		}
	}
	for (guint i = 0; p->added_nodes && i < p->added_nodes->len; i++)
		ad_type_scan_one(scan, g_ptr_array_index(p->added_nodes, i), FALSE);
}

/*
 * The answer without the source type @except: what that domain may do
 * itself is not "else".
 */
static gint64 ad_type_scope_answer(AdPolicy *p, const AdScopeCount *c, type_datum_t *x,
				   gint64 *ret_domains, GPtrArray *examples)
{
	guint32 own = x && x->s.value <= p->db.p_types.nprim ? c->bits[x->s.value - 1] : 0;
	const char *name = x ? p->db.p_type_val_to_name[x->s.value - 1] : NULL;
	gsize len = name ? strlen(name) : 0;

	if (ret_domains)
		*ret_domains = c->domains - (own ? 1 : 0);
	for (guint i = 0; examples && i < c->examples->len; i++) {
		const char *e = g_ptr_array_index(c->examples, i);

		if (!name || strncmp(e, name, len) != 0 || e[len] != ' ')
			g_ptr_array_add(examples, g_strdup(e));
	}
	return c->accesses - ad_popcount(own);
}

gint64 ad_policy_type_scope(AdPolicy *p, const char *type, const char *tclass,
			    const char *const *perms, guint n_perms, const char *except,
			    gint64 *ret_domains, GPtrArray *examples)
{
	g_autoptr(GString) key = g_string_new(NULL);
	type_datum_t *t, *x = NULL;
	class_datum_t *cls;
	AdTypeScan scan = { 0 };
	AdScopeCount *c;

	if (except)
		x = ad_type_lookup(p, except);
	if (x && x->flavor == TYPE_ATTRIB)
		x = NULL;
	g_string_printf(key, "t %s %s", type ? type : "", tclass ? tclass : "");
	for (guint i = 0; i < n_perms; i++)
		g_string_append_printf(key, " %s", perms[i]);
	c = ad_scope_cached(p, key->str);
	if (c)
		return ad_type_scope_answer(p, c, x, ret_domains, examples);

	t = ad_type_lookup(p, type);
	cls = ad_class_lookup(p, tclass);
	if (!t || t->flavor == TYPE_ATTRIB || !cls)
		return -1;
	scan.p = p;
	scan.targets = &p->db.type_attr_map[t->s.value - 1];
	scan.tclass = cls->s.value;
	scan.mask = n_perms ? 0 : p->class_perms[cls->s.value - 1];
	for (guint i = 0; i < n_perms; i++)
		scan.mask |= ad_perm_bit(cls, perms[i]);
	if (!scan.mask)
		return -1;
	c = g_new0(AdScopeCount, 1);
	c->examples = g_ptr_array_new_with_free_func(g_free);
	c->bits = g_new0(guint32, p->db.p_types.nprim + 1);
	scan.bits = c->bits;
	ad_type_scan(&scan);

	for (guint s = 0; s < p->db.p_types.nprim; s++) {
		type_datum_t *sd = p->db.type_val_to_struct[s];

		if (!sd || sd->flavor == TYPE_ATTRIB)
			c->bits[s] = 0;
		if (!c->bits[s])
			continue;
		c->accesses += ad_popcount(c->bits[s]);
		c->domains++;
		/* one more than shown, in case one is the denied domain's */
		if (c->examples->len < AD_SCOPE_EXAMPLES + 1)
			g_ptr_array_add(c->examples, ad_scope_example(p, s, t->s.value - 1,
								      cls->s.value, c->bits[s]));
	}
	ad_scope_cache(p, key->str, c);
	return ad_type_scope_answer(p, c, x, ret_domains, examples);
}
