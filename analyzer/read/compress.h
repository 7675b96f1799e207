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
/*
 * The most one compressed file may give, whatever it holds: 8 MiB of
 * zstd RLE blocks spell terabytes, which would keep a reader busy for
 * hours.  A log rotated by auditd (max_log_file, 8 MiB by default) or
 * logrotate stays far below; what passes this is refused with a message
 * from that point on (what came before it is kept).
 */
#define AD_INFLATE_OUTPUT_MAX (G_GUINT64_CONSTANT(4) << 30)

typedef struct _AdInflate AdInflate;

/* gets each decompressed piece; valid during the call only, writable */
typedef void (*AdInflateOut)(char *buf, gsize len, gpointer user_data);

AdInflate *ad_inflate_new(AdCompression c);
/* another bound than AD_INFLATE_OUTPUT_MAX on what @z gives in all (tests) */
void ad_inflate_set_output_max(AdInflate *z, guint64 max);
/*
 * Decompresses @len bytes of input, handing the output to @out as it
 * comes; FALSE with a message in @ret_error (owned by @z) when the data
 * is corrupt, needs too much memory or gives more than the output bound
 * (what fitted was handed over).
 */
gboolean ad_inflate_feed(AdInflate *z, const void *in, gsize len, AdInflateOut out,
			 gpointer user_data, const char **ret_error);
/* at the end of the input: FALSE and a message when it was cut short */
gboolean ad_inflate_finish(AdInflate *z, AdInflateOut out, gpointer user_data,
			   const char **ret_error);
void ad_inflate_free(AdInflate *z);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(AdInflate, ad_inflate_free)

G_END_DECLS
