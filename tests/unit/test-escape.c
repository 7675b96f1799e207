// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for escape.c (display and shell quoting of attacker-chosen
 * bytes) and for the JSON form of denials holding such bytes (report.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-c/json.h>

#include "read/denial.h"
#include "escape.h"
#include "read/reader.h"
#include "output/report.h"

/* ---------------------------------------------------------------- helpers */

/* TRUE when @s is valid UTF-8 holding nothing hidden (ad_unichar_is_hidden, tested on its own) */
static gboolean text_is_displayable(const char *s)
{
	if (!g_utf8_validate(s, -1, NULL))
		return FALSE;
	for (const char *p = s; *p; p = g_utf8_next_char(p))
		if (ad_unichar_is_hidden(g_utf8_get_char(p)))
			return FALSE;
	return TRUE;
}

/*
 * Inverse of ad_escape_bytes() as documented in escape.h: "\\\\", "\\n",
 * "\\t", "\\r", "\\xHH" and "\\u{HHHH}".  Returns NULL on a sequence the
 * escaper should never produce.  Round-tripping through it proves that
 * nothing was dropped or truncated.
 */
static GByteArray *unescape(const char *s)
{
	GByteArray *out = g_byte_array_new();

	for (const char *p = s; *p;) {
		if (*p != '\\') {
			g_byte_array_append(out, (const guint8 *)p, 1);
			p++;
			continue;
		}
		p++;
		if (*p == '\\' || *p == 'n' || *p == 't' || *p == 'r') {
			guint8 c = *p == '\\' ? '\\' : *p == 'n' ? '\n' : *p == 't' ? '\t' : '\r';

			g_byte_array_append(out, &c, 1);
			p++;
		} else if (*p == 'x' && g_ascii_isxdigit(p[1]) && g_ascii_isxdigit(p[2])) {
			guint8 c = (g_ascii_xdigit_value(p[1]) << 4) | g_ascii_xdigit_value(p[2]);

			g_byte_array_append(out, &c, 1);
			p += 3;
		} else if (p[0] == 'u' && p[1] == '{') {
			char *end;
			gunichar c = strtoul(p + 2, &end, 16);
			char buf[8];
			int n;

			if (*end != '}') {
				g_byte_array_unref(out);
				return NULL;
			}
			n = g_unichar_to_utf8(c, buf);
			g_byte_array_append(out, (const guint8 *)buf, n);
			p = end + 1;
		} else {
			g_byte_array_unref(out);
			return NULL;
		}
	}
	return out;
}

static void assert_round_trip(const void *data, gsize len)
{
	g_autofree char *esc = ad_escape_bytes(data, len);
	GByteArray *back;

	assert_non_null(esc);
	assert_true(text_is_displayable(esc));
	back = unescape(esc);
	assert_non_null(back);
	assert_int_equal(back->len, len);
	assert_memory_equal(back->data, data, len);
	g_byte_array_unref(back);
}

/* -------------------------------------------------------- ad_escape_bytes */

typedef struct {
	const char *in;
	gsize len;
	const char *out;
} EscapeCase;

#define EC(s, o) { s, sizeof(s) - 1, o }

static const EscapeCase escape_cases[] = {
	EC("plain /var/www/html", "plain /var/www/html"),
	EC("", ""),
	EC("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"),	/* ESC (CSI) */
	EC("a\xc2\x9b" "2Jb", "a\\u{009b}2Jb"),			/* C1 CSI U+009B */
	EC("\xc2\x85", "\\u{0085}"),				/* C1 NEL */
	EC("evil\xe2\x80\xaegnp.exe", "evil\\u{202e}gnp.exe"),	/* RLO U+202E */
	EC("\xe2\x81\xa6x\xe2\x81\xa9", "\\u{2066}x\\u{2069}"),	/* isolates */
	EC("a\xe2\x80\x8b" "b", "a\\u{200b}b"),			/* zero width space */
	EC("\xef\xbb\xbf", "\\u{feff}"),			/* BOM */
	EC("\xe2\x80\xa8", "\\u{2028}"),			/* line separator */
	EC("l1\ntype=AVC msg=audit(1.0:1): x", "l1\\ntype=AVC msg=audit(1.0:1): x"),
	EC("cr\rover", "cr\\rover"),
	EC("tab\there", "tab\\there"),
	EC("nul\0after", "nul\\x00after"),			/* no truncation at NUL */
	EC("\0", "\\x00"),
	EC("del\x7f", "del\\x7f"),
	EC("bell\x07", "bell\\x07"),
	EC("back\\slash", "back\\\\slash"),
	EC("\\x41", "\\\\x41"),					/* not ambiguous */
	EC("bad\xff\xfe", "bad\\xff\\xfe"),			/* invalid UTF-8 */
	EC("trunc\xc3", "trunc\\xc3"),				/* cut multibyte at end */
	EC("\xc3(", "\\xc3("),					/* bad continuation */
	EC("\xc0\xaf", "\\xc0\\xaf"),				/* overlong '/' */
	EC("\xc0\x80", "\\xc0\\x80"),				/* overlong NUL */
	EC("\xed\xa0\x80", "\\xed\\xa0\\x80"),			/* UTF-16 surrogate */
	EC("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"),		/* above U+10FFFF */
	EC("\x80", "\\x80"),					/* lone continuation */
	EC("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
	EC("<b>bold</b> <a href=x>", "<b>bold</b> <a href=x>"),
	/* each class that hides itself on screen, by Unicode category */
	EC("a\xd8\x9c" "b", "a\\u{061c}b"),			/* Arabic letter mark (Cf) */
	EC("pass\xc2\xad" "wd", "pass\\u{00ad}wd"),		/* soft hyphen (Cf) */
	EC("\xe1\xa0\x8e", "\\u{180e}"),			/* Mongolian vowel separator (Cf) */
	EC("\xe2\x81\xaa\xe2\x81\xaf", "\\u{206a}\\u{206f}"),	/* deprecated format (Cf) */
	EC("\xe2\x80\x8d", "\\u{200d}"),			/* zero width joiner (Cf) */
	EC("\xef\xbf\xb9", "\\u{fff9}"),			/* interlinear annotation (Cf) */
	EC("x\xef\xb8\x8f", "x\\u{fe0f}"),			/* variation selector 16 */
	EC("x\xef\xb8\x80", "x\\u{fe00}"),			/* variation selector 1 */
	EC("x\xf3\xa0\x84\x80", "x\\u{e0100}"),		/* variation selector 17 */
	EC("\xf3\xa0\x80\x81\xf3\xa0\x81\x81\xf3\xa0\x81\xbf",
	   "\\u{e0001}\\u{e0041}\\u{e007f}"),		/* language tag, tag A, cancel tag */
	EC("\xe3\x85\xa4", "\\u{3164}"),			/* Hangul filler */
	EC("\xef\xbe\xa0\xe1\x85\x9f", "\\u{ffa0}\\u{115f}"),	/* other Hangul fillers */
	EC("\xe2\xa0\x80", "\\u{2800}"),			/* Braille pattern blank */
	EC("a\xcd\x8f" "b", "a\\u{034f}b"),			/* combining grapheme joiner */
	EC("\xe2\x80\xa9", "\\u{2029}"),			/* paragraph separator (Zp) */
	EC("a\xc2\xa0" "b", "a\\u{00a0}b"),			/* no-break space (Zs) */
	EC("\xe3\x80\x80", "\\u{3000}"),			/* ideographic space (Zs) */
	EC("\xee\x80\x80", "\\u{e000}"),			/* private use (Co) */
	EC("\xf4\x8f\xbf\xbd", "\\u{10fffd}"),		/* supplementary private use */
	EC("\xef\xbf\xbf", "\\u{ffff}"),			/* noncharacter (Cn) */
	EC("\xf1\x80\x80\x80" "x", "\\u{40000}x"),		/* unassigned (plane 4) */
	/* visible marks and letters stay */
	EC("e\xcc\x81 \xd8\xa7 \xe4\xb8\xad \xea\xb0\x80", "e\xcc\x81 \xd8\xa7 \xe4\xb8\xad \xea\xb0\x80"),
};

static void test_escape_table(void **state)
{
	for (gsize i = 0; i < G_N_ELEMENTS(escape_cases); i++) {
		const EscapeCase *c = &escape_cases[i];
		g_autofree char *got = ad_escape_bytes(c->in, c->len);

		if (g_strcmp0(got, c->out) != 0)
			print_error("case %zu: expected \"%s\", got \"%s\"\n", i, c->out, got);
		assert_string_equal(got, c->out);
		assert_true(text_is_displayable(got));
		assert_round_trip(c->in, c->len);
	}
}

static void test_escape_every_byte(void **state)
{
	guint8 all[256];

	for (int i = 0; i < 256; i++) {
		guint8 b = i;

		all[i] = i;
		assert_round_trip(&b, 1);
	}
	assert_round_trip(all, sizeof(all));
}

/* random bytes: always displayable, always reversible, never truncated */
static void test_escape_random_property(void **state)
{
	g_autoptr(GRand) rand = g_rand_new_with_seed(0xad0e5c);

	for (int n = 0; n < 3000; n++) {
		guint8 buf[64];
		gsize len = g_rand_int_range(rand, 0, sizeof(buf) + 1);

		for (gsize i = 0; i < len; i++) {
			/* bias towards the interesting lead bytes */
			switch (g_rand_int_range(rand, 0, 4)) {
			case 0:
				buf[i] = g_rand_int_range(rand, 0, 0x20);
				break;
			case 1:
				buf[i] = g_rand_int_range(rand, 0x80, 0x100);
				break;
			case 2: {
				/* a valid C1 or bidi sequence */
				static const guint8 seq[][3] = {
					{ 0xc2, 0x9b, 'x' }, { 0xe2, 0x80, 0xae }, { 0xe2, 0x81, 0xa6 },
				};
				int k = g_rand_int_range(rand, 0, 3);

				for (int j = 0; j < 3 && i < len; j++, i++)
					buf[i] = seq[k][j];
				i--;
				break;
			}
			default:
				buf[i] = g_rand_int_range(rand, 0x20, 0x80);
			}
		}
		assert_round_trip(buf, len);
	}
}

static void test_escape_str_and_gbytes(void **state)
{
	g_autofree char *a = ad_escape_str("x\ny");
	g_autoptr(GBytes) b = g_bytes_new("p\0q\x1b", 4);
	g_autofree char *c = ad_escape_gbytes(b);

	assert_string_equal(a, "x\\ny");
	assert_string_equal(c, "p\\x00q\\x1b");
	assert_null(ad_escape_str(NULL));
	assert_null(ad_escape_gbytes(NULL));
}

/* ------------------------------------------------------ ad_bytes_are_clean */

typedef struct {
	const char *in;
	gsize len;
	gboolean clean;
} CleanCase;

#define CC(s, c) { s, sizeof(s) - 1, c }

static const CleanCase clean_cases[] = {
	CC("", TRUE),
	CC("/var/www/html/index.html", TRUE),
	CC("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", TRUE),
	CC("back\\slash <b> $(id) `id` 'q' \"dq\"", TRUE),
	CC("a\0b", FALSE),
	CC("\x1b[2J", FALSE),
	CC("\n", FALSE),
	CC("\r", FALSE),
	CC("\t", FALSE),
	CC("\x7f", FALSE),
	CC("\xc2\x9b", FALSE),
	CC("\xe2\x80\xae", FALSE),
	CC("\xe2\x80\x8b", FALSE),
	CC("\xef\xbb\xbf", FALSE),
	CC("\xff", FALSE),
	CC("ok\xc3", FALSE),
	CC("\xc0\xaf", FALSE),
	CC("\xed\xa0\x80", FALSE),
	CC("\xd8\x9c", FALSE),
	CC("\xef\xb8\x8f", FALSE),
	CC("\xf3\xa0\x81\x81", FALSE),
	CC("\xe3\x85\xa4", FALSE),
	CC("\xc2\xa0", FALSE),
	CC("\xc2\xad", FALSE),
	CC("e\xcc\x81", TRUE),
};

/* ad_text_has_hidden: the test a fix is held to before it may run with one click */
static void test_text_has_hidden(void **state)
{
	(void)state;
	assert_false(ad_text_has_hidden(NULL));
	assert_false(ad_text_has_hidden(""));
	assert_false(ad_text_has_hidden("/var/www/caf\xc3\xa9 $(id)"));
	assert_true(ad_text_has_hidden("/var/www/a\xd8\x9c" "b"));
	assert_true(ad_text_has_hidden("/x\xf3\xa0\x81\x81"));
	assert_true(ad_text_has_hidden("/x\n"));
	assert_true(ad_text_has_hidden("/x\xff"));
	/* every code point of the classes, one by one */
	static const gunichar hidden[][2] = {
		{ 0x0000, 0x001f }, { 0x007f, 0x009f }, { 0x00a0, 0x00a0 }, { 0x00ad, 0x00ad },
		{ 0x061c, 0x061c }, { 0x180e, 0x180e }, { 0x200b, 0x200f }, { 0x2028, 0x202f },
		{ 0x2060, 0x2064 }, { 0x2066, 0x206f }, { 0x3164, 0x3164 }, { 0xfe00, 0xfe0f },
		{ 0xfeff, 0xfeff }, { 0xe0001, 0xe0001 }, { 0xe0020, 0xe007f },
		{ 0xe0100, 0xe01ef }, { 0xe000, 0xf8ff }, { 0xf0000, 0xf0010 },
	};
	static const gunichar shown[] = {
		' ', 'a', '~', 0x00a1, 0x00e9, 0x0301, 0x0627, 0x20ac, 0x4e2d, 0xac00, 0x1f600,
	};

	for (guint i = 0; i < G_N_ELEMENTS(hidden); i++)
		for (gunichar c = hidden[i][0]; c <= hidden[i][1]; c++)
			if (!ad_unichar_is_hidden(c))
				fail_msg("U+%04X is not taken for hidden", c);
	for (guint i = 0; i < G_N_ELEMENTS(shown); i++)
		if (ad_unichar_is_hidden(shown[i]))
			fail_msg("U+%04X is taken for hidden", shown[i]);
}

static void test_bytes_are_clean(void **state)
{
	for (gsize i = 0; i < G_N_ELEMENTS(clean_cases); i++) {
		const CleanCase *c = &clean_cases[i];
		gboolean got = ad_bytes_are_clean(c->in, c->len);

		if (got != c->clean)
			print_error("clean case %zu: expected %d\n", i, c->clean);
		assert_int_equal(got, c->clean);
		/* clean bytes are shown as they are, except that "\\" doubles */
		if (c->clean && !memchr(c->in, '\\', c->len)) {
			g_autofree char *e = ad_escape_bytes(c->in, c->len);

			assert_int_equal(strlen(e), c->len);
			assert_memory_equal(e, c->in, c->len);
		}
	}
}

/* -------------------------------------------------------------- JSON output */

typedef struct {
	GPtrArray *denials;
	GPtrArray *problems;
} Collected;

static void on_event(AdEvent *ev, gpointer user_data)
{
	Collected *c = user_data;

	ad_event_build_denials(ev, c->denials, NULL, NULL);
}

static void on_problem(const char *file, guint line, const char *message, gpointer user_data)
{
	Collected *c = user_data;

	g_ptr_array_add(c->problems, g_strdup_printf("%s:%u: %s", file, line, message));
}

static GPtrArray *denials_from_text(const char *text)
{
	Collected c = {
		g_ptr_array_new_with_free_func((GDestroyNotify)ad_denial_unref),
		g_ptr_array_new_with_free_func(g_free),
	};
	g_autoptr(AdReader) r = ad_reader_new(on_event, on_problem, &c);

	ad_reader_set_source(r, "hostile.log");
	ad_reader_feed(r, text, strlen(text));
	ad_reader_end_source(r);
	for (guint i = 0; i < c.problems->len; i++)
		print_error("unexpected problem: %s\n", (char *)g_ptr_array_index(c.problems, i));
	assert_int_equal(c.problems->len, 0);
	g_ptr_array_unref(c.problems);
	return c.denials;
}

static char *hex_of(const void *data, gsize len)
{
	GString *s = g_string_new(NULL);

	for (gsize i = 0; i < len; i++)
		g_string_append_printf(s, "%02X", ((const guint8 *)data)[i]);
	return g_string_free(s, FALSE);
}

static GBytes *bytes_from_hex(const char *hex)
{
	gsize n = strlen(hex);
	guint8 *buf;

	assert_int_equal(n % 2, 0);
	buf = g_malloc(n / 2 + 1);
	for (gsize i = 0; i < n / 2; i++) {
		assert_true(g_ascii_isxdigit(hex[2 * i]) && g_ascii_isxdigit(hex[2 * i + 1]));
		buf[i] = (g_ascii_xdigit_value(hex[2 * i]) << 4) |
			 g_ascii_xdigit_value(hex[2 * i + 1]);
	}
	return g_bytes_new_take(buf, n / 2);
}

/* no byte below 0x20 and valid UTF-8: the JSON text is one safe line */
static void assert_json_text_safe(const char *text)
{
	assert_true(g_utf8_validate(text, -1, NULL));
	for (const guchar *p = (const guchar *)text; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			print_error("raw control byte 0x%02x at offset %td of %s\n", *p,
				    (const char *)p - text, text);
			fail();
		}
}

/* the JSON value of @key is the escape of @want, and "<key>_hex" its exact bytes */
static void assert_json_bytes(json_object *o, const char *key, const void *want, gsize len)
{
	json_object *v = NULL, *h = NULL;
	g_autofree char *hkey = g_strdup_printf("%s_hex", key);
	g_autofree char *esc = ad_escape_bytes(want, len);

	assert_true(json_object_object_get_ex(o, key, &v));
	assert_true(json_object_is_type(v, json_type_string));
	assert_string_equal(json_object_get_string(v), esc);
	assert_true(json_object_object_get_ex(o, hkey, &h));
	assert_true(json_object_is_type(h, json_type_string));
	{
		g_autoptr(GBytes) back = bytes_from_hex(json_object_get_string(h));
		gsize blen;
		const void *bdata = g_bytes_get_data(back, &blen);

		assert_int_equal(blen, len);
		assert_memory_equal(bdata, want, len);
	}
}

static const char hostile_comm[] = "a\0\x1b[2J\nb\xff";		/* NUL ESC newline bad UTF-8 */
static const char hostile_path[] =
	"/tmp/\xe2\x80\xae" "fdp.sh\r\ntype=AVC msg=audit(1.0:1): \xc2\x9b" "31m\"q\"\\";

/*
 * ad_utf8_valid() answers as g_utf8_validate() does: a table of texts
 * where the ASCII run ends at every offset of its eight-byte words, and
 * random bytes
 */
static void test_utf8_valid(void **state)
{
	static const char *const cases[] = {
		"", "a", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh\xc3\xa9", "abcdefghijklmno\xc3",
		"abcdefghijklmnop\xc3\xa9x", "abcdefg\xff", "abcdefgh\xff", "\xe2\x82\xac",
		"abcdefghijklmnopq\xe2\x82", "abcdefgh\xed\xa0\x80", "abc\x7f\x01\x1b[31m",
		"abcdefgh\xf4\x90\x80\x80", "\xc0\xaf", "12345678\xc0\xaf",
	};
	GRand *r = g_rand_new_with_seed(7);

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		gsize n = strlen(cases[i]);

		assert_int_equal(ad_utf8_valid(cases[i], -1), g_utf8_validate(cases[i], -1, NULL));
		/* every prefix: a character cut at the end */
		for (gsize k = 0; k <= n; k++)
			assert_int_equal(ad_utf8_valid(cases[i], k),
					 g_utf8_validate(cases[i], k, NULL));
	}
	/* a NUL within the length is invalid, wherever it is */
	for (gsize k = 0; k < 20; k++) {
		char buf[20];

		memset(buf, 'a', sizeof(buf));
		buf[k] = '\0';
		assert_false(ad_utf8_valid(buf, sizeof(buf)));
		assert_true(ad_utf8_valid(buf, -1));
	}
	for (guint i = 0; i < 20000; i++) {
		char buf[40];
		gsize n = g_rand_int_range(r, 0, sizeof(buf));

		for (gsize k = 0; k < n; k++) {
			guint32 x = g_rand_int(r);

			/* mostly ASCII, some high bytes, a few NULs */
			buf[k] = x % 16 == 0 ? (char)(0x80 | (x >> 8 & 0x7f))
				 : x % 97 == 0 ? 0 : (char)(0x20 + (x >> 8) % 95);
		}
		assert_int_equal(ad_utf8_valid(buf, n), g_utf8_validate(buf, n, NULL));
	}
	g_rand_free(r);
}

static void test_json_hostile_denial(void **state)
{
	g_autofree char *comm_hex = hex_of(hostile_comm, sizeof(hostile_comm) - 1);
	g_autofree char *path_hex = hex_of(hostile_path, sizeof(hostile_path) - 1);
	g_autofree char *text = g_strdup_printf(
		"type=AVC msg=audit(1700000100.250:900): avc:  denied  { read } for  pid=77 "
		"comm=%s path=%s dev=\"sda1\" ino=5 "
		"scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:tmp_t:s0 "
		"tclass=file permissive=0\n"
		"type=SYSCALL msg=audit(1700000100.250:900): arch=c000003e syscall=257 "
		"success=no exit=-13 ppid=1 pid=77 auid=1000 uid=1000 comm=%s exe=\"/usr/bin/cat\"\n",
		comm_hex, path_hex, comm_hex);
	g_autoptr(GPtrArray) ds = denials_from_text(text);
	json_object *o, *parsed, *v = NULL;
	const AdDenial *d;
	const char *line;

	assert_int_equal(ds->len, 1);
	d = g_ptr_array_index(ds, 0);
	o = ad_denial_to_json(d, NULL);
	line = ad_json_line(o);
	assert_non_null(line);
	assert_json_text_safe(line);
	assert_null(strchr(line, '\n'));

	parsed = json_tokener_parse(line);
	assert_non_null(parsed);
	assert_true(json_object_is_type(parsed, json_type_object));

	assert_json_bytes(parsed, "comm", hostile_comm, sizeof(hostile_comm) - 1);
	assert_json_bytes(parsed, "path", hostile_path, sizeof(hostile_path) - 1);

	/* clean values are as they are and have no _hex twin */
	assert_true(json_object_object_get_ex(parsed, "exe", &v));
	assert_string_equal(json_object_get_string(v), "/usr/bin/cat");
	assert_false(json_object_object_get_ex(parsed, "exe_hex", NULL));
	assert_true(json_object_object_get_ex(parsed, "scontext", &v));
	assert_string_equal(json_object_get_string(v), "system_u:system_r:httpd_t:s0");
	assert_true(json_object_object_get_ex(parsed, "serial", &v));
	assert_int_equal(json_object_get_int64(v), 900);
	assert_true(json_object_object_get_ex(parsed, "file", &v));
	assert_string_equal(json_object_get_string(v), "hostile.log");
	assert_true(json_object_object_get_ex(parsed, "line", &v));
	assert_int_equal(json_object_get_int64(v), 1);

	json_object_put(parsed);
	json_object_put(o);
}

/* every key the JSON shows from bytes goes through the same path */
static void test_json_add_bytes(void **state)
{
	json_object *o = json_object_new_object();
	AdBytes clean = { "/srv/<b>a&b</b>", 15 };
	AdBytes dirty = { "x\0y\xe2\x80\xae", 6 };
	AdBytes empty = { "", 0 };
	json_object *parsed, *v = NULL;
	const char *line;

	ad_json_add_bytes(o, "clean", clean);
	ad_json_add_bytes(o, "dirty", dirty);
	ad_json_add_bytes(o, "empty", empty);
	ad_json_add_bytes(o, "none", AD_BYTES_NONE);
	line = ad_json_line(o);
	assert_json_text_safe(line);
	parsed = json_tokener_parse(line);
	assert_non_null(parsed);

	assert_true(json_object_object_get_ex(parsed, "clean", &v));
	assert_string_equal(json_object_get_string(v), "/srv/<b>a&b</b>");
	assert_false(json_object_object_get_ex(parsed, "clean_hex", NULL));
	assert_json_bytes(parsed, "dirty", "x\0y\xe2\x80\xae", 6);
	assert_true(json_object_object_get_ex(parsed, "empty", &v));
	assert_string_equal(json_object_get_string(v), "");
	assert_true(json_object_object_get_ex(parsed, "none", &v));
	assert_null(v);

	json_object_put(parsed);
	json_object_put(o);
}

/* ----------------------------------------------------------- shell quoting */

typedef struct {
	const char *in;
	const char *out;
} QuoteCase;

static const QuoteCase quote_cases[] = {
	{ "restorecon", "restorecon" },
	{ "/var/www/html/index.html", "/var/www/html/index.html" },
	{ "httpd_can_network_connect=1", "httpd_can_network_connect=1" },
	{ "", "''" },
	{ "a b", "'a b'" },
	{ "x';id;'", "'x'\\'';id;'\\'''" },
	{ "$(touch /tmp/pwned)", "'$(touch /tmp/pwned)'" },
	{ "`id`", "'`id`'" },
	{ "a;id;b", "'a;id;b'" },
	{ "*", "'*'" },
	{ "~root", "'~root'" },
	{ "a\nb", "'a\nb'" },
};

static void test_shell_quote_table(void **state)
{
	for (gsize i = 0; i < G_N_ELEMENTS(quote_cases); i++) {
		g_autofree char *got = ad_shell_quote(quote_cases[i].in);

		assert_string_equal(got, quote_cases[i].out);
	}
}

/*
 * Runs sh so that it parses @joined as shell words ("eval set -- ..."),
 * then prints each word followed by NUL.  Returns the output, or NULL
 * when sh failed.
 */
static GBytes *sh_words(const char *joined)
{
	g_autoptr(GError) error = NULL;
	char *out = NULL, *err = NULL;
	gint status = 0;
	gboolean ok;
	/*
	 * g_spawn_sync() returns standard output as a C string, which would
	 * hide the NULs: the words go to a file in an empty directory that is
	 * also sh's working directory, so anything an injected command
	 * created there would be noticed (g_rmdir() fails).
	 */
	g_autofree char *tmpdir = g_dir_make_tmp("ad-sh-XXXXXX", &error);
	assert_non_null(tmpdir);
	g_autofree char *outfile = g_build_filename(tmpdir, "out", NULL);
	/* an unquoted glob would match this file */
	g_autofree char *bait = g_build_filename(tmpdir, "a-glob-bait", NULL);
	g_autofree char *script = g_strdup_printf(
		"eval \"set -- $1\"; printf '%%s\\0' \"$@\" >'%s'", outfile);
	const char *argv[] = { "/bin/sh", "-c", script, "sh", joined, NULL };

	assert_true(g_file_set_contents(bait, "", 0, NULL));
	ok = g_spawn_sync(tmpdir, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
			  &status, &error);
	g_free(out);
	if (!ok || !g_spawn_check_wait_status(status, NULL)) {
		g_autofree char *e = ad_escape_str(joined);

		print_error("sh failed on [%s]: %s\n", e, err ? err : "");
		g_free(err);
		g_unlink(outfile);
		g_unlink(bait);
		g_rmdir(tmpdir);
		return NULL;
	}
	g_free(err);
	{
		char *data = NULL;
		gsize len = 0;

		assert_true(g_file_get_contents(outfile, &data, &len, NULL));
		g_unlink(outfile);
		g_unlink(bait);
		assert_int_equal(g_rmdir(tmpdir), 0);
		return g_bytes_new_take(data, len);
	}
}

static void assert_argv_survives(const char *const *argv)
{
	g_autofree char *joined = ad_shell_join(argv);
	g_autoptr(GBytes) got = sh_words(joined);
	GByteArray *want = g_byte_array_new();
	gsize glen;
	const void *gdata;

	for (guint i = 0; argv[i]; i++)
		g_byte_array_append(want, (const guint8 *)argv[i], strlen(argv[i]) + 1);
	assert_non_null(got);
	gdata = g_bytes_get_data(got, &glen);
	if (glen != want->len || memcmp(gdata, want->data, glen) != 0) {
		g_autofree char *e = ad_escape_str(joined);

		print_error("argv did not survive sh: joined=%s\n", e);
		fail();
	}
	g_byte_array_unref(want);
}

static void test_shell_join_nasty(void **state)
{
	g_autofree char *marker = g_build_filename(g_get_tmp_dir(), "ad-test-pwned", NULL);
	g_autofree char *touch = g_strdup_printf("$(touch %s)", marker);
	g_autofree char *touch2 = g_strdup_printf("`touch %s`", marker);
	g_autofree char *touch3 = g_strdup_printf("x';touch %s;'", marker);
	const char *nasty[] = {
		touch, touch2, touch3, "$(touch /tmp/pwned)", "`id`", "a;id;b", "x';id;'",
		"-rf", "--", "-", "", "a\nb", "\n", "${IFS}", "$IFS", "*", "?", "[a-z]*", "~",
		"~root", "a b  c", " ", "\t", "'", "''", "\"", "\\", "\\'", "'\\''", "!", "!!",
		"#comment", "a#b", "&", "|", "<", ">", ">>x", "2>&1", "{a,b}", "$((1+1))",
		"${x:-$(id)}", "\x1b[2J", "\xff\xfe", "\xe2\x80\xae", "caf\xc3\xa9",
		"%s%n", "=", "a=b", "@", "$@", "$*", "$0", "$$", "\r", "\x7f", "\x01",
		"\x81\x82\x83\x84\x85\x86\x87\x88",
	};

	g_unlink(marker);
	for (gsize i = 0; i < G_N_ELEMENTS(nasty); i++) {
		const char *one[] = { nasty[i], NULL };
		const char *three[] = { "restorecon", "-v", nasty[i], NULL };

		assert_argv_survives(one);
		assert_argv_survives(three);
	}
	/* all of them at once */
	{
		const char **all = g_new0(const char *, G_N_ELEMENTS(nasty) + 1);

		memcpy(all, nasty, sizeof(nasty));
		assert_argv_survives(all);
		g_free(all);
	}
	assert_false(g_file_test(marker, G_FILE_TEST_EXISTS));
}

/* ~2000 random strings of bytes 1..255, lengths 0..40, ten per argv */
static void test_shell_join_random_property(void **state)
{
	g_autoptr(GRand) rand = g_rand_new_with_seed(20240607);

	for (int n = 0; n < 200; n++) {
		char *args[11];

		for (int a = 0; a < 10; a++) {
			gsize len = g_rand_int_range(rand, 0, 41);
			char *s = g_malloc(len + 1);

			for (gsize i = 0; i < len; i++) {
				/* half of the bytes from the shell's special characters */
				static const char special[] = "'\"\\$`!*?[]{}()<>|&;#~ \t\n=%-";

				if (g_rand_boolean(rand))
					s[i] = special[g_rand_int_range(rand, 0, sizeof(special) - 1)];
				else
					s[i] = (char)g_rand_int_range(rand, 1, 256);
			}
			s[len] = '\0';
			args[a] = s;
		}
		args[10] = NULL;
		assert_argv_survives((const char *const *)args);
		for (int a = 0; a < 10; a++)
			g_free(args[a]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_table),
		cmocka_unit_test(test_escape_every_byte),
		cmocka_unit_test(test_escape_random_property),
		cmocka_unit_test(test_escape_str_and_gbytes),
		cmocka_unit_test(test_bytes_are_clean),
		cmocka_unit_test(test_utf8_valid),
		cmocka_unit_test(test_text_has_hidden),
		cmocka_unit_test(test_json_hostile_denial),
		cmocka_unit_test(test_json_add_bytes),
		cmocka_unit_test(test_shell_quote_table),
		cmocka_unit_test(test_shell_join_nasty),
		cmocka_unit_test(test_shell_join_random_property),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
