// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor why: one explanation per denial record (what audit2why does).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli.h"
#include "options.h"
#include "config.h"
#include "output/report.h"

#define WHY_TEXT_CACHE_MAX 4096

typedef struct {
	gboolean classic;		/* audit2why's layout */
	GString *out;
	/*
	 * AdVerdict* (a reference: a freed verdict's address is reused) -> its
	 * rendered text (verdicts are shared); emptied beyond WHY_TEXT_CACHE_MAX
	 */
	GHashTable *verdict_text;
	guint64 by_reason[AD_REASON_LAST + 1];
	guint64 granted;
} WhyState;

/*
 * audit2why's layout, for scripts that parse it: the record, then a "Was
 * caused by:" section with avcdoctor's explanation indented by two tabs.
 * A granted record gets one too, as there; a record without an answer not.
 */
static void why_classic(WhyState *st, const AdDenial *d, const AdVerdict *v)
{
	g_autoptr(GString) head = g_string_new(NULL);
	g_autoptr(GString) body = g_string_new(NULL);
	g_auto(GStrv) lines = NULL;
	const char *nl;

	if (!v && !d->granted)
		return;
	ad_render_why_head(head, d);
	if (d->granted)
		g_string_append(body, _("Not a denial: the access was granted, and logged because "
					"an auditallow rule asks for it.\n"));
	else
		ad_render_verdict(body, v);
	nl = strchr(head->str, '\n');
	g_string_truncate(st->out, 0);
	g_string_append_len(st->out, head->str, nl ? nl - head->str : (gssize)head->len);
	g_string_append(st->out, "\n\n\tWas caused by:\n");
	/* the sentence of what was denied, then the reason */
	if (nl && nl[1])
		g_string_prepend(body, nl + 1);
	lines = g_strsplit(body->str, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		const char *l = lines[i];

		if (!*l)
			continue;
		while (*l == ' ')
			l++;
		g_string_append_printf(st->out, "\t\t%s\n", l);
	}
	g_string_append_c(st->out, '\n');
	fwrite(st->out->str, 1, st->out->len, stdout);
}

static void why_denial(AdCli *cli, AdDenial *d, gpointer user_data)
{
	WhyState *st = user_data;
	const AdVerdict *v = ad_cli_explain(cli, d);

	if (st->classic && !cli->opt.json) {
		if (d->granted)
			st->granted++;
		else if (v)
			st->by_reason[v->reason]++;
		why_classic(st, d, v);
		return;
	}

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
	for (int r = 0; r <= AD_REASON_LAST; r++)
		if (st->by_reason[r])
			g_string_append_printf(s, ", %" PRIu64 " %s",
					       st->by_reason[r], ad_reason_name(r));
	if (st->granted)
		g_string_append_printf(s, ngettext(", %" PRIu64 " granted", ", %" PRIu64 " granted",
						   st->granted), st->granted);
	ad_cli_append_unselected(s, cli);
	ad_cli_append_rejected(s, cli, f);
	ad_cli_append_read_errors(s, cli);
	fprintf(f, "%s.\n", s->str);
}

int ad_cmd_why(int argc, char **argv)
{
	AdCli cli = { 0 };
	WhyState st = { 0 };
	GOptionEntry entries[] = {
		{ "classic", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &st.classic, NULL, NULL },
		{ NULL }
	};
	int ret;

	ret = ad_cli_begin(&cli, "why", _("Explains why each SELinux denial in the audit log "
					 "happened and what would allow it."),
			   entries, &argc, &argv);
	if (ret >= 0)
		return ret;
	st.out = g_string_new(NULL);
	st.verdict_text = g_hash_table_new_full(g_direct_hash, g_direct_equal,
						(GDestroyNotify)ad_verdict_unref, g_free);
	cli.sink = why_denial;
	cli.sink_data = &st;
	/* audit2why's way pages nothing */
	if (!st.classic)
		ad_pager_start(cli.opt.no_pager);
	ad_cli_read_inputs(&cli);
	/* audit2why prints no account: on standard error, where no script parses */
	summary(&cli, &st, cli.opt.json || st.classic ? stderr : stdout);
	ret = ad_cli_input_status(&cli);
	g_string_free(st.out, TRUE);
	g_hash_table_unref(st.verdict_text);
	ad_cli_end(&cli);
	return ret;
}
