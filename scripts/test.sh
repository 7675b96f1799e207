#!/bin/sh
# The README's second command: install, build (normal and ASan+UBSan) and run
# the whole test suite with CTest.  Cockpit's SELinux page test needs Cockpit
# and the page from Cockpit's source package: both are fetched here (the page
# once, for both builds); when fetching fails (no network), the test says it
# is skipped and why, it does not pass.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
"$top/scripts/deps.sh" cockpit

page="$top/build-test-cockpit"
mkdir -p "$page"
if [ -r "$page/selinux/setroubleshoot.html" ] ||
	"$top/scripts/cockpit-selinux.sh" "$page" >"$page/fetch.log" 2>&1; then
	echo "== Cockpit's SELinux page: $page/selinux ==" >&2
else
	echo "== Cockpit's SELinux page could not be fetched: $(tail -1 "$page/fetch.log") ==" >&2
fi
# what tests/cockpit-selinux.sh reads: the page, or why there is none
export AD_COCKPIT_SELINUX="$page/selinux" AD_COCKPIT_FETCH_LOG="$page/fetch.log"

status=0
for type in RelWithDebInfo ASan; do
	dir="$top/build-test-$type"
	echo "== $type build ==" >&2
	cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=$type >/dev/null
	cmake --build "$dir" -j"$jobs"
	(cd "$dir" && ctest --output-on-failure -j"$jobs") || status=1
done
exit $status
