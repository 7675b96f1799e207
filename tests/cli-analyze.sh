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
              "summary", "denial", "records", "suggestions", "notes"):
        assert k in o, (k, o)
    for s in o["suggestions"]:
        for k in ("plugin", "kind", "confidence", "if", "then", "commands", "shell",
                  "verified", "still_denied", "scope"):
            assert k in s, (k, s)
    # the first suggestion is something to do, or says that nothing needs doing
    assert not o["suggestions"] or o["suggestions"][0]["kind"] != "info" or \
        "nothing" in o["suggestions"][0]["then"], o["suggestions"][0]
    for n in o["notes"]:
        assert sorted(n) == ["if", "plugin", "then"], n
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
# a log from another policy: a fact to know, nothing this policy can fix
for s in (108, 109, 114):
    assert alerts[s]["notes"][0]["plugin"] == "policy_mismatch", (s, alerts[s])
    assert all(x["plugin"] != "policy_mismatch" for x in alerts[s]["suggestions"]), alerts[s]
for s in (112, 113):
    assert top(s)["plugin"] == "invalid_context", (s, top(s))
assert 107 not in alerts                                 # granted: no alert
assert alerts[103]["level"] == "green"
# 101 was blocked, 102 only logged: the alert says both, and not "nothing was blocked"
assert (alerts[102]["blocked"], alerts[102]["logged_only"]) == (1, 1), alerts[102]
assert all(s["plugin"] != "permissive" for s in alerts[102]["suggestions"] + alerts[102]["notes"])
# a USER_AVC names the denied sender (scontext, spid), not the bus daemon that logged it
assert alerts[111]["summary"].startswith("SELinux is preventing httpd_t (pid 800) from send_msg"), alerts[111]["summary"]
print("ok: top suggestions of the crafted cases")
PY
expect_grep "^Permissive  *no: 1 blocked, 1 only logged (permissive)" "$TMP/analyze.txt" "a mixed alert says what was blocked"
expect_grep "^Reported By  */usr/bin/dbus-daemon (system_u:system_r:system_dbusd_t" "$TMP/analyze.txt" "the bus daemon is the reporter"

# the checks of one exec into another domain (siginh, rlimitinh, noatsecure) are one
# alert naming the domain that ran the program, never alerts with the same records
expect_status 0 "analyze the exec checks" -- "$AVCDOCTOR" analyze --json -p "$POLICY" avc-parser-tpm-enforcing.log
python3 - "$TMP/out" <<'PY' || fail "the exec checks are one alert naming the subject"
import json, sys
alerts = [json.loads(l) for l in open(sys.argv[1])]
inherit = {"siginh", "rlimitinh", "noatsecure"}
seen = {}
for a in alerts:
    d = a["denial"]
    if d["tclass"] == "process" and set(d["permissions"]) <= inherit and d["scontext"] != d["tcontext"]:
        key = (d["scontext"].split(":")[2], d["tcontext"].split(":")[2])
        assert key not in seen, key
        seen[key] = a
su = seen[("sysadm_t", "sysadm_su_t")]
assert su["summary"] == ("SELinux is preventing sysadm_t from passing noatsecure, rlimitinh "
                         "and siginh to /usr/bin/su, which it started as sysadm_su_t."), su["summary"]
assert su["count"] == 1 and su["blocked"] == 1, su      # one exec, three records
records = [tuple(a["records"]) for a in seen.values()]
assert len(records) == len(set(records)), "two exec alerts show the same records"
print("ok: %d exec checks, one alert each" % len(seen))
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

# invalid UTF-8 and ESC in node= and a path: JSON stays valid UTF-8 with the exact
# bytes in *_hex, a command that cannot be shown exactly says so, text is escaped
hostile="$AD_SOURCE_DIR/tests/data/hostile"
expect_status 0 "analyze --json, invalid UTF-8" -- "$AVCDOCTOR" analyze --json -p "$POLICY" "$hostile/invalid-utf8-node.log"
python3 - "$TMP/out" <<'PY' || fail "analyze --json: invalid UTF-8 carried in *_hex"
import json, sys
alerts = [json.loads(l.decode("utf-8")) for l in open(sys.argv[1], "rb")]  # strict UTF-8
a = [a for a in alerts if a["denial"]["serial"] == 911][0]
assert a["hosts"] == ["web\\xff1"] and a["hosts_hex"] == [b"web\xff1".hex()], a["hosts"]
r = [s for s in a["suggestions"] if s["commands"] and s["commands"][0][0] == "restorecon"][0]
path = b"/var/www/html/in\xffdex.html"
assert r["commands_hex"][0][-1] == path.hex(), r
assert r["shell"].startswith("# not exact"), r["shell"]
assert "restorecon" not in [l.split()[0] for l in r["shell"].splitlines() if not l.startswith("#")]
print("ok: invalid UTF-8 in JSON")
PY
expect_status 0 "analyze text, ESC in node=" -- "$AVCDOCTOR" analyze -p "$POLICY" "$hostile/invalid-utf8-node.log"
if grep -aq $'\033\|\xff' "$TMP/out"; then fail "a raw ESC or \\xff reached the Hosts line"; else pass "Hosts line escaped"; fi
# (a terminal's colour sequence is dropped by the reader as pasted text would be,
# or shown escaped: never raw)
grep -qE '^Hosts .*web(\\x1b\[31m)?red \(1\)' "$TMP/out" && pass "ESC in node= shown escaped or dropped" ||
	fail "ESC in node=: $(grep '^Hosts' "$TMP/out")"
expect_status 0 "analyze text, ESC in an interpreted syscall" -- "$AVCDOCTOR" analyze -p "$POLICY" "$hostile/interpreted-syscall-esc.log"
if grep -aq $'\033' "$TMP/out"; then fail "a raw ESC reached the Syscall line"; else pass "Syscall line escaped"; fi
grep -qE '^Syscall .*open(\\x1b\[2J)?at' "$TMP/out" && pass "ESC in syscall= shown escaped or dropped" ||
	fail "ESC in syscall=: $(grep '^Syscall' "$TMP/out")"

# --json with stderr into the same pipe: the closing account is a line of its own
"$AVCDOCTOR" analyze --json -p "$POLICY" "$crafted" > "$TMP/merged.txt" 2>&1
check_merged_json "$TMP/merged.txt" '^15 denial records in \d+ alerts, .*\.$' \
	'^avcdoctor: ' "analyze --json with stderr merged"

# accounting and exit statuses
expect_status 1 "a rejected record gives exit 1" -- "$AVCDOCTOR" analyze -p "$POLICY" synthetic/avc-parser-malformed_permissions_test.log
expect_grep "; 1 record rejected (see the messages on standard error)\.$" "$TMP/out" \
	"the rejected record is counted, and where its message went is said"
"$AVCDOCTOR" analyze -p "$POLICY" synthetic/avc-parser-malformed_permissions_test.log >"$TMP/both" 2>&1
expect_grep "; 1 record rejected (see the messages above)\.$" "$TMP/both" \
	"with stderr in the same file the messages are above"
expect_status 2 "no policy" -- "$AVCDOCTOR" analyze -p /nonexistent "$crafted"

# the overview: its counts are those of the alerts that follow it
for log in "$crafted" selinux-sepolgen-test_data-httpd.log avc-parser-tpm-enforcing.log; do
	"$AVCDOCTOR" analyze --summary --level all --json -p "$POLICY" "$log" >"$TMP/sum.jsonl" 2>/dev/null
	python3 - "$TMP/sum.jsonl" <<'PY' && pass "overview of $log agrees with its alerts" || fail "overview of $log"
import json, sys, collections
lines = [json.loads(l) for l in open(sys.argv[1])]
s, alerts = lines[0], lines[1:]
assert s["type"] == "summary" and all("type" not in a for a in alerts)
assert s["alerts"] == len(alerts)
assert s["records"] == sum(a["count"] for a in alerts)
for lvl in ("green", "yellow", "red"):
    mine = [a for a in alerts if a["level"] == lvl]
    assert s["levels"][lvl] == {"alerts": len(mine), "records": sum(a["count"] for a in mine)}, lvl
fixes = collections.Counter(a["suggestions"][0]["kind"] if a["suggestions"] else "none" for a in alerts)
assert s["fixes"] == dict(fixes), (s["fixes"], fixes)
src = collections.Counter()
for a in alerts:
    src[a["denial"]["scontext"].split(":")[2]] += a["count"]
top = s["sources"][0]
assert top["records"] == max(src.values()) and src[top["name"]] == top["records"], (top, src.most_common(3))
assert len(s["sources"]) <= 5 and len(s["targets"]) <= 5
assert s["first_seen"] == min(a["first_seen"] for a in alerts)
assert s["last_seen"] == max(a["last_seen"] for a in alerts)
PY
done
# without --summary, JSON Lines consumers see alerts only; a pipe gets no text overview
"$AVCDOCTOR" analyze --json -p "$POLICY" "$crafted" 2>/dev/null | head -1 | grep -q '"type":"summary"' &&
	fail "a summary object without --summary" || pass "no summary object unless asked"
"$AVCDOCTOR" analyze -p "$POLICY" "$crafted" 2>/dev/null | grep -q '^Overview$' &&
	fail "a text overview into a pipe without --summary" || pass "no overview into a pipe unless asked"
"$AVCDOCTOR" analyze --summary -p "$POLICY" "$crafted" >"$TMP/sum.txt" 2>/dev/null
expect_grep '^Overview$' "$TMP/sum.txt" "--summary opens the text report with the overview"
expect_grep '^  local  ' "$TMP/sum.txt" "a log without node= names: the host is local, as in the alerts"
expect_grep '^Hosts  *local (2)$' "$TMP/sum.txt" "the alert's Hosts line says local too"
# --summary alone: the overview, then the red alerts only; the closing line says how
# to see the rest; the overview still counts every alert
expect_status 0 "analyze --summary" -- "$AVCDOCTOR" analyze --summary -p "$POLICY" "$crafted"
[ "$(grep -c '^Level: ' "$TMP/out")" = 1 ] && expect_grep '^Level: red ' "$TMP/out" "--summary lists the red alert only" ||
	fail "--summary lists other alerts: $(grep '^Level: ' "$TMP/out" | head -3)"
expect_grep '^  yellow  *8 alerts, 8 records$' "$TMP/out" "--summary: the overview counts every level"
expect_grep '^15 denial records in 13 alerts, .*; 12 alerts of other levels not shown (--level=all shows them)\.$' \
	"$TMP/out" "--summary: the closing line says how to see the rest"
"$AVCDOCTOR" analyze --summary --json -p "$POLICY" "$crafted" >"$TMP/sum.jsonl" 2>"$TMP/sum.err"
python3 - "$TMP/sum.jsonl" <<'PY' && pass "--summary --json: the overview and the red alert" || fail "--summary --json"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert lines[0]["type"] == "summary" and lines[0]["alerts"] == 13, lines[0]
assert [a["level"] for a in lines[1:]] == ["red"], [a["level"] for a in lines[1:]]
PY
expect_grep "12 alerts of other levels not shown" "$TMP/sum.err" "--summary --json: the account on stderr says so"
expect_status 0 "--summary --level yellow" -- "$AVCDOCTOR" analyze --summary --level yellow -p "$POLICY" "$crafted"
[ "$(grep '^Level: ' "$TMP/out" | grep -vc '^Level: yellow ')" = 0 ] && [ "$(grep -c '^Level: yellow' "$TMP/out")" = 8 ] &&
	pass "--summary --level yellow: the yellow alerts" || fail "--summary --level yellow: $(grep -c '^Level: ' "$TMP/out")"

# the text report: red first, then yellow, green, most denials first; --sort time
# keeps the log's order; JSON keeps it unless --sort says otherwise
order() { grep '^Level: ' "$1" | sed 's/^Level: \([a-z]*\) .*Seen \([0-9]*\) time.*/\1 \2/'; }
"$AVCDOCTOR" analyze -p "$POLICY" "$crafted" >"$TMP/sorted.txt" 2>/dev/null
python3 - "$TMP/sorted.txt" <<'PY' && pass "text: red first, then by level and count" || fail "text order"
import re, sys
rank = {"red": 0, "yellow": 1, "green": 2}
keys = [(rank[m.group(1)], -int(m.group(2))) for m in
        re.finditer(r"^Level: (\w+) .*Seen (\d+) times?$", open(sys.argv[1]).read(), re.M)]
assert len(keys) == 13 and keys == sorted(keys), keys
PY
"$AVCDOCTOR" analyze --sort time -p "$POLICY" "$crafted" >"$TMP/time.txt" 2>/dev/null
"$AVCDOCTOR" analyze --json -p "$POLICY" "$crafted" >"$TMP/stream.jsonl" 2>/dev/null
python3 - "$TMP/time.txt" "$TMP/stream.jsonl" <<'PY' && pass "--sort time: the order of the JSON stream" || fail "--sort time"
import json, re, sys
ids = re.findall(r"^Level: \w+ +Alert (\w+)", open(sys.argv[1]).read(), re.M)
assert ids == [json.loads(l)["id"] for l in open(sys.argv[2])], ids
PY
"$AVCDOCTOR" analyze --json --sort level -p "$POLICY" "$crafted" 2>/dev/null | head -1 | grep -q '"level":"red"' &&
	pass "--json --sort level: red first" || fail "--json --sort level"
"$AVCDOCTOR" analyze --json --sort count -p "$POLICY" "$crafted" 2>/dev/null |
	python3 -c 'import json,sys; c=[json.loads(l)["count"] for l in sys.stdin]; assert c == sorted(c, reverse=True), c' &&
	pass "--json --sort count: most denials first" || fail "--json --sort count"
expect_status 0 "--level green,red" -- "$AVCDOCTOR" analyze --level green,red -p "$POLICY" "$crafted"
[ "$(grep -c '^Level: \(green\|red\) ' "$TMP/out")" = 5 ] && [ "$(grep -c '^Level: ' "$TMP/out")" = 5 ] &&
	pass "--level green,red: those alerts only" || fail "--level green,red: $(grep -c '^Level: ' "$TMP/out")"
expect_grep "; 8 alerts of other levels not shown" "$TMP/out" "--level: the others are counted"
expect_status 1 "--level purple" -- "$AVCDOCTOR" analyze --level purple -p "$POLICY" "$crafted"
expect_grep "^avcdoctor: analyze: --level: give red, yellow, green or all" "$TMP/err" "a bad --level is said"
expect_status 1 "--sort size" -- "$AVCDOCTOR" analyze --sort size -p "$POLICY" "$crafted"
expect_grep "^avcdoctor: analyze: --sort: give level, count or time" "$TMP/err" "a bad --sort is said"

# a missing input: its error, and no empty overview
expect_status 1 "analyze a missing file" -- "$AVCDOCTOR" analyze --summary -p "$POLICY" "$TMP/missing.log"
expect_grep "missing.log: No such file or directory" "$TMP/err" "the missing file is named"
grep -q '^Overview' "$TMP/out" && fail "an empty overview for a missing file" || pass "no empty overview for a missing file"
expect_status 1 "analyze --json a missing file" -- "$AVCDOCTOR" analyze --summary --json -p "$POLICY" "$TMP/missing.log"
[ -s "$TMP/out" ] && fail "analyze --json wrote a summary of nothing: $(head -c 200 "$TMP/out")" ||
	pass "no summary object for a missing file"

# batches: a log of more signatures than --batch is written out batch by batch,
# nothing lost; one batch is the report of the whole log
httpd=selinux-sepolgen-test_data-httpd.log
"$AVCDOCTOR" analyze --json -p "$POLICY" "$httpd" >"$TMP/whole.jsonl" 2>"$TMP/whole.err"
"$AVCDOCTOR" analyze --json --batch 5000 -p "$POLICY" "$httpd" >"$TMP/big.jsonl" 2>/dev/null
cmp -s "$TMP/whole.jsonl" "$TMP/big.jsonl" && pass "a batch larger than the log changes nothing" ||
	fail "--batch larger than the log changed the report"
"$AVCDOCTOR" analyze --json -p "$POLICY" "$crafted" >"$TMP/whole.jsonl" 2>/dev/null
expect_status 0 "analyze in batches of 2" -- "$AVCDOCTOR" analyze --json --batch 2 -p "$POLICY" "$crafted"
cp "$TMP/out" "$TMP/b2.jsonl"
expect_grep " (written in [0-9]* batches of at most 2 alerts: a signature may have more than one alert)" \
	"$TMP/err" "the summary says the alerts were written in batches"
python3 - "$TMP/whole.jsonl" "$TMP/b2.jsonl" <<'PY' && pass "batches of 2 lose no record" || fail "batches of 2"
import json, sys, collections
whole = [json.loads(l) for l in open(sys.argv[1])]
parts = [json.loads(l) for l in open(sys.argv[2])]
assert len(whole) > 2 and len(parts) >= len(whole), (len(whole), len(parts))
count = collections.Counter()
for a in parts:
    count[a["id"]] += a["count"]
assert count == collections.Counter({a["id"]: a["count"] for a in whole}), "counts by signature differ"
# the first batch holds the first two signatures of the log, as the whole report does
assert [a["id"] for a in parts[:2]] == [a["id"] for a in whole[:2]]
PY
expect_status 1 "--batch 0 is a usage error" -- "$AVCDOCTOR" analyze --batch 0 -p "$POLICY" "$httpd"
expect_grep "^avcdoctor: analyze: --batch: " "$TMP/err" "--batch 0 says what is wrong"

# an overview over many batches: the reports wait for it in a temporary file
# (beyond 16 MiB of them) and follow it whole
python3 "$AD_SOURCE_DIR/bench/distinct.py" 7000 "$POLICY" >"$TMP/distinct.log"
"$AVCDOCTOR" analyze --summary --level all --json --batch 1500 -p "$POLICY" "$TMP/distinct.log" \
	>"$TMP/many.jsonl" 2>"$TMP/many.err"
python3 - "$TMP/many.jsonl" <<'PY' && pass "an overview of 5 batches and 7,000 alerts precedes them all" ||
import json, os, sys
assert os.path.getsize(sys.argv[1]) > 16 << 20, "the reports did not outgrow memory"
lines = [json.loads(l) for l in open(sys.argv[1])]
s, alerts = lines[0], lines[1:]
assert s["type"] == "summary" and s["alerts"] == len(alerts) == 7000, (s["alerts"], len(alerts))
assert s["records"] == sum(a["count"] for a in alerts) == 7000
assert len({a["id"] for a in alerts}) == 7000
PY
	fail "overview over batches"
expect_grep "^7000 denial records in 7000 alerts (written in 5 batches of at most 1500 alerts" \
	"$TMP/many.err" "the summary counts the batches"
# systemd's USER_AVC for a unit (class service, path=): a unit file written in a home
# directory and moved into /etc/systemd/system is relabelled, not allowed by a module
printf '%s\n' "type=USER_AVC msg=audit(1700000010.100:120): pid=1 uid=0 auid=4294967295 ses=4294967295 subj=system_u:system_r:init_t:s0 msg='avc:  denied  { start } for auid=0 uid=0 gid=0 path=\"/etc/systemd/system/foo.service\" cmdline=\"/usr/bin/systemctl start foo\" scontext=system_u:system_r:init_t:s0 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=service exe=\"/usr/lib/systemd/systemd\" sauid=0 hostname=? addr=? terminal=?'" >"$TMP/unit.log"
expect_status 0 "analyze a systemd unit denial" -- "$AVCDOCTOR" analyze --json -p "$POLICY" "$TMP/unit.log"
python3 - "$TMP/out" <<'PY' && pass "a unit file with a home label: restorecon on it first, proved" || fail "unit file: $(cat "$TMP/out")"
import json, sys
o = json.loads(open(sys.argv[1]).readline())
s = o["suggestions"][0]
assert s["commands"] == [["restorecon", "-v", "--", "/etc/systemd/system/foo.service"]], s
assert s["verified"] is True, s
PY
finish
