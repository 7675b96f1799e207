// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * restorecon_source: the program that was denied is itself mislabeled: its
 * label is not the one file_contexts gives its path, and a program's label
 * decides the domain it runs in.  The program's current label comes from
 * the event (a PATH record for the executable with obj=, as execve events
 * have) or, when the log is from this host, from the file now
 * (lgetfilecon: a stat()-like check).  Without either nothing is guessed.
 * Whatever the verdict, dontaudit included: the mislabel is the finding.
 */
#include <string.h>
#include <sys/stat.h>

#include <selinux/selinux.h>
#include <glib/gi18n.h>

#include "file-labels.h"
#include "plugins.h"

/* obj= of the event's PATH record naming @exe (absolute, or relative to cwd); owned */
static char *exe_context_from_event(const AdDenial *d, const char *exe)
{
	const AdRecord *cwd_rec = ad_event_find_record(d->event, AD_REC_CWD);
	AdBytes cwd = cwd_rec ? ad_record_bytes(cwd_rec, "cwd") : AD_BYTES_NONE;

	for (guint i = 0; i < d->event->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(d->event->records, i);
		g_autofree char *full = NULL, *clean = NULL;
		const char *obj;
		AdBytes name;

		if (rec->type != AD_REC_PATH || !(obj = ad_record_get(rec, "obj")))
			continue;
		name = ad_record_bytes(rec, "name");
		if (!name.len || memchr(name.data, '\0', name.len))
			continue;
		if (name.data[0] == '/') {
			full = g_strndup(name.data, name.len);
		} else if (cwd.data) {
			if (memchr(cwd.data, '\0', cwd.len))
				continue;
			full = g_strdup_printf("%.*s/%.*s", (int)cwd.len, cwd.data, (int)name.len,
					       name.data);
		} else {
			continue;
		}
		clean = ad_file_clean_path(full);
		if (clean && strcmp(clean, exe) == 0)
			return g_strdup(obj);
	}
	return NULL;
}

/* the file's label on this host now; owned, NULL when it cannot be read */
static char *exe_context_from_host(const char *exe)
{
	char *con = NULL;
	char *ret;

	if (lgetfilecon(exe, &con) < 0 || !con)
		return NULL;
	ret = g_strdup(con);
	freecon(con);
	return ret;
}

static int analyze_restorecon_source(
	const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	g_autofree char *raw = NULL, *exe = NULL, *con = NULL, *cur = NULL, *expected = NULL;
	g_autofree char *stype = NULL, *shown = NULL, *entry_con = NULL;
	g_autoptr(AdSuggestion) s = NULL;
	AdMsg *m;
	static const char *const entrypoint[] = {"entrypoint"};
	gboolean from_host = FALSE, same_domain;
	const AdVerdict *entry;
	gsize len = d->exe.len;
	const char *e = d->exe.data;

	/* a container's program: exe= is the container's path */
	if (!ctx->labels || !d->exe.data || !d->event || !d->scontext ||
	    ad_denial_in_container(ctx, d))
		return 0;
	if (!len || memchr(e, '\0', len))
		return 0;
	raw = g_strndup(e, len);
	if (!(exe = ad_file_clean_path(raw)))
		return 0;
	con = exe_context_from_event(d, exe);
	if (!con && ctx->local) {
		con = exe_context_from_host(exe);
		from_host = con != NULL;
	}
	if (!con || !(cur = ad_context_type(con)))
		return 0;
	expected = ad_labels_expected_type(ctx->labels, exe, S_IFREG);
	if (!expected || strcmp(expected, cur) == 0 || !ad_policy_has_type(ctx->policy, expected))
		return 0;
	stype = ad_denial_stype(d);
	if (!stype || !ad_policy_has_type(ctx->policy, stype))
		return 0; /* the log is from a system with another policy */
	/* would the program still run as this domain with its right label? */
	entry_con = ad_file_context_with_type(con, expected);
	entry = entry_con ? ad_policy_explain(
				    ctx->policy, d->scontext, entry_con, "file", entrypoint, 1)
			  : NULL;
	same_domain = entry && entry->reason == AD_REASON_ALLOWED;
	shown = ad_file_display(exe);
	s = ad_suggestion_new("restorecon_source", AD_FIX_RELABEL, same_domain ? 0.3 : 0.8,
		same_domain ? AD_LEVEL_YELLOW : AD_LEVEL_GREEN);
	m = ad_msg_new();
	ad_msg_add(m, N_("If you want to fix the label of the program %s: it is "
			 "labeled %s%s, but file_contexts says %s"),
		   shown, cur, from_host ? N_(" on this host now") : "", expected);
	if (from_host)
		ad_msg_set_arg(m, 2, NULL);
	ad_suggestion_take_if(s, m);
	if (same_domain)
		ad_suggestion_set_then(s,
			N_("Then restore its default label. %s may run %s "
			  "programs too, so the relabel may not change this "
			  "denial."),
			stype, expected);
	else
		ad_suggestion_set_then(s,
			N_("Then restore its default label: a program's label "
			  "decides the domain it runs in, and with the label %s "
			  "it runs as %s, which is likely why it was denied."),
			cur, stype);
	if (ad_labels_is_customizable(ctx->labels, cur))
		ad_suggestion_add_command(s, "restorecon", "-F", "-v", "--", exe, NULL);
	else
		ad_suggestion_add_command(s, "restorecon", "-v", "--", exe, NULL);
	g_ptr_array_add(ret, g_steal_pointer(&s));
	return 1;
}

const AdPlugin ad_plugin_restorecon_source = {
	.id = "restorecon_source",
	.priority = 100,
	/* whatever the verdict: a mislabel is one also when the access is hidden or allowed */
	.reasons = 0,
	.analyze = analyze_restorecon_source,
};
