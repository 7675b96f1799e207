// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * leaks: a leaked file descriptor.  When a program executes another one
 * that runs in a new domain, the kernel checks every descriptor the new
 * program inherits; those the new domain may not use are closed and the
 * check is logged as a denial of read/write (or fd use) during execve.
 * The parent should have opened them close-on-exec: the child rarely
 * needs them, so the usual answer is to silence the denial (dontaudit)
 * and tell the parent's developers.
 *
 * Recognised by the record itself: the syscall is execve, the
 * permissions are only those of using an open descriptor, and the object
 * is not the file being executed (the event's other records ask for
 * execute on that one).
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

/* what using an inherited descriptor asks for; anything else is not a leak */
static const char *const fd_perms[] = {
	"read", "write", "append", "ioctl", "getattr", "lock", "use",
};

static gboolean is_fd_perm(const char *perm)
{
	for (guint i = 0; i < G_N_ELEMENTS(fd_perms); i++)
		if (strcmp(fd_perms[i], perm) == 0)
			return TRUE;
	return FALSE;
}

/* descriptors are files, sockets, pipes, terminals, or the fd class itself */
static gboolean is_fd_class(const char *tclass)
{
	return ad_class_is_file(tclass) || strcmp(tclass, "fd") == 0 ||
	       g_str_has_suffix(tclass, "_socket") || strcmp(tclass, "socket") == 0;
}

/* TRUE when another denial record of the event asks for execute on @tcontext */
static gboolean executed_file(const AdDenial *d)
{
	for (guint i = 0; i < d->event->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(d->event->records, i);
		const char *open, *close;

		if (rec == d->record || (rec->type != AD_REC_AVC && rec->type != AD_REC_FANOTIFY) ||
		    g_strcmp0(ad_record_get(rec, "tcontext"), d->tcontext) != 0)
			continue;
		open = rec->body ? strchr(rec->body, '{') : NULL;
		close = open ? strchr(open, '}') : NULL;
		if (!close)
			continue;
		{
			g_autofree char *list = g_strndup(open + 1, close - open - 1);
			g_auto(GStrv) words = g_strsplit_set(list, " \t", -1);

			for (char **w = words; *w; w++)
				if (g_str_has_prefix(*w, "execute") ||
				    strcmp(*w, "entrypoint") == 0)
					return TRUE;
		}
	}
	return FALSE;
}

static int analyze_leaks(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx, GPtrArray *ret)
{
	g_autofree char *stype = NULL, *ttype = NULL, *name = NULL, *pp = NULL;
	AdSuggestion *s;

	if (!d->perms || !d->perms->len || !d->tclass)
		return 0;
	if (g_strcmp0(d->syscall, "execve") != 0 && g_strcmp0(d->syscall, "execveat") != 0)
		return 0;
	if (!is_fd_class(d->tclass))
		return 0;
	for (guint i = 0; i < d->perms->len; i++)
		if (!is_fd_perm(g_ptr_array_index(d->perms, i)))
			return 0;
	if (ad_class_is_file(d->tclass) && executed_file(d))
		return 0;
	stype = ad_denial_stype(d);
	ttype = ad_denial_ttype(d);
	if (!stype || !ttype)
		return 0;

	if (v->reason == AD_REASON_DONTAUDIT) {
		/* the policy already silences it; catchall says how dontaudit rules come back */
		g_autoptr(GString) perms = g_string_new(NULL);

		s = ad_note_new("leaks", 0.3);
		for (guint i = 0; i < d->perms->len; i++)
			g_string_append_printf(perms, "%s%s", i ? " " : "",
					       (char *)g_ptr_array_index(d->perms, i));
		ad_suggestion_set_if(s, N_("If you wonder why %s was denied %s on a %s during "
					  "execve"), stype, perms->str, d->tclass);
		ad_suggestion_set_then(s, N_("Then this is a leaked file descriptor: the program "
					    "that started this one left a descriptor open across "
					    "execve, and the kernel closed it because %s may not "
					    "use it. It is harmless, and the policy already hides "
					    "it with a dontaudit rule."), stype);
		g_ptr_array_add(ret, s);
		return 1;
	}

	name = ad_module_name(d, "_leaks");
	pp = g_strdup_printf("%s.pp", name);
	s = ad_suggestion_new("leaks", AD_FIX_DONTAUDIT, 0.5, AD_LEVEL_YELLOW);
	/* a leak, not a label problem: before a relabel of the leaked object */
	s->harmless = TRUE;
	ad_suggestion_set_if(s, N_("If %s does not need the %s (labelled %s) it inherited when "
				  "it was started"), stype, d->tclass, ttype);
	ad_suggestion_set_then(s, N_("Then this is a leaked file descriptor: the program that "
				    "started it left the descriptor open across execve (it "
				    "should open it close-on-exec: report it to its developers), "
				    "and the kernel closed it because %s may not use it. It is "
				    "usually harmless: silence it with a dontaudit module. The "
				    "module hides this access of %s and no other: check it before "
				    "loading it."), stype, stype);
	ad_suggestion_add_allow_command(s, d, ctx, (const char *const[]){ "-D", "-M", name,
									  NULL });
	ad_suggestion_add_command(s, "semodule", "-X", "300", "-i", pp, NULL);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_leaks = {
	.id = "leaks",
	.priority = 6,
	.reasons = AD_REASONS_RULE | AD_REASON_BIT(AD_REASON_DONTAUDIT),
	.analyze = analyze_leaks,
};
