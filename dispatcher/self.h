/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "read/denial.h"

G_BEGIN_DECLS

/* The dispatcher's own denials (self.c). */

/*
 * What identifies the dispatcher's own process in a denial: it is local
 * (no node, or this host's name) and either has our pid, or was made by
 * our executable in our SELinux domain (exe alone would hide another
 * domain's use of the binary; comm alone can be chosen by anyone).
 */
typedef struct {
	gint64 pid;
	char *exe;			/* /proc/self/exe */
	char *context;			/* getcon(); NULL when SELinux is off */
	char *hostname, *short_hostname;
} AdSelf;

void ad_self_init(AdSelf *s);
void ad_self_clear(AdSelf *s);
gboolean ad_self_is_own_denial(const AdSelf *s, const AdDenial *denial);

G_END_DECLS
