// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Proofs: a fix is shown as working only when the policy says so.  Each
 * suggestion that changes the policy's state says what it changes (the
 * booleans it sets, the type it gives the target, the rules of a local
 * module); the change is made on the loaded policy in memory, the denied
 * accesses are asked again, and the change is undone.  What else the
 * change opens (its scope) is counted from the policy's rules.  The
 * plugins stay simple: they say what a fix changes, this file checks it.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "proof.h"
#include "policy/policy-edit.h"

typedef struct {
	AdProof proof;
	AdMsg *still_denied;	/* a message: rendered in each reader's language */
} AdProofResult;

static void ad_proof_result_free(AdProofResult *r)
{
	ad_msg_free(r->still_denied);
	g_free(r);
}

/* a message of the text in no language @text (the policy engine's words) and a full stop */
static AdMsg *text_msg(const char *text)
{
	AdMsg *m = ad_msg_new();

	ad_msg_add_text(m, text);
	ad_msg_add_text(m, ".");
	return m;
}

GHashTable *ad_proof_cache_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				     (GDestroyNotify)ad_proof_result_free);
}

/* "x=1 and y=0" of the first alternative of @v, as a message */
static AdMsg *first_settings(const AdVerdict *v)
{
	GPtrArray *alt = v->booleans && v->booleans->len ? g_ptr_array_index(v->booleans, 0) : NULL;
	AdMsg *m = ad_msg_new();

	for (guint i = 0; alt && i < alt->len; i++) {
		AdBoolSetting *b = g_ptr_array_index(alt, i);
		g_autofree char *t = g_strdup_printf("%s=%d", b->name, b->value ? 1 : 0);

		if (i && i + 1 == alt->len)
			ad_msg_add(m, N_(" and "));
		else if (i)
			ad_msg_add_text(m, ", ");
		ad_msg_add_text(m, t);
	}
	return m;
}

/*
 * What would still be denied, and why, in words: a message whose own words
 * are in the reader's language (the policy engine's, a constraint's or a
 * reason's detail, stay in the writer's); owned
 */
static AdMsg *still_denied_words(const AdVerdict *v, const char *stype, const char *ttype,
				 const char *tclass)
{
	g_autofree char *perms = NULL;
	AdMsg *m = ad_msg_new();

	{
		g_autoptr(GString) p = g_string_new(NULL);

		for (guint i = 0; v->perms_missing && i < v->perms_missing->len; i++)
			g_string_append_printf(p, "%s%s", i ? " " : "",
					       (char *)g_ptr_array_index(v->perms_missing, i));
		perms = g_string_free(g_steal_pointer(&p), FALSE);
	}
	switch (v->reason) {
	case AD_REASON_BOOLEAN:
		if (v->constraint_too && v->constraint)
			ad_msg_add(m, N_("%s %s:%s { %s } would still need %s, and a "
					 "constraint denies it too: %s."),
				   stype, ttype, tclass, perms, "", v->constraint);
		else
			ad_msg_add(m, N_("%s %s:%s { %s } would still need the boolean "
					 "setting %s."),
				   stype, ttype, tclass, perms, "");
		ad_msg_set_arg(m, 4, first_settings(v));
		break;
	case AD_REASON_TE_RULE:
	case AD_REASON_DONTAUDIT:
		ad_msg_add(m, N_("%s %s:%s { %s } would still be denied: no allow rule "
				 "grants it."),
			   stype, ttype, tclass, perms);
		break;
	case AD_REASON_CONSTRAINT:
		ad_msg_add(m, N_("%s %s:%s would still be denied by a constraint: %s."),
			   stype, ttype, tclass, v->constraint ? v->constraint : N_("unknown"));
		if (!v->constraint)
			ad_msg_set_arg(m, 3, NULL);
		break;
	default:
		ad_msg_add(m, N_("%s %s:%s would still be denied (%s)%s%s"), stype, ttype,
			   tclass, ad_reason_name(v->reason),
			   v->detail ? ": " : ".", v->detail ? v->detail : "");
		break;
	}
	return m;
}

/* the key of one proof: the access and the change */
static char *proof_key(const AdSuggestion *s, const AdDenial *d)
{
	GString *k = g_string_new(NULL);

	g_string_append_printf(k, "%s\n%s\n%s\n%s\n%d%d%d\n", d->scontext, d->tcontext,
			       d->tclass, s->new_type ? s->new_type : "", s->adds_rules,
			       s->hides_rules, s->kind == AD_FIX_DONTAUDIT);
	for (guint i = 0; i < d->perms->len; i++)
		g_string_append_printf(k, "%s ", (char *)g_ptr_array_index(d->perms, i));
	for (guint i = 0; s->set_booleans && i < s->set_booleans->len; i++) {
		AdBoolSetting *b = g_ptr_array_index(s->set_booleans, i);

		g_string_append_printf(k, "\n%s=%d", b->name, b->value);
	}
	return g_string_free(k, FALSE);
}

/*
 * Makes the change of @s on the policy (inside a try), asks for the
 * denied access again, and says what came out.
 */
static AdProofResult *prove_one(AdPolicy *p, const AdSuggestion *s, const AdDenial *d,
				const char *stype, const char *ttype)
{
	AdProofResult *r = g_new0(AdProofResult, 1);
	g_autofree char *tcon = NULL;
	g_autoptr(GError) error = NULL;
	const char *target = ttype;
	const AdVerdict *after;
	gboolean ok = TRUE;

	if (s->new_type) {
		if (!ad_policy_has_type(p, s->new_type) ||
		    ad_policy_type_is_attribute(p, s->new_type)) {
			r->proof = AD_PROOF_FAILED;
			r->still_denied = ad_msg_new();
			ad_msg_add(r->still_denied, N_("the type %s is not defined in this "
						       "policy."), s->new_type);
			return r;
		}
		tcon = ad_context_with_type(d->tcontext, s->new_type);
		target = s->new_type;
	}
	ad_policy_whatif_begin(p);
	for (guint i = 0; ok && s->set_booleans && i < s->set_booleans->len; i++) {
		AdBoolSetting *b = g_ptr_array_index(s->set_booleans, i);

		ok = ad_policy_set_boolean(p, b->name, b->value, &error);
	}
	if (ok && s->adds_rules)
		ok = ad_policy_add_allow(p, stype, strcmp(stype, target) == 0 ? "self" : target,
					 d->tclass, (const char *const *)d->perms->pdata,
					 d->perms->len, &error);
	if (!ok) {
		r->proof = AD_PROOF_FAILED;
		r->still_denied = text_msg(error->message);
	} else {
		after = ad_policy_explain(p, d->scontext, tcon ? tcon : d->tcontext, d->tclass,
					  (const char *const *)d->perms->pdata, d->perms->len);
		if (after->reason == AD_REASON_ALLOWED) {
			r->proof = AD_PROOF_OK;
		} else {
			r->proof = AD_PROOF_FAILED;
			r->still_denied = still_denied_words(after, stype, target, d->tclass);
		}
	}
	ad_policy_whatif_end(p);
	return r;
}

/* does every name of @a appear in @b? */
static gboolean names_within(const char *const *a, guint n, GPtrArray *b)
{
	for (guint i = 0; i < n; i++)
		if (!g_ptr_array_find_with_equal_func(b, a[i], g_str_equal, NULL))
			return FALSE;
	return TRUE;
}

/*
 * A dontaudit fix (a module built with allow -D, or a boolean turning
 * dontaudit rules on): inside a try, its change is made and the policy
 * asked which permissions it then hides for the denial's types.  Proved
 * when it hides every denied permission, no other one besides those
 * hidden before, and the access is still not allowed: it hides exactly
 * that access and allows nothing.
 */
static AdProofResult *prove_dontaudit(AdPolicy *p, const AdSuggestion *s, const AdDenial *d,
				      const char *stype, const char *ttype)
{
	const char *const *perms = (const char *const *)d->perms->pdata;
	AdProofResult *r = g_new0(AdProofResult, 1);
	g_autoptr(GPtrArray) before = ad_policy_dontaudited(p, stype, ttype, d->tclass);
	g_autoptr(GPtrArray) after = NULL;
	g_autoptr(GPtrArray) more = g_ptr_array_new();
	g_autoptr(GError) error = NULL;
	const AdVerdict *v = NULL;
	gboolean ok = before != NULL;

	ad_policy_whatif_begin(p);
	for (guint i = 0; ok && s->set_booleans && i < s->set_booleans->len; i++) {
		AdBoolSetting *b = g_ptr_array_index(s->set_booleans, i);

		ok = ad_policy_set_boolean(p, b->name, b->value, &error);
	}
	if (ok && s->hides_rules)
		ok = ad_policy_add_dontaudit(p, stype, strcmp(stype, ttype) == 0 ? "self" : ttype,
					     d->tclass, perms, d->perms->len, &error);
	if (ok && (after = ad_policy_dontaudited(p, stype, ttype, d->tclass)))
		v = ad_policy_explain(p, d->scontext, d->tcontext, d->tclass, perms,
				      d->perms->len);
	for (guint i = 0; after && i < after->len; i++) {
		const char *n = g_ptr_array_index(after, i);

		if (!g_ptr_array_find_with_equal_func(before, n, g_str_equal, NULL) &&
		    !names_within(&n, 1, d->perms))
			g_ptr_array_add(more, (gpointer)n);
	}
	if (!ok || !v) {
		r->proof = AD_PROOF_FAILED;
		r->still_denied = error ? text_msg(error->message) : ad_msg_new();
		if (!error)
			ad_msg_add(r->still_denied, N_("%s %s:%s is not one this policy can "
						       "tell of."), stype, ttype, d->tclass);
	} else if (v->reason == AD_REASON_ALLOWED) {
		r->proof = AD_PROOF_FAILED;
		r->still_denied = ad_msg_new();
		ad_msg_add(r->still_denied, N_("it would allow %s %s:%s, not hide it."),
			   stype, ttype, d->tclass);
	} else if (!names_within(perms, d->perms->len, after)) {
		r->proof = AD_PROOF_FAILED;
		r->still_denied = ad_msg_new();
		ad_msg_add(r->still_denied, N_("%s %s:%s would still be logged: it does not "
					       "hide every denied permission."),
			   stype, ttype, d->tclass);
	} else if (more->len) {
		g_autofree char *list = NULL;

		g_ptr_array_add(more, NULL);
		list = g_strjoinv(" ", (char **)more->pdata);
		r->proof = AD_PROOF_FAILED;
		r->still_denied = ad_msg_new();
		ad_msg_add(r->still_denied, N_("it would hide more than the denied access: "
					       "%s too."), list);
	} else {
		r->proof = AD_PROOF_OK;
	}
	ad_policy_whatif_end(p);
	return r;
}

/* does @tclass name a socket, where a new type is a port's (name_bind, name_connect)? */
static gboolean is_port_access(const AdSuggestion *s, const AdDenial *d)
{
	for (guint i = 0; i < d->perms->len; i++) {
		const char *perm = g_ptr_array_index(d->perms, i);

		if (strcmp(perm, "name_bind") == 0 || strcmp(perm, "name_connect") == 0)
			return TRUE;
	}
	return s->kind == AD_FIX_PORT;
}

/* adds one count of scope into @s */
static void scope_add(AdSuggestion *s, gint64 accesses, gint64 domains, GPtrArray *examples)
{
	if (accesses < 0)
		return;
	s->scope.accesses = MAX(s->scope.accesses, 0) + accesses;
	s->scope.domains = MAX(s->scope.domains, 0) + domains;
	if (!s->scope.examples)
		s->scope.examples = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < examples->len && s->scope.examples->len < 3; i++)
		g_ptr_array_add(s->scope.examples, g_strdup(g_ptr_array_index(examples, i)));
}

/*
 * What else the change of @s opens: for booleans, the accesses their
 * conditional rules add besides the denied ones; for a new type, what
 * other domains may do to objects (or ports) of that type; for a module,
 * nothing but its rules.
 */
static void count_scope(AdPluginEnv *ctx, AdSuggestion *s, const AdDenial *d, const char *stype,
			const char *ttype)
{
	AdPolicy *p = ctx->policy;
	guint n = s->set_booleans ? s->set_booleans->len : 0;

	if (n) {
		g_autofree const char **names = g_new0(const char *, n);
		g_autofree gboolean *values = g_new0(gboolean, n);
		g_autoptr(GPtrArray) ex = g_ptr_array_new_with_free_func(g_free);
		gint64 domains = 0, acc;

		for (guint i = 0; i < n; i++) {
			AdBoolSetting *b = g_ptr_array_index(s->set_booleans, i);

			names[i] = b->name;
			values[i] = b->value;
		}
		acc = ad_policy_bool_scope(p, names, values, n, &domains, ex);
		if (acc >= 0) {
			/* the denied accesses are the point, not "other" ones */
			acc = MAX(acc - (gint64)d->perms->len, 0);
			if (acc == 0)
				domains = 0;
		}
		scope_add(s, acc, domains, ex);
	}
	if (s->new_type) {
		g_autoptr(GPtrArray) ex = g_ptr_array_new_with_free_func(g_free);
		gboolean port = is_port_access(s, d);
		gint64 domains = 0, acc;

		acc = ad_policy_type_scope(p, s->new_type, d->tclass,
					   port ? (const char *const *)d->perms->pdata : NULL,
					   port ? d->perms->len : 0, stype, &domains, ex);
		if (acc >= 0 && s->base_type && !port) {
			gint64 base_domains = 0;
			gint64 base = ad_policy_type_scope(p, s->base_type, d->tclass, NULL, 0,
							   stype, &base_domains, NULL);

			/* what the object would be open to anyway with file_contexts' label */
			if (base >= 0) {
				acc = MAX(acc - base, 0);
				domains = acc ? MAX(domains - base_domains, 1) : 0;
				if (!acc)
					g_ptr_array_set_size(ex, 0);
			}
		}
		scope_add(s, acc, domains, ex);
	}
	if (s->kind == AD_FIX_DONTAUDIT && !n) {
		/* a dontaudit rule allows nothing: its scope is the rule itself */
		g_autoptr(GPtrArray) ex = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GString) rule = g_string_new(NULL);

		g_string_printf(rule, "dontaudit %s %s:%s {", stype,
				strcmp(stype, ttype) == 0 ? "self" : ttype, d->tclass);
		for (guint i = 0; i < d->perms->len; i++)
			g_string_append_printf(rule, " %s", (char *)g_ptr_array_index(d->perms, i));
		g_string_append(rule, " };");
		g_ptr_array_add(ex, g_string_free(g_steal_pointer(&rule), FALSE));
		scope_add(s, 0, 0, ex);
		return;
	}
	if (s->adds_rules) {
		g_autoptr(GPtrArray) ex = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GString) rule = g_string_new(NULL);
		const char *target;

		g_string_printf(rule, "allow %s %s:%s {", stype,
				strcmp(stype, s->new_type ? s->new_type : ttype) == 0 ? "self"
					: (s->new_type ? s->new_type : ttype), d->tclass);
		for (guint i = 0; i < d->perms->len; i++)
			g_string_append_printf(rule, " %s", (char *)g_ptr_array_index(d->perms, i));
		g_string_append(rule, " };");
		g_ptr_array_add(ex, g_string_free(g_steal_pointer(&rule), FALSE));
		scope_add(s, 0, 0, ex);
		/* a rule on a generic type opens every object carrying it */
		target = s->new_type ? s->new_type : ttype;
		if (ad_class_is_file(d->tclass) && ad_policy_file_type_is_generic(p, target)) {
			g_free(s->scope.generic_type);
			s->scope.generic_type = g_strdup(ad_policy_type_primary(p, target));
			s->scope.type_paths = ctx->labels ? (gint64)ad_labels_type_uses(
				ctx->labels, s->scope.generic_type, NULL, NULL) : -1;
		}
	}
}

/*
 * The confidence shown: the plugin's judgement, halved when the proof
 * says the fix would not work, and lowered by a tenth for each factor of
 * ten the scope spans (a fix that opens 10,000 other accesses keeps 60%
 * of the plugin's confidence; not for restoring the default label, which
 * opens nothing the policy does not intend).  Stays in [0, 1].
 */
static double proved_confidence(const AdSuggestion *s)
{
	double c = s->plugin_confidence;

	if (s->proof == AD_PROOF_FAILED)
		c /= 2;
	if (s->scope.accesses > 0 && !ad_suggestion_is_pure_relabel(s))
		c *= MAX(1.0 - 0.1 * log10(1.0 + (double)s->scope.accesses), 0.3);
	return CLAMP(c, 0.0, 1.0);
}

void ad_suggestions_prove(AdPluginEnv *ctx, const AdDenial *d, const AdVerdict *v,
			  GPtrArray *suggestions)
{
	g_autofree char *stype = NULL, *ttype = NULL;
	AdPolicy *p = ctx->policy;

	(void)v;
	if (!p || !d || !d->scontext || !d->tcontext || !d->tclass || !d->perms ||
	    !d->perms->len || d->granted)
		return;
	stype = ad_context_type(d->scontext);
	ttype = ad_context_type(d->tcontext);
	if (!stype || !ttype)
		return;
	for (guint i = 0; i < suggestions->len; i++) {
		AdSuggestion *s = g_ptr_array_index(suggestions, i);
		g_autofree char *key = NULL;
		AdProofResult *r;

		s->plugin_confidence = s->confidence;
		if (s->kind == AD_FIX_DONTAUDIT ? !s->hides_rules && !s->set_booleans
						: !ad_suggestion_changes_policy(s))
			continue;
		key = proof_key(s, d);
		r = ctx->proofs ? g_hash_table_lookup(ctx->proofs, key) : NULL;
		if (!r) {
			r = s->kind == AD_FIX_DONTAUDIT ? prove_dontaudit(p, s, d, stype, ttype)
							: prove_one(p, s, d, stype, ttype);
			if (ctx->proofs) {
				if (g_hash_table_size(ctx->proofs) >= AD_PROOF_CACHE_MAX)
					g_hash_table_remove_all(ctx->proofs);
				g_hash_table_insert(ctx->proofs, g_steal_pointer(&key), r);
			}
		}
		s->proof = r->proof;
		ad_suggestion_set_still_denied(s, r->still_denied ? ad_msg_copy(r->still_denied)
								  : NULL);
		if (!ctx->proofs)
			ad_proof_result_free(r);
		count_scope(ctx, s, d, stype, ttype);
		s->confidence = proved_confidence(s);
	}
}
