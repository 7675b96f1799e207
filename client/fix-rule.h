/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The one rule of "may this stored fix be applied with one click": the
 * browser's and the notifier's Apply buttons, Cockpit's "fixable" (the
 * dispatcher's setroubleshoot interface) and avcdoctor-fixit, before it
 * runs anything, all ask ad_fix_one_click().  It takes what the analysis
 * decided (a suggestion's "apply", with its "apply_reason"), the proof
 * ("verified"), whether the commands can be shown exactly as they run,
 * the helper's allow-list of programs and arguments, and the alert's
 * level.  And the digest that binds the commands an admin was shown to
 * what the helper runs.
 */
#include <glib.h>

#include "alert-doc.h"

G_BEGIN_DECLS

/* what one command of a suggestion is, to the helper */
typedef enum {
	AD_FIXIT_STEP_RESTORECON,
	AD_FIXIT_STEP_SETSEBOOL,
	AD_FIXIT_STEP_SEMANAGE,		/* fcontext, port or boolean */
	AD_FIXIT_STEP_BUILD_MODULE,	/* avcdoctor allow --alert ID -M NAME: built by the helper */
	AD_FIXIT_STEP_LOAD_MODULE,	/* semodule -i NAME.pp of the module just built */
	AD_FIXIT_N_STEPS
} AdFixitStepKind;

typedef struct {
	AdFixitStepKind kind;
	const char *program;		/* the program's name: "restorecon" (static) */
	char *module;			/* BUILD_/LOAD_MODULE: the module's name (owned) */
	gboolean dontaudit;		/* BUILD_MODULE: -D */
} AdFixitStep;

/*
 * Checks one suggested command (a NULL-terminated argument vector) against
 * what the helper runs: restorecon [-R] [-F] [-v] -- PATH...; setsebool
 * [-P] NAME=VALUE...; semanage fcontext|port|boolean with known options
 * whose values are plain words and a path only after "--"; avcdoctor
 * allow --alert @alert_id [--verify] [-D] -M NAME; semodule [-X N] -i
 * NAME.pp.  Anything that is not a known option or a plain word must come
 * after "--", as one argument.  Boolean values are setsebool's lower-case
 * ones.  No argument may hold a character that is not shown as it is
 * (ad_text_has_hidden()).  Fills @ret (clear it with ad_fixit_step_clear()); FALSE with
 * AD_FIXIT_ERROR_NOT_ALLOWED otherwise.
 */
gboolean ad_fixit_check_command(const char *const *argv, const char *alert_id, AdFixitStep *ret,
				GError **error);
void ad_fixit_step_clear(AdFixitStep *step);
/*
 * Checks a suggestion's commands as a whole: each allowed, a module loaded
 * only right after it was built from this alert, at least one command.
 * @commands holds char** argument vectors.
 */
gboolean ad_fixit_check_commands(GPtrArray *commands, const char *alert_id, GError **error);

/*
 * The argument vectors of a stored suggestion ("commands", each a list of
 * strings), as char** in a new array; NULL with AD_FIXIT_ERROR_NOT_ALLOWED
 * when they are not that.  A suggestion whose arguments could only be
 * stored escaped (it has "commands_hex": bytes that are not UTF-8) is
 * refused too: what would run cannot be shown as it is.
 */
GPtrArray *ad_fix_commands(const AdSuggestionDoc *sugg, GError **error);

/*
 * The digest of argument vectors (char**): SHA-256 in hex of each
 * command's argument count and each argument's length and bytes.  What
 * the browser and the notifier send with Apply for the commands they
 * showed, what the helper computes again from the stored fix and logs.
 */
char *ad_fix_digest(GPtrArray *commands);

/*
 * Whether suggestion @index of @alert (a stored alert: its id, level and
 * suggestions) may be applied with one click: the analysis
 * decided so ("apply" is "one-click", or absent in an alert analysed
 * before that decision was stored), the policy has not shown that it
 * would not stop the denial ("verified" is not false), its commands can be
 * shown as they run (nothing hidden in them) and pass
 * ad_fixit_check_commands(), and it builds no
 * policy module for a red alert (a possible attack).  TRUE with the
 * commands in @ret_commands (when not NULL; free with
 * g_ptr_array_unref); FALSE with the reason in @error (AD_FIXIT_ERROR:
 * NOT_PROVED for a fix shown not to work, INVALID_ARGS for an index out
 * of range, NOT_ALLOWED otherwise).
 */
gboolean ad_fix_one_click(const AdAlertDoc *alert, guint index, GPtrArray **ret_commands,
			  GError **error);

G_END_DECLS
