/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "read/denial.h"

G_BEGIN_DECLS

/* sorts a list of permission names (strings) as signatures do */
void ad_denial_sort_perms(GPtrArray *perms);
/* @d's permissions, sorted (owned strings) */
GPtrArray *ad_denial_sorted_perms(const AdDenial *d);

/*
 * Does @d deny only what an exec into another domain inherits (siginh,
 * rlimitinh, noatsecure)?  Those records are one problem, one alert.
 */
gboolean ad_denial_denies_inheritance(const AdDenial *d);

/* the signature as text into @key (replaced): what alerts are grouped by */
void ad_denial_signature_key(GString *key, const AdDenial *d);
/* the signature id (16 hex digits) of a key; owned */
char *ad_denial_signature_id(const GString *key);
/* the signature id of a denial (what ad_alert_set_add groups by); owned */
char *ad_denial_signature(const AdDenial *d);

G_END_DECLS
