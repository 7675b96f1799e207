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
#include "options.h"
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
 * Reports held until they can be written: the overview that opens them is
 * known at the end, and they are written by level or count.  In memory,
 * and in an unlinked temporary file of $TMPDIR once they outgrow
 * AD_SPOOL_MEMORY (in memory still when no temporary file can be made);
 * either holds all of them, @size bytes.
 */
typedef struct {
	GString *mem;
	FILE *file;
	guint64 size;
	gboolean failed;	/* the temporary file could not be written or read */
} Spool;

/* one report in the spool, and what it is sorted by */
typedef struct {
	guint64 offset, len;
	guint64 count;
	guint64 seq;
	AdLevel level;
} SpoolEntry;

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
	sp->size += s->len;
}

/* copies @len bytes at @offset of the spool to @out */
static void spool_copy_range(Spool *sp, guint64 offset, guint64 len, FILE *out)
{
	char buf[65536];

	if (!sp->file) {
		fwrite(sp->mem->str + offset, 1, len, out);
		return;
	}
	while (len) {
		ssize_t n = pread(fileno(sp->file), buf, MIN(len, sizeof(buf)), offset);

		if (n <= 0) {
			sp->failed = TRUE;
			return;
		}
		fwrite(buf, 1, n, out);
		offset += n;
		len -= n;
	}
}

/* begins reading the spool back; FALSE when the temporary file failed */
static gboolean spool_flush(Spool *sp)
{
	if (sp->file && (fflush(sp->file) != 0 || ferror(sp->file)))
		sp->failed = TRUE;
	return !sp->failed;
}

static void spool_clear(Spool *sp)
{
	if (sp->file)
		fclose(sp->file);
	sp->file = NULL;
	if (sp->mem)
		g_string_free(sp->mem, TRUE);
	sp->mem = NULL;
}

typedef struct {
	AdPluginEnv *ctx;
	AdAlertSet *alerts;		/* the alerts of the batch being read */
	guint batch;			/* alerts held before they are written */
	guint batches;			/* batches written, the last one too */
	guint64 written;		/* alerts analysed */
	guint64 listed;			/* alerts whose reports are written */
	guint hidden[AD_LEVEL_RED + 1];	/* alerts of levels not asked for, by level */
	guint levels;			/* the levels listed (1 << AdLevel) */
	AdSort sort;
	gboolean json;
	gboolean no_pager;
	AdOverview *overview;		/* when the report opens with one */
	gboolean spooling;		/* the reports wait in the spool */
	Spool spool;
	GArray *index;			/* SpoolEntry, when sorted */
	GString *out;
	guint64 granted;
	gboolean progress;
	gint64 last_progress;
} AnalyzeState;

/* writes to standard output, through the pager when there is one */
static void output(AnalyzeState *st, const GString *s)
{
	if (ad_pager_start(st->no_pager))
		st->progress = FALSE;
	fwrite(s->str, 1, s->len, stdout);
}

/*
 * Analyses and writes out the alerts held, oldest first, and lets go of
 * them: the analysis is held for one alert at a time, and the events of
 * the alerts written are freed.  The reports wait in the spool when an
 * overview opens them or when they are sorted; the alerts of levels not
 * asked for are counted in the overview only.
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
		if (st->overview)
			ad_overview_add_alert(st->overview, a);
		if (!(st->levels & (1u << a->level))) {
			st->hidden[a->level]++;
			ad_alert_release(a);
			continue;
		}
		g_string_truncate(st->out, 0);
		if (st->json) {
			json_object *o = ad_alert_to_json(a);

			g_string_append_printf(st->out, "%s\n", ad_json_line(o));
			json_object_put(o);
		} else {
			ad_alert_render(st->out, a);
		}
		if (st->index) {
			SpoolEntry e = { .offset = st->spool.size, .len = st->out->len,
					 .count = a->count, .seq = st->listed, .level = a->level };

			g_array_append_val(st->index, e);
		}
		if (st->spooling)
			spool_write(&st->spool, st->out);
		else
			output(st, st->out);
		st->listed++;
		ad_alert_release(a);
	}
	st->written += alerts->len;
	if (alerts->len)
		st->batches++;
	ad_alert_set_free(st->alerts);
	st->alerts = ad_alert_set_new();
}

static AnalyzeState *sort_state;

static int compare_entries(gconstpointer a, gconstpointer b)
{
	const SpoolEntry *x = a, *y = b;

	return ad_sort_compare(sort_state->sort, x->level, x->count, x->seq, y->level, y->count,
			       y->seq);
}

/* the reports held, in the order asked for; FALSE when the temporary file failed */
static gboolean write_spooled(AnalyzeState *st)
{
	if (!spool_flush(&st->spool))
		return FALSE;
	if (!st->index) {
		spool_copy_range(&st->spool, 0, st->spool.size, stdout);
		return !st->spool.failed;
	}
	sort_state = st;
	g_array_sort(st->index, compare_entries);
	for (guint i = 0; i < st->index->len; i++) {
		const SpoolEntry *e = &g_array_index(st->index, SpoolEntry, i);

		spool_copy_range(&st->spool, e->offset, e->len, stdout);
	}
	return !st->spool.failed;
}

/* "; 3 alerts of other levels not shown (--level=all shows them)" */
static void append_hidden(GString *s, const AnalyzeState *st)
{
	guint n = 0;

	for (int l = AD_LEVEL_GREEN; l <= AD_LEVEL_RED; l++)
		n += st->hidden[l];
	if (n)
		g_string_append_printf(s, ngettext("; %u alert of another level not shown "
						   "(--level=all shows it)",
						   "; %u alerts of other levels not shown "
						   "(--level=all shows them)", n), n);
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
	g_autofree char *sort = NULL;
	g_auto(GStrv) levels = NULL;
	GOptionEntry entries[] = {
		{ "host-files", 0, 0, G_OPTION_ARG_NONE, &cli.host_files,
		  N_("The log is from this host: check the files it names here"), NULL },
		{ "summary", 0, 0, G_OPTION_ARG_NONE, &summary,
		  N_("The overview (counts by level and fix, top domains, targets and hosts, "
		     "time span) and the red alerts only (with --level, those of LEVEL); with "
		     "--json the overview is a first object"), NULL },
		{ "level", 0, 0, G_OPTION_ARG_STRING_ARRAY, &levels,
		  N_("Only the alerts of LEVEL: red, yellow, green, or all (comma-separated or "
		     "repeated); the overview still counts every alert"), N_("LEVEL") },
		{ "sort", 0, 0, G_OPTION_ARG_STRING, &sort,
		  N_("The order of the alerts: level (red first, then yellow, green, most "
		     "denials first; the default of the text report), count (most denials "
		     "first) or time (first seen first; the default of --json)"), N_("ORDER") },
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
	if (!ad_cli_sort_levels("analyze", sort, levels, &st.sort, &st.levels)) {
		ad_cli_end(&cli);
		return AD_EXIT_INPUT;
	}

	st.ctx = ad_analysis_context(cli.analysis);
	st.batch = batch;
	st.json = cli.opt.json;
	st.no_pager = cli.opt.no_pager;
	st.out = out;
	st.alerts = ad_alert_set_new();
	st.progress = isatty(STDERR_FILENO) && !g_getenv("AVCDOCTOR_NO_PROGRESS");
	/* --summary: the red alerts, unless --level says which */
	if (!st.levels)
		st.levels = summary ? 1u << AD_LEVEL_RED : AD_LEVELS_ALL;
	if (st.sort == AD_SORT_DEFAULT)
		st.sort = st.json ? AD_SORT_TIME : AD_SORT_LEVEL;
	/* on a terminal a long report opens with its overview; JSON only when asked */
	if (summary || (!cli.opt.json && isatty(STDOUT_FILENO)))
		st.overview = ad_overview_new_empty();
	st.spooling = st.overview || st.sort != AD_SORT_TIME;
	if (st.spooling)
		st.spool.mem = g_string_new(NULL);
	if (st.sort != AD_SORT_TIME)
		st.index = g_array_new(FALSE, FALSE, sizeof(SpoolEntry));
	cli.sink = analyze_denial;
	cli.sink_data = &st;
	ad_cli_read_inputs(&cli);
	if (st.progress)
		fputs("\r\033[K", stderr);
	write_alerts(&st);

	/* no alert (an input that could not be read, say): no empty overview */
	if (st.overview && st.written) {
		g_string_truncate(out, 0);
		ad_overview_finish(st.overview);
		if (cli.opt.json) {
			json_object *j = ad_overview_to_json(st.overview, AD_OVERVIEW_TOP);

			g_string_append_printf(out, "%s\n", ad_json_line(j));
			json_object_put(j);
		} else {
			ad_overview_render(out, st.overview, AD_OVERVIEW_TOP);
		}
		output(&st, out);
	}
	if (st.spooling && st.listed) {
		ad_pager_start(st.no_pager);
		if (!write_spooled(&st))
			ad_cli_message("analyze: %s", _("the temporary file holding the reports "
							"failed: some may be missing"));
	}
	spool_clear(&st.spool);
	g_clear_pointer(&st.overview, ad_overview_free);
	if (st.index)
		g_array_free(st.index, TRUE);
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

		append_hidden(s, &st);
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
