// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reports of denials: the `why` text and JSON objects.
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n.h>

#include "escape.h"
#include "format.h"
#include "i18n.h"
#include "report.h"

const char *ad_json_line(json_object *obj)
{
	return json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN |
						   JSON_C_TO_STRING_NOSLASHESCAPE);
}

void ad_json_add_bytes(json_object *obj, const char *key, AdBytes b)
{
	gsize len = b.len;
	const char *data = b.data;

	if (!data) {
		json_object_object_add(obj, key, NULL);
		return;
	}
	if (ad_bytes_are_clean(data, len)) {
		json_object_object_add(obj, key, json_object_new_string_len(data, len));
		return;
	}
	g_autofree char *esc = ad_escape_bytes(data, len);
	g_autofree char *hex = ad_bytes_hex(data, len);

	json_object_object_add(obj, key, json_object_new_string(esc));
	g_autofree char *hkey = g_strdup_printf("%s_hex", key);

	json_object_object_add(obj, hkey, json_object_new_string(hex));
}

json_object *ad_json_string_bytes(const void *data, gsize len)
{
	g_autofree char *esc = NULL;

	if (ad_bytes_are_clean(data, len))
		return json_object_new_string_len(data, len);
	esc = ad_escape_bytes(data, len);
	return json_object_new_string(esc);
}

/* a string from a record: as it is when clean UTF-8, else escaped (JSON must stay valid) */
static json_object *str_or_null(const char *s)
{
	if (!s)
		return NULL;
	if (ad_bytes_are_clean(s, strlen(s)))
		return json_object_new_string(s);
	g_autofree char *esc = ad_escape_str(s);

	return json_object_new_string(esc);
}

static json_object *int_or_null(gint64 v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

static json_object *booleans_json(GPtrArray *alts)
{
	json_object *arr = json_object_new_array();

	for (guint i = 0; alts && i < alts->len; i++) {
		GPtrArray *alt = g_ptr_array_index(alts, i);
		json_object *a = json_object_new_array();

		for (guint j = 0; j < alt->len; j++) {
			AdBoolSetting *s = g_ptr_array_index(alt, j);
			json_object *o = json_object_new_object();

			json_object_object_add(o, "name", json_object_new_string(s->name));
			json_object_object_add(o, "value", json_object_new_boolean(s->value));
			json_object_array_add(a, o);
		}
		json_object_array_add(arr, a);
	}
	return arr;
}

static json_object *strv_json(GPtrArray *v)
{
	json_object *arr = json_object_new_array();

	for (guint i = 0; v && i < v->len; i++)
		json_object_array_add(arr, json_object_new_string(g_ptr_array_index(v, i)));
	return arr;
}

json_object *ad_denial_to_json(const AdDenial *d, const AdVerdict *v)
{
	json_object *o = json_object_new_object();
	double t = ad_denial_time(d);

	json_object_object_add(o, "type", json_object_new_string(d->record_type));
	json_object_object_add(o, "serial", (d->event->serial || d->event->sec) &&
				   !d->event->time_from_prefix ?
				   json_object_new_uint64(d->event->serial) : NULL);
	json_object_object_add(o, "time", ad_json_time(t));
	json_object_object_add(o, "node", str_or_null(d->event->node));
	json_object_object_add(o, "result", json_object_new_string(d->granted ? "granted"
										 : "denied"));
	json_object_object_add(o, "permissions", strv_json(d->perms));
	json_object_object_add(o, "scontext", str_or_null(d->scontext));
	json_object_object_add(o, "tcontext", str_or_null(d->tcontext));
	json_object_object_add(o, "tclass", str_or_null(d->tclass));
	ad_json_add_bytes(o, "comm", d->comm);
	json_object_object_add(o, "pid", int_or_null(d->pid));
	ad_json_add_bytes(o, "path", d->path);
	/* null when the record does not say (kernels before the permissive= field) */
	json_object_object_add(o, "permissive", d->permissive < 0 ? NULL
				       : json_object_new_boolean(d->permissive == 1));
	if (v) {
		json_object_object_add(o, "reason", json_object_new_string(
						   ad_reason_name(v->reason)));
		json_object_object_add(o, "booleans", booleans_json(v->booleans));
		if (v->booleans_partial)
			json_object_object_add(o, "booleans_partial",
					       json_object_new_boolean(TRUE));
		json_object_object_add(o, "constraint", str_or_null(v->constraint));
		if (v->constraint_expr)
			json_object_object_add(o, "constraint_expr",
					       json_object_new_string(v->constraint_expr));
		if (v->constraint_too)
			json_object_object_add(o, "constraint_too",
					       json_object_new_boolean(TRUE));
		json_object_object_add(o, "missing", strv_json(v->perms_missing));
		if (v->unknown && v->unknown->len)
			json_object_object_add(o, "unknown", strv_json(v->unknown));
		if (v->detail)
			json_object_object_add(o, "detail", json_object_new_string(v->detail));
	}
	/* details beyond the fixed keys */
	ad_json_add_bytes(o, "exe", d->exe);
	ad_json_add_bytes(o, "name", d->name);
	ad_json_add_bytes(o, "cmdline", d->cmdline);
	json_object_object_add(o, "syscall", str_or_null(d->syscall));
	json_object_object_add(o, "success", d->success < 0 ? NULL
				   : json_object_new_boolean(d->success));
	json_object_object_add(o, "exit", str_or_null(d->exit));
	json_object_object_add(o, "uid", int_or_null(d->uid));
	json_object_object_add(o, "auid", int_or_null(d->auid));
	json_object_object_add(o, "dev", str_or_null(d->dev));
	json_object_object_add(o, "ino", int_or_null(d->ino));
	json_object_object_add(o, "port", int_or_null(d->port));
	json_object_object_add(o, "saddr", str_or_null(d->saddr));
	json_object_object_add(o, "ioctlcmd", str_or_null(d->ioctlcmd));
	if (d->invalid_context)
		json_object_object_add(o, "invalid_context",
				       json_object_new_string(d->invalid_context));
	json_object_object_add(o, "suspect", json_object_new_boolean(d->suspect));
	if (d->suspect_reason)
		json_object_object_add(o, "suspect_reason",
				       json_object_new_string(d->suspect_reason));
	json_object_object_add(o, "file", json_object_new_string(d->record->file));
	json_object_object_add(o, "line", json_object_new_int64(d->record->line));
	return o;
}

/* bytes as ad_json_add_bytes() writes them: as they are when clean, else escaped */
static char *doc_bytes(AdBytes b)
{
	if (!b.data)
		return NULL;
	if (ad_bytes_are_clean(b.data, b.len))
		return g_strndup(b.data, b.len);
	return ad_escape_bytes(b.data, b.len);
}

/* a string from a record as str_or_null() writes it */
static char *doc_str(const char *s)
{
	return s ? ad_text_shown(s) : NULL;
}

/* the strings of @v a document keeps: the UTF-8 ones */
static GStrv doc_strv(GPtrArray *v)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();

	for (guint i = 0; v && i < v->len; i++) {
		const char *s = g_ptr_array_index(v, i);

		if (g_utf8_validate(s, -1, NULL))
			g_strv_builder_add(b, s);
	}
	return g_strv_builder_end(b);
}

AdDenialDoc *ad_denial_to_doc(const AdDenial *d, const AdVerdict *v)
{
	AdDenialDoc *o = ad_denial_doc_new();

	o->type = ad_alert_doc_text(d->record_type);
	o->scontext = doc_str(d->scontext);
	o->tcontext = doc_str(d->tcontext);
	o->stype = ad_context_type(o->scontext);
	o->ttype = ad_context_type(o->tcontext);
	o->tclass = doc_str(d->tclass);
	g_strfreev(o->permissions);
	o->permissions = doc_strv(d->perms);
	o->has_permissions = TRUE;
	o->comm = doc_bytes(d->comm);
	o->pid = MAX(d->pid, -1);
	o->path = doc_bytes(d->path);
	/* the exact bytes, to the first NUL, as the "path_hex" of the JSON gives them back */
	o->path_exact = d->path.data ? g_strndup(d->path.data, d->path.len) : NULL;
	o->has_permissive = d->permissive >= 0;
	o->permissive = d->permissive == 1;
	if (v) {
		o->reason = ad_alert_doc_text(ad_reason_name(v->reason));
		o->constraint = doc_str(v->constraint);
		o->detail = ad_alert_doc_text(v->detail);
	}
	o->exe = doc_bytes(d->exe);
	o->name = doc_bytes(d->name);
	o->cmdline = doc_bytes(d->cmdline);
	o->syscall = doc_str(d->syscall);
	o->port = MAX(d->port, -1);
	o->suspect = d->suspect;
	o->suspect_reason = ad_alert_doc_text(d->suspect_reason);
	o->file = ad_alert_doc_text(d->record->file);
	o->line = d->record->line;
	return o;
}

/* a piece of a denial's sentence, appended to @out */
typedef void (*Piece)(GString *out, const AdDenial *d);

/*
 * Appends @fmt with its %s and %N$s directives replaced by @pieces of @d
 * and %% by %: what printf would make of the sentences of each denial,
 * without building their pieces first.  msgfmt --check holds translations
 * to the same directives; any other '%' is copied as it is.
 */
static void append_format(GString *out, const char *fmt, const Piece *pieces, guint n_pieces,
			  const AdDenial *d)
{
	const char *p = fmt;
	guint next = 0;

	for (;;) {
		const char *pct = strchr(p, '%');
		guint idx = next, k = 0;
		const char *q;

		if (!pct) {
			ad_string_append(out, p);
			return;
		}
		ad_string_append_len(out, p, pct - p);
		p = pct + 1;
		if (*p == '%') {
			g_string_append_c(out, '%');
			p++;
			continue;
		}
		for (q = p; g_ascii_isdigit(*q) && k < 100; q++)
			k = k * 10 + (*q - '0');
		if (q > p && *q == '$' && k >= 1) {
			idx = k - 1;
			q++;
		} else {
			q = p;
		}
		if (*q == 's' && idx < n_pieces) {
			pieces[idx](out, d);
			next = idx + 1;
			p = q + 1;
			continue;
		}
		g_string_append_c(out, '%');
	}
}

static void append_bytes(GString *out, AdBytes b)
{
	ad_escape_append(out, b.data, b.len);
}

/* the "type" part of a context, @none when it has none */
static void append_type(GString *out, const char *context, const char *none)
{
	gsize len;
	const char *p = ad_context_type_span(context, &len);

	if (p)
		ad_string_append_len(out, p, len);
	else
		ad_string_append(out, none);
}

static void piece_tclass(GString *out, const AdDenial *d)
{
	ad_string_append(out, d->tclass ? d->tclass : "object");
}

static void piece_object(GString *out, const AdDenial *d)
{
	append_bytes(out, ad_bytes_or(d->path, d->name));
}

static void piece_ttype(GString *out, const AdDenial *d)
{
	append_type(out, d->tcontext, "?");
}

static void piece_stype(GString *out, const AdDenial *d)
{
	append_type(out, d->scontext, "?");
}

/* the executable, else the command, else the domain */
/*
 * The denied subject: the process's program, or for a USER_AVC the sender
 * (its exe is the object manager that reported it)
 */
static void piece_who(GString *out, const AdDenial *d)
{
	g_autofree char *sender = ad_denial_sender(d);

	if (sender)
		ad_string_append(out, sender);
	else if (d->exe.data || d->comm.data)
		append_bytes(out, ad_bytes_or(d->exe, d->comm));
	else
		append_type(out, d->scontext, "a process");
}

/* the domain, else as piece_who */
static void piece_domain(GString *out, const AdDenial *d)
{
	gsize len;

	if (ad_context_type_span(d->scontext, &len))
		append_type(out, d->scontext, "?");
	else
		piece_who(out, d);
}

static void piece_invalid_context(GString *out, const AdDenial *d)
{
	ad_string_append(out, d->invalid_context);
}

/* "read, write and open" */
static void piece_perms(GString *out, const AdDenial *d)
{
	for (guint i = 0; d->perms && i < d->perms->len; i++) {
		if (i)
			ad_string_append(out, i + 1 == d->perms->len ? " and " : ", ");
		ad_string_append(out, g_ptr_array_index(d->perms, i));
	}
}

/* the port number, in decimal */
static void piece_port(GString *out, const AdDenial *d)
{
	char buf[24], *p = buf + sizeof(buf);
	guint64 v = MAX(d->port, 0);

	do
		*--p = '0' + v % 10;
	while ((v /= 10) != 0);
	ad_string_append_len(out, p, buf + sizeof(buf) - p);
}

/* "the file /etc/shadow", "the tcp_socket port 80", ... */
static void piece_what(GString *out, const AdDenial *d)
{
	const char *tclass = d->tclass ? d->tclass : "object";

	if (d->path.data || d->name.data) {
		static const Piece p[] = { piece_tclass, piece_object };

		append_format(out, T_("the %s %s"), p, 2, d);
	} else if (d->port >= 0) {
		static const Piece p[] = { piece_tclass, piece_port };

		append_format(out, T_("the %s port %s"), p, 2, d);
	} else if (d->capability || g_str_has_prefix(tclass, "cap")) {
		static const Piece p[] = { piece_tclass };

		append_format(out, T_("the capability (%s)"), p, 1, d);
	} else {
		static const Piece p[] = { piece_tclass, piece_ttype };

		append_format(out, T_("a %s labelled %s"), p, 2, d);
	}
}

/* the sentence of ad_denial_describe(), appended to @out */
static void describe_append(GString *out, const AdDenial *d)
{
	static const Piece sentence[] = { piece_who, piece_perms, piece_what };

	if (d->type == AD_DENIAL_SELINUX_ERR || d->type == AD_DENIAL_USER_SELINUX_ERR) {
		static const Piece invalid[] = { piece_domain, piece_invalid_context };
		static const Piece bounded[] = { piece_stype, piece_ttype };

		switch (d->err_kind) {
		case AD_ERR_INVALID_CONTEXT:
			append_format(out, T_("%s could not enter the invalid context %s"),
				      invalid, 2, d);
			return;
		case AD_ERR_BOUNDED_TRANSITION:
			append_format(out, T_("%s may not change to the bounded domain %s"),
				      bounded, 2, d);
			return;
		default:
			break;
		}
	}
	if (!d->granted && d->tclass && d->perms && d->perms->len) {
		/* "was denied the capability net_admin", not "net_admin on the capability" */
		static const Piece caps[] = { piece_who, piece_perms };
		guint n = d->perms->len;

		if (strcmp(d->tclass, "capability") == 0 || strcmp(d->tclass, "capability2") == 0) {
			static const Piece caps_for[] = { piece_who, piece_perms, piece_object };

			/* the file it was needed for, when the event names one */
			if (d->path.data || d->name.data)
				append_format(out, ngettext("%s was denied the capability %s for %s",
							    "%s was denied the capabilities %s for %s",
							    n), caps_for, 3, d);
			else
				append_format(out, ngettext("%s was denied the capability %s",
							    "%s was denied the capabilities %s", n),
					      caps, 2, d);
			return;
		}
		if (strcmp(d->tclass, "cap_userns") == 0 || strcmp(d->tclass, "cap2_userns") == 0) {
			append_format(out, ngettext("%s was denied the capability %s in a user "
						    "namespace",
						    "%s was denied the capabilities %s in a user "
						    "namespace", n),
				      caps, 2, d);
			return;
		}
	}
	if (d->tclass && d->perms && !d->perms->len) {
		/* an object manager's "Unknown class" notice: no access, a class missing */
		static const Piece missing[] = { piece_who, piece_tclass };

		append_format(out, T_("%s needs the class %s, which the policy lacks"), missing,
			      2, d);
		return;
	}
	if (d->granted)
		append_format(out, T_("%s was granted %s on %s (audited by an auditallow rule)"),
			      sentence, 3, d);
	else
		append_format(out, T_("%s was denied %s on %s"), sentence, 3, d);
}

char *ad_denial_describe(const AdDenial *d)
{
	GString *out = g_string_sized_new(160);

	describe_append(out, d);
	return g_string_free(out, FALSE);
}

char **ad_boolean_argv(GPtrArray *alt)
{
	g_autoptr(GStrvBuilder) b = g_strv_builder_new();

	g_strv_builder_add_many(b, "setsebool", "-P", NULL);
	for (guint i = 0; i < alt->len; i++) {
		AdBoolSetting *s = g_ptr_array_index(alt, i);
		g_autofree char *arg = g_strdup_printf("%s=%s", s->name, s->value ? "1" : "0");

		g_strv_builder_add(b, arg);
	}
	return g_strv_builder_end(b);
}

char *ad_boolean_command(GPtrArray *alt)
{
	g_auto(GStrv) argv = ad_boolean_argv(alt);

	return ad_shell_join((const char *const *)argv);
}

/* "  Clause, capitalised and closed.\n" */
static void append_sentence(GString *out, const char *clause)
{
	gsize len = strlen(clause);

	ad_string_append(out, "  ");
	g_string_append_c(out, g_ascii_toupper(clause[0]));
	ad_string_append(out, clause + (len ? 1 : 0));
	if (len && !strchr(".!?", clause[len - 1]))
		g_string_append_c(out, '.');
	g_string_append_c(out, '\n');
}

/* which way boolean alternatives go: 1 all turn booleans on, 0 each turns one off, -1 mixed */
static int direction_of(gboolean on, gboolean off)
{
	return on && off ? -1 : off ? 0 : 1;
}

/* booleans_direction() of a verdict */
static int booleans_direction(const AdVerdict *v)
{
	gboolean on = FALSE, off = FALSE;

	for (guint i = 0; v->booleans && i < v->booleans->len; i++) {
		GPtrArray *alt = g_ptr_array_index(v->booleans, i);
		gboolean alt_off = FALSE;

		for (guint j = 0; j < alt->len; j++)
			if (!((AdBoolSetting *)g_ptr_array_index(alt, j))->value)
				alt_off = TRUE;
		if (alt_off)
			off = TRUE;
		else
			on = TRUE;
	}
	return direction_of(on, off);
}

/* the same of the "booleans" array of a `why --json` object: [[{name, value}...]...] */
static int booleans_json_direction(json_object *booleans)
{
	gboolean on = FALSE, off = FALSE;
	gsize n = json_object_is_type(booleans, json_type_array) ?
		  json_object_array_length(booleans) : 0;

	for (gsize i = 0; i < n; i++) {
		json_object *alt = json_object_array_get_idx(booleans, i);
		gsize m = json_object_is_type(alt, json_type_array) ? json_object_array_length(alt) : 0;
		gboolean alt_off = FALSE;

		for (gsize j = 0; j < m; j++) {
			json_object *value = NULL;

			if (json_object_object_get_ex(json_object_array_get_idx(alt, j), "value",
						      &value) && !json_object_get_boolean(value))
				alt_off = TRUE;
		}
		if (alt_off)
			off = TRUE;
		else
			on = TRUE;
	}
	return direction_of(on, off);
}

static void append_booleans(GString *out, const AdVerdict *v)
{
	if (!v->booleans || !v->booleans->len)
		return;
	if (v->booleans_partial)
		ad_string_append(out, _("  These booleans would allow part of the access, not "
				       "all of it:\n"));
	else if (v->booleans->len == 1)
		ad_string_append(out, _("  To allow it, run:\n"));
	else
		ad_string_append(out, _("  To allow it, run one of:\n"));
	for (guint i = 0; i < v->booleans->len; i++) {
		g_autofree char *cmd = ad_boolean_command(g_ptr_array_index(v->booleans, i));

		g_string_append_printf(out, "    %s\n", cmd);
	}
}

void ad_render_why(GString *out, const AdDenial *d, const AdVerdict *v)
{
	ad_render_why_head(out, d);
	if (!d->granted && v)
		ad_render_verdict(out, v);
	ad_string_append(out, "\n");
}

void ad_render_why_head(GString *out, const AdDenial *d)
{
	ad_escape_append(out, d->record->text, strlen(d->record->text));
	ad_string_append(out, "\n  ");
	describe_append(out, d);
	ad_string_append(out, ".\n");
	if (d->suspect)
		g_string_append_printf(out, _("  Warning: %s.\n"), d->suspect_reason);
	if (d->granted) {
		ad_string_append(out, T_("  Nothing was denied: this record reports an access "
					"that an auditallow rule asks to log.\n"));
		return;
	}
	if (d->permissive == 1)
		ad_string_append(out, T_("  Nothing was blocked: the domain or the system was "
					"permissive (permissive=1); in enforcing mode it would "
					"be denied.\n"));
}

/*
 * Each reason in plain words, for `why`, `analyze`, `show` and the browser
 * alike.  "allowed" has none: the verdict's detail says why such a denial
 * was logged.
 */
static const char *const reason_texts[] = {
	[AD_REASON_ALLOWED] = NULL,
	[AD_REASON_DONTAUDIT] = N_("No rule allows this access, and the dontaudit rule may "
				   "depend on a boolean."),
	[AD_REASON_TE_RULE] = N_("No allow rule permits this access and no boolean would: it "
				 "needs a new allow rule (avcdoctor allow), or the object has "
				 "the wrong label."),
	[AD_REASON_BOOLEAN] = N_("A rule allows this access, but it is switched off by a "
				 "boolean."),
	[AD_REASON_CONSTRAINT] = N_("A constraint of the policy blocks this access; an allow "
				    "rule will not help."),
	[AD_REASON_RBAC] = N_("The role of the source is not allowed this (a role allow rule "
			      "is missing)."),
	[AD_REASON_BOUNDS] = N_("The domain is bounded by a parent domain that is not allowed "
				"this access."),
	[AD_REASON_UNKNOWN_TYPE] = N_("The record names something this policy does not "
				      "define: the log comes from another policy, or a module "
				      "is missing."),
	[AD_REASON_UNKNOWN_CLASS] = N_("This policy has no such object class: the log comes "
				       "from another policy or kernel."),
	[AD_REASON_UNKNOWN_PERMISSION] = N_("The class has no such permission in this "
					    "policy."),
	[AD_REASON_INVALID_CONTEXT] = N_("Every part of the context exists, but the policy "
					 "does not allow them together."),
	[AD_REASON_UNKNOWN_LEVEL] = N_("The record names an MLS/MCS level (a sensitivity or a "
				       "category) this policy does not define: the log comes "
				       "from another policy or MLS setup."),
};

const char *ad_reason_text(AdReason r)
{
	if ((guint)r >= G_N_ELEMENTS(reason_texts) || !reason_texts[r])
		return NULL;
	return _(reason_texts[r]);
}

/* the reason text of @r whose booleans go @direction (booleans_direction()) */
static const char *reason_text_directed(AdReason r, int direction)
{
	if (r == AD_REASON_BOOLEAN) {
		switch (direction) {
		case 0:
			return _("A rule allows this access only while a boolean is off, and it "
				 "is on: the policy keeps this closed on purpose. Turning it off "
				 "loosens the policy for every domain the boolean covers.");
		case -1:
			return _("A rule allows this access only with other boolean settings, "
				 "listed below; turning a boolean off loosens the policy for "
				 "every domain it covers.");
		default:
			break;
		}
	}
	return ad_reason_text(r);
}

const char *ad_verdict_reason_text(const AdVerdict *v)
{
	return reason_text_directed(v->reason, booleans_direction(v));
}

const char *ad_denial_json_reason_text(json_object *denial)
{
	json_object *reason = NULL, *booleans = NULL;
	AdReason r;

	if (!json_object_object_get_ex(denial, "reason", &reason) ||
	    !ad_reason_from_name(json_object_get_string(reason), &r))
		return NULL;
	json_object_object_get_ex(denial, "booleans", &booleans);
	return reason_text_directed(r, booleans_json_direction(booleans));
}

gboolean ad_reason_from_name(const char *name, AdReason *ret)
{
	for (guint r = 0; name && r < G_N_ELEMENTS(reason_texts); r++) {
		if (strcmp(name, ad_reason_name(r)) == 0) {
			*ret = r;
			return TRUE;
		}
	}
	return FALSE;
}

void ad_render_verdict(GString *out, const AdVerdict *v)
{
	const char *text = ad_verdict_reason_text(v);

	/* TRANSLATORS: "Reason: te_rule." then the reason in words */
	if (text)
		g_string_append_printf(out, _("  Reason: %s. %s\n"), ad_reason_name(v->reason),
				       text);
	else
		g_string_append_printf(out, _("  Reason: %s.\n"), ad_reason_name(v->reason));
	if (v->unknown && v->unknown->len) {
		g_autofree char *list = NULL;
		g_autoptr(GStrvBuilder) b = g_strv_builder_new();
		g_auto(GStrv) names = NULL;

		g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

		/* the same name may be missing from both contexts: list it once */
		for (guint i = 0; i < v->unknown->len; i++)
			if (g_hash_table_add(seen, g_ptr_array_index(v->unknown, i)))
				g_strv_builder_add(b, g_ptr_array_index(v->unknown, i));
		names = g_strv_builder_end(b);
		list = g_strjoinv(", ", names);
		g_string_append_printf(out, _("  Not in this policy: %s.\n"), list);
	}
	if (v->detail)
		append_sentence(out, v->detail);
	if (v->constraint)
		g_string_append_printf(out, _("  The constraint fails because %s.\n"),
				       v->constraint);
	if (v->constraint_expr)
		g_string_append_printf(out, _("  Constraint: %s\n"), v->constraint_expr);
	if (v->constraint_too && v->reason != AD_REASON_CONSTRAINT)
		ad_string_append(out, _("  A constraint would block this access as well: an "
				       "allow rule alone will not help.\n"));
	append_booleans(out, v);
}
