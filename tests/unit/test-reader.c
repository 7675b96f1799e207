// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for reader.c and event.c: every input format, feeds split
 * anywhere, overlong and broken lines, and event assembly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "read/event.h"
#include "read/reader.h"

/* ---------------------------------------------------------------- helpers */

typedef struct {
	char *file;
	guint line;
	char *message;
} Problem;

typedef struct {
	GPtrArray *events;	/* AdEvent*, referenced */
	GPtrArray *problems;	/* Problem* */
} Collect;

static void problem_free(Problem *p)
{
	g_free(p->file);
	g_free(p->message);
	g_free(p);
}

static void collect_event(AdEvent *ev, gpointer user_data)
{
	Collect *c = user_data;

	g_ptr_array_add(c->events, ad_event_ref(ev));
}

static void collect_problem(const char *file, guint line, const char *message,
			    gpointer user_data)
{
	Collect *c = user_data;
	Problem *p = g_new0(Problem, 1);

	p->file = g_strdup(file);
	p->line = line;
	p->message = g_strdup(message);
	g_ptr_array_add(c->problems, p);
}

static Collect *collect_new(void)
{
	Collect *c = g_new0(Collect, 1);

	c->events = g_ptr_array_new_with_free_func((GDestroyNotify)ad_event_unref);
	c->problems = g_ptr_array_new_with_free_func((GDestroyNotify)problem_free);
	return c;
}

static void collect_free(Collect *c)
{
	g_ptr_array_unref(c->events);
	g_ptr_array_unref(c->problems);
	g_free(c);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Collect, collect_free)

/* reads @text fed in one piece as source @name */
static Collect *read_text(const char *name, const char *text, gsize len)
{
	Collect *c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);

	ad_reader_set_source(r, name);
	ad_reader_feed(r, text, len);
	ad_reader_end_source(r);
	return c;
}

static Collect *read_str(const char *text)
{
	return read_text("test.log", text, strlen(text));
}

/* how many times field @name occurs in @rec */
static guint field_count(const AdRecord *rec, const char *name)
{
	guint n_fields, n = 0;
	const AdField *f = ad_record_fields(rec, &n_fields);

	for (guint i = 0; i < n_fields; i++)
		n += strcmp(f[i].name, name) == 0;
	return n;
}

static AdEvent *event_at(Collect *c, guint i)
{
	assert_true(i < c->events->len);
	return g_ptr_array_index(c->events, i);
}

static const AdRecord *record_at(const AdEvent *ev, guint i)
{
	assert_true(i < ev->records->len);
	return g_ptr_array_index(ev->records, i);
}

/* the event of @serial (and @node), which must be unique */
static AdEvent *event_by_serial(Collect *c, const char *node, guint64 serial)
{
	AdEvent *found = NULL;

	for (guint i = 0; i < c->events->len; i++) {
		AdEvent *ev = g_ptr_array_index(c->events, i);

		if (ev->serial == serial && g_strcmp0(ev->node, node) == 0) {
			assert_null(found);
			found = ev;
		}
	}
	assert_non_null(found);
	return found;
}

static void assert_no_problems(Collect *c)
{
	for (guint i = 0; i < c->problems->len; i++) {
		Problem *p = g_ptr_array_index(c->problems, i);

		print_error("unexpected problem %s:%u: %s\n", p->file, p->line, p->message);
	}
	assert_int_equal(c->problems->len, 0);
}

static void assert_field(const AdRecord *rec, const char *name, const char *want)
{
	const char *got = ad_record_get(rec, name);

	if (g_strcmp0(got, want) != 0)
		print_error("%s: field %s: expected [%s], got [%s]\n", rec->text, name,
			    want ? want : "(absent)", got ? got : "(absent)");
	if (g_strcmp0(got, want) != 0)
		fail();
}

/* a canonical text of everything the reader produced, to compare runs */
static char *dump(Collect *c)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < c->events->len; i++) {
		AdEvent *ev = g_ptr_array_index(c->events, i);

		g_string_append_printf(s, "event node=%s sec=%" G_GINT64_FORMAT " msec=%u serial=%"
				       G_GUINT64_FORMAT "\n", ev->node ? ev->node : "(none)", ev->sec,
				       ev->msec, ev->serial);
		for (guint j = 0; j < ev->records->len; j++) {
			const AdRecord *rec = g_ptr_array_index(ev->records, j);

			g_string_append_printf(s, " rec %s %d %s:%u i=%d [%s]\n", rec->type_name,
					       rec->type, rec->file, rec->line, rec->interpreted,
					       rec->text);
			guint n_fields;
			const AdField *fields = ad_record_fields(rec, &n_fields);

			for (guint k = 0; k < n_fields; k++) {
				const AdField *f = &fields[k];

				g_string_append_printf(s, "  %s=[%s]%s\n", f->name, f->value,
						       ad_field_quoted(f) ? " q" : "");
			}
		}
	}
	for (guint i = 0; i < c->problems->len; i++) {
		Problem *p = g_ptr_array_index(c->problems, i);

		g_string_append_printf(s, "problem %s:%u: %s\n", p->file, p->line, p->message);
	}
	return g_string_free(s, FALSE);
}

static const char *corpus_dir(void)
{
	const char *d = g_getenv("AD_CORPUS");

	return d ? d : "tests/data/corpus";
}

static Collect *read_corpus(const char *name, AdReader **ret_reader)
{
	Collect *c = collect_new();
	AdReader *r = ad_reader_new(collect_event, collect_problem, c);
	g_autofree char *path = g_build_filename(corpus_dir(), name, NULL);
	g_autoptr(GError) error = NULL;

	if (!ad_reader_read_file(r, path, &error))
		print_error("%s: %s\n", path, error->message);
	assert_null(error);
	if (ret_reader)
		*ret_reader = r;
	else
		ad_reader_free(r);
	return c;
}

#define CTX_S "scontext=system_u:system_r:httpd_t:s0"
#define CTX_T "tcontext=system_u:object_r:shadow_t:s0"
#define AVC_BODY "avc:  denied  { read } for  pid=100 comm=\"httpd\" name=\"shadow\" dev=\"sda1\" " \
		 "ino=1 " CTX_S " " CTX_T " tclass=file permissive=0"

/* ------------------------------------------------------------ raw records */

static void test_raw_records(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=AVC msg=audit(1700000001.100:101): " AVC_BODY "\n"
		"type=SYSCALL msg=audit(1700000001.100:101): arch=c000003e syscall=257 success=no "
		"exit=-13 ppid=1 pid=100 comm=\"httpd\" exe=\"/usr/sbin/httpd\" key=(null)\n"
		"type=PROCTITLE msg=audit(1700000001.100:101): "
		"proctitle=2F7573722F7362696E2F6874747064\n"
		"type=EOE msg=audit(1700000001.100:101): \n"
		"type=AVC msg=audit(1700000002.5:102): " AVC_BODY "\n");
	AdEvent *ev;
	const AdRecord *rec;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 2);

	ev = event_at(c, 0);
	assert_null(ev->node);
	assert_int_equal(ev->sec, 1700000001);
	assert_int_equal(ev->msec, 100);
	assert_int_equal(ev->serial, 101);
	assert_int_equal(ev->records->len, 4);
	assert_true(ad_event_time(ev) > 1700000001.09 && ad_event_time(ev) < 1700000001.11);

	rec = record_at(ev, 0);
	assert_string_equal(rec->type_name, "AVC");
	assert_int_equal(rec->type, AD_REC_AVC);
	assert_string_equal(rec->file, "test.log");
	assert_int_equal(rec->line, 1);
	assert_false(rec->interpreted);
	assert_string_equal(rec->text, "type=AVC msg=audit(1700000001.100:101): " AVC_BODY);
	assert_string_equal(rec->body, AVC_BODY);
	assert_field(rec, "pid", "100");
	assert_field(rec, "comm", "httpd");
	assert_field(rec, "scontext", "system_u:system_r:httpd_t:s0");
	assert_field(rec, "tclass", "file");
	assert_field(rec, "permissive", "0");
	assert_field(rec, "msg", NULL);
	assert_int_equal(field_count(rec, "scontext"), 1);

	rec = record_at(ev, 1);
	assert_int_equal(rec->type, AD_REC_SYSCALL);
	assert_int_equal(rec->line, 2);
	assert_field(rec, "arch", "c000003e");
	assert_field(rec, "exe", "/usr/sbin/httpd");
	assert_field(rec, "key", "(null)");
	assert_int_equal(record_at(ev, 2)->type, AD_REC_PROCTITLE);
	assert_int_equal(record_at(ev, 3)->type, AD_REC_EOE);
	assert_ptr_equal(ad_event_find_record(ev, AD_REC_PROCTITLE), record_at(ev, 2));
	assert_null(ad_event_find_record(ev, AD_REC_CWD));

	/* one fractional digit is tenths */
	ev = event_at(c, 1);
	assert_int_equal(ev->sec, 1700000002);
	assert_int_equal(ev->msec, 500);
	assert_int_equal(ev->serial, 102);
	assert_int_equal(record_at(ev, 0)->line, 5);
}

/* --------------------------------------------------------- node= prefixes */

static void test_node_prefix(void **state)
{
	g_autoptr(Collect) c = read_str(
		"node=web1.example.com type=AVC msg=audit(1700000001.100:7): " AVC_BODY "\n"
		"node=web1.example.com type=SYSCALL msg=audit(1700000001.100:7): arch=c000003e "
		"syscall=257 success=no exit=-13\n"
		"Dec  3 05:20:00 loghost audisp: node=db2 type=AVC msg=audit(1700000001.100:8): "
		AVC_BODY "\n");
	AdEvent *ev;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 2);
	ev = event_by_serial(c, "web1.example.com", 7);
	assert_int_equal(ev->records->len, 2);
	assert_true(g_str_has_prefix(record_at(ev, 0)->text,
				     "node=web1.example.com type=AVC msg=audit(1700000001.100:7): "));
	assert_field(record_at(ev, 0), "node", NULL);
	assert_field(record_at(ev, 1), "syscall", "257");
	ev = event_by_serial(c, "db2", 8);
	assert_int_equal(ev->records->len, 1);
	assert_field(record_at(ev, 0), "tclass", "file");
}

/* ------------------------------------------------ several records on a line */

/*
 * The search for the next record on a line looks at sixteen places at a
 * time and at the last ones in a block that overlaps: a second header at
 * any distance from the line's start and end is found.
 */
static void test_second_record_at_every_offset(void **state)
{
	/* short unknown names put the second "type=" among the line's last bytes */
	static const char *const names[] = { "CWD", "AB", "X" };
	guint failures = 0;

	for (guint pad = 0; pad < 40; pad++) {
		for (guint tail = 0; tail < 3 * G_N_ELEMENTS(names); tail++) {
			const char *name = names[tail / 3];
			g_autofree char *line = g_strdup_printf(
				"type=PATH msg=audit(1:1): name=%.*s type=%s audit(1:1):%.*s\n",
				(int)pad, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", name,
				(int)(tail % 3), "  y");
			g_autoptr(Collect) c = read_str(line);
			AdEvent *ev = c->events->len == 1 ? g_ptr_array_index(c->events, 0) : NULL;

			if (c->problems->len || !ev || ev->records->len != 2 ||
			    strcmp(record_at(ev, 1)->type_name, name) != 0) {
				print_error("pad %u, then type=%s and %u bytes: %u events, %u records\n",
					    pad, name, tail % 3, c->events->len,
					    ev ? ev->records->len : 0);
				failures++;
			}
		}
	}
	assert_int_equal(failures, 0);
}

static void test_records_on_one_line(void **state)
{
	AdReader *r = NULL;
	g_autoptr(Collect) c = read_corpus("selinux-audit2allow-test.log", &r);
	AdEvent *ev;
	const AdRecord *path, *cwd;

	assert_no_problems(c);
	/* line 3: "node=bob.example.com type=PATH msg=...: item=0 name=... type=CWD msg=...: cwd=" */
	ev = event_by_serial(c, "bob.example.com", 74);
	assert_int_equal(ev->records->len, 4);
	path = record_at(ev, 0);
	cwd = record_at(ev, 1);
	assert_int_equal(path->type, AD_REC_PATH);
	assert_int_equal(cwd->type, AD_REC_CWD);
	assert_int_equal(path->line, 3);
	assert_int_equal(cwd->line, 3);
	assert_field(path, "name", "/etc/auto.net");
	assert_field(path, "obj", "system_u:object_r:automount_lock_t:s0");
	/* the PATH record ends where the CWD one starts */
	assert_field(path, "type", NULL);
	assert_field(path, "cwd", NULL);
	assert_null(strstr(path->text, "CWD"));
	assert_field(cwd, "cwd", "/");
	assert_field(cwd, "item", NULL);
	assert_int_equal(record_at(ev, 2)->type, AD_REC_SYSCALL);
	assert_int_equal(record_at(ev, 3)->type, AD_REC_AVC);

	/* no-node record and node records keep apart; the same serial on two nodes */
	ev = event_by_serial(c, NULL, 1129);
	assert_int_equal(ev->records->len, 1);
	ev = event_by_serial(c, "bill.example.com", 1128);
	assert_int_equal(record_at(ev, 0)->type, AD_REC_AVC_PATH);
	assert_field(record_at(ev, 0), "path", "/usr/lib/libGL.so.1.2");
	ev = event_by_serial(c, "judy.example.com", 853);
	assert_int_equal(ev->records->len, 4);

	assert_int_equal(ad_reader_rejected(r), 0);
	ad_reader_free(r);
}

/* a quoted value holding " type=X msg=audit(" does not start a record */
static void test_split_respects_quotes(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=PATH msg=audit(1700000001.100:9): item=0 name=\"a type=AVC msg=audit(1.0:1): x\" "
		"nametype=NORMAL type=CWD msg=audit(1700000001.100:9): cwd=\"/\"\n");
	AdEvent *ev;

	assert_int_equal(c->events->len, 1);
	ev = event_at(c, 0);
	assert_int_equal(ev->records->len, 2);
	assert_field(record_at(ev, 0), "name", "a type=AVC msg=audit(1.0:1): x");
	assert_field(record_at(ev, 0), "nametype", "NORMAL");
	assert_field(record_at(ev, 1), "cwd", "/");
}

/* ------------------------------------------------------------ ausearch --raw */

static void test_ausearch_raw(void **state)
{
	AdReader *r = NULL;
	g_autoptr(Collect) c = read_corpus("udica-tests-append_avc_file.log", &r);
	AdEvent *ev;

	assert_no_problems(c);
	assert_true(c->events->len > 0);
	ev = event_at(c, 0);
	assert_int_equal(ev->serial, 800);
	assert_int_equal(ev->sec, 1565382576);
	assert_int_equal(ev->msec, 178);
	assert_true(ev->records->len >= 6);
	for (guint i = 0; i < ev->records->len; i++)
		assert_int_equal(record_at(ev, i)->type, AD_REC_AVC);
	/* "time->" and "----" lines are neither records nor problems */
	for (guint i = 0; i < c->events->len; i++) {
		ev = event_at(c, i);
		for (guint j = 0; j < ev->records->len; j++)
			assert_null(strstr(record_at(ev, j)->text, "time->"));
	}
	assert_int_equal(ad_reader_rejected(r), 0);
	ad_reader_free(r);
}

/* "----" ends every open event at once, without waiting for the input's end */
static void test_separator_flushes(void **state)
{
	Collect *c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);
	const char *part1 =
		"----\n"
		"time->Tue Nov 14 22:13:21 2023\n"
		"type=AVC msg=audit(1700000001.100:101): " AVC_BODY "\n"
		"type=SYSCALL msg=audit(1700000001.100:101): arch=c000003e syscall=257\n";
	const char *part2 = "----\n";
	const char *part3 =
		"time->Tue Nov 14 22:13:22 2023\n"
		"type=AVC msg=audit(1700000002.100:102): " AVC_BODY "\n";

	ad_reader_feed(r, part1, strlen(part1));
	assert_int_equal(c->events->len, 0);
	ad_reader_feed(r, part2, strlen(part2));
	assert_int_equal(c->events->len, 1);
	assert_int_equal(event_at(c, 0)->records->len, 2);
	ad_reader_feed(r, part3, strlen(part3));
	ad_reader_end_source(r);
	assert_int_equal(c->events->len, 2);
	assert_int_equal(event_at(c, 1)->serial, 102);
	assert_no_problems(c);
	assert_int_equal(ad_reader_records(r), 3);
	assert_int_equal(ad_reader_rejected(r), 0);
	ad_reader_free(g_steal_pointer(&r));
	collect_free(c);
}

/* ------------------------------------------------------------ ausearch -i */

#define INTERP_EVENT \
	"----\n" \
	"type=PROCTITLE msg=audit(08/13/2025 15:10:41.085:463474) : " \
	"proctitle=/usr/sbin/unix_chkpwd zabbix chkexpiry \n" \
	"type=PATH msg=audit(08/13/2025 15:10:41.085:463474) : item=0 name=/etc/shadow " \
	"inode=8388860 dev=fd:00 mode=file,600 ouid=root ogid=root rdev=00:00 " \
	"obj=system_u:object_r:shadow_t:s0 nametype=NORMAL cap_fp=none cap_fi=none cap_fe=0 " \
	"cap_fver=0 cap_frootid=0 \n" \
	"type=CWD msg=audit(08/13/2025 15:10:41.085:463474) : cwd=/U2/My Documents \n" \
	"type=SYSCALL msg=audit(08/13/2025 15:10:41.085:463474) : arch=x86_64 syscall=openat " \
	"success=no exit=EACCES(Permission denied) a0=AT_FDCWD a1=0x7fe49224aec6 " \
	"a2=O_RDONLY|O_CLOEXEC a3=0x0 items=1 ppid=1240772 pid=1240781 auid=unset uid=root " \
	"gid=zabbix tty=(none) ses=unset comm=unix chkpwd exe=/usr/sbin/unix_chkpwd " \
	"subj=system_u:system_r:zabbix_agent_t:s0 key=(null) \n" \
	"type=AVC msg=audit(08/13/2025 15:10:41.085:463474) : avc:  denied  { open } for  " \
	"pid=1240781 comm=unix chkpwd path=/etc/shadow dev=\"dm-0\" ino=8388860 " \
	"scontext=system_u:system_r:zabbix_agent_t:s0 tcontext=system_u:object_r:shadow_t:s0 " \
	"tclass=file permissive=1 \n"

static void test_ausearch_interpreted(void **state)
{
	g_autoptr(Collect) c = read_str(INTERP_EVENT);
	AdEvent *ev;
	const AdRecord *rec;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 1);
	ev = event_at(c, 0);
	/* 2025-08-13 15:10:41 UTC */
	assert_int_equal(ev->sec, 1755097841);
	assert_int_equal(ev->msec, 85);
	assert_int_equal(ev->serial, 463474);
	assert_int_equal(ev->records->len, 5);
	for (guint i = 0; i < ev->records->len; i++)
		assert_true(record_at(ev, i)->interpreted);

	rec = ad_event_find_record(ev, AD_REC_PROCTITLE);
	assert_non_null(rec);
	assert_field(rec, "proctitle", "/usr/sbin/unix_chkpwd zabbix chkexpiry");
	rec = ad_event_find_record(ev, AD_REC_PATH);
	assert_field(rec, "name", "/etc/shadow");
	assert_field(rec, "mode", "file,600");
	assert_field(rec, "cap_frootid", "0");
	rec = ad_event_find_record(ev, AD_REC_CWD);
	assert_field(rec, "cwd", "/U2/My Documents");
	rec = ad_event_find_record(ev, AD_REC_SYSCALL);
	assert_field(rec, "syscall", "openat");
	assert_field(rec, "exit", "EACCES(Permission denied)");
	assert_field(rec, "a2", "O_RDONLY|O_CLOEXEC");
	assert_field(rec, "comm", "unix chkpwd");
	assert_field(rec, "key", "(null)");
	rec = ad_event_find_record(ev, AD_REC_AVC);
	assert_field(rec, "comm", "unix chkpwd");
	assert_field(rec, "path", "/etc/shadow");
	assert_field(rec, "dev", "dm-0");
	assert_field(rec, "tclass", "file");
	assert_field(rec, "permissive", "1");
	/* interpreted values are never hex-decoded */
	{
		AdBytes b = ad_record_bytes(rec, "pid");

		assert_int_equal(b.len, 7);
	}
}

/* interpreted timestamps are local time: with TZ=UTC they are UTC */
static void test_interpreted_stamp_variants(void **state)
{
	static const struct {
		const char *stamp;
		gint64 sec;
		guint msec;
		guint64 serial;
	} cases[] = {
		{ "12/03/2023 05:20:00.123:45", 1701580800, 123, 45 },
		{ "01/01/1970 00:00:01.000:1", 1, 0, 1 },
		{ "02/29/2024 23:59:59.999:18446744073709551615", 1709251199, 999,
		  G_GUINT64_CONSTANT(18446744073709551615) },
		/* ausearch prints "%x %T": a two-digit year under LANG=C */
		{ "08/13/25 15:10:41.085:5", 1755097841, 85, 5 },
		{ "11/14/23 22:13:21.100:101", 1700000001, 100, 101 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf(
			"type=AVC msg=audit(%s) : avc:  denied  { read } for  pid=1 comm=x "
			"scontext=a:b:c tcontext=a:b:c tclass=file \n", cases[i].stamp);
		g_autoptr(Collect) c = read_str(text);
		AdEvent *ev;

		assert_no_problems(c);
		assert_int_equal(c->events->len, 1);
		ev = event_at(c, 0);
		if (ev->sec != cases[i].sec)
			print_error("stamp %s: expected sec %" G_GINT64_FORMAT ", got %"
				    G_GINT64_FORMAT "\n", cases[i].stamp, cases[i].sec, ev->sec);
		assert_int_equal(ev->sec, cases[i].sec);
		assert_int_equal(ev->msec, cases[i].msec);
		assert_int_equal(ev->serial, cases[i].serial);
		assert_true(record_at(ev, 0)->interpreted);
	}
}

/* interpreted USER_AVC: msg='...' is split too, unquoted values end at " name=" */
static void test_interpreted_user_avc(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=USER_AVC msg=audit(11/14/2023 22:13:31.100:111) : pid=700 uid=unknown(81) "
		"auid=unset ses=unset subj=system_u:system_r:system_dbusd_t:s0-s0:c0.c1023 "
		"msg='avc:  denied  { send_msg } for msgtype=method_call "
		"interface=org.freedesktop.DBus.Properties member=GetAll dest=org.freedesktop.systemd1 "
		"spid=800 tpid=1 scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:system_r:init_t:s0 tclass=dbus permissive=0 "
		"exe=/usr/bin/dbus-daemon sauid=unknown(81) hostname=? addr=? terminal=?' \n");
	const AdRecord *rec;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 1);
	rec = record_at(event_at(c, 0), 0);
	assert_int_equal(rec->type, AD_REC_USER_AVC);
	assert_field(rec, "uid", "unknown(81)");
	assert_field(rec, "spid", "800");
	assert_string_equal(ad_record_get_last(rec, "tclass"), "dbus");
	assert_string_equal(ad_record_get_last(rec, "exe"), "/usr/bin/dbus-daemon");
	assert_string_equal(ad_record_get_last(rec, "terminal"), "?");
}

/* ---------------------------------------------------------- kernel-log lines */

static void test_dmesg(void **state)
{
	g_autoptr(Collect) c = read_str(
		"[   12.345678] audit: type=1400 audit(1700000000.123:45): " AVC_BODY "\n"
		"[   12.345690] audit: type=1300 audit(1700000000.123:45): arch=c000003e syscall=257 "
		"success=no exit=-13 comm=\"httpd\"\n"
		"[   12.400000] some other kernel message\n"
		"[   13.000000] audit: type=1327 audit(1700000000.123:45): proctitle=6874747064\n");
	AdEvent *ev;
	const AdRecord *rec;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 1);
	ev = event_at(c, 0);
	assert_int_equal(ev->sec, 1700000000);
	assert_int_equal(ev->msec, 123);
	assert_int_equal(ev->serial, 45);
	assert_int_equal(ev->records->len, 3);
	rec = record_at(ev, 0);
	assert_int_equal(rec->type, AD_REC_AVC);
	assert_string_equal(rec->type_name, "AVC");
	/* normalised to the raw form */
	assert_string_equal(rec->text, "type=AVC msg=audit(1700000000.123:45): " AVC_BODY);
	assert_field(rec, "scontext", "system_u:system_r:httpd_t:s0");
	rec = record_at(ev, 1);
	assert_int_equal(rec->type, AD_REC_SYSCALL);
	assert_string_equal(rec->type_name, "SYSCALL");
	assert_field(rec, "exit", "-13");
	assert_int_equal(record_at(ev, 2)->type, AD_REC_PROCTITLE);
	assert_int_equal(record_at(ev, 2)->line, 4);
}

static void test_journal_kernel(void **state)
{
	g_autoptr(Collect) c = read_str(
		"Dec 03 05:20:00 host kernel: audit: type=1400 audit(1701580800.500:46): "
		AVC_BODY "\n"
		"Dec 03 05:20:00 host kernel: audit: type=1300 audit(1701580800.500:46): "
		"arch=c000003e syscall=257 success=no exit=-13\n");
	AdEvent *ev;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 1);
	ev = event_at(c, 0);
	assert_int_equal(ev->sec, 1701580800);
	assert_int_equal(ev->msec, 500);
	assert_int_equal(ev->serial, 46);
	assert_int_equal(ev->records->len, 2);
	assert_int_equal(record_at(ev, 0)->type, AD_REC_AVC);
	assert_field(record_at(ev, 0), "tclass", "file");
	assert_int_equal(record_at(ev, 1)->type, AD_REC_SYSCALL);
}

/* journald's own audit lines have no audit(...) stamp */
static void test_journald_audit(void **state)
{
	g_autoptr(Collect) c = read_str(
		"Dec 03 05:20:00 host audit[123]: AVC avc:  denied  { getattr } for  pid=123 "
		"comm=\"b\" path=\"/etc/x\" " CTX_S " " CTX_T " tclass=file permissive=0\n"
		"Dec 03 05:20:00 host audit[123]: SYSCALL arch=c000003e syscall=4 success=no "
		"exit=-13 comm=\"b\" exe=\"/usr/bin/b\"\n"
		"Dec 03 05:20:01 host audit[124]: AVC avc:  denied  { read } for  pid=124 "
		"comm=\"c\" " CTX_S " " CTX_T " tclass=file permissive=0\n");
	AdEvent *ev;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 2);
	ev = event_at(c, 0);
	assert_int_equal(ev->records->len, 2);
	assert_int_equal(record_at(ev, 0)->type, AD_REC_AVC);
	assert_field(record_at(ev, 0), "pid", "123");
	assert_field(record_at(ev, 0), "path", "/etc/x");
	assert_true(g_str_has_prefix(record_at(ev, 0)->body, "avc:  denied  { getattr }"));
	assert_int_equal(record_at(ev, 1)->type, AD_REC_SYSCALL);
	assert_field(record_at(ev, 1), "exe", "/usr/bin/b");
	ev = event_at(c, 1);
	assert_int_equal(ev->records->len, 1);
	assert_field(record_at(ev, 0), "pid", "124");
	assert_int_equal(record_at(ev, 0)->line, 3);
}

/*
 * Records without a pid= (CWD, PATH, PROCTITLE, SOCKADDR) are logged by
 * journald as "audit: TYPE ...", without "[pid]".
 */
static void test_journald_audit_without_pid(void **state)
{
	g_autoptr(Collect) c = read_str(
		"Dec 03 05:20:00 host audit[123]: AVC avc:  denied  { read } for  pid=123 "
		"comm=\"b\" name=\"x\" " CTX_S " " CTX_T " tclass=file permissive=0\n"
		"Dec 03 05:20:00 host audit[123]: SYSCALL arch=c000003e syscall=257 success=no "
		"exit=-13 comm=\"b\" exe=\"/usr/bin/b\"\n"
		"Dec 03 05:20:00 host audit: CWD cwd=\"/srv\"\n"
		"Dec 03 05:20:00 host audit: PATH item=0 name=\"data/x\" inode=5 nametype=NORMAL\n"
		"Dec 03 05:20:00 host audit: PROCTITLE proctitle=\"b\"\n");
	AdEvent *ev;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 1);
	ev = event_at(c, 0);
	assert_int_equal(ev->records->len, 5);
	assert_non_null(ad_event_find_record(ev, AD_REC_CWD));
	assert_field(ad_event_find_record(ev, AD_REC_CWD), "cwd", "/srv");
	assert_non_null(ad_event_find_record(ev, AD_REC_PATH));
	assert_field(ad_event_find_record(ev, AD_REC_PATH), "name", "data/x");
	assert_non_null(ad_event_find_record(ev, AD_REC_PROCTITLE));
}

/* ------------------------------------------------------------------ ENRICHED */

static void test_enriched(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=AVC msg=audit(1700000001.100:101): " AVC_BODY "\x1d"
		"AUID=\"root\" UID=\"root\"\n"
		"type=SYSCALL msg=audit(1700000001.100:101): arch=c000003e syscall=257 success=no "
		"exit=-13 auid=0 uid=0 comm=\"httpd\" key=(null)\x1d"
		"ARCH=x86_64 SYSCALL=openat AUID=\"root\" UID=\"root\"\n"
		"type=SOCKADDR msg=audit(1700000001.100:101): saddr=020000357F0000010000000000000000"
		"\x1dSADDR={ saddr_fam=inet laddr=127.0.0.1 lport=53 }\n");
	AdEvent *ev;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 1);
	ev = event_at(c, 0);
	assert_int_equal(ev->records->len, 3);
	assert_field(record_at(ev, 2), "laddr", NULL);
	assert_field(record_at(ev, 0), "permissive", "0");
	assert_field(record_at(ev, 0), "AUID", NULL);
	assert_null(strchr(record_at(ev, 0)->text, 0x1d));
	assert_field(record_at(ev, 1), "key", "(null)");
	assert_field(record_at(ev, 1), "ARCH", NULL);
	assert_field(record_at(ev, 1), "SYSCALL", NULL);
	assert_field(record_at(ev, 1), "syscall", "257");
}

/*
 * One stamp on ever more records (a client writing under one serial): the
 * reader holds at most 4096 records or 8 MiB of one event, the records
 * after that make another event, and each cut is reported.
 */
static void test_giant_event(void **state)
{
	g_autoptr(GString) text = g_string_new(NULL);
	g_autoptr(Collect) many = NULL, big = NULL;
	g_autofree char *filler = g_strnfill(3u << 20, 'a');
	guint n = 0;

	for (guint i = 0; i < 10000; i++)
		g_string_append(text, "type=AVC msg=audit(1700000001.100:7): " AVC_BODY "\n");
	many = read_str(text->str);
	assert_int_equal(many->events->len, 3);
	for (guint i = 0; i < 3; i++) {
		assert_int_equal(event_at(many, i)->serial, 7);
		assert_true(event_at(many, i)->records->len <= 4096);
		n += event_at(many, i)->records->len;
	}
	assert_int_equal(n, 10000);
	assert_int_equal(many->problems->len, 2);
	assert_non_null(strstr(((Problem *)g_ptr_array_index(many->problems, 0))->message,
			       "under one event stamp"));
	assert_int_equal(((Problem *)g_ptr_array_index(many->problems, 0))->line, 4096);

	/* five records of 3 MiB: cut after the third (9 MiB) */
	g_string_truncate(text, 0);
	for (guint i = 0; i < 5; i++)
		g_string_append_printf(text, "type=SYSCALL msg=audit(1700000001.100:8): "
				       "arch=c000003e syscall=2 key=\"%s\"\n", filler);
	big = read_str(text->str);
	assert_int_equal(big->events->len, 2);
	assert_int_equal(event_at(big, 0)->records->len, 3);
	assert_int_equal(event_at(big, 1)->records->len, 2);
	assert_int_equal(big->problems->len, 1);
}

/* -------------------------------------------------------- line-end handling */

static void test_last_line_without_newline(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=AVC msg=audit(1700000001.100:101): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000002.100:102): " AVC_BODY);
	const AdRecord *rec;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 2);
	rec = record_at(event_by_serial(c, NULL, 102), 0);
	assert_int_equal(rec->line, 2);
	assert_field(rec, "permissive", "0");
	assert_field(rec, "tclass", "file");
}

static void test_crlf(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=AVC msg=audit(1700000001.100:101): " AVC_BODY "\r\n"
		"type=SYSCALL msg=audit(1700000001.100:101): arch=c000003e exe=\"/usr/bin/x\"\r\n"
		"\r\n"
		"type=AVC msg=audit(1700000002.100:102): " AVC_BODY "\r");
	AdEvent *ev;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 2);
	ev = event_at(c, 0);
	assert_field(record_at(ev, 0), "permissive", "0");
	assert_null(strchr(record_at(ev, 0)->text, '\r'));
	assert_field(record_at(ev, 1), "exe", "/usr/bin/x");
	assert_field(record_at(event_at(c, 1), 0), "permissive", "0");
	assert_int_equal(record_at(event_at(c, 1), 0)->line, 4);
}

/* ------------------------------------------------- feeds split at any byte */

/*
 * Every format at once, with multibyte UTF-8 (2, 3 and 4 bytes), CRLF, an
 * ENRICHED suffix, a broken stamp (a problem), and no final newline.
 * Timestamps only move forward (see the tests of out-of-order input).
 */
static const char mixed[] =
	"Dec 03 05:20:00 host audit[123]: AVC avc:  denied  { getattr } for  pid=123 comm=\"b\" "
	CTX_S " " CTX_T " tclass=file permissive=0\n"
	"Dec 03 05:20:00 host audit[123]: SYSCALL arch=c000003e syscall=4 success=no exit=-13\n"
	"node=n1 type=SYSCALL msg=audit(1700000000.100:7): arch=c000003e syscall=257 success=no "
	"exit=-13 comm=\"cat\" exe=\"/usr/bin/cat\"\n"
	"node=n1 type=AVC msg=audit(1700000000.100:7): avc:  denied  { read } for  pid=42 "
	"comm=\"cat\" name=636166C3A920E282AC dev=\"sda1\" ino=9 " CTX_S " " CTX_T
	" tclass=file permissive=0\n"
	"type=PATH msg=audit(1700000001.200:8): item=0 name=\"/etc/auto.net\" inode=1 "
	"nametype=NORMAL type=CWD msg=audit(1700000001.200:8): cwd=\"/\"\r\n"
	"----\n"
	"type=AVC msg=audit(11/14/2023 22:13:21.085:463474) : avc:  denied  { open } for  "
	"pid=1240781 comm=unix_chkpwd path=/home/\xc3\xa9t\xc3\xa9/\xf0\x9f\x98\x80 x dev=\"dm-0\" "
	"ino=8388860 " CTX_S " " CTX_T " tclass=file permissive=1 \n"
	"type=PROCTITLE msg=audit(11/14/2023 22:13:21.085:463474) : proctitle=/usr/sbin/unix_chkpwd "
	"\xe2\x82\xac zabbix \n"
	"----\n"
	"time->Fri Aug  9 22:29:36 2019\n"
	"[   12.345678] audit: type=1400 audit(1700000002.300:45): avc:  denied  { write } for  "
	"pid=5 comm=\"a\" " CTX_S " " CTX_T " tclass=file permissive=0\n"
	"Dec 03 05:20:00 host kernel: audit: type=1300 audit(1700000002.300:45): arch=c000003e "
	"syscall=2 success=no exit=-13\n"
	"type=AVC msg=audit(1700000003.000:46): " AVC_BODY "\x1d" "AUID=\"root\" UID=\"root\"\n"
	"type=AVC msg=audit(bogus): avc:  denied  { read }\n"
	"type=USER_AVC msg=audit(1700000003.500:47): pid=1 uid=0 auid=4294967295 ses=4294967295 "
	"subj=system_u:system_r:init_t:s0 msg='avc:  denied  { start } for auid=1000 uid=1000 "
	"gid=1000 cmdline=\"systemctl start caf\xc3\xa9\" " CTX_S " " CTX_T " tclass=service "
	"exe=\"/usr/lib/systemd/systemd\" sauid=0 hostname=? addr=? terminal=?'\n"
	"type=AVC msg=audit(1700000004.000:48): " AVC_BODY;

static char *dump_of_feed(const char *text, gsize len, const gsize *cuts, guint n_cuts)
{
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);
	gsize pos = 0;

	ad_reader_set_source(r, "mixed.log");
	for (guint i = 0; i < n_cuts; i++) {
		ad_reader_feed(r, text + pos, cuts[i] - pos);
		pos = cuts[i];
	}
	ad_reader_feed(r, text + pos, len - pos);
	ad_reader_end_source(r);
	return dump(c);
}

static void test_mixed_whole(void **state)
{
	g_autoptr(Collect) c = read_text("mixed.log", mixed, sizeof(mixed) - 1);
	Problem *p;

	/*
	 * the journald one, 7, 8, 463474, 45 of dmesg, 45 of the syslog line
	 * (whose host is its node), 46, 47, 48
	 */
	assert_int_equal(c->events->len, 9);
	assert_int_equal(event_at(c, 0)->records->len, 2);
	assert_int_equal(event_at(c, 0)->serial, 0);
	assert_string_equal(event_at(c, 0)->node, "host");
	assert_int_equal(event_by_serial(c, "n1", 7)->records->len, 2);
	assert_int_equal(event_by_serial(c, NULL, 8)->records->len, 2);
	assert_int_equal(event_by_serial(c, NULL, 463474)->records->len, 2);
	assert_int_equal(event_by_serial(c, NULL, 463474)->sec, 1700000001);
	assert_int_equal(event_by_serial(c, NULL, 45)->records->len, 1);
	assert_int_equal(event_by_serial(c, "host", 45)->records->len, 1);
	assert_int_equal(c->problems->len, 1);
	p = g_ptr_array_index(c->problems, 0);
	assert_string_equal(p->file, "mixed.log");
	assert_int_equal(p->line, 14);
	assert_non_null(strstr(p->message, "timestamp"));
	assert_field(record_at(event_by_serial(c, NULL, 463474), 0), "path",
		     "/home/\xc3\xa9t\xc3\xa9/\xf0\x9f\x98\x80 x");
	assert_field(record_at(event_by_serial(c, NULL, 463474), 1), "proctitle",
		     "/usr/sbin/unix_chkpwd \xe2\x82\xac zabbix");
	{
		AdBytes b = ad_record_bytes(record_at(event_by_serial(c, "n1", 7), 1), "name");

		assert_int_equal(b.len, 9);
		assert_memory_equal(b.data, "caf\xc3\xa9 \xe2\x82\xac", 9);
	}
}

static void test_feed_every_split(void **state)
{
	gsize len = sizeof(mixed) - 1;
	g_autofree char *whole = dump_of_feed(mixed, len, NULL, 0);

	for (gsize cut = 0; cut <= len; cut++) {
		g_autofree char *got = dump_of_feed(mixed, len, &cut, 1);

		if (strcmp(got, whole) != 0) {
			print_error("split at byte %zu differs:\n%s\n---- whole:\n%s\n", cut, got,
				    whole);
			fail();
		}
	}
}

static void test_feed_byte_by_byte(void **state)
{
	gsize len = sizeof(mixed) - 1;
	g_autofree char *whole = dump_of_feed(mixed, len, NULL, 0);
	g_autofree gsize *cuts = g_new(gsize, len);
	g_autofree char *got = NULL;

	for (gsize i = 0; i < len; i++)
		cuts[i] = i;
	got = dump_of_feed(mixed, len, cuts, len);
	assert_string_equal(got, whole);
}

static void test_feed_random_chunks(void **state)
{
	gsize len = sizeof(mixed) - 1;
	g_autofree char *whole = dump_of_feed(mixed, len, NULL, 0);
	g_autoptr(GRand) rand = g_rand_new_with_seed(4242);

	for (int round = 0; round < 300; round++) {
		g_autoptr(GArray) cuts = g_array_new(FALSE, FALSE, sizeof(gsize));
		gsize pos = 0;
		g_autofree char *got = NULL;

		for (;;) {
			pos += g_rand_int_range(rand, 0, 97);
			if (pos >= len)
				break;
			g_array_append_val(cuts, pos);
		}
		got = dump_of_feed(mixed, len, (gsize *)cuts->data, cuts->len);
		if (strcmp(got, whole) != 0) {
			print_error("round %d differs:\n%s\n", round, got);
			fail();
		}
	}
}

/* a multibyte character cut between two feeds comes out whole */
static void test_utf8_split_across_feeds(void **state)
{
	static const char text[] =
		"type=AVC msg=audit(08/13/2025 15:10:41.085:9) : avc:  denied  { read } for  pid=1 "
		"comm=x name=caf\xc3\xa9\xf0\x9f\x98\x80 " CTX_S " " CTX_T " tclass=file \n";
	const char *e = strstr(text, "\xc3\xa9");
	/* inside the 2-byte é, then after each of the first 3 bytes of the 4-byte emoji */
	const gsize cuts[] = { 1, 3, 4, 5 };

	for (gsize k = 0; k < G_N_ELEMENTS(cuts); k++) {
		gsize cut = (e - text) + cuts[k];
		g_autoptr(Collect) c = collect_new();
		g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);

		ad_reader_feed(r, text, cut);
		ad_reader_feed(r, text + cut, sizeof(text) - 1 - cut);
		ad_reader_end_source(r);
		assert_no_problems(c);
		assert_int_equal(c->events->len, 1);
		assert_field(record_at(event_at(c, 0), 0), "name",
			     "caf\xc3\xa9\xf0\x9f\x98\x80");
		assert_true(g_utf8_validate(record_at(event_at(c, 0), 0)->text, -1, NULL));
	}
}

/* ------------------------------------------------------------- bad lines */

#define MAX_LINE (4u << 20)

static char *long_line_text(gsize content_len, gboolean final_newline)
{
	GString *s = g_string_new("type=AVC msg=audit(1700000001.100:1): " AVC_BODY "\n");
	gsize start = s->len;

	g_string_append(s, "type=AVC msg=audit(1700000002.100:2): avc:  denied  { read } for name=\"");
	while (s->len - start < content_len - 1)
		g_string_append_c(s, 'A');
	g_string_append_c(s, '"');
	g_assert(s->len - start == content_len);
	g_string_append_c(s, '\n');
	g_string_append(s, "type=AVC msg=audit(1700000003.100:3): " AVC_BODY);
	if (final_newline)
		g_string_append_c(s, '\n');
	return g_string_free(s, FALSE);
}

static void check_long_line_result(Collect *c, AdReader *r)
{
	Problem *p;

	assert_int_equal(c->problems->len, 1);
	p = g_ptr_array_index(c->problems, 0);
	assert_string_equal(p->file, "long.log");
	assert_int_equal(p->line, 2);
	assert_non_null(strstr(p->message, "longer than"));
	assert_int_equal(c->events->len, 2);
	assert_int_equal(event_at(c, 0)->serial, 1);
	assert_int_equal(event_at(c, 1)->serial, 3);
	assert_int_equal(record_at(event_at(c, 1), 0)->line, 3);
	assert_field(record_at(event_at(c, 1), 0), "permissive", "0");
	assert_int_equal(ad_reader_records(r), 2);
	assert_int_equal(ad_reader_rejected(r), 1);
}

static void test_long_line_rejected(void **state)
{
	/* one byte over the limit, fed whole, then in odd-sized chunks */
	g_autofree char *text = long_line_text(MAX_LINE + 1, TRUE);
	gsize len = strlen(text);

	{
		g_autoptr(Collect) c = collect_new();
		g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);

		ad_reader_set_source(r, "long.log");
		ad_reader_feed(r, text, len);
		ad_reader_end_source(r);
		check_long_line_result(c, r);
	}
	{
		g_autoptr(Collect) c = collect_new();
		g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);

		ad_reader_set_source(r, "long.log");
		for (gsize pos = 0; pos < len; pos += 4093)
			ad_reader_feed(r, text + pos, MIN(4093, len - pos));
		ad_reader_end_source(r);
		check_long_line_result(c, r);
	}
}

static void test_line_at_limit_accepted(void **state)
{
	g_autofree char *text = long_line_text(MAX_LINE, TRUE);
	g_autoptr(Collect) c = read_text("long.log", text, strlen(text));

	assert_no_problems(c);
	assert_int_equal(c->events->len, 3);
	assert_int_equal(strlen(ad_record_get(record_at(event_at(c, 1), 0), "name")),
			 MAX_LINE - strlen("type=AVC msg=audit(1700000002.100:2): avc:  denied  "
					   "{ read } for name=\"\""));
}

static void test_long_last_line_rejected(void **state)
{
	GString *s = g_string_new("type=AVC msg=audit(1700000001.100:1): " AVC_BODY "\n");
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);

	while (s->len < MAX_LINE + 4096)
		g_string_append(s, "type=AVC msg=audit(1700000002.100:2): ");
	ad_reader_set_source(r, "long.log");
	for (gsize pos = 0; pos < s->len; pos += 65536)
		ad_reader_feed(r, s->str + pos, MIN(65536, s->len - pos));
	ad_reader_end_source(r);
	assert_int_equal(c->events->len, 1);
	assert_int_equal(c->problems->len, 1);
	assert_int_equal(((Problem *)g_ptr_array_index(c->problems, 0))->line, 2);
	g_string_free(s, TRUE);

	/* the reader is usable for the next source */
	ad_reader_set_source(r, "next.log");
	ad_reader_feed(r, "type=AVC msg=audit(1700000009.100:9): " AVC_BODY "\n",
		       strlen("type=AVC msg=audit(1700000009.100:9): " AVC_BODY "\n"));
	ad_reader_end_source(r);
	assert_int_equal(c->events->len, 2);
	assert_string_equal(record_at(event_at(c, 1), 0)->file, "next.log");
	assert_int_equal(record_at(event_at(c, 1), 0)->line, 1);
}

/* the overlong line is still a line of the input */
static void test_long_line_counted(void **state)
{
	g_autofree char *text = long_line_text(MAX_LINE + 1, TRUE);
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);

	ad_reader_set_source(r, "long.log");
	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	assert_int_equal(ad_reader_rejected(r), 1);
	assert_int_equal(ad_reader_lines(r), 3);
}

static void test_nul_in_line(void **state)
{
	static const char text[] =
		"type=AVC msg=audit(1700000001.100:1): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000002.100:2): avc:  denied  { read } for comm=\"a\0b\" "
		CTX_S " " CTX_T " tclass=file\n"
		"type=AVC msg=audit(1700000003.100:3): " AVC_BODY "\n";
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);
	Problem *p;

	ad_reader_set_source(r, "nul.log");
	ad_reader_feed(r, text, sizeof(text) - 1);
	ad_reader_end_source(r);
	assert_int_equal(c->problems->len, 1);
	p = g_ptr_array_index(c->problems, 0);
	assert_int_equal(p->line, 2);
	assert_string_equal(p->file, "nul.log");
	assert_non_null(strstr(p->message, "NUL"));
	assert_int_equal(c->events->len, 2);
	assert_int_equal(event_at(c, 1)->serial, 3);
	assert_int_equal(record_at(event_at(c, 1), 0)->line, 3);
	assert_int_equal(ad_reader_lines(r), 3);
	assert_int_equal(ad_reader_records(r), 2);
	assert_int_equal(ad_reader_rejected(r), 1);
}

typedef struct {
	const char *line;
	const char *problem;	/* substring of the expected message */
} BadCase;

static const BadCase bad_stamps[] = {
	{ "type=AVC msg=audit(bogus): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(1700000000.100): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(1700000000.100:): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(1700000000.100:12", "timestamp" },
	{ "type=AVC msg=audit(1700000000.100:12x): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(1700000000.:12): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(.100:12): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(1700000000.1234567891:12): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(99999999999999999999.100:12): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(1700000000.100:99999999999999999999999): avc:  denied",
	  "timestamp" },
	/* one past the largest serial, and a 21st digit after the largest */
	{ "type=AVC msg=audit(1700000000.100:18446744073709551616): avc:  denied",
	  "timestamp" },
	{ "type=AVC msg=audit(1700000000.100:184467440737095516150): avc:  denied",
	  "timestamp" },
	{ "type=AVC msg=audit(13/45/2025 25:61:00.000:12) : avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(08/13/2025.085:12) : avc:  denied  { read }", "timestamp" },
	/* signs are not digits: strtoll/strtoull would take them */
	{ "type=AVC msg=audit(1700000000.100:-12): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(-1700000000.100:12): avc:  denied  { read }", "timestamp" },
	{ "type=AVC msg=audit(1700000000.-100:12): avc:  denied  { read }", "timestamp" },
	/* not recognised as a record at all, but audit text: still reported */
	{ "type=AVC msg=audit1700000000.100:12: avc:  denied  { read }", "well-formed" },
};

static void test_malformed_stamps(void **state)
{
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(bad_stamps); i++) {
		g_autofree char *text = g_strdup_printf(
			"type=AVC msg=audit(1700000001.100:1): " AVC_BODY "\n%s\n"
			"type=AVC msg=audit(1700000002.100:2): " AVC_BODY "\n", bad_stamps[i].line);
		g_autoptr(Collect) c = read_text("stamps.log", text, strlen(text));
		Problem *p = c->problems->len ? g_ptr_array_index(c->problems, 0) : NULL;
		AdEvent *last = c->events->len ? g_ptr_array_index(c->events, c->events->len - 1)
					       : NULL;

		/* one problem naming file and line, and the rest of the input still read */
		if (c->problems->len != 1 || strcmp(p->file, "stamps.log") != 0 || p->line != 2 ||
		    !strstr(p->message, bad_stamps[i].problem) || c->events->len != 2 ||
		    last->serial != 2 || record_at(last, 0)->line != 3) {
			print_error("case %zu [%s]: %u problems (first: %s:%u: %s), %u events\n", i,
				    bad_stamps[i].line, c->problems->len, p ? p->file : "-",
				    p ? p->line : 0, p ? p->message : "-", c->events->len);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/*
 * The reader parses a stamp once for the records that repeat its text:
 * stamps that only share a beginning must still be told apart.
 */
static void test_stamp_prefixes(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=AVC msg=audit(1700000001.100:12): " AVC_BODY "\n"
		"type=SYSCALL msg=audit(1700000001.100:12): arch=c000003e syscall=2\n"
		"type=AVC msg=audit(1700000001.100:123): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000001.100:1): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000001.10:1): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000001.1:12): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000001.100:12\n");
	AdEvent *ev;

	/* the last line is cut inside a stamp that begins like a good one */
	assert_int_equal(c->problems->len, 1);
	assert_int_equal(((Problem *)g_ptr_array_index(c->problems, 0))->line, 7);
	assert_int_equal(c->events->len, 3);
	ev = event_by_serial(c, NULL, 12);
	assert_int_equal(ev->records->len, 3);
	assert_int_equal(ev->msec, 100);
	ev = event_by_serial(c, NULL, 123);
	assert_int_equal(ev->records->len, 1);
	assert_int_equal(ev->sec, 1700000001);
	ev = event_by_serial(c, NULL, 1);
	assert_int_equal(ev->records->len, 2);
	assert_int_equal(ev->msec, 100);
}

/* a broken stamp in the middle of a line of several records */
static void test_malformed_stamp_second_record(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=PATH msg=audit(1700000001.100:5): item=0 name=\"/x\" type=CWD msg=audit(oops): "
		"cwd=\"/\"\n"
		"type=AVC msg=audit(1700000001.100:5): " AVC_BODY "\n");
	Problem *p;

	assert_int_equal(c->problems->len, 1);
	p = g_ptr_array_index(c->problems, 0);
	assert_int_equal(p->line, 1);
	assert_int_equal(c->events->len, 1);
	assert_int_equal(event_at(c, 0)->records->len, 2);
	assert_field(record_at(event_at(c, 0), 0), "name", "/x");
}

static void test_read_file_errors(void **state)
{
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("ad-reader-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "audit.log", NULL);
	g_autofree char *missing = g_build_filename(dir, "missing.log", NULL);
	static const char text[] =
		"type=AVC msg=audit(1700000001.100:1): " AVC_BODY "\n"
		"type=AVC msg=audit(x): broken\n"
		"type=AVC msg=audit(1700000002.100:2): " AVC_BODY;

	assert_false(ad_reader_read_file(r, missing, &error));
	assert_true(g_error_matches(error, AD_READER_ERROR, AD_READER_ERROR_OPEN));
	assert_non_null(strstr(error->message, "missing.log"));
	g_clear_error(&error);

	assert_true(g_file_set_contents(path, text, sizeof(text) - 1, NULL));
	assert_true(ad_reader_read_file(r, path, &error));
	assert_null(error);
	assert_int_equal(c->events->len, 2);
	assert_int_equal(c->problems->len, 1);
	assert_string_equal(((Problem *)g_ptr_array_index(c->problems, 0))->file, path);
	assert_int_equal(((Problem *)g_ptr_array_index(c->problems, 0))->line, 2);
	assert_string_equal(record_at(event_at(c, 1), 0)->file, path);
	assert_int_equal(record_at(event_at(c, 1), 0)->line, 3);
	g_unlink(path);
	g_rmdir(dir);
}

/*
 * NUL bytes and ENRICHED separators, early in a line (before its first
 * 16 bytes) and late, read from a file: lines processed in the read buffer
 * take what the line scan saw instead of searching again.
 */
static void test_read_file_nul_and_gs(void **state)
{
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("ad-reader-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "audit.log", NULL);
	static const char text[] =
		"type\0AVC msg=audit(1700000001.100:1): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000002.100:2): " AVC_BODY "\x1d" "AUID=\"root\"\n"
		"type=AVC msg=audit(1700000003.100:3): avc:  denied  { read } for comm=\"a\0b\" "
		CTX_S " " CTX_T " tclass=file\n"
		"type=AVC msg=audit(1700000004.100:4): " AVC_BODY "\n"
		"type=AVC\x1d msg=audit(1700000005.100:5): " AVC_BODY "\n";

	assert_true(g_file_set_contents(path, text, sizeof(text) - 1, NULL));
	assert_true(ad_reader_read_file(r, path, &error));
	assert_null(error);
	/*
	 * lines 1 and 3 hold a NUL; line 5 is not cut at its \x1d (no
	 * interpreted fields follow it), "type=AVC\x1d" is no record header:
	 * its "avc:  denied" text is read as pasted, without a stamp
	 */
	assert_int_equal(c->problems->len, 2);
	assert_int_equal(((Problem *)g_ptr_array_index(c->problems, 0))->line, 1);
	assert_non_null(strstr(((Problem *)g_ptr_array_index(c->problems, 0))->message, "NUL"));
	assert_int_equal(((Problem *)g_ptr_array_index(c->problems, 1))->line, 3);
	assert_non_null(strstr(((Problem *)g_ptr_array_index(c->problems, 1))->message, "NUL"));
	assert_int_equal(c->events->len, 3);
	assert_int_equal(event_at(c, 0)->serial, 2);
	assert_null(strchr(record_at(event_at(c, 0), 0)->text, 0x1d));
	assert_null(strstr(record_at(event_at(c, 0), 0)->text, "AUID"));
	assert_int_equal(event_at(c, 1)->serial, 4);
	assert_int_equal(event_at(c, 2)->serial, 0);
	assert_int_equal(ad_reader_lines(r), 5);
	g_unlink(path);
	g_rmdir(dir);
}

/* ------------------------------------------------------------ event assembly */

static void test_interleaved_events(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=SYSCALL msg=audit(1700000001.100:10): arch=c000003e syscall=257 a=1\n"
		"type=SYSCALL msg=audit(1700000001.100:11): arch=c000003e syscall=257 b=1\n"
		"type=AVC msg=audit(1700000001.100:10): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000001.100:11): " AVC_BODY "\n"
		"type=EOE msg=audit(1700000001.100:10): \n"
		"type=PATH msg=audit(1700000001.100:11): item=0 name=\"/b\"\n"
		"type=CWD msg=audit(1700000001.101:10): cwd=\"/\"\n");
	AdEvent *a, *b, *a2;

	assert_no_problems(c);
	assert_int_equal(c->events->len, 3);
	/* EOE closes event 10 first */
	a = event_at(c, 0);
	assert_int_equal(a->serial, 10);
	assert_int_equal(a->records->len, 3);
	assert_int_equal(record_at(a, 0)->line, 1);
	assert_int_equal(record_at(a, 1)->line, 3);
	assert_int_equal(record_at(a, 2)->line, 5);
	assert_field(record_at(a, 0), "a", "1");
	b = event_at(c, 1);
	assert_int_equal(b->serial, 11);
	assert_int_equal(b->records->len, 3);
	assert_int_equal(record_at(b, 0)->line, 2);
	assert_int_equal(record_at(b, 1)->line, 4);
	assert_int_equal(record_at(b, 2)->line, 6);
	assert_field(record_at(b, 0), "b", "1");
	/* same serial, other millisecond: another event */
	a2 = event_at(c, 2);
	assert_int_equal(a2->serial, 10);
	assert_int_equal(a2->msec, 101);
	assert_int_equal(a2->records->len, 1);
}

/*
 * A record right after the EOE of its own event: the event was the last
 * one a record went to, and it is closed: the late record starts another.
 */
static void test_record_after_its_eoe(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=AVC msg=audit(1700000001.100:10): " AVC_BODY "\n"
		"type=EOE msg=audit(1700000001.100:10): \n"
		"type=PATH msg=audit(1700000001.100:10): item=0 name=\"/late\"\n"
		"type=AVC msg=audit(1700000001.100:11): " AVC_BODY "\n"
		"type=PATH msg=audit(1700000001.100:11): item=0 name=\"/b\"\n");

	assert_no_problems(c);
	assert_int_equal(c->events->len, 3);
	assert_int_equal(event_at(c, 0)->serial, 10);
	assert_int_equal(event_at(c, 0)->records->len, 2);
	assert_int_equal(event_at(c, 1)->serial, 10);
	assert_int_equal(event_at(c, 1)->records->len, 1);
	assert_field(record_at(event_at(c, 1), 0), "name", "/late");
	assert_int_equal(event_at(c, 2)->serial, 11);
	assert_int_equal(event_at(c, 2)->records->len, 2);
}

static void test_same_serial_two_nodes(void **state)
{
	g_autoptr(Collect) c = read_str(
		"node=a type=AVC msg=audit(1700000001.100:5): " AVC_BODY "\n"
		"node=b type=AVC msg=audit(1700000001.100:5): " AVC_BODY "\n"
		"type=AVC msg=audit(1700000001.100:5): " AVC_BODY "\n"
		"node=a type=SYSCALL msg=audit(1700000001.100:5): arch=c000003e syscall=1\n"
		"node=b type=SYSCALL msg=audit(1700000001.100:5): arch=40000003 syscall=102\n");

	assert_no_problems(c);
	assert_int_equal(c->events->len, 3);
	assert_int_equal(event_by_serial(c, "a", 5)->records->len, 2);
	assert_field(record_at(event_by_serial(c, "a", 5), 1), "syscall", "1");
	assert_int_equal(event_by_serial(c, "b", 5)->records->len, 2);
	assert_field(record_at(event_by_serial(c, "b", 5), 1), "syscall", "102");
	assert_int_equal(event_by_serial(c, NULL, 5)->records->len, 1);
}

/*
 * Rotated logs given newest first (audit.log, then audit.log.1): the older
 * file's events must stay whole although newer stamps were seen before.
 */
static void test_older_source_after_newer(void **state)
{
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);
	static const char newer[] =
		"type=AVC msg=audit(1700000100.000:900): " AVC_BODY "\n";
	static const char older[] =
		"type=SYSCALL msg=audit(1600000000.000:10): arch=c000003e syscall=257 success=no\n"
		"type=CWD msg=audit(1600000000.000:10): cwd=\"/root\"\n"
		"type=PATH msg=audit(1600000000.000:10): item=0 name=\"x\" inode=1\n"
		"type=AVC msg=audit(1600000000.000:10): " AVC_BODY "\n";

	ad_reader_set_source(r, "audit.log");
	ad_reader_feed(r, newer, strlen(newer));
	ad_reader_end_source(r);
	ad_reader_set_source(r, "audit.log.1");
	ad_reader_feed(r, older, strlen(older));
	ad_reader_end_source(r);
	assert_no_problems(c);
	assert_int_equal(c->events->len, 2);
	assert_int_equal(event_by_serial(c, NULL, 10)->records->len, 4);
}

/* an out-of-order event inside one input (merged or hand-edited logs) */
static void test_older_event_after_newer(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=AVC msg=audit(1700000100.000:900): " AVC_BODY "\n"
		"type=EOE msg=audit(1700000100.000:900): \n"
		"type=AVC msg=audit(1700000001.100:101): " AVC_BODY "\n"
		"type=SYSCALL msg=audit(1700000001.100:101): arch=c000003e syscall=257\n");

	assert_no_problems(c);
	assert_int_equal(c->events->len, 2);
	assert_int_equal(event_by_serial(c, NULL, 101)->records->len, 2);
}

/* journald lines (no stamp) after stamped records are still grouped */
static void test_journald_after_stamped(void **state)
{
	g_autoptr(Collect) c = read_str(
		"Dec 03 05:19:59 host kernel: audit: type=1400 audit(1701579599.000:44): "
		AVC_BODY "\n"
		"Dec 03 05:19:59 host kernel: audit: type=1320 audit(1701579599.000:44): \n"
		"Dec 03 05:20:00 host audit[123]: AVC avc:  denied  { getattr } for  pid=123 "
		"comm=\"b\" " CTX_S " " CTX_T " tclass=file permissive=0\n"
		"Dec 03 05:20:00 host audit[123]: SYSCALL arch=c000003e syscall=4 success=no "
		"exit=-13\n");

	assert_no_problems(c);
	assert_int_equal(c->events->len, 2);
	assert_int_equal(event_at(c, 1)->serial, 0);
	assert_int_equal(event_at(c, 1)->records->len, 2);
}

/*
 * A merged log of two nodes whose clocks differ by an hour: node b's
 * interleaved events must not be cut because node a's stamps are newer.
 */
static void test_interleaved_events_clock_skew(void **state)
{
	g_autoptr(Collect) c = read_str(
		"node=a type=AVC msg=audit(1700003600.000:5): " AVC_BODY "\n"
		"node=b type=AVC msg=audit(1700000000.000:9): " AVC_BODY "\n"
		"node=a type=EOE msg=audit(1700003600.000:5): \n"
		"node=b type=AVC msg=audit(1700000000.000:10): " AVC_BODY "\n"
		"node=b type=SYSCALL msg=audit(1700000000.000:9): arch=c000003e syscall=257\n"
		"node=b type=SYSCALL msg=audit(1700000000.000:10): arch=c000003e syscall=2\n");

	assert_no_problems(c);
	assert_int_equal(c->events->len, 3);
	assert_int_equal(event_by_serial(c, "b", 9)->records->len, 2);
	assert_int_equal(event_by_serial(c, "b", 10)->records->len, 2);
}

/* 100k single-record events in one second: must finish, one event each */
typedef struct {
	guint64 events;
	guint64 next_serial;
	gboolean in_order;
	gboolean one_record_each;
} FloodCount;

static void flood_event(AdEvent *ev, gpointer user_data)
{
	FloodCount *f = user_data;

	if (ev->serial != f->next_serial)
		f->in_order = FALSE;
	if (ev->records->len != 1 || ev->sec != 1700000000)
		f->one_record_each = FALSE;
	f->next_serial = ev->serial + 1;
	f->events++;
}

static void test_flood_same_second(void **state)
{
	FloodCount f = { 0, 1, TRUE, TRUE };
	g_autoptr(AdReader) r = ad_reader_new(flood_event, NULL, &f);
	GString *s = g_string_new(NULL);
	const guint n = 100000;

	for (guint i = 1; i <= n; i++)
		g_string_append_printf(s, "type=AVC msg=audit(1700000000.%03u:%u): " AVC_BODY "\n",
				       i % 1000, i);
	ad_reader_set_source(r, "flood.log");
	for (gsize pos = 0; pos < s->len; pos += 65536)
		ad_reader_feed(r, s->str + pos, MIN(65536, s->len - pos));
	ad_reader_end_source(r);
	g_string_free(s, TRUE);
	assert_int_equal(f.events, n);
	assert_true(f.in_order);
	assert_true(f.one_record_each);
	assert_int_equal(ad_reader_lines(r), n);
	assert_int_equal(ad_reader_records(r), n);
	assert_int_equal(ad_reader_rejected(r), 0);
}

static void test_counters(void **state)
{
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);
	static const char text[] =
		"[root@host ~]# ausearch -m avc -i\n"		/* not audit text */
		"\n"
		"type=PATH msg=audit(1700000001.100:5): item=0 name=\"/x\" type=CWD "
		"msg=audit(1700000001.100:5): cwd=\"/\"\n"		/* 2 records */
		"type=AVC msg=audit(1700000001.100:5): " AVC_BODY "\n"
		"type=AVC msg=audit(zzz): x\n"			/* rejected */
		"type=AVC msg=audit(1700000002.100:6): " AVC_BODY;

	ad_reader_feed(r, text, sizeof(text) - 1);
	ad_reader_end_source(r);
	assert_int_equal(ad_reader_lines(r), 6);
	assert_int_equal(ad_reader_records(r), 4);
	assert_int_equal(ad_reader_rejected(r), 1);
	assert_int_equal(c->events->len, 2);
	assert_int_equal(c->problems->len, 1);
}

/* where records run together on a line: never inside "...", node= goes with its record */
static void test_records_run_together(void **state)
{
	static const char text[] =
		/* a forged header inside a quoted value is text */
		"type=PATH msg=audit(1700000001.100:5): item=0 name=\"/x type=AVC msg=audit("
		"1700000001.100:5): y\" nametype=NORMAL "
		/* a real one after it, with its node */
		"node=web1 type=CWD msg=audit(1700000001.100:5): cwd=\"/\" "
		/* "type=" not preceded by a blank, then one after an unclosed quote */
		"x=atype=EOE msg=audit(1700000001.100:5): name=\"open "
		"type=CWD msg=audit(1700000001.100:5): cwd=\"/tmp\"\n";
	g_autoptr(Collect) c = read_str(text);
	g_autofree char *got = NULL;
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < c->events->len; i++) {
		AdEvent *ev = g_ptr_array_index(c->events, i);

		for (guint j = 0; j < ev->records->len; j++) {
			const AdRecord *rec = g_ptr_array_index(ev->records, j);

			g_string_append_printf(s, "%s|%s|%s\n", ev->node ? ev->node : "-",
					       rec->type_name, rec->body);
		}
	}
	got = g_string_free(s, FALSE);
	assert_string_equal(got,
		"-|PATH|item=0 name=\"/x type=AVC msg=audit(1700000001.100:5): y\" "
		"nametype=NORMAL\n"
		"web1|CWD|cwd=\"/\" x=atype=EOE msg=audit(1700000001.100:5): name=\"open "
		"type=CWD msg=audit(1700000001.100:5): cwd=\"/tmp\"\n");
	assert_int_equal(c->problems->len, 0);
}

static void test_age_emits(void **state)
{
	g_autoptr(Collect) c = collect_new();
	g_autoptr(AdReader) r = ad_reader_new(collect_event, collect_problem, c);
	static const char text[] = "type=AVC msg=audit(1700000001.100:5): " AVC_BODY "\n";

	ad_reader_feed(r, text, sizeof(text) - 1);
	ad_reader_age(r, 3600);
	assert_int_equal(c->events->len, 0);
	ad_reader_age(r, 0);
	assert_int_equal(c->events->len, 1);
	ad_reader_end_source(r);
	assert_int_equal(c->events->len, 1);
}

/* every corpus file reads without a crash or a problem it should not have */
static void test_corpus_reads(void **state)
{
	static const struct {
		const char *name;
		guint min_events;
	} files[] = {
		{ "selinux-sepolgen-tests-audit.txt", 20 },
		{ "selinux-sepolgen-test_data-audit.log", 1000 },
		{ "selinux-sepolgen-test_data-httpd.log", 3000 },
		{ "selinux-sepolgen-test_data-short.log", 6 },
		{ "selinux-audit2allow-test.log", 10 },
		{ "selinux-notebook-auditing-examples.log", 10 },
		{ "udica-tests-append_avc_file.log", 1 },
		{ "avc-parser-tpm-enforcing.log", 100 },
		{ "avc-parser-tpm-permissive.log", 100 },
		{ "avc-parser-dontaudit_AVC.log", 50 },
		{ "avc-parser-2AVC.log", 1 },
		{ "avc-parser-network_AVC.log", 1 },
		{ "avc-parser-multi_AVC.log", 2 },
		{ "avc-parser-test_pid_1039.log", 1 },
		{ "crafted/debian-refpolicy-cases.log", 15 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
		AdReader *r = NULL;
		g_autoptr(Collect) c = read_corpus(files[i].name, &r);

		if (c->events->len < files[i].min_events || c->problems->len)
			print_error("%s: %u events, %u problems\n", files[i].name,
				    c->events->len, c->problems->len);
		assert_true(c->events->len >= files[i].min_events);
		assert_no_problems(c);
		assert_int_equal(ad_reader_rejected(r), 0);
		ad_reader_free(r);
	}
}

/* ---------------------------------------------------------- value decoding */

static void test_decode_value(void **state)
{
	static const struct {
		const char *value;
		gboolean quoted, interpreted;
		const char *want;
		gsize want_len;
	} cases[] = {
		{ "cafe", TRUE, FALSE, "cafe", 4 },
		{ "cafe", FALSE, FALSE, "\xca\xfe", 2 },
		{ "cafe", FALSE, TRUE, "cafe", 4 },
		{ "CAFE", FALSE, FALSE, "\xca\xfe", 2 },
		{ "abc", FALSE, FALSE, "abc", 3 },			/* odd length */
		{ "00", FALSE, FALSE, "\0", 1 },
		{ "610062", FALSE, FALSE, "a\0b", 3 },
		{ "(null)", FALSE, FALSE, "(null)", 6 },
		{ "(none)", FALSE, FALSE, "(none)", 6 },
		{ "", FALSE, FALSE, "", 0 },
		{ "1b5b324a0a", FALSE, FALSE, "\x1b[2J\n", 5 },
		{ "zz", FALSE, FALSE, "zz", 2 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GBytes) b = ad_decode_value(cases[i].value, cases[i].quoted,
						      cases[i].interpreted);
		gsize len;
		const void *data = g_bytes_get_data(b, &len);

		assert_int_equal(len, cases[i].want_len);
		if (len)
			assert_memory_equal(data, cases[i].want, len);
	}
}

static void test_record_field_access(void **state)
{
	g_autoptr(Collect) c = read_str(
		"type=AVC msg=audit(1700000001.100:5): avc:  denied  { read } for name=\"cafe\" "
		"comm=6361666500 path=2F746D702F6120620A scontext=a:b:c scontext=d:e:f tcontext=a:b:c "
		"tclass=file\n");
	const AdRecord *rec;
	AdBytes name, comm, path, none;

	assert_int_equal(c->events->len, 1);
	rec = record_at(event_at(c, 0), 0);
	name = ad_record_bytes(rec, "name");
	comm = ad_record_bytes(rec, "comm");
	path = ad_record_bytes(rec, "path");
	none = ad_record_bytes(rec, "nosuchfield");
	assert_int_equal(name.len, 4);
	assert_memory_equal(name.data, "cafe", 4);
	assert_int_equal(comm.len, 5);
	assert_memory_equal(comm.data, "cafe\0", 5);
	assert_int_equal(path.len, 9);
	assert_memory_equal(path.data, "/tmp/a b\n", 9);
	assert_null(none.data);
	assert_string_equal(ad_record_get(rec, "scontext"), "a:b:c");
	assert_string_equal(ad_record_get_last(rec, "scontext"), "d:e:f");
	assert_int_equal(field_count(rec, "scontext"), 2);
	assert_int_equal(field_count(rec, "nosuchfield"), 0);
	assert_null(ad_record_get_last(rec, "nosuchfield"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_records),
		cmocka_unit_test(test_node_prefix),
		cmocka_unit_test(test_second_record_at_every_offset),
		cmocka_unit_test(test_records_on_one_line),
		cmocka_unit_test(test_split_respects_quotes),
		cmocka_unit_test(test_ausearch_raw),
		cmocka_unit_test(test_separator_flushes),
		cmocka_unit_test(test_ausearch_interpreted),
		cmocka_unit_test(test_interpreted_stamp_variants),
		cmocka_unit_test(test_interpreted_user_avc),
		cmocka_unit_test(test_dmesg),
		cmocka_unit_test(test_journal_kernel),
		cmocka_unit_test(test_journald_audit),
		cmocka_unit_test(test_journald_audit_without_pid),
		cmocka_unit_test(test_enriched),
		cmocka_unit_test(test_giant_event),
		cmocka_unit_test(test_last_line_without_newline),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_mixed_whole),
		cmocka_unit_test(test_feed_every_split),
		cmocka_unit_test(test_feed_byte_by_byte),
		cmocka_unit_test(test_feed_random_chunks),
		cmocka_unit_test(test_utf8_split_across_feeds),
		cmocka_unit_test(test_long_line_rejected),
		cmocka_unit_test(test_line_at_limit_accepted),
		cmocka_unit_test(test_long_last_line_rejected),
		cmocka_unit_test(test_long_line_counted),
		cmocka_unit_test(test_nul_in_line),
		cmocka_unit_test(test_read_file_nul_and_gs),
		cmocka_unit_test(test_malformed_stamps),
		cmocka_unit_test(test_stamp_prefixes),
		cmocka_unit_test(test_malformed_stamp_second_record),
		cmocka_unit_test(test_read_file_errors),
		cmocka_unit_test(test_interleaved_events),
		cmocka_unit_test(test_record_after_its_eoe),
		cmocka_unit_test(test_same_serial_two_nodes),
		cmocka_unit_test(test_interleaved_events_clock_skew),
		cmocka_unit_test(test_older_source_after_newer),
		cmocka_unit_test(test_older_event_after_newer),
		cmocka_unit_test(test_journald_after_stamped),
		cmocka_unit_test(test_flood_same_second),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_records_run_together),
		cmocka_unit_test(test_age_emits),
		cmocka_unit_test(test_corpus_reads),
		cmocka_unit_test(test_decode_value),
		cmocka_unit_test(test_record_field_access),
	};

	/* interpreted timestamps are local time: the tests expect UTC */
	g_setenv("TZ", "UTC", TRUE);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
