// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How the fix helper takes back the commands of a fix that worked when a
 * later one fails: the undo decided for each kind of command (a boolean
 * gets its value of before, a port or file context added is deleted, a
 * module loaded is removed at its priority, a relabel cannot be taken
 * back), and running them newest first.  The programs are stand-ins in a
 * directory of the test's own (the helper's bin_dir): getsebool answers
 * from a file, the others record their arguments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "undo.h"

#define ALERT_ID "0123456789abcdef"

static char *bin_dir;
static AdFixitConfig cfg;

static void write_script(const char *name, const char *body)
{
	g_autofree char *path = g_build_filename(bin_dir, name, NULL);
	g_autofree char *text = g_strdup_printf("#!/bin/sh\n%s", body);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	assert_int_equal(g_chmod(path, 0755), 0);
}

static int setup(void **state)
{
	g_autofree char *calls = NULL, *script = NULL;

	(void)state;
	bin_dir = g_dir_make_tmp("test-fixit-undo-XXXXXX", NULL);
	assert_non_null(bin_dir);
	/* "NAME --> on|off" as getsebool prints it, from the file "booleans" */
	script = g_strdup_printf("v=$(sed -n \"s/^$1=//p\" '%s/booleans')\n"
				 "[ -n \"$v\" ] || { echo \"getsebool: $1: not found\" >&2; exit 1; }\n"
				 "echo \"$1 --> $v\"\n", bin_dir);
	write_script("getsebool", script);
	/* the others append their argument vector, one line, to "calls" */
	calls = g_build_filename(bin_dir, "calls", NULL);
	g_free(script);
	script = g_strdup_printf("echo \"$(basename \"$0\") $*\" >>'%s'\n", calls);
	write_script("setsebool", script);
	write_script("semanage", script);
	write_script("semodule", script);
	cfg.bin_dir = g_strdup(bin_dir);
	cfg.timeout_s = 10;
	return 0;
}

static int teardown(void **state)
{
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", bin_dir);

	(void)state;
	assert_int_equal(system(cmd), 0);
	g_clear_pointer(&bin_dir, g_free);
	ad_fixit_config_clear(&cfg);
	return 0;
}

static void set_booleans(const char *text)
{
	g_autofree char *path = g_build_filename(bin_dir, "booleans", NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
}

/* the undo of @argv, which must be an allowed command; its command line in @ret_line */
static AdFixitUndo *undo_of(const char *const *argv, char **ret_line)
{
	g_autoptr(GError) error = NULL;
	AdFixitStep step;
	AdFixitUndo *u;

	assert_true(ad_fixit_check_command(argv, ALERT_ID, &step, &error));
	u = ad_fixit_undo_for(&cfg, (char **)argv, &step);
	ad_fixit_step_clear(&step);
	assert_non_null(u);
	*ret_line = u->argv ? g_strjoinv(" ", u->argv) : NULL;
	return u;
}

static void assert_undo(const char *const *argv, AdFixitUndoKind kind, const char *want)
{
	g_autofree char *line = NULL;
	AdFixitUndo *u = undo_of(argv, &line);

	assert_int_equal(u->kind, kind);
	if (want)
		assert_string_equal(line, want);
	else
		assert_null(line);
	ad_fixit_undo_free(u);
}

/* setsebool: each boolean gets the value getsebool gave before; -P kept */
static void test_setsebool(void **state)
{
	(void)state;
	set_booleans("httpd_enable_cgi=off\nhttpd_unified=on\n");
	assert_undo((const char *const[]){ "setsebool", "-P", "httpd_enable_cgi=1",
					   "httpd_unified=0", NULL },
		    AD_FIXIT_UNDO_RUN, "setsebool -P httpd_enable_cgi=off httpd_unified=on");
	assert_undo((const char *const[]){ "setsebool", "httpd_enable_cgi=on", NULL },
		    AD_FIXIT_UNDO_RUN, "setsebool httpd_enable_cgi=off");
	/* a value that cannot be known: the change cannot be taken back, and says so */
	assert_undo((const char *const[]){ "setsebool", "-P", "no_such_bool=1", NULL },
		    AD_FIXIT_UNDO_CANNOT, NULL);
}

/* semanage boolean -m: the other switch, by the value of before */
static void test_semanage_boolean(void **state)
{
	(void)state;
	set_booleans("ftpd_full_access=off\n");
	assert_undo((const char *const[]){ "semanage", "boolean", "-m", "--on",
					   "ftpd_full_access", NULL },
		    AD_FIXIT_UNDO_RUN, "semanage boolean -m --off ftpd_full_access");
}

/* semanage port -a: the same protocol and port (range) deleted */
static void test_port(void **state)
{
	(void)state;
	assert_undo((const char *const[]){ "semanage", "port", "-a", "-t", "ssh_port_t",
					   "-p", "tcp", "2222", NULL },
		    AD_FIXIT_UNDO_RUN, "semanage port -d -p tcp 2222");
	assert_undo((const char *const[]){ "semanage", "port", "-a", "-t", "http_port_t",
					   "-p", "udp", "8000-8010", NULL },
		    AD_FIXIT_UNDO_RUN, "semanage port -d -p udp 8000-8010");
	/* -m: the old type is not known */
	assert_undo((const char *const[]){ "semanage", "port", "-m", "-t", "ssh_port_t",
					   "-p", "tcp", "2222", NULL },
		    AD_FIXIT_UNDO_CANNOT, NULL);
}

/* semanage fcontext -a: the same specification (and file type) deleted */
static void test_fcontext(void **state)
{
	(void)state;
	assert_undo((const char *const[]){ "semanage", "fcontext", "-a", "-f", "d", "-t",
					   "httpd_sys_rw_content_t", "--",
					   "/var/www/html/uploads(/.*)?", NULL },
		    AD_FIXIT_UNDO_RUN, "semanage fcontext -d -f d -- /var/www/html/uploads(/.*)?");
}

/* a module: building changes nothing; loading is undone by removing it at its priority */
static void test_module(void **state)
{
	(void)state;
	assert_undo((const char *const[]){ "avcdoctor", "allow", "--alert", ALERT_ID, "-M",
					   "local_httpd", NULL },
		    AD_FIXIT_UNDO_NONE, NULL);
	assert_undo((const char *const[]){ "semodule", "-X", "300", "-i", "local_httpd.pp",
					   NULL },
		    AD_FIXIT_UNDO_RUN, "semodule -X 300 -r local_httpd");
	assert_undo((const char *const[]){ "semodule", "-i", "local_httpd.pp", NULL },
		    AD_FIXIT_UNDO_RUN, "semodule -r local_httpd");
}

/* restorecon: the labels it changed are not known, so it cannot be taken back */
static void test_restorecon(void **state)
{
	(void)state;
	assert_undo((const char *const[]){ "restorecon", "-v", "--", "/srv/www/index.html",
					   NULL },
		    AD_FIXIT_UNDO_CANNOT, NULL);
}

/* undo_all: newest first, each run for real, the report says what was and was not */
static void test_undo_all(void **state)
{
	g_autoptr(GPtrArray) undo = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ad_fixit_undo_free);
	g_autoptr(GString) report = g_string_new(NULL);
	g_autofree char *calls_path = g_build_filename(bin_dir, "calls", NULL);
	g_autofree char *calls = NULL, *line = NULL;

	(void)state;
	g_unlink(calls_path);
	set_booleans("httpd_enable_cgi=off\n");
	g_ptr_array_add(undo, undo_of((const char *const[]){ "setsebool", "-P",
							      "httpd_enable_cgi=1", NULL },
				      &line));
	g_clear_pointer(&line, g_free);
	g_ptr_array_add(undo, undo_of((const char *const[]){ "restorecon", "--", "/srv/a",
							      NULL },
				      &line));
	g_clear_pointer(&line, g_free);
	g_ptr_array_add(undo, undo_of((const char *const[]){ "semanage", "port", "-a", "-t",
							      "ssh_port_t", "-p", "tcp", "2222",
							      NULL },
				      &line));
	ad_fixit_undo_all(&cfg, undo, report);

	assert_true(g_file_get_contents(calls_path, &calls, NULL, NULL));
	/* the port (added last) first, then the boolean; restorecon has nothing to run */
	assert_string_equal(calls, "semanage port -d -p tcp 2222\n"
				   "setsebool -P httpd_enable_cgi=off\n");
	assert_non_null(strstr(report->str, "undone: semanage port -d -p tcp 2222\n"));
	assert_non_null(strstr(report->str, "not undone (cannot be): restorecon -- /srv/a\n"));
	assert_non_null(strstr(report->str, "undone: setsebool -P httpd_enable_cgi=off\n"));
	assert_true(strstr(report->str, "semanage port") < strstr(report->str, "restorecon") &&
		    strstr(report->str, "restorecon") < strstr(report->str, "setsebool"));
}

/* an undo that fails is reported as failed, and the others still run */
static void test_undo_fails(void **state)
{
	g_autoptr(GPtrArray) undo = g_ptr_array_new_with_free_func(
		(GDestroyNotify)ad_fixit_undo_free);
	g_autoptr(GString) report = g_string_new(NULL);
	g_autofree char *line = NULL;

	(void)state;
	set_booleans("httpd_enable_cgi=off\n");
	g_ptr_array_add(undo, undo_of((const char *const[]){ "setsebool", "httpd_enable_cgi=1",
							      NULL },
				      &line));
	g_clear_pointer(&line, g_free);
	g_ptr_array_add(undo, undo_of((const char *const[]){ "semodule", "-i", "m.pp", NULL },
				      &line));
	write_script("semodule", "echo 'semodule: cannot remove m' >&2\nexit 1\n");
	ad_fixit_undo_all(&cfg, undo, report);
	assert_non_null(strstr(report->str, "undo FAILED: "));
	assert_non_null(strstr(report->str, "cannot remove m"));
	assert_non_null(strstr(report->str, "undone: setsebool httpd_enable_cgi=off\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setsebool),
		cmocka_unit_test(test_semanage_boolean),
		cmocka_unit_test(test_port),
		cmocka_unit_test(test_fcontext),
		cmocka_unit_test(test_module),
		cmocka_unit_test(test_restorecon),
		cmocka_unit_test(test_undo_all),
		cmocka_unit_test(test_undo_fails),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
