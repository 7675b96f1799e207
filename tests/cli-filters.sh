#!/bin/bash
# The filters of why, allow, analyze and list, as ausearch's: --since and
# --until with its time words on a fixed clock (AVCDOCTOR_NOW), -c/--comm,
# --source, --target, --class and --host.
. "$AD_SOURCE_DIR/tests/lib.sh"
cd "$AD_CORPUS" || exit 1
LOG=crafted/debian-refpolicy-cases.log   # 15 denial records, 1700000001..1700000015, no node=

# count CMD... : the number of denial records a why run analysed
count() { "$AVCDOCTOR" why -p "$POLICY" "$@" 2>/dev/null | sed -n 's/^\([0-9]*\) denial records\? analysed.*/\1/p'; }
check() { local want=$1 desc=$2; shift 2; got=$(count "$@"); [ "$got" = "$want" ] && pass "$desc" || fail "$desc: $got, wanted $want"; }

check 15 "no filter: every record" "$LOG"
want=$(grep -c 'scontext=system_u:system_r:httpd_t' "$LOG")
check "$want" "--source httpd_t" --source httpd_t "$LOG"
check "$want" "-s httpd_t" -s httpd_t "$LOG"
want=$(grep -c 'tcontext=[^ ]*:shadow_t' "$LOG")
check "$want" "--target shadow_t" --target shadow_t "$LOG"
# expectations from the unfiltered JSON: what a filter keeps is what matches there
"$AVCDOCTOR" why --json -p "$POLICY" "$LOG" >"$TMP/all.jsonl" 2>/dev/null
jcount() { python3 -c "import json,sys; print(sum(1 for l in open(sys.argv[1]) if eval(sys.argv[2], {}, {'d': json.loads(l)})))" "$TMP/all.jsonl" "$1"; }
want=$(jcount 'd["tclass"] == "process"')
check "$want" "--class process" --class process "$LOG"
want=$(jcount 'd["comm"] in ("bash", "httpd")')
check "$want" "-c bash -c httpd: either command" -c bash -c httpd "$LOG"
check 0 "--host web1 on a log without node=" --host web1 "$LOG"
check 15 "--host local: records without node=" --host local "$LOG"
check 5 "--since and --until with dates (local time, TZ=UTC; --until takes its whole second)" \
	--since '2023-11-14 22:13:21' --until '11/14/2023 22:13:25' "$LOG"
check 2 "--since with seconds and a dotted date" --since 1700000014 --until '15.11.2023' "$LOG"
# time words on a fixed clock: "now" is 1700000016 (2023-11-14 22:13:36 UTC, a Tuesday)
export AVCDOCTOR_NOW=1700000016
check 15 "--since today" --since today "$LOG"
check 0 "--until yesterday" --until yesterday "$LOG"
check 15 "--since this-hour" --since this-hour "$LOG"
check 15 "--since this-week" --since this-week "$LOG"
check 15 "--since week-ago" --since week-ago "$LOG"
check 15 "--since this-month / this-year" --since this-month --until now "$LOG"
check 10 "--since 10s (an age): 1700000006 on" --since 10s "$LOG"
export AVCDOCTOR_NOW=1700000700
check 0 "--since recent: ten minutes" --since recent "$LOG"
unset AVCDOCTOR_NOW
expect_status 1 "a bad time is refused" -- "$AVCDOCTOR" why -p "$POLICY" --since soon "$LOG"
expect_grep '^avcdoctor: why: --since: "soon" is not a time' "$TMP/err" "the refusal says why"
expect_status 0 "the account says what the filters left out" -- \
	"$AVCDOCTOR" why -p "$POLICY" --class process "$LOG"
expect_grep 'denial records left out by the filters\.$' "$TMP/out" "left-out records counted"

# allow and analyze take the same filters
"$AVCDOCTOR" allow -p "$POLICY" --source cdrecord_t "$LOG" >"$TMP/allow" 2>/dev/null
grep -q '^allow cdrecord_t cifs_t:file read;' "$TMP/allow" && ! grep -q '^allow httpd_t' "$TMP/allow" &&
	pass "allow --source" || fail "allow --source: $(cat "$TMP/allow")"
n=$("$AVCDOCTOR" analyze --json -p "$POLICY" --target shadow_t "$LOG" 2>/dev/null | wc -l)
[ "$n" -ge 1 ] && ! "$AVCDOCTOR" analyze --json -p "$POLICY" --target shadow_t "$LOG" 2>/dev/null |
	grep -v '"tcontext":"[^"]*:shadow_t' | grep -q . && pass "analyze --target" ||
	fail "analyze --target"

# list filters the daemon's alerts (here a store filled by the dispatcher)
cat >"$TMP/d.conf" <<EOT
[store]
path=$TMP/alerts.db
max_age_days=0
[bus]
type=none
[analysis]
policy=$POLICY
file_checks=false
[log]
target=stderr
journal_socket=none
EOT
"$AD_BUILD_DIR/bin/avcdoctor-dispatch" --config "$TMP/d.conf" <"$LOG" >/dev/null 2>&1
all=$("$AVCDOCTOR" list --db "$TMP/alerts.db" --json --all 2>/dev/null | wc -l)
[ "$all" -ge 10 ] && pass "the store holds $all alerts" || fail "the store holds $all alerts"
n=$("$AVCDOCTOR" list --db "$TMP/alerts.db" --json --all --source httpd_t 2>/dev/null | wc -l)
m=$("$AVCDOCTOR" list --db "$TMP/alerts.db" --json --all 2>/dev/null | grep -c '"scontext":"[^"]*:httpd_t:')
[ "$n" = "$m" ] && [ "$n" -ge 1 ] && pass "list --source" || fail "list --source: $n, wanted $m"
n=$("$AVCDOCTOR" list --db "$TMP/alerts.db" --json --all -c bash 2>/dev/null | wc -l)
[ "$n" -ge 1 ] && [ "$n" -lt "$all" ] && pass "list -c" || fail "list -c: $n"
n=$("$AVCDOCTOR" list --db "$TMP/alerts.db" --json --all --until 1700000005 2>/dev/null | wc -l)
[ "$n" -ge 1 ] && [ "$n" -lt "$all" ] && pass "list --until" || fail "list --until: $n"
AVCDOCTOR_NOW=1700000016 expect_status 0 "list --since this-week" -- \
	"$AVCDOCTOR" list --db "$TMP/alerts.db" --all --since this-week
expect_grep "^$all alerts\.$" "$TMP/out" "this-week keeps them all"
finish
