/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "analysis/alert.h"
#include "store.h"

G_BEGIN_DECLS

/*
 * E-mail for new alerts, as setroubleshoot's email_alert: one mail per new
 * alert to the addresses of a recipients file, rate-limited (red alerts on
 * a budget of their own, held-back mails sent later), handed to the
 * system's sendmail as an argument vector.  Off unless a recipients file
 * is configured.
 */
typedef struct _AdMailer AdMailer;

/*
 * Reads @recipients_file (one address per line, '#' comments; with
 * @trusted_only it must be root's and not writable by everyone).  Lines
 * that are not a plain address (local@domain of letters, digits and
 * ".-_+%") are skipped and appended to @ret_problems as "FILE:LINE: ...".
 * NULL with @error when the file cannot be read or names nobody.
 */
AdMailer *ad_mailer_new(const char *recipients_file, const char *sendmail,
			guint max_per_hour, gboolean trusted_only, GPtrArray *ret_problems,
			GError **error);
void ad_mailer_free(AdMailer *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdMailer, ad_mailer_free)

/*
 * The mail of one alert: headers built only from the recipients, the
 * alert id and its level (never from record text), then @summary and
 * @report in the body: 8bit, or quoted-printable when a line would pass
 * RFC 5322's 998 octets.  Owned.
 */
char *ad_mailer_message(AdMailer *m, const AdAlert *a, const char *summary,
			const char *report);

/*
 * Sends the mail of a new alert without waiting for sendmail (its result
 * is logged through @log when it fails).  Red alerts and the others have
 * a budget each of max_per_hour mails in the last hour, so that other
 * alerts never keep a red one's mail back.  Beyond its budget a mail is
 * held back (counted in ad_mailer_suppressed(); the first 200 of a budget
 * kept) and sent when the budget allows again, on a timer of the
 * thread-default main context, oldest first, saying that it was held back
 * and how many were.  Returns TRUE when a mail was handed over now.
 */
typedef void (*AdMailerLog)(const char *message, gpointer user_data);
gboolean ad_mailer_send_alert(AdMailer *m, const AdAlert *a, const char *summary,
			      const char *report, AdMailerLog log, gpointer user_data);
guint64 ad_mailer_suppressed(const AdMailer *m);
/*
 * Keeps held-back mails in @store (borrowed; NULL: in memory only) from
 * now on, so that a restart or a reload of the dispatcher does not lose
 * them: the mails it already holds are taken into the budgets (red ones
 * into red's) and sent as far as the budgets allow once the thread's main
 * context runs (never from this call: no child process or thread starts
 * here), the rest when they allow again; a held mail's row goes when it is sent.  Call it with NULL
 * before the store is closed: nothing held is sent any more (it stays in
 * the store for the next start).  Problems go to @log.
 */
void ad_mailer_set_store(AdMailer *m, AdStore *store, AdMailerLog log, gpointer user_data);
/* sends the held-back mails the budgets allow now (what the timer does) */
void ad_mailer_release_held(AdMailer *m);
/*
 * Runs the thread-default main context until every mail was handed over
 * to sendmail, at most @timeout_ms: a dispatcher that stops must not cut
 * off mails it has started.
 */
void ad_mailer_wait(AdMailer *m, guint timeout_ms);

G_END_DECLS
