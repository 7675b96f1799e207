// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Taking back the commands of a fix that worked when a later one of the
 * same fix fails: how, decided before each command runs, and doing it.
 */
#include <string.h>

#include "fixit-client.h"
#include "escape.h"
#include "run.h"
#include "undo.h"

void ad_fixit_undo_free(AdFixitUndo *u)
{
	if (!u)
		return;
	g_strfreev(u->argv);
	g_free(u->what);
	g_free(u);
}

/* "on"/"off" of boolean @name now, asked with getsebool; NULL when unknown */
static const char *boolean_now(const AdFixitConfig *cfg, const char *name)
{
	g_autofree char *path = ad_fixit_program_path(cfg, "getsebool");
	g_autoptr(GString) out = g_string_new(NULL);
	g_autofree char *want = g_strdup_printf("%s --> ", name);
	char *argv[] = { (char *)"getsebool", (char *)name, NULL };

	if (!ad_fixit_run(path, argv, cfg->timeout_s, out, NULL))
		return NULL;
	if (!g_str_has_prefix(out->str, want))
		return NULL;
	if (g_str_has_prefix(out->str + strlen(want), "on"))
		return "on";
	if (g_str_has_prefix(out->str + strlen(want), "off"))
		return "off";
	return NULL;
}

/* the index of option @opt in @argv before "--", or 0 */
static guint find_opt(char **argv, const char *opt)
{
	for (guint i = 1; argv[i] && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], opt) == 0)
			return i;
	return 0;
}

/* see undo.h: the undo of each kind of step */
AdFixitUndo *ad_fixit_undo_for(const AdFixitConfig *cfg, char **argv, const AdFixitStep *step)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();
	AdFixitUndo *u = g_new0(AdFixitUndo, 1);
	guint i;

	u->what = ad_shell_join((const char *const *)argv);
	u->kind = AD_FIXIT_UNDO_CANNOT;
	switch (step->kind) {
	case AD_FIXIT_STEP_BUILD_MODULE:
		u->kind = AD_FIXIT_UNDO_NONE;
		return u;
	case AD_FIXIT_STEP_LOAD_MODULE:
		g_strv_builder_add(b, "semodule");
		if ((i = find_opt(argv, "-X")) && argv[i + 1])
			g_strv_builder_add_many(b, "-X", argv[i + 1], NULL);
		g_strv_builder_add_many(b, "-r", step->module, NULL);
		break;
	case AD_FIXIT_STEP_SETSEBOOL:
		g_strv_builder_add(b, "setsebool");
		i = 1;
		if (argv[i] && strcmp(argv[i], "-P") == 0)
			g_strv_builder_add(b, argv[i++]);
		for (; argv[i]; i++) {
			const char *eq = strchr(argv[i], '=');
			g_autofree char *name = eq ? g_strndup(argv[i], eq - argv[i])
						   : g_strdup(argv[i]);
			const char *old = boolean_now(cfg, name);
			g_autofree char *pair = NULL;

			if (!eq)
				i++;	/* NAME VALUE */
			if (!old)
				return u;
			pair = g_strdup_printf("%s=%s", name, old);
			g_strv_builder_add(b, pair);
		}
		break;
	case AD_FIXIT_STEP_SEMANAGE:
		if (strcmp(argv[1], "boolean") == 0 && find_opt(argv, "-m")) {
			/* semanage boolean -m --on|--off|-1|-0 NAME: the one bare word */
			const char *name = NULL, *old;

			for (i = 2; argv[i]; i++)
				if (argv[i][0] != '-')
					name = argv[i];
			if (!name || !(old = boolean_now(cfg, name)))
				return u;
			g_strv_builder_add_many(b, "semanage", "boolean", "-m",
						strcmp(old, "on") == 0 ? "--on" : "--off", name, NULL);
			break;
		}
		if (!find_opt(argv, "-a"))
			return u;
		if (strcmp(argv[1], "fcontext") == 0) {
			/* the same specification (and file type), deleted */
			g_strv_builder_add_many(b, "semanage", "fcontext", "-d", NULL);
			if ((i = find_opt(argv, "-f")) && argv[i + 1])
				g_strv_builder_add_many(b, "-f", argv[i + 1], NULL);
			for (i = 2; argv[i] && strcmp(argv[i], "--") != 0; i++)
				;
			g_strv_builder_add_many(b, "--", argv[i + 1], NULL);
		} else if (strcmp(argv[1], "port") == 0) {
			/* the same protocol and port (range), deleted */
			guint p = find_opt(argv, "-p");

			if (!p || !argv[p + 1])
				return u;
			g_strv_builder_add_many(b, "semanage", "port", "-d", "-p", argv[p + 1], NULL);
			for (i = 2; argv[i]; i++)
				if (g_ascii_isdigit(argv[i][0]) && i != p + 1)
					g_strv_builder_add(b, argv[i]);
		} else {
			return u;
		}
		break;
	default:
		return u;
	}
	u->argv = g_strv_builder_end(b);
	u->kind = AD_FIXIT_UNDO_RUN;
	return u;
}

void ad_fixit_undo_all(const AdFixitConfig *cfg, GPtrArray *undo, GString *report)
{
	for (guint i = undo->len; i-- > 0;) {
		AdFixitUndo *u = g_ptr_array_index(undo, i);
		g_autofree char *line = NULL, *shown = NULL, *path = NULL;
		g_autoptr(GString) out = g_string_new(NULL);
		g_autoptr(GError) err = NULL;

		if (u->kind == AD_FIXIT_UNDO_NONE)
			continue;
		if (u->kind == AD_FIXIT_UNDO_CANNOT) {
			shown = ad_escape_str(u->what);
			g_string_append_printf(report, "not undone (cannot be): %s\n", shown);
			continue;
		}
		line = ad_shell_join((const char *const *)u->argv);
		shown = ad_escape_str(line);
		path = ad_fixit_program_path(cfg, u->argv[0]);
		if (ad_fixit_run(path, u->argv, cfg->timeout_s, out, &err))
			g_string_append_printf(report, "undone: %s\n%s", shown, out->str);
		else
			g_string_append_printf(report, "undo FAILED: %s\n", err->message);
	}
}
