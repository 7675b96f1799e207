#!/bin/bash
# why --json against the selinux.audit2why module on every corpus log.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
cd "$AD_CORPUS" || exit 1
exec /usr/bin/python3 "$AD_SOURCE_DIR/tests/compare_audit2why.py" "$AVCDOCTOR" "$POLICY" \
	*.log *.txt crafted/*.log synthetic/*.log
