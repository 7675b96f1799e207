// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * permissive: the record says permissive=1, so nothing was blocked: the
 * whole system was in permissive mode, or the domain is a permissive
 * type.  The other suggestions still say what enforcing mode would need;
 * this one, with a low confidence so that it never outranks them, says
 * why the program did not fail (audit2allow ignores the flag).
 */
#include <glib/gi18n.h>

#include "plugins.h"

static int analyze_permissive(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			      GPtrArray *ret)
{
	g_autofree char *stype = NULL;
	AdSuggestion *s;

	if (d->granted || d->permissive != 1)
		return 0;
	stype = ad_denial_stype(d);
	s = ad_note_new("permissive", 0.15);
	/* without a type: "the domain", in the reader's language */
	ad_suggestion_set_if(s, N_("If you wonder why %s did not fail"),
			     stype ? stype : N_("the domain"));
	if (!stype)
		ad_suggestion_if_arg_msgid(s, 0);
	ad_suggestion_set_then(s, N_("Then know that nothing was blocked: SELinux was permissive "
				    "for this access (permissive=1) and only logged it. Either "
				    "the whole system was in permissive mode (getenforce tells) "
				    "or %s is a permissive domain (semanage permissive -l lists "
				    "them). In enforcing mode the access would be denied and the "
				    "program could fail: the suggestions above say what would "
				    "allow it then."), stype ? stype : N_("the domain"));
	if (!stype)
		ad_suggestion_then_arg_msgid(s, 0);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_permissive = {
	.id = "permissive",
	.priority = 1,
	.analyze = analyze_permissive,
};
