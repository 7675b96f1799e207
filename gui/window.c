// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AdBrowserWindow: the filter bar, the alert list and the detail pane.
 *
 * The list is a GtkTreeView over a GtkTreeStore that mirrors the view of
 * an AdAlertModel (items-changed, row for row): the model decides what is
 * shown and in which order, so what the unit test checks is what the user
 * sees.  Grouped by source domain, the store holds a row per group
 * (ad_alert_groups_new) with the group's alerts below it, rebuilt once per
 * burst of changes.  Column headers set the model's sort; the filter bar
 * its filter; a bar of the overview's chart its time span.  The selected
 * alert is remembered by id, so a live update or a re-sort keeps it
 * selected; with none selected, the overview takes the detail pane's place.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "alert-model.h"
#include "dbus-source.h"
#include "detail-pane.h"
#include "file-source.h"
#include "list-view.h"
#include "overview-model.h"
#include "overview-pane.h"
#include "window.h"

typedef enum { AD_MODE_NONE, AD_MODE_LIVE, AD_MODE_FILES } AdMode;


/* the time combo's entries; the last only while a bar of the chart is chosen */
#define TIME_SPAN_ENTRY 5

#define LEVEL_G (1u << AD_LEVEL_GREEN)
#define LEVEL_Y (1u << AD_LEVEL_YELLOW)
#define LEVEL_R (1u << AD_LEVEL_RED)
/*
 * The level combo's entries as sets of levels (0: all); the window's .ui
 * lists the first three, and --level adds the one it asks for when it is
 * another (LEVEL_EXTRA_ENTRY).
 */
static const struct {
	guint levels;
	const char *name;
} level_choices[] = {
	{ 0, N_("All levels") },
	{ LEVEL_Y | LEVEL_R, N_("Yellow and red") },
	{ LEVEL_R, N_("Red only") },
	{ LEVEL_Y, N_("Yellow only") },
	{ LEVEL_G, N_("Green only") },
	{ LEVEL_G | LEVEL_Y, N_("Green and yellow") },
	{ LEVEL_G | LEVEL_R, N_("Green and red") },
};
#define LEVEL_EXTRA_ENTRY 3

struct _AdBrowserWindow {
	GtkApplicationWindow parent_instance;
	/* template children */
	GtkInfoBar *info_bar;
	GtkLabel *info_label;
	GtkSearchEntry *search_entry;
	GtkComboBoxText *host_combo;
	GtkComboBoxText *level_combo;
	GtkComboBoxText *time_combo;
	GtkTreeView *alert_view;
	GtkPaned *paned;
	AdDetailPane *detail_pane;
	GtkStack *pane_stack;
	AdOverviewPane *overview_pane;
	GtkLabel *status_label;

	GtkTreeStore *store;
	GtkTreeViewColumn *columns[AD_N_COLUMNS];
	AdAlertModel *model;
	AdMode mode;
	AdDbusSource *dbus;
	GStrv files;
	char *policy;
	char *file_contexts;
	AdFileReport *report;
	GCancellable *analysis;		/* the file analysis in flight */
	char *selected_id;
	char *wanted_id;		/* --alert: select once it is there */
	gboolean syncing;		/* the store is being changed: ignore selection signals */
	gboolean info_from_status;	/* the info bar shows the daemon's status */
	gboolean show_ignored;
	char *clipboard_file;		/* pasted text, in a private file while shown */
	gboolean grouped;		/* rows grouped by source domain */
	GHashTable *expanded;		/* the source domains whose group is open */
	GHashTable *rows;		/* grouped: alert id -> its tree path ("3:12") */
	guint regroup_id;		/* the idle that rebuilds the groups */
	guint overview_id;		/* the idle that recounts the overview */
	double span_since, span_until;	/* the chart's bar the list is limited to, or 0 */
	gboolean pane_chosen;		/* the user placed the divider (remembered) */
	gboolean pane_setting;		/* the window moves the divider itself */
	guint pane_save_id;		/* the timeout that remembers where the user put it */
	guint fit_id;			/* the idle that fits the list's height and columns */
	int fitted_width;		/* the list's width the columns were fitted to */
	gboolean announce_listed;	/* the alerts are in: say so once fitted */
	guint overview_alerts;		/* the alerts the overview counted last */
	/* a notification's batch (--ids, --since): only its alerts, until "Show all" */
	AdAlertBatch batch;
	GtkInfoBar *batch_bar;
	GtkLabel *batch_label;
	guint extra_levels;		/* the levels of the combo's entry --level added, or 0 */
};

G_DEFINE_TYPE(AdBrowserWindow, ad_browser_window, GTK_TYPE_APPLICATION_WINDOW)

/* what the window shows, for the title and status: the file names, or the pasted text */
static char *files_label(const AdBrowserWindow *w)
{
	if (w->clipboard_file && w->files && g_strv_length(w->files) == 1 &&
	    strcmp(w->files[0], w->clipboard_file) == 0)
		return g_strdup(_("text from the clipboard"));
	return g_strjoinv(", ", w->files);
}

static void update_status(AdBrowserWindow *w);
static void sync_selection(AdBrowserWindow *w);
static void schedule_overview(AdBrowserWindow *w);
static void flush_groups(AdBrowserWindow *w);
static void schedule_fit(AdBrowserWindow *w);

/* the info bar: @text shown as plain text; NULL hides it */
static void show_info(AdBrowserWindow *w, GtkMessageType type, const char *text)
{
	w->info_from_status = FALSE;
	if (!text) {
		gtk_info_bar_set_revealed(w->info_bar, FALSE);
		return;
	}
	gtk_label_set_text(w->info_label, text);
	gtk_info_bar_set_message_type(w->info_bar, type);
	gtk_info_bar_set_revealed(w->info_bar, TRUE);
}

/* adds @text below what the info bar shows, keeping the graver of the two types */
static void add_info(AdBrowserWindow *w, GtkMessageType type, const char *text)
{
	g_autofree char *joined = NULL;
	GtkMessageType cur = gtk_info_bar_get_message_type(w->info_bar);

	if (!gtk_info_bar_get_revealed(w->info_bar)) {
		show_info(w, type, text);
		return;
	}
	joined = g_strdup_printf("%s\n%s", gtk_label_get_text(w->info_label), text);
	show_info(w, cur == GTK_MESSAGE_ERROR || type == GTK_MESSAGE_ERROR ? GTK_MESSAGE_ERROR
									   : GTK_MESSAGE_WARNING,
		  joined);
}

static void on_info_response(GtkInfoBar *bar, int response, AdBrowserWindow *w)
{
	(void)response;
	(void)w;
	gtk_info_bar_set_revealed(bar, FALSE);
}

static void on_filter_changed(AdBrowserWindow *w);

/* "Show all alerts": the notification's batch is forgotten */
static void on_batch_response(GtkInfoBar *bar, int response, AdBrowserWindow *w)
{
	(void)response;
	gtk_info_bar_set_revealed(bar, FALSE);
	g_clear_pointer(&w->batch.ids, g_hash_table_unref);
	w->batch.since = 0;
	on_filter_changed(w);
	schedule_overview(w);
}

void ad_browser_window_set_batch(AdBrowserWindow *w, const char *const *ids, double since)
{
	g_autofree char *text = NULL;
	guint n = 0;

	g_clear_pointer(&w->batch.ids, g_hash_table_unref);
	if (ids && ids[0]) {
		w->batch.ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		for (guint i = 0; ids[i]; i++)
			g_hash_table_add(w->batch.ids, g_strdup(ids[i]));
		n = g_hash_table_size(w->batch.ids);
	}
	w->batch.since = since;
	if (w->batch.ids) {
		/* TRANSLATORS: the bar over a list limited to what a notification told */
		text = g_strdup_printf(ngettext("Only the %u alert of the notification is shown.",
						"Only the %u alerts of the notification are shown.",
						n), n);
	} else if (since > 0) {
		g_autofree char *when = ad_format_time(since);

		text = g_strdup_printf(_("Only the alerts seen since %s are shown."), when);
	}
	gtk_label_set_text(w->batch_label, text ? text : "");
	gtk_info_bar_set_revealed(w->batch_bar, text != NULL);
	on_filter_changed(w);
	schedule_overview(w);
}

void ad_browser_window_set_levels(AdBrowserWindow *w, guint levels)
{
	guint i = 0;

	if ((levels & AD_LEVELS_ALL) == AD_LEVELS_ALL)
		levels = 0;
	while (i < G_N_ELEMENTS(level_choices) && level_choices[i].levels != levels)
		i++;
	if (i == G_N_ELEMENTS(level_choices))
		return;
	g_signal_handlers_block_by_func(w->level_combo, on_filter_changed, w);
	if (w->extra_levels)
		gtk_combo_box_text_remove(w->level_combo, LEVEL_EXTRA_ENTRY);
	w->extra_levels = 0;
	if (i >= LEVEL_EXTRA_ENTRY) {
		gtk_combo_box_text_append_text(w->level_combo, _(level_choices[i].name));
		w->extra_levels = levels;
		i = LEVEL_EXTRA_ENTRY;
	}
	gtk_combo_box_set_active(GTK_COMBO_BOX(w->level_combo), (int)i);
	g_signal_handlers_unblock_by_func(w->level_combo, on_filter_changed, w);
	on_filter_changed(w);
}

/* ---- the list ---------------------------------------------------------------- */

/* the groups again from the model's view; the groups open before stay open */
static void rebuild_groups(AdBrowserWindow *w)
{
	g_autoptr(GPtrArray) groups = ad_alert_groups_new(G_LIST_MODEL(w->model));
	GtkTreeModel *tm = GTK_TREE_MODEL(w->store);

	w->syncing = TRUE;
	g_object_ref(w->store);
	gtk_tree_view_set_model(w->alert_view, NULL);
	gtk_tree_store_clear(w->store);
	g_hash_table_remove_all(w->rows);
	for (guint i = 0; i < groups->len; i++) {
		AdAlertGroup *g = g_ptr_array_index(groups, i);
		GtkTreeIter parent;

		gtk_tree_store_insert_with_values(w->store, &parent, NULL, (int)i, AD_ROW_GROUP,
						  g->source, AD_ROW_N_ALERTS, g->items->len,
						  AD_ROW_RECORDS, g->records, AD_ROW_LEVEL, g->level,
						  AD_ROW_LAST_SEEN, g->last_seen, -1);
		for (guint j = 0; j < g->items->len; j++) {
			AdAlertItem *a = g_ptr_array_index(g->items, j);

			gtk_tree_store_insert_with_values(w->store, NULL, &parent, (int)j,
							  AD_ROW_ITEM, a, -1);
			g_hash_table_insert(w->rows, g_strdup(ad_alert_item_get_id(a)),
					    g_strdup_printf("%u:%u", i, j));
		}
	}
	gtk_tree_view_set_model(w->alert_view, tm);
	g_object_unref(w->store);
	for (guint i = 0; i < groups->len; i++) {
		AdAlertGroup *g = g_ptr_array_index(groups, i);

		if (g_hash_table_contains(w->expanded, g->source)) {
			g_autoptr(GtkTreePath) path = gtk_tree_path_new_from_indices((int)i, -1);

			gtk_tree_view_expand_row(w->alert_view, path, FALSE);
		}
	}
	w->syncing = FALSE;
}

static gboolean regroup_idle(gpointer data)
{
	AdBrowserWindow *w = data;

	w->regroup_id = 0;
	rebuild_groups(w);
	sync_selection(w);
	return G_SOURCE_REMOVE;
}

/* a pending rebuild of the groups done now (a path is about to be looked up) */
static void flush_groups(AdBrowserWindow *w)
{
	if (!w->regroup_id)
		return;
	g_source_remove(w->regroup_id);
	w->regroup_id = 0;
	rebuild_groups(w);
}

/* the store anew from the model's view: flat, or grouped */
static void refill(AdBrowserWindow *w)
{
	guint n = g_list_model_get_n_items(G_LIST_MODEL(w->model));
	GtkTreeModel *tm = GTK_TREE_MODEL(w->store);

	if (w->regroup_id) {
		g_source_remove(w->regroup_id);
		w->regroup_id = 0;
	}
	if (w->grouped) {
		rebuild_groups(w);
	} else {
		w->syncing = TRUE;
		g_object_ref(w->store);
		gtk_tree_view_set_model(w->alert_view, NULL);
		gtk_tree_store_clear(w->store);
		for (guint i = 0; i < n; i++) {
			g_autoptr(AdAlertItem) a = g_list_model_get_item(G_LIST_MODEL(w->model), i);

			gtk_tree_store_insert_with_values(w->store, NULL, NULL, (int)i, AD_ROW_ITEM, a,
							  -1);
		}
		gtk_tree_view_set_model(w->alert_view, tm);
		g_object_unref(w->store);
		w->syncing = FALSE;
	}
	schedule_fit(w);
	sync_selection(w);
}

/* the tree path of the alert @id, or NULL when it is not listed */
static GtkTreePath *alert_path(AdBrowserWindow *w, const char *id)
{
	int pos = ad_alert_model_find(w->model, id);
	const char *row;

	if (pos < 0)
		return NULL;
	if (!w->grouped)
		return gtk_tree_path_new_from_indices(pos, -1);
	flush_groups(w);
	row = g_hash_table_lookup(w->rows, id);
	return row ? gtk_tree_path_new_from_string(row) : NULL;
}

/* remembers which groups are open, for the next rebuild */
static void on_row_expanded(GtkTreeView *v, GtkTreeIter *it, GtkTreePath *path,
			    AdBrowserWindow *w)
{
	g_autofree char *source = NULL;

	(void)path;
	if (w->syncing)
		return;
	gtk_tree_model_get(gtk_tree_view_get_model(v), it, AD_ROW_GROUP, &source, -1);
	if (source)
		g_hash_table_add(w->expanded, g_steal_pointer(&source));
}

static void on_row_collapsed(GtkTreeView *v, GtkTreeIter *it, GtkTreePath *path,
			     AdBrowserWindow *w)
{
	g_autofree char *source = NULL;

	(void)path;
	if (w->syncing)
		return;
	gtk_tree_model_get(gtk_tree_view_get_model(v), it, AD_ROW_GROUP, &source, -1);
	if (source)
		g_hash_table_remove(w->expanded, source);
}

/* Enter or a double click on a group opens or closes it */
static void on_row_activated(GtkTreeView *v, GtkTreePath *path, GtkTreeViewColumn *col,
			     AdBrowserWindow *w)
{
	GtkTreeIter it;

	(void)col, (void)w;
	if (!gtk_tree_model_get_iter(gtk_tree_view_get_model(v), &it, path) ||
	    ad_list_row_item(gtk_tree_view_get_model(v), &it))
		return;
	if (gtk_tree_view_row_expanded(v, path))
		gtk_tree_view_collapse_row(v, path);
	else
		gtk_tree_view_expand_row(v, path, FALSE);
}

/* mirrors the model's view into the store, row for row (grouped: rebuilt once idle) */
static void on_items_changed(GListModel *list, guint pos, guint removed, guint added,
			     AdBrowserWindow *w)
{
	GtkTreeModel *tm = GTK_TREE_MODEL(w->store);
	gboolean big = removed + added > 200;
	GtkTreeIter it;

	schedule_overview(w);
	schedule_fit(w);
	if (w->grouped) {
		if (!w->regroup_id)
			w->regroup_id = g_idle_add(regroup_idle, w);
		update_status(w);
		return;
	}
	w->syncing = TRUE;
	if (big) {
		g_object_ref(w->store);
		gtk_tree_view_set_model(w->alert_view, NULL);
	}
	if (removed == added) {
		for (guint i = 0; i < added; i++) {
			g_autoptr(AdAlertItem) a = g_list_model_get_item(list, pos + i);

			if (gtk_tree_model_iter_nth_child(tm, &it, NULL, pos + i))
				gtk_tree_store_set(w->store, &it, AD_ROW_ITEM, a, -1);
		}
	} else {
		if (pos == 0 && removed == (guint)gtk_tree_model_iter_n_children(tm, NULL))
			gtk_tree_store_clear(w->store);
		else
			for (guint i = 0; i < removed; i++)
				if (gtk_tree_model_iter_nth_child(tm, &it, NULL, pos))
					gtk_tree_store_remove(w->store, &it);
		for (guint i = 0; i < added; i++) {
			g_autoptr(AdAlertItem) a = g_list_model_get_item(list, pos + i);

			gtk_tree_store_insert_with_values(w->store, NULL, NULL, pos + i, AD_ROW_ITEM,
							  a, -1);
		}
	}
	if (big) {
		gtk_tree_view_set_model(w->alert_view, tm);
		g_object_unref(w->store);
	}
	w->syncing = FALSE;
	sync_selection(w);
	update_status(w);
}

/* the alert remembered by id is selected and shown, when the filter lets it be */
static void sync_selection(AdBrowserWindow *w)
{
	GtkTreeSelection *sel = gtk_tree_view_get_selection(w->alert_view);
	g_autoptr(GtkTreePath) path = alert_path(w, w->selected_id);
	gboolean can_change = w->mode == AD_MODE_LIVE && path;
	GActionMap *map = G_ACTION_MAP(w);

	w->syncing = TRUE;
	if (path) {
		if (!gtk_tree_selection_path_is_selected(sel, path)) {
			gtk_tree_view_expand_to_path(w->alert_view, path);
			gtk_tree_selection_select_path(sel, path);
			gtk_tree_view_scroll_to_cell(w->alert_view, path, NULL, FALSE, 0, 0);
		}
		ad_detail_pane_show(w->detail_pane, ad_alert_model_lookup(w->model,
									  w->selected_id));
		gtk_stack_set_visible_child_name(w->pane_stack, "alert");
	} else {
		/* a group row may stay selected: it is no alert */
		if (w->selected_id)
			gtk_tree_selection_unselect_all(sel);
		ad_detail_pane_show(w->detail_pane, NULL);
		gtk_stack_set_visible_child_name(w->pane_stack, "overview");
	}
	w->syncing = FALSE;
	g_simple_action_set_enabled(G_SIMPLE_ACTION(g_action_map_lookup_action(map, "ignore")),
				    can_change);
	g_simple_action_set_enabled(G_SIMPLE_ACTION(g_action_map_lookup_action(map, "delete")),
				    can_change);
}

static void on_selection_changed(GtkTreeSelection *sel, AdBrowserWindow *w)
{
	GtkTreeModel *tm;
	GtkTreeIter it;

	if (w->syncing)
		return;
	g_free(w->selected_id);
	w->selected_id = NULL;
	/* a group row is no alert: the overview stays */
	if (gtk_tree_selection_get_selected(sel, &tm, &it) && ad_list_row_item(tm, &it))
		w->selected_id = g_strdup(ad_alert_item_get_id(ad_list_row_item(tm, &it)));
	sync_selection(w);
}

/* a header click sorts by that column; again reverses the order */
static void on_column_clicked(GtkTreeViewColumn *col, AdBrowserWindow *w)
{
	AdColumn c = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(col), "ad-column"));
	AdColumn cur;
	gboolean desc;

	ad_alert_model_get_sort(w->model, &cur, &desc);
	if (c == cur)
		desc = !desc;
	else	/* numbers, times and levels: biggest first; text: A to Z */
		desc = c == AD_COLUMN_LEVEL || c == AD_COLUMN_COUNT || c == AD_COLUMN_LAST_SEEN;
	ad_alert_model_set_sort(w->model, c, desc);
	for (guint i = 0; i < AD_N_COLUMNS; i++)
		gtk_tree_view_column_set_sort_indicator(w->columns[i], i == c);
	/* GTK's arrow convention: descending shows as GTK_SORT_DESCENDING */
	gtk_tree_view_column_set_sort_order(col, desc ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

/* the divider moved by the window, not the user */
static void set_pane(AdBrowserWindow *w, int pos)
{
	w->pane_setting = TRUE;
	gtk_paned_set_position(w->paned, pos);
	w->pane_setting = FALSE;
}

/*
 * The divider where the list shows all its rows, between three rows and
 * three fifths of the window's height, unless the user placed it (then it
 * stays where it was put, remembered across starts).
 */
static void fit_pane(AdBrowserWindow *w)
{
	int want;

	if (w->pane_chosen)
		return;
	want = ad_list_wanted_height(w->alert_view,
				     gtk_widget_get_allocated_height(GTK_WIDGET(w->paned)));
	if (want > 0 && gtk_paned_get_position(w->paned) != want)
		set_pane(w, want);
}

static gboolean fit_idle(gpointer data)
{
	AdBrowserWindow *w = data;

	g_autoptr(GPtrArray) all = ad_alert_model_get_all(w->model);

	w->fit_id = 0;
	w->fitted_width = gtk_widget_get_allocated_width(GTK_WIDGET(w->alert_view));
	ad_list_fit_columns(w->alert_view, w->columns, all);
	fit_pane(w);
	/*
	 * G_MESSAGES_DEBUG=avcdoctor-browser: when a test may look (this idle
	 * runs after the overview's, at a lower priority)
	 */
	if (w->announce_listed && w->overview_id) {
		schedule_fit(w);
	} else if (w->announce_listed) {
		w->announce_listed = FALSE;
		g_log("avcdoctor-browser", G_LOG_LEVEL_DEBUG,
		      "listed %u alerts, %u shown, %u in the overview",
		      ad_alert_model_get_total(w->model),
		      g_list_model_get_n_items(G_LIST_MODEL(w->model)), w->overview_alerts);
	}
	return G_SOURCE_REMOVE;
}

/* the list fitted again once the burst of changes is over */
static void schedule_fit(AdBrowserWindow *w)
{
	if (!w->fit_id)
		w->fit_id = g_idle_add_full(G_PRIORITY_LOW, fit_idle, w, NULL);
}

static gboolean save_pane(gpointer data)
{
	AdBrowserWindow *w = data;

	w->pane_save_id = 0;
	ad_prefs_set_int("pane-position", gtk_paned_get_position(w->paned));
	return G_SOURCE_REMOVE;
}

/*
 * The divider moved: by the user when the paned kept its height (a resize
 * moves it too, inside the paned's allocation, before the height seen last
 * is updated), then remembered half a second later.
 */
static void on_pane_moved(GtkPaned *paned, GParamSpec *pspec, AdBrowserWindow *w)
{
	int height = gtk_widget_get_allocated_height(GTK_WIDGET(paned));

	(void)pspec;
	if (w->pane_setting || height < 100 ||
	    height != GPOINTER_TO_INT(g_object_get_data(G_OBJECT(paned), "ad-height")))
		return;
	w->pane_chosen = TRUE;
	if (w->pane_save_id)
		g_source_remove(w->pane_save_id);
	w->pane_save_id = g_timeout_add(500, save_pane, w);
}

/* a new size: the columns' shares and the list's height again */
static void on_list_allocated(GtkWidget *widget, GdkRectangle *alloc, AdBrowserWindow *w)
{
	int old = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(widget), "ad-height"));

	g_object_set_data(G_OBJECT(widget), "ad-height", GINT_TO_POINTER(alloc->height));
	if (GTK_IS_PANED(widget) ? alloc->height != old
				 : alloc->width != w->fitted_width)
		schedule_fit(w);
}

static void add_columns(AdBrowserWindow *w)
{
	static const char *const titles[AD_N_COLUMNS] = {
		N_("Level"), N_("Summary"), N_("Source"), N_("Target"), N_("Class"),
		N_("Permissions"), N_("Count"), N_("Last seen"), N_("Host"),
	};

	for (guint i = 0; i < AD_N_COLUMNS; i++) {
		GtkCellRenderer *cell = gtk_cell_renderer_text_new();
		GtkTreeViewColumn *col = gtk_tree_view_column_new();

		gtk_tree_view_column_set_title(col, _(titles[i]));
		gtk_tree_view_column_pack_start(col, cell, TRUE);
		gtk_tree_view_column_set_cell_data_func(col, cell, ad_list_render_cell,
							GINT_TO_POINTER(i), NULL);
		gtk_tree_view_column_set_resizable(col, TRUE);
		gtk_tree_view_column_set_clickable(col, TRUE);
		g_object_set_data(G_OBJECT(col), "ad-column", GINT_TO_POINTER(i));
		g_signal_connect(col, "clicked", G_CALLBACK(on_column_clicked), w);
		if (i == AD_COLUMN_SUMMARY) {
			g_object_set(cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
			gtk_tree_view_column_set_expand(col, TRUE);
			gtk_tree_view_column_set_min_width(col, 170);
			/* fitted to what the others leave (ad_list_fit_columns) */
			gtk_tree_view_column_set_sizing(col, GTK_TREE_VIEW_COLUMN_FIXED);
			gtk_tree_view_column_set_fixed_width(col, 300);
		}
		if (i == AD_COLUMN_COUNT)
			g_object_set(cell, "xalign", 1.0, NULL);
		/*
		 * fixed widths, fitted to their texts (ad_list_fit_columns): the
		 * Summary column takes what is left (its tooltip and the
		 * detail pane show the whole text)
		 */
		if (i == AD_COLUMN_SOURCE || i == AD_COLUMN_TARGET || i == AD_COLUMN_HOST ||
		    i == AD_COLUMN_CLASS || i == AD_COLUMN_PERMISSIONS) {
			g_object_set(cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
			gtk_tree_view_column_set_fixed_width(col, i == AD_COLUMN_CLASS ? 70
								 : i == AD_COLUMN_HOST ? 75 : 95);
			gtk_tree_view_column_set_sizing(col, GTK_TREE_VIEW_COLUMN_FIXED);
		}
		gtk_tree_view_append_column(w->alert_view, col);
		w->columns[i] = col;
	}
	gtk_tree_view_column_set_sort_indicator(w->columns[AD_COLUMN_LAST_SEEN], TRUE);
	gtk_tree_view_column_set_sort_order(w->columns[AD_COLUMN_LAST_SEEN], GTK_SORT_DESCENDING);
}

/* ---- filters and status ------------------------------------------------------- */

static void on_filter_changed(AdBrowserWindow *w)
{
	static const double periods[] = { 0, 3600, 24 * 3600, 7 * 24 * 3600, 30 * 24 * 3600 };
	int t = gtk_combo_box_get_active(GTK_COMBO_BOX(w->time_combo));
	int level = gtk_combo_box_get_active(GTK_COMBO_BOX(w->level_combo));
	g_autofree char *host = NULL;
	AdAlertFilter f = { 0 };

	if (!w->model)
		return;
	if (t == TIME_SPAN_ENTRY && w->span_since > 0) {
		f.since = w->span_since;
		f.until = w->span_until;
	} else if (w->span_since > 0) {
		/* another period chosen: the chart's bar is forgotten */
		w->span_since = w->span_until = 0;
		g_signal_handlers_block_by_func(w->time_combo, on_filter_changed, w);
		gtk_combo_box_text_remove(w->time_combo, TIME_SPAN_ENTRY);
		g_signal_handlers_unblock_by_func(w->time_combo, on_filter_changed, w);
		ad_overview_pane_set_chosen(w->overview_pane, 0);
	}
	/* the first entry is "All hosts" */
	if (gtk_combo_box_get_active(GTK_COMBO_BOX(w->host_combo)) > 0)
		host = gtk_combo_box_text_get_active_text(w->host_combo);
	f.text = gtk_entry_get_text(GTK_ENTRY(w->search_entry));
	f.host = host;
	f.levels = level == LEVEL_EXTRA_ENTRY ? w->extra_levels
		 : level > 0 && level < LEVEL_EXTRA_ENTRY ? level_choices[level].levels : 0;
	if (t > 0 && t < (int)G_N_ELEMENTS(periods) && t != TIME_SPAN_ENTRY)
		f.since = g_get_real_time() / 1e6 - periods[t];
	f.show_ignored = w->show_ignored;
	f.ids = w->batch.ids;
	if (w->batch.since > 0)
		f.since = MAX(f.since, w->batch.since);
	ad_alert_model_set_filter(w->model, &f);
}

/*
 * A bar of the chart: the list shows the alerts seen in its span (between
 * their first and last time), and the time filter names the span, so that
 * choosing "Any time" there undoes it.
 */
static void on_span_activated(AdOverviewPane *p, double since, double until,
			      AdBrowserWindow *w)
{
	g_autofree char *span = ad_span_text(since, until);

	(void)p;
	g_signal_handlers_block_by_func(w->time_combo, on_filter_changed, w);
	if (w->span_since > 0)
		gtk_combo_box_text_remove(w->time_combo, TIME_SPAN_ENTRY);
	w->span_since = since;
	w->span_until = until;
	gtk_combo_box_text_append_text(w->time_combo, span);
	gtk_combo_box_set_active(GTK_COMBO_BOX(w->time_combo), TIME_SPAN_ENTRY);
	g_signal_handlers_unblock_by_func(w->time_combo, on_filter_changed, w);
	on_filter_changed(w);
}

/*
 * the overview counted again: all alerts (the ignored only when shown), or
 * a notification's batch, and their times
 */
static gboolean overview_idle(gpointer data)
{
	AdBrowserWindow *w = data;
	gboolean in_batch = w->batch.ids || w->batch.since > 0;
	const AdAlertBatch *batch = in_batch ? &w->batch : NULL;
	g_autoptr(AdOverview) o = ad_alert_model_overview(w->model, w->show_ignored, batch);
	g_autoptr(AdTimeline) t = ad_timeline_new(o->first_seen, o->last_seen, 60);
	/*
	 * a log's record times are known one by one; the daemon's store keeps
	 * them in time buckets, except for alerts stored before it did (their
	 * counts are spread between first and last seen, and the pane says so);
	 * a batch of a log's alerts is drawn from their buckets too
	 */
	gboolean exact = w->mode == AD_MODE_FILES && w->report && w->report->times && !batch;
	gboolean bucketed = TRUE;

	w->overview_id = 0;
	if (t && exact) {
		for (guint i = 0; i < w->report->times->len; i++)
			ad_timeline_add_time(t, g_array_index(w->report->times, double, i), 1);
	} else if (t) {
		g_autoptr(GPtrArray) all = ad_alert_model_get_all(w->model);

		for (guint i = 0; i < all->len; i++) {
			AdAlertItem *a = g_ptr_array_index(all, i);

			const AdOccurrences *occ = ad_alert_item_get_occurrences(a);

			if ((ad_alert_item_get_ignored(a) && !w->show_ignored) ||
			    !ad_alert_batch_contains(batch, a))
				continue;
			ad_timeline_add_occurrences(t, occ, ad_alert_item_get_first_seen(a),
						    ad_alert_item_get_last_seen(a),
						    ad_alert_item_get_count(a));
			bucketed = bucketed && occ &&
				   ad_occurrences_total(occ) >= ad_alert_item_get_count(a);
		}
		exact = bucketed;
	}
	w->overview_alerts = o->alerts;
	ad_overview_pane_update(w->overview_pane, o, t, !exact, w->mode == AD_MODE_LIVE);
	ad_detail_pane_set_time_axis(w->detail_pane, o->first_seen, o->last_seen);
	return G_SOURCE_REMOVE;
}

/* the overview follows the alerts, once per burst of changes */
static void schedule_overview(AdBrowserWindow *w)
{
	if (!w->overview_id)
		w->overview_id = g_idle_add(overview_idle, w);
}

/* the host filter lists every host seen; the choice survives when it still exists */
static void on_hosts_changed(AdAlertModel *m, AdBrowserWindow *w)
{
	g_auto(GStrv) hosts = ad_alert_model_get_hosts(m);
	g_autofree char *cur = NULL;
	int active = 0;

	if (gtk_combo_box_get_active(GTK_COMBO_BOX(w->host_combo)) > 0)
		cur = gtk_combo_box_text_get_active_text(w->host_combo);
	g_signal_handlers_block_by_func(w->host_combo, on_filter_changed, w);
	gtk_combo_box_text_remove_all(w->host_combo);
	gtk_combo_box_text_append_text(w->host_combo, _("All hosts"));
	for (guint i = 0; hosts[i]; i++) {
		gtk_combo_box_text_append_text(w->host_combo, hosts[i]);
		if (cur && g_str_equal(cur, hosts[i]))
			active = (int)i + 1;
	}
	gtk_combo_box_set_active(GTK_COMBO_BOX(w->host_combo), active);
	gtk_widget_set_sensitive(GTK_WIDGET(w->host_combo), hosts[0] != NULL);
	g_signal_handlers_unblock_by_func(w->host_combo, on_filter_changed, w);
	if (cur && !active)
		on_filter_changed(w);
}

static void update_status(AdBrowserWindow *w)
{
	guint shown = g_list_model_get_n_items(G_LIST_MODEL(w->model));
	guint total = ad_alert_model_get_total(w->model);
	guint ignored = ad_alert_model_get_n_ignored(w->model);
	g_autofree char *counts = NULL, *source = NULL, *text = NULL;

	/* TRANSLATORS: %u alerts shown of %u in all */
	counts = g_strdup_printf(ngettext("%u of %u alert shown", "%u of %u alerts shown", total),
				 shown, total);
	if (ignored) {
		g_autofree char *c = counts;

		counts = g_strdup_printf(ngettext("%s (%u ignored)", "%s (%u ignored)", ignored),
					 c, ignored);
	}
	if (w->mode == AD_MODE_LIVE) {
		source = g_strdup(w->dbus && ad_dbus_source_is_running(w->dbus)
				  ? _("Live alerts from avcdoctor-dispatch")
				  : _("Live alerts: the daemon is not running"));
	} else if (w->mode == AD_MODE_FILES) {
		g_autofree char *names = files_label(w);
		g_autofree char *clean = ad_clean_text(names);

		if (w->analysis)
			source = g_strdup_printf(_("Analysing %s…"), clean);
		else if (w->report)
			source = g_strdup_printf(ngettext("%s: %" PRIu64 " denial record, "
							  "policy %s",
							  "%s: %" PRIu64 " denial records, "
							  "policy %s",
							  w->report->denials),
						 clean, (uint64_t)w->report->denials,
						 w->report->policy);
		else
			source = g_strdup(clean);
	}
	text = source ? g_strdup_printf("%s — %s", source, counts) : g_strdup(counts);
	gtk_label_set_text(w->status_label, text);
}

/* ---- the daemon ---------------------------------------------------------------- */

/* selects the alert --alert asked for, once the model has it */
static void select_wanted(AdBrowserWindow *w)
{
	AdAlertItem *a = ad_alert_model_lookup(w->model, w->wanted_id);

	if (!a)
		return;
	if (ad_alert_item_get_ignored(a) && !w->show_ignored)
		g_action_group_change_action_state(G_ACTION_GROUP(w), "show-ignored",
						   g_variant_new_boolean(TRUE));
	g_free(w->selected_id);
	w->selected_id = g_steal_pointer(&w->wanted_id);
	sync_selection(w);
}

static void load_texts(AdBrowserWindow *w, const char *const *texts)
{
	g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func(g_free);
	guint bad = ad_alert_model_load_json(w->model, texts, errors);

	if (bad) {
		g_autofree char *msg = g_strdup_printf(
			ngettext("%u alert could not be read and is not shown: %s",
				 "%u alerts could not be read and are not shown; the first: %s",
				 bad), bad, (char *)g_ptr_array_index(errors, 0));

		show_info(w, GTK_MESSAGE_WARNING, msg);
	}
}

static void on_listed(AdDbusSource *s, GStrv alerts, AdBrowserWindow *w)
{
	(void)s;
	show_info(w, GTK_MESSAGE_INFO, NULL);	/* a fresh list: earlier messages are stale */
	ad_alert_model_clear(w->model);
	load_texts(w, (const char *const *)alerts);
	/* said once the list is fitted and the overview counted (fit_idle) */
	w->announce_listed = TRUE;
	schedule_fit(w);
	/* not in the list (a shortened one, or deleted): asked for by itself */
	if (w->wanted_id) {
		select_wanted(w);
		if (w->wanted_id)
			ad_dbus_source_fetch(w->dbus, w->wanted_id);
	}
	update_status(w);
}

static void on_changed(AdDbusSource *s, const char *text, AdBrowserWindow *w)
{
	const char *texts[] = { text, NULL };

	(void)s;
	load_texts(w, texts);
	if (w->wanted_id)
		select_wanted(w);
}

static void on_removed(AdDbusSource *s, const char *id, AdBrowserWindow *w)
{
	(void)s;
	ad_alert_model_remove(w->model, id);
}

static void on_status(AdDbusSource *s, gboolean running, const char *message,
		      AdBrowserWindow *w)
{
	(void)s;
	if (message && running && gtk_info_bar_get_revealed(w->info_bar) && !w->info_from_status) {
		/* e.g. the list came with unreadable alerts and was shortened: say both */
		add_info(w, GTK_MESSAGE_WARNING, message);
	} else if (message) {
		show_info(w, GTK_MESSAGE_WARNING, message);
		w->info_from_status = TRUE;
	} else if (w->info_from_status) {
		show_info(w, GTK_MESSAGE_INFO, NULL);
	}
	update_status(w);
}

static void drop_dbus(AdBrowserWindow *w)
{
	if (!w->dbus)
		return;
	g_signal_handlers_disconnect_by_data(w->dbus, w);
	g_clear_object(&w->dbus);
}

/* stops the file analysis in flight (its result is dropped) */
static void drop_analysis(AdBrowserWindow *w)
{
	if (w->analysis) {
		g_cancellable_cancel(w->analysis);
		g_clear_object(&w->analysis);
	}
}

/* forgets the file of pasted text */
static void drop_clipboard_file(AdBrowserWindow *w)
{
	if (w->clipboard_file)
		g_unlink(w->clipboard_file);
	g_clear_pointer(&w->clipboard_file, g_free);
}

void ad_browser_window_show_live(AdBrowserWindow *w, const char *alert_id)
{
	drop_analysis(w);
	drop_clipboard_file(w);
	drop_dbus(w);
	g_clear_pointer(&w->files, g_strfreev);
	g_clear_pointer(&w->report, ad_file_report_free);
	w->mode = AD_MODE_LIVE;
	g_free(w->wanted_id);
	w->wanted_id = g_strdup(alert_id);
	ad_alert_model_clear(w->model);
	show_info(w, GTK_MESSAGE_INFO, NULL);
	gtk_window_set_title(GTK_WINDOW(w), _("SELinux Alerts"));
	ad_detail_pane_set_actions(w->detail_pane, TRUE, NULL);
	w->dbus = ad_dbus_source_new();
	g_signal_connect(w->dbus, "listed", G_CALLBACK(on_listed), w);
	g_signal_connect(w->dbus, "changed", G_CALLBACK(on_changed), w);
	g_signal_connect(w->dbus, "removed", G_CALLBACK(on_removed), w);
	g_signal_connect(w->dbus, "status", G_CALLBACK(on_status), w);
	ad_dbus_source_start(w->dbus);
	update_status(w);
}

/* ---- log files ------------------------------------------------------------------ */

static void on_analysed(GObject *obj, GAsyncResult *res, gpointer data)
{
	g_autoptr(AdBrowserWindow) w = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) alerts = NULL;
	AdFileReport *report = NULL;
	GCancellable *cancel = g_task_get_cancellable(G_TASK(res));

	(void)obj;
	alerts = ad_file_source_analyse_finish(res, &report, &error);
	if (g_cancellable_is_cancelled(cancel) || cancel != w->analysis) {
		ad_file_report_free(report);
		return;		/* another source took over meanwhile */
	}
	g_clear_object(&w->analysis);
	gdk_window_set_cursor(gtk_widget_get_window(GTK_WIDGET(w)), NULL);
	if (!alerts) {
		g_autofree char *msg = g_strdup_printf(_("Cannot analyse the log: %s"),
						       error->message);
		g_autofree char *clean = ad_clean_text(msg);

		show_info(w, GTK_MESSAGE_ERROR, clean);
		update_status(w);
		return;
	}
	w->report = report;
	schedule_overview(w);
	g_ptr_array_add(alerts, NULL);
	load_texts(w, (const char *const *)alerts->pdata);
	/* said once the list is fitted and the overview counted (fit_idle) */
	w->announce_listed = TRUE;
	schedule_fit(w);
	if (report->messages->len) {
		g_autoptr(GString) msg = g_string_new(NULL);

		if (report->problems)
			g_string_append_printf(msg, ngettext("%" PRIu64 " record could not be "
							     "analysed:",
							     "%" PRIu64 " records could not be "
							     "analysed; the first messages:",
							     report->problems),
					       (uint64_t)report->problems);
		else
			g_string_append(msg, _("The analysis had less to go on:"));
		for (guint i = 0; i < report->messages->len && i < 3; i++)
			g_string_append_printf(msg, "\n%s",
					       (char *)g_ptr_array_index(report->messages, i));
		if (report->messages->len > 3)
			g_string_append(msg, "\n…");
		show_info(w, GTK_MESSAGE_WARNING, msg->str);
	}
	if (ad_alert_model_get_total(w->model) == 0 && !report->messages->len)
		show_info(w, GTK_MESSAGE_INFO, _("The log holds no SELinux denial."));
	update_status(w);
}

void ad_browser_window_show_files(AdBrowserWindow *w, const char *const *files)
{
	g_autofree char *names = NULL, *title = NULL, *clean = NULL;
	GdkWindow *gw = gtk_widget_get_window(GTK_WIDGET(w));

	drop_analysis(w);
	drop_dbus(w);
	/* other files than the pasted text: it is not needed any more */
	if (w->clipboard_file && !g_strv_contains(files, w->clipboard_file))
		drop_clipboard_file(w);
	if ((const char *const *)w->files != files) {
		g_strfreev(w->files);
		w->files = g_strdupv((char **)files);
	}
	g_clear_pointer(&w->report, ad_file_report_free);
	g_clear_pointer(&w->wanted_id, g_free);
	w->mode = AD_MODE_FILES;
	ad_alert_model_clear(w->model);
	show_info(w, GTK_MESSAGE_INFO, NULL);
	names = files_label(w);
	clean = ad_clean_text(names);
	/* TRANSLATORS: the window title in offline mode: the file names */
	title = g_strdup_printf(_("SELinux Alerts — %s"), clean);
	gtk_window_set_title(GTK_WINDOW(w), title);
	ad_detail_pane_set_actions(w->detail_pane, FALSE,
				   _("A log file is shown: ignoring and deleting are for the "
				     "daemon's alerts"));
	w->analysis = g_cancellable_new();
	if (gw) {
		g_autoptr(GdkCursor) busy = gdk_cursor_new_from_name(gdk_window_get_display(gw),
								     "progress");

		gdk_window_set_cursor(gw, busy);
	}
	ad_file_source_analyse_async((const char *const *)w->files,
				     &(AdFileSourceOptions){ w->policy, w->file_contexts }, w->analysis,
				     on_analysed, g_object_ref(w));
	update_status(w);
}

/* ---- actions ------------------------------------------------------------------- */

static void on_open_response(GtkNativeDialog *d, int response, AdBrowserWindow *w)
{
	if (response == GTK_RESPONSE_ACCEPT) {
		GSList *list = gtk_file_chooser_get_filenames(GTK_FILE_CHOOSER(d));
		g_autoptr(GStrvBuilder) b = g_strv_builder_new();
		g_auto(GStrv) files = NULL;

		for (GSList *l = list; l; l = l->next)
			g_strv_builder_add(b, l->data);
		g_slist_free_full(list, g_free);
		files = g_strv_builder_end(b);
		if (files[0])
			ad_browser_window_show_files(w, (const char *const *)files);
	}
	g_object_unref(d);
}

static void act_open(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;
	GtkFileChooserNative *d;
	GtkFileFilter *f;

	(void)a, (void)p;
	d = gtk_file_chooser_native_new(_("Open an Audit Log"), GTK_WINDOW(w),
					GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
	gtk_file_chooser_set_select_multiple(GTK_FILE_CHOOSER(d), TRUE);
	f = gtk_file_filter_new();
	gtk_file_filter_set_name(f, _("All files"));
	gtk_file_filter_add_pattern(f, "*");
	gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(d), f);
	g_signal_connect(d, "response", G_CALLBACK(on_open_response), w);
	gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

/*
 * The clipboard's text, as people receive logs (a mail, a forum, a chat):
 * analysed like a log file, from a private file (mode 0600, removed when
 * something else is shown) that the reader reads like any other.
 */
static void on_clipboard_text(GtkClipboard *cb, const char *text, gpointer data)
{
	g_autoptr(AdBrowserWindow) w = data;
	g_autoptr(GError) error = NULL;
	g_autofree char *path = NULL;
	const char *files[2] = { NULL, NULL };
	int fd;

	(void)cb;
	if (!text || !*text) {
		show_info(w, GTK_MESSAGE_INFO, _("The clipboard holds no text to analyse."));
		return;
	}
	fd = g_file_open_tmp("avcdoctor-clipboard-XXXXXX.txt", &path, &error);
	if (fd < 0 || !g_file_set_contents(path, text, -1, &error)) {
		g_autofree char *msg = g_strdup_printf(_("Cannot analyse the text: %s"),
						       error->message);
		g_autofree char *clean = ad_clean_text(msg);

		if (fd >= 0) {
			close(fd);
			g_unlink(path);
		}
		show_info(w, GTK_MESSAGE_ERROR, clean);
		return;
	}
	close(fd);
	drop_clipboard_file(w);
	w->clipboard_file = g_steal_pointer(&path);
	files[0] = w->clipboard_file;
	ad_browser_window_show_files(w, files);
}

static void act_paste(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;

	(void)a, (void)p;
	gtk_clipboard_request_text(gtk_widget_get_clipboard(GTK_WIDGET(w),
							    GDK_SELECTION_CLIPBOARD),
				   on_clipboard_text, g_object_ref(w));
}

static void act_live(GSimpleAction *a, GVariant *p, gpointer data)
{
	(void)a, (void)p;
	ad_browser_window_show_live(data, NULL);
}

static void act_refresh(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;

	(void)a, (void)p;
	if (w->mode == AD_MODE_FILES && w->files)
		ad_browser_window_show_files(w, (const char *const *)w->files);
	else if (w->mode == AD_MODE_LIVE && w->dbus)
		ad_dbus_source_refresh(w->dbus);
}

static void act_find(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;

	(void)a, (void)p;
	gtk_widget_grab_focus(GTK_WIDGET(w->search_entry));
}

static void act_focus_list(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;

	(void)a, (void)p;
	gtk_widget_grab_focus(GTK_WIDGET(w->alert_view));
}

static void act_focus_details(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;

	(void)a, (void)p;
	gtk_widget_child_focus(GTK_WIDGET(w->detail_pane), GTK_DIR_TAB_FORWARD);
}

static void act_show_ignored(GSimpleAction *a, GVariant *state, gpointer data)
{
	AdBrowserWindow *w = data;

	w->show_ignored = g_variant_get_boolean(state);
	g_simple_action_set_state(a, state);
	on_filter_changed(w);
	schedule_overview(w);
}

static void on_ignore_clicked(AdDetailPane *p, const char *id, gboolean ignore,
			      AdBrowserWindow *w)
{
	(void)p;
	if (w->mode == AD_MODE_LIVE && w->dbus)
		ad_dbus_source_set_ignored(w->dbus, id, ignore);
}

static void act_ignore(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;
	AdAlertItem *item = ad_alert_model_lookup(w->model, w->selected_id);

	(void)a, (void)p;
	if (item)
		on_ignore_clicked(w->detail_pane, ad_alert_item_get_id(item),
				  !ad_alert_item_get_ignored(item), w);
}

/* asks before deleting: the alert's history is gone for good */
static void on_delete_clicked(AdDetailPane *p, const char *id, AdBrowserWindow *w)
{
	AdAlertItem *item = ad_alert_model_lookup(w->model, id);
	g_autofree char *alert_id = g_strdup(id);
	GtkWidget *d;
	int response;

	(void)p;
	if (!item || w->mode != AD_MODE_LIVE || !w->dbus)
		return;
	d = gtk_message_dialog_new(GTK_WINDOW(w), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
				   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s",
				   _("Delete this alert?"));
	/* "%s": the summary is record text, never a format or markup */
	gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s\n\n%s",
						 ad_alert_item_get_summary(item),
						 _("Its history is removed from the daemon's store. "
						   "It comes back as a new alert if the denial "
						   "happens again."));
	gtk_dialog_add_button(GTK_DIALOG(d), _("_Cancel"), GTK_RESPONSE_CANCEL);
	gtk_style_context_add_class(
		gtk_widget_get_style_context(gtk_dialog_add_button(GTK_DIALOG(d), _("_Delete"),
								   GTK_RESPONSE_ACCEPT)),
		"destructive-action");
	gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_CANCEL);
	response = gtk_dialog_run(GTK_DIALOG(d));
	gtk_widget_destroy(d);
	if (response == GTK_RESPONSE_ACCEPT && w->dbus)
		ad_dbus_source_delete(w->dbus, alert_id);
}

static void act_delete(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;

	(void)a, (void)p;
	if (w->selected_id)
		on_delete_clicked(w->detail_pane, w->selected_id, w);
}

/* Delete in the list deletes: a window accelerator would take the key from the search box */
static gboolean on_view_key(GtkWidget *view, GdkEventKey *ev, AdBrowserWindow *w)
{
	(void)view;
	if (ev->keyval == GDK_KEY_Delete || ev->keyval == GDK_KEY_KP_Delete) {
		g_action_group_activate_action(G_ACTION_GROUP(w), "delete", NULL);
		return GDK_EVENT_STOP;
	}
	/* Ctrl+V in the list: the clipboard's text as a log (the search box keeps its paste) */
	if ((ev->keyval == GDK_KEY_v || ev->keyval == GDK_KEY_V) &&
	    (ev->state & gtk_accelerator_get_default_mod_mask()) == GDK_CONTROL_MASK) {
		g_action_group_activate_action(G_ACTION_GROUP(w), "paste", NULL);
		return GDK_EVENT_STOP;
	}
	return GDK_EVENT_PROPAGATE;
}

static void act_group_by_source(GSimpleAction *a, GVariant *state, gpointer data)
{
	AdBrowserWindow *w = data;

	g_simple_action_set_state(a, state);
	if (w->grouped == g_variant_get_boolean(state))
		return;
	w->grouped = g_variant_get_boolean(state);
	ad_prefs_set_bool("group-by-source", w->grouped);
	refill(w);
}

/* the overview in the detail pane's place: no alert selected */
static void act_overview(GSimpleAction *a, GVariant *p, gpointer data)
{
	AdBrowserWindow *w = data;

	(void)a, (void)p;
	g_clear_pointer(&w->selected_id, g_free);
	w->syncing = TRUE;
	gtk_tree_selection_unselect_all(gtk_tree_view_get_selection(w->alert_view));
	w->syncing = FALSE;
	sync_selection(w);
}

static const GActionEntry actions[] = {
	{ "open", act_open, NULL, NULL, NULL, { 0 } },
	{ "paste", act_paste, NULL, NULL, NULL, { 0 } },
	{ "live", act_live, NULL, NULL, NULL, { 0 } },
	{ "refresh", act_refresh, NULL, NULL, NULL, { 0 } },
	{ "find", act_find, NULL, NULL, NULL, { 0 } },
	{ "focus-list", act_focus_list, NULL, NULL, NULL, { 0 } },
	{ "focus-details", act_focus_details, NULL, NULL, NULL, { 0 } },
	{ "show-ignored", NULL, NULL, "false", act_show_ignored, { 0 } },
	{ "group-by-source", NULL, NULL, "false", act_group_by_source, { 0 } },
	{ "overview", act_overview, NULL, NULL, NULL, { 0 } },
	{ "ignore", act_ignore, NULL, NULL, NULL, { 0 } },
	{ "delete", act_delete, NULL, NULL, NULL, { 0 } },
};

/* ---- the object ------------------------------------------------------------------ */

static void ad_browser_window_dispose(GObject *obj)
{
	AdBrowserWindow *w = AD_BROWSER_WINDOW(obj);

	drop_analysis(w);
	drop_dbus(w);
	if (w->regroup_id)
		g_source_remove(w->regroup_id);
	if (w->overview_id)
		g_source_remove(w->overview_id);
	if (w->fit_id)
		g_source_remove(w->fit_id);
	w->regroup_id = w->overview_id = w->fit_id = 0;
	/* where the user just put the divider */
	if (w->pane_save_id) {
		g_source_remove(w->pane_save_id);
		save_pane(w);
	}
	if (w->model)
		g_signal_handlers_disconnect_by_data(w->model, w);
	g_clear_object(&w->model);
	g_clear_object(&w->store);
	G_OBJECT_CLASS(ad_browser_window_parent_class)->dispose(obj);
}

static void ad_browser_window_finalize(GObject *obj)
{
	AdBrowserWindow *w = AD_BROWSER_WINDOW(obj);

	drop_clipboard_file(w);
	g_strfreev(w->files);
	g_free(w->policy);
	g_free(w->file_contexts);
	ad_file_report_free(w->report);
	g_free(w->selected_id);
	g_free(w->wanted_id);
	g_hash_table_unref(w->expanded);
	g_hash_table_unref(w->rows);
	g_clear_pointer(&w->batch.ids, g_hash_table_unref);
	G_OBJECT_CLASS(ad_browser_window_parent_class)->finalize(obj);
}

static void ad_browser_window_class_init(AdBrowserWindowClass *klass)
{
	GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);

	G_OBJECT_CLASS(klass)->dispose = ad_browser_window_dispose;
	G_OBJECT_CLASS(klass)->finalize = ad_browser_window_finalize;
	g_type_ensure(AD_TYPE_DETAIL_PANE);
	g_type_ensure(AD_TYPE_OVERVIEW_PANE);
	gtk_widget_class_set_template_from_resource(wc, "/org/avcdoctor/Browser/window.ui");
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, info_bar);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, info_label);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, batch_bar);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, batch_label);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, search_entry);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, host_combo);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, level_combo);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, time_combo);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, alert_view);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, paned);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, detail_pane);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, pane_stack);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, overview_pane);
	gtk_widget_class_bind_template_child(wc, AdBrowserWindow, status_label);
	gtk_widget_class_bind_template_callback(wc, on_info_response);
	gtk_widget_class_bind_template_callback(wc, on_batch_response);
	gtk_widget_class_bind_template_callback(wc, on_filter_changed);
	gtk_widget_class_bind_template_callback(wc, on_ignore_clicked);
	gtk_widget_class_bind_template_callback(wc, on_delete_clicked);
	gtk_widget_class_bind_template_callback(wc, on_span_activated);
}

/* a button of an info bar with an icon and no label (its close button): named */
static void name_close_button(GtkWidget *widget, gpointer data)
{
	(void)data;
	if (GTK_IS_BUTTON(widget) && !gtk_button_get_label(GTK_BUTTON(widget))) {
		atk_object_set_name(gtk_widget_get_accessible(widget), _("Close the message"));
		gtk_widget_set_tooltip_text(widget, _("Close the message"));
	} else if (GTK_IS_CONTAINER(widget)) {
		gtk_container_forall(GTK_CONTAINER(widget), name_close_button, NULL);
	}
}

/*
 * the info bars' own close button has an icon and no name: give it one
 * (GTK 3 keeps it among the bar's internal children, not in its action area)
 */
static void name_info_close(AdBrowserWindow *w)
{
	name_close_button(GTK_WIDGET(w->info_bar), NULL);
	name_close_button(GTK_WIDGET(w->batch_bar), NULL);
}

/*
 * The whole width of a screen up to 1280 pixels wide (at 1024, nine
 * columns leave the Summary column too little otherwise), else three
 * quarters to nine tenths of the work area; three quarters to nine tenths
 * of its height.
 */
static void fit_default_size(GtkWindow *win)
{
	GdkDisplay *dpy = gdk_display_get_default();
	GdkMonitor *mon = NULL;
	GdkRectangle area;
	int width, height;

	if (dpy)
		mon = gdk_display_get_primary_monitor(dpy);
	if (!mon && dpy && gdk_display_get_n_monitors(dpy) > 0)
		mon = gdk_display_get_monitor(dpy, 0);
	if (!mon)
		return;
	gdk_monitor_get_workarea(mon, &area);
	gtk_window_get_default_size(win, &width, &height);
	if (area.width <= 0 || area.height <= 0)
		return;
	/* a small screen's whole width: the Summary column gets what the others leave */
	if (area.width <= 1280)
		width = area.width;
	else
		width = MIN(MAX(width, area.width * 3 / 4), area.width * 9 / 10);
	gtk_window_set_default_size(win, width, MIN(MAX(height, area.height * 3 / 4),
						    area.height * 9 / 10));
}

static void ad_browser_window_init(AdBrowserWindow *w)
{
	GtkTreeSelection *sel;
	int pos;

	gtk_widget_init_template(GTK_WIDGET(w));
	fit_default_size(GTK_WINDOW(w));
	/* no model yet: on_filter_changed does nothing */
	for (guint i = 0; i < LEVEL_EXTRA_ENTRY; i++)
		gtk_combo_box_text_append_text(w->level_combo, _(level_choices[i].name));
	gtk_combo_box_set_active(GTK_COMBO_BOX(w->level_combo), 0);
	g_action_map_add_action_entries(G_ACTION_MAP(w), actions, G_N_ELEMENTS(actions), w);
	w->model = ad_alert_model_new();
	w->expanded = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	w->rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	w->store = gtk_tree_store_new(AD_N_ROW_COLUMNS, AD_TYPE_ALERT_ITEM, G_TYPE_STRING,
				      G_TYPE_UINT, G_TYPE_UINT64, G_TYPE_INT, G_TYPE_DOUBLE);
	gtk_tree_view_set_model(w->alert_view, GTK_TREE_MODEL(w->store));
	add_columns(w);
	sel = gtk_tree_view_get_selection(w->alert_view);
	gtk_tree_selection_set_mode(sel, GTK_SELECTION_SINGLE);
	g_signal_connect(sel, "changed", G_CALLBACK(on_selection_changed), w);
	g_signal_connect(w->alert_view, "key-press-event", G_CALLBACK(on_view_key), w);
	g_signal_connect(w->alert_view, "row-expanded", G_CALLBACK(on_row_expanded), w);
	g_signal_connect(w->alert_view, "row-collapsed", G_CALLBACK(on_row_collapsed), w);
	g_signal_connect(w->alert_view, "row-activated", G_CALLBACK(on_row_activated), w);
	name_info_close(w);
	gtk_widget_set_has_tooltip(GTK_WIDGET(w->alert_view), TRUE);
	g_signal_connect(w->alert_view, "query-tooltip", G_CALLBACK(ad_list_query_tooltip), w);
	g_signal_connect(w->alert_view, "size-allocate", G_CALLBACK(on_list_allocated), w);
	g_signal_connect(w->paned, "size-allocate", G_CALLBACK(on_list_allocated), w);
	g_signal_connect(w->paned, "notify::position", G_CALLBACK(on_pane_moved), w);
	gtk_paned_set_wide_handle(w->paned, TRUE);
	pos = ad_prefs_get_int("pane-position", 0);
	if (pos > 0) {
		w->pane_chosen = TRUE;
		set_pane(w, pos);
	}
	g_signal_connect(w->model, "items-changed", G_CALLBACK(on_items_changed), w);
	g_signal_connect(w->model, "hosts-changed", G_CALLBACK(on_hosts_changed), w);
	on_hosts_changed(w->model, w);
	if (ad_prefs_get_bool("group-by-source"))
		g_action_group_change_action_state(G_ACTION_GROUP(w), "group-by-source",
						   g_variant_new_boolean(TRUE));
	sync_selection(w);
	update_status(w);
	schedule_overview(w);
}

AdBrowserWindow *ad_browser_window_new(GtkApplication *app, const char *policy,
				       const char *file_contexts)
{
	AdBrowserWindow *w = g_object_new(AD_TYPE_BROWSER_WINDOW, "application", app, NULL);

	w->policy = g_strdup(policy);
	w->file_contexts = g_strdup(file_contexts);
	return w;
}
