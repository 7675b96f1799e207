// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * audit2allow and audit2why: avcdoctor called by those names (symlinks)
 * takes policycoreutils' options and prints in their layout, so that
 * scripts and habits keep working; what is said is avcdoctor's.  The
 * options are translated into `avcdoctor allow` and `avcdoctor why`
 * arguments: nothing here reads or judges a record.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "cli.h"
#include "cmd-compat.h"
#include "options.h"
#include "config.h"
#include "escape.h"

typedef struct {
	gboolean all, boot, dmesg, reference, noreference, dontaudit, explain, why, xperms;
	gboolean lastreload, cil, requires, verbose, version;
	char *input, *module, *package, *output, *policy, *type;
} CompatOptions;

static void options_clear(CompatOptions *o)
{
	g_free(o->input);
	g_free(o->module);
	g_free(o->package);
	g_free(o->output);
	g_free(o->policy);
	g_free(o->type);
}

/* an option that has no meaning here: one line naming what to do instead */
static int refuse(const char *prog, const char *option, const char *instead)
{
	fprintf(stderr, _("%s: %s is not supported by avcdoctor: %s\n"), prog, option, instead);
	return AD_EXIT_INPUT;
}

/* -o FILE: the output is appended to FILE, as audit2allow does */
static gboolean redirect_output(const char *prog, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		g_autofree char *shown = ad_escape_str(path);

		fprintf(stderr, "%s: %s: %s\n", prog, shown, g_strerror(errno));
		if (fd >= 0)
			close(fd);
		return FALSE;
	}
	close(fd);
	return TRUE;
}

/* the avcdoctor arguments for @o: "allow" or "why", then options, then the input */
static GStrv translate(const CompatOptions *o, gboolean why)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();

	g_strv_builder_add_many(b, why ? "why" : "allow", "--classic", NULL);
	if (o->policy)
		g_strv_builder_add_many(b, "-p", o->policy, NULL);
	if (!why) {
		if (o->package)
			g_strv_builder_add_many(b, "-M", o->package, NULL);
		if (o->module)
			g_strv_builder_add_many(b, "--module-text", o->module, NULL);
		if (o->requires)
			g_strv_builder_add(b, "--requires");
		if (o->reference)
			g_strv_builder_add(b, "-R");
		if (o->dontaudit)
			g_strv_builder_add(b, "-D");
		if (o->xperms)
			g_strv_builder_add(b, "-x");
		if (o->lastreload)
			g_strv_builder_add(b, "-l");
		if (o->cil)
			g_strv_builder_add(b, "--cil");
		if (o->type)
			g_strv_builder_add_many(b, "--source-regex", o->type, NULL);
	}
	/* -a: audit2allow reads every audit log (through ausearch): the log and its rotations */
	if (!o->input && o->all)
		g_strv_builder_add(b, "--all");
	g_strv_builder_add(b, "--");
	if (o->input)
		g_strv_builder_add(b, o->input);
	/* neither: standard input when it is not a terminal, else the default log */
	return g_strv_builder_end(b);
}

int ad_compat_main(const char *prog, int argc, char **argv)
{
	CompatOptions o = { 0 };
	gboolean why = strcmp(prog, "audit2why") == 0;
	GOptionEntry entries[] = {
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &o.all,
		  N_("Read /var/log/audit/audit.log"), NULL },
		{ "boot", 'b', 0, G_OPTION_ARG_NONE, &o.boot,
		  N_("Not supported: pipe `ausearch -ts boot --raw` in"), NULL },
		{ "dmesg", 'd', 0, G_OPTION_ARG_NONE, &o.dmesg,
		  N_("Not supported: pipe `dmesg` in"), NULL },
		{ "input", 'i', 0, G_OPTION_ARG_FILENAME, &o.input,
		  N_("Read FILE (default: standard input, or the audit log on a terminal)"),
		  N_("FILE") },
		{ "module", 'm', 0, G_OPTION_ARG_STRING, &o.module,
		  N_("Print the module NAME (its text) instead of rules"), N_("NAME") },
		{ "module-package", 'M', 0, G_OPTION_ARG_STRING, &o.package,
		  N_("Write NAME.te and compile NAME.pp"), N_("NAME") },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
		  N_("Append the output to FILE"), N_("FILE") },
		{ "reference", 'R', 0, G_OPTION_ARG_NONE, &o.reference,
		  N_("Call refpolicy interfaces where one fits"), NULL },
		{ "noreference", 'N', 0, G_OPTION_ARG_NONE, &o.noreference,
		  N_("Plain allow rules (the default)"), NULL },
		{ "dontaudit", 'D', 0, G_OPTION_ARG_NONE, &o.dontaudit,
		  N_("dontaudit rules instead of allow rules"), NULL },
		{ "explain", 'e', 0, G_OPTION_ARG_NONE, &o.explain,
		  N_("Explain each rule (always done: the reasons are comments)"), NULL },
		{ "why", 'w', 0, G_OPTION_ARG_NONE, &o.why,
		  N_("Explain each denial, as audit2why"), NULL },
		{ "xperms", 'x', 0, G_OPTION_ARG_NONE, &o.xperms,
		  N_("allowxperm rules for the ioctl commands seen"), NULL },
		{ "lastreload", 'l', 0, G_OPTION_ARG_NONE, &o.lastreload,
		  N_("Only denials since the last policy load"), NULL },
		{ "cil", 'C', 0, G_OPTION_ARG_NONE, &o.cil, N_("CIL output"), NULL },
		{ "policy", 'p', 0, G_OPTION_ARG_FILENAME, &o.policy,
		  N_("Binary policy to analyse against"), N_("POLICY") },
		{ "requires", 'r', 0, G_OPTION_ARG_NONE, &o.requires,
		  N_("The require block with the rules"), NULL },
		{ "type", 't', 0, G_OPTION_ARG_STRING, &o.type,
		  N_("Only denials whose source type matches the regular expression TYPE"),
		  N_("TYPE") },
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &o.verbose,
		  N_("Accepted; the output is the same"), NULL },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &o.version, N_("Show the version and exit"),
		  NULL },
		{ NULL }
	};
	gboolean help = FALSE;
	/* --help wrapped to 80 columns, as avcdoctor's commands */
	g_autoptr(GOptionContext) ctx = ad_cli_context_new(NULL, why
		? _("avcdoctor in audit2why's place: why each SELinux denial happened, in "
		    "audit2why's layout (\"Was caused by:\").")
		: _("avcdoctor in audit2allow's place: the allow rules for the SELinux denials, "
		    "in audit2allow's layout."), &help);
	g_autoptr(GError) error = NULL;
	g_auto(GStrv) args = NULL;
	int ret;

	g_set_prgname(prog);
	g_option_context_set_description(ctx, _("Without -i or -a, standard input is read when "
						"it is not a terminal, else "
						"/var/log/audit/audit.log. See avcdoctor(1)."));
	g_option_context_add_main_entries(ctx, entries, GETTEXT_PACKAGE);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "%s: %s\n", prog, error->message);
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (help) {
		ad_cli_print_help(ctx);
		ret = AD_EXIT_OK;
		goto out;
	}
	if (o.version) {
		printf("%s (avcdoctor %s)\n", prog, VERSION);
		ret = AD_EXIT_OK;
		goto out;
	}
	if (argc > 1) {
		g_autofree char *shown = ad_escape_str(argv[1]);

		fprintf(stderr, _("%s: unexpected argument \"%s\": give the log with -i FILE\n"),
			prog, shown);
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (o.boot) {
		ret = refuse(prog, "-b", why ? "ausearch -m avc,user_avc,selinux_err -ts boot --raw "
					       "| audit2why"
					     : "ausearch -m avc,user_avc,selinux_err -ts boot --raw "
					       "| audit2allow");
		goto out;
	}
	if (o.dmesg) {
		ret = refuse(prog, "-d", why ? "dmesg | audit2why" : "dmesg | audit2allow");
		goto out;
	}
	if (o.all && o.input) {
		fprintf(stderr, _("%s: -a and -i cannot be given together\n"), prog);
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (o.module && o.package) {
		fprintf(stderr, _("%s: -m and -M cannot be given together\n"), prog);
		ret = AD_EXIT_INPUT;
		goto out;
	}
	if (o.output && !redirect_output(prog, o.output)) {
		ret = AD_EXIT_INPUT;
		goto out;
	}
	why |= o.why;
	args = translate(&o, why);
	{
		/* option parsing rearranges the array: a copy of it, the strings stay in args */
		guint n = g_strv_length(args);
		g_autofree char **v = g_memdup2(args, (n + 1) * sizeof(char *));

		/* the report commands take their argv from index 0, the command name */
		ret = why ? ad_cmd_why(n, v) : ad_cmd_allow(n, v);
	}
	fflush(stdout);
out:
	options_clear(&o);
	return ret;
}
