#!/bin/bash
# Long fuzz runs: each libFuzzer target for $AD_FUZZ_MINUTES (10) minutes
# under ASan+UBSan, on its seeds plus a corpus kept between runs.
# Usage: bench/fuzz.sh [BUILD_DIR] [TARGET...]   (default build-fuzz, all seven)
# Needs clang and libclang-rt-14-dev (scripts/deps.sh test).  Crashes are
# written to BUILD_DIR/artifacts/<target>/; keep each one as a regression
# input in tests/data/fuzz/<target>/ once it is understood (fuzz/README.md).
# Exit 1 when a target crashed.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-fuzz}
shift || true
targets=${*:-fuzz-reader fuzz-policy fuzz-rules fuzz-escape fuzz-user-avc fuzz-inflate fuzz-pairs}
secs=$(( ${AD_FUZZ_MINUTES:-10} * 60 ))
jobs=${AD_FUZZ_JOBS:-1}

cmake -S "$src" -B "$build" -DWITH_FUZZ=ON -DWITH_TESTS=OFF -DWITH_NOTIFIER=OFF \
	-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 1
cmake --build "$build" -j"$(nproc)" --target $targets >/dev/null || exit 1
sh "$src/fuzz/seeds.sh" "$src" "$build/seeds" || exit 1

export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fail=0
for t in $targets; do
	corpus=$build/corpus/$t
	art=$build/artifacts/$t/
	mkdir -p "$corpus" "$art"
	echo "== $t: $secs s, $jobs job(s); log in $build/$t-long.log"
	# -fork with -ignore_crashes: one crash does not end the run, every
	# distinct crash is kept in $art
	# fuzz-inflate: one allocation over 256 MiB is a decoder that believed a header
	extra=
	[ "$t" = fuzz-inflate ] && extra=-malloc_limit_mb=256
	"$build/fuzz/$t" -fork="$jobs" -ignore_crashes=1 -max_total_time="$secs" \
		-max_len=4096 -timeout=10 -rss_limit_mb=2048 $extra -artifact_prefix="$art" \
		"$corpus" "$build/seeds/$t" >"$build/$t-long.log" 2>&1
	last=$(grep -E '^#[0-9]+' "$build/$t-long.log" | tail -1)
	echo "   $last"
	n=$(find "$art" -type f | wc -l)
	if [ "$n" -gt 0 ]; then
		echo "   CRASHES: $n input(s) in $art"
		fail=1
	fi
done
exit $fail
