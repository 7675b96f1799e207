// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AdDetailPane: one alert in full (see detail-pane.h).  The suggestion
 * cards and the detail rows are built in code from the alert's JSON.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "detail-pane.h"
#include "fix-apply.h"
#include "fixit-client.h"
#include "timeline-strip.h"

#include <string.h>

/* an explanation longer than this is folded after its first line or sentence */
#define AD_EXPLANATION_SHORT 240

struct _AdDetailPane {
	GtkBox parent_instance;
	GtkStack *stack;
	GtkWidget *scroller;
	GtkLabel *level_label;
	GtkLabel *summary_label;
	GtkButton *ignore_button;
	GtkButton *delete_button;
	GtkLabel *explanation_label;
	GtkExpander *explanation_more;	/* the rest of a long explanation */
	GtkLabel *explanation_rest;
	GtkBox *suggestions_box;	/* the fix status and the first suggestion */
	GtkWidget *more_heading;
	GtkBox *more_box;		/* the other suggestions and the notes */
	GtkGrid *details_grid;
	GtkTextView *records_view;
	GtkBox *content;
	GtkWidget *timeline;		/* the alert's first and last time over all alerts' span */
	double axis_first, axis_last;
	AdAlertItem *alert;
	gboolean actions_enabled;
	char *actions_why;
};

enum { SIG_IGNORE, SIG_DELETE, N_SIGS };
static guint sigs[N_SIGS];

G_DEFINE_TYPE(AdDetailPane, ad_detail_pane, GTK_TYPE_BOX)

static void on_ignore_clicked(GtkButton *b, AdDetailPane *p)
{
	(void)b;
	if (p->alert)
		g_signal_emit(p, sigs[SIG_IGNORE], 0, ad_alert_item_get_id(p->alert),
			      !ad_alert_item_get_ignored(p->alert));
}

static void on_delete_clicked(GtkButton *b, AdDetailPane *p)
{
	(void)b;
	if (p->alert)
		g_signal_emit(p, sigs[SIG_DELETE], 0, ad_alert_item_get_id(p->alert));
}

static void ad_detail_pane_dispose(GObject *obj)
{
	AdDetailPane *p = AD_DETAIL_PANE(obj);

	g_clear_object(&p->alert);
	g_clear_pointer(&p->actions_why, g_free);
	G_OBJECT_CLASS(ad_detail_pane_parent_class)->dispose(obj);
}

static void ad_detail_pane_class_init(AdDetailPaneClass *klass)
{
	GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);

	G_OBJECT_CLASS(klass)->dispose = ad_detail_pane_dispose;
	gtk_widget_class_set_template_from_resource(wc, "/org/avcdoctor/Browser/detail-pane.ui");
	gtk_widget_class_bind_template_child(wc, AdDetailPane, stack);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, scroller);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, level_label);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, summary_label);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, ignore_button);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, delete_button);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, explanation_label);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, explanation_more);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, explanation_rest);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, suggestions_box);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, more_heading);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, more_box);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, details_grid);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, records_view);
	gtk_widget_class_bind_template_child(wc, AdDetailPane, content);
	gtk_widget_class_bind_template_callback(wc, on_ignore_clicked);
	gtk_widget_class_bind_template_callback(wc, on_delete_clicked);
	sigs[SIG_IGNORE] = g_signal_new("ignore-clicked", G_TYPE_FROM_CLASS(klass),
					G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
					G_TYPE_STRING, G_TYPE_BOOLEAN);
	sigs[SIG_DELETE] = g_signal_new("delete-clicked", G_TYPE_FROM_CLASS(klass),
					G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
					G_TYPE_STRING);
	gtk_widget_class_set_css_name(wc, "addetailpane");
}

/*
 * A closed expander's child takes no focus: GTK 3 lets Tab into the hidden
 * child of a closed expander (a selectable label), where the focus is
 * seen by no one; insensitive while folded, it is skipped.
 */
static void on_fold_toggled(GtkExpander *x, GParamSpec *pspec, gpointer data)
{
	GtkWidget *child = gtk_bin_get_child(GTK_BIN(x));

	(void)pspec, (void)data;
	if (child)
		gtk_widget_set_sensitive(child, gtk_expander_get_expanded(x));
}

static void ad_detail_pane_init(AdDetailPane *p)
{
	gtk_widget_init_template(GTK_WIDGET(p));
	g_signal_connect(p->explanation_more, "notify::expanded", G_CALLBACK(on_fold_toggled),
			 NULL);
	on_fold_toggled(p->explanation_more, NULL, NULL);
	p->timeline = ad_timeline_strip_new();
	gtk_box_pack_start(p->content, p->timeline, FALSE, FALSE, 0);
	gtk_box_reorder_child(p->content, p->timeline, 1);	/* under the summary */
	gtk_stack_set_visible_child_name(p->stack, "empty");
	p->actions_enabled = TRUE;
}

GtkWidget *ad_detail_pane_new(void)
{
	return g_object_new(AD_TYPE_DETAIL_PANE, NULL);
}

AdAlertItem *ad_detail_pane_get_alert(AdDetailPane *p)
{
	return p->alert;
}

static const char *const level_classes[] = { "ad-green", "ad-yellow", "ad-red" };

static void set_level(AdDetailPane *p, AdLevel level)
{
	GtkStyleContext *sc = gtk_widget_get_style_context(GTK_WIDGET(p->level_label));

	for (guint i = 0; i < G_N_ELEMENTS(level_classes); i++)
		gtk_style_context_remove_class(sc, level_classes[i]);
	if ((guint)level < G_N_ELEMENTS(level_classes))
		gtk_style_context_add_class(sc, level_classes[level]);
	gtk_label_set_text(p->level_label, ad_level_label(level));
}

/* a plain-text label: wrapped, selectable, left-aligned */
static GtkWidget *text_label(const char *text, gboolean selectable)
{
	GtkWidget *l = gtk_label_new(NULL);

	gtk_label_set_text(GTK_LABEL(l), text);
	gtk_label_set_xalign(GTK_LABEL(l), 0);
	gtk_label_set_line_wrap(GTK_LABEL(l), TRUE);
	gtk_label_set_line_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
	gtk_label_set_selectable(GTK_LABEL(l), selectable);
	return l;
}

static void remove_children(GtkContainer *c)
{
	g_autoptr(GList) children = gtk_container_get_children(c);

	for (GList *l = children; l; l = l->next)
		gtk_widget_destroy(l->data);
}

static gboolean reset_copy_label(gpointer data)
{
	GtkButton *b = data;

	g_object_steal_data(G_OBJECT(b), "ad-reset");
	gtk_button_set_label(b, _("_Copy"));
	return G_SOURCE_REMOVE;
}

static void remove_source(gpointer id)
{
	g_source_remove(GPOINTER_TO_UINT(id));
}

/*
 * Puts exactly the commands shown (the analyzer's shell quoting) on the
 * clipboard and says so on the button for two seconds.  The timeout holds
 * no reference: it goes with the button (the pane is rebuilt meanwhile).
 */
static void on_copy(GtkButton *b, gpointer data)
{
	const char *shell = g_object_get_data(G_OBJECT(b), "ad-shell");
	guint id;

	(void)data;
	if (!shell)
		return;
	gtk_clipboard_set_text(gtk_widget_get_clipboard(GTK_WIDGET(b), GDK_SELECTION_CLIPBOARD),
			       shell, -1);
	gtk_button_set_label(b, _("Copied"));
	id = g_timeout_add_seconds(2, reset_copy_label, b);
	g_object_set_data_full(G_OBJECT(b), "ad-reset", GUINT_TO_POINTER(id), remove_source);
}

/* the suggestion kinds (JSON "kind") in words */
static const struct {
	const char *kind;
	const char *text;
} kinds[] = {
	{ "boolean", N_("Turn on a boolean") },
	{ "relabel", N_("Fix the file's label") },
	{ "fcontext", N_("Change the file labelling rules") },
	{ "port", N_("Label the port") },
	{ "module", N_("Add a local policy module") },
	{ "dontaudit", N_("Silence a harmless denial") },
	{ "config", N_("Change the program's configuration") },
	{ "report_bug", N_("Report a policy bug") },
	{ "attack", N_("Possible attack: investigate") },
	{ "info", N_("Information") },
};

static const char *kind_text(const char *kind)
{
	for (guint i = 0; kind && i < G_N_ELEMENTS(kinds); i++) {
		if (g_str_equal(kind, kinds[i].kind))
			return _(kinds[i].text);
	}
	return kind && *kind ? kind : _("Suggestion");
}

/*
 * "Checked against the policy: this stops the denial. Also allows ..."
 * or what would still be denied, styled so that a fix that would not work
 * stands out.
 */
static GtkWidget *proof_label(const AdSuggestionView *s)
{
	GtkWidget *l = text_label(s->proof, TRUE);

	gtk_style_context_add_class(gtk_widget_get_style_context(l),
				    s->verified == 1 ? "ad-proved" : "ad-not-proved");
	return l;
}

/*
 * The then-text of a suggestion with the constraint's clauses taken out
 * (they go behind an expander: seven clauses come before the one thing to
 * do), or NULL when it does not quote @constraint.  @ret_clauses gets the
 * clauses as a sentence.
 */
static char *cut_constraint(const char *then, const char *constraint, char **ret_clauses)
{
	g_autofree char *folded_then = NULL, *folded_c = NULL;
	const char *at, *end;
	gsize start, len;
	GString *rest;

	*ret_clauses = NULL;
	if (!then || !constraint || strlen(constraint) < 20)
		return NULL;
	/* ASCII case folding keeps byte offsets: the clauses start lower-case in the JSON */
	folded_then = g_ascii_strdown(then, -1);
	folded_c = g_ascii_strdown(constraint, -1);
	at = strstr(folded_then, folded_c);
	if (!at)
		return NULL;
	start = (gsize)(at - folded_then);
	len = strlen(constraint);
	end = then + start + len;
	while (*end == '.' || *end == ' ')
		end++;
	rest = g_string_new_len(then, (gssize)start);
	while (rest->len && rest->str[rest->len - 1] == ' ')
		g_string_truncate(rest, rest->len - 1);
	if (*end)
		g_string_append_printf(rest, "%s%s", rest->len ? " " : "", end);
	*ret_clauses = g_strdup_printf("%.*s.", (int)len, then + start);
	return g_string_free(rest, FALSE);
}

/* "\n and " before each clause of a constraint, so that the expander lists them */
static char *clause_lines(const char *clauses, guint *ret_n)
{
	g_auto(GStrv) parts = g_strsplit(clauses, ", and ", -1);

	*ret_n = g_strv_length(parts);
	return g_strjoinv(_(",\nand "), parts);
}

/* an expander named @label holding @child, folded */
static GtkWidget *folded(const char *label, GtkWidget *child)
{
	GtkWidget *x = gtk_expander_new(label);

	gtk_widget_set_margin_start(child, 12);
	gtk_container_add(GTK_CONTAINER(x), child);
	g_signal_connect(x, "notify::expanded", G_CALLBACK(on_fold_toggled), NULL);
	on_fold_toggled(GTK_EXPANDER(x), NULL, NULL);
	return x;
}

/*
 * The proof under a suggestion; a long "not enough" (what would still be
 * denied, a constraint's clauses) says so in its first sentence, its
 * conditions behind an expander.
 */
static void add_proof(GtkBox *box, const AdSuggestionView *s)
{
	const char *first = strstr(s->proof, ": ");
	const char *second = first ? strstr(first + 2, ": ") : NULL;
	g_autofree char *head = NULL, *lines = NULL, *label = NULL;
	GtkWidget *l;
	guint n = 0;

	if (s->verified != 0 || strlen(s->proof) <= AD_EXPLANATION_SHORT || !second ||
	    !second[2]) {
		gtk_container_add(GTK_CONTAINER(box), proof_label(s));
		return;
	}
	head = g_strdup_printf("%.*s.", (int)(second - s->proof), s->proof);
	l = text_label(head, TRUE);
	gtk_style_context_add_class(gtk_widget_get_style_context(l), "ad-not-proved");
	gtk_container_add(GTK_CONTAINER(box), l);
	lines = clause_lines(second + 2, &n);
	/* TRANSLATORS: an expander over what would still deny a fix not enough */
	label = g_strdup_printf(ngettext("What would still deny it (%u condition)",
					 "What would still deny it (%u conditions)", n), n);
	gtk_container_add(GTK_CONTAINER(box), folded(label, text_label(lines, TRUE)));
}

/*
 * one suggestion: if/then text, its proof, its commands in monospace and a
 * Copy button; an Apply button when @apply_id names the alert to apply it
 * to, with @digest, that of the commands shown.  A constraint the then-text
 * quotes (@constraint) is folded behind an expander, and so are the
 * commands of a fix proved not enough: nothing invites loading it.
 */
static GtkWidget *suggestion_card(const AdSuggestionView *s, guint rank, const char *apply_id,
				  const char *digest, const char *constraint)
{
	GtkWidget *frame = gtk_frame_new(NULL);
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
	GtkWidget *head, *cmd_parent = box;
	g_autofree char *title = NULL, *clauses = NULL, *then = NULL;

	gtk_container_set_border_width(GTK_CONTAINER(box), 8);
	/* TRANSLATORS: a suggestion's heading: rank, kind of fix, confidence */
	title = g_strdup_printf(_("%u. %s (%.0f%% confidence)"), rank, kind_text(s->kind),
				s->confidence * 100);
	head = text_label(title, FALSE);
	gtk_style_context_add_class(gtk_widget_get_style_context(head), "ad-suggestion-title");
	gtk_container_add(GTK_CONTAINER(box), head);
	if (s->if_text && *s->if_text)
		gtk_container_add(GTK_CONTAINER(box), text_label(s->if_text, TRUE));
	then = cut_constraint(s->then_text, constraint, &clauses);
	if (then) {
		guint n = 0;
		g_autofree char *lines = clause_lines(clauses, &n);
		/* TRANSLATORS: an expander over the conditions of a constraint */
		g_autofree char *label = g_strdup_printf(ngettext("The constraint's %u condition",
								  "The constraint's %u conditions",
								  n), n);

		gtk_container_add(GTK_CONTAINER(box), text_label(then, TRUE));
		gtk_container_add(GTK_CONTAINER(box), folded(label, text_label(lines, TRUE)));
	} else if (s->then_text && *s->then_text) {
		gtk_container_add(GTK_CONTAINER(box), text_label(s->then_text, TRUE));
	}
	if (s->proof)
		add_proof(GTK_BOX(box), s);
	if (s->shell && *s->shell && s->verified == 0) {
		/* proved not enough: its commands only on request, never an Apply */
		cmd_parent = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
		gtk_container_add(GTK_CONTAINER(box),
				  folded(_("Its commands (they would not stop the denial)"),
					 cmd_parent));
		apply_id = NULL;
	}
	if (s->shell && *s->shell) {
		GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
		GtkWidget *cmd = text_label(s->shell, TRUE);
		GtkWidget *copy = gtk_button_new_with_mnemonic(_("_Copy"));
		g_autofree char *name = g_strdup_printf(_("Copy the commands of suggestion %u"),
							rank);

		gtk_style_context_add_class(gtk_widget_get_style_context(cmd), "ad-command");
		gtk_widget_set_hexpand(cmd, TRUE);
		gtk_widget_set_valign(copy, GTK_ALIGN_START);
		gtk_widget_set_tooltip_text(copy, _("Copy the commands to the clipboard"));
		atk_object_set_name(gtk_widget_get_accessible(copy), name);
		atk_object_set_name(gtk_widget_get_accessible(cmd), _("Commands"));
		g_object_set_data_full(G_OBJECT(copy), "ad-shell", g_strdup(s->shell), g_free);
		g_signal_connect(copy, "clicked", G_CALLBACK(on_copy), NULL);
		gtk_container_add(GTK_CONTAINER(row), cmd);
		gtk_container_add(GTK_CONTAINER(row), copy);
		gtk_container_add(GTK_CONTAINER(cmd_parent), row);
	}
	if (apply_id)
		gtk_container_add(GTK_CONTAINER(box), ad_fix_apply_row(apply_id, rank - 1, rank,
								      digest));
	gtk_container_add(GTK_CONTAINER(frame), box);
	atk_object_set_name(gtk_widget_get_accessible(frame), title);
	return frame;
}

/* one note: a fact beside the fixes, titled so that it does not read as one */
static GtkWidget *note_card(const AdSuggestionView *n)
{
	GtkWidget *frame = gtk_frame_new(NULL);
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
	GtkWidget *head = text_label(_("Note"), FALSE);

	gtk_container_set_border_width(GTK_CONTAINER(box), 8);
	gtk_style_context_add_class(gtk_widget_get_style_context(head), "ad-suggestion-title");
	gtk_container_add(GTK_CONTAINER(box), head);
	if (n->if_text && *n->if_text)
		gtk_container_add(GTK_CONTAINER(box), text_label(n->if_text, TRUE));
	if (n->then_text && *n->then_text)
		gtk_container_add(GTK_CONTAINER(box), text_label(n->then_text, TRUE));
	gtk_container_add(GTK_CONTAINER(frame), box);
	atk_object_set_name(gtk_widget_get_accessible(frame), _("Note"));
	return frame;
}

static void fill_suggestions(AdDetailPane *p)
{
	g_autoptr(GPtrArray) list = ad_alert_item_get_suggestions(p->alert);
	g_autoptr(GPtrArray) notes = ad_alert_item_get_notes(p->alert);
	const AdAlertDoc *doc = ad_alert_item_get_doc(p->alert);
	const char *id = ad_alert_item_get_id(p->alert);
	g_autofree char *status = ad_fix_status_text(doc);
	g_autofree char *constraint = NULL;

	if (doc->denial && doc->denial->constraint)
		constraint = ad_clean_text(doc->denial->constraint);
	remove_children(GTK_CONTAINER(p->suggestions_box));
	remove_children(GTK_CONTAINER(p->more_box));
	if (status) {
		GtkWidget *l = text_label(status, TRUE);

		gtk_style_context_add_class(gtk_widget_get_style_context(l), "ad-fix-status");
		gtk_container_add(GTK_CONTAINER(p->suggestions_box), l);
	}
	/*
	 * the fix helper applies fixes of the daemon's stored alerts only, named
	 * by their index: none when an entry that is no suggestion shifts them
	 */
	if (!p->actions_enabled || doc->suggestions->len != list->len)
		doc = NULL;
	for (guint i = 0; i < list->len; i++) {
		g_autoptr(GPtrArray) cmds = NULL;
		g_autofree char *digest = NULL;

		/* the one rule the fix helper applies too; the digest binds what is shown */
		if (doc && ad_fix_one_click(doc, i, &cmds, NULL))
			digest = ad_fix_digest(cmds);
		/* the first fix leads; the others come after the explanation */
		gtk_container_add(GTK_CONTAINER(i ? p->more_box : p->suggestions_box),
				  suggestion_card(g_ptr_array_index(list, i), i + 1,
						  digest ? id : NULL, digest, constraint));
	}
	if (!list->len)
		gtk_container_add(GTK_CONTAINER(p->suggestions_box),
				  text_label(_("No suggestion for this alert."), FALSE));
	for (guint i = 0; i < notes->len; i++)
		gtk_container_add(GTK_CONTAINER(p->more_box),
				  note_card(g_ptr_array_index(notes, i)));
	gtk_label_set_text(GTK_LABEL(p->more_heading),
			   list->len > 1 ? _("Other suggestions") : _("Notes"));
	gtk_widget_set_visible(p->more_heading, list->len > 1 || notes->len);
	gtk_widget_show_all(GTK_WIDGET(p->suggestions_box));
	gtk_widget_show_all(GTK_WIDGET(p->more_box));
}

/* one "name: value" row of the details grid; nothing for an empty value */
static void add_row(AdDetailPane *p, int *row, const char *name, const char *value)
{
	GtkWidget *k, *v;

	if (!value || !*value)
		return;
	k = text_label(name, FALSE);
	gtk_widget_set_valign(k, GTK_ALIGN_START);
	gtk_style_context_add_class(gtk_widget_get_style_context(k), "dim-label");
	v = text_label(value, TRUE);
	gtk_widget_set_hexpand(v, TRUE);
	gtk_grid_attach(p->details_grid, k, 0, *row, 1, 1);
	gtk_grid_attach(p->details_grid, v, 1, *row, 1, 1);
	gtk_label_set_mnemonic_widget(GTK_LABEL(k), v);
	(*row)++;
}

/* a string of the denial as text to show, or NULL */
static char *denial_text(const char *s)
{
	return s ? ad_clean_text(s) : NULL;
}

/* an integer of the denial as text, or NULL when absent (-1) */
static char *denial_number(gint64 n)
{
	return n >= 0 ? g_strdup_printf("%" G_GINT64_FORMAT, n) : NULL;
}

/* strings of the document, one a line, cleaned; NULL when there are none */
static char *lines_of(char *const *list)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; list && list[i]; i++) {
		g_autofree char *t = ad_clean_text(list[i]);

		g_string_append_printf(s, "%s%s", s->len ? "\n" : "", t);
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* "web1 (3), web2 (1)" from host_counts (the daemon's), else the host names */
static char *hosts_text(AdAlertItem *a)
{
	const GPtrArray *counts = ad_alert_item_get_doc(a)->host_counts;
	g_autoptr(GString) s = g_string_new(NULL);

	if (!counts)
		return g_strdup(ad_alert_item_get_hosts_text(a));
	for (guint i = 0; i < counts->len; i++) {
		const AdHostCountDoc *c = g_ptr_array_index(counts, i);
		g_autofree char *h = ad_clean_text(c->host);

		g_string_append_printf(s, "%s%s (%" G_GUINT64_FORMAT ")", s->len ? ", " : "",
				       *h ? h : _("this host"), c->count);
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

static void fill_details(AdDetailPane *p)
{
	AdAlertItem *a = p->alert;
	const AdAlertDoc *doc = ad_alert_item_get_doc(a);
	const AdDenialDoc *d = doc->denial;
	g_autofree char *first = ad_format_time(ad_alert_item_get_first_seen(a));
	g_autofree char *last = ad_format_time(ad_alert_item_get_last_seen(a));
	g_autofree char *count = g_strdup_printf("%" G_GUINT64_FORMAT, ad_alert_item_get_count(a));
	g_autofree char *hosts = hosts_text(a);
	g_autofree char *paths = lines_of(doc->paths);
	g_autofree char *commands = lines_of(doc->commands);
	g_autofree char *permissions = NULL;
	int row = 0;

	remove_children(GTK_CONTAINER(p->details_grid));
	if (d) {
		g_autofree char *lines = lines_of(d->permissions);

		permissions = g_strdelimit(g_steal_pointer(&lines), "\n", ' ');
	}
	{
		g_autofree char *scontext = denial_text(d ? d->scontext : NULL);
		g_autofree char *tcontext = denial_text(d ? d->tcontext : NULL);
		g_autofree char *tclass = denial_text(d ? d->tclass : NULL);
		g_autofree char *path = denial_text(d ? d->path : NULL);
		g_autofree char *name = denial_text(d ? d->name : NULL);
		g_autofree char *exe = denial_text(d ? d->exe : NULL);
		g_autofree char *comm = denial_text(d ? d->comm : NULL);
		g_autofree char *cmdline = denial_text(d ? d->cmdline : NULL);
		g_autofree char *pid = denial_number(d ? d->pid : -1);
		g_autofree char *syscall = denial_text(d ? d->syscall : NULL);
		g_autofree char *reason = denial_text(d ? d->reason : NULL);
		g_autofree char *type = denial_text(d ? d->type : NULL);
		g_autofree char *file = denial_text(d ? d->file : NULL);
		g_autofree char *line = denial_number(d ? d->line : -1);
		g_autofree char *where = file && line ? g_strdup_printf("%s:%s", file, line)
						      : NULL;

		add_row(p, &row, _("Source context"), scontext);
		add_row(p, &row, _("Target context"), tcontext);
		add_row(p, &row, _("Class"), tclass);
		add_row(p, &row, _("Permissions"), permissions);
		add_row(p, &row, _("Path"), path ? path : name);
		add_row(p, &row, _("Paths seen"), paths);
		add_row(p, &row, _("Executable"), exe);
		add_row(p, &row, _("Command"), comm);
		add_row(p, &row, _("Command line"), cmdline);
		add_row(p, &row, _("Commands seen"), commands);
		add_row(p, &row, _("Process ID"), pid);
		add_row(p, &row, _("System call"), syscall);
		add_row(p, &row, _("Reason"), reason);
		add_row(p, &row, _("Record type"), type);
		add_row(p, &row, _("First seen"), first);
		add_row(p, &row, _("Last seen"), last);
		add_row(p, &row, _("Count"), count);
		/*
		 * the daemon counts a record without node= as its own host's; a log
		 * analysed offline may come from anywhere: its host is unknown
		 */
		add_row(p, &row, _("Hosts"), hosts && *hosts ? hosts
				   : doc->host_counts ? _("this host")
				   : _("unknown (the log names none)"));
		add_row(p, &row, _("Log file"), where);
		add_row(p, &row, _("Alert ID"), ad_alert_item_get_id(a));
	}
	gtk_widget_show_all(GTK_WIDGET(p->details_grid));
}

static void update_actions(AdDetailPane *p)
{
	gboolean ignored = p->alert && ad_alert_item_get_ignored(p->alert);

	gtk_button_set_label(p->ignore_button, ignored ? _("Un_ignore") : _("_Ignore"));
	atk_object_set_name(gtk_widget_get_accessible(GTK_WIDGET(p->ignore_button)),
			    ignored ? _("Unignore alert") : _("Ignore alert"));
	gtk_widget_set_sensitive(GTK_WIDGET(p->ignore_button), p->actions_enabled);
	gtk_widget_set_sensitive(GTK_WIDGET(p->delete_button), p->actions_enabled);
	if (!p->actions_enabled) {
		gtk_widget_set_tooltip_text(GTK_WIDGET(p->ignore_button), p->actions_why);
		gtk_widget_set_tooltip_text(GTK_WIDGET(p->delete_button), p->actions_why);
	} else {
		gtk_widget_set_tooltip_text(GTK_WIDGET(p->ignore_button),
					    ignored ? _("Show this alert again and notify about "
						        "it (Ctrl+I)")
						    : _("Hide this alert and stop notifying about "
							"it (Ctrl+I)"));
		gtk_widget_set_tooltip_text(GTK_WIDGET(p->delete_button),
					    _("Delete this alert from the daemon's store "
					      "(Delete)"));
	}
}

void ad_detail_pane_set_actions(AdDetailPane *p, gboolean enabled, const char *why)
{
	gboolean changed = p->actions_enabled != enabled;

	p->actions_enabled = enabled;
	g_free(p->actions_why);
	p->actions_why = g_strdup(why);
	update_actions(p);
	/* the Apply buttons come and go with the daemon */
	if (changed && p->alert)
		fill_suggestions(p);
}

/*
 * The explanation: its first line shown, the rest folded when the whole
 * would take more than three lines (a long first line is cut after its
 * first sentence).
 */
static void show_explanation(AdDetailPane *p, const char *text)
{
	const char *nl = strchr(text, '\n'), *cut = NULL;
	g_autofree char *head = NULL;

	if (strlen(text) > AD_EXPLANATION_SHORT || (nl && strchr(nl + 1, '\n')))
		cut = nl;
	if (cut && (gsize)(cut - text) > AD_EXPLANATION_SHORT)
		cut = NULL;
	if (!cut && strlen(text) > AD_EXPLANATION_SHORT) {
		const char *dot = strstr(text, ". ");

		if (dot && (gsize)(dot - text) < AD_EXPLANATION_SHORT)
			cut = dot + 1;
	}
	if (!cut) {
		gtk_label_set_text(p->explanation_label, text);
		gtk_widget_hide(GTK_WIDGET(p->explanation_more));
		return;
	}
	head = g_strndup(text, (gsize)(cut - text));
	gtk_label_set_text(p->explanation_label, head);
	gtk_label_set_text(p->explanation_rest, cut + 1 + (*(cut + 1) == ' '));
	gtk_expander_set_expanded(p->explanation_more, FALSE);
	gtk_widget_show(GTK_WIDGET(p->explanation_more));
}

void ad_detail_pane_show(AdDetailPane *p, AdAlertItem *a)
{
	g_autofree char *explanation = NULL, *records = NULL;
	GtkAdjustment *adj;

	if (a == p->alert)
		return;
	g_set_object(&p->alert, a);
	if (!a) {
		/*
		 * Emptied while still shown: GTK 3 label and button accessibles
		 * of widgets destroyed on a hidden page linger in a screen
		 * reader's cache with no state set (atk-bridge then logs
		 * Atk-CRITICALs).
		 */
		remove_children(GTK_CONTAINER(p->suggestions_box));
		remove_children(GTK_CONTAINER(p->more_box));
		remove_children(GTK_CONTAINER(p->details_grid));
		gtk_stack_set_visible_child_name(p->stack, "empty");
		return;
	}
	set_level(p, ad_alert_item_get_level(a));
	gtk_label_set_text(p->summary_label, ad_alert_item_get_summary(a));
	ad_timeline_strip_set(p->timeline, p->axis_first, p->axis_last,
			      ad_alert_item_get_first_seen(a), ad_alert_item_get_last_seen(a),
			      ad_alert_item_get_count(a), ad_alert_item_get_occurrences(a));
	explanation = ad_alert_item_explain(a);
	show_explanation(p, explanation);
	fill_suggestions(p);
	fill_details(p);
	records = lines_of(ad_alert_item_get_doc(a)->records);
	gtk_text_buffer_set_text(gtk_text_view_get_buffer(p->records_view),
				 records ? records : "", -1);
	update_actions(p);
	gtk_stack_set_visible_child_name(p->stack, "alert");
	adj = gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(p->scroller));
	gtk_adjustment_set_value(adj, 0);
}

void ad_detail_pane_set_time_axis(AdDetailPane *p, double first, double last)
{
	p->axis_first = first;
	p->axis_last = last;
}
