/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the file reader (reader-file.c) needs of the line reader (reader.c)
 * beyond the public interface.  Private to analyzer/read/.
 */
#pragma once

#include <glib.h>

/* the reader of reader.h (its header is not included: reader.c includes this one) */
typedef struct _AdReader AdReader;

/* feeds @len bytes of @buf, which the reader may write into while it splits lines */
void ad_reader_feed_owned(AdReader *r, char *buf, gsize len);
/* calls the chunk function, if one is set; FALSE when it asks to stop reading */
gboolean ad_reader_chunk(AdReader *r);
