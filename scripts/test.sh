#!/bin/sh
# The README's second command: install, build (normal and ASan+UBSan) and run
# the whole test suite with CTest.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
"$top/scripts/deps.sh" test

status=0
for type in RelWithDebInfo ASan; do
	dir="$top/build-test-$type"
	echo "== $type build ==" >&2
	cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=$type >/dev/null
	cmake --build "$dir" -j"$jobs"
	(cd "$dir" && ctest --output-on-failure -j"$jobs") || status=1
done
exit $status
