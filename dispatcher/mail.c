// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * E-mail alerts.  Nothing from an audit record reaches a header or an
 * argument: the recipients come from root's file and are checked
 * character by character, the subject holds the alert id and level only,
 * and sendmail gets its recipients as arguments after "--" (never -t, so
 * no header of the message decides where it goes).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "clock.h"
#include "mail.h"
#include "store.h"
#include "trusted-file.h"

#define RECIPIENTS_MAX_BYTES (64u << 10)
#define HOUR_US ((gint64)3600 * G_USEC_PER_SEC)
#define MAIL_MAX_LINE 998		/* octets in a line, RFC 5322 2.1.1 */
#define MAX_HELD 200			/* held-back mails kept per budget; more are counted */

/* a mail held back by the hourly limit, sent when the budget allows */
typedef struct {
	gint64 num;			/* its row in the store; 0: not kept there */
	char id[17];
	AdLevel level;
	char *summary;
	char *report;
} Held;

/*
 * One hourly budget: red alerts have their own, so that no number of other
 * alerts keeps a red alert's mail from going out.
 */
typedef struct {
	GQueue sent;			/* monotonic times (gint64 in pointers) of the last hour */
	GQueue held;			/* Held*, oldest first */
	guint64 dropped;		/* held back but not kept (beyond MAX_HELD) */
} Budget;

struct _AdMailer {
	char *sendmail;
	GPtrArray *recipients;		/* char*, checked */
	guint max_per_hour;
	Budget budget[2];		/* [0] other alerts, [1] red alerts */
	guint64 suppressed;
	guint *pending;			/* mails sendmail has not finished; shared with callbacks */
	GSource *release;		/* sends held mails when a budget allows */
	AdMailerLog log;		/* of the last send, for held mails */
	gpointer log_data;
	AdStore *store;			/* where held mails are kept; NULL: in memory only */
};

/* local@domain with a conservative alphabet: nothing a header or a shell could misread */
static gboolean address_ok(const char *s)
{
	const char *at = strchr(s, '@');

	if (!at || at == s || !at[1] || strchr(at + 1, '@') || strlen(s) > 254 || s[0] == '-')
		return FALSE;
	for (const char *p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr(".-_+%@", *p))
			return FALSE;
	return at[1] != '.' && s[strlen(s) - 1] != '.';
}

AdMailer *ad_mailer_new(const char *recipients_file, const char *sendmail,
			guint max_per_hour, gboolean trusted_only, GPtrArray *ret_problems,
			GError **error)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GPtrArray) rcpt = g_ptr_array_new_with_free_func(g_free);
	gsize len;
	AdMailer *m;

	if (!ad_file_read_trusted(AT_FDCWD, recipients_file, recipients_file,
				  RECIPIENTS_MAX_BYTES, trusted_only, &text, &len, error))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		char *l = g_strstrip(lines[i]);

		if (!*l || *l == '#')
			continue;
		if (!address_ok(l)) {
			if (ret_problems)
				g_ptr_array_add(ret_problems, g_strdup_printf(
					_("%s:%u: not a plain e-mail address: skipped"),
					recipients_file, i + 1));
			continue;
		}
		g_ptr_array_add(rcpt, g_strdup(l));
	}
	if (!rcpt->len) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			    _("%s: no recipient"), recipients_file);
		return NULL;
	}
	m = g_new0(AdMailer, 1);
	m->sendmail = g_strdup(sendmail && *sendmail ? sendmail : "/usr/sbin/sendmail");
	m->recipients = g_steal_pointer(&rcpt);
	m->max_per_hour = max_per_hour;
	for (int b = 0; b < 2; b++) {
		g_queue_init(&m->budget[b].sent);
		g_queue_init(&m->budget[b].held);
	}
	m->pending = g_rc_box_new0(guint);
	return m;
}

static void held_free(gpointer p)
{
	Held *h = p;

	g_free(h->summary);
	g_free(h->report);
	g_free(h);
}

void ad_mailer_free(AdMailer *m)
{
	if (!m)
		return;
	g_free(m->sendmail);
	g_ptr_array_unref(m->recipients);
	if (m->release) {
		g_source_destroy(m->release);
		g_source_unref(m->release);
	}
	for (int b = 0; b < 2; b++) {
		g_queue_clear(&m->budget[b].sent);
		g_queue_clear_full(&m->budget[b].held, held_free);
	}
	/* a mail still being handed over keeps the counter alive */
	g_rc_box_release(m->pending);
	g_free(m);
}

void ad_mailer_wait(AdMailer *m, guint timeout_ms)
{
	gint64 until = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	GMainContext *ctx = g_main_context_get_thread_default();

	while (m && *m->pending && g_get_monotonic_time() < until)
		if (!g_main_context_iteration(ctx, FALSE))
			g_usleep(10000);
}

guint64 ad_mailer_suppressed(const AdMailer *m)
{
	return m->suppressed;
}

/* the body's text: control bytes but newline and tab shown as \xHH; owned */
static char *body_text(const char *s)
{
	GString *out = g_string_new(NULL);

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			g_string_append_printf(out, "\\x%02x", *p);
		else
			g_string_append_c(out, *p);
	}
	return g_string_free(out, FALSE);
}

/* whether a line of @s is longer than RFC 5322 allows (998 octets before CRLF) */
static gboolean has_long_line(const char *s)
{
	while (*s) {
		const char *nl = strchr(s, '\n');

		if ((nl ? (gsize)(nl - s) : strlen(s)) > MAIL_MAX_LINE)
			return TRUE;
		if (!nl)
			break;
		s = nl + 1;
	}
	return FALSE;
}

/*
 * @body in quoted-printable (RFC 2045 6.7): printable ASCII but '=' as it
 * is, other bytes =XX, a space or tab ending a line too; lines of at most
 * 76 characters, longer ones broken by soft line breaks ("=" at the end)
 * between characters, never inside an =XX.
 */
static void append_quoted_printable(GString *out, const char *body)
{
	static const char hex[] = "0123456789ABCDEF";
	guint col = 0;

	for (const unsigned char *p = (const unsigned char *)body; *p; p++) {
		char enc[4];
		guint n;

		if (*p == '\n') {
			g_string_append_c(out, '\n');
			col = 0;
			continue;
		}
		if ((*p >= 33 && *p <= 126 && *p != '=') ||
		    ((*p == ' ' || *p == '\t') && p[1] && p[1] != '\n')) {
			enc[0] = *p;
			n = 1;
		} else {
			enc[0] = '=';
			enc[1] = hex[*p >> 4];
			enc[2] = hex[*p & 15];
			n = 3;
		}
		/* 75 characters and the soft break's "=" make 76 */
		if (col + n > 75) {
			g_string_append(out, "=\n");
			col = 0;
		}
		g_string_append_len(out, enc, n);
		col += n;
	}
}

char *ad_mailer_message(AdMailer *m, const AdAlert *a, const char *summary,
			const char *report)
{
	g_autoptr(GString) msg = g_string_new(NULL);
	g_autoptr(GString) body = g_string_new(NULL);
	g_autofree char *to = NULL;
	g_autofree char *s = body_text(summary ? summary : "");
	g_autofree char *r = body_text(report ? report : "");
	gboolean qp;

	g_ptr_array_add(m->recipients, NULL);
	to = g_strjoinv(", ", (char **)m->recipients->pdata);
	g_ptr_array_remove_index(m->recipients, m->recipients->len - 1);
	g_string_append_printf(msg, "To: %s\n", to);
	/* the id is hexadecimal and the level a fixed word: nothing else goes in a header */
	g_string_append_printf(msg, "Subject: [avcdoctor] SELinux alert %s (%s)\n", a->id,
			       ad_level_name(a->level));
	g_string_append_printf(body, "%s\n\n", s);
	g_string_append(body, r);
	if (body->len && body->str[body->len - 1] != '\n')
		g_string_append_c(body, '\n');
	g_string_append_printf(body, "\nFor details run: avcdoctor show %s\n", a->id);
	/*
	 * A record's path can make a line of thousands of octets, which an MTA
	 * may refuse or cut: such a body goes quoted-printable, others as they are
	 */
	qp = has_long_line(body->str);
	g_string_append_printf(msg, "MIME-Version: 1.0\n"
				    "Content-Type: text/plain; charset=UTF-8\n"
				    "Content-Transfer-Encoding: %s\n"
				    "Auto-Submitted: auto-generated\n\n",
			       qp ? "quoted-printable" : "8bit");
	if (qp)
		append_quoted_printable(msg, body->str);
	else
		g_string_append_len(msg, body->str, body->len);
	return g_string_free(g_steal_pointer(&msg), FALSE);
}

typedef struct {
	AdMailerLog log;
	gpointer user_data;
	char *what;
	guint *pending;
} Pending;

static void on_sent(GObject *source, GAsyncResult *res, gpointer data)
{
	Pending *p = data;
	GSubprocess *proc = G_SUBPROCESS(source);
	g_autoptr(GError) error = NULL;

	if (!g_subprocess_communicate_finish(proc, res, NULL, NULL, &error)) {
		g_autofree char *m = g_strdup_printf("%s: %s", p->what, error->message);

		if (p->log)
			p->log(m, p->user_data);
	} else if (!g_subprocess_get_if_exited(proc) || g_subprocess_get_exit_status(proc)) {
		g_autofree char *m = g_strdup_printf(_("%s: sendmail failed (status %d)"),
						     p->what, g_subprocess_get_status(proc));

		if (p->log)
			p->log(m, p->user_data);
	}
	(*p->pending)--;
	g_rc_box_release(p->pending);
	g_free(p->what);
	g_free(p);
}

/* hands one mail to sendmail without waiting; FALSE (logged) when it cannot start */
static gboolean hand_over(AdMailer *m, const AdAlert *a, const char *summary,
			  const char *report, AdMailerLog log, gpointer user_data)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GSubprocess) proc = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) in = NULL;
	char *text;
	Pending *p;

	g_ptr_array_add(argv, m->sendmail);
	g_ptr_array_add(argv, "-oi");
	g_ptr_array_add(argv, "--");
	for (guint i = 0; i < m->recipients->len; i++)
		g_ptr_array_add(argv, g_ptr_array_index(m->recipients, i));
	g_ptr_array_add(argv, NULL);
	proc = g_subprocess_newv((const char *const *)argv->pdata,
				 G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
				 G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error);
	if (!proc) {
		if (log) {
			g_autofree char *msg = g_strdup_printf(_("alert mail not sent: %s"),
							       error->message);

			log(msg, user_data);
		}
		return FALSE;
	}
	text = ad_mailer_message(m, a, summary, report);
	in = g_bytes_new_take(text, strlen(text));
	p = g_new0(Pending, 1);
	p->log = log;
	p->user_data = user_data;
	p->what = g_strdup_printf(_("alert mail for %s"), a->id);
	p->pending = g_rc_box_acquire(m->pending);
	(*m->pending)++;
	g_subprocess_communicate_async(proc, in, NULL, on_sent, p);
	return TRUE;
}

/* forgets the sendings older than an hour; whether @b may send one more now */
static gboolean budget_allows(AdMailer *m, Budget *b, gint64 now)
{
	while (!g_queue_is_empty(&b->sent) &&
	       now - (gint64)GPOINTER_TO_SIZE(g_queue_peek_head(&b->sent)) >= HOUR_US)
		g_queue_pop_head(&b->sent);
	return !m->max_per_hour || g_queue_get_length(&b->sent) < m->max_per_hour;
}

/* says @what about a held mail through the log of the last send */
static void log_problem(AdMailer *m, const char *what, const GError *error)
{
	g_autofree char *msg = NULL;

	if (!m->log)
		return;
	msg = g_strdup_printf("%s: %s", what, error ? error->message : "");
	m->log(msg, m->log_data);
}

/* forgets held mail @h in the store, once it was sent (or could not be) */
static void unhold(AdMailer *m, Held *h)
{
	g_autoptr(GError) error = NULL;

	if (!m->store || !h->num || ad_store_unhold_mail(m->store, h->num, &error))
		return;
	log_problem(m, _("a held-back mail stays in the alert store"), error);
}

/*
 * Sends held mails, red ones first, oldest first, as far as each budget
 * allows.  Each says that it was held back and how many still are.
 */
static void release_held(AdMailer *m, gint64 now)
{
	for (int k = 1; k >= 0; k--) {
		Budget *b = &m->budget[k];

		while (!g_queue_is_empty(&b->held) && budget_allows(m, b, now)) {
			Held *h = g_queue_pop_head(&b->held);
			AdAlert a = { .id = h->id, .level = h->level };
			g_autofree char *report = NULL;

			/* translators: the first line of an alert mail sent late */
			report = g_strdup_printf(
				_("This mail was held back by the limit of %u alert mails an hour. "
				  "Still held back after it: %u; held back and not kept: %" PRIu64
				  " (see avcdoctor list).\n\n%s"),
				m->max_per_hour, g_queue_get_length(&b->held), (uint64_t)b->dropped,
				h->report);
			if (hand_over(m, &a, h->summary, report, m->log, m->log_data))
				g_queue_push_tail(&b->sent, GSIZE_TO_POINTER((gsize)now));
			unhold(m, h);
			if (g_queue_is_empty(&b->held))
				b->dropped = 0;
			held_free(h);
		}
	}
}

static void schedule_release(AdMailer *m, gint64 now);

static gboolean on_release(gpointer data)
{
	AdMailer *m = data;
	gint64 now = ad_clock_monotonic_us();

	g_clear_pointer(&m->release, g_source_unref);
	release_held(m, now);
	schedule_release(m, now);
	return G_SOURCE_REMOVE;
}

/* a timer for when the first budget that holds mails frees a place */
static void schedule_release(AdMailer *m, gint64 now)
{
	gint64 due = G_MAXINT64;

	if (m->release)
		return;
	for (int k = 0; k < 2; k++) {
		Budget *b = &m->budget[k];

		if (!g_queue_is_empty(&b->held) && !g_queue_is_empty(&b->sent))
			due = MIN(due, (gint64)GPOINTER_TO_SIZE(g_queue_peek_head(&b->sent)) +
					       HOUR_US);
	}
	if (due == G_MAXINT64)
		return;
	m->release = g_timeout_source_new_seconds((guint)(MAX(due - now, 0) / G_USEC_PER_SEC) + 1);
	g_source_set_callback(m->release, on_release, m, NULL);
	g_source_attach(m->release, g_main_context_get_thread_default());
}

gboolean ad_mailer_send_alert(AdMailer *m, const AdAlert *a, const char *summary,
			      const char *report, AdMailerLog log, gpointer user_data)
{
	gint64 now = ad_clock_monotonic_us();
	Budget *b = &m->budget[a->level == AD_LEVEL_RED];

	m->log = log;
	m->log_data = user_data;
	/* what was held back goes first */
	release_held(m, now);
	if (!g_queue_is_empty(&b->held) || !budget_allows(m, b, now)) {
		m->suppressed++;
		if (g_queue_get_length(&b->held) < MAX_HELD) {
			Held *h = g_new0(Held, 1);

			g_strlcpy(h->id, a->id, sizeof(h->id));
			h->level = a->level;
			h->summary = g_strdup(summary ? summary : "");
			h->report = g_strdup(report ? report : "");
			if (m->store) {
				g_autoptr(GError) error = NULL;

				h->num = ad_store_hold_mail(m->store, h->id, h->level,
							    ad_clock_real_us() / 1e6, h->summary,
							    h->report, &error);
				if (!h->num)
					log_problem(m, _("a held-back mail is kept in memory only"),
						    error);
			}
			g_queue_push_tail(&b->held, h);
		} else {
			b->dropped++;
		}
		schedule_release(m, now);
		return FALSE;
	}
	if (!hand_over(m, a, summary, report, log, user_data))
		return FALSE;
	g_queue_push_tail(&b->sent, GSIZE_TO_POINTER((gsize)now));
	return TRUE;
}

void ad_mailer_set_store(AdMailer *m, AdStore *store, AdMailerLog log, gpointer user_data)
{
	g_autoptr(GPtrArray) rows = NULL;
	g_autoptr(GError) error = NULL;

	m->store = store;
	if (!store) {
		/* the store closes: what is held stays there for the next start */
		if (m->release) {
			g_source_destroy(m->release);
			g_clear_pointer(&m->release, g_source_unref);
		}
		for (int k = 0; k < 2; k++)
			g_queue_clear_full(&m->budget[k].held, held_free);
		return;
	}
	m->log = log;
	m->log_data = user_data;
	rows = ad_store_held_mails(store, &error);
	if (!rows) {
		log_problem(m, _("the held-back mails of the alert store cannot be read"), error);
		return;
	}
	for (guint i = 0; i < rows->len; i++) {
		AdStoreHeldMail *r = g_ptr_array_index(rows, i);
		Budget *b = &m->budget[r->level == AD_LEVEL_RED];
		gboolean known = FALSE;
		Held *h;

		for (GList *l = b->held.head; l && !known; l = l->next)
			known = ((Held *)l->data)->num == r->num;
		if (known)
			continue;
		if (g_queue_get_length(&b->held) >= MAX_HELD) {
			Held gone = { .num = r->num };

			b->dropped++;
			unhold(m, &gone);
			continue;
		}
		h = g_new0(Held, 1);
		h->num = r->num;
		g_strlcpy(h->id, r->id, sizeof(h->id));
		h->level = r->level;
		h->summary = g_steal_pointer(&r->summary);
		h->report = g_steal_pointer(&r->report);
		g_queue_push_tail(&b->held, h);
	}
	/*
	 * What the budgets allow goes as soon as the main loop runs, the rest
	 * when they allow again: never from here, which runs while the
	 * dispatcher starts, before it drops its capabilities (a child
	 * started now would start GLib's worker thread with them all)
	 */
	if (!m->release && (!g_queue_is_empty(&m->budget[0].held) ||
			    !g_queue_is_empty(&m->budget[1].held))) {
		m->release = g_idle_source_new();
		g_source_set_priority(m->release, G_PRIORITY_HIGH);
		g_source_set_callback(m->release, on_release, m, NULL);
		g_source_attach(m->release, g_main_context_get_thread_default());
	}
}

void ad_mailer_release_held(AdMailer *m)
{
	gint64 now = ad_clock_monotonic_us();

	release_held(m, now);
	schedule_release(m, now);
}
