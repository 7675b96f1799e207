/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record reader, the event assembler, the denial builder and both
 * renderers, without a policy: the input is fed in chunks of random sizes
 * (a record, a UTF-8 character or a hex value split anywhere), each event
 * becomes denials, each denial is rendered as `why` text and as JSON.
 * Properties checked beyond memory safety: the text is valid UTF-8 with no
 * control character but the line ends, the JSON line is one valid UTF-8
 * line that json-c parses back.
 */
#include <string.h>
#include <json-c/json.h>

#include "escape.h"
#include "read/denial.h"
#include "read/reader.h"
#include "output/report.h"
#include "fuzz-common.h"

static void check_text(const char *what, const char *s, gboolean allow_newline)
{
	size_t len = strlen(s);

	if (!g_utf8_validate(s, len, NULL))
		ad_fuzz_fail(what, s, len);
	for (const char *p = s; *p; p = g_utf8_next_char(p)) {
		gunichar c = g_utf8_get_char(p);

		if (c == '\n' && allow_newline)
			continue;
		/* controls and every other character that hides itself (escape.h) */
		if (ad_unichar_is_hidden(c))
			ad_fuzz_fail(what, s, len);
	}
}

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	(void)file;
	(void)line;
	check_text("reader problem message is clean", message, FALSE);
}

static void on_denial_problem(const AdRecord *rec, const char *message, gpointer user_data)
{
	(void)rec;
	check_text("denial problem message is clean", message, FALSE);
}

static void on_event(AdEvent *ev, gpointer user_data)
{
	g_autoptr(GPtrArray) denials =
		g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref);
	g_autoptr(GString) out = g_string_new(NULL);

	(void)ad_event_is_policy_load(ev);
	ad_event_build_denials(ev, denials, on_denial_problem, NULL);
	for (guint i = 0; i < denials->len; i++) {
		const AdDenial *d = denials->pdata[i];
		json_object *o;
		const char *line;
		char *desc;

		g_string_truncate(out, 0);
		ad_render_why(out, d, NULL);
		check_text("why text is clean", out->str, TRUE);

		desc = ad_denial_describe(d);
		check_text("description is clean", desc, FALSE);
		g_free(desc);

		o = ad_denial_to_json(d, NULL);
		line = ad_json_line(o);
		check_text("JSON line is clean", line, FALSE);
		json_object *back = json_tokener_parse(line);
		if (!back)
			ad_fuzz_fail("JSON line parses back", line, strlen(line));
		json_object_put(back);
		json_object_put(o);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	ad_fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(AdReader) r = ad_reader_new(on_event, on_problem, NULL);
	guint64 seed = ad_fuzz_seed(data, size);
	size_t off = 0;

	ad_reader_set_source(r, "fuzz");
	while (off < size) {
		guint64 x = ad_fuzz_next(&seed);
		/* mostly small chunks, sometimes large ones */
		size_t n = (x & 3) ? 1 + (x >> 8) % 17 : 1 + (x >> 8) % 4096;

		if (n > size - off)
			n = size - off;
		ad_reader_feed(r, (const char *)data + off, n);
		off += n;
	}
	ad_reader_end_source(r);
	(void)ad_reader_lines(r);
	(void)ad_reader_records(r);
	(void)ad_reader_rejected(r);
	return 0;
}
