// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The alert list's rows and size (see list-view.h): how a row is drawn and
 * what its tooltip says, the columns fitted to their texts, the height the
 * rows need, and the browser's remembered choices.
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "list-view.h"

AdAlertItem *ad_list_row_item(GtkTreeModel *tm, GtkTreeIter *it)
{
	AdAlertItem *a = NULL;

	gtk_tree_model_get(tm, it, AD_ROW_ITEM, &a, -1);
	if (a)
		g_object_unref(a);	/* the store keeps it alive */
	return a;
}

static const char *const level_colors[] = { "#1a7f37", "#9a6700", "#c01c28" };

/* a group row: its worst level, "httpd_t — 3 alerts", its denial records, its newest time */
static void render_group(GtkCellRenderer *cell, AdColumn c, GtkTreeModel *tm, GtkTreeIter *it)
{
	g_autofree char *source = NULL, *owned = NULL;
	const char *text = "";
	guint64 records = 0;
	guint n = 0;
	int level = AD_LEVEL_GREEN;
	double last_seen = 0;

	gtk_tree_model_get(tm, it, AD_ROW_GROUP, &source, AD_ROW_N_ALERTS, &n, AD_ROW_RECORDS, &records,
			   AD_ROW_LEVEL, &level, AD_ROW_LAST_SEEN, &last_seen, -1);
	switch (c) {
	case AD_COLUMN_LEVEL:
		text = ad_level_label(level);
		break;
	case AD_COLUMN_SUMMARY:
		/* TRANSLATORS: a group of the list: the source domain and its alerts */
		text = owned = g_strdup_printf(ngettext("%s — %u alert", "%s — %u alerts", n),
					       source && *source ? source : "?", n);
		break;
	case AD_COLUMN_COUNT:
		text = owned = g_strdup_printf("%" G_GUINT64_FORMAT, records);
		break;
	case AD_COLUMN_LAST_SEEN:
		text = owned = ad_format_time(last_seen);
		break;
	default:	/* the Source column would only repeat the group's name */
		break;
	}
	g_object_set(cell, "text", text, "style", PANGO_STYLE_NORMAL, "weight",
		     PANGO_WEIGHT_BOLD, NULL);
	if (c == AD_COLUMN_LEVEL)
		g_object_set(cell, "foreground", level_colors[level % 3], NULL);
}

void ad_list_render_cell(GtkTreeViewColumn *col, GtkCellRenderer *cell, GtkTreeModel *tm,
			GtkTreeIter *it, gpointer data)
{
	AdColumn c = GPOINTER_TO_INT(data);
	AdAlertItem *a = ad_list_row_item(tm, it);
	g_autofree char *owned = NULL;
	const char *text = "";

	(void)col;
	if (!a) {
		render_group(cell, c, tm, it);
		return;
	}
	switch (c) {
	case AD_COLUMN_LEVEL:
		text = ad_level_label(ad_alert_item_get_level(a));
		break;
	case AD_COLUMN_SUMMARY:
		text = ad_alert_item_get_headline(a);
		break;
	case AD_COLUMN_SOURCE:
		text = ad_alert_item_get_source(a);
		break;
	case AD_COLUMN_TARGET:
		text = ad_alert_item_get_target(a);
		break;
	case AD_COLUMN_CLASS:
		text = ad_alert_item_get_tclass(a);
		break;
	case AD_COLUMN_PERMISSIONS:
		text = ad_alert_item_get_perms(a);
		break;
	case AD_COLUMN_COUNT:
		text = owned = g_strdup_printf("%" G_GUINT64_FORMAT, ad_alert_item_get_count(a));
		break;
	case AD_COLUMN_LAST_SEEN:
		text = owned = ad_format_time(ad_alert_item_get_last_seen(a));
		break;
	case AD_COLUMN_HOST:
		text = ad_alert_item_get_hosts_text(a);
		break;
	case AD_N_COLUMNS:
		break;
	}
	/* "text", never "markup": the summary holds record text */
	g_object_set(cell, "text", text, "style",
		     ad_alert_item_get_ignored(a) ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL,
		     "weight", c == AD_COLUMN_LEVEL ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL, NULL);
	if (c == AD_COLUMN_LEVEL)
		g_object_set(cell, "foreground", level_colors[ad_alert_item_get_level(a) % 3],
			     NULL);
}

/* the text of column @c for alert @a, as render_cell shows it (the columns fitted) */
static const char *column_text(AdAlertItem *a, AdColumn c)
{
	switch (c) {
	case AD_COLUMN_SOURCE:
		return ad_alert_item_get_source(a);
	case AD_COLUMN_TARGET:
		return ad_alert_item_get_target(a);
	case AD_COLUMN_CLASS:
		return ad_alert_item_get_tclass(a);
	case AD_COLUMN_PERMISSIONS:
		return ad_alert_item_get_perms(a);
	case AD_COLUMN_HOST:
		return ad_alert_item_get_hosts_text(a);
	default:
		return NULL;
	}
}

/* the width of @text in the list's font, in pixels */
static int text_width(GtkTreeView *view, const char *text)
{
	g_autoptr(PangoLayout) l = gtk_widget_create_pango_layout(GTK_WIDGET(view), text);
	int width = 0;

	pango_layout_get_pixel_size(l, &width, NULL);
	return width;
}

/*
 * The columns of types, class, permissions and hosts as wide as their
 * longest text (not truncated needlessly), each at most a share of the
 * list's width so that the Summary column keeps the rest; a column with
 * short texts gives its room to the Summary.
 */
void ad_list_fit_columns(GtkTreeView *view, GtkTreeViewColumn *const *columns, GPtrArray *all)
{
	static const struct {
		AdColumn c;
		int min;
		double share;
	} fit[] = {
		{ AD_COLUMN_SOURCE, 60, 0.13 }, { AD_COLUMN_TARGET, 60, 0.13 },
		{ AD_COLUMN_CLASS, 50, 0.07 }, { AD_COLUMN_PERMISSIONS, 60, 0.10 },
		{ AD_COLUMN_HOST, 40, 0.08 },
	};
	int view_width = gtk_widget_get_allocated_width(GTK_WIDGET(view));

	if (view_width < 100)
		view_width = 1024;
	for (guint k = 0; k < G_N_ELEMENTS(fit); k++) {
		g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
		GtkTreeViewColumn *col = columns[fit[k].c];
		/* the header's button has padding of its own */
		int need = text_width(view, gtk_tree_view_column_get_title(col)) + 28;
		int cap = MAX((int)(view_width * fit[k].share), 95);

		for (guint i = 0; i < all->len && need < cap; i++) {
			const char *t = column_text(g_ptr_array_index(all, i), fit[k].c);

			if (!t || !*t || !g_hash_table_add(seen, (gpointer)t))
				continue;
			need = MAX(need, text_width(view, t) + 16);
		}
		gtk_tree_view_column_set_fixed_width(col, CLAMP(need, fit[k].min, cap));
	}
	/*
	 * the Summary column: what the others leave, never more (a long line
	 * would otherwise widen the list past the window); it ellipsizes
	 */
	{
		int others = 0;

		for (guint i = 0; i < AD_N_COLUMNS; i++) {
			if (i == AD_COLUMN_SUMMARY)
				continue;
			others += gtk_tree_view_column_get_sizing(columns[i]) ==
						  GTK_TREE_VIEW_COLUMN_FIXED
					  ? gtk_tree_view_column_get_fixed_width(columns[i])
					  : gtk_tree_view_column_get_width(columns[i]);
		}
		gtk_tree_view_column_set_fixed_width(columns[AD_COLUMN_SUMMARY],
						     MAX(170, view_width - others - 8));
	}
}

int ad_list_wanted_height(GtkTreeView *view, int height)
{
	GtkTreeModel *tm = gtk_tree_view_get_model(view);
	int rows = tm ? gtk_tree_model_iter_n_children(tm, NULL) : 0;
	int header = 0, row = 26, want;
	GdkRectangle rect;

	if (height < 100)
		return -1;
	gtk_tree_view_convert_bin_window_to_widget_coords(view, 0, 0, NULL, &header);
	if (rows > 0 && gtk_widget_get_realized(GTK_WIDGET(view))) {
		g_autoptr(GtkTreePath) first = gtk_tree_path_new_first();

		gtk_tree_view_get_background_area(view, first, NULL, &rect);
		if (rect.height > 8)
			row = rect.height;
	}
	/* the frame, and room for a horizontal scroll bar */
	want = header + MAX(rows, 3) * row + 8;
	return MIN(want, height * 3 / 5);
}

/* a row's tooltip: the whole summary and both contexts (the list shows them cut) */
gboolean ad_list_query_tooltip(GtkWidget *widget, int x, int y, gboolean keyboard,
			       GtkTooltip *tip, gpointer data)
{
	g_autoptr(GtkTreePath) path = NULL;
	g_autofree char *text = NULL;
	GtkTreeModel *tm;
	GtkTreeIter it;
	AdAlertItem *a;

	if (!gtk_tree_view_get_tooltip_context(GTK_TREE_VIEW(widget), &x, &y, keyboard, &tm,
					       &path, &it))
		return FALSE;
	a = ad_list_row_item(tm, &it);
	if (a) {
		const AdDenialDoc *d = ad_alert_item_get_doc(a)->denial;
		g_autofree char *scontext = NULL, *tcontext = NULL;

		if (d && d->scontext)
			scontext = ad_clean_text(d->scontext);
		if (d && d->tcontext)
			tcontext = ad_clean_text(d->tcontext);
		/* TRANSLATORS: a row's tooltip: the summary, the source and target contexts */
		text = g_strdup_printf(_("%s\nSource: %s\nTarget: %s"),
				       ad_alert_item_get_summary(a), scontext ? scontext : "?",
				       tcontext ? tcontext : "?");
	} else {
		g_autofree char *source = NULL;
		guint n = 0;
		guint64 records = 0;

		gtk_tree_model_get(tm, &it, AD_ROW_GROUP, &source, AD_ROW_N_ALERTS, &n, AD_ROW_RECORDS,
				   &records, -1);
		/* TRANSLATORS: a group row's tooltip: source domain, its alerts, its records */
		text = g_strdup_printf(ngettext("%s: %u alert, %" PRIu64 " denial records",
						"%s: %u alerts, %" PRIu64 " denial records", n),
				       source && *source ? source : "?", n, records);
	}
	gtk_tooltip_set_text(tip, text);
	gtk_tree_view_set_tooltip_row(GTK_TREE_VIEW(widget), tip, path);
	(void)data;
	return TRUE;
}

/* the browser's remembered choices: a key file in the user's configuration directory */
static char *prefs_path(void)
{
	return g_build_filename(g_get_user_config_dir(), "avcdoctor", "browser.ini", NULL);
}

gboolean ad_prefs_get_bool(const char *key)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *path = prefs_path();

	return g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL) &&
	       g_key_file_get_boolean(kf, "view", key, NULL);
}

/* a choice that cannot be saved is only forgotten at the next start */
void ad_prefs_set_bool(const char *key, gboolean value)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *path = prefs_path();
	g_autofree char *dir = g_path_get_dirname(path);

	g_key_file_load_from_file(kf, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
	g_key_file_set_boolean(kf, "view", key, value);
	if (g_mkdir_with_parents(dir, 0700) == 0)
		g_key_file_save_to_file(kf, path, NULL);
}

/* a remembered number, or @def */
int ad_prefs_get_int(const char *key, int def)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *path = prefs_path();
	g_autoptr(GError) error = NULL;
	int v;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL))
		return def;
	v = g_key_file_get_integer(kf, "view", key, &error);
	return error ? def : v;
}

void ad_prefs_set_int(const char *key, int value)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *path = prefs_path();
	g_autofree char *dir = g_path_get_dirname(path);

	g_key_file_load_from_file(kf, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
	g_key_file_set_integer(kf, "view", key, value);
	if (g_mkdir_with_parents(dir, 0700) == 0)
		g_key_file_save_to_file(kf, path, NULL);
}

