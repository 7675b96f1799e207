/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "analysis/plugin-env.h"
#include "analysis/suggest.h"
#include "read/denial.h"

G_BEGIN_DECLS

/* proofs remembered at most per cache; emptied beyond */
#define AD_PROOF_CACHE_MAX 4096

/*
 * A bounded cache of proofs, keyed by the access and the change: the
 * same fix of the same access is proved once.  Owned by the analysis and
 * emptied when the policy changes.
 */
GHashTable *ad_proof_cache_new(void);

/*
 * Proves each suggestion of @suggestions that changes the policy's state
 * (booleans, a new type for the target, a local module) against the
 * policy: the change is made on the loaded policy in memory, every denied
 * access of @d (the alert's signature: its source, target, class and
 * permissions) is asked again, and the change is undone.  Sets proof,
 * still_denied and scope on each suggestion, and the confidence from
 * the plugin's judgement, the proof and the scope; leaves the rest
 * AD_PROOF_NONE.  Does not sort.
 */
void ad_suggestions_prove(AdPluginEnv *ctx, const AdDenial *d, const AdVerdict *v,
			  GPtrArray *suggestions);

G_END_DECLS
