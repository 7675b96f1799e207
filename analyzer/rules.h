/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "plugin.h"

G_BEGIN_DECLS

#define AD_RULES_ERROR (ad_rules_error_quark())
GQuark ad_rules_error_quark(void);

typedef enum {
	AD_RULES_ERROR_OPEN,
	AD_RULES_ERROR_SYNTAX,		/* message: "FILE:LINE: problem" */
	AD_RULES_ERROR_UNSAFE,		/* not root-owned, or world-writable, while running as root */
} AdRulesError;

/*
 * Declarative knowledge of known causes: rules/NN-topic.rules files in
 * GKeyFile syntax (see avcdoctor.rules(5)).  A rule matches denials by
 * source, target, class and permissions and suggests commands whose
 * arguments may hold placeholders ({path}, {source}, ...), substituted per
 * argument: never through a shell.
 */
AdRuleBook *ad_rule_book_new(void);
void ad_rule_book_free(AdRuleBook *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdRuleBook, ad_rule_book_free)

/* loads one file; FALSE with an error naming file and line; nothing of a bad file is kept */
gboolean ad_rule_book_load_file(AdRuleBook *b, const char *path, GError **error);
/*
 * loads every *.rules of @dir in natural sort order; problems of single
 * files are appended to @ret_problems (char*, "FILE:LINE: ...") and the
 * other files still load.  FALSE only when @dir cannot be read.
 */
gboolean ad_rule_book_load_dir(AdRuleBook *b, const char *dir, GPtrArray *ret_problems,
			       GError **error);
guint ad_rule_book_size(const AdRuleBook *b);

/* lints a file: every problem as "FILE:LINE: message" appended; returns their number */
guint ad_rule_book_check_file(const char *path, GPtrArray *ret_messages);

/* appends the suggestions of every matching rule */
void ad_rule_book_apply(AdRuleBook *b, AdContext *ctx, const AdDenial *d, const AdVerdict *v,
			GPtrArray *ret);

/* the default rules directory: $AVCDOCTOR_RULES_DIR, else the installed one */
const char *ad_rules_default_dir(void);

G_END_DECLS
