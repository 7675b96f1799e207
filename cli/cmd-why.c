// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor why: one explanation per denial record (what audit2why does).
 */
#include <inttypes.h>
#include <stdio.h>

#include <glib/gi18n.h>

#include "cli.h"
#include "config.h"
#include "output/report.h"

#define WHY_TEXT_CACHE_MAX 4096

typedef struct {
	GString *out;
	/*
	 * AdVerdict* (a reference: a freed verdict's address is reused) -> its
	 * rendered text (verdicts are shared); emptied beyond WHY_TEXT_CACHE_MAX
	 */
	GHashTable *verdict_text;
	guint64 by_reason[AD_REASON_INVALID_CONTEXT + 1];
	guint64 granted;
} WhyState;

static void why_denial(AdCli *cli, AdDenial *d, gpointer user_data)
{
	WhyState *st = user_data;
	const AdVerdict *v = ad_cli_explain(cli, d);

	if (d->granted)
		st->granted++;
	else if (v)
		st->by_reason[v->reason]++;
	g_string_truncate(st->out, 0);
	if (cli->opt.json) {
		json_object *o = ad_denial_to_json(d, v);

		g_string_append(st->out, ad_json_line(o));
		g_string_append_c(st->out, '\n');
		json_object_put(o);
	} else {
		ad_render_why_head(st->out, d);
		if (v && !d->granted) {
			const char *text = g_hash_table_lookup(st->verdict_text, v);

			if (!text) {
				g_autoptr(GString) t = g_string_new(NULL);

				ad_render_verdict(t, v);
				text = g_string_free(g_steal_pointer(&t), FALSE);
				if (g_hash_table_size(st->verdict_text) >= WHY_TEXT_CACHE_MAX)
					g_hash_table_remove_all(st->verdict_text);
				g_hash_table_insert(st->verdict_text, (gpointer)ad_verdict_ref(v),
						    (gpointer)text);
			}
			g_string_append(st->out, text);
		}
		g_string_append_c(st->out, '\n');
	}
	fwrite(st->out->str, 1, st->out->len, stdout);
}

/*
 * The closing account: every record read is either explained or reported.
 * On stderr after --json: the reports on stdout go out first, so that the
 * line does not land inside one when both streams go to one pipe.
 */
static void summary(AdCli *cli, WhyState *st, FILE *f)
{
	g_autoptr(GString) s = g_string_new(NULL);

	fflush(stdout);

	g_string_append_printf(s, ngettext("%" PRIu64 " denial record analysed",
					   "%" PRIu64 " denial records analysed",
					   cli->denials), cli->denials);
	for (int r = 0; r <= AD_REASON_INVALID_CONTEXT; r++)
		if (st->by_reason[r])
			g_string_append_printf(s, ", %" PRIu64 " %s",
					       st->by_reason[r], ad_reason_name(r));
	if (st->granted)
		g_string_append_printf(s, _(", %" PRIu64 " granted"), st->granted);
	ad_cli_append_unselected(s, cli);
	ad_cli_append_rejected(s, cli, f);
	ad_cli_append_read_errors(s, cli);
	fprintf(f, "%s.\n", s->str);
}

int ad_cmd_why(int argc, char **argv)
{
	AdCli cli = { 0 };
	WhyState st = { 0 };
	int ret;

	ret = ad_cli_begin(&cli, "why", _("Explains why each SELinux denial in the audit log "
					 "happened and what would allow it."),
			   NULL, &argc, &argv);
	if (ret >= 0)
		return ret;
	st.out = g_string_new(NULL);
	st.verdict_text = g_hash_table_new_full(g_direct_hash, g_direct_equal,
						(GDestroyNotify)ad_verdict_unref, g_free);
	cli.sink = why_denial;
	cli.sink_data = &st;
	ad_cli_read_inputs(&cli);
	summary(&cli, &st, cli.opt.json ? stderr : stdout);
	ret = ad_cli_input_status(&cli);
	g_string_free(st.out, TRUE);
	g_hash_table_unref(st.verdict_text);
	ad_cli_end(&cli);
	return ret;
}
