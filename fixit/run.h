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
