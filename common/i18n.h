/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gettext set-up shared by the programs (the CLI, the notifier, the
 * browser).  Header-only: the notifier does not link the analyzer core.
 */
#pragma once

#include <locale.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "config.h"
#include "paths.h"

/*
 * _() for a message shown for every denial: the catalog is searched once
 * per call site (a search costs as much as building the rest of the line),
 * which is right because the locale is set once, at start-up.
 */
#define T_(msgid) ad_i18n_same_format(msgid, ({			\
	static const char *t_cached_;					\
	const char *t_v_ = g_atomic_pointer_get(&t_cached_);		\
	if (G_UNLIKELY(!t_v_)) {					\
		t_v_ = _(msgid);					\
		g_atomic_pointer_set(&t_cached_, t_v_);			\
	}								\
	t_v_;								\
}))

/* @translated, a format like @msgid (so that -Wformat checks T_() as it does _()) */
static inline const char *ad_i18n_same_format(const char *msgid, const char *translated)
	G_GNUC_FORMAT(1);
static inline const char *ad_i18n_same_format(const char *msgid, const char *translated)
{
	(void)msgid;
	return translated;
}

/*
 * A catalog directory named by the environment is used only when it is a
 * directory of the effective user (or root's) that nobody else may write:
 * a translation is a format string, so a catalog planted by another user
 * must not reach a program run as root.
 */
static inline gboolean ad_i18n_dir_is_trusted(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return FALSE;
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return FALSE;
	return !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * The user's locale and the avcdoctor text domain, in UTF-8 whatever the
 * locale's charset (GLib and the JSON output want UTF-8).  The catalogs are
 * looked up in LOCALEDIR (the build tree's own when run from there), or in
 * $AVCDOCTOR_LOCALEDIR when set: a build tree
 * (<build>/locale) for the tests; ignored in a set-id process and when the
 * directory is not the user's own (ad_i18n_dir_is_trusted).
 */
static inline void ad_i18n_init(void)
{
	const char *dir = secure_getenv("AVCDOCTOR_LOCALEDIR");

	if (dir && *dir && !ad_i18n_dir_is_trusted(dir))
		dir = NULL;
	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, dir && *dir ? dir : ad_default_localedir());
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);
}
