// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suggestions: ranked fixes with commands as argument vectors.
 */
#include <stdarg.h>
#include <string.h>

#include <glib/gi18n.h>

#include "output/escape.h"
#include "output/report.h"
#include "suggest.h"

static const char *const kind_names[] = {
	"boolean", "relabel", "fcontext", "port", "module", "dontaudit", "config",
	"report_bug", "attack", "info",
};

static const char *const level_names[] = { "green", "yellow", "red" };

const char *ad_fix_kind_name(AdFixKind k)
{
	return (guint)k < G_N_ELEMENTS(kind_names) ? kind_names[k] : "info";
}

const char *ad_level_name(AdLevel l)
{
	return (guint)l < G_N_ELEMENTS(level_names) ? level_names[l] : "yellow";
}

const char *ad_level_display(AdLevel l)
{
	switch (l) {
	case AD_LEVEL_GREEN:
		return C_("level", "green");
	case AD_LEVEL_RED:
		return C_("level", "red");
	default:
		return C_("level", "yellow");
	}
}

gboolean ad_level_from_name(const char *name, AdLevel *ret)
{
	for (guint i = 0; i < G_N_ELEMENTS(level_names); i++) {
		if (g_strcmp0(name, level_names[i]) == 0) {
			*ret = i;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean ad_fix_kind_from_name(const char *name, AdFixKind *ret)
{
	for (guint i = 0; i < G_N_ELEMENTS(kind_names); i++) {
		if (g_strcmp0(name, kind_names[i]) == 0) {
			*ret = i;
			return TRUE;
		}
	}
	return FALSE;
}

AdSuggestion *ad_suggestion_new(const char *plugin, AdFixKind kind, double confidence,
				AdLevel level)
{
	AdSuggestion *s = g_new0(AdSuggestion, 1);

	s->plugin = g_strdup(plugin);
	s->kind = kind;
	s->confidence = CLAMP(confidence, 0.0, 1.0);
	s->level = level;
	s->commands = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	return s;
}

void ad_suggestion_free(AdSuggestion *s)
{
	if (!s)
		return;
	g_free(s->plugin);
	g_free(s->if_text);
	g_free(s->then_text);
	g_ptr_array_unref(s->commands);
	g_free(s);
}

void ad_suggestion_set_if(AdSuggestion *s, const char *fmt, ...)
{
	va_list ap;

	g_free(s->if_text);
	va_start(ap, fmt);
	s->if_text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
}

void ad_suggestion_set_then(AdSuggestion *s, const char *fmt, ...)
{
	va_list ap;

	g_free(s->then_text);
	va_start(ap, fmt);
	s->then_text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
}

void ad_suggestion_add_argv(AdSuggestion *s, const char *const *argv)
{
	g_ptr_array_add(s->commands, g_strdupv((char **)argv));
}

void ad_suggestion_add_command(AdSuggestion *s, const char *arg0, ...)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();
	va_list ap;

	va_start(ap, arg0);
	for (const char *a = arg0; a; a = va_arg(ap, const char *))
		g_strv_builder_add(b, a);
	va_end(ap);
	g_ptr_array_add(s->commands, g_strv_builder_end(b));
}

static int compare_suggestions(gconstpointer pa, gconstpointer pb)
{
	const AdSuggestion *a = *(AdSuggestion *const *)pa, *b = *(AdSuggestion *const *)pb;

	if (a->confidence != b->confidence)
		return a->confidence > b->confidence ? -1 : 1;
	if (a->level != b->level)
		return a->level > b->level ? -1 : 1;
	return strcmp(a->plugin, b->plugin);
}

void ad_suggestions_sort(GPtrArray *suggestions)
{
	g_ptr_array_sort(suggestions, compare_suggestions);
}

json_object *ad_suggestion_to_json(const AdSuggestion *s)
{
	json_object *o = json_object_new_object();
	json_object *cmds = json_object_new_array();
	json_object *hex_cmds = json_object_new_array();
	gboolean any_hex = FALSE;
	GString *shell = g_string_new(NULL);

	json_object_object_add(o, "plugin", json_object_new_string(s->plugin));
	json_object_object_add(o, "kind", json_object_new_string(ad_fix_kind_name(s->kind)));
	json_object_object_add(o, "confidence", json_object_new_double(
					   (double)(gint64)(s->confidence * 100 + 0.5) / 100));
	json_object_object_add(o, "level", json_object_new_string(ad_level_name(s->level)));
	json_object_object_add(o, "if", s->if_text ? json_object_new_string(s->if_text) : NULL);
	json_object_object_add(o, "then", s->then_text ? json_object_new_string(s->then_text)
						       : NULL);
	for (guint i = 0; i < s->commands->len; i++) {
		char **argv = g_ptr_array_index(s->commands, i);
		json_object *a = json_object_new_array();
		json_object *h = json_object_new_array();
		g_autofree char *line = ad_shell_join((const char *const *)argv);
		gboolean exact = TRUE;

		/*
		 * Arguments may carry record bytes.  Valid UTF-8 goes as it is (JSON
		 * escapes control characters exactly); other bytes go escaped, and
		 * exactly in hex, so that JSON stays valid UTF-8.
		 */
		for (guint j = 0; argv[j]; j++) {
			gsize len = strlen(argv[j]);
			g_autofree char *hex = ad_bytes_hex(argv[j], len);

			if (g_utf8_validate(argv[j], len, NULL)) {
				json_object_array_add(a, json_object_new_string_len(argv[j], len));
			} else {
				exact = FALSE;
				json_object_array_add(a, ad_json_string_bytes(argv[j], len));
			}
			json_object_array_add(h, json_object_new_string(hex));
		}
		json_object_array_add(cmds, a);
		if (exact) {
			json_object_put(h);
			h = NULL;
		} else {
			any_hex = TRUE;
		}
		json_object_array_add(hex_cmds, h);
		if (shell->len)
			g_string_append(shell, "\n");
		if (exact) {
			g_string_append(shell, line);
		} else {
			g_autofree char *esc = ad_escape_str(line);

			/* a comment: pasted, it runs nothing on a path it does not name */
			g_string_append(shell, "# not exact, an argument holds bytes that "
					       "cannot be shown (see commands_hex): ");
			g_string_append(shell, esc);
		}
	}
	json_object_object_add(o, "commands", cmds);
	if (any_hex)
		json_object_object_add(o, "commands_hex", hex_cmds);
	else
		json_object_put(hex_cmds);
	json_object_object_add(o, "shell", json_object_new_string(shell->str));
	g_string_free(shell, TRUE);
	return o;
}
