/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Constraints (constrain and mlsconstrain; one list per class in a binary
 * policy), evaluated as libsepol's constraint_expr_eval() does, but for the
 * requested permissions only and also where TE denies (libsepol skips
 * constraints on permissions TE does not allow, so a TE denial hides a
 * constraint denial).  A failing constraint is given back twice: as the
 * policy statement with the failing leaves marked -Fail- (like libsepol's
 * reason buffer) and in words, naming the users, roles, types and levels
 * that make each needed leaf fail.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "policy/policy-private.h"

/* ---- evaluation ----------------------------------------------------------- */

/* One leaf (attr op attr, attr op names): 1, 0, or -1 where libsepol has a BUG(). */
static int ad_leaf_eval(AdPolicy *p, const constraint_expr_t *e, const context_struct_t *s,
			const context_struct_t *t)
{
	const mls_level_t *l1, *l2;
	const context_struct_t *c;
	guint32 v1, v2;

	if (e->expr_type == CEXPR_NAMES) {
		if (e->attr & CEXPR_TARGET)
			c = t;
		else if (e->attr & CEXPR_XTARGET)
			return -1;	/* validatetrans only */
		else
			c = s;
		if (e->attr & CEXPR_USER)
			v1 = c->user;
		else if (e->attr & CEXPR_ROLE)
			v1 = c->role;
		else if (e->attr & CEXPR_TYPE)
			v1 = c->type;
		else
			return -1;
		if (e->op == CEXPR_EQ)
			return ebitmap_get_bit(&e->names, v1 - 1) ? 1 : 0;
		if (e->op == CEXPR_NEQ)
			return ebitmap_get_bit(&e->names, v1 - 1) ? 0 : 1;
		return -1;
	}

	switch (e->attr) {
	case CEXPR_USER:
		v1 = s->user;
		v2 = t->user;
		break;
	case CEXPR_TYPE:
		v1 = s->type;
		v2 = t->type;
		break;
	case CEXPR_ROLE: {
		role_datum_t *r1, *r2;

		v1 = s->role;
		v2 = t->role;
		r1 = p->db.role_val_to_struct[v1 - 1];
		r2 = p->db.role_val_to_struct[v2 - 1];
		switch (e->op) {
		case CEXPR_DOM:
			return ebitmap_get_bit(&r1->dominates, v2 - 1) ? 1 : 0;
		case CEXPR_DOMBY:
			return ebitmap_get_bit(&r2->dominates, v1 - 1) ? 1 : 0;
		case CEXPR_INCOMP:
			return !ebitmap_get_bit(&r1->dominates, v2 - 1) &&
			       !ebitmap_get_bit(&r2->dominates, v1 - 1);
		default:
			break;
		}
		break;
	}
	case CEXPR_L1L2:
		l1 = &s->range.level[0];
		l2 = &t->range.level[0];
		goto mls;
	case CEXPR_L1H2:
		l1 = &s->range.level[0];
		l2 = &t->range.level[1];
		goto mls;
	case CEXPR_H1L2:
		l1 = &s->range.level[1];
		l2 = &t->range.level[0];
		goto mls;
	case CEXPR_H1H2:
		l1 = &s->range.level[1];
		l2 = &t->range.level[1];
		goto mls;
	case CEXPR_L1H1:
		l1 = &s->range.level[0];
		l2 = &s->range.level[1];
		goto mls;
	case CEXPR_L2H2:
		l1 = &t->range.level[0];
		l2 = &t->range.level[1];
		goto mls;
	default:
		return -1;
	}

	switch (e->op) {
	case CEXPR_EQ:
		return v1 == v2;
	case CEXPR_NEQ:
		return v1 != v2;
	default:
		return -1;
	}

mls:
	switch (e->op) {
	case CEXPR_EQ:
		return mls_level_eq(l1, l2) ? 1 : 0;
	case CEXPR_NEQ:
		return mls_level_eq(l1, l2) ? 0 : 1;
	case CEXPR_DOM:
		return mls_level_dom(l1, l2) ? 1 : 0;
	case CEXPR_DOMBY:
		return mls_level_dom(l2, l1) ? 1 : 0;
	case CEXPR_INCOMP:
		return mls_level_incomp(l2, l1) ? 1 : 0;
	default:
		return -1;
	}
}

/*
 * The whole expression (RPN), with libsepol's stack depth: whatever
 * libsepol treats as a bug denies.
 */
static int ad_cexpr_eval(AdPolicy *p, const constraint_expr_t *e, const context_struct_t *s,
			 const context_struct_t *t)
{
	int st[CEXPR_MAXDEPTH];
	int sp = -1;

	for (; e; e = e->next) {
		int v;

		switch (e->expr_type) {
		case CEXPR_NOT:
			if (sp < 0)
				return 0;
			st[sp] = !st[sp];
			break;
		case CEXPR_AND:
		case CEXPR_OR:
			if (sp < 1)
				return 0;
			sp--;
			if (e->expr_type == CEXPR_AND)
				st[sp] = st[sp] && st[sp + 1];
			else
				st[sp] = st[sp] || st[sp + 1];
			break;
		case CEXPR_ATTR:
		case CEXPR_NAMES:
			if (sp == CEXPR_MAXDEPTH - 1)
				return 0;
			v = ad_leaf_eval(p, e, s, t);
			if (v < 0)
				return 0;
			st[++sp] = v;
			break;
		default:
			return 0;
		}
	}
	return sp == 0 ? st[0] : 0;
}

/* ---- the expression as a tree, for the texts ------------------------------ */

typedef struct AdCNode {
	guint32 kind;			/* CEXPR_NOT / AND / OR / ATTR / NAMES */
	const constraint_expr_t *e;
	struct AdCNode *a, *b;
	int value;
} AdCNode;

/* Builds the tree of @expr into @nodes (one per element); NULL when malformed. */
static AdCNode *ad_cnode_build(AdPolicy *p, const constraint_expr_t *expr, AdCNode *nodes,
			       guint n, const context_struct_t *s, const context_struct_t *t)
{
	g_autofree AdCNode **stack = g_new0(AdCNode *, n + 1);
	int sp = -1;
	guint i = 0;

	for (const constraint_expr_t *e = expr; e; e = e->next, i++) {
		AdCNode *node = &nodes[i];

		node->kind = e->expr_type;
		node->e = e;
		switch (e->expr_type) {
		case CEXPR_NOT:
			if (sp < 0)
				return NULL;
			node->a = stack[sp];
			node->value = !node->a->value;
			stack[sp] = node;
			break;
		case CEXPR_AND:
		case CEXPR_OR:
			if (sp < 1)
				return NULL;
			node->a = stack[sp - 1];
			node->b = stack[sp];
			node->value = e->expr_type == CEXPR_AND ? node->a->value && node->b->value :
				      node->a->value || node->b->value;
			stack[--sp] = node;
			break;
		case CEXPR_ATTR:
		case CEXPR_NAMES:
			node->value = ad_leaf_eval(p, e, s, t) == 1;
			stack[++sp] = node;
			break;
		default:
			return NULL;
		}
	}
	return sp == 0 ? stack[0] : NULL;
}

static const char *ad_op_text(guint32 op)
{
	switch (op) {
	case CEXPR_EQ:
		return "==";
	case CEXPR_NEQ:
		return "!=";
	case CEXPR_DOM:
		return "dom";
	case CEXPR_DOMBY:
		return "domby";
	case CEXPR_INCOMP:
		return "incomp";
	default:
		return "?";
	}
}

/* The names a NAMES leaf lists: the original ones (attributes) when the policy kept them. */
static GPtrArray *ad_leaf_names(AdPolicy *p, const constraint_expr_t *e, gboolean *ret_attr)
{
	GPtrArray *names = g_ptr_array_new();
	const ebitmap_t *set = &e->names;
	char **val_to_name;
	guint nprim;
	ebitmap_node_t *node;
	unsigned int bit;

	*ret_attr = FALSE;
	if (e->attr & CEXPR_TYPE) {
		if (e->type_names && !ebitmap_is_empty(&e->type_names->types))
			set = &e->type_names->types;
		val_to_name = p->db.p_type_val_to_name;
		nprim = p->db.p_types.nprim;
	} else if (e->attr & CEXPR_ROLE) {
		val_to_name = p->db.p_role_val_to_name;
		nprim = p->db.p_roles.nprim;
	} else {
		val_to_name = p->db.p_user_val_to_name;
		nprim = p->db.p_users.nprim;
	}
	ebitmap_for_each_positive_bit(set, node, bit) {
		if (bit >= nprim || !val_to_name[bit])
			continue;
		g_ptr_array_add(names, val_to_name[bit]);
		if ((e->attr & CEXPR_TYPE) && p->db.type_val_to_struct[bit] &&
		    p->db.type_val_to_struct[bit]->flavor == TYPE_ATTRIB)
			*ret_attr = TRUE;
	}
	return names;
}

static void ad_leaf_text(AdPolicy *p, GString *out, const AdCNode *n)
{
	const constraint_expr_t *e = n->e;

	g_string_append_c(out, '(');
	if (e->expr_type == CEXPR_NAMES) {
		g_autoptr(GPtrArray) names = NULL;
		gboolean attr;
		char who = e->attr & CEXPR_USER ? 'u' : e->attr & CEXPR_ROLE ? 'r' : 't';
		char which = e->attr & CEXPR_TARGET ? '2' : e->attr & CEXPR_XTARGET ? '3' : '1';

		names = ad_leaf_names(p, e, &attr);
		g_string_append_printf(out, "%c%c %s ", who, which, ad_op_text(e->op));
		if (names->len == 1) {
			g_string_append(out, names->pdata[0]);
		} else {
			g_string_append(out, "{");
			for (guint i = 0; i < names->len; i++)
				g_string_append_printf(out, " %s", (char *)names->pdata[i]);
			g_string_append(out, " }");
		}
	} else {
		const char *a = "?", *b = "?";

		switch (e->attr) {
		case CEXPR_USER:
			a = "u1", b = "u2";
			break;
		case CEXPR_ROLE:
			a = "r1", b = "r2";
			break;
		case CEXPR_TYPE:
			a = "t1", b = "t2";
			break;
		case CEXPR_L1L2:
			a = "l1", b = "l2";
			break;
		case CEXPR_L1H2:
			a = "l1", b = "h2";
			break;
		case CEXPR_H1L2:
			a = "h1", b = "l2";
			break;
		case CEXPR_H1H2:
			a = "h1", b = "h2";
			break;
		case CEXPR_L1H1:
			a = "l1", b = "h1";
			break;
		case CEXPR_L2H2:
			a = "l2", b = "h2";
			break;
		default:
			break;
		}
		g_string_append_printf(out, "%s %s %s", a, ad_op_text(e->op), b);
	}
	if (!n->value)
		g_string_append(out, " -Fail-");
	g_string_append_c(out, ')');
}

/* Infix, operators of one kind flattened, other nestings in parentheses. */
static void ad_cnode_text(AdPolicy *p, GString *out, const AdCNode *n, guint32 parent)
{
	switch (n->kind) {
	case CEXPR_NOT:
		g_string_append(out, "not ");
		ad_cnode_text(p, out, n->a, CEXPR_NOT);
		break;
	case CEXPR_AND:
	case CEXPR_OR: {
		gboolean paren = parent != 0 && parent != n->kind;

		if (paren)
			g_string_append_c(out, '(');
		ad_cnode_text(p, out, n->a, n->kind);
		g_string_append(out, n->kind == CEXPR_AND ? " and " : " or ");
		ad_cnode_text(p, out, n->b, n->kind);
		if (paren)
			g_string_append_c(out, ')');
		break;
	}
	default:
		ad_leaf_text(p, out, n);
		break;
	}
}

static gboolean ad_cnode_is_mls(const AdCNode *n)
{
	if (!n)
		return FALSE;
	if (n->kind == CEXPR_ATTR && n->e->attr >= CEXPR_L1L2)
		return TRUE;
	return ad_cnode_is_mls(n->a) || ad_cnode_is_mls(n->b);
}

/* ---- in words --------------------------------------------------------------- */

/*
 * What the refpolicy constraint attributes stand for ("the types ..."),
 * translated where used.
 */
static const struct {
	const char *attr;
	const char *desc;
} ad_attr_desc[] = {
	/* TRANSLATORS: these complete "the source type x_t is one of the types %s"
	   (what the types of a refpolicy attribute have in common) */
	{ "can_change_object_identity", N_("allowed to change the user of an object") },
	{ "can_change_process_identity", N_("allowed to change a process identity") },
	{ "can_change_process_role", N_("allowed to change a process role") },
	{ "can_system_change", N_("allowed to change a process to the system role") },
	{ "process_user_target", N_("a process may enter with another role") },
	{ "process_uncond_exempt", N_("exempt from the process identity constraints") },
	{ "cron_source_domain", N_("of cron daemons") },
	{ "cron_job_domain", N_("of cron jobs") },
	{ "ubac_constrained_type", N_("subject to user-based access control") },
	{ "ubacfile", N_("exempt from user-based access control on files") },
	{ "ubacproc", N_("exempt from user-based access control on processes") },
	{ "ubacfd", N_("exempt from user-based access control on file descriptors") },
	{ "ubacsock", N_("exempt from user-based access control on sockets") },
	{ "ubacipc", N_("exempt from user-based access control on IPC") },
	{ "ubacxwin", N_("exempt from user-based access control on X windows") },
	{ "ubacdbus", N_("exempt from user-based access control on D-Bus") },
	{ "ubackey", N_("exempt from user-based access control on keys") },
	{ "ubacdb", N_("exempt from user-based access control on databases") },
	{ "mcs_constrained_type", N_("subject to MCS constraints") },
	{ "mlsfileread", N_("allowed to read files at any level") },
	{ "mlsfilewrite", N_("allowed to write files at any level") },
	{ "mlsprocread", N_("allowed to read processes at any level") },
	{ "mlsprocwrite", N_("allowed to write processes at any level") },
	{ "mlstrustedobject", N_("trusted MLS objects") },
};

static const char *ad_attr_description(const char *attr)
{
	for (guint i = 0; i < G_N_ELEMENTS(ad_attr_desc); i++)
		if (g_str_equal(ad_attr_desc[i].attr, attr))
			return _(ad_attr_desc[i].desc);
	return NULL;
}

/* A clause; clauses with the same prefix and an object merge ("is not a, b or c"). */
typedef struct {
	char *prefix;
	char *object;			/* NULL: the prefix is the whole clause */
} AdClause;

static void ad_clause_free(AdClause *c)
{
	g_free(c->prefix);
	g_free(c->object);
	g_free(c);
}

static void ad_clause_add(GPtrArray *clauses, char *prefix, char *object)
{
	AdClause *c;

	for (guint i = 0; i < clauses->len; i++) {
		c = clauses->pdata[i];
		if (g_str_equal(c->prefix, prefix) &&
		    g_strcmp0(c->object, object) == 0) {
			g_free(prefix);
			g_free(object);
			return;
		}
	}
	c = g_new0(AdClause, 1);
	c->prefix = prefix;
	c->object = object;
	g_ptr_array_add(clauses, c);
}

/* "the source user staff_u" */
static char *ad_term(AdPolicy *p, const constraint_expr_t *e, const context_struct_t *c,
		     gboolean target)
{
	if (e->attr & CEXPR_USER)
		/* TRANSLATORS: %s is an SELinux user, role or type name; the phrase is the
		   subject or object of a clause such as "%s is not one of the types ..." */
		return g_strdup_printf(target ? _("the target user %s") : _("the source user %s"),
				       p->db.p_user_val_to_name[c->user - 1]);
	if (e->attr & CEXPR_ROLE)
		return g_strdup_printf(target ? _("the target role %s") : _("the source role %s"),
				       p->db.p_role_val_to_name[c->role - 1]);
	return g_strdup_printf(target ? _("the target type %s") : _("the source type %s"),
			       p->db.p_type_val_to_name[c->type - 1]);
}

/* "the source level s0" / "the target high level s0:c0.c1023" */
static char *ad_mls_level_term(AdPolicy *p, const context_struct_t *c, gboolean target,
			       gboolean high)
{
	g_autofree char *text = ad_mls_level_to_string(p, &c->range.level[high ? 1 : 0]);

	if (mls_level_eq(&c->range.level[0], &c->range.level[1]))
		/* TRANSLATORS: %s is an MLS level such as s0:c0.c1023; the phrase is the
		   subject or object of a clause such as "%s dominates %s" */
		return g_strdup_printf(target ? _("the target level %s") : _("the source level %s"),
				       text);
	if (high)
		return g_strdup_printf(target ? _("the target high level %s")
				       : _("the source high level %s"), text);
	return g_strdup_printf(target ? _("the target low level %s") : _("the source low level %s"),
			       text);
}

/* The fact a leaf states about the two contexts, as a clause. */
static void ad_leaf_words(AdPolicy *p, const AdCNode *n, const context_struct_t *s,
			  const context_struct_t *t, GPtrArray *clauses)
{
	const constraint_expr_t *e = n->e;

	if (e->expr_type == CEXPR_NAMES) {
		gboolean target = (e->attr & CEXPR_TARGET) != 0;
		const context_struct_t *c = target ? t : s;
		guint32 v = e->attr & CEXPR_USER ? c->user : e->attr & CEXPR_ROLE ? c->role : c->type;
		gboolean member = ebitmap_get_bit(&e->names, v - 1);
		g_autoptr(GPtrArray) names = NULL;
		g_autofree char *term = NULL;
		gboolean attr;

		if (e->attr & CEXPR_XTARGET)
			return;
		term = ad_term(p, e, c, target);
		names = ad_leaf_names(p, e, &attr);
		if (names->len == 1 && attr) {
			const char *desc = ad_attr_description(names->pdata[0]);
			const char *attr_name = names->pdata[0];
			char *clause;

			if (desc)
				clause = g_strdup_printf(member ?
							 /* TRANSLATORS: a clause of "the constraint
							    fails because ...": %1$s is "the source
							    type x_t" or the like, %2$s what the
							    types of the attribute %3$s are
							    ("allowed to change a process role") */
							 _("%s is one of the types %s (%s)") :
							 /* TRANSLATORS: as "%s is one of the types
							    %s (%s)" */
							 _("%s is not one of the types %s (%s)"),
							 term, desc, attr_name);
			else
				clause = g_strdup_printf(member ?
							 /* TRANSLATORS: a clause of "the constraint
							    fails because ...": %1$s is "the source
							    type x_t" or the like, %2$s a type
							    attribute */
							 _("%s has the attribute %s") :
							 /* TRANSLATORS: as "%s has the attribute
							    %s" */
							 _("%s does not have the attribute %s"),
							 term, attr_name);
			ad_clause_add(clauses, clause, NULL);
		} else if (!member) {
			/* mergeable: "is not system_u, unconfined_u or sysadm_u" (the
			   prefix is the term; ad_clauses_text() writes the clause) */
			for (guint i = 0; i < names->len; i++)
				ad_clause_add(clauses, g_strdup(term), g_strdup(names->pdata[i]));
		} else {
			GString *list = g_string_new(NULL);

			for (guint i = 0; i < names->len; i++) {
				if (i)
					/* TRANSLATORS: separates the items of a list */
					g_string_append(list, C_("list", ", "));
				g_string_append(list, names->pdata[i]);
			}
			if (names->len > 1)
				/* TRANSLATORS: a clause of "the constraint fails because
				   ...": %1$s is "the source user x_u" or the like, %2$s a
				   list of SELinux names ("a, b, c") */
				ad_clause_add(clauses, g_strdup_printf(_("%s is one of %s"), term,
								       list->str), NULL);
			else
				/* TRANSLATORS: as "%s is one of %s", with one name */
				ad_clause_add(clauses, g_strdup_printf(_("%s is %s"), term,
								       list->str), NULL);
			g_string_free(list, TRUE);
		}
		return;
	}

	if (e->attr == CEXPR_USER || e->attr == CEXPR_ROLE || e->attr == CEXPR_TYPE) {
		const char *a, *b;
		int v = ad_leaf_eval(p, e, s, t);
		gboolean incomp;
		char *clause;

		if (e->attr == CEXPR_USER) {
			a = p->db.p_user_val_to_name[s->user - 1];
			b = p->db.p_user_val_to_name[t->user - 1];
		} else if (e->attr == CEXPR_ROLE) {
			a = p->db.p_role_val_to_name[s->role - 1];
			b = p->db.p_role_val_to_name[t->role - 1];
		} else {
			a = p->db.p_type_val_to_name[s->type - 1];
			b = p->db.p_type_val_to_name[t->type - 1];
		}
		/* only roles dominate one another */
		incomp = e->op != CEXPR_EQ && e->op != CEXPR_NEQ && e->op != CEXPR_DOM &&
			 e->op != CEXPR_DOMBY;
		if (e->op == CEXPR_DOM && v == 1)
			/* TRANSLATORS: a clause of "the constraint fails because ...":
			   %1$s and %2$s are SELinux roles (users, types) */
			clause = g_strdup_printf(_("the source role %s dominates the target "
						   "role %s"), a, b);
		else if (e->op == CEXPR_DOM)
			clause = g_strdup_printf(_("the source role %s does not dominate the "
						   "target role %s"), a, b);
		else if (e->op == CEXPR_DOMBY && v == 1)
			clause = g_strdup_printf(_("the source role %s is dominated by the "
						   "target role %s"), a, b);
		else if (e->op == CEXPR_DOMBY)
			clause = g_strdup_printf(_("the source role %s is not dominated by the "
						   "target role %s"), a, b);
		else if (incomp && v == 1)
			clause = g_strdup_printf(_("the source role %s is incomparable with "
						   "the target role %s"), a, b);
		else if (incomp)
			clause = g_strdup_printf(_("the source role %s is comparable with the "
						   "target role %s"), a, b);
		else if (e->attr == CEXPR_USER && s->user == t->user)
			clause = g_strdup_printf(_("the source user %s is the same as the "
						   "target user %s"), a, b);
		else if (e->attr == CEXPR_USER)
			clause = g_strdup_printf(_("the source user %s differs from the "
						   "target user %s"), a, b);
		else if (e->attr == CEXPR_ROLE && s->role == t->role)
			clause = g_strdup_printf(_("the source role %s is the same as the "
						   "target role %s"), a, b);
		else if (e->attr == CEXPR_ROLE)
			clause = g_strdup_printf(_("the source role %s differs from the "
						   "target role %s"), a, b);
		else if (s->type == t->type)
			clause = g_strdup_printf(_("the source type %s is the same as the "
						   "target type %s"), a, b);
		else
			clause = g_strdup_printf(_("the source type %s differs from the "
						   "target type %s"), a, b);
		ad_clause_add(clauses, clause, NULL);
		return;
	}

	/* levels */
	{
		const context_struct_t *c1 = s, *c2 = t;
		gboolean t1 = FALSE, t2 = TRUE, h1 = FALSE, h2 = FALSE;
		g_autofree char *a = NULL, *b = NULL;
		const mls_level_t *l1, *l2;
		char *clause;

		switch (e->attr) {
		case CEXPR_L1H2:
			h2 = TRUE;
			break;
		case CEXPR_H1L2:
			h1 = TRUE;
			break;
		case CEXPR_H1H2:
			h1 = h2 = TRUE;
			break;
		case CEXPR_L1H1:
			c2 = s;
			t2 = FALSE;
			h2 = TRUE;
			break;
		case CEXPR_L2H2:
			c1 = t;
			t1 = TRUE;
			h2 = TRUE;
			break;
		default:
			break;
		}
		l1 = &c1->range.level[h1 ? 1 : 0];
		l2 = &c2->range.level[h2 ? 1 : 0];
		a = ad_mls_level_term(p, c1, t1, h1);
		b = ad_mls_level_term(p, c2, t2, h2);
		if (e->op == CEXPR_DOM)
			/* TRANSLATORS: the clauses of "the constraint fails because ..."
			   compare two levels: %1$s and %2$s are phrases such as "the source
			   level s0" or "the target high level s0:c0.c1023" */
			clause = g_strdup_printf(mls_level_dom(l1, l2) ? _("%s dominates %s") :
						 _("%s does not dominate %s"), a, b);
		else if (e->op == CEXPR_DOMBY)
			clause = g_strdup_printf(mls_level_dom(l2, l1) ?
						 _("%s is dominated by %s") :
						 _("%s is not dominated by %s"), a, b);
		else if (e->op != CEXPR_EQ && e->op != CEXPR_NEQ)
			clause = g_strdup_printf(mls_level_incomp(l1, l2) ?
						 _("%s is incomparable with %s") :
						 _("%s is comparable with %s"), a, b);
		else
			clause = g_strdup_printf(mls_level_eq(l1, l2) ? _("%s equals %s") :
						 _("%s differs from %s"), a, b);
		ad_clause_add(clauses, clause, NULL);
	}
}

/*
 * Collects the leaves that give @n its value, where @want is the value it
 * should have had: under a failing "or" every branch, under a failing
 * "and" the failing branches, "not" turns the question round.
 */
static void ad_cnode_words(AdPolicy *p, const AdCNode *n, gboolean want,
			   const context_struct_t *s, const context_struct_t *t, GPtrArray *clauses)
{
	switch (n->kind) {
	case CEXPR_NOT:
		ad_cnode_words(p, n->a, !want, s, t, clauses);
		break;
	case CEXPR_AND:
	case CEXPR_OR:
		if (n->a->value != want)
			ad_cnode_words(p, n->a, want, s, t, clauses);
		if (n->b->value != want)
			ad_cnode_words(p, n->b, want, s, t, clauses);
		break;
	default:
		ad_leaf_words(p, n, s, t, clauses);
		break;
	}
}

/* "a, and b, and c" joined, mergeable clauses merged: "X is not a, b or c" */
static char *ad_clauses_text(GPtrArray *clauses)
{
	char *out = NULL;
	g_autofree gboolean *done = g_new0(gboolean, clauses->len + 1);

	for (guint i = 0; i < clauses->len; i++) {
		AdClause *c = clauses->pdata[i];
		g_autofree char *clause = NULL;
		char *old = out;

		if (done[i])
			continue;
		if (!c->object) {
			clause = g_strdup(c->prefix);
		} else {
			g_autoptr(GPtrArray) objs = g_ptr_array_new();
			GString *list = g_string_new(NULL);

			for (guint j = i; j < clauses->len; j++) {
				AdClause *d = clauses->pdata[j];

				if (!done[j] && d->object && g_str_equal(d->prefix, c->prefix)) {
					g_ptr_array_add(objs, d->object);
					done[j] = TRUE;
				}
			}
			for (guint j = 0; j < objs->len; j++) {
				if (j)
					g_string_append(list, j + 1 == objs->len ?
							/* TRANSLATORS: separate the items of a
							   list: "a, b or c" */
							C_("list", " or ") : C_("list", ", "));
				g_string_append(list, objs->pdata[j]);
			}
			/* TRANSLATORS: a clause of "the constraint fails because ...": %1$s
			   is "the source user x_u" or the like, %2$s one SELinux name or a
			   list of them ("a, b or c") */
			clause = g_strdup_printf(_("%s is not %s"), c->prefix, list->str);
			g_string_free(list, TRUE);
		}
		/* TRANSLATORS: joins the clauses of "the constraint fails because
		   %s": %1$s is the clauses so far, %2$s the next one */
		out = old ? g_strdup_printf(_("%s, and %s"), old, clause)
			  : g_steal_pointer(&clause);
		g_free(old);
	}
	return out ? out : g_strdup("");
}

/* The statement of constraint @c with its failing leaves marked. */
static char *ad_statement_text(AdPolicy *p, const constraint_node_t *c, guint16 tclass,
			       const AdCNode *root)
{
	GString *out = g_string_new(NULL);

	g_string_append_printf(out, "%s %s {", ad_cnode_is_mls(root) ? "mlsconstrain" : "constrain",
			       p->db.p_class_val_to_name[tclass - 1]);
	for (guint b = 0; b < 32; b++) {
		const char *name = ad_policy_perm_name(p, tclass, b);

		if ((c->permissions & (1u << b)) && name) {
			g_string_append_c(out, ' ');
			g_string_append(out, name);
		}
	}
	g_string_append(out, " } ");
	if (root->kind == CEXPR_ATTR || root->kind == CEXPR_NAMES) {
		ad_cnode_text(p, out, root, 0);
	} else {
		g_string_append_c(out, '(');
		ad_cnode_text(p, out, root, 0);
		g_string_append_c(out, ')');
	}
	g_string_append_c(out, ';');
	return g_string_free(out, FALSE);
}

/* The statement text depends only on the constraint and which leaves fail. */
typedef struct {
	const constraint_node_t *node;
	guint32 fails;
} AdStatementKey;

static guint ad_statement_hash(gconstpointer k)
{
	const AdStatementKey *key = k;

	return g_direct_hash(key->node) ^ (key->fails * 2654435761u);
}

static gboolean ad_statement_equal(gconstpointer a, gconstpointer b)
{
	const AdStatementKey *x = a, *y = b;

	return x->node == y->node && x->fails == y->fails;
}

void ad_constraint_cache_init(AdPolicy *p)
{
	p->statements = g_hash_table_new_full(ad_statement_hash, ad_statement_equal, g_free, g_free);
}

/* Appends the statement text to @out (space-separated), cached per failing leaves. */
static void ad_statement_append(AdPolicy *p, GString *out, const constraint_node_t *c,
				guint16 tclass, const AdCNode *nodes, guint n, const AdCNode *root)
{
	AdStatementKey key = { c, 0 };
	guint leaves = 0;
	char *text;

	for (guint i = 0; i < n; i++) {
		if (nodes[i].kind != CEXPR_ATTR && nodes[i].kind != CEXPR_NAMES)
			continue;
		if (leaves < 32 && !nodes[i].value)
			key.fails |= 1u << leaves;
		leaves++;
	}
	if (out->len)
		g_string_append_c(out, ' ');
	if (leaves > 32) {
		/* more leaves than the key holds (no refpolicy constraint): not cached */
		g_autofree char *once = ad_statement_text(p, c, tclass, root);

		g_string_append(out, once);
		return;
	}
	text = g_hash_table_lookup(p->statements, &key);
	if (!text) {
		text = ad_statement_text(p, c, tclass, root);
		g_hash_table_insert(p->statements, g_memdup2(&key, sizeof(key)), text);
	}
	g_string_append(out, text);
}

/*
 * Evaluates the constraints of @tclass that cover @requested for @s -> @t.
 * Returns the requested bits some failing constraint covers (0: none
 * fails).  When @ret_words / @ret_expr are given and a constraint fails,
 * they get the explanation in words and the failing statements.
 */
guint32 ad_constraint_check(AdPolicy *p, const context_struct_t *s, const context_struct_t *t,
			    guint16 tclass, guint32 requested, char **ret_words, char **ret_expr)
{
	class_datum_t *cls;
	guint32 denied = 0;
	g_autoptr(GPtrArray) clauses = NULL;
	GString *expr = NULL;

	if (!tclass || tclass > p->db.p_classes.nprim)
		return 0;
	cls = p->db.class_val_to_struct[tclass - 1];
	if (!cls)
		return 0;

	for (constraint_node_t *c = cls->constraints; c; c = c->next) {
		g_autofree AdCNode *nodes = NULL;
		const AdCNode *root;
		guint n = 0;

		if (!(c->permissions & requested) || ad_cexpr_eval(p, c->expr, s, t))
			continue;
		denied |= c->permissions & requested;
		if (!ret_words && !ret_expr)
			continue;

		for (const constraint_expr_t *e = c->expr; e; e = e->next)
			n++;
		nodes = g_new0(AdCNode, n + 1);
		root = ad_cnode_build(p, c->expr, nodes, n, s, t);
		if (!root)
			continue;
		if (!clauses)
			clauses = g_ptr_array_new_with_free_func((GDestroyNotify)ad_clause_free);
		if (!expr)
			expr = g_string_new(NULL);
		ad_cnode_words(p, root, TRUE, s, t, clauses);
		ad_statement_append(p, expr, c, tclass, nodes, n, root);
	}

	if (ret_words)
		*ret_words = clauses && clauses->len ? ad_clauses_text(clauses) : NULL;
	if (ret_expr)
		*ret_expr = expr ? g_string_free(expr, FALSE) : NULL;
	else if (expr)
		g_string_free(expr, TRUE);
	return denied;
}
