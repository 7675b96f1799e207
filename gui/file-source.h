/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define AD_FILE_SOURCE_MAX_MESSAGES 50	/* problem messages kept for the window */

/* what reading the files found besides the alerts */
typedef struct {
	guint64 denials;	/* denied records analysed (granted ones are no alert) */
	guint64 problems;	/* records rejected or flagged, files not read */
	GPtrArray *messages;	/* char*: "FILE:LINE: problem", the first ones; owned */
	char *policy;		/* the policy file used; owned */
	GArray *times;		/* double: the time of each denied record that has one */
} AdFileReport;

void ad_file_report_free(AdFileReport *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdFileReport, ad_file_report_free)

/* how log files are analysed; NULL members: the defaults */
typedef struct {
	const char *policy;		/* a binary policy */
	const char *file_contexts;	/* the file_contexts to judge labels with */
} AdFileSourceOptions;

/*
 * Offline mode: reads audit logs (any format `avcdoctor analyze` reads,
 * also from other machines), groups their denials into alerts and analyses
 * them with the core library, exactly as `avcdoctor analyze --json` does.
 * Returns the alerts as JSON texts (owned array of char*), so they take
 * the same path through the browser as the daemon's; @ret_report (owned)
 * tells what could not be read.  NULL with @error when there is no policy
 * or no file could be read.  One analysis runs at a time (libsepol's
 * security server is global).
 */
GPtrArray *ad_file_source_analyse(const char *const *files, const AdFileSourceOptions *opt,
				  AdFileReport **ret_report, GError **error);

/* the same in a worker thread (@opt is copied); the result is for ad_file_source_analyse_finish */
void ad_file_source_analyse_async(const char *const *files, const AdFileSourceOptions *opt,
				  GCancellable *cancellable, GAsyncReadyCallback callback,
				  gpointer user_data);
GPtrArray *ad_file_source_analyse_finish(GAsyncResult *result, AdFileReport **ret_report,
					 GError **error);

G_END_DECLS
