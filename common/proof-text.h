/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "alert-doc.h"

G_BEGIN_DECLS

/*
 * What a suggestion's proof says, in words: "Checked against the policy:
 * this stops the denial. Also allows 1,204 other accesses for 57 domains
 * (e.g. ...)." or "Checked against the policy: not enough, ...".  Its own
 * small library (adtext: GLib and json-c only), so that the notifier says
 * it as analyze, show and the browser do without linking the analyzer.
 */

/*
 * @verified: 1 proved, 0 not enough, -1 not a policy change (no text);
 * @still_denied: what would still be denied (may be NULL); @accesses: the
 * scope, -1 when not counted; @domains and @example (may be NULL) with it;
 * @generic_type: a generic type the fix opens whole (NULL: none), given to
 * @type_paths path patterns by file_contexts (-1: unknown).
 * Owned, or NULL.
 */
char *ad_proof_text(int verified, const char *still_denied, gint64 accesses, gint64 domains,
		    const char *example, const char *generic_type, gint64 type_paths);
/* "1,204": a count as people read it (owned) */
char *ad_count_text(gint64 n);
/*
 * The same for a dontaudit fix (kind "dontaudit"): "Checked against the
 * policy: this hides exactly the denied access and allows nothing." (or
 * with what else it allows: a boolean that turns dontaudit rules on) or
 * "... not enough, @still_denied".
 */
char *ad_proof_text_hides(int verified, const char *still_denied, gint64 accesses,
			  gint64 domains, const char *example);
/* the same from a suggestion's JSON ("kind", "verified", "still_denied", "scope"); owned or NULL */
char *ad_proof_text_json(json_object *suggestion);
/* the same from a parsed suggestion; owned or NULL */
char *ad_proof_text_doc(const AdSuggestionDoc *s);

G_END_DECLS
