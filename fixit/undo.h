/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "fixit-client.h"
#include "run.h"

G_BEGIN_DECLS

/* how a command that worked is taken back when a later one of the same fix fails */
typedef enum {
	AD_FIXIT_UNDO_NONE,	/* it changed nothing on the system (a module built in a temporary dir) */
	AD_FIXIT_UNDO_RUN,	/* run the undo command */
	AD_FIXIT_UNDO_CANNOT,	/* it cannot be taken back (restorecon: the old labels are not known) */
} AdFixitUndoKind;

typedef struct {
	AdFixitUndoKind kind;
	char **argv;		/* AD_FIXIT_UNDO_RUN: the command */
	char *what;		/* the command it takes back, shell-quoted */
} AdFixitUndo;

/*
 * How to take back @argv (checked: of kind @step) once it has worked,
 * decided before it runs: a boolean gets its value of now back (setsebool,
 * semanage boolean -m: getsebool asked first), a file context or port
 * added (-a) is deleted again (-d), a module loaded is removed at the same
 * priority.  A label that restorecon changed, a setting modified (-m) or
 * deleted (-d) cannot be taken back: its old value is not known.
 */
AdFixitUndo *ad_fixit_undo_for(const AdFixitConfig *cfg, char **argv, const AdFixitStep *step);
void ad_fixit_undo_free(AdFixitUndo *u);
/*
 * Takes back, newest first, the commands in @undo (AdFixitUndo*) that
 * worked before one failed; what happened goes into @report, one line each.
 */
void ad_fixit_undo_all(const AdFixitConfig *cfg, GPtrArray *undo, GString *report);

G_END_DECLS
