// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a file or a descriptor into an AdReader: the bytes as they come,
 * decompressed when their first bytes say they are compressed.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "compress.h"
#include "reader.h"
#include "reader-private.h"

/* a decompressed piece of the input: a writable buffer of its own */
static void feed_inflated(char *buf, gsize len, gpointer user_data)
{
	ad_reader_feed_owned(user_data, buf, len);
}

gboolean ad_reader_read_file(AdReader *r, const char *path, GError **error)
{
	gboolean is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	gboolean ok;

	if (fd < 0) {
		int e = errno;

		g_set_error(error, AD_READER_ERROR, AD_READER_ERROR_OPEN, "%s: %s", path,
			    g_strerror(e));
		return FALSE;
	}
	ok = ad_reader_read_fd(r, fd, path, error);
	if (!is_stdin)
		close(fd);
	return ok;
}

gboolean ad_reader_read_fd(AdReader *r, int fd, const char *path, GError **error)
{
	g_autoptr(AdInflate) z = NULL;
	const char *zerr = NULL;
	gsize len = 0;
	ssize_t n = 0;
	int e = 0;
	char *buf;

	ad_reader_set_source(r, path);
	{
		/* a regular file's modification time: the year of journal lines without one */
		struct stat st;

		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
			ad_reader_set_mtime(r, st.st_mtime);
	}
	buf = g_malloc(1 << 16);
	/* the first bytes tell whether it is compressed; a pipe may give them bit by bit */
	while (len < AD_COMPRESSION_MAGIC_LEN) {
		n = read(fd, buf + len, (1 << 16) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	if (n < 0)
		e = errno;
	else if (ad_compression_of(buf, len) != AD_COMPRESSION_NONE)
		z = ad_inflate_new(ad_compression_of(buf, len));
	while (n >= 0) {
		if (len) {
			if (z && !ad_inflate_feed(z, buf, len, feed_inflated, r, &zerr))
				break;
			if (!z)
				ad_reader_feed_owned(r, buf, len);
			if (!ad_reader_chunk(r)) {
				z = NULL;	/* stopped: no complaint that it was cut short */
				n = 0;
				break;
			}
		}
		if (n == 0)
			break;
		n = read(fd, buf, 1 << 16);
		len = n > 0 ? n : 0;
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n < 0)
			e = errno;
	}
	if (z && !zerr && n == 0)
		ad_inflate_finish(z, feed_inflated, r, &zerr);
	if (e)
		g_set_error(error, AD_READER_ERROR, AD_READER_ERROR_READ, "%s: %s", path,
			    g_strerror(e));
	else if (zerr)
		g_set_error(error, AD_READER_ERROR, AD_READER_ERROR_READ, "%s: %s", path, zerr);
	g_free(buf);
	ad_reader_end_source(r);
	ad_reader_chunk(r);
	return !e && !zerr;
}
