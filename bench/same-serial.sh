#!/bin/bash
# Records sharing one event serial must cost what spread-out records cost:
# N AVC records with one audit(...:42) stamp against N with their own
# serials, for N = 25k, 50k, 100k, in one run.  Before events were indexed
# once, N same-serial records took 4 s, 16 s and 81 s (quadratic).
# Usage: bench/same-serial.sh [BUILD_DIR]
set -eu
BUILD=${1:-build}
AVCD=$BUILD/bin/avcdoctor
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
gen() {	# gen N same|spread FILE
	python3 - "$@" <<'PY'
import sys
n, mode, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(path, "w") as f:
    for i in range(n):
        serial = 42 if mode == "same" else i + 1
        f.write('type=AVC msg=audit(1700000000.100:%d): avc:  denied  { read } for  pid=%d '
                'comm="httpd" name="f%d" dev="sda1" ino=%d '
                'scontext=system_u:system_r:httpd_t:s0 '
                'tcontext=system_u:object_r:user_home_t:s0 tclass=file permissive=0\n'
                % (serial, i, i, i))
PY
}
printf '%-8s %-8s %8s %10s\n' records serial seconds maxrss_kb
for n in 25000 50000 100000; do
	for mode in spread same; do
		gen $n $mode "$TMP/in.log"
		/usr/bin/time -q -f "%e %M" -o "$TMP/t" "$AVCD" why "$TMP/in.log" >/dev/null 2>&1 || true
		read -r secs rss <"$TMP/t"
		printf '%-8s %-8s %8s %10s\n' $n $mode "$secs" "$rss"
	done
done
