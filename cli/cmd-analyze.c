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

typedef struct {
	AdAlertSet *alerts;
	guint64 granted;
	gboolean progress;
	gint64 last_progress;
} AnalyzeState;

static void analyze_denial(AdCli *cli, AdDenial *d, gpointer user_data)
{
	AnalyzeState *st = user_data;
	const AdVerdict *v = ad_cli_explain(cli, d);

	if (!ad_alert_set_add(st->alerts, d, v, NULL))
		st->granted++;
	if (st->progress) {
		gint64 now = g_get_monotonic_time();

		if (now - st->last_progress > 200000) {
			fputc('\r', stderr);
			fprintf(stderr, _("%" PRIu64 " denials, %u alerts..."),
				cli->denials, ad_alert_set_alerts(st->alerts)->len);
			st->last_progress = now;
		}
	}
}

int ad_cmd_analyze(int argc, char **argv)
{
	AdCli cli = { 0 };
	AnalyzeState st = { 0 };
	gboolean host_files = FALSE, summary = FALSE, overview;
	GOptionEntry entries[] = {
		{ "host-files", 0, 0, G_OPTION_ARG_NONE, &host_files,
		  N_("The log is from this host: check the files it names here"), NULL },
		{ "summary", 0, 0, G_OPTION_ARG_NONE, &summary,
		  N_("Open with an overview (counts by level and fix, top domains, targets "
		     "and hosts, time span); with --json as a first object"), NULL },
		{ NULL }
	};
	g_autoptr(GString) out = g_string_new(NULL);
	AdContext *ctx;
	GPtrArray *alerts;
	FILE *summary_f;
	int ret;

	ret = ad_cli_begin(&cli, "analyze", _("Groups the SELinux denials of the audit log into "
					     "alerts and explains each with ranked fixes."),
			   entries, &argc, &argv);
	if (ret >= 0)
		return ret;
	ad_cli_load_knowledge(&cli, host_files || (!cli.opt.files && !ad_cli_stdin_is_input()));
	ctx = ad_analysis_context(cli.analysis);

	st.alerts = ad_alert_set_new();
	st.progress = isatty(STDERR_FILENO) && !g_getenv("AVCDOCTOR_NO_PROGRESS");
	cli.sink = analyze_denial;
	cli.sink_data = &st;
	ad_cli_read_inputs(&cli);
	if (st.progress)
		fputs("\r\033[K", stderr);

	alerts = ad_alert_set_alerts(st.alerts);
	/* on a terminal a long report opens with its overview; JSON only when asked */
	overview = summary || (!cli.opt.json && isatty(STDOUT_FILENO));
	if (overview) {
		g_autoptr(AdOverview) o = NULL;

		for (guint i = 0; i < alerts->len; i++)
			ad_alert_analyse(g_ptr_array_index(alerts, i), ctx);
		o = ad_overview_new(alerts);

		if (cli.opt.json) {
			json_object *j = ad_overview_to_json(o, AD_OVERVIEW_TOP);

			g_string_append_printf(out, "%s\n", ad_json_line(j));
			json_object_put(j);
		} else {
			ad_overview_render(out, o, AD_OVERVIEW_TOP);
		}
		fwrite(out->str, 1, out->len, stdout);
	}
	/*
	 * Without the overview each alert is analysed when it is written and
	 * its event let go of after: what the analysis adds is held for one
	 * alert at a time, and the events of the alerts written are freed.
	 */
	for (guint i = 0; i < alerts->len; i++) {
		AdAlert *a = g_ptr_array_index(alerts, i);

		if (!overview)
			ad_alert_analyse(a, ctx);
		g_string_truncate(out, 0);
		if (cli.opt.json) {
			json_object *o = ad_alert_to_json(a);

			g_string_append_printf(out, "%s\n", ad_json_line(o));
			json_object_put(o);
		} else {
			ad_alert_render(out, a);
		}
		fwrite(out->str, 1, out->len, stdout);
		ad_alert_release(a);
	}
	/* stdout first: on stderr, the line must not land inside a report */
	fflush(stdout);
	summary_f = cli.opt.json ? stderr : stdout;
	fprintf(summary_f, ngettext("%" PRIu64 " denial record", "%" PRIu64 " denial records",
				    cli.denials), cli.denials);
	fprintf(summary_f, ngettext(" in %u alert", " in %u alerts", alerts->len), alerts->len);
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
