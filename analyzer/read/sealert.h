/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setroubleshoot's report (sealert -l, the alert browser's copy) pasted
 * without its raw audit messages: the summary sentence ("SELinux is
 * preventing SOURCE from read access on the file PATH.") and the
 * "Additional Information:" block, one field a line ("Source Context",
 * "Target Context", "Target Objects  PATH [ CLASS ]", ...).  The lines are
 * gathered into the one denial they describe, which the reader reads as a
 * record without a header; a report whose raw records follow it gives none
 * (the raw record is the denial).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct AdSealert AdSealert;

/* a report the lines ended: its denial, or why it gives none */
typedef struct {
	char *body;		/* "avc:  denied  { read } for ... tclass=dir"; NULL: incomplete */
	const char *missing;	/* (translated) what it lacks, when body is NULL */
	guint line;		/* its first line */
} AdSealertReport;

AdSealert *ad_sealert_new(void);
void ad_sealert_free(AdSealert *s);

/*
 * A line of the input, [@p, @end) (quote markers and indentation
 * included), numbered @line.  TRUE when it ended a report (a summary or a
 * block starts another, "Hash:" ends one): @done then holds it (free its
 * body).  Lines are never consumed: the reader reads each as it would
 * anyway.
 */
gboolean ad_sealert_line(AdSealert *s, const char *p, const char *end, guint line,
			 AdSealertReport *done);

/* a record line while a report is open: when it is that report's raw AVC, no denial is made of the report */
void ad_sealert_record(AdSealert *s, const char *p, const char *end);

/* whether a report is open (its raw records may follow) */
gboolean ad_sealert_open(const AdSealert *s);

/* the report open at the end of an input, if any */
gboolean ad_sealert_finish(AdSealert *s, AdSealertReport *done);

G_END_DECLS
