// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What avcdoctor-fixit does for one call, once the caller is authorised:
 * the alert and the suggestion from the store, the allow-list, the proof
 * against the current policy, the commands run one by one without a shell,
 * and the time of the applied fix written back to the store.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-c/json.h>

#include "analysis/alert.h"
#include "analysis/analysis.h"
#include "analysis/safety.h"
#include "fixit-client.h"
#include "output/allow.h"
#include "escape.h"
#include "read/reader.h"
#include "read/signature.h"
#include "store.h"
#include "apply.h"
#include "undo.h"

void ad_fixit_result_clear(AdFixitResult *r)
{
	g_clear_pointer(&r->commands, g_free);
	g_clear_pointer(&r->output, g_free);
	g_clear_pointer(&r->digest, g_free);
}

/* ------------------------------------------------------------ the stored suggestion */

/* "verified": 1 true, 0 false, -1 null or absent (no proof applies) */
static gboolean same_commands(GPtrArray *a, GPtrArray *b)
{
	if (a->len != b->len)
		return FALSE;
	for (guint i = 0; i < a->len; i++)
		if (!g_strv_equal(g_ptr_array_index(a, i), g_ptr_array_index(b, i)))
			return FALSE;
	return TRUE;
}

/* ------------------------------------------------------------ the proof */

static void on_event(AdEvent *ev, gpointer user_data)
{
	ad_event_build_denials(ev, user_data, NULL, NULL);
}

/* what analysing the stored denial again gives */
typedef struct {
	AdAnalysis *an;
	GPtrArray *denials;
	AdAlertSet *set;
	AdAlert *alert;			/* borrowed from set */
	AdDenial *denial;		/* borrowed from denials */
} Reanalysis;

static void reanalysis_clear(Reanalysis *r)
{
	/* the alerts borrow verdicts from the policy: they go first */
	g_clear_pointer(&r->set, ad_alert_set_free);
	g_clear_pointer(&r->denials, g_ptr_array_unref);
	g_clear_pointer(&r->an, ad_analysis_free);
}

static gboolean reanalyse(const AdFixitConfig *cfg, AdStore *store, const char *id,
			  Reanalysis *r, GError **error)
{
	g_autoptr(GBytes) records = NULL;
	g_autoptr(AdReader) reader = NULL;
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) local = NULL;
	AdAnalysisOptions opt = { 0 };
	const char *dirs[2] = { cfg->rules_dir, NULL };
	gsize len;
	const char *text;

	if (!(records = ad_store_get_records(store, id, &local))) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_FOUND, "%s", local->message);
		return FALSE;
	}
	if (!(r->an = ad_analysis_new(cfg->policy, &local))) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_FAILED,
			    "cannot load the policy to check the fix: %s", local->message);
		return FALSE;
	}
	opt.file_contexts = cfg->file_contexts;
	opt.rules_dirs = cfg->rules_dir ? dirs : NULL;
	opt.local = cfg->file_checks;
	opt.stored_alerts = TRUE;
	ad_analysis_load_knowledge(r->an, &opt, problems);
	r->denials = g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	reader = ad_reader_new(on_event, NULL, r->denials);
	ad_reader_set_source(reader, "store");
	text = g_bytes_get_data(records, &len);
	ad_reader_feed(reader, text ? text : "", len);
	ad_reader_feed(reader, "\n", 1);
	ad_reader_end_source(reader);
	r->set = ad_alert_set_new();
	for (guint i = 0; i < r->denials->len && !r->alert; i++) {
		AdDenial *d = g_ptr_array_index(r->denials, i);
		g_autofree char *sig = ad_denial_signature(d);

		if (g_strcmp0(sig, id) != 0)
			continue;
		r->denial = d;
		r->alert = ad_alert_set_add(r->set, d, ad_analysis_explain(r->an, d), NULL);
	}
	if (!r->alert) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_PROVED,
			    "the stored records of alert %s do not give that alert again", id);
		return FALSE;
	}
	ad_alert_analyse(r->alert, ad_analysis_context(r->an));
	return TRUE;
}

/*
 * The suggestion with the same commands in the new analysis must be there,
 * and proved where the stored one was proved or a proof applies.
 */
static gboolean check_proof(Reanalysis *r, GPtrArray *commands, int verified, GError **error)
{
	GPtrArray *fresh = r->alert->suggestions;

	/* a fix stored as not proved never gets here (ad_fix_one_click) */
	for (guint i = 0; fresh && i < fresh->len; i++) {
		AdSuggestion *s = g_ptr_array_index(fresh, i);

		if (!same_commands(s->commands, commands))
			continue;
		if (s->proof != AD_PROOF_OK && !(s->proof == AD_PROOF_NONE && verified < 0)) {
			g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_PROVED,
				    "the current policy no longer proves this fix%s%s",
				    s->still_denied ? ": " : "",
				    s->still_denied ? s->still_denied : "");
			return FALSE;
		}
		/* the analysis of now, with its safety decision, must still say one click */
		if (s->apply != AD_APPLY_ONE_CLICK) {
			g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "analysed against the current policy, this fix is not applied "
				    "with one click%s%s", s->apply_reason ? ": " : "",
				    s->apply_reason ? s->apply_reason : "");
			return FALSE;
		}
		return TRUE;
	}
	g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_PROVED,
			    "analysed against the current policy, the alert no longer gets "
			    "this fix: not applied");
	return FALSE;
}

/*
 * The safety decision made again here, from the stored fix (its argument
 * vectors as they would run, the alert's level and denial) with the
 * current policy and, when the helper may look at this host's files, its
 * package database: it must be one click, whatever the store says.
 */
static gboolean check_safety(const AdFixitConfig *cfg, Reanalysis *r, const AdAlertDoc *alert,
			     const AdSuggestionDoc *sugg, GError **error)
{
	g_auto(AdSafetyQuery) q = { 0 };
	g_autofree char *reason = NULL;
	AdSafetyEnv env = { .policy = ad_analysis_policy(r->an), .local = cfg->file_checks };

	if (!ad_safety_query_init_doc(&q, sugg, alert)) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "the stored fix is malformed: not applied");
		return FALSE;
	}
	if (ad_safety_decide(&env, &q, &reason) != AD_APPLY_ONE_CLICK) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
			    "this fix is not applied with one click: %s", reason);
		return FALSE;
	}
	return TRUE;
}

/* ------------------------------------------------------------ modules */

/* the names of the modules a fix loads (semodule -i of the module it builds) */
static GPtrArray *loaded_modules(GPtrArray *commands, const char *id)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < commands->len; i++) {
		AdFixitStep step;

		if (!ad_fixit_check_command(g_ptr_array_index(commands, i), id, &step, NULL))
			continue;
		if (step.kind == AD_FIXIT_STEP_LOAD_MODULE)
			g_ptr_array_add(names, g_strdup(step.module));
		ad_fixit_step_clear(&step);
	}
	return names;
}

/*
 * A module the fix loads must not replace one the helper did not write for
 * this alert: an administrator's own, a distribution's, another alert's.
 * semodule --list-modules=full names every installed module at every
 * priority ("PRIORITY NAME KIND [disabled]"); one of the same name is
 * replaced only when the store says the helper loaded it for @id.
 */
static gboolean check_modules(const AdFixitConfig *cfg, AdStore *store, const char *id,
			      GPtrArray *commands, GError **error)
{
	g_autoptr(GPtrArray) names = loaded_modules(commands, id);
	g_autofree char *semodule = NULL;
	g_autoptr(GString) listing = NULL;
	g_auto(GStrv) lines = NULL;
	char *const argv[] = { "semodule", "--list-modules=full", NULL };

	if (!names->len)
		return TRUE;
	semodule = ad_fixit_program_path(cfg, "semodule");
	listing = g_string_new(NULL);
	if (!ad_fixit_run(semodule, argv, cfg->timeout_s, listing, error)) {
		g_prefix_error(error, "cannot list the installed modules, so no module is "
				      "loaded: ");
		return FALSE;
	}
	lines = g_strsplit(listing->str, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		g_auto(GStrv) f = g_strsplit_set(g_strstrip(lines[i]), " \t", -1);
		const char *name = NULL;

		/* the second word of the line, whatever the spacing */
		for (guint j = 0, k = 0; f[j] && !name; j++)
			if (*f[j] && k++ == 1)
				name = f[j];
		for (guint n = 0; name && n < names->len; n++) {
			g_autofree char *owner = NULL;

			if (strcmp(name, g_ptr_array_index(names, n)) != 0)
				continue;
			owner = ad_store_fix_module_alert(store, name);
			if (g_strcmp0(owner, id) == 0)
				continue;
			g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "a module named %s is installed already (%s) and the fix "
				    "helper did not load it for this alert: not replaced",
				    name, g_strstrip(lines[i]));
			return FALSE;
		}
	}
	return TRUE;
}

/* notes in the store which alert the modules of a fix that worked were loaded for */
static void note_modules(AdStore *w, const char *id, GPtrArray *commands, GString *out)
{
	g_autoptr(GPtrArray) names = loaded_modules(commands, id);

	for (guint i = 0; i < names->len; i++) {
		g_autoptr(GError) error = NULL;

		if (!ad_store_set_fix_module(w, g_ptr_array_index(names, i), id,
					     g_get_real_time() / 1e6, &error))
			g_string_append_printf(out, "(the alert store could not note module %s: "
					       "%s)\n", (const char *)g_ptr_array_index(names, i),
					       error->message);
	}
}

/* ------------------------------------------------------------ the steps */

/* builds NAME.pp from the alert's denial in @dir; its path (owned) or NULL */
static char *build_module(const AdFixitConfig *cfg, Reanalysis *r, const AdFixitStep *step,
			  const char *dir, GString *out, GError **error)
{
	AdRuleOptions opt = { .kind = step->dontaudit ? AD_RULE_DONTAUDIT : AD_RULE_ALLOW };
	g_autoptr(AdRuleSet) rs = NULL;
	g_autofree char *te_text = NULL, *te = NULL, *mod = NULL, *pp = NULL;
	g_autofree char *checkmodule = ad_fixit_program_path(cfg, "checkmodule");
	g_autofree char *package = ad_fixit_program_path(cfg, "semodule_package");
	g_autofree char *name = g_strdup_printf("%s.te", step->module);

	if (r->alert->level == AD_LEVEL_RED) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "a red alert (a possible attack) gets no policy module from "
				    "the fix helper");
		return NULL;
	}
	rs = ad_rule_set_new(ad_analysis_policy(r->an), &opt);
	ad_rule_set_add(rs, r->denial, r->alert->verdict);
	te_text = ad_rule_set_to_module(rs, step->module);
	te = g_build_filename(dir, name, NULL);
	mod = g_strdup_printf("%s/%s.mod", dir, step->module);
	pp = g_strdup_printf("%s/%s.pp", dir, step->module);
	if (!g_file_set_contents_full(te, te_text, -1, G_FILE_SET_CONTENTS_NONE, 0600, error))
		return NULL;
	{
		char *const cm[] = { "checkmodule", "-M", "-m", "-o", mod, te, NULL };
		char *const sp[] = { "semodule_package", "-o", pp, "-m", mod, NULL };

		if (!ad_fixit_run(checkmodule, cm, cfg->timeout_s, out, error) ||
		    !ad_fixit_run(package, sp, cfg->timeout_s, out, error))
			return NULL;
	}
	return g_steal_pointer(&pp);
}

/* removes the module directory and what is in it */
static void remove_dir(const char *dir)
{
	g_autoptr(GDir) d = dir ? g_dir_open(dir, 0, NULL) : NULL;
	const char *name;

	if (!d)
		return;
	while ((name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		g_unlink(p);
	}
	g_rmdir(dir);
}

/*
 * Runs a suggestion's commands in order, all or nothing: before each
 * command but the last, how to take it back is worked out; when one fails,
 * those that worked are taken back, newest first, and the error says what
 * failed and what was undone.
 */
static gboolean run_steps(const AdFixitConfig *cfg, Reanalysis *r, const char *id,
			  GPtrArray *commands, GString *shown, GString *out, GError **error)
{
	g_autoptr(GPtrArray) undo = g_ptr_array_new_with_free_func((GDestroyNotify)ad_fixit_undo_free);
	g_autofree char *dir = NULL, *pp = NULL;
	gboolean ok = TRUE;

	for (guint i = 0; ok && i < commands->len; i++) {
		char **argv = g_ptr_array_index(commands, i);
		g_autofree char *line = ad_shell_join((const char *const *)argv);
		g_autofree char *path = NULL;
		g_auto(GStrv) run = NULL;
		AdFixitStep step;
		AdFixitUndo *u = NULL;

		if (!ad_fixit_check_command((const char *const *)argv, id, &step, error)) {
			ok = FALSE;
			break;
		}
		g_string_append_printf(shown, "%s%s", shown->len ? "\n" : "", line);
		if (i + 1 < commands->len)
			u = ad_fixit_undo_for(cfg, argv, &step);
		switch (step.kind) {
		case AD_FIXIT_STEP_BUILD_MODULE:
			if (!dir && !(dir = g_dir_make_tmp("avcdoctor-fixit-XXXXXX", error))) {
				ok = FALSE;
				break;
			}
			g_free(pp);
			ok = (pp = build_module(cfg, r, &step, dir, out, error)) != NULL;
			break;
		case AD_FIXIT_STEP_LOAD_MODULE:
			/* the module just built, by its path in the helper's own directory */
			run = g_strdupv(argv);
			g_free(run[g_strv_length(run) - 1]);
			run[g_strv_length(run) - 1] = g_strdup(pp);
			path = ad_fixit_program_path(cfg, step.program);
			ok = pp && ad_fixit_run(path, run, cfg->timeout_s, out, error);
			break;
		default:
			path = ad_fixit_program_path(cfg, step.program);
			ok = ad_fixit_run(path, argv, cfg->timeout_s, out, error);
			break;
		}
		ad_fixit_step_clear(&step);
		if (ok && u)
			g_ptr_array_add(undo, u);
		else if (u)
			ad_fixit_undo_free(u);
	}
	remove_dir(dir);
	if (!ok && undo->len) {
		g_autoptr(GString) report = g_string_new(NULL);
		g_autoptr(GError) first = NULL;

		ad_fixit_undo_all(cfg, undo, report);
		g_string_append(out, report->str);
		if (!error || !*error)
			return FALSE;
		first = g_steal_pointer(error);
		g_set_error(error, first->domain, first->code,
			    "%s\nThe commands before it, taken back where they can be:\n%s",
			    first->message, report->str);
	}
	return ok;
}

/* ------------------------------------------------------------ Apply */

gboolean ad_fixit_apply(const AdFixitConfig *cfg, const char *given, guint index,
			const char *digest, AdFixitResult *ret, GError **error)
{
	g_autoptr(AdStore) store = NULL;
	g_autoptr(GError) local = NULL;
	g_autoptr(GPtrArray) commands = NULL;
	g_autoptr(GString) shown = g_string_new(NULL);
	g_autoptr(GString) out = g_string_new(NULL);
	Reanalysis r = { 0 };
	g_autoptr(AdAlertDoc) doc = NULL;
	json_object *alert = NULL;
	const AdSuggestionDoc *sugg;
	gboolean ok = FALSE;

	/* setroubleshoot's clients name an alert by its local id "ID-NUM[.GEN]" */
	gboolean by_local = given && strchr(given, '-') != NULL;
	char id[17] = "";
	gint64 num;

	memset(ret, 0, sizeof(*ret));
	if (by_local ? !ad_store_parse_local_id(given, id, &num, NULL)
		     : !ad_alert_id_is_valid(given)) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_INVALID_ARGS,
				    "not an alert id (16 lowercase hex digits, or a local id "
				    "ID-NUMBER)");
		return FALSE;
	}
	/* what the caller showed is bound to what runs: by digest, or by the local id */
	if (!by_local && (!digest || !*digest)) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_INVALID_ARGS,
				    "a fix is named with the digest of the commands shown (Apply) "
				    "or by the local id of the alert read (run_fix)");
		return FALSE;
	}
	if (!by_local)
		g_strlcpy(id, given, sizeof(id));
	/* reading needs no write access: the store is opened read-only until the fix worked */
	if (!(store = ad_store_open_readonly(cfg->store_path, &local))) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_FAILED, "%s", local->message);
		return FALSE;
	}
	/*
	 * a local id of an alert deleted since (and come back) is NOT_FOUND;
	 * one of an earlier analysis of the alert is CHANGED
	 */
	if (!(alert = by_local ? ad_store_get_local(store, given, TRUE, -1, &local)
			       : ad_store_get(store, id, -1, &local))) {
		AdFixitError code = AD_FIXIT_ERROR_FAILED;

		if (g_error_matches(local, AD_STORE_ERROR, AD_STORE_ERROR_NOT_FOUND))
			code = AD_FIXIT_ERROR_NOT_FOUND;
		else if (g_error_matches(local, AD_STORE_ERROR, AD_STORE_ERROR_CHANGED))
			code = AD_FIXIT_ERROR_CHANGED;
		g_set_error(error, AD_FIXIT_ERROR, code, "%s", local->message);
		return FALSE;
	}
	if (!(doc = ad_alert_doc_new(alert, &local))) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_FAILED, "%s", local->message);
		goto out;
	}
	if (!(sugg = ad_alert_doc_suggestion(doc, index))) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_INVALID_ARGS,
			    "alert %s has no suggestion %u (it has %u)", id, index,
			    doc->suggestions->len);
		goto out;
	}
	/* the one rule first: nothing is loaded or run for a fix it refuses */
	if (!ad_fix_one_click(doc, index, &commands, error))
		goto out;
	ret->digest = ad_fix_digest(commands);
	if (digest && strcmp(digest, ret->digest) != 0) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_CHANGED,
				    "the alert changed since you read it: reload (its fix is not "
				    "the commands shown)");
		goto out;
	}
	if (!reanalyse(cfg, store, id, &r, error) ||
	    !check_safety(cfg, &r, doc, sugg, error) ||
	    !check_proof(&r, commands, sugg->verified, error) ||
	    !check_modules(cfg, store, id, commands, error))
		goto out;
	g_clear_pointer(&store, ad_store_close);
	ok = run_steps(cfg, &r, id, commands, shown, out, error);
	if (ok) {
		g_autofree char *warning = NULL;
		g_autoptr(AdStore) w = ad_store_open_existing(cfg->store_path, &warning, &local);

		/* the fix is in; a store that cannot say so is worth a line in the output */
		if (!w || !ad_store_set_fix_applied(w, id, g_get_real_time() / 1e6, &local))
			g_string_append_printf(out, "(the alert store could not note the fix: %s)\n",
					       local ? local->message : "");
		if (w)
			note_modules(w, id, commands, out);
	}
out:
	ret->commands = g_string_free(g_steal_pointer(&shown), FALSE);
	ret->output = g_string_free(g_steal_pointer(&out), FALSE);
	reanalysis_clear(&r);
	json_object_put(alert);
	return ok;
}
