// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the alert mails' budgets (dispatcher/mail.c): red alerts
 * have their own hourly budget, so that other alerts never keep a red
 * alert's mail back; a mail beyond its budget is held back, not lost, and
 * sent once the hour has passed, saying so and how many are still held;
 * kept in the alert store, a held mail outlives the mailer (a restart, a
 * reload) and is sent by the next one.  The clock is the test's; sendmail
 * is a script that keeps each message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "clock.h"
#include "mail.h"
#include "store.h"

static gint64 fake_now;

static gint64 fake_us(gpointer data)
{
	(void)data;
	return fake_now;
}

typedef struct {
	char *dir;
	AdMailer *m;
	AdStore *store;
} Fixture;

/* a new mailer of the fixture's recipients and sendmail, two mails an hour */
static AdMailer *new_mailer(Fixture *f)
{
	g_autofree char *rcpt = g_build_filename(f->dir, "rcpt", NULL);
	g_autofree char *sendmail = g_build_filename(f->dir, "sendmail", NULL);

	return ad_mailer_new(rcpt, sendmail, 2, FALSE, NULL, NULL);
}

static int setup(void **state)
{
	Fixture *f = g_new0(Fixture, 1);
	g_autofree char *rcpt = NULL, *sendmail = NULL, *script = NULL;
	static const AdClock clock = { fake_us, fake_us, NULL };

	fake_now = (gint64)1700000000 * G_USEC_PER_SEC;
	ad_clock_set(&clock);
	f->dir = g_dir_make_tmp("test-mail-XXXXXX", NULL);
	rcpt = g_build_filename(f->dir, "rcpt", NULL);
	sendmail = g_build_filename(f->dir, "sendmail", NULL);
	script = g_strdup_printf("#!/bin/sh\ncat >\"$(mktemp %s/mail.XXXXXX)\"\n", f->dir);
	g_file_set_contents(rcpt, "admin@example.org\n", -1, NULL);
	g_file_set_contents(sendmail, script, -1, NULL);
	g_chmod(sendmail, 0755);
	f->m = ad_mailer_new(rcpt, sendmail, 2, FALSE, NULL, NULL);
	assert_non_null(f->m);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	Fixture *f = *state;
	g_autoptr(GDir) d = g_dir_open(f->dir, 0, NULL);
	const char *name;

	if (f->m)
		ad_mailer_set_store(f->m, NULL, NULL, NULL);
	ad_mailer_free(f->m);
	g_clear_pointer(&f->store, ad_store_close);
	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(f->dir, name, NULL);

		if (g_file_test(p, G_FILE_TEST_IS_DIR)) {
			g_autoptr(GDir) sub = g_dir_open(p, 0, NULL);
			const char *n;

			while (sub && (n = g_dir_read_name(sub))) {
				g_autofree char *q = g_build_filename(p, n, NULL);

				g_unlink(q);
			}
			g_rmdir(p);
		}
		g_unlink(p);
	}
	g_rmdir(f->dir);
	g_free(f->dir);
	g_free(f);
	ad_clock_set(NULL);
	return 0;
}

/* the messages sendmail got so far, in no order */
static GPtrArray *mails(Fixture *f)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GDir) d = NULL;
	const char *name;

	ad_mailer_wait(f->m, 10000);
	d = g_dir_open(f->dir, 0, NULL);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(f->dir, name, NULL);
		char *text = NULL;

		if (g_str_has_prefix(name, "mail.") && g_file_get_contents(p, &text, NULL, NULL))
			g_ptr_array_add(out, text);
	}
	return out;
}

static gboolean send(Fixture *f, const char *id, AdLevel level)
{
	AdAlert a = { .id = (char *)id, .level = level };

	return ad_mailer_send_alert(f->m, &a, "summary", "report\n", NULL, NULL);
}

static guint count_with(GPtrArray *list, const char *needle)
{
	guint n = 0;

	for (guint i = 0; i < list->len; i++)
		n += strstr(g_ptr_array_index(list, i), needle) != NULL;
	return n;
}

static void test_red_budget_and_held(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) first = NULL, later = NULL, last = NULL;

	/* two an hour: the third alert's mail is held back */
	assert_true(send(f, "000000000000000a", AD_LEVEL_YELLOW));
	assert_true(send(f, "000000000000000b", AD_LEVEL_GREEN));
	assert_false(send(f, "000000000000000c", AD_LEVEL_YELLOW));
	assert_false(send(f, "000000000000000d", AD_LEVEL_YELLOW));
	assert_int_equal(ad_mailer_suppressed(f->m), 2);
	/* a red alert after them is mailed at once: its own budget */
	assert_true(send(f, "00000000000000ee", AD_LEVEL_RED));
	first = mails(f);
	assert_int_equal(first->len, 3);
	assert_int_equal(count_with(first, "00000000000000ee (red)"), 1);
	assert_int_equal(count_with(first, "000000000000000c"), 0);
	/* nothing is released before the hour is over */
	fake_now += (gint64)3599 * G_USEC_PER_SEC;
	ad_mailer_release_held(f->m);
	later = mails(f);
	assert_int_equal(later->len, 3);
	/* then the held mails go, saying they were held back and how many still are */
	fake_now += (gint64)2 * G_USEC_PER_SEC;
	ad_mailer_release_held(f->m);
	last = mails(f);
	assert_int_equal(last->len, 5);
	assert_int_equal(count_with(last, "This mail was held back by the limit of 2 alert "
				    "mails an hour. Still held back after it: 1;"), 1);
	assert_int_equal(count_with(last, "Still held back after it: 0;"), 1);
	assert_int_equal(count_with(last, "SELinux alert 000000000000000c"), 1);
	assert_int_equal(count_with(last, "SELinux alert 000000000000000d"), 1);
}

/* a new mail waits behind those held before it: oldest first */
static void test_held_first(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) out = NULL;

	assert_true(send(f, "000000000000000a", AD_LEVEL_YELLOW));
	assert_true(send(f, "000000000000000b", AD_LEVEL_YELLOW));
	assert_false(send(f, "000000000000000c", AD_LEVEL_YELLOW));
	fake_now += (gint64)3601 * G_USEC_PER_SEC;
	/* the budget has room for two: the held one goes first, then the new one */
	assert_true(send(f, "000000000000000d", AD_LEVEL_YELLOW));
	assert_false(send(f, "000000000000000e", AD_LEVEL_YELLOW));
	out = mails(f);
	assert_int_equal(out->len, 4);
	assert_int_equal(count_with(out, "SELinux alert 000000000000000c"), 1);
	assert_int_equal(count_with(out, "SELinux alert 000000000000000e"), 0);
}

static void on_log(const char *message, gpointer data)
{
	g_ptr_array_add(data, g_strdup(message));
}

/* the alert store of the fixture, made on first use */
static AdStore *store_of(Fixture *f)
{
	if (!f->store) {
		g_autofree char *dir = g_build_filename(f->dir, "db", NULL);
		g_autofree char *path = g_build_filename(dir, "alerts.db", NULL);

		g_mkdir(dir, 0700);
		f->store = ad_store_open(path, NULL, NULL, NULL);
		assert_non_null(f->store);
	}
	return f->store;
}

/*
 * Held mails kept in the store outlive the mailer: the next one (after a
 * restart or a reload) sends them as its budgets allow, red ones on red's,
 * saying they were held back, and forgets them in the store once sent;
 * none is sent twice
 */
static void test_held_kept_in_store(void **state)
{
	Fixture *f = *state;
	g_autoptr(GPtrArray) log = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) rows = NULL, first = NULL, before = NULL, after = NULL, later = NULL;

	ad_mailer_set_store(f->m, store_of(f), on_log, log);
	assert_true(send(f, "000000000000000a", AD_LEVEL_YELLOW));
	assert_true(send(f, "000000000000000b", AD_LEVEL_YELLOW));
	assert_false(send(f, "000000000000000c", AD_LEVEL_YELLOW));
	assert_false(send(f, "000000000000000d", AD_LEVEL_YELLOW));
	assert_false(send(f, "000000000000000e", AD_LEVEL_YELLOW));
	assert_true(send(f, "00000000000000f1", AD_LEVEL_RED));
	assert_true(send(f, "00000000000000f2", AD_LEVEL_RED));
	assert_false(send(f, "00000000000000f3", AD_LEVEL_RED));
	rows = ad_store_held_mails(f->store, NULL);
	assert_int_equal(rows->len, 4);
	assert_string_equal(((AdStoreHeldMail *)g_ptr_array_index(rows, 0))->id,
			    "000000000000000c");
	assert_int_equal(((AdStoreHeldMail *)g_ptr_array_index(rows, 3))->level, AD_LEVEL_RED);
	first = mails(f);
	assert_int_equal(first->len, 4);

	/* the dispatcher stops; the store is closed and opened again */
	ad_mailer_set_store(f->m, NULL, NULL, NULL);
	g_clear_pointer(&f->m, ad_mailer_free);
	g_clear_pointer(&f->store, ad_store_close);
	g_clear_pointer(&rows, g_ptr_array_unref);

	/* the next one sends two of the three others and the red one at once */
	f->m = new_mailer(f);
	ad_mailer_set_store(f->m, store_of(f), on_log, log);
	/* nothing is sent until the main context runs */
	before = mails(f);
	assert_int_equal(before->len, 4);
	while (g_main_context_iteration(NULL, FALSE))
		;
	after = mails(f);
	assert_int_equal(after->len, 7);
	assert_int_equal(count_with(after, "SELinux alert 00000000000000f3 (red)"), 1);
	assert_int_equal(count_with(after, "SELinux alert 000000000000000c"), 1);
	assert_int_equal(count_with(after, "SELinux alert 000000000000000d"), 1);
	assert_int_equal(count_with(after, "SELinux alert 000000000000000e"), 0);
	assert_int_equal(count_with(after, "This mail was held back by the limit of 2 alert "
				    "mails an hour. Still held back after it: 1;"), 1);
	rows = ad_store_held_mails(f->store, NULL);
	assert_int_equal(rows->len, 1);
	assert_string_equal(((AdStoreHeldMail *)g_ptr_array_index(rows, 0))->id,
			    "000000000000000e");
	g_clear_pointer(&rows, g_ptr_array_unref);

	/* the last one goes when the hour has passed, and the store is empty */
	fake_now += (gint64)3601 * G_USEC_PER_SEC;
	ad_mailer_release_held(f->m);
	later = mails(f);
	assert_int_equal(later->len, 8);
	assert_int_equal(count_with(later, "SELinux alert 000000000000000e"), 1);
	assert_int_equal(count_with(later, "Still held back after it: 0;"), 2);
	rows = ad_store_held_mails(f->store, NULL);
	assert_int_equal(rows->len, 0);
	assert_int_equal(log->len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_red_budget_and_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_held_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_held_kept_in_store, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
