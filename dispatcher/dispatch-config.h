/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The dispatcher's configuration (dispatch-config.c) and the error domain
 * of the dispatcher's library: a small library of its own, which the
 * dispatcher and the fix helper both link.  (Not config.h: that name is
 * the build's generated header.)
 */

#define AD_DISPATCH_ERROR (ad_dispatch_error_quark())
GQuark ad_dispatch_error_quark(void);

typedef enum {
	AD_DISPATCH_ERROR_CONFIG,	/* "FILE:LINE"-less GKeyFile problems, bad values */
	AD_DISPATCH_ERROR_UNSAFE,	/* not root-owned or world-writable, as root */
	AD_DISPATCH_ERROR_ACCESS,	/* a D-Bus caller may not do this */
	AD_DISPATCH_ERROR_NO_STORE,	/* the method needs the store, which is not open */
	AD_DISPATCH_ERROR_TOO_LARGE,	/* an answer would not fit in a D-Bus message */
} AdDispatchError;

typedef enum {
	AD_BUS_NONE,
	AD_BUS_SYSTEM,
	AD_BUS_SESSION,
} AdBusKind;

const char *ad_bus_kind_name(AdBusKind b);
gboolean ad_bus_kind_from_name(const char *name, AdBusKind *ret);

/* where the dispatcher's log lines go */
typedef enum {
	AD_LOG_SYSLOG,
	AD_LOG_STDERR,
	AD_LOG_BOTH,
} AdLogTarget;

/* the command that a new alert's log line names for its details */
typedef enum {
	AD_LOG_COMMAND_AUTO,		/* sealert when BINDIR/sealert is avcdoctor, else avcdoctor */
	AD_LOG_COMMAND_SEALERT,		/* "For complete SELinux messages run: sealert -l LOCAL_ID" */
	AD_LOG_COMMAND_AVCDOCTOR,	/* "For details run: avcdoctor show ID" */
} AdLogCommand;

/*
 * The configuration (data/avcdoctor.conf documents every key).  Strings
 * are owned; NULL means "the default" (policy discovery, the installed
 * rules, the policy's own file_contexts).  db_path NULL means no store.
 */
typedef struct {
	char *db_path;
	guint max_alerts;		/* store cap and in-memory alert cap; 0 = none */
	guint max_age_days;
	guint commit_interval_ms;	/* at least every so often while writing */
	AdBusKind bus;
	char *admin_group;		/* may read and change alerts over D-Bus */
	guint update_interval_ms;	/* at most one AlertUpdated per alert per interval */
	char *policy;
	char *file_contexts;
	char *rules_dir;
	gboolean file_checks;		/* plugins may look at this host's files */
	guint event_timeout_ms;		/* an event without EOE is complete after this */
	gsize queue_bytes;		/* input held between reader and analysis */
	guint memory_alerts;		/* alerts kept in memory before the set is restarted */
	AdLogTarget log;
	AdLogCommand log_command;
	char *journal_socket;		/* NULL: journald's; "none": no journal entries */
	char *mail_recipients;		/* NULL: no alert mails */
	char *sendmail;			/* NULL: /usr/sbin/sendmail */
	guint mail_per_hour;		/* at most so many alert mails an hour; 0 = no cap */
} AdDispatchConfig;

void ad_dispatch_config_init(AdDispatchConfig *c);	/* the defaults */
void ad_dispatch_config_clear(AdDispatchConfig *c);
void ad_dispatch_config_copy(AdDispatchConfig *dst, const AdDispatchConfig *src);
/*
 * Reads @path over the values in @c.  With @as_root, a file (or, with
 * @check_dir, its directory) that is not owned by root or is
 * world-writable is refused, as audit's own configuration loaders do.
 * Unknown groups or keys and bad values are errors naming file and key;
 * @c is left untouched on error.
 */
gboolean ad_dispatch_config_load(AdDispatchConfig *c, const char *path, gboolean as_root,
				 GError **error);

G_END_DECLS
