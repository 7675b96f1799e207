// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The helper's names and errors, the check of suggested commands that the
 * helper enforces and the front ends use to offer Apply, and the
 * asynchronous Apply call.
 */
#include <string.h>

#include "escape.h"
#include "fixit-client.h"

static const GDBusErrorEntry entries[] = {
	{ AD_FIXIT_ERROR_NOT_AUTHORIZED, "org.avcdoctor.Fixit1.Error.NotAuthorized" },
	{ AD_FIXIT_ERROR_NOT_FOUND, "org.avcdoctor.Fixit1.Error.NotFound" },
	{ AD_FIXIT_ERROR_INVALID_ARGS, "org.avcdoctor.Fixit1.Error.InvalidArgs" },
	{ AD_FIXIT_ERROR_NOT_ALLOWED, "org.avcdoctor.Fixit1.Error.NotAllowed" },
	{ AD_FIXIT_ERROR_NOT_PROVED, "org.avcdoctor.Fixit1.Error.NotProved" },
	{ AD_FIXIT_ERROR_FAILED, "org.avcdoctor.Fixit1.Error.Failed" },
	{ AD_FIXIT_ERROR_TIMED_OUT, "org.avcdoctor.Fixit1.Error.TimedOut" },
};
G_STATIC_ASSERT(G_N_ELEMENTS(entries) == AD_FIXIT_N_ERRORS);

GQuark ad_fixit_error_quark(void)
{
	static gsize quark;

	g_dbus_error_register_error_domain("ad-fixit-error-quark", &quark, entries,
					   G_N_ELEMENTS(entries));
	return (GQuark)quark;
}

const char *ad_fixit_error_name(AdFixitError code)
{
	if ((guint)code >= G_N_ELEMENTS(entries))
		code = AD_FIXIT_ERROR_FAILED;
	return entries[code].dbus_error_name;
}

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

/* ------------------------------------------------------------ the call */

/* long enough for a password prompt and a slow semodule; the helper times out first */
#define APPLY_TIMEOUT_MS (15 * 60 * 1000)

static void on_applied(GObject *source, GAsyncResult *res, gpointer data)
{
	g_autoptr(GTask) task = data;
	GError *error = NULL;
	g_autoptr(GVariant) r = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res,
							      &error);
	const char *out;

	if (!r) {
		g_dbus_error_strip_remote_error(error);
		g_task_return_error(task, error);
		return;
	}
	g_variant_get(r, "(&s)", &out);
	g_task_return_pointer(task, g_strdup(out), g_free);
}

static void on_bus(GObject *source, GAsyncResult *res, gpointer data)
{
	g_autoptr(GTask) task = data;
	GError *error = NULL;
	g_autoptr(GDBusConnection) bus = g_bus_get_finish(res, &error);
	GVariant *args = g_task_get_task_data(task);

	(void)source;
	if (!bus) {
		g_task_return_error(task, error);
		return;
	}
	g_dbus_connection_call(bus, AD_FIXIT_DBUS_NAME, AD_FIXIT_DBUS_PATH,
			       AD_FIXIT_DBUS_INTERFACE, "Apply", g_variant_ref(args),
			       G_VARIANT_TYPE("(s)"),
			       G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION, APPLY_TIMEOUT_MS,
			       g_task_get_cancellable(task), on_applied, g_object_ref(task));
}

void ad_fixit_apply_async(const char *alert_id, guint index, GCancellable *cancellable,
			  GAsyncReadyCallback callback, gpointer user_data)
{
	GTask *task = g_task_new(NULL, cancellable, callback, user_data);

	/* the error names are known before the first reply */
	(void)AD_FIXIT_ERROR;
	g_task_set_source_tag(task, ad_fixit_apply_async);
	g_task_set_task_data(task, g_variant_ref_sink(g_variant_new("(su)", alert_id, index)),
			     (GDestroyNotify)g_variant_unref);
	g_bus_get(G_BUS_TYPE_SYSTEM, cancellable, on_bus, task);
}

char *ad_fixit_apply_finish(GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, NULL), NULL);
	return g_task_propagate_pointer(G_TASK(result), error);
}

gboolean ad_fixit_suggestion_applicable(json_object *sugg, const char *alert_id)
{
	g_autoptr(GPtrArray) cmds = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	json_object *arr, *v;

	if (!sugg || !json_object_is_type(sugg, json_type_object) ||
	    !json_object_object_get_ex(sugg, "commands", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return FALSE;
	/* a fix the policy says would not stop the denial is not offered */
	if (json_object_object_get_ex(sugg, "verified", &v) && v && !json_object_get_boolean(v))
		return FALSE;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *a = json_object_array_get_idx(arr, i);
		g_autoptr(GStrvBuilder) b = g_strv_builder_new();

		if (!json_object_is_type(a, json_type_array))
			return FALSE;
		for (size_t j = 0; j < json_object_array_length(a); j++) {
			json_object *w = json_object_array_get_idx(a, j);

			if (!json_object_is_type(w, json_type_string))
				return FALSE;
			g_strv_builder_add(b, json_object_get_string(w));
		}
		g_ptr_array_add(cmds, g_strv_builder_end(b));
	}
	return ad_fixit_check_commands(cmds, alert_id, NULL);
}
