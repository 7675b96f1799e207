/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * In-memory additions to the loaded policy, for `avcdoctor allow
 * --verify`: the rules a generated module would add go into our own
 * policydb exactly as the kernel policy stores them (an allow rule is one
 * te_avtab entry per source and target type or attribute, a role's types
 * are an expanded bitmap), so the engine and libsepol's security server
 * answer as if the module were loaded.  Nothing leaves the process.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "policy/policy-private.h"
#include "policy/policy-edit.h"

/* "the type foo_t and the permission frob are not defined in this policy" */
static void ad_edit_unknown(GError **error, const char *statement, GPtrArray *unknown)
{
	g_autofree char *list = ad_unknown_list(unknown);

	g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_UNKNOWN,
		    /* TRANSLATORS: %1$s is a policy statement (allow a_t b_t:file
		       read;), %2$s "the type foo_t" or a list such as "the type foo_t
		       and the permission frob" */
		    ngettext("cannot add \"%s\": %s is not defined in this policy",
			     "cannot add \"%s\": %s are not defined in this policy", unknown->len),
		    statement, list);
}

/*
 * Adds @bits to the unconditional entry @specified (source, target,
 * class): ORed into an allow entry, cleared from an auditdeny one (a
 * dontaudit rule; the kernel's auditdeny vector holds the permissions
 * that are audited), which is added when missing.
 */
static int ad_avtab_rule(AdPolicy *p, guint16 specified, guint32 source, guint32 target,
			 guint16 tclass, guint32 bits)
{
	avtab_key_t key = { 0 };
	avtab_datum_t datum = { 0 };
	avtab_datum_t *old;

	key.source_type = source;
	key.target_type = target;
	key.target_class = tclass;
	key.specified = specified;
	old = avtab_search(&p->db.te_avtab, &key);
	if (!old) {
		/*
		 * a tried change leaves an entry behind that changes nothing:
		 * an allow entry allowing nothing, an auditdeny entry auditing all
		 */
		avtab_ptr_t node;

		datum.data = specified == AVTAB_AUDITDENY ? 0xffffffff : 0;
		node = avtab_insert_nonunique(&p->db.te_avtab, &key, &datum);
		if (!node)
			return -1;
		if (specified == AVTAB_ALLOWED)
			ad_allow_index_node_added(p, node);
		old = &node->datum;
	}
	if (p->whatif) {
		AdUndoAvtab u = { old, old->data };

		g_array_append_val(p->undo_avtab, u);
	}
	if (specified == AVTAB_AUDITDENY)
		old->data &= ~bits;
	else
		old->data |= bits;
	return 0;
}

/* ad_policy_add_allow() and ad_policy_add_dontaudit(): @specified says which */
static gboolean add_rule(AdPolicy *p, guint16 specified, const char *source_type,
			 const char *target_type, const char *tclass, const char *const *perms,
			 guint n_perms, GError **error)
{
	g_autoptr(GPtrArray) unknown = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GString) statement = g_string_new(NULL);
	gboolean self = g_strcmp0(target_type, "self") == 0;
	type_datum_t *s, *t = NULL;
	class_datum_t *cls;
	guint32 bits = 0;
	int rc = 0;

	g_return_val_if_fail(p != NULL, FALSE);
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	g_string_printf(statement, "%s %s %s:%s {",
			specified == AVTAB_AUDITDENY ? "dontaudit" : "allow",
			source_type ? source_type : "", target_type ? target_type : "",
			tclass ? tclass : "");
	for (guint i = 0; i < n_perms; i++)
		g_string_append_printf(statement, " %s", perms[i] ? perms[i] : "");
	g_string_append(statement, " };");

	s = ad_type_lookup(p, source_type);
	if (!s)
		g_ptr_array_add(unknown, g_strdup_printf("type %s", source_type ? source_type : ""));
	if (!self) {
		t = ad_type_lookup(p, target_type);
		if (!t)
			g_ptr_array_add(unknown,
					g_strdup_printf("type %s", target_type ? target_type : ""));
	}
	cls = ad_class_lookup(p, tclass);
	if (!cls) {
		g_ptr_array_add(unknown, g_strdup_printf("class %s", tclass ? tclass : ""));
	} else {
		for (guint i = 0; i < n_perms; i++) {
			guint32 bit = perms[i] ? ad_perm_bit(cls, perms[i]) : 0;

			if (!bit)
				g_ptr_array_add(unknown, g_strdup_printf("permission %s",
									 perms[i] ? perms[i] : ""));
			bits |= bit;
		}
	}
	if (unknown->len) {
		ad_edit_unknown(error, statement->str, unknown);
		return FALSE;
	}
	if (!bits) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_FAILED,
			    /* TRANSLATORS: %s is a policy statement, as it is */
			    _("cannot add \"%s\": it names no permission"), statement->str);
		return FALSE;
	}

	if (!self) {
		rc = ad_avtab_rule(p, specified, s->s.value, t->s.value, cls->s.value, bits);
	} else if (s->flavor != TYPE_ATTRIB) {
		rc = ad_avtab_rule(p, specified, s->s.value, s->s.value, cls->s.value, bits);
	} else {
		/* "allow attr self" is stored as one rule per type of the attribute */
		ebitmap_node_t *node;
		unsigned int bit;

		ebitmap_for_each_positive_bit(&p->db.attr_type_map[s->s.value - 1], node, bit) {
			if (rc == 0)
				rc = ad_avtab_rule(p, specified, bit + 1, bit + 1, cls->s.value,
						   bits);
		}
	}
	/* even a partial insertion changed the policy */
	ad_policy_invalidate(p, AD_INVALIDATE_TE);
	if (rc < 0) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_FAILED,
			    /* TRANSLATORS: %s is a policy statement, as it is */
			    _("cannot add \"%s\": out of memory"), statement->str);
		return FALSE;
	}
	return TRUE;
}

gboolean ad_policy_add_allow(AdPolicy *p, const char *source_type, const char *target_type,
			     const char *tclass, const char *const *perms, guint n_perms,
			     GError **error)
{
	return add_rule(p, AVTAB_ALLOWED, source_type, target_type, tclass, perms, n_perms,
			error);
}

gboolean ad_policy_add_dontaudit(AdPolicy *p, const char *source_type,
				 const char *target_type, const char *tclass,
				 const char *const *perms, guint n_perms, GError **error)
{
	return add_rule(p, AVTAB_AUDITDENY, source_type, target_type, tclass, perms, n_perms,
			error);
}

GPtrArray *ad_policy_dontaudited(AdPolicy *p, const char *source_type,
				 const char *target_type, const char *tclass)
{
	type_datum_t *s = ad_type_lookup(p, source_type);
	type_datum_t *t = ad_type_lookup(p, target_type);
	class_datum_t *cls = ad_class_lookup(p, tclass);
	GPtrArray *out;
	AdTeInfo *te;

	if (!s || !t || !cls || s->flavor == TYPE_ATTRIB || t->flavor == TYPE_ATTRIB)
		return NULL;
	te = ad_te_lookup(p, s->s.value, t->s.value, cls->s.value);
	out = g_ptr_array_new();
	for (guint b = 0; b < 32; b++) {
		const char *n = ad_policy_perm_name(p, cls->s.value, b);

		if (n && !(te->auditdeny & (1u << b)))
			g_ptr_array_add(out, (gpointer)n);
	}
	return out;
}

/* Authorises @r for the type at @bit (both bitmaps, see ad_policy_role_has_type()). */
static int ad_role_set_type(role_datum_t *r, unsigned int bit)
{
	if (ebitmap_set_bit(&r->types.types, bit, 1) < 0 || ebitmap_set_bit(&r->cache, bit, 1) < 0)
		return -1;
	return 0;
}

gboolean ad_policy_add_role_type(AdPolicy *p, const char *role, const char *type,
				 GError **error)
{
	g_autoptr(GPtrArray) unknown = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *statement = NULL;
	role_datum_t *r;
	type_datum_t *t;
	int rc = 0;

	g_return_val_if_fail(p != NULL, FALSE);
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	statement = g_strdup_printf("role %s types %s;", role ? role : "", type ? type : "");
	r = ad_role_lookup(p, role);
	if (!r || r->flavor == ROLE_ATTRIB)
		g_ptr_array_add(unknown, g_strdup_printf("role %s", role ? role : ""));
	t = ad_type_lookup(p, type);
	if (!t)
		g_ptr_array_add(unknown, g_strdup_printf("type %s", type ? type : ""));
	if (unknown->len) {
		ad_edit_unknown(error, statement, unknown);
		return FALSE;
	}

	if (t->flavor != TYPE_ATTRIB) {
		rc = ad_role_set_type(r, t->s.value - 1);
	} else {
		ebitmap_node_t *node;
		unsigned int bit;

		ebitmap_for_each_positive_bit(&p->db.attr_type_map[t->s.value - 1], node, bit) {
			if (rc == 0)
				rc = ad_role_set_type(r, bit);
		}
	}
	ad_policy_invalidate(p, AD_INVALIDATE_CONTEXTS);
	if (rc < 0) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_FAILED,
			    /* TRANSLATORS: %s is a policy statement, as it is */
			    _("cannot add \"%s\": out of memory"), statement);
		return FALSE;
	}
	return TRUE;
}

gboolean ad_policy_add_role_allow(AdPolicy *p, const char *from_role, const char *to_role,
				  GError **error)
{
	g_autoptr(GPtrArray) unknown = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *statement = NULL;
	role_datum_t *from, *to;
	role_allow_t *ra;

	g_return_val_if_fail(p != NULL, FALSE);
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	statement = g_strdup_printf("allow %s %s;", from_role ? from_role : "",
				    to_role ? to_role : "");
	from = ad_role_lookup(p, from_role);
	if (!from || from->flavor == ROLE_ATTRIB)
		g_ptr_array_add(unknown, g_strdup_printf("role %s", from_role ? from_role : ""));
	to = ad_role_lookup(p, to_role);
	if (!to || to->flavor == ROLE_ATTRIB)
		g_ptr_array_add(unknown, g_strdup_printf("role %s", to_role ? to_role : ""));
	if (unknown->len) {
		ad_edit_unknown(error, statement, unknown);
		return FALSE;
	}

	for (ra = p->db.role_allow; ra; ra = ra->next)
		if (ra->role == from->s.value && ra->new_role == to->s.value)
			return TRUE;
	/* policydb_destroy() frees the list with free() */
	ra = calloc(1, sizeof(*ra));
	if (!ra) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_FAILED,
			    /* TRANSLATORS: %s is a policy statement, as it is */
			    _("cannot add \"%s\": out of memory"), statement);
		return FALSE;
	}
	ra->role = from->s.value;
	ra->new_role = to->s.value;
	ra->next = p->db.role_allow;
	p->db.role_allow = ra;
	ad_policy_invalidate(p, 0);
	return TRUE;
}

/*
 * Sets the boolean and lets libsepol re-evaluate every condition, which
 * switches the conditional rules on and off (AVTAB_ENABLED) as the
 * kernel does on setsebool.
 */
gboolean ad_policy_set_boolean(AdPolicy *p, const char *name, gboolean value,
			       GError **error)
{
	cond_bool_datum_t *b;

	g_return_val_if_fail(p != NULL, FALSE);
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	b = ad_bool_lookup(p, name);
	if (!b) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_UNKNOWN,
			    _("cannot set the boolean %s: it is not defined in this policy"),
			    name ? name : "");
		return FALSE;
	}
	if (!b->state == !value)
		return TRUE;
	if (p->whatif) {
		AdUndoBool u = { b, b->state };

		g_array_append_val(p->undo_bools, u);
	}
	b->state = value ? 1 : 0;
	if (evaluate_conds(&p->db) < 0) {
		ad_policy_invalidate(p, AD_INVALIDATE_TE);
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_FAILED,
			    _("cannot set the boolean %s: the conditional rules cannot be "
			      "evaluated"),
			    name);
		return FALSE;
	}
	ad_policy_invalidate(p, AD_INVALIDATE_TE);
	return TRUE;
}

/*
 * Trying a change: the caches are set aside (they stay right for the
 * unchanged policy), edits are logged, and ad_policy_whatif_end() undoes
 * them in reverse order and puts the caches back.  Allow entries added
 * for the try stay in the rule table with no permission, which allows
 * nothing (libsepol has no way to remove one).
 */
void ad_policy_whatif_begin(AdPolicy *p)
{
	g_return_if_fail(p && !p->whatif);
	if (!p->undo_avtab) {
		p->undo_avtab = g_array_new(FALSE, FALSE, sizeof(AdUndoAvtab));
		p->undo_bools = g_array_new(FALSE, FALSE, sizeof(AdUndoBool));
	}
	ad_policy_caches_stash(p, &p->whatif_saved);
	p->whatif = TRUE;
}

void ad_policy_whatif_end(AdPolicy *p)
{
	g_return_if_fail(p && p->whatif);
	for (guint i = p->undo_avtab->len; i-- > 0;) {
		AdUndoAvtab *u = &g_array_index(p->undo_avtab, AdUndoAvtab, i);

		u->datum->data = u->old;
	}
	for (guint i = p->undo_bools->len; i-- > 0;) {
		AdUndoBool *u = &g_array_index(p->undo_bools, AdUndoBool, i);

		u->b->state = u->old;
	}
	if (p->undo_bools->len)
		(void)evaluate_conds(&p->db);
	g_array_set_size(p->undo_avtab, 0);
	g_array_set_size(p->undo_bools, 0);
	p->whatif = FALSE;
	ad_policy_caches_restore(p, &p->whatif_saved);
}

void ad_policy_edit_close(AdPolicy *p)
{
	if (p->whatif)
		ad_policy_whatif_end(p);
}
