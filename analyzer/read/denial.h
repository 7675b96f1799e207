/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include "alert-doc.h"
#include "read/event.h"

G_BEGIN_DECLS


typedef enum {
	AD_DENIAL_AVC,			/* kernel AVC (also FANOTIFY carrying an avc body) */
	AD_DENIAL_USER_AVC,		/* user-space object manager (dbus, systemd, X) */
	AD_DENIAL_SELINUX_ERR,		/* invalid_context, bounds, validatetrans */
	AD_DENIAL_USER_SELINUX_ERR,
} AdDenialType;

/* what a SELINUX_ERR record reports */
typedef enum {
	AD_ERR_NONE,
	AD_ERR_INVALID_CONTEXT,		/* security_compute_sid: invalid context */
	AD_ERR_BOUNDS,			/* security_compute_av reason=bounds */
	AD_ERR_BOUNDED_TRANSITION,	/* security_bounded_transition */
	AD_ERR_VALIDATETRANS,		/* security_validate_transition */
	AD_ERR_OTHER,
} AdErrKind;

/*
 * One denial record with everything its event tells about it.  Strings
 * that come from the record and may hold any byte (comm, exe, path, name,
 * cmdline) are AdBytes, kept exactly as decoded in the event's memory and
 * valid while the denial lives (ad_bytes_dup() keeps a copy); they are
 * escaped only when shown (escape.h).  Contexts, class and permission names are plain
 * strings: they are validated against the policy before being trusted.
 */
typedef struct {
	gint ref_count;
	AdEvent *event;			/* owning ref; raw records */
	const AdRecord *record;		/* the denial record inside event */
	AdDenialType type;
	const char *record_type;	/* "AVC", "USER_AVC", "FANOTIFY", ... */

	gboolean granted;		/* avc: granted (auditallow) */
	int permissive;			/* 1, 0, or -1 when the record does not say */
	GPtrArray *perms;		/* of char*, in record order, no duplicates */
	char *perms_buf;		/* private: the permission names of an AVC */
	/* these strings, and dev, exit, ioctlcmd, capability: in the event's memory */
	const char *scontext;
	const char *tcontext;
	const char *tclass;

	/* SELINUX_ERR */
	AdErrKind err_kind;
	char *invalid_context;
	char *err_text;			/* the record body, for display */

	/* subject */
	gint64 pid, ppid;		/* -1 when unknown */
	gint64 uid, auid;		/* -1 when unknown */
	AdBytes comm;
	AdBytes exe;
	AdBytes cmdline;		/* PROCTITLE, NULs turned into spaces */
	const char *syscall;		/* name for the record's arch, or the number */
	int success;			/* 1, 0, -1 when unknown */
	const char *exit;		/* "-13", "EACCES(Permission denied)" */

	/* object */
	AdBytes path;			/* full path: AVC path=, or cwd + PATH name */
	AdBytes name;			/* AVC name= */
	const char *dev;
	gint64 ino;			/* -1 when unknown */
	const char *ioctlcmd;		/* "0x5401" */
	char *saddr;			/* SOCKADDR decoded: "inet 127.0.0.1" */
	gint64 port;			/* dest=, src=, lport= or SOCKADDR port; -1 */
	const char *capability;		/* capability=N from the AVC */

	/* trust */
	gboolean suspect;		/* planted or duplicated fields seen */
	char *suspect_reason;
} AdDenial;

AdDenial *ad_denial_ref(AdDenial *d);
void ad_denial_unref(AdDenial *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdDenial, ad_denial_unref)

double ad_denial_time(const AdDenial *d);
guint64 ad_denial_serial(const AdDenial *d);
const char *ad_denial_node(const AdDenial *d);
const char *ad_denial_type_name(const AdDenial *d);
/*
 * A USER_AVC is written by an object manager (dbus-daemon, systemd) about
 * someone else: the denied subject is scontext, the sender, whose pid is
 * spid.  Its type and pid, "httpd_t (pid 800)", or the type alone; NULL for
 * other records or without a source type.  Owned.
 */
char *ad_denial_sender(const AdDenial *d);
/* @context with its type replaced by @type; owned, NULL when it has no type field */
char *ad_context_with_type(const char *context, const char *type);

/* a problem with one record: the caller reports it with file and line */
typedef void (*AdDenialProblemFunc)(const AdRecord *rec, const char *message,
				    gpointer user_data);

/*
 * Records of one event that its denials are enriched from.  A denial record
 * past them is analysed alone (no syscall, path or command line), and the
 * first such record of the event is reported once through the problem
 * callback: one client writing many records under one event stamp costs
 * linear time and cannot stand for the whole event.
 */
#define AD_EVENT_MAX_RECORDS	1024

/*
 * Builds the denials of one event: one per AVC / USER_AVC / SELINUX_ERR
 * record, each enriched with the event's SYSCALL, CWD, PATH, PROCTITLE
 * and SOCKADDR records (of its first AD_EVENT_MAX_RECORDS records).
 * Records that cannot be understood are reported through @on_problem and
 * skipped.  Appends AdDenial* to @ret_denials
 * (which owns them: create it with g_ptr_array_new_with_free_func
 * ((GDestroyNotify)ad_denial_unref)).  Returns the number appended.
 */
guint ad_event_build_denials(AdEvent *ev, GPtrArray *ret_denials,
			     AdDenialProblemFunc on_problem, gpointer user_data);

/*
 * Whether @ev holds a record that ad_event_build_denials() makes a denial
 * of or reports as a problem: without one, it builds nothing.
 */
gboolean ad_event_has_denial_record(const AdEvent *ev);
/* TRUE when @rec is a MAC_POLICY_LOAD record (policy reload markers) */
gboolean ad_event_is_policy_load(const AdEvent *ev);

/* the denial's path as a C string when it is one (no NUL, absolute); owned, or NULL */
char *ad_denial_path_str(const AdDenial *d);
gboolean ad_denial_has_perm(const AdDenial *d, const char *perm);
gboolean ad_denial_has_any_perm(const AdDenial *d, const char *const *perms);
/* the source / target type; owned */
char *ad_denial_stype(const AdDenial *d);
char *ad_denial_ttype(const AdDenial *d);

/* the file classes, NULL-terminated (AdPlugin.classes; ad_class_is_file()) */
#define AD_FILE_CLASSES \
	((const char *const[]){ "file", "dir", "lnk_file", "chr_file", "blk_file", "sock_file", \
				"fifo_file", NULL })
/* a file class (file, dir, lnk_file, chr_file, blk_file, sock_file, fifo_file) */
gboolean ad_class_is_file(const char *tclass);

G_END_DECLS
