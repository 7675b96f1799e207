/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What both D-Bus interfaces of the dispatcher answer alike (bus-reply.c). */

/* the D-Bus error name of a GError of the store or the dispatcher */
const char *ad_dbus_error_name(const GError *error);
/* an answer with the D-Bus error name of @error and its message, cleaned */
void ad_dbus_return_error(GDBusMethodInvocation *inv, const GError *error);

/*
 * Which of @n items (oldest first) a reply of at most @budget bytes keeps
 * when item i takes @sizes[i] bytes: the newest first, an item too large
 * for what is left skipped; @keep[i] set for each.  The number left out.
 */
guint ad_dbus_newest_that_fit(const gsize *sizes, guint n, gsize budget, gboolean *keep);

/* logs (at most once a minute) that @method's reply left @n alerts out; nothing for 0 */
void ad_dbus_log_left_out(const char *method, guint n);

G_END_DECLS
