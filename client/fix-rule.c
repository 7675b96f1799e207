// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one rule of "may this stored fix be applied with one click"
 * (fix-rule.h): the fix helper's allow-list of programs and arguments,
 * the stored suggestion's commands, the digest of what is shown, and the
 * decision that every front end and the helper share.
 */
#include <string.h>

#include "escape.h"
#include "fixit-error.h"
#include "fix-rule.h"

/* ------------------------------------------------------------ the allow-list */

/* a plain word: letters, digits and _.:,=+- only, not an option, not too long */
static gboolean plain_word(const char *s)
{
	gsize n = strlen(s);

	if (n == 0 || n > 256 || s[0] == '-')
		return FALSE;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:,=+-") == n;
}

/* a boolean or type name: [A-Za-z0-9_]{1,128} */
static gboolean name_word(const char *s)
{
	gsize n = strlen(s);

	return n > 0 && n <= 128 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

/* a module name checkmodule accepts, as the analyzer makes them */
static gboolean module_name(const char *s)
{
	gsize n = strlen(s);

	return n > 0 && n <= 64 && g_ascii_isalpha(s[0]) &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static gboolean bool_value(const char *s)
{
	static const char *const values[] = { "0", "1", "on", "off", "true", "false", NULL };

	return g_strv_contains(values, s);
}

static gboolean in_list(const char *s, const char *const *list)
{
	return g_strv_contains(list, s);
}

/* restorecon [-R] [-F] [-v] -- PATH...: every path absolute, after "--" */
static gboolean check_restorecon(const char *const *argv)
{
	static const char *const opts[] = { "-v", "-R", "-F", NULL };
	guint i = 1;

	while (argv[i] && in_list(argv[i], opts))
		i++;
	if (!argv[i] || strcmp(argv[i], "--") != 0 || !argv[i + 1])
		return FALSE;
	for (i++; argv[i]; i++)
		if (argv[i][0] != '/')
			return FALSE;
	return TRUE;
}

/* setsebool [-P] NAME=VALUE... or NAME VALUE */
static gboolean check_setsebool(const char *const *argv)
{
	guint i = 1, n = 0;

	if (argv[i] && strcmp(argv[i], "-P") == 0)
		i++;
	for (; argv[i]; i++, n++) {
		const char *eq = strchr(argv[i], '=');

		if (eq) {
			g_autofree char *name = g_strndup(argv[i], eq - argv[i]);

			if (!name_word(name) || !bool_value(eq + 1))
				return FALSE;
		} else if (!name_word(argv[i]) || !argv[i + 1] || !bool_value(argv[++i])) {
			return FALSE;
		}
	}
	return n > 0;
}

/*
 * semanage fcontext|port|boolean: known options, their values plain words;
 * fcontext's path specification only after "--", port's one port or range,
 * boolean's one name.
 */
static gboolean check_semanage(const char *const *argv)
{
	static const char *const flags[] = { "-a", "-m", "-d", "-N", "--on", "--off", "-1", "-0",
					     NULL };
	static const char *const valued[] = { "-t", "-f", "-p", "-r", "-s", NULL };
	const char *what = argv[1];
	guint i, bare = 0;

	if (!what || !in_list(what, (const char *const[]){ "fcontext", "port", "boolean", NULL }))
		return FALSE;
	for (i = 2; argv[i] && strcmp(argv[i], "--") != 0; i++) {
		if (in_list(argv[i], flags))
			continue;
		if (in_list(argv[i], valued)) {
			if (!argv[i + 1] || !plain_word(argv[++i]))
				return FALSE;
			continue;
		}
		if (strcmp(what, "port") == 0 && strspn(argv[i], "0123456789-") == strlen(argv[i]) &&
		    g_ascii_isdigit(argv[i][0]))
			bare++;
		else if (strcmp(what, "boolean") == 0 && name_word(argv[i]))
			bare++;
		else
			return FALSE;
	}
	if (strcmp(what, "fcontext") == 0)
		/* exactly one specification, after "--" */
		return argv[i] && argv[i + 1] && *argv[i + 1] && !argv[i + 2];
	return !argv[i] && bare == 1;
}

/* avcdoctor allow --alert ID [--verify] [-D] -M NAME: a module of this alert */
static gboolean check_allow(const char *const *argv, const char *alert_id, AdFixitStep *ret)
{
	const char *name = NULL;
	gboolean alert = FALSE;

	if (!argv[1] || strcmp(argv[1], "allow") != 0)
		return FALSE;
	for (guint i = 2; argv[i]; i++) {
		if (strcmp(argv[i], "--alert") == 0 && argv[i + 1]) {
			alert = alert_id && strcmp(argv[++i], alert_id) == 0;
			if (!alert)
				return FALSE;
		} else if (strcmp(argv[i], "-M") == 0 && argv[i + 1] && module_name(argv[i + 1])) {
			name = argv[++i];
		} else if (strcmp(argv[i], "-D") == 0) {
			ret->dontaudit = TRUE;
		} else if (strcmp(argv[i], "--verify") != 0) {
			return FALSE;
		}
	}
	if (!alert || !name)
		return FALSE;
	ret->module = g_strdup(name);
	return TRUE;
}

/* semodule [-X PRIORITY] -i NAME.pp */
static gboolean check_semodule(const char *const *argv, AdFixitStep *ret)
{
	guint i = 1;
	const char *pp;

	if (argv[i] && strcmp(argv[i], "-X") == 0) {
		if (!argv[i + 1] || !*argv[i + 1] ||
		    strspn(argv[i + 1], "0123456789") != strlen(argv[i + 1]))
			return FALSE;
		i += 2;
	}
	if (!argv[i] || strcmp(argv[i], "-i") != 0 || !(pp = argv[i + 1]) || argv[i + 2] ||
	    !g_str_has_suffix(pp, ".pp"))
		return FALSE;
	ret->module = g_strndup(pp, strlen(pp) - 3);
	return module_name(ret->module);
}

void ad_fixit_step_clear(AdFixitStep *step)
{
	g_clear_pointer(&step->module, g_free);
}

gboolean ad_fixit_check_command(const char *const *argv, const char *alert_id, AdFixitStep *ret,
				GError **error)
{
	const char *prog = argv ? argv[0] : NULL;
	gboolean ok = FALSE;

	memset(ret, 0, sizeof(*ret));
	/* what is shown of a command must be what runs: nothing hidden in any argument */
	for (guint i = 0; argv && argv[i]; i++) {
		if (ad_text_has_hidden(argv[i])) {
			g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "argument %u holds a character that is not shown as it is "
				    "(a control, format or invisible character, or bytes that are "
				    "not UTF-8)", i);
			return FALSE;
		}
	}
	if (!prog) {
		/* nothing */
	} else if (strcmp(prog, "restorecon") == 0) {
		ret->kind = AD_FIXIT_STEP_RESTORECON;
		ok = check_restorecon(argv);
	} else if (strcmp(prog, "setsebool") == 0) {
		ret->kind = AD_FIXIT_STEP_SETSEBOOL;
		ok = check_setsebool(argv);
	} else if (strcmp(prog, "semanage") == 0) {
		ret->kind = AD_FIXIT_STEP_SEMANAGE;
		ok = check_semanage(argv);
	} else if (strcmp(prog, "avcdoctor") == 0) {
		ret->kind = AD_FIXIT_STEP_BUILD_MODULE;
		ok = check_allow(argv, alert_id, ret);
	} else if (strcmp(prog, "semodule") == 0) {
		ret->kind = AD_FIXIT_STEP_LOAD_MODULE;
		ok = check_semodule(argv, ret);
	}
	if (!ok) {
		g_autofree char *shown = prog ? g_strescape(prog, NULL) : g_strdup("");

		ad_fixit_step_clear(ret);
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
			    "this command is not one the fix helper runs (%s ...)", shown);
		return FALSE;
	}
	ret->program = prog;
	return TRUE;
}

gboolean ad_fixit_check_commands(GPtrArray *commands, const char *alert_id, GError **error)
{
	g_autofree char *built = NULL;

	if (!commands || !commands->len) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "this suggestion has no command to run");
		return FALSE;
	}
	for (guint i = 0; i < commands->len; i++) {
		AdFixitStep step;

		if (!ad_fixit_check_command(g_ptr_array_index(commands, i), alert_id, &step, error))
			return FALSE;
		if (step.kind == AD_FIXIT_STEP_LOAD_MODULE &&
		    (!built || strcmp(built, step.module) != 0)) {
			ad_fixit_step_clear(&step);
			g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
					    "semodule -i loads only the module the fix helper "
					    "has just built from this alert");
			return FALSE;
		}
		g_clear_pointer(&built, g_free);
		if (step.kind == AD_FIXIT_STEP_BUILD_MODULE)
			built = g_strdup(step.module);
		ad_fixit_step_clear(&step);
	}
	if (built) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "a module is built but not loaded");
		return FALSE;
	}
	return TRUE;
}

/* ------------------------------------------------------------ the stored fix */

GPtrArray *ad_fix_commands(const AdSuggestionDoc *sugg, GError **error)
{
	g_autoptr(GPtrArray) cmds = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);

	if (!sugg || !sugg->commands) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "this suggestion has no commands");
		return NULL;
	}
	if (sugg->inexact) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "an argument of this fix holds bytes that cannot be shown as "
				    "they are: apply it by hand");
		return NULL;
	}
	if (sugg->commands_malformed) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "the commands of this suggestion are not lists of strings");
		return NULL;
	}
	for (guint i = 0; i < sugg->commands->len; i++) {
		const AdCommandDoc *c = g_ptr_array_index(sugg->commands, i);

		g_ptr_array_add(cmds, g_strdupv(c->argv));
	}
	return g_steal_pointer(&cmds);
}

char *ad_fix_digest(GPtrArray *commands)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	char num[32];

	for (guint i = 0; commands && i < commands->len; i++) {
		char **argv = g_ptr_array_index(commands, i);

		g_snprintf(num, sizeof(num), "%u\n", argv ? g_strv_length(argv) : 0);
		g_checksum_update(sum, (const guchar *)num, -1);
		for (guint j = 0; argv && argv[j]; j++) {
			gsize n = strlen(argv[j]);

			g_snprintf(num, sizeof(num), "%zu:", n);
			g_checksum_update(sum, (const guchar *)num, -1);
			g_checksum_update(sum, (const guchar *)argv[j], n);
		}
	}
	return g_strdup(g_checksum_get_string(sum));
}

/* whether the commands build a policy module */
static gboolean builds_module(GPtrArray *commands)
{
	for (guint i = 0; i < commands->len; i++) {
		char **argv = g_ptr_array_index(commands, i);

		if (argv[0] && strcmp(argv[0], "avcdoctor") == 0)
			return TRUE;
	}
	return FALSE;
}

gboolean ad_fix_one_click(const AdAlertDoc *alert, guint index, GPtrArray **ret_commands,
			  GError **error)
{
	g_autoptr(GPtrArray) cmds = NULL;
	const AdSuggestionDoc *sugg = ad_alert_doc_suggestion(alert, index);

	if (ret_commands)
		*ret_commands = NULL;
	if (!sugg) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_INVALID_ARGS,
			    "the alert has no suggestion %u", index);
		return FALSE;
	}
	if (sugg->not_object) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
			    "suggestion %u is not a suggestion", index);
		return FALSE;
	}
	/* what the analysis decided comes first: it says why */
	if (sugg->has_apply && g_strcmp0(sugg->apply, "one-click") != 0) {
		const char *reason = sugg->apply_reason;

		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
			    "this fix is not applied with one click%s%s", reason ? ": " : "",
			    reason ? reason : "");
		return FALSE;
	}
	/* a fix the policy says would not stop the denial is not applied */
	if (sugg->verified == 0) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_PROVED,
				    "this fix would not stop the denial (checked against the "
				    "policy when the alert was analysed): not applied");
		return FALSE;
	}
	if (!(cmds = ad_fix_commands(sugg, error)) ||
	    !ad_fixit_check_commands(cmds, alert->id, error))
		return FALSE;
	if (alert->level == AD_LEVEL_RED && builds_module(cmds)) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_ALLOWED,
				    "a red alert (a possible attack) gets no policy module with "
				    "one click");
		return FALSE;
	}
	if (ret_commands)
		*ret_commands = g_steal_pointer(&cmds);
	return TRUE;
}
