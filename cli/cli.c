// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every report command shares: options, policy, reading the inputs.
 */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "cli.h"
#include "config.h"
#include "escape.h"
#include "options.h"
#include "read/compress.h"

GOptionEntry *ad_common_option_entries(AdCommonOptions *opt)
{
	GOptionEntry entries[] = {
		{ "policy", 'p', 0, G_OPTION_ARG_FILENAME, &opt->policy,
		  N_("Binary policy to analyse against (default: the kernel's, else the "
		     "newest installed policy.N)"), N_("FILE") },
		{ "file-contexts", 0, 0, G_OPTION_ARG_FILENAME, &opt->file_contexts,
		  N_("file_contexts to judge labels with (default: the policy's own)"),
		  N_("FILE") },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &opt->json,
		  N_("JSON Lines on standard output, one object per result"), NULL },
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &opt->all,
		  N_("Read the audit log and all its rotations, oldest first (also compressed "
		     "ones)"), NULL },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &opt->version,
		  N_("Show the version and exit"), NULL },
		{ "no-pager", 0, 0, G_OPTION_ARG_NONE, &opt->no_pager,
		  N_("Write to the terminal directly, not through $PAGER (less)"), NULL },
		{ "since", 0, 0, G_OPTION_ARG_STRING, &opt->since,
		  N_("Only denials at or after TIME (now, recent, this-hour, today, yesterday, "
		     "this-week, week-ago, this-month, this-year, a date)"), N_("TIME") },
		{ "until", 0, 0, G_OPTION_ARG_STRING, &opt->until,
		  N_("Only denials at or before TIME"), N_("TIME") },
		{ "comm", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &opt->comms,
		  N_("Only denials of the command NAME (comm=); repeatable"), N_("NAME") },
		{ "source", 's', 0, G_OPTION_ARG_STRING_ARRAY, &opt->sources,
		  N_("Only denials whose source type is TYPE; repeatable"), N_("TYPE") },
		{ "target", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt->targets,
		  N_("Only denials whose target type is TYPE; repeatable"), N_("TYPE") },
		{ "class", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt->classes,
		  N_("Only denials on objects of CLASS; repeatable"), N_("CLASS") },
		{ "host", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt->hosts,
		  N_("Only denials of the host NODE (node=; \"local\" for records without "
		     "one); repeatable"), N_("NODE") },
		/* no arg_description: the parameter string names the files */
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt->files, NULL, NULL },
		{ NULL }
	};

	return g_memdup2(entries, sizeof(entries));
}

/* fills cli->select from the filter options; FALSE with a message on a bad time */
static gboolean select_from_options(AdCli *cli, const char *cmd)
{
	AdCommonOptions *o = &cli->opt;
	g_autoptr(GError) error = NULL;

	if (o->since && !ad_time_parse(o->since, &cli->select.since, &error)) {
		ad_cli_message("%s: --since: %s", cmd, error->message);
		return FALSE;
	}
	if (o->until && !ad_time_parse(o->until, &cli->select.until, &error)) {
		ad_cli_message("%s: --until: %s", cmd, error->message);
		return FALSE;
	}
	cli->select.comms = g_strdupv(o->comms);
	cli->select.sources = g_strdupv(o->sources);
	cli->select.targets = g_strdupv(o->targets);
	cli->select.classes = g_strdupv(o->classes);
	cli->select.hosts = g_strdupv(o->hosts);
	return TRUE;
}

gboolean ad_cli_parse(AdCli *cli, const char *cmd, const char *summary,
		      const GOptionEntry *extra, int *argc, char ***argv)
{
	g_autofree char *param = g_strdup_printf("%s %s", cmd, _("[FILE...]"));
	g_autofree char *description = NULL;
	g_autoptr(GOptionContext) ctx = ad_cli_context_new(param, summary, &cli->opt.help);
	g_autofree GOptionEntry *common = ad_common_option_entries(&cli->opt);
	int parsed;

	/* TRANSLATORS: %s is the default log, /var/log/audit/audit.log */
	description = g_strdup_printf(_("FILE is a raw audit log, `ausearch --raw` or "
					"`ausearch -i` output, or kernel-log\nlines (dmesg, "
					"journal), also pasted text and gzip, xz or zstd\n"
					"compressed logs; a directory is read as its audit.log and "
					"rotations;\n\"-\" is standard input; without FILE: standard input "
					"when it is\nnot a terminal (a pipe or a redirection), else %s.\n\n"
					"Exit status: 0 done, 1 bad input or usage, 2 no policy, 3 no "
					"denial record."),
				      AD_DEFAULT_LOG);
	g_option_context_set_description(ctx, description);
	g_option_context_add_main_entries(ctx, common, GETTEXT_PACKAGE);
	if (extra)
		g_option_context_add_main_entries(ctx, extra, GETTEXT_PACKAGE);
	parsed = ad_cli_context_parse(ctx, cmd, &cli->opt.help, argc, argv);
	if (parsed < 0)
		return FALSE;
	if (parsed == 0)
		return TRUE;	/* cli->opt.help: printed */
	if (cli->opt.all) {
		/* the log's directory, which the reader reads as ausearch does */
		g_autoptr(GStrvBuilder) b = g_strv_builder_new();
		g_autofree char *dir = g_path_get_dirname(AD_DEFAULT_LOG);

		g_strv_builder_add(b, dir);
		if (cli->opt.files)
			g_strv_builder_addv(b, (const char **)cli->opt.files);
		g_strfreev(cli->opt.files);
		cli->opt.files = g_strv_builder_end(b);
	}
	return select_from_options(cli, cmd);
}

/*
 * Output to a regular file goes out in 64 KiB writes rather than stdio's
 * 4 KiB (a write per eight denials was a tenth of why's main thread); a
 * pipe or terminal keeps stdio's buffering, so that output is not held.
 */
void ad_cli_buffer_stdout(void)
{
	static char buf[64 << 10];
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

int ad_cli_begin(AdCli *cli, const char *cmd, const char *summary, const GOptionEntry *extra,
		 int *argc, char ***argv)
{
	int ret = -1;

	ad_cli_buffer_stdout();
	if (!ad_cli_parse(cli, cmd, summary, extra, argc, argv))
		ret = AD_EXIT_INPUT;
	else if (cli->opt.help) {
		ret = AD_EXIT_OK;
	} else if (cli->opt.version) {
		printf("avcdoctor %s\n", VERSION);
		ret = AD_EXIT_OK;
	} else {
		ad_cli_start_inputs(cli);
		if (!ad_cli_load_policy(cli))
			ret = AD_EXIT_NO_POLICY;
	}
	if (ret >= 0)
		ad_cli_clear(cli);
	return ret;
}

/*
 * With cli->knowledge, the file labels and rules (--file-contexts, the
 * rules directories) are loaded too, while the policy loads; what is
 * missing of them is said once on stderr.
 */
gboolean ad_cli_load_policy(AdCli *cli)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	AdAnalysisOptions opt = {
		.file_contexts = cli->opt.file_contexts,
		/* the log is from this host when it is the default one, read on a terminal */
		.local = cli->host_files || (!cli->opt.files && !ad_cli_stdin_is_input()),
		.input_files = ad_cli_input_files(cli),
	};

	if (cli->knowledge)
		cli->analysis = ad_analysis_new_with_knowledge(cli->opt.policy, &opt, problems,
							       &error);
	else
		cli->analysis = ad_analysis_new(cli->opt.policy, &error);
	if (!cli->analysis) {
		ad_cli_message("%s", error->message);
		return FALSE;
	}
	for (guint i = 0; i < problems->len; i++)
		ad_cli_message("%s", (char *)g_ptr_array_index(problems, i));
	cli->policy = ad_analysis_policy(cli->analysis);
	return TRUE;
}

/*
 * A stream that is binary (standard input, a FIFO: not looked at before)
 * gives one message about NUL bytes, not one per line; the rest are
 * counted and said once at the end.
 */
static gboolean quiet_nul_problem(AdCli *cli, const char *file, const char *message)
{
	gpointer n;

	if (!file || strcmp(message, _("line holds NUL bytes: skipped")) != 0)
		return FALSE;
	if (!cli->nul_files)
		cli->nul_files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (!g_hash_table_lookup_extended(cli->nul_files, file, NULL, &n)) {
		g_hash_table_insert(cli->nul_files, g_strdup(file), GUINT_TO_POINTER(0));
		return FALSE;
	}
	g_hash_table_insert(cli->nul_files, g_strdup(file), GUINT_TO_POINTER(GPOINTER_TO_UINT(n) + 1));
	return TRUE;
}

static void say_quiet_nul_problems(AdCli *cli)
{
	GHashTableIter it;
	gpointer file, n;

	if (!cli->nul_files)
		return;
	g_hash_table_iter_init(&it, cli->nul_files);
	while (g_hash_table_iter_next(&it, &file, &n)) {
		g_autofree char *f = ad_escape_str(file);

		if (GPOINTER_TO_UINT(n))
			ad_cli_message(ngettext("%s: %u more line holds NUL bytes: it is not a "
						"text log",
						"%s: %u more lines hold NUL bytes: it is not a "
						"text log", GPOINTER_TO_UINT(n)),
				       f, GPOINTER_TO_UINT(n));
	}
	g_clear_pointer(&cli->nul_files, g_hash_table_unref);
}

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	AdCli *cli = user_data;
	g_autofree char *f = NULL;

	cli->problems++;
	if (quiet_nul_problem(cli, file, message))
		return;
	f = ad_escape_str(file);
	fflush(stdout);
	fprintf(stderr, "%s:%u: %s\n", f, line, message);
}

static void on_record_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	on_problem(rec->file, rec->line, message, user_data);
}

/* the denials of an event, built by the reading thread or here */
static void on_event(AdCli *cli, const AdInput *it)
{
	GPtrArray *denials = it->denials;

	if (ad_event_is_policy_load(it->ev))
		cli->policy_loads++;
	if (!denials) {
		denials = cli->event_denials;
		ad_event_build_denials(it->ev, denials, on_record_problem, cli);
	}
	for (guint i = 0; i < denials->len; i++) {
		AdDenial *d = g_ptr_array_index(denials, i);

		if (!ad_select_denial(&cli->select, d)) {
			cli->unselected++;
			continue;
		}
		cli->denials++;
		cli->sink(cli, d, cli->sink_data);
	}
	if (denials == cli->event_denials)
		g_ptr_array_set_size(denials, 0);
}

/*
 * What is read: the FILE arguments; without them standard input when it is
 * not a terminal (`ausearch ... | avcdoctor why`, as audit2why and
 * audit2allow read it), else the default log.
 */
const char *const *ad_cli_input_files(const AdCli *cli)
{
	static const char *const default_files[] = { AD_DEFAULT_LOG, NULL };
	static const char *const stdin_files[] = { "-", NULL };

	if (cli->opt.files)
		return (const char *const *)cli->opt.files;
	if (ad_cli_stdin_is_input())
		return stdin_files;
	return default_files;
}

gboolean ad_cli_stdin_is_input(void)
{
	struct stat st;

	/* a closed standard input is no input: the default log then */
	return fstat(STDIN_FILENO, &st) == 0 && !isatty(STDIN_FILENO);
}

/*
 * Whether the regular file @path starts with binary data (a NUL byte in
 * its first 4 KiB): such a file is said once not to be a text log instead
 * of getting a message per line.  Files that cannot be read, and
 * compressed ones, are left to the reader.
 */
static gboolean is_binary_file(const char *path)
{
	guchar buf[4096];
	struct stat st;
	gssize n;
	int fd;

	if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return FALSE;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return FALSE;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	/* compressed data the reader reads (gzip, xz, zstd) is not refused */
	return n > 0 && ad_compression_of(buf, n) == AD_COMPRESSION_NONE &&
	       memchr(buf, '\0', n) != NULL;
}

/* the inputs without the binary files, which are reported (once each) */
static const char *const *text_input_files(AdCli *cli)
{
	const char *const *files = ad_cli_input_files(cli);
	g_autoptr(GStrvBuilder) b = NULL;

	if (cli->text_files)
		return (const char *const *)cli->text_files;
	b = g_strv_builder_new();
	for (guint i = 0; files[i]; i++) {
		if (is_binary_file(files[i])) {
			g_autofree char *f = ad_escape_str(files[i]);

			ad_cli_message(_("%s: not a text file (binary data): not read"), f);
			cli->read_errors++;
			continue;
		}
		g_strv_builder_add(b, files[i]);
	}
	cli->text_files = g_strv_builder_end(b);
	return (const char *const *)cli->text_files;
}

void ad_cli_start_inputs(AdCli *cli)
{
	const char *const *files = text_input_files(cli);

	if (cli->inputs)
		return;
	/*
	 * Only regular files (or missing ones, which fail at once): standard
	 * input, a FIFO or <(ausearch ...) may block in open() or read(), and a
	 * command that fails on the policy must not wait for them.
	 */
	for (guint i = 0; files[i]; i++) {
		struct stat st;

		if (strcmp(files[i], "-") == 0 ||
		    (stat(files[i], &st) == 0 && !S_ISREG(st.st_mode)))
			return;
	}
	cli->inputs = ad_inputs_start(files);
}

gboolean ad_cli_read_inputs(AdCli *cli)
{
	const AdInput *it;
	gboolean ok = TRUE;

	if (!cli->inputs)
		cli->inputs = ad_inputs_start(text_input_files(cli));
	if (!cli->event_denials)
		cli->event_denials = g_ptr_array_new_with_free_func(
			(GDestroyNotify)ad_denial_unref);
	while ((it = ad_inputs_next(cli->inputs)) != NULL) {
		switch (it->kind) {
		case AD_INPUT_EVENT:
			on_event(cli, it);
			break;
		case AD_INPUT_PROBLEM:
			on_problem(it->file, it->line, it->message, cli);
			break;
		case AD_INPUT_NOTE: {
			/* what was assumed: said, not counted as bad input */
			g_autofree char *f = ad_escape_str(it->file);

			fflush(stdout);
			fprintf(stderr, "%s:%u: %s: %s\n", f, it->line, _("note"), it->message);
			break;
		}
		case AD_INPUT_ERROR: {
			g_autofree char *m = ad_escape_str(it->message);

			ad_cli_message("%s", m);
			cli->read_errors++;
			ok = FALSE;
			break;
		}
		}
	}
	g_clear_pointer(&cli->inputs, ad_inputs_free);
	say_quiet_nul_problems(cli);
	return ok;
}

void ad_cli_append_read_errors(GString *s, const AdCli *cli)
{
	if (cli->read_errors)
		g_string_append_printf(s, ngettext("; %u input could not be read",
						   "; %u inputs could not be read",
						   cli->read_errors), cli->read_errors);
}

/* TRUE when stderr and @f end in the same file or terminal: messages on stderr came "above" */
static gboolean same_destination(FILE *f)
{
	struct stat a, b;

	if (fstat(fileno(f), &a) < 0 || fstat(STDERR_FILENO, &b) < 0)
		return FALSE;
	if (S_ISCHR(a.st_mode) && S_ISCHR(b.st_mode))
		return a.st_rdev == b.st_rdev;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void ad_cli_append_unselected(GString *s, const AdCli *cli)
{
	if (cli->unselected)
		g_string_append_printf(s, ngettext("; %" PRIu64 " denial record left out by the "
						   "filters",
						   "; %" PRIu64 " denial records left out by the "
						   "filters", cli->unselected), cli->unselected);
}

void ad_cli_append_rejected(GString *s, const AdCli *cli, FILE *f)
{
	if (!cli->problems)
		return;
	g_string_append_printf(s, ngettext("; %" PRIu64 " record rejected",
					   "; %" PRIu64 " records rejected", cli->problems),
			       cli->problems);
	g_string_append(s, same_destination(f) ? _(" (see the messages above)")
					       : _(" (see the messages on standard error)"));
}

int ad_cli_input_status(const AdCli *cli)
{
	if (cli->problems || cli->read_errors)
		return AD_EXIT_INPUT;
	/* (denials the filters left out were there: nothing to say about the input) */
	if (!cli->denials && !cli->unselected) {
		const char *const *files = cli->text_files ? (const char *const *)cli->text_files
							   : ad_cli_input_files(cli);
		g_autofree char *joined = g_strjoinv(", ", (char **)files);
		g_autofree char *shown = ad_escape_str(joined);

		/* a log without denials, or not an audit log: said, and a status of its own */
		ad_cli_message(_("no denial record (AVC, USER_AVC, SELINUX_ERR) in %s"),
			       strcmp(joined, "-") == 0 ? _("standard input") : shown);
		return AD_EXIT_NO_DENIALS;
	}
	return AD_EXIT_OK;
}

const AdVerdict *ad_cli_explain(AdCli *cli, const AdDenial *d)
{
	return ad_analysis_explain(cli->analysis, d);
}

void ad_cli_clear(AdCli *cli)
{
	g_clear_pointer(&cli->inputs, ad_inputs_free);
	g_clear_pointer(&cli->event_denials, g_ptr_array_unref);
	cli->policy = NULL;
	g_clear_pointer(&cli->analysis, ad_analysis_free);
	g_clear_pointer(&cli->opt.policy, g_free);
	g_clear_pointer(&cli->opt.file_contexts, g_free);
	g_clear_pointer(&cli->opt.files, g_strfreev);
	g_clear_pointer(&cli->opt.since, g_free);
	g_clear_pointer(&cli->opt.until, g_free);
	g_clear_pointer(&cli->opt.comms, g_strfreev);
	g_clear_pointer(&cli->opt.sources, g_strfreev);
	g_clear_pointer(&cli->opt.targets, g_strfreev);
	g_clear_pointer(&cli->opt.classes, g_strfreev);
	g_clear_pointer(&cli->opt.hosts, g_strfreev);
	ad_select_clear(&cli->select);
	g_clear_pointer(&cli->text_files, g_strfreev);
	g_clear_pointer(&cli->nul_files, g_hash_table_unref);
}

/* ad_cli_clear() at the end of a command, when the process is about to exit */
void ad_cli_end(AdCli *cli)
{
	cli->policy = NULL;
	ad_analysis_free_at_exit(g_steal_pointer(&cli->analysis));
	ad_cli_clear(cli);
}
