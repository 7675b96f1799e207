// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fix helper's error domain and its D-Bus error names.
 */
#include "fixit-error.h"

static const GDBusErrorEntry entries[] = {
	{ AD_FIXIT_ERROR_NOT_AUTHORIZED, "org.avcdoctor.Fixit1.Error.NotAuthorized" },
	{ AD_FIXIT_ERROR_NOT_FOUND, "org.avcdoctor.Fixit1.Error.NotFound" },
	{ AD_FIXIT_ERROR_INVALID_ARGS, "org.avcdoctor.Fixit1.Error.InvalidArgs" },
	{ AD_FIXIT_ERROR_NOT_ALLOWED, "org.avcdoctor.Fixit1.Error.NotAllowed" },
	{ AD_FIXIT_ERROR_NOT_PROVED, "org.avcdoctor.Fixit1.Error.NotProved" },
	{ AD_FIXIT_ERROR_FAILED, "org.avcdoctor.Fixit1.Error.Failed" },
	{ AD_FIXIT_ERROR_TIMED_OUT, "org.avcdoctor.Fixit1.Error.TimedOut" },
	{ AD_FIXIT_ERROR_CHANGED, "org.avcdoctor.Fixit1.Error.Changed" },
};
G_STATIC_ASSERT(G_N_ELEMENTS(entries) == AD_FIXIT_N_ERRORS);

GQuark ad_fixit_error_quark(void)
{
	static gsize quark;

	g_dbus_error_register_error_domain("ad-fixit-error-quark", &quark, entries,
					   G_N_ELEMENTS(entries));
	return (GQuark)quark;
}

const char *ad_fixit_error_name(AdFixitError code)
{
	if ((guint)code >= G_N_ELEMENTS(entries))
		code = AD_FIXIT_ERROR_FAILED;
	return entries[code].dbus_error_name;
}
