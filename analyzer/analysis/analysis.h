/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "analysis/plugin.h"
#include "policy/labels.h"
#include "policy/policy.h"
#include "read/denial.h"

G_BEGIN_DECLS

/*
 * The set-up every front end shares: the policy, the file labels, the rule
 * book and the plugins' context built from them, and the verdicts of
 * SELINUX_ERR records (which libsepol does not compute).  The CLI, the
 * dispatcher and the browser each hold one; a reload replaces what it
 * holds, so the labels and rules follow the policy.  Not thread-safe: the
 * policy engine behind it is one per process (libsepol is global).
 */
typedef struct _AdAnalysis AdAnalysis;

/* where the knowledge comes from; NULL members mean the defaults */
typedef struct {
	const char *file_contexts;	/* NULL: the policy's own */
	const char *const *rules_dirs;	/* NULL: ad_rules_default_dirs() */
	gboolean no_rules;		/* TRUE: no rule book at all */
	gboolean no_labels;		/* TRUE: no file labels (nothing will judge them) */
	gboolean local;			/* the log is from this host: plugins may look at files */
	/* the logs analysed ("-": standard input), for the commands suggested; NULL: the default */
	const char *const *input_files;
	gboolean stored_alerts;		/* alerts are stored: commands name them by id */
} AdAnalysisOptions;

/*
 * Loads the policy @policy_path (NULL: the default, see ad_policy_load()).
 * NULL with @error when there is none.
 */
AdAnalysis *ad_analysis_new(const char *policy_path, GError **error);
/* takes a loaded policy instead */
AdAnalysis *ad_analysis_new_for_policy(AdPolicy *policy);
void ad_analysis_free(AdAnalysis *an);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdAnalysis, ad_analysis_free)

/*
 * (Re)loads the file labels and the rule book for the current policy, as
 * @opt says (copied).  What cannot be loaded is appended to @ret_problems
 * as a message ("...; file label checks are skipped", "no rules loaded:
 * ...", "FILE:LINE: ..."), and the analysis goes on without it.
 */
void ad_analysis_load_knowledge(AdAnalysis *an, const AdAnalysisOptions *opt,
				GPtrArray *ret_problems);

/*
 * ad_analysis_new() and ad_analysis_load_knowledge() in one, faster: the
 * labels, the rules and the booleans' descriptions are read in a thread
 * of their own while the policy loads.  NULL with @error when there is no
 * policy (@ret_problems is then left as it was).
 */
AdAnalysis *ad_analysis_new_with_knowledge(const char *policy_path, const AdAnalysisOptions *opt,
					   GPtrArray *ret_problems, GError **error);

/*
 * Replaces the policy with @policy (taken) and drops the labels and rules
 * that were loaded for the old one: load them again with
 * ad_analysis_load_knowledge() (an edited file_contexts.local or rules
 * file is then read anew).  Verdicts borrowed from the old policy are
 * invalid after it.
 */
void ad_analysis_set_policy(AdAnalysis *an, AdPolicy *policy);

AdPolicy *ad_analysis_policy(AdAnalysis *an);
/* the labels and rules in use (NULL when none) */
AdLabels *ad_analysis_labels(AdAnalysis *an);
AdRuleBook *ad_analysis_rules(AdAnalysis *an);
/* what the plugins consult; valid until the next load or reload */
AdPluginEnv *ad_analysis_context(AdAnalysis *an);

/*
 * The verdict of one denial record: the policy's for an AVC or USER_AVC,
 * the analysis of the context for a SELINUX_ERR.  NULL when the record
 * lacks what an answer needs.  Borrowed, with the lifetime of
 * ad_policy_explain()'s answers (take a reference to keep it).
 */
const AdVerdict *ad_analysis_explain(AdAnalysis *an, const AdDenial *d);

/*
 * Process exit is next: leaves the policy to the kernel (taking libsepol's
 * policydb apart costs some 15 ms) unless a leak checker runs.  Frees @an.
 */
void ad_analysis_free_at_exit(AdAnalysis *an);

G_END_DECLS
