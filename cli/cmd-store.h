/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>
#include <json-c/json.h>

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

/*
 * One stored alert as `show --json` gives it, parsed (AdAlertDoc), from the store @db or
 * (NULL) the D-Bus service; NULL after a message on stderr, with the exit
 * status above in @ret_status.  @cmd names the command in messages.
 */
AdAlertDoc *ad_cli_fetch_alert(const char *cmd, const char *db, const char *id,
				int *ret_status);
/* every stored alert (AdAlertDoc, oldest first, ignored ones too), as ad_cli_fetch_alert */
GPtrArray *ad_cli_fetch_alerts(const char *cmd, const char *db, int *ret_status);

G_END_DECLS
