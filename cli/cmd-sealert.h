/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * avcdoctor called as sealert: setroubleshoot's options (-a FILE, -l ID,
 * -b), avcdoctor's answers.  Returns the exit status.
 */
int ad_sealert_main(int argc, char **argv);

G_END_DECLS
