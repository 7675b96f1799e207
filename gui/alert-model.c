// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AdAlertModel: the alerts of the browser, filtered and sorted, with no GTK
 * dependency so that tests/unit/test-browser-model.c can drive it headless.
 *
 * Every alert is kept in @by_id (id -> AdAlertItem); @view holds those that
 * pass the filter, in sort order.  Changing the filter or the sort rebuilds
 * the view (n log n, one items-changed); an upsert or a removal moves one
 * row (binary search, one or two items-changed), which is what keeps a
 * live list cheap while the daemon reports a flood.
 */
#include "config.h"

#include <string.h>

#include "alert-model.h"
#include "analysis/select.h"

struct _AdAlertModel {
	GObject parent_instance;
	GHashTable *by_id;		/* id -> AdAlertItem (ref) */
	GPtrArray *view;		/* AdAlertItem (ref), filtered and sorted */
	GHashTable *hosts;		/* host name -> number of alerts seen there */
	guint n_ignored;
	/* the filter, owned copies; words casefolded */
	char *host;
	GStrv words;
	guint levels;
	double since, until;
	gboolean show_ignored;
	GHashTable *ids;		/* only these ids (ref), or NULL */
	AdColumn sort_column;
	gboolean sort_descending;
};

enum { SIGNAL_HOSTS_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void list_model_iface_init(GListModelInterface *iface);

G_DEFINE_TYPE_WITH_CODE(AdAlertModel, ad_alert_model, G_TYPE_OBJECT,
			G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, list_model_iface_init))

static GType model_get_item_type(GListModel *list)
{
	(void)list;
	return AD_TYPE_ALERT_ITEM;
}

static guint model_get_n_items(GListModel *list)
{
	return AD_ALERT_MODEL(list)->view->len;
}

static gpointer model_get_item(GListModel *list, guint position)
{
	AdAlertModel *m = AD_ALERT_MODEL(list);

	if (position >= m->view->len)
		return NULL;
	return g_object_ref(g_ptr_array_index(m->view, position));
}

static void list_model_iface_init(GListModelInterface *iface)
{
	iface->get_item_type = model_get_item_type;
	iface->get_n_items = model_get_n_items;
	iface->get_item = model_get_item;
}

static void ad_alert_model_finalize(GObject *obj)
{
	AdAlertModel *m = AD_ALERT_MODEL(obj);

	g_ptr_array_unref(m->view);
	g_hash_table_unref(m->by_id);
	g_hash_table_unref(m->hosts);
	g_free(m->host);
	g_strfreev(m->words);
	g_clear_pointer(&m->ids, g_hash_table_unref);
	G_OBJECT_CLASS(ad_alert_model_parent_class)->finalize(obj);
}

static void ad_alert_model_class_init(AdAlertModelClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = ad_alert_model_finalize;
	signals[SIGNAL_HOSTS_CHANGED] = g_signal_new("hosts-changed", G_TYPE_FROM_CLASS(klass),
						     G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
						     G_TYPE_NONE, 0);
}

static void ad_alert_model_init(AdAlertModel *m)
{
	m->by_id = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
	m->view = g_ptr_array_new_with_free_func(g_object_unref);
	m->hosts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	m->sort_column = AD_COLUMN_LAST_SEEN;
	m->sort_descending = TRUE;
}

AdAlertModel *ad_alert_model_new(void)
{
	return g_object_new(AD_TYPE_ALERT_MODEL, NULL);
}

/* what the filter looks at of @a */
static AdSelectItem select_item(AdAlertItem *a)
{
	return (AdSelectItem){
		.first_seen = ad_alert_item_get_first_seen(a),
		.last_seen = ad_alert_item_get_last_seen(a),
		.hosts = (char *const *)ad_alert_item_get_hosts(a),
		.level = ad_alert_item_get_level(a), .ignored = ad_alert_item_get_ignored(a),
		.id = ad_alert_item_get_id(a), .text = ad_alert_item_get_haystack(a),
	};
}

/* the one filter of analyze, list and the browser (analysis/select.h) */
static gboolean matches(char **words, const char *host, guint levels, double since,
			double until, gboolean show_ignored, GHashTable *ids, AdAlertItem *a)
{
	char *hosts[] = { (char *)host, NULL };
	AdSelect s = {
		.since = since, .until = until, .until_before = TRUE,
		.hosts = host && *host ? hosts : NULL, .levels = levels,
		.hide_ignored = !show_ignored, .ids = ids, .words = words,
	};
	AdSelectItem it = select_item(a);

	return ad_select_item(&s, &it) == AD_SELECT_IN;
}

gboolean ad_alert_batch_contains(const AdAlertBatch *b, AdAlertItem *a)
{
	AdSelect s = { 0 };
	AdSelectItem it;

	if (!b)
		return TRUE;
	s.ids = b->ids;
	s.since = b->since;
	it = select_item(a);
	return ad_select_item(&s, &it) == AD_SELECT_IN;
}

gboolean ad_alert_filter_matches(const AdAlertFilter *f, AdAlertItem *a)
{
	g_auto(GStrv) words = ad_select_words(f->text);

	return matches(words, f->host, f->levels, f->since, f->until,
		       f->show_ignored, f->ids, a);
}

static gboolean model_matches(AdAlertModel *m, AdAlertItem *a)
{
	return matches(m->words, m->host, m->levels, m->since,
		       m->until, m->show_ignored, m->ids, a);
}

static int cmp_num(double a, double b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

/* strings compare as a person expects (collation), empty ones last */
static int cmp_text(const char *a, const char *b)
{
	if (!*a || !*b)
		return !*a - !*b;
	return g_utf8_collate(a, b);
}

int ad_alert_compare(AdAlertItem *a, AdAlertItem *b, AdColumn column, gboolean descending)
{
	int r = 0;

	switch (column) {
	case AD_COLUMN_LEVEL:
		r = cmp_num(ad_alert_item_get_level(a), ad_alert_item_get_level(b));
		break;
	case AD_COLUMN_SUMMARY:
		r = cmp_text(ad_alert_item_get_headline(a), ad_alert_item_get_headline(b));
		break;
	case AD_COLUMN_SOURCE:
		r = cmp_text(ad_alert_item_get_source(a), ad_alert_item_get_source(b));
		break;
	case AD_COLUMN_TARGET:
		r = cmp_text(ad_alert_item_get_target(a), ad_alert_item_get_target(b));
		break;
	case AD_COLUMN_CLASS:
		r = cmp_text(ad_alert_item_get_tclass(a), ad_alert_item_get_tclass(b));
		break;
	case AD_COLUMN_PERMISSIONS:
		r = cmp_text(ad_alert_item_get_perms(a), ad_alert_item_get_perms(b));
		break;
	case AD_COLUMN_COUNT:
		r = cmp_num((double)ad_alert_item_get_count(a), (double)ad_alert_item_get_count(b));
		break;
	case AD_COLUMN_HOST:
		r = cmp_text(ad_alert_item_get_hosts_text(a), ad_alert_item_get_hosts_text(b));
		break;
	case AD_COLUMN_LAST_SEEN:
		r = cmp_num(ad_alert_item_get_last_seen(a), ad_alert_item_get_last_seen(b));
		break;
	case AD_N_COLUMNS:
		break;
	}
	if (descending)
		r = -r;
	if (r == 0)
		r = -cmp_num(ad_alert_item_get_last_seen(a), ad_alert_item_get_last_seen(b));
	if (r == 0)
		r = strcmp(ad_alert_item_get_id(a), ad_alert_item_get_id(b));
	return r;
}

static int view_compare(gconstpointer pa, gconstpointer pb, gpointer data)
{
	AdAlertModel *m = data;

	return ad_alert_compare(*(AdAlertItem **)pa, *(AdAlertItem **)pb, m->sort_column,
				m->sort_descending);
}

/* where @a goes in the view (binary search) */
static guint insert_position(AdAlertModel *m, AdAlertItem *a)
{
	guint lo = 0, hi = m->view->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (ad_alert_compare(g_ptr_array_index(m->view, mid), a, m->sort_column,
				     m->sort_descending) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* rebuilds the view from every alert; one items-changed */
static void rebuild(AdAlertModel *m)
{
	guint old = m->view->len;
	GHashTableIter it;
	gpointer item;

	g_ptr_array_set_size(m->view, 0);
	g_hash_table_iter_init(&it, m->by_id);
	while (g_hash_table_iter_next(&it, NULL, &item)) {
		if (model_matches(m, item))
			g_ptr_array_add(m->view, g_object_ref(item));
	}
	g_ptr_array_sort_with_data(m->view, view_compare, m);
	if (old || m->view->len)
		g_list_model_items_changed(G_LIST_MODEL(m), 0, old, m->view->len);
}

/* counts the hosts of @a in (+1) or out (-1); TRUE when a name came or went */
static gboolean count_hosts(AdAlertModel *m, AdAlertItem *a, int delta)
{
	const char *const *hosts = ad_alert_item_get_hosts(a);
	gboolean changed = FALSE;

	for (guint i = 0; hosts[i]; i++) {
		guint n = GPOINTER_TO_UINT(g_hash_table_lookup(m->hosts, hosts[i]));

		if (delta > 0) {
			changed |= n == 0;
			g_hash_table_insert(m->hosts, g_strdup(hosts[i]), GUINT_TO_POINTER(n + 1));
		} else if (n <= 1) {
			changed |= g_hash_table_remove(m->hosts, hosts[i]);
		} else {
			g_hash_table_insert(m->hosts, g_strdup(hosts[i]), GUINT_TO_POINTER(n - 1));
		}
	}
	return changed;
}

/* the position of @a (this very object) in the view, or -1 */
static int view_index(AdAlertModel *m, AdAlertItem *a)
{
	guint pos;

	if (!model_matches(m, a))
		return -1;
	pos = insert_position(m, a);
	return pos < m->view->len && g_ptr_array_index(m->view, pos) == a ? (int)pos : -1;
}

/* takes @old out of the set (and the view); returns its former view position or -1 */
static int forget(AdAlertModel *m, AdAlertItem *old, gboolean *hosts_changed)
{
	int pos = view_index(m, old);

	if (pos >= 0)
		g_ptr_array_remove_index(m->view, pos);
	*hosts_changed |= count_hosts(m, old, -1);
	if (ad_alert_item_get_ignored(old))
		m->n_ignored--;
	return pos;
}

void ad_alert_model_upsert(AdAlertModel *m, AdAlertItem *a)
{
	AdAlertItem *old = g_hash_table_lookup(m->by_id, ad_alert_item_get_id(a));
	gboolean hosts_changed = FALSE;
	int old_pos = -1;
	guint pos;

	g_object_ref(a);
	if (old)
		old_pos = forget(m, old, &hosts_changed);
	g_hash_table_replace(m->by_id, g_strdup(ad_alert_item_get_id(a)), a);
	hosts_changed |= count_hosts(m, a, +1);
	if (ad_alert_item_get_ignored(a))
		m->n_ignored++;
	if (!model_matches(m, a)) {
		if (old_pos >= 0)
			g_list_model_items_changed(G_LIST_MODEL(m), old_pos, 1, 0);
	} else {
		pos = insert_position(m, a);
		g_ptr_array_insert(m->view, pos, g_object_ref(a));
		if (old_pos == (int)pos) {
			g_list_model_items_changed(G_LIST_MODEL(m), pos, 1, 1);
		} else {
			if (old_pos >= 0)
				g_list_model_items_changed(G_LIST_MODEL(m), old_pos, 1, 0);
			g_list_model_items_changed(G_LIST_MODEL(m), pos, 0, 1);
		}
	}
	if (hosts_changed)
		g_signal_emit(m, signals[SIGNAL_HOSTS_CHANGED], 0);
}

guint ad_alert_model_load_json(AdAlertModel *m, const char *const *texts, GPtrArray *ret_errors)
{
	guint bad = 0;

	for (guint i = 0; texts && texts[i]; i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(AdAlertItem) a = ad_alert_item_new_from_json(texts[i], &error);

		if (a) {
			ad_alert_model_upsert(m, a);
			continue;
		}
		bad++;
		if (ret_errors)
			g_ptr_array_add(ret_errors, g_strdup(error->message));
	}
	return bad;
}

gboolean ad_alert_model_remove(AdAlertModel *m, const char *id)
{
	AdAlertItem *old = g_hash_table_lookup(m->by_id, id);
	gboolean hosts_changed = FALSE;
	int pos;

	if (!old)
		return FALSE;
	pos = forget(m, old, &hosts_changed);
	g_hash_table_remove(m->by_id, id);
	if (pos >= 0)
		g_list_model_items_changed(G_LIST_MODEL(m), pos, 1, 0);
	if (hosts_changed)
		g_signal_emit(m, signals[SIGNAL_HOSTS_CHANGED], 0);
	return TRUE;
}

void ad_alert_model_clear(AdAlertModel *m)
{
	guint old = m->view->len;
	gboolean had_hosts = g_hash_table_size(m->hosts) > 0;

	g_ptr_array_set_size(m->view, 0);
	g_hash_table_remove_all(m->by_id);
	g_hash_table_remove_all(m->hosts);
	m->n_ignored = 0;
	if (old)
		g_list_model_items_changed(G_LIST_MODEL(m), 0, old, 0);
	if (had_hosts)
		g_signal_emit(m, signals[SIGNAL_HOSTS_CHANGED], 0);
}

AdAlertItem *ad_alert_model_lookup(AdAlertModel *m, const char *id)
{
	return id ? g_hash_table_lookup(m->by_id, id) : NULL;
}

GPtrArray *ad_alert_model_get_all(AdAlertModel *m)
{
	GPtrArray *all = g_ptr_array_sized_new(g_hash_table_size(m->by_id));
	GHashTableIter it;
	gpointer item;

	g_hash_table_iter_init(&it, m->by_id);
	while (g_hash_table_iter_next(&it, NULL, &item))
		g_ptr_array_add(all, item);
	return all;
}

int ad_alert_model_find(AdAlertModel *m, const char *id)
{
	AdAlertItem *a = ad_alert_model_lookup(m, id);

	return a ? view_index(m, a) : -1;
}

guint ad_alert_model_get_total(AdAlertModel *m)
{
	return g_hash_table_size(m->by_id);
}

guint ad_alert_model_get_n_ignored(AdAlertModel *m)
{
	return m->n_ignored;
}

void ad_alert_model_set_filter(AdAlertModel *m, const AdAlertFilter *f)
{
	g_free(m->host);
	m->host = f->host && *f->host ? g_strdup(f->host) : NULL;
	g_strfreev(m->words);
	m->words = ad_select_words(f->text);
	m->levels = f->levels;
	m->since = f->since;
	m->until = f->until;
	m->show_ignored = f->show_ignored;
	g_clear_pointer(&m->ids, g_hash_table_unref);
	m->ids = f->ids ? g_hash_table_ref(f->ids) : NULL;
	rebuild(m);
}

void ad_alert_model_set_sort(AdAlertModel *m, AdColumn column, gboolean descending)
{
	if (column >= AD_N_COLUMNS)
		return;
	m->sort_column = column;
	m->sort_descending = descending;
	rebuild(m);
}

void ad_alert_model_get_sort(AdAlertModel *m, AdColumn *ret_column, gboolean *ret_descending)
{
	*ret_column = m->sort_column;
	*ret_descending = m->sort_descending;
}

static int cmp_strp(gconstpointer a, gconstpointer b, gpointer data)
{
	(void)data;
	return g_utf8_collate(*(const char *const *)a, *(const char *const *)b);
}

GStrv ad_alert_model_get_hosts(AdAlertModel *m)
{
	guint n = 0;
	g_autofree gpointer *keys = g_hash_table_get_keys_as_array(m->hosts, &n);
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();

	g_qsort_with_data(keys, (gint)n, sizeof(*keys), cmp_strp, NULL);
	for (guint i = 0; i < n; i++)
		g_strv_builder_add(b, keys[i]);
	return g_strv_builder_end(b);
}
