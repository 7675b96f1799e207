/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/*
 * A file_contexts matcher with the answers of libselinux's selabel file
 * backend (the last matching entry wins, exact paths before regular
 * expressions, an entry's file type must fit, path aliases from .subs_dist
 * and .subs), made for many lookups: each regular expression is compiled
 * at its first use, entries whose literal start cannot begin the path are
 * never tried, and one match block is reused.  Not thread-safe.
 */
typedef struct _AdFcontexts AdFcontexts;

/*
 * Reads @path and, beside it, @path.homedirs, @path.local (entries) and
 * @path.subs_dist, @path.subs (aliases), as selabel does.  A line that
 * selabel would refuse (too few fields, an unknown file type, a byte that
 * is not ASCII) is left out and counted.  NULL with @error only when @path
 * itself cannot be read.
 */
AdFcontexts *ad_fcontexts_load(const char *path, GError **error);
void ad_fcontexts_free(AdFcontexts *fc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdFcontexts, ad_fcontexts_free)

/*
 * The context file_contexts gives @path for a file of @mode (S_IFREG,
 * S_IFDIR, ...; 0 = any file type): borrowed from @fc, or NULL when no
 * entry matches or the entry says <<none>>
 */
const char *ad_fcontexts_lookup(AdFcontexts *fc, const char *path, mode_t mode);
/*
 * @path under the path aliases (.subs, then .subs_dist: Fedora's
 * "/var/run /run"), as file_contexts is read for it: owned, or NULL when
 * no alias applies.  semanage refuses a file context under an alias.
 */
char *ad_fcontexts_alias(AdFcontexts *fc, const char *path);
/* how many entries were read, and how many lines were left out */
guint ad_fcontexts_count(const AdFcontexts *fc);
guint ad_fcontexts_skipped(const AdFcontexts *fc);

G_END_DECLS
