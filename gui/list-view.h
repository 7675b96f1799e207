/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "alert-model.h"

G_BEGIN_DECLS

/*
 * The alert list of the browser's window: a GtkTreeView over a
 * GtkTreeStore whose alert rows hold the item and whose group rows (grouped
 * by source domain) the group's name, alerts, records, worst level and
 * newest time.
 */
enum {
	AD_ROW_ITEM,		/* AdAlertItem, NULL in a group row */
	AD_ROW_GROUP,		/* the group's source domain */
	AD_ROW_N_ALERTS,
	AD_ROW_RECORDS,
	AD_ROW_LEVEL,
	AD_ROW_LAST_SEEN,
	AD_N_ROW_COLUMNS
};

/* the alert of a row, borrowed; NULL for a group row */
AdAlertItem *ad_list_row_item(GtkTreeModel *tm, GtkTreeIter *it);
/* the cell data function of column GPOINTER_TO_INT(@data) (an AdColumn) */
void ad_list_render_cell(GtkTreeViewColumn *col, GtkCellRenderer *cell, GtkTreeModel *tm,
			 GtkTreeIter *it, gpointer data);
/* "query-tooltip" of the list: a row's whole summary and contexts, a group's counts */
gboolean ad_list_query_tooltip(GtkWidget *widget, int x, int y, gboolean keyboard,
			       GtkTooltip *tip, gpointer data);
/*
 * The type, class, permission and host columns as wide as their longest
 * text among @all (AdAlertItem), each within a share of the list's width;
 * the Summary column gets what they leave.  @columns: by AdColumn.
 */
void ad_list_fit_columns(GtkTreeView *view, GtkTreeViewColumn *const *columns, GPtrArray *all);
/*
 * The height the list's rows need (three at least) in a pane @height high,
 * at most three fifths of it; -1 when @height is too small to tell.
 */
int ad_list_wanted_height(GtkTreeView *view, int height);

/* the browser's remembered choices, [view] of $XDG_CONFIG_HOME/avcdoctor/browser.ini */
gboolean ad_prefs_get_bool(const char *key);
void ad_prefs_set_bool(const char *key, gboolean value);
int ad_prefs_get_int(const char *key, int def);
/* a choice that cannot be saved is only forgotten at the next start */
void ad_prefs_set_int(const char *key, int value);

G_END_DECLS
