/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define AD_FILE_ERROR (ad_file_error_quark())
GQuark ad_file_error_quark(void);

typedef enum {
	AD_FILE_ERROR_OPEN,		/* cannot be opened or read (errno in the message) */
	AD_FILE_ERROR_LINK,		/* a symbolic link */
	AD_FILE_ERROR_NOT_REGULAR,	/* a directory, a device, a FIFO ... */
	AD_FILE_ERROR_UNSAFE,		/* another user's, or writable by everyone */
	AD_FILE_ERROR_TOO_LARGE,	/* more than the caller's limit */
} AdFileError;

/*
 * Reads a small file that tells a program what to do (a configuration
 * file, a rules file): @name relative to @dirfd (AT_FDCWD for a path),
 * named @shown in messages.  A symbolic link, anything but a regular file,
 * and a file larger than @max bytes are refused; with @trusted_only (a
 * program running as root) so is a file that is not root's or that
 * everyone may write, since its text would steer what root does.  The
 * file is opened once (O_NOFOLLOW) and checked through that descriptor,
 * so it cannot be swapped between the check and the read.  Returns the
 * text, NUL-terminated, and its length; FALSE with @error otherwise.
 */
gboolean ad_file_read_trusted(int dirfd, const char *name, const char *shown, gsize max,
			      gboolean trusted_only, char **ret_text, gsize *ret_len,
			      GError **error);

G_END_DECLS
