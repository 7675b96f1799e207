#!/bin/bash
# The pasted-text corpus: every denial read with the right values, and
# everything audit2why reads (tests/check_pasted.py).
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
exec /usr/bin/python3 "$AD_SOURCE_DIR/tests/check_pasted.py" "$AVCDOCTOR" "$POLICY" \
	"$AD_SOURCE_DIR/tests/data/pasted"
