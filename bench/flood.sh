#!/bin/bash
# A denial flood through avcdoctor-dispatch: N (1,000,000) AVC
# denials, DISTINCT (100,000) signatures among them (real domains of the
# policy against real file types, each pair seen N/DISTINCT times,
# interleaved), written into the dispatcher's stdin through a pipe at full
# speed, as auditd would in a storm; with the store and its default caps.
# The dispatcher runs as under auditd (no --stdout: that debugging mode
# writes every alert as JSON, which would be measured too); its log goes to
# stderr.
# Reports: how long the writer took (auditd is never blocked: the writer's
# time must stay close to the time it takes to produce the records), how many
# denials were analysed and how many shed (the counters), the dispatcher's
# peak RSS, the store's size and alert count against max_alerts.
# Usage: bench/flood.sh [BUILD_DIR]     (N=, DISTINCT=, MAX_ALERTS=)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-${AD_BUILD_DIR:-$ROOT/build}}
DISPATCH=$BUILD/bin/avcdoctor-dispatch
POLICY=${POLICY:-/etc/selinux/default/policy/policy.33}
N=${N:-1000000}
DISTINCT=${DISTINCT:-100000}
MAX_ALERTS=${MAX_ALERTS:-10000}
[ -x "$DISPATCH" ] || { echo "no $DISPATCH: build first" >&2; exit 1; }
command -v seinfo >/dev/null || { echo "needs seinfo (setools)" >&2; exit 1; }
for p in sqlite3 bc /usr/bin/time python3; do
	command -v "$p" >/dev/null || { echo "needs $p" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/rules"

seinfo "$POLICY" -a domain -x | sed -n 's/^[[:space:]]*\([A-Za-z0-9_]*_t\)$/\1/p' >"$TMP/domains"
seinfo "$POLICY" -a file_type -x | sed -n 's/^[[:space:]]*\([A-Za-z0-9_]*_t\)$/\1/p' >"$TMP/files"

cat >"$TMP/gen.py" <<'PY'
# gen.py N DISTINCT DOMAINS FILES: AVC records on stdout, timing on stderr
import sys, time
n, distinct = int(sys.argv[1]), int(sys.argv[2])
doms = open(sys.argv[3]).read().split()
files = open(sys.argv[4]).read().split()
pairs = []
for d in doms:
    for f in files:
        pairs.append((d, f))
        if len(pairs) == distinct:
            break
    if len(pairs) == distinct:
        break
if len(pairs) < distinct:
    sys.exit("only %d type pairs" % len(pairs))
out = sys.stdout.buffer
start = time.monotonic()
batch = []
for i in range(n):
    d, f = pairs[i % distinct]
    batch.append(('type=AVC msg=audit(1700000100.%03d:%d): avc:  denied  { read } for  '
                  'pid=%d comm="flood" name="f%d" dev="sda1" ino=%d '
                  'scontext=system_u:system_r:%s:s0 tcontext=system_u:object_r:%s:s0 '
                  'tclass=file permissive=0\n'
                  % (i % 1000, 1000 + i, 2000 + i % 500, i % 5000, i, d, f)).encode())
    if len(batch) == 1000:
        out.write(b"".join(batch))
        batch = []
out.write(b"".join(batch))
out.flush()
sys.stderr.write("%.2f\n" % (time.monotonic() - start))
PY

# the generator alone, into /dev/null: the pace of the records themselves
gen_alone=$(python3 "$TMP/gen.py" "$N" "$DISTINCT" "$TMP/domains" "$TMP/files" 2>&1 >/dev/null)

printf '[analysis]\npolicy=%s\nrules_dir=%s\nfile_checks=false\n[store]\npath=%s\nmax_age_days=0\nmax_alerts=%s\n[bus]\ntype=none\n[log]\ntarget=stderr\n' \
	"$POLICY" "$TMP/rules" "$TMP/flood.db" "$MAX_ALERTS" >"$TMP/flood.conf"
python3 "$TMP/gen.py" "$N" "$DISTINCT" "$TMP/domains" "$TMP/files" 2>"$TMP/gen.time" |
	LC_ALL=C /usr/bin/time -f "%U %S %e %M" -o "$TMP/time" \
		"$DISPATCH" --config "$TMP/flood.conf" >/dev/null 2>"$TMP/run.err"
rc=$?
read -r user sys wall rss <"$TMP/time"
summary=$(grep -E 'denial records|events' "$TMP/run.err" | tail -1)
alerts=$(sqlite3 "$TMP/flood.db" 'SELECT count(*) FROM alerts' 2>&1)
dbsize=$(du -k "$TMP/flood.db"* | awk '{s += $1} END {print s}')
echo "== flood: $N AVC denials, $DISTINCT signatures, through a pipe at full speed"
echo "   $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
echo "   writer: $(cat "$TMP/gen.time") s (the generator alone into /dev/null: $gen_alone s)"
echo "   dispatcher: exit $rc, wall $wall s, CPU $(echo "$user + $sys" | bc) s, peak RSS $((rss / 1024)) MiB"
echo "   summary: $summary"
echo "   store: $alerts alerts (max_alerts $MAX_ALERTS), $((dbsize / 1024)) MiB with WAL"
[ "$rc" = 0 ] && [ "$alerts" -le "$MAX_ALERTS" ] 2>/dev/null
