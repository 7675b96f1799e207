// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compressed inputs: gzip (zlib), xz (liblzma), zstd (libzstd), read as
 * streams of any number of members or frames, as `zcat` reads them.
 *
 * The memory a decoder takes is chosen by the header it reads: an xz
 * header may claim a 4 GiB dictionary, a zstd frame a 2 GiB window.  Both
 * are held to AD_INFLATE_MEMORY_MAX (gzip's window is 32 KiB by format);
 * output goes out in OUT_SIZE pieces, so nothing else grows with it, and
 * stops at AD_INFLATE_OUTPUT_MAX, so that a bomb costs bounded time too.
 */
#include <inttypes.h>
#include <string.h>

#include <glib/gi18n.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "compress.h"

#define OUT_SIZE (1 << 16)

struct _AdInflate {
	AdCompression kind;
	z_stream z;
	lzma_stream x;
	ZSTD_DStream *zs;
	gboolean mid;		/* inside a member or frame: the end would cut it */
	guint64 given;		/* bytes handed to the output so far */
	guint64 max_out;	/* ... and at most */
	char *out;
	char *message;		/* the last error, when it had to be composed */
};

AdCompression ad_compression_of(const void *head, gsize len)
{
	const guchar *p = head;

	if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return AD_COMPRESSION_GZIP;
	if (len >= 6 && memcmp(p, "\xfd" "7zXZ\0", 6) == 0)
		return AD_COMPRESSION_XZ;
	if (len >= 4 && memcmp(p, "\x28\xb5\x2f\xfd", 4) == 0)
		return AD_COMPRESSION_ZSTD;
	return AD_COMPRESSION_NONE;
}

AdInflate *ad_inflate_new(AdCompression c)
{
	AdInflate *z = g_new0(AdInflate, 1);
	lzma_stream init = LZMA_STREAM_INIT;

	z->kind = c;
	z->max_out = AD_INFLATE_OUTPUT_MAX;
	z->out = g_malloc(OUT_SIZE);
	z->x = init;
	switch (c) {
	case AD_COMPRESSION_GZIP:
		/* 15 + 16: gzip only; members are restarted by hand */
		if (inflateInit2(&z->z, 15 + 16) != Z_OK)
			g_error("zlib: out of memory");
		break;
	case AD_COMPRESSION_XZ:
		if (lzma_stream_decoder(&z->x, AD_INFLATE_MEMORY_MAX, LZMA_CONCATENATED) != LZMA_OK)
			g_error("liblzma: out of memory");
		break;
	case AD_COMPRESSION_ZSTD:
		z->zs = ZSTD_createDStream();
		if (!z->zs)
			g_error("libzstd: out of memory");
		ZSTD_initDStream(z->zs);
		/* libzstd's default is the same 2^27; said here so that it stays so */
		ZSTD_DCtx_setParameter(z->zs, ZSTD_d_windowLogMax, AD_INFLATE_WINDOW_LOG_MAX);
		break;
	case AD_COMPRESSION_NONE:
		break;
	}
	return z;
}

void ad_inflate_set_output_max(AdInflate *z, guint64 max)
{
	z->max_out = max;
}

/*
 * Hands @len decompressed bytes to @out, as far as the output bound
 * allows; FALSE with the message when it is passed.
 */
static gboolean emit(AdInflate *z, gsize len, AdInflateOut out, gpointer user_data,
		     const char **ret_error)
{
	gsize n = len;

	if (!len)
		return TRUE;
	if (z->given + n > z->max_out)
		n = z->max_out - z->given;
	if (n)
		out(z->out, n, user_data);
	z->given += n;
	if (n == len)
		return TRUE;
	g_free(z->message);
	z->message = g_strdup_printf(_("more than %" PRIu64 " MiB once decompressed: the rest "
				       "is not read"), (uint64_t)(z->max_out >> 20));
	*ret_error = z->message;
	return FALSE;
}

static gboolean feed_gzip(AdInflate *z, const void *in, gsize len, AdInflateOut out,
			  gpointer user_data, const char **ret_error)
{
	z->z.next_in = (Bytef *)in;
	z->z.avail_in = len;
	for (;;) {
		int ret;

		z->z.next_out = (Bytef *)z->out;
		z->z.avail_out = OUT_SIZE;
		ret = inflate(&z->z, Z_NO_FLUSH);
		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) {
			*ret_error = z->z.msg ? z->z.msg : _("corrupt gzip data");
			return FALSE;
		}
		if (!emit(z, OUT_SIZE - z->z.avail_out, out, user_data, ret_error))
			return FALSE;
		if (ret == Z_STREAM_END) {
			z->mid = FALSE;
			inflateReset(&z->z);	/* another member may follow */
			if (!z->z.avail_in)
				return TRUE;
			continue;
		}
		z->mid = TRUE;
		/* more output waits while the buffer came back full */
		if (ret == Z_BUF_ERROR || (z->z.avail_out && !z->z.avail_in))
			return TRUE;
	}
}

static gboolean feed_xz(AdInflate *z, const void *in, gsize len, lzma_action action,
			AdInflateOut out, gpointer user_data, const char **ret_error)
{
	z->x.next_in = in;
	z->x.avail_in = len;
	for (;;) {
		lzma_ret ret;

		z->x.next_out = (uint8_t *)z->out;
		z->x.avail_out = OUT_SIZE;
		ret = lzma_code(&z->x, action);
		if (!emit(z, OUT_SIZE - z->x.avail_out, out, user_data, ret_error))
			return FALSE;
		if (ret == LZMA_STREAM_END)
			return TRUE;
		if (ret == LZMA_MEMLIMIT_ERROR || ret == LZMA_MEM_ERROR) {
			g_free(z->message);
			z->message = g_strdup_printf(
				_("xz data that needs %" PRIu64 " MiB of memory to "
				  "decompress (at most %u MiB): not read"),
				(uint64_t)(lzma_memusage(&z->x) >> 20), AD_INFLATE_MEMORY_MAX >> 20);
			*ret_error = z->message;
			return FALSE;
		}
		if (ret != LZMA_OK) {
			*ret_error = ret == LZMA_BUF_ERROR ? _("compressed data cut short")
							   : _("corrupt xz data");
			return FALSE;
		}
		/* finishing, liblzma says LZMA_BUF_ERROR when a second call makes no progress */
		if (!z->x.avail_in && z->x.avail_out && action != LZMA_FINISH)
			return TRUE;
	}
}

static gboolean feed_zstd(AdInflate *z, const void *in, gsize len, AdInflateOut out,
			  gpointer user_data, const char **ret_error)
{
	ZSTD_inBuffer ib = { in, len, 0 };

	for (;;) {
		ZSTD_outBuffer ob = { z->out, OUT_SIZE, 0 };
		size_t ret = ZSTD_decompressStream(z->zs, &ob, &ib);

		if (ZSTD_isError(ret)) {
			g_free(z->message);
			if (ZSTD_getErrorCode(ret) == ZSTD_error_frameParameter_windowTooLarge)
				z->message = g_strdup_printf(
					_("zstd data whose window needs more than %u MiB of "
					  "memory to decompress: not read"),
					AD_INFLATE_MEMORY_MAX >> 20);
			else
				z->message = g_strdup_printf(_("corrupt zstd data (%s)"),
							     ZSTD_getErrorName(ret));
			*ret_error = z->message;
			return FALSE;
		}
		z->mid = ret != 0;
		if (!emit(z, ob.pos, out, user_data, ret_error))
			return FALSE;
		if (ib.pos == ib.size && ob.pos < ob.size)
			return TRUE;
	}
}

gboolean ad_inflate_feed(AdInflate *z, const void *in, gsize len, AdInflateOut out,
			 gpointer user_data, const char **ret_error)
{
	switch (z->kind) {
	case AD_COMPRESSION_GZIP:
		return feed_gzip(z, in, len, out, user_data, ret_error);
	case AD_COMPRESSION_XZ:
		return feed_xz(z, in, len, LZMA_RUN, out, user_data, ret_error);
	case AD_COMPRESSION_ZSTD:
		return feed_zstd(z, in, len, out, user_data, ret_error);
	case AD_COMPRESSION_NONE:
		out((char *)in, len, user_data);
		return TRUE;
	}
	return TRUE;
}

gboolean ad_inflate_finish(AdInflate *z, AdInflateOut out, gpointer user_data,
			   const char **ret_error)
{
	if (z->kind == AD_COMPRESSION_XZ)
		return feed_xz(z, NULL, 0, LZMA_FINISH, out, user_data, ret_error);
	if (z->mid) {
		*ret_error = _("compressed data cut short");
		return FALSE;
	}
	return TRUE;
}

void ad_inflate_free(AdInflate *z)
{
	if (!z)
		return;
	if (z->kind == AD_COMPRESSION_GZIP)
		inflateEnd(&z->z);
	lzma_end(&z->x);
	if (z->zs)
		ZSTD_freeDStream(z->zs);
	g_free(z->out);
	g_free(z->message);
	g_free(z);
}
