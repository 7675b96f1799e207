/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the programs find their data: installed, or in the build tree they
 * were built in.  Header-only, shared by every program (the notifier does
 * not link the analyzer core).
 */
#pragma once

#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>

#include "config.h"

/*
 * TRUE when the running program is a file of the build tree it was built
 * in (AD_BUILD_DIR): it then reads the tree's rules and message catalogs,
 * so that a newcomer's `build/bin/avcdoctor analyze` gives the same advice
 * as the installed one.  An installed program never lives there.
 */
static inline gboolean ad_running_uninstalled(void)
{
	static int cached = -1;
	char exe[PATH_MAX];
	ssize_t n;
	gsize blen = strlen(AD_BUILD_DIR);

	if (cached >= 0)
		return cached;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	cached = n > 0 && (gsize)n > blen && memcmp(exe, AD_BUILD_DIR, blen) == 0 &&
		 exe[blen] == '/';
	return cached;
}

/* the catalogs of the build tree, or LOCALEDIR when installed */
static inline const char *ad_default_localedir(void)
{
	return ad_running_uninstalled() ? AD_BUILD_DIR "/locale" : LOCALEDIR;
}

/* the shipped rules: the source tree's, or the installed ones */
static inline const char *ad_shipped_rules_dir(void)
{
	return ad_running_uninstalled() ? AD_SOURCE_DIR "/rules" : AD_DATADIR "/rules";
}

/* the site's own rules, beside the configuration (a file of the same name wins) */
#define AD_LOCAL_RULES_DIR AD_SYSCONFDIR "/avcdoctor/rules.d"

/*
 * Whether root may trust a file or directory it was pointed to: owned by
 * root and writable by no one else (not by others, and by its group only
 * when that group is root).  Anyone else trusts what it can read.
 */
static inline gboolean ad_path_trusted_by_root(const struct stat *st)
{
	if (geteuid() != 0)
		return TRUE;
	return st->st_uid == 0 && !(st->st_mode & S_IWOTH) &&
	       !((st->st_mode & S_IWGRP) && st->st_gid != 0);
}

/*
 * The path a test hook's environment variable @var names, or NULL when it
 * is unset, empty, or (running as root) names something that is not
 * ad_path_trusted_by_root().
 */
static inline const char *ad_env_path(const char *var)
{
	const char *v = g_getenv(var);
	struct stat st;

	if (!v || !*v)
		return NULL;
	/* a name that does not exist reads as nothing: the caller says so */
	if (geteuid() == 0 && stat(v, &st) == 0 && !ad_path_trusted_by_root(&st))
		return NULL;
	return v;
}
