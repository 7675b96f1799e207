/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * Small policies written in a unit test and compiled there with
 * checkpolicy (scripts/deps.sh test installs it; $CHECKPOLICY names
 * another), so that every answer is known by construction.
 */
#include <stdio.h>

#include <glib.h>
#include <glib/gstdio.h>

/*
 * Writes @conf to @dir/policy.conf and compiles it (MLS, version 33) to
 * @dir/policy.33.  Returns that path (owned), or NULL with a message on
 * standard error.
 */
static inline char *ad_test_compile_policy(const char *dir, const char *conf)
{
	g_autofree char *src = g_build_filename(dir, "policy.conf", NULL);
	g_autofree char *out = NULL, *err = NULL;
	g_autoptr(GError) error = NULL;
	const char *checkpolicy = g_getenv("CHECKPOLICY");
	char *bin = g_build_filename(dir, "policy.33", NULL);
	const char *argv[] = { checkpolicy ? checkpolicy : "checkpolicy", "-M", "-c", "33", "-o",
			       bin, src, NULL };
	int status = -1;

	if (!g_file_set_contents(src, conf, -1, NULL) ||
	    !g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
			  &status, &error) || !g_spawn_check_wait_status(status, NULL)) {
		fprintf(stderr, "checkpolicy failed (scripts/deps.sh test installs it): %s%s\n",
			error ? error->message : "", err ? err : "");
		g_free(bin);
		return NULL;
	}
	return bin;
}

/* removes the files of @dir, then @dir */
static inline void ad_test_remove_dir(const char *dir)
{
	g_autoptr(GDir) d = dir ? g_dir_open(dir, 0, NULL) : NULL;
	const char *name;

	while (d && (name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		g_unlink(p);
	}
	if (dir)
		g_rmdir(dir);
}
