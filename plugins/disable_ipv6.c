// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * disable_ipv6: a program opened an IPv6 socket, the kernel tried to load
 * the IPv6 module on its behalf (system { module_request } with
 * kmod="net-pf-10"), and SELinux denied the request.  This happens when
 * IPv6 was disabled by keeping its module from loading: disabling it
 * with the sysctl instead lets programs see that IPv6 is off.
 */
#include <string.h>

#include <glib/gi18n.h>

#include "plugins.h"

static int analyze_disable_ipv6(const AdDenial *d, const AdVerdict *v, AdPluginEnv *ctx,
				GPtrArray *ret)
{
	g_autofree char *stype = NULL;
	const char *kmod;
	AdSuggestion *s;

	if (!d->record)
		return 0;
	kmod = ad_record_get(d->record, "kmod");
	/* "net-pf-10", also "net-pf-10-proto-132" and the like */
	if (!kmod || !g_str_has_prefix(kmod, "net-pf-10") ||
	    (kmod[9] != '\0' && kmod[9] != '-'))
		return 0;
	if (v->reason != AD_REASON_TE_RULE && v->reason != AD_REASON_BOOLEAN &&
	    v->reason != AD_REASON_DONTAUDIT)
		return 0;
	stype = ad_denial_stype(d);
	if (!stype)
		return 0;

	s = ad_suggestion_new("disable_ipv6", AD_FIX_CONFIG, 0.6, AD_LEVEL_GREEN);
	ad_suggestion_set_if(s, N_("If you disabled IPv6 by keeping its kernel module from "
				  "loading"));
	ad_suggestion_set_then(s, N_("Then disable it with the sysctl instead: %s opened an IPv6 "
				    "socket and the kernel tried to load the module (net-pf-10) "
				    "for it. With the module loaded and IPv6 switched off, "
				    "programs see that IPv6 is unavailable and no module is "
				    "requested. Add net.ipv6.conf.all.disable_ipv6 = 1 to a file "
				    "in /etc/sysctl.d/ to keep the setting after a reboot. If you "
				    "want IPv6, load the module (modprobe ipv6) or stop "
				    "blacklisting it."), stype);
	ad_suggestion_add_command(s, "sysctl", "-w", "net.ipv6.conf.all.disable_ipv6=1", NULL);
	g_ptr_array_add(ret, s);
	return 1;
}

const AdPlugin ad_plugin_disable_ipv6 = {
	.id = "disable_ipv6",
	.priority = 10,
	.classes = AD_NAMES("system"),
	.perms = AD_NAMES("module_request"),
	.analyze = analyze_disable_ipv6,
};
