#!/bin/bash
# avcdoctor-fixit on a private system bus with the project's bus policy
# (fixit/org.avcdoctor.Fixit1.conf), started by D-Bus activation, with
# python3-dbusmock's polkitd as polkit.  The store is the dispatcher's,
# filled from a log whose denial names a mislabelled file in a temporary
# directory (a test file_contexts says what its label should be).
# - root applies the restorecon fix through Apply and through Cockpit's
#   run_fix: the real restorecon (it changes no label without an SELinux
#   kernel; the label change cannot be seen here), the time of the fix in
#   the store, a log line with the caller;
# - the exact argv, stdin and environment of what runs, through a recording
#   program (--bin-dir, which only a helper run from the build tree honours);
# - an unprivileged caller without authorisation is refused, with it allowed;
# - hostile paths reach argv only as one argument after "--";
# - unknown id, malformed id, index out of range, a program not allow-listed,
#   a fix the current policy no longer proves, a timeout, a helper killed
#   mid-fix: each an error and no change.
# Needs root (exit 77 = skipped otherwise).
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
FIXIT="$AD_BUILD_DIR/bin/avcdoctor-fixit"
NAME=org.avcdoctor.Fixit1
OBJ=/org/avcdoctor/Fixit1
SR_NAME=org.fedoraproject.SetroubleshootFixit
SR_OBJ=/org/fedoraproject/SetroubleshootFixit/object
PY=/usr/bin/python3

if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root (runuser, the helper runs commands as root)"
	exit 77
fi
for p in dbus-daemon gdbus busctl runuser sqlite3 "$PY"; do
	command -v "$p" >/dev/null || { echo "skipped: no $p"; exit 77; }
done
"$PY" -c 'import dbusmock' 2>/dev/null || { echo "skipped: no python3-dbusmock"; exit 77; }
id nobody >/dev/null || { echo "skipped: no user nobody"; exit 77; }

pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
chmod 755 "$TMP"

# --- the alerts: a mislabelled file, and one whose path is hostile ------------------
WWW=$TMP/www
mkdir -p "$WWW" "$TMP/rules" "$TMP/store" "$TMP/services"
chmod 700 "$TMP/store"
echo hello >"$WWW/index.html"
PWNED=ad-pwned-$$
HOSTILE="$WWW/-rf \$(touch $PWNED); x"
echo evil >"$HOSTILE"
# everything else is default_t (the later, more specific entry wins): a file
# under $TMP/data gets a file context and restorecon
printf '/.*\tsystem_u:object_r:default_t:s0\n%s(/.*)?\tsystem_u:object_r:httpd_sys_content_t:s0\n' \
	"$WWW" >"$TMP/file_contexts"
mkdir "$TMP/data"
echo data >"$TMP/data/index.html"
hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n' | tr a-f A-F; }
{
	printf 'type=AVC msg=audit(1700000000.000:100): avc:  denied  { read } for  pid=42 comm="httpd" path="%s" dev="vda" ino=11 scontext=system_u:system_r:httpd_t:s0 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file permissive=0\n' "$WWW/index.html"
	printf 'type=AVC msg=audit(1700000001.000:101): avc:  denied  { read } for  pid=42 comm="httpd" path=%s dev="vda" ino=12 scontext=system_u:system_r:httpd_t:s0 tcontext=unconfined_u:object_r:var_t:s0 tclass=file permissive=0\n' "$(hex "$HOSTILE")"
	printf 'type=AVC msg=audit(1700000002.000:102): avc:  denied  { read } for  pid=42 comm="httpd" path="%s" dev="vda" ino=13 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:default_t:s0 tclass=file permissive=0\n' "$TMP/data/index.html"
} >"$TMP/denials.log"

fix_dispatch_conf none
"$DISPATCH" --config "$TMP/d.conf" <"$TMP/denials.log" >"$TMP/dispatch.out" 2>&1 ||
	{ fail "the dispatcher could not fill the store"; cat "$TMP/dispatch.out" >&2; finish; }
"$AVCDOCTOR" list --db "$TMP/store/alerts.db" --json >"$TMP/alerts.jsonl" 2>/dev/null
# the ids of the two alerts, the index of their restorecon suggestion, the module's
read -r ID IDX HID HIDX MID MIDX FID FIDX < <("$PY" - "$TMP/alerts.jsonl" "$WWW" <<'PY'
import json, sys
out = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    for i, s in enumerate(o["suggestions"]):
        if [c[:2] for c in s["commands"]] == [["semanage", "fcontext"], ["restorecon", "-R"]]:
            out["fcontext"] = (o["id"], i)
        if s["commands"] and s["commands"][0][0] == "restorecon":
            key = "good" if s["commands"][0][-1].endswith("index.html") else "hostile"
            out[key] = (o["id"], i)
        # a one-click local module, of whichever alert the ranking gives one
        if (s["commands"] and s["commands"][0][0] == "avcdoctor" and
                s.get("apply") == "one-click" and "module" not in out):
            out["module"] = (o["id"], i)
print(*out["good"], *out["hostile"], *out["module"], *out.get("fcontext", ("", "")))
PY
)
if [ -n "${ID:-}" ] && [ -n "${HID:-}" ] && [ -n "${MIDX:-}" ] && [ -n "${FIDX:-}" ]; then
	pass "the store has both alerts with a restorecon fix ($ID #$IDX, $HID #$HIDX)"
	pass "and one whose fix is semanage fcontext, then restorecon ($FID #$FIDX)"
else
	fail "no restorecon suggestion in the store:"; head -c 2000 "$TMP/alerts.jsonl" >&2; finish
fi
DB=$TMP/store/alerts.db
fix_applied() {	# ID: the stored time of the applied fix, or nothing
	sqlite3 "$DB" "SELECT fix_applied FROM alerts WHERE id = '$1'"
}

# --- the bus: the project's policy, polkit's mock, activation of the helper ----------
bus_config "$TMP/sys.conf" "$TMP/sys.sock" "<include>$AD_SOURCE_DIR/fixit/org.avcdoctor.Fixit1.conf</include>
  <servicedir>$TMP/services</servicedir>
  <policy user=\"root\">
    <allow own=\"org.freedesktop.PolicyKit1\"/>
    <allow send_destination=\"org.freedesktop.PolicyKit1\"/>
  </policy>"
dbus-daemon --config-file="$TMP/sys.conf" --nofork --nopidfile >"$TMP/bus.log" 2>&1 &
pids+=($!)
wait_for 5 "bus listening" -- test -S "$TMP/sys.sock" || finish
ADDR="unix:path=$TMP/sys.sock"
export DBUS_SYSTEM_BUS_ADDRESS=$ADDR
"$PY" -m dbusmock --template polkitd --system >"$TMP/polkitd.log" 2>&1 &
pids+=($!)
wait_for 10 "polkit's mock on the bus" -- busctl --address="$ADDR" status org.freedesktop.PolicyKit1 ||
	finish
polkit_allow() {	# ACTION...: what the mock authorises from now on
	local list
	list=$(printf '"%s",' "$@")
	gdbus call --system --dest org.freedesktop.PolicyKit1 \
		--object-path /org/freedesktop/PolicyKit1/Authority \
		--method org.freedesktop.DBus.Mock.SetAllowed "[${list%,}]" >/dev/null
}

# service files: the helper with the real programs, started by the bus
for n in "$NAME" "$SR_NAME"; do
	cat >"$TMP/services/$n.service" <<EOF
[D-BUS Service]
Name=$n
Exec=$FIXIT --config $TMP/d.conf --idle 3 --log-stderr
User=root
EOF
done
kill -HUP "${pids[0]}"	# the bus reads its service directory again
activatable() { gdbus call --address "$ADDR" --dest org.freedesktop.DBus \
	--object-path /org/freedesktop/DBus --method org.freedesktop.DBus.ListActivatableNames |
	grep -q "'$1'"; }
for n in "$NAME" "$SR_NAME"; do
	wait_for 10 "the bus can start $n" -- activatable "$n" || finish
done

# digest ID INDEX: the digest of the stored commands, as the browser and the
# notifier compute it of the commands they show (client/fix-rule.c)
digest() {
	sqlite3 "$DB" "SELECT json_extract(analysis, '\$.suggestions[$2].commands') FROM alerts
		WHERE id = '$1'" | "$PY" -c '
import hashlib, json, sys
h = hashlib.sha256()
for c in json.loads(sys.stdin.read() or "[]"):
    h.update(b"%d\n" % len(c))
    for a in c:
        b = a.encode()
        h.update(b"%d:" % len(b) + b)
print(h.hexdigest())'
}
# local_id ID: the local id Cockpit reads (get_alert), as the store makes it
local_id() {
	sqlite3 "$DB" "SELECT id || '-' || num || CASE WHEN analysis_gen > 1
		THEN '.' || analysis_gen ELSE '' END FROM alerts WHERE id = '$1'"
}

# apply [-u USER] METHOD ARGS...: gdbus (prints D-Bus error names) on the helper;
# Apply ID INDEX gets the digest of the stored commands, as if they were shown
apply() {
	local user=() dest=$NAME obj=$OBJ iface=$NAME
	if [ "$1" = -u ]; then user=(runuser -u "$2" --); shift 2; fi
	if [ "$1" = run_fix ]; then dest=$SR_NAME obj=$SR_OBJ iface=$SR_NAME; fi
	local m=$1
	shift
	if [ "$m" = Apply ] && [ $# = 2 ]; then set -- "$1" "$2" "$(digest "$1" "$2")"; fi
	timeout 60 "${user[@]}" env DBUS_SYSTEM_BUS_ADDRESS="$ADDR" gdbus call --system \
		--dest "$dest" --object-path "$obj" --method "$iface.$m" "$@"
}

# --- root, the real restorecon, through activation -------------------------------------
apply Apply "$ID" "$IDX" >"$TMP/out" 2>&1
expect_grep "^('" "$TMP/out" "root applies the restorecon fix through Apply (activated)"
[ -n "$(fix_applied "$ID")" ] && pass "the store notes when the fix was applied" ||
	fail "no fix_applied in the store"
"$AVCDOCTOR" show --db "$DB" --json "$ID" >"$TMP/show.json" 2>/dev/null
expect_grep '"fix_applied"' "$TMP/show.json" "show --json gives fix_applied"
before=$(fix_applied "$ID")
sleep 1.1
LID=$(local_id "$ID")
apply run_fix "$LID" "$IDX" >"$TMP/out" 2>&1
expect_grep "^('" "$TMP/out" "root applies it again through Cockpit's run_fix"
[ "$(fix_applied "$ID")" != "$before" ] && pass "run_fix updates the time of the fix" ||
	fail "run_fix did not note the fix"
busctl --address="$ADDR" status "$SR_NAME" >/dev/null 2>&1 &&
	pass "one helper owns both names" || fail "$SR_NAME is not owned"
wait_for 10 "the helper exits when idle" -- sh -c \
	"! busctl --address=$ADDR status $NAME" && pass "the helper exits after --idle"
grep -q "uid 0 (pid [0-9]*) applied suggestion $IDX of alert $ID (digest $(digest "$ID" "$IDX")): restorecon -v -- " \
	"$TMP/bus.log" && pass "the applied fix is logged with the caller, the digest and the command" ||
	fail "no log line of the applied fix: $(grep fixit "$TMP/bus.log" | head -3)"

# --- the unprivileged caller ------------------------------------------------------------
apply -u nobody Apply "$ID" "$IDX" >"$TMP/out" 2>&1
expect_grep "org.avcdoctor.Fixit1.Error.NotAuthorized" "$TMP/out" \
	"an unprivileged caller without authorisation is refused (Apply)"
apply -u nobody run_fix "$LID" "$IDX" >"$TMP/out" 2>&1
expect_grep "org.avcdoctor.Fixit1.Error.NotAuthorized" "$TMP/out" \
	"an unprivileged caller without authorisation is refused (run_fix)"
polkit_allow org.avcdoctor.fix
apply -u nobody run_fix "$LID" "$IDX" >"$TMP/out" 2>&1
expect_grep "NotAuthorized.*org.fedoraproject.setroubleshootfixit.write" "$TMP/out" \
	"run_fix asks for setroubleshoot's action, not avcdoctor's"
apply -u nobody Apply "$ID" "$IDX" >"$TMP/out" 2>&1
expect_grep "^('" "$TMP/out" "with org.avcdoctor.fix authorised, the caller may Apply"
grep -q "uid 65534 (pid [0-9]*) applied suggestion" "$TMP/bus.log" &&
	pass "the log names the unprivileged caller" || fail "no log line with uid 65534"
polkit_allow

# --- the recording program: exactly what runs -----------------------------------------
# the helper is started by hand from here on, with a directory of fake programs
mkdir -p "$TMP/bin" "$TMP/slow"
cat >"$TMP/bin/restorecon" <<EOF
#!/bin/sh
n=\$(ls $TMP/calls 2>/dev/null | grep -c argv)
mkdir -p $TMP/calls
printf '%s\0' "\$@" >"$TMP/calls/\$n.argv"
env >"$TMP/calls/\$n.env"
readlink /proc/self/fd/0 >"$TMP/calls/\$n.stdin"
echo "relabeled \$3"
EOF
cat >"$TMP/slow/restorecon" <<EOF
#!/bin/sh
echo started
sleep 3
touch $TMP/changed
EOF
chmod 755 "$TMP/bin/restorecon" "$TMP/slow/restorecon"
rm -f "$TMP/services/"*.service
kill -HUP "${pids[0]}"
wait_for 10 "the activated helper exits when idle" -- sh -c "! busctl --address=$ADDR status $NAME"
FPID=
start_fixit() {	# BIN-DIR [OPTIONS...]: the helper by hand; sets FPID
	"$FIXIT" --config "$TMP/d.conf" --idle 60 --log-stderr --bin-dir "$@" \
		>>"$TMP/fixit.log" 2>&1 &
	FPID=$!
	pids+=("$FPID")
	wait_for 10 "the helper owns $NAME" -- busctl --address="$ADDR" status "$NAME"
	# the commands below must reach this helper, never one with the real programs
	local owner
	owner=$(gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
		--method org.freedesktop.DBus.GetConnectionUnixProcessID "$NAME" | sed "s/.*uint32 \([0-9]*\).*/\1/")
	[ "$owner" = "$FPID" ] || { fail "$NAME is owned by pid $owner, not $FPID"; finish; }
}
stop_fixit() {
	kill "$FPID" 2>/dev/null
	wait "$FPID" 2>/dev/null
}
start_fixit "$TMP/bin"
calls() { ls "$TMP/calls" 2>/dev/null | grep -c argv; }

apply Apply "$ID" "$IDX" >"$TMP/out" 2>&1
expect_grep "relabeled" "$TMP/out" "Apply returns the command's output"
"$PY" - "$TMP/calls/0.argv" "$WWW/index.html" <<'PY' && pass "the exact argv: restorecon -v -- PATH" ||
import sys
got = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
assert got == [b"-v", b"--", sys.argv[2].encode()], got
PY
	fail "restorecon's argv: $(tr '\0' ' ' <"$TMP/calls/0.argv")"
expect_grep "^/dev/null$" "$TMP/calls/0.stdin" "stdin is /dev/null"
env_keys=$(cut -d= -f1 "$TMP/calls/0.env" | grep -v '^PWD$\|^SHLVL$\|^_$' | sort | tr '\n' ' ')
[ "$env_keys" = "LC_ALL PATH " ] && pass "a clean environment (PATH, LC_ALL)" ||
	fail "environment: $env_keys"

# the hostile path: one argument after "--"; no shell ran it
apply Apply "$HID" "$HIDX" >"$TMP/out" 2>&1
expect_grep "^('" "$TMP/out" "the hostile path's fix is applied"
"$PY" - "$TMP/calls/1.argv" "$HOSTILE" <<'PY' && pass "the hostile path is one argument after --" ||
import sys
got = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
assert got == [b"-v", b"--", sys.argv[2].encode()], got
PY
	fail "hostile argv: $(tr '\0' '|' <"$TMP/calls/1.argv")"
[ ! -e "/$PWNED" ] && [ ! -e "$WWW/$PWNED" ] && [ ! -e "$PWNED" ] && pass "nothing in the path was run" || fail "the hostile path ran"

# a local module: built by the helper from the alert (the real checkmodule and
# semodule_package), loaded by (the recording) semodule -i from the helper's directory
ln -s /usr/bin/checkmodule /usr/bin/semodule_package "$TMP/bin/"
# the installed modules, as semodule lists them, come from $TMP/modules.list
cat >"$TMP/bin/semodule" <<EOF
#!/bin/sh
if [ "\$1" = --list-modules=full ]; then cat "$TMP/modules.list" 2>/dev/null; exit 0; fi
printf '%s\0' "\$@" >"$TMP/semodule.argv"
for a; do case \$a in *.pp) cp "\$a" "$TMP/loaded.pp" ;; esac; done
EOF
chmod 755 "$TMP/bin/semodule"
apply Apply "$MID" "$MIDX" >"$TMP/out" 2>&1
expect_grep "^('" "$TMP/out" "a module fix: built from the alert and loaded"
"$PY" - "$TMP/semodule.argv" <<'PY' && pass "semodule -X 300 -i gets the module the helper built" ||
import re, sys
got = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
assert got[:3] == [b"-X", b"300", b"-i"] and len(got) == 4, got
assert re.match(rb"^/tmp/avcdoctor-fixit-\w+/avcdoctor_httpd_[0-9a-f]{8}\.pp$", got[3]), got
PY
	fail "semodule argv: $(tr '\0' ' ' <"$TMP/semodule.argv" 2>/dev/null)"
[ -s "$TMP/loaded.pp" ] && pass "the module package existed when semodule ran" ||
	fail "no module package"
grep -a -q "httpd_t" "$TMP/loaded.pp" && pass "the package holds the alert's types" ||
	fail "the package lacks httpd_t"
ls -d /tmp/avcdoctor-fixit-* >/dev/null 2>&1 && fail "the module directory was left behind" ||
	pass "the module directory is removed"
MOD=$(sqlite3 "$DB" "SELECT name || ' ' || alert FROM fix_modules")
# named after its alert: the domain, then the alert id's first 8 characters
MNAME="avcdoctor_httpd_$(printf %.8s "$MID")"
[ "$MOD" = "$MNAME $MID" ] && pass "the store notes the module the helper loaded, for its alert" ||
	fail "fix_modules: $MOD"
# the module installed now (at priority 300, where the helper put it): the
# same alert's fix may load it again
printf '100 apache           pp\n300 %s         pp\n' "$MNAME" >"$TMP/modules.list"
rm -f "$TMP/semodule.argv"
apply Apply "$MID" "$MIDX" >"$TMP/out" 2>&1
expect_grep "^('" "$TMP/out" "a module the helper loaded for this alert is loaded again"
# one the helper did not load for this alert is never replaced: another
# alert's (at 300 too), an administrator's or the distribution's
sqlite3 "$DB" "UPDATE fix_modules SET alert = '0123456789abcdef'"
rm -f "$TMP/semodule.argv"
apply Apply "$MID" "$MIDX" >"$TMP/out" 2>&1
expect_grep "Error.NotAllowed.*$MNAME is installed already (300 $MNAME" "$TMP/out" \
	"another alert's module of that name at priority 300 is not replaced"
[ ! -e "$TMP/semodule.argv" ] && pass "semodule -i did not run" || fail "semodule -i ran"
sqlite3 "$DB" "DELETE FROM fix_modules"
printf '400 %s         cil\n' "$MNAME" >"$TMP/modules.list"
apply Apply "$MID" "$MIDX" >"$TMP/out" 2>&1
expect_grep "Error.NotAllowed.*$MNAME is installed already (400 $MNAME  *cil)" "$TMP/out" \
	"an administrator's module of that name is not replaced"
[ ! -e "$TMP/semodule.argv" ] && pass "semodule -i did not run" || fail "semodule -i ran"
rm -f "$TMP/modules.list"

# --- errors, each without a change ----------------------------------------------------
n0=$(calls)
t0=$(fix_applied "$ID")
expect_error() {	# NAME DESCRIPTION -- ARGS...: an error NAME and nothing ran
	local want=$1 desc=$2
	shift 3
	apply "$@" >"$TMP/out" 2>&1
	if grep -q "$want" "$TMP/out" && ! grep -q "^('" "$TMP/out"; then pass "$desc: $want"; else
		fail "$desc: $(head -3 "$TMP/out")"; fi
	[ "$(calls)" = "$n0" ] || fail "$desc: a command ran"
}
expect_error Error.NotFound "an unknown alert id" -- Apply 0123456789abcdef 0 x
expect_error Error.InvalidArgs "a malformed alert id" -- Apply "../$ID" 0 x
expect_error Error.InvalidArgs "an index out of range" -- Apply "$ID" 99 x
expect_error Error.InvalidArgs "run_fix with an analysis_id that is no index" -- run_fix "$LID" "0; rm"
expect_error Error.InvalidArgs "run_fix with an index out of range" -- run_fix "$LID" 42
# reviewed = applied: Apply carries the digest of the commands shown
expect_error Error.InvalidArgs "Apply without the digest of the commands shown" -- Apply "$ID" "$IDX" ""
expect_error Error.Changed "Apply with the digest of other commands" -- \
	Apply "$ID" "$IDX" "$(digest "$HID" "$HIDX")"
expect_error Error.InvalidArgs "run_fix with the alert id, not a local id" -- run_fix "$ID" "$IDX"
# Cockpit names alerts by local id (ID-NUMBER: one life of the alert)
expect_error Error.NotFound "run_fix with the local id of another life of the alert" -- run_fix "$ID-999" "$IDX"
expect_error Error.InvalidArgs "run_fix with a malformed local id" -- run_fix "$ID-x" "$IDX"

# after a policy load the dispatcher analyses a recurrence afresh and the store
# replaces the alert's analysis (here by hand: another fix, a new generation).
# The local id Cockpit read names the earlier analysis: refused, nothing runs.
cp "$DB" "$TMP/db.gen"
sqlite3 "$DB" "UPDATE alerts SET analysis = json_set(analysis,
	'\$.suggestions[$IDX].commands', json('[[\"restorecon\",\"-v\",\"--\",\"/etc/sudoers\"]]')),
	analysis_gen = analysis_gen + 1 WHERE id = '$ID'"
expect_error Error.Changed "run_fix with the local id of an earlier analysis" -- run_fix "$LID" "$IDX"
grep -q "the alert changed since you read it: reload" "$TMP/out" &&
	pass "the error says: the alert changed since you read it: reload" ||
	fail "run_fix of an earlier analysis: $(head -2 "$TMP/out")"
[ "$(local_id "$ID")" != "$LID" ] && pass "the new analysis has a new local id ($(local_id "$ID"))" ||
	fail "the local id did not change with the analysis"
expect_error Error.Changed "Apply with the digest of the commands shown before the change" -- \
	Apply "$ID" "$IDX" "$(DB=$TMP/db.gen digest "$ID" "$IDX")"
cp "$TMP/db.gen" "$DB"

# stored commands the helper does not run (the store edited behind its back)
set_commands() {	# JSON: the commands of the alert's suggestion $IDX
	sqlite3 "$DB" "UPDATE alerts SET analysis = json_set(analysis,
		'\$.suggestions[$IDX].commands', json('$1')) WHERE id = '$ID'"
}
cp "$DB" "$TMP/db.orig"
for cmds in '[["rm","-rf","/"]]' "[[\"$TMP/bin/restorecon\",\"-v\",\"--\",\"/x\"]]" \
	'[["restorecon","-v","/etc/shadow"]]' '[["restorecon","-v","--","etc/shadow"]]' \
	"[[\"restorecon\",\"-v\",\"--\",\"$WWW/index.html\"],[\"sh\",\"-c\",\"id\"]]" \
	'[["semodule","-i","/tmp/evil.pp"]]' '[["semanage","login","-a","x"]]' \
	'[["setsebool","-P","httpd_x=1;id"]]'; do
	set_commands "$cmds"
	expect_error Error.NotAllowed "not allow-listed: $cmds" -- Apply "$ID" "$IDX" "$(digest "$ID" "$IDX")"
done
# a character that does not show as it is, in the text or only in the bytes
# that run (commands_hex): what is seen is not what runs, never one click
for ch in '\u202e' '\u061c' '\u00ad' '\u180e' '\u206a' '\u3164' '\ufe0f' '\udb40\udc41' \
	'\u2028' '\u00a0' '\ue000' '\u001b'; do
	set_commands "[[\"restorecon\",\"-v\",\"--\",\"$WWW/index${ch}.html\"]]"
	expect_error Error.NotAllowed "a hidden character ($ch) in a stored one-click fix" -- \
		Apply "$ID" "$IDX" "$(digest "$ID" "$IDX")"
	grep -q "not shown as it is\|cannot be shown" "$TMP/out" ||
		fail "no reason for the hidden character $ch: $(head -2 "$TMP/out")"
done
hexpath=$(printf '%s' "$WWW/index.html" | od -An -tx1 | tr -d ' \n')e280ae
sqlite3 "$DB" "UPDATE alerts SET analysis = json_set(analysis,
	'\$.suggestions[$IDX].commands', json('[[\"restorecon\",\"-v\",\"--\",\"$WWW/index.html\"]]'),
	'\$.suggestions[$IDX].commands_hex', json('[[\"726573746f7265636f6e\",\"2d76\",\"2d2d\",
	\"$hexpath\"]]')) WHERE id = '$ID'"
expect_error Error.NotAllowed "a bidi override only in the bytes that run (commands_hex)" -- \
	Apply "$ID" "$IDX" "$(digest "$ID" "$IDX")"
cp "$TMP/db.orig" "$DB"

# the store edited to call the relabel of a system file one-click: the helper
# makes the safety decision again itself, from the stored fix and the policy
sqlite3 "$DB" "UPDATE alerts SET analysis = json_set(analysis,
	'\$.suggestions[$IDX].commands', json('[[\"semanage\",\"fcontext\",\"-a\",\"-t\",
	\"httpd_sys_content_t\",\"--\",\"/etc/sudoers\"],[\"restorecon\",\"-v\",\"--\",\"/etc/sudoers\"]]'),
	'\$.suggestions[$IDX].kind', 'fcontext', '\$.suggestions[$IDX].apply', 'one-click')
	WHERE id = '$ID'"
expect_error Error.NotAllowed "a relabel of /etc/sudoers stored as one-click" -- \
	Apply "$ID" "$IDX" "$(digest "$ID" "$IDX")"
grep -q "not applied with one click: " "$TMP/out" &&
	pass "the helper's own decision says why: $(grep -o 'one click: [^.]*' "$TMP/out" | head -1)" ||
	fail "no reason from the helper's decision: $(head -2 "$TMP/out")"
cp "$TMP/db.orig" "$DB"

# another service's port stored as a one-click fix: the helper's own decision
# refuses it, naming the service that owns the port
for flag in -a -m; do
	sqlite3 "$DB" "UPDATE alerts SET analysis = json_set(analysis,
		'\$.suggestions[$IDX].commands', json('[[\"semanage\",\"port\",\"$flag\",\"-t\",
		\"http_port_t\",\"-p\",\"tcp\",\"22\"]]'),
		'\$.suggestions[$IDX].kind', 'port', '\$.suggestions[$IDX].apply', 'one-click')
		WHERE id = '$ID'"
	expect_error Error.NotAllowed "semanage port $flag of sshd's tcp/22 stored as one-click" -- \
		Apply "$ID" "$IDX" "$(digest "$ID" "$IDX")"
	grep -q "tcp/22 belongs to sshd (ssh_port_t)" "$TMP/out" &&
		pass "the helper names the port's owner" ||
		fail "no owner in the refusal: $(head -2 "$TMP/out")"
	cp "$TMP/db.orig" "$DB"
done

# the policy's view changed: the path is now to be labelled a type httpd may not read
cp "$TMP/file_contexts" "$TMP/file_contexts.orig"
printf '%s(/.*)?\tsystem_u:object_r:shadow_t:s0\n' "$WWW" >"$TMP/file_contexts"
expect_error Error.NotProved "a fix the current policy no longer proves" -- \
	Apply "$ID" "$IDX" "$(digest "$ID" "$IDX")"
cp "$TMP/file_contexts.orig" "$TMP/file_contexts"
[ "$(fix_applied "$ID")" = "$t0" ] && pass "no error changed the time of the fix" ||
	fail "an error changed fix_applied"

# a command that fails: an error with its output
cat >"$TMP/bin/setsebool" <<'EOF'
#!/bin/sh
echo "cannot set the boolean" >&2
exit 3
EOF
chmod 755 "$TMP/bin/setsebool"
set_commands '[["setsebool","-P","httpd_read_user_content=1"]]'
apply Apply "$ID" "$IDX" >"$TMP/out" 2>&1
# the boolean plugin suggests this very command for the alert: it is proved and runs
expect_grep "Error.Failed" "$TMP/out" "a command that fails: Failed"
expect_grep "cannot set the boolean" "$TMP/out" "the error carries the command's output"
[ "$(fix_applied "$ID")" = "$t0" ] && pass "a failed command notes no fix" ||
	fail "a failed command noted a fix"
# a command the analysis does not give for this alert is refused before it runs
set_commands '[["setsebool","-P","httpd_enable_cgi=1"]]'
apply Apply "$ID" "$IDX" >"$TMP/out" 2>&1
expect_grep "Error.NotProved" "$TMP/out" "a stored fix the analysis does not give again is refused"
cp "$TMP/db.orig" "$DB"
stop_fixit

# --- all or nothing: semanage fcontext -a worked, restorecon failed -> fcontext -d --------
mkdir "$TMP/undo"
cat >"$TMP/undo/semanage" <<EOF
#!/bin/sh
printf '%s\0' "\$@" >>"$TMP/semanage.calls"
printf '\n' >>"$TMP/semanage.calls"
echo "semanage \$1 \$2 done"
EOF
cat >"$TMP/undo/restorecon" <<'EOF'
#!/bin/sh
echo "restorecon: cannot relabel (disk full)" >&2
exit 1
EOF
chmod 755 "$TMP/undo/semanage" "$TMP/undo/restorecon"
start_fixit "$TMP/undo"
tf=$(fix_applied "$FID")
apply Apply "$FID" "$FIDX" >"$TMP/out" 2>&1
expect_grep "Error.Failed" "$TMP/out" "a second command that fails: Failed"
expect_grep "cannot relabel (disk full)" "$TMP/out" "the error has the failing command's output"
expect_grep "undone: semanage fcontext -d -- " "$TMP/out" "the error says the file context was taken back"
expect_grep "semanage fcontext -a done" "$TMP/out" "the error has the first command's output"
"$PY" - "$TMP/semanage.calls" "$TMP/data" <<'PY' && pass "semanage fcontext -a, then -d of the same specification" ||
import re, sys
calls = [c.split(b"\0") for c in open(sys.argv[1], "rb").read().split(b"\0\n")[:-1]]
assert len(calls) == 2, calls
add, undo = calls
assert add[:3] == [b"fcontext", b"-a", b"-t"] and add[-2] == b"--", add
assert add[-1].startswith(sys.argv[2].replace(".", "\\.").encode()), add
assert undo == [b"fcontext", b"-d", b"--", add[-1]], undo
PY
	fail "semanage calls: $(tr '\0' ' ' <"$TMP/semanage.calls" 2>/dev/null)"
[ "$(fix_applied "$FID")" = "$tf" ] && pass "a fix taken back notes no fix" ||
	fail "a fix taken back noted a fix"
# the first command fails: nothing after it runs, nothing to take back
rm -f "$TMP/semanage.calls"
printf '#!/bin/sh\necho "semanage: no such type" >&2\nexit 1\n' >"$TMP/undo/semanage"
apply Apply "$FID" "$FIDX" >"$TMP/out" 2>&1
expect_grep "Error.Failed" "$TMP/out" "a first command that fails: Failed"
expect_grep "no such type" "$TMP/out" "with its output"
grep -q "undone\|disk full" "$TMP/out" && fail "a failing first command went on or undid something" ||
	pass "a failing first command: nothing after it ran, nothing to undo"
stop_fixit

# --- the timeout, and the helper killed mid-fix -----------------------------------------
start_fixit "$TMP/slow" --timeout 1
apply Apply "$ID" "$IDX" >"$TMP/out" 2>&1
expect_grep "Error.TimedOut" "$TMP/out" "a command that runs too long: TimedOut"
expect_grep "started" "$TMP/out" "the timeout error carries the output"
# slow_gone: the slow command no longer runs, so its change can never come
slow_gone() { ! pgrep -f "^/bin/sh $TMP/slow/restorecon" >/dev/null; }
wait_for 10 "the timed-out command gone" -- slow_gone
[ ! -e "$TMP/changed" ] && pass "the timed-out command was killed before its change" ||
	fail "the timed-out command went on"
[ "$(fix_applied "$ID")" = "$t0" ] && pass "a timeout notes no fix" || fail "timeout noted a fix"
stop_fixit

start_fixit "$TMP/slow"
apply Apply "$ID" "$IDX" >"$TMP/killed.out" 2>&1 &
caller=$!
wait_for 10 "the slow command running" -- pgrep -f "^/bin/sh $TMP/slow/restorecon"
kill -KILL "$FPID"
wait "$caller"
rc=$?
[ "$rc" != 0 ] && pass "the caller of a killed helper gets an error" ||
	fail "the caller of a killed helper got success"
wait_for 10 "the command of the killed helper gone" -- slow_gone
[ ! -e "$TMP/changed" ] && pass "the helper killed mid-fix took its command along: no change" ||
	fail "the command of a killed helper went on"
[ "$(fix_applied "$ID")" = "$t0" ] && pass "a killed helper notes no fix" ||
	fail "killed helper noted a fix"

# --- the test-only option is refused outside the build tree --------------------------
cp "$FIXIT" "$TMP/avcdoctor-fixit"
"$TMP/avcdoctor-fixit" --config "$TMP/d.conf" --bin-dir "$TMP/bin" --log-stderr \
	>"$TMP/copy.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "refused" "$TMP/copy.out" &&
	pass "--bin-dir is refused by a helper outside the build tree" ||
	fail "--bin-dir outside the build tree: exit $rc $(cat "$TMP/copy.out")"

if grep -E "runtime error|AddressSanitizer|CRITICAL|WARNING \*\*" "$TMP/fixit.log" "$TMP/bus.log"; then
	fail "sanitizer or GLib warnings"
fi
finish
