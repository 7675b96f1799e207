// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dac_override: a process running as root was refused a file by its
 * owner and mode bits and asked for the capability to ignore them
 * (capability dac_override or dac_read_search), which SELinux denied.
 * Almost always the file's owner or mode is wrong, or the program should
 * not touch the file at all: granting the capability would let the domain
 * bypass every file permission.  The capability check names no file, so
 * the advice is how to find it: with any audit rule loaded the kernel
 * adds the syscall's PATH records to the next denial.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "escape.h"
#include "plugins.h"

/* a watch that enables syscall auditing, tagged so that it is easy to remove */
#define AD_WATCH_FILE "/etc/shadow"
#define AD_WATCH_KEY "avcdoctor-path"

/*
 * A file the event names besides the capability record: another denial's
 * name= or a PATH record's name (the syscall's file, when full auditing
 * was on).  Display form, owned; NULL when there is none.
 */
static char *event_file_name(const AdDenial *d)
{
	for (guint i = 0; i < d->event->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(d->event->records, i);
		AdBytes name = AD_BYTES_NONE;

		if (rec == d->record)
			continue;
		if (rec->type == AD_REC_PATH &&
		    g_strcmp0(ad_record_get(rec, "nametype"), "PARENT") != 0)
			name = ad_record_bytes(rec, "name");
		else if (rec->type == AD_REC_AVC)
			name = ad_record_bytes(rec, "name");
		if (!name.len || (name.len == 1 && name.data[0] == '/'))
			continue;
		return ad_escape_bytes(name.data, name.len);
	}
	return NULL;
}

static int analyze_dac_override(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
				GPtrArray *ret)
{
	g_autofree char *stype = NULL, *path = NULL, *shown = NULL, *named = NULL;
	g_autoptr(AdMsg) then = ad_msg_new();
	const char *cap;
	gboolean read_search;
	AdSuggestion *s;
	AdMsg *m;

	cap = ad_denial_has_perm(d, "dac_override") ? "dac_override" : "dac_read_search";
	stype = ad_denial_stype(d);
	if (!stype)
		return 0;
	read_search = strcmp(cap, "dac_read_search") == 0;
	path = ad_denial_path_str(d);
	if (path)
		shown = ad_bytes_are_clean(path, strlen(path)) ? g_strdup(path)
							       : ad_escape_str(path);

	s = ad_suggestion_new("dac_override", AD_FIX_CONFIG,
			      v->reason == AD_REASON_TE_RULE ? 0.6 : 0.3, AD_LEVEL_GREEN);
	ad_suggestion_set_if(s, N_("If you want to know why %s needed %s"), stype, cap);
	if (path) {
		m = ad_msg_new();
		ad_msg_add(m, N_("Then check the owner and mode of %s and the "
				 "directories above it: the process (usually running as "
				 "root) was refused %s by them, and %s would let %s "
				 "ignore file permissions everywhere. Give the file the "
				 "owner or group the program runs as, or the mode it "
				 "needs; the denial then goes away without the "
				 "capability."),
			   shown, read_search ? N_("reading or searching") : N_("access"),
			   cap, stype);
		ad_msg_set_arg(m, 1, NULL);
		ad_suggestion_take_then(s, m);
		ad_suggestion_add_command(s, "ls", "-ld", "--", path, NULL);
	} else {
		ad_msg_add(then, N_("Then find the file: the process (usually running as "
				    "root) was refused %s by a file's owner and mode bits, "
				    "and %s would let %s ignore file permissions "
				    "everywhere."),
			   read_search ? N_("reading or searching") : N_("access"), cap, stype);
		ad_msg_set_arg(then, 0, NULL);
		named = event_file_name(d);
		if (named)
			ad_msg_add(then, N_(" The same event names %s: probably that "
						       "file, or a directory on its path."),
					       named);
		ad_msg_add(then, N_(" The capability record itself names no file; with any "
					"audit rule loaded (the watch below) the kernel adds the "
					"file to the next such denial. Load it, make the program "
					"do the same again, read the new denial's PATH records, "
					"then remove the watch. Usually the file's owner or mode "
					"is wrong: fix that and the capability is not needed."));
		ad_suggestion_take_then(s, g_steal_pointer(&then));
		ad_suggestion_add_command(s, "auditctl", "-w", AD_WATCH_FILE, "-p", "w", "-k",
					  AD_WATCH_KEY, NULL);
		ad_suggestion_add_command(s, "ausearch", "-m", "AVC", "-ts", "recent", "-i", NULL);
		ad_suggestion_add_command(s, "auditctl", "-W", AD_WATCH_FILE, "-p", "w", "-k",
					  AD_WATCH_KEY, NULL);
	}
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_dac_override = {
	.id = "dac_override",
	.priority = 10,
	.classes = AD_NAMES("capability", "cap_userns"),
	.perms = AD_NAMES("dac_override", "dac_read_search"),
	.reasons = AD_REASON_BIT(AD_REASON_TE_RULE) | AD_REASON_BIT(AD_REASON_BOOLEAN) |
		   AD_REASON_BIT(AD_REASON_DONTAUDIT),
	.analyze = analyze_dac_override,
};
