/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * What the file-label plugins (restorecon, restorecon_source, file,
 * fcontext, associate, mounton, device) share: which paths a
 * label fix can be offered for, what file_contexts says about a path,
 * what a domain may do with another type, and which file types to offer
 * in its place.  Everything is computed from the loaded policy and
 * file_contexts; nothing runs a program.
 */
#include "analysis/plugin.h"

G_BEGIN_DECLS

/*
 * The path of a file-class denial cleaned up for file_contexts lookups and
 * for a relabel command: absolute, "//" and "/./" collapsed, no trailing
 * "/".  NULL (nothing to offer) when the record has no usable path: a
 * relative or unknown one, one with a ".." component (symbolic links make
 * it ambiguous), a deleted file ("... (deleted)"), or one under /proc,
 * /sys, /dev/pts or /memfd:, whose labels come from the kernel.  Other
 * bytes (spaces, quotes, "$(...)", newlines, invalid UTF-8) are kept
 * exactly: commands are argument vectors.  Owned.
 */
char *ad_file_clean_path(const char *path);
/*
 * ad_file_clean_path() of the denial's path (ad_denial_path_str); NULL too
 * when the source domain runs inside a container (ad_denial_in_container()):
 * the path is then the container's view, which no host command can relabel.
 */
char *ad_file_denial_path(AdPluginEnv *ctx, const AdDenial *d);

/*
 * TRUE when the denial's object lives on a file system without per-file
 * labels (NFS, CIFS, FUSE, FAT...): the type has the policy's noxattrfs
 * attribute, or, with a policy without it, is nfs_t or cifs_t; or the
 * AVC's dev= names a network file system.  restorecon cannot change such
 * labels: mount options (context=) or booleans decide them.
 */
gboolean ad_file_on_labelless_fs(AdPluginEnv *ctx, const AdDenial *d, const char *ttype);

/* @context with its type replaced by @type ("u:r:t:s0" → "u:r:TYPE:s0"); owned, NULL if malformed
 */
char *ad_file_context_with_type(const char *context, const char *type);

/*
 * The verdict for the denial's access if its target had the type @type
 * instead (user, role and level kept, as restorecon without -F keeps
 * them).  Borrowed from the policy; never NULL.
 */
const AdVerdict *ad_file_verdict_as(AdPluginEnv *ctx, const AdDenial *d, const char *type);

/*
 * The denial comes from setting up swap: the swapon(2) syscall, or the
 * command swapon or mkswap (comm, which a process sets itself: good
 * enough to stay quiet, never to act on).  Swap files are the rules'
 * (rules/40-system.rules, [swapfile]).
 */
gboolean ad_file_is_swap_setup(const AdDenial *d);

/* the denial's permissions as an argv-like array (borrowed from @d) */
#define AD_DENIAL_PERMS(d) ((const char *const *)(d)->perms->pdata), ((d)->perms->len)

/*
 * "generic" file types: the labels file_contexts gives to a name nobody
 * claimed directly under a standard directory ("/x" → default_t,
 * "/etc/x" → etc_t, "/var/lib/x" → var_lib_t, "/mnt/x" → mnt_t, ...) and to
 * those directories themselves.  A denial on such a type at a path whose
 * expected label it is means the data sits where the policy expects
 * nothing in particular: a file context for it is the fix.
 */
gboolean ad_file_type_is_generic(AdPluginEnv *ctx, const char *type);

/*
 * File types @stype may use with every permission of the denial on
 * @tclass, best candidate first, for relabelling the object at @path:
 * security and authentication files, file-system, generic and (unless the
 * access is execute) program types are left out (not a *_content_t type
 * that is also an entry type, as Fedora's httpd_sys_content_t is), and so are the types
 * every domain may use this way (libraries, ld.so.cache); candidates sharing the
 * domain's name ("httpd_" for httpd_t) come first, then those fitting the
 * location (log files under /var/log, runtime files under /run,
 * configuration under /etc and data elsewhere, types file_contexts already
 * uses in the same place), those granting the fewest other write
 * permissions, and those file_contexts uses most (device types only when file_contexts uses them:
 * udev labels nodes from it).  @attribute narrows the candidates further
 * ("device_node"; NULL: none).  A new array of char*; NULL when the policy cannot say
 * (an unknown name or permission).
 */
GPtrArray *ad_file_candidates(AdPluginEnv *ctx, const AdDenial *d, const char *stype,
	const char *path, const char *attribute);

/*
 * How many '_'-separated words two type names start with in common
 * ("httpd_sys_content_t", "httpd_sys_rw_content_t": 2; "ntpd_t",
 * "ntp_drift_t": 1, a first word extended by a letter or two counts)
 */
guint ad_file_common_words(const char *a, const char *b);

/* TRUE when @type shares the first word of the domain's name ("httpd" of httpd_t) */
gboolean ad_file_type_matches_domain(const char *stype, const char *type);

/*
 * The candidate of @cands (ad_file_candidates()' order) that file_contexts
 * gives nearest @path (ad_labels_type_nearness(): sibling and parent
 * paths, other instances of the same program's directory), the earlier
 * one when two are as near.  Its index, and in @ret_entry (may be NULL)
 * the entry that gives it, owned; -1 when none is given near @path.
 */
int ad_file_nearest_candidate(AdPluginEnv *ctx, GPtrArray *cands, const char *path,
	char **ret_entry);

/*
 * Adds "semanage fcontext -a -t @type -- @spec" and the restorecon of
 * @path (-R when @subtree): a file context and its use.
 */
void ad_file_add_fcontext_commands(AdSuggestion *s, const char *type, const char *spec,
	const char *path, gboolean subtree);

/*
 * Adds the command that lists the rules letting @stype do the denied
 * access, and so the types it may use this way: "sesearch -A -s httpd_t
 * -c file -p read,open" (setools).  For the suggestions that leave the
 * choice of a type to the administrator.
 */
void ad_file_add_lookup_command(AdSuggestion *s, const AdDenial *d, const char *stype);

/*
 * "read, write and open": the denial's permissions in words; owned.  The
 * _msg form is the message (msg.h) a text's argument becomes, so that
 * " and " is in the reader's language (ad_suggestion_then_arg())
 */
char *ad_file_perm_words(const AdDenial *d);
AdMsg *ad_file_perm_words_msg(const AdDenial *d);

/* "a, b, c and 2 more": at most @max names of @types from index @from; owned */
char *ad_file_type_list(GPtrArray *types, guint from, guint max);
AdMsg *ad_file_type_list_msg(GPtrArray *types, guint from, guint max);

/*
 * The path for suggestion texts: itself when it is valid UTF-8 (texts are
 * plain text, escaped where they are shown), else its escaped form, so
 * that JSON stays valid.  Commands keep the exact bytes.  Owned.
 */
char *ad_file_display(const char *path);

G_END_DECLS
