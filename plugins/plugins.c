// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one table of cause plugins.
 */
#include "plugins.h"

const AdPlugin *const ad_plugin_table[] = {
	/* general */
	&ad_plugin_boolean,
	&ad_plugin_catchall,
	/* file-label plugins */
	/* other plugins */
	NULL,
};
