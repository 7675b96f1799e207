// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live source of the browser: avcdoctor-dispatch's alerts over D-Bus.
 * A failed call (no daemon, not authorised, a reply too large for the bus)
 * becomes a "status" message for the window's info bar, never a crash.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "dbus-source.h"

#define AD_CALL_TIMEOUT_MS 60000
#define AD_COALESCE_MS 250

/*
 * ListAlerts answers in one message, which the daemon refuses to make
 * larger than the bus allows: a store that big is listed again for a
 * shorter period, newest first (seconds back; 0 = everything).
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
	GDBusConnection *bus;
	GCancellable *cancel;
	guint watch;
	guint sub_added;
	guint sub_updated;
	gboolean running;
	GHashTable *pending;		/* ids to fetch */
	guint pending_source;
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
	g_clear_handle_id(&s->watch, g_bus_unwatch_name);
	if (s->bus) {
		g_dbus_connection_signal_unsubscribe(s->bus, s->sub_added);
		g_dbus_connection_signal_unsubscribe(s->bus, s->sub_updated);
		s->sub_added = s->sub_updated = 0;
	}
	g_clear_object(&s->bus);
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
	if (remote && (g_str_equal(remote, "org.freedesktop.DBus.Error.ServiceUnknown") ||
		       g_str_equal(remote, "org.freedesktop.DBus.Error.NameHasNoOwner")))
		msg = g_strdup_printf(_("%s: the avcdoctor daemon (avcdoctor-dispatch) is not "
					"running"), what);
	else if (remote && (g_str_equal(remote, "org.freedesktop.DBus.Error.AccessDenied") ||
			    g_str_equal(remote, ad_alerts_error_name(AD_ALERTS_ERROR_ACCESS_DENIED))))
		msg = g_strdup_printf(_("%s: not allowed (only root and the administrators "
					"may read and change alerts): %s"), what, error->message);
	else
		msg = g_strdup_printf("%s: %s", what, error->message);
	g_signal_emit(s, sigs[SIG_STATUS], 0, s->running, msg);
}

/* the reply of a call, or NULL after reporting why there is none */
static GVariant *finish_call(GObject *bus, GAsyncResult *res, AdDbusSource *s, const char *what,
			     const char *type)
{
	g_autoptr(GError) error = NULL;
	GVariant *r = g_dbus_connection_call_finish(G_DBUS_CONNECTION(bus), res, &error);

	if (!r) {
		report_error(s, what, error);
		return NULL;
	}
	if (type && !g_variant_is_of_type(r, G_VARIANT_TYPE(type))) {
		g_autoptr(GError) e = g_error_new(G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
						  _("unexpected reply type %s"),
						  g_variant_get_type_string(r));

		g_variant_unref(r);
		report_error(s, what, e);
		return NULL;
	}
	return r;
}

/*
 * Callbacks hold a reference on the source while a call is out; the
 * cancellable stops them from reporting once the window is gone.
 */
static void call(AdDbusSource *s, const char *method, GVariant *params, const char *reply_type,
		 GAsyncReadyCallback done, gpointer data)
{
	if (!s->bus) {
		g_variant_unref(g_variant_ref_sink(params));
		g_signal_emit(s, sigs[SIG_STATUS], 0, FALSE,
			      _("Not connected to the system bus."));
		return;
	}
	g_dbus_connection_call(s->bus, AD_DBUS_NAME, AD_DBUS_PATH, AD_DBUS_INTERFACE, method, params,
			       reply_type ? G_VARIANT_TYPE(reply_type) : NULL,
			       G_DBUS_CALL_FLAGS_NONE, AD_CALL_TIMEOUT_MS, s->cancel, done, data);
}

/* a failure that a shorter period may avoid: the reply would be too large */
static gboolean too_large(const GError *error)
{
	g_autofree char *remote = g_dbus_error_get_remote_error(error);

	return remote && (g_str_equal(remote, ad_alerts_error_name(AD_ALERTS_ERROR_FAILED)) ||
			  g_str_equal(remote, "org.freedesktop.DBus.Error.LimitsExceeded"));
}

static void list(AdDbusSource *s);

static void on_listed(GObject *bus, GAsyncResult *res, gpointer data)
{
	g_autoptr(AdDbusSource) s = data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) r = g_dbus_connection_call_finish(G_DBUS_CONNECTION(bus), res, &error);
	g_autofree const char **alerts = NULL;
	g_autofree char *note = NULL;

	if (!r && too_large(error) && s->list_period + 1 < G_N_ELEMENTS(list_periods)) {
		s->list_period++;
		list(s);
		return;
	}
	if (!r) {
		report_error(s, _("Cannot list the alerts"), error);
		return;
	}
	g_variant_get(r, "(^a&s)", &alerts);
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
	call(s, "ListAlerts", g_variant_new("(dbs)", since, TRUE, ""), "(as)", on_listed,
	     g_object_ref(s));
}

void ad_dbus_source_refresh(AdDbusSource *s)
{
	s->list_period = 0;
	list(s);
}

static void on_fetched(GObject *bus, GAsyncResult *res, gpointer data)
{
	g_autoptr(AdDbusSource) s = data;
	g_autoptr(GVariant) r = finish_call(bus, res, s, _("Cannot read the alert"), "(s)");
	const char *text;

	if (!r)
		return;
	g_variant_get(r, "(&s)", &text);
	g_signal_emit(s, sigs[SIG_CHANGED], 0, text);
}

void ad_dbus_source_fetch(AdDbusSource *s, const char *id)
{
	call(s, "GetAlert", g_variant_new("(s)", id), "(s)", on_fetched, g_object_ref(s));
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

static void on_filter_set(GObject *bus, GAsyncResult *res, gpointer data)
{
	IdCall *c = data;
	g_autoptr(GVariant) r = finish_call(bus, res, c->s, _("Cannot change the alert"), NULL);

	if (r)
		ad_dbus_source_fetch(c->s, c->id);
	id_call_free(c);
}

void ad_dbus_source_set_ignored(AdDbusSource *s, const char *id, gboolean ignored)
{
	call(s, "SetFilter", g_variant_new("(ss)", id, ignored ? "always" : "never"), NULL,
	     on_filter_set, id_call_new(s, id));
}

static void on_deleted(GObject *bus, GAsyncResult *res, gpointer data)
{
	IdCall *c = data;
	g_autoptr(GVariant) r = finish_call(bus, res, c->s, _("Cannot delete the alert"), NULL);

	if (r)
		g_signal_emit(c->s, sigs[SIG_REMOVED], 0, c->id);
	id_call_free(c);
}

void ad_dbus_source_delete(AdDbusSource *s, const char *id)
{
	call(s, "DeleteAlert", g_variant_new("(s)", id), NULL, on_deleted, id_call_new(s, id));
}

static gboolean fetch_pending(gpointer data)
{
	AdDbusSource *s = data;
	GHashTableIter it;
	gpointer id;

	s->pending_source = 0;
	g_hash_table_iter_init(&it, s->pending);
	while (g_hash_table_iter_next(&it, &id, NULL))
		ad_dbus_source_fetch(s, id);
	g_hash_table_remove_all(s->pending);
	return G_SOURCE_REMOVE;
}

/* AlertAdded / AlertUpdated: the alert is fetched (signals carry no record text) */
static void on_signal(GDBusConnection *c, const char *sender, const char *path,
		      const char *iface, const char *name, GVariant *params, gpointer data)
{
	AdDbusSource *s = data;
	const char *id;

	(void)c, (void)sender, (void)path, (void)iface, (void)name;
	if (!g_variant_is_of_type(params, G_VARIANT_TYPE("(sss)")) &&
	    !g_variant_is_of_type(params, G_VARIANT_TYPE("(ssst)")))
		return;
	g_variant_get_child(params, 0, "&s", &id);
	if (g_hash_table_size(s->pending) < 10000)
		g_hash_table_add(s->pending, g_strdup(id));
	if (!s->pending_source)
		s->pending_source = g_timeout_add(AD_COALESCE_MS, fetch_pending, s);
}

static void on_appeared(GDBusConnection *c, const char *name, const char *owner, gpointer data)
{
	AdDbusSource *s = data;

	(void)c, (void)name, (void)owner;
	s->running = TRUE;
	ad_dbus_source_refresh(s);
}

static void on_vanished(GDBusConnection *c, const char *name, gpointer data)
{
	AdDbusSource *s = data;

	(void)c, (void)name;
	s->running = FALSE;
	g_signal_emit(s, sigs[SIG_STATUS], 0, FALSE,
		      _("The avcdoctor daemon (avcdoctor-dispatch) is not running on the system "
			"bus: no live alerts. Open a log file to analyse it here."));
}

static void on_bus(GObject *obj, GAsyncResult *res, gpointer data)
{
	g_autoptr(AdDbusSource) s = data;
	g_autoptr(GError) error = NULL;
	GDBusConnection *bus = g_bus_get_finish(res, &error);

	(void)obj;
	if (!bus) {
		if (!g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
			g_signal_emit(s, sigs[SIG_STATUS], 0, FALSE,
				      _("Cannot connect to the system bus: no live alerts. Open "
					"a log file to analyse it here."));
		return;
	}
	if (g_cancellable_is_cancelled(s->cancel)) {
		g_object_unref(bus);
		return;
	}
	s->bus = bus;
	s->sub_added = g_dbus_connection_signal_subscribe(bus, AD_DBUS_NAME, AD_DBUS_INTERFACE,
							  "AlertAdded", AD_DBUS_PATH, NULL,
							  G_DBUS_SIGNAL_FLAGS_NONE, on_signal, s,
							  NULL);
	s->sub_updated = g_dbus_connection_signal_subscribe(bus, AD_DBUS_NAME, AD_DBUS_INTERFACE,
							    "AlertUpdated", AD_DBUS_PATH, NULL,
							    G_DBUS_SIGNAL_FLAGS_NONE, on_signal, s,
							    NULL);
	s->watch = g_bus_watch_name_on_connection(bus, AD_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
						  on_appeared, on_vanished, s, NULL);
}

void ad_dbus_source_start(AdDbusSource *s)
{
	g_bus_get(G_BUS_TYPE_SYSTEM, s->cancel, on_bus, g_object_ref(s));
}
