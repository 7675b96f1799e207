/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "run.h"

G_BEGIN_DECLS

/* what one Apply did, for the log */
typedef struct {
	char *commands;			/* the commands run, shell-quoted, one a line */
	char *output;			/* what they printed (valid UTF-8, bounded) */
	char *digest;			/* ad_fix_digest() of the stored fix, once read */
} AdFixitResult;

void ad_fixit_result_clear(AdFixitResult *r);

/*
 * Applies suggestion @index of alert @id of the store (an alert id with
 * @digest, the ad_fix_digest() of the commands the caller showed, refused
 * as CHANGED when the stored fix is other commands; or the local id
 * "ID-NUMBER[.GEN]" that setroubleshoot's interface hands out, which
 * names one life of the alert, NOT_FOUND once it was deleted, and one
 * analysis of it, CHANGED once another was stored): looks both up, asks
 * the one rule (ad_fix_one_click()), analyses the stored denial again
 * against the current policy and requires the same suggestion to come out,
 * proved where a proof applies, then runs the commands (a module is built
 * here from the alert).  Notes the time in the store when it worked.  FALSE
 * with an AD_FIXIT_ERROR (whose message has the output) otherwise; @ret
 * is filled as far as it got.  A fix of several commands is all or
 * nothing: when one fails, those before it are taken back where they can be.
 */
gboolean ad_fixit_apply(const AdFixitConfig *cfg, const char *id, guint index,
			const char *digest, AdFixitResult *ret, GError **error);


G_END_DECLS
