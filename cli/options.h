/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "analysis/suggest.h"
#include "format.h"

G_BEGIN_DECLS

/* "avcdoctor: " and the message on standard error (standard output flushed first) */
void ad_cli_message(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/*
 * An option context for COMMAND's options: @param after "avcdoctor",
 * @summary, the translation domain, and -h/--help as its first option in
 * place of GLib's own, so that the help can be wrapped (@help is set).
 */
GOptionContext *ad_cli_context_new(const char *param, const char *summary, gboolean *help);
/*
 * Parses @argv with @ctx (made by ad_cli_context_new()): 1 to go on, 0
 * after --help was printed on stdout (exit 0), -1 after a usage error
 * was said on stderr.
 */
int ad_cli_context_parse(GOptionContext *ctx, const char *cmd, const gboolean *help,
			 int *argc, char ***argv);
/* @ctx's help, wrapped to AD_HELP_WIDTH, on stdout */
void ad_cli_print_help(GOptionContext *ctx);
/* ad_help_wrap() and AD_HELP_WIDTH: format.h, which the browser shares */

/* --sort: in which order the alerts of a report are written */
typedef enum {
	AD_SORT_DEFAULT,	/* level for text, time for JSON */
	AD_SORT_LEVEL,		/* red first, then yellow, green; most denials first */
	AD_SORT_COUNT,		/* most denials first */
	AD_SORT_TIME,		/* first seen first: the order of the log or store */
} AdSort;

/* "level", "count", "time" (or NULL: the default); FALSE for anything else */
gboolean ad_sort_parse(const char *s, AdSort *ret);
/* --level: ad_levels_parse() (alert-doc.h), which the browser shares */
/* both of the above for @cmd's --sort and --level; FALSE after a message */
gboolean ad_cli_sort_levels(const char *cmd, const char *sort, char **levels, AdSort *ret_sort,
			    guint *ret_levels);
/*
 * Ordering of two alerts by @sort: the level (red first), the count
 * (more first), then @seq (the order they came in).  For qsort-like use.
 */
int ad_sort_compare(AdSort sort, AdLevel la, guint64 ca, guint64 seqa, AdLevel lb, guint64 cb,
		    guint64 seqb);

/*
 * The pager (as git and journalctl): when standard output is a terminal
 * and @no_pager is not set, what comes on standard output (and standard
 * error, when it is the terminal too) goes through $AVCDOCTOR_PAGER, else
 * $PAGER, else "less" (with LESS=FRX unless LESS is set).  The value is
 * split into words as a shell would, and run without a shell; "" or
 * "cat" is no pager.  Called once, just before the first output; the
 * pager is waited for at exit.  Returns TRUE when a pager was started.
 */
gboolean ad_pager_start(gboolean no_pager);
/* TRUE when a pager was started (output goes to it, not to the terminal) */
gboolean ad_pager_active(void);

G_END_DECLS
