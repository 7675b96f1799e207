/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include <glib.h>

#include "analysis/analysis.h"
#include "analysis/select.h"
#include "options.h"
#include "read/denial.h"
#include "read/inputs.h"
#include "policy/policy.h"
#include "read/reader.h"

G_BEGIN_DECLS

/* exit statuses, as avcdoctor(1) documents them */
enum { AD_EXIT_OK = 0, AD_EXIT_INPUT = 1, AD_EXIT_NO_POLICY = 2, AD_EXIT_NO_DENIALS = 3 };

#define AD_DEFAULT_LOG "/var/log/audit/audit.log"

/* options every report command takes */
typedef struct {
	char *policy;
	char *file_contexts;
	gboolean json;
	gboolean version;
	gboolean help;		/* -h: the help was printed */
	gboolean no_pager;
	gboolean all;		/* -a: the default log and its rotations */
	char **files;
	/* which denials: as ausearch selects (select.h) */
	char *since, *until;
	char **comms, **sources, **targets, **classes, **hosts;
} AdCommonOptions;

typedef struct _AdCli AdCli;

/* what a command does with each denial as it is read */
typedef void (*AdDenialSink)(AdCli *cli, AdDenial *d, gpointer user_data);

/* what the closing account adds for unreadable inputs: "; 1 input could not be read" */
void ad_cli_append_read_errors(GString *s, const AdCli *cli);
/*
 * what the closing account adds for rejected records: "; 2 records rejected
 * (see the messages above)" when stderr ends where @f does, else "(see the
 * messages on standard error)"
 */
void ad_cli_append_rejected(GString *s, const AdCli *cli, FILE *f);
/* "; 12 denial records left out by the filters" when the filters left some out */
void ad_cli_append_unselected(GString *s, const AdCli *cli);
/*
 * the exit status for what was read: AD_EXIT_INPUT after a rejected record
 * or input, else AD_EXIT_NO_DENIALS (said on stderr) when the inputs held
 * no denial record
 */
int ad_cli_input_status(const AdCli *cli);

struct _AdCli {
	AdCommonOptions opt;
	AdAnalysis *analysis;		/* the policy and what is known with it */
	AdPolicy *policy;		/* the analysis's, borrowed */
	guint64 denials;
	guint64 problems;		/* records rejected or flagged */
	guint read_errors;		/* inputs that could not be opened or read */
	guint64 policy_loads;
	AdDenialSink sink;
	gpointer sink_data;
	AdInputs *inputs;		/* reading ahead, from ad_cli_start_inputs() */
	AdSelect select;		/* from the filter options */
	guint64 unselected;		/* denial records the filters left out */
	GPtrArray *event_denials;	/* of AdDenial*, the event's, reused */
	char **text_files;		/* the inputs that are not binary (ad_cli_input_files()) */
	GHashTable *nul_files;		/* file -> lines with NUL bytes past the first */
	/*
	 * Set by a command before ad_cli_begin(): the plugins' knowledge
	 * (labels, rules) is loaded with the policy; @host_files: the log is
	 * from this host (the option of that name).
	 */
	gboolean knowledge;
	gboolean host_files;
};

GOptionEntry *ad_common_option_entries(AdCommonOptions *opt);
/* a larger stdout buffer when standard output is a regular file (before any output) */
void ad_cli_buffer_stdout(void);
/* parses argv for @cmd; FALSE and a message on bad usage */
gboolean ad_cli_parse(AdCli *cli, const char *cmd, const char *summary,
		      const GOptionEntry *extra, int *argc, char ***argv);
/*
 * What every report command does first: parse @argv, answer --version, load
 * the policy.  Returns -1 to go on, or the exit status (the CLI is cleared).
 */
int ad_cli_begin(AdCli *cli, const char *cmd, const char *summary, const GOptionEntry *extra,
		 int *argc, char ***argv);
/* loads the policy; prints why and returns FALSE when there is none */
gboolean ad_cli_load_policy(AdCli *cli);
/*
 * Starts reading the inputs in a thread of their own, so that reading
 * overlaps loading the policy; only when every input is a regular file (a
 * command that fails before reading must not wait for a terminal or FIFO).
 */
void ad_cli_start_inputs(AdCli *cli);
/*
 * the inputs: the FILE arguments, else standard input when it is not a
 * terminal, else the default log
 */
const char *const *ad_cli_input_files(const AdCli *cli);
/* TRUE when, without FILE arguments, standard input is read */
gboolean ad_cli_stdin_is_input(void);
/* reads every input (files or the default log) and calls the sink per denial */
gboolean ad_cli_read_inputs(AdCli *cli);
/* the verdict of one denial, or NULL when none can be had */
const AdVerdict *ad_cli_explain(AdCli *cli, const AdDenial *d);
void ad_cli_clear(AdCli *cli);
/* ad_cli_clear() at the end of a command, when the process is about to exit */
void ad_cli_end(AdCli *cli);

int ad_cmd_why(int argc, char **argv);
int ad_cmd_allow(int argc, char **argv);
int ad_cmd_analyze(int argc, char **argv);

G_END_DECLS
