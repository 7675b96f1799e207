// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A denial's signature: what makes two denials one problem, and so one
 * alert (record type, the types of both contexts, class, sorted
 * permissions, suspect).  It is the denial's own data, so it lives with
 * the denial, below the alerts and the plugin host that both use it.
 */
#include <string.h>

#include "read/signature.h"

static int compare_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void ad_denial_sort_perms(GPtrArray *perms)
{
	g_ptr_array_sort(perms, compare_str);
}

GPtrArray *ad_denial_sorted_perms(const AdDenial *d)
{
	GPtrArray *p = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; d->perms && i < d->perms->len; i++)
		g_ptr_array_add(p, g_strdup(g_ptr_array_index(d->perms, i)));
	g_ptr_array_sort(p, compare_str);
	return p;
}

/* what a process may inherit across an exec into another domain */
static const char *const inherit_perms[] = { "noatsecure", "rlimitinh", "siginh", NULL };

static gboolean is_inherit_perm(const char *perm)
{
	return g_strv_contains(inherit_perms, perm);
}

/*
 * Does @d deny only what an exec into another domain inherits?  The kernel
 * checks siginh, rlimitinh and noatsecure one by one in one execve, and
 * logs each in its own record: they are one problem, one alert.
 */
gboolean ad_denial_denies_inheritance(const AdDenial *d)
{
	if (g_strcmp0(d->tclass, "process") != 0 || !d->perms || !d->perms->len)
		return FALSE;
	for (guint i = 0; i < d->perms->len; i++)
		if (!is_inherit_perm(g_ptr_array_index(d->perms, i)))
			return FALSE;
	return TRUE;
}

/* the signature as text: record type, types, class, sorted permissions, suspect */
void ad_denial_signature_key(GString *key, const AdDenial *d)
{
	g_autoptr(GPtrArray) perms = ad_denial_sorted_perms(d);
	const char *parts[] = { d->scontext, d->tcontext };

	g_string_truncate(key, 0);
	g_string_append(key, d->record_type);
	for (guint i = 0; i < G_N_ELEMENTS(parts); i++) {
		/* the type: third field of the context */
		const char *p = parts[i] ? strchr(parts[i], ':') : NULL;
		const char *q = p ? strchr(p + 1, ':') : NULL;
		const char *e = q ? strchr(q + 1, ':') : NULL;

		g_string_append_c(key, '\x1f');
		if (q)
			g_string_append_len(key, q + 1, e ? e - (q + 1) : (gssize)strlen(q + 1));
	}
	g_string_append_c(key, '\x1f');
	if (d->tclass)
		g_string_append(key, d->tclass);
	if (ad_denial_denies_inheritance(d)) {
		/* the whole set, whichever of them this record names */
		for (guint i = 0; inherit_perms[i]; i++) {
			g_string_append_c(key, '\x1f');
			g_string_append(key, inherit_perms[i]);
		}
	} else {
		for (guint i = 0; i < perms->len; i++) {
			g_string_append_c(key, '\x1f');
			g_string_append(key, g_ptr_array_index(perms, i));
		}
	}
	if (d->invalid_context) {
		g_string_append_c(key, '\x1f');
		g_string_append(key, d->invalid_context);
	}
	/*
	 * A record with planted or missing trusted fields names what its
	 * writer chose: it gets an alert of its own, never one it imitates
	 * (an ignored one, say).
	 */
	if (d->suspect)
		g_string_append(key, "\x1fsuspect");
}

char *ad_denial_signature_id(const GString *key)
{
	g_autofree char *digest = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key->str,
								key->len);

	return g_strndup(digest, 16);
}

char *ad_denial_signature(const AdDenial *d)
{
	g_autoptr(GString) key = g_string_new(NULL);

	ad_denial_signature_key(key, d);
	return ad_denial_signature_id(key);
}
