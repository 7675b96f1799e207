#!/bin/bash
# avcdoctor-notify end to end: Xvfb, a real notification server (dunst) on a
# private session bus, the real avcdoctor-dispatch on a private system bus
# with the project's bus policy, and the real notifier between them.  Checks
# the Notify calls that reach the server (dbus-monitor): catch-up on start,
# escaping, urgency, the "Don't notify again" action invoked by the server
# itself (dunst's context menu) storing the filter, ignored alerts staying
# quiet, "Show details" (a hint without the browser, the real browser on the
# alert with it), flood coalescing, "Show all" of a batch (--ids) and of more
# than 5000 alerts (--since, the browser listing and counting just those), the
# daemon restarting, SIGTERM.  Leaves
# screenshots in the build dir (tests/artifacts/notify*.png).
# Needs root (the bus policy lets root and the admin group listen) and Xvfb,
# dunst, dbus-daemon, ImageMagick's import (exit 77 = skipped otherwise).
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
NOTIFY="$AD_BUILD_DIR/bin/avcdoctor-notify"
crafted="$AD_CORPUS/crafted/debian-refpolicy-cases.log"
ART="$AD_BUILD_DIR/tests/artifacts"
NAME=org.avcdoctor.Daemon
OBJ=/org/avcdoctor/Daemon
IFACE=org.avcdoctor.Alerts1
INTERVAL=3

if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root (the bus policy lets root listen)"
	exit 77
fi
for p in Xvfb xdpyinfo dunst dunstctl dbus-daemon dbus-monitor busctl import python3 timeout; do
	command -v "$p" >/dev/null || { echo "skipped: no $p"; exit 77; }
done
[ -x "$NOTIFY" ] || { echo "skipped: no $NOTIFY (WITH_NOTIFIER=OFF?)"; exit 77; }

pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$ART"

# --- the X server and the session bus with a notification server ------------------
start_display 1024x768
start_session_bus

# dunst: its context menu ("dmenu") is a script that picks the action named
# in $TMP/want ("Don't notify again" unless changed), so the server itself
# sends ActionInvoked (libnotify rightly ignores that signal from anyone but
# the server's own connection)
echo "Don't notify again" >"$TMP/want"
cat >"$TMP/pick" <<EOF
#!/bin/sh
tee -a "$TMP/menu" | grep -m1 -F "\$(cat "$TMP/want")"
EOF
chmod +x "$TMP/pick"
cat >"$TMP/dunstrc" <<EOF
[global]
    font = DejaVu Sans 10
    width = 500
    height = 300
    origin = top-right
    offset = 10x40
    dmenu = $TMP/pick
    show_indicators = true
# nothing expires by itself: on a loaded machine the menu may come late
[urgency_low]
    timeout = 0
[urgency_normal]
    timeout = 0
[urgency_critical]
    timeout = 0
# a notification stays until the test closes it: on a loaded machine the steps
# between its arrival and the context menu take longer than dunst's 10 s
[urgency_normal]
    timeout = 0
[urgency_low]
    timeout = 0
EOF
dunst -config "$TMP/dunstrc" >"$TMP/dunst.log" 2>&1 &
pids+=($!)
wait_for 10 "dunst on the session bus" -- busctl --address="$DBUS_SESSION_BUS_ADDRESS" \
	status org.freedesktop.Notifications
dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" \
	"type='method_call',interface='org.freedesktop.Notifications',member='Notify'" \
	>"$TMP/notify.mon" 2>&1 &
pids+=($!)

# notify_calls: one line per Notify call: urgency, timeout, title, body (\n as |)
notify_calls() {
	python3 - "$TMP/notify.mon" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
for block in re.split(r"^method call ", text, flags=re.M)[1:]:
    if "member=Notify" not in block.split("\n", 1)[0]:
        continue
    s = re.findall(r'^\s*string "(.*?)"$', block, flags=re.M | re.S)
    u = re.search(r'string "urgency"\s*variant\s*byte (\d)', block)
    t = re.findall(r'^\s*int32 (-?\d+)\s*$', block, flags=re.M)
    print("%s\t%s\t%s\t%s" % (u.group(1) if u else "-", t[-1] if t else "-",
                              s[2] if len(s) > 2 else "", (s[3] if len(s) > 3 else "").replace("\n", "|")))
PY
}
ncalls() { notify_calls | wc -l; }
# distinct_denials N SEC SERIAL NAME WIDTH: N read denials, one source type each
# (NAME00_t, ... WIDTH digits), a millisecond apart from SEC, serials from SERIAL
distinct_denials() {
	python3 - "$@" <<'PY'
import sys
n, sec, serial, name, width = (int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
                               sys.argv[4], int(sys.argv[5]))
for i in range(n):
    print("type=AVC msg=audit(%d.%03d:%d): avc:  denied  { read } for  pid=7 "
          "comm=\"%s\" name=\"%s%d\" dev=\"sda1\" ino=9 "
          "scontext=system_u:system_r:%s%0*d_t:s0 tcontext=system_u:object_r:etc_t:s0 "
          "tclass=file permissive=0"
          % (sec + i // 1000, i % 1000, serial + i, name, name[0], i, name, width, i))
PY
}
calls_gt() { [ "$(ncalls)" -gt "$1" ]; }
# pick_from_last LABEL: the menu script is to choose the action LABEL of the
# notification of the last Notify call (dunst lists "#LABEL (TITLE) [ID,KEY]"
# for each notification up, the newest first), never another's
pick_from_last() { printf '%s (%s)\n' "$1" "$(notify_calls | tail -1 | cut -f3)" >"$TMP/want"; }
# our_browser ARGS: the pid of the browser this test's notifier started with
# ARGS (an extended regex after its program), else nothing and status 1.  The
# notifier runs the first avcdoctor-browser of its PATH, this test's
# $TMP/bin link, and that path leads its command line: never the browser of
# another test on the same machine (browser-e2e starts one with --ids A,B)
our_browser() {
	local pid
	pid=$(pgrep -f "^${TMP//./\\.}/bin/avcdoctor-browser $1" | head -1)
	[ -n "$pid" ] && echo "$pid"
}

# --- the system bus with the project's policy, and the dispatcher ------------------
bus_config "$TMP/sys.conf" "$TMP/sys.sock" "<include>$AD_SOURCE_DIR/dispatcher/org.avcdoctor.Daemon.conf</include>"
dbus-daemon --config-file="$TMP/sys.conf" --nofork --nopidfile >"$TMP/sys.log" 2>&1 &
pids+=($!)
wait_for 5 "system bus" -- test -S "$TMP/sys.sock"
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$TMP/sys.sock"
dbus-monitor --address "$DBUS_SYSTEM_BUS_ADDRESS" \
	"type='signal',interface='org.avcdoctor.Alerts1',member='AlertUpdated'" >"$TMP/sys.mon" 2>&1 &
pids+=($!)

mkdir -p "$TMP/rules"
cat >"$TMP/d.conf" <<EOF
[store]
path=$TMP/alerts.db
max_age_days=0
[bus]
type=system
update_interval_ms=500
[analysis]
policy=$POLICY
rules_dir=$TMP/rules
file_checks=false
[log]
target=stderr
EOF
# start_dispatch: the dispatcher reading a FIFO on fd DFD; sets DPID
start_dispatch() {
	rm -f "$TMP/d.in"
	mkfifo "$TMP/d.in"
	"$DISPATCH" --config "$TMP/d.conf" <"$TMP/d.in" >>"$TMP/d.out" 2>>"$TMP/d.err" &
	DPID=$!
	pids+=("$DPID")
	exec {DFD}>"$TMP/d.in"
	wait_for 10 "$NAME on the system bus" -- busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" \
		status "$NAME"
}
start_dispatch
call() { timeout 10 busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" --json=short call \
	"$NAME" "$OBJ" "$IFACE" "$@"; }
is_ignored() { call GetAlert s "$1" | grep -q '\\"ignored\\":true'; }
nalerts_is() { [ "$(nalerts)" = "$1" ]; }
nalerts() { call ListAlerts dbs 0 true "" |
	python3 -c 'import json,sys; print(len(json.load(sys.stdin)["data"][0]))'; }

# stored_total: the occurrences of all stored alerts
stored_total() { call ListAlerts dbs 0 true "" |
	python3 -c 'import json,sys; print(sum(json.loads(t)["count"] for t in json.load(sys.stdin)["data"][0]))'; }
total_is() { [ "$(stored_total)" = "$1" ]; }

# 13 alerts before the notifier runs: it catches up on them in one
# notification.  All of the log is read first (one alert is seen twice:
# its update may still be on its way to the bus, and must not notify again
# after the catch-up told its count)
want_total=$("$AVCDOCTOR" analyze --json "$crafted" 2>/dev/null |
	python3 -c 'import json,sys; print(sum(json.loads(l).get("count", 0) for l in sys.stdin if l.startswith("{")))')
cat "$crafted" >&"$DFD"
wait_for 10 "13 alerts stored" -- nalerts_is 13
wait_for 10 "all $want_total occurrences stored" -- total_is "$want_total"

# --- the notifier ------------------------------------------------------------------
export XDG_STATE_HOME="$TMP/state"
mkdir -p "$XDG_STATE_HOME/avcdoctor"
printf '[notify]\nlast_run=0\n' >"$XDG_STATE_HOME/avcdoctor/notify.state"
export PATH="$TMP/bin:$PATH"	# no avcdoctor-browser here (until "Show details")
# the browser started by "Show details" inherits the notifier's environment
# and stderr: there is no accessibility bus here
export NO_AT_BRIDGE=1
# its debug lines tell when it has seen a close (notifier_close_all)
G_MESSAGES_DEBUG=all "$NOTIFY" --interval "$INTERVAL" >"$TMP/notify.out" 2>"$TMP/notify.err" &
NPID=$!
pids+=("$NPID")

wait_for 10 "the catch-up notification" -- sh -c "[ \$(grep -c member=Notify $TMP/notify.mon) -ge 1 ]"
# alerts and denials counted apart: the 13 alerts stand for all their occurrences
notify_calls | head -1 | grep -q $'\t'"13 SELinux alerts, $want_total denials"$'\t' &&
	pass "catch-up says \"13 SELinux alerts, $want_total denials\"" ||
	fail "catch-up notification: $(notify_calls | head -1)"
notify_calls | head -1 | cut -f3 | sed 's/^/    title: /'
notify_calls | head -1 | cut -f4 | grep -q '^Most denials: [a-z0-9_]* ([0-9,]*), ' &&
	pass "... and names the domains with the most denials: $(notify_calls | head -1 | cut -f4)" ||
	fail "no domains in the catch-up: $(notify_calls | head -1 | cut -f4)"
notify_calls | head -1 | grep -q 'avcdoctor list\|In a terminal' &&
	fail "a shell command in the catch-up notification" ||
	pass "... and gives no shell command"
grep -A40 'member=Notify' "$TMP/notify.mon" | grep -q 'string "Show all"' &&
	grep -A40 'member=Notify' "$TMP/notify.mon" | grep -q "string \"Don't notify again\"" &&
	pass "the actions Show all and Don't notify again" || fail "actions missing"
sleep 1
import -window root "$ART/notify-catchup.png" 2>/dev/null

# --- escaping: markup in a file name and a command name -----------------------------
notifier_close_all
before=$(ncalls)
echo 'type=AVC msg=audit(1700000500.100:900): avc:  denied  { write } for  pid=42 comm="<i>evil" name="<b>pwn</b>&x" dev="sda1" ino=9 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0' >&"$DFD"
wait_for 10 "the markup alert's notification" -- calls_gt "$before"
last=$(notify_calls | tail -1)
echo "    $last"
# nothing came between: the update of the alert seen twice, if it crossed the
# catch-up, did not notify again
n=$(ncalls)
[ "$n" = 2 ] && pass "catch-up: one notification for the alerts since the last run" ||
	{ fail "$n notifications after the catch-up and the markup alert, wanted 2"; notify_calls; }
if printf '%s' "$last" | grep -q '&lt;b&gt;pwn&lt;/b&gt;&amp;x' &&
	! printf '%s' "$last" | grep -q '<b>pwn\|<i>evil'; then
	pass "the summary reaches the server escaped (no markup from the record)"
else
	fail "escaping: $last"
fi
MID=$(call ListAlerts dbs 0 true "" | python3 -c '
import json, sys
for t in json.load(sys.stdin)["data"][0]:
    o = json.loads(t)
    if "pwn" in o["summary"]:
        print(o["id"])')
[ -n "$MID" ] && pass "the markup alert is $MID" || fail "no markup alert in ListAlerts"
# its first fix, checked against the policy, is said in the notification as analyze says it
proof=$(call GetAlert s "$MID" | python3 -c '
import json, sys
o = json.loads(json.load(sys.stdin)["data"][0])
s = (o.get("suggestions") or [{}])[0]
print("yes" if isinstance(s.get("verified"), bool) else "no")')
if [ "$proof" = yes ]; then
	printf '%s' "$last" | grep -q 'Checked against the policy: ' &&
		pass "the notification says the first fix was checked against the policy" ||
		fail "no proof line in the notification: $last"
else
	fail "the markup alert's first fix has no proof to show (expected a proved fix)"
fi
sleep 1
import -window root "$ART/notify.png" 2>/dev/null &&
	pass "screenshot $ART/notify.png" || fail "import -window root"

# --- "Don't notify again", invoked through the server ------------------------------
timeout 5 dunstctl context
wait_for 10 "the filter stored" -- is_ignored "$MID" ||
	{ sed 's/^/    menu: /' "$TMP/menu" 2>/dev/null; }
call GetAlert s "$MID" | grep -q '\\"ignored\\":true' &&
	pass "Don't notify again: SetFilter(always) stored, GetAlert says ignored" ||
	fail "the alert is not ignored after the action"
grep -q "$MID: will not notify again" "$TMP/notify.err" &&
	pass "the notifier logged the filter" || fail "no log of the filter"

# an ignored alert seen again does not notify: once the daemon has sent its
# update (seen on the system bus), a new alert follows it; the notifier
# handles the daemon's signals in order, so the next notification must be
# that alert's alone
notifier_close_all
before=$(ncalls)
echo 'type=AVC msg=audit(1700000501.100:901): avc:  denied  { write } for  pid=42 comm="<i>evil" name="<b>pwn</b>&x" dev="sda1" ino=9 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0' >&"$DFD"
wait_for 10 "the daemon's update of the ignored alert" -- \
	grep -q "string \"$MID\"" "$TMP/sys.mon"
echo 'type=AVC msg=audit(1700000502.100:902): avc:  denied  { read } for  pid=43 comm="after" name="m" dev="sda1" ino=9 scontext=system_u:system_r:after_ignored_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0' >&"$DFD"
wait_for 10 "the notification of the alert after the ignored one" -- calls_gt "$before"
if [ "$(ncalls)" = $((before + 1)) ] && notify_calls | tail -1 | grep -q 'after from read' &&
	! notify_calls | tail -1 | grep -q 'pwn'; then
	pass "an ignored alert seen again does not notify"
else
	fail "an ignored alert notified: $(notify_calls | tail -n +$((before + 1)))"
fi

# --- one alert: its first fix named in words, with that fix's proof ----------------
notifier_close_all
before=$(ncalls)
echo 'type=AVC msg=audit(1700000540.100:940): avc:  denied  { read } for  pid=77 comm="httpd" path="/var/www/html/index.html" dev="sda1" ino=19 scontext=system_u:system_r:httpd_t:s0 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file permissive=0' >&"$DFD"
wait_for 10 "the index.html alert's notification" -- calls_gt "$before"
last=$(notify_calls | tail -1)
echo "    $last"
# the words name the fix whose commands are shown (a relabel when the
# dispatcher judges labels, else the boolean), and the proof follows them
fix_said() { printf '%s' "$last" | cut -f4 | python3 -c '
import re, sys
body = sys.stdin.read()
cmd = body.rsplit("|", 1)[-1]
m = re.match(r"setsebool -P (\w+)=1$", cmd)
want = ("turn on the boolean " + m.group(1)) if m else None
m = re.match(r"restorecon .*-- (\S+)$", cmd)
want = ("restore the label of " + m.group(1)) if m else want
sys.exit(0 if want and "|Fix: %s.|Checked against the policy: this stops the denial." % want in body else 1)'; }
fix_said && pass "a single alert names its first fix in words, then that fix's proof: $(printf '%s' "$last" | cut -f4 | grep -o 'Fix: [^|]*')" ||
	fail "single alert: $(printf '%s' "$last" | cut -f4)"
sleep 0.5
import -window root "$ART/notify-fix-words.png" 2>/dev/null

# --- "Show details": without the browser a hint, with it the browser on the alert --
# avcdoctor-notify finds avcdoctor-browser in PATH ($TMP/bin comes first)
# new_alert N: a new alert (source type details<N>_t) and its notification; sets AID
new_alert() {
	notifier_close_all
	before=$(ncalls)
	echo "type=AVC msg=audit(1700000550.$1:95$1): avc:  denied  { read } for  pid=9 comm=\"details\" name=\"d$1\" dev=\"sda1\" ino=9 scontext=system_u:system_r:details$1_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0" >&"$DFD"
	wait_for 10 "the notification of details$1_t" -- calls_gt "$before"
	AID=$(call ListAlerts dbs 0 true "" | python3 -c '
import json, sys
for t in json.load(sys.stdin)["data"][0]:
    o = json.loads(t)
    if "details'"$1"'_t" in json.dumps(o):
        print(o["id"])')
}
new_alert 1
[ -n "$AID" ] || fail "no alert for details1_t in ListAlerts"
before=$(ncalls)
pick_from_last "Show details"
timeout 5 dunstctl context
if wait_for 10 "the hint notification" -- calls_gt "$before" &&
	notify_calls | tail -1 | grep -q "avcdoctor show $AID"; then
	pass "Show details without the browser: a hint naming 'avcdoctor show $AID'"
else
	fail "no hint: $(notify_calls | tail -1)"
fi
BROWSER="$AD_BUILD_DIR/bin/avcdoctor-browser"
if [ -x "$BROWSER" ] && command -v xdotool >/dev/null; then
	mkdir -p "$TMP/bin"
	ln -sf "$BROWSER" "$TMP/bin/avcdoctor-browser"
	new_alert 2
	[ -n "$AID" ] || fail "no alert for details2_t in ListAlerts"
	pick_from_last "Show details"
	timeout 5 dunstctl context
	if wait_for 15 "avcdoctor-browser --alert $AID started" -- \
		our_browser "--alert $AID\$"; then
		BPID=$(our_browser "--alert $AID\$")
		pids+=("$BPID")
		pass "Show details started avcdoctor-browser --alert $AID"
		if wait_for 15 "the browser's window" -- xdotool search --onlyvisible --pid "$BPID"; then
			pass "the browser shows a window"
			sleep 1
			import -window root "$ART/notify-details.png" 2>/dev/null
		fi
		kill "$BPID" 2>/dev/null
	fi
	notifier_close_all
	rm -f "$TMP/bin/avcdoctor-browser"
else
	echo "    (no $BROWSER or xdotool: the browser part is not checked)"
fi
echo "Don't notify again" >"$TMP/want"

# --- a flood: 50 distinct alerts ------------------------------------------------
notifier_close_all
before=$(ncalls)
# distinct alerts: one source type each
distinct_denials 50 1700000600 1000 flood 2 >"$TMP/flood.log"
cat "$TMP/flood.log" >&"$DFD"
flood_told() { notify_calls | tail -1 | grep -q $'\t''50 SELinux alerts, 50 denials'$'\t'; }
wait_for 20 "a notification counting the 50 alerts" -- flood_told
n=$(($(ncalls) - before))
if [ "$n" -ge 1 ] && [ "$n" -le 3 ]; then pass "50 alerts: $n notifications"
else fail "50 alerts gave $n notifications (wanted 1..3)"; fi
notify_calls | tail -"$n" | cut -f3 | sed 's/^/    title: /'
notify_calls | tail -1 | grep -q $'\t''50 SELinux alerts, 50 denials'$'\t''Most denials: flood00_t (1), flood01_t (1), flood02_t (1), and 47 other domains$' &&
	pass "the last one says \"50 SELinux alerts, 50 denials\" and names three domains of 50" ||
	fail "flood: last notification $(notify_calls | tail -1)"
sleep 0.5
import -window root "$ART/notify-flood.png" 2>/dev/null

# --- "Show all": the browser limited to the batch, by its ids; no command without it --
pick_from_last "Show all"
before=$(ncalls)
timeout 5 dunstctl context
if wait_for 10 "the hint without the browser" -- calls_gt "$before" &&
	notify_calls | tail -1 | grep -q 'not installed' &&
	! notify_calls | tail -1 | grep -q 'avcdoctor list\|In a terminal'; then
	pass "Show all without the browser: says it is missing, no shell command"
else
	fail "Show all without the browser: $(notify_calls | tail -1)"
fi
if [ -x "$BROWSER" ]; then
	mkdir -p "$TMP/bin"
	ln -sf "$BROWSER" "$TMP/bin/avcdoctor-browser"
	notifier_close_all
	before=$(ncalls)
	distinct_denials 30 1700000650 3000 batch 2 >"$TMP/flood2.log"
	cat "$TMP/flood2.log" "$TMP/flood2.log" >&"$DFD"
	batch_told() { notify_calls | tail -1 | grep -q $'\t''30 SELinux alerts, 60 denials'$'\t'; }
	wait_for 20 "a notification of the 30 alerts and their 60 denials" -- batch_told &&
		pass "30 alerts seen twice each: \"30 SELinux alerts, 60 denials\"" ||
		fail "batch of 30: $(notify_calls | tail -1)"
	want_ids=$(call ListAlerts dbs 0 true "" | python3 -c '
import json, sys
print(",".join(sorted(json.loads(t)["id"] for t in json.load(sys.stdin)["data"][0]
                      if "batch" in json.loads(t)["summary"])))')
	# show_all_opens WHAT: "Show all" of the notification the test waited
	# for started this test's browser on the batch's 30 ids; it is stopped
	show_all_opens() {
		local bpid ids
		wait_for 15 "avcdoctor-browser --ids started" -- our_browser "--ids " ||
			{ fail "$1 did not start the browser"; return 1; }
		bpid=$(our_browser "--ids ")
		pids+=("$bpid")
		ids=$(tr '\0' '\n' <"/proc/$bpid/cmdline" | sed -n 3p)
		[ "$(tr ',' '\n' <<<"$ids" | sort | paste -sd,)" = "$want_ids" ] &&
			pass "$1: avcdoctor-browser --ids with the batch's 30 alert ids" ||
			fail "$1: --ids '$ids', wanted $want_ids"
		kill "$bpid" 2>/dev/null
		wait_for 10 "the browser gone" -- sh -c "! kill -0 $bpid"
	}
	pick_from_last "Show all"
	timeout 5 dunstctl context
	show_all_opens "Show all"
	# dunst keeps the notification up after an action of its menu: "Show
	# all" again opens the batch it still shows (the notifier's next
	# notification starts afresh, the actions keep what they were shown with)
	[ "$(timeout 5 dunstctl count displayed)" = 1 ] ||
		fail "$(timeout 5 dunstctl count displayed) notifications up after Show all, wanted 1"
	timeout 5 dunstctl context
	show_all_opens "Show all again on the same notification"
	rm -f "$TMP/bin/avcdoctor-browser"
fi
echo "Don't notify again" >"$TMP/want"

# --- "Don't notify again" on a merged notification with a red alert ----------------
# the non-red alerts are ignored in one SetFilters call; the red one is listed
# apart in the body and keeps notifying
dbus-monitor --address "$DBUS_SYSTEM_BUS_ADDRESS" \
	"type='method_call',interface='$IFACE'" >"$TMP/filters.mon" 2>&1 &
pids+=($!)
wait_for 5 "the system bus monitor" -- test -s "$TMP/filters.mon"
# nothing up, and the notifier saw it: the flood's notification is a new one,
# the only one whose "Don't notify again" the menu offers
notifier_close_all
{
	distinct_denials 20 1700000800 2000 quiet 2
	echo 'type=AVC msg=audit(1700000800.500:2100): avc:  denied  { setenforce } for  pid=7 comm="quiet" scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:security_t:s0 tclass=security permissive=0'
} >"$TMP/redflood.log"
cat "$TMP/redflood.log" >&"$DFD"
# the merged notification that holds them all (and whatever it held before)
merged_red() { notify_calls | grep -q 'SELinux alerts, .*Red alert, not silenced.*setenforce'; }
wait_for $((INTERVAL * 2 + 5)) "one notification of the 21 alerts" -- merged_red ||
	notify_calls | tail -3 | cut -f3 | sed 's/^/    title: /'
RED=$(call ListAlerts dbs 0 true "" | python3 -c '
import json, sys
for t in json.load(sys.stdin)["data"][0]:
    o = json.loads(t)
    if o["level"] == "red" and "setenforce" in json.dumps(o):
        print(o["id"])')
[ -n "$RED" ] && pass "the setenforce alert is red ($RED)" || fail "no red setenforce alert"
notify_calls | grep 'SELinux alerts, .*Red alert, not silenced.*setenforce' | tail -1 |
	grep -q 'Red alert, not silenced by "Don.t notify again":|SELinux is preventing quiet from setenforce' &&
	pass "the merged notification lists the red alert apart" ||
	fail "no red alert listed apart: $(notify_calls | tail -1)"
timeout 5 dunstctl context
wait_for 10 "the batch ignored" -- grep -q "alerts: will not notify again" "$TMP/notify.err"
# logged when SetFilters answered: the filters are stored by then
quiet_ignored=$(call ListAlerts dbs 0 true "" | python3 -c '
import json, sys
print(sum(1 for t in json.load(sys.stdin)["data"][0]
          if "quiet" in json.loads(t)["summary"] and json.loads(t)["ignored"]))')
[ "$quiet_ignored" = 20 ] && pass "Don't notify again ignores the 20 alerts that are not red" ||
	fail "$quiet_ignored of the 20 alerts ignored"
is_ignored "$RED" && fail "the red alert was silenced with the batch" ||
	pass "the red alert of the batch is not ignored"
nbatch=$(grep -c "member=SetFilters" "$TMP/filters.mon")
nsingle=$(grep -c "member=SetFilter$" "$TMP/filters.mon")
[ "$nbatch" = 1 ] && [ "$nsingle" = 0 ] && pass "one SetFilters call for the batch, no SetFilter" ||
	fail "$nbatch SetFilters and $nsingle SetFilter calls for one Don't notify again"

# --- urgency: a red alert is critical and stays ----------------------------------
awk -F'\t' '$1 == 2 && $2 != 0 { bad = 1 } END { exit bad }' <(notify_calls) &&
	pass "critical notifications never expire (timeout 0)" ||
	fail "a critical notification with a timeout"
notify_calls | cut -f1 | sort | uniq -c | sed 's/^/    urgency /'

# --- the daemon restarts: the notifier follows the name --------------------------
kill "$DPID"
wait "$DPID" 2>/dev/null
exec {DFD}>&-
wait_for 5 "the notifier saw the daemon go" -- grep -q "is not running" "$TMP/notify.err"
start_dispatch
notifier_close_all
before=$(ncalls)
echo 'type=AVC msg=audit(1700000700.100:950): avc:  denied  { getattr } for  pid=8 comm="late" name="x" dev="sda1" ino=9 scontext=system_u:system_r:restart_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0' >&"$DFD"
wait_for 10 "a notification from the restarted daemon" -- calls_gt "$before" &&
	pass "a restarted daemon's alerts notify (bus name watching)"
# the catch-up after the restart lists the alerts already told: not again
notify_calls | tail -1 | grep -q $'\t''SELinux prevented an access'$'\t''.*late from getattr' &&
	pass "after the restart, only the new alert: the catch-up does not tell again" ||
	fail "after the restart: $(notify_calls | tail -n +$((before + 1)))"

# --- "Show all" of more than 5000 alerts: --since, the batch's earliest time -------
# (too many ids for one argument); the browser lists the alerts seen since then,
# and its overview counts them only (its debug line on the notifier's stdout)
if [ -x "$BROWSER" ]; then
	mkdir -p "$TMP/bin"
	ln -sf "$BROWSER" "$TMP/bin/avcdoctor-browser"
	notifier_close_all
	before=$(ncalls)
	distinct_denials 5001 1700002000 6000 many 4 >"$TMP/flood5001.log"
	cat "$TMP/flood5001.log" >&"$DFD"
	many_told() { notify_calls | tail -1 | grep -q $'\t''5,\{0,1\}001 SELinux alerts, 5,\{0,1\}001 denials'$'\t'; }
	wait_for 60 "a notification of the 5001 alerts" -- many_told &&
		pass "5001 alerts: \"$(notify_calls | tail -1 | cut -f3)\""
	# each alert looked up (its details, whether it is ignored): never more
	# GetAlert calls at once than a bus takes from one connection
	grep -q 'cannot read alert .*LimitsExceeded' "$TMP/notify.err" &&
		fail "GetAlert refused during the flood: $(grep -c 'cannot read alert' "$TMP/notify.err") lookups" ||
		pass "... each of them read with GetAlert (the calls in flight bounded)"
	pick_from_last "Show all"
	timeout 5 dunstctl context
	if wait_for 15 "avcdoctor-browser --since started" -- our_browser "--since "; then
		BPID=$(our_browser "--since ")
		pids+=("$BPID")
		since=$(tr '\0' '\n' <"/proc/$BPID/cmdline" | sed -n 3p)
		[ "$since" = 1700002000 ] &&
			pass "Show all of 5001 alerts: avcdoctor-browser --since 1700002000, the batch's earliest time" ||
			fail "Show all of 5001 alerts: --since '$since', wanted 1700002000"
		tr '\0' ' ' <"/proc/$BPID/cmdline" | grep -q -- '--ids' &&
			fail "--ids besides --since" || pass "... and no --ids"
		listed() { grep -q 'listed [0-9]* alerts, 5001 shown, 5001 in the overview' "$TMP/notify.out"; }
		wait_for 60 "the browser lists the 5001 alerts" -- listed &&
			pass "the browser lists the 5001 alerts seen since then, its overview counts them only: $(grep -o 'listed [0-9]* alerts.*' "$TMP/notify.out" | tail -1)" ||
			grep -o 'listed [0-9]* alerts.*' "$TMP/notify.out" | sed 's/^/    /'
		kill "$BPID" 2>/dev/null
	else
		fail "Show all of 5001 alerts did not start the browser"
	fi
	rm -f "$TMP/bin/avcdoctor-browser"
	echo "Don't notify again" >"$TMP/want"
fi

# --- SIGTERM ----------------------------------------------------------------------
kill -TERM "$NPID"
wait_for 10 "the notifier stops on SIGTERM" -- sh -c "! kill -0 $NPID"
wait "$NPID"
rc=$?
[ "$rc" = 0 ] && pass "SIGTERM: exit status 0" || fail "SIGTERM: exit status $rc"
grep -q 'last_run=1[0-9]' "$XDG_STATE_HOME/avcdoctor/notify.state" &&
	pass "the state file records the last run" ||
	fail "state: $(cat "$XDG_STATE_HOME/avcdoctor/notify.state")"
if grep -E "CRITICAL|WARNING \*\*" "$TMP/notify.err"; then fail "GLib warnings"; fi
grep -v -- '-DEBUG: ' "$TMP/notify.err" | sed 's/^/    notifier: /'
finish
