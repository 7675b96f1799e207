/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two valid denial records run together on one line, as a paste that lost
 * its line breaks makes them: any two of the forms (raw, `ausearch -i`,
 * journal, syslog kernel line, bare avc, USER_AVC raw and in the journal),
 * with the values a process chooses (comm, a file name, a D-Bus member)
 * taken from the input and written as each form writes them.
 * Property checked beyond memory safety: the reader reports exactly those
 * two denials, each with its own permission, contexts and class (and its
 * own comm where the form writes it unambiguously), or it refuses with a
 * message and what it does report is among the two; never a denial made
 * of the fields of both.
 *
 * Input: byte 0 the first form, byte 1 the second, byte 2 what joins them;
 * the rest, up to a newline, the first record's value, then the second's.
 * `ausearch -i` values are written without '=': a value holding "key=" is
 * what makes that output ambiguous for any reader, not a run-together line.
 */
#include <string.h>

#include "read/denial.h"
#include "read/reader.h"
#include "fuzz-common.h"

enum { RAW, INTERPRETED, JOURNAL, SYSLOG, BARE, USER, JOURNAL_USER, N_FORMS };

/* what one record of the pair is: its form and what it names */
typedef struct {
	int form;
	const char *perm, *stype;
	char *value;		/* the process-chosen value, raw bytes */
	gsize value_len;
	guint serial;
} Rec;

typedef struct {
	Rec *recs;
	guint found[2];		/* denials read of each record */
	gboolean problem;	/* a refusal or another problem, with its line */
} Case;

/* @v as the kernel writes an untrusted string: "quoted", or hex when it must be */
static void kernel_value(GString *s, const char *v, gsize len)
{
	gboolean hex = len == 0;

	for (gsize i = 0; i < len; i++)
		if ((guchar)v[i] <= 0x20 || (guchar)v[i] >= 0x7f || v[i] == '"')
			hex = TRUE;
	if (!hex) {
		g_string_append_c(s, '"');
		g_string_append_len(s, v, len);
		g_string_append_c(s, '"');
		return;
	}
	for (gsize i = 0; i < len; i++)
		g_string_append_printf(s, "%02X", (guchar)v[i]);
	if (!len)
		g_string_append(s, "\"\"");
}

/* @v as ausearch -i prints it: decoded, unquoted; control bytes as '?', no '=' */
static void interpreted_value(GString *s, const char *v, gsize len)
{
	for (gsize i = 0; i < len; i++)
		g_string_append_c(s, (guchar)v[i] < 0x20 || v[i] == 0x7f || v[i] == '=' ? '?' : v[i]);
	if (!len)
		g_string_append_c(s, '?');
}

/* the contexts and class of a record of source type @t */
#define CTX "scontext=system_u:system_r:%s:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file"

static void append_record(GString *s, const Rec *r)
{
	switch (r->form) {
	case RAW:
	case JOURNAL:
	case SYSLOG:
	case BARE:
		if (r->form == RAW)
			g_string_append_printf(s, "type=AVC msg=audit(1700000000.100:%u): ", r->serial);
		else if (r->form == JOURNAL)
			g_string_append_printf(s, "Nov 14 22:13:21 fed43 audit[%u]: AVC ", r->serial);
		else if (r->form == SYSLOG)
			g_string_append_printf(s, "Nov 14 22:13:21 web1 kernel: audit: type=1400 "
					       "audit(1700000001.100:%u): ", r->serial);
		g_string_append_printf(s, "avc:  denied  { %s } for  pid=%u comm=", r->perm,
				       r->serial);
		kernel_value(s, r->value, MIN(r->value_len, 15));
		g_string_append(s, " name=");
		kernel_value(s, r->value, r->value_len);
		g_string_append(s, " dev=\"dm-0\" ino=5 ");
		g_string_append_printf(s, CTX, r->stype);
		g_string_append(s, " permissive=0");
		break;
	case INTERPRETED:
		g_string_append_printf(s, "type=AVC msg=audit(11/14/2023 22:13:21.085:%u) : avc:  "
				       "denied  { %s } for  pid=%u comm=", r->serial, r->perm,
				       r->serial);
		interpreted_value(s, r->value, MIN(r->value_len, 15));
		g_string_append(s, " path=/memfd:");
		interpreted_value(s, r->value, r->value_len);
		g_string_append(s, " (deleted) dev=\"tmpfs\" ino=5 ");
		g_string_append_printf(s, CTX, r->stype);
		g_string_append(s, " permissive=1");
		break;
	case USER:
	case JOURNAL_USER:
		if (r->form == USER)
			g_string_append_printf(s, "type=USER_AVC msg=audit(1700000002.100:%u): ",
					       r->serial);
		else
			g_string_append_printf(s, "Nov 14 22:13:21 fed43 audit[%u]: USER_AVC ",
					       r->serial);
		g_string_append_printf(s, "pid=%u uid=81 auid=4294967295 ses=4294967295 "
				       "subj=system_u:system_r:system_dbusd_t:s0 msg='avc:  denied  "
				       "{ %s } for msgtype=method_call member=", r->serial, r->perm);
		/* the sender's text, as the object manager copies it: any byte but NUL, newline */
		for (gsize i = 0; i < r->value_len; i++)
			g_string_append_c(s, r->value[i] == '\n' || r->value[i] == '\r' ? ' '
					  : r->value[i]);
		g_string_append_c(s, ' ');
		g_string_append_printf(s, CTX, r->stype);
		g_string_append(s, " permissive=0  exe=\"/usr/bin/dbus-broker\" sauid=81 "
				   "hostname=? addr=? terminal=?'");
		break;
	default:
		break;
	}
}

/* the comm of a record, when its form writes it so that it reads back exactly */
static gboolean comm_is_exact(const Rec *r)
{
	gsize n = MIN(r->value_len, 15);

	if (r->form == USER || r->form == JOURNAL_USER)
		return FALSE;
	if (r->form != INTERPRETED)
		return TRUE;
	/*
	 * ausearch -i: a blank at either end or a "}" word is where a value may
	 * end, and a quote it begins with reads as quoting
	 */
	if (!n || r->value[0] == ' ' || r->value[n - 1] == ' ' || memchr(r->value, '}', n) ||
	    r->value[0] == '"' || r->value[0] == '\'')
		return FALSE;
	for (gsize i = 0; i < n; i++)
		if ((guchar)r->value[i] < 0x20 || r->value[i] == 0x7f || r->value[i] == '=')
			return FALSE;
	return TRUE;
}

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	(void)file;
	(void)line;
	(void)message;
	((Case *)user_data)->problem = TRUE;
}

static void on_denial_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	(void)rec;
	(void)message;
	((Case *)user_data)->problem = TRUE;
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	Case *c = user_data;
	g_autoptr(GPtrArray) denials =
		g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);

	ad_event_build_denials(ev, denials, on_denial_problem, c);
	for (guint i = 0; i < denials->len; i++) {
		const AdDenial *d = denials->pdata[i];
		g_autofree char *stype = ad_context_type(d->scontext);
		int k = -1;

		for (int j = 0; j < 2; j++)
			if (d->perms->len == 1 && strcmp(d->perms->pdata[0], c->recs[j].perm) == 0 &&
			    g_strcmp0(stype, c->recs[j].stype) == 0 &&
			    g_strcmp0(d->tcontext, "system_u:object_r:etc_t:s0") == 0 &&
			    g_strcmp0(d->tclass, "file") == 0)
				k = j;
		if (k < 0)
			ad_fuzz_fail("a denial that is neither record", d->record->text,
				     strlen(d->record->text));
		c->found[k]++;
		if (comm_is_exact(&c->recs[k]) &&
		    !(d->comm.data && d->comm.len == MIN(c->recs[k].value_len, 15) &&
		      memcmp(d->comm.data, c->recs[k].value, d->comm.len) == 0))
			ad_fuzz_fail("a denial with another record's comm", d->record->text,
				     strlen(d->record->text));
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ad_fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const joins[] = { " ", "  ", " seen: " };
	Rec recs[2] = {
		{ .perm = "read", .stype = "httpd_t", .serial = 101 },
		{ .perm = "write", .stype = "postfix_smtpd_t", .serial = 202 },
	};
	Case c = { .recs = recs };
	g_autoptr(AdReader) r = NULL;
	g_autoptr(GString) line = g_string_new(NULL);
	const char *rest, *end, *nl;

	if (size < 3 || size > 4096)
		return 0;
	recs[0].form = data[0] % N_FORMS;
	recs[1].form = data[1] % N_FORMS;
	rest = (const char *)data + 3;
	end = (const char *)data + size;
	nl = memchr(rest, '\n', end - rest);
	recs[0].value = g_strndup(rest, (nl ? nl : end) - rest);
	recs[0].value_len = (nl ? nl : end) - rest;
	recs[1].value = nl ? g_strndup(nl + 1, end - (nl + 1)) : g_strdup("smtpd");
	recs[1].value_len = nl ? (gsize)(end - (nl + 1)) : 5;
	/* a record's values end at a NUL (the kernel's strings) or a newline (one line) */
	for (int i = 0; i < 2; i++) {
		char *z = memchr(recs[i].value, '\0', recs[i].value_len);

		if (z)
			recs[i].value_len = z - recs[i].value;
		for (gsize j = 0; j < recs[i].value_len; j++)
			if (recs[i].value[j] == '\n')
				recs[i].value[j] = ' ';
	}
	append_record(line, &recs[0]);
	g_string_append(line, joins[data[2] % G_N_ELEMENTS(joins)]);
	append_record(line, &recs[1]);
	g_string_append_c(line, '\n');

	r = ad_reader_new(on_event, on_problem, &c);
	ad_reader_set_source(r, "fuzz");
	ad_reader_feed(r, line->str, line->len);
	ad_reader_end_source(r);
	if (c.found[0] > 1 || c.found[1] > 1)
		ad_fuzz_fail("a record read twice", line->str, line->len);
	if (!c.problem && (c.found[0] != 1 || c.found[1] != 1))
		ad_fuzz_fail("both records, or a refusal that says so", line->str, line->len);
	g_free(recs[0].value);
	g_free(recs[1].value);
	return 0;
}
