/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "occurrences.h"

G_BEGIN_DECLS

/*
 * The selected alert's own timeline: a thin strip over the span of all the
 * alerts shown, marking when this one was first and last seen and how
 * often, with a bar per time bucket of its denials.  Drawn with cairo; its
 * accessible name says the same in words.
 */
GtkWidget *ad_timeline_strip_new(void);
/* @axis_first..@axis_last: the span of all alerts; 0 when unknown (the alert's own span is used) */
/* @occ: when its denials happened (bars over the strip), or NULL */
void ad_timeline_strip_set(GtkWidget *strip, double axis_first, double axis_last, double first,
			   double last, guint64 count, const AdOccurrences *occ);

G_END_DECLS
