/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reason engine on fuzzed names: the input is four lines, scontext,
 * tcontext, class and space-separated permissions, explained against the
 * real policy (loaded once; $AD_FUZZ_POLICY or Debian's policy.33).  Both
 * contexts also go through ad_policy_context_problem().  A verdict must
 * always come back, with a reason in range.
 */
#include <string.h>

#include "policy/policy.h"
#include "fuzz-common.h"

#define MAX_PERMS 64

static AdPolicy *policy;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = g_getenv("AD_FUZZ_POLICY");
	g_autoptr(GError) error = NULL;

	ad_fuzz_quiet();
	if (!path)
		path = "/etc/selinux/default/policy/policy.33";
	policy = ad_policy_load(path, &error);
	if (!policy) {
		fprintf(stderr, "fuzz-policy: cannot load %s: %s\n", path, error->message);
		exit(1);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *text = g_strndup((const char *)data, size);
	g_auto(GStrv) part = g_strsplit(text, "\n", 4);
	const char *f[4] = { "", "", "", "" };
	g_auto(GStrv) perms = NULL;
	const char *pv[MAX_PERMS];
	guint n = 0;
	const AdVerdict *v;

	for (guint i = 0; i < 4 && part[i]; i++)
		f[i] = part[i];
	perms = g_strsplit(f[3], " ", MAX_PERMS + 1);
	for (guint i = 0; perms[i] && n < MAX_PERMS; i++)
		if (*perms[i])
			pv[n++] = perms[i];

	v = ad_policy_explain(policy, f[0], f[1], f[2], pv, n);
	if (!v)
		ad_fuzz_fail("ad_policy_explain never fails", text, strlen(text));
	if ((unsigned)v->reason > AD_REASON_LAST || !ad_reason_name(v->reason))
		ad_fuzz_fail("verdict reason in range", text, strlen(text));
	/* keep one across another call, as alerts do */
	v = ad_verdict_ref(v);
	g_free(ad_policy_context_problem(policy, f[0]));
	g_free(ad_policy_context_problem(policy, f[1]));
	(void)ad_policy_has_type(policy, f[2]);
	(void)ad_policy_has_perm(policy, f[2], n ? pv[0] : "");
	ad_verdict_unref(v);
	return 0;
}
