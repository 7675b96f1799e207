#!/bin/sh
# The README's first command: install, build, and explain the bundled sample log.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/deps.sh" build
cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWITH_TESTS=OFF >/dev/null
cmake --build "$top/build" -j"$(nproc)" >/dev/null
echo "== avcdoctor why tests/data/sample.log ==" >&2
"$top/build/bin/avcdoctor" why "$top/tests/data/sample.log"
