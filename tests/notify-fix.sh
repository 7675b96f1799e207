#!/bin/bash
# The notifier's "Apply the fix", end to end: Xvfb, dunst on a private
# session bus (its context menu picks "Apply the fix", so the server itself
# invokes the action), the real avcdoctor-dispatch and avcdoctor-fixit on a
# private system bus with the project's bus policies, the real notifier as
# root (polkit lets root in without asking).  The alert of a mislabelled
# file gets the action; invoking it runs exactly its restorecon command (a
# recording program from the helper's test-only --bin-dir: no SELinux
# kernel here) and a second notification says so; the pop-up shows the command
# before anything runs, and Apply carries its digest; an alert whose first fix
# the helper may not apply gets no such action.  Needs root, Xvfb, dunst
# (exit 77 = skipped otherwise).
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
NOTIFY="$AD_BUILD_DIR/bin/avcdoctor-notify"
FIXIT="$AD_BUILD_DIR/bin/avcdoctor-fixit"
NAME=org.avcdoctor.Daemon
PY=/usr/bin/python3

if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root"
	exit 77
fi
for p in Xvfb xdpyinfo dunst dunstctl dbus-daemon dbus-monitor busctl sqlite3 timeout $PY; do
	command -v "$p" >/dev/null || { echo "skipped: no $p"; exit 77; }
done
for x in "$NOTIFY" "$DISPATCH" "$FIXIT"; do
	[ -x "$x" ] || { echo "skipped: no $x"; exit 77; }
done

pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
chmod 755 "$TMP"

start_display 1024x768
start_session_bus
cat >"$TMP/pick" <<EOF
#!/bin/sh
tee -a "$TMP/menu" | grep -m1 -F "Apply the fix"
EOF
chmod +x "$TMP/pick"
cat >"$TMP/dunstrc" <<EOF
[global]
    font = DejaVu Sans 10
    width = 500
    height = 300
    dmenu = $TMP/pick
# nothing expires by itself: on a loaded machine the menu may come late
[urgency_low]
    timeout = 0
[urgency_normal]
    timeout = 0
EOF
dunst -config "$TMP/dunstrc" >"$TMP/dunst.log" 2>&1 &
pids+=($!)
wait_for 10 "dunst on the session bus" -- busctl --address="$DBUS_SESSION_BUS_ADDRESS" \
	status org.freedesktop.Notifications || finish
dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" \
	"type='method_call',interface='org.freedesktop.Notifications',member='Notify'" \
	>"$TMP/notify.mon" 2>&1 &
pids+=($!)

# --- a mislabelled file, the dispatcher, the helper with a recording restorecon ------
WWW=$TMP/www
mkdir -p "$WWW" "$TMP/rules" "$TMP/bin"
mkdir -m 700 "$TMP/store"
echo hello >"$WWW/index.html"
printf '%s(/.*)?\tsystem_u:object_r:httpd_sys_content_t:s0\n' "$WWW" >"$TMP/file_contexts"
cat >"$TMP/bin/restorecon" <<EOF
#!/bin/sh
printf '%s\0' "\$@" >"$TMP/restorecon.argv"
echo "Relabeled \$3"
EOF
chmod 755 "$TMP/bin/restorecon"
start_system_bus "<include>$AD_SOURCE_DIR/dispatcher/org.avcdoctor.Daemon.conf</include>
  <include>$AD_SOURCE_DIR/fixit/org.avcdoctor.Fixit1.conf</include>"
fix_dispatch_conf system
mkfifo "$TMP/d.in"
"$DISPATCH" --config "$TMP/d.conf" <"$TMP/d.in" >"$TMP/d.out" 2>"$TMP/d.err" &
pids+=($!)
exec {DFD}>"$TMP/d.in"
wait_for 10 "$NAME on the system bus" -- busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" \
	status "$NAME" || finish
start_fix_helper "$TMP/d.conf" "$TMP/bin"

export XDG_STATE_HOME="$TMP/state"
export NO_AT_BRIDGE=1
# its debug lines tell when it has seen a close (notifier_close_all)
G_MESSAGES_DEBUG=all "$NOTIFY" --interval 1 >"$TMP/notify.out" 2>"$TMP/notify.err" &
pids+=($!)
# listening to the daemon before the first alert comes
wait_for 10 "the notifier watching the daemon" -- grep -q "watching $NAME" "$TMP/notify.err" ||
	finish
# notify_whole: every Notify call the monitor saw is written out to its last
# argument (the timeout), so what it holds can be read
notify_whole() {
	[ "$(grep -c 'member=Notify' "$TMP/notify.mon")" = \
		"$(grep -cE '^\s*int32 -?[0-9]+\s*$' "$TMP/notify.mon")" ]
}
printf 'type=AVC msg=audit(1700000000.000:100): avc:  denied  { read } for  pid=42 comm="httpd" path="%s" dev="vda" ino=11 scontext=system_u:system_r:httpd_t:s0 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file permissive=0\n' \
	"$WWW/index.html" >&"$DFD"
wait_for 10 "the alert's notification" -- grep -q 'member=Notify' "$TMP/notify.mon" || finish
wait_for 10 "the whole Notify call" -- notify_whole
grep -A40 'member=Notify' "$TMP/notify.mon" | grep -q 'string "Apply the fix"' &&
	pass "the notification offers Apply the fix" || fail "no Apply the fix action"
# what runs as root is shown before anything runs: the exact command, escaped
grep -A40 'member=Notify' "$TMP/notify.mon" | grep -q '"Apply the fix" runs as root:' &&
	grep -A40 'member=Notify' "$TMP/notify.mon" | grep -qF "restorecon -v -- $WWW/index.html" &&
	pass "the pop-up shows the command Apply runs: restorecon -v -- $WWW/index.html" ||
	fail "the pop-up does not show the command it runs"
[ ! -e "$TMP/restorecon.argv" ] && pass "nothing ran before the action" ||
	fail "restorecon ran before the action"
timeout 5 dunstctl context
wait_for 15 "the fix applied" -- test -s "$TMP/restorecon.argv" || { cat "$TMP/menu" >&2; finish; }
$PY - "$TMP/restorecon.argv" "$WWW/index.html" <<'PY' && pass "the action ran restorecon -v -- PATH" ||
import sys
got = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
assert got == [b"-v", b"--", sys.argv[2].encode()], got
PY
	fail "restorecon argv: $(tr '\0' ' ' <"$TMP/restorecon.argv")"
wait_for 10 "the result notification" -- grep -q 'string "SELinux fix applied"' "$TMP/notify.mon" &&
	pass "a notification says the fix was applied"
grep -A6 'string "SELinux fix applied"' "$TMP/notify.mon" | grep -q "Relabeled" &&
	pass "with the command's output" || fail "no output in the result notification"
ID=$(sqlite3 "$TMP/store/alerts.db" "SELECT id FROM alerts WHERE fix_applied IS NOT NULL")
[ -n "$ID" ] && pass "the store notes the applied fix ($ID)" || fail "no fix_applied"

# an alert whose first fix is no command the helper runs (a dontaudit-hidden
# access: semodule -B shows what is hidden): no action
notifier_close_all
before=$(grep -c 'member=Notify' "$TMP/notify.mon")
echo 'type=AVC msg=audit(1700000500.100:900): avc:  denied  { getattr } for  pid=42 comm="x" name="y" dev="sda1" ino=9 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:user_tmp_t:s0 tclass=file permissive=0' >&"$DFD"
wait_for 10 "the second alert's notification" -- sh -c \
	"[ \$(grep -c member=Notify $TMP/notify.mon) -gt $before ]"
wait_for 10 "the whole Notify call" -- notify_whole
first=$(sqlite3 "$TMP/store/alerts.db" "SELECT json_extract(analysis, '\$.suggestions[0].commands[0][0]') FROM alerts WHERE id != '$ID'")
awk -v n="$before" '/member=Notify/ {c++} c > n' "$TMP/notify.mon" | grep -q 'string "Apply the fix"' &&
	fail "the second alert (first fix: ${first:-none}) offers Apply too" ||
	pass "no Apply for an alert whose first fix the helper does not run (${first:-none})"
if grep -E "CRITICAL|WARNING \*\*|runtime error|AddressSanitizer" "$TMP/notify.err"; then
	fail "GLib criticals or sanitizer reports"
fi
finish
