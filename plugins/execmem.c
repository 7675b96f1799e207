// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execmem: a process asked for memory that is writable and executable at
 * once (process { execmem execstack execheap }).  Just-in-time compilers
 * need execmem, programs or libraries built by mistake with an executable
 * stack need execstack, nothing legitimate needs execheap; injected code
 * needs all three.  One plugin for the three: they are one question
 * ("should this program write code into memory and run it?") and often
 * come together in one record.
 *
 * The policy's booleans for the access come from the verdict (allow_execmem,
 * allow_execstack && allow_execmem for user domains, httpd_execmem, ...):
 * the boolean plugin offers them; this plugin says what they weaken, and
 * what to do instead.  Nothing is run: setroubleshoot's `execstack -q`
 * and /proc/PID/maps reading are not repeated.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

/*
 * "allow_execstack is on and allow_execmem is on, or ...": every
 * alternative, a message in the reader's language; owned
 */
static AdMsg *alternatives_msg(const AdVerdict *v)
{
	AdMsg *m = ad_msg_new();

	for (guint i = 0; v->booleans && i < v->booleans->len; i++) {
		GPtrArray *alt = g_ptr_array_index(v->booleans, i);

		if (i)
			ad_msg_add(m, N_(", or "));
		for (guint j = 0; j < alt->len; j++) {
			AdBoolSetting *b = g_ptr_array_index(alt, j);

			if (j)
				ad_msg_add(m, N_(" and "));
			if (b->value)
				ad_msg_add(m, N_("%s is on"), b->name);
			else
				ad_msg_add(m, N_("%s is off"), b->name);
		}
	}
	return m;
}

static int analyze_execmem(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			   GPtrArray *ret)
{
	gboolean stack = ad_denial_has_perm(d, "execstack");
	gboolean heap = ad_denial_has_perm(d, "execheap");
	g_autofree char *stype = NULL;
	g_autoptr(AdMsg) then = ad_msg_new();
	gboolean has_bools;
	AdSuggestion *s;

	stype = ad_denial_stype(d);
	if (!stype)
		return 0;
	has_bools = v->booleans && v->booleans->len;

	if (heap)
		ad_msg_add(then, N_("Then report it to the program's developers: making the "
					"heap executable is never needed by a correctly written "
					"program, and it is how injected code is run."));
	else if (stack)
		ad_msg_add(then, N_("Then report it to the developers of the program or of the "
					"library that asks for an executable stack: usually a file "
					"was built by mistake with its stack marked executable (an "
					"assembler source without .note.GNU-stack). Rebuilding "
					"with -Wl,-z,noexecstack, or clearing the flag of the file "
					"(execstack -c FILE, patchelf --clear-execstack FILE), "
					"fixes it without weakening SELinux."));
	else
		ad_msg_add(then, N_("Then report it to the program's developers, unless the "
					"program compiles code at run time (a Java, JavaScript, "
					".NET or Lua JIT, some Python and graphics libraries): "
					"such programs need writable and executable memory."));
	if (has_bools) {
		ad_msg_add(then, N_(" The policy allows it for %s when %s (see above): "
					       "that weakens the protection against code injection "
					       "for every domain the boolean covers."),
				       stype, "");
		ad_msg_set_arg(then, 1, alternatives_msg(v));
	} else {
		ad_msg_add(then, N_(" No boolean of this policy allows it for %s: only "
					       "a local policy module would."), stype);
	}
	ad_msg_add(then, N_(" If this program is not expected to do this, it may have "
				"been compromised: investigate it."));

	/* under a boolean the access is foreseen: rank below the boolean itself */
	s = ad_suggestion_new("execmem", AD_FIX_REPORT_BUG, has_bools ? 0.3 : 0.5,
			      AD_LEVEL_YELLOW);
	if (heap)
		ad_suggestion_set_if(s, N_("If you did not expect %s to make its heap executable "
					  "(execheap)"), stype);
	else if (stack)
		ad_suggestion_set_if(s, N_("If you did not expect %s to need an executable stack "
					  "(execstack)"), stype);
	else
		ad_suggestion_set_if(s, N_("If you did not expect %s to need writable and "
					  "executable memory (execmem)"), stype);
	ad_suggestion_take_then(s, g_steal_pointer(&then));
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_execmem = {
	.id = "execmem",
	.priority = 10,
	.classes = AD_NAMES("process"),
	.perms = AD_NAMES("execmem", "execstack", "execheap"),
	.reasons = AD_REASON_BIT(AD_REASON_TE_RULE) | AD_REASON_BIT(AD_REASON_BOOLEAN),
	.analyze = analyze_execmem,
};
