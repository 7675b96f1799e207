// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The file_contexts matcher against libselinux's selabel_lookup(): on the
 * installed policy's file_contexts, a path made from every entry (so that
 * each entry is the one that should win somewhere, and the priorities
 * between entries are exercised), with and without a file type; on small
 * hand-made files, the rules one by one, with the answer known by
 * construction as well as compared.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <selinux/label.h>
#include <selinux/selinux.h>

#include "policy/fcontext.h"

#define INSTALLED "/etc/selinux/default/contexts/files/file_contexts"

static struct selabel_handle *selabel(const char *path)
{
	struct selinux_opt opts[] = { { SELABEL_OPT_PATH, path } };

	return selabel_open(SELABEL_CTX_FILE, opts, 1);
}

/* selabel's answer, NULL when it has none; owned */
static char *selabel_answer(struct selabel_handle *h, const char *path, mode_t mode)
{
	char *con = NULL, *ret;

	if (selabel_lookup_raw(h, &con, path, mode) < 0)
		return NULL;
	ret = g_strdup(con);
	freecon(con);
	return ret;
}

/* compares one lookup; returns FALSE (and prints the difference) when they differ */
static gboolean same_answer(struct selabel_handle *h, AdFcontexts *fc, const char *path,
			    mode_t mode)
{
	g_autofree char *want = selabel_answer(h, path, mode);
	const char *got = ad_fcontexts_lookup(fc, path, mode);

	if (g_strcmp0(want, got) == 0)
		return TRUE;
	print_error("%s (mode %o): selabel %s, avcdoctor %s\n", path, (unsigned)mode,
		    want ? want : "(none)", got ? got : "(none)");
	return FALSE;
}

/*
 * A path the expression @re matches, or nearly: the first alternative of
 * each group, one character for a class or '.', "abc" for ".*", optional
 * parts taken once.  Made to hit the entry, not to be exact.
 */
static void path_from_regex(GString *out, const char *re, const char *end)
{
	const char *c = re;

	while (c < end) {
		switch (*c) {
		case '\\':
			if (c + 1 < end) {
				g_string_append_c(out, g_ascii_isalnum(c[1]) ? '1' : c[1]);
				c += 2;
			} else {
				c++;
			}
			break;
		case '(': {
			const char *alt_end = NULL, *close = c + 1;
			int depth = 1;

			for (; close < end && depth; close++) {
				if (*close == '\\') {
					close++;
					continue;
				}
				if (*close == '(')
					depth++;
				else if (*close == ')')
					depth--;
				else if (*close == '|' && depth == 1 && !alt_end)
					alt_end = close;
			}
			/* close is past the ')' */
			path_from_regex(out, c + 1, alt_end ? alt_end : close - 1);
			c = close;
			break;
		}
		case '[':
			c++;
			if (c < end && *c == '^')
				c++;
			if (c < end && *c == ']')
				c++;
			while (c < end && *c != ']')
				c++;
			g_string_append_c(out, 'x');
			c++;
			break;
		case '.':
			if (c + 1 < end && (c[1] == '*' || c[1] == '+')) {
				g_string_append(out, "abc");
				c += 2;
			} else {
				g_string_append_c(out, 'x');
				c++;
			}
			break;
		case '{':
			while (c < end && *c != '}')
				c++;
			c++;
			break;
		case '?': case '*': case '+': case '^': case '$':
			c++;
			break;
		case '|':
			return;
		default:
			g_string_append_c(out, *c++);
		}
	}
}

static void test_installed(void **state)
{
	static const mode_t modes[] = { 0, S_IFREG, S_IFDIR, S_IFLNK, S_IFCHR, S_IFSOCK };
	static const char *const extra[] = {
		"/", "/bin/bash", "/lib/systemd/systemd", "/usr//bin///ls", "/etc/", "/etc/shadow",
		"/var/www/html/uploads/", "/home/alice/.ssh/authorized_keys", "/root/.ssh",
		"/proc/1/status", "/sys/fs/selinux/enforce", "/tmp/x", "/no/such/place",
		"/var/lib/private/x", "/usr/lib64/libc.so.6", "/usr/local/lib/x.so",
		"/var/run/docker.sock", "/run/lock/x", "/srv/www/a b", "/dev/pts/0", "relative",
	};
	struct selabel_handle *h;
	g_autoptr(AdFcontexts) fc = NULL;
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	guint compared = 0, differ = 0;

	(void)state;
	if (!g_file_test(INSTALLED, G_FILE_TEST_IS_REGULAR) || !(h = selabel(INSTALLED))) {
		skip();
		return;
	}
	fc = ad_fcontexts_load(INSTALLED, NULL);
	assert_non_null(fc);
	assert_true(ad_fcontexts_count(fc) > 1000);
	assert_int_equal(ad_fcontexts_skipped(fc), 0);
	assert_true(g_file_get_contents(INSTALLED, &text, NULL, NULL));
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		g_autoptr(GString) path = g_string_new(NULL);
		const char *re = g_strstrip(*l);
		gsize len = strcspn(re, " \t");

		if (!*re || *re == '#')
			continue;
		path_from_regex(path, re, re + len);
		for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
			differ += !same_answer(h, fc, path->str, modes[m]);
			compared++;
		}
	}
	for (guint i = 0; i < G_N_ELEMENTS(extra); i++)
		for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
			differ += !same_answer(h, fc, extra[i], modes[m]);
			compared++;
		}
	selabel_close(h);
	print_message("%u lookups compared with selabel_lookup, %u differ\n", compared, differ);
	assert_true(compared > 10000);
	assert_int_equal(differ, 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	g_autofree char *p = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(p, text, -1, NULL));
}

/* a hand-made file_contexts: each rule of the lookup, answered by construction */
static const char base[] =
	"/.*\t\tu:r:default_t:s0\n"
	"/srv(/.*)?\tu:r:srv_t:s0\n"
	"/srv/data/exact\tu:r:exact_t:s0\n"
	"/srv/data(/.*)?\tu:r:early_t:s0\n"
	"/srv/data(/.*)?\tu:r:late_t:s0\n"
	"/srv/dir\t-d\tu:r:dir_t:s0\n"
	"/srv/none(/.*)?\t<<none>>\n"
	"/opt/lib6?4?(/.*)?\tu:r:lib_t:s0\n"
	"/alt/b|/zzz\tu:r:alt_t:s0\n"
	"/home/[^/]+\t-d\tu:r:home_t:s0\n";

static void test_rules(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("fcontext-XXXXXX", NULL);
	g_autofree char *fcpath = g_build_filename(dir, "file_contexts", NULL);
	struct selabel_handle *h;
	g_autoptr(AdFcontexts) fc = NULL;
	static const char *const files[] = {
		"file_contexts", "file_contexts.homedirs", "file_contexts.local",
		"file_contexts.subs_dist", "file_contexts.subs",
	};
	static const struct {
		const char *path;
		mode_t mode;
		const char *want;
	} cases[] = {
		/* the last matching entry wins */
		{ "/srv/data/x", 0, "u:r:late_t:s0" },
		/* an exact path wins over every expression, wherever it stands */
		{ "/srv/data/exact", 0, "u:r:exact_t:s0" },
		/* the file type must fit; 0 fits every entry */
		{ "/srv/dir", S_IFDIR, "u:r:dir_t:s0" },
		{ "/srv/dir", S_IFREG, "u:r:srv_t:s0" },
		{ "/srv/dir", 0, "u:r:dir_t:s0" },
		/* <<none>>: no label at all, even though an earlier entry matches */
		{ "/srv/none/x", 0, NULL },
		/* .local comes after .homedirs, which comes after the main file */
		{ "/home/bob/x", 0, "u:r:local_t:s0" },
		{ "/home/bob", 0, "u:r:home_t:s0" },
		/* aliases: .subs first, then .subs_dist on the result */
		{ "/web/x", 0, "u:r:late_t:s0" },
		{ "/old/data/x", 0, "u:r:late_t:s0" },
		/* runs of '/' and a trailing '/' */
		{ "//srv///data//exact/", 0, "u:r:exact_t:s0" },
		/* a quantifier makes the last literal character optional */
		{ "/opt/lib/x", 0, "u:r:lib_t:s0" },
		{ "/opt/lib64/x", 0, "u:r:lib_t:s0" },
		/* an alternation at the top: no common literal start */
		{ "/alt/b", 0, "u:r:alt_t:s0" },
		/* ... but the entry has the stem /alt: a path of another stem never tries it */
		{ "/zzz", 0, "u:r:default_t:s0" },
		/* no entry matches a relative path */
		{ "nothing", 0, NULL },
	};
	g_autofree char *with_bad = g_strconcat("# comment\n", base, "/bad\t-x\tu:r:never_t:s0\n", NULL);

	(void)state;
	write_file(dir, "file_contexts", with_bad);
	write_file(dir, "file_contexts.homedirs", "/home/[^/]+/.*\tu:r:user_home_t:s0\n");
	write_file(dir, "file_contexts.local", "/home/bob/.*\tu:r:local_t:s0\n");
	write_file(dir, "file_contexts.subs_dist", "/old /srv\n");
	write_file(dir, "file_contexts.subs", "/web /old/data\n");
	fc = ad_fcontexts_load(fcpath, NULL);
	assert_non_null(fc);
	/* "-x" is no file type: that line is left out */
	assert_int_equal(ad_fcontexts_skipped(fc), 1);
	/* the path a file context must name (semanage refuses one under an alias) */
	{
		g_autofree char *a = ad_fcontexts_alias(fc, "/web/x");
		g_autofree char *b = ad_fcontexts_alias(fc, "/old");
		g_autofree char *c = ad_fcontexts_alias(fc, "/oldish/x");

		assert_string_equal(a, "/srv/data/x");
		assert_string_equal(b, "/srv");
		assert_null(c);
	}
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *got = ad_fcontexts_lookup(fc, cases[i].path, cases[i].mode);

		if (g_strcmp0(got, cases[i].want))
			fail_msg("%s: got %s, want %s", cases[i].path, got ? got : "(none)",
				 cases[i].want ? cases[i].want : "(none)");
	}
	/* libselinux refuses the whole file for the bad line: compare without it */
	write_file(dir, "file_contexts", base);
	g_clear_pointer(&fc, ad_fcontexts_free);
	fc = ad_fcontexts_load(fcpath, NULL);
	h = selabel(fcpath);
	assert_non_null(h);
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++)
		assert_true(same_answer(h, fc, cases[i].path, cases[i].mode));
	selabel_close(h);
	/* a file that cannot be read is an error */
	assert_null(ad_fcontexts_load("/nonexistent/file_contexts", NULL));
	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *p = g_build_filename(dir, files[i], NULL);

		assert_int_equal(g_remove(p), 0);
	}
	assert_int_equal(g_rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_installed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
