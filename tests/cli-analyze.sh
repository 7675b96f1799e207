#!/bin/bash
# avcdoctor analyze: alerts, ranked suggestions on the crafted cases, JSON keys,
# grouping by signature with hosts, hostile names, exit statuses.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
export AVCDOCTOR_RULES_DIR="$AD_SOURCE_DIR/rules"
cd "$AD_CORPUS" || exit 1
crafted=crafted/debian-refpolicy-cases.log

expect_status 0 "analyze the crafted cases" -- "$AVCDOCTOR" analyze -p "$POLICY" $crafted
cp "$TMP/out" "$TMP/analyze.txt"
golden analyze-crafted.txt "$TMP/analyze.txt"
expect_grep "^SELinux is preventing httpd from read access on the file index.html." "$TMP/analyze.txt" "one-line summary"
expect_grep "^# setsebool -P cdrecord_read_content=1 use_samba_home_dirs=1" "$TMP/analyze.txt" "combination command"

expect_status 0 "analyze --json" -- "$AVCDOCTOR" analyze --json -p "$POLICY" $crafted
cp "$TMP/out" "$TMP/analyze.jsonl"
golden analyze-crafted.jsonl "$TMP/analyze.jsonl"
python3 - "$TMP/analyze.jsonl" <<'PY' || fail "analyze --json: keys and top suggestions"
import json, sys
alerts = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    for k in ("id", "count", "first_seen", "last_seen", "level", "hosts", "ignored",
              "summary", "denial", "records", "suggestions"):
        assert k in o, (k, o)
    for s in o["suggestions"]:
        for k in ("plugin", "kind", "confidence", "if", "then", "commands", "shell",
                  "verified", "still_denied", "scope"):
            assert k in s, (k, s)
    alerts[o["denial"]["serial"]] = o
def top(serial):
    return alerts[serial]["suggestions"][0]
# the right top suggestion for each crafted case
assert alerts[102]["count"] == 2                        # 101 and 102: one signature
assert top(102)["kind"] == "attack" and alerts[102]["level"] == "red"   # httpd reading shadow
assert top(103)["kind"] == "boolean" and top(103)["commands"] == [["setsebool", "-P", "httpd_read_user_content=1"]]
# the narrowest proved boolean: relaying to cache ports, not every port
assert top(104)["kind"] == "boolean" and "httpd_can_network_relay=1" in top(104)["commands"][0] and top(104)["verified"] is True
assert top(105)["commands"] == [["setsebool", "-P", "cdrecord_read_content=1", "use_samba_home_dirs=1"]]
assert top(106)["plugin"] == "constraint"
for s in (108, 109, 114):
    assert top(s)["plugin"] == "policy_mismatch", (s, top(s))
for s in (112, 113):
    assert top(s)["plugin"] == "invalid_context", (s, top(s))
assert 107 not in alerts                                 # granted: no alert
assert alerts[103]["level"] == "green"
print("ok: top suggestions of the crafted cases")
PY

# grouping: the same signature on several hosts is one alert with its hosts
expect_status 0 "analyze a multi-host log" -- "$AVCDOCTOR" analyze --json -p "$POLICY" selinux-audit2allow-test.log
python3 - "$TMP/out" <<'PY' || fail "alerts keep their hosts"
import json, sys
alerts = [json.loads(l) for l in open(sys.argv[1])]
multi = [a for a in alerts if len(a["hosts"]) > 1]
assert multi, [a["hosts"] for a in alerts]
assert any("tom.example.com" in a["hosts"] for a in alerts)
print("ok: alerts keep their hosts")
PY

# hostile names: escaped on the terminal, one quoted argument in commands, nothing run
name=$(printf '%s' 'x$(touch /tmp/avcdoctor-pwned);`id`'"'"'q' | od -An -tx1 | tr -d ' \n')
esc=$(printf '\033[31mred' | od -An -tx1 | tr -d ' \n')
cat > "$TMP/hostile.log" <<LOG
type=AVC msg=audit(1700000101.100:901): avc:  denied  { read } for  pid=1 comm=$esc name=$name dev="sda1" ino=77 scontext=system_u:system_r:httpd_t:s0 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file permissive=0
type=CWD msg=audit(1700000101.100:901): cwd="/var/www/html"
type=PATH msg=audit(1700000101.100:901): item=0 name=$name inode=77 nametype=NORMAL
LOG
rm -f /tmp/avcdoctor-pwned
expect_status 0 "analyze hostile names" -- "$AVCDOCTOR" analyze -p "$POLICY" "$TMP/hostile.log"
if grep -q $'\033' "$TMP/out"; then fail "an ESC byte reached the terminal output"; else pass "no raw ESC in the output"; fi
expect_grep '\\x1b\[31mred' "$TMP/out" "ESC shown escaped"
expect_grep "restorecon -v -- '/var/www/html/x\$(touch /tmp/avcdoctor-pwned);\`id\`'\\\\''q'" "$TMP/out" "path quoted as one argument after --"
[ -e /tmp/avcdoctor-pwned ] && fail "something was executed" || pass "nothing executed"

# --json with stderr into the same pipe: the closing account is a line of its own
"$AVCDOCTOR" analyze --json -p "$POLICY" "$crafted" > "$TMP/merged.txt" 2>&1
check_merged_json "$TMP/merged.txt" '^15 denial records in \d+ alerts, .*\.$' \
	'^avcdoctor: ' "analyze --json with stderr merged"

# accounting and exit statuses
expect_status 1 "a rejected record gives exit 1" -- "$AVCDOCTOR" analyze -p "$POLICY" synthetic/avc-parser-malformed_permissions_test.log
expect_grep "; 1 record rejected (see the messages above)\.$" "$TMP/out" "the rejected record is counted"
expect_status 2 "no policy" -- "$AVCDOCTOR" analyze -p /nonexistent "$crafted"
finish
