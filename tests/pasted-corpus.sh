#!/bin/bash
# The pasted-text corpora (the forms made from the corpus' records, and
# records as published in public bug trackers): every denial read with the
# right values, and everything audit2why reads (tests/check_pasted.py); dbus-broker's
# "Unknown class" journal line explained, not dropped.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
printf '%s\n' "Nov 19 10:00:00 host audit[1119]: USER_AVC pid=1119 uid=81 auid=4294967295 ses=4294967295 subj=system_u:system_r:system_dbusd_t:s0-s0:c0.c1023 msg='Unknown class dbusx exe=\"/usr/bin/dbus-broker\" sauid=81 hostname=? addr=? terminal=?'" >"$TMP/dbus.txt"
"$AVCDOCTOR" why --json -p "$POLICY" "$TMP/dbus.txt" >"$TMP/dbus.json" 2>"$TMP/dbus.err"
if grep -q '"reason":"unknown_class"' "$TMP/dbus.json" && grep -q '"tclass":"dbusx"' "$TMP/dbus.json"; then
	pass "dbus-broker's Unknown class: unknown_class"
else
	fail "dbus-broker's Unknown class: $(cat "$TMP/dbus.json" "$TMP/dbus.err")"
fi
"$AVCDOCTOR" analyze -p "$POLICY" "$TMP/dbus.txt" >"$TMP/dbus.txt.out" 2>&1
grep -q "needs the class dbusx, which the SELinux policy lacks" "$TMP/dbus.txt.out" &&
	pass "analyze: the class the policy lacks" || fail "analyze: $(head -3 "$TMP/dbus.txt.out")"
# a compressed log is read, not refused as binary: as a file, on stdin, in a directory
gzip -c "$AD_SOURCE_DIR/tests/data/pasted/grep-n.txt" >"$TMP/grep-n.txt.gz"
mkdir "$TMP/logs" && cp "$TMP/grep-n.txt.gz" "$TMP/logs/audit.log.1.gz" &&
	xz -c "$AD_SOURCE_DIR/tests/data/pasted/mail-quoted.txt" >"$TMP/logs/audit.log.2.xz" &&
	cp "$AD_SOURCE_DIR/tests/data/pasted/journal.txt" "$TMP/logs/audit.log"
n=$("$AVCDOCTOR" why --json -p "$POLICY" "$TMP/grep-n.txt.gz" 2>/dev/null | wc -l)
[ "$n" = 8 ] && pass "a gzip file: its 8 denials" || fail "a gzip file: $n denials"
n=$("$AVCDOCTOR" why --json -p "$POLICY" - <"$TMP/grep-n.txt.gz" 2>/dev/null | wc -l)
[ "$n" = 8 ] && pass "gzip on standard input: 8 denials" || fail "gzip on stdin: $n denials"
"$AVCDOCTOR" why --json -p "$POLICY" "$TMP/logs" 2>/dev/null | sed -n 's/.*"file":"\([^"]*\)".*/\1/p' |
	uniq | sed 's|.*/||' | tr '\n' ' ' >"$TMP/order"
[ "$(cat "$TMP/order")" = "audit.log.2.xz audit.log.1.gz audit.log " ] &&
	pass "a directory: audit.log.2.xz, audit.log.1.gz, audit.log, oldest first" ||
	fail "a directory read in the order: $(cat "$TMP/order")"
/usr/bin/python3 "$AD_SOURCE_DIR/tests/check_pasted.py" "$AVCDOCTOR" "$POLICY" \
	"$AD_SOURCE_DIR/tests/data/pasted" || fail "tests/check_pasted.py tests/data/pasted"
# records as published in public bug trackers (tests/data/pasted-public/README.md)
/usr/bin/python3 "$AD_SOURCE_DIR/tests/check_pasted.py" "$AVCDOCTOR" "$POLICY" \
	"$AD_SOURCE_DIR/tests/data/pasted-public" || fail "tests/check_pasted.py tests/data/pasted-public"
finish
