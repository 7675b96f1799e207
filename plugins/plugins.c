// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one table of cause plugins, from the list in plugins.h.
 */
#include "plugins.h"

#define AD_PLUGIN_ENTRY(name) &ad_plugin_##name,

const AdPlugin *const ad_plugin_table[] = {
	AD_PLUGIN_LIST(AD_PLUGIN_ENTRY)
	NULL,
};
