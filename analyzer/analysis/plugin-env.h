/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "policy/labels.h"
#include "policy/policy.h"

G_BEGIN_DECLS

typedef struct _AdRuleBook AdRuleBook;

/*
 * What a cause plugin may consult besides the denial and its verdict.
 * Everything here is read-only for plugins.
 */
typedef struct {
	AdPolicy *policy;
	AdLabels *labels;		/* file_contexts; NULL when none could be opened */
	AdRuleBook *rules;		/* declarative rules; NULL when none */
	gboolean local;			/* the log is from this host: files may be checked */
	/*
	 * What commands that read the log again name: the files analysed
	 * ("-" for standard input; NULL: the default audit log), or, when
	 * @stored_alerts, the alert by its id (the dispatcher's store).
	 */
	const char *const *input_files;
	gboolean stored_alerts;
	GHashTable *proofs;		/* ad_proof_cache_new(); NULL: none (analysis/proof.h) */
} AdPluginEnv;

G_END_DECLS
