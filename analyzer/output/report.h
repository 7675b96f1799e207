/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

#include "alert-doc.h"
#include "read/denial.h"
#include "policy/policy.h"

G_BEGIN_DECLS

/*
 * Bytes from a record as a JSON string: as they are when clean UTF-8;
 * else escaped (escape.h) with the exact bytes in "<key>_hex" beside it.
 */
void ad_json_add_bytes(json_object *obj, const char *key, AdBytes b);

/*
 * Bytes as a JSON string, always valid UTF-8: as they are when clean, else
 * escaped (escape.h).  Where the exact bytes matter, ad_bytes_are_clean()
 * tells the caller to add them as hex beside it ("<key>_hex").
 */
json_object *ad_json_string_bytes(const void *data, gsize len);

/* the `why --json` object (avcdoctor(1)) for one denial; the caller owns it */
json_object *ad_denial_to_json(const AdDenial *d, const AdVerdict *v);
/* the same as the alert document reads it (alert-doc.h), built without JSON */
AdDenialDoc *ad_denial_to_doc(const AdDenial *d, const AdVerdict *v);

/* what the denial was, in one sentence: "httpd was denied read on the file index.html" */
char *ad_denial_describe(const AdDenial *d);

/* the human `why` report of one denial, appended to @out: head, verdict, blank line */
void ad_render_why(GString *out, const AdDenial *d, const AdVerdict *v);
/* its parts: the record and what happened; the reason and what would allow it */
void ad_render_why_head(GString *out, const AdDenial *d);
void ad_render_verdict(GString *out, const AdVerdict *v);

/* a reason in plain words, in the user's language; NULL for "allowed" */
const char *ad_reason_text(AdReason r);
/*
 * The same for one verdict: a boolean reason says which way the booleans
 * go (a rule allowed only while a boolean is off is closed on purpose).
 */
const char *ad_verdict_reason_text(const AdVerdict *v);
/* the same from a `why --json` object (its "reason" and "booleans"); NULL when none */
const char *ad_denial_json_reason_text(json_object *denial);
/* the reason named @name ("te_rule"), as `why --json` spells it */
gboolean ad_reason_from_name(const char *name, AdReason *ret);

/* the setsebool command that applies one boolean alternative */
/* the setsebool argument vector that makes one alternative (AdBoolSetting*) true; owned */
char **ad_boolean_argv(GPtrArray *alternative);
char *ad_boolean_command(GPtrArray *alternative);

/* JSON text of an object for one output line */
const char *ad_json_line(json_object *obj);

G_END_DECLS
