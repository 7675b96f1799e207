/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * Makes sure descriptors 0, 1 and 2 are open, to /dev/null when they were
 * closed, before the program opens anything: a program started with stdin
 * closed would otherwise get its first file (a pipe, the store, a socket)
 * as fd 0 and read it as its input, or write its messages into it.  Exits
 * when even /dev/null cannot be opened.  Call it first thing in main().
 */
static inline void ad_std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int n;

		if (fcntl(fd, F_GETFD) >= 0)
			continue;
		n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
		if (n < 0)
			_exit(EXIT_FAILURE);
		if (n != fd) {
			/* a lower descriptor was free and taken: move it where it belongs */
			if (dup2(n, fd) < 0)
				_exit(EXIT_FAILURE);
			close(n);
		}
	}
}
