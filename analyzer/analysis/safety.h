/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What may be applied with one click.  One decision for every path that
 * shows or runs a fix: the analysis when it ranks and drops suggestions,
 * `allow`, the browser's and the notifier's Apply, Cockpit's `fixable`,
 * and the fix helper, which makes it again itself before it runs
 * anything.  Its inputs are what a stored alert keeps (the suggestion's
 * kind and argument vectors, the denial's types, class, permissions and
 * path, the alert's level) and the loaded policy, so that the helper can
 * decide from the store exactly as the analysis did.
 */
#include <glib.h>

#include "alert-doc.h"
#include "policy/policy.h"
#include "analysis/plugin-env.h"
#include "analysis/suggest.h"
#include "read/denial.h"

G_BEGIN_DECLS

/* AdApply (one-click, by-hand, never) is declared in suggest.h, with the suggestion */


/*
 * What the decision looks at.  Everything is borrowed.  From an analysis:
 * ad_safety_query_init(); from a stored alert: ad_safety_query_init_doc().
 */
typedef struct {
	/* the suggestion */
	AdFixKind kind;
	AdProof proof;			/* AD_PROOF_NONE: nothing proved (or nothing to prove) */
	GPtrArray *commands;		/* char** argument vectors; NULL: none */
	/* the alert it belongs to */
	AdLevel alert_level;		/* red: a possible intrusion, nothing is applied */
	/* the denial */
	const char *stype;		/* the denied domain's type */
	const char *ttype;		/* the target's type */
	const char *tclass;
	GPtrArray *perms;		/* char*: the denied permissions; NULL: none known */
	const char *path;		/* the target's path when the record names it, or NULL */

	/* private: what the query had to make (ad_safety_query_clear() frees it) */
	GPtrArray *owned;
	GPtrArray *owned_commands;
	GPtrArray *owned_perms;
} AdSafetyQuery;

void ad_safety_query_clear(AdSafetyQuery *q);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(AdSafetyQuery, ad_safety_query_clear)

/*
 * The owner of @path in the package database: "coreutils", "" when no
 * package owns it, NULL when it could not be checked.  Owned.
 */
typedef char *(*AdPackageOwnerFunc)(const char *path, gpointer user_data);

/* where the decision is made */
typedef struct {
	AdPolicy *policy;		/* the loaded policy; NULL: by names and paths only */
	/*
	 * The denial is from this host: its package database is asked
	 * whether a file a label fix would change belongs to a package.
	 * owner_func NULL: ad_safety_package_owner() (dpkg-query, rpm).
	 */
	gboolean local;
	AdPackageOwnerFunc owner_func;
	gpointer owner_data;
} AdSafetyEnv;

/*
 * The decision for one suggestion, with its reason (a sentence for
 * people, in their language; owned, never NULL when @ret_reason is
 * given).  In order:
 *   - nothing to run (an explanation, a bug report): by-hand;
 *   - a red alert: nothing is applied (never);
 *   - a relabel, file context or chcon on a protected path (credential,
 *     boot, system program and library, kernel module, base /etc file,
 *     avcdoctor's own file, a file a package owns): never;
 *   - a port label that takes another service's specific port, or any
 *     port change but `-a` on a generic port type: never / by-hand;
 *   - an argument holding bytes or characters that cannot be shown as
 *     they are (ad_text_has_hidden(): control, bidi, format, separator,
 *     private-use, unassigned, variation selector, filler, tag, invalid
 *     UTF-8): by-hand;
 *   - a program the fix helper does not run: by-hand;
 *   - a fix the policy shows would not work (AD_PROOF_FAILED): by-hand;
 *   - a local module that grants a capability, a process or security
 *     operation, execution, relabelling, or writes to system types, or
 *     to a login user's domain: by-hand; one that touches credential or
 *     integrity files: never;
 *   - turning a boolean off: by-hand;
 *   - otherwise one-click.
 */
AdApply ad_safety_decide(const AdSafetyEnv *env, const AdSafetyQuery *q, char **ret_reason);

/*
 * The query for suggestion @s of an alert of level @alert_level about @d
 * (@d may be NULL).  Borrows from @s and @d; clear it with
 * ad_safety_query_clear() (g_auto(AdSafetyQuery)).
 */
void ad_safety_query_init(AdSafetyQuery *q, const AdSuggestion *s, const AdDenial *d,
			  AdLevel alert_level);
/*
 * The same from a stored alert: @sugg one of its suggestions, @alert the
 * alert document (its level and denial; NULL: a yellow alert about
 * nothing known).  Arguments given in "commands_hex" are taken from
 * there, as they would run, and the path from "path_hex".  FALSE when the
 * suggestion is malformed (not an object, no known kind, commands that
 * are not lists of strings, a level that is not one): then nothing of it
 * may be applied.  Borrows from the documents.
 */
gboolean ad_safety_query_init_doc(AdSafetyQuery *q, const AdSuggestionDoc *sugg,
				  const AdAlertDoc *alert);

/*
 * Decides every suggestion of one alert (@suggestions of @d, proved and
 * ranked), as the analysis does before it shows them: sets each one's
 * apply and apply_reason.  A suggestion that must never be applied is
 * dropped when the alert is red (its investigation text says enough),
 * else turned into an explanation (kind config, no command) whose text
 * is the reason, so that the admin learns why not.  Ranks again.  Then a
 * fix that changes the system but is by hand drops from green to yellow,
 * so that the alert's level (its first fix's) is green only over a fix
 * that can be applied as shown.
 */
void ad_safety_judge(AdPluginEnv *ctx, const AdDenial *d, GPtrArray *suggestions);


/*
 * What a path is to the system, when it is one of the protected kinds:
 * "a password or group file", "the boot loader's files", ...  Static
 * text (translated), or NULL for a path a label fix may change.  A
 * package's file is not told here (see ad_safety_package_owner()).
 */
const char *ad_safety_protected_path(const char *path);

/*
 * What a target is when a write to it by a confined domain is an
 * intrusion indicator: credential files (password and group files,
 * sudoers, PAM, SSH host keys and others' authorized_keys), told by the
 * policy's attributes for its type (the policy's authentication and
 * security file types) or by the path.  Static text, or NULL.  @path may
 * be NULL.
 */
const char *ad_safety_credential_target(AdPolicy *policy, const char *ttype, const char *path);
/*
 * Is @ttype a password file type, what password helpers (unix_chkpwd) are
 * there to read: shadow_t, passwd_file_t, or a file type the policy keeps
 * for authentication (lacking non_auth_file_type)?
 */
gboolean ad_safety_password_type(AdPolicy *policy, const char *ttype);
/* the credential types both policies name (shadow_t, passwd_file_t, ...), NULL-terminated */
extern const char *const ad_safety_credential_types[];

/*
 * Why @proto/@port, labelled @port_type by the policy, is not given to
 * @domain (may be NULL): the service that owns it named when the policy
 * tells it, from the domains the type's name suggests that bind it
 * ("tcp/22 belongs to sshd (ssh_port_t): pick another port for httpd,
 * ..."), else "another service".  Translated; owned.
 */
char *ad_safety_port_taken(AdPolicy *policy, const char *proto, guint port,
			   const char *port_type, const char *domain);

/*
 * The package owning @path on this host (dpkg-query -S, else rpm -qf,
 * run without a shell, with a clean environment, a timeout and bounded
 * output; cached): owned name, "" for none, NULL when no package
 * database could answer.
 */
char *ad_safety_package_owner(const char *path, gpointer unused);

G_END_DECLS
