// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mmap_zero: a process tried to map the lowest pages of memory
 * (memprotect { mmap_zero }).  Kernel NULL-pointer exploits start this
 * way, so this is a possible attack, unless the policy itself foresees it
 * for the domain: Wine running 16-bit programs and vbetool calling the
 * video BIOS do it, and refpolicy lets them when mmap_low_allowed is on
 * (the verdict's booleans) and has a "<domain>_mmap_zero_ignore" boolean
 * (wine_mmap_zero_ignore, vbetool_mmap_zero_ignore) that silences it.
 * Both are looked up in the loaded policy, never assumed.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

/* "wine_mmap_zero_ignore" for wine_t when this policy has it; owned, NULL otherwise */
static char *ignore_boolean(AdPolicy *p, const char *stype)
{
	gsize len = strlen(stype);
	g_autofree char *name = NULL;

	if (len > 2 && g_str_has_suffix(stype, "_t"))
		len -= 2;
	name = g_strdup_printf("%.*s_mmap_zero_ignore", (int)len, stype);
	return ad_policy_bool_value(p, name) >= 0 ? g_steal_pointer(&name) : NULL;
}

static int analyze_mmap_zero(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			     GPtrArray *ret)
{
	g_autofree char *stype = NULL, *ignore = NULL;
	gboolean foreseen;
	AdSuggestion *s;

	stype = ad_denial_stype(d);
	if (!stype)
		return 0;
	ignore = ignore_boolean(ctx->policy, stype);
	foreseen = ignore || (v->booleans && v->booleans->len) ||
		   v->reason == AD_REASON_DONTAUDIT;

	if (!foreseen) {
		s = ad_suggestion_new("mmap_zero", AD_FIX_ATTACK, 0.7, AD_LEVEL_RED);
		ad_suggestion_set_if(s, N_("If you do not know why %s would map the lowest page of "
					  "memory"), stype);
		ad_suggestion_set_then(s, N_("Then treat this as a possible attack: mapping address "
					    "zero is the first step of exploiting a NULL pointer "
					    "bug in the kernel, and this policy foresees it for no "
					    "use of %s. Find out what ran (the command line, the "
					    "executable, its parent), check the system, and do not "
					    "allow it."), stype);
		g_ptr_array_add(ret, s);
		return 1;
	}

	/* a domain the policy knows to need low memory: explain, offer to silence it */
	/* with no boolean that keeps it denied quietly, what is left to say is a fact */
	s = ignore ? ad_suggestion_new("mmap_zero", AD_FIX_DONTAUDIT, 0.5, AD_LEVEL_GREEN)
		   : ad_note_new("mmap_zero", 0.5);
	ad_suggestion_set_if(s, N_("If %s is expected to map low memory (Wine running 16-bit "
				  "programs, vbetool calling the video BIOS)"), stype);
	if (ignore) {
		ad_suggestion_set_then(s, N_("Then the denial does no harm unless the program "
					    "fails: the policy lets %s map low memory only when a "
					    "boolean allows it (also offered here), which also lets a "
					    "kernel NULL pointer bug be exploited from it. To keep "
					    "it denied and stop this alert, turn %s on."), stype,
				       ignore);
		{
			g_autofree char *arg = g_strdup_printf("%s=1", ignore);

			ad_suggestion_add_command(s, "setsebool", "-P", arg, NULL);
		}
	} else {
		ad_suggestion_set_then(s, N_("Then the policy foresees this for %s: a boolean "
					    "allows it (see above), at the price of letting a "
					    "kernel NULL pointer bug be exploited from it. Leave "
					    "it off unless the program fails."), stype);
	}
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_mmap_zero = {
	.id = "mmap_zero",
	.priority = 10,
	.classes = AD_NAMES("memprotect"),
	.perms = AD_NAMES("mmap_zero"),
	.reasons = AD_REASONS_RULE | AD_REASON_BIT(AD_REASON_DONTAUDIT),
	.analyze = analyze_mmap_zero,
};
