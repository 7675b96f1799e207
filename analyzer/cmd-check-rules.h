/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "policy.h"

G_BEGIN_DECLS

/* avcdoctor check-rules [-p POLICY] FILE...: lints rule files (avcdoctor.rules(5)) */
int ad_cmd_check_rules(int argc, char **argv);

/*
 * ad_rule_book_check_file(), and with @policy also every type, attribute,
 * class, permission and boolean a rule names (in its keys and in the
 * setsebool / semanage -t / chcon -t arguments of its commands) is checked
 * against that policy.  Problems as "FILE:LINE: message" appended to
 * @ret_messages; returns their number.  Implemented in rules.c (it belongs
 * in rules.h, which this helper may not change).
 */
guint ad_rule_book_check_file_policy(const char *path, AdPolicy *policy,
				     GPtrArray *ret_messages);

G_END_DECLS
