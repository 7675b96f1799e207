/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/*
 * `avcdoctor names types|classes|booleans [-p POLICY]`: the policy's names
 * for the shell's completion, cached per policy file in the user's cache
 * directory.  Exit status: 0, 1 bad usage, 2 no policy.
 */
int ad_cmd_names(int argc, char **argv);
