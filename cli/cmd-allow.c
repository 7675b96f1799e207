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
#include <glib/gstdio.h>

#include "analysis/rules.h"
#include "output/allow.h"
#include "cli.h"
#include "options.h"
#include "cmd-store.h"
#include "config.h"
#include "store.h"
#include "escape.h"
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
	gboolean keep_blocked;		/* --keep-blocked: left-out rules live */
	/* audit2allow's ways (the audit2allow name sets these hidden options) */
	gboolean classic;		/* its layout */
	char *module_text;		/* -m NAME: the module text on standard output */
	gboolean requires;		/* -r: the require block with the rules */
	char *source_regex;		/* -t: source types matching this */
	GRegex *source_re;
	AdPluginEnv *ctx;			/* the plugins' view, for red alerts */
	GHashTable *red;		/* alert signature -> the red plugin's id, or "" */
	GString *key;			/* a signature being made */
	AdIfaces *ifaces;		/* -R, when the definitions could be read */
	/*
	 * which denials beyond the common filters: --perm, and --alert (with --db),
	 * whose source, target and class are kept here
	 */
	char *source;
	char *target;
	char *tclass;
	char **perm_args;		/* as given: "read,open" or repeated */
	GPtrArray *perms;		/* char*, split; NULL: any */
	char *alert;
	char *db;
	char *alert_dir;		/* the stored alert's records, while they are read */
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

/*
 * Whether @d is one of the denials the filters ask for: its source and
 * target type, its class, and every permission it asks among --perm's (a
 * module for one alert grants that alert's permissions and no other).
 */
static gboolean allow_wanted(const AllowState *st, const AdDenial *d)
{
	if (st->source || st->source_re) {
		g_autofree char *stype = ad_context_type(d->scontext);

		if (st->source && g_strcmp0(stype, st->source) != 0)
			return FALSE;
		if (st->source_re && (!stype || !g_regex_match(st->source_re, stype, 0, NULL)))
			return FALSE;
	}
	if (st->target) {
		g_autofree char *ttype = ad_context_type(d->tcontext);

		if (g_strcmp0(ttype, st->target) != 0)
			return FALSE;
	}
	if (st->tclass && g_strcmp0(d->tclass, st->tclass) != 0)
		return FALSE;
	if (st->perms) {
		if (!d->perms || !d->perms->len)
			return FALSE;
		for (guint i = 0; i < d->perms->len; i++)
			if (!g_ptr_array_find_with_equal_func(st->perms,
							      g_ptr_array_index(d->perms, i),
							      g_str_equal, NULL))
				return FALSE;
	}
	return TRUE;
}

/* --perm read,open --perm getattr: the set of names */
static void allow_split_perms(AllowState *st)
{
	if (!st->perm_args)
		return;
	st->perms = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; st->perm_args[i]; i++) {
		g_auto(GStrv) parts = g_strsplit_set(st->perm_args[i], ", ", -1);

		for (guint j = 0; parts[j]; j++)
			if (*parts[j])
				g_ptr_array_add(st->perms, g_strdup(parts[j]));
	}
}

/*
 * --alert ID: the filters become the stored alert's signature (source and
 * target type, class, permissions) and, without FILE, its stored records
 * are the input (written to a private directory, read, removed).  Returns
 * -1 to go on, else the exit status.
 */
static int allow_from_alert(AdCli *cli, AllowState *st)
{
	g_autoptr(GString) text = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(AdAlertDoc) a = NULL;
	const AdDenialDoc *d;
	g_autofree char *path = NULL;
	int status;

	if (!ad_alert_id_is_valid(st->alert)) {
		g_autofree char *shown = ad_escape_str(st->alert);

		ad_cli_message(_("allow: --alert %s: not an alert id (16 hex digits, as "
				 "\"avcdoctor list\" shows)"), shown);
		return AD_EXIT_INPUT;
	}
	a = ad_cli_fetch_alert("allow", st->db, st->alert, &status);
	if (!a)
		return status;
	d = a->denial;
	g_free(st->source);
	st->source = g_strdup(d ? d->stype : NULL);
	g_free(st->target);
	st->target = g_strdup(d ? d->ttype : NULL);
	g_free(st->tclass);
	st->tclass = g_strdup(d ? d->tclass : NULL);
	if (!st->source || !st->target || !st->tclass || !d->has_permissions) {
		ad_cli_message(_("allow: --alert %s: the alert names no access to allow"), st->alert);
		return AD_EXIT_INPUT;
	}
	g_clear_pointer(&st->perms, g_ptr_array_unref);
	/* a SELINUX_ERR alert asks for no permission: no filter on them */
	if (d->permissions[0])
		st->perms = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; d->permissions[i]; i++)
		g_ptr_array_add(st->perms, g_strdup(d->permissions[i]));
	for (guint i = 0; a->records[i]; i++)
		g_string_append_printf(text, "%s\n", a->records[i]);
	if (cli->opt.files)
		return -1;
	st->alert_dir = g_dir_make_tmp("avcdoctor-allow-XXXXXX", &error);
	if (!st->alert_dir) {
		ad_cli_message("allow: %s", error->message);
		return AD_EXIT_INPUT;
	}
	path = g_build_filename(st->alert_dir, st->alert, NULL);
	if (!g_file_set_contents(path, text->str, text->len, &error)) {
		ad_cli_message("allow: %s", error->message);
		return AD_EXIT_INPUT;
	}
	cli->opt.files = g_new0(char *, 2);
	cli->opt.files[0] = g_steal_pointer(&path);
	return -1;
}

/* removes what allow_from_alert() wrote */
static void allow_alert_clear(AllowState *st)
{
	if (st->alert_dir) {
		g_autofree char *path = g_build_filename(st->alert_dir, st->alert, NULL);

		g_unlink(path);
		g_rmdir(st->alert_dir);
	}
	g_clear_pointer(&st->alert_dir, g_free);
	g_clear_pointer(&st->alert, g_free);
	g_clear_pointer(&st->db, g_free);
	g_clear_pointer(&st->source, g_free);
	g_clear_pointer(&st->target, g_free);
	g_clear_pointer(&st->tclass, g_free);
	g_clear_pointer(&st->perm_args, g_strfreev);
	g_clear_pointer(&st->perms, g_ptr_array_unref);
	g_clear_pointer(&st->module_text, g_free);
	g_clear_pointer(&st->source_regex, g_free);
	g_clear_pointer(&st->source_re, g_regex_unref);
}

/*
 * What the causes that can call an alert red suggest for @d: the attack
 * plugins and the rule book (whose rules may say Level=red).  The other
 * plugins never do, and some of them query the policy at length.
 */
static GPtrArray *allow_red_suggestions(AdPluginEnv *ctx, const AdDenial *d, const AdVerdict *v)
{
	static const char *const red_plugins[] = {
		"sys_module", "kernel_modules", "selinuxpolicy", "setenforce", "mmap_zero",
		"credentials",
	};
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);

	ad_verdict_ref(v);
	for (guint i = 0; i < G_N_ELEMENTS(red_plugins); i++) {
		const AdPlugin *p = ad_plugin_find(red_plugins[i]);

		/* only for what it declares; a failing one adds nothing (the rule is written) */
		if (p && ad_plugin_wants(p, d, v))
			p->analyze(d, v, ctx, out);
	}
	if (ctx->rules)
		ad_rule_book_apply(ctx->rules, ctx, d, v, out);
	ad_verdict_unref(v);
	return out;
}

/*
 * The cause plugin that calls @d's alert red (an attack indicator), or
 * NULL.  Only asked when the rule would be written live, and once per
 * alert signature (source and target type, class, permissions), as
 * `analyze` judges an alert by one of its denials: the plugins then cost
 * little.  Borrowed from the cache.
 */
static const char *allow_attack(AllowState *st, AdDenial *d, const AdVerdict *v)
{
	g_autoptr(GPtrArray) suggestions = NULL;
	const char *red = "";
	gpointer cached;

	if (st->keep_blocked || !st->ctx || d->granted || !v || !d->perms)
		return NULL;
	switch (v->reason) {
	case AD_REASON_TE_RULE:
	case AD_REASON_BOOLEAN:
	case AD_REASON_RBAC:
	case AD_REASON_BOUNDS:
		if (v->constraint_too)
			return NULL;
		break;
	default:
		return NULL;	/* no rule is written live: nothing to add */
	}
	g_string_truncate(st->key, 0);
	g_string_append_printf(st->key, "%s\x1f%s\x1f%s", d->scontext ? d->scontext : "",
			       d->tcontext ? d->tcontext : "", d->tclass ? d->tclass : "");
	for (guint i = 0; i < d->perms->len; i++)
		g_string_append_printf(st->key, "\x1f%s", (char *)g_ptr_array_index(d->perms, i));
	if (g_hash_table_lookup_extended(st->red, st->key->str, NULL, &cached))
		return *(char *)cached ? cached : NULL;
	suggestions = allow_red_suggestions(st->ctx, d, v);
	for (guint i = 0; i < suggestions->len; i++) {
		const AdSuggestion *s = g_ptr_array_index(suggestions, i);

		if (s->level == AD_LEVEL_RED) {
			red = s->plugin;
			break;
		}
	}
	cached = g_strdup(red);
	g_hash_table_insert(st->red, g_strdup(st->key->str), cached);
	return *red ? cached : NULL;
}

/* each denial goes into the rules at once: none is kept (a log may be large) */
static void allow_denial(AdCli *cli, AdDenial *d, gpointer user_data)
{
	AllowState *st = user_data;
	const AdVerdict *v;

	allow_restart_at_load(cli, st);
	if (!allow_wanted(st, d))
		return;
	v = ad_cli_explain(cli, d);
	ad_rule_set_add_flagged(st->rules, d, v, allow_attack(st, d, v));
}

/*
 * The rule book and the plugins' context, to tell red alerts: without
 * --keep-blocked their rules are left out.  No file labels and never the
 * host's files: the log may come from elsewhere, and a red verdict does
 * not depend on them.
 */
static void allow_load_attack_checks(AdCli *cli, AllowState *st)
{
	if (st->keep_blocked)
		return;
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	AdAnalysisOptions opt = { .no_labels = TRUE };

	ad_analysis_load_knowledge(cli->analysis, &opt, problems);
	for (guint i = 0; i < problems->len; i++)
		ad_cli_message("%s", (char *)g_ptr_array_index(problems, i));
	st->ctx = ad_analysis_context(cli->analysis);
	st->red = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	st->key = g_string_new(NULL);
}

static void allow_free_attack_checks(AllowState *st)
{
	g_clear_pointer(&st->red, g_hash_table_unref);
	if (st->key)
		g_string_free(g_steal_pointer(&st->key), TRUE);
	st->ctx = NULL;
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

/*
 * Runs argv (no shell): an internal step, never shown.  What it printed
 * goes to our stderr without the private directory's name, so that a
 * message names NAME.te as it is left in the current directory; TRUE
 * when it exited 0.
 */
static gboolean run(Workdir *w, const char *const *argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *out = NULL, *err = NULL;
	g_autofree char *prefix = g_strconcat(w->dir, "/", NULL);
	int status;

	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
			  &status, &error)) {
		ad_cli_message("%s", error->message);
		return FALSE;
	}
	fflush(stdout);
	for (guint i = 0; i < 2; i++) {
		const char *text = i ? err : out;
		g_auto(GStrv) parts = g_strsplit(text ? text : "", prefix, -1);
		g_autofree char *joined = g_strjoinv("", parts);
		g_autofree char *shown = ad_escape_str(joined);

		fputs(shown, stderr);
	}
	if (!g_spawn_check_wait_status(status, &error)) {
		g_autofree char *name = g_path_get_basename(argv[0]);

		ad_cli_message("allow: %s: %s", name, error->message);
		return FALSE;
	}
	return TRUE;
}

/* how many of @rules are left out (AdLeftOut): --keep-blocked would write them */
static guint left_out_rules(GPtrArray *rules)
{
	guint n = 0;

	for (guint i = 0; i < rules->len; i++) {
		const AdRule *r = g_ptr_array_index(rules, i);

		n += !r->unknown && r->left_out;
	}
	return n;
}

/* the rules and role rules of @rs a module would hold (written live) */
static guint live_rules(AdRuleSet *rs)
{
	g_autoptr(GPtrArray) rules = ad_rule_set_rules(rs);
	g_autoptr(GPtrArray) roles = ad_rule_set_role_rules(rs);
	guint n = roles->len;

	for (guint i = 0; i < rules->len; i++) {
		const AdRule *r = g_ptr_array_index(rules, i);

		n += !r->unknown && !r->left_out;
	}
	return n;
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

	if (!run(w, ad_policy_is_mls(cli->policy) ? cm_mls : cm) || !run(w, sp)) {
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

/*
 * audit2allow's output: its layout, -m (the module text on standard
 * output) and -r (the require block and the rules), for scripts that
 * parse them; what the rules say is avcdoctor's.
 */
static int allow_classic_output(AdCli *cli, AllowState *st, AdRuleSet *rs)
{
	g_autofree char *text = NULL;

	if (st->cil) {
		text = ad_rule_set_to_cil(rs);
	} else if (st->module_text || st->requires) {
		text = ad_rule_set_to_module(rs, st->module_text ? st->module_text : "local");
		if (!st->module_text) {
			/* the require block and the rules, without the module line */
			char *body = strstr(text, "require {");
			char *rest = g_strdup(body ? body : text);

			g_free(text);
			text = rest;
		}
	} else {
		text = ad_rule_set_to_te_classic(rs);
	}
	if (st->ifaces && !st->cil) {
		g_autofree char *calls = ad_ifaces_rewrite(st->ifaces, cli->policy, rs, text,
							   st->module_text != NULL, NULL);

		fputs(calls, stdout);
		return AD_EXIT_OK;
	}
	fputs(text, stdout);
	return AD_EXIT_OK;
}

/* -t: the source type pattern; FALSE after a message when it is not one */
static gboolean allow_compile_source_regex(AllowState *st)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *anchored = NULL;

	if (!st->source_regex)
		return TRUE;
	/* audit2allow matches the whole type name */
	anchored = g_strdup_printf("^(?:%s)$", st->source_regex);
	st->source_re = g_regex_new(anchored, G_REGEX_DEFAULT, G_REGEX_MATCH_DEFAULT, &error);
	if (!st->source_re) {
		g_autofree char *m = ad_escape_str(error->message);

		ad_cli_message(_("allow: -t: %s"), m);
		return FALSE;
	}
	return TRUE;
}

/*
 * -M NAME: the module built in a private directory, then moved into place.
 * A module without a rule (every one left out, or no denial) is not
 * written: what was left out, and why, is printed instead.
 */
static int write_module(AdCli *cli, AllowState *st, AdRuleSet *rs)
{
	Workdir w = { 0 };
	int ret;

	if (!live_rules(rs)) {
		g_autoptr(GPtrArray) rules = ad_rule_set_rules(rs);
		g_autofree char *text = ad_rule_set_to_te(rs, TRUE);

		/* no denial record at all: said as for any command */
		if (!rules->len && !cli->denials && !cli->unselected && !cli->problems &&
		    !cli->read_errors)
			return ad_cli_input_status(cli);
		fputs(text, stdout);
		if (left_out_rules(rules))
			ad_cli_message(_("allow: no module written: no rule can be written live "
					 "(see why above); --keep-blocked writes the left-out ones "
					 "live"));
		else if (rules->len)
			ad_cli_message(_("allow: no module written: no rule can be written live "
					 "(see why above)"));
		else
			ad_cli_message(_("allow: no module written: no denial to allow"));
		return AD_EXIT_INPUT;
	}
	if (!workdir_open(&w, st->module))
		return AD_EXIT_INPUT;
	ret = write_module_in(cli, st, rs, &w);
	workdir_close(&w);
	return ret;
}

static int allow_output(AdCli *cli, AllowState *st, AdRuleSet *rs)
{
	if (st->classic && !cli->opt.json && !st->module)
		return allow_classic_output(cli, st, rs);
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
		{ "perm", 0, 0, G_OPTION_ARG_STRING_ARRAY, &st.perm_args,
		  N_("Only denials asking for no permission but these (comma-separated, or the "
		     "option repeated)"), N_("PERMS") },
		{ "alert", 0, 0, G_OPTION_ARG_STRING, &st.alert,
		  N_("The stored alert ID of avcdoctor-dispatch: its access only, from its "
		     "records unless FILE is given"), N_("ID") },
		{ "classic", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &st.classic, NULL, NULL },
		{ "module-text", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &st.module_text, NULL,
		  NULL },
		{ "requires", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &st.requires, NULL, NULL },
		{ "source-regex", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &st.source_regex,
		  NULL, NULL },
		{ "db", 0, 0, G_OPTION_ARG_FILENAME, &st.db,
		  N_("With --alert: read the alert store PATH instead of asking the service"),
		  N_("PATH") },
		{ "keep-blocked", 0, 0, G_OPTION_ARG_NONE, &st.keep_blocked,
		  N_("Write live rules also for red alerts (attack indicators) and for denials "
		     "a rule would not fix (constraint, invalid context) or that dontaudit "
		     "hides; they are commented out otherwise"), NULL },
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
	if (cli.opt.help || cli.opt.version) {
		if (!cli.opt.help)
			printf("avcdoctor %s\n", VERSION);
		ad_cli_clear(&cli);
		return AD_EXIT_OK;
	}
	if ((st.module_text && !ad_module_name_is_valid(st.module_text)) ||
	    !allow_compile_source_regex(&st)) {
		if (st.module_text) {
			g_autofree char *shown = ad_escape_str(st.module_text);

			ad_cli_message(_("allow: invalid module name \"%s\": a letter, then "
					 "letters, digits, _ or -"), shown);
		}
		ad_cli_clear(&cli);
		allow_alert_clear(&st);
		return AD_EXIT_INPUT;
	}
	if (st.module && !ad_module_name_is_valid(st.module)) {
		g_autofree char *shown = ad_escape_str(st.module);

		ad_cli_message(_("allow: invalid module name \"%s\": a letter, then letters, "
				 "digits, _ or -"), shown);
		ad_cli_clear(&cli);
		g_free(st.module);
		return AD_EXIT_INPUT;
	}
	allow_split_perms(&st);
	if (st.alert && (ret = allow_from_alert(&cli, &st)) >= 0) {
		ad_cli_clear(&cli);
		allow_alert_clear(&st);
		g_free(st.module);
		return ret;
	}
	ad_cli_start_inputs(&cli);
	if (!ad_cli_load_policy(&cli)) {
		ad_cli_clear(&cli);
		allow_alert_clear(&st);
		g_free(st.module);
		return AD_EXIT_NO_POLICY;
	}
	st.rule_options.kind = st.dontaudit ? AD_RULE_DONTAUDIT : AD_RULE_ALLOW;
	st.rule_options.xperms = st.xperms;
	st.rule_options.keep_blocked = st.keep_blocked;
	allow_load_attack_checks(&cli, &st);
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
	/* a module's messages are short; audit2allow's way pages nothing */
	if (!st.module && !st.classic)
		ad_pager_start(cli.opt.no_pager);
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
	allow_free_attack_checks(&st);
	allow_alert_clear(&st);
	g_free(st.module);
	ad_cli_end(&cli);
	return ret;
}
