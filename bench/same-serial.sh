#!/bin/bash
# Denials that share one event stamp against the same number spread over
# events of their own: both must scale linearly.
#   bench/same-serial.sh [BUILD_DIR] [COUNTS...]   (default 25000 50000 100000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
shift || true
counts=${*:-25000 50000 100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf '%-8s %8s %10s %10s %8s\n' mode denials seconds maxrss_kb analysed
for n in $counts; do
	for mode in same spread; do
		python3 "$here/same-serial.py" --$mode "$n" >"$tmp/log"
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$build/bin/avcdoctor" why "$tmp/log" \
			>"$tmp/out" 2>&1 || true
		read -r secs rss < <(tail -n 1 "$tmp/time")
		printf '%-8s %8s %10s %10s %8s\n' "$mode" "$n" "$secs" "$rss" \
			"$(grep -c '^type=AVC' "$tmp/out")"
	done
done
