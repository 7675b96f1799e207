/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules parser: the input is written to a private temporary file
 * (mode 0600, owned by whoever runs the fuzzer, so the root-only ownership
 * checks pass) and loaded with ad_rule_book_load_file() and linted with
 * ad_rule_book_check_file().  A failed load must say why; the lint
 * messages are counted right and are valid UTF-8.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/rules.h"
#include "fuzz-common.h"

static char *path;
static int fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	g_autoptr(GError) error = NULL;

	ad_fuzz_quiet();
	fd = g_file_open_tmp("fuzz-XXXXXX.rules", &path, &error);
	if (fd < 0) {
		fprintf(stderr, "fuzz-rules: %s\n", error->message);
		exit(1);
	}
	fchmod(fd, 0600);
	/* remove the file at exit: libFuzzer exits through exit() */
	return 0;
}

static void cleanup(void) __attribute__((destructor));
static void cleanup(void)
{
	if (path)
		unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(AdRuleBook) book = ad_rule_book_new();
	g_autoptr(GPtrArray) msgs = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	gboolean loaded;
	guint problems;
	size_t off = 0;

	if (ftruncate(fd, 0) < 0)
		abort();
	while (off < size) {
		ssize_t w = pwrite(fd, data + off, size - off, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			abort();
		off += w;
	}

	loaded = ad_rule_book_load_file(book, path, &error);
	if (!loaded && !error)
		ad_fuzz_fail("a failed load sets an error", data, size);
	if (loaded)
		(void)ad_rule_book_size(book);
	problems = ad_rule_book_check_file(path, msgs);
	if (problems != msgs->len)
		ad_fuzz_fail("check_file returns the number of messages", data, size);
	for (guint i = 0; i < msgs->len; i++)
		if (!g_utf8_validate(msgs->pdata[i], -1, NULL))
			ad_fuzz_fail("lint messages are UTF-8", msgs->pdata[i],
				     strlen(msgs->pdata[i]));
	return 0;
}
