/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The USER_AVC trusted-field split: the input is the object manager's text
 * of a userspace denial (what a caller controls: a unit name, a D-Bus
 * path, a command line), placed where libselinux puts it, between its own
 * "avc:  denied  { perm } for " and the scontext/tcontext/tclass/permissive
 * run it appends; auditd's exe/sauid/hostname fields follow the quote.
 * Properties checked beyond memory safety: whatever the caller text holds
 * (planted fields, quotes it never closes, thousands of fields), every
 * denial of the record carries the appended contexts, class and permissive
 * flag, and a caller text that names none of those fields and holds no
 * quote is not suspect.  The one exception: a caller text with a quote
 * and what reads as another record's start after it is what two records
 * run together look like; the record is then refused, with a message,
 * and never read with the fields of two.
 */
#include <string.h>

#include "read/denial.h"
#include "read/reader.h"
#include "fuzz-common.h"

/* the run libselinux appends, a few shapes of it */
static const struct {
	const char *perm, *scontext, *tcontext, *tclass;
	int permissive;
} trusted[] = {
	{ "start", "system_u:system_r:init_t:s0",
	  "system_u:object_r:systemd_unit_file_t:s0", "service", 0 },
	{ "send_msg", "system_u:system_r:cupsd_t:s0-s0:c0.c1023",
	  "unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023", "dbus", 1 },
	{ "status", "staff_u:staff_r:staff_t:s0", "system_u:system_r:init_t:s0",
	  "system", 0 },
};

typedef struct {
	guint which;
	gboolean names_fields;	/* the caller text holds a field we check, or a quote */
	guint n_denials;
	gboolean refused;	/* the reader said records ran together after a quote */
} Case;

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	Case *c = user_data;

	(void)file;
	(void)line;
	if (strstr(message, "another record after a quote"))
		c->refused = TRUE;
}

static void on_denial_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	(void)rec;
	(void)message;
	(void)user_data;
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	Case *c = user_data;
	g_autoptr(GPtrArray) denials =
		g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);

	ad_event_build_denials(ev, denials, on_denial_problem, NULL);
	for (guint i = 0; i < denials->len; i++) {
		const AdDenial *d = denials->pdata[i];
		const char *sc = trusted[c->which].scontext;

		c->n_denials++;
		if (!d->scontext || strcmp(d->scontext, sc) != 0)
			ad_fuzz_fail("scontext is the appended one", d->scontext,
				     d->scontext ? strlen(d->scontext) : 0);
		if (!d->tcontext || strcmp(d->tcontext, trusted[c->which].tcontext) != 0)
			ad_fuzz_fail("tcontext is the appended one", d->tcontext,
				     d->tcontext ? strlen(d->tcontext) : 0);
		if (!d->tclass || strcmp(d->tclass, trusted[c->which].tclass) != 0)
			ad_fuzz_fail("tclass is the appended one", d->tclass,
				     d->tclass ? strlen(d->tclass) : 0);
		if (d->permissive != trusted[c->which].permissive)
			ad_fuzz_fail("permissive is the appended one", NULL, 0);
		if (d->suspect && !c->names_fields)
			ad_fuzz_fail("suspect without planted fields", d->suspect_reason,
				     d->suspect_reason ? strlen(d->suspect_reason) : 0);
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
	Case c = { 0 };
	g_autoptr(AdReader) r = NULL;
	g_autoptr(GString) line = g_string_new(NULL);
	g_autofree char *text = NULL;

	if (size < 1)
		return 0;
	c.which = data[0] % G_N_ELEMENTS(trusted);
	/* the kernel ends the text at a NUL, auditd writes one record a line */
	text = g_malloc(size);
	for (size_t i = 1; i < size; i++)
		text[i - 1] = (data[i] == '\0' || data[i] == '\n') ? ' ' : (char)data[i];
	text[size - 1] = '\0';
	/* a quote the caller opens may hide the appended run from the field
	 * splitter, and a terminal escape removed may join "tcla" and "ss=":
	 * the disagreement then rightly makes the record suspect */
	c.names_fields = strstr(text, "context=") || strstr(text, "tclass=") ||
			 strstr(text, "permissive=") || strpbrk(text, "'\"\x1b");

	g_string_append_printf(line,
			       "type=USER_AVC msg=audit(1700000000.000:7): pid=1 uid=0 "
			       "auid=4294967295 ses=4294967295 subj=system_u:system_r:init_t:s0 "
			       "msg='avc:  denied  { %s } for ",
			       trusted[c.which].perm);
	g_string_append(line, text);
	g_string_append_printf(line,
			       " scontext=%s tcontext=%s tclass=%s permissive=%d  "
			       "exe=\"/usr/lib/systemd/systemd\" sauid=0 hostname=? addr=? "
			       "terminal=?'\n",
			       trusted[c.which].scontext, trusted[c.which].tcontext,
			       trusted[c.which].tclass, trusted[c.which].permissive);

	r = ad_reader_new(on_event, on_problem, &c);
	ad_reader_set_source(r, "fuzz");
	ad_reader_feed(r, line->str, line->len);
	ad_reader_end_source(r);
	if (c.refused && !(c.n_denials == 0 && strchr(text, '\'')))
		ad_fuzz_fail("refused only for a quote in the caller text, and wholly", line->str,
			     line->len);
	if (c.n_denials != 1 && !c.refused)
		ad_fuzz_fail("one denial from the record", line->str, line->len);
	return 0;
}
