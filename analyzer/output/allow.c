// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allow rules from denials (audit2allow's job), merged per (source type,
 * target type, class).  Every name is checked against the policy before
 * it is written: a record naming a type, class or permission the policy
 * lacks gives a comment, never a rule.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "allow.h"
#include "escape.h"
#include "hash.h"
#include "output/report.h"
#include "policy/policy-edit.h"

struct _AdRuleSet {
	AdPolicy *policy;
	AdRuleOptions opt;
	GHashTable *rules;		/* "s\x1ft\x1fc" -> AdRule* */
	GHashTable *role_rules;		/* "r\x1ft" -> AdRoleRule* */
	GHashTable *accesses;		/* access key -> AdRuleAccess* */
	GString *scratch;		/* an access key being made */
	guint granted;
};

static void rule_free(AdRule *r)
{
	g_free(r->source);
	g_free(r->target);
	g_free(r->tclass);
	g_ptr_array_unref(r->perms);
	g_ptr_array_unref(r->verdicts);
	g_array_unref(r->records);
	g_array_unref(r->ioctls);
	g_free(r->unknown_text);
	g_free(r->left_out_text);
	g_free(r);
}

static void role_rule_free(AdRoleRule *r)
{
	g_free(r->role);
	g_free(r->type);
	g_array_unref(r->records);
	g_free(r);
}

static void access_free(AdRuleAccess *a)
{
	g_free(a->scontext);
	g_free(a->tcontext);
	g_free(a->tclass);
	if (a->perms)
		g_ptr_array_unref(a->perms);
	g_free(a->invalid_context);
	g_free(a);
}

/*
 * Adds where @d is to @records, with its access: the first record of an
 * access copies what --verify needs of it, later ones share that copy.
 */
static void add_record(AdRuleSet *rs, GArray *records, const AdDenial *d)
{
	GString *key = rs->scratch;
	AdRuleAccess *a;
	AdRuleRecord rec = {
		.file = d->record->file,
		.line = d->record->line,
		.serial = d->event->serial,
	};

	g_string_truncate(key, 0);
	g_string_append_c(key, '0' + d->type);
	g_string_append_c(key, '\x1f');
	g_string_append(key, d->scontext ? d->scontext : "");
	g_string_append_c(key, '\x1f');
	g_string_append(key, d->tcontext ? d->tcontext : "");
	g_string_append_c(key, '\x1f');
	g_string_append(key, d->tclass ? d->tclass : "");
	g_string_append_c(key, '\x1f');
	g_string_append(key, d->invalid_context ? d->invalid_context : "");
	for (guint i = 0; d->perms && i < d->perms->len; i++) {
		g_string_append_c(key, '\x1f');
		g_string_append(key, g_ptr_array_index(d->perms, i));
	}
	a = g_hash_table_lookup(rs->accesses, key->str);
	if (!a) {
		a = g_new0(AdRuleAccess, 1);
		a->type = d->type;
		a->scontext = g_strdup(d->scontext);
		a->tcontext = g_strdup(d->tcontext);
		a->tclass = g_strdup(d->tclass);
		a->perms = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0; d->perms && i < d->perms->len; i++)
			g_ptr_array_add(a->perms, g_strdup(g_ptr_array_index(d->perms, i)));
		a->invalid_context = g_strdup(d->invalid_context);
		g_hash_table_insert(rs->accesses, g_strdup(key->str), a);
	}
	rec.access = a;
	g_array_append_val(records, rec);
}

AdRuleSet *ad_rule_set_new(AdPolicy *policy, const AdRuleOptions *opt)
{
	AdRuleSet *rs = g_new0(AdRuleSet, 1);

	rs->policy = policy;
	if (opt)
		rs->opt = *opt;
	rs->rules = g_hash_table_new_full(ad_str_hash, g_str_equal, g_free,
					  (GDestroyNotify)rule_free);
	rs->role_rules = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					       (GDestroyNotify)role_rule_free);
	rs->accesses = g_hash_table_new_full(ad_str_hash, g_str_equal, g_free,
					     (GDestroyNotify)access_free);
	rs->scratch = g_string_new(NULL);
	return rs;
}

void ad_rule_set_free(AdRuleSet *rs)
{
	if (!rs)
		return;
	g_hash_table_unref(rs->rules);
	g_hash_table_unref(rs->role_rules);
	g_hash_table_unref(rs->accesses);
	g_string_free(rs->scratch, TRUE);
	g_free(rs);
}

guint ad_rule_set_granted(const AdRuleSet *rs)
{
	return rs->granted;
}

gboolean ad_module_name_is_valid(const char *name)
{
	if (!name || !g_ascii_isalpha(name[0]) || strlen(name) > 128)
		return FALSE;
	for (const char *p = name; *p; p++)
		if (!g_ascii_isalnum(*p) && *p != '_' && *p != '-')
			return FALSE;
	return TRUE;
}

static gboolean ptr_array_has_str(GPtrArray *a, const char *s)
{
	for (guint i = 0; i < a->len; i++)
		if (strcmp(g_ptr_array_index(a, i), s) == 0)
			return TRUE;
	return FALSE;
}

static char *context_role(const char *context)
{
	const char *p = context ? strchr(context, ':') : NULL;
	const char *q = p ? strchr(p + 1, ':') : NULL;

	return q ? g_strndup(p + 1, q - p - 1) : NULL;
}

/* SELINUX_ERR invalid_context where the role is not authorised for the type */
static void add_role_rule(AdRuleSet *rs, AdDenial *d)
{
	g_autofree char *role = context_role(d->invalid_context);
	g_autofree char *type = ad_context_type(d->invalid_context);
	g_autofree char *key = NULL;
	AdRoleRule *rr;

	if (!role || !type || !ad_policy_has_role(rs->policy, role) ||
	    !ad_policy_has_type(rs->policy, type) ||
	    ad_policy_role_has_type(rs->policy, role, type))
		return;
	key = g_strdup_printf("%s\x1f%s", role, type);
	rr = g_hash_table_lookup(rs->role_rules, key);
	if (!rr) {
		rr = g_new0(AdRoleRule, 1);
		rr->role = g_steal_pointer(&role);
		rr->type = g_steal_pointer(&type);
		rr->records = g_array_new(FALSE, FALSE, sizeof(AdRuleRecord));
		g_hash_table_insert(rs->role_rules, g_steal_pointer(&key), rr);
	}
	add_record(rs, rr->records, d);
}

static void add_why(GString *why, char *text)
{
	if (why->len)
		g_string_append(why, "; ");
	g_string_append(why, text);
	g_free(text);
}

/* why the rule cannot be written, or NULL when every name is in the policy */
static char *unknown_names(AdRuleSet *rs, const char *s, const char *t, const AdDenial *d)
{
	g_autoptr(GString) why = g_string_new(NULL);

	if (!ad_policy_has_type(rs->policy, s))
		add_why(why, g_strdup_printf(_("the type %s is not defined"), s));
	if (strcmp(s, t) != 0 && !ad_policy_has_type(rs->policy, t))
		add_why(why, g_strdup_printf(_("the type %s is not defined"), t));
	if (!ad_policy_has_class(rs->policy, d->tclass)) {
		add_why(why, g_strdup_printf(_("the class %s is not defined"), d->tclass));
	} else {
		for (guint i = 0; i < d->perms->len; i++) {
			const char *p = g_ptr_array_index(d->perms, i);

			if (!ad_policy_has_perm(rs->policy, d->tclass, p))
				add_why(why, g_strdup_printf(_("the class %s has no permission "
							       "%s"), d->tclass, p));
		}
	}
	if (!why->len)
		return NULL;
	return g_string_free(g_steal_pointer(&why), FALSE);
}

/*
 * A rule shows each distinct reason once: many MCS pairs give verdicts that
 * differ only in the levels they name, and a rule keeps at most a few.
 */
static gboolean has_same_reason(GPtrArray *verdicts, const AdVerdict *v)
{
	if (verdicts->len >= 8)
		return TRUE;
	for (guint i = 0; i < verdicts->len; i++) {
		const AdVerdict *o = g_ptr_array_index(verdicts, i);

		if (o == v)
			return TRUE;
		if (o->reason == v->reason && o->reason != AD_REASON_BOOLEAN &&
		    o->reason != AD_REASON_CONSTRAINT)
			return TRUE;
		if (o->reason == v->reason && g_strcmp0(o->constraint_expr, v->constraint_expr) == 0 &&
		    o->reason == AD_REASON_CONSTRAINT)
			return TRUE;
	}
	return FALSE;
}

static int compare_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *ad_left_out_name(AdLeftOut l)
{
	static const char *const names[] = {
		[AD_LEFT_OUT_ATTACK] = "attack",
		[AD_LEFT_OUT_CONSTRAINT] = "constraint",
		[AD_LEFT_OUT_INVALID_CONTEXT] = "invalid_context",
		[AD_LEFT_OUT_DONTAUDIT] = "dontaudit",
	};

	return l > AD_LEFT_OUT_NONE && l < G_N_ELEMENTS(names) ? names[l] : NULL;
}

/*
 * Whether the rule for a denial is written commented out, and the reason
 * put on its line: a red alert's access is not granted, and a rule that
 * would not change the outcome (a constraint, an invalid context) or that
 * allows what the policy hides on purpose (dontaudit) only widens the
 * policy.  dontaudit rules (-D) are left out for red alerts only.
 */
static AdLeftOut left_out(const AdRuleSet *rs, const AdVerdict *v, const char *attack,
			  char **ret_text)
{
	*ret_text = NULL;
	if (rs->opt.keep_blocked)
		return AD_LEFT_OUT_NONE;
	if (attack) {
		*ret_text = g_strdup_printf(_("not allowed: a red alert (%s), an attack "
					      "indicator"), attack);
		return AD_LEFT_OUT_ATTACK;
	}
	if (!v || rs->opt.kind != AD_RULE_ALLOW)
		return AD_LEFT_OUT_NONE;
	if (v->reason == AD_REASON_CONSTRAINT || v->constraint_too) {
		*ret_text = g_strdup_printf(_("an allow rule would not help: constraint %s"),
					    v->constraint ? v->constraint : "");
		return AD_LEFT_OUT_CONSTRAINT;
	}
	if (v->reason == AD_REASON_INVALID_CONTEXT) {
		*ret_text = g_strdup_printf(_("invalid context: %s; an allow rule would not "
					      "help"), v->detail ? v->detail : "");
		return AD_LEFT_OUT_INVALID_CONTEXT;
	}
	if (v->reason == AD_REASON_DONTAUDIT) {
		*ret_text = g_strdup(_("hidden by dontaudit: the policy hides this access on "
				       "purpose (it was logged with dontaudit rules disabled)"));
		return AD_LEFT_OUT_DONTAUDIT;
	}
	return AD_LEFT_OUT_NONE;
}

void ad_rule_set_add(AdRuleSet *rs, AdDenial *d, const AdVerdict *v)
{
	ad_rule_set_add_flagged(rs, d, v, NULL);
}

void ad_rule_set_add_flagged(AdRuleSet *rs, AdDenial *d, const AdVerdict *v,
			     const char *attack)
{
	g_autofree char *s = NULL, *t = NULL, *key = NULL, *why = NULL, *lo_text = NULL;
	AdLeftOut lo;
	AdRule *r;

	if (d->granted) {
		rs->granted++;
		return;
	}
	if (d->type == AD_DENIAL_SELINUX_ERR || d->type == AD_DENIAL_USER_SELINUX_ERR) {
		if (d->err_kind == AD_ERR_INVALID_CONTEXT && d->invalid_context)
			add_role_rule(rs, d);
		return;
	}
	s = ad_context_type(d->scontext);
	t = ad_context_type(d->tcontext);
	if (!s || !t || !d->tclass || !d->perms || !d->perms->len)
		return;
	why = unknown_names(rs, s, t, d);
	lo = why ? AD_LEFT_OUT_NONE : left_out(rs, v, attack, &lo_text);
	/*
	 * a record naming what the policy lacks, or one whose rule is left
	 * out, never joins a rule that is written
	 */
	key = g_strdup_printf("%s\x1f%s\x1f%s%s\x1f%d", s, t, d->tclass, why ? "\x1f!" : "",
			      (int)lo);
	r = g_hash_table_lookup(rs->rules, key);
	if (!r) {
		r = g_new0(AdRule, 1);
		r->source = g_strdup(s);
		r->target = g_strdup(t);
		r->tclass = g_strdup(d->tclass);
		r->perms = g_ptr_array_new_with_free_func(g_free);
		r->verdicts = g_ptr_array_new_with_free_func((GDestroyNotify)ad_verdict_unref);
		r->records = g_array_new(FALSE, FALSE, sizeof(AdRuleRecord));
		r->ioctls = g_array_new(FALSE, FALSE, sizeof(guint16));
		r->all_permissive = TRUE;
		r->left_out = lo;
		g_hash_table_insert(rs->rules, g_steal_pointer(&key), r);
	}
	if (lo_text) {
		if (!r->left_out_text) {
			r->left_out_text = g_steal_pointer(&lo_text);
		} else if (!strstr(r->left_out_text, lo_text) && strlen(r->left_out_text) < 1024) {
			char *joined = g_strdup_printf("%s; %s", r->left_out_text, lo_text);

			g_free(r->left_out_text);
			r->left_out_text = joined;
		}
	}
	if (why) {
		r->unknown = TRUE;
		if (!r->unknown_text) {
			r->unknown_text = g_steal_pointer(&why);
		} else if (!strstr(r->unknown_text, why)) {
			char *joined = g_strdup_printf("%s; %s", r->unknown_text, why);

			g_free(r->unknown_text);
			r->unknown_text = joined;
		}
	}
	for (guint i = 0; i < d->perms->len; i++) {
		const char *p = g_ptr_array_index(d->perms, i);

		/* only names the policy has reach a rule */
		if (!ptr_array_has_str(r->perms, p))
			g_ptr_array_add(r->perms, g_strdup(p));
	}
	g_ptr_array_sort(r->perms, compare_str);
	if (v && !has_same_reason(r->verdicts, v))
		g_ptr_array_add(r->verdicts, (gpointer)ad_verdict_ref(v));
	if (d->permissive != 1)
		r->all_permissive = FALSE;
	if (d->ioctlcmd) {
		char *end;
		guint64 cmd = g_ascii_strtoull(d->ioctlcmd, &end, 16);

		if (!*end && cmd <= 0xffff) {
			guint16 c = cmd;
			gboolean seen = FALSE;

			for (guint i = 0; i < r->ioctls->len && !seen; i++)
				seen = g_array_index(r->ioctls, guint16, i) == c;
			if (!seen)
				g_array_append_val(r->ioctls, c);
		}
	}
	add_record(rs, r->records, d);
}

static int compare_rules(gconstpointer a, gconstpointer b)
{
	const AdRule *x = *(AdRule *const *)a, *y = *(AdRule *const *)b;
	int c = strcmp(x->source, y->source);

	if (!c)
		c = strcmp(x->target, y->target);
	if (!c)
		c = strcmp(x->tclass, y->tclass);
	if (!c)
		c = (int)x->unknown - (int)y->unknown;
	if (!c)
		c = (int)x->left_out - (int)y->left_out;
	return c;
}

/* the values of @table in an array (borrowed), sorted with @cmp: output order never depends on hashing */
static GPtrArray *sorted_values(GHashTable *table, GCompareFunc cmp)
{
	GPtrArray *out = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, table);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(out, v);
	g_ptr_array_sort(out, cmp);
	return out;
}

GPtrArray *ad_rule_set_rules(AdRuleSet *rs)
{
	return sorted_values(rs->rules, compare_rules);
}

static int compare_role_rules(gconstpointer a, gconstpointer b)
{
	const AdRoleRule *x = *(AdRoleRule *const *)a, *y = *(AdRoleRule *const *)b;
	int c = strcmp(x->role, y->role);

	return c ? c : strcmp(x->type, y->type);
}

GPtrArray *ad_rule_set_role_rules(AdRuleSet *rs)
{
	return sorted_values(rs->role_rules, compare_role_rules);
}

const char *ad_rule_target_text(const AdRule *r)
{
	return strcmp(r->source, r->target) == 0 ? "self" : r->target;
}

static void append_perm_set(GString *out, GPtrArray *perms)
{
	if (perms->len == 1) {
		g_string_append(out, g_ptr_array_index(perms, 0));
		return;
	}
	g_string_append(out, "{ ");
	for (guint i = 0; i < perms->len; i++)
		g_string_append_printf(out, "%s ", (char *)g_ptr_array_index(perms, i));
	g_string_append_c(out, '}');
}

static int compare_u16(gconstpointer a, gconstpointer b)
{
	return (int)*(const guint16 *)a - (int)*(const guint16 *)b;
}

/* "0x5401-0x5402 0x5410": consecutive commands as ranges */
static char *ioctl_ranges(GArray *cmds, gboolean cil)
{
	g_autoptr(GArray) c = g_array_copy(cmds);
	GString *out = g_string_new(NULL);

	g_array_sort(c, compare_u16);
	for (guint i = 0; i < c->len;) {
		guint j = i;

		while (j + 1 < c->len &&
		       g_array_index(c, guint16, j + 1) == g_array_index(c, guint16, j) + 1)
			j++;
		if (out->len)
			g_string_append_c(out, ' ');
		if (j > i)
			g_string_append_printf(out, cil ? "(range 0x%04x 0x%04x)" : "0x%04x-0x%04x",
					       g_array_index(c, guint16, i),
					       g_array_index(c, guint16, j));
		else
			g_string_append_printf(out, "0x%04x", g_array_index(c, guint16, i));
		i = j + 1;
	}
	return g_string_free(out, FALSE);
}

static void append_alternatives(GString *out, GPtrArray *alts)
{
	for (guint i = 0; i < alts->len; i++) {
		g_autofree char *cmd = ad_boolean_command(g_ptr_array_index(alts, i));

		g_string_append_printf(out, "%s%s", i ? _(" or ") : "", cmd);
	}
}

/* the reason of a left-out rule, on its line, says what this verdict would */
static gboolean said_on_the_line(const AdRule *r, const AdVerdict *v)
{
	switch (r->left_out) {
	case AD_LEFT_OUT_CONSTRAINT:
		return v->reason == AD_REASON_CONSTRAINT;
	case AD_LEFT_OUT_INVALID_CONTEXT:
		return v->reason == AD_REASON_INVALID_CONTEXT;
	case AD_LEFT_OUT_DONTAUDIT:
		return v->reason == AD_REASON_DONTAUDIT;
	default:
		return FALSE;
	}
}

/* the reasons of a rule as "#!!!! ..." comment lines */
static void append_reason_comments(GString *out, const AdRule *r)
{
	for (guint i = 0; i < r->verdicts->len; i++) {
		const AdVerdict *v = g_ptr_array_index(r->verdicts, i);

		if (said_on_the_line(r, v))
			continue;

		switch (v->reason) {
		case AD_REASON_BOOLEAN: {
			gboolean combined = FALSE;

			/* "setsebool -P a=1 b=1": the booleans together, not one of them */
			for (guint k = 0; k < v->booleans->len; k++)
				combined |= ((GPtrArray *)g_ptr_array_index(v->booleans, k))->len > 1;
			g_string_append(out, combined
					? _("#!!!! This avc can be allowed with booleans: ")
					: _("#!!!! This avc can be allowed with a boolean: "));
			append_alternatives(out, v->booleans);
			g_string_append_c(out, '\n');
			break;
		}
		case AD_REASON_CONSTRAINT:
			g_string_append_printf(out, _("#!!!! A constraint blocks this; an allow "
						      "rule will not help: %s\n"),
					       v->constraint ? v->constraint : "");
			break;
		case AD_REASON_ALLOWED:
			g_string_append(out, _("#!!!! This avc is already allowed by the current "
					       "policy\n"));
			break;
		case AD_REASON_DONTAUDIT:
			g_string_append(out, _("#!!!! The current policy has a dontaudit rule for "
					       "this avc\n"));
			break;
		case AD_REASON_RBAC:
			g_string_append(out, _("#!!!! A role rule is missing (rbac); an allow "
					       "rule will not help\n"));
			break;
		case AD_REASON_BOUNDS:
			g_string_append(out, _("#!!!! The domain's bounds forbid this\n"));
			break;
		case AD_REASON_INVALID_CONTEXT:
			g_string_append_printf(out, _("#!!!! The contexts are invalid in this "
						      "policy (%s); an allow rule will not "
						      "help\n"), v->detail ? v->detail : "");
			break;
		default:
			break;
		}
		if (v->constraint_too && v->reason != AD_REASON_CONSTRAINT)
			g_string_append_printf(out, _("#!!!! A constraint blocks this as well: "
						      "%s\n"), v->constraint ? v->constraint : "");
	}
	if (r->all_permissive)
		g_string_append(out, _("#!!!! Permissive only: nothing was blocked "
				       "(permissive=1)\n"));
}

static void append_rule(GString *out, AdRuleSet *rs, const AdRule *r, gboolean comments)
{
	const char *kw = rs->opt.kind == AD_RULE_DONTAUDIT ? "dontaudit" : "allow";

	if (comments)
		append_reason_comments(out, r);
	if (r->unknown) {
		/* hostile names never get here: the builder keeps [A-Za-z0-9_.-] only */
		g_string_append_printf(out, _("#!!!! Not written, %s in this policy:\n#"),
				       r->unknown_text);
	} else if (r->left_out) {
		g_string_append_c(out, '#');
	}
	g_string_append_printf(out, "%s %s %s:%s ", kw, r->source, ad_rule_target_text(r),
			       r->tclass);
	append_perm_set(out, r->perms);
	g_string_append_c(out, ';');
	if (r->left_out && !r->unknown) {
		/* the reason on the line; constraint texts come from the policy */
		g_autofree char *text = ad_escape_str(r->left_out_text);

		g_string_append_printf(out, " # %s", text);
	}
	g_string_append_c(out, '\n');
	if (rs->opt.xperms && r->ioctls->len && !r->unknown && !r->left_out &&
	    rs->opt.kind == AD_RULE_ALLOW) {
		g_autofree char *ranges = ioctl_ranges(r->ioctls, FALSE);

		g_string_append_printf(out, "allowxperm %s %s:%s ioctl %s%s%s;\n", r->source,
				       ad_rule_target_text(r), r->tclass,
				       r->ioctls->len > 1 ? "{ " : "", ranges,
				       r->ioctls->len > 1 ? " }" : "");
	}
}

/*
 * The rules as policy text: a header per domain, then its rules.  avcdoctor's
 * own layout puts a blank line before every rule; audit2allow's (@classic,
 * for scripts that parse it) only before a rule that has comments.  The
 * comments and the rules written are avcdoctor's either way.
 */
static char *rules_text(AdRuleSet *rs, gboolean comments, gboolean classic)
{
	g_autoptr(GPtrArray) rules = ad_rule_set_rules(rs);
	g_autoptr(GPtrArray) roles = ad_rule_set_role_rules(rs);
	g_autoptr(GString) rule = g_string_new(NULL);
	GString *out = g_string_new(NULL);
	const char *cur = NULL;

	for (guint i = 0; i < rules->len; i++) {
		const AdRule *r = g_ptr_array_index(rules, i);

		if (!cur || strcmp(cur, r->source) != 0) {
			g_string_append_printf(out, "\n#============= %s ==============\n",
					       r->source);
			cur = r->source;
		}
		g_string_truncate(rule, 0);
		append_rule(rule, rs, r, comments);
		if (!classic || (rule->str[0] == '#' && rule->str[1] == '!'))
			g_string_append_c(out, '\n');
		g_string_append(out, rule->str);
	}
	if (roles->len)
		g_string_append(out, "\n#============= ROLES ==============\n");
	for (guint i = 0; i < roles->len; i++) {
		const AdRoleRule *rr = g_ptr_array_index(roles, i);

		g_string_append_printf(out, "role %s types %s;\n", rr->role, rr->type);
	}
	return g_string_free(out, FALSE);
}

char *ad_rule_set_to_te(AdRuleSet *rs, gboolean comments)
{
	return rules_text(rs, comments, FALSE);
}

char *ad_rule_set_to_te_classic(AdRuleSet *rs)
{
	return rules_text(rs, TRUE, TRUE);
}

/* class -> perms (every permission a module's rules use) for the require block */
static GHashTable *required_classes(GPtrArray *rules)
{
	GHashTable *classes = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
						    (GDestroyNotify)g_ptr_array_unref);

	for (guint i = 0; i < rules->len; i++) {
		const AdRule *r = g_ptr_array_index(rules, i);
		GPtrArray *perms = g_hash_table_lookup(classes, r->tclass);

		if (!perms) {
			perms = g_ptr_array_new();
			g_hash_table_insert(classes, r->tclass, perms);
		}
		for (guint j = 0; j < r->perms->len; j++)
			if (!ptr_array_has_str(perms, g_ptr_array_index(r->perms, j)))
				g_ptr_array_add(perms, g_ptr_array_index(r->perms, j));
	}
	return classes;
}

static void add_unique_sorted(GPtrArray *a, const char *s)
{
	if (!ptr_array_has_str(a, s))
		g_ptr_array_add(a, (gpointer)s);
}

char *ad_rule_set_to_module(AdRuleSet *rs, const char *name)
{
	g_autoptr(GPtrArray) all = ad_rule_set_rules(rs);
	g_autoptr(GPtrArray) roles = ad_rule_set_role_rules(rs);
	g_autoptr(GPtrArray) rules = g_ptr_array_new();
	g_autoptr(GPtrArray) left = g_ptr_array_new();
	g_autoptr(GPtrArray) types = g_ptr_array_new();
	g_autoptr(GPtrArray) role_names = g_ptr_array_new();
	g_autoptr(GHashTable) classes = NULL;
	g_autoptr(GList) class_names = NULL;
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < all->len; i++) {
		AdRule *r = g_ptr_array_index(all, i);

		if (r->unknown)
			continue;
		if (r->left_out) {
			g_ptr_array_add(left, r);
			continue;
		}
		g_ptr_array_add(rules, r);
		add_unique_sorted(types, r->source);
		add_unique_sorted(types, r->target);
	}
	for (guint i = 0; i < roles->len; i++) {
		AdRoleRule *rr = g_ptr_array_index(roles, i);

		add_unique_sorted(role_names, rr->role);
		add_unique_sorted(types, rr->type);
	}
	g_ptr_array_sort(types, compare_str);
	g_ptr_array_sort(role_names, compare_str);
	classes = required_classes(rules);
	class_names = g_list_sort(g_hash_table_get_keys(classes), (GCompareFunc)strcmp);

	g_string_append_printf(out, "module %s 1.0;\n\nrequire {\n", name);
	for (guint i = 0; i < types->len; i++)
		g_string_append_printf(out, "\ttype %s;\n", (char *)g_ptr_array_index(types, i));
	for (guint i = 0; i < role_names->len; i++)
		g_string_append_printf(out, "\trole %s;\n",
				       (char *)g_ptr_array_index(role_names, i));
	for (GList *l = class_names; l; l = l->next) {
		GPtrArray *perms = g_hash_table_lookup(classes, l->data);

		g_ptr_array_sort(perms, compare_str);
		g_string_append_printf(out, "\tclass %s ", (char *)l->data);
		append_perm_set(out, perms);
		g_string_append(out, ";\n");
	}
	g_string_append(out, "}\n");

	const char *cur = NULL;

	for (guint i = 0; i < rules->len; i++) {
		const AdRule *r = g_ptr_array_index(rules, i);

		if (!cur || strcmp(cur, r->source) != 0) {
			g_string_append_printf(out, "\n#============= %s ==============\n",
					       r->source);
			cur = r->source;
		}
		append_rule(out, rs, r, TRUE);
	}
	if (roles->len)
		g_string_append(out, "\n#============= ROLES ==============\n");
	for (guint i = 0; i < roles->len; i++) {
		const AdRoleRule *rr = g_ptr_array_index(roles, i);

		g_string_append_printf(out, "role %s types %s;\n", rr->role, rr->type);
	}
	/* what the module does not grant, for the reviewer: comments need no require */
	if (left->len)
		g_string_append(out, "\n#============= left out ==============\n");
	for (guint i = 0; i < left->len; i++)
		append_rule(out, rs, g_ptr_array_index(left, i), FALSE);
	return g_string_free(out, FALSE);
}

char *ad_rule_set_to_cil(AdRuleSet *rs)
{
	g_autoptr(GPtrArray) rules = ad_rule_set_rules(rs);
	g_autoptr(GPtrArray) roles = ad_rule_set_role_rules(rs);
	GString *out = g_string_new(NULL);
	const char *kw = rs->opt.kind == AD_RULE_DONTAUDIT ? "dontaudit" : "allow";

	for (guint i = 0; i < rules->len; i++) {
		const AdRule *r = g_ptr_array_index(rules, i);

		if (r->unknown) {
			g_string_append_printf(out, _(";; not written, %s in this policy: %s %s "
						      "%s:%s\n"), r->unknown_text, kw, r->source,
					       r->target, r->tclass);
			continue;
		}
		if (r->left_out) {
			g_autofree char *text = ad_escape_str(r->left_out_text);

			g_string_append_printf(out, ";; (%s %s %s (%s (", kw, r->source,
					       ad_rule_target_text(r), r->tclass);
			for (guint j = 0; j < r->perms->len; j++)
				g_string_append_printf(out, "%s%s", j ? " " : "",
						       (char *)g_ptr_array_index(r->perms, j));
			g_string_append_printf(out, "))) ; %s\n", text);
			continue;
		}
		g_string_append_printf(out, "(%s %s %s (%s (", kw, r->source,
				       ad_rule_target_text(r), r->tclass);
		for (guint j = 0; j < r->perms->len; j++)
			g_string_append_printf(out, "%s%s", j ? " " : "",
					       (char *)g_ptr_array_index(r->perms, j));
		g_string_append(out, ")))\n");
		if (rs->opt.xperms && r->ioctls->len && rs->opt.kind == AD_RULE_ALLOW) {
			g_autofree char *ranges = ioctl_ranges(r->ioctls, TRUE);

			g_string_append_printf(out, "(allowx %s %s (ioctl %s (%s)))\n", r->source,
					       ad_rule_target_text(r), r->tclass, ranges);
		}
	}
	for (guint i = 0; i < roles->len; i++) {
		const AdRoleRule *rr = g_ptr_array_index(roles, i);

		g_string_append_printf(out, "(roletype %s %s)\n", rr->role, rr->type);
	}
	return g_string_free(out, FALSE);
}

static json_object *records_json(GArray *records)
{
	json_object *arr = json_object_new_array();

	for (guint i = 0; i < records->len; i++) {
		const AdRuleRecord *rec = &g_array_index(records, AdRuleRecord, i);
		json_object *o = json_object_new_object();

		json_object_object_add(o, "file", ad_json_string_bytes(rec->file,
								    strlen(rec->file)));
		json_object_object_add(o, "line", json_object_new_int64(rec->line));
		json_object_object_add(o, "serial", json_object_new_uint64(rec->serial));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *ad_rule_to_json(const AdRule *r)
{
	json_object *o = json_object_new_object();
	json_object *perms = json_object_new_array();
	json_object *reasons = json_object_new_array();
	json_object *bools = json_object_new_array();
	const char *reason = NULL;

	json_object_object_add(o, "rule", json_object_new_string("allow"));
	json_object_object_add(o, "source", json_object_new_string(r->source));
	json_object_object_add(o, "target", json_object_new_string(r->target));
	json_object_object_add(o, "class", json_object_new_string(r->tclass));
	for (guint i = 0; i < r->perms->len; i++)
		json_object_array_add(perms, json_object_new_string(g_ptr_array_index(r->perms,
										       i)));
	json_object_object_add(o, "permissions", perms);
	for (guint i = 0; i < r->verdicts->len; i++) {
		const AdVerdict *v = g_ptr_array_index(r->verdicts, i);

		if (!reason)
			reason = ad_reason_name(v->reason);
		json_object_array_add(reasons, json_object_new_string(ad_reason_name(v->reason)));
		for (guint j = 0; v->booleans && j < v->booleans->len; j++) {
			GPtrArray *alt = g_ptr_array_index(v->booleans, j);
			json_object *a = json_object_new_array();

			for (guint k = 0; k < alt->len; k++) {
				AdBoolSetting *s = g_ptr_array_index(alt, k);
				json_object *so = json_object_new_object();

				json_object_object_add(so, "name", json_object_new_string(s->name));
				json_object_object_add(so, "value",
						       json_object_new_boolean(s->value));
				json_object_array_add(a, so);
			}
			json_object_array_add(bools, a);
		}
		if (v->constraint && !json_object_object_get_ex(o, "constraint", NULL))
			json_object_object_add(o, "constraint",
					       json_object_new_string(v->constraint));
	}
	json_object_object_add(o, "reason", reason ? json_object_new_string(reason) : NULL);
	json_object_object_add(o, "reasons", reasons);
	json_object_object_add(o, "booleans", bools);
	json_object_object_add(o, "permissive_only", json_object_new_boolean(r->all_permissive));
	json_object_object_add(o, "emitted", json_object_new_boolean(!r->unknown &&
								      !r->left_out));
	if (r->unknown_text)
		json_object_object_add(o, "problem", json_object_new_string(r->unknown_text));
	if (r->left_out) {
		json_object_object_add(o, "left_out",
				       json_object_new_string(ad_left_out_name(r->left_out)));
		json_object_object_add(o, "left_out_reason",
				       json_object_new_string(r->left_out_text));
	}
	if (r->ioctls->len) {
		g_autofree char *ranges = ioctl_ranges(r->ioctls, FALSE);

		json_object_object_add(o, "ioctls", json_object_new_string(ranges));
	}
	json_object_object_add(o, "records", records_json(r->records));
	return o;
}

json_object *ad_role_rule_to_json(const AdRoleRule *r)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "rule", json_object_new_string("role"));
	json_object_object_add(o, "role", json_object_new_string(r->role));
	json_object_object_add(o, "type", json_object_new_string(r->type));
	json_object_object_add(o, "records", records_json(r->records));
	return o;
}

static void collect_records(GPtrArray *into, GArray *from)
{
	for (guint i = 0; i < from->len; i++)
		g_ptr_array_add(into, &g_array_index(from, AdRuleRecord, i));
}

/* a left-out rule's records in the --verify report, with the reason */
static void append_left_out(GString *text, json_object *json, const AdRule *r)
{
	g_autofree char *why = ad_escape_str(r->left_out_text);

	for (guint i = 0; i < r->records->len; i++) {
		const AdRuleRecord *rec = &g_array_index(r->records, AdRuleRecord, i);
		g_autofree char *file = ad_escape_str(rec->file);
		json_object *o = json_object_new_object();

		if (i < 20)
			g_string_append_printf(text, "#   %s:%u: %s %s:%s: %s\n", file, rec->line,
					       r->source, ad_rule_target_text(r), r->tclass, why);
		else if (i == 20)
			g_string_append_printf(text, ngettext("#   ... and %u more record of "
							      "this rule\n",
							      "#   ... and %u more records of "
							      "this rule\n", r->records->len - 20),
					       r->records->len - 20);
		json_object_object_add(o, "file", json_object_new_string(rec->file));
		json_object_object_add(o, "line", json_object_new_int64(rec->line));
		json_object_object_add(o, "reason",
				       json_object_new_string(ad_left_out_name(r->left_out)));
		json_object_object_add(o, "text", json_object_new_string(r->left_out_text));
		json_object_array_add(json, o);
	}
}

gint ad_rule_set_verify(AdRuleSet *rs, gboolean json, GString *out, GError **error)
{
	g_autoptr(GPtrArray) rules = ad_rule_set_rules(rs);
	g_autoptr(GPtrArray) roles = ad_rule_set_role_rules(rs);
	g_autoptr(GPtrArray) records = g_ptr_array_new();
	json_object *still = json_object_new_array();
	json_object *left = json_object_new_array();
	guint n_allowed = 0, n_denied = 0, n_rules = 0, n_left = 0;
	GString *text = g_string_new(NULL);
	GString *left_text = g_string_new(NULL);

	for (guint i = 0; i < rules->len; i++) {
		AdRule *r = g_ptr_array_index(rules, i);

		if (r->left_out && !r->unknown) {
			append_left_out(left_text, left, r);
			n_left += r->records->len;
			continue;
		}
		collect_records(records, r->records);
		if (r->unknown || rs->opt.kind != AD_RULE_ALLOW)
			continue;
		if (!ad_policy_add_allow(rs->policy, r->source, r->target, r->tclass,
					 (const char *const *)r->perms->pdata, r->perms->len,
					 error))
			goto fail;
		n_rules++;
	}
	for (guint i = 0; i < roles->len; i++) {
		AdRoleRule *rr = g_ptr_array_index(roles, i);

		collect_records(records, rr->records);
		if (!ad_policy_add_role_type(rs->policy, rr->role, rr->type, error))
			goto fail;
		n_rules++;
	}
	for (guint i = 0; i < records->len; i++) {
		const AdRuleRecord *rec = g_ptr_array_index(records, i);
		const AdRuleAccess *a = rec->access;
		const AdVerdict *v = NULL;
		gboolean allowed;

		if (a->type == AD_DENIAL_SELINUX_ERR || a->type == AD_DENIAL_USER_SELINUX_ERR) {
			g_autofree char *why = ad_policy_context_problem(rs->policy,
									 a->invalid_context);

			allowed = why == NULL;
			if (!allowed) {
				/* a file name may hold a newline: a comment stays one line */
				g_autofree char *file = ad_escape_str(rec->file);

				g_string_append_printf(text, "#   %s:%u: %s: %s\n", file,
						       rec->line, a->invalid_context, why);
			}
		} else {
			v = ad_policy_explain(rs->policy, a->scontext, a->tcontext, a->tclass,
					      (const char *const *)a->perms->pdata,
					      a->perms->len);
			allowed = v->reason == AD_REASON_ALLOWED;
		}
		if (allowed) {
			n_allowed++;
			continue;
		}
		n_denied++;
		if (v) {
			g_autofree char *stype = ad_context_type(a->scontext);
			g_autofree char *ttype = ad_context_type(a->tcontext);
			g_autofree char *file = ad_escape_str(rec->file);
			json_object *o = json_object_new_object();

			g_string_append_printf(text, "#   %s:%u: %s %s:%s: %s%s%s\n",
					       file, rec->line, stype, ttype,
					       a->tclass, ad_reason_name(v->reason),
					       v->constraint || v->detail ? ": " : "",
					       v->constraint ? v->constraint
							     : v->detail ? v->detail : "");
			json_object_object_add(o, "file", ad_json_string_bytes(rec->file,
									    strlen(rec->file)));
			json_object_object_add(o, "line", json_object_new_int64(rec->line));
			json_object_object_add(o, "reason",
					       json_object_new_string(ad_reason_name(v->reason)));
			json_object_array_add(still, o);
		}
	}
	if (json) {
		json_object *o = json_object_new_object();
		json_object *vo = json_object_new_object();

		json_object_object_add(vo, "rules_added", json_object_new_int64(n_rules));
		json_object_object_add(vo, "allowed", json_object_new_int64(n_allowed));
		json_object_object_add(vo, "denied", json_object_new_int64(n_denied));
		json_object_object_add(vo, "still_denied", still);
		json_object_object_add(vo, "left_out", left);
		json_object_object_add(o, "verify", vo);
		g_string_append_printf(out, "%s\n", ad_json_line(o));
		json_object_put(o);
	} else {
		json_object_put(still);
		json_object_put(left);
		g_autofree char *with = g_strdup_printf(
			ngettext("with this %u rule added in memory",
				 "with these %u rules added in memory", n_rules), n_rules);
		g_autofree char *allowed = g_strdup_printf(
			ngettext("%u of %u denial is allowed", "%u of %u denials are allowed",
				 n_allowed + n_denied), n_allowed, n_allowed + n_denied);

		/* TRANSLATORS: the policy file, "with these 3 rules added in memory",
		 * "2 of 5 denials are allowed" */
		g_string_append_printf(out, _("\n#============= verification ==============\n"
					      "# %s %s: %s.\n"),
				       ad_policy_path(rs->policy), with, allowed);
		if (n_denied) {
			g_string_append(out, _("# Still denied:\n"));
			g_string_append(out, text->str);
		}
		if (n_left) {
			g_string_append_printf(out, ngettext("# Left out, no rule written for "
							     "%u denial:\n",
							     "# Left out, no rule written for "
							     "%u denials:\n", n_left), n_left);
			g_string_append(out, left_text->str);
		}
	}
	g_string_free(text, TRUE);
	g_string_free(left_text, TRUE);
	return n_denied;
fail:
	json_object_put(still);
	json_object_put(left);
	g_string_free(text, TRUE);
	g_string_free(left_text, TRUE);
	return -1;
}
