/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Gettext set-up shared by the programs (the CLI, the notifier, the
 * browser).  Header-only: the notifier does not link the analyzer core.
 */
#pragma once

#include <locale.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "config.h"

/*
 * The user's locale and the avcdoctor text domain, in UTF-8 whatever the
 * locale's charset (GLib and the JSON output want UTF-8).  The catalogs are
 * looked up in LOCALEDIR, or in $AVCDOCTOR_LOCALEDIR when set: a build tree
 * (<build>/locale) for the tests; ignored in a set-id process.
 */
static inline void ad_i18n_init(void)
{
	const char *dir = secure_getenv("AVCDOCTOR_LOCALEDIR");

	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, dir && *dir ? dir : LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);
}
