#!/bin/bash
# avcdoctor why: golden outputs, exit statuses, input forms, accounting.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
crafted="$AD_CORPUS/crafted/debian-refpolicy-cases.log"
# file names in outputs are relative to the corpus, for stable goldens
cd "$AD_CORPUS" || exit 1

expect_status 0 "why on the crafted cases" -- "$AVCDOCTOR" why -p "$POLICY" crafted/debian-refpolicy-cases.log
cp "$TMP/out" "$TMP/why.txt"
golden why-crafted.txt "$TMP/why.txt"

expect_status 0 "why --json on the crafted cases" -- "$AVCDOCTOR" why --json -p "$POLICY" crafted/debian-refpolicy-cases.log
cp "$TMP/out" "$TMP/why.jsonl"
golden why-crafted.jsonl "$TMP/why.jsonl"
python3 - "$TMP/why.jsonl" <<'PY' || fail "JSON keys and reasons of the crafted cases"
import json, sys
rows = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    for k in ("type", "serial", "time", "node", "result", "permissions", "scontext",
              "tcontext", "tclass", "comm", "pid", "path", "permissive", "reason",
              "booleans", "constraint"):
        assert k in o, (k, o)
    rows.setdefault(o["serial"], o)
want = {101: "te_rule", 103: "boolean", 104: "boolean", 105: "boolean",
        106: "constraint", 108: "unknown_permission", 109: "unknown_class",
        110: "boolean", 111: "te_rule", 112: "invalid_context",
        113: "invalid_context", 114: "unknown_type", 115: "invalid_context"}
for s, r in want.items():
    assert rows[s]["reason"] == r, (s, rows[s]["reason"], r)
assert rows[102]["permissive"] is True
assert rows[107]["result"] == "granted"
alts = [[(b["name"], b["value"]) for b in alt] for alt in rows[105]["booleans"]]
assert [("cdrecord_read_content", True), ("use_samba_home_dirs", True)] in \
    [sorted(a) for a in alts], alts
assert [("httpd_read_user_content", True)] in \
    [a for a in [[(b["name"], b["value"]) for b in alt] for alt in rows[103]["booleans"]]]
assert "staff_r" in rows[106]["constraint"] and "system_r" in rows[106]["constraint"]
assert rows[101]["path"] == "/etc/shadow" and rows[101]["syscall"] == "openat"
print("ok: reasons of the crafted cases")
PY

# SELINUX_ERR forms of the notebook log: bounds, bounded transition, an invalid
# context from another policy (unknown names, each listed once)
expect_status 0 "why on the notebook's SELINUX_ERR forms" -- "$AVCDOCTOR" why --json -p "$POLICY" selinux-notebook-auditing-examples.log
python3 - "$TMP/out" <<'PY' || fail "SELINUX_ERR reasons"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
errs = [r for r in rows if r["type"] == "SELINUX_ERR"]
assert [r["reason"] for r in errs] == ["bounds", "bounds", "bounds", "unknown_type"], \
    [r["reason"] for r in errs]
first = rows[0]
print("ok: SELINUX_ERR reasons")
PY
"$AVCDOCTOR" why -p "$POLICY" selinux-notebook-auditing-examples.log > "$TMP/nb.txt" 2>&1
expect_grep "Not in this policy: user test_u, type oddjob_mkhomedir_t.$" "$TMP/nb.txt" "each unknown name listed once"

# every input form gives the same denials: raw, stdin, kernel log, journal
expect_status 0 "stdin" -- sh -c "\"$AVCDOCTOR\" why --json -p \"$POLICY\" - < \"$crafted\""
[ "$(wc -l < "$TMP/out")" = 15 ] || fail "stdin: $(wc -l < "$TMP/out") denials, wanted 15"
sed -n 1p "$crafted" | sed 's/^type=AVC msg=\(audit([^)]*)\)/[ 12.345678] audit: type=1400 \1/' > "$TMP/dmesg.log"
expect_status 0 "dmesg form" -- "$AVCDOCTOR" why --json -p "$POLICY" "$TMP/dmesg.log"
expect_grep '"reason":"te_rule"' "$TMP/out" "dmesg form explained"
sed -n 1p "$crafted" | sed 's/^type=AVC msg=audit([^)]*): /Dec 03 05:20:00 web1 audit[100]: AVC /' > "$TMP/journal.log"
expect_status 0 "journal form" -- "$AVCDOCTOR" why --json -p "$POLICY" "$TMP/journal.log"
expect_grep '"scontext":"system_u:system_r:httpd_t:s0"' "$TMP/out" "journal form parsed"

# a USER_AVC blames its sender (scontext, spid), not the bus daemon that reported it
expect_status 0 "a D-Bus USER_AVC" -- "$AVCDOCTOR" why -p "$POLICY" "$crafted"
expect_grep '^  httpd_t (pid 800) was denied send_msg on a dbus labelled init_t\.$' "$TMP/out" \
	"a USER_AVC names the sender"
grep -q 'dbus-daemon was denied' "$TMP/out" && fail "a USER_AVC blamed the bus daemon"

# capabilities are named as such: "was denied the capability net_admin"
{ echo 'type=AVC msg=audit(1700000001.100:1): avc:  denied  { net_admin } for  pid=1 comm="x" capability=12 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:system_r:httpd_t:s0 tclass=capability permissive=0'
  echo 'type=AVC msg=audit(1700000001.100:2): avc:  denied  { sys_admin net_admin } for  pid=1 comm="x" capability=21 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:system_r:httpd_t:s0 tclass=cap_userns permissive=0'
  echo 'type=AVC msg=audit(1700000001.100:3): avc:  denied  { net_admin } for  pid=2 comm="vpnc" capability=12 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:system_r:httpd_t:s0 tclass=capability permissive=0'
  echo 'type=SYSCALL msg=audit(1700000001.100:3): arch=c000003e syscall=16 success=no exit=-1 pid=2 comm="vpnc" exe="/usr/sbin/vpnc"'
  echo 'type=CWD msg=audit(1700000001.100:3): cwd="/"'
  echo 'type=PATH msg=audit(1700000001.100:3): item=0 name="/dev/net/tun" inode=7 nametype=NORMAL'
} > "$TMP/caps.log"
expect_status 0 "capability denials" -- "$AVCDOCTOR" why -p "$POLICY" "$TMP/caps.log"
expect_grep "^  x was denied the capability net_admin\.$" "$TMP/out" "a capability by name"
expect_grep "^  x was denied the capabilities sys_admin and net_admin in a user namespace\.$" "$TMP/out" \
	"capabilities in a user namespace"
expect_grep "^  /usr/sbin/vpnc was denied the capability net_admin for /dev/net/tun\.$" "$TMP/out" \
	"the file a capability was needed for"

# a dontaudit verdict says why it was logged once, not twice
expect_status 0 "a dontaudit denial" -- "$AVCDOCTOR" why -p "$POLICY" avc-parser-tpm-enforcing.log
expect_grep "^  Reason: dontaudit\. No rule allows this access, and the dontaudit rule may depend on a boolean\.$" \
	"$TMP/out" "the dontaudit reason"
[ "$(grep -c "semodule -DB" "$TMP/out")" = "$(grep -c "^  Reason: dontaudit" "$TMP/out")" ] ||
	fail "semodule -DB is not named once per dontaudit denial"

# bad input: a message with file and line, the rest still analysed, exit 1
{ echo 'type=AVC msg=audit(1700000001.100:1): avc:  denied  { } for pid=1 comm="x" scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:shadow_t:s0 tclass=file'
  sed -n 1p "$crafted"; } > "$TMP/bad.log"
expect_status 1 "a bad record gives exit 1" -- "$AVCDOCTOR" why --json -p "$POLICY" "$TMP/bad.log"
expect_grep "bad.log:1: " "$TMP/err" "the message names file and line"
[ "$(wc -l < "$TMP/out")" = 1 ] || fail "the good record after a bad one was not analysed"

# no policy: exit 2 with a clear message
expect_status 2 "missing -p file" -- "$AVCDOCTOR" why -p /nonexistent/policy.33 "$crafted"
expect_grep "/nonexistent/policy.33" "$TMP/err" "the message names the policy file"
# ... at once, also when an input is a FIFO nobody writes to (never read ahead)
mkfifo "$TMP/fifo"
expect_status 2 "missing -p file, FIFO input" -- timeout 10 "$AVCDOCTOR" why -p /nonexistent/policy.33 "$TMP/fifo"
# and the FIFO is read when the policy is there
( sed -n 1p "$crafted" > "$TMP/fifo" ) &
expect_status 0 "a FIFO input" -- timeout 10 "$AVCDOCTOR" why --json -p "$POLICY" "$TMP/fifo"
wait
[ "$(wc -l < "$TMP/out")" = 1 ] || fail "the FIFO's record was not analysed"
mkdir -p "$TMP/selinux"
printf 'SELINUX=disabled\nSELINUXTYPE=default\n' > "$TMP/selinux/config"
expect_status 2 "no installed policy" -- env AVCDOCTOR_SELINUX_ROOT="$TMP/selinux" "$AVCDOCTOR" why "$crafted"
expect_grep "policy" "$TMP/err" "no-policy message"
# automatic discovery picks the newest policy.N
mkdir -p "$TMP/selinux/default/policy"
ln -s "$POLICY" "$TMP/selinux/default/policy/policy.33"
expect_status 0 "installed policy found by itself" -- env AVCDOCTOR_SELINUX_ROOT="$TMP/selinux" "$AVCDOCTOR" why "$crafted"

# a missing input file is an error naming it; others are still read
expect_status 1 "missing input" -- "$AVCDOCTOR" why -p "$POLICY" /nonexistent.log "$crafted"
expect_grep "/nonexistent.log" "$TMP/err" "the message names the missing file"
expect_grep "15 denial records analysed" "$TMP/out" "the other file was still read"
expect_grep "; 1 input could not be read\.$" "$TMP/out" "the missing file is counted as such, not as a record"

# a consumer far behind (stdout a pipe nobody reads for a second, then slowly): the
# reading thread builds the denials itself, and the report is the same, problems in
# the same places (kernel AVCs, USER_AVC, SELINUX_ERR and rejected records, 200 times)
for i in $(seq 200); do
	cat crafted/debian-refpolicy-cases.log selinux-notebook-auditing-examples.log
	echo "type=AVC msg=audit(1700000009.000:$((90000 + i))): avc:  denied  { } for pid=1 scontext=a:b:c tcontext=a:b:c tclass=file"
done > "$TMP/many.log"
expect_status 1 "why on 200 copies, to a file" -- "$AVCDOCTOR" why -p "$POLICY" "$TMP/many.log"
mv "$TMP/out" "$TMP/many-fast.txt"
mv "$TMP/err" "$TMP/many-fast.err"
G_MESSAGES_DEBUG=all "$AVCDOCTOR" why -p "$POLICY" "$TMP/many.log" 2> "$TMP/many-slow.err" |
	{ sleep 1; while IFS= read -r l; do printf '%s\n' "$l"; done; } > "$TMP/many-slow.txt"
cmp -s "$TMP/many-fast.txt" "$TMP/many-slow.txt" || fail "a slow reader of stdout changed the report"
grep -v "DEBUG" "$TMP/many-slow.err" | cmp -s "$TMP/many-fast.err" - ||
	fail "a slow reader of stdout changed the messages on stderr"
built=$(sed -n 's/.*reading thread: [0-9]* events; the denials of \([0-9]*\) built.*/\1/p' "$TMP/many-slow.err")
[ "${built:-0}" -ge 100 ] || fail "the reading thread built ${built:-no} events' denials while stdout was not read"
[ "$(grep -c "many.log:.*permission list" "$TMP/many-fast.err")" = 200 ] ||
	fail "the 200 rejected records were not all reported"
pass "a slow consumer: the same report, ${built:-0} events built by the reading thread"

# stdout and stderr into one pipe: every line whole (JSON, a message, the account
# last), also when the last record is a good one (no message flushes stdout then)
cat "$TMP/many.log" crafted/debian-refpolicy-cases.log > "$TMP/many2.log"
"$AVCDOCTOR" why --json -p "$POLICY" "$TMP/many2.log" > "$TMP/merged.txt" 2>&1
check_merged_json "$TMP/merged.txt" '^\d+ denial records analysed, .*\.$' \
	'^.*many2\.log:\d+: the permission list' "why --json with stderr merged"

# usage
expect_status 0 "--help" -- "$AVCDOCTOR" why --help
expect_grep "policy" "$TMP/out" "--help lists --policy"
expect_status 1 "unknown option" -- "$AVCDOCTOR" why --frobnicate
expect_status 1 "unknown command" -- "$AVCDOCTOR" frobnicate
# a report that cannot be written is an error with a message, never exit 0
if [ -w /dev/full ]; then
	expect_status 1 "why >/dev/full" -- sh -c '"$1" why -p "$2" "$3" >/dev/full' sh "$AVCDOCTOR" "$POLICY" "$AD_SOURCE_DIR/tests/data/hostile/invalid-utf8-node.log"
	expect_grep 'cannot write the report' "$TMP/err" "write error: message"
fi
finish
