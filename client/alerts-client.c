// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The error names of org.avcdoctor.Alerts1, registered once for every
 * client and used by the service to answer.
 */
#include "alerts-client.h"

static const GDBusErrorEntry entries[] = {
	{ AD_ALERTS_ERROR_NOT_FOUND, "org.avcdoctor.Error.NotFound" },
	{ AD_ALERTS_ERROR_INVALID_ARGS, "org.avcdoctor.Error.InvalidArgs" },
	{ AD_ALERTS_ERROR_ACCESS_DENIED, "org.avcdoctor.Error.AccessDenied" },
	{ AD_ALERTS_ERROR_NOT_SUPPORTED, "org.avcdoctor.Error.NotSupported" },
	{ AD_ALERTS_ERROR_FAILED, "org.avcdoctor.Error.Failed" },
};
G_STATIC_ASSERT(G_N_ELEMENTS(entries) == AD_ALERTS_N_ERRORS);

GQuark ad_alerts_error_quark(void)
{
	static gsize quark;

	g_dbus_error_register_error_domain("ad-alerts-error-quark", &quark, entries,
					   G_N_ELEMENTS(entries));
	return (GQuark)quark;
}

const char *ad_alerts_error_name(AdAlertsError code)
{
	if ((guint)code >= G_N_ELEMENTS(entries))
		code = AD_ALERTS_ERROR_FAILED;
	return entries[code].dbus_error_name;
}
