// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The analysis context: one place that loads the policy, the file labels
 * and the rule book, fills the plugins' context from them, and explains
 * a denial record.  Every front end uses it, so that they cannot drift
 * apart in what they load or how they explain.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "analysis.h"
#include "analysis/proof.h"
#include "analysis/rules.h"

/* verdicts of SELINUX_ERR records, which libsepol's compute does not give; at most */
#define ERR_VERDICTS_MAX 4096

struct _AdAnalysis {
	AdPolicy *policy;
	AdLabels *labels;
	AdRuleBook *rules;
	AdPluginEnv ctx;
	/* the options last given, owned copies */
	char *file_contexts;
	char **rules_dirs;
	gboolean no_rules;
	gboolean no_labels;
	gboolean local;
	char **input_files;
	gboolean stored_alerts;
	GHashTable *err_verdicts;	/* key text -> AdVerdict (a reference) */
};

AdAnalysis *ad_analysis_new_for_policy(AdPolicy *policy)
{
	AdAnalysis *an = g_new0(AdAnalysis, 1);

	an->policy = policy;
	an->ctx.policy = policy;
	an->ctx.proofs = ad_proof_cache_new();
	an->err_verdicts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						 (GDestroyNotify)ad_verdict_unref);
	return an;
}

AdAnalysis *ad_analysis_new(const char *policy_path, GError **error)
{
	AdPolicy *p = ad_policy_load(policy_path, error);

	return p ? ad_analysis_new_for_policy(p) : NULL;
}

static void clear_knowledge(AdAnalysis *an)
{
	g_clear_pointer(&an->labels, ad_labels_free);
	g_clear_pointer(&an->rules, ad_rule_book_free);
	an->ctx.labels = NULL;
	an->ctx.rules = NULL;
}

void ad_analysis_free(AdAnalysis *an)
{
	if (!an)
		return;
	clear_knowledge(an);
	g_clear_pointer(&an->ctx.proofs, g_hash_table_unref);
	g_clear_pointer(&an->err_verdicts, g_hash_table_unref);
	g_clear_pointer(&an->policy, ad_policy_free);
	g_free(an->file_contexts);
	g_strfreev(an->rules_dirs);
	g_strfreev(an->input_files);
	g_free(an);
}

void ad_analysis_free_at_exit(AdAnalysis *an)
{
#if !defined(__SANITIZE_ADDRESS__)
	static AdPolicy *left_to_exit;

	if (an)
		left_to_exit = g_steal_pointer(&an->policy);
	(void)left_to_exit;
#endif
	ad_analysis_free(an);
}

static void add_problem(GPtrArray *problems, char *message)
{
	if (problems)
		g_ptr_array_add(problems, message);
	else
		g_free(message);
}

/*
 * What the plugins know besides the policy, and where it is read from.
 * Reading it needs no policy, only its file's name (its file_contexts
 * lie beside it): any thread may do it.
 */
typedef struct {
	const char *policy_path;
	const char *file_contexts;
	const char *const *rules_dirs;
	gboolean no_rules, no_labels;
	/*
	 * Read in a thread of its own, beside the policy: also what is
	 * otherwise read at first use (the booleans' descriptions, the counts
	 * of the file labels).
	 */
	gboolean ahead;
	GPtrArray *problems;		/* char*, or NULL */

	AdLabels *labels;
	AdRuleBook *rules;
	GHashTable *docs;
} Knowledge;

static void knowledge_read(Knowledge *k)
{
	g_autoptr(GError) error = NULL;

	if (!k->no_labels) {
		k->labels = ad_labels_open(k->file_contexts, k->policy_path, &error);
		if (!k->labels) {
			/* labels are one source of knowledge among many: go on without */
			add_problem(k->problems, g_strdup_printf(_("%s; file label checks are "
								   "skipped"), error->message));
			g_clear_error(&error);
		}
	}
	if (!k->no_rules) {
		g_auto(GStrv) defaults = k->rules_dirs ? NULL : ad_rules_default_dirs();
		AdRuleBook *book = ad_rule_book_new();

		if (!ad_rule_book_load_dirs(book, k->rules_dirs ? k->rules_dirs
							      : (const char *const *)defaults,
					    k->problems, &error)) {
			add_problem(k->problems, g_strdup_printf(_("no rules loaded: %s"),
								 error->message));
			g_clear_pointer(&book, ad_rule_book_free);
		}
		k->rules = book;
	}
	if (k->ahead) {
		k->docs = ad_bool_docs_read();
		if (k->labels)
			ad_labels_read_ahead(k->labels);
	}
}

static gpointer knowledge_thread(gpointer data)
{
	knowledge_read(data);
	return NULL;
}

/* keeps the options (copied): a reload reads the same knowledge again */
static void set_options(AdAnalysis *an, const AdAnalysisOptions *opt)
{
	static const AdAnalysisOptions none;

	if (!opt)
		opt = &none;
	g_free(an->file_contexts);
	an->file_contexts = g_strdup(opt->file_contexts);
	g_strfreev(an->rules_dirs);
	an->rules_dirs = g_strdupv((char **)opt->rules_dirs);
	an->no_rules = opt->no_rules;
	an->no_labels = opt->no_labels;
	an->local = opt->local;
	g_strfreev(an->input_files);
	an->input_files = g_strdupv((char **)opt->input_files);
	an->stored_alerts = opt->stored_alerts;
}

static Knowledge knowledge_of(AdAnalysis *an, const char *policy_path, GPtrArray *problems)
{
	return (Knowledge){
		.policy_path = policy_path,
		.file_contexts = an->file_contexts,
		.rules_dirs = (const char *const *)an->rules_dirs,
		.no_rules = an->no_rules,
		.no_labels = an->no_labels,
		.problems = problems,
	};
}

/* puts what was read to use (none is in use), as the options last given say */
static void use_knowledge(AdAnalysis *an, Knowledge *k)
{
	an->labels = k->labels;
	an->rules = k->rules;
	if (k->docs)
		ad_policy_set_bool_docs(an->policy, k->docs);
	an->ctx.policy = an->policy;
	an->ctx.labels = an->labels;
	an->ctx.rules = an->rules;
	an->ctx.local = an->local;
	an->ctx.input_files = (const char *const *)an->input_files;
	an->ctx.stored_alerts = an->stored_alerts;
}

void ad_analysis_load_knowledge(AdAnalysis *an, const AdAnalysisOptions *opt,
				GPtrArray *ret_problems)
{
	Knowledge k;

	g_return_if_fail(an);
	set_options(an, opt);
	clear_knowledge(an);
	k = knowledge_of(an, ad_policy_path(an->policy), ret_problems);
	knowledge_read(&k);
	use_knowledge(an, &k);
}

AdAnalysis *ad_analysis_new_with_knowledge(const char *policy_path, const AdAnalysisOptions *opt,
					   GPtrArray *ret_problems, GError **error)
{
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *path = NULL;
	AdAnalysis *an;
	AdPolicy *p;
	GThread *reader;
	Knowledge k;
	gboolean live;

	path = ad_policy_find(policy_path, &live, error);
	if (!path)
		return NULL;
	an = ad_analysis_new_for_policy(NULL);
	set_options(an, opt);
	k = knowledge_of(an, path, problems);
	k.ahead = TRUE;
	reader = g_thread_new("avcdoctor-know", knowledge_thread, &k);
	p = ad_policy_load_found(path, live, error);
	g_thread_join(reader);
	an->policy = p;
	if (!p) {
		g_clear_pointer(&k.labels, ad_labels_free);
		g_clear_pointer(&k.rules, ad_rule_book_free);
		g_clear_pointer(&k.docs, g_hash_table_unref);
		ad_analysis_free(an);
		return NULL;
	}
	use_knowledge(an, &k);
	if (ret_problems)
		g_ptr_array_extend_and_steal(ret_problems, g_steal_pointer(&problems));
	return an;
}

void ad_analysis_set_policy(AdAnalysis *an, AdPolicy *policy)
{
	clear_knowledge(an);
	g_hash_table_remove_all(an->err_verdicts);
	g_hash_table_remove_all(an->ctx.proofs);
	ad_policy_free(an->policy);
	an->policy = policy;
	an->ctx.policy = policy;
}

AdPolicy *ad_analysis_policy(AdAnalysis *an)
{
	return an->policy;
}

AdLabels *ad_analysis_labels(AdAnalysis *an)
{
	return an->labels;
}

AdRuleBook *ad_analysis_rules(AdAnalysis *an)
{
	return an->rules;
}

AdPluginEnv *ad_analysis_context(AdAnalysis *an)
{
	return &an->ctx;
}

/* the verdict of a SELINUX_ERR record, cached by what it names */
static const AdVerdict *err_verdict(AdAnalysis *an, const AdDenial *d)
{
	g_autofree char *key = g_strdup_printf("%d\x1f%s\x1f%s\x1f%s\x1f%s", d->err_kind,
					       d->invalid_context ? d->invalid_context : "",
					       d->scontext ? d->scontext : "",
					       d->tcontext ? d->tcontext : "",
					       d->tclass ? d->tclass : "");
	AdVerdict *v = g_hash_table_lookup(an->err_verdicts, key);

	if (v)
		return v;
	/* counted: whoever keeps one holds a reference, so the table can be emptied */
	if (g_hash_table_size(an->err_verdicts) >= ERR_VERDICTS_MAX)
		g_hash_table_remove_all(an->err_verdicts);
	v = ad_verdict_new();
	/* no arrays (JSON "missing": null) */
	g_clear_pointer(&v->perms_missing, g_ptr_array_unref);
	g_clear_pointer(&v->unknown, g_ptr_array_unref);
	switch (d->err_kind) {
	case AD_ERR_INVALID_CONTEXT: {
		char *why = ad_policy_context_problem(an->policy, d->invalid_context);
		g_autofree char *type = ad_context_type(d->invalid_context);

		/* a type this policy lacks: the log is from another policy, not a bad combination */
		v->reason = type && !ad_policy_has_type(an->policy, type)
				    ? AD_REASON_UNKNOWN_TYPE : AD_REASON_INVALID_CONTEXT;
		if (why)
			v->detail = g_strdup_printf(_("The context %s is invalid: %s."),
						    d->invalid_context, why);
		else
			v->detail = g_strdup_printf(_("The context %s is valid in this policy: "
						      "the policy loaded when it was logged "
						      "differed."), d->invalid_context);
		g_free(why);
		break;
	}
	case AD_ERR_BOUNDS:
	case AD_ERR_BOUNDED_TRANSITION:
		v->reason = AD_REASON_BOUNDS;
		break;
	case AD_ERR_VALIDATETRANS:
		v->reason = AD_REASON_CONSTRAINT;
		v->detail = g_strdup(_("A validatetrans constraint of the policy forbids this "
				       "relabeling."));
		break;
	default:
		v->reason = AD_REASON_TE_RULE;
		break;
	}
	g_hash_table_insert(an->err_verdicts, g_steal_pointer(&key), v);
	return v;
}

const AdVerdict *ad_analysis_explain(AdAnalysis *an, const AdDenial *d)
{
	if (d->type == AD_DENIAL_SELINUX_ERR || d->type == AD_DENIAL_USER_SELINUX_ERR)
		return err_verdict(an, d);
	/* no permission: an object manager's "Unknown class" notice, which is explained */
	if (!d->scontext || !d->tcontext || !d->tclass || !d->perms)
		return NULL;
	return ad_policy_explain(an->policy, d->scontext, d->tcontext, d->tclass,
				 (const char *const *)d->perms->pdata, d->perms->len);
}
