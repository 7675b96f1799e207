// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source of the browser: avcdoctor-dispatch's alerts over D-Bus,
 * through the proxy generated from the interface (client/, AdAlerts1).
 * A failed call (no daemon, not authorised, a reply too large for the bus)
 * becomes a "status" message for the window's info bar, never a crash.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "alerts1-generated.h"
#include "dbus-source.h"

#define AD_CALL_TIMEOUT_MS 60000
#define AD_COALESCE_MS 250
/*
 * GetAlert calls in flight at most: a bus refuses more pending replies per
 * connection than its limit (128 on a system bus); the others wait
 */
#define AD_MAX_FETCHES 32

/*
 * ListAlerts answers in one message, which the daemon keeps below the
 * bus' limit (the newest alerts that fit); should the bus refuse it all
 * the same, the store is listed again for a shorter period, newest first
 * (seconds back; 0 = everything).
 */
static const struct {
	double seconds;
	const char *period;
} list_periods[] = {
	{ 0, NULL },
	{ 7 * 24 * 3600, N_("the last 7 days") },
	{ 24 * 3600, N_("the last 24 hours") },
	{ 3600, N_("the last hour") },
};

struct _AdDbusSource {
	GObject parent_instance;
	AdAlerts1 *proxy;		/* NULL until connected */
	GCancellable *cancel;
	gboolean running;
	GHashTable *pending;		/* ids to fetch */
	guint pending_source;
	guint fetching;			/* GetAlert calls in flight */
	guint list_period;		/* index in list_periods of the ListAlerts call */
};

enum { SIG_LISTED, SIG_CHANGED, SIG_REMOVED, SIG_STATUS, N_SIGS };
static guint sigs[N_SIGS];

G_DEFINE_TYPE(AdDbusSource, ad_dbus_source, G_TYPE_OBJECT)

static void ad_dbus_source_dispose(GObject *obj)
{
	AdDbusSource *s = AD_DBUS_SOURCE(obj);

	g_cancellable_cancel(s->cancel);
	g_clear_handle_id(&s->pending_source, g_source_remove);
	if (s->proxy)
		g_signal_handlers_disconnect_by_data(s->proxy, s);
	g_clear_object(&s->proxy);
	G_OBJECT_CLASS(ad_dbus_source_parent_class)->dispose(obj);
}

static void ad_dbus_source_finalize(GObject *obj)
{
	AdDbusSource *s = AD_DBUS_SOURCE(obj);

	g_object_unref(s->cancel);
	g_hash_table_unref(s->pending);
	G_OBJECT_CLASS(ad_dbus_source_parent_class)->finalize(obj);
}

static void ad_dbus_source_class_init(AdDbusSourceClass *klass)
{
	GObjectClass *oc = G_OBJECT_CLASS(klass);

	oc->dispose = ad_dbus_source_dispose;
	oc->finalize = ad_dbus_source_finalize;
	sigs[SIG_LISTED] = g_signal_new("listed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
					0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRV);
	sigs[SIG_CHANGED] = g_signal_new("changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
					 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
	sigs[SIG_REMOVED] = g_signal_new("removed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
					 0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
	sigs[SIG_STATUS] = g_signal_new("status", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST,
					0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN,
					G_TYPE_STRING);
}

static void ad_dbus_source_init(AdDbusSource *s)
{
	s->cancel = g_cancellable_new();
	s->pending = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

AdDbusSource *ad_dbus_source_new(void)
{
	return g_object_new(AD_TYPE_DBUS_SOURCE, NULL);
}

gboolean ad_dbus_source_is_running(AdDbusSource *s)
{
	return s->running;
}

/* a failed call as a message for the user: what we tried, and what the bus said */
static void report_error(AdDbusSource *s, const char *what, GError *error)
{
	g_autofree char *remote = g_dbus_error_get_remote_error(error);
	g_autofree char *msg = NULL;

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	g_dbus_error_strip_remote_error(error);
	/* the proxy does not send calls while the name has no owner */
	if ((!remote && !s->running) ||
	    (remote && (g_str_equal(remote, "org.freedesktop.DBus.Error.ServiceUnknown") ||
			g_str_equal(remote, "org.freedesktop.DBus.Error.NameHasNoOwner"))))
		msg = g_strdup_printf(_("%s: the avcdoctor daemon (avcdoctor-dispatch) is not "
					"running"), what);
	else if (g_error_matches(error, AD_ALERTS_ERROR, AD_ALERTS_ERROR_ACCESS_DENIED) ||
		 (remote && g_str_equal(remote, "org.freedesktop.DBus.Error.AccessDenied")))
		msg = g_strdup_printf(_("%s: not allowed (only root and the administrators "
					"may read and change alerts): %s"), what, error->message);
	else
		msg = g_strdup_printf("%s: %s", what, error->message);
	g_signal_emit(s, sigs[SIG_STATUS], 0, s->running, msg);
}

/* whether calls can be made; says why not when they cannot */
static gboolean connected(AdDbusSource *s)
{
	if (!s->proxy)
		g_signal_emit(s, sigs[SIG_STATUS], 0, FALSE, _("Not connected to the system bus."));
	return s->proxy != NULL;
}

/* a failure that a shorter period may avoid: the reply would be too large */
static gboolean too_large(const GError *error)
{
	g_autofree char *remote = g_dbus_error_get_remote_error(error);

	return g_error_matches(error, AD_ALERTS_ERROR, AD_ALERTS_ERROR_FAILED) ||
	       (remote && g_str_equal(remote, "org.freedesktop.DBus.Error.LimitsExceeded"));
}

static void list(AdDbusSource *s);

static void on_listed(GObject *proxy, GAsyncResult *res, gpointer data)
{
	g_autoptr(AdDbusSource) s = data;
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) alerts = NULL;
	g_autofree char *note = NULL;
	gboolean r = ad_alerts1_call_list_alerts_finish(AD_ALERTS1(proxy), &alerts, res, &error);

	if (!r && too_large(error) && s->list_period + 1 < G_N_ELEMENTS(list_periods)) {
		s->list_period++;
		list(s);
		return;
	}
	if (!r) {
		report_error(s, _("Cannot list the alerts"), error);
		return;
	}
	g_signal_emit(s, sigs[SIG_LISTED], 0, alerts);
	if (s->list_period)
		note = g_strdup_printf(_("There are too many alerts to list in one message: "
					 "only those seen in %s are shown. Newer ones are added "
					 "as they come."), _(list_periods[s->list_period].period));
	g_signal_emit(s, sigs[SIG_STATUS], 0, s->running, note);
}

/* ListAlerts for the current period, ignored alerts included (the window filters) */
static void list(AdDbusSource *s)
{
	double since = 0;

	if (list_periods[s->list_period].seconds > 0)
		since = g_get_real_time() / 1e6 - list_periods[s->list_period].seconds;
	if (connected(s))
		ad_alerts1_call_list_alerts(s->proxy, since, TRUE, "", s->cancel, on_listed,
					    g_object_ref(s));
}

void ad_dbus_source_refresh(AdDbusSource *s)
{
	s->list_period = 0;
	list(s);
}

static gboolean fetch_pending(gpointer data);

static void on_fetched(GObject *proxy, GAsyncResult *res, gpointer data)
{
	g_autoptr(AdDbusSource) s = data;
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;

	s->fetching--;
	if (ad_alerts1_call_get_alert_finish(AD_ALERTS1(proxy), &text, res, &error))
		g_signal_emit(s, sigs[SIG_CHANGED], 0, text);
	else
		report_error(s, _("Cannot read the alert"), error);
	/* the ids that waited for a call to end */
	if (!s->pending_source && g_hash_table_size(s->pending) &&
	    !g_cancellable_is_cancelled(s->cancel))
		fetch_pending(s);
}

void ad_dbus_source_fetch(AdDbusSource *s, const char *id)
{
	if (!connected(s))
		return;
	s->fetching++;
	ad_alerts1_call_get_alert(s->proxy, id, s->cancel, on_fetched, g_object_ref(s));
}

/* what a SetFilter or DeleteAlert call needs to know when it returns */
typedef struct {
	AdDbusSource *s;
	char *id;
} IdCall;

static IdCall *id_call_new(AdDbusSource *s, const char *id)
{
	IdCall *c = g_new0(IdCall, 1);

	c->s = g_object_ref(s);
	c->id = g_strdup(id);
	return c;
}

static void id_call_free(IdCall *c)
{
	g_object_unref(c->s);
	g_free(c->id);
	g_free(c);
}

static void on_filter_set(GObject *proxy, GAsyncResult *res, gpointer data)
{
	IdCall *c = data;
	g_autoptr(GError) error = NULL;

	if (ad_alerts1_call_set_filter_finish(AD_ALERTS1(proxy), res, &error))
		ad_dbus_source_fetch(c->s, c->id);
	else
		report_error(c->s, _("Cannot change the alert"), error);
	id_call_free(c);
}

void ad_dbus_source_set_ignored(AdDbusSource *s, const char *id, gboolean ignored)
{
	if (connected(s))
		ad_alerts1_call_set_filter(s->proxy, id, ignored ? "always" : "never", s->cancel,
					   on_filter_set, id_call_new(s, id));
}

static void on_deleted(GObject *proxy, GAsyncResult *res, gpointer data)
{
	IdCall *c = data;
	g_autoptr(GError) error = NULL;

	if (ad_alerts1_call_delete_alert_finish(AD_ALERTS1(proxy), res, &error))
		g_signal_emit(c->s, sigs[SIG_REMOVED], 0, c->id);
	else
		report_error(c->s, _("Cannot delete the alert"), error);
	id_call_free(c);
}

void ad_dbus_source_delete(AdDbusSource *s, const char *id)
{
	if (connected(s))
		ad_alerts1_call_delete_alert(s->proxy, id, s->cancel, on_deleted,
					     id_call_new(s, id));
}

/* GetAlert for the ids waiting, AD_MAX_FETCHES at a time; the rest when calls end */
static gboolean fetch_pending(gpointer data)
{
	AdDbusSource *s = data;
	GHashTableIter it;
	gpointer id;

	s->pending_source = 0;
	if (!connected(s)) {
		g_hash_table_remove_all(s->pending);
		return G_SOURCE_REMOVE;
	}
	g_hash_table_iter_init(&it, s->pending);
	while (s->fetching < AD_MAX_FETCHES && g_hash_table_iter_next(&it, &id, NULL)) {
		ad_dbus_source_fetch(s, id);
		g_hash_table_iter_remove(&it);
	}
	return G_SOURCE_REMOVE;
}

/* AlertAdded / AlertUpdated: the alert is fetched (signals carry no record text) */
static void want(AdDbusSource *s, const char *id)
{
	if (g_hash_table_size(s->pending) < 10000)
		g_hash_table_add(s->pending, g_strdup(id));
	if (!s->pending_source)
		s->pending_source = g_timeout_add(AD_COALESCE_MS, fetch_pending, s);
}

static void on_added(AdAlerts1 *proxy, const char *id, const char *level, const char *summary,
		     gpointer data)
{
	(void)proxy, (void)level, (void)summary;
	want(data, id);
}

static void on_updated(AdAlerts1 *proxy, const char *id, const char *level,
		       const char *summary, guint64 count, gpointer data)
{
	(void)proxy, (void)level, (void)summary, (void)count;
	want(data, id);
}

/* the daemon appeared on the bus or went away */
static void on_owner(GObject *proxy, GParamSpec *pspec, gpointer data)
{
	AdDbusSource *s = data;
	g_autofree char *owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(proxy));

	(void)pspec;
	s->running = owner != NULL;
	if (s->running) {
		ad_dbus_source_refresh(s);
		return;
	}
	g_signal_emit(s, sigs[SIG_STATUS], 0, FALSE,
		      _("The avcdoctor daemon (avcdoctor-dispatch) is not running on the system "
			"bus: no live alerts. Open a log file to analyse it here."));
}

static void on_proxy(GObject *obj, GAsyncResult *res, gpointer data)
{
	g_autoptr(AdDbusSource) s = data;
	g_autoptr(GError) error = NULL;
	AdAlerts1 *proxy = ad_alerts1_proxy_new_for_bus_finish(res, &error);

	(void)obj;
	if (!proxy) {
		if (!g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
			g_signal_emit(s, sigs[SIG_STATUS], 0, FALSE,
				      _("Cannot connect to the system bus: no live alerts. Open "
					"a log file to analyse it here."));
		return;
	}
	if (g_cancellable_is_cancelled(s->cancel)) {
		g_object_unref(proxy);
		return;
	}
	s->proxy = proxy;
	g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(proxy), AD_CALL_TIMEOUT_MS);
	g_signal_connect(proxy, "alert-added", G_CALLBACK(on_added), s);
	g_signal_connect(proxy, "alert-updated", G_CALLBACK(on_updated), s);
	g_signal_connect(proxy, "notify::g-name-owner", G_CALLBACK(on_owner), s);
	on_owner(G_OBJECT(proxy), NULL, s);
}

void ad_dbus_source_start(AdDbusSource *s)
{
	/* the daemon is started by auditd, never by the bus */
	ad_alerts1_proxy_new_for_bus(G_BUS_TYPE_SYSTEM,
				     G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START |
				     G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
				     AD_DBUS_NAME, AD_DBUS_PATH, s->cancel, on_proxy, g_object_ref(s));
}
