#!/bin/bash
# avcdoctor list | show | ignore | unignore | delete: on a store with --db
# (read-only for list and show, also as another user on a copy), escaping of
# what a record or a copied store holds, exit statuses, and the same commands
# through D-Bus: a private system bus with a stand-in for the service
# (test-store --serve) and the project's bus policy.
. "$AD_SOURCE_DIR/tests/lib.sh"
TEST_STORE="$AD_BUILD_DIR/tests/test-store"
pids=
trap 'for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

mkdir -m 700 "$TMP/store"
db="$TMP/store/alerts.db"
fill_args=()
[ -r "$POLICY" ] && fill_args=(--policy "$POLICY")

# denials whose names are hostile: an OSC title sequence in comm, a forged
# record after a newline in the path, a shell command in a file name
{
	printf 'type=AVC msg=audit(1700000500.000:900): avc:  denied  { write } for  pid=9 comm=%s path=%s dev="sda1" ino=9 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0\n' \
		"$(printf '\033]0;pwned\007' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" \
		"$(printf '/etc/x\ntype=AVC msg=audit(1.1:1): forged' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)"
	printf 'type=AVC msg=audit(1700000501.000:901): avc:  denied  { write } for  pid=9 comm="sh" path="/tmp/$(touch /tmp/pwned)" dev="sda1" ino=9 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:tmp_t:s0 tclass=file permissive=0\n'
} > "$TMP/hostile.log"

expect_status 0 "a store filled from the crafted cases" -- \
	"$TEST_STORE" --fill "$db" "${fill_args[@]}" --log "$TMP/hostile.log"

# ---- list
expect_status 0 "list --db" -- "$AVCDOCTOR" list --db "$db"
cp "$TMP/out" "$TMP/list.txt"
expect_grep '^ID  *LEVEL  *COUNT  *LAST SEEN  *HOSTS  *SUMMARY' "$TMP/list.txt" "list header"
expect_grep '^853997c3dff518a1  yellow        6  2023-11-14 22:13:22  local,web1,web2  SELinux is preventing /usr/sbin/httpd from read access on the file /etc/shadow.$' \
	"$TMP/list.txt" "list line of the shadow alert"
expect_grep '^15 alerts.$' "$TMP/list.txt" "list counts the alerts"
[ "$(grep -c '^[0-9a-f]\{16\}  ' "$TMP/list.txt")" = 15 ] || fail "list: not 15 alert lines"
if grep -q "$(printf '\033')" "$TMP/list.txt" || grep -q '^type=AVC msg=audit(1.1:1)' "$TMP/list.txt"; then
	fail "list printed a raw escape or a forged line"
else
	pass "list escapes what records hold"
fi
expect_grep 'SELinux is preventing \\x1b\]0;pwned\\x07 from write access on the file /etc/x\\ntype=AVC' \
	"$TMP/list.txt" "list shows the hostile names escaped"

expect_status 0 "list --json" -- "$AVCDOCTOR" list --db "$db" --json
cp "$TMP/out" "$TMP/list.jsonl"
expect_grep '^15 alerts.$' "$TMP/err" "list --json: the count on stderr"
python3 - "$TMP/list.jsonl" <<'PY' || fail "list --json keys and hosts"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 15, len(rows)
for o in rows:
    for k in ("id", "count", "first_seen", "last_seen", "level", "hosts", "host_counts",
              "ignored", "filter", "summary", "denial", "records", "suggestions", "notes", "paths",
              "commands"):
        assert k in o, (k, o)
    assert o["ignored"] is False and o["filter"] == "never"
by = {o["id"]: o for o in rows}
sh = by["853997c3dff518a1"]
assert sh["count"] == 6 and sh["hosts"] == ["web1", "web2"], sh
assert sh["host_counts"] == {"": 2, "web1": 2, "web2": 2}, sh["host_counts"]
assert sh["paths"] == ["/etc/shadow", "shadow"], sh["paths"]
assert sh["denial"]["node"] == "web2" and sh["records"][0].startswith("node=web2 "), sh
hostile = [o for o in rows if "pwned" in o["summary"]][0]
assert "\x1b" not in json.dumps(hostile, ensure_ascii=False), hostile
assert all("\n" not in r for r in hostile["records"])
assert hostile["paths"] == ["/etc/x\\ntype=AVC msg=audit(1.1:1): forged"], hostile["paths"]
print("ok: list --json keys, hosts, paths, escaping")
PY

# the text list: red first, then yellow, green, most denials first; JSON keeps the
# store's order (first seen first) unless --sort says otherwise; --level chooses
python3 - "$TMP/list.txt" "$TMP/list.jsonl" <<'PY' && pass "list: red first, then by level and count; JSON by time" || fail "list order"
import json, re, sys
rank = {"red": 0, "yellow": 1, "green": 2}
rows = [l.split() for l in open(sys.argv[1]) if re.match(r"^[0-9a-f]{16}  ", l)]
keys = [(rank[r[1]], -int(r[2])) for r in rows]
assert keys == sorted(keys), keys
alerts = [json.loads(l) for l in open(sys.argv[2])]
times = [a["first_seen"] for a in alerts]
assert times == sorted(times), times
assert sorted(r[0] for r in rows) == sorted(a["id"] for a in alerts)
PY
expect_status 0 "list --sort time" -- "$AVCDOCTOR" list --db "$db" --sort time
[ "$(awk '$1 ~ /^[0-9a-f]{16}$/ {print $1}' "$TMP/out")" = "$(python3 -c 'import json,sys; [print(json.loads(l)["id"]) for l in open(sys.argv[1])]' "$TMP/list.jsonl")" ] &&
	pass "list --sort time: the order of --json" || fail "list --sort time"
expect_status 0 "list --level yellow" -- "$AVCDOCTOR" list --db "$db" --level yellow
n=$(grep -c '^[0-9a-f]\{16\}  yellow ' "$TMP/out")
[ "$n" -gt 0 ] && [ "$n" = "$(grep -c '^[0-9a-f]\{16\}  ' "$TMP/out")" ] && pass "list --level yellow: $n yellow alerts only" ||
	fail "list --level yellow: $(grep -c '^[0-9a-f]\{16\}  ' "$TMP/out") lines, $n yellow"
expect_grep "^$n alerts ([0-9]* alerts of other levels not shown; --level=all shows them).$" "$TMP/out" \
	"list --level: the others are counted"
expect_status 0 "list --json --sort level --level yellow,red" -- "$AVCDOCTOR" list --db "$db" --json --sort level --level yellow,red
python3 -c 'import json,sys; l=[json.loads(x)["level"] for x in open(sys.argv[1])]; assert l and set(l) <= {"red","yellow"} and l == sorted(l, key=lambda v: v != "red"), l' "$TMP/out" &&
	pass "list --json --sort level --level: red first, no green" || fail "list --json --sort level"
expect_status 1 "list --level purple" -- "$AVCDOCTOR" list --db "$db" --level purple
expect_status 0 "list --since a time" -- "$AVCDOCTOR" list --db "$db" --since 1700000010
expect_grep '^8 alerts.$' "$TMP/out" "--since seconds"
expect_status 0 "list --since a date" -- "$AVCDOCTOR" list --db "$db" --since "2023-11-14 22:13:30"
expect_grep '^8 alerts.$' "$TMP/out" "--since YYYY-MM-DD HH:MM:SS (local time, TZ=UTC)"
expect_status 0 "list --since an age" -- "$AVCDOCTOR" list --db "$db" --since 2h
expect_grep '^0 alerts.$' "$TMP/out" "--since 2h: nothing so recent"
expect_status 1 "list --since nonsense" -- "$AVCDOCTOR" list --db "$db" --since soon
expect_grep "not a time" "$TMP/err" "--since nonsense: message"
expect_status 0 "list --host web1" -- "$AVCDOCTOR" list --db "$db" --host web1
expect_grep '^13 alerts.$' "$TMP/out" "--host web1: the crafted alerts"
expect_status 0 "list --host elsewhere" -- "$AVCDOCTOR" list --db "$db" --host elsewhere
expect_grep '^0 alerts.$' "$TMP/out" "--host elsewhere: none"

# ---- show
id=eae55f992cc44cfe
expect_status 0 "show --db" -- "$AVCDOCTOR" show --db "$db" "$id"
cp "$TMP/out" "$TMP/show.txt"
expect_grep "^Level: .*   Alert $id   Seen 3 times$" "$TMP/show.txt" "show: the level line"
expect_grep '^Hosts                  local (1), web1 (1), web2 (1)$' "$TMP/show.txt" "show: hosts with counts"
expect_grep '^Raw Audit Messages:$' "$TMP/show.txt" "show: raw records"
expect_grep '^node=web2 type=AVC msg=audit(1700000003.100:103)' "$TMP/show.txt" "show: the latest event"
if [ -r "$POLICY" ]; then
	# the fixes are the ones `avcdoctor analyze` gives for the same alert
	AVCDOCTOR_NO_PROGRESS=1 "$AVCDOCTOR" analyze -p "$POLICY" "$AD_CORPUS/$(echo crafted/debian-refpolicy-cases.log)" > "$TMP/analyze.txt" 2>/dev/null
	awk -v id="$id" '/^Level: /{on = index($0, "Alert " id " ")} on && /^Additional Information:/{on = 0} on' "$TMP/analyze.txt" | sed 1d > "$TMP/fixes-analyze.txt"
	awk -v id="$id" '/^Level: /{on = index($0, "Alert " id " ")} on && /^Additional Information:/{on = 0} on' "$TMP/show.txt" | sed 1d > "$TMP/fixes-show.txt"
	# the module command differs on purpose: a stored alert is named by its id,
	# an analysed file by the alert's filters and the file
	expect_grep "^# avcdoctor allow --alert $id --verify -M avcdoctor_httpd_${id:0:8}$" "$TMP/fixes-show.txt" \
		"show: the module command names the stored alert"
	expect_grep "^# avcdoctor allow --source httpd_t --target user_home_t --class file --perm read --verify -M avcdoctor_httpd_${id:0:8} -- " \
		"$TMP/fixes-analyze.txt" "analyze: the module command names the alert's access and the file"
	sed -i '/^# avcdoctor allow /d' "$TMP/fixes-analyze.txt" "$TMP/fixes-show.txt"
	if [ -s "$TMP/fixes-show.txt" ] && diff -u "$TMP/fixes-analyze.txt" "$TMP/fixes-show.txt" >&2; then
		pass "show gives the fixes analyze gives"
	else
		fail "show and analyze differ in their fixes"
	fi
	expect_grep '^# setsebool -P httpd_read_user_content=1$' "$TMP/show.txt" "show: the boolean fix"
fi
hostile_id=$(python3 -c 'import json,sys; print([o["id"] for o in map(json.loads, open(sys.argv[1])) if "pwned" in o["summary"]][0])' "$TMP/list.jsonl")
expect_status 0 "show of the hostile alert" -- "$AVCDOCTOR" show --db "$db" "$hostile_id"
if grep -q "$(printf '\033')" "$TMP/out" || grep -q '^type=AVC msg=audit(1.1:1)' "$TMP/out"; then
	fail "show printed a raw escape or a forged line"
else
	pass "show escapes what records hold"
fi
shell_id=$(python3 -c 'import json,sys; print([o["id"] for o in map(json.loads, open(sys.argv[1])) if "touch" in o["summary"]][0])' "$TMP/list.jsonl")
expect_status 0 "show of the shell-named file" -- "$AVCDOCTOR" show --db "$db" "$shell_id"
[ -e /tmp/pwned ] && fail "something ran the file name"
expect_status 0 "show --json" -- "$AVCDOCTOR" show --db "$db" --json "$id"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["id"]==sys.argv[2] and o["count"]==3' \
	"$TMP/out" "$id" && pass "show --json: one object" || fail "show --json"

# ---- usage and ids
expect_status 1 "show without an ID" -- "$AVCDOCTOR" show --db "$db"
expect_status 1 "show with two IDs" -- "$AVCDOCTOR" show --db "$db" "$id" "$id"
expect_status 1 "list with an argument" -- "$AVCDOCTOR" list --db "$db" extra
expect_status 1 "show of a bad ID" -- "$AVCDOCTOR" show --db "$db" "$(printf '\033[31mX')"
expect_grep 'is not an alert id' "$TMP/err" "bad ID: message"
grep -q "$(printf '\033')" "$TMP/err" && fail "the bad ID was echoed raw"
for bad in 0123456789ABCDEF 0123456789abcde 0123456789abcdef0 "'; DROP TABLE alerts; --"; do
	expect_status 1 "ignore of bad ID $bad" -- "$AVCDOCTOR" ignore --db "$db" "$bad"
done
expect_status 1 "show of an unknown ID" -- "$AVCDOCTOR" show --db "$db" 0123456789abcdef
expect_grep 'no alert 0123456789abcdef' "$TMP/err" "unknown ID: message"
expect_status 0 "list --help" -- "$AVCDOCTOR" list --help
expect_grep '[-]-since' "$TMP/out" "list --help names --since"
expect_status 0 "show --version" -- "$AVCDOCTOR" show --version

# ---- ignore, unignore, delete
expect_status 0 "ignore" -- "$AVCDOCTOR" ignore --db "$db" "$id"
expect_status 0 "list after ignore" -- "$AVCDOCTOR" list --db "$db"
grep -q "^$id " "$TMP/out" && fail "an ignored alert is listed"
expect_grep '^14 alerts (1 ignored alert not shown; --all shows it).$' "$TMP/out" "list says what it hid"
expect_status 0 "list --all" -- "$AVCDOCTOR" list --db "$db" --all
expect_grep "^$id .*(ignored) SELinux is preventing httpd" "$TMP/out" "list --all marks it"
expect_status 0 "show of an ignored alert" -- "$AVCDOCTOR" show --db "$db" "$id"
expect_grep '^Your Filter            always ignored (ignored now)$' "$TMP/out" "show says it is ignored"
expect_status 0 "unignore" -- "$AVCDOCTOR" unignore --db "$db" "$id"
expect_status 0 "list after unignore" -- "$AVCDOCTOR" list --db "$db"
expect_grep "^$id " "$TMP/out" "listed again"
expect_status 0 "ignore --after-first" -- "$AVCDOCTOR" ignore --after-first --db "$db" "$id"
expect_status 0 "list --json --all after ignore --after-first" -- "$AVCDOCTOR" list --db "$db" --json --all
python3 -c '
import json, sys
o = [o for o in map(json.loads, open(sys.argv[1])) if o["id"] == sys.argv[2]][0]
assert o["filter"] == "after_first" and o["ignored"] is True, o   # seen 3 times
' "$TMP/out" "$id" && pass "after_first: ignored once seen again" || fail "after_first"
expect_status 0 "delete" -- "$AVCDOCTOR" delete --db "$db" "$id"
expect_status 1 "show of a deleted alert" -- "$AVCDOCTOR" show --db "$db" "$id"
expect_status 1 "delete twice" -- "$AVCDOCTOR" delete --db "$db" "$id"
expect_status 0 "list after delete" -- "$AVCDOCTOR" list --db "$db"
expect_grep '^14 alerts.$' "$TMP/out" "one alert fewer"

# ---- invalid UTF-8 in node= and a path: list/show --json stay valid UTF-8
udb="$TMP/store/utf8.db"
expect_status 0 "a store filled with invalid UTF-8" -- \
	"$TEST_STORE" --fill "$udb" "${fill_args[@]}" --log "$AD_SOURCE_DIR/tests/data/hostile/invalid-utf8-node.log"
expect_status 0 "list --json, invalid UTF-8" -- "$AVCDOCTOR" list --db "$udb" --json
python3 - "$TMP/out" <<'PY' || fail "list --json: invalid UTF-8 carried in *_hex"
import json, sys
alerts = [json.loads(l.decode("utf-8")) for l in open(sys.argv[1], "rb")]  # strict UTF-8
a = [a for a in alerts if a.get("hosts_hex")]
assert any(b"web\xff1".hex() in x["hosts_hex"] for x in a), a
assert any("web\\xff1" in x["host_counts"] for x in a), a
print("ok: hosts of list --json")
PY
uid=$(python3 -c 'import json,sys; print([o["id"] for o in map(json.loads, open(sys.argv[1])) if "web\\xff1" in o["hosts"]][0])' "$TMP/out")
expect_status 0 "show --json, invalid UTF-8" -- "$AVCDOCTOR" show --db "$udb" --json "$uid"
python3 -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$TMP/out" \
	&& pass "show --json is valid UTF-8" || fail "show --json is not valid UTF-8"

# ---- stores that are missing, unsafe, damaged, copied
expect_status 2 "list of a missing store" -- "$AVCDOCTOR" list --db "$TMP/none/alerts.db"
expect_grep 'no alert store at' "$TMP/err" "missing store: message"
expect_status 2 "delete in a missing store" -- "$AVCDOCTOR" delete --db "$TMP/store/none.db" "$id"
[ -e "$TMP/store/none.db" ] && fail "delete created a store"
ln -s "$db" "$TMP/store/link.db"
expect_status 2 "list through a symlink" -- "$AVCDOCTOR" list --db "$TMP/store/link.db"
expect_grep 'symbolic link' "$TMP/err" "symlink: message"
head -c 8192 /dev/zero | tr '\0' 'x' > "$TMP/store/garbage.db"
expect_status 2 "list of a damaged store" -- "$AVCDOCTOR" list --db "$TMP/store/garbage.db"
expect_grep 'damaged' "$TMP/err" "damaged store: message"
[ -e "$TMP/store/garbage.db" ] || fail "a reader moved a damaged store"
# a mistyped --db to a file that is not a store: refused, left exactly as it was
cp "$AD_SOURCE_DIR/tests/data/hostile/passwd-not-a-store" "$TMP/store/passwd"
chmod 644 "$TMP/store/passwd"
: > "$TMP/store/empty"
for f in passwd empty garbage.db; do
	for cmd in ignore unignore delete; do
		expect_status 2 "$cmd --db $f" -- "$AVCDOCTOR" $cmd --db "$TMP/store/$f" 853997c3dff518a1
	done
done
expect_grep 'not an alert store: nothing was changed' "$TMP/err" "not a store: message"
cmp -s "$AD_SOURCE_DIR/tests/data/hostile/passwd-not-a-store" "$TMP/store/passwd" \
	&& pass "passwd-like file unchanged" || fail "the passwd-like file was changed"
[ "$(stat -c %a "$TMP/store/passwd")" = 644 ] && pass "its mode unchanged" || fail "its mode was changed"
[ -s "$TMP/store/empty" ] && fail "an empty file was made a store" || pass "empty file left empty"
ls "$TMP/store" | grep -q corrupt && fail "a file was moved aside" || pass "nothing moved aside"
if command -v sqlite3 >/dev/null; then
	# a copied store is input too: what it holds is escaped
	cp "$db" "$TMP/store/evil.db"
	# the summary as text (an alert stored before texts were messages) ...
	sqlite3 "$TMP/store/evil.db" "UPDATE alerts SET summary = char(27) || ']0;owned' || char(7) || 'x',
		analysis = json_remove(analysis, '$.summary_msg') WHERE id = '853997c3dff518a1'"
	expect_status 0 "list of a doctored store" -- "$AVCDOCTOR" list --db "$TMP/store/evil.db"
	grep -q "$(printf '\033')" "$TMP/out" && fail "list printed a doctored summary raw"
	expect_grep '\\x1b\]0;owned\\x07x' "$TMP/out" "a doctored summary is escaped"
	# ... and as a message: its text, its format and its argument
	sqlite3 "$TMP/store/evil.db" "UPDATE alerts SET analysis = json_set(analysis, '$.summary_msg',
		json_array(char(27) || ']0;a', json_object('msgid', char(27) || ']0;b%s%n%99999999s',
		'args', json_array(char(7) || 'c')))) WHERE id = '853997c3dff518a1'"
	expect_status 0 "list of a store with a doctored message" -- "$AVCDOCTOR" list --db "$TMP/store/evil.db"
	grep -q "$(printf '\033')" "$TMP/out" && fail "list printed a doctored message raw"
	expect_grep '\\x1b\]0;owned\\x07x' "$TMP/out" "a message that does not fit its arguments: the stored text, escaped"
	sqlite3 "$TMP/store/evil.db" "UPDATE alerts SET analysis = json_set(analysis, '$.summary_msg',
		json_array(char(27) || ']0;a', json_object('msgid', '%s%5d!', 'args', json_array(char(7) || 'c', 42))))
		WHERE id = '853997c3dff518a1'"
	expect_status 0 "show of a store with a doctored message" -- "$AVCDOCTOR" show --db "$TMP/store/evil.db" 853997c3dff518a1
	grep -q "$(printf '\033')" "$TMP/out" && fail "show printed a doctored message raw"
	expect_grep '^\\x1b\]0;a\\x07c 42!$' "$TMP/out" "a doctored message that fits: rendered, escaped"
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	# another user reads a copy in a directory it cannot write (no -shm can be made)
	mkdir -m 755 "$TMP/copy"
	cp "$db" "$TMP/copy/alerts.db"
	chmod 644 "$TMP/copy/alerts.db"
	chmod 755 "$TMP"
	expect_status 0 "list of a copy as nobody" -- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$AVCDOCTOR" list --db "$TMP/copy/alerts.db"
	expect_grep '^14 alerts.$' "$TMP/out" "the copy lists as nobody"
	expect_status 2 "delete in the copy as nobody" -- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$AVCDOCTOR" delete --db "$TMP/copy/alerts.db" 853997c3dff518a1
	expect_status 2 "list of root's 0600 store as nobody" -- setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$AVCDOCTOR" list --db "$db"
	chmod 700 "$TMP"
fi

# ---- through D-Bus
expect_status 2 "list without a system bus" -- env DBUS_SYSTEM_BUS_ADDRESS="unix:path=$TMP/no-bus" "$AVCDOCTOR" list
expect_grep 'the avcdoctor-dispatch service is not running; use --db PATH to read a store directly' "$TMP/err" "no bus: message"
if ! command -v dbus-daemon >/dev/null; then
	echo "skipped: no dbus-daemon for the D-Bus tests" >&2
	finish
fi

# start_bus NAME [POLICY-FILE]: a private system bus; sets bus
start_bus() {
	{
		echo '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">'
		echo "<busconfig><type>system</type><listen>unix:path=$TMP/$1.sock</listen><auth>EXTERNAL</auth>"
		echo '<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>'
		[ -n "${2:-}" ] && echo "<include>$2</include>"
		echo '</busconfig>'
	} > "$TMP/$1.conf"
	dbus-daemon --config-file="$TMP/$1.conf" --nofork --nopidfile >"$TMP/$1.log" 2>&1 &
	pids="$pids $!"
	for _ in $(seq 100); do [ -S "$TMP/$1.sock" ] && break; sleep 0.05; done
	bus="unix:path=$TMP/$1.sock"
}

# serve: the stand-in service over $db on $bus
serve() {
	DBUS_SYSTEM_BUS_ADDRESS="$bus" "$TEST_STORE" --serve "$db" >"$TMP/serve.out" 2>&1 &
	pids="$pids $!"
	for _ in $(seq 100); do grep -q '^serving' "$TMP/serve.out" && return 0; sleep 0.05; done
	fail "the stand-in service did not start: $(cat "$TMP/serve.out")"
}

start_bus open
export DBUS_SYSTEM_BUS_ADDRESS="$bus"
expect_status 2 "list with the service not running" -- "$AVCDOCTOR" list
# the command named once: "avcdoctor: list: ...", never "avcdoctor: avcdoctor list: ..."
expect_grep '^avcdoctor: list: the avcdoctor-dispatch service is not running; use --db PATH to read a store directly$' \
	"$TMP/err" "service not running: message"
expect_status 2 "show with the service not running" -- "$AVCDOCTOR" show 853997c3dff518a1

serve
expect_status 0 "list through D-Bus" -- "$AVCDOCTOR" list
cp "$TMP/out" "$TMP/list-bus.txt"
"$AVCDOCTOR" list --db "$db" > "$TMP/list-db.txt"
diff -u "$TMP/list-db.txt" "$TMP/list-bus.txt" >&2 && pass "the same list through D-Bus and --db" || fail "D-Bus list differs"
expect_status 0 "list --host web1 --since through D-Bus" -- "$AVCDOCTOR" list --host web1 --since 1700000010
expect_grep '^6 alerts.$' "$TMP/out" "filters travel over D-Bus"
expect_status 0 "show through D-Bus" -- "$AVCDOCTOR" show 853997c3dff518a1
cp "$TMP/out" "$TMP/show-bus.txt"
"$AVCDOCTOR" show --db "$db" 853997c3dff518a1 > "$TMP/show-db.txt"
diff -u "$TMP/show-db.txt" "$TMP/show-bus.txt" >&2 && pass "the same report through D-Bus and --db" || fail "D-Bus show differs"
expect_status 0 "ignore through D-Bus" -- "$AVCDOCTOR" ignore 853997c3dff518a1
expect_status 0 "list through D-Bus after ignore" -- "$AVCDOCTOR" list
expect_grep '(1 ignored alert not shown' "$TMP/out" "ignored through D-Bus"
expect_status 0 "unignore through D-Bus" -- "$AVCDOCTOR" unignore 853997c3dff518a1
expect_status 1 "show of an unknown ID through D-Bus" -- "$AVCDOCTOR" show 0123456789abcdef
expect_grep 'no alert 0123456789abcdef' "$TMP/err" "not found travels as such"
expect_status 1 "show of a bad ID is refused before the call" -- "$AVCDOCTOR" show nope
expect_status 0 "delete through D-Bus" -- "$AVCDOCTOR" delete 853997c3dff518a1
expect_status 1 "show after delete through D-Bus" -- "$AVCDOCTOR" show 853997c3dff518a1

# the project's bus policy: root may, others may not
policy_file="$AD_SOURCE_DIR/dispatcher/org.avcdoctor.Daemon.conf"
if [ -r "$policy_file" ] && [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	start_bus strict "$policy_file"
	export DBUS_SYSTEM_BUS_ADDRESS="$bus"
	serve
	chmod 755 "$TMP"
	expect_status 0 "root lists under the bus policy" -- "$AVCDOCTOR" list
	expect_status 2 "nobody is refused by the bus policy" -- setpriv --reuid=65534 --regid=65534 --clear-groups "$AVCDOCTOR" list
	expect_grep 'the avcdoctor-dispatch service refused' "$TMP/err" "refused: message"
	chmod 700 "$TMP"
fi
finish
