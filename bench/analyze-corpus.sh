#!/bin/bash
# avcdoctor analyze against audit2why on the same corpus log, in one run:
# ROUNDS rounds, each running audit2why then analyze (interleaved, so that
# a noisy period hits both), text output to a file.  Reports the median
# wall-clock time and the median CPU time (user + system, both threads of
# avcdoctor) of each, and their ratios.
# Usage: bench/analyze-corpus.sh [BUILD_DIR] [LOG]   (ROUNDS=7)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
LOG=${2:-$ROOT/tests/data/corpus/selinux-sepolgen-test_data-audit.log}
POLICY=${POLICY:-/etc/selinux/default/policy/policy.33}
ROUNDS=${ROUNDS:-7}
AVCDOCTOR=$BUILD/bin/avcdoctor
[ -x "$AVCDOCTOR" ] || { echo "no $AVCDOCTOR: build first" >&2; exit 1; }
# audit2why is audit2allow -w (Debian ships it as audit2allow only, sometimes)
if command -v audit2why >/dev/null; then A2W=(audit2why); else A2W=(audit2allow -w); fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

PYTHONPATH=$ROOT/bench python3 - "$ROUNDS" "$TMP" "$LOG" "$POLICY" "$AVCDOCTOR" "${A2W[@]}" <<'PY'
import os, statistics, sys
from measure import timed
rounds, tmp, log, policy, avcd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
a2w = sys.argv[6:]
cmds = {"audit2why": a2w + ["-p", policy, "-i", log],
        "avcdoctor analyze": [avcd, "analyze", "-p", policy, log]}
res = {k: ([], []) for k in cmds}

def run(name, cmd):
    wall, cpu, status = timed(cmd, f"{tmp}/{name.split()[0]}.out")
    if status != 0:
        sys.exit(f"{name} failed")
    res[name][0].append(wall)
    res[name][1].append(cpu)

for name, cmd in cmds.items():      # warm the page cache
    run(name, cmd)
res = {k: ([], []) for k in cmds}
for _ in range(rounds):
    for name, cmd in cmds.items():
        run(name, cmd)
med = {k: (statistics.median(v[0]), statistics.median(v[1])) for k, v in res.items()}
for k, (w, c) in med.items():
    print(f"{k:20s} wall {w:.3f} s (min {min(res[k][0]):.3f}, max {max(res[k][0]):.3f})  "
          f"cpu {c:.3f} s")
a, b = med["audit2why"], med["avcdoctor analyze"]
print(f"analyze is {a[0] / b[0]:.1f}x faster by wall-clock time, {a[1] / b[1]:.1f}x by CPU time "
      f"({rounds} rounds, {os.path.basename(log)})")
PY
