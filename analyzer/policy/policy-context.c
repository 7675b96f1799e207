/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Security contexts: libsepol converts them (sepol_context_to_sid), we keep
 * a copy of the result and forget the SID, so libsepol's sidtab stays small
 * (its search is linear and it never shrinks: audit2why spends 39 minutes
 * on 100k distinct MCS pairs).  When libsepol refuses a context we parse it
 * ourselves to say why, in words.
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <sepol/policydb/services.h>

#include "policy/policy-private.h"

void ad_context_info_free(AdContextInfo *ci)
{
	if (!ci)
		return;
	if (ci->ok)
		context_destroy(&ci->ctx);
	g_clear_pointer(&ci->unknown, g_ptr_array_unref);
	g_free(ci->problem);
	g_free(ci->note);
	g_free(ci);
}

/*
 * SIDs are only used within one call: once the table holds
 * AD_SIDTAB_MAX of them, start a new one.  Call before converting.
 */
void ad_sidtab_trim(AdPolicy *p)
{
	if (p->sidtab.nel < AD_SIDTAB_MAX)
		return;
	sepol_sidtab_destroy(&p->sidtab);
	sepol_sidtab_init(&p->sidtab);
}

/* A SID for a context we hold (libsepol copies it into the sidtab). */
int ad_context_to_sid(AdPolicy *p, const context_struct_t *c, sepol_security_id_t *ret_sid)
{
	ad_policy_activate(p);
	return sepol_sidtab_context_to_sid(&p->sidtab, (context_struct_t *)c, ret_sid) < 0 ? -1 : 0;
}

/* libsepol's conversion; on success @out holds our own copy. */
static int ad_context_convert(AdPolicy *p, const char *str, context_struct_t *out)
{
	sepol_security_id_t sid;
	context_struct_t *c;

	if (!*str)
		return -1;
	/* libsepol dereferences NULL on some malformed strings ("<<none>>"): only names it can parse */
	for (const char *q = str; *q; q++)
		if (!g_ascii_isalnum(*q) && !strchr("_.:,-", *q))
			return -1;
	ad_policy_activate(p);
	ad_sidtab_trim(p);
	ad_sepol_clear_message();
	if (sepol_context_to_sid(str, strlen(str), &sid) < 0)
		return -1;
	c = sepol_sidtab_search(&p->sidtab, sid);
	if (!c)
		return -1;
	context_init(out);
	if (context_cpy(out, c) < 0) {
		context_destroy(out);
		return -1;
	}
	return 0;
}

/* ---- levels in text ------------------------------------------------------ */

/* appends the run of categories first..last as "c1", "c1,c2" or "c1.c5" */
static void ad_append_cat_run(AdPolicy *p, GString *s, gboolean first, guint lo, guint hi)
{
	g_string_append_c(s, first ? ':' : ',');
	g_string_append(s, p->db.p_cat_val_to_name[lo]);
	if (hi - lo >= 2)
		g_string_append_printf(s, ".%s", p->db.p_cat_val_to_name[hi]);
	else if (hi - lo == 1)
		g_string_append_printf(s, ",%s", p->db.p_cat_val_to_name[hi]);
}

/* "s0:c1,c3,c5.c9" (runs of three or more categories as a range) */
char *ad_mls_level_to_string(AdPolicy *p, const mls_level_t *l)
{
	GString *s = g_string_new(NULL);
	ebitmap_node_t *node;
	unsigned int bit;
	guint lo = 0, hi = 0;
	gboolean in_run = FALSE, first = TRUE;

	if (l->sens >= 1 && l->sens <= p->db.p_levels.nprim)
		g_string_append(s, p->db.p_sens_val_to_name[l->sens - 1]);
	else
		g_string_append_printf(s, "s?%u", l->sens);

	ebitmap_for_each_positive_bit(&l->cat, node, bit) {
		if (in_run && bit == hi + 1) {
			hi = bit;
			continue;
		}
		if (in_run) {
			ad_append_cat_run(p, s, first, lo, hi);
			first = FALSE;
		}
		lo = hi = bit;
		in_run = TRUE;
	}
	if (in_run)
		ad_append_cat_run(p, s, first, lo, hi);
	return g_string_free(s, FALSE);
}

/* "low" or "low-high" */
char *ad_mls_range_to_string(AdPolicy *p, const mls_range_t *r)
{
	g_autofree char *lo = ad_mls_level_to_string(p, &r->level[0]);
	g_autofree char *hi = NULL;

	if (mls_level_eq(&r->level[0], &r->level[1]))
		return g_steal_pointer(&lo);
	hi = ad_mls_level_to_string(p, &r->level[1]);
	return g_strdup_printf("%s-%s", lo, hi);
}

/* ---- diagnosis ------------------------------------------------------------ */

typedef struct {
	AdPolicy *p;
	GPtrArray *unknown;	/* "level s9", "category c2000" */
	GPtrArray *problems;	/* sentences */
} AdDiag;

static void ad_add_unique(GPtrArray *a, char *s)
{
	for (guint i = 0; i < a->len; i++) {
		if (g_str_equal(a->pdata[i], s)) {
			g_free(s);
			return;
		}
	}
	g_ptr_array_add(a, s);
}

/*
 * Parses one level "s0" or "s0:c1,c3.c5" into @l.  Unknown names go to
 * @d->unknown, syntax errors to @d->problems.  Returns 0 when @l is usable.
 */
static int ad_mls_level_parse(AdDiag *d, const char *text, mls_level_t *l)
{
	policydb_t *db = &d->p->db;
	g_auto(GStrv) parts = NULL;
	level_datum_t *ld;
	int rc = 0;

	mls_level_init(l);
	if (!text || !*text) {
		ad_add_unique(d->problems, g_strdup(_("a level is empty")));
		return -1;
	}
	parts = g_strsplit(text, ":", 2);
	if (!parts[0] || !*parts[0]) {
		ad_add_unique(d->problems,
			      /* TRANSLATORS: %s is an MLS level as written in the log */
			      g_strdup_printf(_("the level \"%s\" has no sensitivity"), text));
		return -1;
	}
	ld = hashtab_search(db->p_levels.table, parts[0]);
	if (!ld || !ld->level) {
		ad_add_unique(d->unknown, g_strdup_printf("level %s", parts[0]));
		rc = -1;
	} else {
		l->sens = ld->level->sens;
	}
	if (!parts[1])
		return rc;
	if (!*parts[1]) {
		ad_add_unique(d->problems,
			      /* TRANSLATORS: %s is an MLS level as written in the log */
			      g_strdup_printf(_("the level \"%s\" has an empty category list"),
					      text));
		return -1;
	}

	g_auto(GStrv) items = g_strsplit(parts[1], ",", -1);
	for (char **it = items; *it; it++) {
		g_auto(GStrv) ends = g_strsplit(*it, ".", 2);
		cat_datum_t *lo, *hi;

		if (!ends[0] || !*ends[0] || (ends[1] && !*ends[1])) {
			ad_add_unique(d->problems,
				      /* TRANSLATORS: %s is a list of MLS categories (c0,c3.c5) */
				      g_strdup_printf(_("the category list \"%s\" is malformed"),
						      parts[1]));
			rc = -1;
			continue;
		}
		lo = hashtab_search(db->p_cats.table, ends[0]);
		hi = ends[1] ? hashtab_search(db->p_cats.table, ends[1]) : lo;
		if (!lo)
			ad_add_unique(d->unknown, g_strdup_printf("category %s", ends[0]));
		if (ends[1] && !hi)
			ad_add_unique(d->unknown, g_strdup_printf("category %s", ends[1]));
		if (!lo || !hi) {
			rc = -1;
			continue;
		}
		if (lo->s.value > hi->s.value) {
			ad_add_unique(d->problems,
				      /* TRANSLATORS: %s is a range of MLS categories (c5.c0) */
				      g_strdup_printf(_("the category range %s is reversed"), *it));
			rc = -1;
			continue;
		}
		for (guint32 v = lo->s.value; v <= hi->s.value; v++)
			ebitmap_set_bit(&l->cat, v - 1, 1);
	}
	return rc;
}

/* Are the categories of @l allowed with its sensitivity?  Says which are not. */
static gboolean ad_mls_level_check(AdDiag *d, const mls_level_t *l)
{
	policydb_t *db = &d->p->db;
	level_datum_t *ld;
	ebitmap_node_t *node;
	unsigned int bit;
	gboolean ok = TRUE;

	if (!l->sens || l->sens > db->p_levels.nprim)
		return FALSE;
	ld = hashtab_search(db->p_levels.table, db->p_sens_val_to_name[l->sens - 1]);
	if (!ld || !ld->level)
		return FALSE;
	ebitmap_for_each_positive_bit(&l->cat, node, bit) {
		if (!ebitmap_get_bit(&ld->level->cat, bit)) {
			ad_add_unique(d->problems,
				      /* TRANSLATORS: %1$s is an MLS category (c3), %2$s a
				         sensitivity (s0) */
				      g_strdup_printf(_("the category %s is not allowed with the "
							"sensitivity %s"),
						      db->p_cat_val_to_name[bit],
						      db->p_sens_val_to_name[l->sens - 1]));
			ok = FALSE;
		}
	}
	return ok;
}

/* "the type foo_t is not defined ...", "the user test_u and the type foo_t are not ..." */
static char *ad_unknown_sentence(GPtrArray *unknown)
{
	g_autofree char *list = ad_unknown_list(unknown);

	/* TRANSLATORS: %s is "the type foo_t" or a list such as "the user test_u
	   and the type foo_t" */
	return g_strdup_printf(ngettext("%s is not defined in this policy",
					"%s are not defined in this policy", unknown->len), list);
}

/* Fills @ci's reason, unknown and problem for a context libsepol refused. */
static void ad_context_diagnose(AdPolicy *p, const char *str, AdContextInfo *ci)
{
	policydb_t *db = &p->db;
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) f = g_strsplit(str, ":", 4);
	AdDiag d = { p, NULL, problems };
	user_datum_t *user = NULL;
	role_datum_t *role = NULL;
	type_datum_t *type = NULL;
	mls_range_t range;
	gboolean have_range = FALSE;

	ci->unknown = g_ptr_array_new_with_free_func(g_free);
	d.unknown = ci->unknown;
	ci->reason = AD_REASON_INVALID_CONTEXT;

	if (g_strv_length(f) < 3 || !*f[0] || !*f[1] || !*f[2]) {
		/* TRANSLATORS: "it" is a context; user:role:type:level stays as it is */
		const char *form = _("it is not of the form user:role:type:level");

		if (!db->mls)
			/* TRANSLATORS: "it" is a context; user:role:type stays as it is */
			form = _("it is not of the form user:role:type");
		ci->problem = g_strdup(form);
		return;
	}
	user = hashtab_search(db->p_users.table, f[0]);
	if (!user)
		g_ptr_array_add(ci->unknown, g_strdup_printf("user %s", f[0]));
	role = hashtab_search(db->p_roles.table, f[1]);
	if (!role)
		g_ptr_array_add(ci->unknown, g_strdup_printf("role %s", f[1]));
	type = hashtab_search(db->p_types.table, f[2]);
	if (!type)
		g_ptr_array_add(ci->unknown, g_strdup_printf("type %s", f[2]));
	else if (type->flavor == TYPE_ATTRIB)
		g_ptr_array_add(problems,
				/* TRANSLATORS: %s is an SELinux type attribute */
				g_strdup_printf(_("%s is an attribute, not a type"), f[2]));

	mls_range_init(&range);
	if (f[3] && !db->mls) {
		/* TRANSLATORS: "it" is a context, %s an MLS level */
		g_ptr_array_add(problems, g_strdup_printf(_("it has the level %s, but the policy "
							    "has no MLS"), f[3]));
	} else if (f[3] && !*f[3]) {
		g_ptr_array_add(problems, g_strdup(_("its level is empty")));
	} else if (f[3]) {
		/* f[3] is not empty: lh[0] is set */
		g_auto(GStrv) lh = g_strsplit(f[3], "-", 2);
		int rc = ad_mls_level_parse(&d, lh[0], &range.level[0]);

		if (lh[1])
			rc |= ad_mls_level_parse(&d, lh[1], &range.level[1]);
		else if (rc == 0)
			rc = mls_level_cpy(&range.level[1], &range.level[0]);
		have_range = rc == 0;
	} else if (db->mls) {
		g_ptr_array_add(problems, g_strdup(_("it has no level, which this MLS policy "
						    "needs")));
	}

	if (ci->unknown->len) {
		gboolean levels_only = TRUE;

		/* only a sensitivity or a category missing: the reason says so, not "type" */
		for (guint i = 0; i < ci->unknown->len && levels_only; i++)
			levels_only = g_str_has_prefix(ci->unknown->pdata[i], "category ") ||
				      g_str_has_prefix(ci->unknown->pdata[i], "level ");
		ci->reason = levels_only ? AD_REASON_UNKNOWN_LEVEL : AD_REASON_UNKNOWN_TYPE;
		ci->problem = ad_unknown_sentence(ci->unknown);
		mls_range_destroy(&range);
		return;
	}

	/* every name exists: check what libsepol's context_is_valid() checks */
	if (type && type->flavor != TYPE_ATTRIB && role && role->s.value != OBJECT_R_VAL) {
		if (!ebitmap_get_bit(&role->cache, type->s.value - 1) &&
		    !ebitmap_get_bit(&role->types.types, type->s.value - 1))
			g_ptr_array_add(problems,
					g_strdup_printf(_("the role %s is not authorised for the "
							  "type %s"),
							f[1], db->p_type_val_to_name[type->s.value - 1]));
		if (user && !ebitmap_get_bit(&user->cache, role->s.value - 1) &&
		    !ebitmap_get_bit(&user->roles.roles, role->s.value - 1))
			g_ptr_array_add(problems,
					g_strdup_printf(_("the user %s is not authorised for the "
							  "role %s"),
							f[0], f[1]));
	}
	if (have_range) {
		gboolean levels_ok = ad_mls_level_check(&d, &range.level[0]);

		levels_ok &= ad_mls_level_check(&d, &range.level[1]);
		if (levels_ok && !mls_level_dom(&range.level[1], &range.level[0])) {
			g_autofree char *lo = ad_mls_level_to_string(p, &range.level[0]);
			g_autofree char *hi = ad_mls_level_to_string(p, &range.level[1]);

			g_ptr_array_add(problems,
					g_strdup_printf(_("the high level %s does not dominate the "
							  "low level %s"),
							hi, lo));
		} else if (levels_ok && user && role && role->s.value != OBJECT_R_VAL &&
			   !mls_range_contains(user->exp_range, range)) {
			g_autofree char *want = ad_mls_range_to_string(p, &range);
			g_autofree char *has = ad_mls_range_to_string(p, &user->exp_range);

			g_ptr_array_add(problems,
					/* TRANSLATORS: %1$s is an MLS range, %2$s the range
					   of the SELinux user %3$s */
					g_strdup_printf(_("the level %s is outside the range %s of "
							  "the user %s"),
							want, has, f[0]));
		}
	}
	mls_range_destroy(&range);

	if (problems->len) {
		ci->problem = g_strdup(problems->pdata[0]);
		for (guint i = 1; i < problems->len; i++) {
			char *old = ci->problem;

			/* TRANSLATORS: joins the problems of a context: %1$s is the
			   problems so far, %2$s the next one */
			ci->problem = g_strdup_printf(_("%s, and %s"), old,
						      (char *)problems->pdata[i]);
			g_free(old);
		}
	} else if (*ad_sepol_last_message()) {
		/* TRANSLATORS: "it" is a context; %s is libsepol's message */
		ci->problem = g_strdup_printf(_("libsepol refuses it (%s)"),
					      ad_sepol_last_message());
	} else {
		ci->problem = g_strdup(_("libsepol refuses it"));
	}
}

void ad_context_cache_clear(AdPolicy *p)
{
	g_hash_table_remove_all(p->contexts);
	p->contexts_bytes = 0;
}

/*
 * Empties the context cache when it is full.  Only at the start of a
 * top-level call: lookups made within the call stay valid.
 */
void ad_context_cache_trim(AdPolicy *p)
{
	if (g_hash_table_size(p->contexts) >= AD_CONTEXT_CACHE_MAX ||
	    p->contexts_bytes >= AD_CONTEXT_CACHE_BYTES)
		ad_context_cache_clear(p);
}

/*
 * What a cached context costs, roughly: the key, the info and the table
 * slot, the texts, the category bitmaps of the levels (a few nodes).
 */
static gsize ad_context_info_size(const char *str, const AdContextInfo *ci)
{
	gsize n = strlen(str) + 17 + sizeof(*ci) + 16 + 32;

	n += ci->note ? strlen(ci->note) + 17 : 0;
	n += ci->problem ? strlen(ci->problem) + 17 : 0;
	for (guint i = 0; ci->unknown && i < ci->unknown->len; i++)
		n += strlen(ci->unknown->pdata[i]) + 17 + sizeof(gpointer);
	if (ci->ok)
		n += 4 * 32;
	return n;
}

static guint ad_count_char(const char *s, char c)
{
	guint n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/*
 * The cached view of context @str: converted (ok) or diagnosed.  Contexts
 * without a level on an MLS policy (logs from 2006, "user_u:user_r:user_t")
 * are taken as s0, and a level on a non-MLS policy is dropped; the note
 * says so.  The result is borrowed until ad_context_cache_trim().
 */
const AdContextInfo *ad_context_lookup(AdPolicy *p, const char *str)
{
	AdContextInfo *ci = g_hash_table_lookup(p->contexts, str);

	if (ci)
		return ci;

	ci = g_new0(AdContextInfo, 1);
	if (ad_context_convert(p, str, &ci->ctx) == 0) {
		ci->ok = TRUE;
	} else if (p->db.mls && ad_count_char(str, ':') == 2) {
		g_autofree char *with = g_strconcat(str, ":s0", NULL);

		if (ad_context_convert(p, with, &ci->ctx) == 0) {
			ci->ok = TRUE;
			/* TRANSLATORS: %s is an SELinux context; s0 stays as it is */
			ci->note = g_strdup_printf(_("the context %s has no MLS level; s0 was "
						     "assumed"), str);
		}
	} else if (!p->db.mls && ad_count_char(str, ':') >= 3) {
		g_auto(GStrv) f = g_strsplit(str, ":", 4);
		g_autofree char *without = g_strjoin(":", f[0], f[1], f[2], NULL);

		if (ad_context_convert(p, without, &ci->ctx) == 0) {
			ci->ok = TRUE;
			/* TRANSLATORS: %1$s is an MLS level, %2$s an SELinux context */
			ci->note = g_strdup_printf(_("the policy has no MLS; the level %s of the "
						     "context %s was ignored"),
						   f[3], str);
		}
	}
	if (!ci->ok) {
		context_init(&ci->ctx);
		ad_context_diagnose(p, str, ci);
	}
	p->contexts_bytes += ad_context_info_size(str, ci);
	g_hash_table_insert(p->contexts, g_strdup(str), ci);
	return ci;
}
