/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The cause plugins, one file each.  Listed in plugins.c's table; the order
 * there does not matter (suggestions are ranked by confidence).
 */
#include "analysis/plugin.h"

G_BEGIN_DECLS

/* general */
/*
 * The one list of cause plugins, in the order they run.  Adding a plugin
 * is its file (plugins/NAME.c, defining `const AdPlugin ad_plugin_NAME`)
 * plus its name here; CMake builds every C file of plugins/.
 */
#define AD_PLUGIN_LIST(X) \
	X(boolean) \
	X(catchall) \
	X(associate) \
	X(device) \
	X(fcontext) \
	X(file) \
	X(mounton) \
	X(restorecon) \
	X(restorecon_source) \
	X(bind_ports) \
	X(connect_ports) \
	X(execmem) \
	X(execmod) \
	X(mmap_zero) \
	X(leaks) \
	X(harmless) \
	X(permissive) \
	X(policy_mismatch) \
	X(invalid_context) \
	X(constraint) \
	X(sys_module) \
	X(kernel_modules) \
	X(selinuxpolicy) \
	X(setenforce) \
	X(credentials) \
	X(dac_override) \
	X(sys_resource) \
	X(disable_ipv6) \
	X(expected)

#define AD_PLUGIN_DECLARE(name) extern const AdPlugin ad_plugin_##name;
AD_PLUGIN_LIST(AD_PLUGIN_DECLARE)

G_END_DECLS
