/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * The fix helper's errors (fixit-error.c): what its D-Bus replies say, and
 * what the one rule (fix-rule.c) refuses with.  Apart from the Apply call
 * (fixit-client.c), so that the rule, below that call, needs only this.
 */

typedef enum {
	AD_FIXIT_ERROR_NOT_AUTHORIZED,	/* polkit said no */
	AD_FIXIT_ERROR_NOT_FOUND,	/* no alert with that id */
	AD_FIXIT_ERROR_INVALID_ARGS,	/* a malformed id, an index out of range */
	AD_FIXIT_ERROR_NOT_ALLOWED,	/* a command the helper does not run */
	AD_FIXIT_ERROR_NOT_PROVED,	/* the policy no longer proves the fix */
	AD_FIXIT_ERROR_FAILED,		/* the command failed; the message has its output */
	AD_FIXIT_ERROR_TIMED_OUT,	/* the command ran too long and was killed */
	AD_FIXIT_ERROR_CHANGED,		/* the alert's fix is not the one the caller showed */
	AD_FIXIT_N_ERRORS
} AdFixitError;

/* the error domain, registered with GDBus (org.avcdoctor.Fixit1.Error.NotFound, ...) */
#define AD_FIXIT_ERROR (ad_fixit_error_quark())
GQuark ad_fixit_error_quark(void);
const char *ad_fixit_error_name(AdFixitError code);

G_END_DECLS
