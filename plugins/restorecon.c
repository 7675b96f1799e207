// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * restorecon: the target file's label is not the one file_contexts gives
 * its path, and the domain may do what it asked on the expected label:
 * `restorecon -v -- PATH`.  When the label already matches, says so
 * instead (setroubleshoot offered a relabel whatever the label was, also
 * after the user had run it).  Unlabeled targets are the file plugin's.
 * Whatever the verdict: a label that is not file_contexts' is a mislabel
 * also when the policy hides the access (dontaudit) or allows it now.
 *
 * Labels first: when the restored label does not allow the access either,
 * what else is needed is worked out on the restored label, and offered
 * with the relabel as one fix, proved as a whole: restore the label, then
 * turn on the boolean that label needs; or give the file the type next to
 * it that allows the access (httpd_sys_rw_content_t where file_contexts
 * says httpd_sys_content_t and the web server writes); or, last, restore
 * the label and allow the rest with a module on the restored label.  A
 * module on the wrong label is never offered beside these (the host drops
 * it, see ad_analyze_denial()).  Not when file_contexts' label is itself
 * generic (default_t, var_t): restoring it is then no fix.  Nor for a
 * domain running inside a container (ad_denial_in_container()): its
 * record's path is the container's view, which restorecon on the host
 * would miss or, worse, find elsewhere; the container rules say :Z.
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

/* restorecon [-R] [-F] -v -- PATH */
static void add_restorecon(AdSuggestion *s, AdPluginEnv *ctx, const char *path, gboolean dir,
			   const char *ttype)
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

/* "write,open": the permissions as `allow --perm` takes them */
static char *perm_list(const AdDenial *d)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < d->perms->len; i++)
		g_string_append_printf(s, "%s%s", i ? "," : "",
				       (char *)g_ptr_array_index(d->perms, i));
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* a fix that restores file_contexts' label @expected first, proved with what follows it */
static AdSuggestion *restored_combo(AdFixKind kind, double confidence, AdLevel level,
				    const char *shown, const char *ttype, const char *expected)
{
	AdSuggestion *s = ad_suggestion_new("restorecon", kind, confidence, level);

	ad_suggestion_set_new_type(s, expected);
	/* restoring file_contexts' label opens what the policy means it for: the rest counts */
	s->base_type = g_strdup(expected);
	ad_suggestion_set_if(s, N_("If you want to fix the label: %s is labeled %s, but "
				  "file_contexts says %s"), shown, ttype, expected);
	return s;
}

/* restore the label, then turn on the booleans the restored label needs */
static AdSuggestion *relabel_then_boolean(AdPluginEnv *ctx,
					  const AdVerdict *after, const char *path, gboolean dir,
					  const char *stype,
					  const char *ttype, const char *expected, const char *shown)
{
	GPtrArray *alt = g_ptr_array_index(after->booleans, 0);
	g_autofree char *bools = first_booleans(after);
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();
	g_auto(GStrv) argv = NULL;
	AdSuggestion *s = restored_combo(AD_FIX_RELABEL, 0.8, AD_LEVEL_GREEN, shown, ttype,
					 expected);

	ad_suggestion_set_then(s, N_("Then restore the default label with restorecon%s, and set "
				    "%s: on %s files, that is what %s needs for this access. "
				    "Allowing it on %s instead would open it on every file "
				    "carrying that wrong label."),
			       dir ? N_(" (the directory and everything in it)") : "", bools,
			       expected, stype, ttype);
	ad_suggestion_then_arg_msgid(s, 0);
	add_restorecon(s, ctx, path, dir, ttype);
	g_strv_builder_add_many(b, "setsebool", "-P", NULL);
	for (guint i = 0; i < alt->len; i++) {
		AdBoolSetting *bs = g_ptr_array_index(alt, i);
		g_autofree char *arg = g_strdup_printf("%s=%d", bs->name, bs->value ? 1 : 0);

		g_strv_builder_add(b, arg);
	}
	argv = g_strv_builder_end(b);
	ad_suggestion_add_argv(s, (const char *const *)argv);
	return s;
}

/*
 * The type next to file_contexts' one that allows the access: a candidate
 * sharing its first words with the expected type, or else the domain's
 * name (httpd_sys_rw_content_t for httpd_sys_content_t); NULL when there is
 * none.  Owned.
 */
static char *nearby_type(const AdDenial *d, AdPluginEnv *ctx, const char *stype, const char *path,
			 const char *expected)
{
	g_autoptr(GPtrArray) cands = ad_file_candidates(ctx, d, stype, path, NULL);
	const char *best = NULL;
	/* the domain's word and one more: httpd_sys_*, not any httpd_* type */
	guint best_words = 1;

	for (guint i = 0; cands && i < cands->len; i++) {
		const char *c = g_ptr_array_index(cands, i);
		guint w = ad_file_common_words(expected, c);

		if (w > best_words) {
			best = c;
			best_words = w;
		}
	}
	return g_strdup(best);
}

/* a file context giving the object (a directory: and what it holds) the type @type */
static AdSuggestion *nearby_fcontext(const AdDenial *d, AdPluginEnv *ctx, const char *type,
				     const char *path, gboolean dir, const char *stype,
				     const char *ttype, const char *expected, const char *shown)
{
	g_autofree char *spec = NULL;
	g_autofree char *perms = ad_file_perm_words(d);
	AdSuggestion *s;

	/* never a whole standard directory (/var/www, /etc) */
	if (ad_path_is_standard_dir(path) || !(spec = ad_labels_fcontext_spec(ctx->labels, path, dir)))
		return NULL;
	s = ad_suggestion_new("restorecon", AD_FIX_FCONTEXT, 0.7, AD_LEVEL_GREEN);
	/* it would be open to what file_contexts' label opens it to anyway */
	s->base_type = g_strdup(expected);
	ad_suggestion_set_if(s, N_("If %s should have %s access on %s"), stype, perms, shown);
	ad_suggestion_if_arg(s, 1, ad_file_perm_words_msg(d));
	ad_suggestion_set_then(s, N_("Then label it %s with a file context and restorecon. Its "
				    "label %s is not the one file_contexts gives it (%s), and %s "
				    "may not do this on %s files either; %s, the type next to it, "
				    "is the one for this access."),
			       type, ttype, expected, stype, expected, type);
	ad_suggestion_add_command(s, "semanage", "fcontext", "-a", "-t", type, "--", spec, NULL);
	if (dir)
		ad_suggestion_add_command(s, "restorecon", "-R", "-v", "--", path, NULL);
	else
		ad_suggestion_add_command(s, "restorecon", "-v", "--", path, NULL);
	return s;
}

/* restore the label, then a local module for what the restored label lacks */
static AdSuggestion *relabel_then_module(const AdDenial *d, AdPluginEnv *ctx, const char *path,
					 gboolean dir, const char *stype, const char *ttype,
					 const char *expected, const char *shown)
{
	g_autofree char *name = ad_module_name(d, "");
	g_autofree char *pp = g_strdup_printf("%s.pp", name);
	g_autofree char *perms = perm_list(d);
	g_autofree char *words = ad_file_perm_words(d);
	AdSuggestion *s = restored_combo(AD_FIX_MODULE, 0.2, AD_LEVEL_YELLOW, shown, ttype,
					 expected);

	ad_suggestion_set_then(s, N_("Then restore the default label with restorecon%s first. %s "
				    "may not %s %s files either: if it should, run the program "
				    "again after the relabel and allow what is still denied with "
				    "a local policy module on %s (check what it allows before "
				    "loading it), and report it as a bug. A module on %s would "
				    "open every file carrying that wrong label."),
			       dir ? N_(" (the directory and everything in it)") : "", stype, words,
			       expected, expected, ttype);
	ad_suggestion_then_arg_msgid(s, 0);
	add_restorecon(s, ctx, path, dir, ttype);
	ad_suggestion_add_command(s, "avcdoctor", "allow", "--source", stype, "--target", expected,
				  "--class", d->tclass, "--perm", perms, "--verify", "-M", name,
				  "--", AD_DEFAULT_AUDIT_LOG, NULL);
	ad_suggestion_add_command(s, "semodule", "-X", "300", "-i", pp, NULL);
	return s;
}

static int analyze_restorecon(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
			      GPtrArray *ret)
{
	g_autofree char *path = NULL, *shown = NULL, *stype = NULL, *ttype = NULL;
	g_autofree char *expected = NULL;
	g_autoptr(AdSuggestion) s = NULL;
	const AdVerdict *after;
	gboolean dir, customizable, unknown, generic;
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
	if (!(path = ad_file_denial_path(ctx, d)) || ad_file_on_labelless_fs(ctx, d, ttype))
		return 0;
	expected = ad_labels_expected_type(ctx->labels, path, ad_class_to_mode(d->tclass));
	if (!expected || !ad_policy_has_type(ctx->policy, expected))
		return 0;
	shown = ad_file_display(path);
	if (strcmp(expected, ttype) == 0) {
		/* say so: a relabel is what users try first, and it would change nothing */
		s = ad_note_new("restorecon", 0.05);
		ad_suggestion_set_if(s, N_("If you thought of relabeling %s"), shown);
		ad_suggestion_set_then(s,
			N_("Then know that its label %s is already the one "
			  "file_contexts gives it: restorecon would not change "
			  "anything. The label is not the problem."),
			ttype);
		g_ptr_array_add(ret, g_steal_pointer(&s));
		return 1;
	}
	dir = strcmp(d->tclass, "dir") == 0 && strcmp(path, "/") != 0;
	/*
	 * file_contexts gives the place a generic label (default_t: nobody
	 * claimed it; a container's path seen from inside it): restoring that
	 * is no first step, and nothing is worked out on it
	 */
	generic = ad_policy_file_type_is_generic(ctx->policy, expected) ||
		  ad_file_type_is_generic(ctx, expected);
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
	/*
	 * Not enough on the restored label either: what else is needed is
	 * worked out there and offered with the relabel, never on the wrong
	 * label (customizable types may be set on purpose: not so sure)
	 */
	if (!customizable && !unknown && !generic && (after->reason == AD_REASON_TE_RULE ||
					  (after->reason == AD_REASON_BOOLEAN && after->booleans &&
					   after->booleans->len))) {
		g_autofree char *near = nearby_type(d, ctx, stype, path, expected);
		AdSuggestion *fc = near ? nearby_fcontext(d, ctx, near, path, dir, stype, ttype,
							  expected, shown) : NULL;

		/* the ranking sorts them: the narrowest proved change first, the module last */
		if (after->reason == AD_REASON_BOOLEAN)
			g_ptr_array_add(ret, relabel_then_boolean(ctx, after, path, dir, stype,
								  ttype, expected, shown));
		if (fc)
			g_ptr_array_add(ret, fc);
		g_ptr_array_add(ret, relabel_then_module(d, ctx, path, dir, stype, ttype, expected,
							 shown));
		return 1;
	}
	s = ad_suggestion_new("restorecon", AD_FIX_RELABEL, conf, level);
	ad_suggestion_set_new_type(s, expected);	/* what the proof tries */
	ad_suggestion_set_if(s,
		N_("If you want to fix the label: %s is labeled %s, but "
		  "file_contexts says %s"),
		shown, ttype, expected);
	{
		g_autoptr(AdMsg) then = ad_msg_new();

		ad_msg_add(then, N_("Then restore the default label with restorecon%s."),
			dir ? N_(" (the directory and everything in it)") : "");
		ad_msg_set_arg(then, 0, NULL);
		switch (after->reason) {
		case AD_REASON_ALLOWED:
			ad_msg_add(then, N_(" %s may do this on %s files, so this "
				  "fixes the denial."),
				stype, expected);
			break;
		case AD_REASON_BOOLEAN: {
			g_autofree char *bools = first_booleans(after);

			ad_msg_add(then, N_(" Even with the label %s, %s needs %s for "
				  "this access."),
				expected, stype, *bools ? bools : N_("a boolean"));
			if (!*bools)
				ad_msg_set_arg(then, 2, NULL);
			break;
		}
		case AD_REASON_UNKNOWN_PERMISSION:
		case AD_REASON_UNKNOWN_CLASS:
			ad_msg_add(then, N_(" Whether %s may do this on %s could not "
				  "be checked (%s)."),
				stype, expected,
				after->detail ? after->detail : ad_reason_name(after->reason));
			break;
		default:
			ad_msg_add(then, N_(" But %s may not do this on %s either "
				  "(%s): the label is wrong, yet relabeling alone "
				  "will not stop this denial."),
				stype, expected, ad_reason_name(after->reason));
			break;
		}
		if (unknown)
			ad_msg_add(then, N_(" The current label %s is not defined in "
				  "this policy: the policy module that defined "
				  "it was removed, or the log comes from a "
				  "system with another policy, whose "
				  "file_contexts may differ."),
				ttype);
		if (ad_labels_is_customizable(ctx->labels, ttype))
			ad_msg_add(then, N_(" %s is a customizable type: restorecon leaves "
				  "it alone unless forced (-F), and someone may "
				  "have set it on purpose."),
				ttype);
		else if (customizable)
			ad_msg_add(then, N_(" %s is a customizable type, one administrators "
				  "set by hand where they want it: check that this "
				  "file should have it."),
				expected);
		ad_suggestion_take_then(s, g_steal_pointer(&then));
	}
	add_restorecon(s, ctx, path, dir, ttype);
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
