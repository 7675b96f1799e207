/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What avcdoctor-fixit (the root helper that applies one suggestion of one
 * stored alert) and its callers share: the bus names, spelled once, its
 * errors, the check of a suggested command against the programs it may
 * run, and the call the browser and the notifier make.  The interface is
 * data/org.avcdoctor.Fixit1.xml.  The helper also answers setroubleshoot's
 * fix interface, for Cockpit: run_fix(local_id, analysis_id), where
 * analysis_id is the suggestion's index ("0", "1", ...).
 */
#include <gio/gio.h>
#include <json-c/json.h>

G_BEGIN_DECLS

#define AD_FIXIT_DBUS_NAME "org.avcdoctor.Fixit1"
#define AD_FIXIT_DBUS_PATH "/org/avcdoctor/Fixit1"
#define AD_FIXIT_DBUS_INTERFACE "org.avcdoctor.Fixit1"
/* the polkit action of Apply */
#define AD_FIXIT_ACTION "org.avcdoctor.fix"

/* setroubleshoot's fix helper, as Cockpit calls it */
#define AD_SETROUBLESHOOT_FIXIT_NAME "org.fedoraproject.SetroubleshootFixit"
#define AD_SETROUBLESHOOT_FIXIT_PATH "/org/fedoraproject/SetroubleshootFixit/object"
#define AD_SETROUBLESHOOT_FIXIT_INTERFACE "org.fedoraproject.SetroubleshootFixit"
#define AD_SETROUBLESHOOT_FIXIT_ACTION "org.fedoraproject.setroubleshootfixit.write"

typedef enum {
	AD_FIXIT_ERROR_NOT_AUTHORIZED,	/* polkit said no */
	AD_FIXIT_ERROR_NOT_FOUND,	/* no alert with that id */
	AD_FIXIT_ERROR_INVALID_ARGS,	/* a malformed id, an index out of range */
	AD_FIXIT_ERROR_NOT_ALLOWED,	/* a command the helper does not run */
	AD_FIXIT_ERROR_NOT_PROVED,	/* the policy no longer proves the fix */
	AD_FIXIT_ERROR_FAILED,		/* the command failed; the message has its output */
	AD_FIXIT_ERROR_TIMED_OUT,	/* the command ran too long and was killed */
	AD_FIXIT_N_ERRORS
} AdFixitError;

/* the error domain, registered with GDBus (org.avcdoctor.Fixit1.Error.NotFound, ...) */
#define AD_FIXIT_ERROR (ad_fixit_error_quark())
GQuark ad_fixit_error_quark(void);
const char *ad_fixit_error_name(AdFixitError code);

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
 * after "--", as one argument.  No argument may hold a character that is
 * not shown as it is (ad_text_has_hidden()).  Fills @ret (clear it with
 * ad_fixit_step_clear()); FALSE with AD_FIXIT_ERROR_NOT_ALLOWED otherwise.
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
 * Whether a front end may offer to apply one stored suggestion (a JSON
 * object of an alert's "suggestions") of alert @alert_id: its "commands"
 * are argument vectors of strings that pass ad_fixit_check_commands(), and
 * the policy has not shown that it would not stop the denial ("verified"
 * is not false).  The browser's Apply buttons and the notifier's action
 * ask this; the helper checks again, itself, before it runs anything.
 */
gboolean ad_fixit_suggestion_applicable(json_object *sugg, const char *alert_id);

/*
 * Asks the helper on the system bus to apply suggestion @index of alert
 * @alert_id; the desktop's polkit agent may ask for a password meanwhile.
 * ad_fixit_apply_finish() gives the command's output (owned), or the
 * helper's error (AD_FIXIT_ERROR, with the output in the message).
 */
void ad_fixit_apply_async(const char *alert_id, guint index, GCancellable *cancellable,
			  GAsyncReadyCallback callback, gpointer user_data);
char *ad_fixit_apply_finish(GAsyncResult *result, GError **error);

G_END_DECLS
