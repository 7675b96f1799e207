/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "alert-doc.h"
#include "msg.h"
#include "policy/policy.h"

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

const char *ad_fix_kind_name(AdFixKind k);
const char *ad_level_display(AdLevel l);	/* "red" in the user's language: text reports */
gboolean ad_fix_kind_from_name(const char *name, AdFixKind *ret);

/* whether a suggestion may be applied with one click (see analysis/safety.h) */
typedef enum {
	AD_APPLY_ONE_CLICK,	/* "one-click": the fix helper may run it */
	AD_APPLY_BY_HAND,	/* "by-hand": shown; a person must judge and run it */
	AD_APPLY_NEVER,		/* "never": not suggested, never run */
} AdApply;

/* what proving a suggestion against the policy found */
typedef enum {
	AD_PROOF_NONE,		/* changes nothing in the policy: JSON null */
	AD_PROOF_FAILED,	/* the change would not allow every denied access */
	AD_PROOF_OK,		/* the change allows every denied access of the alert */
} AdProof;

/*
 * What else a change opens, counted from the policy over types (never
 * attributes): the accesses (source, target, class, permission) it adds
 * besides the denied ones, the domains that gain any, a few examples.
 * accesses < 0: not counted.
 */
typedef struct {
	gint64 accesses;
	gint64 domains;
	GPtrArray *examples;	/* char*: "ftpd_t user_home_t:file write", at most 3 */
	/*
	 * A module granting access to a generic type (var_t, etc_t: see
	 * ad_policy_file_type_is_generic()) grants it on every object of that
	 * type, however few its rules: the type, and how many path patterns
	 * file_contexts gives it (type_paths, -1 when unknown).  NULL otherwise.
	 */
	char *generic_type;
	gint64 type_paths;
} AdScope;

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
	/* the same as messages, which a reader renders in its own language (msg.h) */
	AdMsg *if_msg;
	AdMsg *then_msg;
	GPtrArray *commands;	/* of char** (NULL-terminated argv), owned */

	/*
	 * What the fix changes in the policy's state, for proving it (see
	 * analysis/proof.c): filled from the commands as they are added
	 * (setsebool, semanage port/fcontext -t, chcon -t, avcdoctor allow -M),
	 * or by the plugin where the commands do not say it (restorecon).
	 */
	GPtrArray *set_booleans;	/* AdBoolSetting*, or NULL */
	char *new_type;		/* the target's type after a relabel or a port label */
	/*
	 * The type the target gets anyway (file_contexts' one, when the fix
	 * gives it another): the scope of new_type counts only what it opens
	 * beyond base_type's.  NULL: none.
	 */
	char *base_type;
	gboolean adds_rules;	/* a local module allowing the denied accesses */
	gboolean hides_rules;	/* a dontaudit module hiding the denied accesses */
	/*
	 * The policy's design makes this denial expected (a program that
	 * must go through a helper, say): the host then drops intrusion
	 * warnings and local modules beside it (see ad_analyze_denial()).
	 */
	gboolean expected;
	/*
	 * A fact, not a fix: what is worth knowing about the denial (nothing
	 * was blocked, the label is already right, a boolean is off on
	 * purpose) but changes nothing.  Notes are shown apart from the
	 * suggestions and never rank as one (see ad_suggestions_take_notes()).
	 */
	gboolean note;
	/*
	 * The denial costs nothing (the call succeeded anyway, a descriptor
	 * closed at exec): silencing it is the answer, ranked before every
	 * fix that would allow the access.
	 */
	gboolean harmless;
	/*
	 * The fix allows the access on the target's current label, which
	 * differs from the one file_contexts gives it: restoring the label
	 * comes first, and what else is needed is proved on the restored
	 * label (see ad_analyze_denial()).  Ranked after those fixes.
	 */
	gboolean wrong_label;

	/* the answers, set by ad_suggestions_prove() */
	AdProof proof;
	char *still_denied;	/* AD_PROOF_FAILED: what would still be denied and why */
	AdMsg *still_denied_msg;	/* the same as a message (ad_suggestion_set_still_denied) */
	AdScope scope;
	double plugin_confidence; /* the plugin's own judgement, before the proof */
	/* breaks ties in the ranking: the plugin's AdPlugin.priority, set by the plugin host; 50 else */
	int priority;

	/* the safety decision, set by ad_safety_judge() */
	AdApply apply;
	char *apply_reason;
} AdSuggestion;

AdSuggestion *ad_suggestion_new(const char *plugin, AdFixKind kind, double confidence,
				AdLevel level);
/* a note (see AdSuggestion.note): kind AD_FIX_INFO, green */
AdSuggestion *ad_note_new(const char *plugin, double confidence);
void ad_suggestion_free(AdSuggestion *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdSuggestion, ad_suggestion_free)

/*
 * printf-style setters: the texts are plain text (escaped when shown).
 * @fmt is a msgid marked N_(), not yet translated: the text is kept as
 * that message with its arguments (ad_msg_add()), and rendered in the
 * language of whoever reads it; if_text and then_text hold it rendered
 * in the writer's.
 */
void ad_suggestion_set_if(AdSuggestion *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void ad_suggestion_set_then(AdSuggestion *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/*
 * String argument @index (from 0) of the last text set by
 * ad_suggestion_set_if() (or _then()) is a msgid marked N_() itself,
 * translated where the text is read: "bind to" in "If you want to allow %s
 * to %s port %s/%s"
 */
void ad_suggestion_if_arg_msgid(AdSuggestion *s, guint index);
void ad_suggestion_then_arg_msgid(AdSuggestion *s, guint index);
/*
 * String argument @index of the last text set is the message @arg
 * (taken): a text made of translated pieces ("a on and b off"), rendered
 * in the reader's language inside the sentence
 */
void ad_suggestion_if_arg(AdSuggestion *s, guint index, AdMsg *arg);
void ad_suggestion_then_arg(AdSuggestion *s, guint index, AdMsg *arg);
/* what would still be denied (@m taken, rendered into still_denied; NULL: nothing) */
void ad_suggestion_set_still_denied(AdSuggestion *s, AdMsg *m);
/* the same from a message built by hand (taken) */
void ad_suggestion_take_if(AdSuggestion *s, AdMsg *m);
void ad_suggestion_take_then(AdSuggestion *s, AdMsg *m);
/* appends one command: NULL-terminated list of arguments, copied */
void ad_suggestion_add_command(AdSuggestion *s, const char *arg0, ...) G_GNUC_NULL_TERMINATED;
void ad_suggestion_add_argv(AdSuggestion *s, const char *const *argv);

/* the target's type after the fix (relabel, fcontext, port), copied */
void ad_suggestion_set_new_type(AdSuggestion *s, const char *type);
/* one boolean the fix sets (setsebool), added */
void ad_suggestion_add_boolean(AdSuggestion *s, const char *name, gboolean value);
/*
 * a relabel to file_contexts' type and nothing else (no boolean, no rule
 * beside it): it opens only what the policy means that type for
 */
gboolean ad_suggestion_is_pure_relabel(const AdSuggestion *s);
/* does the fix change the policy's state (booleans, labels, rules)? */
gboolean ad_suggestion_changes_policy(const AdSuggestion *s);

/*
 * Sorts best first: an attack warning; silencing a harmless denial; then
 * fixes proved to allow every denied access (a local module among them
 * only after the rest; a broad boolean, a module on a generic type and a
 * fix on a label about to be restored after the module); then suggestions
 * that change nothing in the policy; then fixes that would not work;
 * notes last.  Within a rank, the narrowest scope first (in steps of about
 * three times: the counts are rough), then confidence, level, the
 * plugin's priority and id.
 */
void ad_suggestions_sort(GPtrArray *suggestions);
/*
 * Moves the notes out of a ranked list, in their order: the list keeps
 * the fixes (and "nothing to change" when the policy already allows the
 * access).  Returns the notes (owned, free func set; empty when none).
 */
GPtrArray *ad_suggestions_take_notes(GPtrArray *suggestions);

/* "Checked against the policy: ..." or "Not enough: ...", with the scope; owned, NULL for AD_PROOF_NONE */
char *ad_suggestion_proof_text(const AdSuggestion *s);
/* the same from a suggestion's JSON object (stored alerts); owned, NULL when not proved */
char *ad_suggestion_proof_text_json(json_object *o);
/* adds "verified", "still_denied" and "scope" to a suggestion's JSON object */
void ad_suggestion_proof_to_json(const AdSuggestion *s, json_object *o);

/* {"plugin","kind","confidence","level","if","then","commands","shell"} */
json_object *ad_suggestion_to_json(const AdSuggestion *s);
/* a note: {"plugin","if","then"} */
json_object *ad_note_to_json(const AdSuggestion *s);
/* adds "if_msg" and "then_msg" (the texts as messages) to the JSON object of @s */
void ad_suggestion_msgs_to_json(const AdSuggestion *s, json_object *o);

/* "one-click", "by-hand", "never": the JSON names */
const char *ad_apply_name(AdApply a);
gboolean ad_apply_from_name(const char *name, AdApply *ret);
/* a suggestion's "apply" and "apply_reason" into its JSON object */
void ad_apply_to_json(AdApply apply, const char *reason, json_object *o);
/*
 * The alert level the suggestions imply: red if any says attack, green if
 * the best fix (not a note) is green
 */
AdLevel ad_suggestions_level(GPtrArray *suggestions);

G_END_DECLS
