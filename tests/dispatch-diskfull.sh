#!/bin/bash
# avcdoctor-dispatch on a full disk (root: the store lies on a 256 KiB tmpfs
# of its own).  Every commit and every pruning then fails, at the rate of the
# input: the warnings go through the configured [log] target only (nothing
# on stderr with target=syslog) and are held to one per 10 s, the next one
# and a last one at the end saying how many were held back.
# Exit 77 (skipped) when not root or tmpfs cannot be mounted.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
MNT=$TMP/full

[ "$(id -u)" = 0 ] || { echo "not root: no tmpfs to fill"; exit 77; }
mkdir -p "$MNT" "$TMP/rules"
mount -t tmpfs -o size=256k,mode=0700 tmpfs "$MNT" 2>/dev/null ||
	{ echo "cannot mount a tmpfs here"; exit 77; }
trap 'umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT

# N distinct denials (one alert each: a new type per denial), as fast as
# a pipe takes them
cat >"$TMP/gen.py" <<'PY'
import sys
n = int(sys.argv[1])
out = sys.stdout
for i in range(n):
    stamp = "audit(1700000100.%03d:%d)" % (i % 1000, 100000 + i)
    out.write('type=AVC msg=%s: avc:  denied  { read } for  pid=%d comm="httpd" '
              'name="f%d.html" dev="sda1" ino=%d scontext=system_u:system_r:full%d_t:s0 '
              'tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file permissive=0\n'
              'type=EOE msg=%s: \n' % (stamp, 1000 + i, i, i, i, stamp))
PY

# conf TARGET: small max_alerts, so that pruning runs (and fails) often
conf() {
	cat >"$TMP/$1.conf" <<CONF
[analysis]
policy=$POLICY
rules_dir=$TMP/rules
file_checks=false
[log]
target=$1
[store]
path=$MNT/alerts.db
max_alerts=500
max_age_days=0
[bus]
type=none
CONF
}

# run TARGET: the dispatcher on 20000 new alerts; stderr in $TMP/TARGET.err
run() {
	rm -f "$MNT"/alerts.db*
	conf "$1"
	local t0=$(date +%s)
	python3 "$TMP/gen.py" 20000 | timeout 120 "$DISPATCH" --config "$TMP/$1.conf" \
		>/dev/null 2>"$TMP/$1.err"
	local rc=$?
	secs=$(($(date +%s) - t0))
	[ "$rc" = 0 ] && pass "target=$1: exit 0 on a full disk ($secs s)" ||
		fail "target=$1: exit $rc"
}

run syslog
if grep -q "alert store\|WARNING\|disk is full" "$TMP/syslog.err"; then
	fail "target=syslog: store warnings on stderr:"
	grep "alert store\|WARNING\|disk is full" "$TMP/syslog.err" | head -3 >&2
else
	pass "target=syslog: no store warning on stderr"
fi

run stderr
grep "disk is full\|alert store" "$TMP/stderr.err" | grep -v "started:" >"$TMP/store.log"
n=$(wc -l <"$TMP/store.log")
errors=$(sed -n 's/.*; \([0-9]*\) store errors.*/\1/p' "$TMP/stderr.err")
echo "    $n store warnings logged, ${errors:-no} store errors counted, in $secs s"
[ -n "$errors" ] && [ "$errors" -gt 10 ] && pass "the disk is full: $errors store errors" ||
	fail "the disk did not fill: ${errors:-no} store errors"
# one per 10 s, plus the last one at the end
max=$((secs / 10 + 2))
[ "$n" -ge 1 ] && [ "$n" -le "$max" ] && pass "$n warnings (at most $max)" ||
	fail "$n warnings logged in $secs s (at most $max wanted)"
held=$(grep -o '([0-9]* more like it since the last one, not logged)\|([0-9]* times\? since the last one logged)' \
	"$TMP/store.log" | grep -o '[0-9]*' | paste -sd+ | bc)
# the last line repeats a held-back one: it is no error of its own
last=$(grep -c 'since the last one logged)' "$TMP/store.log")
[ $((n - last + ${held:-0})) = "$errors" ] &&
	pass "logged + held back = $errors store errors" ||
	fail "logged $n - $last + held back ${held:-0} != $errors store errors"
if grep -l -E "runtime error|AddressSanitizer|LeakSanitizer" "$TMP"/*.err; then
	fail "sanitizer reports (files above)"
fi
finish
