// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Alerts: denials grouped by signature, with what the plugins suggest.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <glib/gi18n.h>

#include "alert.h"
#include "read/signature.h"
#include "analysis/safety.h"
#include "analysis/alert-text.h"
#include "alert-doc.h"
#include "escape.h"
#include "format.h"
#include "hash.h"
#include "i18n.h"
#include "output/report.h"

struct _AdAlertSet {
	GHashTable *by_id;	/* id -> AdAlert* */
	GHashTable *by_key;	/* signature text -> AdAlert*: no digest per denial */
	GString *key;
	GPtrArray *order;	/* AdAlert*, owned, first appearance order */
};

static void alert_free(AdAlert *a)
{
	g_free(a->id);
	g_free(a->stype);
	g_free(a->ttype);
	g_free(a->tclass);
	g_ptr_array_unref(a->perms);
	g_hash_table_unref(a->hosts);
	g_ptr_array_unref(a->paths);
	g_ptr_array_unref(a->comms);
	ad_denial_unref(a->latest);
	ad_verdict_unref(a->verdict);
	if (a->suggestions)
		g_ptr_array_unref(a->suggestions);
	if (a->notes)
		g_ptr_array_unref(a->notes);
	g_free(a);
}

void ad_alert_release(AdAlert *a)
{
	g_clear_pointer(&a->latest, ad_denial_unref);
	g_clear_pointer(&a->verdict, ad_verdict_unref);
	g_clear_pointer(&a->suggestions, g_ptr_array_unref);
	g_clear_pointer(&a->notes, g_ptr_array_unref);
}

AdAlertSet *ad_alert_set_new(void)
{
	AdAlertSet *s = g_new0(AdAlertSet, 1);

	s->by_id = g_hash_table_new(g_str_hash, g_str_equal);
	s->by_key = g_hash_table_new_full(ad_str_hash, g_str_equal, g_free, NULL);
	s->key = g_string_new(NULL);
	s->order = g_ptr_array_new_with_free_func((GDestroyNotify)alert_free);
	return s;
}

void ad_alert_set_free(AdAlertSet *s)
{
	if (!s)
		return;
	g_hash_table_unref(s->by_id);
	g_hash_table_unref(s->by_key);
	g_string_free(s->key, TRUE);
	g_ptr_array_unref(s->order);
	g_free(s);
}

/* keeps up to AD_ALERT_MAX_PATHS distinct byte strings */
static void remember(GPtrArray *list, AdBytes b)
{
	if (!b.data)
		return;
	for (guint i = 0; i < list->len; i++)
		if (ad_bytes_equal_gbytes(b, g_ptr_array_index(list, i)))
			return;
	if (list->len < AD_ALERT_MAX_PATHS)
		g_ptr_array_add(list, ad_bytes_dup(b));
}

AdAlert *ad_alert_set_add(AdAlertSet *s, AdDenial *d, const AdVerdict *v, gboolean *ret_new)
{
	g_autofree char *id = NULL;
	AdAlert *a;
	const char *node = ad_denial_node(d);
	double t = ad_denial_time(d);

	if (ret_new)
		*ret_new = FALSE;
	if (d->granted)
		return NULL;
	ad_denial_signature_key(s->key, d);
	a = g_hash_table_lookup(s->by_key, s->key->str);
	if (!a) {
		id = ad_denial_signature_id(s->key);
		a = g_hash_table_lookup(s->by_id, id);
	}
	if (!a) {
		a = g_new0(AdAlert, 1);
		a->id = g_steal_pointer(&id);
		g_hash_table_insert(s->by_key, g_strdup(s->key->str), a);
		a->stype = ad_context_type(d->scontext);
		a->ttype = ad_context_type(d->tcontext);
		a->tclass = g_strdup(d->tclass);
		a->perms = ad_denial_sorted_perms(d);
		a->hosts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		a->paths = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
		a->comms = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
		a->first_seen = t;
		a->last_seen = t;
		a->level = AD_LEVEL_YELLOW;
		g_hash_table_insert(s->by_id, a->id, a);
		g_ptr_array_add(s->order, a);
		if (ret_new)
			*ret_new = TRUE;
	}
	/* an exec's inheritance checks: the alert names each one seen */
	for (guint i = 0; d->perms && i < d->perms->len; i++) {
		const char *perm = g_ptr_array_index(d->perms, i);

		if (!g_ptr_array_find_with_equal_func(a->perms, perm, g_str_equal, NULL)) {
			g_ptr_array_add(a->perms, g_strdup(perm));
			ad_denial_sort_perms(a->perms);
		}
	}
	/* ... and the records of one exec are one occurrence, not three */
	a->repeat = a->latest && a->latest->event == d->event && ad_denial_denies_inheritance(d);
	if (a->repeat)
		return a;
	a->count++;
	if (d->permissive == 0)
		a->blocked++;
	else if (d->permissive == 1)
		a->logged_only++;
	if (t && (t < a->first_seen || !a->first_seen))
		a->first_seen = t;
	if (t >= a->last_seen || !a->latest) {
		AdDenial *old = a->latest;

		a->last_seen = MAX(t, a->last_seen);
		/* ref first: @d may be the latest already */
		a->latest = ad_denial_ref(d);
		ad_denial_unref(old);
		/* kept beyond the next explain: a reference (ref first: @v may be it) */
		ad_verdict_ref(v);
		ad_verdict_unref(a->verdict);
		a->verdict = v;
	}
	const char *h = node ? node : "";

	g_hash_table_insert(a->hosts, g_strdup(h),
			    GSIZE_TO_POINTER(GPOINTER_TO_SIZE(g_hash_table_lookup(a->hosts, h)) +
					     1));
	remember(a->paths, ad_bytes_or(d->path, d->name));
	remember(a->comms, ad_bytes_or(d->exe, d->comm));
	return a;
}

GPtrArray *ad_alert_set_alerts(AdAlertSet *s)
{
	return s->order;
}

/*
 * The path among those @a remembers that names a credential file (a
 * password file, sudoers, PAM, SSH keys) when its latest denial's does
 * not: one signature (types, class, permissions) holds every etc_t write,
 * and a write to /etc/sudoers must not hide behind a later one to a
 * harmless file.  Borrowed from @a, or NULL.
 */
static GBytes *credential_path(const AdAlert *a, AdPluginEnv *ctx)
{
	g_autofree char *latest = ad_denial_path_str(a->latest);
	g_autofree char *ttype = ad_denial_ttype(a->latest);

	if (!ttype || ad_safety_credential_target(ctx->policy, ttype, latest))
		return NULL;
	for (guint i = 0; i < a->paths->len; i++) {
		GBytes *b = g_ptr_array_index(a->paths, i);
		gsize len;
		const char *data = g_bytes_get_data(b, &len);
		g_autofree char *p = len && data[0] == '/' && !memchr(data, '\0', len)
					     ? g_strndup(data, len) : NULL;

		if (p && ad_safety_credential_target(ctx->policy, ttype, p))
			return b;
	}
	return NULL;
}

void ad_alert_analyse(AdAlert *a, AdPluginEnv *ctx)
{
	AdDenial whole = *a->latest;
	GBytes *cred = credential_path(a, ctx);

	g_clear_pointer(&a->suggestions, g_ptr_array_unref);
	g_clear_pointer(&a->notes, g_ptr_array_unref);
	/* the whole denial borrows everything from the latest one but what it changes */
	if (cred) {
		gsize len;

		whole.path.data = g_bytes_get_data(cred, &len);
		whole.path.len = len;
	}
	if (ctx->policy && a->latest->perms && a->perms->len > a->latest->perms->len) {
		/*
		 * The checks of one exec (siginh, rlimitinh, noatsecure) are one
		 * alert but three records: its fixes are sought and proved for
		 * all the permissions it holds, not the latest record's alone.
		 */
		const AdVerdict *v;

		whole.perms = a->perms;
		/* held: the plugins' own questions may evict it from the policy's cache */
		v = ad_verdict_ref(ad_policy_explain(ctx->policy, whole.scontext, whole.tcontext,
						     whole.tclass,
						     (const char *const *)a->perms->pdata,
						     a->perms->len));
		a->suggestions = ad_analyze_denial(ctx, &whole, v, NULL);
		ad_verdict_unref(v);
	} else {
		a->suggestions = ad_analyze_denial(ctx, &whole, a->verdict, NULL);
	}
	/* facts apart from fixes: the first suggestion is always something to do */
	a->notes = ad_suggestions_take_notes(a->suggestions);
	/* "nothing was blocked" speaks of the latest denial: untrue when others were */
	for (guint i = 0; a->blocked && i < a->notes->len;) {
		const AdSuggestion *s = g_ptr_array_index(a->notes, i);

		if (strcmp(s->plugin, "permissive") == 0)
			g_ptr_array_remove_index(a->notes, i);
		else
			i++;
	}
	a->level = ad_suggestions_level(a->suggestions);
}

/* "read and write" access, as setroubleshoot words it: " and " in the reader's language */
static AdMsg *access_words(GPtrArray *perms)
{
	AdMsg *m = ad_msg_new();

	for (guint i = 0; i < perms->len; i++) {
		if (i && i + 1 == perms->len)
			ad_msg_add(m, N_(" and "));
		else if (i)
			ad_msg_add_text(m, ", ");
		ad_msg_add_text(m, g_ptr_array_index(perms, i));
	}
	return m;
}

/*
 * Who was denied, for a summary.  A USER_AVC is written by the object
 * manager (dbus-daemon, systemd) about someone else: the denied subject is
 * scontext, the sender, with its pid in spid; the record's exe is the
 * reporter's, shown among the details.  An AVC names the process's
 * program.  A message: "a process" is translated.
 */
static AdMsg *denied_subject(const AdAlert *a, const AdDenial *d)
{
	AdMsg *m = ad_msg_new();
	g_autofree char *who = NULL;
	AdBytes who_b;

	if (d->type == AD_DENIAL_USER_AVC) {
		who = ad_denial_sender(d);
	} else {
		who_b = ad_bytes_or(d->exe, d->comm);
		who = who_b.data ? ad_escape_bytes(who_b.data, who_b.len) : NULL;
	}
	if (who)
		ad_msg_add_text(m, who);
	else if (a->stype)
		ad_msg_add_text(m, a->stype);
	else
		ad_msg_add(m, N_("a process"));
	return m;
}

/*
 * Adds @fmt with its arguments to @m, then makes the arguments at @who
 * and @access (-1: none) the messages *@subject and *@access_m, taken
 */
static void add_summary(AdMsg *m, AdMsg **subject, int who, AdMsg **access_m, int access,
			const char *fmt, ...) G_GNUC_PRINTF(6, 7);
static void add_summary(AdMsg *m, AdMsg **subject, int who, AdMsg **access_m, int access,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ad_msg_addv(m, fmt, ap);
	va_end(ap);
	if (who >= 0)
		ad_msg_set_arg(m, who, g_steal_pointer(subject));
	if (access >= 0)
		ad_msg_set_arg(m, access, g_steal_pointer(access_m));
}

AdMsg *ad_alert_summary_msg(const AdAlert *a)
{
	const AdDenial *d = a->latest;
	g_autoptr(AdMsg) who = denied_subject(a, d);
	g_autoptr(AdMsg) access = access_words(a->perms);
	g_autofree char *object = NULL;
	AdMsg *m = ad_msg_new();

	/* the latest record may name only the last component: prefer a full path seen */
	if (d->path.data)
		object = ad_escape_bytes(d->path.data, d->path.len);
	for (guint i = 0; !object && i < a->paths->len; i++) {
		GBytes *p = g_ptr_array_index(a->paths, i);
		gsize len;
		const char *data = g_bytes_get_data(p, &len);

		if (len && data[0] == '/')
			object = ad_escape_gbytes(p);
	}
	if (!object && d->name.data)
		object = ad_escape_bytes(d->name.data, d->name.len);

	const char *tclass = a->tclass ? a->tclass : "object";
	const char *ttype = a->ttype ? a->ttype : "?";

	/* the subject and the access go in as "", then become their messages */
	if (d->type == AD_DENIAL_SELINUX_ERR || d->type == AD_DENIAL_USER_SELINUX_ERR) {
		if (d->err_kind == AD_ERR_INVALID_CONTEXT)
			add_summary(m, &who, 0, NULL, -1,
				    N_("SELinux is preventing %s from entering the invalid context %s."),
				    "", d->invalid_context);
		else
			add_summary(m, &who, 0, &access, 1,
				    N_("SELinux is preventing %s from %s access (%s)."), "", "",
				    a->stype ? a->stype : "?");
		return m;
	}
	/*
	 * The checks of an exec into another domain come after the exec: the
	 * record names the new program, but the subject is the domain that
	 * ran it.
	 */
	if (d->type == AD_DENIAL_AVC && ad_denial_denies_inheritance(d) && a->stype && a->ttype &&
	    strcmp(a->stype, a->ttype) != 0) {
		AdBytes prog = ad_bytes_or(d->exe, d->comm);
		g_autofree char *new_prog = prog.data ? ad_escape_bytes(prog.data, prog.len)
						      : g_strdup(a->ttype);

		add_summary(m, NULL, -1, &access, 1,
			    N_("SELinux is preventing %s from passing %s to %s, which it started "
			       "as %s."), a->stype, "", new_prog, a->ttype);
		return m;
	}
	if (!a->perms->len)
		/* an object manager's "Unknown class" notice */
		add_summary(m, &who, 0, NULL, -1,
			    N_("%s needs the class %s, which the SELinux policy lacks."), "", tclass);
	else if (object)
		add_summary(m, &who, 0, &access, 1,
			    N_("SELinux is preventing %s from %s access on the %s %s."), "", "",
			    tclass, object);
	else if (d->port >= 0)
		add_summary(m, &who, 0, &access, 1,
			    N_("SELinux is preventing %s from %s access on the %s port %" PRId64 "."),
			    "", "", tclass, d->port);
	else if (strcmp(a->stype ? a->stype : "", a->ttype ? a->ttype : "") == 0)
		add_summary(m, &who, 0, &access, 1,
			    N_("SELinux is preventing %s from using the %s permission (%s)."), "",
			    "", tclass);
	else
		add_summary(m, &who, 0, &access, 1,
			    N_("SELinux is preventing %s from %s access on a %s labeled %s."), "",
			    "", tclass, ttype);
	return m;
}

char *ad_alert_summary(const AdAlert *a)
{
	g_autoptr(AdMsg) m = ad_alert_summary_msg(a);
	char *t = ad_msg_render(m);

	return t ? t : g_strdup("");
}

/* "hosts" (escaped when not clean) and, when one needed it, "hosts_hex" beside it */
static void add_hosts_json(json_object *o, const AdAlert *a)
{
	json_object *arr = json_object_new_array();
	json_object *hex = json_object_new_array();
	gboolean any_hex = FALSE;
	g_autoptr(GList) keys = g_list_sort(g_hash_table_get_keys(a->hosts),
					    (GCompareFunc)strcmp);

	for (GList *l = keys; l; l = l->next) {
		const char *h = l->data;
		gsize len = strlen(h);

		if (!*h)
			continue;
		json_object_array_add(arr, ad_json_string_bytes(h, len));
		if (ad_bytes_are_clean(h, len)) {
			json_object_array_add(hex, NULL);
		} else {
			g_autofree char *x = ad_bytes_hex(h, len);

			json_object_array_add(hex, json_object_new_string(x));
			any_hex = TRUE;
		}
	}
	json_object_object_add(o, AD_KEY_HOSTS, arr);
	if (any_hex)
		json_object_object_add(o, AD_KEY_HOSTS_HEX, hex);
	else
		json_object_put(hex);
}

/*
 * The object manager that logged a USER_AVC: "/usr/bin/dbus-daemon
 * (system_u:...)", escaped; NULL for another record or when it does not say
 */
static char *reported_by(const AdDenial *d)
{
	const char *subj;
	g_autofree char *e = NULL, *c = NULL;

	if (d->type != AD_DENIAL_USER_AVC)
		return NULL;
	subj = ad_record_get(d->record, "subj");
	e = d->exe.data ? ad_escape_bytes(d->exe.data, d->exe.len) : NULL;
	c = subj ? ad_escape_str(subj) : NULL;
	if (!e && !c)
		return NULL;
	return g_strdup_printf("%s%s%s%s", e ? e : "", e && c ? " (" : "", c ? c : "",
			       e && c ? ")" : "");
}

/* the "notes" array of an alert's JSON object: its facts, beside its fixes */
static json_object *notes_json(const AdAlert *a)
{
	json_object *notes = json_object_new_array();

	for (guint i = 0; a->notes && i < a->notes->len; i++)
		json_object_array_add(notes, ad_note_to_json(g_ptr_array_index(a->notes, i)));
	return notes;
}

json_object *ad_alert_to_json(const AdAlert *a)
{
	json_object *o = json_object_new_object();
	json_object *records = json_object_new_array();
	json_object *sugg = json_object_new_array();
	json_object *paths = json_object_new_array();
	g_autofree char *summary = ad_alert_summary(a);
	g_autofree char *by = reported_by(a->latest);
	const AdEvent *ev = a->latest->event;

	json_object_object_add(o, AD_KEY_ID, json_object_new_string(a->id));
	json_object_object_add(o, AD_KEY_COUNT, json_object_new_uint64(a->count));
	json_object_object_add(o, AD_KEY_BLOCKED, json_object_new_uint64(a->blocked));
	json_object_object_add(o, AD_KEY_LOGGED_ONLY, json_object_new_uint64(a->logged_only));
	json_object_object_add(o, AD_KEY_FIRST_SEEN, ad_json_time(a->first_seen));
	json_object_object_add(o, AD_KEY_LAST_SEEN, ad_json_time(a->last_seen));
	json_object_object_add(o, AD_KEY_LEVEL, json_object_new_string(ad_level_name(a->level)));
	add_hosts_json(o, a);
	json_object_object_add(o, AD_KEY_IGNORED, json_object_new_boolean(FALSE));
	json_object_object_add(o, AD_KEY_SUMMARY, json_object_new_string(summary));
	json_object_object_add(o, AD_KEY_DENIAL, ad_denial_to_json(a->latest, a->verdict));
	if (by)
		json_object_object_add(o, AD_KEY_REPORTED_BY, json_object_new_string(by));
	for (guint i = 0; i < ev->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(ev->records, i);
		g_autofree char *esc = ad_escape_str(rec->text);

		json_object_array_add(records, json_object_new_string(esc));
	}
	json_object_object_add(o, AD_KEY_RECORDS, records);
	for (guint i = 0; a->suggestions && i < a->suggestions->len; i++)
		json_object_array_add(sugg, ad_suggestion_to_json(g_ptr_array_index(
						    a->suggestions, i)));
	json_object_object_add(o, AD_KEY_SUGGESTIONS, sugg);
	json_object_object_add(o, AD_KEY_NOTES, notes_json(a));
	for (guint i = 0; i < a->paths->len; i++) {
		g_autofree char *p = ad_escape_gbytes(g_ptr_array_index(a->paths, i));

		json_object_array_add(paths, json_object_new_string(p));
	}
	json_object_object_add(o, AD_KEY_PATHS, paths);
	return o;
}

json_object *ad_alert_analysis_to_json(const AdAlert *a)
{
	json_object *o = json_object_new_object();
	json_object *sugg = json_object_new_array();
	json_object *notes = notes_json(a);
	g_autoptr(AdMsg) msg = ad_alert_summary_msg(a);
	g_autofree char *summary = ad_msg_render(msg);

	json_object_object_add(o, AD_KEY_ID, json_object_new_string(a->id));
	json_object_object_add(o, AD_KEY_LEVEL, json_object_new_string(ad_level_name(a->level)));
	json_object_object_add(o, AD_KEY_SUMMARY, json_object_new_string(summary ? summary : ""));
	/* the texts as messages too, rendered in each reader's language (msg.h) */
	json_object_object_add(o, AD_KEY_SUMMARY_MSG, ad_msg_to_json(msg));
	for (guint i = 0; a->suggestions && i < a->suggestions->len; i++) {
		const AdSuggestion *s = g_ptr_array_index(a->suggestions, i);
		json_object *j = ad_suggestion_to_json(s);

		ad_suggestion_msgs_to_json(s, j);
		json_object_array_add(sugg, j);
	}
	json_object_object_add(o, AD_KEY_SUGGESTIONS, sugg);
	for (guint i = 0; a->notes && i < a->notes->len; i++)
		ad_suggestion_msgs_to_json(g_ptr_array_index(a->notes, i),
					   json_object_array_get_idx(notes, i));
	json_object_object_add(o, AD_KEY_NOTES, notes);
	return o;
}

/* adds @s to @b and frees it (g_strv_builder_take() is GLib 2.80) */
static void builder_take(GStrvBuilder *b, char *s)
{
	g_strv_builder_add(b, s);
	g_free(s);
}

/*
 * A suggestion or note of @a's document, as ad_suggestion_to_json() (or
 * ad_note_to_json()) writes it and the document reads it back: the
 * confidence rounded to hundredths, a command's arguments escaped where
 * they are not UTF-8, with their exact bytes beside them.
 */
static void suggestion_to_doc(AdAlertDoc *doc, const AdSuggestion *s, gboolean note)
{
	AdSuggestionDoc *o = ad_alert_doc_add_suggestion(doc, note);

	o->plugin = ad_alert_doc_text(s->plugin);
	o->if_text = ad_alert_doc_text(s->if_text);
	o->then_text = ad_alert_doc_text(s->then_text);
	if (note)
		return;
	o->kind = g_strdup(ad_fix_kind_name(s->kind));
	if (!ad_level_from_name(ad_level_name(s->level), &o->level))
		o->level = AD_LEVEL_YELLOW;
	o->confidence = CLAMP((double)(gint64)(s->confidence * 100 + 0.5) / 100, 0.0, 1.0);
	for (guint i = 0; i < s->commands->len; i++) {
		char **argv = g_ptr_array_index(s->commands, i);
		g_autoptr(GStrvBuilder) b = g_strv_builder_new();
		gboolean exact = TRUE;

		for (guint j = 0; argv[j]; j++) {
			if (g_utf8_validate(argv[j], -1, NULL)) {
				g_strv_builder_add(b, argv[j]);
			} else {
				g_autofree char *esc = ad_escape_str(argv[j]);

				g_strv_builder_add(b, esc);
				exact = FALSE;
			}
		}
		ad_suggestion_doc_add_command(o, g_strv_builder_end(b),
					      exact ? NULL : g_strdupv(argv));
		o->inexact |= !exact;
	}
	o->verified = s->proof == AD_PROOF_NONE ? -1 : s->proof == AD_PROOF_OK ? 1 : 0;
	o->still_denied = ad_alert_doc_text(s->still_denied);
	if (s->scope.accesses >= 0) {
		o->accesses = s->scope.accesses;
		o->domains = MAX(s->scope.domains, 0);
		if (s->scope.examples && s->scope.examples->len)
			o->example = ad_alert_doc_text(g_ptr_array_index(s->scope.examples, 0));
		if (s->scope.generic_type) {
			o->generic_type = ad_alert_doc_text(s->scope.generic_type);
			o->type_paths = MAX(s->scope.type_paths, -1);
		}
	}
	if (s->apply_reason) {
		o->has_apply = TRUE;
		o->apply = g_strdup(ad_apply_name(s->apply));
		o->apply_reason = ad_alert_doc_text(s->apply_reason);
	}
}

AdAlertDoc *ad_alert_to_doc(const AdAlert *a)
{
	AdAlertDoc *doc = ad_alert_doc_new_empty();
	g_autoptr(GList) keys = g_list_sort(g_hash_table_get_keys(a->hosts),
					    (GCompareFunc)strcmp);
	g_autoptr(GStrvBuilder) hosts = g_strv_builder_new();
	g_autoptr(GStrvBuilder) records = g_strv_builder_new();
	g_autoptr(GStrvBuilder) paths = g_strv_builder_new();
	g_autofree char *summary = ad_alert_summary(a);
	const AdEvent *ev = a->latest->event;

	doc->id = g_strdup(a->id);
	doc->level_name = g_strdup(ad_level_name(a->level));
	doc->has_level = TRUE;
	if (!ad_level_from_name(doc->level_name, &doc->level))
		doc->level = AD_LEVEL_YELLOW;
	g_free(doc->summary);
	doc->summary = g_utf8_validate(summary, -1, NULL) ? g_steal_pointer(&summary)
							  : g_strdup("");
	doc->count = a->count;
	doc->has_modes = TRUE;
	doc->blocked = a->blocked;
	doc->logged_only = a->logged_only;
	/* what JSON leaves out, a time not after the epoch, reads as 0 */
	doc->first_seen = a->first_seen <= 0 ? 0 : a->first_seen;
	doc->last_seen = a->last_seen <= 0 ? 0 : a->last_seen;
	for (GList *l = keys; l; l = l->next) {
		const char *h = l->data;
		g_autofree char *esc = ad_escape_str(h);

		if (*h)
			builder_take(hosts, ad_text_shown(h));
		ad_alert_doc_add_host_count(doc, esc, GPOINTER_TO_SIZE(
						    g_hash_table_lookup(a->hosts, h)));
	}
	g_strfreev(doc->hosts);
	doc->hosts = g_strv_builder_end(hosts);
	doc->denial = ad_denial_to_doc(a->latest, a->verdict);
	doc->reported_by = reported_by(a->latest);
	for (guint i = 0; i < ev->records->len; i++) {
		const AdRecord *rec = g_ptr_array_index(ev->records, i);

		builder_take(records, ad_escape_str(rec->text));
	}
	g_strfreev(doc->records);
	doc->records = g_strv_builder_end(records);
	doc->has_suggestions = TRUE;
	for (guint i = 0; a->suggestions && i < a->suggestions->len; i++)
		suggestion_to_doc(doc, g_ptr_array_index(a->suggestions, i), FALSE);
	for (guint i = 0; a->notes && i < a->notes->len; i++)
		suggestion_to_doc(doc, g_ptr_array_index(a->notes, i), TRUE);
	for (guint i = 0; i < a->paths->len; i++)
		builder_take(paths, ad_escape_gbytes(g_ptr_array_index(a->paths, i)));
	g_strfreev(doc->paths);
	doc->paths = g_strv_builder_end(paths);
	return doc;
}

/*
 * The text report of @a, with the per-host counts that `analyze --json`
 * leaves out: its alert document, which every front end renders, built
 * without going through JSON.
 */
void ad_alert_render(GString *out, const AdAlert *a)
{
	g_autoptr(AdAlertDoc) doc = ad_alert_to_doc(a);

	ad_alert_doc_render(out, doc);
}
