#!/usr/bin/env bash
# Benchmarks avcdoctor against audit2why on the same generated logs, in one run.
#
#   bench/run.sh                 full run (about 10-15 minutes on 2 cores)
#   N=2000 MCS_N=2000 MCS_A2W_N=1000 AUPARSE_NS="1000 2000" bench/run.sh   smoke test
#
# Writes everything into bench/out/ (gitignored): the build, the logs, each
# tool's output (*.out, *.err, *.time) and the Markdown table bench/out/results.md.
# As root it apt-get installs what it needs; otherwise it only checks.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
OUT=$HERE/out
BUILD=$OUT/build
POLICY=${POLICY:-/etc/selinux/default/policy/policy.33}
N=${N:-100000}                    # spread / flood / names events
MCS_N=${MCS_N:-100000}            # avcdoctor on distinct MCS pairs
MCS_A2W_N=${MCS_A2W_N:-20000}     # audit2why on distinct MCS pairs (if < MCS_A2W_LIMIT)
MCS_A2W_SMALL=${MCS_A2W_SMALL:-5000}   # fallback N, extrapolated, if it is not
MCS_A2W_LIMIT=${MCS_A2W_LIMIT:-300}    # seconds
A2W_TIMEOUT=${A2W_TIMEOUT:-1200}  # seconds, audit2why on the N-event logs
AVCD_TIMEOUT=${AVCD_TIMEOUT:-1200}
AUPARSE_NS=${AUPARSE_NS:-"5000 10000 20000 40000"}
SEED=${SEED:-1}
REPEAT=${REPEAT:-3}                # runs per measurement; the median is reported
# avcdoctor's runs take a fraction of a second and vary by +-30% on a shared 2-core VM
# (two threads: a stolen vCPU stalls both): more of them make its median steadier
AVCD_REPEAT=${AVCD_REPEAT:-9}

say() { printf '%s [bench] %s\n' "$(date +%T)" "$*" >&2; }
for knob in N MCS_N MCS_A2W_N REPEAT AVCD_REPEAT; do
	case ${!knob} in
	'' | *[!0-9]* | 0) echo "run.sh: $knob must be a whole number of 1 or more, not '${!knob}'" >&2; exit 1 ;;
	esac
done

# --- dependencies ---------------------------------------------------------------
pkgs="coreutils python3 policycoreutils-python-utils selinux-policy-default
	build-essential cmake pkg-config gettext libauparse-dev libaudit-dev
	libselinux1-dev libsepol-dev libglib2.0-dev libjson-c-dev"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ]; then
		say "installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -q
		# shellcheck disable=SC2086
		apt-get install -y -q --no-install-recommends $missing
	else
		echo "run.sh: missing packages:$missing (run as root to install them)" >&2
		exit 1
	fi
fi
[ -r "$POLICY" ] || { echo "run.sh: no policy at $POLICY" >&2; exit 2; }

mkdir -p "$OUT"

# --- build ----------------------------------------------------------------------
# By default avcdoctor is built from a clean snapshot of the committed HEAD
# (git archive into out/src), so that the figures belong to one commit even while
# others edit the work tree; BENCH_SRC=tree builds the work tree as it is.
BENCH_SRC=${BENCH_SRC:-head}
if [ "$BENCH_SRC" = tree ]; then
	SRC=$ROOT
	BUILT_FROM="work tree at $(git -C "$ROOT" rev-parse --short HEAD)"
	if [ -n "$(git -C "$ROOT" status --porcelain -- analyzer CMakeLists.txt cmake config.h.in)" ]; then
		BUILT_FROM="$BUILT_FROM + uncommitted changes"
	fi
else
	SRC=$OUT/src
	rev=$(git -C "$ROOT" rev-parse HEAD)
	if [ "$(cat "$OUT/src.rev" 2>/dev/null)" != "$rev" ]; then
		say "snapshot of $rev into $SRC"
		rm -rf "$SRC" "$BUILD"
		mkdir -p "$SRC"
		git -C "$ROOT" archive "$rev" | tar -x -C "$SRC"
		echo "$rev" >"$OUT/src.rev"
	fi
	BUILT_FROM="commit $(git -C "$ROOT" rev-parse --short "$rev") ($(git -C "$ROOT" log -1 --format=%cI "$rev"))"
fi
if [ -f "$BUILD/CMakeCache.txt" ] && ! grep -q "^CMAKE_HOME_DIRECTORY:INTERNAL=$SRC\$" "$BUILD/CMakeCache.txt"; then
	rm -rf "$BUILD"    # configured for the other source
fi
say "building avcdoctor (Release) from $BUILT_FROM in $BUILD"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
	cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=OFF >"$OUT/cmake.log"
fi
cmake --build "$BUILD" -j2 >>"$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log" >&2; exit 1; }
AVCD=$BUILD/bin/avcdoctor
[ -x "$AVCD" ] || AVCD=$(find "$BUILD" -type f -name avcdoctor -perm -u+x | head -1)
[ -x "$AVCD" ] || { echo "run.sh: avcdoctor binary not found under $BUILD" >&2; exit 1; }
say "building auparse-flood"
gcc -O2 -Wall -Wextra -o "$OUT/auparse-flood" "$HERE/auparse-flood.c" -lauparse -laudit

# --- logs -----------------------------------------------------------------------
gen() { # mode n file
	if [ ! -s "$3" ] || [ "$3" -ot "$HERE/gen-log.py" ]; then
		say "generating $3"
		python3 "$HERE/gen-log.py" "--$1" "$2" --seed "$SEED" -o "$3.tmp"
		mv "$3.tmp" "$3"
	fi
}
SPREAD=$OUT/spread-$N.log
FLOOD=$OUT/flood-$N.log
NAMES=$OUT/names-$N.log
MCS=$OUT/mcs-$MCS_N.log
MCS_A2W=$OUT/mcs-$MCS_A2W_N.log
MCS_SMALL=$OUT/mcs-$MCS_A2W_SMALL.log
gen spread "$N" "$SPREAD"
gen flood "$N" "$FLOOD"
gen names "$N" "$NAMES"
gen mcs "$MCS_N" "$MCS"
gen mcs "$MCS_A2W_N" "$MCS_A2W"

# --- measuring ------------------------------------------------------------------
RES=$OUT/results.tsv
: >"$RES"

rm -f "$OUT"/*.runs "$OUT"/*.failed

# run_once ID TOOL TIMEOUT LOG: one run of TOOL on LOG under measure.py, its output in
# ID.out and ID.err; appends "seconds KiB status" to ID.runs.  Once a run of ID timed
# out or failed, ID is not run again.
run_once() {
	local id=$1 tool=$2 to=$3 log=$4 rc secs kib n cmd
	[ -e "$OUT/$id.failed" ] && return 0
	case $tool in
	avcdoctor) cmd=("$AVCD" why -p "$POLICY" "$log") ;;
	audit2why) cmd=(audit2why -p "$POLICY" -i "$log") ;;
	esac
	n=1
	[ ! -f "$OUT/$id.runs" ] || n=$(($(wc -l <"$OUT/$id.runs") + 1))
	say "$id: $tool on $(basename "$log"), run $n (timeout ${to}s)"
	rm -f "$OUT/$id.time"
	set +e
	python3 "$HERE/measure.py" "$OUT/$id.time" \
		timeout -k 10 "$to" "${cmd[@]}" >"$OUT/$id.out" 2>"$OUT/$id.err"
	rc=$?
	set -e
	# measure.py writes the file unless it could not run at all
	read -r secs _ kib _ < <(tail -1 "$OUT/$id.time" 2>/dev/null) || { secs=0; kib=0; }
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		rc=timeout
	elif [ "$rc" != 0 ]; then
		rc="exit $rc"
	else
		rc=ok
	fi
	echo "$secs $kib $rc" >>"$OUT/$id.runs"
	[ "$rc" = ok ] || touch "$OUT/$id.failed"
}

# summarize ID CASE TOOL LOG: the median of ID's runs (the middle one for an odd count),
# appended to results.tsv:
# id case tool n_events log_lines log_bytes median_seconds median_kib status analysed all_runs
summarize() {
	local id=$1 case=$2 tool=$3 log=$4 status=ok analysed secs kib all
	local events lines bytes
	events=$(grep -c '^type=AVC ' "$log" || true)
	lines=$(wc -l <"$log")
	bytes=$(stat -c %s "$log")
	all=$(awk '{ printf "%s%ss/%sKiB", (NR > 1 ? " " : ""), $1, $2 }' "$OUT/$id.runs")
	read -r secs kib status < <(tail -1 "$OUT/$id.runs")
	if [ "$status" = ok ]; then
		secs=$(awk '{ print $1 }' "$OUT/$id.runs" | sort -g | sed -n "$((($(wc -l <"$OUT/$id.runs") + 1) / 2))p")
		kib=$(awk '{ print $2 }' "$OUT/$id.runs" | sort -g | sed -n "$((($(wc -l <"$OUT/$id.runs") + 1) / 2))p")
	fi
	if [ "$tool" = avcdoctor ]; then
		analysed=$(tail -1 "$OUT/$id.out" | sed -n 's/^\([0-9][0-9]*\) denial records analysed.*/\1/p')
	else
		analysed=$(grep -c 'Was caused by' "$OUT/$id.out" || true)
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$case" "$tool" "$events" "$lines" \
		"$bytes" "$secs" "$kib" "$status" "${analysed:-?}" "$all" >>"$RES"
	say "$id: $status, median $secs s, $kib KiB, ${analysed:-?} analysed (runs: $all)"
}

# measure ID CASE TOOL TIMEOUT LOG: its runs one after the other, then the median
measure() {
	local r runs=$REPEAT

	[ "$3" = avcdoctor ] && runs=$AVCD_REPEAT
	for ((r = 1; r <= runs; r++)); do
		run_once "$1" "$3" "$4" "$5"
	done
	summarize "$1" "$2" "$3" "$5"
}

# warm-up (not reported): policy.33 and both programs in the page cache
python3 "$HERE/gen-log.py" --spread 50 --seed "$SEED" -o "$OUT/warmup.log"
"$AVCD" why -p "$POLICY" "$OUT/warmup.log" >/dev/null 2>&1 || true
audit2why -p "$POLICY" -i "$OUT/warmup.log" >/dev/null 2>&1 || true

# The spread, flood and names logs are measured in rounds: each round runs avcdoctor on
# the three logs, and every few rounds audit2why runs on them too.  The vCPUs of a
# shared machine slow down for seconds at a time; interleaved, such a phase falls on
# every case and on both tools alike instead of on the runs of one case.
a2w_every=$((AVCD_REPEAT / REPEAT))
[ "$a2w_every" -ge 1 ] || a2w_every=1
a2w_rounds=0
a2w_round() {
	run_once spread-a2w audit2why "$A2W_TIMEOUT" "$SPREAD"
	run_once flood-a2w audit2why "$A2W_TIMEOUT" "$FLOOD"
	run_once names-a2w audit2why "$A2W_TIMEOUT" "$NAMES"
	a2w_rounds=$((a2w_rounds + 1))
}
for ((round = 1; round <= AVCD_REPEAT; round++)); do
	run_once spread-avcd avcdoctor "$AVCD_TIMEOUT" "$SPREAD"
	run_once flood-avcd avcdoctor "$AVCD_TIMEOUT" "$FLOOD"
	run_once names-avcd avcdoctor "$AVCD_TIMEOUT" "$NAMES"
	if [ $(((round - 1) % a2w_every)) = 0 ] && [ "$a2w_rounds" -lt "$REPEAT" ]; then
		a2w_round
	fi
done
while [ "$a2w_rounds" -lt "$REPEAT" ]; do
	a2w_round
done
for c in spread flood names; do
	summarize "$c-avcd" "$c" avcdoctor "$OUT/$c-$N.log"
	summarize "$c-a2w" "$c" audit2why "$OUT/$c-$N.log"
done
measure mcs-avcd mcs avcdoctor "$AVCD_TIMEOUT" "$MCS"
measure mcs-small-avcd mcs-small avcdoctor "$AVCD_TIMEOUT" "$MCS_A2W"
measure mcs-small-a2w mcs-small audit2why "$MCS_A2W_LIMIT" "$MCS_A2W"
if grep -q $'^mcs-small-a2w\t.*\ttimeout\t' "$RES"; then
	# audit2why did not finish N distinct MCS pairs within the limit: measure a
	# smaller N and extrapolate quadratically (sidtab lookups are linear in the SIDs).
	gen mcs "$MCS_A2W_SMALL" "$MCS_SMALL"
	measure mcs-fallback-avcd mcs-fallback avcdoctor "$AVCD_TIMEOUT" "$MCS_SMALL"
	measure mcs-fallback-a2w mcs-fallback audit2why "$A2W_TIMEOUT" "$MCS_SMALL"
fi

say "auparse-flood $AUPARSE_NS"
# shellcheck disable=SC2086
"$OUT/auparse-flood" $AUPARSE_NS | tee "$OUT/auparse-flood.md"

# --- report ---------------------------------------------------------------------
ver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo '?'; }
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine: $(nproc) cores, $(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo), $(free -g | awk '/Mem:/{print $2}') GiB RAM, kernel $(uname -r)"
	echo "avcdoctor: $BUILT_FROM, Release build ($(cc --version | head -1))"
	echo "audit2why: policycoreutils-python-utils $(ver policycoreutils-python-utils), python3-sepolgen $(ver python3-sepolgen), python3 $(ver python3)"
	echo "libsepol $(ver libsepol2), libsepol-dev $(ver libsepol-dev), libauparse $(ver libauparse0), selinux-policy-default $(ver selinux-policy-default)"
	echo "policy: $POLICY; seed $SEED"
} >"$OUT/versions.txt"

python3 - "$RES" "$OUT/versions.txt" "$OUT/auparse-flood.md" "$MCS_A2W_LIMIT" "$REPEAT" "$AVCD_REPEAT" >"$OUT/results.md" <<'EOF'
import sys
res, versions, auparse, limit, repeat, avcd_repeat = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5], sys.argv[6]
rows = [l.rstrip("\n").split("\t") for l in open(res) if l.strip()]
R = {}
for r in rows:
    id_, case, tool, ev, lines, size, secs, kib, status, analysed, runs = r
    R[(case, tool)] = dict(ev=int(ev), lines=int(lines), mb=int(size) / 1e6, s=float(secs),
                           kib=int(kib), status=status, analysed=analysed, runs=runs)

def t(x):
    if x["status"] == "timeout":
        return f"> {x['s']:.0f} s (timeout)"
    s = f"{x['s']:.3f} s" if x["s"] < 10 else f"{x['s']:.2f} s"
    return s if x["status"] == "ok" else s + f" ({x['status']})"

def m(x):
    return f"{x['kib'] / 1024:.1f} MiB"

labels = {
    "spread": "spread: 1 event / ~10 ms",
    "flood": "flood: all events in one second",
    "names": "names: every event a distinct file name",
    "mcs": "MCS: distinct s0:cX,cY per source and target",
    "mcs-small": "MCS: distinct s0:cX,cY per source and target",
    "mcs-fallback": "MCS (smaller N, audit2why did not finish the larger one)",
}
out = []
out.append("| case | input | tool | time | peak RSS | denials explained | audit2why / avcdoctor time | audit2why / avcdoctor RSS |")
out.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
for case in ["spread", "flood", "names", "mcs", "mcs-small", "mcs-fallback"]:
    a, b = R.get((case, "avcdoctor")), R.get((case, "audit2why"))
    if not a:
        continue
    inp = f"{a['ev']:,} events, {a['lines']:,} lines, {a['mb']:.0f} MB"
    if b:
        if b["status"] == "timeout":
            tr = f"> {b['s'] / a['s']:.0f}x"
            mr = "n/a (killed)"
        else:
            tr = f"{b['s'] / a['s']:.1f}x" if a["s"] > 0 else "n/a"
            mr = f"{b['kib'] / a['kib']:.1f}x"
    else:
        tr = mr = "not run"
    out.append(f"| {labels[case]} | {inp} | avcdoctor | {t(a)} | {m(a)} | {a['analysed']} | {tr} | {mr} |")
    if b:
        out.append(f"| | | audit2why | {t(b)} | {m(b)} | {b['analysed']} | | |")

notes = []
sp, fl = R.get(("spread", "avcdoctor")), R.get(("flood", "avcdoctor"))
if sp and fl and sp["s"] > 0:
    q = fl["s"] / sp["s"]
    notes.append(f"avcdoctor flood / spread time: {q:.2f}x (requirement: within 3x) -> "
                 f"{'PASS' if q <= 3 else 'FAIL'}")
fb = R.get(("mcs-fallback", "audit2why"))
sm = R.get(("mcs-small", "audit2why"))
if fb and sm and sm["status"] == "timeout" and fb["status"] == "ok":
    k = sm["ev"] / fb["ev"]
    est = fb["s"] * k * k
    a = R[("mcs-small", "avcdoctor")]
    notes.append(f"EXTRAPOLATED, not measured: audit2why on {sm['ev']:,} MCS events would take about "
                 f"{est:.0f} s = {fb['s']:.1f} s x ({sm['ev']:,}/{fb['ev']:,})^2, assuming quadratic growth; "
                 f"that is ~{est / a['s']:.0f}x avcdoctor's measured {a['s']:.2f} s on the same {sm['ev']:,}-event log.")
elif sm and sm["status"] == "ok":
    notes.append(f"audit2why on the {sm['ev']:,}-event MCS log finished within the {limit:.0f} s limit: measured, not extrapolated.")

print("# avcdoctor vs audit2why\n")
print("".join("    " + l for l in open(versions)))
print("\n".join(out))
print()
for n in notes:
    print(f"- {n}")
print(f"- time = wall clock to the millisecond, peak RSS = maximum resident set size (bench/measure.py: perf_counter and wait4), "
      f"median of {avcd_repeat} runs of avcdoctor and {repeat} of audit2why (a run that times out is not repeated); "
      "the spread, flood and names runs in rounds, each round avcdoctor on the three logs, audit2why on them every few rounds; "
      "both tools read the same file in the same run, text output written to a file; "
      "'denials explained' = avcdoctor's summary count / audit2why's 'Was caused by' count.")
print("\nEvery run (time/peak RSS):\n")
for r in rows:
    print(f"- {r[0]}: {r[10]}" + ("" if r[8] == "ok" else f" ({r[8]})"))
print("\n## libauparse 3.0.9 event assembly (bench/auparse-flood.c)\n")
print(open(auparse).read())
EOF
say "wrote $OUT/results.md"
cat "$OUT/results.md"
