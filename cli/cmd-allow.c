// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor allow: allow rules and loadable modules from denials (what
 * audit2allow does), with each rule's reason, names checked against the
 * policy, and --verify to prove the rules allow what they claim.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "output/allow.h"
#include "cli.h"
#include "config.h"
#include "output/escape.h"
#include "output/ifaces.h"
#include "output/report.h"

typedef struct {
	char *module;
	gboolean cil;
	gboolean dontaudit;
	gboolean xperms;
	gboolean last_load;
	gboolean verify;
	gboolean no_comments;
	gboolean reference;
	AdIfaces *ifaces;		/* -R, when the definitions could be read */
	char *source;
	AdRuleOptions rule_options;
	AdRuleSet *rules;		/* the denials folded in as they come */
	guint generation;		/* policy loads seen before the rules' denials */
} AllowState;

/*
 * -l: only the denials after the last policy load count, so the rules
 * start again at each load.  Called before each denial and at the end.
 */
static void allow_restart_at_load(AdCli *cli, AllowState *st)
{
	if (!st->last_load || st->generation == cli->policy_loads)
		return;
	ad_rule_set_free(st->rules);
	st->rules = ad_rule_set_new(cli->policy, &st->rule_options);
	st->generation = cli->policy_loads;
}

/* each denial goes into the rules at once: none is kept (a log may be large) */
static void allow_denial(AdCli *cli, AdDenial *d, gpointer user_data)
{
	AllowState *st = user_data;

	allow_restart_at_load(cli, st);
	if (st->source) {
		g_autofree char *stype = ad_context_type(d->scontext);

		if (g_strcmp0(stype, st->source) != 0)
			return;
	}
	ad_rule_set_add(st->rules, d, ad_cli_explain(cli, d));
}

/*
 * The module's files are made in a private directory (mode 0700) inside the
 * current one, so that checkmodule and semodule_package never open a name
 * another user could have planted, then moved into place.
 */
typedef struct {
	char *dir;		/* ./.avcdoctor-NAME-XXXXXX */
	GPtrArray *made;	/* the paths written in it, for clean-up */
} Workdir;

static gboolean workdir_open(Workdir *w, const char *module)
{
	struct stat st;

	w->made = g_ptr_array_new_with_free_func(g_free);
	w->dir = g_strdup_printf(".avcdoctor-%s-XXXXXX", module);
	if (!g_mkdtemp_full(w->dir, 0700)) {
		int e = errno;

		ad_cli_message(_("allow: cannot make a private directory here: %s"),
			       g_strerror(e));
		g_clear_pointer(&w->dir, g_free);
		return FALSE;
	}
	if (stat(".", &st) == 0 && (st.st_mode & S_IWOTH))
		ad_cli_message(_("allow: warning: this directory is writable by other users, "
				 "who could replace %s's files before they are loaded"), module);
	return TRUE;
}

/* the path of @name in the private directory, remembered for clean-up */
static const char *workdir_path(Workdir *w, const char *name)
{
	char *p = g_build_filename(w->dir, name, NULL);

	g_ptr_array_add(w->made, p);
	return p;
}

static void workdir_close(Workdir *w)
{
	for (guint i = 0; w->made && i < w->made->len; i++)
		(void)unlink(g_ptr_array_index(w->made, i));
	if (w->dir)
		(void)rmdir(w->dir);
	g_clear_pointer(&w->made, g_ptr_array_unref);
	g_clear_pointer(&w->dir, g_free);
}

/*
 * Moves @name from the private directory to the current one.  rename()
 * replaces a link itself, never what it points to; a name that another
 * user owns, or a directory, is refused and left alone.
 */
static gboolean workdir_install(Workdir *w, const char *name)
{
	g_autofree char *from = g_build_filename(w->dir, name, NULL);
	struct stat st;

	if (lstat(name, &st) == 0 && (st.st_uid != geteuid() || S_ISDIR(st.st_mode))) {
		g_autofree char *shown = ad_escape_str(name);

		ad_cli_message(S_ISDIR(st.st_mode)
			       ? _("allow: %s is a directory: not replaced")
			       : _("allow: %s belongs to another user: not replaced"), shown);
		return FALSE;
	}
	if (rename(from, name) < 0) {
		int e = errno;
		g_autofree char *shown = ad_escape_str(name);

		ad_cli_message("allow: %s: %s", shown, g_strerror(e));
		return FALSE;
	}
	return TRUE;
}

/* writes @text to @path, replacing it; FALSE with a message on failure */
static gboolean write_file(const char *path, const char *text)
{
	g_autoptr(GError) error = NULL;

	if (!g_file_set_contents_full(path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
				      &error)) {
		ad_cli_message("%s", error->message);
		return FALSE;
	}
	return TRUE;
}

/* runs argv (no shell), output to our stderr; TRUE when it exited 0 */
static gboolean run(const char *const *argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *cmd = ad_shell_join(argv);
	int status;

	/* what was printed goes out before the command and what it prints */
	fflush(stdout);
	fprintf(stderr, "%s\n", cmd);
	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH |
			  G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL, &status,
			  &error)) {
		ad_cli_message("%s", error->message);
		return FALSE;
	}
	if (!g_spawn_check_wait_status(status, &error)) {
		ad_cli_message("%s: %s", argv[0], error->message);
		return FALSE;
	}
	return TRUE;
}

/* -M NAME: NAME.te (or NAME.cil) and, when the tools exist, NAME.pp */
static int write_module_in(AdCli *cli, AllowState *st, AdRuleSet *rs, Workdir *w)
{
	g_autofree char *te = g_strdup_printf("%s.te", st->module);
	g_autofree char *mod = g_strdup_printf("%s.mod", st->module);
	g_autofree char *pp = g_strdup_printf("%s.pp", st->module);
	g_autofree char *cil = g_strdup_printf("%s.cil", st->module);
	g_autofree char *checkmodule = g_find_program_in_path("checkmodule");
	g_autofree char *semodule_package = g_find_program_in_path("semodule_package");
	g_autofree char *text = NULL;

	if (st->cil) {
		text = ad_rule_set_to_cil(rs);
		if (!write_file(workdir_path(w, cil), text) || !workdir_install(w, cil))
			return AD_EXIT_INPUT;
		printf(_("Wrote %s.\nTo load it, run:\n    semodule -i %s\n"), cil, cil);
		return AD_EXIT_OK;
	}
	text = ad_rule_set_to_module(rs, st->module);
	if (st->ifaces) {
		guint n = 0;
		g_autofree char *calls = ad_ifaces_rewrite(st->ifaces, cli->policy, rs, text, TRUE,
							   &n);

		if (n) {
			/* checkmodule knows nothing of interfaces: m4 and refpolicy expand them */
			if (!write_file(workdir_path(w, te), calls) || !workdir_install(w, te))
				return AD_EXIT_INPUT;
			printf(_("Wrote %s.\nIt calls refpolicy interfaces, which checkmodule cannot "
				 "expand: build it with the refpolicy build system "
				 "(selinux-policy-dev), then load it:\n"
				 "    make -f /usr/share/selinux/devel/Makefile %s.pp\n"
				 "    semodule -i %s\n"), te, st->module, pp);
			return AD_EXIT_OK;
		}
	}
	const char *te_w = workdir_path(w, te);

	if (!write_file(te_w, text))
		return AD_EXIT_INPUT;
	if (!checkmodule || !semodule_package) {
		if (!workdir_install(w, te))
			return AD_EXIT_INPUT;
		printf(_("Wrote %s.\n"), te);
		printf(_("checkmodule and semodule_package are not installed (Debian: checkpolicy "
			 "and semodule-utils), so %s was not compiled. To compile and load it:\n"
			 "    checkmodule %s-m -o %s %s\n    semodule_package -o %s -m %s\n"
			 "    semodule -i %s\n"), te, ad_policy_is_mls(cli->policy) ? "-M " : "",
		       mod, te, pp, mod, pp);
		return AD_EXIT_OK;
	}
	const char *mod_w = workdir_path(w, mod);
	const char *pp_w = workdir_path(w, pp);
	const char *cm_mls[] = { checkmodule, "-M", "-m", "-o", mod_w, te_w, NULL };
	const char *cm[] = { checkmodule, "-m", "-o", mod_w, te_w, NULL };
	const char *sp[] = { semodule_package, "-o", pp_w, "-m", mod_w, NULL };

	if (!run(ad_policy_is_mls(cli->policy) ? cm_mls : cm) || !run(sp)) {
		/* the source stays, to be looked at */
		if (workdir_install(w, te))
			printf(_("Wrote %s.\n"), te);
		return AD_EXIT_INPUT;
	}
	if (!workdir_install(w, te) || !workdir_install(w, pp))
		return AD_EXIT_INPUT;
	printf(_("Wrote %s.\n"), te);
	printf(_("Compiled %s.\nTo load it, run:\n    semodule -i %s\n"), pp, pp);
	return AD_EXIT_OK;
}

static int write_module(AdCli *cli, AllowState *st, AdRuleSet *rs)
{
	Workdir w = { 0 };
	int ret;

	if (!workdir_open(&w, st->module))
		return AD_EXIT_INPUT;
	ret = write_module_in(cli, st, rs, &w);
	workdir_close(&w);
	return ret;
}

static int allow_output(AdCli *cli, AllowState *st, AdRuleSet *rs)
{
	if (cli->opt.json) {
		g_autoptr(GPtrArray) rules = ad_rule_set_rules(rs);
		g_autoptr(GPtrArray) roles = ad_rule_set_role_rules(rs);

		for (guint i = 0; i < rules->len; i++) {
			const AdRule *r = g_ptr_array_index(rules, i);
			json_object *o = ad_rule_to_json(r);
			const char *iface = st->ifaces ? ad_ifaces_match_rule(st->ifaces, cli->policy,
									      r) : NULL;

			if (iface) {
				g_autofree char *call = g_strdup_printf("%s(%s)", iface, r->source);

				json_object_object_add(o, "interface", json_object_new_string(call));
			}
			if (st->dontaudit)
				json_object_object_add(o, "rule",
						       json_object_new_string("dontaudit"));
			puts(ad_json_line(o));
			json_object_put(o);
		}
		for (guint i = 0; i < roles->len; i++) {
			json_object *o = ad_role_rule_to_json(g_ptr_array_index(roles, i));

			puts(ad_json_line(o));
			json_object_put(o);
		}
		return AD_EXIT_OK;
	}
	if (st->module)
		return write_module(cli, st, rs);
	g_autofree char *text = st->cil ? ad_rule_set_to_cil(rs)
					: ad_rule_set_to_te(rs, !st->no_comments);

	if (st->ifaces) {
		g_autofree char *calls = ad_ifaces_rewrite(st->ifaces, cli->policy, rs, text, FALSE,
							   NULL);

		fputs(calls, stdout);
		return AD_EXIT_OK;
	}
	fputs(text, stdout);
	return AD_EXIT_OK;
}

int ad_cmd_allow(int argc, char **argv)
{
	AdCli cli = { 0 };
	AllowState st = { 0 };
	GOptionEntry entries[] = {
		{ "module", 'M', 0, G_OPTION_ARG_STRING, &st.module,
		  N_("Write the loadable module NAME.te and compile NAME.pp"), N_("NAME") },
		{ "cil", 0, 0, G_OPTION_ARG_NONE, &st.cil, N_("Write CIL instead of the policy "
							       "language"), NULL },
		{ "dontaudit", 'D', 0, G_OPTION_ARG_NONE, &st.dontaudit,
		  N_("dontaudit rules instead of allow rules"), NULL },
		{ "xperms", 'x', 0, G_OPTION_ARG_NONE, &st.xperms,
		  N_("allowxperm rules for the ioctl commands seen"), NULL },
		{ "lastreload", 'l', 0, G_OPTION_ARG_NONE, &st.last_load,
		  N_("Only denials since the last policy load"), NULL },
		{ "verify", 0, 0, G_OPTION_ARG_NONE, &st.verify,
		  N_("Add the rules to the policy in memory and check every denial again"),
		  NULL },
		{ "source", 's', 0, G_OPTION_ARG_STRING, &st.source,
		  N_("Only denials whose source type is TYPE"), N_("TYPE") },
		{ "no-comments", 0, 0, G_OPTION_ARG_NONE, &st.no_comments,
		  N_("Rules only, without the reason comments"), NULL },
		{ "reference", 'R', 0, G_OPTION_ARG_NONE, &st.reference,
		  N_("Call refpolicy interfaces (selinux-policy-dev) where one grants exactly "
		     "the access needed"), NULL },
		{ NULL }
	};
	g_autoptr(AdRuleSet) rs = NULL;
	int ret;

	ad_cli_buffer_stdout();
	if (!ad_cli_parse(&cli, "allow", _("Prints the allow rules that would permit the "
					   "SELinux denials of the audit log."),
			  entries, &argc, &argv)) {
		ad_cli_clear(&cli);
		return AD_EXIT_INPUT;
	}
	if (cli.opt.version) {
		printf("avcdoctor %s\n", VERSION);
		ad_cli_clear(&cli);
		return AD_EXIT_OK;
	}
	if (st.module && !ad_module_name_is_valid(st.module)) {
		ad_cli_message(_("allow: invalid module name \"%s\": a letter, then letters, "
				 "digits or _"), st.module);
		ad_cli_clear(&cli);
		g_free(st.module);
		return AD_EXIT_INPUT;
	}
	ad_cli_start_inputs(&cli);
	if (!ad_cli_load_policy(&cli)) {
		ad_cli_clear(&cli);
		g_free(st.module);
		return AD_EXIT_NO_POLICY;
	}
	st.rule_options.kind = st.dontaudit ? AD_RULE_DONTAUDIT : AD_RULE_ALLOW;
	st.rule_options.xperms = st.xperms;
	st.rules = ad_rule_set_new(cli.policy, &st.rule_options);
	cli.sink = allow_denial;
	cli.sink_data = &st;
	ad_cli_read_inputs(&cli);
	allow_restart_at_load(&cli, &st);	/* a load after the last denial */
	rs = g_steal_pointer(&st.rules);

	if (st.reference && (st.cil || st.dontaudit)) {
		ad_cli_message(_("allow: -R suggests interfaces for allow rules in the policy "
				 "language; ignored with %s"), st.cil ? "--cil" : "-D");
	} else if (st.reference) {
		g_autoptr(GError) error = NULL;

		st.ifaces = ad_ifaces_load(ad_ifaces_default_dir(), &error);
		if (!st.ifaces)
			ad_cli_message(_("allow -R: %s; writing plain allow rules"),
				       error->message);
	}
	ret = allow_output(&cli, &st, rs);
	if (st.verify && ret == AD_EXIT_OK) {
		g_autoptr(GString) out = g_string_new(NULL);
		g_autoptr(GError) error = NULL;

		if (st.dontaudit) {
			ad_cli_message("%s", _("allow: --verify checks allow rules, not dontaudit rules"));
			ret = AD_EXIT_INPUT;
		} else if (ad_rule_set_verify(rs, cli.opt.json, out, &error) < 0) {
			ad_cli_message("allow: --verify: %s", error->message);
			ret = AD_EXIT_INPUT;
		} else {
			fputs(out->str, stdout);
		}
	}
	if (ret == AD_EXIT_OK)
		ret = ad_cli_input_status(&cli);

	g_clear_pointer(&rs, ad_rule_set_free);
	g_clear_pointer(&st.ifaces, ad_ifaces_free);
	g_free(st.module);
	g_free(st.source);
	ad_cli_end(&cli);
	return ret;
}
