/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What avcdoctor-fixit (the root helper that applies one suggestion of one
 * stored alert) and its callers share: the bus names, spelled once, its
 * errors, and the call the browser and the notifier make.  Which fixes
 * may be applied at all is fix-rule.h's one rule.  The interface is
 * data/org.avcdoctor.Fixit1.xml.  The helper also answers setroubleshoot's
 * fix interface, for Cockpit: run_fix(local_id, analysis_id), where
 * analysis_id is the suggestion's index ("0", "1", ...).
 */
#include <gio/gio.h>
#include <json-c/json.h>

#include "fix-rule.h"
#include "fixit-error.h"

G_BEGIN_DECLS

#define AD_FIXIT_DBUS_NAME "org.avcdoctor.Fixit1"
#define AD_FIXIT_DBUS_PATH "/org/avcdoctor/Fixit1"
#define AD_FIXIT_DBUS_INTERFACE "org.avcdoctor.Fixit1"
/* the polkit action of Apply */
#define AD_FIXIT_ACTION "org.avcdoctor.fix"

/* setroubleshoot's fix helper, as Cockpit calls it */
#define AD_SETROUBLESHOOT_FIXIT_NAME "org.fedoraproject.SetroubleshootFixit"
#define AD_SETROUBLESHOOT_FIXIT_PATH "/org/fedoraproject/SetroubleshootFixit/object"
#define AD_SETROUBLESHOOT_FIXIT_INTERFACE "org.fedoraproject.SetroubleshootFixit"
#define AD_SETROUBLESHOOT_FIXIT_ACTION "org.fedoraproject.setroubleshootfixit.write"

/*
 * Asks the helper on the system bus to apply suggestion @index of alert
 * @alert_id, whose commands the caller showed: @digest is their
 * ad_fix_digest(), and the helper refuses (AD_FIXIT_ERROR_CHANGED) when the
 * stored fix is no longer those commands.  The desktop's polkit agent may
 * ask for a password meanwhile.  ad_fixit_apply_finish() gives the
 * command's output (owned), or the helper's error (AD_FIXIT_ERROR, with
 * the output in the message).
 */
void ad_fixit_apply_async(const char *alert_id, guint index, const char *digest,
			  GCancellable *cancellable, GAsyncReadyCallback callback,
			  gpointer user_data);
char *ad_fixit_apply_finish(GAsyncResult *result, GError **error);

G_END_DECLS
