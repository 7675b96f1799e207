/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "alert-doc.h"
#include "analysis/alert.h"

G_BEGIN_DECLS

#define AD_STORE_ERROR (ad_store_error_quark())
GQuark ad_store_error_quark(void);

typedef enum {
	AD_STORE_ERROR_OPEN,		/* cannot open or create */
	AD_STORE_ERROR_CORRUPT,		/* moved aside; a new store was created */
	AD_STORE_ERROR_UNSAFE,		/* symlink, wrong owner or mode */
	AD_STORE_ERROR_NOT_FOUND,	/* no such alert */
	AD_STORE_ERROR_INVALID,		/* bad argument (an id that is not an id) */
	AD_STORE_ERROR_IO,
	AD_STORE_ERROR_CHANGED,		/* a local id of an earlier analysis of the alert */
} AdStoreError;

#define AD_STORE_DEFAULT_PATH "/var/lib/avcdoctor/alerts.db"

/* per-user notification filter of an alert (setroubleshoot's three) */
typedef enum {
	AD_FILTER_NEVER,		/* never ignore: notify every time (default) */
	AD_FILTER_AFTER_FIRST,		/* notify the first time only */
	AD_FILTER_ALWAYS,		/* always ignore */
} AdFilter;

const char *ad_filter_name(AdFilter f);
gboolean ad_filter_from_name(const char *name, AdFilter *ret);

typedef struct {
	guint max_alerts;		/* oldest (by last_seen) pruned beyond; 0 = no cap */
	guint max_age_days;		/* alerts not seen for longer are pruned; 0 = none */
} AdStoreLimits;

/*
 * The alert store: SQLite in WAL mode, versioned schema with migrations.
 * One alert per signature (alert.h) with count, first/last seen, hosts
 * with counts, a bounded list of distinct paths and commands, the latest
 * full event (raw records), the analysis (the `analyze --json` object) and
 * level; per-user filters.  The file and its directory are created with
 * safe modes (0700 dir, 0600/0640 file), never through a symlink.  A
 * corrupt store is moved aside (ALERTS.db.corrupt-TIMESTAMP) and a new one
 * created; @ret_warning (when non-NULL) then says so.
 */
typedef struct _AdStore AdStore;

AdStore *ad_store_open(const char *path, const AdStoreLimits *limits, char **ret_warning,
		       GError **error);
/*
 * Opens an existing store for writing, for a command line's --db: a file
 * that is missing, empty or not an alert store is refused with an error
 * and left exactly as it was (only the dispatcher's own store is created,
 * or moved aside when damaged).
 */
AdStore *ad_store_open_existing(const char *path, char **ret_warning, GError **error);
/* read-only access for list/show on a copied store */
AdStore *ad_store_open_readonly(const char *path, GError **error);
void ad_store_close(AdStore *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdStore, ad_store_close)

/*
 * Records one denial of @a (already updated by ad_alert_set_add and, when
 * new, analysed): inserts or updates the alert row, its host count and
 * path list.  @denial is the denial just seen.  Sets @ret_new when the
 * store had no such alert.  Writes are batched in a transaction that
 * ad_store_commit() ends (the dispatcher commits at least every 100 ms).
 */
gboolean ad_store_record(AdStore *s, const AdAlert *a, const AdDenial *denial,
			 gboolean *ret_new, GError **error);
gboolean ad_store_commit(AdStore *s, GError **error);
/*
 * Applies the caps (max alerts, max age); returns the number pruned.  On
 * a failure (a full disk) @error is set and nothing is pruned.
 */
guint ad_store_prune(AdStore *s, double now, GError **error);

/* JSON objects with the `analyze --json` keys ("ignored" is for @uid) */
GPtrArray *ad_store_list(AdStore *s, double since, gboolean include_ignored, gint64 uid,
			 const char *host, GError **error);	/* json_object* (owned) */
json_object *ad_store_get(AdStore *s, const char *id, gint64 uid, GError **error);
gboolean ad_store_set_filter(AdStore *s, const char *id, gint64 uid, AdFilter filter,
			     GError **error);
/*
 * One filter for many alerts (a NULL-terminated list of ids), in one
 * transaction: alerts the store lacks are passed over, and red alerts
 * too when @skip_red.  @ret_set: how many got the filter.
 */
gboolean ad_store_set_filters(AdStore *s, const char *const *ids, gint64 uid, AdFilter filter,
			      gboolean skip_red, guint *ret_set, GError **error);
AdFilter ad_store_get_filter(AdStore *s, const char *id, gint64 uid);
gboolean ad_store_delete(AdStore *s, const char *id, GError **error);
guint ad_store_count(AdStore *s);

/* ---- additions -------------------------------------------------------- */

/*
 * How the store behaves (store-core.c has the details):
 * - Threads: every call takes the store's lock; one AdStore may serve the
 *   dispatcher's analysis thread and its D-Bus thread.
 * - Batches: the first ad_store_record() of a batch opens a write
 *   transaction; the batch stays in memory (one row update per alert) until
 *   ad_store_commit().  ad_store_record() keeps a reference to a->latest and
 *   uses a->verdict, which is borrowed from the policy, until then: commit
 *   before the policy is freed or reloaded.  ad_store_set_filter(),
 *   ad_store_delete() and ad_store_prune() commit what is pending;
 *   ad_store_list() and ad_store_get() see it.  A failed record or commit
 *   rolls the whole batch back.  ad_store_close() commits, silently: a
 *   caller that must know whether that worked calls ad_store_commit() first.
 * - What is stored of the analysis (suggestions, level, summary) is written
 *   when an alert is new, when a record brings an analysed alert (non-NULL
 *   suggestions) whose level differs, and by ad_store_set_analysis(); the
 *   summary therefore names the denial that was analysed.  Counts, first and
 *   last seen, hosts, paths, commands, the latest denial ("denial") and its
 *   raw records ("records") follow every record.
 * - Another process's changes (`avcdoctor delete --db`) are noticed at the
 *   start of the next batch (PRAGMA data_version).
 * - Errors: AD_STORE_ERROR_CORRUPT when SQLite finds damage while running
 *   (close and open the store again: the file is then moved aside).
 * - Filters: kept per (alert id, uid); no entry is AD_FILTER_NEVER.
 *   ad_store_delete() removes an alert's filters, ad_store_prune() keeps
 *   them (an alert someone ignores stays ignored when it returns).  A uid
 *   below 0 has no filters: nothing is "ignored" for it.
 * - Timeline: when each denial happened, in the alert's time buckets
 *   (common/occurrences.h, bounded); ad_store_list() and ad_store_get()
 *   give "timeline" ({"width": 60, "buckets": [[START, N], ...]}), absent
 *   for an alert stored before schema 8 (the buckets then start with its
 *   next denial and hold fewer than "count").
 * - Hosts: the node= name of a denial, "" for none (the local host); at most
 *   AD_STORE_MAX_HOSTS per alert are counted.  ad_store_list() and
 *   ad_store_get() give "hosts" (the named ones, sorted, as
 *   ad_alert_to_json) and "host_counts" ({"": 3, "web1": 2}), "filter" (the
 *   uid's filter name) and "commands" (distinct programs) besides
 *   the `analyze --json` keys; "records", "paths" and "commands" are escaped.
 * - Files: the directory is created 0700 and must be ours or root's and
 *   writable by no one else (0700 or 0750); the file is created 0600, never
 *   through a symlink, must be ours with one link; bits beyond 0640 are
 *   removed (with @ret_warning): an administrator may chgrp it and make it
 *   0640 for a group that reads it with `--db`.
 */

#define AD_STORE_SCHEMA_VERSION 8	/* PRAGMA user_version of a current store */
#define AD_STORE_MAX_HOSTS 1024		/* distinct hosts counted per alert; more are not kept */

/*
 * Whether an alert is "ignored" for a user whose filter is @f, once it has
 * been seen @count times: AD_FILTER_ALWAYS always; AD_FILTER_AFTER_FIRST
 * once count > 1 (the first occurrence was announced, repeats are not);
 * AD_FILTER_NEVER never.  ad_store_list() and ad_store_get() use this for
 * "ignored"; the notifier should use it for deciding on a pop-up.
 */
gboolean ad_filter_is_ignored(AdFilter f, guint64 count);

/*
 * Rewrites the stored analysis (suggestions, level, summary) of an alert
 * already in the store, e.g. after the policy or the rules were reloaded
 * and the alert analysed again.  NOT_FOUND when the store lacks it.
 */
gboolean ad_store_set_analysis(AdStore *s, const AdAlert *a, GError **error);

/* the stored count and level of an alert, without touching the file; FALSE when absent */
gboolean ad_store_lookup(AdStore *s, const char *id, guint64 *ret_count, AdLevel *ret_level);

/*
 * The local id of an alert, as setroubleshoot's clients know it: "ID-NUM",
 * the alert id and its row number, which is never reused (an alert that
 * is deleted and comes back gets a new local id); "ID-NUM.GEN" once the
 * stored analysis has changed (GEN, from 2 on, counts its analyses: a
 * client that read one analysis cannot apply a fix of another).  NULL
 * when the store lacks the alert.
 */
char *ad_store_local_id(AdStore *s, const char *id);
/*
 * The alert of a local id (as ad_store_get); NOT_FOUND when the alert is
 * not in the store or is a later one than the local id names, CHANGED
 * when its analysis is not the one the local id names (when
 * @same_analysis), INVALID when @local_id is not one.
 */
json_object *ad_store_get_local(AdStore *s, const char *local_id, gboolean same_analysis,
				gint64 uid, GError **error);
/*
 * Splits "ID-NUM" or "ID-NUM.GEN": @ret_id gets the 16 hex digits,
 * @ret_gen (when not NULL) the generation, 1 when absent; FALSE when
 * malformed.
 */
gboolean ad_store_parse_local_id(const char *local_id, char ret_id[17], gint64 *ret_num,
				 gint64 *ret_gen);

/* PRAGMA integrity_check; FALSE with AD_STORE_ERROR_CORRUPT and its first complaint */
gboolean ad_store_integrity_check(AdStore *s, GError **error);

/* new caps for ad_store_prune() (after a configuration reload); NULL: none */
void ad_store_set_limits(AdStore *s, const AdStoreLimits *limits);
const char *ad_store_path(const AdStore *s);

/*
 * The raw records of the latest event of an alert, as they were read
 * (lines joined by '\n'): what analysing the alert again starts from.
 * NOT_FOUND when the store lacks it.
 */
GBytes *ad_store_get_records(AdStore *s, const char *id, GError **error);
/*
 * Notes that a fix of the alert was applied at @when (seconds): ad_store_get()
 * and ad_store_list() then give "fix_applied" (the time, as "last_seen").
 * Commits at once.  NOT_FOUND when the store lacks the alert.
 */
gboolean ad_store_set_fix_applied(AdStore *s, const char *id, double when, GError **error);
/*
 * The policy modules the fix helper loaded: the alert whose fix wrote the
 * module @name (owned), or NULL when the helper never loaded one of that
 * name (or the store cannot say).  ad_store_set_fix_module() notes one,
 * at @when (seconds), and commits at once.
 */
char *ad_store_fix_module_alert(AdStore *s, const char *name);
gboolean ad_store_set_fix_module(AdStore *s, const char *name, const char *id, double when,
				 GError **error);

/*
 * Alert mails held back by the hourly limit (the dispatcher's mailer):
 * kept here until they are sent, so that a restart or a configuration
 * reload does not lose them.  ad_store_hold_mail() keeps one (at most
 * 1,000 in all) and gives its number, 0 with @error when it cannot; while
 * a batch of records is open the row joins it and is committed with it.
 * ad_store_unhold_mail() forgets one; ad_store_held_mails() lists them,
 * oldest first (AdStoreHeldMail*, owned).
 */
typedef struct {
	gint64 num;
	char id[17];
	AdLevel level;
	double held;		/* when it was held back, seconds */
	char *summary;
	char *report;
} AdStoreHeldMail;

void ad_store_held_mail_free(AdStoreHeldMail *h);
gint64 ad_store_hold_mail(AdStore *s, const char *id, AdLevel level, double when,
			  const char *summary, const char *report, GError **error);
gboolean ad_store_unhold_mail(AdStore *s, gint64 num, GError **error);
GPtrArray *ad_store_held_mails(AdStore *s, GError **error);

G_END_DECLS
