// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boolean: the access is allowed by a rule that booleans switch off.  One
 * suggestion per alternative (a set of settings that together allow it),
 * with the booleans' descriptions; combinations included.  Turning a
 * boolean off is offered too, but yellow, with a low confidence and what
 * the boolean protects.
 */
#include <glib/gi18n.h>

#include "escape.h"
#include "plugins.h"
#include "output/report.h"

/*
 * What a boolean allows, as the rest of "If you want to ...": refpolicy's
 * "Determine whether httpd can read user content." becomes "allow httpd to
 * read user content", "Determine whether to support X" becomes "support X".
 */
static char *lower_first(const char *desc)
{
	g_autofree char *s = g_strstrip(g_strdup(desc));
	gsize len = strlen(s);
	const char *can;

	if (len && s[len - 1] == '.')
		s[len - 1] = '\0';
	if (g_str_has_prefix(s, "Determine whether to "))
		return g_strdup(s + strlen("Determine whether to "));
	if (g_str_has_prefix(s, "Determine whether ") &&
	    (can = strstr(s, " can ")) != NULL) {
		const char *who = s + strlen("Determine whether ");

		return g_strdup_printf("allow %.*s to %s", (int)(can - who), who, can + 5);
	}
	if (s[0] && g_ascii_isupper(s[0]) && !g_ascii_isupper(s[1]))
		s[0] = g_ascii_tolower(s[0]);
	return g_steal_pointer(&s);
}

/*
 * "a on, b off and c on": the alternative's settings, the words in the
 * reader's language (the names are the policy's)
 */
static AdMsg *settings_msg(GPtrArray *alt)
{
	AdMsg *m = ad_msg_new();

	for (guint j = 0; j < alt->len; j++) {
		AdBoolSetting *b = g_ptr_array_index(alt, j);

		if (j + 1 == alt->len && j)
			ad_msg_add(m, N_(" and "));
		else if (j)
			ad_msg_add_text(m, ", ");
		ad_msg_add_text(m, b->name);
		ad_msg_add_text(m, " ");
		ad_msg_add(m, b->value ? N_("on") : N_("off"));
	}
	return m;
}

/* Does the alternative turn any boolean off? */
static gboolean turns_off(GPtrArray *alt)
{
	for (guint j = 0; j < alt->len; j++)
		if (!((AdBoolSetting *)g_ptr_array_index(alt, j))->value)
			return TRUE;
	return FALSE;
}

/*
 * An alternative that turns a boolean off: the boolean is on because it
 * protects something (refpolicy's authlogin_pam: "If disabled, read access
 * /etc/shadow is allowed for domains that normally use PAM"), so turning
 * it off loosens the policy for every domain it covers.  It is offered
 * last, never green, with what each boolean is for.
 */
static AdSuggestion *off_suggestion(GPtrArray *alt, AdPluginEnv *ctx, gboolean partial)
{
	AdSuggestion *s = ad_suggestion_new("boolean", AD_FIX_BOOLEAN, partial ? 0.1 : 0.2,
					    AD_LEVEL_YELLOW);
	g_autoptr(GString) names = g_string_new(NULL);
	g_autoptr(AdMsg) descs = ad_msg_new();
	g_auto(GStrv) cmd = ad_boolean_argv(alt);

	for (guint j = 0; j < alt->len; j++) {
		AdBoolSetting *b = g_ptr_array_index(alt, j);
		const char *desc = ad_policy_bool_description(ctx->policy, b->name);

		if (b->value)
			continue;
		if (names->len)
			g_string_append(names, ", ");
		g_string_append(names, b->name);
		if (desc) {
			g_autofree char *d = g_strstrip(g_strdup(desc));

			if (!ad_msg_is_empty(descs))
				ad_msg_add_text(descs, " ");
			/*
			 * TRANSLATORS: a boolean and what the policy's documentation
			 * says of it (in the policy's language, quoted as it is)
			 */
			ad_msg_add(descs, N_("%s: \"%s\""), b->name, d);
		}
	}
	ad_suggestion_set_if(s, N_("If you no longer need what %s protects"), names->str);
	if (!ad_msg_is_empty(descs)) {
		ad_suggestion_set_then(s, N_("Then you could turn %s, but that loosens the policy "
					    "for every domain the boolean covers, not only this "
					    "one; prefer the other suggestions. What the policy says "
					    "of it: %s"), "", "");
		ad_suggestion_then_arg(s, 1, g_steal_pointer(&descs));
	} else {
		ad_suggestion_set_then(s, N_("Then you could turn %s, but that loosens the policy "
					    "for every domain the boolean covers, not only this "
					    "one; prefer the other suggestions, and read what the "
					    "boolean is for first (semanage boolean -l)."), "");
	}
	ad_suggestion_then_arg(s, 0, settings_msg(alt));
	ad_suggestion_add_argv(s, (const char *const *)cmd);
	return s;
}

static int analyze_boolean(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	if (!v->booleans || !v->booleans->len)
		return 0;
	if (v->reason != AD_REASON_BOOLEAN && !v->booleans_partial)
		return 0;
	for (guint i = 0; i < v->booleans->len; i++) {
		GPtrArray *alt = g_ptr_array_index(v->booleans, i);
		/* a boolean the policy ships for exactly this access ranks above a module */
		double conf = MAX(0.9 - 0.1 * i - 0.05 * (alt->len - 1), 0.3);
		g_autoptr(AdSuggestion) s = NULL;
		g_autoptr(AdMsg) what = ad_msg_new();
		g_auto(GStrv) cmd = ad_boolean_argv(alt);

		if (turns_off(alt)) {
			g_ptr_array_add(ret, off_suggestion(alt, ctx, v->booleans_partial));
			continue;
		}
		s = ad_suggestion_new("boolean", AD_FIX_BOOLEAN,
				      v->booleans_partial ? conf / 2 : conf, AD_LEVEL_GREEN);

		for (guint j = 0; j < alt->len; j++) {
			AdBoolSetting *b = g_ptr_array_index(alt, j);
			const char *desc = ad_policy_bool_description(ctx->policy, b->name);

			if (desc && b->value) {
				/* the policy's own words, in its language */
				g_autofree char *l = lower_first(desc);

				if (!ad_msg_is_empty(what))
					ad_msg_add(what, N_("; and "));
				ad_msg_add_text(what, l);
			}
		}
		if (!ad_msg_is_empty(what)) {
			ad_suggestion_set_if(s, N_("If you want to %s"), "");
			ad_suggestion_if_arg(s, 0, g_steal_pointer(&what));
		} else {
			ad_suggestion_set_if(s, N_("If you want to allow this access"));
		}
		if (v->booleans_partial)
			ad_suggestion_set_then(s, N_("Then turn %s. This allows only part of the "
						    "access; the rest needs a policy change."), "");
		else if (alt->len > 1)
			ad_suggestion_set_then(s, N_("Then turn %s: the policy allows this access "
						    "only when all of them are set."), "");
		else
			ad_suggestion_set_then(s, N_("Then turn %s."), "");
		ad_suggestion_then_arg(s, 0, settings_msg(alt));
		ad_suggestion_add_argv(s, (const char *const *)cmd);
		g_ptr_array_add(ret, g_steal_pointer(&s));
	}
	return 1;
}

const AdPlugin ad_plugin_boolean = {
	.id = "boolean",
	.priority = 80,
	.analyze = analyze_boolean,
};
