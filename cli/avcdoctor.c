// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor: explains SELinux denials.  main() only picks the command.
 */
#include <errno.h>
#include <locale.h>
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli.h"
#include "cmd-check-rules.h"
#include "cmd-compat.h"
#include "cmd-names.h"
#include "cmd-sealert.h"
#include "cmd-store.h"
#include "config.h"
#include "i18n.h"
#include "stdfds.h"

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} AdCommand;

static const AdCommand commands[] = {
	{ "why", ad_cmd_why, N_("explain each denial record (audit2why)") },
	{ "allow", ad_cmd_allow, N_("allow rules and loadable modules (audit2allow)") },
	{ "analyze", ad_cmd_analyze, N_("alerts grouped by cause with ranked fixes (sealert -a)") },
	{ "list", ad_cmd_list, N_("the alerts of avcdoctor-dispatch, one line each") },
	{ "show", ad_cmd_show, N_("one alert with its analysis and fixes") },
	{ "ignore", ad_cmd_ignore, N_("ignore an alert (for you)") },
	{ "unignore", ad_cmd_unignore, N_("stop ignoring an alert") },
	{ "delete", ad_cmd_delete, N_("delete an alert") },
	{ "check-rules", ad_cmd_check_rules, N_("check rule files (avcdoctor.rules(5))") },
};

static void usage(FILE *f)
{
	int width = 0;

	/* the summaries in one column, however long the longest name */
	for (guint i = 0; i < G_N_ELEMENTS(commands); i++)
		width = MAX(width, (int)strlen(commands[i].name));
	fputs(_("Usage: avcdoctor COMMAND [OPTIONS] [FILE...]\n\nCommands:\n"), f);
	for (guint i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(f, "  %-*s  %s\n", width, commands[i].name, _(commands[i].summary));
	fputs(_("\n\"avcdoctor COMMAND --help\" describes a command's options.\n"), f);
}

/*
 * A report that could not be written (a full disk, a closed pipe) is a
 * failure, not a success: says so and turns @status into an error.
 */
static int stdout_written(int status)
{
	int e = 0;

	if (fflush(stdout) != 0 || ferror(stdout))
		e = errno ? errno : EIO;
	else if (fclose(stdout) != 0)
		e = errno ? errno : EIO;
	if (!e)
		return status;
	fprintf(stderr, _("avcdoctor: cannot write the report: %s\n"), g_strerror(e));
	return status == AD_EXIT_OK ? AD_EXIT_INPUT : status;
}

/*
 * Loading the policy allocates some 200,000 small blocks (libsepol's rule
 * table), and first touching each 4 KiB page of them costs a page fault:
 * a fifth of a short run.  The heap is grown once by HEAP_RESERVE, and
 * that range is offered to the kernel for transparent huge pages (where
 * it runs them "madvise" only, as Debian does), which fault in 2 MiB at
 * a time: at most 2 MiB more is resident than is used.  The reserve stays
 * below M_TRIM_THRESHOLD (main), or the next free() would hand it back.
 */
#define HEAP_RESERVE (48 << 20)
static void heap_huge_pages(void)
{
	const uintptr_t huge = 2 << 20;
	uintptr_t start, end;
	void *p;

	mallopt(M_TOP_PAD, HEAP_RESERVE);
	/* below the mmap threshold, larger than what is left at the top */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	start = (uintptr_t)sbrk(0);
	p = malloc(1 << 20);
	end = (uintptr_t)sbrk(0);
	/* only what this malloc() added to the heap (none under a sanitizer's allocator) */
	start = (start + huge - 1) & ~(huge - 1);
	if (p && end > start + huge)
		madvise((void *)start, (end - start) & ~(huge - 1), MADV_HUGEPAGE);
	free(p);
	mallopt(M_TOP_PAD, 4 << 20);
}

int main(int argc, char **argv)
{
	ad_std_fds_open();
	ad_i18n_init();
	/* "Usage: avcdoctor [OPTION…] why [FILE...]" in every command's --help */
	g_set_prgname("avcdoctor");
	/* G_MESSAGES_DEBUG's messages must not end up among the reports on stdout */
	g_log_writer_default_set_use_stderr(TRUE);
	/*
	 * A run is short and its memory use steady (events come and go in
	 * the same sizes): glibc's default of handing freed memory back to
	 * the kernel as soon as 128 KiB lie free at the top of a heap made
	 * a 100k-record log cost ~1000 mprotect() calls and as many page
	 * faults to take it back.  Nothing is kept that was not used.
	 */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	heap_huge_pages();

	/* installed as audit2allow and audit2why (symlinks): their options and layout */
	if (argc > 0) {
		g_autofree char *name = g_path_get_basename(argv[0]);

		if (strcmp(name, "audit2allow") == 0 || strcmp(name, "audit2why") == 0)
			return stdout_written(ad_compat_main(name, argc, argv));
		/* installed as sealert (the package avcdoctor-sealert): its options */
		if (strcmp(name, "sealert") == 0)
			return stdout_written(ad_sealert_main(argc, argv));
	}
	if (argc < 2) {
		usage(stderr);
		return AD_EXIT_INPUT;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return stdout_written(AD_EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("avcdoctor %s\n", VERSION);
		return stdout_written(AD_EXIT_OK);
	}
	for (guint i = 0; i < G_N_ELEMENTS(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return stdout_written(commands[i].run(argc - 1, argv + 1));
	/* the completion's helper: not among the commands listed */
	if (strcmp(argv[1], "names") == 0)
		return stdout_written(ad_cmd_names(argc - 1, argv + 1));
	fprintf(stderr, _("avcdoctor: unknown command \"%s\"\n\n"), argv[1]);
	usage(stderr);
	return AD_EXIT_INPUT;
}
