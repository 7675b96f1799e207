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
	&ad_plugin_associate,
	&ad_plugin_device,
	&ad_plugin_fcontext,
	&ad_plugin_file,
	&ad_plugin_mounton,
	&ad_plugin_restorecon,
	&ad_plugin_restorecon_source,
	/* other plugins */
	&ad_plugin_bind_ports,
	&ad_plugin_connect_ports,
	&ad_plugin_execmem,
	&ad_plugin_execmod,
	&ad_plugin_mmap_zero,
	&ad_plugin_leaks,
	&ad_plugin_permissive,
	&ad_plugin_policy_mismatch,
	&ad_plugin_invalid_context,
	&ad_plugin_constraint,
	&ad_plugin_sys_module,
	&ad_plugin_kernel_modules,
	&ad_plugin_selinuxpolicy,
	&ad_plugin_setenforce,
	&ad_plugin_dac_override,
	&ad_plugin_sys_resource,
	&ad_plugin_disable_ipv6,
	NULL,
};
