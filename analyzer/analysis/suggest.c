// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Suggestions: ranked fixes with commands as argument vectors.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <glib/gi18n.h>

#include "escape.h"
#include "output/report.h"
#include "suggest.h"
#include "proof-text.h"

static const char *const kind_names[] = {
	"boolean", "relabel", "fcontext", "port", "module", "dontaudit", "config",
	"report_bug", "attack", "info",
};

const char *ad_fix_kind_name(AdFixKind k)
{
	return (guint)k < G_N_ELEMENTS(kind_names) ? kind_names[k] : "info";
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
	s->plugin_confidence = s->confidence;
	/* declarative rules are specific knowledge: between the cause plugins' priorities */
	s->priority = 50;
	s->scope.accesses = -1;
	s->scope.domains = -1;
	s->scope.type_paths = -1;
	return s;
}

AdSuggestion *ad_note_new(const char *plugin, double confidence)
{
	AdSuggestion *s = ad_suggestion_new(plugin, AD_FIX_INFO, confidence, AD_LEVEL_GREEN);

	s->note = TRUE;
	return s;
}

static void ad_bool_setting_free(AdBoolSetting *b)
{
	g_free(b->name);
	g_free(b);
}

void ad_suggestion_free(AdSuggestion *s)
{
	if (!s)
		return;
	g_free(s->plugin);
	g_free(s->if_text);
	g_free(s->then_text);
	ad_msg_free(s->if_msg);
	ad_msg_free(s->then_msg);
	g_ptr_array_unref(s->commands);
	if (s->set_booleans)
		g_ptr_array_unref(s->set_booleans);
	g_free(s->new_type);
	g_free(s->base_type);
	g_free(s->still_denied);
	ad_msg_free(s->still_denied_msg);
	g_free(s->apply_reason);
	if (s->scope.examples)
		g_ptr_array_unref(s->scope.examples);
	g_free(s->scope.generic_type);
	g_free(s);
}

/* sets *@msg to @m (taken) and *@text to it rendered */
static void set_text(AdMsg **msg, char **text, AdMsg *m)
{
	ad_msg_free(*msg);
	g_free(*text);
	*msg = m;
	*text = ad_msg_render(m);
	if (!*text)
		*text = g_strdup("");
}

void ad_suggestion_take_if(AdSuggestion *s, AdMsg *m)
{
	set_text(&s->if_msg, &s->if_text, m);
}

void ad_suggestion_take_then(AdSuggestion *s, AdMsg *m)
{
	set_text(&s->then_msg, &s->then_text, m);
}

/*
 * Argument @index of *@msg becomes @arg (NULL: its string is a msgid).
 * *@text is rendered anew only when the argument renders otherwise than
 * its string did (a msgid translated, a place kept for a message): a Then
 * text with three arguments replaced is not rendered four times.
 */
static void set_arg(AdMsg **msg, char **text, guint index, AdMsg *arg)
{
	if (!*msg) {
		ad_msg_free(arg);
		return;
	}
	if (!ad_msg_set_arg(*msg, index, arg))
		set_text(msg, text, g_steal_pointer(msg));
}

void ad_suggestion_set_still_denied(AdSuggestion *s, AdMsg *m)
{
	if (m) {
		set_text(&s->still_denied_msg, &s->still_denied, m);
		return;
	}
	g_clear_pointer(&s->still_denied_msg, ad_msg_free);
	g_clear_pointer(&s->still_denied, g_free);
}

void ad_suggestion_if_arg_msgid(AdSuggestion *s, guint index)
{
	set_arg(&s->if_msg, &s->if_text, index, NULL);
}

void ad_suggestion_then_arg_msgid(AdSuggestion *s, guint index)
{
	set_arg(&s->then_msg, &s->then_text, index, NULL);
}

void ad_suggestion_if_arg(AdSuggestion *s, guint index, AdMsg *arg)
{
	if (arg)
		set_arg(&s->if_msg, &s->if_text, index, arg);
}

void ad_suggestion_then_arg(AdSuggestion *s, guint index, AdMsg *arg)
{
	if (arg)
		set_arg(&s->then_msg, &s->then_text, index, arg);
}

void ad_suggestion_set_if(AdSuggestion *s, const char *fmt, ...)
{
	AdMsg *m = ad_msg_new();
	va_list ap;

	va_start(ap, fmt);
	ad_msg_addv(m, fmt, ap);
	va_end(ap);
	ad_suggestion_take_if(s, m);
}

void ad_suggestion_set_then(AdSuggestion *s, const char *fmt, ...)
{
	AdMsg *m = ad_msg_new();
	va_list ap;

	va_start(ap, fmt);
	ad_msg_addv(m, fmt, ap);
	va_end(ap);
	ad_suggestion_take_then(s, m);
}

void ad_suggestion_set_new_type(AdSuggestion *s, const char *type)
{
	g_free(s->new_type);
	s->new_type = g_strdup(type);
}

void ad_suggestion_add_boolean(AdSuggestion *s, const char *name, gboolean value)
{
	AdBoolSetting *b = g_new0(AdBoolSetting, 1);

	if (!s->set_booleans)
		s->set_booleans = g_ptr_array_new_with_free_func(
			(GDestroyNotify)ad_bool_setting_free);
	b->name = g_strdup(name);
	b->value = value;
	g_ptr_array_add(s->set_booleans, b);
}

gboolean ad_suggestion_is_pure_relabel(const AdSuggestion *s)
{
	return s->kind == AD_FIX_RELABEL && !(s->set_booleans && s->set_booleans->len) &&
	       !s->adds_rules;
}

gboolean ad_suggestion_changes_policy(const AdSuggestion *s)
{
	return (s->set_booleans && s->set_booleans->len) || s->new_type || s->adds_rules;
}

/* "name=1", "name=off": the setting of one setsebool argument */
static gboolean parse_setting(const char *arg, char **ret_name, gboolean *ret_value)
{
	static const char *const on[] = { "1", "on", "true" }, *const off[] = { "0", "off",
										"false" };
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(on); i++) {
		if (g_ascii_strcasecmp(eq + 1, on[i]) == 0 ||
		    g_ascii_strcasecmp(eq + 1, off[i]) == 0) {
			*ret_name = g_strndup(arg, eq - arg);
			*ret_value = g_ascii_strcasecmp(eq + 1, on[i]) == 0;
			return TRUE;
		}
	}
	return FALSE;
}

/* the argument after option @opt, or NULL */
static const char *option_value(const char *const *argv, const char *opt)
{
	for (guint i = 1; argv[i]; i++)
		if (strcmp(argv[i], opt) == 0)
			return argv[i + 1];
	return NULL;
}

static gboolean has_arg(const char *const *argv, const char *arg)
{
	for (guint i = 1; argv[i]; i++)
		if (strcmp(argv[i], arg) == 0)
			return TRUE;
	return FALSE;
}

/*
 * Learns what a command changes in the policy's state, so that the
 * suggestion can be proved: setsebool's settings, the type given to a
 * port or a file by semanage or chcon, a module built by avcdoctor allow
 * (with -D, a dontaudit module).
 */
static void note_change(AdSuggestion *s, const char *const *argv)
{
	const char *type;

	if (!argv[0])
		return;
	if (strcmp(argv[0], "setsebool") == 0) {
		for (guint i = 1; argv[i]; i++) {
			g_autofree char *name = NULL;
			gboolean value;

			if (parse_setting(argv[i], &name, &value))
				ad_suggestion_add_boolean(s, name, value);
		}
	} else if (strcmp(argv[0], "semanage") == 0 && argv[1] &&
		   (strcmp(argv[1], "port") == 0 || strcmp(argv[1], "fcontext") == 0) &&
		   (has_arg(argv, "-a") || has_arg(argv, "-m"))) {
		type = option_value(argv, "-t");
		if (type && !s->new_type)
			s->new_type = g_strdup(type);
	} else if (strcmp(argv[0], "chcon") == 0) {
		type = option_value(argv, "-t");
		if (type && !s->new_type)
			s->new_type = g_strdup(type);
	} else if (strcmp(argv[0], "avcdoctor") == 0 && argv[1] && strcmp(argv[1], "allow") == 0 &&
		   has_arg(argv, "-M")) {
		if (has_arg(argv, "-D") || s->kind == AD_FIX_DONTAUDIT)
			s->hides_rules = TRUE;
		else
			s->adds_rules = TRUE;
	}
}

void ad_suggestion_add_argv(AdSuggestion *s, const char *const *argv)
{
	g_ptr_array_add(s->commands, g_strdupv((char **)argv));
	note_change(s, argv);
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
	note_change(s, g_ptr_array_index(s->commands, s->commands->len - 1));
}

/*
 * A proved boolean that opens the access to this many domains or more (one
 * every domain is subject to, such as domain_can_mmap_files, 899 domains
 * in Fedora's policy; init_daemons_use_tty, 302) is broad: a
 * local module granting the one access is narrower.
 */
#define AD_BROAD_DOMAINS 200

/*
 * The rank of a suggestion, best first: an attack warning (what an
 * investigator must read before anything is loosened); silencing a
 * harmless denial (nothing needs allowing); fixes proved to stop every
 * denial; suggestions that change nothing in the policy (explanations,
 * program fixes, bug reports); a local module, proved but the last
 * resort; a broad proved fix (a boolean for hundreds of domains, a module
 * on a generic type) or one on a label that restorecon is about to change; turning a boolean off (it weakens what the
 * boolean protects); fixes that would not stop the denial; notes.
 */
static int proof_rank(const AdSuggestion *s)
{
	/* a fact is no fix: after every fix (they go apart, ad_suggestions_take_notes()) */
	if (s->note)
		return 8;
	if (s->kind == AD_FIX_ATTACK)
		return 0;
	if (s->harmless)
		return 1;
	for (guint i = 0; s->set_booleans && i < s->set_booleans->len; i++)
		if (!((AdBoolSetting *)g_ptr_array_index(s->set_booleans, i))->value)
			return s->proof == AD_PROOF_FAILED ? 7 : 6;
	switch (s->proof) {
	case AD_PROOF_OK:
		/* allowing it on a label about to be restored: after the fixes on the right one */
		if (s->wrong_label)
			return 5;
		/* a module on a generic type opens every object of that type: broad */
		if (s->adds_rules || s->kind == AD_FIX_MODULE)
			return s->scope.generic_type ? 5 : 4;
		/* a label gives what the policy means that type for: only booleans are broad */
		return s->set_booleans && s->set_booleans->len &&
		       s->scope.domains >= AD_BROAD_DOMAINS ? 5 : 2;
	case AD_PROOF_NONE:
		return 3;
	case AD_PROOF_FAILED:
	default:
		return 7;
	}
}

/*
 * Scope in steps of about three times (half a decade): the counts are
 * made rule by rule, so smaller differences mean little and the plugin's
 * judgement decides.  Uncounted scopes rank after counted ones.
 */
static int scope_step(const AdSuggestion *s)
{
	if (s->scope.accesses < 0)
		return G_MAXINT;
	/* restoring the label file_contexts gives opens nothing the policy does not intend */
	if (ad_suggestion_is_pure_relabel(s))
		return 0;
	return (int)floor(2.0 * log10(1.0 + (double)s->scope.accesses));
}

static int compare_suggestions(gconstpointer pa, gconstpointer pb)
{
	const AdSuggestion *a = *(AdSuggestion *const *)pa, *b = *(AdSuggestion *const *)pb;
	int ra = proof_rank(a), rb = proof_rank(b);

	if (ra != rb)
		return ra < rb ? -1 : 1;
	ra = scope_step(a);
	rb = scope_step(b);
	if (ra != rb)
		return ra < rb ? -1 : 1;
	if (a->confidence != b->confidence)
		return a->confidence > b->confidence ? -1 : 1;
	if (a->level != b->level)
		return a->level > b->level ? -1 : 1;
	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	return strcmp(a->plugin, b->plugin);
}

void ad_suggestions_sort(GPtrArray *suggestions)
{
	g_ptr_array_sort(suggestions, compare_suggestions);
}

GPtrArray *ad_suggestions_take_notes(GPtrArray *suggestions)
{
	GPtrArray *notes = g_ptr_array_new_with_free_func((GDestroyNotify)ad_suggestion_free);

	for (guint i = 0; i < suggestions->len;) {
		AdSuggestion *s = g_ptr_array_index(suggestions, i);

		if (s->note)
			g_ptr_array_add(notes, g_ptr_array_steal_index(suggestions, i));
		else
			i++;
	}
	return notes;
}

json_object *ad_note_to_json(const AdSuggestion *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "plugin", json_object_new_string(s->plugin));
	json_object_object_add(o, "if", s->if_text ? json_object_new_string(s->if_text) : NULL);
	json_object_object_add(o, "then", s->then_text ? json_object_new_string(s->then_text)
						       : NULL);
	return o;
}

void ad_suggestion_msgs_to_json(const AdSuggestion *s, json_object *o)
{
	if (s->if_msg)
		json_object_object_add(o, AD_KEY_IF_MSG, ad_msg_to_json(s->if_msg));
	if (s->then_msg)
		json_object_object_add(o, AD_KEY_THEN_MSG, ad_msg_to_json(s->then_msg));
	if (s->still_denied_msg)
		json_object_object_add(o, AD_KEY_STILL_DENIED_MSG,
				       ad_msg_to_json(s->still_denied_msg));
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
	ad_suggestion_proof_to_json(s, o);
	if (s->apply_reason)
		ad_apply_to_json(s->apply, s->apply_reason, o);
	g_string_free(shell, TRUE);
	return o;
}

char *ad_suggestion_proof_text(const AdSuggestion *s)
{
	int verified = s->proof == AD_PROOF_OK ? 1 : s->proof == AD_PROOF_FAILED ? 0 : -1;

	if (s->kind == AD_FIX_DONTAUDIT)
		return ad_proof_text_hides(verified, s->still_denied, s->scope.accesses,
					   s->scope.domains,
					   s->scope.examples && s->scope.examples->len ?
					   g_ptr_array_index(s->scope.examples, 0) : NULL);
	return ad_proof_text(verified, s->still_denied, s->scope.accesses, s->scope.domains,
			     s->scope.examples && s->scope.examples->len ?
			     g_ptr_array_index(s->scope.examples, 0) : NULL,
			     s->scope.generic_type, s->scope.type_paths);
}

char *ad_suggestion_proof_text_json(json_object *o)
{
	return ad_proof_text_json(o);
}

void ad_suggestion_proof_to_json(const AdSuggestion *s, json_object *o)
{
	json_object *scope = NULL;

	json_object_object_add(o, "verified", s->proof == AD_PROOF_NONE ? NULL
			       : json_object_new_boolean(s->proof == AD_PROOF_OK));
	json_object_object_add(o, "still_denied", s->still_denied ?
			       json_object_new_string(s->still_denied) : NULL);
	if (s->scope.accesses >= 0) {
		json_object *ex = json_object_new_array();

		scope = json_object_new_object();
		json_object_object_add(scope, "accesses", json_object_new_int64(s->scope.accesses));
		json_object_object_add(scope, "domains",
				       json_object_new_int64(MAX(s->scope.domains, 0)));
		for (guint i = 0; s->scope.examples && i < s->scope.examples->len; i++)
			json_object_array_add(ex, json_object_new_string(
						      g_ptr_array_index(s->scope.examples, i)));
		json_object_object_add(scope, "examples", ex);
		if (s->scope.generic_type) {
			json_object_object_add(scope, "generic_type",
					       json_object_new_string(s->scope.generic_type));
			json_object_object_add(scope, "type_paths", s->scope.type_paths >= 0 ?
					       json_object_new_int64(s->scope.type_paths) : NULL);
		}
	}
	json_object_object_add(o, "scope", scope);
}

static const char *const apply_names[] = { "one-click", "by-hand", "never" };

const char *ad_apply_name(AdApply a)
{
	return (guint)a < G_N_ELEMENTS(apply_names) ? apply_names[a] : "never";
}

gboolean ad_apply_from_name(const char *name, AdApply *ret)
{
	for (guint i = 0; i < G_N_ELEMENTS(apply_names); i++) {
		if (g_strcmp0(name, apply_names[i]) == 0) {
			*ret = i;
			return TRUE;
		}
	}
	return FALSE;
}

void ad_apply_to_json(AdApply apply, const char *reason, json_object *o)
{
	json_object_object_add(o, "apply", json_object_new_string(ad_apply_name(apply)));
	json_object_object_add(o, "apply_reason", json_object_new_string(reason ? reason : ""));
}

AdLevel ad_suggestions_level(GPtrArray *s)
{
	for (guint i = 0; i < s->len; i++)
		if (((AdSuggestion *)g_ptr_array_index(s, i))->level == AD_LEVEL_RED)
			return AD_LEVEL_RED;
	/* the best fix decides; a note is no fix (notes rank after every fix) */
	for (guint i = 0; i < s->len; i++) {
		const AdSuggestion *x = g_ptr_array_index(s, i);

		if (!x->note)
			return x->level == AD_LEVEL_GREEN ? AD_LEVEL_GREEN : AD_LEVEL_YELLOW;
	}
	return AD_LEVEL_YELLOW;
}
