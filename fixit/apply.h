/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* how the helper applies fixes: what its command line and the configuration say */
typedef struct {
	char *store_path;		/* the dispatcher's store */
	char *policy;			/* NULL: the policy in use */
	char *file_contexts;		/* NULL: the policy's own */
	char *rules_dir;		/* NULL: the installed rules */
	gboolean file_checks;		/* plugins may look at this host's files */
	guint timeout_s;		/* per command */
	char *bin_dir;			/* NULL: the programs' installed paths (tests only) */
} AdFixitConfig;

void ad_fixit_config_clear(AdFixitConfig *c);

/* what one Apply did, for the log */
typedef struct {
	char *commands;			/* the commands run, shell-quoted, one a line */
	char *output;			/* what they printed (valid UTF-8, bounded) */
	char *digest;			/* ad_fix_digest() of the stored fix, once read */
} AdFixitResult;

void ad_fixit_result_clear(AdFixitResult *r);

/*
 * Applies suggestion @index of alert @id of the store (an alert id with
 * @digest, the ad_fix_digest() of the commands the caller showed, refused
 * as CHANGED when the stored fix is other commands; or the local id
 * "ID-NUMBER[.GEN]" that setroubleshoot's interface hands out, which
 * names one life of the alert, NOT_FOUND once it was deleted, and one
 * analysis of it, CHANGED once another was stored): looks both up, asks
 * the one rule (ad_fix_one_click()), analyses the stored denial again
 * against the current policy and requires the same suggestion to come out,
 * proved where a proof applies, then runs the commands (a module is built
 * here from the alert).  Notes the time in the store when it worked.  FALSE
 * with an AD_FIXIT_ERROR (whose message has the output) otherwise; @ret
 * is filled as far as it got.  A fix of several commands is all or
 * nothing: when one fails, those before it are taken back where they can be.
 */
gboolean ad_fixit_apply(const AdFixitConfig *cfg, const char *id, guint index,
			const char *digest, AdFixitResult *ret, GError **error);

/*
 * Runs @argv[0] at the absolute path @path with @argv, no shell, stdin
 * /dev/null, a clean environment, in its own process group that dies with
 * the helper, killed after @timeout_s.  Appends its output (stdout and
 * stderr, at most AD_FIXIT_MAX_OUTPUT bytes) to @out.  FALSE with
 * AD_FIXIT_ERROR_FAILED or _TIMED_OUT.
 */
#define AD_FIXIT_MAX_OUTPUT (64 * 1024)
gboolean ad_fixit_run(const char *path, char *const *argv, guint timeout_s, GString *out,
		      GError **error);

/* the absolute path of a program of the allow-list (in bin_dir when set), or NULL; owned */
char *ad_fixit_program_path(const AdFixitConfig *cfg, const char *name);

G_END_DECLS
