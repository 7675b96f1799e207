/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/*
 * The file labels a policy expects (file_contexts through libselinux's
 * selabel, offline: SELinux need not be enabled), and its customizable
 * types (labels restorecon leaves alone).
 */
typedef struct _AdLabels AdLabels;

/*
 * Opens @file_contexts, or when NULL the file_contexts beside
 * @policy_path (POLICYROOT/policy/policy.N → POLICYROOT/contexts/files/
 * file_contexts).  NULL with @error when there is none.
 */
AdLabels *ad_labels_open(const char *file_contexts, const char *policy_path, GError **error);
void ad_labels_free(AdLabels *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdLabels, ad_labels_free)

const char *ad_labels_path(const AdLabels *l);
/* expected context of @path for a file of @mode (S_IFREG, S_IFDIR, 0 = any); owned */
char *ad_labels_expected(AdLabels *l, const char *path, mode_t mode);
/* expected type only; owned; NULL when file_contexts has no entry */
char *ad_labels_expected_type(AdLabels *l, const char *path, mode_t mode);
gboolean ad_labels_is_customizable(AdLabels *l, const char *type);
/*
 * How many entries of file_contexts (with its .local and .homedirs) label
 * files @type, and in @ret_same_place whether one of them lies in the
 * place of @path (its first two directories).  The files are read at the
 * first question and kept with @l, so reopening the labels (a reload)
 * sees an edited file_contexts.local.
 */
guint ad_labels_type_uses(AdLabels *l, const char *type, const char *path,
			  gboolean *ret_same_place);
/*
 * How near @path file_contexts gives files @type: 0 when no entry for it
 * lies near; else more the nearer the entry: 4 for each directory of
 * @path it shares (the deepest of them not a standard one such as /var/lib
 * or /dev, unless the next name begins the same too), plus 2 when the next
 * name begins the same ("/var/lib/webapp(/.*)?" for /var/lib/webapp2/x,
 * "/dev/frob[0-9]+" for /dev/frob7).  @ret_entry (may be NULL): that
 * entry's regular expression, owned.
 */
guint ad_labels_type_nearness(AdLabels *l, const char *type, const char *path,
			      char **ret_entry);
/* reads now what ad_labels_type_uses() reads at its first question (a thread with time to spare) */
void ad_labels_read_ahead(AdLabels *l);
/*
 * TRUE for a directory no fix may relabel as a whole ("semanage fcontext -a
 * -t samba_share_t '/usr(/.*)?'" would break the system): the FHS and
 * distribution directories ("/", "/etc", "/var/lib", "/var/www", ...) and
 * a user's home directory (/home/NAME).  The plugins and the rules engine
 * both ask this.
 */
gboolean ad_path_is_standard_dir(const char *path);
/*
 * The semanage fcontext specification of @path, the one both the cause
 * plugins and the rules engine suggest: a regular expression matching
 * exactly @path ("/srv/a\.b"), or with @subtree the directory and
 * everything below ("/srv/www(/.*)?"; "/.*" for "/").  It never holds
 * white space: a space, and a byte that is not UTF-8, are written "."
 * (any byte).  Trailing '/' are dropped.  NULL for a relative path or one
 * holding control characters (C0, DEL, C1).
 */
char *ad_fcontext_spec(const char *path, gboolean subtree);
/*
 * ad_fcontext_spec() of @path as file_contexts names it: under the path
 * aliases of @l's file_contexts.subs_dist and .subs ("/var/run/app" is
 * "/run/app" on Fedora, where semanage refuses a specification under
 * /var/run: it "conflicts with equivalency rule").  @l may be NULL.
 */
char *ad_labels_fcontext_spec(AdLabels *l, const char *path, gboolean subtree);
/* mode bits for a class name: "file" → S_IFREG, "dir" → S_IFDIR, else 0 */
mode_t ad_class_to_mode(const char *tclass);

G_END_DECLS
