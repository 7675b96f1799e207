# Helpers for the script tests (sourced).  CTest sets AD_BUILD_DIR,
# AD_SOURCE_DIR and AD_CORPUS; LANG=C TZ=UTC.
set -u
AVCDOCTOR="$AD_BUILD_DIR/analyzer/avcdoctor"
POLICY=/etc/selinux/default/policy/policy.33
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

pass() {
	echo "ok: $*"
}

# expect_status WANT DESCRIPTION -- command...
expect_status() {
	want=$1 desc=$2
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" = "$want" ]; then pass "$desc"; else
		fail "$desc: exit $got, wanted $want"; sed 's/^/    /' "$TMP/err" | head -5 >&2
	fi
}

# expect_grep PATTERN FILE DESCRIPTION
expect_grep() {
	if grep -q -- "$1" "$2"; then pass "$3"; else fail "$3: no '$1' in $2"; fi
}

# golden NAME FILE: compares FILE with tests/golden/NAME (AD_REGEN=1 rewrites it)
golden() {
	g="$AD_SOURCE_DIR/tests/golden/$1"
	if [ "${AD_REGEN:-}" = 1 ]; then cp "$2" "$g"; pass "regenerated $1"; return; fi
	if diff -u "$g" "$2" >"$TMP/diff"; then pass "golden $1"; else
		fail "golden $1 differs:"; head -40 "$TMP/diff" >&2
	fi
}

finish() {
	if [ "$failures" != 0 ]; then
		echo "$failures check(s) failed" >&2
		exit 1
	fi
	exit 0
}

require_policy() {
	if [ ! -r "$POLICY" ]; then
		echo "no $POLICY: install selinux-policy-default (scripts/deps.sh test)" >&2
		exit 1
	fi
}
