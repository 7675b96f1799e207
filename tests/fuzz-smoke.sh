#!/bin/bash
# A short fuzz run in the test suite (fuzz/README.md).  Builds the libFuzzer
# targets in a separate clang build ($AD_BUILD_DIR/fuzz-smoke), replays every
# regression input of tests/data/fuzz/<target>/ once, then fuzzes each target
# for $AD_FUZZ_SECONDS (10) seconds on its seeds.  Exit 77 (skipped) when
# clang or libclang-rt-14-dev is missing.
#
# tests/data/fuzz/KNOWN-CRASHES lists regression inputs whose fix is still
# pending ("<target>/<file>", one a line): they must still crash (a listed
# input that no longer crashes fails the test: remove its line), and their
# target is not fuzzed meanwhile (it would only find the same crash again).
# Any other crash fails the test, loudly.
set -u
src=${AD_SOURCE_DIR:?}
build=${AD_BUILD_DIR:?}/fuzz-smoke
secs=${AD_FUZZ_SECONDS:-10}
targets="fuzz-reader fuzz-policy fuzz-rules fuzz-escape fuzz-user-avc fuzz-inflate fuzz-pairs"
known_file=$src/tests/data/fuzz/KNOWN-CRASHES

command -v clang >/dev/null || { echo "fuzz-smoke: clang is not installed: skipped"; exit 77; }
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }' >"$probe/p.c"
if ! clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" 2>/dev/null; then
	echo "fuzz-smoke: clang cannot link -fsanitize=fuzzer (libclang-rt-14-dev?): skipped"
	exit 77
fi
[ -r /etc/selinux/default/policy/policy.33 ] || [ -n "${AD_FUZZ_POLICY:-}" ] ||
	{ echo "fuzz-smoke: no policy for fuzz-policy: skipped"; exit 77; }

echo "== building the fuzz targets in $build"
if ! { cmake -S "$src" -B "$build" -DWITH_FUZZ=ON -DWITH_TESTS=OFF -DWITH_NOTIFIER=OFF \
		-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$probe/cmake.log" &&
	cmake --build "$build" -j"$(nproc)" --target $targets >>"$probe/cmake.log" 2>&1; }; then
	cat "$probe/cmake.log"
	echo "fuzz-smoke: FAILED to build the fuzz targets"
	exit 1
fi
sh "$src/fuzz/seeds.sh" "$src" "$build/seeds" >/dev/null || exit 1

export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fail=0
declare -A pending=()

is_known() {
	[ -r "$known_file" ] && sed "s/[[:space:]]*#.*//" "$known_file" | grep -qxF "$1"
}

echo "== regression inputs"
for t in $targets; do
	dir=$src/tests/data/fuzz/$t
	[ -d "$dir" ] || continue
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		name=$t/$(basename "$f")
		if "$build/fuzz/$t" -runs=1 "$f" >"$probe/out" 2>&1; then
			if is_known "$name"; then
				echo "FAIL  $name no longer crashes: remove it from tests/data/fuzz/KNOWN-CRASHES"
				fail=1
			else
				echo "ok    $name"
			fi
		elif is_known "$name"; then
			echo "KNOWN $name still crashes (fix pending, see KNOWN-CRASHES); $t is not fuzzed"
			grep -m3 -E 'ERROR|runtime error|CRITICAL|PROPERTY' "$probe/out" | sed 's/^/      /'
			pending[$t]=1
		else
			echo "################################################################"
			echo "FAIL  REGRESSION INPUT CRASHES: $name"
			echo "################################################################"
			cat "$probe/out"
			fail=1
		fi
	done
done

echo "== fuzzing each target for $secs s"
run_one() {
	local t=$1 art=$build/artifacts/$t/ log=$build/$t.log
	mkdir -p "$art"
	local extra=
	# fuzz-inflate: one allocation over 256 MiB is a decoder that believed a header
	[ "$t" = fuzz-inflate ] && extra=-malloc_limit_mb=256
	"$build/fuzz/$t" -max_total_time="$secs" -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 $extra -print_final_stats=1 -artifact_prefix="$art" \
		"$build/seeds/$t" >"$log" 2>&1
}
ran=()
n=0
for t in $targets; do
	if [ -n "${pending[$t]:-}" ]; then
		echo "skip  $t: a known crash is pending"
		continue
	fi
	run_one "$t" &
	ran+=("$t")
	n=$((n + 1))
	# two at a time: the fuzzing takes 2 x $secs s on two cores
	[ $((n % 2)) -eq 0 ] && wait
done
wait
for t in "${ran[@]}"; do
	log=$build/$t.log
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	if grep -qE '^==[0-9]+==ERROR|runtime error:|deadly signal|PROPERTY VIOLATED|CRITICAL' "$log"; then
		echo "################################################################"
		echo "FAIL  $t CRASHED while fuzzing; input saved in $build/artifacts/$t/"
		echo "      keep it as tests/data/fuzz/$t/<name> once understood"
		echo "################################################################"
		grep -vE '^#[0-9]|^INFO|^\s+NEW_FUNC|^"' "$log" | tail -60
		fail=1
	else
		echo "ok    $t: ${execs:-?} runs in $secs s"
	fi
done
exit $fail
