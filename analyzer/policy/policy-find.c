// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which policy file to load when none is named: the kernel's when SELinux
 * is on, else the newest policy.N of the SELINUXTYPE that
 * /etc/selinux/config names.
 */
#include "config.h"
#include "paths.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <selinux/selinux.h>

#include "policy/policy-private.h"

/*
 * Reads SELINUXTYPE from @config.  Returns the value (caller frees) or NULL
 * with @error set; the messages name the file and tell what to do.
 */
static char *ad_config_selinuxtype(const char *config, GError **error)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GError) local = NULL;
	char *type = NULL;

	if (!g_file_get_contents(config, &text, NULL, &local)) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_NOT_FOUND,
			    /* TRANSLATORS: %1$s is a file, %2$s why it cannot be read; --policy
			       is an option of avcdoctor: keep it as it is */
			    _("no SELinux policy found: cannot read %s (%s); use --policy FILE"),
			    config, local->message);
		return NULL;
	}
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		char *s = g_strstrip(*l);
		char *v;

		if (!g_str_has_prefix(s, "SELINUXTYPE"))
			continue;
		v = s + strlen("SELINUXTYPE");
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != '=')
			continue;
		v = g_strstrip(v + 1);
		if (*v == '"' || *v == '\'') {
			size_t n = strlen(v);

			if (n >= 2 && v[n - 1] == v[0]) {
				v[n - 1] = '\0';
				v++;
			}
		}
		g_free(type);
		type = g_strdup(v);	/* the last assignment wins, as in libselinux */
	}
	if (!type || !*type || strchr(type, '/') || g_str_equal(type, "..") ||
	    g_str_equal(type, ".")) {
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_NOT_FOUND,
			    /* TRANSLATORS: %s is a file (/etc/selinux/config); SELINUXTYPE and
			       --policy stay as they are */
			    _("no SELinux policy found: %s sets no usable SELINUXTYPE; use "
			      "--policy FILE"),
			    config);
		g_free(type);
		return NULL;
	}
	return type;
}

/* The highest-numbered policy.N in @dir (caller frees), or NULL. */
static char *ad_newest_policy(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	guint64 best = 0;
	gboolean found = FALSE;

	if (!d)
		return NULL;
	while ((name = g_dir_read_name(d))) {
		guint64 n;

		if (!g_str_has_prefix(name, "policy.") ||
		    !g_ascii_string_to_unsigned(name + strlen("policy."), 10, 0, G_MAXUINT32, &n,
						NULL))
			continue;
		if (!found || n > best) {
			best = n;
			found = TRUE;
		}
	}
	if (!found)
		return NULL;
	return g_strdup_printf("%s/policy.%" PRIu64, dir, best);
}

/*
 * Which policy to load when none is named: the kernel's when SELinux is on
 * (and its policy is readable), else the newest policy.N of SELINUXTYPE.
 * AVCDOCTOR_SELINUX_ROOT replaces /etc/selinux (for root only when root
 * owns it and no one else can write it) and, being a test hook,
 * also skips the kernel.  @ret_live tells whether the running system's
 * boolean values apply.
 */
static char *ad_policy_discover(gboolean *ret_live, GError **error)
{
	const char *root = ad_env_path("AVCDOCTOR_SELINUX_ROOT");
	g_autofree char *config = NULL;
	g_autofree char *type = NULL;
	g_autofree char *dir = NULL;
	char *file;

	*ret_live = FALSE;
	if (!root || !*root) {
		root = "/etc/selinux";
		if (is_selinux_enabled() > 0) {
			const char *kernel = selinux_current_policy_path();

			*ret_live = TRUE;
			if (kernel && access(kernel, R_OK) == 0)
				return g_strdup(kernel);
		}
	}
	config = g_build_filename(root, "config", NULL);
	type = ad_config_selinuxtype(config, error);
	if (!type)
		return NULL;
	dir = g_build_filename(root, type, "policy", NULL);
	file = ad_newest_policy(dir);
	if (!file)
		g_set_error(error, AD_POLICY_ERROR, AD_POLICY_ERROR_NOT_FOUND,
			    /* TRANSLATORS: %1$s is a file, %2$s a policy name (targeted), %3$s
			       a directory; SELINUXTYPE, policy.N and --policy stay as they are */
			    _("no SELinux policy found: %s names SELINUXTYPE=%s but %s holds no "
			      "policy.N; use --policy FILE"),
			    config, type, dir);
	return file;
}

char *ad_policy_find(const char *path, gboolean *ret_live, GError **error)
{
	gboolean live = FALSE;
	char *found;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	found = path ? g_strdup(path) : ad_policy_discover(&live, error);
	if (ret_live)
		*ret_live = live;
	return found;
}
