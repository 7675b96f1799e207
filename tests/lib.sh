# Helpers for the script tests (sourced).  CTest sets AD_BUILD_DIR,
# AD_SOURCE_DIR and AD_CORPUS; LANG=C TZ=UTC.
set -u
. "$AD_SOURCE_DIR/tests/testbed.sh"
AVCDOCTOR="$AD_BUILD_DIR/bin/avcdoctor"
POLICY=/etc/selinux/default/policy/policy.33
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# wait_for SECONDS DESCRIPTION -- command...: retries the command every 50 ms
# until it succeeds; a failed check after SECONDS (times $WAIT_SCALE, 1)
wait_for() {
	local secs=$(($1 * ${WAIT_SCALE:-1})) desc=$2 i
	shift 3
	for ((i = 0; i < secs * 20; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	fail "timed out after ${secs}s: $desc"
	return 1
}

pass() {
	echo "ok: $*"
}

# expect_status WANT DESCRIPTION -- command...
expect_status() {
	want=$1 desc=$2
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" = "$want" ]; then pass "$desc"; else
		fail "$desc: exit $got, wanted $want"; sed 's/^/    /' "$TMP/err" | head -5 >&2
	fi
}

# expect_grep PATTERN FILE DESCRIPTION
expect_grep() {
	if grep -q -- "$1" "$2"; then pass "$3"; else fail "$3: no '$1' in $2"; fi
}

# golden NAME FILE: compares FILE with tests/golden/NAME, or GOLDEN_DIR/NAME
# (use_policy; AD_REGEN=1 rewrites it)
golden() {
	g="${GOLDEN_DIR:-$AD_SOURCE_DIR/tests/golden}/$1"
	if [ "${AD_REGEN:-}" = 1 ]; then
		mkdir -p "$(dirname "$g")" && cp "$2" "$g"; pass "regenerated $1"; return
	fi
	if diff -u "$g" "$2" >"$TMP/diff"; then pass "golden $1"; else
		fail "golden $1 differs:"; head -40 "$TMP/diff" >&2
	fi
}

# check_merged_json FILE LAST_RE SKIP_RE DESC: FILE holds a --json command's stdout
# and stderr together; every line must be whole: JSON, or a message that SKIP_RE
# matches, and the last line (the closing account) matches LAST_RE
check_merged_json() {
	python3 - "$@" <<'PY' || fail "$4: a line was cut"
import json, re, sys
path, last_re, skip_re, desc = sys.argv[1:5]
lines = open(path, encoding="utf-8").read().split("\n")
assert lines[-1] == "", "no newline at the end"
lines = lines[:-1]
assert re.match(last_re, lines[-1]), lines[-1]
for l in lines[:-1]:
    if not re.match(skip_re, l):
        json.loads(l)
print("ok: %s, %d lines whole" % (desc, len(lines)))
PY
}

finish() {
	if [ "$failures" != 0 ]; then
		echo "$failures check(s) failed" >&2
		exit 1
	fi
	exit 0
}

require_policy() {
	if [ ! -r "$POLICY" ]; then
		echo "no $POLICY: install selinux-policy-default (scripts/deps.sh test)" >&2
		exit 1
	fi
}

# The policy a test that runs on both policies uses, from AD_POLICY (set by
# CTest for the -fedora variants): "debian" (the default), the installed
# refpolicy, or "fedora", Fedora's targeted policy tree (policy/policy.33 and
# contexts/files/file_contexts beside it, as on a Fedora machine) from
# $AVCDOCTOR_FEDORA_POLICY, else the folder shared/policies/fedora-41-targeted
# beside the source tree.  Sets POLICY (file_contexts is found beside it),
# POLICY_NAME and GOLDEN_DIR (tests/golden, or tests/golden/fedora where the
# policies' answers differ); exits 77 (skipped) when Fedora's policy is absent.
use_policy() {
	POLICY_NAME=${AD_POLICY:-debian}
	GOLDEN_DIR=$AD_SOURCE_DIR/tests/golden
	case $POLICY_NAME in
	debian)
		require_policy
		;;
	fedora)
		local root=${AVCDOCTOR_FEDORA_POLICY:-$AD_SOURCE_DIR/../shared/policies/fedora-41-targeted}
		POLICY=$root/policy/policy.33
		if [ ! -r "$POLICY" ] || [ ! -r "$root/contexts/files/file_contexts" ]; then
			echo "SKIP: no Fedora targeted policy at $root (set AVCDOCTOR_FEDORA_POLICY" \
				"to a tree holding policy/policy.33 and contexts/files/file_contexts)"
			exit 77
		fi
		GOLDEN_DIR=$AD_SOURCE_DIR/tests/golden/fedora
		echo "policy: Fedora targeted, $POLICY"
		;;
	*)
		echo "AD_POLICY=$POLICY_NAME: debian or fedora" >&2
		exit 1
		;;
	esac
}

# start_display WxH: Xvfb on a free display, DISPLAY exported; the caller's
# pids array gets its pid (its cleanup kills it).  Xvfb picks the number
# itself (-displayfd: the first whose abstract socket it can bind; it makes
# no lock file), so two tests started at once never share one.  The display
# counts as started only when a client has really talked to this server:
# the number was written, the server is still alive, and xdpyinfo reads
# the screen size asked for.  A server that dies or never answers is
# replaced (three tries), and its log is shown.  -noreset: the server does
# not reset when its last client leaves (between two browsers), so a client
# connecting at that moment is not turned away.
start_display() {
	local try xpid n
	for try in 1 2 3; do
		# a second display: never read the number of the first
		rm -f "$TMP/display"
		Xvfb -displayfd 5 -screen 0 "$1x24" -nolisten tcp -noreset 5>"$TMP/display" \
			>"$TMP/xvfb.log" 2>&1 &
		xpid=$!
		pids+=("$xpid")
		for ((n = 0; n < 200 * ${WAIT_SCALE:-1}; n++)); do
			[ -s "$TMP/display" ] && break
			kill -0 "$xpid" 2>/dev/null || break
			sleep 0.05
		done
		n=$(head -1 "$TMP/display" 2>/dev/null)
		if [ -n "$n" ] && kill -0 "$xpid" 2>/dev/null &&
			timeout 10 xdpyinfo -display ":$n" 2>/dev/null |
				grep -q "dimensions: *$1 pixels"; then
			export DISPLAY=":$n"
			return 0
		fi
		echo "Xvfb (try $try, display '${n:-none}') did not answer:" >&2
		sed 's/^/    /' "$TMP/xvfb.log" | tail -5 >&2
		kill "$xpid" 2>/dev/null
		wait "$xpid" 2>/dev/null
	done
	fail "no X display after three tries"
	finish
}

# start_session_bus [CONFIG-LINES]: a private session bus where anyone may own
# names and eavesdrop (dbus-monitor), DBUS_SESSION_BUS_ADDRESS exported
start_session_bus() {
	cat >"$TMP/session.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$TMP/session.sock</listen>
  <auth>EXTERNAL</auth>
  ${1:-}
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
	dbus-daemon --config-file="$TMP/session.conf" --nofork --nopidfile \
		>"$TMP/session.log" 2>&1 &
	pids+=($!)
	wait_for 5 "session bus" -- test -S "$TMP/session.sock"
	export DBUS_SESSION_BUS_ADDRESS="unix:path=$TMP/session.sock"
}

# notifier_settled: every notification avcdoctor-notify made (run with
# G_MESSAGES_DEBUG=all, stderr in $TMP/notify.err) was closed, and it has
# seen that: the next alert gets a notification of its own, not an update
# of a closed one.  notifier_close_all: the notification server (dunst)
# closes all it shows, then notifier_settled.  (A server may also close a
# notification by itself after an action: that close may still be on its
# way, and is waited for the same way.)
notifier_settled() {
	[ "$(grep -c "a new notification" "$TMP/notify.err")" = \
		"$(grep -c "the notification was closed" "$TMP/notify.err")" ]
}
notifier_close_all() {
	timeout 5 dunstctl close-all
	wait_for 10 "the notifier saw its notifications closed" -- notifier_settled
}

# monitor_ready FILE...: each dbus-monitor writing to FILE listens: the first
# thing it prints (NameAcquired, once its match rules or BecomeMonitor were
# answered) is there
monitor_ready() {
	local f
	for f in "$@"; do
		grep -q "member=NameAcquired" "$f" || return 1
	done
}

# start_system_bus POLICY-LINES: a private system bus (bus_config: system.conf's
# rules plus POLICY-LINES, e.g. the project's <include>s), its pid in the
# caller's pids array; ADDR and DBUS_SYSTEM_BUS_ADDRESS exported, its log in
# $TMP/sys.log
start_system_bus() {
	bus_config "$TMP/sys.conf" "$TMP/sys.sock" "$1"
	dbus-daemon --config-file="$TMP/sys.conf" --nofork --nopidfile >"$TMP/sys.log" 2>&1 &
	pids+=($!)
	wait_for 5 "the system bus" -- test -S "$TMP/sys.sock" || finish
	export ADDR="unix:path=$TMP/sys.sock"
	export DBUS_SYSTEM_BUS_ADDRESS=$ADDR
}

# fix_dispatch_conf BUS: $TMP/d.conf, the dispatcher configuration the fix
# tests share (the store in $TMP/store, the policy, the test's own
# $TMP/file_contexts and $TMP/rules, no file checks, log on stderr) with
# [bus] type=BUS
fix_dispatch_conf() {
	cat >"$TMP/d.conf" <<EOF
[store]
path=$TMP/store/alerts.db
max_age_days=0
[bus]
type=$1
[analysis]
policy=$POLICY
file_contexts=$TMP/file_contexts
rules_dir=$TMP/rules
file_checks=false
[log]
target=stderr
EOF
}

# start_fix_helper CONFIG BIN-DIR: avcdoctor-fixit by hand on that bus, with the
# dispatcher's CONFIG and the test's stand-in programs (--bin-dir), log in
# $TMP/fixit.log; FPID its pid.  Before any call that could run a command,
# it checks that the helper owning the names is this one (by pid): a helper
# started by the bus with the real programs must never get the calls.
start_fix_helper() {
	local owner n
	"$AD_BUILD_DIR/bin/avcdoctor-fixit" --config "$1" --idle 300 --log-stderr \
		--bin-dir "$2" >>"$TMP/fixit.log" 2>&1 &
	FPID=$!
	pids+=("$FPID")
	for n in org.avcdoctor.Fixit1 org.fedoraproject.SetroubleshootFixit; do
		wait_for 10 "the fix helper owns $n" -- busctl --address="$ADDR" status "$n" ||
			finish
		owner=$(gdbus call --address "$ADDR" --dest org.freedesktop.DBus \
			--object-path /org/freedesktop/DBus \
			--method org.freedesktop.DBus.GetConnectionUnixProcessID "$n" |
			sed 's/.*uint32 \([0-9]*\).*/\1/')
		[ "$owner" = "$FPID" ] || { fail "$n is owned by pid $owner, not $FPID"; finish; }
	done
}
