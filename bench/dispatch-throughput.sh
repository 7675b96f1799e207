#!/bin/bash
# avcdoctor-dispatch figures:
#  1. throughput from stdin: denials analysed per second, for single-record
#     AVC events and for full syscall events (AVC SYSCALL CWD PATH PROCTITLE
#     EOE), from a regular file (the analysis' own pace: nothing is shed),
#     with and without the store, and through a pipe written at full speed
#     (what is analysed while the rest is shed);
#  2. latency (root): from a record written to audisp-remote to AlertAdded
#     on the bus, through a private auditd collector, as in
#     tests/dispatch-e2e.sh; for events ended by EOE and for lone AVCs
#     (complete after event_timeout_ms).
# Targets: >= 100k denials/s analysed from stdin; the signal within 50 ms.
# Usage: bench/dispatch-throughput.sh [BUILD_DIR]   (N=denials, LAT=samples)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-${AD_BUILD_DIR:-$ROOT/build}}
DISPATCH=$BUILD/bin/avcdoctor-dispatch
POLICY=${POLICY:-/etc/selinux/default/policy/policy.33}
N=${N:-200000}
LAT=${LAT:-100}
NAME=org.avcdoctor.Daemon
[ -x "$DISPATCH" ] || { echo "no $DISPATCH: build first (cmake --build $BUILD)" >&2; exit 1; }
[ -r "$POLICY" ] || { echo "no $POLICY" >&2; exit 1; }
. "$ROOT/tests/testbed.sh"
TMP=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$TMP/rules"

cat >"$TMP/gen.py" <<'PY'
import sys
shape, n, distinct = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
w = sys.stdout.write
for i in range(n):
    stype = "httpd_t" if i % 100 else "bench%d_t" % (i // 100 % distinct)
    st = "audit(1700000100.%03d:%d)" % (i % 1000, 1000 + i)
    w('type=AVC msg=%s: avc:  denied  { read } for  pid=%d comm="httpd" name="f%d.html" '
      'dev="sda1" ino=%d scontext=system_u:system_r:%s:s0 '
      'tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file permissive=0\n'
      % (st, 2000 + i % 500, i % 5000, i, stype))
    if shape == "full":
        w('type=SYSCALL msg=%s: arch=c000003e syscall=257 success=no exit=-13 a0=ffffff9c '
          'a1=7f00 a2=0 a3=0 items=1 ppid=1 pid=%d auid=4294967295 uid=33 gid=33 euid=33 '
          'suid=33 fsuid=33 egid=33 sgid=33 fsgid=33 tty=(none) ses=4294967295 comm="httpd" '
          'exe="/usr/sbin/httpd" subj=system_u:system_r:%s:s0 key=(null)\n'
          'type=CWD msg=%s: cwd="/"\n'
          'type=PATH msg=%s: item=0 name="/home/ann/public_html/f%d.html" inode=%d '
          'dev=08:01 mode=0100644 ouid=1000 ogid=1000 rdev=00:00 '
          'obj=unconfined_u:object_r:user_home_t:s0 nametype=NORMAL cap_fp=0 cap_fi=0 '
          'cap_fe=0 cap_fver=0 cap_frootid=0\n'
          'type=PROCTITLE msg=%s: proctitle=2F7573722F7362696E2F6874747064\n'
          'type=EOE msg=%s: \n' % (st, 2000 + i % 500, stype, st, st, i % 5000, i, st, st))
PY

# run LABEL CONFIG-LINES... < input: the dispatcher's summary figures
run() {
	local label=$1
	shift
	{ echo "[analysis]"; echo "policy=$POLICY"; echo "rules_dir=$TMP/rules"
	  echo "file_checks=false"; printf '%s\n' "$@"; } >"$TMP/run.conf"
	rm -f "$TMP/run.db"*
	/usr/bin/time -f "%U %S %e %M" -o "$TMP/time" \
		"$DISPATCH" --config "$TMP/run.conf" --stdout >/dev/null 2>"$TMP/run.err"
	python3 - "$label" "$(tail -1 "$TMP/run.err")" "$(cat "$TMP/time")" <<'PY'
import re, sys
label, s, t = sys.argv[1], sys.argv[2], sys.argv[3].split()
den = int(re.search(r"(\d+) denial records", s).group(1))
shed = int(re.search(r"(\d+) denials not analysed", s).group(1))
m = re.search(r"([\d.]+) s of analysis \((\d+) denials/s\)", s)
busy, rate = float(m.group(1)), int(m.group(2))
cpu = float(t[0]) + float(t[1])
print("%-34s %8d analysed %8d shed  %6.2f s busy  %7d denials/s  (CPU %.2f s, wall %.2f s, "
      "max RSS %d MB)" % (label, den, shed, busy, rate, cpu, float(t[2]), int(t[3]) // 1024))
PY
}

echo "== throughput from stdin: $N denials, one second, 1% in 1000 other signatures"
echo "   $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
for shape in avc full; do
	python3 "$TMP/gen.py" "$shape" "$N" 1000 >"$TMP/$shape.log"
	records=$(wc -l <"$TMP/$shape.log")
	echo "-- $shape events ($records records, $(du -m "$TMP/$shape.log" | cut -f1) MB)"
	run "file, no store" "[store]" "path=none" "[bus]" "type=none" <"$TMP/$shape.log"
	run "file, store" "[store]" "path=$TMP/run.db" "max_age_days=0" "[bus]" "type=none" \
		<"$TMP/$shape.log"
	cat "$TMP/$shape.log" | run "pipe at full speed, no store" "[store]" "path=none" \
		"[bus]" "type=none"
	cat "$TMP/$shape.log" | run "pipe at full speed, store" "[store]" "path=$TMP/run.db" \
		"max_age_days=0" "[bus]" "type=none"
done

# ---------------------------------------------------------------------------- latency
if [ "$(id -u)" != 0 ]; then
	echo "== latency: skipped (needs root for auditd)"
	exit 0
fi
for p in auditd audisp-remote dbus-daemon dbus-monitor unshare; do
	command -v "$p" >/dev/null || { echo "== latency: skipped (no $p)"; exit 0; }
done
chmod 755 "$TMP"
bus_config "$TMP/bus.conf" "$TMP/bus.sock" "<include>$ROOT/dispatcher/org.avcdoctor.Daemon.conf</include>"
dbus-daemon --config-file="$TMP/bus.conf" --nofork --nopidfile >"$TMP/bus.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$TMP/bus.sock" ] && break; sleep 0.05; done
A=$TMP/audit
collector_dir "$A" "$DISPATCH"
printf '[store]\npath=%s\nmax_age_days=0\n[analysis]\npolicy=%s\nrules_dir=%s\nfile_checks=false\n[log]\ntarget=stderr\n' \
	"$TMP/alerts.db" "$POLICY" "$TMP/rules" >"$A/avcdoctor.conf"
mkdir -p /run/dbus
unshare -m --propagation private sh -c "
	mount -t tmpfs -o mode=0755 avcdoctor-bench /run/dbus &&
	ln -s '$TMP/bus.sock' /run/dbus/system_bus_socket &&
	exec auditd -f -n -c '$A'" >"$TMP/auditd.log" 2>&1 &
AUDITD=$!
pids+=("$AUDITD")
for _ in $(seq 200); do
	busctl --address="unix:path=$TMP/bus.sock" status "$NAME" >/dev/null 2>&1 && break
	sleep 0.05
done
cat >"$TMP/remote.conf" <<EOF
remote_server = 127.0.0.1
port = $PORT
transport = tcp
mode = immediate
format = managed
network_retry_time = 1
heartbeat_timeout = 0
network_failure_action = syslog
remote_ending_action = stop
EOF

cat >"$TMP/lat.py" <<'PY'
# lat.py MODE TMP N: from a write to AlertAdded seen by dbus-monitor
#  remote: records written to audisp-remote, through the collector auditd
#  direct: records written to the dispatcher's stdin (as auditd does locally)
import os, re, subprocess, sys, threading, time
mode, tmp, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
mon = subprocess.Popen(["dbus-monitor", "--address", "unix:path=%s/bus.sock" % tmp,
                        "type='signal',sender='org.avcdoctor.Daemon',member='AlertAdded'"],
                       stdout=subprocess.PIPE, text=True, bufsize=1)
seen, cv = {}, threading.Condition()
def read():
    stamp = None
    for line in mon.stdout:
        m = re.match(r"signal time=([\d.]+) ", line)
        if m:
            stamp = float(m.group(1))
        m = re.search(r"on the file lat(\d+)\.txt", line)
        if m and stamp:
            with cv:
                seen[int(m.group(1))] = stamp
                cv.notify_all()
threading.Thread(target=read, daemon=True).start()
time.sleep(0.5)
if mode == "remote":
    sink = subprocess.Popen(["unshare", "-m", "--propagation", "private", "sh", "-c",
                             "mount --bind %s/remote.conf /etc/audit/audisp-remote.conf && "
                             "exec audisp-remote" % tmp], stdin=subprocess.PIPE)
else:
    env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS="unix:path=%s/bus.sock" % tmp)
    sink = subprocess.Popen([os.environ["DISPATCH"], "--config", "%s/audit/avcdoctor.conf" % tmp],
                            stdin=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    for _ in range(200):
        if subprocess.run(["busctl", "--address=unix:path=%s/bus.sock" % tmp, "status",
                           "org.avcdoctor.Daemon"], capture_output=True).returncode == 0:
            break
        time.sleep(0.05)
def event(i, eoe):
    st = "audit(%d.%03d:%d)" % (time.time(), i % 1000, 5000000 + i)
    rec = ('type=AVC msg=%s: avc:  denied  { read } for  pid=%d comm="latd" name="lat%d.txt" '
           'dev="sda1" ino=%d scontext=system_u:system_r:lat%d_t:s0 '
           'tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0\n' % (st, 3000 + i, i, i, i))
    if eoe:
        rec += ('type=SYSCALL msg=%s: arch=c000003e syscall=257 success=no exit=-13 a0=3 a1=4 '
                'a2=0 a3=0 items=1 ppid=1 pid=%d auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 '
                'egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm="latd" exe="/usr/bin/latd" '
                'subj=system_u:system_r:lat%d_t:s0 key=(null)\ntype=EOE msg=%s: \n'
                % (st, 3000 + i, i, st))
    return rec.encode()
sink.stdin.write(event(10 ** 6, True))	# warm-up: connection, first analysis
sink.stdin.flush()
time.sleep(1)
lat = {True: [], False: []}
lost = {True: 0, False: 0}
base = 0 if mode == "remote" else 100000	# new signatures: the store has the others
for i in range(base, base + 2 * n):
    eoe = i % 2 == 0
    data = event(i, eoe)
    t0 = time.time()
    sink.stdin.write(data)
    sink.stdin.flush()
    with cv:
        cv.wait_for(lambda: i in seen, timeout=2)
    if i in seen:
        lat[eoe].append((seen[i] - t0) * 1000)
    else:
        lost[eoe] += 1
    time.sleep(0.02)
sink.stdin.close()
sink.wait(timeout=10)
mon.terminate()
labels = {True: "syscall events (AVC SYSCALL EOE)", False: "lone AVC records"}
if mode == "remote":
    labels[True] += ", EOE stripped by audisp-remote"
for eoe in (True, False):
    v = sorted(lat[eoe])
    if not v:
        print("  %-58s no signal seen" % labels[eoe])
        continue
    pct = lambda p: v[min(len(v) - 1, int(p * len(v)))]
    print("  %-58s median %5.1f ms  p95 %5.1f ms  max %5.1f ms  (%d, %d lost)"
          % (labels[eoe], pct(0.5), pct(0.95), v[-1], len(v), lost[eoe]))
PY
export DISPATCH
echo "== latency: a record written -> AlertAdded seen on the bus ($LAT samples each)"
echo "-- through audisp-remote and the collector auditd (event_timeout_ms=25)"
timeout 300 python3 "$TMP/lat.py" remote "$TMP" "$LAT"
kill "$AUDITD" 2>/dev/null
for _ in $(seq 100); do kill -0 "$AUDITD" 2>/dev/null || break; sleep 0.05; done
echo "-- written to the dispatcher's stdin, as auditd does for local events"
timeout 300 python3 "$TMP/lat.py" direct "$TMP" "$LAT"
