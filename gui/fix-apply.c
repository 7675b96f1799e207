// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The detail pane's Apply buttons (fix-apply.h): the one rule of the fix
 * helper (client/fix-rule.c) decides which fixes get one, the
 * client's asynchronous call applies it, and the answer goes under the
 * button as plain text.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "alert-item.h"
#include "fixit-client.h"
#include "fix-apply.h"

/* shows the answer in the row's label; nothing when the pane was rebuilt meanwhile */
static void on_applied(GObject *src, GAsyncResult *res, gpointer data)
{
	g_autoptr(GtkWidget) row = data;
	g_autoptr(GError) error = NULL;
	g_autofree char *out = ad_fixit_apply_finish(res, &error);
	GtkWidget *button = g_object_get_data(G_OBJECT(row), "ad-button");
	GtkLabel *label = g_object_get_data(G_OBJECT(row), "ad-result");
	GtkStyleContext *sc;
	g_autofree char *text = NULL;

	(void)src;
	if (!gtk_widget_get_parent(row))
		return;
	sc = gtk_widget_get_style_context(GTK_WIDGET(label));
	gtk_style_context_remove_class(sc, "dim-label");
	if (out) {
		g_autofree char *clean = ad_clean_text(out);

		text = *clean ? g_strdup_printf(_("Fix applied:\n%s"), clean)
			      : g_strdup(_("Fix applied."));
		gtk_style_context_add_class(sc, "ad-proved");
		gtk_button_set_label(GTK_BUTTON(button), _("Applied"));
	} else {
		g_autofree char *clean = ad_clean_text(error->message);

		text = g_strdup_printf(_("The fix was not applied: %s"), clean);
		gtk_style_context_add_class(sc, "ad-not-proved");
		gtk_widget_set_sensitive(button, TRUE);
	}
	gtk_label_set_text(label, text);
}

static void on_apply(GtkButton *b, GtkWidget *row)
{
	GtkLabel *label = g_object_get_data(G_OBJECT(row), "ad-result");
	const char *id = g_object_get_data(G_OBJECT(row), "ad-id");
	guint index = GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(row), "ad-index"));
	const char *digest = g_object_get_data(G_OBJECT(row), "ad-digest");
	GtkStyleContext *sc = gtk_widget_get_style_context(GTK_WIDGET(label));

	gtk_widget_set_sensitive(GTK_WIDGET(b), FALSE);
	gtk_style_context_remove_class(sc, "ad-proved");
	gtk_style_context_remove_class(sc, "ad-not-proved");
	gtk_style_context_add_class(sc, "dim-label");
	gtk_label_set_text(label, _("Applying the fix…"));
	gtk_widget_show(GTK_WIDGET(label));
	ad_fixit_apply_async(id, index, digest, NULL, on_applied, g_object_ref(row));
}

GtkWidget *ad_fix_apply_row(const char *id, guint index, guint rank, const char *digest)
{
	GtkWidget *row = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
	GtkWidget *button = gtk_button_new_with_mnemonic(_("_Apply"));
	GtkWidget *label = gtk_label_new(NULL);
	g_autofree char *name = g_strdup_printf(_("Apply suggestion %u"), rank);

	gtk_widget_set_halign(button, GTK_ALIGN_START);
	gtk_widget_set_tooltip_text(button, _("Run these commands as root through the fix "
					      "helper (asks for an administrator's password)"));
	atk_object_set_name(gtk_widget_get_accessible(button), name);
	gtk_label_set_xalign(GTK_LABEL(label), 0);
	gtk_label_set_line_wrap(GTK_LABEL(label), TRUE);
	gtk_label_set_line_wrap_mode(GTK_LABEL(label), PANGO_WRAP_WORD_CHAR);
	gtk_label_set_selectable(GTK_LABEL(label), TRUE);
	gtk_widget_set_no_show_all(label, TRUE);
	gtk_container_add(GTK_CONTAINER(row), button);
	gtk_container_add(GTK_CONTAINER(row), label);
	g_object_set_data(G_OBJECT(row), "ad-button", button);
	g_object_set_data(G_OBJECT(row), "ad-result", label);
	g_object_set_data_full(G_OBJECT(row), "ad-id", g_strdup(id), g_free);
	g_object_set_data(G_OBJECT(row), "ad-index", GUINT_TO_POINTER(index));
	g_object_set_data_full(G_OBJECT(row), "ad-digest", g_strdup(digest), g_free);
	g_signal_connect(button, "clicked", G_CALLBACK(on_apply), row);
	return row;
}

char *ad_fix_status_text(const AdAlertDoc *alert)
{
	double applied = alert->fix_applied, last = alert->last_seen;
	g_autofree char *when = NULL, *again = NULL;

	if (applied <= 0)
		return NULL;
	when = ad_format_time(applied);
	if (last <= applied)
		return g_strdup_printf(_("Fix applied at %s; no denial since."), when);
	again = ad_format_time(last);
	return g_strdup_printf(_("Fix applied at %s; denied again at %s."), when, again);
}
