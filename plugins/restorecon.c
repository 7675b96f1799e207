// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * restorecon: the target file's label is not the one file_contexts gives
 * its path, and the domain may do what it asked on the expected label:
 * `restorecon -v -- PATH`.  When the label already matches, says so
 * instead (setroubleshoot offered a relabel whatever the label was, also
 * after the user had run it).  Unlabeled targets are the file plugin's.
 * Whatever the verdict: a label that is not file_contexts' is a mislabel
 * also when the policy hides the access (dontaudit) or allows it now.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "file-labels.h"
#include "plugins.h"

/* the booleans of the verdict's first alternative, "a and b"; owned */
static char *first_booleans(const AdVerdict *v)
{
	g_autoptr(GString) s = g_string_new(NULL);
	GPtrArray *alt = v->booleans && v->booleans->len ? g_ptr_array_index(v->booleans, 0) : NULL;

	for (guint i = 0; alt && i < alt->len; i++) {
		AdBoolSetting *b = g_ptr_array_index(alt, i);

		if (s->len)
			g_string_append(s, i + 1 == alt->len ? _(" and ") : ", ");
		g_string_append_printf(s, "%s=%d", b->name, b->value ? 1 : 0);
	}
	return g_string_free(g_steal_pointer(&s), FALSE);
}

static int analyze_restorecon(const AdDenial *d, const AdVerdict *v, AdContext *ctx, GPtrArray *ret)
{
	g_autofree char *path = NULL, *shown = NULL, *stype = NULL, *ttype = NULL;
	g_autofree char *expected = NULL;
	g_autoptr(AdSuggestion) s = NULL;
	const AdVerdict *after;
	gboolean dir, customizable, unknown;
	double conf;
	AdLevel level;

	/*
	 * systemd checks a unit by its file's label (class service, USER_AVC
	 * with path=): a unit file with the wrong label is a file like any other
	 */
	if ((d->type != AD_DENIAL_AVC && g_strcmp0(d->tclass, "service") != 0) || !ctx->labels ||
	    !d->perms || !d->perms->len)
		return 0;
	/* relabelto names the new label, not the file's; create: the file is not there yet */
	if (ad_denial_has_any_perm(d, (const char *const[]){"relabelto", "create", NULL}))
		return 0;
	stype = ad_denial_stype(d);
	ttype = ad_denial_ttype(d);
	if (!stype || !ttype || strcmp(ttype, "unlabeled_t") == 0 || strcmp(ttype, "file_t") == 0)
		return 0;
	/* a domain this policy lacks: the log is from a system with another policy */
	if (!ad_policy_has_type(ctx->policy, stype))
		return 0;
	unknown = !ad_policy_has_type(ctx->policy, ttype);
	if (!(path = ad_file_denial_path(d)) || ad_file_on_labelless_fs(ctx, d, ttype))
		return 0;
	expected = ad_labels_expected_type(ctx->labels, path, ad_class_to_mode(d->tclass));
	if (!expected || !ad_policy_has_type(ctx->policy, expected))
		return 0;
	shown = ad_file_display(path);
	if (strcmp(expected, ttype) == 0) {
		/* say so: a relabel is what users try first, and it would change nothing */
		s = ad_note_new("restorecon", 0.05);
		ad_suggestion_set_if(s, _("If you thought of relabeling %s"), shown);
		ad_suggestion_set_then(s,
			_("Then know that its label %s is already the one "
			  "file_contexts gives it: restorecon would not change "
			  "anything. The label is not the problem."),
			ttype);
		g_ptr_array_add(ret, g_steal_pointer(&s));
		return 1;
	}
	dir = strcmp(d->tclass, "dir") == 0 && strcmp(path, "/") != 0;
	customizable = ad_labels_is_customizable(ctx->labels, ttype) ||
		       ad_labels_is_customizable(ctx->labels, expected);
	after = ad_file_verdict_as(ctx, d, expected);
	switch (after->reason) {
	case AD_REASON_ALLOWED:
		conf = 0.92;
		level = AD_LEVEL_GREEN;
		break;
	case AD_REASON_BOOLEAN:
		conf = 0.6;
		level = AD_LEVEL_GREEN;
		break;
	case AD_REASON_UNKNOWN_PERMISSION:
	case AD_REASON_UNKNOWN_CLASS:
		conf = 0.5;
		level = AD_LEVEL_YELLOW;
		break;
	default:
		conf = 0.25;
		level = AD_LEVEL_YELLOW;
		break;
	}
	if (customizable || unknown)
		conf = MIN(conf, 0.5);
	s = ad_suggestion_new("restorecon", AD_FIX_RELABEL, conf, level);
	ad_suggestion_set_new_type(s, expected);	/* what the proof tries */
	ad_suggestion_set_if(s,
		_("If you want to fix the label: %s is labeled %s, but "
		  "file_contexts says %s"),
		shown, ttype, expected);
	{
		g_autoptr(GString) then = g_string_new(NULL);

		g_string_append_printf(then, _("Then restore the default label with restorecon%s."),
			dir ? _(" (the directory and everything in it)") : "");
		switch (after->reason) {
		case AD_REASON_ALLOWED:
			g_string_append_printf(then,
				_(" %s may do this on %s files, so this "
				  "fixes the denial."),
				stype, expected);
			break;
		case AD_REASON_BOOLEAN: {
			g_autofree char *bools = first_booleans(after);

			g_string_append_printf(then,
				_(" Even with the label %s, %s needs %s for "
				  "this access."),
				expected, stype, *bools ? bools : _("a boolean"));
			break;
		}
		case AD_REASON_UNKNOWN_PERMISSION:
		case AD_REASON_UNKNOWN_CLASS:
			g_string_append_printf(then,
				_(" Whether %s may do this on %s could not "
				  "be checked (%s)."),
				stype, expected,
				after->detail ? after->detail : ad_reason_name(after->reason));
			break;
		default:
			g_string_append_printf(then,
				_(" But %s may not do this on %s either "
				  "(%s): the label is wrong, yet relabeling alone "
				  "will not stop this denial."),
				stype, expected, ad_reason_name(after->reason));
			break;
		}
		if (unknown)
			g_string_append_printf(then,
				_(" The current label %s is not defined in "
				  "this policy: the policy module that defined "
				  "it was removed, or the log comes from a "
				  "system with another policy, whose "
				  "file_contexts may differ."),
				ttype);
		if (ad_labels_is_customizable(ctx->labels, ttype))
			g_string_append_printf(then,
				_(" %s is a customizable type: restorecon leaves "
				  "it alone unless forced (-F), and someone may "
				  "have set it on purpose."),
				ttype);
		else if (customizable)
			g_string_append_printf(then,
				_(" %s is a customizable type, one administrators "
				  "set by hand where they want it: check that this "
				  "file should have it."),
				expected);
		ad_suggestion_set_then(s, "%s", then->str);
	}
	{
		const char *argv[7];
		guint n = 0;

		argv[n++] = "restorecon";
		if (dir)
			argv[n++] = "-R";
		if (ad_labels_is_customizable(ctx->labels, ttype))
			argv[n++] = "-F";
		argv[n++] = "-v";
		argv[n++] = "--";
		argv[n++] = path;
		argv[n] = NULL;
		ad_suggestion_add_argv(s, argv);
	}
	g_ptr_array_add(ret, g_steal_pointer(&s));
	return 1;
}

const AdPlugin ad_plugin_restorecon = {
	.id = "restorecon",
	.priority = 100,
	/* allowed now or hidden by the policy: nothing to fix (catchall says so) */
	.classes = AD_NAMES("file", "dir", "lnk_file", "chr_file", "blk_file", "sock_file",
			    "fifo_file", "service"),
	/* whatever the verdict: a mislabel is one also when the access is hidden or allowed */
	.reasons = 0,
	.analyze = analyze_restorecon,
};
