#!/bin/bash
# Two builds of avcdoctor on the same log, interleaved: did a change make
# the analysis slower?  ROUNDS rounds, each running the old build's and
# the new build's `analyze` (in alternating order, so that a noisy period
# hits both), output to a file; the outputs must be the same.  Reports
# the median and the minimum wall-clock and CPU time of each, and, with
# COUNT=1, the instructions callgrind counts for one run of each (the
# figure that does not depend on the machine's load).
# Usage: bench/compare-builds.sh OLD_BUILD NEW_BUILD [LOG] [-- ANALYZE_ARGS...]
#   (ROUNDS=21, COUNT=1; LOG defaults to the sepolgen corpus log)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
OLD=$1/bin/avcdoctor NEW=$2/bin/avcdoctor
shift 2
LOG=$ROOT/tests/data/corpus/selinux-sepolgen-test_data-audit.log
if [ $# -gt 0 ] && [ "$1" != -- ]; then LOG=$1; shift; fi
[ "${1:-}" = -- ] && shift
POLICY=${POLICY:-/etc/selinux/default/policy/policy.33}
ROUNDS=${ROUNDS:-21}
COUNT=${COUNT:-1}
for b in "$OLD" "$NEW"; do
	[ -x "$b" ] || { echo "no $b: build first" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

PYTHONPATH=$ROOT/bench python3 - "$ROUNDS" "$TMP" "$OLD" "$NEW" "$POLICY" "$LOG" "$@" <<'PY'
import filecmp, os, statistics, sys
from measure import timed
rounds, tmp, old, new, policy, log = int(sys.argv[1]), *sys.argv[2:7]
extra = sys.argv[7:]
cmds = {"old": [old, "analyze", "-p", policy, *extra, log],
        "new": [new, "analyze", "-p", policy, *extra, log]}
res = {k: ([], []) for k in cmds}

def run(name, cmd):
    wall, cpu, status = timed(cmd, f"{tmp}/{name}.out")
    if status != 0:
        sys.exit(f"{name} build failed")
    res[name][0].append(wall)
    res[name][1].append(cpu)

for name, cmd in cmds.items():      # warm the page cache
    run(name, cmd)
if not filecmp.cmp(f"{tmp}/old.out", f"{tmp}/new.out", shallow=False):
    print("the two builds' outputs differ", file=sys.stderr)
res = {k: ([], []) for k in cmds}
for i in range(rounds):
    for name in (("old", "new") if i % 2 == 0 else ("new", "old")):
        run(name, cmds[name])
for k, (w, c) in res.items():
    print(f"{k}: wall median {statistics.median(w):.3f} s (min {min(w):.3f})  "
          f"cpu median {statistics.median(c):.3f} s (min {min(c):.3f})")
o, n = res["old"], res["new"]
print(f"new/old: wall {statistics.median(n[0]) / statistics.median(o[0]):.3f}, "
      f"cpu {statistics.median(n[1]) / statistics.median(o[1]):.3f} "
      f"({rounds} rounds, {os.path.basename(log)})")
PY

if [ "$COUNT" = 1 ] && command -v valgrind >/dev/null; then
	for which in old new; do
		bin=$OLD; [ $which = new ] && bin=$NEW
		valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$which" \
			"$bin" analyze -p "$POLICY" "$@" "$LOG" >/dev/null 2>"$TMP/cg.$which.err" || true
		printf '%s: %s instructions (callgrind)\n' "$which" \
			"$(sed -n 's/.*I *refs: *//p' "$TMP/cg.$which.err")"
	done
fi
