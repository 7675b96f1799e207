/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the libFuzzer targets (header-only: each target is one file). */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A deterministic generator seeded by the input: the same input always
 * takes the same path, so a saved crash replays. */
static inline guint64 ad_fuzz_seed(const uint8_t *data, size_t size)
{
	guint64 h = 1469598103934665603ULL;	/* FNV-1a */

	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 1099511628211ULL;
	return h ? h : 1;
}

static inline guint64 ad_fuzz_next(guint64 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A property of the code under test does not hold: say which and abort,
 * so that libFuzzer keeps the input as a crash. */
static inline void ad_fuzz_fail(const char *what, const void *text, size_t len)
{
	fprintf(stderr, "PROPERTY VIOLATED: %s\n", what);
	if (text) {
		g_autofree char *hex = g_malloc(len * 2 + 1);

		for (size_t i = 0; i < len; i++)
			g_snprintf(hex + 2 * i, 3, "%02x", ((const guint8 *)text)[i]);
		fprintf(stderr, "  offending text (%zu bytes, hex): %s\n", len, hex);
	}
	abort();
}

static inline GLogWriterOutput ad_fuzz_log_writer(GLogLevelFlags level,
						   const GLogField *fields, gsize n_fields,
						   gpointer user_data)
{
	/* a g_critical() is a failed g_return_if_fail(): a bug, keep the input */
	if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR)) {
		g_log_writer_standard_streams(level, fields, n_fields, user_data);
		abort();
	}
	return G_LOG_WRITER_HANDLED;	/* warnings and debug: quiet, printing is slow */
}

static inline void ad_fuzz_quiet(void)
{
	g_log_set_writer_func(ad_fuzz_log_writer, NULL, NULL);
}
