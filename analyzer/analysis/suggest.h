/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

G_BEGIN_DECLS

/* the suggestion kinds of the JSON output; order = JSON name table */
typedef enum {
	AD_FIX_BOOLEAN,		/* setsebool */
	AD_FIX_RELABEL,		/* restorecon */
	AD_FIX_FCONTEXT,	/* semanage fcontext + restorecon */
	AD_FIX_PORT,		/* semanage port */
	AD_FIX_MODULE,		/* a local policy module */
	AD_FIX_DONTAUDIT,	/* silence a harmless denial */
	AD_FIX_CONFIG,		/* change the program or its configuration */
	AD_FIX_REPORT_BUG,	/* the policy is wrong: report it */
	AD_FIX_ATTACK,		/* possible intrusion: investigate */
	AD_FIX_INFO,		/* nothing to change */
} AdFixKind;

/* alert level: green = configuration issue with a known fix, red = possible attack */
typedef enum {
	AD_LEVEL_GREEN,
	AD_LEVEL_YELLOW,
	AD_LEVEL_RED,
} AdLevel;

const char *ad_fix_kind_name(AdFixKind k);
const char *ad_level_name(AdLevel l);		/* "red": JSON, D-Bus, logs */
const char *ad_level_display(AdLevel l);	/* "red" in the user's language: text reports */
gboolean ad_level_from_name(const char *name, AdLevel *ret);
gboolean ad_fix_kind_from_name(const char *name, AdFixKind *ret);

/*
 * One ranked fix.  Commands are argument vectors (never shell text): they
 * are shown quoted for a POSIX shell and never executed.
 */
typedef struct {
	char *plugin;		/* "restorecon", or "rule:10-httpd.rules:httpd-write" */
	AdFixKind kind;
	double confidence;	/* 0..1 */
	AdLevel level;
	char *if_text;		/* "If you want to allow httpd to read home directories" */
	char *then_text;	/* "Then you must tell SELinux about this by enabling ..." */
	GPtrArray *commands;	/* of char** (NULL-terminated argv), owned */
} AdSuggestion;

AdSuggestion *ad_suggestion_new(const char *plugin, AdFixKind kind, double confidence,
				AdLevel level);
void ad_suggestion_free(AdSuggestion *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdSuggestion, ad_suggestion_free)

/* printf-style setters: the texts are plain text (escaped when shown) */
void ad_suggestion_set_if(AdSuggestion *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void ad_suggestion_set_then(AdSuggestion *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* appends one command: NULL-terminated list of arguments, copied */
void ad_suggestion_add_command(AdSuggestion *s, const char *arg0, ...) G_GNUC_NULL_TERMINATED;
void ad_suggestion_add_argv(AdSuggestion *s, const char *const *argv);

/* sorts best first: confidence, then level (red first), then plugin id */
void ad_suggestions_sort(GPtrArray *suggestions);

/* {"plugin","kind","confidence","level","if","then","commands","shell"} */
json_object *ad_suggestion_to_json(const AdSuggestion *s);

G_END_DECLS
