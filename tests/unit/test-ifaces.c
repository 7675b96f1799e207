// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for ifaces.c, the refpolicy interface reader of allow -R: the
 * hand-written tests/data/ifaces (permission sets, patterns, nested calls,
 * class sets, self, attributes, and the interfaces it must refuse), then the
 * real selinux-policy-dev headers when installed (parse time under a second,
 * files_read_etc_files for httpd_t reading etc_t files, no interface for an
 * access nothing grants).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "output/ifaces.h"

#define REAL_POLICY "/etc/selinux/default/policy/policy.33"

static AdIfaces *load_test_data(void)
{
	const char *src = g_getenv("AD_SOURCE_DIR");
	g_autofree char *dir = g_build_filename(src ? src : ".", "tests", "data", "ifaces", NULL);
	g_autoptr(GError) error = NULL;
	AdIfaces *ifs = ad_ifaces_load(dir, &error);

	assert_non_null(ifs);
	return ifs;
}

static void test_parse(void **state)
{
	g_autoptr(AdIfaces) ifs = load_test_data();

	(void)state;
	/* 11 interfaces and a template; 6 are allow rules on $1 only */
	assert_int_equal(ad_ifaces_n_defined(ifs), 12);
	assert_int_equal(ad_ifaces_n_usable(ifs), 6);
	/* read_files_pattern with the permission sets expanded */
	assert_true(ad_ifaces_grants(ifs, "demo_read_files", "demo_dir_t", "dir", "search"));
	assert_true(ad_ifaces_grants(ifs, "demo_read_files", "demo_t", "file", "ioctl"));
	assert_false(ad_ifaces_grants(ifs, "demo_read_files", "demo_t", "file", "write"));
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_read_files"), 8);
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_rw_files"), 7);
	/* a nested call plus its own rule; dontaudit grants nothing */
	assert_true(ad_ifaces_grants(ifs, "demo_read_all", "demo_t", "file", "read"));
	assert_true(ad_ifaces_grants(ifs, "demo_read_all", "demo_t", "lnk_file", "read"));
	assert_false(ad_ifaces_grants(ifs, "demo_read_all", "demo_t", "file", "write"));
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_read_all"), 10);
	/* a class set inside a pattern */
	assert_true(ad_ifaces_grants(ifs, "demo_getattr_all", "demo_t", "lnk_file", "getattr"));
	assert_true(ad_ifaces_grants(ifs, "demo_self_signal", "self", "process", "sigchld"));
	/* refused: type_transition, optional_policy, rules for another domain, $2, templates */
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_create_tmp"), 0);
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_optional"), 0);
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_other_domain"), 0);
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_two"), 0);
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_uses_template"), 0);
	assert_int_equal(ad_ifaces_n_perms(ifs, "demo_template"), 0);
}

static void test_match(void **state)
{
	g_autoptr(AdIfaces) ifs = load_test_data();
	const char *read[] = { "getattr", "open", "read" };
	const char *rw[] = { "read", "write" };
	const char *search[] = { "search" };
	const char *signal[] = { "signal" };
	const char *exec[] = { "execute" };

	(void)state;
	/* read_files grants 2 more on the file, rw_files 4: fewer overall loses */
	assert_string_equal(ad_ifaces_match(ifs, NULL, "x_t", "demo_t", "file", read, 3),
			    "demo_read_files");
	assert_string_equal(ad_ifaces_match(ifs, NULL, "x_t", "demo_t", "file", rw, 2),
			    "demo_rw_files");
	/* same extras on the directory: the one granting least overall */
	assert_string_equal(ad_ifaces_match(ifs, NULL, "x_t", "demo_dir_t", "dir", search, 1),
			    "demo_getattr_all");
	assert_string_equal(ad_ifaces_match(ifs, NULL, "x_t", "x_t", "process", signal, 1),
			    "demo_self_signal");
	assert_null(ad_ifaces_match(ifs, NULL, "x_t", "y_t", "process", signal, 1));
	/* nothing grants it: the allow rule stays */
	assert_null(ad_ifaces_match(ifs, NULL, "x_t", "demo_t", "file", exec, 1));
	assert_null(ad_ifaces_match(ifs, NULL, "x_t", "other_t", "file", read, 3));
	/* without a policy, attributes are not expanded */
	assert_null(ad_ifaces_match(ifs, NULL, "x_t", "demo_file_type_member_t", "file", read, 3));
}

static void test_missing_dir(void **state)
{
	g_autoptr(GError) error = NULL;
	AdIfaces *ifs = ad_ifaces_load("/nonexistent/selinux/devel/include", &error);

	(void)state;
	assert_null(ifs);
	assert_non_null(error);
	assert_non_null(strstr(error->message, "selinux-policy-dev"));
}

static void test_real_headers(void **state)
{
	g_autoptr(AdIfaces) ifs = NULL;
	AdPolicy *policy = NULL;
	const char *read[] = { "getattr", "open", "read" };
	const char *write[] = { "write" };
	gint64 t0;
	double secs;

	(void)state;
	if (!g_file_test(AD_IFACES_DIR "/kernel/files.if", G_FILE_TEST_EXISTS)) {
		print_message("skipped: selinux-policy-dev is not installed\n");
		skip();
	}
	t0 = g_get_monotonic_time();
	ifs = ad_ifaces_load(AD_IFACES_DIR, NULL);
	secs = (g_get_monotonic_time() - t0) / 1e6;
	assert_non_null(ifs);
	print_message("%u interfaces, %u usable, read in %.3f s\n", ad_ifaces_n_defined(ifs),
		      ad_ifaces_n_usable(ifs), secs);
	assert_true(ad_ifaces_n_usable(ifs) > 1000);
	/* interface(`files_read_etc_files'): list_dir_perms, read_files_pattern, read_lnk_files_pattern */
	assert_true(ad_ifaces_grants(ifs, "files_read_etc_files", "etc_t", "file", "read"));
	assert_true(ad_ifaces_grants(ifs, "files_read_etc_files", "etc_t", "lnk_file", "read"));
	assert_true(ad_ifaces_grants(ifs, "files_read_etc_files", "etc_t", "dir", "search"));
	assert_false(ad_ifaces_grants(ifs, "files_read_etc_files", "etc_t", "file", "write"));
	if (g_file_test(REAL_POLICY, G_FILE_TEST_EXISTS))
		policy = ad_policy_load(REAL_POLICY, NULL);
	assert_string_equal(ad_ifaces_match(ifs, policy, "httpd_t", "etc_t", "file", read, 3),
			    "files_read_etc_files");
	assert_string_equal(ad_ifaces_match(ifs, policy, "httpd_t", "httpd_sys_content_t",
					    "file", read, 3), "apache_read_sys_content");
	/* no interface lets a domain write /etc/shadow */
	assert_null(ad_ifaces_match(ifs, policy, "httpd_t", "shadow_t", "file", write, 1));
	if (policy)
		ad_policy_free(policy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_missing_dir),
		cmocka_unit_test(test_real_headers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
