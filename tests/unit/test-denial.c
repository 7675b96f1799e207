// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for denial.c: what a denial says about its event (syscall,
 * executable, full path, address), SELINUX_ERR forms, hex decoding,
 * spoofed USER_AVC and malformed records.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "read/denial.h"
#include "read/event.h"
#include "read/reader.h"
#include "read/signature.h"
#include "analysis/alert.h"

/* ---------------------------------------------------------------- helpers */

typedef struct {
	char *file;
	guint line;
	char *message;
} Problem;

typedef struct {
	GPtrArray *events;	/* AdEvent*, referenced */
	GPtrArray *denials;	/* AdDenial* */
	GPtrArray *problems;	/* Problem*: from the reader and the denial builder */
} Result;

static void problem_free(Problem *p)
{
	g_free(p->file);
	g_free(p->message);
	g_free(p);
}

static void add_problem(Result *res, const char *file, guint line, const char *message)
{
	Problem *p = g_new0(Problem, 1);

	p->file = g_strdup(file);
	p->line = line;
	p->message = g_strdup(message);
	g_ptr_array_add(res->problems, p);
}

static void on_denial_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	add_problem(user_data, rec->file, rec->line, message);
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	Result *res = user_data;

	g_ptr_array_add(res->events, ad_event_ref(ev));
	ad_event_build_denials(ev, res->denials, on_denial_problem, res);
}

static void on_reader_problem(const char *file, guint line, const char *message,
			      gpointer user_data)
{
	add_problem(user_data, file, line, message);
}

static Result *result_new(void)
{
	Result *res = g_new0(Result, 1);

	res->events = g_ptr_array_new_with_free_func((GDestroyNotify)ad_event_unref);
	res->denials = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	res->problems = g_ptr_array_new_with_free_func((GDestroyNotify)problem_free);
	return res;
}

static void result_free(Result *res)
{
	g_ptr_array_unref(res->denials);
	g_ptr_array_unref(res->events);
	g_ptr_array_unref(res->problems);
	g_free(res);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Result, result_free)

static Result *analyse_text(const char *name, const char *text)
{
	Result *res = result_new();
	g_autoptr(AdReader) r = ad_reader_new(on_event, on_reader_problem, res);

	ad_reader_set_source(r, name);
	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	return res;
}

static Result *analyse_corpus(const char *name)
{
	Result *res = result_new();
	g_autoptr(AdReader) r = ad_reader_new(on_event, on_reader_problem, res);
	const char *dir = g_getenv("AD_CORPUS");
	g_autofree char *path = g_build_filename(dir ? dir : "tests/data/corpus", name, NULL);
	g_autoptr(GError) error = NULL;

	if (!ad_reader_read_file(r, path, &error))
		print_error("%s: %s\n", path, error->message);
	assert_null(error);
	return res;
}

static void assert_no_problems(Result *res)
{
	for (guint i = 0; i < res->problems->len; i++) {
		Problem *p = g_ptr_array_index(res->problems, i);

		print_error("unexpected problem %s:%u: %s\n", p->file, p->line, p->message);
	}
	assert_int_equal(res->problems->len, 0);
}

/* the @index-th denial of event @serial */
static AdDenial *denial_nth(Result *res, guint64 serial, guint index)
{
	for (guint i = 0; i < res->denials->len; i++) {
		AdDenial *d = g_ptr_array_index(res->denials, i);

		if (ad_denial_serial(d) == serial && index-- == 0)
			return d;
	}
	print_error("no denial #%u with serial %" G_GUINT64_FORMAT "\n", index, serial);
	fail();
	return NULL;
}

static AdDenial *denial_of(Result *res, guint64 serial)
{
	guint n = 0;

	for (guint i = 0; i < res->denials->len; i++)
		n += ad_denial_serial(g_ptr_array_index(res->denials, i)) == serial;
	if (n != 1)
		print_error("%u denials with serial %" G_GUINT64_FORMAT "\n", n, serial);
	assert_int_equal(n, 1);
	return denial_nth(res, serial, 0);
}

/* string equality that reports, rather than crashes on, a NULL */
#define assert_str(got, want) assert_str_at((got), (want), __FILE__, __LINE__)

static void assert_str_at(const char *got, const char *want, const char *file, int line)
{
	if (g_strcmp0(got, want) != 0) {
		print_error("expected [%s], got [%s]\n", want ? want : "(NULL)",
			    got ? got : "(NULL)");
		_fail(file, line);
	}
}

static void assert_bytes(AdBytes b, const void *want, gsize len)
{
	gsize blen = b.len;
	const void *data = b.data;

	if (!data) {
		print_error("expected %zu bytes, got none\n", len);
		fail();
	}
	if (blen != len || memcmp(data, want, len) != 0) {
		g_autofree char *got = g_strndup(data, blen);

		print_error("expected %zu bytes [%.*s], got %zu [%s]\n", len, (int)len,
			    (const char *)want, blen, got);
		fail();
	}
}

#define assert_bytes_str(b, s) assert_bytes((b), (s), strlen(s))

static void assert_perms(const AdDenial *d, const char *const *want)
{
	guint n = g_strv_length((char **)want);

	assert_non_null(d->perms);
	if (d->perms->len != n)
		print_error("expected %u permissions, got %u\n", n, d->perms->len);
	assert_int_equal(d->perms->len, n);
	for (guint i = 0; i < n; i++)
		assert_str(g_ptr_array_index(d->perms, i), want[i]);
}

#define PERMS(...) ((const char *const[]){ __VA_ARGS__, NULL })

#define CTX_S "scontext=system_u:system_r:httpd_t:s0"
#define CTX_T "tcontext=system_u:object_r:shadow_t:s0"
#define GOOD_AVC(serial) \
	"type=AVC msg=audit(1700000050.000:" #serial "): avc:  denied  { read } for  pid=9 " \
	"comm=\"ok\" name=\"ok\" " CTX_S " " CTX_T " tclass=file permissive=0\n"

/* ------------------------------------------------------- crafted corpus */

static void test_crafted_all(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");

	assert_no_problems(res);
	assert_int_equal(res->denials->len, 15);
	for (guint64 s = 101; s <= 115; s++)
		(void)denial_of(res, s);
}

static void test_crafted_101(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");
	AdDenial *d = denial_of(res, 101);
	g_autofree char *stype = ad_context_type(d->scontext);
	g_autofree char *ttype = ad_context_type(d->tcontext);

	assert_int_equal(d->type, AD_DENIAL_AVC);
	assert_str(ad_denial_type_name(d), "AVC");
	assert_str(d->record_type, "AVC");
	assert_ptr_equal(d->record, g_ptr_array_index(d->event->records, 0));
	assert_int_equal(d->record->line, 1);
	assert_null(ad_denial_node(d));
	assert_true(ad_denial_time(d) > 1700000001.09 && ad_denial_time(d) < 1700000001.11);
	assert_false(d->granted);
	assert_int_equal(d->permissive, 0);
	assert_perms(d, PERMS("read"));
	assert_str(d->scontext, "system_u:system_r:httpd_t:s0");
	assert_str(d->tcontext, "system_u:object_r:shadow_t:s0");
	assert_str(d->tclass, "file");
	assert_str(stype, "httpd_t");
	assert_str(ttype, "shadow_t");

	assert_str(d->syscall, "openat");	/* 257 on c000003e */
	assert_int_equal(d->success, 0);
	assert_str(d->exit, "-13");
	assert_int_equal(d->pid, 100);
	assert_int_equal(d->ppid, 1);
	assert_int_equal(d->uid, 0);
	assert_int_equal(d->auid, 4294967295LL);
	assert_bytes_str(d->comm, "httpd");
	assert_bytes_str(d->exe, "/usr/sbin/httpd");
	assert_bytes_str(d->cmdline, "/usr/sbin/httpd");
	assert_bytes_str(d->path, "/etc/shadow");
	assert_bytes_str(d->name, "shadow");
	assert_str(d->dev, "sda1");
	assert_int_equal(d->ino, 1);
	assert_int_equal(d->port, -1);
	assert_null(d->saddr);
	assert_null(d->ioctlcmd);
	assert_false(d->suspect);
	assert_null(d->suspect_reason);
	assert_int_equal(d->err_kind, AD_ERR_NONE);
	assert_false(ad_event_is_policy_load(d->event));
}

static void test_crafted_102_permissive(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");
	AdDenial *d = denial_of(res, 102);

	assert_int_equal(d->permissive, 1);
	assert_false(d->granted);
	/* no SYSCALL record in this event */
	assert_null(d->syscall);
	assert_int_equal(d->success, -1);
	assert_null(d->exe.data);
	assert_null(d->path.data);
	assert_bytes_str(d->name, "shadow");
}

static void test_crafted_104_port(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");
	AdDenial *d = denial_of(res, 104);

	assert_int_equal(d->port, 8080);
	assert_str(d->saddr, "inet 127.0.0.1");
	assert_str(d->tclass, "tcp_socket");
	assert_perms(d, PERMS("name_connect"));
}

static void test_crafted_107_granted(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");
	AdDenial *d = denial_of(res, 107);

	assert_true(d->granted);
	assert_int_equal(d->permissive, -1);
	assert_perms(d, PERMS("setenforce"));
	assert_str(d->scontext, "unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023");
	assert_str(d->tclass, "security");
}

static void test_crafted_110_ioctl(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");
	AdDenial *d = denial_of(res, 110);

	assert_str(d->ioctlcmd, "0x5401");
	assert_bytes_str(d->path, "/dev/pts/0");
	assert_str(d->tclass, "chr_file");
	assert_str(d->dev, "devpts");
	assert_int_equal(d->ino, 3);
}

static void test_crafted_111_user_avc(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");
	AdDenial *d = denial_of(res, 111);

	assert_int_equal(d->type, AD_DENIAL_USER_AVC);
	assert_str(ad_denial_type_name(d), "USER_AVC");
	assert_perms(d, PERMS("send_msg"));
	assert_str(d->scontext, "system_u:system_r:httpd_t:s0");
	assert_str(d->tcontext, "system_u:system_r:init_t:s0");
	assert_str(d->tclass, "dbus");
	assert_int_equal(d->permissive, 0);
	assert_int_equal(d->pid, 800);		/* the sender (spid), not dbus-daemon */
	assert_int_equal(d->uid, 81);
	assert_int_equal(d->auid, 4294967295LL);
	assert_bytes_str(d->exe, "/usr/bin/dbus-daemon");
	/* dest= is a bus name here, not a port */
	assert_int_equal(d->port, -1);
	assert_null(d->syscall);
	assert_false(d->suspect);
}

static void test_crafted_112_113_invalid_context(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");
	AdDenial *d = denial_of(res, 112);

	/* op=security_compute_sid invalid_context="..." (current kernels) */
	assert_int_equal(d->type, AD_DENIAL_SELINUX_ERR);
	assert_str(ad_denial_type_name(d), "SELINUX_ERR");
	assert_int_equal(d->err_kind, AD_ERR_INVALID_CONTEXT);
	assert_str(d->invalid_context, "staff_u:staff_r:httpd_t:s0");
	assert_str(d->scontext, "staff_u:staff_r:staff_t:s0");
	assert_str(d->tcontext, "system_u:object_r:httpd_exec_t:s0");
	assert_str(d->tclass, "process");
	assert_perms(d, PERMS("transition"));
	assert_non_null(d->err_text);
	assert_non_null(strstr(d->err_text, "security_compute_sid"));

	/* "security_compute_sid:  invalid context C for scontext=..." (old kernels) */
	d = denial_of(res, 113);
	assert_int_equal(d->err_kind, AD_ERR_INVALID_CONTEXT);
	assert_str(d->invalid_context, "staff_u:staff_r:mount_t:s0");
	assert_str(d->scontext, "staff_u:staff_r:staff_t:s0");
	assert_str(d->tcontext, "system_u:object_r:mount_exec_t:s0");
	assert_str(d->tclass, "process");
	assert_perms(d, PERMS("transition"));
}

/* names the policy lacks are the policy's business: the denial is built */
static void test_crafted_unknown_names(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-cases.log");

	assert_perms(denial_of(res, 108), PERMS("frobnicate"));
	assert_str(denial_of(res, 109)->tclass, "nosuchclass");
	assert_str(denial_of(res, 114)->scontext, "system_u:system_r:foo_t:s0");
	assert_str(denial_of(res, 115)->scontext, "staff_u:auditadm_r:auditadm_t:s0");
}

static void test_policy_load_marker(void **state)
{
	g_autoptr(Result) res = analyse_corpus("crafted/debian-refpolicy-lastload.log");
	guint loads = 0;

	assert_no_problems(res);
	assert_int_equal(res->denials->len, 2);
	for (guint i = 0; i < res->events->len; i++)
		loads += ad_event_is_policy_load(g_ptr_array_index(res->events, i));
	assert_int_equal(loads, 1);
}

/* ----------------------------------------------------- notebook SELINUX_ERR */

static void test_notebook_selinux_err(void **state)
{
	g_autoptr(Result) res = analyse_corpus("selinux-notebook-auditing-examples.log");
	AdDenial *d;

	assert_no_problems(res);

	/* op=security_compute_av reason=bounds, twice in event 138 */
	d = denial_nth(res, 138, 0);
	assert_int_equal(d->type, AD_DENIAL_SELINUX_ERR);
	assert_int_equal(d->err_kind, AD_ERR_BOUNDS);
	assert_str(d->scontext, "system_u:system_r:anon_webapp_t:s0-s0:c0,c100,c200");
	assert_str(d->tcontext, "system_u:object_r:security_t:s0");
	assert_str(d->tclass, "dir");
	assert_perms(d, PERMS("ioctl", "read", "lock"));
	d = denial_nth(res, 138, 1);
	assert_int_equal(d->err_kind, AD_ERR_BOUNDS);
	assert_str(d->tclass, "file");
	assert_perms(d, PERMS("ioctl", "read", "write", "getattr", "lock", "append", "open"));

	/* op=security_bounded_transition result=denied oldcontext= newcontext= */
	d = denial_nth(res, 126, 0);
	assert_int_equal(d->err_kind, AD_ERR_BOUNDED_TRANSITION);
	assert_str(d->scontext, "system_u:system_r:httpd_t:s0-s0:c0.c300");
	assert_str(d->tcontext, "system_u:system_r:anon_webapp_t:s0-s0:c0,c100,c200");
	assert_str(d->tclass, "process");
	assert_perms(d, PERMS("dyntransition"));

	/* a bare "SELINUX_ERR op=... invalid_context=..." line, no header */
	d = NULL;
	for (guint i = 0; i < res->denials->len; i++) {
		AdDenial *x = g_ptr_array_index(res->denials, i);

		if (x->invalid_context && strstr(x->invalid_context, "wheel.id"))
			d = x;
	}
	assert_non_null(d);
	assert_int_equal(d->type, AD_DENIAL_SELINUX_ERR);
	assert_int_equal(d->err_kind, AD_ERR_INVALID_CONTEXT);
	assert_str(d->invalid_context, "wheel.id:wheel.role:mount.subj:s0");
	assert_str(d->scontext, "wheel.id:wheel.role:user.subj:s0");
	assert_str(d->tcontext, "sys.id:sys.role:mount.exec:s0");
	assert_int_equal(d->record->line, 23);
}

/* the records of those SELINUX_ERR events enrich them too */
static void test_notebook_enrichment(void **state)
{
	g_autoptr(Result) res = analyse_corpus("selinux-notebook-auditing-examples.log");
	AdDenial *d;

	/* event 101: two AVCs and an i386 SYSCALL 38 (rename) */
	d = denial_nth(res, 101, 0);
	assert_perms(d, PERMS("rename"));
	assert_str(d->syscall, "rename");
	assert_bytes_str(d->exe, "/usr/bin/canberra-gtk-play");
	d = denial_nth(res, 101, 1);
	assert_perms(d, PERMS("unlink"));
	assert_str(d->syscall, "rename");
	assert_int_equal(d->success, 1);

	/* X server USER_AVC */
	d = denial_of(res, 18);
	assert_int_equal(d->type, AD_DENIAL_USER_AVC);
	assert_str(d->tclass, "x_keyboard");
	assert_perms(d, PERMS("getfocus"));
	assert_bytes_str(d->comm, "X-setest");
	assert_bytes_str(d->exe, "/usr/bin/Xorg");

	/* "avc: received policyload notice" is no denial; MAC_POLICY_LOAD marks a reload */
	for (guint i = 0; i < res->denials->len; i++)
		assert_int_not_equal(ad_denial_serial(g_ptr_array_index(res->denials, i)), 395);
	{
		guint loads = 0;

		for (guint i = 0; i < res->events->len; i++) {
			AdEvent *ev = g_ptr_array_index(res->events, i);

			if (ad_event_is_policy_load(ev)) {
				assert_int_equal(ev->serial, 394);
				loads++;
			}
		}
		assert_int_equal(loads, 1);
	}

	/* bounded transition, then its SYSCALL (x86_64 1 = write) */
	d = denial_nth(res, 126, 0);
	assert_str(d->syscall, "write");
	assert_bytes_str(d->exe, "/usr/sbin/httpd");
	assert_int_equal(d->success, 0);

	/* the header-less SELINUX_ERR and the header-less SYSCALL after it (59 = execve) */
	d = NULL;
	for (guint i = 0; i < res->denials->len; i++) {
		AdDenial *x = g_ptr_array_index(res->denials, i);

		if (x->invalid_context && strstr(x->invalid_context, "wheel.id"))
			d = x;
	}
	assert_non_null(d);
	assert_non_null(d->syscall);
	assert_str(d->syscall, "execve");
	assert_bytes_str(d->exe, "/usr/bin/bash");
}

static void test_synthetic_fanotify(void **state)
{
	g_autoptr(Result) res = analyse_corpus("synthetic/avc-parser-fanotify_test.log");
	AdDenial *d;

	assert_no_problems(res);
	assert_int_equal(res->denials->len, 3);
	d = denial_of(res, 171);
	assert_int_equal(d->type, AD_DENIAL_AVC);
	assert_str(ad_denial_type_name(d), "FANOTIFY");
	assert_perms(d, PERMS("open"));
	assert_bytes_str(d->path, "/etc/shadow");
	assert_str(d->syscall, "openat");
	d = denial_of(res, 172);
	assert_int_equal(d->err_kind, AD_ERR_BOUNDS);
	assert_perms(d, PERMS("read", "write"));
	d = denial_of(res, 173);
	assert_int_equal(d->type, AD_DENIAL_USER_SELINUX_ERR);
	assert_int_equal(d->err_kind, AD_ERR_BOUNDED_TRANSITION);
	assert_str(d->scontext, "system_u:system_r:init_t:s0");
	assert_str(d->tcontext, "system_u:system_r:unconfined_t:s0");
}

/* the synthetic malformed file: "{ }" is reported, the rest still analysed */
static void test_synthetic_malformed_permissions(void **state)
{
	g_autoptr(Result) res = analyse_corpus("synthetic/avc-parser-malformed_permissions_test.log");
	Problem *p;
	AdDenial *d;

	assert_int_equal(res->problems->len, 1);
	p = g_ptr_array_index(res->problems, 0);
	assert_int_equal(p->line, 2);
	assert_non_null(strstr(p->message, "empty"));
	assert_int_equal(res->denials->len, 2);
	assert_perms(denial_of(res, 901),
		     PERMS("very_long_permission_name_that_exceeds_normal_bounds"));
	d = denial_of(res, 902);
	assert_perms(d, PERMS("read"));
	assert_true(d->suspect);
}

/* ------------------------------------------------------------ syscall names */

static void test_syscall_arch(void **state)
{
	static const struct {
		const char *arch, *nr, *want;
	} cases[] = {
		{ "40000003", "102", "socketcall" },	/* i386 */
		{ "c000003e", "102", "getuid" },	/* x86_64 */
		{ "c000003e", "257", "openat" },
		{ "40000003", "5", "open" },
		{ "c00000b7", "56", "openat" },		/* aarch64 */
		{ "14", "11", "execve" },		/* ppc */
		{ "ffffffff", "102", "102" },		/* unknown arch: the number */
		{ "c000003e", "99999", "99999" },	/* unknown number */
		{ "zz", "102", "102" },
		{ "C000003E", "257", "openat" },	/* either case of hex */
		{ "1c000003e", "257", "257" },		/* more than 32 bits */
		{ "c000003e", "257x", "257x" },
		{ "c000003e", "4294967553", "4294967553" },	/* 2^32 + 257 */
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf(
			"type=AVC msg=audit(1700000001.000:%zu): avc:  denied  { read } for  pid=1 "
			"comm=\"x\" " CTX_S " " CTX_T " tclass=file\n"
			"type=SYSCALL msg=audit(1700000001.000:%zu): arch=%s syscall=%s success=no "
			"exit=-13 pid=1\n", i + 1, i + 1, cases[i].arch, cases[i].nr);
		g_autoptr(Result) res = analyse_text("arch.log", text);
		AdDenial *d;

		assert_no_problems(res);
		d = denial_of(res, i + 1);
		if (g_strcmp0(d->syscall, cases[i].want) != 0)
			print_error("arch %s syscall %s: expected %s, got %s\n", cases[i].arch,
				    cases[i].nr, cases[i].want, d->syscall);
		assert_str(d->syscall, cases[i].want);
	}
}

static void test_syscall_i386_corpus(void **state)
{
	g_autoptr(Result) res = analyse_corpus("selinux-audit2allow-test.log");
	AdDenial *d = NULL;

	for (guint i = 0; i < res->denials->len; i++) {
		AdDenial *x = g_ptr_array_index(res->denials, i);

		if (ad_denial_serial(x) == 851 &&
		    g_strcmp0(ad_denial_node(x), "james.example.com") == 0)
			d = x;
	}
	assert_non_null(d);
	assert_str(d->syscall, "socketcall");
	assert_int_equal(d->port, 81);
	assert_perms(d, PERMS("name_bind"));
}

/* ---------------------------------------------------------------- paths */

static void test_full_path(void **state)
{
	static const struct {
		const char *cwd_field;		/* the CWD record's value, as logged */
		const char *name_field;		/* the PATH record's name=, as logged */
		const char *want;
		gsize want_len;
	} cases[] = {
		{ "\"/home/user\"", "\"docs/file.txt\"", "/home/user/docs/file.txt", 24 },
		{ "\"/srv\"", "\"./file.txt\"", "/srv/file.txt", 13 },
		{ "\"/\"", "\"etc/file.txt\"", "/etc/file.txt", 13 },
		{ "\"/home/user/\"", "\"file.txt\"", "/home/user/file.txt", 19 },
		{ "\"/ignored\"", "\"/abs/file.txt\"", "/abs/file.txt", 13 },
		/* hex on both sides: "/tmp/a b" + "c\nfile.txt" */
		{ "2F746D702F612062", "630A66696C652E747874", "/tmp/a b/c\nfile.txt", 19 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf(
			"type=AVC msg=audit(1700000001.000:%zu): avc:  denied  { read } for  pid=1 "
			"comm=\"x\" name=\"file.txt\" dev=\"sda1\" ino=55 " CTX_S " " CTX_T
			" tclass=file\n"
			"type=SYSCALL msg=audit(1700000001.000:%zu): arch=c000003e syscall=257 "
			"success=no exit=-13 items=1 pid=1\n"
			"type=CWD msg=audit(1700000001.000:%zu): cwd=%s\n"
			"type=PATH msg=audit(1700000001.000:%zu): item=0 name=%s inode=55 dev=08:01 "
			"nametype=NORMAL\n",
			i + 1, i + 1, i + 1, cases[i].cwd_field, i + 1, cases[i].name_field);
		g_autoptr(Result) res = analyse_text("path.log", text);

		assert_no_problems(res);
		assert_bytes(denial_of(res, i + 1)->path, cases[i].want, cases[i].want_len);
	}
}

/* the PATH item is chosen by inode, else by name, never the PARENT item */
static void test_path_item_choice(void **state)
{
	g_autoptr(Result) res = analyse_text("items.log",
		"type=AVC msg=audit(1700000001.000:1): avc:  denied  { write } for  pid=1 comm=\"x\" "
		"name=\"new.txt\" dev=\"sda1\" " CTX_S " " CTX_T " tclass=file\n"
		"type=CWD msg=audit(1700000001.000:1): cwd=\"/data\"\n"
		"type=PATH msg=audit(1700000001.000:1): item=0 name=\"out/\" inode=2 nametype=PARENT\n"
		"type=PATH msg=audit(1700000001.000:1): item=1 name=\"out/new.txt\" inode=9 "
		"nametype=CREATE\n"
		"type=AVC msg=audit(1700000002.000:2): avc:  denied  { read } for  pid=1 comm=\"x\" "
		"name=\"b\" dev=\"sda1\" ino=8 " CTX_S " " CTX_T " tclass=file\n"
		"type=CWD msg=audit(1700000002.000:2): cwd=\"/data\"\n"
		"type=PATH msg=audit(1700000002.000:2): item=0 name=\"a\" inode=7 nametype=NORMAL\n"
		"type=PATH msg=audit(1700000002.000:2): item=1 name=\"sub/b\" inode=8 nametype=NORMAL\n"
		"type=AVC msg=audit(1700000003.000:3): avc:  denied  { read } for  pid=1 comm=\"x\" "
		"path=\"/from/avc\" dev=\"sda1\" ino=8 " CTX_S " " CTX_T " tclass=file\n"
		"type=CWD msg=audit(1700000003.000:3): cwd=\"/data\"\n"
		"type=PATH msg=audit(1700000003.000:3): item=0 name=\"sub/b\" inode=8 "
		"nametype=NORMAL\n");

	assert_no_problems(res);
	assert_bytes_str(denial_of(res, 1)->path, "/data/out/new.txt");
	assert_bytes_str(denial_of(res, 2)->path, "/data/sub/b");
	assert_bytes_str(denial_of(res, 3)->path, "/from/avc");
}

/* interpreted (ausearch -i) events are enriched too */
static void test_interpreted_event(void **state)
{
	g_autoptr(Result) res = analyse_text("interp.log",
		"----\n"
		"type=PROCTITLE msg=audit(11/14/2023 22:13:24.100:104) : "
		"proctitle=/usr/sbin/httpd -k start \n"
		"type=SOCKADDR msg=audit(11/14/2023 22:13:24.100:104) : saddr={ saddr_fam=inet "
		"laddr=127.0.0.1 lport=8080 } \n"
		"type=SYSCALL msg=audit(11/14/2023 22:13:24.100:104) : arch=x86_64 "
		"syscall=connect success=no exit=EACCES(Permission denied) a0=0x3 items=0 ppid=1 "
		"pid=100 auid=unset uid=root comm=httpd exe=/usr/sbin/httpd "
		"subj=system_u:system_r:httpd_t:s0 key=(null) \n"
		"type=AVC msg=audit(11/14/2023 22:13:24.100:104) : avc:  denied  { name_connect "
		"} for  pid=100 comm=httpd dest=8080 scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:object_r:http_cache_port_t:s0 tclass=tcp_socket permissive=0 "
		"\n");
	AdDenial *d;

	assert_no_problems(res);
	d = denial_of(res, 104);
	assert_true(ad_denial_time(d) > 1700000004.09 && ad_denial_time(d) < 1700000004.11);
	assert_str(d->syscall, "connect");
	assert_str(d->exit, "EACCES(Permission denied)");
	assert_int_equal(d->success, 0);
	assert_bytes_str(d->exe, "/usr/sbin/httpd");
	assert_bytes_str(d->cmdline, "/usr/sbin/httpd -k start");
	assert_int_equal(d->port, 8080);
	assert_int_equal(d->ppid, 1);
}

/* ausearch 3.x writes saddr_fam= (2.x: fam=) */
static void test_interpreted_sockaddr(void **state)
{
	g_autoptr(Result) res = analyse_text("interp.log",
		"type=SOCKADDR msg=audit(11/14/2023 22:13:24.100:104) : saddr={ saddr_fam=inet "
		"laddr=127.0.0.1 lport=8080 } \n"
		"type=AVC msg=audit(11/14/2023 22:13:24.100:104) : avc:  denied  { name_connect "
		"} for  pid=100 comm=httpd dest=8080 scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:object_r:http_cache_port_t:s0 tclass=tcp_socket permissive=0 "
		"\n"
		"type=SOCKADDR msg=audit(11/14/2023 22:13:25.100:105) : saddr={ fam=inet6 "
		"laddr=::1 lport=443 } \n"
		"type=AVC msg=audit(11/14/2023 22:13:25.100:105) : avc:  denied  { name_connect "
		"} for  pid=100 comm=httpd scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:object_r:http_port_t:s0 tclass=tcp_socket permissive=0 \n");

	assert_no_problems(res);
	assert_str(denial_of(res, 104)->saddr, "inet 127.0.0.1");
	assert_str(denial_of(res, 105)->saddr, "inet6 ::1");
	assert_int_equal(denial_of(res, 105)->port, 443);
}

/* raw SOCKADDR of each family */
static void test_raw_sockaddr(void **state)
{
	static const struct {
		const char *hex;
		const char *want;
		gint64 port;
	} cases[] = {
		{ "02001F907F0000010000000000000000", "inet 127.0.0.1", 8080 },
		{ "02000050C0A8FF0A0000000000000000", "inet 192.168.255.10", 80 },
		{ "02000016000000000000000000000000", "inet 0.0.0.0", 22 },
		{ "0A0001BB000000000000000000000000000000000000000100000000", "inet6 ::1",
		  443 },
		{ "01002F72756E2F646275732F73797374656D5F6275735F736F636B657400",
		  "unix /run/dbus/system_bus_socket", -1 },
		{ "0100006162737472616374", "unix @abstract", -1 },
		{ "10000000", "netlink", -1 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = g_strdup_printf(
			"type=AVC msg=audit(1700000001.000:%zu): avc:  denied  { connectto } for  "
			"pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=unix_stream_socket\n"
			"type=SOCKADDR msg=audit(1700000001.000:%zu): saddr=%s\n",
			i + 1, i + 1, cases[i].hex);
		g_autoptr(Result) res = analyse_text("sockaddr.log", text);
		AdDenial *d;

		assert_no_problems(res);
		d = denial_of(res, i + 1);
		assert_str(d->saddr, cases[i].want);
		assert_int_equal(d->port, cases[i].port);
	}
}

/* -------------------------------------------------------------- hex values */

static void test_hex_values(void **state)
{
	/* "a\0\x1b[31m\nb" + invalid UTF-8 0xff 0xfe: 11 bytes */
	static const char comm[] = "a\0\x1b[31m\nb\xff\xfe";
	g_autoptr(Result) res = analyse_text("hex.log",
		"type=AVC msg=audit(1700000001.000:1): avc:  denied  { read } for  pid=1 "
		"comm=61001B5B33316D0A62FFFE name=\"cafe\" " CTX_S " " CTX_T " tclass=file\n"
		"type=SYSCALL msg=audit(1700000001.000:1): arch=c000003e syscall=257 success=no "
		"exit=-13 comm=61001B5B33316D0A62FFFE exe=2F746D702F6D7920617070\n"
		"type=AVC msg=audit(1700000002.000:2): avc:  denied  { read } for  pid=1 "
		"comm=cafe name=deadbeef " CTX_S " " CTX_T " tclass=file\n");
	AdDenial *d;

	assert_no_problems(res);
	d = denial_of(res, 1);
	assert_bytes(d->comm, comm, sizeof(comm) - 1);
	assert_int_equal(d->comm.len, 11);
	assert_bytes_str(d->name, "cafe");			/* quoted: text */
	assert_bytes_str(d->exe, "/tmp/my app");

	d = denial_of(res, 2);
	assert_bytes(d->comm, "\xca\xfe", 2);			/* unquoted: hex */
	assert_bytes(d->name, "\xde\xad\xbe\xef", 4);
}

/* PROCTITLE: the NULs between arguments become spaces (denial.h) */
static void test_proctitle_nuls(void **state)
{
	g_autoptr(Result) res = analyse_text("proctitle.log",
		"type=AVC msg=audit(1700000001.000:1): avc:  denied  { read } for  pid=1 "
		"comm=\"x\" " CTX_S " " CTX_T " tclass=file\n"
		"type=PROCTITLE msg=audit(1700000001.000:1): "
		"proctitle=2F746D702F6D79206170700061726731002D2D78\n");

	assert_no_problems(res);
	assert_bytes_str(denial_of(res, 1)->cmdline, "/tmp/my app arg1 --x");
}

/* ---------------------------------------------------------- spoofed USER_AVC */

#define SYSTEMD_USER_AVC(serial, cmdline) \
	"type=USER_AVC msg=audit(1700000020.000:" #serial "): pid=1 uid=0 auid=4294967295 " \
	"ses=4294967295 subj=system_u:system_r:init_t:s0 msg='avc:  denied  { start } for " \
	"auid=1000 uid=1000 gid=1000 path=\"/etc/systemd/system/evil.service\" cmdline=\"" \
	cmdline "\" scontext=unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023 " \
	"tcontext=system_u:object_r:systemd_unit_file_t:s0 tclass=service permissive=0 " \
	"exe=\"/usr/lib/systemd/systemd\" sauid=0 hostname=? addr=? terminal=?'\n"

static void assert_trailing_fields_won(AdDenial *d)
{
	assert_int_equal(d->type, AD_DENIAL_USER_AVC);
	assert_str(d->scontext, "unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023");
	assert_str(d->tcontext, "system_u:object_r:systemd_unit_file_t:s0");
	assert_str(d->tclass, "service");
	assert_perms(d, PERMS("start"));
	assert_int_equal(d->permissive, 0);
}

/* planted text inside a well-quoted cmdline="..." */
static void test_spoofed_user_avc_in_cmdline(void **state)
{
	g_autoptr(Result) res = analyse_text("spoof.log", SYSTEMD_USER_AVC(120,
		"/usr/bin/systemctl start evil scontext=system_u:system_r:kernel_t:s0 "
		"tcontext=system_u:object_r:security_t:s0 tclass=security"));
	AdDenial *d;

	assert_no_problems(res);
	d = denial_of(res, 120);
	assert_trailing_fields_won(d);
	assert_bytes_str(d->cmdline, "/usr/bin/systemctl start evil "
				     "scontext=system_u:system_r:kernel_t:s0 "
				     "tcontext=system_u:object_r:security_t:s0 tclass=security");
	assert_true(d->suspect);
	assert_non_null(d->suspect_reason);
}

/* the caller's command line closes the quote and plants whole fields */
static void test_spoofed_user_avc_breakout(void **state)
{
	g_autoptr(Result) res = analyse_text("spoof.log", SYSTEMD_USER_AVC(121,
		"x\" scontext=system_u:system_r:kernel_t:s0 "
		"tcontext=system_u:object_r:security_t:s0 tclass=security permissive=1 y=\""));
	AdDenial *d;

	assert_no_problems(res);
	d = denial_of(res, 121);
	assert_trailing_fields_won(d);
	assert_true(d->suspect);
	assert_non_null(d->suspect_reason);
	assert_non_null(strstr(d->suspect_reason, "planted"));
}

/* an honest systemd record is not suspect */
static void test_honest_user_avc(void **state)
{
	g_autoptr(Result) res = analyse_text("honest.log",
		SYSTEMD_USER_AVC(122, "/usr/bin/systemctl start evil"));
	AdDenial *d;

	assert_no_problems(res);
	d = denial_of(res, 122);
	assert_trailing_fields_won(d);
	assert_bytes_str(d->cmdline, "/usr/bin/systemctl start evil");
	assert_false(d->suspect);
}

/* a file of tests/data/hostile/, read whole */
static Result *analyse_hostile(const char *name)
{
	const char *src = g_getenv("AD_SOURCE_DIR");
	g_autofree char *path = g_build_filename(src ? src : ".", "tests", "data", "hostile",
						 name, NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;

	if (!g_file_get_contents(path, &text, NULL, &error))
		print_error("%s: %s\n", path, error->message);
	assert_non_null(text);
	return analyse_text(name, text);
}

/* trusted fields of user-avc-*.log: what libselinux appended */
static void assert_hostile_trusted(AdDenial *d, const char *reason)
{
	assert_int_equal(d->type, AD_DENIAL_USER_AVC);
	assert_str(d->scontext, "unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023");
	assert_str(d->tcontext, "system_u:object_r:systemd_unit_file_t:s0");
	assert_str(d->tclass, "service");
	assert_int_equal(d->permissive, 0);
	assert_true(d->suspect);
	assert_non_null(strstr(d->suspect_reason, reason));
}

/* caller text opens a quote (x=") that would swallow the trailing fields */
static void test_hostile_planted_quote(void **state)
{
	g_autoptr(Result) res = analyse_hostile("user-avc-planted-quote.log");

	assert_no_problems(res);
	assert_hostile_trusted(denial_of(res, 1), "planted");
}

/* more fields than are split: the trailing ones are found all the same */
static void test_hostile_many_fields(void **state)
{
	g_autoptr(Result) res = analyse_hostile("user-avc-many-fields.log");

	assert_no_problems(res);
	assert_hostile_trusted(denial_of(res, 2), "more fields");
}

/*
 * caller text ends its planted run with a \x1d, the separator of auditd's
 * ENRICHED format: the line is not cut there, the trailing fields win
 */
static void test_hostile_planted_gs(void **state)
{
	g_autoptr(Result) res = analyse_hostile("user-avc-planted-gs.log");

	assert_no_problems(res);
	assert_hostile_trusted(denial_of(res, 4), "planted");
}

/*
 * caller text opens a brace after a \x1d, as auditd's SADDR={ ... } group
 * does, and never closes it: auditd closes what it opens, so this is no
 * ENRICHED part and the trailing fields still win
 */
static void test_hostile_planted_brace(void **state)
{
	g_autoptr(Result) res = analyse_hostile("user-avc-planted-brace.log");

	assert_no_problems(res);
	assert_hostile_trusted(denial_of(res, 7), "planted");
}

/*
 * caller text ends its planted run with the start of a terminal escape
 * sequence (OSC, CSI) that the reader's colour stripping would have let
 * run over the trailing fields
 */
static void test_hostile_planted_escape(void **state)
{
	g_autoptr(Result) osc = analyse_hostile("user-avc-planted-osc.log");
	g_autoptr(Result) csi = analyse_hostile("user-avc-planted-csi.log");

	assert_no_problems(osc);
	assert_hostile_trusted(denial_of(osc, 5), "planted");
	assert_no_problems(csi);
	assert_hostile_trusted(denial_of(csi, 6), "planted");
}

/* no "scontext= tcontext= tclass=" run at the end: suspect, alert of its own */
static void test_hostile_no_trailer(void **state)
{
	g_autoptr(Result) res = analyse_hostile("user-avc-no-trailer.log");
	g_autoptr(Result) honest = analyse_text("honest.log", SYSTEMD_USER_AVC(122, "x"));
	AdDenial *d;

	assert_no_problems(res);
	d = denial_of(res, 3);
	assert_true(d->suspect);
	assert_non_null(strstr(d->suspect_reason, "cannot be found"));
	assert_no_problems(honest);
	assert_false(denial_of(honest, 122)->suspect);
}

/* a suspect denial never shares the signature of the honest one it imitates */
static void test_suspect_signature(void **state)
{
	g_autoptr(Result) res = analyse_hostile("user-avc-planted-quote.log");
	g_autoptr(Result) honest = analyse_text("honest.log", SYSTEMD_USER_AVC(122, "x"));
	g_autofree char *a = NULL, *b = NULL;

	assert_no_problems(honest);
	/* the same trusted fields: only the suspect flag tells them apart */
	assert_str(denial_of(res, 1)->scontext, denial_of(honest, 122)->scontext);
	assert_str(denial_of(res, 1)->tcontext, denial_of(honest, 122)->tcontext);
	a = ad_denial_signature(denial_of(res, 1));
	b = ad_denial_signature(denial_of(honest, 122));
	assert_string_not_equal(a, b);
}

/*
 * Many records under one event stamp: PATH records matched by inode in one
 * index, and the denial records past AD_EVENT_MAX_RECORDS analysed alone
 * and counted in one problem.
 */
static void test_same_serial_flood(void **state)
{
	g_autoptr(GString) text = g_string_new(NULL);
	const char *stamp = "msg=audit(1700000040.000:7): ";
	guint n_first = 200, n_more = 1000;
	g_autoptr(Result) res = NULL;
	g_autofree char *count = NULL;
	AdDenial *d;

	g_string_append_printf(text, "type=SYSCALL %sarch=c000003e syscall=257 success=no "
			       "exit=-13 pid=5 comm=\"cat\" exe=\"/usr/bin/cat\"\n", stamp);
	for (guint i = 0; i < n_first + n_more; i++) {
		g_string_append_printf(text, "type=AVC %savc:  denied  { read } for  pid=5 "
				       "comm=\"cat\" name=\"f%u\" ino=%u " CTX_S " " CTX_T
				       " tclass=file\n", stamp, i, 10000 + i);
		/* after the first denials, in reverse: only the inode matches them */
		for (guint j = n_first; i + 1 == n_first && j-- > 0;)
			g_string_append_printf(text, "type=PATH %sitem=%u name=\"/etc/g%u\" "
					       "inode=%u nametype=NORMAL\n", stamp, j, j, 10000 + j);
	}
	res = analyse_text("flood.log", text->str);
	assert_int_equal(res->denials->len, n_first + n_more);
	d = denial_nth(res, 7, 17);
	assert_bytes_str(d->path, "/etc/g17");
	assert_str(d->syscall, "openat");
	/* the last one is past the first AD_EVENT_MAX_RECORDS: no syscall */
	d = denial_nth(res, 7, n_first + n_more - 1);
	assert_null(d->syscall);
	assert_null(d->exe.data);
	assert_int_equal(res->problems->len, 1);
	count = g_strdup_printf("%u denial records past the first %u",
				1 + 2 * n_first + n_more - AD_EVENT_MAX_RECORDS,
				AD_EVENT_MAX_RECORDS);
	assert_non_null(strstr(((Problem *)g_ptr_array_index(res->problems, 0))->message,
			       count));
}

/* ---------------------------------------------------------- malformed input */

typedef struct {
	const char *line;	/* serial 1; a good AVC with serial 2 follows */
	const char *problem;	/* substring of the one expected problem, NULL: none */
	gboolean suspect;	/* when no problem: the denial of serial 1 is suspect */
} BadCase;

#define HDR "type=AVC msg=audit(1700000001.000:1): "
#define UHDR "type=USER_AVC msg=audit(1700000001.000:1): pid=1 uid=0 auid=4294967295 ses=1 " \
	     "subj=system_u:system_r:system_dbusd_t:s0 "
#define EHDR "type=SELINUX_ERR msg=audit(1700000001.000:1): "

static const BadCase bad_cases[] = {
	{ HDR "avc:  denied  { } for  pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=file",
	  "empty", FALSE },
	{ HDR "avc:  denied  {  } for  pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=file",
	  "empty", FALSE },
	{ HDR "avc:  denied  { read for  pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=file",
	  "closing", FALSE },
	{ HDR "avc:  denied  read for  pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=file",
	  "permission list", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S " " CTX_T,
	  "no tclass", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_T " tclass=file",
	  "no scontext", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S " tclass=file",
	  "no tcontext", FALSE },
	/* truncated mid-field: the line ends inside "tcontext" */
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S " tcont", "no tcontext",
	  FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" scontext=system_u:sys " CTX_T
	  " tclass=file", "scontext is not", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S " tcontext=system_u"
	  " tclass=file", "tcontext is not", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S " tcontext= tclass=file",
	  "tcontext is not", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=",
	  "tclass", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=file;id",
	  "tclass is not", FALSE },
	{ HDR "avc:  denied  { read$(id) } for  pid=1 " CTX_S " " CTX_T " tclass=file",
	  "permission name", FALSE },
	{ HDR "denied  { read } for  pid=1 " CTX_S " " CTX_T " tclass=file", "avc:", FALSE },
	{ UHDR "avc:  denied  { send_msg } for " CTX_S " " CTX_T " tclass=dbus",
	  "USER_AVC without msg", FALSE },
	{ UHDR "msg='avc:  denied  { } for " CTX_S " " CTX_T " tclass=dbus'", "empty", FALSE },
	{ UHDR "msg='avc:  denied  { send_msg } for " CTX_S " " CTX_T, "no tclass", FALSE },
	/* SELINUX_ERR cut short or holding no context */
	{ EHDR "op=security_compute_sid invalid_context=\"\" " CTX_S " " CTX_T " tclass=process",
	  "invalid context", FALSE },
	{ EHDR "security_compute_sid:  invalid context $(id) for " CTX_S " " CTX_T
	  " tclass=process", "invalid context", FALSE },
	{ EHDR "security_compute_sid:  invalid context", "invalid context", FALSE },
	{ EHDR "security_compute_sid:  invalid context ", "invalid context", FALSE },
	{ EHDR "op=security_compute_av reason=bounds scontext=x;y " CTX_T " tclass=file "
	  "perms=read", "scontext is not", FALSE },
	/* odd timestamps: the denial is all there, read with time and serial unknown */
	{ "type=AVC msg=audit(1700000001.000): avc:  denied  { read } for " CTX_S " " CTX_T
	  " tclass=file", NULL, FALSE },
	{ "type=AVC msg=audit(1700000001.000:-1): avc:  denied  { read } for " CTX_S " " CTX_T
	  " tclass=file", NULL, FALSE },
	/* ... but not when the denial is broken too */
	{ "type=AVC msg=audit(1700000001.000:-1): avc:  denied  { read } for " CTX_S
	  " tclass=file", "timestamp", FALSE },
	/*
	 * a field the kernel writes once, twice: what two records run together
	 * make, whose fields must not be mixed into one denial: refused
	 */
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S " " CTX_T
	  " tclass=file tclass=dir", "a field appears twice", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" " CTX_S
	  " scontext=system_u:system_r:kernel_t:s0 " CTX_T " tclass=file",
	  "a field appears twice", FALSE },
	{ HDR "avc:  denied  { read } for  pid=1 comm=\"x\" pid=2 comm=\"y\" " CTX_S " " CTX_T
	  " tclass=file", "a field appears twice", FALSE },
	{ HDR "avc:  denied  { read read } for  pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=file",
	  NULL, TRUE },
};

/* runs one case in a child process: TRUE when it neither crashed nor aborted */
static gboolean case_survives(const char *text)
{
	pid_t pid;
	int status = 0;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		Result *res;

		/* cmocka's handlers would carry on with the other tests in the child */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGABRT, SIG_DFL);
		res = analyse_text("bad.log", text);

		result_free(res);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void test_malformed_table(void **state)
{
	guint failures = 0;

	for (gsize i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		const BadCase *c = &bad_cases[i];
		g_autofree char *text = g_strdup_printf("%s\n" GOOD_AVC(2), c->line);
		g_autoptr(Result) res = NULL;
		guint n_good = 0, n_bad = 0;
		AdDenial *bad = NULL;

		if (!case_survives(text)) {
			print_error("case %zu [%s]: the analysis crashed\n", i, c->line);
			failures++;
			continue;
		}
		res = analyse_text("bad.log", text);
		for (guint j = 0; j < res->denials->len; j++) {
			AdDenial *d = g_ptr_array_index(res->denials, j);

			if (ad_denial_serial(d) == 2) {
				n_good++;
			} else {
				n_bad++;
				bad = d;
			}
		}
		/* the rest of the input is still analysed */
		if (n_good != 1) {
			print_error("case %zu [%s]: the good record gave %u denials\n", i, c->line,
				    n_good);
			failures++;
		}
		if (c->problem) {
			Problem *p = res->problems->len == 1 ? g_ptr_array_index(res->problems, 0)
							     : NULL;

			if (!p || strcmp(p->file, "bad.log") != 0 || p->line != 1 ||
			    !strstr(p->message, c->problem) || n_bad != 0) {
				print_error("case %zu [%s]: expected one problem \"%s\" at bad.log:1 "
					    "and no denial; got %u problems (%s:%u: %s), %u denials\n",
					    i, c->line, c->problem, res->problems->len,
					    p ? p->file : "-", p ? p->line : 0,
					    p ? p->message : "-", n_bad);
				failures++;
			}
		} else {
			if (res->problems->len != 0 || n_bad != 1 || bad->suspect != c->suspect ||
			    (c->suspect && !bad->suspect_reason)) {
				print_error("case %zu [%s]: expected a denial, suspect=%d; got %u "
					    "problems, %u denials, suspect=%d\n", i, c->line,
					    c->suspect, res->problems->len, n_bad,
					    bad ? bad->suspect : -1);
				failures++;
			}
		}
	}
	assert_int_equal(failures, 0);
}

/* a bad record inside an event does not stop the good one beside it */
static void test_bad_record_same_event(void **state)
{
	g_autoptr(Result) res = analyse_text("mixed.log",
		HDR "avc:  denied  { } for  pid=1 " CTX_S " " CTX_T " tclass=file\n"
		HDR "avc:  denied  { write } for  pid=1 comm=\"x\" " CTX_S " " CTX_T " tclass=file\n"
		"type=SYSCALL msg=audit(1700000001.000:1): arch=c000003e syscall=257 success=no\n");
	AdDenial *d;

	assert_int_equal(res->problems->len, 1);
	assert_int_equal(((Problem *)g_ptr_array_index(res->problems, 0))->line, 1);
	d = denial_of(res, 1);
	assert_perms(d, PERMS("write"));
	assert_int_equal(d->record->line, 2);
	assert_str(d->syscall, "openat");
}

/* ---------------------------------------------------------- small helpers */

static void test_context_type(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "system_u:system_r:httpd_t:s0", "httpd_t" },
		{ "system_u:system_r:httpd_t", "httpd_t" },
		{ "u:r:t:s0-s0:c0.c1023", "t" },
		{ "wheel.id:wheel.role:user.subj:s0", "user.subj" },
		{ "system_u:system_r", NULL },
		{ "nocolon", NULL },
		{ NULL, NULL },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got = ad_context_type(cases[i].in);

		if (cases[i].want)
			assert_str(got, cases[i].want);
		else
			assert_null(got);
	}
}

static void test_refcounts(void **state)
{
	g_autoptr(Result) res = analyse_text("ref.log", GOOD_AVC(7));
	AdDenial *d = denial_of(res, 7);
	AdEvent *ev = d->event;

	/* the denial keeps its event alive after everything else lets go */
	ad_denial_ref(d);
	g_ptr_array_set_size(res->events, 0);
	g_ptr_array_set_size(res->denials, 0);
	assert_int_equal(ev->serial, 7);
	assert_str(d->record->file, "ref.log");
	ad_denial_unref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crafted_all),
		cmocka_unit_test(test_crafted_101),
		cmocka_unit_test(test_crafted_102_permissive),
		cmocka_unit_test(test_crafted_104_port),
		cmocka_unit_test(test_crafted_107_granted),
		cmocka_unit_test(test_crafted_110_ioctl),
		cmocka_unit_test(test_crafted_111_user_avc),
		cmocka_unit_test(test_crafted_112_113_invalid_context),
		cmocka_unit_test(test_crafted_unknown_names),
		cmocka_unit_test(test_policy_load_marker),
		cmocka_unit_test(test_notebook_selinux_err),
		cmocka_unit_test(test_notebook_enrichment),
		cmocka_unit_test(test_synthetic_fanotify),
		cmocka_unit_test(test_synthetic_malformed_permissions),
		cmocka_unit_test(test_syscall_arch),
		cmocka_unit_test(test_syscall_i386_corpus),
		cmocka_unit_test(test_full_path),
		cmocka_unit_test(test_path_item_choice),
		cmocka_unit_test(test_interpreted_event),
		cmocka_unit_test(test_interpreted_sockaddr),
		cmocka_unit_test(test_raw_sockaddr),
		cmocka_unit_test(test_hex_values),
		cmocka_unit_test(test_proctitle_nuls),
		cmocka_unit_test(test_spoofed_user_avc_in_cmdline),
		cmocka_unit_test(test_spoofed_user_avc_breakout),
		cmocka_unit_test(test_honest_user_avc),
		cmocka_unit_test(test_hostile_planted_quote),
		cmocka_unit_test(test_hostile_many_fields),
		cmocka_unit_test(test_hostile_planted_gs),
		cmocka_unit_test(test_hostile_planted_brace),
		cmocka_unit_test(test_hostile_planted_escape),
		cmocka_unit_test(test_hostile_no_trailer),
		cmocka_unit_test(test_suspect_signature),
		cmocka_unit_test(test_same_serial_flood),
		cmocka_unit_test(test_malformed_table),
		cmocka_unit_test(test_bad_record_same_event),
		cmocka_unit_test(test_context_type),
		cmocka_unit_test(test_refcounts),
	};

	g_setenv("TZ", "UTC", TRUE);
	tzset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
