/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gtk/gtk.h>
#include "alert-doc.h"

G_BEGIN_DECLS

/*
 * Applying a suggestion through avcdoctor-fixit, from the detail pane:
 * an Apply button per fix that the helper may apply, its answer shown
 * below it, and what the alert says about a fix applied before.
 */

/*
 * The Apply button of suggestion @index (0 for the first) of alert @id,
 * with the label that shows the helper's answer (the commands' output,
 * or the error); the call is asynchronous, and the desktop's polkit agent
 * asks for the password.  @rank names it for screen readers.  @digest is
 * ad_fix_digest() of the commands shown above it: the helper runs those
 * or nothing.
 */
GtkWidget *ad_fix_apply_row(const char *id, guint index, guint rank, const char *digest);

/*
 * "Fix applied at TIME; no denial since." when the alert has "fix_applied"
 * and was last seen before it, "Fix applied at TIME; denied again at TIME."
 * when after; NULL without a fix applied.  Owned, translated.
 */
char *ad_fix_status_text(const AdAlertDoc *alert);

G_END_DECLS
