#!/bin/bash
# `analyze` on logs where every denial is its own signature: the memory held
# must not grow with the number of alerts.  N = 100k and 1M events of ~1 KB
# (bench/distinct.py, source and target types taken from the policy), each
# analysed as JSON Lines and as a report opened by its overview, with the
# default batch of alerts; peak RSS and wall-clock time of each.
# Usage: bench/distinct.sh [BUILD_DIR] [POLICY]   (SIZES="100000 1000000" by default)
set -eu
BUILD=${1:-build}
POLICY=${2:-/etc/selinux/default/policy/policy.33}
AVCD=$BUILD/bin/avcdoctor
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
printf '%-8s %-10s %9s %10s  %s\n' events mode seconds maxrss_kb "closing line"
for n in ${SIZES:-100000 1000000}; do
	python3 "$HERE/distinct.py" "$n" "$POLICY" >"$TMP/in.log"
	for mode in json summary; do
		if [ $mode = json ]; then args=(--json); else args=(--summary --level all); fi
		/usr/bin/time -q -f "%e %M" -o "$TMP/t" "$AVCD" analyze "${args[@]}" -p "$POLICY" \
			"$TMP/in.log" >"$TMP/out" 2>"$TMP/err" || true
		read -r secs rss <"$TMP/t"
		if [ $mode = json ]; then line=$(tail -1 "$TMP/err"); else line=$(tail -1 "$TMP/out"); fi
		printf '%-8s %-10s %9s %10s  %s\n' "$n" $mode "$secs" "$rss" "$line"
	done
done
