// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for rules.c, the declarative rule book: every kind of broken
 * file is rejected whole with FILE:LINE, directories load in natural order
 * and one broken file does not stop the others, matching on denials built
 * from audit records gives the right argument vectors (hostile paths kept
 * as one argument, regular expressions escaped), and the shipped
 * rules/NN-topic.rules load cleanly and name only what the real policy defines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "paths.h"
#include "read/denial.h"
#include "analysis/plugin.h"
#include "policy/policy.h"
#include "read/reader.h"
#include "analysis/rules.h"
#include "analysis/suggest.h"
#include "policy/policy-edit.h"

#define REAL_POLICY "/etc/selinux/default/policy/policy.33"

static AdPolicy *pol;		/* the real policy, when installed */

#define NEED_POLICY()                                                                      \
	do {                                                                               \
		if (!pol) {                                                                \
			print_message("skipped: %s is not available\n", REAL_POLICY);     \
			skip();                                                            \
		}                                                                          \
	} while (0)

/* ---- helpers ---------------------------------------------------------------- */

static const char *source_dir(void)
{
	const char *d = g_getenv("AD_SOURCE_DIR");

	return d ? d : ".";
}

static char *source_path(const char *rel)
{
	return g_build_filename(source_dir(), rel, NULL);
}

/* a fresh temporary directory; the caller removes it with rm_rf() */
static char *tmp_dir(void)
{
	g_autoptr(GError) error = NULL;
	char *d = g_dir_make_tmp("test-rules-XXXXXX", &error);

	assert_non_null(d);
	return d;
}

static void rm_rf(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		g_unlink(p);
	}
	g_rmdir(dir);
}

static char *write_file(const char *dir, const char *name, const char *text, gssize len)
{
	char *p = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(p, text, len, NULL));
	g_chmod(p, 0644);
	return p;
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

static gboolean messages_contain(GPtrArray *messages, const char *want)
{
	for (guint i = 0; i < messages->len; i++)
		if (strstr(g_ptr_array_index(messages, i), want))
			return TRUE;
	return FALSE;
}

static void print_messages(GPtrArray *messages)
{
	for (guint i = 0; i < messages->len; i++)
		print_error("  %s\n", (char *)g_ptr_array_index(messages, i));
}

/* hex form of a string, as the kernel writes untrusted values */
static char *hex(const char *s)
{
	GString *h = g_string_new(NULL);

	for (const guchar *p = (const guchar *)s; *p; p++)
		g_string_append_printf(h, "%02X", *p);
	return g_string_free(h, FALSE);
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, NULL, NULL);
}

/* the denials of some audit log text */
static GPtrArray *denials_of_text(const char *text)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	AdReader *r = ad_reader_new(on_event, NULL, out);

	ad_reader_set_source(r, "test");
	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	ad_reader_free(r);
	return out;
}

/* the one denial of an AVC record (printf-style) */
static AdDenial *denial_of(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static AdDenial *denial_of(const char *fmt, ...)
{
	g_autofree char *text = NULL;
	g_autoptr(GPtrArray) ds = NULL;
	va_list ap;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	ds = denials_of_text(text);
	if (ds->len != 1)
		print_error("%u denials from [%s]\n", ds->len, text);
	assert_int_equal(ds->len, 1);
	return ad_denial_ref(g_ptr_array_index(ds, 0));
}

/* an AVC with the path (and comm) hex-encoded, as the kernel does for odd bytes */
static AdDenial *avc(const char *perms, const char *comm, const char *path, const char *stype,
		     const char *ttype, const char *tclass)
{
	g_autofree char *hcomm = hex(comm);
	g_autofree char *hpath = path ? hex(path) : NULL;
	g_autofree char *pathf = hpath ? g_strdup_printf(" path=%s", hpath) : g_strdup("");
	static guint serial = 1000;

	return denial_of("type=AVC msg=audit(1700000001.100:%u): avc:  denied  { %s } for  "
			 "pid=100 comm=%s%s dev=\"sda1\" ino=1 "
			 "scontext=system_u:system_r:%s:s0 tcontext=system_u:object_r:%s:s0 "
			 "tclass=%s permissive=0\n",
			 serial++, perms, hcomm, pathf, stype, ttype, tclass);
}

static GPtrArray *apply(AdRuleBook *b, AdPolicy *p, const AdDenial *d, const AdVerdict *v)
{
	GPtrArray *ret = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);
	AdPluginEnv ctx = { .policy = p, .rules = b };

	ad_rule_book_apply(b, &ctx, d, v, ret);
	return ret;
}

static AdSuggestion *find_suggestion(GPtrArray *s, const char *plugin)
{
	for (guint i = 0; i < s->len; i++)
		if (strcmp(((AdSuggestion *)g_ptr_array_index(s, i))->plugin, plugin) == 0)
			return g_ptr_array_index(s, i);
	return NULL;
}

static void print_suggestions(GPtrArray *s)
{
	for (guint i = 0; i < s->len; i++)
		print_error("  suggestion %s\n", ((AdSuggestion *)g_ptr_array_index(s, i))->plugin);
}

#define assert_argv(s, n, ...) assert_argv_at((s), (n), __FILE__, __LINE__, __VA_ARGS__, NULL)

/* command @n of @s is exactly the given arguments */
static void assert_argv_at(const AdSuggestion *s, guint n, const char *file, int line, ...)
{
	char **argv;
	va_list ap;
	guint i = 0;

	if (!s || n >= s->commands->len) {
		print_error("no command %u\n", n);
		_fail(file, line);
	}
	argv = g_ptr_array_index(s->commands, n);
	va_start(ap, line);
	for (const char *want = va_arg(ap, const char *); want;
	     want = va_arg(ap, const char *), i++) {
		if (!argv[i] || strcmp(argv[i], want) != 0) {
			print_error("argument %u: expected [%s], got [%s]\n", i, want,
				    argv[i] ? argv[i] : "(end)");
			va_end(ap);
			_fail(file, line);
		}
	}
	va_end(ap);
	if (argv[i]) {
		print_error("argument %u: unexpected [%s]\n", i, argv[i]);
		_fail(file, line);
	}
}

/* ---- broken files: a table of {text, line, message} --------------------------- */

/* a valid rule body after the line under test: Summary Target Kind If Then */
#define BODY "Summary=s\nTarget=etc_t\nKind=info\nIf=If i\nThen=t\n"

static const struct {
	const char *text;
	guint line;
	const char *message;
} broken[] = {
	{ "[a]\n" BODY "this is not a key\n", 7, "“this is not a key” is not KEY=VALUE" },
	{ "Summary=x\n[a]\n" BODY, 1, "key “Summary” outside a [rule] group" },
	{ "# c\n[a\n" BODY, 2, "a group header is “[name]” alone on its line" },
	{ "[a] x\n" BODY, 1, "a group header is" },
	{ "[a b]\n" BODY, 1, "rule name “a b”" },
	{ "[a]\n" BODY "\n[a]\n" BODY, 8, "rule [a] given twice (first on line 1)" },
	{ "[a]\n" BODY "Kind=info\n", 7, "key “Kind” given twice in [a] (first on line 4)" },
	{ "[a]\nSourse=httpd_t\n" BODY, 2, "unknown key “Sourse” (did you mean Source?)" },
	{ "[a]\nconfidence=0.5\n" BODY, 2, "unknown key “confidence” (did you mean Confidence?)" },
	{ "[a]\nFrobnicate=1\n" BODY, 2, "unknown key “Frobnicate”" },
	{ "[a]\n=x\n" BODY, 2, "“=x” is not KEY=VALUE" },
	{ "[a]\nSummary=s\nTarget=etc_t\nKind=fixit\nIf=i\nThen=t\n", 4,
	  "Kind: unknown kind “fixit” (known: boolean relabel fcontext" },
	{ "[a]\nLevel=orange\n" BODY, 2, "Level: unknown level “orange”" },
	{ "[a]\nConfidence=1.5\n" BODY, 2, "Confidence: “1.5” is not a number from 0 to 1" },
	{ "[a]\nConfidence=high\n" BODY, 2, "Confidence: “high” is not a number" },
	{ "[a]\nConfidence=0.5x\n" BODY, 2, "Confidence: “0.5x” is not a number" },
	{ "[a]\nConfidence=nan\n" BODY, 2, "Confidence: “nan” is not a number" },
	{ "[a]\nConfidence=-0.1\n" BODY, 2, "Confidence: “-0.1” is not a number" },
	{ "[a]\nCommand=restorecon;-v;{pth}\n" BODY, 2,
	  "Command: unknown placeholder “{pth}” (known: {source}" },
	{ "[a]\nSummary=s\nTarget=etc_t\nKind=info\nIf=If {comm} writes {paht}\nThen=t\n", 5,
	  "If: unknown placeholder “{paht}”" },
	{ "[a]\nCommand=ls;{path\n" BODY, 2, "Command: unterminated placeholder “{path”" },
	{ "[a]\nSummary=s\nTarget=etc_t\nKind=info\nIf=i\nThen=a } b\n", 6,
	  "Then: single “}” (write “}}” for a brace)" },
	{ "[a]\nSummary=s\nTarget=etc_t\nKind=info\nThen=t\n", 1, "[a]: missing If" },
	{ "[a]\nSummary=s\nTarget=etc_t\nKind=info\nIf=i\n", 1, "[a]: missing Then" },
	{ "[a]\nSummary=s\nTarget=etc_t\nIf=i\nThen=t\n", 1, "[a]: missing Kind" },
	{ "# x\n\n[a]\nTarget=etc_t\nKind=info\nIf=i\nThen=t\n", 3, "[a]: missing Summary" },
	{ "[a]\nSummary=s\nKind=info\nIf=i\nThen=t\n", 1, "[a]: matches every denial" },
	{ "[a]\nCommand=\n" BODY, 2, "Command: empty command" },
	{ "[a]\nCommand=;\n" BODY, 2, "Command: empty argument 1" },
	{ "[a]\nCommand=ls;;x\n" BODY, 2, "Command: empty argument 2" },
	{ "[a]\nCommand2=ls\n" BODY, 2, "Command2 without Command" },
	{ "[a]\nCommand=ls\nCommand3=ls\n" BODY, 3, "Command3 without Command2" },
	{ "[a]\nCommand1=ls\n" BODY, 2, "unknown key “Command1” (did you mean Command?)" },
	{ "[a]\nCommand={path};x\n" BODY, 2, "Command: the program (first item) must be a fixed name" },
	{ "[a]\nSummary=s\nTarget=etc_t\nKind=fcontext\nIf=i\nThen=t\n", 1,
	  "[a]: Kind=fcontext needs a Command" },
	{ "[a]\nSource[de]=httpd_t\n" BODY, 2, "key Source cannot be translated (Source[de])" },
	{ "[a]\nIf[]=x\n" BODY, 2, "key “If[]”: a translation is written KEY[LOCALE]" },
	{ "[a]\nIf[de]=Wenn {pfad}\n" BODY, 2, "If[de]: unknown placeholder “{pfad}”" },
	{ "[a]\nComment=caf\xff\n" BODY, 2, "not valid UTF-8 (byte 12 of the line)" },
	{ "[a]\r\n" BODY, 1, "carriage return" },
	{ "[a]\nSummary=s\nTarget=etc_t\nKind=info\nIf=a\\qb\nThen=t\n", 5,
	  "If: invalid escape sequence" },
	{ "[a]\nSource=a\\q\n" BODY, 2, "Source: invalid escape sequence" },
	{ "[a]\nComm=a-very-long-process-name\n" BODY, 2, "Comm: “a-very-long-process-name” is longer than 15 bytes" },
	{ "[a]\nReason=te-rule\n" BODY, 2, "Reason: unknown reason “te-rule” (known: allowed" },
	{ "[a]\nBoolean=httpd_can_sendmail\n" BODY, 2,
	  "Boolean: “httpd_can_sendmail” is not NAME=0 or NAME=1" },
	{ "[a]\nBoolean=httpd_can_sendmail=maybe\n" BODY, 2,
	  "Boolean: “httpd_can_sendmail=maybe” is not NAME=0 or NAME=1" },
	{ "[a]\nPathPrefix=var/www\n" BODY, 2, "PathPrefix: “var/www” is not an absolute path" },
	{ "[a]\nSource=httpd t\n" BODY, 2, "Source: “httpd t” is not a type or attribute name" },
	{ "[a]\nSource=a;;b\n" BODY, 2, "Source: empty item 2" },
	{ "[a]\nSource=\n" BODY, 2, "Source is empty" },
	{ "[a]\nClass=file;Dir!\n" BODY, 2, "Class: “Dir!” is not a class name" },
	{ "[a]\nKind=\n" "Summary=s\nTarget=etc_t\nIf=i\nThen=t\n", 2, "Kind is empty" },
};

static void test_broken_files(void **state)
{
	g_autofree char *dir = tmp_dir();

	for (guint i = 0; i < G_N_ELEMENTS(broken); i++) {
		g_autofree char *name = g_strdup_printf("%02u-broken.rules", i);
		g_autofree char *path = write_file(dir, name, broken[i].text, -1);
		g_autofree char *want = g_strdup_printf("%s:%u: %s", path, broken[i].line,
							broken[i].message);
		g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(AdRuleBook) b = ad_rule_book_new();
		g_autoptr(GError) error = NULL;
		guint n = ad_rule_book_check_file(path, messages);

		if (!n || !messages_contain(messages, want)) {
			print_error("case %u: expected [%s], got %u:\n", i, want, n);
			print_messages(messages);
			fail();
		}
		assert_int_equal(n, messages->len);
		/* loading it: rejected whole, same message, nothing kept */
		assert_false(ad_rule_book_load_file(b, path, &error));
		assert_non_null(error);
		assert_true(g_error_matches(error, AD_RULES_ERROR, AD_RULES_ERROR_SYNTAX));
		assert_non_null(strstr(error->message, want));
		assert_int_equal(ad_rule_book_size(b), 0);
		g_unlink(path);
	}
	rm_rf(dir);
}

/* every problem of a file is reported, in line order, and a good rule of it is not kept */
static void test_all_problems_reported(void **state)
{
	g_autofree char *dir = tmp_dir();
	g_autofree char *path = write_file(dir, "x.rules",
					   "[good]\n" BODY
					   "[bad]\n"
					   "Summary=s\n"
					   "Target=etc_t\n"
					   "Kind=nope\n"
					   "Level=purple\n"
					   "If=If {nope}\n"
					   "Then=t\n"
					   "Command=ls;{nope}\n",
					   -1);
	g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autofree char *l10 = g_strdup_printf("%s:10:", path);
	g_autofree char *l11 = g_strdup_printf("%s:11:", path);
	g_autofree char *l12 = g_strdup_printf("%s:12:", path);
	g_autofree char *l14 = g_strdup_printf("%s:14:", path);

	assert_int_equal(ad_rule_book_check_file(path, messages), 4);
	assert_true(g_str_has_prefix(g_ptr_array_index(messages, 0), l10));
	assert_true(g_str_has_prefix(g_ptr_array_index(messages, 1), l11));
	assert_true(g_str_has_prefix(g_ptr_array_index(messages, 2), l12));
	assert_true(g_str_has_prefix(g_ptr_array_index(messages, 3), l14));
	assert_false(ad_rule_book_load_file(b, path, NULL));
	assert_int_equal(ad_rule_book_size(b), 0);
	rm_rf(dir);
}

/* what GKeyFile allows and the scanner must too: blanks, comments, spaces, translations */
static void test_tolerated_syntax(void **state)
{
	g_autofree char *dir = tmp_dir();
	g_autofree char *path = write_file(
		dir, "ok.rules",
		"# a comment\n"
		"   # an indented comment\n"
		"\n"
		"  [spaced]  \n"
		"Summary = spaces around the equals sign\n"
		"Summary[de] = Leerzeichen\n"
		"  Target=etc_t ; var_t ;\n"
		"Class=file;\n"
		"Kind=info\n"
		"If=If {{braces}} and {comm}\n"
		"If[de_DE.UTF-8@euro]=Wenn {comm}\n"
		"Then=t\\sx\\n\n"
		"Command=echo;a\\;b\n"
		"Confidence=0\n"
		"[no-newline-at-end]\n"
		"Summary=s\nTarget=etc_t\nKind=info\nIf=i\nThen=t",
		-1);
	g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(AdDenial) d = avc("read", "cat", "/etc/x", "httpd_t", "var_t", "file");
	g_autoptr(GPtrArray) s = NULL;
	AdSuggestion *sp;

	if (ad_rule_book_check_file(path, messages))
		print_messages(messages);
	assert_int_equal(messages->len, 0);
	assert_true(ad_rule_book_load_file(b, path, &error));
	assert_int_equal(ad_rule_book_size(b), 2);
	s = apply(b, NULL, d, NULL);
	sp = find_suggestion(s, "rule:ok.rules:spaced");
	assert_non_null(sp);
	assert_str(sp->if_text, "If {braces} and cat");
	assert_str(sp->then_text, "t x");
	assert_int_equal(sp->kind, AD_FIX_INFO);
	assert_true(sp->confidence == 0.0);
	assert_int_equal(sp->level, AD_LEVEL_YELLOW);	/* the default */
	assert_argv(sp, 0, "echo", "a;b");
	rm_rf(dir);
}

/* ---- directories --------------------------------------------------------------- */

static char *one_rule(const char *name)
{
	return g_strdup_printf("[r]\nSummary=%s\nTarget=etc_t\nClass=file\nKind=info\n"
			       "If=i\nThen=t\n", name);
}

/* "9-a" before "09-z" before "10-b" before "100-c"; other names are ignored */
static void test_natural_order(void **state)
{
	g_autofree char *dir = tmp_dir();
	static const char *const names[] = {
		"100-c.rules", "10-b.rules", "9-a.rules", "09-z.rules",
	};
	static const char *const order[] = {
		"rule:9-a.rules:r", "rule:09-z.rules:r", "rule:10-b.rules:r", "rule:100-c.rules:r",
	};
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	g_autoptr(AdDenial) d = avc("read", "cat", "/etc/x", "httpd_t", "etc_t", "file");
	g_autoptr(GPtrArray) s = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *text = one_rule(names[i]);

		g_free(write_file(dir, names[i], text, -1));
	}
	/* not rule files: other suffixes, hidden files, directories */
	g_free(write_file(dir, "README", "not a rule file", -1));
	g_free(write_file(dir, "5-x.rules~", "[", -1));
	g_free(write_file(dir, ".1-hidden.rules", "[", -1));

	assert_true(ad_rule_book_load_dir(b, dir, problems, &error));
	print_messages(problems);
	assert_int_equal(problems->len, 0);
	assert_int_equal(ad_rule_book_size(b), 4);
	s = apply(b, NULL, d, NULL);
	assert_int_equal(s->len, 4);
	for (guint i = 0; i < G_N_ELEMENTS(order); i++)
		assert_str(((AdSuggestion *)g_ptr_array_index(s, i))->plugin, order[i]);
	rm_rf(dir);
}

/* tests/data/rules/mixed: a broken file between two good ones */
static void test_broken_file_does_not_stop_others(void **state)
{
	g_autofree char *dir = source_path("tests/data/rules/mixed");
	g_autofree char *broken_file = g_build_filename(dir, "20-broken.rules", NULL);
	g_autofree char *want = g_strdup_printf("%s:6: unknown key “Sevrity”", broken_file);
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	g_autoptr(AdDenial) d = avc("write", "httpd", "/var/www/html/index.html", "httpd_t",
				    "httpd_sys_content_t", "file");
	g_autoptr(GPtrArray) s = NULL;

	assert_true(ad_rule_book_load_dir(b, dir, problems, &error));
	assert_null(error);
	if (!messages_contain(problems, want)) {
		print_error("expected [%s] in:\n", want);
		print_messages(problems);
		fail();
	}
	for (guint i = 0; i < problems->len; i++)
		assert_true(g_str_has_prefix(g_ptr_array_index(problems, i), broken_file));
	assert_int_equal(ad_rule_book_size(b), 3);	/* 10-good: 2, 30-good: 1 */
	s = apply(b, NULL, d, NULL);
	assert_non_null(find_suggestion(s, "rule:10-good.rules:web-write"));
	assert_non_null(find_suggestion(s, "rule:30-good.rules:web-write-too"));
	for (guint i = 0; i < s->len; i++)
		assert_null(strstr(((AdSuggestion *)g_ptr_array_index(s, i))->plugin, "broken"));
}

static void test_missing_dir_and_file(void **state)
{
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func(g_free);

	assert_false(ad_rule_book_load_dir(b, "/nonexistent/rules.d", NULL, &error));
	assert_true(g_error_matches(error, AD_RULES_ERROR, AD_RULES_ERROR_OPEN));
	assert_non_null(strstr(error->message, "/nonexistent/rules.d"));
	g_clear_error(&error);
	assert_false(ad_rule_book_load_file(b, "/nonexistent/x.rules", &error));
	assert_true(g_error_matches(error, AD_RULES_ERROR, AD_RULES_ERROR_OPEN));
	g_clear_error(&error);
	/* a directory or a FIFO is not a rule file (and must not hang) */
	assert_false(ad_rule_book_load_file(b, "/", &error));
	assert_true(g_error_matches(error, AD_RULES_ERROR, AD_RULES_ERROR_OPEN));
	assert_int_equal(ad_rule_book_check_file("/nonexistent/x.rules", messages), 1);
	assert_non_null(strstr(g_ptr_array_index(messages, 0), "/nonexistent/x.rules: "));
}

/* as root: files and directories others own or anyone may write are refused */
static void test_unsafe_as_root(void **state)
{
	if (geteuid() != 0) {
		print_message("skipped: the ownership checks apply only to root\n");
		skip();
	}

	g_autofree char *dir = NULL;
	g_autofree char *text = one_rule("x");
	g_autofree char *path = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);

	dir = tmp_dir();
	path = write_file(dir, "10-x.rules", text, -1);
	assert_true(ad_rule_book_load_file(b, path, &error));

	assert_int_equal(chmod(path, 0646), 0);
	assert_false(ad_rule_book_load_file(b, path, &error));
	assert_true(g_error_matches(error, AD_RULES_ERROR, AD_RULES_ERROR_UNSAFE));
	assert_non_null(strstr(error->message, "writable by users other than root"));
	g_clear_error(&error);
	/* in a directory: reported, the others still load */
	assert_true(ad_rule_book_load_dir(b, dir, problems, &error));
	assert_int_equal(problems->len, 1);
	assert_non_null(strstr(g_ptr_array_index(problems, 0), "writable by users other than root"));

	/* group-writable: by root's group only */
	assert_int_equal(chmod(path, 0664), 0);
	assert_int_equal(chown(path, 0, 1), 0);
	assert_false(ad_rule_book_load_file(b, path, &error));
	assert_true(g_error_matches(error, AD_RULES_ERROR, AD_RULES_ERROR_UNSAFE));
	g_clear_error(&error);
	assert_int_equal(chown(path, 0, 0), 0);
	assert_true(ad_rule_book_load_file(b, path, &error));
	/* the test hooks' directories: the same test, else ignored */
	g_setenv("AD_TEST_HOOK", dir, TRUE);
	assert_int_equal(chmod(dir, 0775), 0);
	assert_int_equal(chown(dir, 0, 1), 0);
	assert_null(ad_env_path("AD_TEST_HOOK"));
	assert_int_equal(chown(dir, 1, 0), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_null(ad_env_path("AD_TEST_HOOK"));
	assert_int_equal(chown(dir, 0, 0), 0);
	assert_string_equal(ad_env_path("AD_TEST_HOOK"), dir);
	g_unsetenv("AD_TEST_HOOK");

	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(chown(path, 1, 1), 0);
	assert_false(ad_rule_book_load_file(b, path, &error));
	assert_true(g_error_matches(error, AD_RULES_ERROR, AD_RULES_ERROR_UNSAFE));
	assert_non_null(strstr(error->message, "owned by uid 1, not root"));
	g_clear_error(&error);
	assert_int_equal(chown(path, 0, 0), 0);

	assert_int_equal(chmod(dir, 0777), 0);
	assert_false(ad_rule_book_load_dir(b, dir, problems, &error));
	assert_true(g_error_matches(error, AD_RULES_ERROR, AD_RULES_ERROR_UNSAFE));
	g_clear_error(&error);
	assert_int_equal(chmod(dir, 0700), 0);
	rm_rf(dir);
}

/* a symbolic link in a rules directory is refused: it could point anywhere */
static void test_symlink_refused(void **state)
{
	g_autofree char *dir = tmp_dir();
	g_autofree char *other = tmp_dir();
	g_autofree char *text = one_rule("x");
	g_autofree char *target = write_file(other, "real.rules", text, -1);
	g_autofree char *link = g_build_filename(dir, "10-x.rules", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);

	(void)state;
	assert_int_equal(symlink(target, link), 0);
	assert_true(ad_rule_book_load_dir(b, dir, problems, &error));
	assert_int_equal(ad_rule_book_size(b), 0);
	assert_int_equal(problems->len, 1);
	assert_non_null(strstr(g_ptr_array_index(problems, 0), "a symbolic link: refused"));
	rm_rf(dir);
	rm_rf(other);
}

static void test_default_dir(void **state)
{
	g_auto(GStrv) dirs = NULL, env_dirs = NULL;

	g_setenv("AVCDOCTOR_RULES_DIR", "/somewhere/rules.d", TRUE);
	g_setenv("AVCDOCTOR_LOCAL_RULES_DIR", "/site/rules.d", TRUE);
	env_dirs = ad_rules_default_dirs();
	assert_int_equal(g_strv_length(env_dirs), 2);
	assert_str(env_dirs[0], "/site/rules.d");
	assert_str(env_dirs[1], "/somewhere/rules.d");
	g_unsetenv("AVCDOCTOR_RULES_DIR");
	g_unsetenv("AVCDOCTOR_LOCAL_RULES_DIR");
	dirs = ad_rules_default_dirs();
	assert_true(g_str_has_suffix(dirs[0], "/avcdoctor/rules.d"));
	/* a test program runs from the build tree: the source tree's rules */
	assert_true(g_str_has_suffix(dirs[1], "/rules"));
	assert_true(g_path_is_absolute(dirs[1]));
	assert_true(g_file_test(dirs[1], G_FILE_TEST_IS_DIR));
}

/* ---- matching ------------------------------------------------------------------------ */

static AdRuleBook *match_book(void)
{
	g_autofree char *path = source_path("tests/data/rules/match.rules");
	g_autoptr(GError) error = NULL;
	AdRuleBook *b = ad_rule_book_new();

	if (!ad_rule_book_load_file(b, path, &error))
		print_error("%s\n", error->message);
	assert_null(error);
	return b;
}

#define MATCH "rule:match.rules:"

/* shell and regex metacharacters in a path: one argument each, regex escaped */
static void test_hostile_path_one_argument(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	const char *path = "/var/www/$(touch x);id";
	g_autoptr(AdDenial) d = avc("add_name", "httpd", path, "httpd_t", "httpd_sys_content_t",
				    "dir");
	g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);
	AdSuggestion *w = find_suggestion(s, MATCH "web-write");

	assert_non_null(w);
	assert_int_equal(w->kind, AD_FIX_FCONTEXT);
	assert_int_equal(w->level, AD_LEVEL_GREEN);
	assert_true(w->confidence > 0.79 && w->confidence < 0.81);
	assert_str(w->if_text, "If you want httpd to write to /var/www/$(touch x);id");
	assert_str(w->then_text, "label it httpd_sys_rw_content_t");
	assert_int_equal(w->commands->len, 2);
	/* the directory itself (class dir), metacharacters escaped */
	assert_argv(w, 0, "semanage", "fcontext", "-a", "-t", "httpd_sys_rw_content_t",
		    "/var/www/\\$\\(touch.x\\);id(/.*)?");
	assert_argv(w, 1, "restorecon", "-R", "-v", "--", "/var/www/$(touch x);id");
}

/* the same, quoted rather than hex-encoded (no space: the kernel leaves it plain) */
static void test_hostile_quoted_path(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	g_autoptr(AdDenial) d = denial_of(
		"type=AVC msg=audit(1700000030.100:30): avc:  denied  { write } for  pid=1 "
		"comm=\"httpd\" path=\"/var/www/`id`;$(touch${IFS}x)|x'&/-f\" dev=\"sda1\" "
		"ino=1 scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:object_r:httpd_sys_content_t:s0 tclass=file permissive=0\n");
	g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);
	AdSuggestion *w = find_suggestion(s, MATCH "web-write");

	assert_argv(w, 0, "semanage", "fcontext", "-a", "-t", "httpd_sys_rw_content_t",
		    "/var/www/`id`;\\$\\(touch\\$\\{IFS\\}x\\)\\|x'&(/.*)?");
	assert_argv(w, 1, "restorecon", "-R", "-v", "--",
		    "/var/www/`id`;$(touch${IFS}x)|x'&/-f");
}

/* a file: {path_dir} is its directory; every regex metacharacter escaped */
static void test_path_dir_and_regex(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	g_autoptr(AdDenial) d = avc("write", "php-fpm", "/srv/a.b[1]+{2}|^$?*(x)\\y/f 'q\"",
				    "httpd_t", "httpd_sys_content_t", "file");
	g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);
	AdSuggestion *w = find_suggestion(s, MATCH "web-write");
	AdSuggestion *f = find_suggestion(s, MATCH "file-exact");

	assert_argv(w, 0, "semanage", "fcontext", "-a", "-t", "httpd_sys_rw_content_t",
		    "/srv/a\\.b\\[1\\]\\+\\{2\\}\\|\\^\\$\\?\\*\\(x\\)\\\\y(/.*)?");
	assert_argv(w, 1, "restorecon", "-R", "-v", "--",
		    "/srv/a.b[1]+{2}|^$?*(x)\\y/f 'q\"");
	/* a space is "." in a specification: semanage splits it at white space */
	assert_argv(f, 0, "semanage", "fcontext", "-a", "-t", "httpd_sys_script_exec_t",
		    "/srv/a\\.b\\[1\\]\\+\\{2\\}\\|\\^\\$\\?\\*\\(x\\)\\\\y/f.'q\"");
	assert_argv(f, 1, "ls", "-Z", "--", "/srv/a.b[1]+{2}|^$?*(x)\\y/f 'q\"");
}

/*
 * A path with spaces and quotes (the kernel writes it hex-encoded): no
 * specification holds white space, which semanage would split at.
 */
static void test_hostile_space_path(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	g_autofree char *text = NULL;
	const char *src = g_getenv("AD_SOURCE_DIR");
	g_autofree char *file = g_build_filename(src ? src : ".", "tests", "data", "hostile",
						 "fcontext-space-path.log", NULL);
	g_autoptr(AdDenial) d = NULL;
	g_autoptr(GPtrArray) s = NULL;

	assert_true(g_file_get_contents(file, &text, NULL, NULL));
	d = denial_of("%s", text);
	s = apply(b, NULL, d, NULL);
	assert_argv(find_suggestion(s, MATCH "web-write"), 0, "semanage", "fcontext", "-a", "-t",
		    "httpd_sys_rw_content_t", "/srv/my.site(/.*)?");
	assert_argv(find_suggestion(s, MATCH "file-exact"), 0, "semanage", "fcontext", "-a",
		    "-t", "httpd_sys_script_exec_t", "/srv/my.site/it's.\"x\"\\.php");
	assert_argv(find_suggestion(s, MATCH "file-exact"), 1, "ls", "-Z", "--",
		    "/srv/my site/it's \"x\".php");
}

/*
 * The kernel's PARENT path record ends with '/': the directory itself,
 * whatever the class, and the rule fires on it.
 */
static void test_trailing_slash_path(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	g_autoptr(AdDenial) d = avc("write", "php-fpm", "/var/www/html/uploads/", "httpd_t",
				    "httpd_sys_content_t", "file");
	g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);
	AdSuggestion *w = find_suggestion(s, MATCH "web-write");

	assert_non_null(w);
	assert_argv(w, 0, "semanage", "fcontext", "-a", "-t", "httpd_sys_rw_content_t",
		    "/var/www/html/uploads(/.*)?");
	assert_argv(w, 1, "restorecon", "-R", "-v", "--", "/var/www/html/uploads");
}

/* paths a command must not get: the rule does not fire */
static void test_unusable_paths(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	static const char *const paths[] = {
		"/var/www/a\nb",		/* control character */
		"/var/www/\x1b[2Jx",		/* terminal escape */
		("/var/www/\xc2\x9b" "x"),	/* C1 control */
		"/var/www/\xff\xfe",		/* not UTF-8 */
		"var/www/x",			/* relative */
		"/var/www/../../etc/shadow",	/* not canonical */
		"/var/www/./x",
		"/var//www/x",
		"/var/www/x//",
		"anon_inode:[eventfd]",
	};

	for (guint i = 0; i < G_N_ELEMENTS(paths); i++) {
		g_autoptr(AdDenial) d = avc("write", "httpd", paths[i], "httpd_t",
					    "httpd_sys_content_t", "file");
		g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);

		if (find_suggestion(s, MATCH "web-write")) {
			print_error("case %u fired\n", i);
			fail();
		}
		/* a rule without commands still says its text, escaped */
		assert_non_null(find_suggestion(s, MATCH "text-only"));
	}
	{
		/* no path at all */
		g_autoptr(AdDenial) d = avc("write", "httpd", NULL, "httpd_t",
					    "httpd_sys_content_t", "file");
		g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);

		assert_null(find_suggestion(s, MATCH "web-write"));
		assert_null(find_suggestion(s, MATCH "text-only"));	/* its text needs {path} */
	}
}

/* system directories are never relabeled wholesale */
static void test_standard_dirs(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	static const char *const files[] = {
		"/etc/passwd", "/usr/x", "/var/lib/x", "/home/ann/x", "/x", "/tmp/x",
	};

	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autoptr(AdDenial) d = avc("write", "httpd", files[i], "httpd_t",
					    "httpd_sys_content_t", "file");
		g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);

		assert_null(find_suggestion(s, MATCH "web-write"));
		assert_non_null(find_suggestion(s, MATCH "file-exact"));
	}
	{
		/* the directory /usr itself: not even {file_regex} */
		g_autoptr(AdDenial) d = avc("write", "httpd", "/usr", "httpd_t",
					    "httpd_sys_content_t", "dir");
		g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);

		assert_null(find_suggestion(s, MATCH "web-write"));
		assert_null(find_suggestion(s, MATCH "file-exact"));
	}
}

/* texts show record bytes escaped; commands refuse a comm that looks like an option */
static void test_texts_and_comm(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	g_autoptr(AdDenial) esc = avc("write", "x\x1b]0;pwn\x07", "/var/www/a\nb", "httpd_t",
				      "httpd_sys_content_t", "file");
	g_autoptr(AdDenial) opt = avc("net_raw", "-rf", NULL, "ping_t", "ping_t", "capability");
	g_autoptr(AdDenial) ok = avc("net_raw", "my ping", NULL, "ping_t", "ping_t", "capability");
	g_autoptr(GPtrArray) s1 = apply(b, NULL, esc, NULL);
	g_autoptr(GPtrArray) s2 = apply(b, NULL, opt, NULL);
	g_autoptr(GPtrArray) s3 = apply(b, NULL, ok, NULL);
	AdSuggestion *t = find_suggestion(s1, MATCH "text-only");

	assert_non_null(t);
	assert_str(t->if_text, "If x\\x1b]0;pwn\\x07 is allowed");
	assert_str(t->then_text, "look at /var/www/a\\nb");
	assert_int_equal(t->kind, AD_FIX_ATTACK);
	assert_int_equal(t->level, AD_LEVEL_RED);
	assert_int_equal(t->commands->len, 0);
	assert_null(find_suggestion(s2, MATCH "comm-arg"));
	assert_argv(find_suggestion(s3, MATCH "comm-arg"), 0, "ausearch", "-m", "avc", "-c",
		    "my ping");
}

/* Reason=: only with a verdict of that reason; without: never when allowed */
static void test_reasons(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	g_autoptr(AdDenial) d = avc("read", "cat", "/etc/motd", "httpd_t", "etc_t", "file");
	AdVerdict dontaudit = { .reason = AD_REASON_DONTAUDIT };
	AdVerdict te = { .reason = AD_REASON_TE_RULE };
	AdVerdict allowed = { .reason = AD_REASON_ALLOWED };
	g_autoptr(GPtrArray) s1 = apply(b, NULL, d, &dontaudit);
	g_autoptr(GPtrArray) s2 = apply(b, NULL, d, &te);
	g_autoptr(GPtrArray) s3 = apply(b, NULL, d, NULL);
	g_autoptr(GPtrArray) s4 = apply(b, NULL, d, &allowed);

	assert_non_null(find_suggestion(s1, MATCH "dontaudit-only"));
	assert_null(find_suggestion(s2, MATCH "dontaudit-only"));
	assert_null(find_suggestion(s3, MATCH "dontaudit-only"));
	assert_non_null(find_suggestion(s2, MATCH "any-etc"));
	assert_non_null(find_suggestion(s3, MATCH "any-etc"));
	assert_null(find_suggestion(s4, MATCH "any-etc"));
}

/* Permissions= is "any of"; Class and Target must fit; granted records never match */
static void test_perms_class_target(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	g_autoptr(AdDenial) two = avc("read write", "httpd", "/var/www/x/f", "httpd_t",
				      "httpd_sys_content_t", "file");
	g_autoptr(AdDenial) ro = avc("read", "httpd", "/var/www/x/f", "httpd_t",
				     "httpd_sys_content_t", "file");
	g_autoptr(AdDenial) cls = avc("write", "httpd", "/var/www/x/f", "httpd_t",
				      "httpd_sys_content_t", "lnk_file");
	g_autoptr(AdDenial) src = avc("write", "httpd", "/var/www/x/f", "init_t",
				      "httpd_sys_content_t", "file");
	g_autoptr(AdDenial) granted = denial_of(
		"type=AVC msg=audit(1700000009.100:9): avc:  granted  { write } for  pid=1 "
		"comm=\"httpd\" path=\"/var/www/x/f\" scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:object_r:httpd_sys_content_t:s0 tclass=file\n");
	g_autoptr(GPtrArray) s1 = apply(b, NULL, two, NULL);
	g_autoptr(GPtrArray) s2 = apply(b, NULL, ro, NULL);
	g_autoptr(GPtrArray) s3 = apply(b, NULL, cls, NULL);
	g_autoptr(GPtrArray) s4 = apply(b, NULL, src, NULL);
	g_autoptr(GPtrArray) s5 = apply(b, NULL, granted, NULL);

	assert_non_null(find_suggestion(s1, MATCH "web-write"));
	assert_null(find_suggestion(s2, MATCH "web-write"));
	assert_null(find_suggestion(s3, MATCH "web-write"));
	assert_null(find_suggestion(s4, MATCH "web-write"));
	assert_int_equal(s5->len, 0);
}

/* globs in Source, PathPrefix with '*', NotPathPrefix, NotTarget */
static void test_globs_and_prefixes(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	static const struct {
		const char *stype, *ttype, *path;
		gboolean fires;
	} cases[] = {
		{ "httpd_sys_script_t", "default_t", "/srv/www/a", TRUE },
		{ "httpd_user_script_t", "default_t", "/srv/www", TRUE },
		{ "httpd_t", "default_t", "/srv/www/a", FALSE },		/* glob */
		{ "httpd_sys_script_t", "default_t", "/srv/wwwx/a", FALSE },	/* boundary */
		{ "httpd_sys_script_t", "default_t", "/srv/www/private/a", FALSE },
		{ "httpd_sys_script_t", "default_t", "/srv/www/privatex", TRUE },
		{ "httpd_sys_script_t", "default_t", "/home/ann/public_html/a", TRUE },
		{ "httpd_sys_script_t", "default_t", "/home/ann/public_html", TRUE },
		{ "httpd_sys_script_t", "default_t", "/home/ann/Documents/a", FALSE },
		{ "httpd_sys_script_t", "default_t", "/home/public_html/a", FALSE },
		{ "httpd_sys_script_t", "default_t", "/home/a/b/public_html/a", FALSE },
		{ "httpd_sys_script_t", "etc_t", "/srv/www/a", FALSE },	/* NotTarget */
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(AdDenial) d = avc("read", "perl", cases[i].path, cases[i].stype,
					    cases[i].ttype, "file");
		g_autoptr(GPtrArray) s = apply(b, NULL, d, NULL);
		gboolean fired = find_suggestion(s, MATCH "prefix") != NULL;

		if (fired != cases[i].fires) {
			print_error("case %u (%s): fired %d\n", i, cases[i].path, fired);
			fail();
		}
	}
}

/* Kmod= looks at the AVC's kmod= field */
static void test_kmod(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();
	g_autoptr(AdDenial) v6 = denial_of(
		"type=AVC msg=audit(1700000010.100:10): avc:  denied  { module_request } for  "
		"pid=1 comm=\"sshd\" kmod=\"net-pf-10\" scontext=system_u:system_r:sshd_t:s0 "
		"tcontext=system_u:system_r:kernel_t:s0 tclass=system permissive=0\n");
	g_autoptr(AdDenial) other = denial_of(
		"type=AVC msg=audit(1700000011.100:11): avc:  denied  { module_request } for  "
		"pid=1 comm=\"sshd\" kmod=\"net-pf-11\" scontext=system_u:system_r:sshd_t:s0 "
		"tcontext=system_u:system_r:kernel_t:s0 tclass=system permissive=0\n");
	g_autoptr(GPtrArray) s1 = apply(b, NULL, v6, NULL);
	g_autoptr(GPtrArray) s2 = apply(b, NULL, other, NULL);

	assert_non_null(find_suggestion(s1, MATCH "ipv6"));
	assert_null(find_suggestion(s2, MATCH "ipv6"));
}

/* attributes and Boolean= need the policy; {port} */
static void test_policy_matching(void **state)
{
	NEED_POLICY();

	g_autoptr(AdRuleBook) b = match_book();
	g_autoptr(AdDenial) rd = avc("read", "httpd", "/var/www/html/x", "httpd_t",
				     "httpd_sys_content_t", "file");
	g_autoptr(AdDenial) conn = denial_of(
		"type=AVC msg=audit(1700000012.100:12): avc:  denied  { name_connect } for  "
		"pid=1 comm=\"httpd\" dest=8089 scontext=system_u:system_r:httpd_t:s0 "
		"tcontext=system_u:object_r:unreserved_port_t:s0 tclass=tcp_socket "
		"permissive=0\n");
	g_autoptr(GPtrArray) s1 = NULL, s2 = NULL, s3 = NULL, s4 = NULL;

	s1 = apply(b, NULL, rd, NULL);
	s2 = apply(b, pol, rd, NULL);
	assert_null(find_suggestion(s1, MATCH "attribute"));
	assert_non_null(find_suggestion(s2, MATCH "attribute"));
	s3 = apply(b, NULL, conn, NULL);
	s4 = apply(b, pol, conn, NULL);
	assert_null(find_suggestion(s3, MATCH "bool"));	/* no policy: not known */
	/* httpd_can_network_connect is off by default in this policy */
	assert_argv(find_suggestion(s4, MATCH "bool"), 0, "semanage", "port", "-a", "-t",
		    "http_port_t", "-p", "tcp", "8089");
}

/* the cache keys by (source, target, class) and follows the policy */
static void test_cache(void **state)
{
	g_autoptr(AdRuleBook) b = match_book();

	for (guint round = 0; round < 3; round++) {
		g_autoptr(AdDenial) d = avc("write", "httpd", "/var/www/html/x", "httpd_t",
					    "httpd_sys_content_t", "file");
		g_autoptr(AdDenial) e = avc("write", "httpd", "/var/www/html/x", "httpd_t",
					    "etc_t", "file");
		g_autoptr(GPtrArray) s1 = apply(b, round == 2 ? pol : NULL, d, NULL);
		g_autoptr(GPtrArray) s2 = apply(b, round == 2 ? pol : NULL, e, NULL);

		assert_non_null(find_suggestion(s1, MATCH "web-write"));
		assert_null(find_suggestion(s2, MATCH "web-write"));
	}
}

/* ---- the shipped rules ------------------------------------------------------------------ */

static GPtrArray *shipped_files(void)
{
	g_autofree char *dir = source_path("rules");
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;

	while (d && (name = g_dir_read_name(d)))
		if (g_str_has_suffix(name, ".rules"))
			g_ptr_array_add(files, g_build_filename(dir, name, NULL));
	if (d)
		g_dir_close(d);
	if (files->len < 4)
		print_error("%u rule files in %s\n", files->len, dir);
	assert_true(files->len >= 4);	/* 10-httpd, 20-file-sharing, 30-virt, 40-system */
	return files;
}

static void test_shipped_rules_load(void **state)
{
	g_autofree char *dir = source_path("rules");
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) files = shipped_files();
	g_autoptr(GError) error = NULL;

	assert_true(ad_rule_book_load_dir(b, dir, problems, &error));
	print_messages(problems);
	assert_int_equal(problems->len, 0);
	assert_true(ad_rule_book_size(b) >= 40);
	for (guint i = 0; i < files->len; i++) {
		g_autoptr(GPtrArray) m = g_ptr_array_new_with_free_func(g_free);

		if (ad_rule_book_check_file(g_ptr_array_index(files, i), m))
			print_messages(m);
		assert_int_equal(m->len, 0);
	}
}

/* Does a message of @lacks quote @name (“NAME”)? */
static gboolean reported(GPtrArray *lacks, const char *name)
{
	g_autofree char *quoted = g_strdup_printf("“%s”", name);

	for (guint i = 0; i < lacks->len; i++)
		if (strstr(g_ptr_array_index(lacks, i), quoted))
			return TRUE;
	return FALSE;
}

/*
 * Every type, attribute, class, permission and boolean the shipped rules
 * name exists in the real policy, or check-rules reports that the policy
 * lacks it (a name of another policy: the rule does not fire here): once
 * through check-rules' own check, once independently by reading the files
 * with GKeyFile.
 */
static void test_shipped_rules_match_policy(void **state)
{
	NEED_POLICY();

	g_autoptr(GPtrArray) files = shipped_files();
	guint names = 0;

	for (guint i = 0; i < files->len; i++) {
		const char *path = g_ptr_array_index(files, i);
		g_autoptr(GPtrArray) m = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GPtrArray) lacks = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(GKeyFile) kf = g_key_file_new();
		g_auto(GStrv) groups = NULL;

		if (ad_rule_book_check_file_policy(path, pol, m, lacks))
			print_messages(m);
		assert_int_equal(m->len, 0);

		assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL));
		groups = g_key_file_get_groups(kf, NULL);
		for (guint g = 0; groups[g]; g++) {
			static const char *const type_keys[] = { "Source", "Target", "NotTarget" };

			for (guint k = 0; k < G_N_ELEMENTS(type_keys); k++) {
				g_auto(GStrv) v = g_key_file_get_string_list(
					kf, groups[g], type_keys[k], NULL, NULL);

				for (guint j = 0; v && v[j]; j++) {
					const char *t = g_strstrip(v[j]);

					names++;
					if (strchr(t, '*'))
						continue;
					/* a name of another policy (Fedora's): check-rules says so */
					if (!ad_policy_has_type(pol, t) &&
					    !ad_policy_type_is_attribute(pol, t) &&
					    !reported(lacks, t)) {
						print_error("%s [%s] %s: %s is not in %s\n", path,
							    groups[g], type_keys[k], t,
							    REAL_POLICY);
						fail();
					}
				}
			}
			for (guint n = 1; n <= 9; n++) {
				g_autofree char *key = n == 1 ? g_strdup("Command")
							      : g_strdup_printf("Command%u", n);
				g_auto(GStrv) argv = g_key_file_get_string_list(kf, groups[g], key,
										NULL, NULL);

				if (!argv || strcmp(argv[0], "setsebool") != 0)
					continue;
				for (guint j = 1; argv[j]; j++) {
					g_autofree char *name = g_strndup(argv[j],
									  strcspn(argv[j], "="));

					if (argv[j][0] == '-')
						continue;
					names++;
					if (ad_policy_bool_value(pol, name) < 0 &&
					    !reported(lacks, name)) {
						print_error("%s [%s]: boolean %s is not in %s\n",
							    path, groups[g], name, REAL_POLICY);
						fail();
					}
				}
			}
		}
	}
	assert_true(names > 100);
}

/* a few real cases through the shipped rules, with verdicts from the policy */
static void test_shipped_rules_cases(void **state)
{
	NEED_POLICY();

	g_autofree char *dir = source_path("rules");
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(AdDenial) up = NULL, db = NULL, samba = NULL, ssh = NULL, swap = NULL;
	g_autoptr(GPtrArray) s1 = NULL, s2 = NULL, s3 = NULL, s4 = NULL, s5 = NULL;
	const char *perms_add[] = { "add_name" };
	const AdVerdict *v;
	AdSuggestion *s;

	assert_true(ad_rule_book_load_dir(b, dir, NULL, NULL));

	/* httpd_t writes web content; httpd_builtin_scripting is off in this policy */
	up = avc("add_name", "php", "/var/www/html/uploads", "httpd_t", "httpd_sys_content_t",
		 "dir");
	v = ad_policy_explain(pol, up->scontext, up->tcontext, "dir", perms_add, 1);
	s1 = apply(b, pol, up, v);
	s = find_suggestion(s1, "rule:10-httpd.rules:httpd-write-content-builtin-scripting");
	if (!s)
		print_suggestions(s1);
	assert_non_null(s);
	assert_null(find_suggestion(s1, "rule:10-httpd.rules:httpd-write-content"));
	assert_argv(s, 0, "semanage", "fcontext", "-a", "-t", "httpd_sys_rw_content_t", "--",
		    "/var/www/html/uploads(/.*)?");
	assert_argv(s, 1, "restorecon", "-R", "-v", "--", "/var/www/html/uploads");
	assert_argv(s, 2, "setsebool", "-P", "httpd_builtin_scripting=1");

	db = denial_of("type=AVC msg=audit(1700000020.100:20): avc:  denied  { name_connect } "
		       "for  pid=1 comm=\"httpd\" dest=5432 "
		       "scontext=system_u:system_r:httpd_t:s0 "
		       "tcontext=system_u:object_r:postgresql_port_t:s0 tclass=tcp_socket "
		       "permissive=0\n");
	s2 = apply(b, pol, db, NULL);
	assert_argv(find_suggestion(s2, "rule:10-httpd.rules:httpd-connect-db"), 0, "setsebool",
		    "-P", "httpd_can_network_connect_db=1");

	samba = avc("create", "smbd", "/srv/share/new.txt", "smbd_t", "default_t", "file");
	s3 = apply(b, pol, samba, NULL);
	s = find_suggestion(s3, "rule:20-file-sharing.rules:samba-share");
	assert_argv(s, 0, "semanage", "fcontext", "-a", "-t", "samba_share_t", "--",
		    "/srv/share(/.*)?");
	assert_argv(s, 1, "restorecon", "-R", "-v", "--", "/srv/share");

	ssh = avc("read", "sshd", "/root/.ssh/authorized_keys", "sshd_t", "user_home_t", "file");
	s4 = apply(b, pol, ssh, NULL);
	assert_argv(find_suggestion(s4, "rule:40-system.rules:sshd-ssh-home"), 0, "restorecon",
		    "-R", "-v", "--", "/root/.ssh");

	swap = avc("read write", "swapon", "/swapfile", "fsadm_t", "default_t", "file");
	s5 = apply(b, pol, swap, NULL);
	s = find_suggestion(s5, "rule:40-system.rules:swapfile");
	assert_non_null(s);
	assert_str(s->if_text, "If /swapfile is a swap file");
	assert_true(g_str_has_prefix(s->then_text, "Then label it swapfile_t"));
	assert_argv(s, 0, "semanage", "fcontext", "-a", "-t", "swapfile_t", "--", "/swapfile");
	assert_argv(s, 1, "restorecon", "-v", "--", "/swapfile");
}

/* ---- the shipped fixes work ------------------------------------------------------------ */

/* rules whose fix works indirectly, so that the access itself stays denied after it */
static const char *const indirect_fixes[] = {
	/* libvirt relabels virt_image_t images svirt_image_t when it starts the guest */
	"qemu-file-image",
	NULL,
};

/* a target for rules that name none (only NotTarget) */
static const char *stand_in_target(const char *rule)
{
	if (strcmp(rule, "swapfile") == 0)
		return "default_t";
	if (strcmp(rule, "mounton") == 0)
		return "etc_t";
	return NULL;
}

/*
 * Checks the kernel never makes: a directory is not appended to or mapped,
 * a symbolic link is not opened, locked or written (it is followed).
 */
static gboolean kernel_checks(const char *tclass, const char *perm)
{
	static const char *const dir_never[] = {
		"append", "map", "execute", "execute_no_trans", "entrypoint", "execmod", NULL,
	};
	static const char *const lnk_never[] = {
		"open", "ioctl", "lock", "append", "write", "map", "execute",
		"execute_no_trans", "entrypoint", "execmod", "search", NULL,
	};

	if (strcmp(tclass, "dir") == 0)
		return !g_strv_contains(dir_never, perm);
	if (strcmp(tclass, "lnk_file") == 0)
		return !g_strv_contains(lnk_never, perm);
	return TRUE;
}

/* the type restorecon gives, for relabel rules: what file_contexts says for their paths */
static const char *relabel_type(const char *rule)
{
	if (strcmp(rule, "sshd-ssh-home") == 0)
		return "ssh_home_t";
	if (strcmp(rule, "httpd-user-content-relabel") == 0)
		return "httpd_user_content_t";
	return NULL;
}

static gboolean concrete_type(const char *t)
{
	return !strchr(t, '*') && ad_policy_has_type(pol, t);
}

static const char *verdict_of(const char *stype, const char *ttype, const char *tclass,
			      const char *perm)
{
	g_autofree char *sc = g_strdup_printf("system_u:system_r:%s:s0", stype);
	/* a process is labeled with a domain's role, files and ports with object_r */
	g_autofree char *tc = g_strdup_printf("system_u:%s:%s:s0",
					      strcmp(tclass, "process") == 0 ? "system_r"
									      : "object_r", ttype);
	const char *perms[] = { perm };

	return ad_reason_name(ad_policy_explain(pol, sc, tc, tclass, perms, 1)->reason);
}

/* sets the booleans of "name=value" items; the old values go to @saved */
static void set_booleans(char **items, GHashTable *saved)
{
	for (guint i = 0; items && items[i]; i++) {
		g_autofree char *name = g_strndup(items[i], strcspn(items[i], "="));
		const char *eq = strchr(items[i], '=');
		gboolean on = eq && (strcmp(eq + 1, "1") == 0 || strcmp(eq + 1, "true") == 0 ||
				     strcmp(eq + 1, "on") == 0);

		g_strstrip(name);
		if (!g_hash_table_contains(saved, name))
			g_hash_table_insert(saved, g_strdup(name),
					    GINT_TO_POINTER(ad_policy_bool_value(pol, name)));
		assert_true(ad_policy_set_boolean(pol, name, on, NULL));
	}
}

static void restore_booleans(GHashTable *saved)
{
	GHashTableIter it;
	gpointer name, value;

	g_hash_table_iter_init(&it, saved);
	while (g_hash_table_iter_next(&it, &name, &value))
		ad_policy_set_boolean(pol, name, GPOINTER_TO_INT(value) == 1, NULL);
	g_hash_table_remove_all(saved);
}

/*
 * For every boolean, fcontext and relabel rule: each (source, target,
 * class, permission) it names that the policy denies (under the rule's
 * Boolean conditions) is allowed once the rule's fix is made: its
 * setsebool settings applied and the object relabeled with the type it
 * gives semanage fcontext -t (or file_contexts gives its paths).
 */
static void check_fixes(const char *path, guint *checked, GPtrArray *failures)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GHashTable) saved = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							    NULL);
	g_auto(GStrv) groups = NULL;
	guint denied;

	assert_true(g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, NULL));
	groups = g_key_file_get_groups(kf, NULL);
	for (guint g = 0; groups[g]; g++) {
		const char *rule = groups[g];
		g_autofree char *kind = g_key_file_get_string(kf, rule, "Kind", NULL);
		g_auto(GStrv) sources = g_key_file_get_string_list(kf, rule, "Source", NULL, NULL);
		g_auto(GStrv) targets = g_key_file_get_string_list(kf, rule, "Target", NULL, NULL);
		g_auto(GStrv) classes = g_key_file_get_string_list(kf, rule, "Class", NULL, NULL);
		g_auto(GStrv) perms = g_key_file_get_string_list(kf, rule, "Permissions", NULL,
								 NULL);
		g_auto(GStrv) conds = g_key_file_get_string_list(kf, rule, "Boolean", NULL, NULL);
		g_auto(GStrv) types = g_key_file_get_string_list(kf, rule, "Types", NULL, NULL);
		g_autoptr(GPtrArray) fix_bools = g_ptr_array_new_with_free_func(g_free);
		g_autofree char *new_type = NULL;
		const char *stand_in = stand_in_target(rule);
		const char *const one_target[] = { stand_in, NULL };

		if (g_strv_contains(indirect_fixes, rule) || !sources || !classes || !perms ||
		    (g_strcmp0(kind, "boolean") != 0 && g_strcmp0(kind, "fcontext") != 0 &&
		     g_strcmp0(kind, "relabel") != 0))
			continue;
		if (g_strcmp0(kind, "relabel") == 0) {
			assert_non_null(relabel_type(rule));	/* a new relabel rule: add it */
			new_type = g_strdup(relabel_type(rule));
		}
		for (guint n = 1; n <= 9; n++) {
			g_autofree char *key = n == 1 ? g_strdup("Command")
						      : g_strdup_printf("Command%u", n);
			g_auto(GStrv) argv = g_key_file_get_string_list(kf, rule, key, NULL, NULL);

			for (guint j = 1; argv && argv[j]; j++) {
				if (strcmp(argv[0], "setsebool") == 0 && argv[j][0] != '-')
					g_ptr_array_add(fix_bools, g_strdup(argv[j]));
				if (strcmp(argv[0], "semanage") == 0 &&
				    strcmp(argv[j - 1], "-t") == 0)
					new_type = g_strdup(argv[j]);
			}
		}
		g_ptr_array_add(fix_bools, NULL);
		denied = 0;
		for (guint si = 0; sources[si]; si++) {
			const char *const *tl = targets ? (const char *const *)targets
							: one_target;

			for (guint ti = 0; tl[ti]; ti++) {
				for (guint ci = 0; classes[ci]; ci++) {
					for (guint pi = 0; perms[pi]; pi++) {
						const char *st = g_strstrip(sources[si]);
						const char *tt = tl[ti];
						const char *c = classes[ci], *pm = perms[pi];
						const char *before, *after;

						if (!concrete_type(st) || !concrete_type(tt) ||
						    !ad_policy_has_perm(pol, c, pm) ||
						    !kernel_checks(c, pm))
							continue;
						set_booleans(conds, saved);
						before = verdict_of(st, tt, c, pm);
						if (strcmp(before, "allowed") == 0) {
							restore_booleans(saved);
							continue;	/* never fires */
						}
						denied++;
						set_booleans((char **)fix_bools->pdata, saved);
						after = verdict_of(st, new_type ? new_type : tt, c,
								   pm);
						/* {type}: the first of Types= that works */
						for (guint k = 0; types && g_strcmp0(new_type, "{type}") == 0 &&
								  strcmp(after, "allowed") != 0 && types[k]; k++)
							if (concrete_type(types[k]))
								after = verdict_of(st, types[k], c, pm);
						(*checked)++;
						if (strcmp(after, "allowed") != 0)
							g_ptr_array_add(failures, g_strdup_printf(
								"%s [%s]: %s %s:%s %s is still %s "
								"after the fix", path, rule, st,
								new_type ? new_type : tt, c, pm,
								after));
						restore_booleans(saved);
					}
				}
			}
		}
		/*
		 * a rule nothing the policy denies fits is dead, unless it was
		 * written for another policy: Fedora's init_t may not execute
		 * programs in homes or /srv, the reference policy's may
		 */
		if (!denied && strcmp(rule, "service-program-label") != 0)
			g_ptr_array_add(failures, g_strdup_printf(
				"%s [%s]: the policy denies none of the accesses it names", path,
				rule));
	}
}

static void test_shipped_fixes_work(void **state)
{
	NEED_POLICY();

	g_autoptr(GPtrArray) files = shipped_files();
	g_autoptr(GPtrArray) failures = g_ptr_array_new_with_free_func(g_free);
	guint checked = 0;

	for (guint i = 0; i < files->len; i++)
		check_fixes(g_ptr_array_index(files, i), &checked, failures);
	print_message("%u denied accesses allowed by the fix they get\n", checked - failures->len);
	print_messages(failures);
	assert_int_equal(failures->len, 0);
	assert_true(checked > 100);
}

static guint corpus_denials;

static void apply_all_cb(AdEvent *ev, gpointer user_data)
{
	AdRuleBook *b = user_data;
	g_autoptr(GPtrArray) ds = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);

	ad_event_build_denials(ev, ds, NULL, NULL);
	for (guint i = 0; i < ds->len; i++) {
		AdDenial *d = g_ptr_array_index(ds, i);
		g_autoptr(GPtrArray) s = apply(b, pol, d, NULL);

		corpus_denials++;
		for (guint j = 0; j < s->len; j++) {
			AdSuggestion *sg = g_ptr_array_index(s, j);

			assert_non_null(sg->if_text);
			assert_true(g_utf8_validate(sg->if_text, -1, NULL));
			for (guint k = 0; k < sg->commands->len; k++) {
				char **argv = g_ptr_array_index(sg->commands, k);

				for (guint a = 0; argv[a]; a++)
					for (const char *c = argv[a]; *c; c++)
						assert_true((guchar)*c >= 0x20 && *c != 0x7f);
			}
		}
	}
}

/* the whole corpus through the shipped rules: no crash, clean arguments */
static void run_corpus(void)
{
	g_autofree char *dir = source_path("rules");
	const char *corpus = g_getenv("AD_CORPUS");
	g_autofree char *cdir = corpus ? g_strdup(corpus) : source_path("tests/data/corpus");
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	static const char *const subdirs[] = { "", "crafted", "synthetic" };

	assert_true(ad_rule_book_load_dir(b, dir, NULL, NULL));
	corpus_denials = 0;
	for (guint i = 0; i < G_N_ELEMENTS(subdirs); i++) {
		g_autofree char *sub = g_build_filename(cdir, subdirs[i], NULL);
		g_autoptr(GDir) d = g_dir_open(sub, 0, NULL);
		const char *name;

		while (d && (name = g_dir_read_name(d))) {
			g_autofree char *path = g_build_filename(sub, name, NULL);
			AdReader *r;

			if (!g_file_test(path, G_FILE_TEST_IS_REGULAR) ||
			    g_str_has_suffix(name, ".md"))
				continue;
			r = ad_reader_new(apply_all_cb, NULL, b);
			ad_reader_read_file(r, path, NULL);
			ad_reader_free(r);
		}
	}
	print_message("%u corpus denials through %u rules\n", corpus_denials,
		      ad_rule_book_size(b));
}

static void test_shipped_rules_corpus(void **state)
{
	run_corpus();
	if (!corpus_denials) {
		print_message("skipped: no corpus\n");
		skip();
	}
}

/* 100k denials cost hash lookups, not rule scans */
static void test_speed(void **state)
{
	g_autofree char *dir = source_path("rules");
	g_autoptr(AdRuleBook) b = ad_rule_book_new();
	g_autoptr(AdDenial) d = avc("write", "httpd", "/var/www/html/x", "httpd_t",
				    "httpd_sys_content_t", "file");
	g_autoptr(AdDenial) e = avc("read", "cat", "/etc/x", "httpd_t", "shadow_t", "file");
	gint64 t0;
	double secs;

	assert_true(ad_rule_book_load_dir(b, dir, NULL, NULL));
	t0 = g_get_monotonic_time();
	for (guint i = 0; i < 100000; i++)
		g_ptr_array_unref(apply(b, pol, i % 2 ? d : e, NULL));
	secs = (g_get_monotonic_time() - t0) / 1e6;
	print_message("100000 denials: %.3f s\n", secs);
	assert_true(secs < 60.0);	/* generous: sanitizers, valgrind, slow machines */
}

/* ---- avcdoctor check-rules, when the program is built with it ------------------------- */

/* the avcdoctor program when it has the check-rules command, else NULL */
static char *check_rules_program(void)
{
	const char *build = g_getenv("AD_BUILD_DIR");
	char *prog = g_build_filename(build ? build : "build", "analyzer", "avcdoctor", NULL);
	const char *help[] = { prog, "check-rules", "--help", NULL };
	int status;

	if (g_file_test(prog, G_FILE_TEST_IS_EXECUTABLE) &&
	    g_spawn_sync(NULL, (char **)help, NULL, G_SPAWN_STDOUT_TO_DEV_NULL |
			 G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL) &&
	    g_spawn_check_wait_status(status, NULL))
		return prog;
	print_message("skipped: %s has no check-rules command\n", prog);
	g_free(prog);
	return NULL;
}

static void run_check_rules(const char *prog)
{
	g_autofree char *good = source_path("tests/data/rules/mixed/10-good.rules");
	g_autofree char *bad = source_path("tests/data/rules/mixed/20-broken.rules");
	g_autofree char *out = NULL, *err = NULL;
	g_autofree char *want_ok = g_strdup_printf("%s: 2 rules, OK\n", good);
	g_autofree char *want_bad = g_strdup_printf("%s:6: unknown key “Sevrity”", bad);
	const char *argv[] = { prog, "check-rules", good, bad, NULL };
	const char *clean[] = { prog, "check-rules", good, NULL };
	const char *nofile[] = { prog, "check-rules", NULL };
	const char *nopolicy[] = { prog, "check-rules", "-p", "/nonexistent/policy.33", good,
				   NULL };
	int status;

	assert_true(g_spawn_sync(NULL, (char **)argv, NULL, 0, NULL, NULL, &out, &err, &status,
				 NULL));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_str(out, want_ok);
	assert_non_null(strstr(err, want_bad));
	g_clear_pointer(&out, g_free);
	g_clear_pointer(&err, g_free);

	assert_true(g_spawn_sync(NULL, (char **)clean, NULL, 0, NULL, NULL, &out, &err, &status,
				 NULL));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_str(out, want_ok);
	assert_str(err, "");

	assert_true(g_spawn_sync(NULL, (char **)nofile, NULL, G_SPAWN_STDOUT_TO_DEV_NULL |
				 G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
				 NULL));
	assert_int_equal(WEXITSTATUS(status), 1);
	assert_true(g_spawn_sync(NULL, (char **)nopolicy, NULL, G_SPAWN_STDOUT_TO_DEV_NULL |
				 G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
				 NULL));
	assert_int_equal(WEXITSTATUS(status), 2);
}

static void test_check_rules_command(void **state)
{
	char *prog = check_rules_program();

	if (!prog)
		skip();
	run_check_rules(prog);
	g_free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_broken_files),
		cmocka_unit_test(test_all_problems_reported),
		cmocka_unit_test(test_tolerated_syntax),
		cmocka_unit_test(test_natural_order),
		cmocka_unit_test(test_broken_file_does_not_stop_others),
		cmocka_unit_test(test_missing_dir_and_file),
		cmocka_unit_test(test_unsafe_as_root),
		cmocka_unit_test(test_symlink_refused),
		cmocka_unit_test(test_default_dir),
		cmocka_unit_test(test_hostile_path_one_argument),
		cmocka_unit_test(test_hostile_quoted_path),
		cmocka_unit_test(test_hostile_space_path),
		cmocka_unit_test(test_path_dir_and_regex),
		cmocka_unit_test(test_trailing_slash_path),
		cmocka_unit_test(test_unusable_paths),
		cmocka_unit_test(test_standard_dirs),
		cmocka_unit_test(test_texts_and_comm),
		cmocka_unit_test(test_reasons),
		cmocka_unit_test(test_perms_class_target),
		cmocka_unit_test(test_globs_and_prefixes),
		cmocka_unit_test(test_kmod),
		cmocka_unit_test(test_policy_matching),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_shipped_rules_load),
		cmocka_unit_test(test_shipped_rules_match_policy),
		cmocka_unit_test(test_shipped_rules_cases),
		cmocka_unit_test(test_shipped_fixes_work),
		cmocka_unit_test(test_shipped_rules_corpus),
		cmocka_unit_test(test_speed),
		cmocka_unit_test(test_check_rules_command),
	};
	int rc;

	pol = ad_policy_load(REAL_POLICY, NULL);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	ad_policy_free(pol);
	return rc;
}
