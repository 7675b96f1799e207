// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for inputs.c, the reading thread of the report commands:
 * order kept across batches and files, problems and errors in place,
 * nothing lost when the consumer is slower, work (splitting fields,
 * building denials) taken over by the thread while the consumer is behind,
 * early stop, and the event memory (event.c's arena) with records of every
 * size.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "read/denial.h"
#include "read/event.h"
#include "read/inputs.h"

static char *tmp_dir;

static char *write_file(const char *name, const char *text)
{
	char *path = g_build_filename(tmp_dir, name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

/*
 * @n kernel denial events, serials from @first, three records each; when
 * @bad_every, the AVC record of every @bad_every-th event has no tcontext
 */
static char *denial_log_bad(guint first, guint n, guint bad_every)
{
	GString *s = g_string_new(NULL);

	for (guint i = first; i < first + n; i++) {
		gboolean bad = bad_every && i % bad_every == 0;

		g_string_append_printf(s, "type=AVC msg=audit(1700000000.%03u:%u): avc:  denied  "
				       "{ read } for  pid=1 comm=\"cat\" name=\"f%u\" "
				       "scontext=system_u:system_r:httpd_t:s0 "
				       "%s tclass=file permissive=0\n", i % 1000, i, i,
				       bad ? "" : "tcontext=system_u:object_r:shadow_t:s0");
		g_string_append_printf(s, "type=SYSCALL msg=audit(1700000000.%03u:%u): arch=c000003e "
				       "syscall=257 success=no exit=-13 pid=1 comm=\"cat\" "
				       "exe=\"/usr/bin/cat\"\n", i % 1000, i);
		g_string_append_printf(s, "type=EOE msg=audit(1700000000.%03u:%u): \n",
				       i % 1000, i);
	}
	return g_string_free(s, FALSE);
}

static char *denial_log(guint first, guint n)
{
	return denial_log_bad(first, n, 0);
}

typedef struct {
	GString *trace;		/* "E<serial> " / "P<line> " / "X " per item */
	guint events;
	guint split;		/* events whose AVC record arrived split */
	guint unsplit;		/* events whose AVC record the consumer split */
	guint built;		/* events whose denials the thread built */
	guint plain;		/* events without an AVC record */
	guint plain_built;	/* ... that came with denials built: none should */
	guint denials;		/* denials among them */
} Seen;

/* the denials the thread built for an event: what the consumer would build */
static void check_built(const AdInput *it, Seen *seen)
{
	g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ad_denial_unref);

	seen->built++;
	ad_event_build_denials(it->ev, want, NULL, NULL);
	assert_int_equal(it->denials->len, want->len);
	for (guint i = 0; i < want->len; i++) {
		const AdDenial *d = g_ptr_array_index(it->denials, i);
		const AdDenial *w = g_ptr_array_index(want, i);

		seen->denials++;
		assert_ptr_equal(d->event, it->ev);
		assert_ptr_equal(d->record, w->record);
		assert_string_equal(d->tclass, "file");
		assert_string_equal(d->tcontext, w->tcontext);
		assert_int_equal(d->pid, 1);
		assert_int_equal(d->exe.len, w->exe.len);
		assert_memory_equal(d->exe.data, w->exe.data, d->exe.len);
		assert_string_equal(d->syscall, "openat");
	}
}

static void trace_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	Seen *seen = user_data;

	assert_non_null(message);
	g_string_append_printf(seen->trace, "P%u ", rec->line);
}

static void drain(AdInputs *in, Seen *seen, guint slow_every)
{
	const AdInput *it;
	guint n = 0;

	while ((it = ad_inputs_next(in)) != NULL) {
		switch (it->kind) {
		case AD_INPUT_EVENT:
			seen->events++;
			if (!ad_event_find_record(it->ev, AD_REC_AVC)) {
				seen->plain++;
				if (it->denials)
					seen->plain_built++;
				g_string_append_printf(seen->trace, "E%" G_GUINT64_FORMAT " ",
						       it->ev->serial);
				break;
			}
			for (guint i = 0; i < it->ev->records->len; i++) {
				const AdRecord *rec = g_ptr_array_index(it->ev->records, i);

				if (rec->type != AD_REC_AVC)
					continue;
				if (rec->fields)
					seen->split++;
				else
					seen->unsplit++;
				/* split here or there, the same fields */
				assert_non_null(ad_record_get(rec, "scontext"));
				assert_string_equal(ad_record_get(rec, "tclass"), "file");
			}
			if (it->denials) {
				check_built(it, seen);
			} else {
				/* as the report commands do: the problems, then the event */
				g_autoptr(GPtrArray) ds = g_ptr_array_new_with_free_func(
					(GDestroyNotify)ad_denial_unref);

				ad_event_build_denials(it->ev, ds, trace_problem, seen);
			}
			g_string_append_printf(seen->trace, "E%" G_GUINT64_FORMAT " ",
					       it->ev->serial);
			break;
		case AD_INPUT_PROBLEM:
			g_string_append_printf(seen->trace, "P%u ", it->line);
			assert_non_null(it->message);
			break;
		case AD_INPUT_NOTE:
			g_string_append_printf(seen->trace, "N%u ", it->line);
			assert_non_null(it->message);
			break;
		case AD_INPUT_ERROR:
			g_string_append(seen->trace, "X ");
			assert_non_null(strstr(it->message, "missing.log"));
			break;
		}
		/*
		 * a consumer that is behind: it takes the next item only once
		 * the reading thread has filled the queue and waits for room
		 * (which it must do, not drop), however the threads are scheduled
		 */
		if (slow_every && ++n % slow_every == 0)
			ad_inputs_wait_ahead(in);
	}
}

static void test_order_problems_errors(void **state)
{
	(void)state;
	g_autofree char *a = write_file("a.log",
		"type=AVC msg=audit(1.000:1): avc:  denied  { read } for  scontext=a:b:c "
		"tcontext=a:b:c tclass=file\n"
		"type=EOE msg=audit(1.000:1): \n"
		"type=AVC msg=audit(oops): broken\n"
		"type=AVC msg=audit(2.000:2): avc:  denied  { read } for  scontext=a:b:c "
		"tcontext=a:b:c tclass=file\n");
	g_autofree char *missing = g_build_filename(tmp_dir, "missing.log", NULL);
	g_autofree char *b = write_file("b.log",
		"type=AVC msg=audit(3.000:3): avc:  denied  { read } for  scontext=a:b:c "
		"tcontext=a:b:c tclass=file\n");
	const char *files[] = { a, missing, b, NULL };
	Seen seen = { .trace = g_string_new(NULL) };
	AdInputs *in = ad_inputs_start(files);

	drain(in, &seen, 0);
	ad_inputs_free(in);
	/* the broken line 3 comes between the events it came between */
	assert_string_equal(seen.trace->str, "E1 P3 E2 X E3 ");
	/* nothing was waiting: the consumer splits the records and builds itself */
	assert_int_equal(seen.split, 0);
	assert_int_equal(seen.unsplit, 3);
	assert_int_equal(seen.built, 0);
	g_string_free(seen.trace, TRUE);
}

/*
 * A log directory holding what is not a log: only regular files are read
 * (and a link to one in the same directory); a link to /dev/zero, a FIFO, a
 * directory or a link out of the directory is skipped with a message naming
 * it, and never read or waited on.
 */
static void test_rotations_only_regular(void **state)
{
	(void)state;
	g_autofree char *dir = g_build_filename(tmp_dir, "rot", NULL);
	g_autofree char *outside = write_file("outside.log", "type=AVC msg=audit(4.000:4): avc:  "
		"denied  { read } for  scontext=a:b:c tcontext=a:b:c tclass=file\n");
	g_autofree char *p = NULL;
	const char *files[] = { dir, NULL };
	const char *const skipped[] = { "audit.log.6", "audit.log.4", "audit.log.2",
					"audit.log.1" };
	g_autoptr(GString) trace = g_string_new(NULL);
	guint n_err = 0;
	AdInputs *in;
	const AdInput *it;

	assert_int_equal(g_mkdir(dir, 0700), 0);
	g_free(write_file("rot/audit.log", "type=AVC msg=audit(5.000:5): avc:  denied  { read } "
		"for  scontext=a:b:c tcontext=a:b:c tclass=file\n"));
	g_free(write_file("rot/real3", "type=AVC msg=audit(3.000:3): avc:  denied  { read } "
		"for  scontext=a:b:c tcontext=a:b:c tclass=file\n"));
	p = g_build_filename(dir, "audit.log.1", NULL);
	assert_int_equal(symlink("/dev/zero", p), 0);
	g_free(p);
	p = g_build_filename(dir, "audit.log.2", NULL);
	assert_int_equal(mkfifo(p, 0600), 0);
	g_free(p);
	p = g_build_filename(dir, "audit.log.3", NULL);
	assert_int_equal(symlink("real3", p), 0);
	g_free(p);
	p = g_build_filename(dir, "audit.log.4", NULL);
	assert_int_equal(symlink("../outside.log", p), 0);
	g_free(p);
	p = g_build_filename(dir, "audit.log.6", NULL);
	assert_int_equal(g_mkdir(p, 0700), 0);
	g_clear_pointer(&p, g_free);

	/* reading /dev/zero or waiting on the FIFO would never end: fail instead */
	alarm(60);
	in = ad_inputs_start(files);
	while ((it = ad_inputs_next(in)) != NULL) {
		if (it->kind == AD_INPUT_EVENT) {
			g_string_append_printf(trace, "E%" G_GUINT64_FORMAT " ", it->ev->serial);
		} else if (it->kind == AD_INPUT_ERROR) {
			g_string_append(trace, "X ");
			assert_true(n_err < G_N_ELEMENTS(skipped));
			assert_non_null(strstr(it->message, skipped[n_err]));
			assert_non_null(strstr(it->message, "not read"));
			n_err++;
		}
	}
	ad_inputs_free(in);
	alarm(0);
	/* oldest first: .6 .4 .3 .2 .1, then audit.log */
	assert_string_equal(trace->str, "X X E3 X X E5 ");
	assert_int_equal(n_err, G_N_ELEMENTS(skipped));
	{
		static const char *const names[] = { "audit.log", "real3", "audit.log.1",
						     "audit.log.2", "audit.log.3", "audit.log.4" };

		for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
			g_autofree char *f = g_build_filename(dir, names[i], NULL);

			g_unlink(f);
		}
		p = g_build_filename(dir, "audit.log.6", NULL);
		g_rmdir(p);
		g_rmdir(dir);
	}
}

/* many more events than the batches in flight, with a slow consumer */
static void test_many_events_slow_consumer(void **state)
{
	(void)state;
	const guint n = 20000;
	g_autofree char *text = denial_log(1, n);
	g_autofree char *path = write_file("many.log", text);
	const char *files[] = { path, path, NULL };
	Seen seen = { .trace = g_string_new(NULL) };
	AdInputs *in = ad_inputs_start(files);
	g_autoptr(GString) want = g_string_new(NULL);

	drain(in, &seen, 97);
	ad_inputs_free(in);
	for (guint k = 0; k < 2; k++)
		for (guint i = 1; i <= n; i++)
			g_string_append_printf(want, "E%u ", i);
	assert_int_equal(seen.events, 2 * n);
	assert_string_equal(seen.trace->str, want->str);
	/*
	 * The consumer was behind nearly all the time: the thread split the
	 * records, and built the denials while every batch was full.
	 */
	assert_int_equal(seen.split + seen.unsplit, 2 * n);
	assert_true(seen.split >= 2 * n * 3 / 4);
	assert_true(seen.built >= n / 2);
	assert_int_equal(seen.denials, seen.built);
	g_string_free(seen.trace, TRUE);
}

/*
 * A record the denial builder rejects, in an event the thread built: its
 * problem comes just before the event, as when the consumer builds it.
 */
static void test_problems_of_built_events(void **state)
{
	(void)state;
	const guint n = 20000, bad_every = 50;
	g_autofree char *text = denial_log_bad(1, n, bad_every);
	g_autofree char *path = write_file("bad.log", text);
	const char *files[] = { path, NULL };
	Seen seen = { .trace = g_string_new(NULL) };
	AdInputs *in = ad_inputs_start(files);
	g_autoptr(GString) want = g_string_new(NULL);

	drain(in, &seen, 97);
	ad_inputs_free(in);
	for (guint i = 1; i <= n; i++) {
		/* the AVC record is line 3 * (i - 1) + 1 */
		if (i % bad_every == 0)
			g_string_append_printf(want, "P%u ", 3 * (i - 1) + 1);
		g_string_append_printf(want, "E%u ", i);
	}
	assert_string_equal(seen.trace->str, want->str);
	/* some were built by the thread, bad ones among them (no denial, a problem) */
	assert_true(seen.built >= n / 2);
	assert_true(seen.denials < seen.built);
	g_string_free(seen.trace, TRUE);
}

/* events without a denial record are left to the consumer: nothing to build */
static void test_plain_events_not_built(void **state)
{
	(void)state;
	const guint n = 20000;
	GString *text = g_string_new(NULL);
	g_autofree char *avcs = denial_log(1, n);
	g_autofree char *path = NULL;
	Seen seen = { .trace = g_string_new(NULL) };

	/* a USER_LOGIN event after each denial event, serials from n + 1 */
	for (const char *line = avcs; *line;) {
		const char *nl = strchr(line, '\n');

		g_string_append_len(text, line, nl + 1 - line);
		if (g_str_has_prefix(line, "type=EOE"))
			g_string_append_printf(text, "type=USER_LOGIN msg=audit(1700000001.000:%u): "
					       "pid=1 uid=0 msg='op=login acct=\"root\" res=success'\n",
					       n + 1 + seen.plain++);
		line = nl + 1;
	}
	seen.plain = 0;
	path = write_file("plain.log", text->str);
	g_string_free(text, TRUE);

	const char *files[] = { path, NULL };
	AdInputs *in = ad_inputs_start(files);

	drain(in, &seen, 97);
	ad_inputs_free(in);
	assert_int_equal(seen.events, 2 * n);
	assert_int_equal(seen.plain, n);
	assert_int_equal(seen.plain_built, 0);
	assert_true(seen.built >= n / 2);
	g_string_free(seen.trace, TRUE);
}

/*
 * The consumer stops early: the thread stops, nothing leaks (ASan), also
 * of the problems and denials it was building ahead when told to stop.
 */
static void test_stop_early(void **state)
{
	(void)state;
	g_autofree char *text = denial_log_bad(1, 30000, 7);
	g_autofree char *path = write_file("stop.log", text);
	const char *files[] = { path, path, path, NULL };
	AdInputs *in = ad_inputs_start(files);
	const AdInput *it = ad_inputs_next(in);

	assert_non_null(it);
	assert_int_equal(it->kind, AD_INPUT_EVENT);
	assert_int_equal(it->ev->serial, 1);
	/* let the thread fill the queue and build ahead before it is stopped */
	g_usleep(50000);
	ad_inputs_free(in);
	/* and one never read from at all */
	ad_inputs_free(ad_inputs_start(files));
}

static void test_empty_input(void **state)
{
	(void)state;
	g_autofree char *path = write_file("empty.log", "");
	const char *files[] = { path, NULL };
	AdInputs *in = ad_inputs_start(files);

	assert_null(ad_inputs_next(in));
	assert_null(ad_inputs_next(in));
	ad_inputs_free(in);
}

/* records from tiny to far beyond a block: each keeps its exact text and fields */
static void test_event_memory_sizes(void **state)
{
	(void)state;
	static const gsize sizes[] = { 0, 1, 7, 200, 1000, 5000, 70000, 300000 };
	AdEvent *ev = ad_event_new(NULL, 1, 0, 1);
	GPtrArray *want = g_ptr_array_new_with_free_func(g_free);

	for (guint k = 0; k < 3; k++) {
		for (guint i = 0; i < G_N_ELEMENTS(sizes); i++) {
			AdRecord *rec = ad_event_new_record(ev);
			g_autofree char *value = g_strnfill(sizes[i], 'a' + i);
			char *body = g_strdup_printf("k%u=%s x=\"y z\"", i, value);

			assert_ptr_equal(rec->event, ev);
			assert_null(rec->fields);
			rec->text = ad_event_alloc(ev, strlen(body) + 1);
			strcpy(rec->text, body);
			rec->body = rec->text;
			ad_event_add_record(ev, rec);
			g_ptr_array_add(want, body);
		}
	}
	/* alignment of odd sizes */
	for (gsize sz = 1; sz < 40; sz++)
		assert_int_equal((guintptr)ad_event_alloc(ev, sz) % 8, 0);
	for (guint i = 0; i < ev->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(ev->records, i);
		guint n;
		const AdField *f = ad_record_fields(rec, &n);
		g_autofree char *key = g_strdup_printf("k%u", (guint)(i % G_N_ELEMENTS(sizes)));

		assert_string_equal(rec->text, g_ptr_array_index(want, i));
		assert_int_equal(n, 2);
		assert_string_equal(f[0].name, key);
		assert_int_equal(strlen(f[0].value), sizes[i % G_N_ELEMENTS(sizes)]);
		assert_string_equal(f[1].value, "y z");
		assert_true(ad_field_quoted(&f[1]));
		assert_false(ad_field_quoted(&f[0]));
		/* split once: the same fields again */
		assert_ptr_equal(ad_record_fields(rec, &n), f);
	}
	g_ptr_array_unref(want);
	ad_event_unref(ev);
}

/* msg='...' is split twice (outer and inner fields): the room holds both */
static void test_event_memory_nested(void **state)
{
	(void)state;
	AdEvent *ev = ad_event_new(NULL, 1, 0, 1);
	AdRecord *rec = ad_event_new_record(ev);
	g_autoptr(GString) body = g_string_new("pid=1 msg='");
	guint n;

	for (guint i = 0; i < 500; i++)
		g_string_append_printf(body, "a%u=b%u ", i, i);
	g_string_append(body, "'");
	rec->text = rec->body = ad_event_alloc(ev, body->len + 1);
	memcpy(rec->text, body->str, body->len + 1);
	ad_event_add_record(ev, rec);

	const AdField *f = ad_record_fields(rec, &n);

	assert_int_equal(n, 502);
	assert_string_equal(f[1].name, "msg");
	assert_string_equal(f[501].name, "a499");
	assert_string_equal(f[501].value, "b499");
	ad_event_unref(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_problems_errors),
		cmocka_unit_test(test_rotations_only_regular),
		cmocka_unit_test(test_many_events_slow_consumer),
		cmocka_unit_test(test_problems_of_built_events),
		cmocka_unit_test(test_plain_events_not_built),
		cmocka_unit_test(test_stop_early),
		cmocka_unit_test(test_empty_input),
		cmocka_unit_test(test_event_memory_sizes),
		cmocka_unit_test(test_event_memory_nested),
	};
	int ret;

	tmp_dir = g_dir_make_tmp("avcdoctor-inputs-XXXXXX", NULL);
	assert_non_null(tmp_dir);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	{
		g_autoptr(GDir) d = g_dir_open(tmp_dir, 0, NULL);
		const char *name;

		while (d && (name = g_dir_read_name(d)) != NULL) {
			g_autofree char *p = g_build_filename(tmp_dir, name, NULL);

			g_unlink(p);
		}
	}
	g_rmdir(tmp_dir);
	g_free(tmp_dir);
	return ret;
}
