/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "analysis/plugin-env.h"
#include "read/denial.h"

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
void ad_rule_book_apply(AdRuleBook *b, AdPluginEnv *ctx, const AdDenial *d, const AdVerdict *v,
			GPtrArray *ret);

/*
 * Like ad_rule_book_load_dir() for several directories at once: a file of
 * an earlier directory replaces one of the same name in a later one (a
 * site's /etc/avcdoctor/rules.d/10-httpd.rules replaces the shipped
 * file), and all files load in the natural order of their names.  An
 * earlier directory that does not exist is skipped quietly; FALSE only
 * when none can be read.
 */
gboolean ad_rule_book_load_dirs(AdRuleBook *b, const char *const *dirs, GPtrArray *ret_problems,
				GError **error);

/*
 * The rules directories every program reads, the site's first:
 * $AVCDOCTOR_LOCAL_RULES_DIR or SYSCONFDIR/avcdoctor/rules.d, then
 * $AVCDOCTOR_RULES_DIR or the shipped rules (the source tree's when the
 * program runs from its build tree).  Owned, NULL-terminated.
 */
char **ad_rules_default_dirs(void);

/*
 * ad_rule_book_check_file(), and with @policy also every type, attribute,
 * class, permission and boolean a rule names (in its keys and in the
 * setsebool / semanage -t / chcon -t arguments of its commands) is checked
 * against that policy.  Problems as "FILE:LINE: message" appended to
 * @ret_messages; returns their number.  Names the policy lacks are no
 * problem (rules name the types and booleans of several policies, and such
 * a rule does not fire where they are missing): they are appended to
 * @ret_lacks (may be NULL) in the same form.
 */
guint ad_rule_book_check_file_policy(const char *path, AdPolicy *policy,
				     GPtrArray *ret_messages, GPtrArray *ret_lacks);

G_END_DECLS
