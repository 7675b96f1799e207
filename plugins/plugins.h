/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * The cause plugins, one file each.  Listed in plugins.c's table; the order
 * there does not matter (suggestions are ranked by confidence).
 */
#include "analysis/plugin.h"

G_BEGIN_DECLS

/* general */
extern const AdPlugin ad_plugin_boolean;
extern const AdPlugin ad_plugin_catchall;
/* file-label plugins */
extern const AdPlugin ad_plugin_associate;
extern const AdPlugin ad_plugin_device;
extern const AdPlugin ad_plugin_fcontext;
extern const AdPlugin ad_plugin_file;
extern const AdPlugin ad_plugin_mounton;
extern const AdPlugin ad_plugin_restorecon;
extern const AdPlugin ad_plugin_restorecon_source;
/* other plugins */
extern const AdPlugin ad_plugin_bind_ports;
extern const AdPlugin ad_plugin_connect_ports;
extern const AdPlugin ad_plugin_execmem;
extern const AdPlugin ad_plugin_execmod;
extern const AdPlugin ad_plugin_mmap_zero;
extern const AdPlugin ad_plugin_leaks;
extern const AdPlugin ad_plugin_permissive;
extern const AdPlugin ad_plugin_policy_mismatch;
extern const AdPlugin ad_plugin_invalid_context;
extern const AdPlugin ad_plugin_constraint;
extern const AdPlugin ad_plugin_sys_module;
extern const AdPlugin ad_plugin_kernel_modules;
extern const AdPlugin ad_plugin_selinuxpolicy;
extern const AdPlugin ad_plugin_setenforce;
extern const AdPlugin ad_plugin_dac_override;
extern const AdPlugin ad_plugin_sys_resource;
extern const AdPlugin ad_plugin_disable_ipv6;

G_END_DECLS
