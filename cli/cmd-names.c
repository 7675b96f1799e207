// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor names types|classes|booleans [-p POLICY]: the policy's names,
 * one a line, for the shell's completion (completions/avcdoctor).  Not
 * among the commands `avcdoctor --help` lists.
 *
 * Loading a policy takes a good part of a second, too long for a Tab
 * press: the names are kept in the user's cache directory
 * ($XDG_CACHE_HOME/avcdoctor/names), one file per kind and policy file,
 * known by the policy's path, inode, size and time of change, and read
 * from there while the policy stays the same.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli.h"
#include "cmd-names.h"
#include "config.h"
#include "options.h"
#include "policy/policy.h"

static const char *const kinds[] = { "types", "classes", "booleans" };

/* the cache file of @kind for the policy file @path, or NULL when it cannot be stat()ed */
static char *cache_file(const char *kind, const char *path)
{
	g_autofree char *key = NULL, *digest = NULL, *name = NULL;
	struct stat st;

	if (stat(path, &st) < 0)
		return NULL;
	key = g_strdup_printf("%s\n%ju\n%ju\n%jd\n%jd.%09ld", path, (uintmax_t)st.st_dev,
			      (uintmax_t)st.st_ino, (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec,
			      st.st_mtim.tv_nsec);
	digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	name = g_strdup_printf("%s-%.16s", kind, digest);
	return g_build_filename(g_get_user_cache_dir(), "avcdoctor", "names", name, NULL);
}

/* the names of @kind as text, one a line, from the policy */
static char *names_text(AdPolicy *p, const char *kind)
{
	g_autoptr(GPtrArray) names = strcmp(kind, "types") == 0 ? ad_policy_type_names(p)
				     : strcmp(kind, "classes") == 0 ? ad_policy_class_names(p)
								     : ad_policy_bool_names(p);
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < names->len; i++)
		g_string_append_printf(s, "%s\n", (char *)g_ptr_array_index(names, i));
	return g_string_free(s, FALSE);
}

/* keeps @text as @file (the user's own directory, mode 0700), dropping older ones of @kind */
static void cache_store(const char *file, const char *kind, const char *text)
{
	g_autofree char *dir = g_path_get_dirname(file);
	g_autofree char *mine = g_path_get_basename(file);
	g_autoptr(GDir) d = NULL;
	g_autofree char *prefix = g_strdup_printf("%s-", kind);
	const char *entry;

	if (g_mkdir_with_parents(dir, 0700) < 0)
		return;
	d = g_dir_open(dir, 0, NULL);
	while (d && (entry = g_dir_read_name(d)))
		if (g_str_has_prefix(entry, prefix) && strcmp(entry, mine) != 0) {
			g_autofree char *old = g_build_filename(dir, entry, NULL);

			g_unlink(old);
		}
	g_file_set_contents_full(file, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, NULL);
}

int ad_cmd_names(int argc, char **argv)
{
	g_autofree char *policy_path = NULL, *found = NULL, *file = NULL, *text = NULL;
	g_autoptr(GOptionContext) ctx = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(AdPolicy) policy = NULL;
	gboolean help = FALSE, live = FALSE, known = FALSE;
	const GOptionEntry entries[] = {
		{ "policy", 'p', 0, G_OPTION_ARG_FILENAME, &policy_path,
		  N_("Binary policy to read (default: the kernel's, else the newest installed "
		     "policy.N)"), N_("FILE") },
		{ NULL }
	};
	int parsed;

	ctx = ad_cli_context_new("names types|classes|booleans",
				 _("Lists the names of the policy, one a line (for the shell's "
				   "completion)."), &help);
	g_option_context_add_main_entries(ctx, entries, GETTEXT_PACKAGE);
	parsed = ad_cli_context_parse(ctx, "names", &help, &argc, &argv);
	if (parsed <= 0)
		return parsed < 0 ? AD_EXIT_INPUT : AD_EXIT_OK;
	for (guint i = 0; argc == 2 && i < G_N_ELEMENTS(kinds); i++)
		known |= strcmp(argv[1], kinds[i]) == 0;
	if (!known) {
		ad_cli_message("names: %s", _("give types, classes or booleans (see --help)"));
		return AD_EXIT_INPUT;
	}
	found = ad_policy_find(policy_path, &live, &error);
	if (!found) {
		ad_cli_message("%s", error->message);
		return AD_EXIT_NO_POLICY;
	}
	file = cache_file(argv[1], found);
	if (file && g_file_get_contents(file, &text, NULL, NULL)) {
		fputs(text, stdout);
		return AD_EXIT_OK;
	}
	policy = ad_policy_load_found(found, live, &error);
	if (!policy) {
		ad_cli_message("%s", error->message);
		return AD_EXIT_NO_POLICY;
	}
	text = names_text(policy, argv[1]);
	if (file)
		cache_store(file, argv[1], text);
	fputs(text, stdout);
	return AD_EXIT_OK;
}
