// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One careful way to read the files that steer a root program: the
 * dispatcher's configuration and every rules file.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "trusted-file.h"

G_DEFINE_QUARK(ad-file-error-quark, ad_file_error)

gboolean ad_file_read_trusted(int dirfd, const char *name, const char *shown, gsize max,
			      gboolean trusted_only, char **ret_text, gsize *ret_len,
			      GError **error)
{
	g_autofree char *buf = NULL;
	struct stat st;
	gsize len = 0;
	int fd;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0) {
		int e = errno;

		if (e == ELOOP)
			g_set_error(error, AD_FILE_ERROR, AD_FILE_ERROR_LINK, "%s: %s", shown,
				    _("a symbolic link: refused"));
		else
			g_set_error(error, AD_FILE_ERROR, AD_FILE_ERROR_OPEN, "%s: %s", shown,
				    g_strerror(e));
		return FALSE;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		g_set_error(error, AD_FILE_ERROR, AD_FILE_ERROR_NOT_REGULAR,
			    _("%s: not a regular file"), shown);
		close(fd);
		return FALSE;
	}
	if (trusted_only && st.st_uid != 0) {
		g_set_error(error, AD_FILE_ERROR, AD_FILE_ERROR_UNSAFE,
			    /* TRANSLATORS: %1$s is a file, %2$u a user id */
			    _("%s: owned by uid %u, not root: refused while running as root"),
			    shown, (unsigned)st.st_uid);
		close(fd);
		return FALSE;
	}
	/* writable by others, or by a group that is not root's */
	if (trusted_only && ((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != 0))) {
		g_set_error(error, AD_FILE_ERROR, AD_FILE_ERROR_UNSAFE,
			    _("%s: writable by users other than root: refused while running as "
			      "root"), shown);
		close(fd);
		return FALSE;
	}
	/* the size is checked again while reading: the file may grow */
	if ((guint64)st.st_size > max) {
		g_set_error(error, AD_FILE_ERROR, AD_FILE_ERROR_TOO_LARGE, "%s", shown);
		close(fd);
		return FALSE;
	}
	buf = g_malloc(max + 1);
	for (;;) {
		ssize_t n = read(fd, buf + len, max + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			g_set_error(error, AD_FILE_ERROR, AD_FILE_ERROR_OPEN, "%s: %s", shown,
				    g_strerror(e));
			close(fd);
			return FALSE;
		}
		if (n == 0)
			break;
		len += n;
		if (len > max) {
			g_set_error(error, AD_FILE_ERROR, AD_FILE_ERROR_TOO_LARGE, "%s", shown);
			close(fd);
			return FALSE;
		}
	}
	close(fd);
	buf[len] = '\0';
	*ret_text = g_realloc(g_steal_pointer(&buf), len + 1);
	*ret_len = len;
	return TRUE;
}
