/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * avcdoctor called as audit2allow or audit2why (@prog): policycoreutils'
 * options and layout, avcdoctor's answers.  Returns the exit status.
 */
int ad_compat_main(const char *prog, int argc, char **argv);

G_END_DECLS
