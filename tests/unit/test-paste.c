// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for pasted text (read/paste.c through the reader): each
 * cleaning rule, the cases where cleaning must not happen, denials without
 * a readable header, and `ausearch -i` dates in every locale order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "read/compress.h"
#include "read/denial.h"
#include "read/event.h"
#include "read/inputs.h"
#include "read/reader.h"

/* ---------------------------------------------------------------- helpers */

typedef struct {
	GPtrArray *denials;	/* AdDenial* */
	GPtrArray *events;	/* AdEvent*, referenced */
	GPtrArray *problems;	/* "LINE: message" */
	GPtrArray *notes;	/* "LINE: message" */
} Got;

static void on_event(AdEvent *ev, gpointer user_data)
{
	Got *g = user_data;

	g_ptr_array_add(g->events, ad_event_ref(ev));
	ad_event_build_denials(ev, g->denials, NULL, NULL);
}

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	g_ptr_array_add(((Got *)user_data)->problems, g_strdup_printf("%u: %s", line, message));
}

/* a record the denial builder refused, "LINE: message" into the array @user_data */
static void on_denial_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	g_ptr_array_add(user_data, g_strdup_printf("%u: %s", rec->line, message));
}

static void on_note(const char *file, guint line, const char *message, gpointer user_data)
{
	g_ptr_array_add(((Got *)user_data)->notes, g_strdup_printf("%u: %s", line, message));
}

static void got_free(Got *g)
{
	g_ptr_array_unref(g->denials);
	g_ptr_array_unref(g->events);
	g_ptr_array_unref(g->problems);
	g_ptr_array_unref(g->notes);
	g_free(g);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Got, got_free)

/* reads @text in one piece, or a byte at a time when @bytewise */
static Got *read_paste(const char *text, gboolean bytewise)
{
	Got *g = g_new0(Got, 1);
	g_autoptr(AdReader) r = NULL;

	g->denials = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g->events = g_ptr_array_new_with_free_func((GDestroyNotify)ad_event_unref);
	g->problems = g_ptr_array_new_with_free_func(g_free);
	g->notes = g_ptr_array_new_with_free_func(g_free);
	r = ad_reader_new(on_event, on_problem, g);
	ad_reader_set_note_func(r, on_note);
	ad_reader_set_source(r, "paste.txt");
	if (bytewise) {
		for (gsize i = 0; text[i]; i++)
			ad_reader_feed(r, text + i, 1);
	} else {
		ad_reader_feed(r, text, strlen(text));
	}
	ad_reader_end_source(r);
	return g;
}

static AdDenial *denial_at(Got *g, guint i)
{
	assert_true(i < g->denials->len);
	return g_ptr_array_index(g->denials, i);
}

/* "perms|scontext type|tcontext type|tclass" of a denial, for comparing */
static char *denial_key(const AdDenial *d)
{
	g_autofree char *perms = NULL;
	g_autofree char *s = ad_context_type(d->scontext);
	g_autofree char *t = ad_context_type(d->tcontext);
	GString *p = g_string_new(NULL);

	for (guint i = 0; i < d->perms->len; i++)
		g_string_append_printf(p, "%s%s", i ? "," : "",
				       (char *)g_ptr_array_index(d->perms, i));
	perms = g_string_free(p, FALSE);
	return g_strdup_printf("%s|%s|%s|%s", perms, s, t, d->tclass);
}

#define S "scontext=system_u:system_r:httpd_t:s0"
#define T "tcontext=unconfined_u:object_r:user_home_t:s0"
#define BODY "avc:  denied  { read } for  pid=1234 comm=\"httpd\" name=\"index.html\" " \
	"dev=\"dm-0\" ino=42 " S " " T " tclass=file permissive=0"
#define HDR(n) "type=AVC msg=audit(1700000000.100:" #n "): "
#define REC(n) HDR(n) BODY
#define KEY "read|httpd_t|user_home_t|file"

/* each form, alone: one denial, with the right access and header */
static void test_forms(void **state)
{
	static const struct {
		const char *what;
		const char *text;
		guint64 serial;		/* 0: no readable header */
	} cases[] = {
		{ "clean", REC(7) "\n", 7 },
		{ "grep -n", "6:" REC(7) "\n", 7 },
		{ "grep -n context line", "6-" REC(7) "\n", 7 },
		{ "grep -H", "audit.log:" REC(7) "\n", 7 },
		{ "grep -H -n", "/var/log/audit/audit.log.1:42:" REC(7) "\n", 7 },
		{ "quote marker", "> " REC(7) "\n", 7 },
		{ "nested quotes", ">> " REC(7) "\n", 7 },
		{ "quote without space", ">" REC(7) "\n", 7 },
		{ "nested quotes with spaces", "> > " REC(7) "\n", 7 },
		{ "indentation", "\t    " REC(7) "\n", 7 },
		{ "lost first letter", "ype=AVC msg=audit(1700000000.100:7): " BODY "\n", 7 },
		{ "lost first letter after grep -n", "6:ype=AVC msg=audit(1700000000.100:7): "
		  BODY "\n", 7 },
		{ "ANSI colours", "\x1b[01;31m\x1b[Ktype=AVC\x1b[m\x1b[K msg=audit(1700000000.100:7): "
		  "avc:  \x1b[1;31mdenied\x1b[0m  { read } for  pid=1234 comm=\"httpd\" " S " " T
		  " tclass=file\n", 7 },
		{ "CRLF", REC(7) "\r\n", 7 },
		{ "syslog prefix", "Nov 19 15:26:24 web1 kernel: " REC(7) "\n", 7 },
		{ "old kernel form", "Nov 19 15:26:24 web1 kernel: audit(1700000000.100:7): "
		  BODY "\n", 7 },
		{ "header without stamp", "type=AVC " BODY "\n", 0 },
		{ "header with a broken stamp", "type=AVC msg=audit(19 Nov 2024 15:26): " BODY
		  "\n", 0 },
		{ "bare avc", BODY "\n", 0 },
		{ "bare avc with a prefix", "[ 1234.5678] SELinux: " BODY "\n", 0 },
		{ "bare avc quoted", "> " BODY "\n", 0 },
	};
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		for (int bytewise = 0; bytewise < 2; bytewise++) {
			g_autoptr(Got) g = read_paste(cases[i].text, bytewise);
			g_autofree char *key = g->denials->len == 1
					       ? denial_key(denial_at(g, 0)) : NULL;
			AdDenial *d = g->denials->len == 1 ? denial_at(g, 0) : NULL;

			if (!d || strcmp(key, KEY) != 0 || g->problems->len ||
			    d->event->serial != cases[i].serial ||
			    (cases[i].serial ? d->event->sec != 1700000000 : d->event->sec != 0) ||
			    g->notes->len != (cases[i].serial ? 0u : 1u)) {
				print_error("%s%s: %u denials (%s), %u problems (%s), %u notes, "
					    "serial %" G_GUINT64_FORMAT "\n", cases[i].what,
					    bytewise ? " (bytewise)" : "", g->denials->len,
					    key ? key : "-", g->problems->len,
					    g->problems->len ? (char *)g->problems->pdata[0] : "",
					    g->notes->len, d ? d->event->serial : 0);
				failures++;
			}
		}
	}
	assert_int_equal(failures, 0);
}

/* @text as a terminal of @width columns shows it, then a prompt */
static char *hard_wrap(const char *text, gsize width)
{
	GString *s = g_string_new(NULL);

	for (gsize n = strlen(text), i = 0; i < n; i += width)
		g_string_append_printf(s, "%.*s\n", (int)MIN(width, n - i), text + i);
	g_string_append(s, "$ \n");
	return g_string_free(s, FALSE);
}

/* lines a mailer or a forum wrapped, in each way a wrap falls */
static void test_wrapped(void **state)
{
	static const struct {
		const char *what;
		const char *text;
		guint64 serial;
		const char *comm, *name;
	} cases[] = {
		{ "at spaces (72 columns)",
		  "type=AVC msg=audit(1700000000.100:7): avc:  denied  { read } for\n"
		  "pid=1234 comm=\"httpd\" name=\"index.html\" dev=\"dm-0\" ino=42\n"
		  S "\n" T "\ntclass=file permissive=0\n", 7, "httpd", "index.html" },
		{ "hard at 80 columns, inside values", NULL, 7, "httpd", "index.html" },
		{ "inside the permissions",
		  "type=AVC msg=audit(1700000000.100:7): avc:  denied  {\n"
		  "read } for  pid=1234 comm=\"httpd\" " S "\n" T " tclass=file\n", 7, "httpd", NULL },
		{ "indented continuation",
		  "type=AVC msg=audit(1700000000.100:7): avc:  denied  { read } for  pid=1234\n"
		  "    comm=\"httpd\" name=\"index.html\" " S "\n    " T " tclass=file\n",
		  7, "httpd", "index.html" },
		{ "quoted mail",
		  "> type=AVC msg=audit(1700000000.100:7): avc:  denied  { read } for  pid=1234\n"
		  "> comm=\"httpd\" name=\"index.html\" " S "\n> " T " tclass=file\n",
		  7, "httpd", "index.html" },
		{ "bare avc",
		  "avc:  denied  { read } for  pid=1234 comm=\"httpd\" name=\"index.html\"\n"
		  S " " T "\ntclass=file\n", 0, "httpd", "index.html" },
	};
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *cut = cases[i].text ? NULL : hard_wrap(REC(7), 80);
		g_autoptr(Got) g = read_paste(cut ? cut : cases[i].text, FALSE);
		AdDenial *d = g->denials->len == 1 ? denial_at(g, 0) : NULL;
		g_autofree char *key = d ? denial_key(d) : NULL;

		if (!d || strcmp(key, KEY) != 0 || g->problems->len ||
		    /* the prompt after it is no part of it */
		    strchr(d->record->text, '$') ||
		    d->event->serial != cases[i].serial || d->pid != 1234 ||
		    !ad_bytes_equal_str(d->comm, cases[i].comm) ||
		    (cases[i].name && !ad_bytes_equal_str(d->name, cases[i].name))) {
			print_error("%s: %u denials (%s), %u problems (%s)\n", cases[i].what,
				    g->denials->len, key ? key : "-", g->problems->len,
				    g->problems->len ? (char *)g->problems->pdata[0] : "");
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/* where cleaning must not happen: values stay what they are */
static void test_hostile(void **state)
{
	/* an ausearch -i path holding "> ": the record is one line, nothing is cut */
	{
		g_autoptr(Got) g = read_paste(
			"type=AVC msg=audit(11/14/2023 22:13:20.100:7) : avc:  denied  { read } for "
			" pid=1234 comm=httpd path=/srv/a> b/c " S " " T " tclass=file\n", FALSE);

		assert_int_equal(g->denials->len, 1);
		assert_true(ad_bytes_equal_str(denial_at(g, 0)->path, "/srv/a> b/c"));
	}
	/* a comm holding "type=AVC": one record, the comm as it was */
	{
		g_autoptr(Got) g = read_paste(
			HDR(7) "avc:  denied  { read } for  pid=1234 comm=\"type=AVC\" " S " " T
			" tclass=file\n", FALSE);

		assert_int_equal(g->events->len, 1);
		assert_int_equal(g->denials->len, 1);
		assert_true(ad_bytes_equal_str(denial_at(g, 0)->comm, "type=AVC"));
	}
	/* ... and "6:type=AVC" in a comm of a bare line is no grep prefix */
	{
		g_autoptr(Got) g = read_paste(
			"avc:  denied  { read } for  pid=1234 comm=\"6:type=AVC\" " S " " T
			" tclass=file\n", FALSE);

		assert_int_equal(g->denials->len, 1);
		assert_true(ad_bytes_equal_str(denial_at(g, 0)->comm, "6:type=AVC"));
	}
	/* an escape sequence inside a hex-encoded field stays encoded, and decodes whole */
	{
		g_autoptr(Got) g = read_paste(
			HDR(7) "avc:  denied  { read } for  pid=1234 comm=1B5B33316D78 "
			"name=1B5D303B7469746C6507 " S " " T " tclass=file\n", FALSE);
		AdDenial *d;

		assert_int_equal(g->denials->len, 1);
		d = denial_at(g, 0);
		assert_int_equal(d->comm.len, 6);
		assert_memory_equal(d->comm.data, "\x1b[31mx", 6);
		assert_int_equal(d->name.len, 10);
		assert_memory_equal(d->name.data, "\x1b]0;title\x07", 10);
	}
	/* prose after a short record is not part of it */
	{
		g_autoptr(Got) g = read_paste(
			HDR(7) "avc:  denied  { read } for  pid=1234 " S " " T " tclass=file\n"
			"Thanks for any help!\n"
			"9\n", FALSE);
		const AdRecord *rec;

		assert_int_equal(g->denials->len, 1);
		rec = g_ptr_array_index(denial_at(g, 0)->event->records, 0);
		assert_non_null(g_str_has_suffix(rec->text, "tclass=file") ? rec : NULL);
		assert_int_equal(denial_at(g, 0)->pid, 1234);
	}
	/* a record behind a grep prefix after a short record starts one of its own */
	{
		g_autoptr(Got) g = read_paste(
			"5:type=CWD msg=audit(1700000000.100:7): cwd=\"/\"\n"
			"6:type=PATH msg=audit(1700000000.100:7): item=0 name=\"/x\"\n"
			"7:" REC(7) "\n", FALSE);

		assert_int_equal(g->events->len, 1);
		assert_int_equal(((AdEvent *)g->events->pdata[0])->records->len, 3);
		assert_int_equal(g->problems->len, 0);
	}
	/* a sentence quoting a denial is no record */
	{
		g_autoptr(Got) g = read_paste(
			"I keep getting \"avc: denied { read }\" in the log.\n", FALSE);

		assert_int_equal(g->denials->len, 0);
		assert_int_equal(g->events->len, 0);
		assert_int_equal(g->problems->len, 0);
	}
	/* a broken denial without a header is still rejected */
	{
		g_autoptr(Got) g = read_paste(
			"type=AVC msg=audit(oops): avc:  denied  { read } for " S " tclass=file\n"
			REC(8) "\n", FALSE);

		assert_int_equal(g->problems->len, 1);
		assert_non_null(strstr(g->problems->pdata[0], "timestamp"));
		assert_int_equal(g->denials->len, 1);
		assert_int_equal(denial_at(g, 0)->event->serial, 8);
	}
	/* a quoted continuation under an unquoted record is not one */
	{
		g_autoptr(Got) g = read_paste(
			HDR(7) "avc:  denied  { read } for  pid=1234 name=\"index.html\"\n"
			"> " S " " T " tclass=file\n", FALSE);

		/* the record stays as it was: its denial is incomplete, and rejected */
		assert_int_equal(g->denials->len, 0);
	}
}

/* lines of fields after a short record: joined up to a bound, in linear time */
static void test_wrap_bounded(void **state)
{
	GString *text = g_string_new(HDR(7) "avc:  denied  { read } for  pid=1234\n"
				     S " " T " tclass=file\n");
	g_autoptr(Got) g = NULL;
	const AdRecord *rec;

	for (guint i = 0; i < 100000; i++)
		g_string_append_printf(text, "a%u=b\n", i);
	g = read_paste(text->str, FALSE);
	g_string_free(text, TRUE);
	assert_int_equal(g->denials->len, 1);
	rec = denial_at(g, 0)->record;
	assert_true(strlen(rec->text) < 16384);
	assert_non_null(strstr(rec->text, " a0=b a1=b"));
	assert_null(strstr(rec->text, " a64=b"));
}

/* header-less denials: one note per input, with the first line and the count */
static void test_headerless_note(void **state)
{
	g_autoptr(Got) g = read_paste(
		"some text\n"
		REC(1) "\n"
		"type=AVC " BODY "\n"
		BODY "\n"
		"type=SYSCALL arch=c000003e syscall=2 success=no exit=-13\n"
		"type=AVC msg=audit(?): " BODY "\n", FALSE);

	assert_int_equal(g->denials->len, 4);
	assert_int_equal(g->problems->len, 0);
	assert_int_equal(g->notes->len, 1);
	assert_non_null(strstr(g->notes->pdata[0], "3: 3 denial records"));
	/* each stands alone: nothing without a serial joins it */
	for (guint i = 1; i < 4; i++) {
		assert_int_equal(denial_at(g, i)->event->records->len, 1);
		assert_int_equal(denial_at(g, i)->event->serial, 0);
	}
	/* in input order */
	assert_int_equal(denial_at(g, 0)->event->serial, 1);
}

/* dbus-broker's "Unknown class" notice: the class the policy lacks, not dropped */
static void test_unknown_class_notice(void **state)
{
	g_autoptr(Got) g = read_paste(
		"Nov 19 10:00:00 host audit[1119]: USER_AVC pid=1119 uid=81 auid=4294967295 "
		"ses=4294967295 subj=system_u:system_r:system_dbusd_t:s0-s0:c0.c1023 "
		"msg='Unknown class dbus exe=\"/usr/bin/dbus-broker\" sauid=81 hostname=? "
		"addr=? terminal=?'\n", FALSE);
	AdDenial *d;

	assert_int_equal(g->denials->len, 1);
	d = denial_at(g, 0);
	assert_string_equal(d->tclass, "dbus");
	assert_int_equal(d->perms->len, 0);
	assert_string_equal(d->scontext, "system_u:system_r:system_dbusd_t:s0-s0:c0.c1023");
	assert_true(ad_bytes_equal_str(d->exe, "/usr/bin/dbus-broker"));
	assert_int_equal(d->pid, 1119);
}

/* `ausearch -i` dates, TZ=UTC */
static void test_dates(void **state)
{
	static const struct {
		const char *stamp;
		gint64 sec;
	} cases[] = {
		{ "19.11.2024 15:26:24.707:5", 1732029984 },
		{ "19.11.24 15:26:24.707:5", 1732029984 },
		{ "08.12.2023 15:26:24:5", 1702049184 },
		{ "19/11/2024 15:26:24.707:5", 1732029984 },
		{ "11/19/2024 15:26:24.707:5", 1732029984 },
		{ "11/19/24 15:26:24:5", 1732029984 },
		{ "2024-11-19 15:26:24.707:5", 1732029984 },
		{ "2024/11/19 15:26:24.707:5", 1732029984 },
		{ "19-11-24 15:26:24.707:5", 1732029984 },
		{ "20.2.2024 03:14:09.354:5", 1708398849 },	/* cs_CZ: no leading zero */
		{ "12/31/1969 19:00:08.000:5", -17992 },	/* before 1970: a date too */
		{ "2024. 11. 19. 15:26:24.707:5", -1 },	/* not a form ausearch prints */
	};
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf(
			"type=AVC msg=audit(%s) : avc:  denied  { read } for  pid=1 comm=x " S " "
			T " tclass=file\n", cases[i].stamp);
		g_autoptr(Got) g = read_paste(text, FALSE);
		AdDenial *d = g->denials->len == 1 ? denial_at(g, 0) : NULL;

		if (!d || (cases[i].sec != -1 && (d->event->sec != cases[i].sec ||
						 d->event->serial != 5))) {
			print_error("%s: %u denials, sec %" G_GINT64_FORMAT "\n", cases[i].stamp,
				    g->denials->len, d ? d->event->sec : 0);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

#define IREC(date, n) "type=AVC msg=audit(" date " 10:00:00.000:" #n ") : avc:  denied  " \
	"{ read } for  pid=1 comm=x " S " " T " tclass=file\n"

/* ambiguous day and month: decided for the input by a date that tells, else by order */
static void test_date_order(void **state)
{
	/* 13/03 comes later and tells: day first, for the first records too */
	{
		g_autoptr(Got) g = read_paste(IREC("04/03/2024", 1) IREC("05/03/2024", 2)
					      IREC("13/03/2024", 3), FALSE);

		assert_int_equal(g->denials->len, 3);
		assert_int_equal(denial_at(g, 0)->event->sec, 1709546400);	/* 4 March */
		assert_int_equal(denial_at(g, 2)->event->sec, 1710324000);	/* 13 March */
		assert_int_equal(g->notes->len, 0);
	}
	/* 03/13 tells month first */
	{
		g_autoptr(Got) g = read_paste(IREC("03/04/2024", 1) IREC("03/13/2024", 2), FALSE);

		assert_int_equal(denial_at(g, 0)->event->sec, 1709546400);	/* 4 March */
		assert_int_equal(g->notes->len, 0);
	}
	/* nothing tells: 01/02 then 02/01 is in order only day first (1 Feb, 2 Jan
	 * is not; 2 Jan, 1 Feb is), said once */
	{
		g_autoptr(Got) g = read_paste(IREC("02/01/2024", 1) IREC("01/02/2024", 2)
					      IREC("01/02/2024", 3), FALSE);

		assert_int_equal(g->denials->len, 3);
		assert_int_equal(denial_at(g, 0)->event->sec, 1704189600);	/* 2 January */
		assert_int_equal(denial_at(g, 1)->event->sec, 1706781600);	/* 1 February */
		assert_int_equal(g->notes->len, 1);
		assert_non_null(strstr(g->notes->pdata[0], "day/month/year"));
	}
	/* nothing tells and both orders keep the dates in sequence: month first, said */
	{
		g_autoptr(Got) g = read_paste(IREC("03/04/2024", 1), FALSE);

		assert_int_equal(denial_at(g, 0)->event->sec, 1709546400);
		assert_int_equal(g->notes->len, 1);
		assert_non_null(strstr(g->notes->pdata[0], "month/day/year"));
	}
	/* a date that contradicts an assumption is read its own way: never dropped */
	{
		g_autoptr(Got) g = read_paste(IREC("03/04/2024", 1) "\n\n" IREC("25/04/2024", 2),
					      TRUE);

		assert_int_equal(g->denials->len, 2);
		assert_int_equal(g->problems->len, 0);
		assert_int_equal(denial_at(g, 1)->event->sec, 1714039200);	/* 25 April */
	}
}

/* ---------------------------------------------------------------- compressed logs */

static const char log_text[] = REC(1) "\n" REC(2) "\n" REC(3) "\n";

static GBytes *gzip_of(const char *text, gsize len)
{
	z_stream z = { 0 };
	gsize cap = len + 1024;
	guchar *out = g_malloc(cap);

	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)text;
	z.avail_in = len;
	z.next_out = out;
	z.avail_out = cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	deflateEnd(&z);
	return g_bytes_new_take(out, z.total_out);
}

static GBytes *xz_of(const char *text, gsize len)
{
	gsize cap = len + 1024, pos = 0;
	guchar *out = g_malloc(cap);

	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text,
						 len, out, &pos, cap), LZMA_OK);
	return g_bytes_new_take(out, pos);
}

static GBytes *zstd_of(const char *text, gsize len)
{
	gsize cap = ZSTD_compressBound(len);
	void *out = g_malloc(cap);
	size_t n = ZSTD_compress(out, cap, text, len, 3);

	assert_false(ZSTD_isError(n));
	return g_bytes_new_take(out, n);
}

/* reads file @path: the serials of its denials, "1 2 3", and the error if any */
static char *read_serials(const char *path, char **ret_error)
{
	Got *g = g_new0(Got, 1);
	g_autoptr(Got) owner = g;
	g_autoptr(AdReader) r = NULL;
	g_autoptr(GError) error = NULL;
	GString *s = g_string_new(NULL);

	g->denials = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g->events = g_ptr_array_new_with_free_func((GDestroyNotify)ad_event_unref);
	g->problems = g_ptr_array_new_with_free_func(g_free);
	g->notes = g_ptr_array_new_with_free_func(g_free);
	r = ad_reader_new(on_event, on_problem, g);
	if (!ad_reader_read_file(r, path, &error))
		*ret_error = g_strdup(error->message);
	for (guint i = 0; i < g->denials->len; i++)
		g_string_append_printf(s, "%s%" G_GUINT64_FORMAT, i ? " " : "",
				       denial_at(g, i)->event->serial);
	return g_string_free(s, FALSE);
}

static char *write_tmp(const char *name, const void *data, gsize len)
{
	char *path = g_build_filename(g_get_tmp_dir(), name, NULL);

	assert_true(g_file_set_contents(path, data, len, NULL));
	return path;
}

/* gzip, xz and zstd, known by their first bytes, not by their names */
static void test_compressed(void **state)
{
	gsize len = strlen(log_text);
	GBytes *packed[] = { gzip_of(log_text, len), xz_of(log_text, len),
			     zstd_of(log_text, len) };
	g_autofree char *pid = g_strdup_printf("%d", (int)getpid());

	for (guint i = 0; i < G_N_ELEMENTS(packed); i++) {
		gsize n;
		const char *data = g_bytes_get_data(packed[i], &n);
		/* named as a plain log: the content decides */
		g_autofree char *name = g_strdup_printf("ad-paste-%s-%u.log", pid, i);
		g_autofree char *path = write_tmp(name, data, n);
		g_autofree char *cut_name = g_strdup_printf("ad-paste-%s-%u-cut.gz", pid, i);
		g_autofree char *cut = write_tmp(cut_name, data, n - 8);
		g_autofree char *err = NULL, *cut_err = NULL;
		g_autofree char *serials = read_serials(path, &err);
		g_autofree char *cut_serials = read_serials(cut, &cut_err);

		assert_null(err);
		assert_string_equal(serials, "1 2 3");
		/* cut short: said, and what came before is read */
		assert_non_null(cut_err);
		assert_non_null(strstr(cut_err, cut));
		g_unlink(path);
		g_unlink(cut);
		g_bytes_unref(packed[i]);
	}
	/* two gzip members, as `cat a.gz b.gz` makes them; a plain log named .gz */
	{
		g_autoptr(GBytes) a = gzip_of(REC(1) "\n", strlen(REC(1) "\n"));
		g_autoptr(GBytes) b = gzip_of(REC(2) "\n", strlen(REC(2) "\n"));
		GByteArray *both = g_byte_array_new();
		g_autofree char *name = g_strdup_printf("ad-paste-%s-two.gz", pid);
		g_autofree char *path = NULL, *plain = NULL, *err = NULL, *serials = NULL;
		g_autofree char *plain_name = g_strdup_printf("ad-paste-%s-plain.gz", pid);
		g_autofree char *plain_serials = NULL;

		g_byte_array_append(both, g_bytes_get_data(a, NULL), g_bytes_get_size(a));
		g_byte_array_append(both, g_bytes_get_data(b, NULL), g_bytes_get_size(b));
		path = write_tmp(name, both->data, both->len);
		serials = read_serials(path, &err);
		assert_null(err);
		assert_string_equal(serials, "1 2");
		plain = write_tmp(plain_name, log_text, len);
		plain_serials = read_serials(plain, &err);
		assert_string_equal(plain_serials, "1 2 3");
		g_unlink(path);
		g_unlink(plain);
		g_byte_array_unref(both);
	}
}

/* reads @data written to a temporary file: the serials, and the error in @ret_error */
static char *read_bytes(const char *tag, const void *data, gsize len, char **ret_error)
{
	g_autofree char *name = g_strdup_printf("ad-paste-%d-%s", (int)getpid(), tag);
	g_autofree char *path = write_tmp(name, data, len);
	char *serials = read_serials(path, ret_error);

	g_unlink(path);
	return serials;
}

/*
 * An xz stream of @text whose block header claims a dictionary of 4 GiB
 * (properties byte 40), its header CRC32 made right again: liblzma would
 * reserve that much before it reads a byte of data.
 */
static GBytes *xz_claiming_4gib(const char *text, gsize len)
{
	g_autoptr(GBytes) xz = xz_of(text, len);
	gsize n = g_bytes_get_size(xz), pos = 12 + 2;
	guchar *b = g_memdup2(g_bytes_get_data(xz, NULL), n);
	gsize hsize = (b[12] + 1) * 4;
	guint8 flags = b[13];
	uLong crc;

	/* the compressed and uncompressed sizes, when present, are varints */
	for (int bit = 0x40; bit <= 0x80; bit <<= 1)
		if (flags & bit)
			while (b[pos++] & 0x80)
				;
	assert_int_equal(b[pos], 0x21);		/* LZMA2 */
	assert_int_equal(b[pos + 1], 1);	/* one byte of properties */
	b[pos + 2] = 40;
	crc = crc32(0, b + 12, hsize - 4);
	for (int i = 0; i < 4; i++)
		b[12 + hsize - 4 + i] = (crc >> (8 * i)) & 0xff;
	return g_bytes_new_take(b, n);
}

/*
 * A zstd frame by hand: no content size, window descriptor @wd (window log
 * 10 + @wd / 8), then @text as one raw block.
 */
static GBytes *zstd_frame_with_window(guint8 wd, const char *text, gsize len)
{
	GByteArray *f = g_byte_array_new();
	guint32 bh = 1 | ((guint32)len << 3);		/* last block, raw, its size */
	guint8 head[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00, wd,
			  bh & 0xff, (bh >> 8) & 0xff, (bh >> 16) & 0xff };

	g_byte_array_append(f, head, sizeof(head));
	g_byte_array_append(f, (const guint8 *)text, len);
	return g_byte_array_free_to_bytes(f);
}

/*
 * A zstd frame of @blocks RLE blocks of 128 KiB each: 4 bytes of input a
 * block, @blocks * 128 KiB of output
 */
static GBytes *zstd_rle_bomb(guint blocks)
{
	GByteArray *f = g_byte_array_new();
	static const guint8 head[] = { 0x28, 0xb5, 0x2f, 0xfd, 0x00, 10 << 3 };

	g_byte_array_append(f, head, sizeof(head));
	for (guint i = 0; i < blocks; i++) {
		/* RLE (type 1), 128 KiB, the last one marked */
		guint32 bh = (i + 1 == blocks) | (1 << 1) | ((guint32)(128 << 10) << 3);
		guint8 b[] = { bh & 0xff, (bh >> 8) & 0xff, (bh >> 16) & 0xff, 'A' };

		g_byte_array_append(f, b, sizeof(b));
	}
	return g_byte_array_free_to_bytes(f);
}

typedef struct {
	guint64 len;
	gboolean other;		/* a byte other than 'A' or NUL came out */
} Sink;

static void sink_out(char *buf, gsize len, gpointer user_data)
{
	Sink *k = user_data;

	for (gsize i = 0; i < len; i++)
		k->other |= buf[i] != 'A' && buf[i] != '\0';
	k->len += len;
}

/*
 * What one compressed file gives is bounded: each format stops at the
 * bound, hands over exactly what fits and says why; 4 GiB of zstd RLE
 * blocks (128 KiB of input) are refused at the bound, not decompressed
 */
static void test_compressed_output_bound(void **state)
{
	gsize big = 3u << 20;
	g_autofree char *zeros = g_malloc0(big);
	GBytes *packed[] = { gzip_of(zeros, big), xz_of(zeros, big), zstd_of(zeros, big),
			     zstd_rle_bomb(32768) };

	(void)state;
	assert_true(g_bytes_get_size(packed[3]) < (200u << 10));
	for (guint i = 0; i < G_N_ELEMENTS(packed); i++) {
		const guint8 *in = g_bytes_get_data(packed[i], NULL);
		g_autoptr(AdInflate) z = ad_inflate_new(ad_compression_of(in, 6));
		const char *err = NULL;
		Sink k = { 0 };
		gboolean ok;

		ad_inflate_set_output_max(z, 1u << 20);
		ok = ad_inflate_feed(z, in, g_bytes_get_size(packed[i]), sink_out, &k, &err);
		if (ok)
			ok = ad_inflate_finish(z, sink_out, &k, &err);
		assert_false(ok);
		assert_non_null(err);
		assert_non_null(strstr(err, "1 MiB"));
		assert_true(k.len == (1u << 20));
		assert_false(k.other);
		g_bytes_unref(packed[i]);
	}
	/* the default bound is far above a rotated log */
	assert_true(AD_INFLATE_OUTPUT_MAX >= (G_GUINT64_CONSTANT(1) << 32));
}

/* headers that claim more memory than any real log needs: refused, said so, bounded */
static void test_compressed_crafted(void **state)
{
	gsize len = strlen(log_text);

	/* xz: a 4 GiB dictionary */
	{
		g_autoptr(GBytes) xz = xz_claiming_4gib(log_text, len);
		g_autofree char *err = NULL;
		g_autofree char *serials = read_bytes("dict.xz", g_bytes_get_data(xz, NULL),
						      g_bytes_get_size(xz), &err);

		assert_non_null(err);
		assert_non_null(strstr(err, "memory"));
		/* the message names the file */
		assert_non_null(strstr(err, "-dict.xz: "));
		assert_string_equal(serials, "");
	}
	/* zstd: a 2 GiB window refused; the same frame with a 1 MiB window is read */
	{
		g_autoptr(GBytes) big = zstd_frame_with_window(21 << 3, log_text, len);
		g_autoptr(GBytes) small = zstd_frame_with_window(10 << 3, log_text, len);
		g_autofree char *err = NULL, *ok_err = NULL;
		g_autofree char *serials = read_bytes("window.zst", g_bytes_get_data(big, NULL),
						      g_bytes_get_size(big), &err);
		g_autofree char *ok = read_bytes("window-ok.zst", g_bytes_get_data(small, NULL),
						 g_bytes_get_size(small), &ok_err);

		assert_non_null(err);
		assert_non_null(strstr(err, "memory"));
		assert_string_equal(serials, "");
		assert_null(ok_err);
		assert_string_equal(ok, "1 2 3");
	}
	/*
	 * each format: a 6 MiB line of NULs, compressed to a few KiB, then a
	 * record: the line is over the reader's limit and skipped, never held
	 * whole; the record after it is read
	 */
	{
		static const char tail[] = "\n" REC(1) "\n";
		gsize big = 6u << 20, n = big + sizeof(tail) - 1;
		g_autofree char *text = g_malloc0(n);
		GBytes *packed[3];

		memcpy(text + big, tail, sizeof(tail) - 1);
		packed[0] = gzip_of(text, n);
		packed[1] = xz_of(text, n);
		packed[2] = zstd_of(text, n);

		for (guint i = 0; i < G_N_ELEMENTS(packed); i++) {
			g_autofree char *tag = g_strdup_printf("long-%u", i);
			g_autofree char *err = NULL;
			g_autofree char *serials = read_bytes(tag, g_bytes_get_data(packed[i], NULL),
							      g_bytes_get_size(packed[i]), &err);

			assert_true(g_bytes_get_size(packed[i]) < big / 64);
			assert_null(err);
			assert_string_equal(serials, "1");
			g_bytes_unref(packed[i]);
		}
	}
}

/* a directory: audit.log and its rotations, oldest first */
static void test_rotations(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("ad-paste-XXXXXX", NULL);
	static const char *const names[] = {
		"audit.log", "audit.log.1", "audit.log.2.gz", "audit.log.10.xz", "audit.log.3.zst",
		"other.log", "audit.log.bak", "audit.log.4.bz2",
	};
	g_auto(GStrv) files = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GString) order = g_string_new(NULL);

	assert_non_null(dir);
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *p = g_build_filename(dir, names[i], NULL);

		assert_true(g_file_set_contents(p, "", 0, NULL));
	}
	files = ad_audit_log_files(dir, &error);
	assert_non_null(files);
	for (guint i = 0; files[i]; i++)
		g_string_append_printf(order, "%s ", files[i] + strlen(dir) + 1);
	assert_string_equal(order->str,
			    "audit.log.10.xz audit.log.3.zst audit.log.2.gz audit.log.1 audit.log ");
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *p = g_build_filename(dir, names[i], NULL);

		g_unlink(p);
	}
	g_clear_pointer(&files, g_strfreev);
	/* an empty directory says so */
	files = ad_audit_log_files(dir, &error);
	assert_null(files);
	assert_non_null(strstr(error->message, "no audit.log"));
	g_rmdir(dir);
}

/*
 * Forms found in records pasted into public bug trackers: ausearch -i
 * records run together on one line, a program's printed list of record
 * strings, a stamp a hard wrap cut; and where each must not apply.
 */
#define ISTAMP "11/22/2024 03:05:50.060:994"
#define IAVC(stamp) "type=AVC msg=audit(" stamp ") : avc:  denied  { search } for  pid=29683 " \
	"comm=nfsidmap name=libvirt " S " " T " tclass=dir permissive=0"
#define IKEY "search|httpd_t|user_home_t|dir"

static void test_public_forms(void **state)
{
	/* one event's records on a line: split, and read as one event */
	{
		g_autoptr(Got) g = read_paste(
			"The commit addresses the following AVC denial:\n"
			"type=PROCTITLE msg=audit(" ISTAMP ") : proctitle=nfsidmap 886959952 "
			"uid:SYSTEM@NT AUTHORITY " IAVC(ISTAMP) " type=SYSCALL msg=audit(" ISTAMP
			") : arch=x86_64 syscall=openat success=no exit=EACCES(Permission denied) "
			"comm=nfsidmap exe=/usr/sbin/nfsidmap key=(null)\n", FALSE);
		g_autofree char *key = NULL;

		assert_int_equal(g->denials->len, 1);
		key = denial_key(denial_at(g, 0));
		assert_string_equal(key, IKEY);
		assert_int_equal(denial_at(g, 0)->event->serial, 994);
		assert_int_equal(denial_at(g, 0)->event->records->len, 3);
		assert_non_null(ad_event_find_record(denial_at(g, 0)->event, 1300));
		assert_int_equal(g->problems->len, 0);
	}
	/* whole denials of several events on a line */
	{
		g_autoptr(Got) g = read_paste(
			"examples: " IAVC("06/03/2025 15:53:24.872:546") " "
			IAVC("06/03/2025 15:53:24.941:549") " " IAVC("06/03/2025 15:58:17.996:559")
			"\n", FALSE);

		assert_int_equal(g->denials->len, 3);
		assert_int_equal(denial_at(g, 1)->event->serial, 549);
		for (guint i = 0; i < 3; i++) {
			g_autofree char *key = denial_key(denial_at(g, i));

			assert_string_equal(key, IKEY);
		}
	}
	/* a proctitle holding a record of another stamp: a value, not a record */
	{
		g_autoptr(Got) g = read_paste(
			"type=PROCTITLE msg=audit(" ISTAMP ") : proctitle=sh -c echo "
			IAVC("11/22/2024 03:05:50.060:995") "\n", FALSE);

		assert_int_equal(g->denials->len, 0);
		assert_int_equal(g->events->len, 1);
		assert_int_equal(((AdEvent *)g->events->pdata[0])->records->len, 1);
	}
	/*
	 * an ausearch -i path holding a denial: the record is not cut inside it
	 * (that would make a record of the path), nor read with the fields of
	 * both (comm and pid twice): refused, with its line
	 */
	{
		g_autoptr(Got) g = read_paste(
			"type=AVC msg=audit(" ISTAMP ") : avc:  denied  { read } for  pid=1 comm=x "
			"path=/tmp/a " IAVC("11/22/2024 03:05:50.060:995") " dev=\"vda1\" ino=2 " S " "
			T " tclass=file permissive=0\n", FALSE);
		g_autoptr(GPtrArray) denials =
			g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
		g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);

		assert_int_equal(g->denials->len, 0);
		assert_int_equal(g->events->len, 1);
		assert_int_equal(((AdEvent *)g->events->pdata[0])->serial, 994);
		ad_event_build_denials(g->events->pdata[0], denials, on_denial_problem, problems);
		assert_int_equal(problems->len, 1);
		assert_non_null(strstr(problems->pdata[0], "1: a field appears twice"));
	}
	/* records printed as a Python list: each read, without the list's quotes */
	{
		g_autoptr(Got) g = read_paste(
			"['" REC(7) "', '" HDR(8) BODY "', '" HDR(9) BODY "']\n", FALSE);

		assert_int_equal(g->denials->len, 3);
		for (guint i = 0; i < 3; i++) {
			g_autofree char *key = denial_key(denial_at(g, i));

			assert_string_equal(key, KEY);
			assert_int_equal(denial_at(g, i)->event->serial, 7 + i);
		}
		assert_true(g_str_has_suffix(denial_at(g, 0)->record->text, "permissive=0"));
	}
	/* a quoted value holding ", 'type=AVC ...": inside the quotes, not a record */
	{
		g_autoptr(Got) g = read_paste(
			HDR(7) "avc:  denied  { read } for  pid=1234 comm=\"a, 'type=AVC msg=audit("
			"1700000000.100:8): avc:  denied  { write }\" " S " " T " tclass=file\n",
			FALSE);

		assert_int_equal(g->events->len, 1);
		assert_int_equal(g->denials->len, 1);
		assert_true(ad_bytes_equal_str(denial_at(g, 0)->comm,
					       "a, 'type=AVC msg=audit(1700000000.100:8): avc:  "
					       "denied  { write }"));
	}
	/* a stamp cut by a hard wrap: the two lines are one record again */
	for (int bytewise = 0; bytewise < 2; bytewise++) {
		g_autoptr(Got) g = read_paste("type=AVC msg=audit(1700000000.1\n00:7): " BODY "\n",
					      bytewise);
		g_autofree char *key = NULL;

		assert_int_equal(g->denials->len, 1);
		key = denial_key(denial_at(g, 0));
		assert_string_equal(key, KEY);
		assert_int_equal(denial_at(g, 0)->event->serial, 7);
		assert_int_equal(denial_at(g, 0)->event->sec, 1700000000);
		assert_int_equal(g->problems->len, 0);
		assert_int_equal(g->notes->len, 0);
	}
	/* a cut stamp the next line does not finish: reported once, at its line */
	{
		g_autoptr(Got) g = read_paste("type=AVC msg=audit(1700000000.1\n"
					      "12:" REC(8) "\n", FALSE);

		assert_int_equal(g->denials->len, 1);
		assert_int_equal(denial_at(g, 0)->event->serial, 8);
		assert_int_equal(g->problems->len, 1);
		assert_string_equal(g->problems->pdata[0],
				    "1: malformed audit(...) timestamp: record skipped");
	}
	/* ... and at the input's end */
	{
		g_autoptr(Got) g = read_paste(REC(7) "\ntype=AVC msg=audit(1700000000.1", FALSE);

		assert_int_equal(g->denials->len, 1);
		assert_int_equal(g->problems->len, 1);
		assert_string_equal(g->problems->pdata[0],
				    "2: malformed audit(...) timestamp: record skipped");
	}
}

#define JAVC(prefix) prefix " audit[1604]: AVC avc:  denied  { read } for  pid=1604 " \
	"comm=\"rsyslogd\" " S " " T " tclass=file permissive=0\n"

/* what a journal line's prefix tells: its time (and whence its year), its host */
static void test_journal_time(void **state)
{
	static const struct {
		const char *what;
		const char *text;
		gint64 mtime;		/* 0: none */
		gint64 sec;		/* of the last denial; 0: unknown */
		const char *node;
		guint notes;		/* the note that the year is unknown */
	} cases[] = {
		{ "year of a stamped record before",
		  REC(7) "\n" JAVC("Nov 15 10:00:00 fed43"), 0, 1700042400, "fed43", 0 },
		{ "the year that puts it nearest that record (the year before)",
		  "type=AVC msg=audit(1704067300.000:7): " BODY "\n" JAVC("Dec 31 23:59:00 fed43"),
		  0, 1704067140, "fed43", 0 },
		{ "year of the file's mtime", JAVC("Dec 30 08:00:00 fed43"), 1735600000,
		  1735545600, "fed43", 0 },
		{ "a date after the mtime's: the year before", JAVC("Dec 30 08:00:00 fed43"),
		  1740787200, 1735545600, "fed43", 0 },
		{ "nothing tells the year: unknown, with a note", JAVC("Nov 15 10:00:00 fed43"), 0,
		  0, "fed43", 1 },
		{ "no host name", JAVC("Nov 15 10:00:00"), 1735600000, 1731664800, NULL, 0 },
		{ "ISO time with an offset", JAVC("2025-11-23T06:17:29.500+01:00 fed43"), 0,
		  1763875049, "fed43", 0 },
		{ "a padded day", JAVC("Nov  5 10:00:00 fed43"), 1735600000, 1730800800, "fed43", 0 },
		{ "a journal line after a sentence on its line",
		  "It addresses the following AVC denial: " JAVC("Nov 15 10:00:00 fed43"),
		  1735600000, 1731664800, "fed43", 0 },
		{ "kernel record: the stamp's time, the host",
		  "Nov 19 15:26:00 web1 kernel: " REC(7) "\n", 0, 1700000000, "web1", 0 },
	};
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GPtrArray) denials =
			g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
		g_autoptr(Got) g = g_new0(Got, 1);
		g_autoptr(AdReader) r = NULL;
		AdDenial *d;

		g->denials = g_ptr_array_ref(denials);
		g->events = g_ptr_array_new_with_free_func((GDestroyNotify)ad_event_unref);
		g->problems = g_ptr_array_new_with_free_func(g_free);
		g->notes = g_ptr_array_new_with_free_func(g_free);
		r = ad_reader_new(on_event, on_problem, g);
		ad_reader_set_note_func(r, on_note);
		ad_reader_set_source(r, "messages");
		if (cases[i].mtime)
			ad_reader_set_mtime(r, cases[i].mtime);
		ad_reader_feed(r, cases[i].text, strlen(cases[i].text));
		ad_reader_end_source(r);
		d = denials->len ? denials->pdata[denials->len - 1] : NULL;
		if (!d || d->event->sec != cases[i].sec ||
		    g_strcmp0(d->event->node, cases[i].node) != 0 || g->problems->len ||
		    g->notes->len != cases[i].notes ||
		    (cases[i].notes && !strstr(g->notes->pdata[0], "no year"))) {
			print_error("%s: %u denials, time %" G_GINT64_FORMAT ", node %s, %u notes "
				    "(%s)\n", cases[i].what, denials->len, d ? d->event->sec : -1,
				    d && d->event->node ? d->event->node : "(none)", g->notes->len,
				    g->notes->len ? (char *)g->notes->pdata[0] : "");
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/*
 * A journal line's kernel record may carry a value journald decoded, with
 * blanks, unquoted (published: "path=/memfd:accountsservice_icon_file
 * (deleted)", another journal line run on after it): a path's words up to
 * the next field are its value, the words after the last field are none.
 * The same text as an audit.log line keeps the kernel's rule: an unquoted
 * value ends at a blank.
 */
static void test_journal_blank_values(void **state)
{
	static const char *const body =
		"AVC avc:  denied  { write } for  pid=829 comm=\"accounts-daemon\" "
		"path=/memfd:icon_file (deleted) dev=\"tmpfs\" ino=13449 " S " " T
		" tclass=file permissive=0 Aug 16 11:35:16 fedora gnome-control-center[5297]: "
		"SetIconFile call failed: Permission denied\n";
	static const struct {
		const char *prefix;
		const char *path;
	} cases[] = {
		{ "Aug 16 11:35:16 fedora audit[829]: ", "/memfd:icon_file (deleted)" },
		{ "type=", "/memfd:icon_file" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = NULL;
		g_autoptr(Got) g = NULL;
		AdDenial *d;

		if (i == 0)
			text = g_strconcat(cases[i].prefix, body, NULL);
		else
			text = g_strconcat("type=AVC msg=audit(1700000000.100:7): ", body + 4, NULL);
		g = read_paste(text, FALSE);
		assert_int_equal(g->denials->len, 1);
		d = denial_at(g, 0);
		if (!ad_bytes_equal_str(d->path, cases[i].path))
			print_error("%s: path %.*s\n", text, (int)d->path.len, d->path.data);
		assert_true(ad_bytes_equal_str(d->path, cases[i].path));
		assert_int_equal(d->permissive, 0);
		assert_string_equal(d->tclass, "file");
	}
}

/* ------------------------------------------- values with blanks, one field a line */

#define IHDR "type=AVC msg=audit(11/14/2023 22:13:21.085:7) : "

/*
 * ausearch -i values that hold blanks, wrapped: the words after a field
 * that may hold blanks (comm, path, ...) are its value up to the next
 * field, on either line; and where no join may happen.
 */
static void test_wrapped_blank_values(void **state)
{
	static const struct {
		const char *what;
		const char *text;
		guint denials;
		const char *comm, *path;	/* of the first denial; NULL: not checked */
	} cases[] = {
		{ "comm cut at its blank",
		  IHDR "avc:  denied  { read } for  pid=1604 comm=rs:main\n"
		  "Q:Reg name=messages dev=\"dm-0\" ino=123 " S " " T " tclass=file permissive=1\n",
		  1, "rs:main Q:Reg", NULL },
		{ "the value with blanks on the next line",
		  IHDR "avc:  denied  { read } for  pid=1604\n"
		  "comm=rs:main Q:Reg name=messages dev=\"dm-0\" ino=123 " S " " T " tclass=file\n",
		  1, "rs:main Q:Reg", NULL },
		{ "a long line wrapped before (deleted)",
		  IHDR "avc:  denied  { map } for  pid=2436 comm=doveconf "
		  "path=/memfd:serialization-of-a-long-name-that-takes-the-line\n"
		  "(deleted) dev=\"tmpfs\" ino=51 " S " " T " tclass=file permissive=1\n",
		  1, "doveconf", "/memfd:serialization-of-a-long-name-that-takes-the-line (deleted)" },
		{ "contexts on the next line of a long record",
		  IHDR "avc:  denied  { read } for  pid=1604 comm=rs:main Q:Reg name=messages "
		  "dev=\"dm-0\" ino=123 " S "\n" T " tclass=file permissive=1\n", 1,
		  "rs:main Q:Reg", NULL },
		/* not joined: a whole denial, then prose */
		{ "a whole denial, then prose",
		  IHDR "avc:  denied  { read } for  pid=1604 comm=rs:main Q:Reg name=messages "
		  "dev=\"dm-0\" ino=123 " S " " T " tclass=file permissive=1\n"
		  "Q:Reg was the thread\n", 1, "rs:main Q:Reg", NULL },
		/* raw values hold no blank: a word cut at the line's end, joined without one */
		{ "raw: no blank in the value",
		  HDR(7) "avc:  denied  { read } for  pid=1604 comm=rs:main\n"
		  "Q:Reg name=messages " S " " T " tclass=file\n", 1, "rs:mainQ:Reg", NULL },
	};
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(Got) g = read_paste(cases[i].text, FALSE);
		AdDenial *d = g->denials->len ? denial_at(g, 0) : NULL;
		g_autofree char *comm = d && d->comm.data ? g_strndup(d->comm.data, d->comm.len)
							  : NULL;
		g_autofree char *path = d && d->path.data ? g_strndup(d->path.data, d->path.len)
							  : NULL;

		if (g->denials->len != cases[i].denials ||
		    (cases[i].comm && g_strcmp0(comm, cases[i].comm) != 0) ||
		    (cases[i].path && g_strcmp0(path, cases[i].path) != 0)) {
			print_error("%s: %u denials, comm %s, path %s\n", cases[i].what,
				    g->denials->len, comm ? comm : "-", path ? path : "-");
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/*
 * A denial pasted one field per line (a form, a ticket): read when its
 * fields make a whole denial; a field seen twice starts another one.
 */
static void test_fields_per_line(void **state)
{
	static const struct {
		const char *what;
		const char *text;
		const char *keys;	/* the denials' "perms|stype|ttype|class", ';' between */
		const char *comm;	/* of the first */
	} cases[] = {
		{ "key=value lines",
		  "avc: denied { read }\npid=1604\ncomm=\"rsyslogd\"\n" S "\n" T "\ntclass=file\n"
		  "permissive=0\n", "read|httpd_t|user_home_t|file", "rsyslogd" },
		{ "bullets, permissions last, a value with blanks",
		  "- " S "\n- " T "\n- tclass=file\n- comm=rs:main Q:Reg\n- avc: denied { read write }\n",
		  "read,write|httpd_t|user_home_t|file", "rs:main Q:Reg" },
		{ "key: value lines",
		  "scontext: system_u:system_r:httpd_t:s0\ntcontext: system_u:object_r:shadow_t:s0\n"
		  "tclass: file\ndenied { getattr }\n", "getattr|httpd_t|shadow_t|file", NULL },
		{ "two denials: a field seen twice starts the second",
		  "{ read }\n" S "\n" T "\ntclass=file\n{ write }\n"
		  "scontext=system_u:system_r:sshd_t:s0\ntcontext=system_u:object_r:etc_t:s0\n"
		  "tclass=dir\n", "read|httpd_t|user_home_t|file;write|sshd_t|etc_t|dir", NULL },
		/* not a denial: nothing is made of them */
		{ "no class", "{ read }\n" S "\n" T "\n", "", NULL },
		{ "no permissions", S "\n" T "\ntclass=file\n", "", NULL },
		{ "a blank line between: two halves", "{ read }\n" S "\n\n" T "\ntclass=file\n", "",
		  NULL },
		{ "prose between", "{ read }\n" S "\nand then\n" T "\ntclass=file\n", "", NULL },
	};
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(Got) g = read_paste(cases[i].text, i % 2 == 1);
		g_autoptr(GString) keys = g_string_new(NULL);
		AdDenial *d = g->denials->len ? denial_at(g, 0) : NULL;
		g_autofree char *comm = d && d->comm.data ? g_strndup(d->comm.data, d->comm.len)
							  : NULL;

		for (guint j = 0; j < g->denials->len; j++) {
			g_autofree char *k = denial_key(denial_at(g, j));

			g_string_append_printf(keys, "%s%s", j ? ";" : "", k);
		}
		/* the record is where its first line is; its time and serial unknown */
		if (strcmp(keys->str, cases[i].keys) != 0 || g->problems->len ||
		    (cases[i].comm && g_strcmp0(comm, cases[i].comm) != 0) ||
		    (d && (d->record->line != 1 || d->event->serial || d->event->sec))) {
			print_error("%s: %s, comm %s, %u problems\n", cases[i].what, keys->str,
				    comm ? comm : "-", g->problems->len);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/* ------------------------------------------- setroubleshoot's report */

#define SE_BLOCK(scon, tcon, obj) \
	"Additional Information:\n" \
	"Source Context                " scon "\n" \
	"Target Context                " tcon "\n" \
	"Target Objects                " obj "\n" \
	"Source                        httpd\n" \
	"Source Path                   /usr/sbin/httpd\n" \
	"Port                          <Unknown>\n"
#define SE_S "system_u:system_r:httpd_t:s0"
#define SE_T "unconfined_u:object_r:user_home_t:s0"

/*
 * sealert's report pasted without its raw audit messages (text made for
 * the test, in the forms of setroubleshoot's signature.py): one denial
 * from the summary's permissions and the block's contexts and class; none
 * of its own when its raw record follows; a note where it lacks a part.
 */
static void test_sealert_report(void **state)
{
	static const struct {
		const char *what;
		const char *text;
		const char *keys;	/* the denials' "perms|stype|ttype|class", ';' between */
		guint line;		/* of the first; 0: not checked */
		gboolean raw;		/* the first has a header: it is the raw record */
		guint notes;		/* notes other than the headerless one */
	} cases[] = {
		{ "summary and block",
		  "SELinux is preventing /usr/sbin/httpd from read access on the file index.html.\n\n"
		  SE_BLOCK(SE_S, SE_T, "index.html [ file ]"), KEY, 1, FALSE, 0 },
		{ "the raw record after it: read once, as the record",
		  "SELinux is preventing /usr/sbin/httpd from read access on the file index.html.\n\n"
		  SE_BLOCK(SE_S, SE_T, "index.html [ file ]") "\nRaw Audit Messages\n" REC(7) "\n\n"
		  "Hash: httpd,httpd_t,user_home_t,file,read\n", KEY, 12, TRUE, 0 },
		{ "a summary alone, then its raw record",
		  "SELinux is preventing /usr/sbin/httpd from read access on the file index.html.\n\n"
		  "Raw Audit Messages\n" REC(8) "\n", KEY, 4, TRUE, 0 },
		{ "quoted list, directory, wrapped context and object",
		  "SELinux is preventing x from 'read, search' accesses on the directory a b.\n"
		  SE_BLOCK("unconfined_u:unconfined_r:httpd_t:s0-\n                              "
			   "s0:c0.c1023", SE_T, "/home/user/public_html/some/rather/long/path/with/"
			   "\n                              a b [ dir ]"),
		  "read,search|httpd_t|user_home_t|dir", 1, FALSE, 0 },
		{ "a process", "SELinux is preventing /usr/bin/x from using the transition access on "
		  "a process.\n" SE_BLOCK(SE_S, "system_u:system_r:sshd_t:s0", "Unknown [ process ]"),
		  "transition|httpd_t|sshd_t|process", 1, FALSE, 0 },
		{ "capabilities", "> SELinux is preventing x from using the 'chown, fowner' "
		  "capabilities.\n> " SE_BLOCK(SE_S, SE_S, "Unknown [ capability ]"),
		  "chown,fowner|httpd_t|httpd_t|capability", 1, FALSE, 0 },
		{ "the catchall's sentence, the summary cut off",
		  "If you believe that httpd should be allowed read access on the index.html file "
		  "by default.\n" SE_BLOCK(SE_S, SE_T, "index.html [ file ]"), KEY, 1, FALSE, 0 },
		{ "two reports",
		  "SELinux is preventing a from read access on the file b.\n"
		  SE_BLOCK(SE_S, SE_T, "b [ file ]") "\nSELinux is preventing a from write access "
		  "on the sock_file c.\n" SE_BLOCK(SE_S, SE_T, "c [ sock_file ]"),
		  KEY ";write|httpd_t|user_home_t|sock_file", 1, FALSE, 0 },
		/* no denial, said where */
		{ "a block without its summary", SE_BLOCK(SE_S, SE_T, "b [ file ]"), "", 0, FALSE, 1 },
		{ "a summary alone", "x\nSELinux is preventing a from read access on the file b.\n", "",
		  0, FALSE, 1 },
		{ "words under a context are no part of it",
		  "SELinux is preventing a from read access on the file b.\nAdditional Information:\n"
		  "Source Context                system_u:system_r:httpd_t:s0-\n"
		  "                              some words\n"
		  "Target Context                " SE_T "\nTarget Objects                b [ file ]\n",
		  "", 0, FALSE, 1 },
		/* not a summary setroubleshoot writes: nothing, not even a note */
		{ "prose", "SELinux is preventing me from working.\n", "", 0, FALSE, 0 },
	};
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(Got) g = read_paste(cases[i].text, i % 2 == 1);
		g_autoptr(GString) keys = g_string_new(NULL);
		AdDenial *d = g->denials->len ? denial_at(g, 0) : NULL;
		guint notes = 0;

		for (guint j = 0; j < g->denials->len; j++) {
			g_autofree char *k = denial_key(denial_at(g, j));

			g_string_append_printf(keys, "%s%s", j ? ";" : "", k);
		}
		for (guint j = 0; j < g->notes->len; j++)
			notes += strstr(g->notes->pdata[j], "setroubleshoot") != NULL;
		if (strcmp(keys->str, cases[i].keys) != 0 || g->problems->len ||
		    notes != cases[i].notes ||
		    (d && cases[i].line && d->record->line != cases[i].line) ||
		    (d && (d->event->sec != 0) != cases[i].raw)) {
			print_error("%s: %s, %u problems, %u notes (%s)\n", cases[i].what, keys->str,
				    g->problems->len, g->notes->len,
				    g->notes->len ? (char *)g->notes->pdata[0] : "");
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/* ------------------------------------------------- records run together */

/*
 * The forms a denial record takes, each a format of (permission, source
 * type, comm, serial): a run-together pair of two is made of these.
 */
static const struct {
	const char *what;
	const char *fmt;
	gboolean user;		/* a user-space record: its text is the sender's */
} record_forms[] = {
	{ "raw", "type=AVC msg=audit(1700000000.100:%4$u): avc:  denied  { %1$s } for  pid=%4$u "
	  "comm=\"%3$s\" name=\"f%4$u\" dev=\"dm-0\" ino=%4$u scontext=system_u:system_r:%2$s:s0 "
	  "tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0", FALSE },
	{ "ausearch -i", "type=AVC msg=audit(11/14/2023 22:13:21.085:%4$u) : avc:  denied  { %1$s } "
	  "for  pid=%4$u comm=%3$s path=/memfd:f%4$u (deleted) dev=\"tmpfs\" ino=%4$u "
	  "scontext=system_u:system_r:%2$s:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file "
	  "permissive=1", FALSE },
	{ "journal", "Nov 14 22:13:21 fed43 audit[%4$u]: AVC avc:  denied  { %1$s } for  pid=%4$u "
	  "comm=\"%3$s\" name=\"f%4$u\" scontext=system_u:system_r:%2$s:s0 "
	  "tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0", FALSE },
	{ "syslog kernel", "Nov 14 22:13:21 web1 kernel: audit: type=1400 "
	  "audit(1700000001.100:%4$u): avc:  denied  { %1$s } for  pid=%4$u comm=\"%3$s\" "
	  "scontext=system_u:system_r:%2$s:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file "
	  "permissive=0", FALSE },
	{ "bare", "avc:  denied  { %1$s } for  pid=%4$u comm=\"%3$s\" name=\"f%4$u\" "
	  "scontext=system_u:system_r:%2$s:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file",
	  FALSE },
	{ "USER_AVC", "type=USER_AVC msg=audit(1700000002.100:%4$u): pid=%4$u uid=81 "
	  "auid=4294967295 ses=4294967295 subj=system_u:system_r:system_dbusd_t:s0 "
	  "msg='avc:  denied  { %1$s } for msgtype=method_call interface=org.x member=%3$s "
	  "scontext=system_u:system_r:%2$s:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file "
	  "permissive=0  exe=\"/usr/bin/dbus-broker\" sauid=81 hostname=? addr=? terminal=?'",
	  TRUE },
	{ "journal USER_AVC", "Nov 14 22:13:21 fed43 audit[%4$u]: USER_AVC pid=%4$u uid=0 "
	  "auid=4294967295 ses=4294967295 subj=system_u:system_r:init_t:s0 msg='avc:  denied  "
	  "{ %1$s } for auid=n/a uid=0 gid=0 cmdline=\"%3$s\" scontext=system_u:system_r:%2$s:s0 "
	  "tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0 "
	  "exe=\"/usr/lib/systemd/systemd\" sauid=0 hostname=? addr=? terminal=?'", TRUE },
};

/* "perm|stype|comm" of a denial: comm, or for USER_AVC the member/cmdline it named */
static char *pair_key(const AdDenial *d)
{
	g_autofree char *s = ad_context_type(d->scontext);
	g_autofree char *comm = d->comm.data ? g_strndup(d->comm.data, d->comm.len) : NULL;

	return g_strdup_printf("%s|%s|%s", d->perms->len ? (char *)d->perms->pdata[0] : "-", s,
			       comm ? comm : "-");
}

/*
 * Every pair of forms run together on one line (and with a prose word
 * before): exactly the two denials, each with its own fields; or, when the
 * first is a user-space record, whose text could be either, a refusal
 * naming the line and no denial made of the two.
 */
/* the formats are the table's, each with the same four arguments */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void test_run_together_pairs(void **state)
{
	guint failures = 0;

	for (guint a = 0; a < G_N_ELEMENTS(record_forms); a++) {
		for (guint b = 0; b < G_N_ELEMENTS(record_forms); b++) {
			g_autofree char *ra = g_strdup_printf(record_forms[a].fmt, "read", "httpd_t",
							      "rs:main Q:Reg", 101u);
			g_autofree char *rb = g_strdup_printf(record_forms[b].fmt, "write",
							      "postfix_smtpd_t", "smtpd", 202u);
			g_autofree char *text = g_strdup_printf("seen: %s %s\n", ra, rb);
			g_autoptr(Got) g = read_paste(text, FALSE);
			gboolean ok;

			if (record_forms[a].user) {
				ok = g->denials->len == 0 && g->problems->len == 1 &&
				     g_str_has_prefix(g->problems->pdata[0], "1: ");
			} else {
				g_autofree char *k0 = g->denials->len == 2
						      ? pair_key(denial_at(g, 0)) : NULL;
				g_autofree char *k1 = g->denials->len == 2
						      ? pair_key(denial_at(g, 1)) : NULL;
				/* a user-space record names no comm */
				const char *wa = "read|httpd_t|rs:main Q:Reg";
				const char *wb = record_forms[b].user ? "write|postfix_smtpd_t|-"
								      : "write|postfix_smtpd_t|smtpd";

				ok = k0 && strcmp(k0, wa) == 0 && strcmp(k1, wb) == 0 &&
				     g->problems->len == 0;
			}
			if (!ok) {
				print_error("%s + %s: %u denials (%s / %s), %u problems (%s)\n%s",
					    record_forms[a].what, record_forms[b].what,
					    g->denials->len,
					    g->denials->len > 0 ? pair_key(denial_at(g, 0)) : "-",
					    g->denials->len > 1 ? pair_key(denial_at(g, 1)) : "-",
					    g->problems->len,
					    g->problems->len ? (char *)g->problems->pdata[0] : "",
					    text);
				failures++;
			}
		}
	}
	assert_int_equal(failures, 0);
}
#pragma GCC diagnostic pop

/* an `ausearch -i` AVC, then a journal USER_AVC up to its D-Bus member */
#define PAIR_HEAD \
	"type=AVC msg=audit(11/14/2023 22:13:21.085:101) : avc:  denied  { read } for  pid=101 " \
	"comm=0 path=/memfd:0 (deleted) dev=\"tmpfs\" ino=5 scontext=system_u:system_r:httpd_t:s0 " \
	"tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=1  Nov 14 22:13:21 fed43 " \
	"audit[202]: USER_AVC pid=202 uid=81 auid=4294967295 ses=4294967295 " \
	"subj=system_u:system_r:system_dbusd_t:s0 msg='avc:  denied  { write } for " \
	"msgtype=method_call member= type=0 "

/*
 * A journal USER_AVC whose sender's text (a D-Bus member) holds what reads
 * as a record header, "type=0 audit(...)": the record is the journal's,
 * read with the fields libselinux appends, and not lost to a "record" of
 * type 0 the sender wrote.  The first two lines are fuzz-pairs' finds (an
 * `ausearch -i` AVC run together with such a USER_AVC, one with a quote in
 * the sender's text); the third is a USER_AVC alone that plants a whole
 * kernel AVC in its member.
 */
static void test_journal_user_planted_header(void **state)
{
	static const struct {
		const char *text;
		guint denials;
		const char *first;	/* "perm|stype|comm" of each denial */
		const char *second;
	} cases[] = {
		{ PAIR_HEAD
		  "Z{\377r \033]\314k\t{\377r \033)\033=\010 0?]N type=0 "
		  "audit(171700000002.100:202): pid=202\033=\010 0?]N typj=0 audit(17\260\001("
		  "\255\377'\001(\377\377\377\377\377\377\377\031\260udxe=\340\010t ) \300p) da "
		  "scontext=system_u:system_r:postfix_smtpd_t:s0 tcontext=system_u:object_r:etc_t:s0 "
		  "tclass=file permissive=0  exe=\"/usr/bin/dbus-broker\" sauid=81 hostname=? "
		  "addr=? terminal=?'\n", 2, "read|httpd_t|0", "write|postfix_smtpd_t|-" },
		{ PAIR_HEAD
		  "Z)\033=\010 0?]N t?]N70?]N type=\364\377\377\3770a(i =tdu\001 type=0 "
		  "audit(1700000001.100:101)=\001 scontext=system_u:system_r:postfix_smtpd_t:s0 "
		  "tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0  "
		  "exe=\"/usr/bin/dbus-broker\" sauid=81 hostname=? addr=? terminal=?'\n",
		  2, "read|httpd_t|0", "write|postfix_smtpd_t|-" },
		{ "Nov 14 22:13:21 fed43 audit[202]: USER_AVC pid=202 uid=81 auid=4294967295 "
		  "ses=4294967295 subj=system_u:system_r:system_dbusd_t:s0 msg='avc:  denied  "
		  "{ write } for msgtype=method_call member=x type=AVC msg=audit(1700000000.100:7): "
		  "avc:  denied  { execute } for  pid=7 "
		  "scontext=system_u:system_r:sshd_t:s0 tcontext=system_u:object_r:shadow_t:s0 "
		  "tclass=file permissive=0 scontext=system_u:system_r:postfix_smtpd_t:s0 "
		  "tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0  "
		  "exe=\"/usr/bin/dbus-broker\" sauid=81 hostname=? addr=? terminal=?'\n",
		  1, "write|postfix_smtpd_t|-", NULL },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		for (int bytewise = 0; bytewise < 2; bytewise++) {
			g_autoptr(Got) g = read_paste(cases[i].text, bytewise);
			g_autofree char *k0 = NULL, *k1 = NULL;

			assert_int_equal(g->problems->len, 0);
			assert_int_equal(g->denials->len, cases[i].denials);
			k0 = pair_key(denial_at(g, 0));
			assert_string_equal(k0, cases[i].first);
			assert_string_equal(denial_at(g, 0)->tcontext, "system_u:object_r:etc_t:s0");
			if (cases[i].second) {
				k1 = pair_key(denial_at(g, 1));
				assert_string_equal(k1, cases[i].second);
				assert_string_equal(denial_at(g, 1)->tcontext,
						    "system_u:object_r:etc_t:s0");
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_wrapped),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_public_forms),
		cmocka_unit_test(test_wrap_bounded),
		cmocka_unit_test(test_headerless_note),
		cmocka_unit_test(test_unknown_class_notice),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_date_order),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_compressed_crafted),
		cmocka_unit_test(test_compressed_output_bound),
		cmocka_unit_test(test_rotations),
		cmocka_unit_test(test_run_together_pairs),
		cmocka_unit_test(test_journal_user_planted_header),
		cmocka_unit_test(test_journal_time),
		cmocka_unit_test(test_journal_blank_values),
		cmocka_unit_test(test_wrapped_blank_values),
		cmocka_unit_test(test_fields_per_line),
		cmocka_unit_test(test_sealert_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
