// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AdOverviewPane: the overview of all alerts (see overview-pane.h).  The
 * counts are the core's overview (the CLI's `analyze --summary`), laid out
 * as label grids; the chart is drawn with cairo in a GtkDrawingArea.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <glib/gi18n.h>

#include "alert-item.h"
#include "overview-pane.h"

#define TOP_ENTRIES 8		/* lines of the domain and host lists */
#define MAX_BARS 60

struct _AdOverviewPane {
	GtkBox parent_instance;
	GtkLabel *total_label;
	GtkLabel *chart_note;
	GtkWidget *chart;
	GtkGrid *grids[4];	/* levels, fixes, domains, hosts */
	AdTimeline *timeline;	/* a copy of what the chart shows, or NULL */
	int chosen;		/* the chosen bar, or -1 */
	int cursor;		/* the bar the keyboard is on, or -1 */
	double chosen_since;	/* the chosen bar's start, kept across updates */
};

enum { SIG_SPAN, N_SIGS };
static guint sigs[N_SIGS];

G_DEFINE_TYPE(AdOverviewPane, ad_overview_pane, GTK_TYPE_BOX)

char *ad_span_text(double since, double until)
{
	g_autoptr(GDateTime) a = g_date_time_new_from_unix_local((gint64)since);
	g_autoptr(GDateTime) b = g_date_time_new_from_unix_local((gint64)until);
	g_autofree char *from = NULL, *to = NULL;

	if (!a || !b)
		return g_strdup("");
	from = g_date_time_format(a, "%Y-%m-%d %H:%M");
	/* the end on the same day: its time only */
	if (g_date_time_get_year(a) == g_date_time_get_year(b) &&
	    g_date_time_get_day_of_year(a) == g_date_time_get_day_of_year(b))
		to = g_date_time_format(b, "%H:%M");
	else
		to = g_date_time_format(b, "%Y-%m-%d %H:%M");
	return g_strdup_printf("%s – %s", from, to);
}

/* a bin width in words: "5 minutes", "1 day" */
static char *step_text(double step)
{
	guint n;

	if (step < 3600) {
		n = (guint)(step / 60);
		return g_strdup_printf(ngettext("%u minute", "%u minutes", n), n);
	}
	if (step < 86400) {
		n = (guint)(step / 3600);
		return g_strdup_printf(ngettext("%u hour", "%u hours", n), n);
	}
	n = (guint)(step / 86400);
	return g_strdup_printf(ngettext("%u day", "%u days", n), n);
}

/* records as a whole number: an estimate's fractions are rounded */
static guint64 whole(double records)
{
	return (guint64)llround(records);
}

#define MAX_BAR_WIDTH 48	/* a few bars stay bars, not one wall */

/* the chart's geometry: where the bars go inside the widget (for @n bars) */
static void plot_area(GtkWidget *w, guint n, double *x, double *y, double *width,
		      double *height)
{
	*x = 8;
	*y = 18;
	*width = MAX(1, gtk_widget_get_allocated_width(w) - 16);
	if (n && *width / n > MAX_BAR_WIDTH)
		*width = (double)n * MAX_BAR_WIDTH;
	*height = MAX(1, gtk_widget_get_allocated_height(w) - 18 - 20);
}

/* the bar under @x, or -1 */
static int bar_at(AdOverviewPane *p, double x)
{
	double px, py, pw, ph;
	int i;

	if (!p->timeline)
		return -1;
	plot_area(p->chart, p->timeline->n, &px, &py, &pw, &ph);
	i = (int)floor((x - px) / (pw / p->timeline->n));
	return i >= 0 && i < (int)p->timeline->n ? i : -1;
}

static void draw_text(cairo_t *cr, GtkWidget *w, const char *text, double x, double y,
		      double xalign)
{
	PangoLayout *l = gtk_widget_create_pango_layout(w, text);
	int tw, th;

	pango_layout_get_pixel_size(l, &tw, &th);
	cairo_move_to(cr, x - xalign * tw, y);
	pango_cairo_show_layout(cr, l);
	g_object_unref(l);
}

static gboolean on_chart_draw(GtkWidget *w, cairo_t *cr, AdOverviewPane *p)
{
	GtkStyleContext *sc = gtk_widget_get_style_context(w);
	const AdTimeline *t = p->timeline;
	GdkRGBA fg;
	double px, py, pw, ph, bw;

	gtk_style_context_get_color(sc, gtk_style_context_get_state(sc), &fg);
	plot_area(w, t ? t->n : 0, &px, &py, &pw, &ph);
	if (!t || t->max <= 0) {
		cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.6);
		draw_text(cr, w, _("The records hold no times to chart."), px, py, 0);
		return FALSE;
	}
	bw = pw / t->n;
	/* the base line */
	cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.3);
	cairo_rectangle(cr, px, py + ph, pw, 1);
	cairo_fill(cr);
	for (guint i = 0; i < t->n; i++) {
		double h = t->bins[i] > 0 ? MAX(2, t->bins[i] / t->max * ph) : 0;
		double x = px + i * bw, gap = bw > 4 ? 1 : 0;

		if ((int)i == p->chosen)
			cairo_set_source_rgba(cr, 0.21, 0.52, 0.89, 1.0);
		else
			cairo_set_source_rgba(cr, 0.75, 0.11, 0.16, 0.75);
		cairo_rectangle(cr, x + gap, py + ph - h, MAX(1, bw - 2 * gap), h);
		cairo_fill(cr);
		if ((int)i == p->cursor && gtk_widget_has_focus(w)) {
			cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.9);
			cairo_set_line_width(cr, 1);
			cairo_rectangle(cr, x + 0.5, py + 0.5, MAX(1, bw - 1), ph - 1);
			cairo_stroke(cr);
		}
	}
	/* the scale: the highest bar, the first and the last time */
	cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.7);
	{
		g_autofree char *max = g_strdup_printf(ngettext("%" PRIu64 " denial",
								"%" PRIu64 " denials",
								whole(t->max)), whole(t->max));
		g_autofree char *from = ad_format_time(t->start);
		g_autofree char *to = ad_format_time(t->start + t->n * t->step);

		draw_text(cr, w, max, px, 0, 0);
		if (pw >= 320) {
			draw_text(cr, w, from, px, py + ph + 3, 0);
			draw_text(cr, w, to, px + pw, py + ph + 3, 1);
		} else {	/* a few narrow bars: the span in one line */
			g_autofree char *span = ad_span_text(t->start, t->start + t->n * t->step);

			draw_text(cr, w, span, px, py + ph + 3, 0);
		}
	}
	if (gtk_widget_has_focus(w) && p->cursor < 0)
		gtk_render_focus(sc, cr, 1, 1, gtk_widget_get_allocated_width(w) - 2,
				 gtk_widget_get_allocated_height(w) - 2);
	return FALSE;
}

/* the chart in words for a screen reader: its span, and the bar the keyboard is on */
static void describe_chart(AdOverviewPane *p)
{
	AtkObject *acc = gtk_widget_get_accessible(p->chart);
	const AdTimeline *t = p->timeline;
	g_autofree char *text = NULL;

	if (!t || t->max <= 0) {
		atk_object_set_description(acc, _("The records hold no times to chart."));
		return;
	}
	if (p->cursor >= 0) {
		double since, until;
		g_autofree char *span = NULL;

		ad_timeline_bin_span(t, (guint)p->cursor, &since, &until);
		span = ad_span_text(since, until);
		text = g_strdup_printf(ngettext("%s: %" PRIu64 " denial",
						"%s: %" PRIu64 " denials",
						whole(t->bins[p->cursor])),
				       span, whole(t->bins[p->cursor]));
	} else {
		g_autofree char *span = ad_span_text(t->start, t->start + t->n * t->step);
		g_autofree char *step = step_text(t->step);

		/* TRANSLATORS: %s: a time span; %u bars; %s: a bar's width ("5 minutes") */
		text = g_strdup_printf(ngettext("%s, %u bar of %s", "%s, %u bars of %s", t->n),
				       span, t->n, step);
	}
	atk_object_set_description(acc, text);
	gtk_widget_set_tooltip_text(p->chart, text);
}

/* the bar @i is chosen: shown, and the list asked to show its time */
static void choose(AdOverviewPane *p, int i)
{
	double since, until;

	if (!p->timeline || i < 0 || i >= (int)p->timeline->n || p->timeline->bins[i] <= 0)
		return;
	ad_timeline_bin_span(p->timeline, (guint)i, &since, &until);
	p->chosen = i;
	p->chosen_since = since;
	gtk_widget_queue_draw(p->chart);
	g_signal_emit(p, sigs[SIG_SPAN], 0, since, until);
}

static gboolean on_chart_press(GtkWidget *w, GdkEventButton *ev, AdOverviewPane *p)
{
	if (ev->type != GDK_BUTTON_PRESS || ev->button != GDK_BUTTON_PRIMARY)
		return GDK_EVENT_PROPAGATE;
	gtk_widget_grab_focus(w);
	p->cursor = bar_at(p, ev->x);
	describe_chart(p);
	choose(p, p->cursor);
	return GDK_EVENT_STOP;
}

/* the next bar with records from @from in direction @dir (+1/-1), or @from */
static int next_bar(AdOverviewPane *p, int from, int dir)
{
	for (int i = from + dir; i >= 0 && i < (int)p->timeline->n; i += dir)
		if (p->timeline->bins[i] > 0)
			return i;
	return from;
}

/* Left/Right: the previous or next bar with denials; Home/End: the first or last; Enter chooses */
static gboolean on_chart_key(GtkWidget *w, GdkEventKey *ev, AdOverviewPane *p)
{
	int n;

	if (!p->timeline || p->timeline->max <= 0)
		return GDK_EVENT_PROPAGATE;
	n = (int)p->timeline->n;
	switch (ev->keyval) {
	case GDK_KEY_Left:
	case GDK_KEY_KP_Left:
		p->cursor = p->cursor < 0 ? next_bar(p, n, -1) : next_bar(p, p->cursor, -1);
		break;
	case GDK_KEY_Right:
	case GDK_KEY_KP_Right:
		p->cursor = next_bar(p, p->cursor < 0 ? -1 : p->cursor, +1);
		break;
	case GDK_KEY_Home:
	case GDK_KEY_KP_Home:
		p->cursor = next_bar(p, -1, +1);
		break;
	case GDK_KEY_End:
	case GDK_KEY_KP_End:
		p->cursor = next_bar(p, n, -1);
		break;
	case GDK_KEY_Return:
	case GDK_KEY_KP_Enter:
	case GDK_KEY_space:
		choose(p, p->cursor);
		return GDK_EVENT_STOP;
	default:
		return GDK_EVENT_PROPAGATE;
	}
	describe_chart(p);
	gtk_widget_queue_draw(w);
	return GDK_EVENT_STOP;
}

static gboolean on_chart_tooltip(GtkWidget *w, int x, int y, gboolean keyboard,
				 GtkTooltip *tip, AdOverviewPane *p)
{
	int i = keyboard ? p->cursor : bar_at(p, x);
	double since, until;
	g_autofree char *span = NULL, *text = NULL;

	(void)w, (void)y;
	if (i < 0)
		return FALSE;
	ad_timeline_bin_span(p->timeline, (guint)i, &since, &until);
	span = ad_span_text(since, until);
	text = g_strdup_printf(ngettext("%s: %" PRIu64 " denial", "%s: %" PRIu64 " denials",
					whole(p->timeline->bins[i])),
			       span, whole(p->timeline->bins[i]));
	gtk_tooltip_set_text(tip, text);
	return TRUE;
}

static void on_chart_focus(GtkWidget *w, GdkEvent *ev, AdOverviewPane *p)
{
	(void)ev, (void)p;
	gtk_widget_queue_draw(w);
}

static GtkWidget *label(const char *text, const char *css_class)
{
	GtkWidget *l = gtk_label_new(text);

	gtk_label_set_xalign(GTK_LABEL(l), 0);
	gtk_label_set_line_wrap(GTK_LABEL(l), TRUE);
	gtk_label_set_line_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
	if (css_class)
		gtk_style_context_add_class(gtk_widget_get_style_context(l), css_class);
	return l;
}

/*
 * one titled list (a grid of name and count) of the lower half, added to
 * @lists; the flow box's child around it, which Tab reaches, is named by
 * its title for a screen reader
 */
static void section(AdOverviewPane *p, GtkWidget *lists, guint k, const char *title)
{
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
	GtkWidget *grid = gtk_grid_new();

	gtk_grid_set_column_spacing(GTK_GRID(grid), 12);
	gtk_grid_set_row_spacing(GTK_GRID(grid), 2);
	gtk_container_add(GTK_CONTAINER(box), label(title, "ad-heading"));
	gtk_container_add(GTK_CONTAINER(box), grid);
	gtk_widget_set_hexpand(box, TRUE);
	p->grids[k] = GTK_GRID(grid);
	gtk_container_add(GTK_CONTAINER(lists), box);
	atk_object_set_name(gtk_widget_get_accessible(gtk_widget_get_parent(box)), title);
}

static void ad_overview_pane_init(AdOverviewPane *p)
{
	GtkWidget *scroller = gtk_scrolled_window_new(NULL, NULL);
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
	GtkWidget *lists = gtk_flow_box_new();
	GtkWidget *hint, *head;

	p->chosen = p->cursor = -1;
	gtk_orientable_set_orientation(GTK_ORIENTABLE(p), GTK_ORIENTATION_VERTICAL);
	gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller), GTK_POLICY_NEVER,
				       GTK_POLICY_AUTOMATIC);
	gtk_widget_set_vexpand(scroller, TRUE);
	g_object_set(box, "margin", 12, NULL);
	hint = label(_("Select an alert to see why it happened and how to fix it."), "dim-label");
	gtk_container_add(GTK_CONTAINER(box), hint);
	head = label(_("Overview"), "ad-heading");
	gtk_container_add(GTK_CONTAINER(box), head);
	p->total_label = GTK_LABEL(label(NULL, NULL));
	gtk_label_set_selectable(p->total_label, TRUE);
	gtk_container_add(GTK_CONTAINER(box), GTK_WIDGET(p->total_label));
	gtk_container_add(GTK_CONTAINER(box), label(_("Denials over time"), "ad-heading"));
	p->chart_note = GTK_LABEL(label(NULL, "dim-label"));
	gtk_container_add(GTK_CONTAINER(box), GTK_WIDGET(p->chart_note));
	p->chart = gtk_drawing_area_new();
	gtk_widget_set_size_request(p->chart, 200, 130);
	gtk_widget_set_can_focus(p->chart, TRUE);
	gtk_widget_set_has_tooltip(p->chart, TRUE);
	gtk_widget_add_events(p->chart, GDK_BUTTON_PRESS_MASK | GDK_KEY_PRESS_MASK |
				       GDK_FOCUS_CHANGE_MASK);
	atk_object_set_name(gtk_widget_get_accessible(p->chart), _("Denials over time"));
	g_signal_connect(p->chart, "draw", G_CALLBACK(on_chart_draw), p);
	g_signal_connect(p->chart, "button-press-event", G_CALLBACK(on_chart_press), p);
	g_signal_connect(p->chart, "key-press-event", G_CALLBACK(on_chart_key), p);
	g_signal_connect(p->chart, "query-tooltip", G_CALLBACK(on_chart_tooltip), p);
	g_signal_connect(p->chart, "focus-in-event", G_CALLBACK(on_chart_focus), p);
	g_signal_connect(p->chart, "focus-out-event", G_CALLBACK(on_chart_focus), p);
	gtk_container_add(GTK_CONTAINER(box), p->chart);
	gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(lists), GTK_SELECTION_NONE);
	gtk_flow_box_set_min_children_per_line(GTK_FLOW_BOX(lists), 2);
	gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(lists), 4);
	gtk_flow_box_set_column_spacing(GTK_FLOW_BOX(lists), 24);
	gtk_flow_box_set_homogeneous(GTK_FLOW_BOX(lists), TRUE);
	atk_object_set_name(gtk_widget_get_accessible(lists), _("Counts"));
	section(p, lists, 0, _("By level"));
	section(p, lists, 1, _("First fix offered"));
	section(p, lists, 2, _("Top source domains"));
	section(p, lists, 3, _("Hosts"));
	gtk_container_add(GTK_CONTAINER(box), lists);
	gtk_container_add(GTK_CONTAINER(scroller), box);
	gtk_container_add(GTK_CONTAINER(p), scroller);
	gtk_widget_show_all(scroller);
}

static void ad_overview_pane_finalize(GObject *obj)
{
	ad_timeline_free(AD_OVERVIEW_PANE(obj)->timeline);
	G_OBJECT_CLASS(ad_overview_pane_parent_class)->finalize(obj);
}

static void ad_overview_pane_class_init(AdOverviewPaneClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = ad_overview_pane_finalize;
	sigs[SIG_SPAN] = g_signal_new("span-activated", G_TYPE_FROM_CLASS(klass),
				      G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 2,
				      G_TYPE_DOUBLE, G_TYPE_DOUBLE);
	gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "adoverviewpane");
}

GtkWidget *ad_overview_pane_new(void)
{
	return g_object_new(AD_TYPE_OVERVIEW_PANE, NULL);
}

static void remove_children(GtkContainer *c)
{
	g_autoptr(GList) children = gtk_container_get_children(c);

	for (GList *l = children; l; l = l->next)
		gtk_widget_destroy(l->data);
}

/* one line of a list: the name, and its count right of it */
static void add_line(GtkGrid *g, int row, const char *name, const char *count,
		     const char *css_class)
{
	GtkWidget *n = label(name, css_class), *c = label(count, NULL);

	gtk_label_set_line_wrap(GTK_LABEL(n), FALSE);
	gtk_label_set_ellipsize(GTK_LABEL(n), PANGO_ELLIPSIZE_END);
	gtk_label_set_max_width_chars(GTK_LABEL(n), 34);
	gtk_widget_set_tooltip_text(n, name);
	gtk_widget_set_hexpand(n, TRUE);
	gtk_label_set_xalign(GTK_LABEL(c), 1);
	/* the count read out with its line's name: "Red: 1 alert, 2 records" */
	if (*count) {
		g_autofree char *both = g_strdup_printf("%s: %s", name, count);

		atk_object_set_name(gtk_widget_get_accessible(c), both);
	}
	gtk_grid_attach(g, n, 0, row, 1, 1);
	gtk_grid_attach(g, c, 1, row, 1, 1);
}

static char *alerts_records(guint alerts, guint64 records)
{
	g_autofree char *a = g_strdup_printf(ngettext("%u alert", "%u alerts", alerts), alerts);

	/* TRANSLATORS: "3 alerts, 12 records" */
	return g_strdup_printf(ngettext("%s, %" PRIu64 " record", "%s, %" PRIu64 " records",
					records), a, records);
}

/* a domain or host list, at most TOP_ENTRIES lines and "and N more" */
static void fill_entries(GtkGrid *g, GPtrArray *entries, gboolean hosts, const char *unnamed)
{
	int row = 0;

	for (guint i = 0; i < entries->len && i < TOP_ENTRIES; i++) {
		const AdOverviewEntry *e = g_ptr_array_index(entries, i);
		g_autofree char *name = ad_clean_text(e->name);
		g_autofree char *count = NULL;

		if (hosts && !*name) {
			g_free(name);
			name = g_strdup(unnamed);
		}
		/* several hosts of one alert without per-host counts: its alerts only */
		count = hosts && !e->records
			? g_strdup_printf(ngettext("%u alert", "%u alerts", e->alerts), e->alerts)
			: alerts_records(e->alerts, e->records);
		add_line(g, row++, name, count, NULL);
	}
	if (entries->len > TOP_ENTRIES) {
		g_autofree char *more = g_strdup_printf(ngettext("and %u more", "and %u more",
								 entries->len - TOP_ENTRIES),
							entries->len - TOP_ENTRIES);

		add_line(g, row, more, "", "dim-label");
	}
}

static void fill_lists(AdOverviewPane *p, const AdOverview *o, gboolean live)
{
	static const char *const level_classes[] = { "ad-text-green", "ad-text-yellow",
						     "ad-text-red" };
	int row = 0;

	for (guint k = 0; k < G_N_ELEMENTS(p->grids); k++)
		remove_children(GTK_CONTAINER(p->grids[k]));
	for (int l = AD_LEVEL_RED; l >= AD_LEVEL_GREEN; l--) {
		g_autofree char *count = alerts_records(o->alerts_by_level[l],
							o->records_by_level[l]);

		add_line(p->grids[0], row++, ad_level_label(l), count, level_classes[l]);
	}
	row = 0;
	for (guint k = 0; k <= AD_FIX_INFO + 1; k++) {
		g_autofree char *count = NULL;

		if (!o->alerts_by_fix[k])
			continue;
		count = g_strdup_printf(ngettext("%u alert", "%u alerts", o->alerts_by_fix[k]),
					o->alerts_by_fix[k]);
		add_line(p->grids[1], row++, ad_overview_fix_text(k), count, NULL);
	}
	fill_entries(p->grids[2], o->sources, FALSE, NULL);
	/* the daemon counts records without node= as its own host's; a log's are unknown */
	fill_entries(p->grids[3], o->hosts, TRUE,
		     live ? _("this host") : _("unknown (the log names none)"));
	for (guint k = 0; k < G_N_ELEMENTS(p->grids); k++)
		gtk_widget_show_all(GTK_WIDGET(p->grids[k]));
}

void ad_overview_pane_update(AdOverviewPane *p, const AdOverview *o, const AdTimeline *t,
			     gboolean estimated, gboolean live)
{
	g_autoptr(GString) total = g_string_new(NULL);
	g_autoptr(GString) note = g_string_new(NULL);

	g_string_append_printf(total, ngettext("%" PRIu64 " denial record",
					       "%" PRIu64 " denial records", o->records),
			       o->records);
	g_string_append_printf(total, ngettext(" in %u alert", " in %u alerts", o->alerts),
			       o->alerts);
	if (o->first_seen > 0) {
		g_autofree char *a = ad_format_time(o->first_seen);
		g_autofree char *b = ad_format_time(o->last_seen);

		g_string_append_printf(total, _(", from %s to %s"), a, b);
	}
	g_string_append_c(total, '.');
	gtk_label_set_text(p->total_label, total->str);
	fill_lists(p, o, live);
	ad_timeline_free(p->timeline);
	p->timeline = NULL;
	p->chosen = p->cursor = -1;
	if (t) {
		p->timeline = g_memdup2(t, sizeof(*t));
		p->timeline->bins = g_memdup2(t->bins, t->n * sizeof(double));
		if (p->chosen_since > 0)
			p->chosen = ad_timeline_bin_at(p->timeline, p->chosen_since + 1);
	}
	if (p->timeline && p->timeline->max > 0) {
		g_autofree char *step = step_text(p->timeline->step);

		/* TRANSLATORS: %s: the width of a bar ("5 minutes") */
		g_string_append_printf(note, _("Each bar is %s. Click a bar, or choose one with "
					       "the arrow keys and Enter, to list the alerts seen "
					       "then."), step);
		if (estimated)
			g_string_append_printf(note, " %s",
					       _("Some alerts were stored before the daemon kept "
						 "when each denial happened: their earlier denials "
						 "are spread evenly between their first and last "
						 "time."));
	}
	gtk_label_set_text(p->chart_note, note->str);
	gtk_widget_set_visible(GTK_WIDGET(p->chart_note), note->len > 0);
	describe_chart(p);
	gtk_widget_queue_draw(p->chart);
}

void ad_overview_pane_set_chosen(AdOverviewPane *p, double since)
{
	p->chosen_since = since;
	p->chosen = since > 0 && p->timeline ? ad_timeline_bin_at(p->timeline, since + 1) : -1;
	gtk_widget_queue_draw(p->chart);
}
