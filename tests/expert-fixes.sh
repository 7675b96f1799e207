#!/bin/bash
# Denials with the fix an expert gave (bench/expert-fixes.tsv: published
# records with the maintainers' fix, crafted cases with the policy's own
# answer): bench/expert-fixes.py's verdict for each case of this policy is
# compared with tests/golden/[fedora/]expert-fixes.txt, so that a case that
# stops getting the expert's answer first (or gets it) shows in the diff;
# and no first suggestion may be harmful.  Regenerate with AD_REGEN=1.
. "$AD_SOURCE_DIR/tests/lib.sh"
use_policy
export AVCDOCTOR_RULES_DIR="$AD_SOURCE_DIR/rules" AVCDOCTOR_NO_PROGRESS=1
[ "$POLICY_NAME" = fedora ] && export AVCDOCTOR_FEDORA_POLICY="${POLICY%/policy/policy.33}"
python3 "$AD_SOURCE_DIR/bench/expert-fixes.py" --policy "$POLICY_NAME" "$AVCDOCTOR" >"$TMP/all.txt"
rc=$?
[ "$rc" = 0 ] || fail "expert-fixes.py exited $rc"
cat "$TMP/all.txt"
grep -q HARMFUL "$TMP/all.txt" && fail "a harmful first suggestion"
grep -E '^(ok|miss|other|FAIL) ' "$TMP/all.txt" >"$TMP/cases.txt"
golden expert-fixes.txt "$TMP/cases.txt"
finish
