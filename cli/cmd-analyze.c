// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor analyze: alerts grouped by signature with ranked fixes (what
 * sealert -a does).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "analysis/alert.h"
#include "analysis/overview.h"
#include "cli.h"
#include "config.h"
#include "output/report.h"

#define AD_OVERVIEW_TOP 5	/* domains, targets, hosts named in the overview */
/*
 * Alerts held while the log is read, by default.  An alert holds its
 * latest event (some kilobytes): 50,000 of them are a few hundred MB, a
 * number real logs do not reach but a flood of distinct denials can.
 */
#define AD_ANALYZE_BATCH 50000
/* reports waiting for the overview that opens them go to a file beyond this */
#define AD_SPOOL_MEMORY (16 << 20)

/*
 * Reports written before the overview that opens them is known: in
 * memory, and in an unlinked temporary file of $TMPDIR once they outgrow
 * AD_SPOOL_MEMORY (in memory still when no temporary file can be made).
 */
typedef struct {
	GString *mem;
	FILE *file;
} Spool;

static void spool_write(Spool *sp, const GString *s)
{
	if (!sp->file && sp->mem->len + s->len > AD_SPOOL_MEMORY) {
		g_autofree char *path = NULL;
		int fd = g_file_open_tmp("avcdoctor-analyze-XXXXXX", &path, NULL);

		if (fd >= 0) {
			/* nobody else can open it, and it goes when the process does */
			unlink(path);
			sp->file = fdopen(fd, "w+");
			if (!sp->file)
				close(fd);
		}
		if (sp->file) {
			fwrite(sp->mem->str, 1, sp->mem->len, sp->file);
			g_string_truncate(sp->mem, 0);
		}
	}
	if (sp->file)
		fwrite(s->str, 1, s->len, sp->file);
	else
		g_string_append_len(sp->mem, s->str, s->len);
}

/* copies what was spooled to @out; FALSE when the temporary file failed */
static gboolean spool_copy(Spool *sp, FILE *out)
{
	char buf[65536];
	size_t n;
	gboolean ok = TRUE;

	if (sp->file) {
		ok = fflush(sp->file) == 0 && !ferror(sp->file);
		rewind(sp->file);
		while ((n = fread(buf, 1, sizeof(buf), sp->file)) > 0)
			fwrite(buf, 1, n, out);
		ok = ok && !ferror(sp->file);
		fclose(sp->file);
		sp->file = NULL;
	}
	fwrite(sp->mem->str, 1, sp->mem->len, out);
	return ok;
}

typedef struct {
	AdContext *ctx;
	AdAlertSet *alerts;		/* the alerts of the batch being read */
	guint batch;			/* alerts held before they are written */
	guint batches;			/* batches written, the last one too */
	guint64 written;		/* alerts written */
	gboolean json;
	AdOverview *overview;		/* when the report opens with one */
	Spool spool;			/* the reports, while an overview is kept */
	GString *out;
	guint64 granted;
	gboolean progress;
	gint64 last_progress;
} AnalyzeState;

/*
 * Analyses and writes out the alerts held, oldest first, and lets go of
 * them: the analysis is held for one alert at a time, and the events of
 * the alerts written are freed.  With an overview the reports wait in the
 * spool until it is complete.
 */
static void write_alerts(AnalyzeState *st)
{
	GPtrArray *alerts = ad_alert_set_alerts(st->alerts);

	/* a report written to the terminal does not land after the progress line */
	if (st->progress && alerts->len)
		fputs("\r\033[K", stderr);
	for (guint i = 0; i < alerts->len; i++) {
		AdAlert *a = g_ptr_array_index(alerts, i);

		ad_alert_analyse(a, st->ctx);
		g_string_truncate(st->out, 0);
		if (st->json) {
			json_object *o = ad_alert_to_json(a);

			g_string_append_printf(st->out, "%s\n", ad_json_line(o));
			json_object_put(o);
		} else {
			ad_alert_render(st->out, a);
		}
		if (st->overview) {
			ad_overview_add_alert(st->overview, a);
			spool_write(&st->spool, st->out);
		} else {
			fwrite(st->out->str, 1, st->out->len, stdout);
		}
		ad_alert_release(a);
	}
	st->written += alerts->len;
	if (alerts->len)
		st->batches++;
	ad_alert_set_free(st->alerts);
	st->alerts = ad_alert_set_new();
}

static void analyze_denial(AdCli *cli, AdDenial *d, gpointer user_data)
{
	AnalyzeState *st = user_data;
	const AdVerdict *v = ad_cli_explain(cli, d);

	if (!ad_alert_set_add(st->alerts, d, v, NULL))
		st->granted++;
	if (ad_alert_set_alerts(st->alerts)->len >= st->batch)
		write_alerts(st);
	if (st->progress) {
		gint64 now = g_get_monotonic_time();

		if (now - st->last_progress > 200000) {
			guint alerts = st->written + ad_alert_set_alerts(st->alerts)->len;

			fputc('\r', stderr);
			fprintf(stderr, ngettext("%" PRIu64 " denial, ", "%" PRIu64 " denials, ",
						 cli->denials), cli->denials);
			fprintf(stderr, ngettext("%u alert...", "%u alerts...", alerts), alerts);
			st->last_progress = now;
		}
	}
}

int ad_cmd_analyze(int argc, char **argv)
{
	AdCli cli = { 0 };
	AnalyzeState st = { .batch = AD_ANALYZE_BATCH };
	gboolean summary = FALSE;
	gint batch = AD_ANALYZE_BATCH;
	GOptionEntry entries[] = {
		{ "host-files", 0, 0, G_OPTION_ARG_NONE, &cli.host_files,
		  N_("The log is from this host: check the files it names here"), NULL },
		{ "summary", 0, 0, G_OPTION_ARG_NONE, &summary,
		  N_("Open with an overview (counts by level and fix, top domains, targets "
		     "and hosts, time span); with --json as a first object"), NULL },
		{ "batch", 0, 0, G_OPTION_ARG_INT, &batch,
		  N_("Write the alerts out whenever N are held (default 50000); a signature "
		     "seen again after its alert was written starts a new alert"), N_("N") },
		{ NULL }
	};
	g_autoptr(GString) out = g_string_new(NULL);
	FILE *summary_f;
	int ret;

	cli.knowledge = TRUE;
	ret = ad_cli_begin(&cli, "analyze", _("Groups the SELinux denials of the audit log into "
					     "alerts and explains each with ranked fixes."),
			   entries, &argc, &argv);
	if (ret >= 0)
		return ret;
	if (batch < 1) {
		ad_cli_message("analyze: --batch: %s %s", _("give a number of alerts, 1 or more"),
			       _("(see --help)"));
		ad_cli_end(&cli);
		return AD_EXIT_INPUT;
	}

	st.ctx = ad_analysis_context(cli.analysis);
	st.batch = batch;
	st.json = cli.opt.json;
	st.out = out;
	st.alerts = ad_alert_set_new();
	st.progress = isatty(STDERR_FILENO) && !g_getenv("AVCDOCTOR_NO_PROGRESS");
	/* on a terminal a long report opens with its overview; JSON only when asked */
	if (summary || (!cli.opt.json && isatty(STDOUT_FILENO))) {
		st.overview = ad_overview_new_empty();
		st.spool.mem = g_string_new(NULL);
	}
	cli.sink = analyze_denial;
	cli.sink_data = &st;
	ad_cli_read_inputs(&cli);
	if (st.progress)
		fputs("\r\033[K", stderr);
	write_alerts(&st);

	if (st.overview) {
		g_string_truncate(out, 0);
		ad_overview_finish(st.overview);
		if (cli.opt.json) {
			json_object *j = ad_overview_to_json(st.overview, AD_OVERVIEW_TOP);

			g_string_append_printf(out, "%s\n", ad_json_line(j));
			json_object_put(j);
		} else {
			ad_overview_render(out, st.overview, AD_OVERVIEW_TOP);
		}
		fwrite(out->str, 1, out->len, stdout);
		if (!spool_copy(&st.spool, stdout))
			ad_cli_message("analyze: %s", _("the temporary file holding the reports "
							"failed: some may be missing"));
		g_string_free(st.spool.mem, TRUE);
		ad_overview_free(st.overview);
	}
	/* stdout first: on stderr, the line must not land inside a report */
	fflush(stdout);
	summary_f = cli.opt.json ? stderr : stdout;
	fprintf(summary_f, ngettext("%" PRIu64 " denial record", "%" PRIu64 " denial records",
				    cli.denials), cli.denials);
	fprintf(summary_f, ngettext(" in %u alert", " in %u alerts", (guint)st.written),
		(guint)st.written);
	if (st.batches > 1)
		fprintf(summary_f, ngettext(" (written in %u batch of at most %u alerts: a "
					    "signature may have more than one alert)",
					    " (written in %u batches of at most %u alerts: a "
					    "signature may have more than one alert)",
					    st.batches), st.batches, st.batch);
	if (st.granted)
		fprintf(summary_f, ngettext(", %" PRIu64 " granted record (not an alert)",
					    ", %" PRIu64 " granted records (not alerts)",
					    st.granted), st.granted);
	{
		g_autoptr(GString) s = g_string_new(NULL);

		ad_cli_append_unselected(s, &cli);
		ad_cli_append_rejected(s, &cli, summary_f);
		ad_cli_append_read_errors(s, &cli);
		fputs(s->str, summary_f);
	}
	fputs(".\n", summary_f);
	ret = ad_cli_input_status(&cli);
	ad_alert_set_free(st.alerts);
	ad_cli_end(&cli);
	return ret;
}
