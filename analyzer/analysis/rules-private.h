/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the rules engine's two halves share: rules.c (the book, the
 * placeholders, matching) and rules-load.c (reading rule files).  Not for
 * use outside the rules engine.
 */
#pragma once

#include "analysis/plugin-env.h"
#include "analysis/suggest.h"

G_BEGIN_DECLS

#define AD_RULES_MAX_FILE (1024 * 1024)	/* bytes; a rule file is small */
#define AD_RULES_MAX_COMMANDS 9		/* Command, Command2 ... Command9 */
#define AD_RULES_CACHE_MAX 65536	/* cached (stype, ttype, tclass) triples */
#define AD_RULES_MAX_PATH 4095		/* longer paths are not put in commands */
#define AD_COMM_MAX 15			/* the kernel's TASK_COMM_LEN - 1 */

typedef enum {
	PH_SOURCE,
	PH_TARGET,
	PH_CLASS,
	PH_PERMS,
	PH_PATH,
	PH_PATH_DIR,
	PH_PATH_REGEX,
	PH_FILE_REGEX,
	PH_COMM,
	PH_EXE,
	PH_PORT,
	PH_TCONTEXT,
	PH_SCONTEXT,
	PH_TYPE,
	PH_NAME,
	PH_NAME_REGEX,
	PH_N
} Placeholder;

typedef struct {
	GHashTable *exact;		/* name -> name */
	GPtrArray *globs;		/* GPatternSpec* */
} NameSet;

typedef struct {
	char *name;
	gboolean value;
} BoolCond;

typedef struct {
	char *id;			/* "rule:10-httpd.rules:httpd-write-content" */
	char *file;
	guint line;
	char *summary;

	NameSet *source, *target, *not_target;	/* NULL: any */
	char **types;			/* Types=: the candidates for {type} */
	char **classes;			/* NULL: any */
	char **perms;			/* NULL: any */
	guint32 reasons;		/* bit per AdReason; 0: any but "allowed" */
	char **path_prefix, **not_path_prefix;
	char **comm, **kmod;
	GPtrArray *booleans;		/* BoolCond*, NULL: none */

	AdFixKind kind;
	AdLevel level;
	double confidence;
	char *if_text, *then_text;	/* translated when a translation exists */
	/*
	 * The templates as the file writes them when their translations come
	 * from the message catalog (not from the file's own If[de]= keys): the
	 * msgids that readers translate (msg.h).  NULL otherwise.
	 */
	char *if_msgid, *then_msgid;
	GPtrArray *commands;		/* char** (argv templates) */
	guint32 text_mask, cmd_mask;	/* placeholders used in texts / commands */
} AdRule;

struct _AdRuleBook {
	GPtrArray *rules;		/* AdRule*, in load order */
	GHashTable *by_class;		/* class -> GArray of guint rule index */
	GArray *any_class;		/* guint: rules without Class */
	GHashTable *cache;		/* signature -> GArray of guint: type/class matches */
	AdPolicy *cache_policy;		/* the policy the cache was filled with */
};

/* shared helpers: see their definitions for what they do */
void rules_book_add(AdRuleBook *b, AdRule *r);
void rules_bool_cond_free(BoolCond *b);
void rules_name_set_add(NameSet *ns, const char *name);
NameSet *rules_name_set_new(void);
void rules_rule_free(AdRule *r);
char *rules_template_check(const char *s, guint32 *ret_mask);
gboolean rules_valid_chars(const char *s, gsize len, const char *extra);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdRule, rules_rule_free)

G_END_DECLS
