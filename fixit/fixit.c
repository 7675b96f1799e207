// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * avcdoctor-fixit: the root helper that applies one suggestion of one
 * stored alert, started by D-Bus activation on the system bus.  It answers
 * its own interface (org.avcdoctor.Fixit1, Apply) and setroubleshoot's
 * (run_fix, for Cockpit), asks polkit whether the caller may (root may),
 * applies the fix (apply.c), logs who asked and what ran, and exits when
 * idle.
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <gio/gio.h>
#include <polkit/polkit.h>

#include "dispatch-config.h"
#include "fixit-client.h"
#include "escape.h"
#include "apply.h"

extern GResource *ad_fixit_get_resource(void);

typedef struct {
	GMainLoop *loop;
	GDBusConnection *bus;
	PolkitAuthority *authority;
	AdFixitConfig cfg;
	guint idle_s;
	guint idle_id;
	guint busy;			/* calls being authorised or applied */
	int status;
} Fixit;

/* one call, from its arrival to its answer */
typedef struct {
	Fixit *f;
	/* two references: the one answering takes, and the call's own */
	GDBusMethodInvocation *inv;
	char *id;
	guint index;
	char *digest;			/* Apply's; NULL for run_fix */
	const char *action;		/* the polkit action it needs */
	guint32 uid, pid;
} Call;

static void call_free(Call *c)
{
	g_object_unref(c->inv);
	g_free(c->id);
	g_free(c->digest);
	g_free(c);
}

/* ------------------------------------------------------------ idle exit */

static gboolean on_idle(gpointer data)
{
	Fixit *f = data;

	f->idle_id = 0;
	syslog(LOG_DEBUG, "idle for %u seconds, exiting", f->idle_s);
	g_main_loop_quit(f->loop);
	return G_SOURCE_REMOVE;
}

static void busy_begin(Fixit *f)
{
	f->busy++;
	g_clear_handle_id(&f->idle_id, g_source_remove);
}

static void busy_end(Fixit *f)
{
	if (--f->busy == 0)
		f->idle_id = g_timeout_add_seconds(f->idle_s, on_idle, f);
}

/* ------------------------------------------------------------ answering */

/* the error's first line, for the log */
static char *first_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? g_strndup(s, nl - s) : g_strdup(s);
}

static void answer_error(Call *c, const GError *error)
{
	g_autofree char *line = first_line(error->message);
	g_autofree char *esc = ad_escape_str(line);
	/* the id is the caller's text, not checked yet for every error */
	g_autofree char *id = ad_escape_str(c->id);
	AdFixitError code = error->domain == AD_FIXIT_ERROR ? (AdFixitError)error->code
							    : AD_FIXIT_ERROR_FAILED;

	syslog(LOG_WARNING, "uid %u (pid %u): suggestion %u of alert %s not applied: %s",
	       c->uid, c->pid, c->index, id, esc);
	g_dbus_method_invocation_return_dbus_error(c->inv,
						   ad_fixit_error_name(code), error->message);
}

/* applies the fix of an authorised call and answers it */
static void apply(Call *c)
{
	g_autoptr(GError) error = NULL;
	AdFixitResult r;

	if (ad_fixit_apply(&c->f->cfg, c->id, c->index, c->digest, &r, &error)) {
		g_autofree char *cmds = ad_escape_str(r.commands);

		/* the digest says which reviewed commands ran */
		syslog(LOG_NOTICE, "uid %u (pid %u) applied suggestion %u of alert %s "
		       "(digest %s): %s", c->uid, c->pid, c->index, c->id, r.digest, cmds);
		g_dbus_method_invocation_return_value(c->inv, g_variant_new("(s)", r.output));
	} else {
		answer_error(c, error);
	}
	ad_fixit_result_clear(&r);
}

static void on_authorization(GObject *source, GAsyncResult *res, gpointer data)
{
	Call *c = data;
	Fixit *f = c->f;
	g_autoptr(GError) error = NULL;
	g_autoptr(PolkitAuthorizationResult) result =
		polkit_authority_check_authorization_finish(POLKIT_AUTHORITY(source), res, &error);

	if (result && polkit_authorization_result_get_is_authorized(result)) {
		apply(c);
	} else {
		g_autoptr(GError) refused = NULL;

		g_set_error(&refused, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_AUTHORIZED,
			    "not authorized for %s%s%s", c->action, error ? ": " : "",
			    error ? error->message : "");
		answer_error(c, refused);
	}
	call_free(c);
	busy_end(f);
}

/* the caller's uid and pid, from the bus */
static gboolean caller_credentials(Call *c, GError **error)
{
	g_autoptr(GVariant) r = g_dbus_connection_call_sync(
		c->f->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
		"org.freedesktop.DBus", "GetConnectionCredentials",
		g_variant_new("(s)", g_dbus_method_invocation_get_sender(c->inv)),
		G_VARIANT_TYPE("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, 5000, NULL, error);
	g_autoptr(GVariant) creds = NULL;

	if (!r)
		return FALSE;
	creds = g_variant_get_child_value(r, 0);
	if (!g_variant_lookup(creds, "UnixUserID", "u", &c->uid)) {
		g_set_error_literal(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_AUTHORIZED,
				    "the bus does not say who the caller is");
		return FALSE;
	}
	if (!g_variant_lookup(creds, "ProcessID", "u", &c->pid))
		c->pid = 0;
	return TRUE;
}

/* authorises a call (root always, else polkit), then applies it */
static void handle(Call *c)
{
	Fixit *f = c->f;
	g_autoptr(GError) error = NULL;
	g_autoptr(PolkitSubject) subject = NULL;
	PolkitCheckAuthorizationFlags flags = POLKIT_CHECK_AUTHORIZATION_FLAGS_NONE;
	GDBusMessage *msg = g_dbus_method_invocation_get_message(c->inv);

	busy_begin(f);
	if (!caller_credentials(c, &error))
		goto refuse;
	/* polkit authorises uid 0 for every action: so does the helper, without asking */
	if (c->uid == 0) {
		apply(c);
		call_free(c);
		busy_end(f);
		return;
	}
	if (!f->authority && !(f->authority = polkit_authority_get_sync(NULL, &error)))
		goto refuse;
	/* Cockpit does not set the flag; setroubleshoot's helper always allowed interaction */
	if ((g_dbus_message_get_flags(msg) & G_DBUS_MESSAGE_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION) ||
	    strcmp(c->action, AD_SETROUBLESHOOT_FIXIT_ACTION) == 0)
		flags = POLKIT_CHECK_AUTHORIZATION_FLAGS_ALLOW_USER_INTERACTION;
	subject = polkit_system_bus_name_new(g_dbus_method_invocation_get_sender(c->inv));
	polkit_authority_check_authorization(f->authority, subject, c->action, NULL, flags, NULL,
					     on_authorization, c);
	return;
refuse:
	{
		g_autoptr(GError) refused = NULL;

		g_set_error(&refused, AD_FIXIT_ERROR, AD_FIXIT_ERROR_NOT_AUTHORIZED,
			    "not authorized for %s: %s", c->action, error->message);
		answer_error(c, refused);
	}
	call_free(c);
	busy_end(f);
}

/* run_fix's analysis_id: the suggestion's index in decimal */
static gboolean parse_index(const char *s, guint *ret)
{
	guint64 v;

	if (!s || !*s || strlen(s) > 6 || strspn(s, "0123456789") != strlen(s))
		return FALSE;
	v = g_ascii_strtoull(s, NULL, 10);
	*ret = (guint)v;
	return TRUE;
}

static void on_method(GDBusConnection *conn, const char *sender, const char *path,
		      const char *iface, const char *method, GVariant *params,
		      GDBusMethodInvocation *inv, gpointer data)
{
	Call *c = g_new0(Call, 1);

	(void)conn;
	(void)sender;
	(void)path;
	c->f = data;
	c->inv = g_object_ref(inv);
	if (strcmp(iface, AD_FIXIT_DBUS_INTERFACE) == 0 && strcmp(method, "Apply") == 0) {
		g_variant_get(params, "(sus)", &c->id, &c->index, &c->digest);
		c->action = AD_FIXIT_ACTION;
	} else if (strcmp(iface, AD_SETROUBLESHOOT_FIXIT_INTERFACE) == 0 &&
		   strcmp(method, "run_fix") == 0) {
		const char *analysis;

		g_variant_get(params, "(s&s)", &c->id, &analysis);
		c->action = AD_SETROUBLESHOOT_FIXIT_ACTION;
		if (!parse_index(analysis, &c->index)) {
			g_dbus_method_invocation_return_dbus_error(
				inv, ad_fixit_error_name(AD_FIXIT_ERROR_INVALID_ARGS),
				"analysis_id is the index of a suggestion (\"0\", \"1\", ...)");
			call_free(c);
			return;
		}
	} else {
		g_dbus_method_invocation_return_dbus_error(inv, "org.freedesktop.DBus.Error."
							   "UnknownMethod", method);
		call_free(c);
		return;
	}
	handle(c);
}

static const GDBusInterfaceVTable vtable = { on_method, NULL, NULL, { 0 } };

/* ------------------------------------------------------------ the bus */

static GDBusInterfaceInfo *interface_info(const char *file, const char *name, GError **error)
{
	g_autofree char *path = g_strdup_printf("/org/avcdoctor/fixit/%s", file);
	g_autoptr(GBytes) xml = g_resources_lookup_data(path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
	g_autoptr(GDBusNodeInfo) node = NULL;
	GDBusInterfaceInfo *info;

	if (!xml || !(node = g_dbus_node_info_new_for_xml(g_bytes_get_data(xml, NULL), error)))
		return NULL;
	info = g_dbus_node_info_lookup_interface(node, name);
	return info ? g_dbus_interface_info_ref(info) : NULL;
}

static void on_name_lost(GDBusConnection *conn, const char *name, gpointer data)
{
	Fixit *f = data;

	(void)conn;
	syslog(LOG_ERR, "cannot own the bus name %s (another helper, or the bus policy)", name);
	f->status = 1;
	g_main_loop_quit(f->loop);
}

static gboolean serve(Fixit *f, GError **error)
{
	GDBusInterfaceInfo *own = NULL, *sr = NULL;
	gboolean ok;
	const char *starter = g_getenv("DBUS_STARTER_ADDRESS");

	/* started by a system bus: that bus (a test's private one) is the system bus */
	if (starter && g_strcmp0(g_getenv("DBUS_STARTER_BUS_TYPE"), "system") == 0)
		g_setenv("DBUS_SYSTEM_BUS_ADDRESS", starter, TRUE);
	g_resources_register(ad_fixit_get_resource());
	ok = (own = interface_info(AD_FIXIT_DBUS_INTERFACE ".xml", AD_FIXIT_DBUS_INTERFACE,
				   error)) &&
	     (sr = interface_info(AD_SETROUBLESHOOT_FIXIT_INTERFACE ".xml",
				  AD_SETROUBLESHOOT_FIXIT_INTERFACE, error)) &&
	     (f->bus = g_bus_get_sync(G_BUS_TYPE_SYSTEM, NULL, error));
	if (ok) {
		g_dbus_connection_set_exit_on_close(f->bus, TRUE);
		ok = g_dbus_connection_register_object(f->bus, AD_FIXIT_DBUS_PATH, own, &vtable, f,
						       NULL, error) &&
		     g_dbus_connection_register_object(f->bus, AD_SETROUBLESHOOT_FIXIT_PATH, sr,
						       &vtable, f, NULL, error);
	}
	if (own)
		g_dbus_interface_info_unref(own);
	if (sr)
		g_dbus_interface_info_unref(sr);
	if (!ok)
		return FALSE;
	g_bus_own_name_on_connection(f->bus, AD_FIXIT_DBUS_NAME, G_BUS_NAME_OWNER_FLAGS_NONE,
				     NULL, on_name_lost, f, NULL);
	g_bus_own_name_on_connection(f->bus, AD_SETROUBLESHOOT_FIXIT_NAME,
				     G_BUS_NAME_OWNER_FLAGS_NONE, NULL, on_name_lost, f, NULL);
	return TRUE;
}

/* ------------------------------------------------------------ set-up */

/*
 * A test may name another directory for the allowed programs, only while
 * the helper runs from the build tree and not setuid: an installed helper
 * always runs the programs at their installed paths.
 */
static gboolean test_options_allowed(void)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *build = g_canonicalize_filename(AD_BUILD_DIR, NULL);

	return exe && getuid() == geteuid() && getgid() == getegid() &&
	       g_str_has_prefix(exe, build) && exe[strlen(build)] == '/' &&
	       strcmp(exe, AD_FIXIT_INSTALLED) != 0;
}

/* the store, the policy and the rules as the dispatcher's configuration names them */
static gboolean load_config(Fixit *f, const char *path, GError **error)
{
	AdDispatchConfig dc;
	gboolean ok;

	ad_dispatch_config_init(&dc);
	ok = ad_dispatch_config_load(&dc, path, getuid() == 0, error);
	if (ok && !dc.db_path) {
		g_set_error(error, AD_FIXIT_ERROR, AD_FIXIT_ERROR_FAILED,
			    "%s: the dispatcher keeps no alert store", path);
		ok = FALSE;
	}
	if (ok) {
		f->cfg.store_path = g_strdup(dc.db_path);
		f->cfg.policy = g_strdup(dc.policy);
		f->cfg.file_contexts = g_strdup(dc.file_contexts);
		f->cfg.rules_dir = g_strdup(dc.rules_dir);
		f->cfg.file_checks = dc.file_checks;
	}
	ad_dispatch_config_clear(&dc);
	return ok;
}

int main(int argc, char **argv)
{
	g_autofree char *config = NULL, *bin_dir = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GOptionContext) oc = NULL;
	gboolean log_stderr = FALSE, version = FALSE;
	int timeout = 120, idle = 30;
	Fixit f = { 0 };
	GOptionEntry entries[] = {
		{ "config", 'c', 0, G_OPTION_ARG_FILENAME, &config,
		  "the dispatcher's configuration (store, policy, rules)", "FILE" },
		{ "timeout", 't', 0, G_OPTION_ARG_INT, &timeout,
		  "kill a command after so many seconds (120)", "SECONDS" },
		{ "idle", 'i', 0, G_OPTION_ARG_INT, &idle,
		  "exit after so many seconds without a call (30)", "SECONDS" },
		{ "log-stderr", 0, 0, G_OPTION_ARG_NONE, &log_stderr,
		  "log to standard error as well as to syslog", NULL },
		{ "bin-dir", 0, 0, G_OPTION_ARG_FILENAME, &bin_dir,
		  "tests only: take the allowed programs from DIR (refused when installed)", "DIR" },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &version, "print the version and exit", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL }
	};

	setlocale(LC_ALL, "");
	oc = g_option_context_new(NULL);
	g_option_context_set_summary(oc, "Applies the suggested fix of a stored SELinux alert "
					 "for an authorised caller over D-Bus.");
	g_option_context_add_main_entries(oc, entries, NULL);
	if (!g_option_context_parse(oc, &argc, &argv, &error)) {
		fprintf(stderr, "avcdoctor-fixit: %s\n", error->message);
		return 2;
	}
	if (version) {
		printf("avcdoctor-fixit %s\n", VERSION);
		return 0;
	}
	if (timeout < 1 || timeout > 3600 || idle < 1 || idle > 86400) {
		fprintf(stderr, "avcdoctor-fixit: --timeout is 1..3600, --idle 1..86400\n");
		return 2;
	}
	openlog("avcdoctor-fixit", LOG_PID | (log_stderr ? LOG_PERROR : 0), LOG_AUTHPRIV);
	if (bin_dir && !test_options_allowed()) {
		syslog(LOG_ERR, "--bin-dir is for tests of the build tree; refused");
		return 2;
	}
	if (!load_config(&f, config ? config : AD_DISPATCH_CONFIG, &error)) {
		syslog(LOG_ERR, "%s", error->message);
		return 1;
	}
	f.cfg.bin_dir = g_steal_pointer(&bin_dir);
	f.cfg.timeout_s = timeout;
	f.idle_s = idle;
	f.loop = g_main_loop_new(NULL, FALSE);
	if (!serve(&f, &error)) {
		syslog(LOG_ERR, "%s", error->message);
		return 1;
	}
	f.idle_id = g_timeout_add_seconds(f.idle_s, on_idle, &f);
	g_main_loop_run(f.loop);
	g_clear_handle_id(&f.idle_id, g_source_remove);
	g_clear_object(&f.authority);
	g_clear_object(&f.bus);
	g_main_loop_unref(f.loop);
	ad_fixit_config_clear(&f.cfg);
	closelog();
	return f.status;
}
