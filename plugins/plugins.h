/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The cause plugins, one file each.  Listed in plugins.c's table; the order
 * there does not matter (suggestions are ranked by confidence).
 */
#include "plugin.h"

G_BEGIN_DECLS

/* general */
extern const AdPlugin ad_plugin_boolean;
extern const AdPlugin ad_plugin_catchall;
/* file-label plugins */
/* other plugins */

G_END_DECLS
