/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include <glib.h>
#include <json-c/json.h>

#include "analysis/alert.h"
#include "dispatch-config.h"
#include "queue.h"
#include "store.h"

G_BEGIN_DECLS

/*
 * The dispatcher's machinery, apart from main() (pipeline.c): the
 * analysis of its input (the CLI's parse path, alerts, store,
 * announcements) and what the D-Bus service asks of it.  Everything but
 * the reader thread runs in the thread of the GMainContext the dispatcher
 * is created in: only that thread touches libsepol, the alerts and the
 * store.
 */

typedef struct _AdDispatch AdDispatch;

/* What the dispatcher announces; every string is valid UTF-8 without controls. */
typedef struct {
	void (*alert_added)(const char *id, const char *level, const char *summary,
			    gpointer user_data);
	void (*alert_updated)(const char *id, const char *level, const char *summary,
			      guint64 count, gpointer user_data);
	void (*shed_changed)(guint64 shed, gpointer user_data);
	gpointer user_data;
} AdDispatchSink;

/* the counters of one run (the --stdout summary, the Shed property, the log) */
typedef struct {
	guint64 bytes, chunks;
	guint64 events, denials, granted, own, rejected;
	guint64 alerts_new, updates_sent;
	guint64 policy_loads, policy_reloads, store_errors;
	guint64 set_restarts;
	AdQueueStats queue;
	double first_input, last_done;	/* monotonic seconds; 0 until input came */
	double busy;			/* seconds spent analysing */
} AdDispatchStats;

/*
 * A dispatcher with @config (copied).  Loads the policy, labels and rules
 * and opens the store; what cannot be had is logged and done without
 * (no policy is the one fatal error: NULL with @error).  @json_out, when
 * non-NULL, gets new and updated alerts as JSON Lines.
 */
AdDispatch *ad_dispatch_new(const AdDispatchConfig *config, FILE *json_out, GError **error);
void ad_dispatch_free(AdDispatch *d);

void ad_dispatch_set_sink(AdDispatch *d, const AdDispatchSink *sink);
const AdDispatchConfig *ad_dispatch_config(AdDispatch *d);
AdStore *ad_dispatch_store(AdDispatch *d);	/* borrowed; NULL without a store */
AdDispatchQueue *ad_dispatch_queue(AdDispatch *d);
void ad_dispatch_stats(AdDispatch *d, AdDispatchStats *ret);
guint64 ad_dispatch_shed(AdDispatch *d);

/*
 * Starts the thread that reads @fd into the queue, and the source of the
 * current thread-default main context that works the queue off.  @on_eof
 * runs in that context once the input has ended and everything read was
 * analysed.  A pipe or socket (auditd) is never made to wait: a full queue
 * sheds.  A regular file waits for the analysis instead.
 */
void ad_dispatch_start(AdDispatch *d, int fd, GSourceFunc on_eof, gpointer user_data);

/* analysis of text, synchronously (the tests; the queue's consumer) */
void ad_dispatch_feed(AdDispatch *d, const char *text, gsize len);
/* end of input: pending events are complete, updates flushed, the store committed */
void ad_dispatch_finish(AdDispatch *d);
/* ages pending events, flushes due updates, commits; what the timers do */
void ad_dispatch_tick(AdDispatch *d);
/* drains the queue for at most @budget_us; TRUE when work is left */
gboolean ad_dispatch_drain(AdDispatch *d, gint64 budget_us);

/*
 * SIGHUP: takes @config (when non-NULL; the store path, the bus and the
 * queue size are kept until a restart), reloads the policy, labels and
 * rules, and forgets the alerts held in memory (their cached answers).
 * FALSE with @error when the policy cannot be loaded: the old one stays.
 */
gboolean ad_dispatch_reload(AdDispatch *d, const AdDispatchConfig *config, GError **error);

/* the summary line of the counters ("N lines, N denials in N alerts, ...") */
char *ad_dispatch_summary(AdDispatch *d);

/* ---- what the D-Bus service asks ------------------------------------------ */

/*
 * The size of a D-Bus reply that grows with the store, at most: half the
 * system bus' message limit (32 MiB).  A reply the bus refuses costs the
 * dispatcher its connection, and both of its names, and its caller gets
 * no answer; so such a reply keeps the newest alerts that fit and leaves
 * out the others, said in the reply where its type allows, else logged.
 */
#define AD_DISPATCH_MAX_REPLY (16u << 20)
/* one alert on the bus at most: its JSON text, or its raw records (get_alert) */
#define AD_DISPATCH_MAX_ALERT (1u << 20)

/*
 * JSON texts (analyze keys) of the alerts seen since @since, oldest
 * sighting first, each at most AD_DISPATCH_MAX_ALERT bytes (see
 * ad_alert_json_text); the number of alerts too large even so in
 * @ret_left_out (may be NULL).  See ad_store_list.
 */
GPtrArray *ad_dispatch_list(AdDispatch *d, double since, gboolean include_ignored,
			    gint64 uid, const char *host, guint *ret_left_out, GError **error);
/* one alert's JSON text, at most AD_DISPATCH_MAX_ALERT bytes */
char *ad_dispatch_get(AdDispatch *d, const char *id, gint64 uid, GError **error);
gboolean ad_dispatch_set_filter(AdDispatch *d, const char *id, gint64 uid, AdFilter filter,
				GError **error);
/*
 * One filter for many alerts (NULL-terminated @ids) in one store
 * transaction: those the store lacks and red ones are passed over (a red
 * alert needs a decision of its own).  @ret_set: how many got it.
 */
gboolean ad_dispatch_set_filters(AdDispatch *d, const char *const *ids, gint64 uid,
				 AdFilter filter, guint *ret_set, GError **error);
gboolean ad_dispatch_delete(AdDispatch *d, const char *id, GError **error);
/* is @name a boolean of the policy in use? */
gboolean ad_dispatch_is_boolean(AdDispatch *d, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdDispatch, ad_dispatch_free)

G_END_DECLS
