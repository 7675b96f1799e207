// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The overview that opens a long report: what kinds of alerts there are,
 * which domains and targets dominate, which fixes are offered first, and
 * when it all happened.
 */
#include <inttypes.h>

#include <glib/gi18n.h>
#include <string.h>

#include "overview.h"
#include "escape.h"
#include "format.h"
#include "output/report.h"

static void entry_free(AdOverviewEntry *e)
{
	g_free(e->name);
	g_free(e);
}

/* the entry @name of list @k, made when missing */
static AdOverviewEntry *entry(AdOverview *o, guint k, const char *name)
{
	GPtrArray *lists[] = { o->sources, o->targets, o->hosts };
	AdOverviewEntry *e = g_hash_table_lookup(o->index[k], name);

	if (!e) {
		e = g_new0(AdOverviewEntry, 1);
		e->name = g_strdup(name);
		g_hash_table_insert(o->index[k], e->name, e);
		g_ptr_array_add(lists[k], e);
	}
	return e;
}

static gint entry_cmp(gconstpointer pa, gconstpointer pb)
{
	const AdOverviewEntry *a = *(AdOverviewEntry *const *)pa;
	const AdOverviewEntry *b = *(AdOverviewEntry *const *)pb;

	if (a->records != b->records)
		return a->records > b->records ? -1 : 1;
	if (a->alerts != b->alerts)
		return a->alerts > b->alerts ? -1 : 1;
	return strcmp(a->name, b->name);
}

AdOverview *ad_overview_new_empty(void)
{
	AdOverview *o = g_new0(AdOverview, 1);

	o->sources = g_ptr_array_new_with_free_func((GDestroyNotify)entry_free);
	o->targets = g_ptr_array_new_with_free_func((GDestroyNotify)entry_free);
	o->hosts = g_ptr_array_new_with_free_func((GDestroyNotify)entry_free);
	for (guint k = 0; k < G_N_ELEMENTS(o->index); k++)
		o->index[k] = g_hash_table_new(g_str_hash, g_str_equal);
	return o;
}

void ad_overview_add(AdOverview *o, AdLevel level, int fix, const char *stype,
		     const char *ttype, guint64 records, double first_seen, double last_seen,
		     GHashTable *hosts)
{
	GHashTableIter it;
	gpointer host, n;
	AdOverviewEntry *e;

	if ((guint)level > AD_LEVEL_RED)
		level = AD_LEVEL_YELLOW;
	if (fix < 0 || fix > AD_FIX_INFO)
		fix = AD_FIX_INFO + 1;
	o->alerts++;
	o->records += records;
	o->alerts_by_level[level]++;
	o->records_by_level[level] += records;
	o->alerts_by_fix[fix]++;
	e = entry(o, 0, stype && *stype ? stype : "?");
	e->alerts++;
	e->records += records;
	e = entry(o, 1, ttype && *ttype ? ttype : "?");
	e->alerts++;
	e->records += records;
	if (hosts) {
		g_hash_table_iter_init(&it, hosts);
		while (g_hash_table_iter_next(&it, &host, &n)) {
			e = entry(o, 2, host);
			e->alerts++;
			e->records += GPOINTER_TO_SIZE(n);
		}
	}
	if (first_seen > 0 && (!o->first_seen || first_seen < o->first_seen))
		o->first_seen = first_seen;
	if (last_seen > o->last_seen)
		o->last_seen = last_seen;
}

void ad_overview_finish(AdOverview *o)
{
	g_ptr_array_sort(o->sources, entry_cmp);
	g_ptr_array_sort(o->targets, entry_cmp);
	g_ptr_array_sort(o->hosts, entry_cmp);
}

void ad_overview_add_alert(AdOverview *o, const AdAlert *a)
{
	int fix = -1;

	if (a->suggestions && a->suggestions->len)
		fix = ((AdSuggestion *)g_ptr_array_index(a->suggestions, 0))->kind;
	ad_overview_add(o, a->level, fix, a->stype, a->ttype, a->count, a->first_seen,
			a->last_seen, a->hosts);
}

void ad_overview_free(AdOverview *o)
{
	if (!o)
		return;
	for (guint k = 0; k < G_N_ELEMENTS(o->index); k++)
		g_hash_table_unref(o->index[k]);
	g_ptr_array_unref(o->sources);
	g_ptr_array_unref(o->targets);
	g_ptr_array_unref(o->hosts);
	g_free(o);
}

static json_object *entries_json(GPtrArray *entries, guint top)
{
	json_object *arr = json_object_new_array();

	for (guint i = 0; i < entries->len && i < top; i++) {
		const AdOverviewEntry *e = g_ptr_array_index(entries, i);
		json_object *x = json_object_new_object();

		/* host names come from records: escaped with the exact bytes beside, as elsewhere */
		ad_json_add_bytes(x, "name", (AdBytes){ e->name, strlen(e->name) });
		json_object_object_add(x, "alerts", json_object_new_uint64(e->alerts));
		json_object_object_add(x, "records", json_object_new_uint64(e->records));
		json_object_array_add(arr, x);
	}
	return arr;
}

static json_object *time_json(double t)
{
	return t > 0 ? json_object_new_double(t) : NULL;
}

json_object *ad_overview_to_json(const AdOverview *o, guint top)
{
	json_object *j = json_object_new_object();
	json_object *levels = json_object_new_object();
	json_object *fixes = json_object_new_object();

	json_object_object_add(j, "type", json_object_new_string("summary"));
	json_object_object_add(j, "alerts", json_object_new_uint64(o->alerts));
	json_object_object_add(j, "records", json_object_new_uint64(o->records));
	for (int l = AD_LEVEL_RED; l >= AD_LEVEL_GREEN; l--) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "alerts", json_object_new_uint64(o->alerts_by_level[l]));
		json_object_object_add(x, "records",
				       json_object_new_uint64(o->records_by_level[l]));
		json_object_object_add(levels, ad_level_name(l), x);
	}
	json_object_object_add(j, "levels", levels);
	for (guint k = 0; k <= AD_FIX_INFO + 1; k++)
		if (o->alerts_by_fix[k])
			json_object_object_add(fixes, k <= AD_FIX_INFO ? ad_fix_kind_name(k)
								       : "none",
					       json_object_new_uint64(o->alerts_by_fix[k]));
	json_object_object_add(j, "fixes", fixes);
	json_object_object_add(j, "sources", entries_json(o->sources, top));
	json_object_object_add(j, "targets", entries_json(o->targets, top));
	json_object_object_add(j, "hosts", entries_json(o->hosts, top));
	json_object_object_add(j, "first_seen", time_json(o->first_seen));
	json_object_object_add(j, "last_seen", time_json(o->last_seen));
	return j;
}

const char *ad_overview_level_text(AdLevel l)
{
	switch (l) {
	case AD_LEVEL_RED:
		return _("red (possible attack)");
	case AD_LEVEL_GREEN:
		return _("green (known fix)");
	default:
		return _("yellow");
	}
}

const char *ad_overview_fix_text(guint k)
{
	static const char *const text[] = {
		[AD_FIX_BOOLEAN] = N_("turn a boolean on or off"),
		[AD_FIX_RELABEL] = N_("restore a label"),
		[AD_FIX_FCONTEXT] = N_("give files a new label"),
		[AD_FIX_PORT] = N_("label a port"),
		[AD_FIX_MODULE] = N_("a local policy module"),
		[AD_FIX_DONTAUDIT] = N_("silence a harmless denial"),
		[AD_FIX_CONFIG] = N_("change the program or its configuration"),
		[AD_FIX_REPORT_BUG] = N_("report a bug"),
		[AD_FIX_ATTACK] = N_("investigate a possible attack"),
		[AD_FIX_INFO] = N_("nothing to change"),
	};

	return k < G_N_ELEMENTS(text) ? _(text[k]) : _("no fix");
}

static char *time_text(double t)
{
	g_autoptr(GDateTime) dt = g_date_time_new_from_unix_utc((gint64)t);

	return dt ? g_date_time_format(dt, "%Y-%m-%d %H:%M:%S UTC") : g_strdup("?");
}

/* "  name<spaces> ": a name column 40 wide on the screen, accents or not */
static void pad_name(GString *out, const char *name)
{
	g_string_append(out, "  ");
	ad_string_append_padded(out, name, 40);
	g_string_append_c(out, ' ');
}

static void render_entries(GString *out, const char *title, GPtrArray *entries, guint top,
			   gboolean hosts)
{
	if (!entries->len)
		return;
	g_string_append_printf(out, "%s\n", title);
	for (guint i = 0; i < entries->len && i < top; i++) {
		const AdOverviewEntry *e = g_ptr_array_index(entries, i);
		/* records without node=: "local", as an alert's Hosts line and --host say */
		g_autofree char *name = ad_escape_str(*e->name ? e->name
							       : hosts ? _("local") : "?");

		pad_name(out, name);
		g_string_append_printf(out, ngettext("%" PRIu64 " denial record",
						     "%" PRIu64 " denial records",
						     e->records), e->records);
		g_string_append_printf(out, ngettext(" in %u alert\n", " in %u alerts\n",
						     e->alerts), e->alerts);
	}
	if (entries->len > top)
		g_string_append_printf(out, ngettext("  and %u more\n", "  and %u more\n",
						     entries->len - top), entries->len - top);
}

void ad_overview_render(GString *out, const AdOverview *o, guint top)
{
	g_string_append(out, _("Overview\n========\n"));
	g_string_append_printf(out, ngettext("%" PRIu64 " denial record",
					     "%" PRIu64 " denial records", o->records),
			       o->records);
	g_string_append_printf(out, ngettext(" in %u alert", " in %u alerts", o->alerts),
			       o->alerts);
	if (o->first_seen > 0) {
		g_autofree char *a = time_text(o->first_seen), *b = time_text(o->last_seen);

		g_string_append_printf(out, _(", from %s to %s"), a, b);
	}
	g_string_append(out, ".\n");
	g_string_append(out, _("By level:\n"));
	for (int l = AD_LEVEL_RED; l >= AD_LEVEL_GREEN; l--) {
		if (!o->alerts_by_level[l])
			continue;
		pad_name(out, ad_overview_level_text(l));
		g_string_append_printf(out, ngettext("%u alert", "%u alerts",
						     o->alerts_by_level[l]), o->alerts_by_level[l]);
		g_string_append_printf(out, ngettext(", %" PRIu64 " record\n",
						     ", %" PRIu64 " records\n",
						     o->records_by_level[l]), o->records_by_level[l]);
	}
	g_string_append(out, _("First fix offered:\n"));
	for (guint k = 0; k <= AD_FIX_INFO + 1; k++) {
		if (!o->alerts_by_fix[k])
			continue;
		pad_name(out, ad_overview_fix_text(k));
		g_string_append_printf(out, ngettext("%u alert\n", "%u alerts\n",
						     o->alerts_by_fix[k]), o->alerts_by_fix[k]);
	}
	render_entries(out, _("Top source domains:"), o->sources, top, FALSE);
	render_entries(out, _("Top targets:"), o->targets, top, FALSE);
	render_entries(out, _("Hosts:"), o->hosts, top, TRUE);
	g_string_append_c(out, '\n');
}
