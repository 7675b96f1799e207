// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The offline source of the browser: log files analysed here, with no
 * daemon, through the same core calls as `avcdoctor analyze` (the reader,
 * the analysis context, the alert set, the plugins and rules).  The
 * result is the JSON of `analyze --json`, which the window loads the way it
 * loads the daemon's ListAlerts reply.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "analysis/alert.h"
#include "analysis/analysis.h"
#include "read/reader.h"
#include "escape.h"
#include "occurrences.h"
#include "file-source.h"
#include "policy/labels.h"
#include "output/report.h"
#include "analysis/rules.h"

/* libsepol's security server is global: one policy at a time in a process */
static GMutex analyse_lock;

typedef struct {
	AdAnalysis *analysis;
	AdAlertSet *alerts;
	AdFileReport *report;
	GHashTable *occurrences;	/* alert id -> AdOccurrences: as the store keeps them */
} Analysis;

void ad_file_report_free(AdFileReport *r)
{
	if (!r)
		return;
	g_ptr_array_unref(r->messages);
	if (r->times)
		g_array_unref(r->times);
	g_free(r->policy);
	g_free(r);
}

/*
 * A message for the window: "FILE:LINE: problem" for a record (counted in
 * problems), "FILE: note" for line 0, the note alone without a file (rules
 * or labels missing: the analysis goes on with less knowledge, as the
 * CLI's does).
 */
static void note_problem(Analysis *an, const char *file, guint line, const char *message)
{
	g_autofree char *f = file ? ad_escape_str(file) : NULL;
	g_autofree char *m = ad_escape_str(message);

	if (line)
		an->report->problems++;
	if (an->report->messages->len >= AD_FILE_SOURCE_MAX_MESSAGES)
		return;
	if (!f)
		g_ptr_array_add(an->report->messages, g_steal_pointer(&m));
	else
		g_ptr_array_add(an->report->messages, line ? g_strdup_printf("%s:%u: %s", f, line, m)
							   : g_strdup_printf("%s: %s", f, m));
}

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	note_problem(user_data, file, line, message);
}

/* what the reader assumed (denials without a header, a date order): said, not counted */
static void on_note(const char *file, guint line, const char *message, gpointer user_data)
{
	Analysis *an = user_data;
	g_autofree char *f = ad_escape_str(file);
	g_autofree char *m = ad_escape_str(message);

	if (an->report->messages->len < AD_FILE_SOURCE_MAX_MESSAGES)
		g_ptr_array_add(an->report->messages, g_strdup_printf("%s:%u: %s", f, line, m));
}

static void on_record_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	note_problem(user_data, rec->file, rec->line, message);
}

/* every denial of an event joins its alert (granted records are not alerts) */
static void on_event(AdEvent *ev, gpointer user_data)
{
	Analysis *an = user_data;
	g_autoptr(GPtrArray) denials =
		g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);

	ad_event_build_denials(ev, denials, on_record_problem, an);
	for (guint i = 0; i < denials->len; i++) {
		AdDenial *d = g_ptr_array_index(denials, i);

		double t = ad_event_time(ev);

		/* counted as analyze --summary counts: a granted record is no denial */
		if (!d->granted)
			an->report->denials++;
		if (t > 0 && !d->granted)
			g_array_append_val(an->report->times, t);
		AdAlert *a = ad_alert_set_add(an->alerts, d, ad_analysis_explain(an->analysis, d),
					      NULL);
		AdOccurrences *occ;

		if (!a)
			continue;
		occ = g_hash_table_lookup(an->occurrences, a->id);
		if (!occ) {
			occ = ad_occurrences_new();
			g_hash_table_insert(an->occurrences, g_strdup(a->id), occ);
		}
		ad_occurrences_add(occ, ad_denial_time(d), 1);
	}
}

/* the alerts, analysed, as JSON texts */
static GPtrArray *alerts_to_json(Analysis *an)
{
	GPtrArray *alerts = ad_alert_set_alerts(an->alerts);
	GPtrArray *ret = g_ptr_array_new_with_free_func(g_free);
	AdPluginEnv *ctx = ad_analysis_context(an->analysis);

	for (guint i = 0; i < alerts->len; i++) {
		AdAlert *a = g_ptr_array_index(alerts, i);
		json_object *o;

		AdOccurrences *occ = g_hash_table_lookup(an->occurrences, a->id);

		ad_alert_analyse(a, ctx);
		o = ad_alert_to_json(a);
		/* when its denials happened, in the buckets the daemon's store keeps */
		if (occ)
			json_object_object_add(o, AD_KEY_TIMELINE, ad_occurrences_to_json(occ));
		g_ptr_array_add(ret, g_strdup(ad_json_line(o)));
		json_object_put(o);
	}
	return ret;
}

GPtrArray *ad_file_source_analyse(const char *const *files, const AdFileSourceOptions *opt,
				  AdFileReport **ret_report, GError **error)
{
	g_autoptr(GMutexLocker) locker = g_mutex_locker_new(&analyse_lock);
	g_autoptr(AdReader) reader = NULL;
	g_autoptr(AdFileReport) report = g_new0(AdFileReport, 1);
	Analysis an = { 0 };
	GPtrArray *ret = NULL;
	guint read = 0;

	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	/* the log may come from another machine: the files it names are not ours */
	AdAnalysisOptions kopt = {
		.local = FALSE, .input_files = files,
		.file_contexts = opt ? opt->file_contexts : NULL,
	};

	report->messages = g_ptr_array_new_with_free_func(g_free);
	report->times = g_array_new(FALSE, FALSE, sizeof(double));
	an.report = report;
	/* the labels and rules are read while the policy loads */
	an.analysis = ad_analysis_new_with_knowledge(opt ? opt->policy : NULL, &kopt, problems,
						     error);
	if (!an.analysis)
		return NULL;
	report->policy = g_strdup(ad_policy_path(ad_analysis_policy(an.analysis)));
	an.alerts = ad_alert_set_new();
	an.occurrences = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					       (GDestroyNotify)ad_occurrences_free);
	reader = ad_reader_new(on_event, on_problem, &an);
	ad_reader_set_note_func(reader, on_note);
	for (guint i = 0; files && files[i]; i++) {
		g_autoptr(GError) e = NULL;

		if (ad_reader_read_file(reader, files[i], &e)) {
			read++;
		} else {
			g_autofree char *m = ad_escape_str(e->message);

			report->problems++;
			g_ptr_array_add(report->messages, g_steal_pointer(&m));
		}
	}
	g_clear_pointer(&reader, ad_reader_free);
	if (!read) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s",
			    report->messages->len ? (char *)g_ptr_array_index(report->messages, 0)
						  : _("no log file to read"));
	} else {
		/* after what reading found: a log that could not be read is said first */
		for (guint i = 0; i < problems->len; i++)
			note_problem(&an, NULL, 0, g_ptr_array_index(problems, i));
		ret = alerts_to_json(&an);
	}
	ad_alert_set_free(an.alerts);
	g_hash_table_unref(an.occurrences);
	ad_analysis_free(an.analysis);
	if (ret && ret_report)
		*ret_report = g_steal_pointer(&report);
	return ret;
}

typedef struct {
	GStrv files;
	char *policy;
	char *file_contexts;
	AdFileReport *report;
} Job;

static void job_free(Job *j)
{
	g_strfreev(j->files);
	g_free(j->policy);
	g_free(j->file_contexts);
	ad_file_report_free(j->report);
	g_free(j);
}

static void analyse_thread(GTask *task, gpointer source, gpointer data, GCancellable *cancel)
{
	Job *j = data;
	GError *error = NULL;
	AdFileSourceOptions opt = { .policy = j->policy, .file_contexts = j->file_contexts };
	GPtrArray *ret;

	(void)source;
	(void)cancel;
	ret = ad_file_source_analyse((const char *const *)j->files, &opt, &j->report, &error);
	if (ret)
		g_task_return_pointer(task, ret, (GDestroyNotify)g_ptr_array_unref);
	else
		g_task_return_error(task, error);
}

void ad_file_source_analyse_async(const char *const *files, const AdFileSourceOptions *opt,
				  GCancellable *cancellable, GAsyncReadyCallback callback,
				  gpointer user_data)
{
	g_autoptr(GTask) task = g_task_new(NULL, cancellable, callback, user_data);
	Job *j = g_new0(Job, 1);

	j->files = g_strdupv((char **)files);
	j->policy = g_strdup(opt ? opt->policy : NULL);
	j->file_contexts = g_strdup(opt ? opt->file_contexts : NULL);
	g_task_set_task_data(task, j, (GDestroyNotify)job_free);
	g_task_run_in_thread(task, analyse_thread);
}

GPtrArray *ad_file_source_analyse_finish(GAsyncResult *result, AdFileReport **ret_report,
					 GError **error)
{
	GTask *task = G_TASK(result);
	Job *j = g_task_get_task_data(task);
	GPtrArray *ret = g_task_propagate_pointer(task, error);

	if (ret && ret_report)
		*ret_report = g_steal_pointer(&j->report);
	return ret;
}
