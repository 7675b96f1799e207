/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "analysis/alert.h"
#include "store.h"

G_BEGIN_DECLS

/*
 * The dispatcher's machinery, apart from main(): its configuration, the
 * bounded queue between the stdin reader thread and the analysis, and the
 * analysis itself (the CLI's parse path, alerts, store, announcements).
 * Everything but the reader thread runs in the thread of the GMainContext
 * the dispatcher is created in: only that thread touches libsepol, the
 * alerts and the store.
 */

#define AD_DISPATCH_ERROR (ad_dispatch_error_quark())
GQuark ad_dispatch_error_quark(void);

typedef enum {
	AD_DISPATCH_ERROR_CONFIG,	/* "FILE:LINE"-less GKeyFile problems, bad values */
	AD_DISPATCH_ERROR_UNSAFE,	/* not root-owned or world-writable, as root */
	AD_DISPATCH_ERROR_ACCESS,	/* a D-Bus caller may not do this */
	AD_DISPATCH_ERROR_NO_STORE,	/* the method needs the store, which is not open */
	AD_DISPATCH_ERROR_TOO_LARGE,	/* an answer would not fit in a D-Bus message */
} AdDispatchError;

typedef enum {
	AD_BUS_NONE,
	AD_BUS_SYSTEM,
	AD_BUS_SESSION,
} AdBusKind;

const char *ad_bus_kind_name(AdBusKind b);
gboolean ad_bus_kind_from_name(const char *name, AdBusKind *ret);

/* where the dispatcher's log lines go */
typedef enum {
	AD_LOG_SYSLOG,
	AD_LOG_STDERR,
	AD_LOG_BOTH,
} AdLogTarget;

/* the command that a new alert's log line names for its details */
typedef enum {
	AD_LOG_COMMAND_AUTO,		/* sealert when BINDIR/sealert is avcdoctor, else avcdoctor */
	AD_LOG_COMMAND_SEALERT,		/* "For complete SELinux messages run: sealert -l LOCAL_ID" */
	AD_LOG_COMMAND_AVCDOCTOR,	/* "For details run: avcdoctor show ID" */
} AdLogCommand;

/*
 * The configuration (data/avcdoctor.conf documents every key).  Strings
 * are owned; NULL means "the default" (policy discovery, the installed
 * rules, the policy's own file_contexts).  db_path NULL means no store.
 */
typedef struct {
	char *db_path;
	guint max_alerts;		/* store cap and in-memory alert cap; 0 = none */
	guint max_age_days;
	guint commit_interval_ms;	/* at least every so often while writing */
	AdBusKind bus;
	char *admin_group;		/* may read and change alerts over D-Bus */
	guint update_interval_ms;	/* at most one AlertUpdated per alert per interval */
	char *policy;
	char *file_contexts;
	char *rules_dir;
	gboolean file_checks;		/* plugins may look at this host's files */
	guint event_timeout_ms;		/* an event without EOE is complete after this */
	gsize queue_bytes;		/* input held between reader and analysis */
	guint memory_alerts;		/* alerts kept in memory before the set is restarted */
	AdLogTarget log;
	AdLogCommand log_command;
	char *journal_socket;		/* NULL: journald's; "none": no journal entries */
	char *mail_recipients;		/* NULL: no alert mails */
	char *sendmail;			/* NULL: /usr/sbin/sendmail */
	guint mail_per_hour;		/* at most so many alert mails an hour; 0 = no cap */
} AdDispatchConfig;

void ad_dispatch_config_init(AdDispatchConfig *c);	/* the defaults */
void ad_dispatch_config_clear(AdDispatchConfig *c);
void ad_dispatch_config_copy(AdDispatchConfig *dst, const AdDispatchConfig *src);
/*
 * Reads @path over the values in @c.  With @as_root, a file (or, with
 * @check_dir, its directory) that is not owned by root or is
 * world-writable is refused, as audit's own configuration loaders do.
 * Unknown groups or keys and bad values are errors naming file and key;
 * @c is left untouched on error.
 */
gboolean ad_dispatch_config_load(AdDispatchConfig *c, const char *path, gboolean as_root,
				 GError **error);

/* ---- the queue between the stdin reader and the analysis ----------------- */

typedef struct _AdDispatchQueue AdDispatchQueue;

/* counters of what the queue had to drop */
typedef struct {
	guint64 shed_denials;		/* denial records dropped: "N denials not analysed" */
	guint64 shed_lines;
	guint64 shed_bytes;
	gsize peak_bytes;
} AdQueueStats;

AdDispatchQueue *ad_dispatch_queue_new(gsize max_bytes);
void ad_dispatch_queue_free(AdDispatchQueue *q);
/*
 * Takes @chunk (whole lines; owned) when it fits; otherwise, with @wait,
 * waits for room, and without, drops it and counts what it held (sets
 * @ret_shed).  An empty queue takes any chunk.  Returns TRUE when the
 * queue was empty before (the consumer may need a wake-up).  Thread-safe.
 */
gboolean ad_dispatch_queue_push(AdDispatchQueue *q, GBytes *chunk, gboolean wait,
				gboolean *ret_shed);
/* drops what is queued, counted as shed; returns the denial records dropped */
guint64 ad_dispatch_queue_discard(AdDispatchQueue *q);
/* wakes and stops every waiting writer (their chunks are then queued) */
void ad_dispatch_queue_abort(AdDispatchQueue *q);
/* the oldest chunk, or NULL when empty; the caller owns it.  Thread-safe. */
GBytes *ad_dispatch_queue_pop(AdDispatchQueue *q);
/* marks the end of the input (after the last chunk) */
void ad_dispatch_queue_close(AdDispatchQueue *q);
/*
 * Work for the main loop: a chunk is queued, or the queue was closed and
 * the dispatcher has not finished yet.  Lock-free (atomics): called from
 * the main loop's prepare.
 */
gboolean ad_dispatch_queue_has_work(AdDispatchQueue *q, gboolean finished);
gboolean ad_dispatch_queue_closed_and_empty(AdDispatchQueue *q);
void ad_dispatch_queue_stats(AdDispatchQueue *q, AdQueueStats *ret);
gsize ad_dispatch_queue_bytes(AdDispatchQueue *q);
/* the number of denial records (AVC, USER_AVC, SELINUX_ERR...) in lines of text */
guint ad_count_denial_lines(const char *text, gsize len);

/* ---- the dispatcher ------------------------------------------------------- */

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
 * @o (an alert's JSON object) as text for the bus, at most @max bytes:
 * when longer, entries are dropped from the ends of "records" (the raw
 * lines of its latest event), then of "paths", "commands" and "hosts"
 * (with "hosts_hex"), and "<key>_left_out" says how many of each.  NULL
 * when even that is too long.  @o is changed.
 */
char *ad_dispatch_alert_text(json_object *o, gsize max);

/*
 * JSON texts (analyze keys) of the alerts seen since @since, oldest
 * sighting first, each at most AD_DISPATCH_MAX_ALERT bytes (see
 * ad_dispatch_alert_text); the number of alerts too large even so in
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

/* ---- our own denials ------------------------------------------------------- */

/*
 * What identifies the dispatcher's own process in a denial: it is local
 * (no node, or this host's name) and either has our pid, or was made by
 * our executable in our SELinux domain (exe alone would hide another
 * domain's use of the binary; comm alone can be chosen by anyone).
 */
typedef struct {
	gint64 pid;
	char *exe;			/* /proc/self/exe */
	char *context;			/* getcon(); NULL when SELinux is off */
	char *hostname, *short_hostname;
} AdSelf;

void ad_self_init(AdSelf *s);
void ad_self_clear(AdSelf *s);
gboolean ad_self_is_own_denial(const AdSelf *s, const AdDenial *denial);

/* ---- logging ---------------------------------------------------------------- */

/* one function for every log line of the dispatcher: syslog, stderr or both */
void ad_dispatch_log_set_target(AdLogTarget t);
void ad_dispatch_log(int priority, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/*
 * A message that may repeat at the rate of the input (a full disk fails
 * every write): logged at most once per @interval_us, the next one saying
 * how many were held back meanwhile.
 */
typedef struct {
	gint64 interval_us;
	gint64 logged_us;	/* monotonic time of the last one logged, 0: none yet */
	guint64 held;		/* not logged since */
	char *last_held;	/* the last of those */
} AdLogLimit;

void ad_dispatch_log_limited(AdLogLimit *l, gint64 now_us, int priority, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);
/* at the end: the last one held back and how many were, if any; frees @l's text */
void ad_dispatch_log_limit_flush(AdLogLimit *l, int priority);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdDispatch, ad_dispatch_free)

G_END_DECLS
