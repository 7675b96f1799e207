// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dispatcher's machinery: configuration, the bounded queue fed by the
 * stdin reader thread, and the analysis that works it off in the main
 * thread (the CLI's reader, explain and alert grouping; the store; the
 * announcements).  dispatch.c is only main(); dbus-service.c is the D-Bus
 * face.
 *
 * Threads: the reader thread only read()s and queues whole lines; it never
 * parses and never waits for the analysis, so auditd's pipe is emptied as
 * fast as the kernel fills it.  When the queue is full a chunk is dropped
 * and its denial records counted ("N denials not analysed").  Everything
 * else (libsepol, which is global and not thread-safe; the alerts; the
 * SQLite store) belongs to the thread of the main context.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <selinux/selinux.h>

#include "analysis/analysis.h"
#include "clock.h"
#include "journal.h"
#include "mail.h"
#include "read/reader.h"
#include "log.h"
#include "pipeline.h"
#include "self.h"
#include "escape.h"
#include "policy/labels.h"
#include "output/report.h"
#include "analysis/rules.h"

#define READ_SIZE	(64u << 10)	/* one read() from auditd's pipe */
#define MAX_CARRY	(1u << 20)	/* an unterminated line is passed on beyond this */
#define DRAIN_BUDGET_US	20000		/* analysis slice between main loop turns */
#define PROBLEM_BURST	20		/* problem messages logged per minute, at most */
#define SHED_LOG_US	(10 * G_USEC_PER_SEC)
#define PRUNE_US	(60 * G_USEC_PER_SEC)
#define RELOAD_MIN_US	G_USEC_PER_SEC	/* between reloads after MAC_POLICY_LOAD */

/* ---- the dispatcher ----------------------------------------------------------- */

/* what the dispatcher keeps about an alert of its in-memory set */
typedef struct {
	AdAlert *alert;			/* borrowed from the set */
	gint64 base;			/* the store's count minus the set's */
	gint64 last_sent_us;		/* last AlertAdded/AlertUpdated (monotonic) */
	gboolean dirty;			/* seen since */
} AlertInfo;

typedef struct {
	GSource source;
	AdDispatch *d;
} DrainSource;

struct _AdDispatch {
	AdDispatchConfig cfg;
	FILE *json_out;
	AdDispatchSink sink;

	AdAnalysis *analysis;		/* the policy, labels, rules and explain */
	AdJournal *journal;		/* structured entries for new alerts; NULL: none */
	AdMailer *mailer;		/* alert mails; NULL: none */
	gboolean log_sealert;		/* the log line names `sealert -l LOCAL_ID` */
	guint64 mail_suppressed_logged;
	AdReader *reader;
	AdAlertSet *alerts;
	GHashTable *info;		/* id (borrowed from the alert) -> AlertInfo* */
	GPtrArray *dirty;		/* AlertInfo* with dirty set */
	AdStore *store;
	gint64 store_dirty_since;	/* 0 when everything is committed */
	gint64 last_prune_us;
	guint64 new_since_prune;
	AdSelf self;

	AdDispatchQueue *queue;
	GThread *thread;
	int fd;
	gboolean input_is_file;		/* a regular file waits for the analysis */
	int stop_pipe[2];
	GMainContext *context;
	GSource *drain;
	GSource *tick;
	GSourceFunc on_eof;
	gpointer on_eof_data;
	gboolean finished;

	AdDispatchStats stats;
	gint64 last_feed_us;
	gboolean reload_pending;
	gint64 last_reload_us;
	guint64 shed_announced;
	gint64 shed_announced_us, shed_logged_us;
	guint64 shed_logged;
	gint64 problem_window_us;
	guint problems_in_window;
	guint64 problems_unlogged;
	AdLogLimit store_error_log;	/* a full disk fails every write */
};

static gint64 now_us(void)
{
	return ad_clock_monotonic_us();
}

static void log_problem(AdDispatch *d, const char *file, guint line, const char *message)
{
	gint64 now = now_us();

	d->stats.rejected++;
	if (now - d->problem_window_us > 60 * G_USEC_PER_SEC) {
		if (d->problems_unlogged)
			ad_dispatch_log(LOG_WARNING, ngettext("%" PRIu64 " more record was "
							      "rejected (not logged one by one)",
							      "%" PRIu64 " more records were "
							      "rejected (not logged one by one)",
							      d->problems_unlogged),
					d->problems_unlogged);
		d->problem_window_us = now;
		d->problems_in_window = 0;
		d->problems_unlogged = 0;
	}
	if (d->problems_in_window++ < PROBLEM_BURST)
		ad_dispatch_log(LOG_WARNING, "%s:%u: %s", file, line, message);
	else
		d->problems_unlogged++;
}

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	log_problem(user_data, file, line, message);
}

static void on_record_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	log_problem(user_data, rec->file, rec->line, message);
}

static char *alert_summary_clean(const AdAlert *a)
{
	g_autofree char *s = ad_alert_summary(a);

	return ad_text_shown(s);
}

static guint64 info_count(const AlertInfo *info)
{
	gint64 c = (gint64)info->alert->count + info->base;

	return c > 0 ? (guint64)c : info->alert->count;
}

static void write_json(AdDispatch *d, AlertInfo *info)
{
	json_object *o;

	if (!d->json_out)
		return;
	o = ad_alert_to_json(info->alert);
	json_object_object_add(o, "count", json_object_new_uint64(info_count(info)));
	fputs(ad_json_line(o), d->json_out);
	fputc('\n', d->json_out);
	json_object_put(o);
}

static void log_mail_problem(const char *message, gpointer user_data)
{
	(void)user_data;
	ad_dispatch_log(LOG_WARNING, "%s", message);
}

/*
 * A new alert where administrators already look: a structured journal
 * entry (journalctl MESSAGE_ID=...), and a mail when recipients are set.
 */
static void tell_admins(AdDispatch *d, const AdAlert *a, const char *summary)
{
	g_autoptr(GError) error = NULL;

	if (d->journal && !ad_journal_send_alert(d->journal, a, summary, &error))
		ad_dispatch_log(LOG_WARNING, _("no journal entry for alert %s: %s"), a->id,
				error->message);
	if (d->mailer) {
		g_autoptr(GString) report = g_string_new(NULL);

		ad_alert_render(report, a);
		if (!ad_mailer_send_alert(d->mailer, a, summary, report->str, log_mail_problem, d) &&
		    ad_mailer_suppressed(d->mailer) > d->mail_suppressed_logged) {
			guint64 n = ad_mailer_suppressed(d->mailer);

			/* once per burst: the first suppressed mail of a run of them */
			if (n == d->mail_suppressed_logged + 1)
				ad_dispatch_log(LOG_WARNING,
						ngettext("alert mails held back: more than %u an "
							 "hour (see [email] max_per_hour)",
							 "alert mails held back: more than %u an "
							 "hour (see [email] max_per_hour)",
							 d->cfg.mail_per_hour),
						d->cfg.mail_per_hour);
			d->mail_suppressed_logged = n;
		}
	}
}

/* is BINDIR/sealert avcdoctor (the package avcdoctor-sealert's link)? */
static gboolean sealert_is_avcdoctor(void)
{
	g_autofree char *sealert = realpath(AD_BINDIR "/sealert", NULL);
	g_autofree char *self = realpath(AD_BINDIR "/avcdoctor", NULL);

	return sealert && self && strcmp(sealert, self) == 0;
}

/*
 * (Re)opens the journal and the mailer as the configuration says, and
 * picks the command that the log lines name.
 */
static void open_outlets(AdDispatch *d)
{
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	const char *sock = d->cfg.journal_socket ? d->cfg.journal_socket
						 : AD_JOURNAL_DEFAULT_SOCKET;

	d->log_sealert = d->cfg.log_command == AD_LOG_COMMAND_SEALERT ||
			 (d->cfg.log_command == AD_LOG_COMMAND_AUTO && sealert_is_avcdoctor());

	g_clear_pointer(&d->journal, ad_journal_free);
	ad_mailer_wait(d->mailer, 5000);
	g_clear_pointer(&d->mailer, ad_mailer_free);
	if (strcmp(sock, "none") != 0)
		d->journal = ad_journal_new(sock);
	if (!d->cfg.mail_recipients)
		return;
	d->mailer = ad_mailer_new(d->cfg.mail_recipients, d->cfg.sendmail, d->cfg.mail_per_hour,
				  geteuid() == 0, problems, &error);
	for (guint i = 0; i < problems->len; i++)
		ad_dispatch_log(LOG_WARNING, "%s", (char *)g_ptr_array_index(problems, i));
	if (!d->mailer)
		ad_dispatch_log(LOG_WARNING, _("no alert mails: %s"), error->message);
	else if (d->store)
		ad_mailer_set_store(d->mailer, d->store, log_mail_problem, d);
}

static void announce_new(AdDispatch *d, AlertInfo *info)
{
	AdAlert *a = info->alert;
	g_autofree char *summary = alert_summary_clean(a);
	g_autofree char *local_id = NULL;
	const char *level = ad_level_name(a->level);

	d->stats.alerts_new++;
	d->new_since_prune++;
	info->last_sent_us = now_us();
	info->dirty = FALSE;
	/*
	 * setroubleshoot's words where its command is avcdoctor's: the local id
	 * is what its clients know the alert by (without a store there is
	 * none, and nothing that `sealert -l` could show)
	 */
	if (d->log_sealert && d->store && (local_id = ad_store_local_id(d->store, a->id)))
		ad_dispatch_log(LOG_WARNING,
				_("%s For complete SELinux messages run: sealert -l %s"), summary,
				local_id);
	else
		ad_dispatch_log(LOG_WARNING, _("%s For details run: avcdoctor show %s"), summary,
				a->id);
	tell_admins(d, a, summary);
	if (d->sink.alert_added)
		d->sink.alert_added(a->id, level, summary, d->sink.user_data);
	write_json(d, info);
}

static void send_update(AdDispatch *d, AlertInfo *info, gint64 now)
{
	AdAlert *a = info->alert;
	g_autofree char *summary = alert_summary_clean(a);

	info->dirty = FALSE;
	info->last_sent_us = now;
	d->stats.updates_sent++;
	if (d->sink.alert_updated)
		d->sink.alert_updated(a->id, ad_level_name(a->level), summary, info_count(info),
				      d->sink.user_data);
	write_json(d, info);
}

/* sends the updates that are due (all of them with @force) */
static void flush_updates(AdDispatch *d, gboolean force)
{
	gint64 now = now_us();
	gint64 interval = (gint64)d->cfg.update_interval_ms * 1000;
	guint kept = 0;

	for (guint i = 0; i < d->dirty->len; i++) {
		AlertInfo *info = g_ptr_array_index(d->dirty, i);

		if (!info->dirty)
			continue;
		if (force || now - info->last_sent_us >= interval)
			send_update(d, info, now);
		else
			d->dirty->pdata[kept++] = info;
	}
	g_ptr_array_set_size(d->dirty, kept);
}

/* forgets the alerts held in memory (their verdicts belong to the policy) */
static void restart_alert_set(AdDispatch *d)
{
	flush_updates(d, TRUE);
	g_hash_table_remove_all(d->info);
	ad_alert_set_free(d->alerts);
	d->alerts = ad_alert_set_new();
}

/* a failed write, commit or pruning of the store: counted, logged at most every 10 s */
static void store_error(AdDispatch *d, const GError *error)
{
	d->stats.store_errors++;
	ad_dispatch_log_limited(&d->store_error_log, now_us(), LOG_ERR, _("alert store: %s"),
				error->message);
}

/* the store's count of @id, or 0 (its in-memory map: no JSON is built) */
static guint64 store_count(AdDispatch *d, const char *id)
{
	guint64 n = 0;

	if (!ad_store_lookup(d->store, id, &n, NULL))
		return 0;
	return n;
}

static void handle_denial(AdDispatch *d, AdDenial *den)
{
	g_autoptr(GError) error = NULL;
	gboolean set_new = FALSE, store_new;
	const AdVerdict *v;
	AlertInfo *info;
	AdAlert *a;

	d->stats.denials++;
	if (ad_self_is_own_denial(&d->self, den)) {
		/* no feedback loop: what we are denied is never an alert */
		d->stats.own++;
		return;
	}
	v = ad_analysis_explain(d->analysis, den);
	a = ad_alert_set_add(d->alerts, den, v, &set_new);
	if (!a) {
		d->stats.granted++;
		return;
	}
	/* another record of an occurrence already stored (an exec's other checks) */
	if (a->repeat)
		return;
	if (set_new) {
		ad_alert_analyse(a, ad_analysis_context(d->analysis));
		info = g_new0(AlertInfo, 1);
		info->alert = a;
		g_hash_table_insert(d->info, a->id, info);
	} else {
		info = g_hash_table_lookup(d->info, a->id);
	}
	store_new = set_new;
	if (d->store) {
		if (ad_store_record(d->store, a, den, &store_new, &error)) {
			if (!d->store_dirty_since)
				d->store_dirty_since = now_us();
		} else {
			store_error(d, error);
			store_new = set_new;
		}
	}
	if (store_new) {
		info->base = 1 - (gint64)a->count;
		announce_new(d, info);
	} else {
		if (set_new && d->store)
			info->base = (gint64)store_count(d, a->id) - (gint64)a->count;
		if (!info->dirty) {
			info->dirty = TRUE;
			g_ptr_array_add(d->dirty, info);
		}
	}
	if (d->cfg.memory_alerts && g_hash_table_size(d->info) > d->cfg.memory_alerts) {
		d->stats.set_restarts++;
		restart_alert_set(d);
	}
}

/* a MAC_POLICY_LOAD of this host (not of a remote node on a collector) */
static gboolean event_is_local(AdDispatch *d, const AdEvent *ev)
{
	return !ev->node || !*ev->node || g_strcmp0(ev->node, d->self.hostname) == 0 ||
	       g_strcmp0(ev->node, d->self.short_hostname) == 0;
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	AdDispatch *d = user_data;
	g_autoptr(GPtrArray) denials =
		g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);

	d->stats.events++;
	if (ad_event_is_policy_load(ev) && event_is_local(d, ev)) {
		d->stats.policy_loads++;
		d->reload_pending = TRUE;
	}
	ad_event_build_denials(ev, denials, on_record_problem, d);
	for (guint i = 0; i < denials->len; i++)
		handle_denial(d, g_ptr_array_index(denials, i));
}

/* the analysis options of the configuration */
static void knowledge_options(AdDispatch *d, AdAnalysisOptions *opt, const char **dirs)
{
	opt->file_contexts = d->cfg.file_contexts;
	/* rules_dir names the one directory to read instead of the default ones */
	dirs[0] = d->cfg.rules_dir;
	dirs[1] = NULL;
	opt->rules_dirs = d->cfg.rules_dir ? dirs : NULL;
	opt->local = d->cfg.file_checks;
	/* the alerts go to the store: a command names one by its id */
	opt->stored_alerts = TRUE;
}

static void log_problems(GPtrArray *problems)
{
	for (guint i = 0; i < problems->len; i++)
		ad_dispatch_log(LOG_WARNING, "%s", (char *)g_ptr_array_index(problems, i));
}

/* loads labels and rules for the current policy; what fails is logged */
static void load_knowledge(AdDispatch *d)
{
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	AdAnalysisOptions opt = { 0 };
	const char *dirs[2];

	knowledge_options(d, &opt, dirs);
	ad_analysis_load_knowledge(d->analysis, &opt, problems);
	log_problems(problems);
}

/*
 * Replaces the policy (and what depends on it).  The alerts in memory
 * borrow verdicts from the old policy: they go first.  On failure the old
 * policy stays.
 */
static gboolean reload_policy(AdDispatch *d, GError **error)
{
	AdPolicy *next = ad_policy_load(d->cfg.policy, error);

	if (!next)
		return FALSE;
	restart_alert_set(d);
	ad_analysis_set_policy(d->analysis, next);
	/* the configuration may have changed: the knowledge is loaded as it says now */
	load_knowledge(d);
	d->stats.policy_reloads++;
	d->last_reload_us = now_us();
	return TRUE;
}

static void maybe_prune(AdDispatch *d, gboolean force)
{
	g_autoptr(GError) error = NULL;
	gint64 now = now_us();
	guint every = MAX(100u, d->cfg.max_alerts / 10);

	if (!d->store)
		return;
	if (!force && now - d->last_prune_us < PRUNE_US && d->new_since_prune < every)
		return;
	ad_store_prune(d->store, ad_clock_real_us() / 1e6, &error);
	if (error)
		store_error(d, error);
	d->last_prune_us = now;
	d->new_since_prune = 0;
}

static void commit(AdDispatch *d)
{
	g_autoptr(GError) error = NULL;

	if (!d->store || !d->store_dirty_since)
		return;
	d->store_dirty_since = 0;
	if (!ad_store_commit(d->store, &error))
		store_error(d, error);
}

static void announce_shed(AdDispatch *d, gboolean force)
{
	AdQueueStats qs;
	gint64 now = now_us();

	ad_dispatch_queue_stats(d->queue, &qs);
	if (qs.shed_denials == d->shed_announced && qs.shed_lines == d->shed_logged)
		return;
	if (force || now - d->shed_announced_us >= G_USEC_PER_SEC) {
		if (qs.shed_denials != d->shed_announced && d->sink.shed_changed)
			d->sink.shed_changed(qs.shed_denials, d->sink.user_data);
		d->shed_announced = qs.shed_denials;
		d->shed_announced_us = now;
	}
	if (qs.shed_lines != d->shed_logged && (force || now - d->shed_logged_us >= SHED_LOG_US)) {
		g_autofree char *denials = g_strdup_printf(
			ngettext("%" PRIu64 " denial not analysed", "%" PRIu64 " denials not analysed",
				 qs.shed_denials), qs.shed_denials);
		g_autofree char *records = g_strdup_printf(
			ngettext("%" PRIu64 " record dropped", "%" PRIu64 " records dropped",
				 qs.shed_lines), qs.shed_lines);

		/* TRANSLATORS: "5 denials not analysed", "(7 records dropped)" */
		ad_dispatch_log(LOG_WARNING, _("the analysis fell behind the audit stream: "
					       "%s (%s) so far"), denials, records);
		d->shed_logged = qs.shed_lines;
		d->shed_logged_us = now;
	}
}

/*
 * How often the tick runs while there is work: a quarter of the event
 * timeout (an event is emitted at most that late), half the commit interval.
 */
static guint tick_period(AdDispatch *d)
{
	guint period = MIN(d->cfg.commit_interval_ms / 2, d->cfg.event_timeout_ms / 4);

	return CLAMP(period, 2u, 50u);
}

void ad_dispatch_tick(AdDispatch *d)
{
	gint64 now = now_us();

	if (d->finished)
		return;
	ad_reader_age(d->reader, d->cfg.event_timeout_ms / 1000.0);
	d->stats.busy += (now_us() - now) / 1e6;
	if (d->reload_pending && now - d->last_reload_us >= RELOAD_MIN_US) {
		g_autoptr(GError) error = NULL;

		d->reload_pending = FALSE;
		if (reload_policy(d, &error))
			ad_dispatch_log(LOG_INFO, _("policy reloaded after MAC_POLICY_LOAD: %s"),
					ad_policy_path(ad_analysis_policy(d->analysis)));
		else
			ad_dispatch_log(LOG_ERR, _("policy reload failed, keeping the old one: %s"),
					error->message);
	}
	flush_updates(d, FALSE);
	/* the next tick would be too late: writes are committed within the interval */
	if (d->store_dirty_since &&
	    now - d->store_dirty_since >=
		    (gint64)(d->cfg.commit_interval_ms - tick_period(d)) * 1000)
		commit(d);
	maybe_prune(d, FALSE);
	announce_shed(d, FALSE);
	if (d->json_out)
		fflush(d->json_out);
}

/* is there anything the tick timer still has to do? */
static gboolean tick_needed(AdDispatch *d)
{
	gint64 quiet = now_us() - d->last_feed_us;

	return !d->finished &&
	       (quiet < (gint64)(d->cfg.event_timeout_ms + 50) * 1000 || d->dirty->len ||
		d->store_dirty_since || d->reload_pending);
}

static gboolean tick_cb(gpointer user_data)
{
	AdDispatch *d = user_data;

	ad_dispatch_tick(d);
	if (tick_needed(d))
		return G_SOURCE_CONTINUE;
	g_clear_pointer(&d->tick, g_source_unref);
	return G_SOURCE_REMOVE;
}

/* the tick runs while there is work, and not at all when the daemon is idle */
static void ensure_tick(AdDispatch *d)
{
	guint period;

	if (d->tick || !d->context)
		return;
	period = tick_period(d);
	d->tick = g_timeout_source_new(period);
	g_source_set_callback(d->tick, tick_cb, d, NULL);
	g_source_attach(d->tick, d->context);
}

void ad_dispatch_feed(AdDispatch *d, const char *text, gsize len)
{
	gint64 now = now_us();

	if (!d->stats.first_input)
		d->stats.first_input = now / 1e6;
	d->stats.bytes += len;
	d->stats.chunks++;
	ad_reader_feed(d->reader, text, len);
	d->last_feed_us = now_us();
	d->stats.busy += (d->last_feed_us - now) / 1e6;
	ensure_tick(d);
}

void ad_dispatch_finish(AdDispatch *d)
{
	gint64 start = now_us();

	if (d->finished)
		return;
	ad_reader_end_source(d->reader);
	flush_updates(d, TRUE);
	commit(d);
	maybe_prune(d, TRUE);
	commit(d);
	announce_shed(d, TRUE);
	if (d->json_out)
		fflush(d->json_out);
	d->stats.last_done = now_us() / 1e6;
	d->stats.busy += d->stats.last_done - start / 1e6;
	d->finished = TRUE;
	if (d->tick) {
		g_source_destroy(d->tick);
		g_clear_pointer(&d->tick, g_source_unref);
	}
}

gboolean ad_dispatch_drain(AdDispatch *d, gint64 budget_us)
{
	gint64 start = now_us();
	GBytes *chunk;

	while ((chunk = ad_dispatch_queue_pop(d->queue))) {
		gsize n;
		const char *p = g_bytes_get_data(chunk, &n);

		ad_dispatch_feed(d, p, n);
		g_bytes_unref(chunk);
		if (d->store_dirty_since &&
		    now_us() - d->store_dirty_since >= (gint64)d->cfg.commit_interval_ms * 1000)
			commit(d);
		if (now_us() - start >= budget_us) {
			if (d->json_out)
				fflush(d->json_out);
			return TRUE;
		}
	}
	if (d->json_out)
		fflush(d->json_out);
	if (!d->finished && ad_dispatch_queue_closed_and_empty(d->queue)) {
		ad_dispatch_finish(d);
		if (d->on_eof)
			g_main_context_invoke(d->context, d->on_eof, d->on_eof_data);
	}
	return FALSE;
}

/* ---- the main-loop source that works the queue off ---------------------------------- */

static gboolean work_available(AdDispatch *d)
{
	return ad_dispatch_queue_has_work(d->queue, d->finished);
}

static gboolean drain_prepare(GSource *source, gint *timeout)
{
	*timeout = -1;
	return work_available(((DrainSource *)source)->d);
}

static gboolean drain_check(GSource *source)
{
	return work_available(((DrainSource *)source)->d);
}

static gboolean drain_dispatch(GSource *source, GSourceFunc callback, gpointer user_data)
{
	ad_dispatch_drain(((DrainSource *)source)->d, DRAIN_BUDGET_US);
	return G_SOURCE_CONTINUE;
}

static GSourceFuncs drain_funcs = {
	.prepare = drain_prepare,
	.check = drain_check,
	.dispatch = drain_dispatch,
};

/* ---- the reader thread -------------------------------------------------------------- */

static void reader_push(AdDispatch *d, GBytes *chunk)
{
	ad_dispatch_queue_push(d->queue, chunk, d->input_is_file, NULL);
	g_main_context_wakeup(d->context);
}

/*
 * Reads @d->fd until EOF or a stop request and queues whole lines.  Never
 * blocks on the analysis: a full queue drops the chunk (and counts it).
 */
static gpointer reader_thread(gpointer user_data)
{
	AdDispatch *d = user_data;
	GByteArray *carry = g_byte_array_new();
	guint8 *buf = g_malloc(READ_SIZE);
	sigset_t all;

	/* signals are for the main thread's handlers */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = d->fd, .events = POLLIN },
			{ .fd = d->stop_pipe[0], .events = POLLIN },
		};
		ssize_t n;
		guint8 *nl;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents)
			break;
		n = read(d->fd, buf, READ_SIZE);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		nl = memrchr(buf, '\n', n);
		if (!nl) {
			g_byte_array_append(carry, buf, n);
			if (carry->len > MAX_CARRY)
				reader_push(d, g_byte_array_free_to_bytes(
						       g_steal_pointer(&carry))),
					carry = g_byte_array_new();
			continue;
		}
		gsize whole = nl + 1 - buf;
		GBytes *chunk;

		if (carry->len) {
			g_byte_array_append(carry, buf, whole);
			chunk = g_byte_array_free_to_bytes(g_steal_pointer(&carry));
			carry = g_byte_array_new();
		} else {
			chunk = g_bytes_new(buf, whole);
		}
		if ((gsize)n > whole)
			g_byte_array_append(carry, buf + whole, n - whole);
		reader_push(d, chunk);
	}
	/* the last line without a newline is still a record */
	if (carry->len)
		reader_push(d, g_byte_array_free_to_bytes(g_steal_pointer(&carry)));
	else
		g_byte_array_unref(carry);
	g_free(buf);
	ad_dispatch_queue_close(d->queue);
	g_main_context_wakeup(d->context);
	return NULL;
}

void ad_dispatch_start(AdDispatch *d, int fd, GSourceFunc on_eof, gpointer user_data)
{
	struct stat st;

	g_return_if_fail(!d->thread);
	d->fd = fd;
	/* nothing writes a regular file as we read it: no need to shed, ever */
	d->input_is_file = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	d->on_eof = on_eof;
	d->on_eof_data = user_data;
	d->drain = g_source_new(&drain_funcs, sizeof(DrainSource));
	((DrainSource *)d->drain)->d = d;
	g_source_set_priority(d->drain, G_PRIORITY_DEFAULT);
	g_source_attach(d->drain, d->context);
	if (pipe2(d->stop_pipe, O_CLOEXEC) < 0)
		d->stop_pipe[0] = d->stop_pipe[1] = -1;
	d->thread = g_thread_new("ad-stdin", reader_thread, d);
}

/* ---- creation ---------------------------------------------------------------------- */

static AdStore *open_store(AdDispatch *d)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *warning = NULL;
	AdStoreLimits limits = { d->cfg.max_alerts, d->cfg.max_age_days };
	AdStore *s;

	if (!d->cfg.db_path)
		return NULL;
	s = ad_store_open(d->cfg.db_path, &limits, &warning, &error);
	if (warning)
		ad_dispatch_log(LOG_WARNING, "%s", warning);
	if (!s)
		/* alerts are still announced; only their history is lost */
		ad_dispatch_log(LOG_ERR, _("alert store unavailable, alerts are not kept: %s"),
				error->message);
	return s;
}

AdDispatch *ad_dispatch_new(const AdDispatchConfig *config, FILE *json_out, GError **error)
{
	g_autoptr(AdDispatch) d = g_new0(AdDispatch, 1);

	ad_dispatch_config_copy(&d->cfg, config);
	d->json_out = json_out;
	d->fd = -1;
	d->stop_pipe[0] = d->stop_pipe[1] = -1;
	ad_self_init(&d->self);
	d->queue = ad_dispatch_queue_new(d->cfg.queue_bytes);
	d->info = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	d->dirty = g_ptr_array_new();
	d->alerts = ad_alert_set_new();
	d->reader = ad_reader_new(on_event, on_problem, d);
	ad_reader_set_source(d->reader, "stdin");
	d->context = g_main_context_ref_thread_default();
	d->last_reload_us = now_us();
	d->store_error_log.interval_us = 10 * G_USEC_PER_SEC;

	{
		/* the labels and rules are read while the policy loads */
		g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
		AdAnalysisOptions opt = { 0 };
		const char *dirs[2];

		knowledge_options(d, &opt, dirs);
		d->analysis = ad_analysis_new_with_knowledge(d->cfg.policy, &opt, problems, error);
		if (!d->analysis)
			return NULL;
		log_problems(problems);
	}
	open_outlets(d);
	d->store = open_store(d);
	/* the mails held back before a restart go out as the budgets allow */
	if (d->mailer && d->store)
		ad_mailer_set_store(d->mailer, d->store, log_mail_problem, d);
	maybe_prune(d, TRUE);
	commit(d);
	if (json_out)
		setvbuf(json_out, NULL, _IOFBF, 1 << 16);
	return g_steal_pointer(&d);
}

void ad_dispatch_free(AdDispatch *d)
{
	if (!d)
		return;
	if (d->thread) {
		ad_dispatch_queue_abort(d->queue);
		if (d->stop_pipe[1] >= 0 && write(d->stop_pipe[1], "x", 1) < 0)
			ad_dispatch_log(LOG_ERR, "cannot stop the reader thread: %s",
					g_strerror(errno));
		g_thread_join(d->thread);
	}
	if (d->stop_pipe[0] >= 0) {
		close(d->stop_pipe[0]);
		close(d->stop_pipe[1]);
	}
	if (d->drain) {
		g_source_destroy(d->drain);
		g_source_unref(d->drain);
	}
	if (d->tick) {
		g_source_destroy(d->tick);
		g_source_unref(d->tick);
	}
	if (d->reader) {
		/* pending events are handed over before the alerts go */
		ad_reader_free(d->reader);
		d->reader = NULL;
	}
	if (d->mailer)
		ad_mailer_set_store(d->mailer, NULL, NULL, NULL);
	if (d->store) {
		commit(d);
		ad_store_close(d->store);
	}
	ad_dispatch_log_limit_flush(&d->store_error_log, LOG_ERR);
	g_clear_pointer(&d->info, g_hash_table_unref);
	g_clear_pointer(&d->dirty, g_ptr_array_unref);
	g_clear_pointer(&d->alerts, ad_alert_set_free);
	g_clear_pointer(&d->analysis, ad_analysis_free);
	g_clear_pointer(&d->journal, ad_journal_free);
	ad_mailer_wait(d->mailer, 5000);
	g_clear_pointer(&d->mailer, ad_mailer_free);
	ad_dispatch_queue_free(d->queue);
	ad_self_clear(&d->self);
	ad_dispatch_config_clear(&d->cfg);
	if (d->context)
		g_main_context_unref(d->context);
	g_free(d);
}

void ad_dispatch_set_sink(AdDispatch *d, const AdDispatchSink *sink)
{
	if (sink)
		d->sink = *sink;
	else
		memset(&d->sink, 0, sizeof(d->sink));
}

const AdDispatchConfig *ad_dispatch_config(AdDispatch *d)
{
	return &d->cfg;
}

AdStore *ad_dispatch_store(AdDispatch *d)
{
	return d->store;
}

AdDispatchQueue *ad_dispatch_queue(AdDispatch *d)
{
	return d->queue;
}

void ad_dispatch_stats(AdDispatch *d, AdDispatchStats *ret)
{
	*ret = d->stats;
	ad_dispatch_queue_stats(d->queue, &ret->queue);
}

guint64 ad_dispatch_shed(AdDispatch *d)
{
	AdQueueStats qs;

	ad_dispatch_queue_stats(d->queue, &qs);
	return qs.shed_denials;
}

gboolean ad_dispatch_reload(AdDispatch *d, const AdDispatchConfig *config, GError **error)
{
	AdDispatchConfig next;

	ad_dispatch_config_copy(&next, config ? config : &d->cfg);
	/* the store and the bus are opened once, with the privileges of the start */
	if (g_strcmp0(next.db_path, d->cfg.db_path) != 0 || next.bus != d->cfg.bus)
		ad_dispatch_log(LOG_WARNING, "%s", _("the store path and the bus change at the next "
					       "start, not on SIGHUP"));
	g_free(next.db_path);
	next.db_path = g_strdup(d->cfg.db_path);
	next.bus = d->cfg.bus;
	/* the queue keeps its size: the reader thread holds it */
	next.queue_bytes = d->cfg.queue_bytes;
	ad_dispatch_config_clear(&d->cfg);
	d->cfg = next;
	ad_dispatch_log_set_target(d->cfg.log);
	open_outlets(d);
	if (d->store) {
		AdStoreLimits limits = { d->cfg.max_alerts, d->cfg.max_age_days };

		/* the new caps apply at once: prune now rather than at the next interval */
		ad_store_set_limits(d->store, &limits);
		maybe_prune(d, TRUE);
	}
	if (!reload_policy(d, error))
		return FALSE;
	d->reload_pending = FALSE;
	return TRUE;
}

char *ad_dispatch_summary(AdDispatch *d)
{
	AdDispatchStats s;
	GString *out = g_string_new(NULL);
	double secs;
	guint held;

	ad_dispatch_stats(d, &s);
	held = g_hash_table_size(d->info);
	/* one piece per count: each takes its own plural form */
	g_string_append_printf(out, ngettext("%" PRIu64 " event", "%" PRIu64 " events",
					     s.events), s.events);
	g_string_append_printf(out, ngettext(", %" PRIu64 " denial record",
					     ", %" PRIu64 " denial records", s.denials), s.denials);
	g_string_append_printf(out, ngettext(" in %u alert held", " in %u alerts held", held),
			       held);
	g_string_append_printf(out, ngettext(" (%" PRIu64 " new alert", " (%" PRIu64 " new alerts",
					     s.alerts_new), s.alerts_new);
	g_string_append_printf(out, ngettext(", %" PRIu64 " update)", ", %" PRIu64 " updates)",
					     s.updates_sent), s.updates_sent);
	if (s.granted)
		g_string_append_printf(out, ngettext(", %" PRIu64 " granted (not alerts)",
						     ", %" PRIu64 " granted (not alerts)",
						     s.granted), s.granted);
	if (s.own)
		g_string_append_printf(out, ngettext(", %" PRIu64 " of our own (ignored)",
						     ", %" PRIu64 " of our own (ignored)",
						     s.own), s.own);
	g_string_append_printf(out, ngettext("; %" PRIu64 " denial not analysed",
					     "; %" PRIu64 " denials not analysed",
					     s.queue.shed_denials), s.queue.shed_denials);
	g_string_append_printf(out, ngettext(" (the analysis fell behind, %" PRIu64
					     " record dropped)",
					     " (the analysis fell behind, %" PRIu64
					     " records dropped)", s.queue.shed_lines),
			       s.queue.shed_lines);
	if (s.rejected)
		g_string_append_printf(out, ngettext("; %" PRIu64 " record rejected",
						     "; %" PRIu64 " records rejected", s.rejected),
				       s.rejected);
	if (d->store)
		g_string_append_printf(out, ngettext("; %u alert in the store",
						     "; %u alerts in the store",
						     ad_store_count(d->store)),
				       ad_store_count(d->store));
	if (s.store_errors)
		g_string_append_printf(out, ngettext("; %" PRIu64 " store error",
						     "; %" PRIu64 " store errors", s.store_errors),
				       s.store_errors);
	if (s.policy_reloads)
		g_string_append_printf(out, ngettext("; policy reloaded %" PRIu64 " time",
						     "; policy reloaded %" PRIu64 " times",
						     s.policy_reloads), s.policy_reloads);
	secs = s.last_done - s.first_input;
	if (s.first_input && s.last_done && secs > 0)
		g_string_append_printf(out, _("; %.3f s from the first input to the end"), secs);
	if (s.busy > 0)
		g_string_append_printf(out, _(", %.3f s of analysis (%.0f denials/s)"), s.busy,
				       s.denials / s.busy);
	return g_string_free(out, FALSE);
}

/* ---- what the D-Bus service asks ----------------------------------------------------- */

static gboolean alert_has_host(const AdAlert *a, const char *host)
{
	return !host || !*host || g_hash_table_contains(a->hosts, host);
}

/* the text of alert @o for a list (see ad_alert_json_text), or counted as left out */
static void list_add(GPtrArray *out, json_object *o, guint *left_out)
{
	char *text = ad_alert_json_text(o, AD_DISPATCH_MAX_ALERT);

	if (text)
		g_ptr_array_add(out, text);
	else
		(*left_out)++;
}

GPtrArray *ad_dispatch_list(AdDispatch *d, double since, gboolean include_ignored,
			    gint64 uid, const char *host, guint *ret_left_out, GError **error)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	guint left_out = 0;

	if (d->store) {
		g_autoptr(GPtrArray) list = ad_store_list(d->store, since, include_ignored, uid,
							  host && *host ? host : NULL, error);

		if (!list) {
			g_ptr_array_unref(out);
			return NULL;
		}
		for (guint i = 0; i < list->len; i++)
			list_add(out, g_ptr_array_index(list, i), &left_out);
	} else {
		/* without a store: what this run holds in memory */
		GPtrArray *alerts = ad_alert_set_alerts(d->alerts);

		for (guint i = 0; i < alerts->len; i++) {
			AdAlert *a = g_ptr_array_index(alerts, i);
			json_object *o;

			if (a->last_seen < since || !alert_has_host(a, host))
				continue;
			o = ad_alert_to_json(a);
			list_add(out, o, &left_out);
			json_object_put(o);
		}
	}
	if (ret_left_out)
		*ret_left_out = left_out;
	return out;
}

char *ad_dispatch_get(AdDispatch *d, const char *id, gint64 uid, GError **error)
{
	json_object *o;
	char *text;

	if (!ad_alert_id_is_valid(id)) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
			    _("not an alert id: 16 lowercase hexadecimal digits"));
		return NULL;
	}
	if (d->store) {
		o = ad_store_get(d->store, id, uid, error);
		if (!o)
			return NULL;
	} else {
		AlertInfo *info = g_hash_table_lookup(d->info, id);

		if (!info) {
			g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND,
				    _("no alert %s"), id);
			return NULL;
		}
		o = ad_alert_to_json(info->alert);
	}
	text = ad_alert_json_text(o, AD_DISPATCH_MAX_ALERT);
	json_object_put(o);
	if (!text)
		g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_TOO_LARGE,
			    _("alert %s is too large to send on the bus, even without its "
			      "records and lists: read it with avcdoctor show --db"), id);
	return text;
}

/* an alert id a caller gave, and a store to act on: else the error to reply */
static gboolean check_id(AdDispatch *d, const char *id, GError **error)
{
	if (id && !ad_alert_id_is_valid(id)) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
			    _("not an alert id: 16 lowercase hexadecimal digits"));
		return FALSE;
	}
	if (!d->store) {
		g_set_error(error, AD_DISPATCH_ERROR, AD_DISPATCH_ERROR_NO_STORE,
			    _("the dispatcher runs without an alert store"));
		return FALSE;
	}
	return TRUE;
}

/* a caller changed the store: committed now, as the pipeline's own changes are */
static gboolean store_changed(AdDispatch *d)
{
	if (!d->store_dirty_since)
		d->store_dirty_since = now_us();
	commit(d);
	return TRUE;
}

gboolean ad_dispatch_set_filter(AdDispatch *d, const char *id, gint64 uid, AdFilter filter,
				GError **error)
{
	if (!check_id(d, id, error))
		return FALSE;
	if (!ad_store_set_filter(d->store, id, uid, filter, error))
		return FALSE;
	return store_changed(d);
}

gboolean ad_dispatch_set_filters(AdDispatch *d, const char *const *ids, gint64 uid,
				 AdFilter filter, guint *ret_set, GError **error)
{
	*ret_set = 0;
	for (guint i = 0; ids[i]; i++)
		if (!check_id(d, ids[i], error))
			return FALSE;
	if (!check_id(d, NULL, error))
		return FALSE;
	/* a red alert is never silenced in a batch */
	if (!ad_store_set_filters(d->store, ids, uid, filter, TRUE, ret_set, error))
		return FALSE;
	return store_changed(d);
}

gboolean ad_dispatch_delete(AdDispatch *d, const char *id, GError **error)
{
	if (!check_id(d, id, error))
		return FALSE;
	if (!ad_store_delete(d->store, id, error))
		return FALSE;
	return store_changed(d);
}

gboolean ad_dispatch_is_boolean(AdDispatch *d, const char *name)
{
	AdPolicy *p = d->analysis ? ad_analysis_policy(d->analysis) : NULL;

	return p && name && ad_policy_bool_value(p, name) >= 0;
}
