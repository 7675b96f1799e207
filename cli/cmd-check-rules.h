/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <glib.h>

#include "policy/policy.h"

G_BEGIN_DECLS

/* avcdoctor check-rules [-p POLICY] FILE...: lints rule files (avcdoctor.rules(5)) */
int ad_cmd_check_rules(int argc, char **argv);

G_END_DECLS
