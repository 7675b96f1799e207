#!/bin/bash
# avcdoctor-dispatch on a private system bus that includes the project's bus
# policy (dispatcher/org.avcdoctor.Daemon.conf): the methods and their errors,
# AlertAdded and coalesced AlertUpdated signals, the Shed property, who may
# call and who may listen (root, the admin group, nobody), the check in code
# behind a permissive bus, reconnecting to a restarted bus, and the signal
# handling of an audit plugin (SIGTERM only from the parent, SIGHUP reloads).
# Needs root for the user switches (exit 77 = skipped otherwise).
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
crafted="$AD_CORPUS/crafted/debian-refpolicy-cases.log"
ID=853997c3dff518a1		# httpd_t reading shadow_t: twice in the crafted cases
NAME=org.avcdoctor.Daemon
OBJ=/org/avcdoctor/Daemon
IFACE=org.avcdoctor.Alerts1

if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root (users, groups, runuser)"
	exit 77
fi
for p in dbus-daemon dbus-monitor gdbus busctl runuser useradd python3; do
	command -v "$p" >/dev/null || { echo "skipped: no $p"; exit 77; }
done

pids=()
created_group=''
created_user=''
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	[ -n "$created_user" ] && userdel "$created_user" 2>/dev/null
	[ -n "$created_group" ] && groupdel avcdoctor 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
chmod 755 "$TMP"	# the bus sockets are for other users too

# start_bus NAME POLICY: a private dbus-daemon; sets BUS_PID
start_bus() {
	bus_config "$TMP/$1.conf" "$TMP/$1.sock" "$2"
	rm -f "$TMP/$1.sock"
	dbus-daemon --config-file="$TMP/$1.conf" --nofork --nopidfile \
		>>"$TMP/$1.log" 2>&1 &
	BUS_PID=$!
	pids+=("$BUS_PID")
	wait_for 5 "bus $1 listening" -- test -S "$TMP/$1.sock"
}

# start_dispatch NAME BUS_SOCKET: the dispatcher reading a FIFO; sets DPID and DFD
start_dispatch() {
	mkdir -p "$TMP/rules"
	cat >"$TMP/$1.dconf" <<EOF
[store]
path=$TMP/$1.db
max_age_days=0
[bus]
type=system
update_interval_ms=1000
[analysis]
policy=$POLICY
rules_dir=$TMP/rules
file_checks=false
[log]
target=stderr
EOF
	mkfifo "$TMP/$1.in"
	DBUS_SYSTEM_BUS_ADDRESS="unix:path=$2" \
		"$DISPATCH" --config "$TMP/$1.dconf" <"$TMP/$1.in" >"$TMP/$1.out" 2>"$TMP/$1.err" &
	DPID=$!
	pids+=("$DPID")
	exec {DFD}>"$TMP/$1.in"
	wait_for 10 "$NAME on bus $1" -- busctl --address="unix:path=$2" status "$NAME"
}

# call [USER] METHOD SIGNATURE ARGS...: busctl as root or as USER on $ADDR
call() {
	local user=
	if [ "$1" = -u ]; then user=$2; shift 2; fi
	if [ -n "$user" ]; then
		timeout 10 runuser -u "$user" -- busctl --address="$ADDR" --json=short call \
			"$NAME" "$OBJ" "$IFACE" "$@"
	else
		timeout 10 busctl --address="$ADDR" --json=short call "$NAME" "$OBJ" "$IFACE" "$@"
	fi
}

# gcall [USER] METHOD ARGS...: gdbus (prints D-Bus error names) on $ADDR
gcall() {
	local user=
	if [ "$1" = -u ]; then user=$2; shift 2; fi
	local m=$1
	shift
	if [ -n "$user" ]; then
		timeout 10 runuser -u "$user" -- env DBUS_SYSTEM_BUS_ADDRESS="$ADDR" \
			gdbus call --system --dest "$NAME" --object-path "$OBJ" --method "$IFACE.$m" "$@"
	else
		DBUS_SYSTEM_BUS_ADDRESS="$ADDR" timeout 10 \
			gdbus call --system --dest "$NAME" --object-path "$OBJ" --method "$IFACE.$m" "$@"
	fi
}

# count_alerts FILE: the number of alerts in a busctl --json=short ListAlerts reply
count_alerts() {
	python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["data"][0]))' "$1"
}

# --- users: a member of the admin group, and nobody ---------------------------------
if ! getent group avcdoctor >/dev/null; then
	groupadd -r avcdoctor || { echo "skipped: cannot create group avcdoctor"; exit 77; }
	created_group=1
fi
MEMBER=avcdtest$$
MEMBER=${MEMBER:0:31}
useradd -r -M -N -g nogroup -G avcdoctor -s /usr/sbin/nologin -d /nonexistent "$MEMBER" ||
	{ echo "skipped: cannot create a test user"; exit 77; }
created_user=$MEMBER
id nobody >/dev/null || { echo "skipped: no user nobody"; exit 77; }

# --- a bus with the project's policy -----------------------------------------------
start_bus sys "<include>$AD_SOURCE_DIR/dispatcher/org.avcdoctor.Daemon.conf</include>"
SYS_BUS_PID=$BUS_PID
ADDR="unix:path=$TMP/sys.sock"
start_dispatch d1 "$TMP/sys.sock"
D1=$DPID
D1FD=$DFD
pass "the dispatcher owns $NAME on a bus with the project's policy"

# signals as root, as the member, and as nobody (who must not get any)
dbus-monitor --address "$ADDR" "type='signal',sender='$NAME'" >"$TMP/mon-root" 2>&1 &
pids+=($!)
runuser -u "$MEMBER" -- dbus-monitor --address "$ADDR" "type='signal',sender='$NAME'" \
	>"$TMP/mon-member" 2>&1 &
pids+=($!)
runuser -u nobody -- dbus-monitor --address "$ADDR" "type='signal',sender='$NAME'" \
	>"$TMP/mon-nobody" 2>&1 &
pids+=($!)
wait_for 10 "the three monitors listening" -- monitor_ready "$TMP/mon-root" "$TMP/mon-member" \
	"$TMP/mon-nobody"

cat "$crafted" >&"$D1FD"
wait_for 10 "13 AlertAdded" -- sh -c "[ \$(grep -c member=AlertAdded $TMP/mon-root) -ge 13 ]"
n=$(grep -c 'member=AlertAdded' "$TMP/mon-root")
[ "$n" = 13 ] && pass "13 AlertAdded for the 13 alerts" || fail "$n AlertAdded, wanted 13"
grep -A3 'member=AlertAdded' "$TMP/mon-root" | grep -q 'string "SELinux is preventing' &&
	pass "AlertAdded carries the summary" || fail "no summary in AlertAdded"
grep -q 'type=AVC\|msg=audit' "$TMP/mon-root" && fail "raw record text in a signal" ||
	pass "no raw record text in signals"
wait_for 5 "the member gets AlertAdded" -- grep -q 'member=AlertAdded' "$TMP/mon-member" &&
	pass "a member of the admin group receives the signals"
if grep -q 'member=AlertAdded' "$TMP/mon-nobody"; then
	fail "nobody received AlertAdded"
else
	pass "nobody does not receive the signals"
fi

# --- methods, as root ----------------------------------------------------------------
call ListAlerts dbs 0 true "" >"$TMP/list.json" || fail "ListAlerts as root"
[ "$(count_alerts "$TMP/list.json")" = 13 ] && pass "ListAlerts: 13 alerts" ||
	fail "ListAlerts: $(count_alerts "$TMP/list.json") alerts"
python3 - "$TMP/list.json" <<'PY' || fail "ListAlerts objects have the analyze keys"
import json, sys
for text in json.load(open(sys.argv[1]))["data"][0]:
    o = json.loads(text)
    for k in ("id", "count", "first_seen", "last_seen", "level", "hosts", "ignored",
              "summary", "denial", "records", "suggestions", "notes"):
        assert k in o, (k, o.get("id"))
print("ok: ListAlerts objects have the analyze keys")
PY
call GetAlert s "$ID" >"$TMP/get.json" && grep -q "$ID" "$TMP/get.json" &&
	pass "GetAlert" || fail "GetAlert $ID"
for bad in xyz "" 853997C3DFF518A1 853997c3dff518a "../../etc/passwd" "$ID;rm"; do
	gcall GetAlert "$bad" >"$TMP/out" 2>&1
	grep -q "org.avcdoctor.Error.InvalidArgs" "$TMP/out" &&
		pass "GetAlert '$bad': InvalidArgs" || fail "GetAlert '$bad': $(cat "$TMP/out")"
done
gcall GetAlert 0123456789abcdef >"$TMP/out" 2>&1
expect_grep "org.avcdoctor.Error.NotFound" "$TMP/out" "GetAlert of an unknown id: NotFound"
gcall SetFilter "$ID" sometimes >"$TMP/out" 2>&1
expect_grep "org.avcdoctor.Error.InvalidArgs" "$TMP/out" "SetFilter with a bad filter"
gcall ListAlerts -- -1 true "" >"$TMP/out" 2>&1
expect_grep "org.avcdoctor.Error.InvalidArgs" "$TMP/out" "ListAlerts since -1"
timeout 10 busctl --address="$ADDR" get-property "$NAME" "$OBJ" "$IFACE" Shed >"$TMP/out"
expect_grep "^t 0" "$TMP/out" "property Shed is 0"
timeout 10 busctl --address="$ADDR" get-property "$NAME" "$OBJ" "$IFACE" Version >"$TMP/out"
expect_grep '^s "' "$TMP/out" "property Version"

# --- coalescing: 500 more of one alert give one or two AlertUpdated, the last with the total
before=$(grep -c "member=AlertUpdated" "$TMP/mon-root")
python3 - "$crafted" >"$TMP/repeat.log" <<'PY'
import sys
line = open(sys.argv[1]).readline().rstrip("\n")	# the first AVC of $ID
head, rest = line.split("):", 1)
for i in range(500):
    print("type=AVC msg=audit(1700000100.%03d:%d):%s" % (i % 1000, 90000 + i, rest))
PY
last_update() { grep -A4 "member=AlertUpdated" "$TMP/mon-root" | grep uint64 | tail -1 |
	awk '{print $2}'; }
last_update_is() { [ "$(last_update)" = "$1" ]; }
t0=$(date +%s)
cat "$TMP/repeat.log" >&"$D1FD"
wait_for 20 "the AlertUpdated with the total count 502" -- last_update_is 502 &&
	pass "the last AlertUpdated has the total count 502"
# at most one per update interval (1 s) while they came, and the last one
secs=$(($(date +%s) - t0))
n=$(($(grep -c "member=AlertUpdated" "$TMP/mon-root") - before))
if [ "$n" -ge 1 ] && [ "$n" -le $((secs + 2)) ]; then pass "500 denials in ${secs}s: $n AlertUpdated"
else fail "500 denials in ${secs}s gave $n AlertUpdated (wanted 1..$((secs + 2)))"; fi

# --- who may call --------------------------------------------------------------------
call -u "$MEMBER" ListAlerts dbs 0 true "" >"$TMP/list-member.json" &&
	[ "$(count_alerts "$TMP/list-member.json")" = 13 ] &&
	pass "the admin group member may list" || fail "the admin group member cannot list"
call -u "$MEMBER" SetFilter ss "$ID" always >/dev/null &&
	pass "the admin group member may set a filter" || fail "member SetFilter"
call -u "$MEMBER" ListAlerts dbs 0 false "" >"$TMP/list-member.json"
[ "$(count_alerts "$TMP/list-member.json")" = 12 ] &&
	pass "the member's filter hides the alert from the member" ||
	fail "member filter: $(count_alerts "$TMP/list-member.json") alerts, wanted 12"
call ListAlerts dbs 0 false "" >"$TMP/list.json"
[ "$(count_alerts "$TMP/list.json")" = 13 ] && pass "filters are per user: root still sees 13" ||
	fail "root sees $(count_alerts "$TMP/list.json") alerts after the member's filter"
for m in "ListAlerts dbs 0 true \"\"" "GetAlert s $ID" "SetFilter ss $ID always" \
	"DeleteAlert s $ID"; do
	# shellcheck disable=SC2086
	if eval call -u nobody $m >"$TMP/out" 2>&1; then
		fail "nobody may call ${m%% *}"
	else
		pass "nobody may not call ${m%% *} (bus policy)"
	fi
done
grep -q 'Rejected send message.*uid=65534.*member="DeleteAlert"' "$TMP/sys.log" &&
	pass "the bus logged the refused DeleteAlert" || fail "no rejection logged by the bus"
if timeout 10 runuser -u nobody -- busctl --address="$ADDR" get-property "$NAME" "$OBJ" \
	"$IFACE" Shed >/dev/null 2>&1; then fail "nobody may read Shed"; else
	pass "nobody may not read the properties"; fi
call GetAlert s "$ID" >/dev/null && pass "the alert is still there after nobody's attempts" ||
	fail "nobody's DeleteAlert went through"
call DeleteAlert s "$ID" >/dev/null && pass "root may delete" || fail "root DeleteAlert"
gcall GetAlert "$ID" >"$TMP/out" 2>&1
expect_grep "org.avcdoctor.Error.NotFound" "$TMP/out" "a deleted alert is gone"

# --- the check in code, behind a bus that lets everyone call --------------------------
start_bus open '<policy context="default"><allow own="*"/><allow send_type="method_call"/></policy>'
ADDR_SYS=$ADDR
ADDR="unix:path=$TMP/open.sock"
start_dispatch d2 "$TMP/open.sock"
D2=$DPID
cat "$crafted" >&"$DFD"
wait_for 10 "alerts on the open bus" -- sh -c "busctl --address=$ADDR call $NAME $OBJ $IFACE \
	GetAlert s $ID"
for m in "ListAlerts 0 true ''" "GetAlert $ID" "SetFilter $ID always" "DeleteAlert $ID"; do
	# shellcheck disable=SC2086
	eval gcall -u nobody $m >"$TMP/out" 2>&1
	grep -q "org.avcdoctor.Error.AccessDenied" "$TMP/out" &&
		pass "the dispatcher itself refuses ${m%% *} to nobody" ||
		fail "${m%% *} by nobody on an open bus: $(cat "$TMP/out")"
done
gcall -u "$MEMBER" GetAlert "$ID" >"$TMP/out" 2>&1
expect_grep "$ID" "$TMP/out" "the dispatcher lets the admin group member in"
exec {DFD}>&-
wait_for 10 "the second dispatcher ends at EOF" -- sh -c "! kill -0 $D2"
ADDR=$ADDR_SYS

# --- the bus goes away and comes back: the dispatcher reconnects ----------------------
kill "$SYS_BUS_PID"
wait "$SYS_BUS_PID" 2>/dev/null
start_bus sys "<include>$AD_SOURCE_DIR/dispatcher/org.avcdoctor.Daemon.conf</include>"
SYS_BUS_PID=$BUS_PID
wait_for 15 "$NAME back on the restarted bus" -- busctl --address="$ADDR" status "$NAME" &&
	pass "the dispatcher reconnected to a restarted bus"
kill -0 "$D1" 2>/dev/null && pass "the dispatcher survived the bus restart" ||
	fail "the dispatcher died with the bus"

# --- signals: SIGHUP reloads; SIGTERM from a non-parent is ignored, from the parent obeyed
kill -HUP "$D1"
wait_for 10 "SIGHUP reload logged" -- grep -q "SIGHUP: configuration, policy and rules reloaded" \
	"$TMP/d1.err" && pass "SIGHUP reloads"
sh -c "kill -TERM $D1"
wait_for 10 "the dispatcher's word on the SIGTERM" -- grep -q "ignoring signal 15 from pid" "$TMP/d1.err"
if kill -0 "$D1" 2>/dev/null; then pass "SIGTERM from another process is ignored"; else
	fail "SIGTERM from a non-parent stopped the dispatcher"; fi
expect_grep "ignoring signal 15 from pid" "$TMP/d1.err" "the ignored SIGTERM is logged"
kill -TERM "$D1"	# from this shell: the parent
wait_for 10 "the dispatcher stops on its parent's SIGTERM" -- sh -c "! kill -0 $D1"
wait "$D1"
rc=$?
[ "$rc" = 0 ] && pass "exit status 0 after SIGTERM" || fail "exit status $rc after SIGTERM"
expect_grep "denials not analysed" "$TMP/d1.err" "the closing summary is logged"
exec {D1FD}>&-
if grep -E "runtime error|AddressSanitizer|CRITICAL|WARNING \*\*" "$TMP"/d*.err; then
	fail "sanitizer or GLib warnings"
fi
finish
