// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A suggestion's proof in words, from its fields or its JSON (see
 * proof-text.h).
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "proof-text.h"

/* "1,204": counts are read by people */
char *ad_count_text(gint64 n)
{
	g_autofree char *digits = g_strdup_printf("%" G_GINT64_FORMAT, n);
	GString *out = g_string_new(NULL);
	gsize len = strlen(digits);

	for (gsize i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			g_string_append_c(out, ',');
		g_string_append_c(out, digits[i]);
	}
	return g_string_free(out, FALSE);
}

/* "Also allows 1,204 other accesses for 57 domains (e.g. ...)." or NULL */
static char *scope_words(gint64 accesses, gint64 domains, const char *example)
{
	g_autofree char *acc = NULL, *dom = NULL, *also = NULL;

	if (accesses < 0)
		return NULL;
	if (accesses == 0)
		return g_strdup(_("Allows nothing else."));
	domains = MAX(domains, 0);
	acc = ad_count_text(accesses);
	dom = ad_count_text(domains);
	/* TRANSLATORS: "Also allows 1,204 other accesses" */
	also = g_strdup_printf(ngettext("Also allows %s other access",
					"Also allows %s other accesses",
					(gulong)MIN(accesses, G_MAXINT)), acc);
	if (example)
		/* TRANSLATORS: "Also allows 3 other accesses" "for 2 domains" (e.g. "a_t b_t:file read") */
		return g_strdup_printf(ngettext("%s for %s domain (e.g. %s).",
						"%s for %s domains (e.g. %s).",
						(gulong)MIN(domains, G_MAXINT)),
				       also, dom, example);
	return g_strdup_printf(ngettext("%s for %s domain.", "%s for %s domains.",
					(gulong)MIN(domains, G_MAXINT)),
			       also, dom);
}

/* "var_t is a generic type: ..." or NULL */
static char *generic_words(const char *type, gint64 paths)
{
	g_autofree char *n = NULL;

	if (!type)
		return NULL;
	if (paths < 0)
		return g_strdup_printf(_("%s is a generic type: this allows it on every object "
					 "that carries it, not only on this one."), type);
	n = ad_count_text(paths);
	/* TRANSLATORS: "var_t is a generic type: ... (file_contexts gives it to 12 paths)." */
	return g_strdup_printf(ngettext("%s is a generic type: this allows it on every object "
					"that carries it, not only on this one (file_contexts "
					"gives it to %s path).",
					"%s is a generic type: this allows it on every object "
					"that carries it, not only on this one (file_contexts "
					"gives it to %s paths).", (gulong)MIN(paths, G_MAXINT)),
			       type, n);
}

char *ad_proof_text(int verified, const char *still_denied, gint64 accesses, gint64 domains,
		    const char *example, const char *generic_type, gint64 type_paths)
{
	g_autofree char *scope = NULL;
	g_autofree char *generic = generic_words(generic_type, type_paths);

	if (verified == 0)
		return g_strdup_printf(_("Checked against the policy: not enough, %s"),
				       still_denied ? still_denied
						    : _("the access would still be denied."));
	if (verified < 0)
		return NULL;
	scope = scope_words(accesses, domains, example);
	if (generic) {
		/* "allows nothing else" would hide that every object of the type is opened */
		if (accesses <= 0)
			return g_strdup_printf(_("Checked against the policy: this stops the "
						 "denial. %s"), generic);
		return g_strdup_printf(_("Checked against the policy: this stops the denial. "
					 "%s %s"), generic, scope);
	}
	return scope ? g_strdup_printf(_("Checked against the policy: this stops the "
					 "denial. %s"), scope)
		     : g_strdup(_("Checked against the policy: this stops the denial."));
}

char *ad_proof_text_hides(int verified, const char *still_denied, gint64 accesses,
			  gint64 domains, const char *example)
{
	g_autofree char *scope = NULL;

	if (verified == 0)
		return g_strdup_printf(_("Checked against the policy: not enough, %s"),
				       still_denied ? still_denied
						    : _("the access would still be logged."));
	if (verified < 0)
		return NULL;
	/* a boolean that turns dontaudit rules on may allow other things too */
	if (accesses > 0 && (scope = scope_words(accesses, domains, example)))
		return g_strdup_printf(_("Checked against the policy: this hides exactly the "
					 "denied access. %s"), scope);
	return g_strdup(_("Checked against the policy: this hides exactly the denied access "
			  "and allows nothing."));
}

/* the member @key of @o when it has @type, else NULL */
static json_object *member(json_object *o, const char *key, json_type type)
{
	json_object *v = NULL;

	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

char *ad_proof_text_json(json_object *suggestion)
{
	json_object *v = member(suggestion, "verified", json_type_boolean);
	json_object *still = member(suggestion, "still_denied", json_type_string);
	json_object *scope = member(suggestion, "scope", json_type_object);
	json_object *acc = member(scope, "accesses", json_type_int);
	json_object *dom = member(scope, "domains", json_type_int);
	json_object *ex = member(scope, "examples", json_type_array);
	json_object *first = ex && json_object_array_length(ex) ?
			     json_object_array_get_idx(ex, 0) : NULL;
	json_object *generic = member(scope, "generic_type", json_type_string);
	json_object *paths = member(scope, "type_paths", json_type_int);

	json_object *kind = member(suggestion, "kind", json_type_string);

	if (!v)
		return NULL;
	if (kind && strcmp(json_object_get_string(kind), "dontaudit") == 0)
		return ad_proof_text_hides(json_object_get_boolean(v) ? 1 : 0,
					   still ? json_object_get_string(still) : NULL,
					   acc ? json_object_get_int64(acc) : -1,
					   dom ? json_object_get_int64(dom) : 0,
					   first && json_object_is_type(first, json_type_string) ?
					   json_object_get_string(first) : NULL);
	return ad_proof_text(json_object_get_boolean(v) ? 1 : 0,
			     still ? json_object_get_string(still) : NULL,
			     acc ? MAX(json_object_get_int64(acc), 0) : -1,
			     dom ? json_object_get_int64(dom) : 0,
			     first && json_object_is_type(first, json_type_string) ?
			     json_object_get_string(first) : NULL,
			     generic ? json_object_get_string(generic) : NULL,
			     paths ? json_object_get_int64(paths) : -1);
}

char *ad_proof_text_doc(const AdSuggestionDoc *s)
{
	if (!s || s->verified < 0)
		return NULL;
	if (g_strcmp0(s->kind, "dontaudit") == 0)
		return ad_proof_text_hides(s->verified, s->still_denied, s->accesses,
					   s->domains, s->example);
	return ad_proof_text(s->verified, s->still_denied, s->accesses, s->domains, s->example,
			     s->generic_type, s->type_paths);
}
