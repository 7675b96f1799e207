/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which boolean settings would allow a denied access?  audit2why flips one
 * boolean at a time and recomputes everything (291 times per denial); a
 * rule under "a && b" is never found that way.  Here the conditional allow
 * rules that grant the missing permissions for the (source, target, class)
 * are looked up in an index, the booleans of their conditions collected,
 * and every assignment of those booleans evaluated: the answer is every
 * minimal set of changes that grants all missing permissions together.
 * Also here: the booleans' names and their descriptions from refpolicy's
 * documentation.
 */
#include "config.h"
#include "paths.h"

#include <string.h>

#include <gio/gio.h>

#include "escape.h"
#include "policy/policy-private.h"
#include "read/compress.h"

typedef struct {
	cond_node_t *node;
	guint32 grant_true;	/* missing bits granted while the condition holds */
	guint32 grant_false;	/* ... while it does not */
} AdRelevant;

static void ad_index_list(AdPolicy *p, cond_node_t *node, cond_av_list_t *list, gboolean when_true)
{
	for (; list; list = list->next) {
		avtab_ptr_t a = list->node;
		AdCondRule rule;
		gpointer key;
		GArray *rules;

		if (!a || !(a->key.specified & AVTAB_ALLOWED))
			continue;
		key = GUINT_TO_POINTER(((guint)a->key.target_class << 16) | a->key.source_type);
		rules = g_hash_table_lookup(p->cond_index, key);
		if (!rules) {
			rules = g_array_new(FALSE, FALSE, sizeof(AdCondRule));
			g_hash_table_insert(p->cond_index, key, rules);
		}
		rule.node = node;
		rule.perms = a->datum.data;
		rule.target = a->key.target_type;
		rule.when_true = when_true;
		g_array_append_val(rules, rule);
	}
}

/* Indexes the conditional allow rules by (class, source type or attribute). */
int ad_bool_index_build(AdPolicy *p)
{
	p->cond_index = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					      (GDestroyNotify)g_array_unref);
	for (cond_node_t *n = p->db.cond_list; n; n = n->next) {
		ad_index_list(p, n, n->true_list, TRUE);
		ad_index_list(p, n, n->false_list, FALSE);
	}
	return 0;
}

void ad_bool_result_free(AdBoolResult *r)
{
	if (!r)
		return;
	g_clear_pointer(&r->alts, g_ptr_array_unref);
	g_free(r);
}

/*
 * Evaluates a condition (RPN) with the boolean values in @values (indexed
 * by boolean value - 1).  Returns 0 or 1, or -1 for a malformed condition.
 */
int ad_cond_eval(const cond_expr_t *e, const guint8 *values, guint nbools)
{
	int s[COND_EXPR_MAXDEPTH];
	int sp = -1;

	for (; e; e = e->next) {
		switch (e->expr_type) {
		case COND_BOOL:
			if (sp == COND_EXPR_MAXDEPTH - 1 || !e->bool || e->bool > nbools)
				return -1;
			s[++sp] = values[e->bool - 1];
			break;
		case COND_NOT:
			if (sp < 0)
				return -1;
			s[sp] = !s[sp];
			break;
		case COND_OR:
		case COND_AND:
		case COND_XOR:
		case COND_EQ:
		case COND_NEQ:
			if (sp < 1)
				return -1;
			sp--;
			if (e->expr_type == COND_OR)
				s[sp] = s[sp] || s[sp + 1];
			else if (e->expr_type == COND_AND)
				s[sp] = s[sp] && s[sp + 1];
			else if (e->expr_type == COND_XOR || e->expr_type == COND_NEQ)
				s[sp] = s[sp] != s[sp + 1];
			else
				s[sp] = s[sp] == s[sp + 1];
			break;
		default:
			return -1;
		}
	}
	return sp == 0 ? s[0] : -1;
}

/* The missing bits that the relevant rules grant under the values in scratch. */
static guint32 ad_granted(AdPolicy *p, GArray *relevant)
{
	guint32 granted = 0;

	for (guint i = 0; i < relevant->len; i++) {
		AdRelevant *r = &g_array_index(relevant, AdRelevant, i);
		int v = ad_cond_eval(r->node->expr, p->bool_scratch, p->db.p_bools.nprim);

		if (v == 1)
			granted |= r->grant_true;
		else if (v == 0)
			granted |= r->grant_false;
	}
	return granted;
}

/* Collects the conditional rules granting some of @missing for the triple. */
static GArray *ad_relevant_rules(AdPolicy *p, const AdTeInfo *te, guint32 missing)
{
	GArray *relevant = g_array_new(FALSE, FALSE, sizeof(AdRelevant));
	g_autoptr(GHashTable) seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	ebitmap_t *sattr = &p->db.type_attr_map[te->stype - 1];
	ebitmap_t *tattr = &p->db.type_attr_map[te->ttype - 1];
	ebitmap_node_t *node;
	unsigned int bit;

	ebitmap_for_each_positive_bit(tattr, node, bit)
		p->target_mask[(bit + 1) / 64] |= G_GUINT64_CONSTANT(1) << ((bit + 1) % 64);

	ebitmap_for_each_positive_bit(sattr, node, bit) {
		gpointer key = GUINT_TO_POINTER(((guint)te->tclass << 16) | (bit + 1));
		GArray *rules = g_hash_table_lookup(p->cond_index, key);

		for (guint i = 0; rules && i < rules->len; i++) {
			AdCondRule *rule = &g_array_index(rules, AdCondRule, i);
			gpointer idx;
			AdRelevant *r;

			if (!(rule->perms & missing) ||
			    !(p->target_mask[rule->target / 64] &
			      (G_GUINT64_CONSTANT(1) << (rule->target % 64))))
				continue;
			if (!g_hash_table_lookup_extended(seen, rule->node,
							  NULL, &idx)) {
				AdRelevant fresh = { rule->node, 0, 0 };

				g_array_append_val(relevant, fresh);
				idx = GUINT_TO_POINTER(relevant->len - 1);
				g_hash_table_insert(seen, rule->node, idx);
			}
			r = &g_array_index(relevant, AdRelevant, GPOINTER_TO_UINT(idx));
			if (rule->when_true)
				r->grant_true |= rule->perms & missing;
			else
				r->grant_false |= rule->perms & missing;
		}
	}

	ebitmap_for_each_positive_bit(tattr, node, bit)
		p->target_mask[(bit + 1) / 64] = 0;
	return relevant;
}

/* The booleans (values) used by the relevant conditions, sorted. */
static GArray *ad_relevant_bools(GArray *relevant)
{
	GArray *bools = g_array_new(FALSE, FALSE, sizeof(guint32));

	for (guint i = 0; i < relevant->len; i++) {
		AdRelevant *r = &g_array_index(relevant, AdRelevant, i);

		for (cond_expr_t *e = r->node->expr; e; e = e->next) {
			gboolean have = FALSE;

			if (e->expr_type != COND_BOOL)
				continue;
			for (guint j = 0; j < bools->len && !have; j++)
				have = g_array_index(bools, guint32, j) == e->bool;
			if (!have)
				g_array_append_val(bools, e->bool);
		}
	}
	return bools;
}

/* Sets the scratch values: current values, with the booleans in @change flipped. */
static void ad_apply_change(AdPolicy *p, GArray *bools, const guint8 *current, guint64 change)
{
	for (guint i = 0; i < bools->len; i++) {
		guint32 b = g_array_index(bools, guint32, i);

		p->bool_scratch[b - 1] = current[i] ^ ((change >> i) & 1);
	}
}

static int ad_popcount_cmp(gconstpointer a, gconstpointer b)
{
	int pa = __builtin_popcountll(*(const guint64 *)a);
	int pb = __builtin_popcountll(*(const guint64 *)b);

	if (pa != pb)
		return pa - pb;
	return *(const guint64 *)a < *(const guint64 *)b ? -1 :
	       *(const guint64 *)a > *(const guint64 *)b;
}

/* Keeps the change sets that contain no other change set. */
static void ad_keep_minimal(GArray *sets)
{
	guint w = 0;

	g_array_sort(sets, ad_popcount_cmp);
	for (guint i = 0; i < sets->len; i++) {
		guint64 m = g_array_index(sets, guint64, i);
		gboolean superset = FALSE;

		for (guint j = 0; j < w && !superset; j++) {
			guint64 k = g_array_index(sets, guint64, j);

			superset = (k & m) == k;
		}
		if (!superset)
			g_array_index(sets, guint64, w++) = m;
	}
	g_array_set_size(sets, w);
}

static void ad_setting_free(AdBoolSetting *s)
{
	if (!s)
		return;
	g_free(s->name);
	g_free(s);
}

static int ad_setting_cmp(gconstpointer a, gconstpointer b)
{
	const AdBoolSetting *x = *(AdBoolSetting *const *)a;
	const AdBoolSetting *y = *(AdBoolSetting *const *)b;

	return strcmp(x->name, y->name);
}

/* fewest changes first, then by the names */
static int ad_alt_cmp(gconstpointer a, gconstpointer b)
{
	GPtrArray *x = *(GPtrArray *const *)a;
	GPtrArray *y = *(GPtrArray *const *)b;

	if (x->len != y->len)
		return (int)x->len - (int)y->len;
	for (guint i = 0; i < x->len; i++) {
		int c = ad_setting_cmp(&x->pdata[i], &y->pdata[i]);

		if (c)
			return c;
	}
	return 0;
}

/* Turns change sets into the public form: arrays of AdBoolSetting. */
static GPtrArray *ad_alternatives(AdPolicy *p, GArray *bools, const guint8 *current, GArray *sets)
{
	GPtrArray *alts = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);

	for (guint i = 0; i < sets->len; i++) {
		guint64 m = g_array_index(sets, guint64, i);
		GPtrArray *alt = g_ptr_array_new_with_free_func((GDestroyNotify)ad_setting_free);

		for (guint j = 0; j < bools->len; j++) {
			AdBoolSetting *s;

			if (!((m >> j) & 1))
				continue;
			s = g_new0(AdBoolSetting, 1);
			s->name = g_strdup(p->db.p_bool_val_to_name[g_array_index(bools, guint32, j) - 1]);
			s->value = !current[j];
			g_ptr_array_add(alt, s);
		}
		g_ptr_array_sort(alt, ad_setting_cmp);
		g_ptr_array_add(alts, alt);
	}
	g_ptr_array_sort(alts, ad_alt_cmp);
	if (alts->len > AD_BOOL_ALTS_MAX)
		g_ptr_array_set_size(alts, AD_BOOL_ALTS_MAX);
	return alts;
}

/*
 * Tries the change set @m: a full grant of @missing goes to @full; while
 * none is known, the change sets granting the most missing bits (*@best)
 * are kept in @part.
 */
static void ad_try_change(AdPolicy *p, GArray *relevant, GArray *bools, const guint8 *current,
			  guint32 missing, guint64 m, GArray *full, GArray *part, int *best)
{
	guint32 got;
	int n;

	ad_apply_change(p, bools, current, m);
	got = ad_granted(p, relevant) & missing;
	if (got == missing) {
		g_array_append_val(full, m);
		return;
	}
	if (!got || full->len)
		return;
	n = __builtin_popcount(got);
	if (n > *best) {
		*best = n;
		g_array_set_size(part, 0);
	}
	if (n == *best)
		g_array_append_val(part, m);
}

/*
 * Enumerates change sets over @bools: all 2^k of them when k is at most
 * AD_BOOL_ENUM_MAX, else (k up to 64) every set of at most three changes.
 * @full gets the sets granting all of @missing, @part those granting the
 * most of it when none grants all.
 */
static void ad_enumerate(AdPolicy *p, GArray *relevant, GArray *bools, const guint8 *current,
			 guint32 missing, GArray *full, GArray *part)
{
	guint k = MIN(bools->len, 64u);
	int best = 0;

	if (k <= AD_BOOL_ENUM_MAX) {
		for (guint64 m = 1; m < (G_GUINT64_CONSTANT(1) << k); m++) {
			ad_try_change(p, relevant, bools, current, missing, m, full, part, &best);
		}
		return;
	}
	for (guint a = 0; a < k; a++) {
		for (guint b = a; b < k; b++) {
			for (guint c = b; c < k; c++) {
				guint64 m = (G_GUINT64_CONSTANT(1) << a) | (G_GUINT64_CONSTANT(1) << b) |
					    (G_GUINT64_CONSTANT(1) << c);

				ad_try_change(p, relevant, bools, current, missing, m, full, part, &best);
			}
		}
	}
}

static AdBoolResult *ad_bool_compute(AdPolicy *p, const AdTeInfo *te, guint32 missing)
{
	AdBoolResult *res = g_new0(AdBoolResult, 1);
	g_autoptr(GArray) relevant = NULL;
	g_autoptr(GArray) bools = NULL;
	g_autoptr(GArray) full = NULL;
	g_autoptr(GArray) part = NULL;
	g_autofree guint8 *current = NULL;

	res->missing = missing;
	if (!missing)
		return res;
	relevant = ad_relevant_rules(p, te, missing);
	if (!relevant->len)
		return res;
	bools = ad_relevant_bools(relevant);
	if (!bools->len)
		return res;

	for (guint i = 0; i < p->db.p_bools.nprim; i++)
		p->bool_scratch[i] = p->db.bool_val_to_struct[i] &&
				     p->db.bool_val_to_struct[i]->state ? 1 : 0;
	current = g_new0(guint8, bools->len);
	for (guint i = 0; i < bools->len; i++)
		current[i] = p->bool_scratch[g_array_index(bools, guint32, i) - 1];

	full = g_array_new(FALSE, FALSE, sizeof(guint64));
	part = g_array_new(FALSE, FALSE, sizeof(guint64));
	ad_enumerate(p, relevant, bools, current, missing, full, part);
	if (full->len) {
		ad_keep_minimal(full);
		res->alts = ad_alternatives(p, bools, current, full);
	} else if (part->len) {
		ad_keep_minimal(part);
		res->alts = ad_alternatives(p, bools, current, part);
		res->partial = TRUE;
	}
	return res;
}

/*
 * The boolean alternatives for the TE-missing bits @missing of @te,
 * cached with the triple.  The result is borrowed.
 */
const AdBoolResult *ad_bool_solve(AdPolicy *p, AdTeInfo *te, guint32 missing)
{
	AdBoolResult *r;

	for (guint i = 0; i < te->bools->len; i++) {
		r = te->bools->pdata[i];
		if (r->missing == missing)
			return r;
	}
	r = ad_bool_compute(p, te, missing);
	g_ptr_array_add(te->bools, r);
	return r;
}

/* ---- names and descriptions ------------------------------------------------- */

GPtrArray *ad_policy_bool_names(AdPolicy *p)
{
	g_return_val_if_fail(p != NULL, NULL);
	return ad_names_sorted(p->db.p_bool_val_to_name, p->db.p_bools.nprim);
}

/*
 * refpolicy's policy.xml documents each boolean and tunable:
 *   <bool name="x" dftval="false"><desc><p>Determine whether ...</p></desc></bool>
 * The text of <desc> (all paragraphs and list items) is kept, whitespace
 * collapsed.  Interfaces, templates and summaries are skipped.
 */
typedef struct {
	GHashTable *docs;
	char *name;			/* inside <bool> or <tunable> */
	guint in_desc;			/* depth of <desc> inside it */
	GString *text;
} AdDocParse;

/* Collapses runs of whitespace to one space and trims: a new string. */
static char *ad_collapse_space(const char *s)
{
	GString *out = g_string_sized_new(strlen(s));
	gboolean space = FALSE;

	for (; *s; s++) {
		if (g_ascii_isspace(*s)) {
			space = TRUE;
			continue;
		}
		if (space && out->len)
			g_string_append_c(out, ' ');
		space = FALSE;
		g_string_append_c(out, *s);
	}
	return g_string_free(out, FALSE);
}

static void ad_doc_start(GMarkupParseContext *ctx, const char *element, const char **names,
			 const char **values, gpointer data, GError **error)
{
	AdDocParse *d = data;

	if (!d->name) {
		if (!g_str_equal(element, "bool") && !g_str_equal(element, "tunable"))
			return;
		for (guint i = 0; names[i]; i++)
			if (g_str_equal(names[i], "name") && *values[i])
				d->name = g_strdup(values[i]);
		d->in_desc = 0;
		g_string_truncate(d->text, 0);
		return;
	}
	if (g_str_equal(element, "desc"))
		d->in_desc++;
	else if (d->in_desc)
		g_string_append_c(d->text, ' ');	/* <p>, <li>: a word boundary */
}

static void ad_doc_end(GMarkupParseContext *ctx, const char *element, gpointer data,
		       GError **error)
{
	AdDocParse *d = data;

	if (!d->name)
		return;
	if (g_str_equal(element, "bool") || g_str_equal(element, "tunable")) {
		char *text = ad_collapse_space(d->text->str);

		if (*text && !g_hash_table_contains(d->docs, d->name))
			g_hash_table_insert(d->docs, g_steal_pointer(&d->name), text);
		else
			g_free(text);
		g_clear_pointer(&d->name, g_free);
	} else if (g_str_equal(element, "desc")) {
		if (d->in_desc)
			d->in_desc--;
	} else if (d->in_desc) {
		g_string_append_c(d->text, ' ');
	}
}

static void ad_doc_text(GMarkupParseContext *ctx, const char *text, gsize len, gpointer data,
			GError **error)
{
	AdDocParse *d = data;

	if (d->name && d->in_desc)
		g_string_append_len(d->text, text, len);
}

/* policy.xml is some 2 MiB: a gzip file that inflates beyond this is not read */
#define AD_DOCS_MAX (64u << 20)

typedef struct {
	GByteArray *out;
	gboolean over;
} Gunzip;

static void gunzip_out(char *buf, gsize len, gpointer user_data)
{
	Gunzip *g = user_data;

	if (g->over || g->out->len + len > AD_DOCS_MAX)
		g->over = TRUE;
	else
		g_byte_array_append(g->out, (const guint8 *)buf, len);
}

/*
 * The contents of a gzip file in memory, at most AD_DOCS_MAX bytes, or NULL
 * with @error set.  Fed 64 KiB at a time, so that a file that inflates too
 * far stops soon after the limit.
 */
static char *ad_gunzip(const char *data, gsize len, gsize *ret_len, GError **error)
{
	g_autoptr(AdInflate) z = ad_inflate_new(AD_COMPRESSION_GZIP);
	Gunzip g = { g_byte_array_new(), FALSE };
	const char *zerr = NULL;
	gsize at = 0;

	while (at < len && !zerr && !g.over) {
		gsize n = MIN(len - at, 1 << 16);

		if (!ad_inflate_feed(z, data + at, n, gunzip_out, &g, &zerr))
			break;
		at += n;
	}
	if (!zerr && !g.over)
		ad_inflate_finish(z, gunzip_out, &g, &zerr);
	if (zerr || g.over) {
		if (g.over)
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
				    "inflates to more than %u MiB: not read", AD_DOCS_MAX >> 20);
		else
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", zerr);
		g_byte_array_unref(g.out);
		return NULL;
	}
	*ret_len = g.out->len;
	g_byte_array_append(g.out, (const guint8 *)"", 1);
	return (char *)g_byte_array_free(g.out, FALSE);
}

/*
 * Parses the <bool> and <tunable> elements of @xml into @d, in order.
 * Only they matter, a few percent of policy.xml: each is parsed on its
 * own instead of the whole document (which took as long as reading the
 * policy).  Stops at the first error.
 */
static gboolean ad_doc_parse_elements(const char *xml, gsize xml_len, AdDocParse *d,
				      GError **error)
{
	static const GMarkupParser parser = {
		.start_element = ad_doc_start,
		.end_element = ad_doc_end,
		.text = ad_doc_text,
	};
	const char *end = xml + xml_len, *at = xml;
	/* the next <bool and <tunable, each searched again only once passed */
	const char *b = memmem(xml, xml_len, "<bool ", 6);
	const char *t = memmem(xml, xml_len, "<tunable ", 9);

	while (at < end) {
		g_autoptr(GMarkupParseContext) ctx = NULL;
		const char *start, *close, *stop;
		gboolean ok;

		if (b && b < at)
			b = memmem(at, end - at, "<bool ", 6);
		if (t && t < at)
			t = memmem(at, end - at, "<tunable ", 9);
		start = b && (!t || b < t) ? b : t;
		if (!start)
			break;
		close = start == b ? "</bool>" : "</tunable>";
		stop = memmem(start, end - start, close, strlen(close));
		if (!stop) {
			g_set_error(error, G_MARKUP_ERROR, G_MARKUP_ERROR_PARSE, "<%s> without %s",
				    start == b ? "bool" : "tunable", close);
			return FALSE;
		}
		stop += strlen(close);
		ctx = g_markup_parse_context_new(&parser, G_MARKUP_TREAT_CDATA_AS_TEXT, d, NULL);
		ok = g_markup_parse_context_parse(ctx, start, stop - start, error) &&
		     g_markup_parse_context_end_parse(ctx, error);
		g_clear_pointer(&d->name, g_free);
		if (!ok)
			return FALSE;
		at = stop;
	}
	return TRUE;
}

/*
 * Reads the boolean descriptions of refpolicy's policy.xml at @path
 * (plain or gzip-compressed; ISO-8859-1 as it declares, or UTF-8) into
 * @docs.  What was read before a parse error is kept.  FALSE with @error
 * when it cannot be read or parsed.
 */
static gboolean bool_docs_parse(GHashTable *docs, const char *path, GError **error)
{
	g_autofree char *data = NULL, *plain = NULL, *utf8 = NULL;
	AdDocParse d = { 0 };
	const char *xml;
	gsize len, xml_len;
	gboolean ok;

	if (!g_file_get_contents(path, &data, &len, error))
		return FALSE;
	xml = data;
	xml_len = len;
	if (len >= 2 && (guint8)data[0] == 0x1f && (guint8)data[1] == 0x8b) {
		plain = ad_gunzip(data, len, &xml_len, error);
		if (!plain) {
			g_prefix_error(error, "%s: ", path);
			return FALSE;
		}
		xml = plain;
	}
	if (!ad_utf8_valid(xml, xml_len)) {
		gsize n = 0;

		utf8 = g_convert(xml, xml_len, "UTF-8", "ISO-8859-1", NULL, &n, error);
		if (!utf8) {
			g_prefix_error(error, "%s: ", path);
			return FALSE;
		}
		xml = utf8;
		xml_len = n;
	}

	d.docs = docs;
	d.text = g_string_new(NULL);
	ok = ad_doc_parse_elements(xml, xml_len, &d, error);
	if (!ok)
		g_prefix_error(error, "%s: ", path);
	g_free(d.name);
	g_string_free(d.text, TRUE);
	return ok;
}

static GHashTable *bool_docs_new(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

/* bool_docs_parse() into p->bool_docs */
gboolean ad_bool_docs_load(AdPolicy *p, const char *path, GError **error)
{
	if (!p->bool_docs)
		p->bool_docs = bool_docs_new();
	return bool_docs_parse(p->bool_docs, path, error);
}

GHashTable *ad_bool_docs_read(void)
{
	const char *path = ad_env_path("AVCDOCTOR_POLICY_XML");
	GHashTable *docs = bool_docs_new();

	if (!path || !*path)
		path = "/usr/share/selinux/devel/policy.xml";
	/* no documentation is no error (descriptions are a nicety): not retried */
	bool_docs_parse(docs, path, NULL);
	return docs;
}

void ad_policy_set_bool_docs(AdPolicy *p, GHashTable *docs)
{
	g_clear_pointer(&p->bool_docs, g_hash_table_unref);
	p->bool_docs = docs;
}

const char *ad_policy_bool_description(AdPolicy *p, const char *name)
{
	g_return_val_if_fail(p != NULL, NULL);
	if (!p->bool_docs)
		p->bool_docs = ad_bool_docs_read();
	if (!name)
		return NULL;
	return g_hash_table_lookup(p->bool_docs, name);
}
