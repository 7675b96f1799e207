/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Compressed inputs (rotated logs: audit.log.1.gz, .xz, .zst), known by
 * their first bytes, not their names, decompressed as they are read.
 */
#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	AD_COMPRESSION_NONE,
	AD_COMPRESSION_GZIP,
	AD_COMPRESSION_XZ,
	AD_COMPRESSION_ZSTD,
} AdCompression;

/* what the first @len bytes of an input say; NONE when too few to tell */
AdCompression ad_compression_of(const void *head, gsize len);
/* the number of first bytes ad_compression_of() needs to tell them all */
#define AD_COMPRESSION_MAGIC_LEN 6

/*
 * The most memory a decoder may take, whatever its header claims: the
 * dictionary of an xz stream (`xz -9` needs 65 MiB) or the window of a zstd
 * frame (2^27, libzstd's own default, what `zstd --long` and `--ultra -22`
 * use).  Data that needs more is refused with a message, not read.
 */
#define AD_INFLATE_MEMORY_MAX (128u << 20)
#define AD_INFLATE_WINDOW_LOG_MAX 27

typedef struct _AdInflate AdInflate;

/* gets each decompressed piece; valid during the call only, writable */
typedef void (*AdInflateOut)(char *buf, gsize len, gpointer user_data);

AdInflate *ad_inflate_new(AdCompression c);
/*
 * Decompresses @len bytes of input, handing the output to @out as it
 * comes; FALSE with a message in @ret_error (owned by @z) when the data
 * is corrupt.
 */
gboolean ad_inflate_feed(AdInflate *z, const void *in, gsize len, AdInflateOut out,
			 gpointer user_data, const char **ret_error);
/* at the end of the input: FALSE and a message when it was cut short */
gboolean ad_inflate_finish(AdInflate *z, AdInflateOut out, gpointer user_data,
			   const char **ret_error);
void ad_inflate_free(AdInflate *z);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdInflate, ad_inflate_free)

G_END_DECLS
