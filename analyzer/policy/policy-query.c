/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Questions the cause plugins and `avcdoctor allow` ask of the policy
 * alone, without a denial: roles and their types, attributes, and which
 * types a domain may use in a given way ("which file types may httpd_t
 * read?", "which port types may it connect to?"), as setroubleshoot's
 * plugins ask setools, but from the loaded policydb and cached.
 */
#include "config.h"

#include <string.h>

#include "policy/policy-private.h"

type_datum_t *ad_type_lookup(AdPolicy *p, const char *name)
{
	if (!name || !*name)
		return NULL;
	return hashtab_search(p->db.p_types.table, name);
}

role_datum_t *ad_role_lookup(AdPolicy *p, const char *name)
{
	if (!name || !*name)
		return NULL;
	return hashtab_search(p->db.p_roles.table, name);
}

/* ---- roles ---------------------------------------------------------------- */

gboolean ad_policy_has_role(AdPolicy *p, const char *role)
{
	role_datum_t *r = ad_role_lookup(p, role);

	return r && r->flavor != ROLE_ATTRIB;
}

/*
 * A kernel policy stores each role's types expanded (no attributes), in
 * types.types and in the cache libsepol's context_is_valid() reads; the
 * two are equal after policydb_read() and edits keep them so.
 */
gboolean ad_policy_role_has_type(AdPolicy *p, const char *role, const char *type)
{
	role_datum_t *r = ad_role_lookup(p, role);
	type_datum_t *t = ad_type_lookup(p, type);

	if (!r || r->flavor == ROLE_ATTRIB || !t || t->flavor == TYPE_ATTRIB)
		return FALSE;
	if (r->s.value == OBJECT_R_VAL)
		return TRUE;
	return ebitmap_get_bit(&r->cache, t->s.value - 1) ||
	       ebitmap_get_bit(&r->types.types, t->s.value - 1);
}

/* ---- attributes ------------------------------------------------------------ */

gboolean ad_policy_type_is_attribute(AdPolicy *p, const char *name)
{
	type_datum_t *t = ad_type_lookup(p, name);

	return t && t->flavor == TYPE_ATTRIB;
}

gboolean ad_policy_type_has_attribute(AdPolicy *p, const char *type, const char *attribute)
{
	type_datum_t *t = ad_type_lookup(p, type);
	type_datum_t *a = ad_type_lookup(p, attribute);

	if (!t || t->flavor == TYPE_ATTRIB || !a || a->flavor != TYPE_ATTRIB)
		return FALSE;
	return ebitmap_get_bit(&p->db.type_attr_map[t->s.value - 1], a->s.value - 1);
}

const char *ad_policy_type_primary(AdPolicy *p, const char *name)
{
	type_datum_t *t = ad_type_lookup(p, name);

	/* an alias's datum carries its primary's value */
	if (!t || t->flavor == TYPE_ATTRIB || !t->s.value || t->s.value > p->db.p_types.nprim)
		return NULL;
	return p->db.p_type_val_to_name[t->s.value - 1];
}

/*
 * refpolicy's generic file types, for policies without base_file_type and
 * for those the attribute leaves out: the labels of standard directories
 * and of what is unclaimed in them, and of users' files at large
 */
static const char *const generic_file_types[] = {
	"default_t", "root_t", "etc_t", "etc_runtime_t", "usr_t", "lib_t", "bin_t", "src_t",
	"boot_t", "var_t", "var_lib_t", "var_log_t", "var_run_t", "var_lock_t", "var_spool_t",
	"tmp_t", "user_tmp_t", "home_root_t", "user_home_t", "user_home_dir_t", "mnt_t",
	"device_t",
};

/* in base_file_type, but one program or one kind of library, not a place */
static const char *const not_generic_file_types[] = {
	"shell_exec_t", "textrel_shlib_t",
};

gboolean ad_policy_file_type_is_generic(AdPolicy *p, const char *type)
{
	const char *primary = type ? ad_policy_type_primary(p, type) : NULL;

	if (!primary)
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(not_generic_file_types); i++)
		if (strcmp(primary, not_generic_file_types[i]) == 0)
			return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(generic_file_types); i++)
		if (strcmp(primary, generic_file_types[i]) == 0)
			return TRUE;
	return ad_policy_type_has_attribute(p, primary, "base_file_type");
}

/* ---- allowed types ------------------------------------------------------------ */

/* Is @r an allow rule with a usable source? */
static gboolean ad_allow_rule(AdPolicy *p, avtab_ptr_t r)
{
	return (r->key.specified & AVTAB_ALLOWED) && r->key.source_type &&
	       r->key.source_type <= p->db.p_types.nprim;
}

typedef guint (*AdIndexKey)(avtab_ptr_t r);

static guint key_source(avtab_ptr_t r)
{
	return r->key.source_type;
}

static guint key_class(avtab_ptr_t r)
{
	return r->key.target_class;
}

static guint key_target(avtab_ptr_t r)
{
	return r->key.target_type;
}

/*
 * The allow rules of te_avtab (@t 0) or te_cond_avtab (1), in table
 * order; *ret_n: how many.  Walking the table's chains is most of the
 * cost of an index: the walk is kept until both indexes are built.
 */
static avtab_ptr_t *allow_nodes(AdPolicy *p, guint t, guint32 *ret_n)
{
	avtab_t *h = t ? &p->db.te_cond_avtab : &p->db.te_avtab;

	if (!p->allow_nodes[t]) {
		GPtrArray *out = g_ptr_array_sized_new(h->nel);

		for (guint i = 0; h->htable && i < h->nslot; i++)
			for (avtab_ptr_t cur = h->htable[i]; cur; cur = cur->next)
				if (ad_allow_rule(p, cur))
					g_ptr_array_add(out, cur);
		p->n_allow_nodes[t] = out->len;
		p->allow_nodes[t] = (avtab_ptr_t *)g_ptr_array_free(out, FALSE);
	}
	*ret_n = p->n_allow_nodes[t];
	return p->allow_nodes[t];
}

static void allow_nodes_clear(AdPolicy *p)
{
	for (guint t = 0; t < 2; t++)
		g_clear_pointer(&p->allow_nodes[t], g_free);
}

/*
 * Files the @count @nodes into @ix by @key (at most @n; others are left
 * out), keeping their order within a key: a counting sort, so that
 * indexing by one key and then by another sorts by both.
 */
static void index_nodes(avtab_ptr_t *nodes, guint32 count, AdAllowIndex *ix, guint n,
			AdIndexKey key)
{
	g_autofree guint32 *next = NULL;

	/* count per key at offset[v + 1], sum up: offset[v] starts key v */
	ix->offset = g_new0(guint32, n + 2);
	for (guint32 i = 0; i < count; i++)
		if (key(nodes[i]) <= n)
			ix->offset[key(nodes[i]) + 1]++;
	for (guint v = 1; v <= n + 1; v++)
		ix->offset[v] += ix->offset[v - 1];
	ix->rules = g_new(avtab_ptr_t, ix->offset[n + 1] + 1);
	next = g_memdup2(ix->offset, sizeof(guint32) * (n + 2));
	for (guint32 i = 0; i < count; i++)
		if (key(nodes[i]) <= n)
			ix->rules[next[key(nodes[i])]++] = nodes[i];
}

/* the index of the allow rules of table @t by source type (see AdAllowIndex) */
static void ad_allow_index_build(AdPolicy *p, guint t, AdAllowIndex *ix)
{
	guint32 count;
	avtab_ptr_t *nodes = allow_nodes(p, t, &count);

	index_nodes(nodes, count, ix, p->db.p_types.nprim, key_source);
}

/* the index of the allow rules of table @t by class, sorted by target within a class */
static void ad_class_index_build(AdPolicy *p, guint t, AdAllowIndex *ix)
{
	guint32 count;
	avtab_ptr_t *nodes = allow_nodes(p, t, &count);
	AdAllowIndex by_target = { 0 };

	index_nodes(nodes, count, &by_target, p->db.p_types.nprim, key_target);
	index_nodes(by_target.rules, by_target.offset[p->db.p_types.nprim + 1], ix,
		    p->db.p_classes.nprim, key_class);
	g_free(by_target.offset);
	g_free(by_target.rules);
}

static void ad_allow_index_free(AdAllowIndex *ix)
{
	g_clear_pointer(&ix->offset, g_free);
	g_clear_pointer(&ix->rules, g_free);
}

void ad_allow_index_clear(AdPolicy *p)
{
	for (guint i = 0; i < G_N_ELEMENTS(p->allow_index); i++) {
		ad_allow_index_free(&p->allow_index[i]);
		ad_allow_index_free(&p->class_index[i]);
	}
	p->allow_index_ready = FALSE;
	p->class_index_ready = FALSE;
	allow_nodes_clear(p);
	if (p->added_nodes)
		g_ptr_array_set_size(p->added_nodes, 0);
}

/* nodes added beside the indexes at most; beyond, they are built anew */
#define AD_ADDED_NODES_MAX 2048

/*
 * A node was added to te_avtab: the indexes stay, with the node on the
 * side (a tried module adds one, and trying each alert's module must not
 * rebuild them each time), until there are too many.
 */
void ad_allow_index_node_added(AdPolicy *p, avtab_ptr_t node)
{
	if (!p->allow_index_ready && !p->class_index_ready)
		return;
	if (!p->added_nodes)
		p->added_nodes = g_ptr_array_new();
	if (p->added_nodes->len >= AD_ADDED_NODES_MAX) {
		ad_allow_index_clear(p);
		return;
	}
	g_ptr_array_add(p->added_nodes, node);
}

/* builds the allow rules' index by source, if not yet built */
void ad_allow_index_ready(AdPolicy *p)
{
	if (p->allow_index_ready)
		return;
	for (guint t = 0; t < 2; t++)
		ad_allow_index_build(p, t, &p->allow_index[t]);
	p->allow_index_ready = TRUE;
	if (p->class_index_ready)
		allow_nodes_clear(p);
}

/*
 * Builds the allow rules' index by class, if not yet built; within a
 * class the rules are sorted by target, for ad_class_index_target().
 */
void ad_class_index_ready(AdPolicy *p)
{
	if (p->class_index_ready)
		return;
	for (guint t = 0; t < 2; t++)
		ad_class_index_build(p, t, &p->class_index[t]);
	p->class_index_ready = TRUE;
	if (p->allow_index_ready)
		allow_nodes_clear(p);
}

/* the first rule of @ix with class @tclass and target @target or after; *ret_end: the class' end */
guint32 ad_class_index_target(const AdAllowIndex *ix, guint16 tclass, guint16 target,
			      guint32 *ret_end)
{
	guint32 lo = ix->offset[tclass], hi = ix->offset[tclass + 1];

	*ret_end = hi;
	while (lo < hi) {
		guint32 mid = lo + (hi - lo) / 2;

		if (ix->rules[mid]->key.target_type < target)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * ORs what the allow rules of @ix with source @source grant on @tclass
 * into p->target_perms[target]; @conditional: only enabled rules.
 */
static void ad_allow_collect(AdPolicy *p, const AdAllowIndex *ix, guint source, guint16 tclass,
			     gboolean conditional)
{
	guint ntypes = p->db.p_types.nprim;

	for (guint32 i = ix->offset[source]; i < ix->offset[source + 1]; i++) {
		avtab_ptr_t r = ix->rules[i];

		if (r->key.target_class != tclass || !(r->key.specified & AVTAB_ALLOWED))
			continue;
		if (conditional && !(r->key.specified & AVTAB_ENABLED))
			continue;
		if (r->key.target_type && r->key.target_type <= ntypes)
			p->target_perms[r->key.target_type] |= r->datum.data;
	}
	/* the unconditional table's nodes added since the index was built */
	for (guint i = 0; !conditional && p->added_nodes && i < p->added_nodes->len; i++) {
		avtab_ptr_t r = g_ptr_array_index(p->added_nodes, i);

		if (r->key.source_type == source && r->key.target_class == tclass &&
		    r->key.target_type && r->key.target_type <= ntypes)
			p->target_perms[r->key.target_type] |= r->datum.data;
	}
}

static int ad_name_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Spreads p->target_perms (per type or attribute value) over the types:
 * @got[bit] is what the type at @bit gets from itself and its attributes,
 * as the kernel ORs them (attr_type_map holds an attribute's types, and a
 * type itself).  Only the entries some rule named are walked.
 */
static void ad_spread_perms(AdPolicy *p, guint32 *got)
{
	guint ntypes = p->db.p_types.nprim;

	for (guint v = 1; v <= ntypes; v++) {
		ebitmap_node_t *node;
		unsigned int bit;

		if (!p->target_perms[v])
			continue;
		ebitmap_for_each_positive_bit(&p->db.attr_type_map[v - 1], node, bit)
			if (bit < ntypes)
				got[bit] |= p->target_perms[v];
	}
}

/* Does the type at @bit get all of @want (any bit when 0), by @got? */
static gboolean ad_type_granted(AdPolicy *p, const guint32 *got, unsigned int bit, guint32 want)
{
	type_datum_t *t = bit < p->db.p_types.nprim ? p->db.type_val_to_struct[bit] : NULL;

	if (!t || t->flavor == TYPE_ATTRIB || !p->db.p_type_val_to_name[bit])
		return FALSE;
	return want ? (got[bit] & want) == want : got[bit] != 0;
}

/*
 * The sorted type names (borrowed from the policydb) for one query: the
 * rules of the source and its attributes (indexed by source, built once)
 * give what they grant per target type or attribute; each candidate type
 * then ORs the entries of its attributes, as the kernel does.
 */
static GPtrArray *ad_types_allowed_compute(AdPolicy *p, type_datum_t *src, guint16 tclass,
					   guint32 want, type_datum_t *filter)
{
	GPtrArray *names = g_ptr_array_new();
	guint ntypes = p->db.p_types.nprim;
	g_autofree guint32 *got = g_new0(guint32, ntypes + 1);
	ebitmap_node_t *snode;
	unsigned int sbit;

	ad_allow_index_ready(p);
	memset(p->target_perms, 0, sizeof(*p->target_perms) * (ntypes + 1));
	if (src->flavor == TYPE_ATTRIB) {
		ad_allow_collect(p, &p->allow_index[0], src->s.value, tclass, FALSE);
		ad_allow_collect(p, &p->allow_index[1], src->s.value, tclass, TRUE);
	} else {
		ebitmap_for_each_positive_bit(&p->db.type_attr_map[src->s.value - 1], snode, sbit) {
			ad_allow_collect(p, &p->allow_index[0], sbit + 1, tclass, FALSE);
			ad_allow_collect(p, &p->allow_index[1], sbit + 1, tclass, TRUE);
		}
	}

	ad_spread_perms(p, got);
	if (filter) {
		ebitmap_node_t *node;
		unsigned int bit;

		ebitmap_for_each_positive_bit(&p->db.attr_type_map[filter->s.value - 1], node, bit)
			if (ad_type_granted(p, got, bit, want))
				g_ptr_array_add(names, p->db.p_type_val_to_name[bit]);
	} else {
		for (guint bit = 0; bit < ntypes; bit++)
			if (ad_type_granted(p, got, bit, want))
				g_ptr_array_add(names, p->db.p_type_val_to_name[bit]);
	}
	g_ptr_array_sort(names, ad_name_cmp);
	return names;
}

GPtrArray *ad_policy_types_allowed(AdPolicy *p, const char *source_type, const char *tclass,
				   const char *const *perms, guint n_perms,
				   const char *attribute_filter)
{
	type_datum_t *src, *filter = NULL;
	class_datum_t *cls;
	guint32 want = 0;
	GPtrArray *names;
	GString *key;

	g_return_val_if_fail(p != NULL, NULL);
	src = ad_type_lookup(p, source_type);
	cls = ad_class_lookup(p, tclass);
	if (!src || !cls)
		return NULL;
	if (attribute_filter) {
		filter = ad_type_lookup(p, attribute_filter);
		if (!filter || filter->flavor != TYPE_ATTRIB)
			return NULL;
	}
	for (guint i = 0; i < n_perms; i++) {
		guint32 bit = perms[i] ? ad_perm_bit(cls, perms[i]) : 0;

		if (!bit)
			return NULL;
		want |= bit;
	}

	/* the key from values: "read open" and "open read" are one query */
	key = g_string_new(NULL);
	g_string_printf(key, "%u:%u:%x:%u", src->s.value, cls->s.value, want,
			filter ? filter->s.value : 0);
	names = g_hash_table_lookup(p->types_allowed, key->str);
	if (!names) {
		if (g_hash_table_size(p->types_allowed) >= AD_TYPES_ALLOWED_CACHE_MAX)
			g_hash_table_remove_all(p->types_allowed);
		names = ad_types_allowed_compute(p, src, cls->s.value, want, filter);
		g_hash_table_insert(p->types_allowed, g_string_free(key, FALSE), names);
	} else {
		g_string_free(key, TRUE);
	}

	/* the cached array itself: emptying the cache leaves the caller's reference */
	return g_ptr_array_ref(names);
}

/* ---- users ----------------------------------------------------------------- */

GPtrArray *ad_policy_user_roles(AdPolicy *p, const char *user)
{
	user_datum_t *u = user && *user ? hashtab_search(p->db.p_users.table, user) : NULL;
	GPtrArray *out;
	ebitmap_node_t *n;
	unsigned int bit;

	if (!u)
		return NULL;
	out = g_ptr_array_new_with_free_func(g_free);
	ebitmap_for_each_positive_bit(&u->roles.roles, n, bit) {
		if (bit + 1 == OBJECT_R_VAL || bit >= p->db.p_roles.nprim)
			continue;
		g_ptr_array_add(out, g_strdup(p->db.p_role_val_to_name[bit]));
	}
	g_ptr_array_sort(out, ad_name_cmp);
	return out;
}

/* g_ptr_array_sort() on char* elements */
static int names_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

GPtrArray *ad_names_sorted(char **val_to_name, guint n)
{
	GPtrArray *names = g_ptr_array_new_full(n, g_free);

	for (guint i = 0; i < n; i++)
		if (val_to_name[i])
			g_ptr_array_add(names, g_strdup(val_to_name[i]));
	g_ptr_array_sort(names, names_cmp);
	return names;
}

GPtrArray *ad_policy_type_names(AdPolicy *p)
{
	g_autofree char **types = NULL;

	g_return_val_if_fail(p != NULL, NULL);
	/* the types, not the attributes */
	types = g_new0(char *, p->db.p_types.nprim);
	for (guint i = 0; i < p->db.p_types.nprim; i++) {
		type_datum_t *t = p->db.type_val_to_struct[i];

		if (t && t->flavor != TYPE_ATTRIB)
			types[i] = p->db.p_type_val_to_name[i];
	}
	return ad_names_sorted(types, p->db.p_types.nprim);
}

GPtrArray *ad_policy_class_names(AdPolicy *p)
{
	g_return_val_if_fail(p != NULL, NULL);
	return ad_names_sorted(p->db.p_class_val_to_name, p->db.p_classes.nprim);
}
