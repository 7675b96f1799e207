/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The daemon's alerts: `avcdoctor list | show ID | ignore ID | unignore ID
 * | delete ID`, through the D-Bus service or, with --db PATH, on a store.
 * Exit status: 0 done, 1 usage, an id that is not one, or no such alert,
 * 2 no store or no service to ask (missing, unreadable, damaged, not
 * running, access denied).
 */
int ad_cmd_list(int argc, char **argv);
int ad_cmd_show(int argc, char **argv);
int ad_cmd_ignore(int argc, char **argv);
int ad_cmd_unignore(int argc, char **argv);
int ad_cmd_delete(int argc, char **argv);

G_END_DECLS
