// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The helper's names and the asynchronous Apply call (its errors: fixit-error.c).
 */
#include <string.h>

#include "fixit-client.h"

/* ------------------------------------------------------------ the call */

/* long enough for a password prompt and a slow semodule; the helper times out first */
#define APPLY_TIMEOUT_MS (15 * 60 * 1000)

static void on_applied(GObject *source, GAsyncResult *res, gpointer data)
{
	g_autoptr(GTask) task = data;
	GError *error = NULL;
	g_autoptr(GVariant) r = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res,
							      &error);
	const char *out;

	if (!r) {
		g_dbus_error_strip_remote_error(error);
		g_task_return_error(task, error);
		return;
	}
	g_variant_get(r, "(&s)", &out);
	g_task_return_pointer(task, g_strdup(out), g_free);
}

static void on_bus(GObject *source, GAsyncResult *res, gpointer data)
{
	g_autoptr(GTask) task = data;
	GError *error = NULL;
	g_autoptr(GDBusConnection) bus = g_bus_get_finish(res, &error);
	GVariant *args = g_task_get_task_data(task);

	(void)source;
	if (!bus) {
		g_task_return_error(task, error);
		return;
	}
	g_dbus_connection_call(bus, AD_FIXIT_DBUS_NAME, AD_FIXIT_DBUS_PATH,
			       AD_FIXIT_DBUS_INTERFACE, "Apply", g_variant_ref(args),
			       G_VARIANT_TYPE("(s)"),
			       G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION, APPLY_TIMEOUT_MS,
			       g_task_get_cancellable(task), on_applied, g_object_ref(task));
}

void ad_fixit_apply_async(const char *alert_id, guint index, const char *digest,
			  GCancellable *cancellable, GAsyncReadyCallback callback,
			  gpointer user_data)
{
	GTask *task = g_task_new(NULL, cancellable, callback, user_data);

	/* the error names are known before the first reply */
	(void)AD_FIXIT_ERROR;
	g_task_set_source_tag(task, ad_fixit_apply_async);
	g_task_set_task_data(task, g_variant_ref_sink(g_variant_new("(sus)", alert_id, index, digest ? digest : "")),
			     (GDestroyNotify)g_variant_unref);
	g_bus_get(G_BUS_TYPE_SYSTEM, cancellable, on_bus, task);
}

char *ad_fixit_apply_finish(GAsyncResult *result, GError **error)
{
	g_return_val_if_fail(g_task_is_valid(result, NULL), NULL);
	return g_task_propagate_pointer(G_TASK(result), error);
}
