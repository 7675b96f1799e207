/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the programs find their data: installed, or in the build tree they
 * were built in.  Header-only, shared by every program (the notifier does
 * not link the analyzer core).
 */
#pragma once

#include <limits.h>
#include <string.h>
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
