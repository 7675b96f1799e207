// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the decompression of rotated logs (read/compress.c).
 * The first byte chooses the format (gzip, xz, zstd, or the one the next
 * bytes' magic says); the rest is the compressed stream, fed in chunks of
 * random sizes (from 1 byte).  Besides memory safety (and libFuzzer's
 * -malloc_limit_mb, which catches a decoder that takes what a header
 * claims), it checks that a refusal always comes with a message in valid
 * UTF-8, that output comes in pieces no larger than the decoder's buffer,
 * and that the same input fed whole gives the same output and verdict.
 */
#include <string.h>

#include "read/compress.h"
#include "fuzz-common.h"

/* output beyond this is not looked at: a bomb of 4 KiB must not time out */
#define MAX_OUT (1u << 20)

typedef struct {
	guint64 total;
	guint64 hash;		/* FNV-1a of the output */
	gboolean stop;
} Out;

static void on_out(char *buf, gsize len, gpointer user_data)
{
	Out *o = user_data;

	if (!len || len > (1 << 16))
		ad_fuzz_fail("output comes in pieces of 1 byte to 64 KiB", NULL, 0);
	o->total += len;
	if (o->total > MAX_OUT)
		o->stop = TRUE;
	for (gsize i = 0; i < len; i++)
		o->hash = (o->hash ^ (guchar)buf[i]) * 1099511628211ULL;
}

static void check_message(const char *msg)
{
	if (!msg || !*msg || !g_utf8_validate(msg, -1, NULL))
		ad_fuzz_fail("a refusal comes with a message in UTF-8", msg, msg ? strlen(msg) : 0);
}

/* the stream @in fed in chunks (random sizes when @seed, else whole); FALSE when refused */
static gboolean run(AdCompression c, const uint8_t *in, size_t len, guint64 seed, Out *o)
{
	g_autoptr(AdInflate) z = ad_inflate_new(c);
	const char *err = NULL;
	size_t at = 0;

	while (at < len && !o->stop) {
		size_t n = len - at;

		if (seed) {
			size_t step = 1 + ad_fuzz_next(&seed) % 512;

			n = MIN(n, step);
		}
		if (!ad_inflate_feed(z, in + at, n, on_out, o, &err)) {
			check_message(err);
			return FALSE;
		}
		at += n;
	}
	if (o->stop)
		return TRUE;
	if (!ad_inflate_finish(z, on_out, o, &err)) {
		check_message(err);
		return FALSE;
	}
	return TRUE;
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
	static const AdCompression kinds[] = {
		AD_COMPRESSION_GZIP, AD_COMPRESSION_XZ, AD_COMPRESSION_ZSTD,
	};
	AdCompression c;
	Out chunked = { 0, 1469598103934665603ULL, FALSE };
	Out whole = chunked;
	gboolean ok_chunked, ok_whole;

	if (size < 1)
		return 0;
	c = data[0] < 3 ? kinds[data[0]] : ad_compression_of(data + 1, size - 1);
	if (c == AD_COMPRESSION_NONE)
		c = kinds[data[0] % 3];
	ok_chunked = run(c, data + 1, size - 1, ad_fuzz_seed(data, size), &chunked);
	ok_whole = run(c, data + 1, size - 1, 0, &whole);
	/* the same bytes, cut otherwise: the same verdict, and when read, the same output */
	if (chunked.stop || whole.stop)
		return 0;
	if (ok_chunked != ok_whole)
		ad_fuzz_fail("the verdict does not depend on how the input is cut", data, size);
	if (ok_whole && (chunked.total != whole.total || chunked.hash != whole.hash))
		ad_fuzz_fail("the output does not depend on how the input is cut", data, size);
	return 0;
}
