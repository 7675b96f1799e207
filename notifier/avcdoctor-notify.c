/*
 * avcdoctor-notify: the desktop notifier of avcdoctor.
 *
 * A long-lived session process: it watches org.avcdoctor.Daemon on the
 * system bus, turns its AlertAdded/AlertUpdated signals into libnotify
 * notifications, and stays in its main loop so that the notification's
 * actions keep working (libnotify actions die with the process that made
 * them).  Floods are coalesced into one notification per --interval,
 * replacing the one shown until the server closes it; alerts the user
 * ignores never notify; on start it catches up on the alerts seen since it
 * last ran.  An alert is told again only when its count has grown past the
 * count the user was told.
 *
 * Nothing from a record reaches the notification server as markup: the
 * summary is escaped with g_markup_escape_text(), and the title only holds
 * our own text and SELinux type names filtered to [A-Za-z0-9_].
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <gio/gio.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <json-c/json.h>
#include <libnotify/notify.h>

#include "i18n.h"
#include "alerts-client.h"
#include "alerts1-generated.h"
#include "fixit-client.h"
#include "notes.h"

#define AD_BROWSER "avcdoctor-browser"
#define AD_CATCH_UP_DEFAULT (24 * 3600)	/* first run: the last day */
/* ids on the browser's command line, 17 bytes each, within one argument's 128 KiB */
#define AD_MAX_BATCH_IDS 5000
/*
 * GetAlert calls in flight at most: a bus refuses more pending replies per
 * connection than its limit (128 on a system bus), and a refused lookup
 * loses the alert's details, its ignored state among them
 */
#define AD_MAX_LOOKUPS 32

typedef struct {
	guint interval;			/* seconds between two notifications */
	GMainLoop *loop;
	AdAlerts1 *proxy;		/* the daemon's interface, once it appeared (client/) */
	gboolean running;		/* the daemon is on the bus now */
	NotifyNotification *note;	/* the one notification, replaced */
	GPtrArray *current;		/* AdNote shown in note */
	GPtrArray *pending;		/* AdNote not shown yet */
	GHashTable *told;		/* alert id -> guint64 *: the count the user was told */
	gint64 last_shown;		/* monotonic µs, 0 = never */
	guint flush_source;
	gboolean has_actions;		/* the server supports actions */
	gboolean caps_known;
	char *state_path;
	double last_run;		/* from the state file; < 0 = none */
	GQueue lookups;			/* AdLookup waiting for a GetAlert call, in order */
	guint lookups_in_flight;
} AdNotifier;

static void log_msg(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* all diagnostics go through here, to stderr (the session journal) */
static void log_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("avcdoctor-notify: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* --- the state file: when the notifier last ran ------------------------------------ */

static double read_last_run(const char *path)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	double t;

	if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL))
		return -1;
	t = g_key_file_get_double(kf, "notify", "last_run", &error);
	return error || t < 0 ? -1 : t;
}

/* writes the current time as the last run; logs on failure */
static void save_last_run(AdNotifier *s)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_path_get_dirname(s->state_path);

	g_key_file_set_double(kf, "notify", "last_run", (double)g_get_real_time() / G_USEC_PER_SEC);
	if (g_mkdir_with_parents(dir, 0700) != 0 ||
	    !g_key_file_save_to_file(kf, s->state_path, &error))
		log_msg(_("cannot write %s: %s"), s->state_path,
			error ? error->message : g_strerror(errno));
}

/* --- showing --------------------------------------------------------------------- */

static void on_action(NotifyNotification *note, char *action, gpointer data);
static void on_apply(NotifyNotification *note, char *action, gpointer data);

/* what the shown notification's "Apply the fix" applies: the fix it shows, no other */
typedef struct {
	AdNotifier *s;
	char *id;
	char *digest;
} AdApplyTarget;

static void apply_target_free(gpointer p)
{
	AdApplyTarget *t = p;

	g_free(t->id);
	g_free(t->digest);
	g_free(t);
}

/*
 * What the shown notification's other actions act on: the alerts it shows,
 * copied when it was shown.  s->current is emptied once the user acts, and
 * the server may keep the notification up (dunst does after its context
 * menu): acting on it again acts on what it still shows, never on nothing.
 */
typedef struct {
	AdNotifier *s;
	GPtrArray *shown;	/* AdNote, shared by the actions of one show */
} AdBatchTarget;

static void batch_target_free(gpointer p)
{
	AdBatchTarget *t = p;

	g_ptr_array_unref(t->shown);
	g_free(t);
}

/* the user data of one action on @shown */
static AdBatchTarget *batch_target(AdNotifier *s, GPtrArray *shown)
{
	AdBatchTarget *t = g_new0(AdBatchTarget, 1);

	t->s = s;
	t->shown = g_ptr_array_ref(shown);
	return t;
}

static gboolean drop_note(gpointer note)
{
	g_object_unref(note);
	return G_SOURCE_REMOVE;
}

/*
 * The server closed the notification (the user, a timeout, an action):
 * the next alert gets a notification of its own with a new count, never
 * an update of this closed one (which some libnotify versions stop
 * reporting closed a second time).  Dropped once the signal is over.
 */
static void on_closed(NotifyNotification *note, gpointer data)
{
	AdNotifier *s = data;

	g_debug("the notification was closed");
	g_signal_handlers_disconnect_by_data(note, s);
	if (note == s->note) {
		s->note = NULL;
		g_idle_add(drop_note, note);
	}
	g_ptr_array_set_size(s->current, 0);
}

/* shows s->current in the one notification, replacing what it showed */
static void show_current(AdNotifier *s)
{
	g_autofree char *title = NULL;
	g_autofree char *body = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) shown = NULL;
	int rank = 0;

	if (s->current->len == 0)
		return;
	for (guint i = 0; i < s->current->len; i++) {
		AdNote *a = g_ptr_array_index(s->current, i);
		rank = MAX(rank, ad_note_level_rank(a->level));
	}
	if (s->current->len == 1) {
		AdNote *a = g_ptr_array_index(s->current, 0);

		title = g_strdup(_("SELinux prevented an access"));
		body = ad_note_body(a);
	} else {
		ad_notes_describe(s->current, &title, &body);
	}
	if (!s->note) {
		g_debug("a new notification");
		s->note = notify_notification_new(title, body, "security-medium");
		g_signal_connect(s->note, "closed", G_CALLBACK(on_closed), s);
	} else {
		notify_notification_update(s->note, title, body, "security-medium");
	}
	notify_notification_set_app_name(s->note, "avcdoctor");
	notify_notification_set_category(s->note, "device.error");
	notify_notification_set_hint(s->note, "desktop-entry",
				     g_variant_new_string("avcdoctor-notify"));
	notify_notification_set_urgency(s->note, rank == 2 ? NOTIFY_URGENCY_CRITICAL :
					rank == 1 ? NOTIFY_URGENCY_NORMAL : NOTIFY_URGENCY_LOW);
	/* red stays until the user acts on it */
	notify_notification_set_timeout(s->note, rank == 2 ? NOTIFY_EXPIRES_NEVER :
					NOTIFY_EXPIRES_DEFAULT);
	notify_notification_clear_actions(s->note);
	if (!s->caps_known) {
		GList *caps = notify_get_server_caps();

		s->has_actions = g_list_find_custom(caps, "actions", (GCompareFunc)strcmp) != NULL;
		s->caps_known = caps != NULL;
		g_list_free_full(caps, g_free);
	}
	if (s->has_actions) {
		shown = g_ptr_array_copy(s->current, ad_note_copy, NULL);
		g_ptr_array_set_free_func(shown, ad_note_free);
		/* one alert: it in the browser; a batch: the browser limited to it */
		if (s->current->len == 1)
			notify_notification_add_action(s->note, "details", _("Show details"),
						       on_action, batch_target(s, shown),
						       batch_target_free);
		else
			notify_notification_add_action(s->note, "show-all", _("Show all"),
						       on_action, batch_target(s, shown),
						       batch_target_free);
		notify_notification_add_action(s->note, "ignore", _("Don't notify again"),
					       on_action, batch_target(s, shown),
					       batch_target_free);
		/*
		 * one alert whose first fix the fix helper may apply, its commands in
		 * the body: Apply those.  Never from a merged notification.
		 */
		if (s->current->len == 1 && s->running &&
		    ((AdNote *)g_ptr_array_index(s->current, 0))->fixable) {
			AdNote *a = g_ptr_array_index(s->current, 0);
			AdApplyTarget *t = g_new0(AdApplyTarget, 1);

			t->s = s;
			t->id = g_strdup(a->id);
			t->digest = g_strdup(a->digest);
			notify_notification_add_action(s->note, "apply", _("Apply the fix"),
						       on_apply, t, apply_target_free);
		}
	}
	if (!notify_notification_show(s->note, &error))
		log_msg(_("cannot show a notification: %s"), error->message);
	s->last_shown = g_get_monotonic_time();
	save_last_run(s);
}

/* moves the pending alerts into the notification and shows it */
static gboolean flush(gpointer data)
{
	AdNotifier *s = data;

	s->flush_source = 0;
	for (guint i = 0; i < s->pending->len; i++) {
		AdNote *a = g_ptr_array_index(s->pending, i);

		/* an alert seen again moves to the end, once, its denials added up */
		for (guint j = 0; j < s->current->len; j++) {
			AdNote *c = g_ptr_array_index(s->current, j);

			if (strcmp(c->id, a->id) == 0) {
				a->denials += c->denials;
				g_ptr_array_remove_index(s->current, j);
				break;
			}
		}
		g_ptr_array_add(s->current, a);
	}
	g_ptr_array_set_free_func(s->pending, NULL);
	g_ptr_array_set_size(s->pending, 0);
	g_ptr_array_set_free_func(s->pending, ad_note_free);
	show_current(s);
	return G_SOURCE_REMOVE;
}

/* TRUE when the user was told of alert @id with @count occurrences or more */
static gboolean already_told(AdNotifier *s, const char *id, guint64 count)
{
	const guint64 *told = g_hash_table_lookup(s->told, id);

	return told && count && *told >= count;
}

/*
 * Queues an alert (taking @n) and schedules the next notification: at
 * once when none was shown for the interval, else when the interval ends.
 */
static void enqueue(AdNotifier *s, AdNote *n)
{
	gint64 now = g_get_monotonic_time();
	guint64 *told = g_hash_table_lookup(s->told, n->id);
	gint64 due;

	/* a count the user was told already (the catch-up after the daemon
	 * restarted, an update that crossed the catch-up) is not news */
	if (already_told(s, n->id, n->count)) {
		ad_note_free(n);
		return;
	}
	/* the denials the user was not told of: all of a new alert's */
	n->denials = n->count ? n->count - (told ? MIN(*told, n->count) : 0) : 1;
	if (!told) {
		told = g_new0(guint64, 1);
		g_hash_table_insert(s->told, g_strdup(n->id), told);
	}
	*told = MAX(*told, n->count);

	for (guint i = 0; i < s->pending->len; i++) {
		AdNote *p = g_ptr_array_index(s->pending, i);

		if (strcmp(p->id, n->id) == 0) {
			n->denials += p->denials;
			g_ptr_array_remove_index(s->pending, i);
			break;
		}
	}
	g_ptr_array_add(s->pending, n);
	if (s->flush_source)
		return;
	due = s->last_shown ? s->last_shown + (gint64)s->interval * G_USEC_PER_SEC : now;
	/* the idle delay gathers what arrives in the same burst */
	s->flush_source = g_timeout_add(due > now ? (guint)((due - now) / 1000) : 50, flush, s);
}

/* --- actions -------------------------------------------------------------------- */

static void on_set_filter(GObject *src, GAsyncResult *res, gpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *id = data;

	if (!ad_alerts1_call_set_filter_finish(AD_ALERTS1(src), res, &error))
		log_msg(_("cannot ignore alert %s: %s"), id, error->message);
	else
		log_msg(_("alert %s: will not notify again"), id);
}

static void on_set_filters(GObject *src, GAsyncResult *res, gpointer data)
{
	g_autoptr(GError) error = NULL;
	guint asked = GPOINTER_TO_UINT(data), set = 0;

	if (!ad_alerts1_call_set_filters_finish(AD_ALERTS1(src), &set, res, &error))
		log_msg(_("cannot ignore the alerts: %s"), error->message);
	else
		log_msg(ngettext("%u of %u alert: will not notify again",
				 "%u of %u alerts: will not notify again", asked), set, asked);
}

/*
 * A transient notification telling how to see an alert without the
 * browser; for a batch, that the browser is missing (no command: the
 * alerts of a batch are no one command away).
 */
static void show_hint(const char *id)
{
	NotifyNotification *hint;
	g_autofree char *body = NULL;
	g_autoptr(GError) error = NULL;

	body = id ? g_strdup_printf(_("The alert browser is not installed. In a terminal, run:\n"
				      "avcdoctor show %s"), id)
		  : g_strdup(_("The alert browser (avcdoctor-browser) is not installed: "
			       "install it to see these alerts."));
	hint = notify_notification_new(_("SELinux alert details"), body, "security-medium");
	notify_notification_set_app_name(hint, "avcdoctor");
	if (!notify_notification_show(hint, &error))
		log_msg(_("cannot show a notification: %s"), error->message);
	g_object_unref(hint);
}

/*
 * Opens the browser on the alert, or on the alerts of @batch (AdNote):
 * "--ids ID,ID,..." (ids are 16 hex digits: nothing else reaches the
 * command line), or for a batch too large for one argument "--since" its
 * earliest last-seen time.  An argv, never a shell.
 */
static void show_details(const char *id, GPtrArray *batch)
{
	g_autofree char *prog = g_find_program_in_path(AD_BROWSER);
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);

	if (!prog) {
		show_hint(id);
		return;
	}
	g_ptr_array_add(argv, g_strdup(prog));
	if (id) {
		g_ptr_array_add(argv, g_strdup("--alert"));
		g_ptr_array_add(argv, g_strdup(id));
	} else if (batch && batch->len <= AD_MAX_BATCH_IDS) {
		GString *ids = g_string_new(NULL);

		for (guint i = 0; i < batch->len; i++)
			g_string_append_printf(ids, "%s%s", i ? "," : "",
					       ((AdNote *)g_ptr_array_index(batch, i))->id);
		g_ptr_array_add(argv, g_strdup("--ids"));
		g_ptr_array_add(argv, g_string_free(ids, FALSE));
	} else if (batch) {
		double since = 0;

		for (guint i = 0; i < batch->len; i++) {
			double t = ((AdNote *)g_ptr_array_index(batch, i))->last_seen;

			if (t > 0 && (since == 0 || t < since))
				since = t;
		}
		if (since > 0) {
			g_ptr_array_add(argv, g_strdup("--since"));
			g_ptr_array_add(argv, g_strdup_printf("%" G_GINT64_FORMAT,
							      (gint64)since));
		}
	}
	g_ptr_array_add(argv, NULL);
	if (!g_spawn_async(NULL, (char **)argv->pdata, NULL, G_SPAWN_STDIN_FROM_DEV_NULL, NULL,
			   NULL, NULL, &error)) {
		log_msg(_("cannot start %s: %s"), AD_BROWSER, error->message);
		show_hint(id);
	}
}

/* the fix helper's answer, in a notification of its own */
static void on_applied(GObject *src, GAsyncResult *res, gpointer data)
{
	g_autofree char *id = data;
	g_autoptr(GError) error = NULL;
	g_autofree char *out = ad_fixit_apply_finish(res, &error);
	g_autofree char *body = NULL;
	g_autoptr(GError) shown = NULL;
	NotifyNotification *n;

	(void)src;
	if (out) {
		log_msg(_("alert %s: fix applied"), id);
		body = g_markup_escape_text(*out ? out : _("The fix was applied."), -1);
		n = notify_notification_new(_("SELinux fix applied"), body, "security-high");
	} else {
		log_msg(_("alert %s: the fix was not applied: %s"), id, error->message);
		body = g_markup_escape_text(error->message, -1);
		n = notify_notification_new(_("The SELinux fix was not applied"), body,
					    "dialog-error");
	}
	notify_notification_set_app_name(n, "avcdoctor");
	if (!notify_notification_show(n, &shown))
		log_msg(_("cannot show a notification: %s"), shown->message);
	g_object_unref(n);
}

/* "Apply the fix" of a one-alert notification: the fix whose commands it showed */
static void on_apply(NotifyNotification *note, char *action, gpointer data)
{
	AdApplyTarget *t = data;

	(void)note;
	(void)action;
	/* the first suggestion; the desktop's polkit agent asks for the password */
	ad_fixit_apply_async(t->id, 0, t->digest, NULL, on_applied, g_strdup(t->id));
	/* acted on: the next notification starts afresh */
	g_ptr_array_set_size(t->s->current, 0);
}

/* "Show details", "Show all", "Don't notify again": on the alerts the notification shows */
static void on_action(NotifyNotification *note, char *action, gpointer data)
{
	AdBatchTarget *t = data;
	AdNotifier *s = t->s;
	GPtrArray *shown = t->shown;

	(void)note;
	if (strcmp(action, "details") == 0 || strcmp(action, "show-all") == 0) {
		AdNote *a = shown->len == 1 ? g_ptr_array_index(shown, 0) : NULL;

		show_details(a ? a->id : NULL, shown);
	} else if (strcmp(action, "ignore") == 0) {
		if (!s->proxy || !s->running) {
			log_msg("%s", _("the daemon is not running: cannot ignore the alert"));
			return;
		}
		if (shown->len == 1) {
			AdNote *a = g_ptr_array_index(shown, 0);

			ad_alerts1_call_set_filter(s->proxy, a->id, "always", NULL, on_set_filter,
						   g_strdup(a->id));
		} else {
			/*
			 * one call for the whole notification; its red alerts are listed
			 * apart and keep notifying (the daemon passes red over too)
			 */
			g_autofree const char **ids = ad_notes_ignorable(shown);

			if (ids[0])
				ad_alerts1_call_set_filters(
					s->proxy, ids, "always", NULL, on_set_filters,
					GUINT_TO_POINTER(g_strv_length((char **)ids)));
		}
	}
	/* the user has acted on these: the next notification starts afresh
	 * (servers close it after an action, not all of them say so) */
	g_ptr_array_set_size(s->current, 0);
}

/* --- the daemon ------------------------------------------------------------------ */

typedef struct {
	AdNotifier *s;
	AdNote *fallback;	/* from the signal, used when GetAlert fails */
} AdLookup;

static void start_lookups(AdNotifier *s);

static void on_get_alert(GObject *src, GAsyncResult *res, gpointer data)
{
	AdLookup *l = data;
	AdNotifier *s = l->s;
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;
	gboolean ignored = FALSE;
	AdNote *n = NULL;

	if (ad_alerts1_call_get_alert_finish(AD_ALERTS1(src), &text, res, &error)) {
		n = ad_note_from_json(text, &ignored);
	} else {
		log_msg(_("cannot read alert %s: %s"), l->fallback->id, error->message);
	}
	if (ignored) {
		ad_note_free(l->fallback);
	} else if (n) {
		ad_note_free(l->fallback);
		enqueue(l->s, n);
	} else {
		/* better an alert without its details than no alert */
		enqueue(l->s, l->fallback);
	}
	g_free(l);
	s->lookups_in_flight--;
	start_lookups(s);
}

/* GetAlert for the waiting lookups, in order, up to AD_MAX_LOOKUPS at a time */
static void start_lookups(AdNotifier *s)
{
	AdLookup *l;

	while (s->lookups_in_flight < AD_MAX_LOOKUPS && (l = g_queue_pop_head(&s->lookups))) {
		if (!s->proxy) {
			/* the daemon went away: what the signal said */
			enqueue(s, l->fallback);
			g_free(l);
			continue;
		}
		s->lookups_in_flight++;
		ad_alerts1_call_get_alert(s->proxy, l->fallback->id, NULL, on_get_alert, l);
	}
}

/* AlertAdded and AlertUpdated: look the alert up (is it ignored?) */
static void look_up(AdNotifier *s, const char *id, const char *level, const char *summary,
		    guint64 count)
{
	AdLookup *l;

	if (!ad_note_valid_id(id))
		return;
	l = g_new0(AdLookup, 1);
	l->s = s;
	l->fallback = g_new0(AdNote, 1);
	l->fallback->id = g_strdup(id);
	l->fallback->level = g_strdup(level);
	l->fallback->summary = g_strdup(summary);
	l->fallback->count = count;
	g_queue_push_tail(&s->lookups, l);
	start_lookups(s);
}

static void on_added(AdAlerts1 *proxy, const char *id, const char *level, const char *summary,
		     gpointer data)
{
	(void)proxy;
	look_up(data, id, level, summary, 1);
}

static void on_updated(AdAlerts1 *proxy, const char *id, const char *level,
		       const char *summary, guint64 count, gpointer data)
{
	AdNotifier *s = data;

	(void)proxy;
	/*
	 * The daemon sends the updates of an alert at most once per its
	 * update interval, so one may come after the catch-up (or an earlier
	 * notification) already told this count: it is not news.
	 */
	if (already_told(s, id, count))
		return;
	look_up(s, id, level, summary, count);
}

static void on_list_alerts(GObject *src, GAsyncResult *res, gpointer data)
{
	AdNotifier *s = data;
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) texts = NULL;
	guint n = 0;

	if (!ad_alerts1_call_list_alerts_finish(AD_ALERTS1(src), &texts, res, &error)) {
		log_msg(_("cannot catch up on alerts: %s"), error->message);
		return;
	}
	for (guint i = 0; texts && texts[i]; i++) {
		AdNote *a = ad_note_from_json(texts[i], NULL);

		if (a) {
			enqueue(s, a);
			n++;
		}
	}
	if (n == 0)
		save_last_run(s);
}

static void on_name_appeared(GDBusConnection *c, const char *name, const char *owner,
			     gpointer data)
{
	AdNotifier *s = data;
	g_autoptr(GError) error = NULL;
	double since;

	(void)owner;
	/*
	 * A new proxy each time the daemon appears: an old one may not have
	 * seen the new owner yet (its own NameOwnerChanged comes in any order
	 * with the watch's), and would refuse the catch-up call.
	 */
	if (s->proxy)
		g_signal_handlers_disconnect_by_data(s->proxy, s);
	g_clear_object(&s->proxy);
	/* by well-known name: only the daemon's signals, whoever owns it now */
	s->proxy = ad_alerts1_proxy_new_sync(c, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START |
					     G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
					     name, AD_DBUS_PATH, NULL, &error);
	if (!s->proxy) {
		log_msg(_("cannot read alerts: %s"), error->message);
		return;
	}
	g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(s->proxy), 30000);
	g_signal_connect(s->proxy, "alert-added", G_CALLBACK(on_added), s);
	g_signal_connect(s->proxy, "alert-updated", G_CALLBACK(on_updated), s);
	s->running = TRUE;
	/* what happened while we or the daemon were away */
	since = s->last_run >= 0 ? s->last_run
		: (double)g_get_real_time() / G_USEC_PER_SEC - AD_CATCH_UP_DEFAULT;
	ad_alerts1_call_list_alerts(s->proxy, since, FALSE, "", NULL, on_list_alerts, s);
	s->last_run = (double)g_get_real_time() / G_USEC_PER_SEC;
	log_msg(_("watching %s"), name);
}

static void on_name_vanished(GDBusConnection *c, const char *name, gpointer data)
{
	((AdNotifier *)data)->running = FALSE;
	if (c)
		log_msg(_("%s is not running; waiting for it"), name);
	else
		log_msg(_("no system bus; waiting for it"));
}

static gboolean on_quit_signal(gpointer data)
{
	g_main_loop_quit(((AdNotifier *)data)->loop);
	return G_SOURCE_CONTINUE;
}

int main(int argc, char **argv)
{
	AdNotifier s = { .interval = 3, .last_run = -1 };
	gboolean version = FALSE;
	gint interval = 3;
	g_autoptr(GError) error = NULL;
	g_autoptr(GOptionContext) ctx = NULL;
	GOptionEntry entries[] = {
		{ "interval", 'i', 0, G_OPTION_ARG_INT, &interval,
		  N_("At most one notification per SECONDS (default 3)"), N_("SECONDS") },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Show the version"), NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL }
	};
	guint watch;

	ad_i18n_init();

	ctx = g_option_context_new(NULL);
	g_option_context_set_summary(ctx, _("Shows desktop notifications for SELinux denials "
					    "found by avcdoctor-dispatch."));
	g_option_context_add_main_entries(ctx, entries, GETTEXT_PACKAGE);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "avcdoctor-notify: %s\n", error->message);
		return 2;
	}
	if (version) {
		printf("avcdoctor-notify %s\n", VERSION);
		return 0;
	}
	if (interval < 1 || interval > 3600) {
		fprintf(stderr, "avcdoctor-notify: %s\n", _("--interval: 1 to 3600 seconds"));
		return 2;
	}
	s.interval = (guint)interval;
	if (!notify_init("avcdoctor")) {
		log_msg("%s", _("cannot initialise libnotify"));
		return 1;
	}
	s.state_path = g_build_filename(g_get_user_state_dir(), "avcdoctor", "notify.state", NULL);
	s.last_run = read_last_run(s.state_path);
	s.current = g_ptr_array_new_with_free_func(ad_note_free);
	s.pending = g_ptr_array_new_with_free_func(ad_note_free);
	s.told = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	s.loop = g_main_loop_new(NULL, FALSE);
	g_unix_signal_add(SIGTERM, on_quit_signal, &s);
	g_unix_signal_add(SIGINT, on_quit_signal, &s);

	watch = g_bus_watch_name(G_BUS_TYPE_SYSTEM, AD_DBUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
				 on_name_appeared, on_name_vanished, &s, NULL);
	g_main_loop_run(s.loop);

	g_bus_unwatch_name(watch);
	if (s.flush_source)
		g_source_remove(s.flush_source);
	/* its buttons would be dead without us */
	if (s.note) {
		notify_notification_close(s.note, NULL);
		g_object_unref(s.note);
	}
	save_last_run(&s);
	if (s.proxy)
		g_signal_handlers_disconnect_by_data(s.proxy, &s);
	g_clear_object(&s.proxy);
	while (!g_queue_is_empty(&s.lookups)) {
		AdLookup *l = g_queue_pop_head(&s.lookups);

		ad_note_free(l->fallback);
		g_free(l);
	}
	g_ptr_array_unref(s.current);
	g_ptr_array_unref(s.pending);
	g_hash_table_unref(s.told);
	g_main_loop_unref(s.loop);
	g_free(s.state_path);
	notify_uninit();
	log_msg("%s", _("stopped"));
	return 0;
}
