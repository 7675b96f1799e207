#!/bin/bash
# Hardening regressions: each case failed before its fix.
#  - ignore/unignore/delete --db on a file that is not a store changed it
#    (it was moved aside to PATH.corrupt-TIME and replaced by an empty store);
#  - a report that could not be written (a full disk) exited 0 silently;
#  - the dispatcher started with stdin closed put its own pipe on fd 0 and
#    read its notes as audit input.
. "$AD_SOURCE_DIR/tests/lib.sh"
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
HOSTILE=$AD_SOURCE_DIR/tests/data/hostile

# --db on a file that is not a store: refused, nothing changed, nothing created
mkdir -m 700 "$TMP/db"
cp "$HOSTILE/not-a-store.txt" "$TMP/db/passwd"
: >"$TMP/db/empty"
before=$(md5sum "$TMP/db/passwd" | cut -d' ' -f1)
for cmd in ignore unignore delete; do
	for f in passwd empty missing; do
		expect_status 2 "$cmd --db $f is refused" -- \
			"$AVCDOCTOR" "$cmd" --db "$TMP/db/$f" 0123456789abcdef
	done
done
"$AVCDOCTOR" delete --db "$TMP/db/passwd" 0123456789abcdef 2>"$TMP/err"
expect_grep "not an alert store: nothing was changed" "$TMP/err" "the refusal says nothing changed"
[ "$(md5sum "$TMP/db/passwd" | cut -d' ' -f1)" = "$before" ] && pass "the file is unchanged" ||
	fail "the file was changed"
[ ! -s "$TMP/db/empty" ] && pass "an empty file stays empty" || fail "an empty file was written"
left=$(ls "$TMP/db")
[ "$left" = "$(printf 'empty\npasswd')" ] && pass "nothing moved aside or created" ||
	fail "files in the directory: $left"

# a full disk: an error and a non-zero status, never a silent success
if [ -w /dev/full ]; then
	expect_status 1 "why into a full disk fails" -- \
		sh -c "'$AVCDOCTOR' why -p '$POLICY' '$AD_SOURCE_DIR/tests/data/sample.log' >/dev/full"
	expect_grep "cannot write the report: No space left on device" "$TMP/err" \
		"the write error is said"
	expect_status 1 "analyze --json into a full disk fails" -- \
		sh -c "'$AVCDOCTOR' analyze --json -p '$POLICY' '$AD_SOURCE_DIR/tests/data/sample.log' >/dev/full"
fi

# the dispatcher with stdin closed: it sees the end of its input at once and stops
cat >"$TMP/d.conf" <<EOT
[store]
path=none
[bus]
type=none
[analysis]
policy=$POLICY
file_checks=false
[log]
target=stderr
journal_socket=none
EOT
for i in 1 2 3 4 5; do
	timeout 20 "$DISPATCH" --config "$TMP/d.conf" <&- >"$TMP/c.out" 2>"$TMP/c.err"
	rc=$?
	[ "$rc" = 0 ] || { fail "run $i with stdin closed: exit $rc"; cat "$TMP/c.err" >&2; break; }
	if grep -qiE 'malformed|not a well-formed|record skipped|rejected' "$TMP/c.err"; then
		fail "run $i read its own output as audit input:"; cat "$TMP/c.err" >&2; break
	fi
done
[ "$rc" = 0 ] && pass "with stdin closed the dispatcher stops cleanly, reading nothing of its own"
# many records with one serial: indexed once per event, and past 1024
# records the denials are analysed alone (linear time; bench/same-serial.sh)
python3 - "$TMP/same.log" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(3000):
        f.write('type=AVC msg=audit(1700000000.100:42): avc:  denied  { read } for  pid=%d '
                'comm="httpd" name="f%d" dev="sda1" ino=%d '
                'scontext=system_u:system_r:httpd_t:s0 '
                'tcontext=system_u:object_r:user_home_t:s0 tclass=file permissive=0\n' % (i, i, i))
PY
"$AVCDOCTOR" why -p "$POLICY" "$TMP/same.log" >"$TMP/same.out" 2>"$TMP/same.err"
expect_grep '^3000 denial records analysed' "$TMP/same.out" "every record of a 3000-record event is analysed"
expect_grep '1976 denial records past the first 1024 records of their event were analysed alone' \
	"$TMP/same.err" "the records past the cap are counted"
finish
