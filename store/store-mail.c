// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Alert mails held back by the hourly limit (dispatcher/mail.c), kept in
 * the store so that a restart or a configuration reload of the dispatcher
 * does not lose them: they are sent when a budget allows again.
 *
 * A mail is held while the dispatcher files a batch of records: the row
 * joins that batch's transaction and is committed with it (an error then
 * leaves the batch alone), or gets a transaction of its own.
 */
#include <string.h>

#include <glib/gi18n.h>
#include <sqlite3.h>

#include "store.h"
#include "store-core.h"

/* the held mails the table keeps at the most: the mailer keeps fewer */
#define HELD_MAILS_MAX 1000

void ad_store_held_mail_free(AdStoreHeldMail *h)
{
	if (!h)
		return;
	g_free(h->summary);
	g_free(h->report);
	g_free(h);
}

/*
 * Runs @sql with @bind on the store's connection, in the open transaction
 * when there is one (a batch's), else in one of its own, committed.
 */
static gboolean edit(AdStore *s, const char *sql, void (*bind)(sqlite3_stmt *, gconstpointer),
		     gconstpointer data, gint64 *ret_rowid, GError **error)
{
	gboolean own = !s->in_txn, ok = FALSE;
	sqlite3_stmt *q = NULL;

	if (s->readonly) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_INVALID,
			    _("the alert store %s is open read-only"), s->path);
		return FALSE;
	}
	if (own && !store_begin(s, error))
		return FALSE;
	if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO,
				   _("cannot prepare a statement"));
		goto out;
	}
	bind(q, data);
	if (sqlite3_step(q) != SQLITE_DONE) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot keep a held-back mail"));
		goto out;
	}
	if (ret_rowid)
		*ret_rowid = sqlite3_last_insert_rowid(s->db);
	ok = TRUE;
out:
	sqlite3_finalize(q);
	/* a failed statement is undone by SQLite alone: a batch it joined goes on */
	if (own) {
		if (ok)
			ok = store_commit_locked(s, error);
		else
			store_abort_txn(s);
	}
	return ok;
}

typedef struct {
	const char *id;
	AdLevel level;
	double when;
	const char *summary, *report;
} HoldArgs;

static void bind_hold(sqlite3_stmt *q, gconstpointer data)
{
	const HoldArgs *a = data;

	sqlite3_bind_text(q, 1, a->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, ad_level_name(a->level), -1, SQLITE_STATIC);
	sqlite3_bind_double(q, 3, a->when);
	sqlite3_bind_text(q, 4, a->summary, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 5, a->report, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 6, HELD_MAILS_MAX);
}

gint64 ad_store_hold_mail(AdStore *s, const char *id, AdLevel level, double when,
			  const char *summary, const char *report, GError **error)
{
	HoldArgs a = { id, level, when, summary ? summary : "", report ? report : "" };
	gint64 num = 0;
	gboolean ok;

	g_return_val_if_fail(s, 0);
	if (!store_check_id(id, error))
		return 0;
	g_mutex_lock(&s->lock);
	/* a full table keeps what it has: the mailer counts the rest */
	ok = edit(s, "INSERT INTO held_mails (alert, level, held, summary, report) "
		     "SELECT ?1, ?2, ?3, ?4, ?5 WHERE (SELECT count(*) FROM held_mails) < ?6",
		  bind_hold, &a, &num, error);
	if (ok && !sqlite3_changes(s->db)) {
		g_set_error(error, AD_STORE_ERROR, AD_STORE_ERROR_IO,
			    _("already %u held-back mails kept"), HELD_MAILS_MAX);
		ok = FALSE;
	}
	g_mutex_unlock(&s->lock);
	return ok ? num : 0;
}

static void bind_num(sqlite3_stmt *q, gconstpointer data)
{
	sqlite3_bind_int64(q, 1, *(const gint64 *)data);
}

gboolean ad_store_unhold_mail(AdStore *s, gint64 num, GError **error)
{
	gboolean ok;

	g_return_val_if_fail(s, FALSE);
	g_mutex_lock(&s->lock);
	ok = edit(s, "DELETE FROM held_mails WHERE num = ?1", bind_num, &num, NULL, error);
	g_mutex_unlock(&s->lock);
	return ok;
}

GPtrArray *ad_store_held_mails(AdStore *s, GError **error)
{
	GPtrArray *out = NULL;
	sqlite3_stmt *q = NULL;
	int rc;

	g_return_val_if_fail(s, NULL);
	g_mutex_lock(&s->lock);
	if (!store_flush_for_read(s, error))
		goto done;
	if (sqlite3_prepare_v2(s->db, "SELECT num, alert, level, held, summary, report "
				      "FROM held_mails ORDER BY num", -1, &q, NULL) != SQLITE_OK) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		goto done;
	}
	out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_store_held_mail_free);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		AdStoreHeldMail *h = g_new0(AdStoreHeldMail, 1);
		const char *id = (const char *)sqlite3_column_text(q, 1);
		const char *level = (const char *)sqlite3_column_text(q, 2);

		/* a row another program wrote is read as carefully as any input */
		if (!id || !ad_alert_id_is_valid(id) || !ad_level_from_name(level, &h->level)) {
			ad_store_held_mail_free(h);
			continue;
		}
		h->num = sqlite3_column_int64(q, 0);
		g_strlcpy(h->id, id, sizeof(h->id));
		h->held = sqlite3_column_double(q, 3);
		h->summary = g_strdup((const char *)sqlite3_column_text(q, 4));
		h->report = g_strdup((const char *)sqlite3_column_text(q, 5));
		if (!h->summary)
			h->summary = g_strdup("");
		if (!h->report)
			h->report = g_strdup("");
		g_ptr_array_add(out, h);
	}
	if (rc != SQLITE_DONE) {
		store_set_db_error(error, s->db, AD_STORE_ERROR_IO, _("cannot read the alert store"));
		g_clear_pointer(&out, g_ptr_array_unref);
	}
done:
	sqlite3_finalize(q);
	g_mutex_unlock(&s->lock);
	return out;
}
