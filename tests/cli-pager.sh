#!/bin/bash
# The pager, on a terminal (script(1) gives the commands a pty): the report
# goes through $AVCDOCTOR_PAGER or $PAGER with LESS=FRX unless LESS is set,
# is waited for; --no-pager, a pipe, PAGER="" or "cat" write directly; the
# value is split into words and run without a shell.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
if ! command -v script >/dev/null; then
	echo "no script(1): install bsdutils" >&2
	exit 77
fi
SAMPLE="$AD_SOURCE_DIR/tests/data/sample.log"
export AVCDOCTOR_NO_PROGRESS=1
unset AVCDOCTOR_PAGER LESS

# a pager that keeps what it was given: its words, LESS, the text, then DONE
cat >"$TMP/pager" <<EOF
#!/bin/sh
{ echo "ARGS: \$*"; echo "LESS=\$LESS"; cat; echo DONE; } >"$TMP/paged"
EOF
chmod +x "$TMP/pager"

# on_tty COMMAND...: runs it with a terminal as stdin, stdout and stderr; its output in $TMP/tty
on_tty() {
	local cmd
	printf -v cmd '%q ' "$@"
	rm -f "$TMP/paged"
	script -qec "$cmd" /dev/null </dev/null >"$TMP/tty" 2>&1
}

PAGER="$TMP/pager --one 'two words'" on_tty "$AVCDOCTOR" analyze -p "$POLICY" "$SAMPLE"
if [ -f "$TMP/paged" ]; then
	pass "analyze on a terminal: through \$PAGER"
	expect_grep '^ARGS: --one two words$' "$TMP/paged" "the pager's words split as a shell would"
	expect_grep '^LESS=FRX$' "$TMP/paged" "LESS=FRX when LESS is unset"
	expect_grep '^Overview$' "$TMP/paged" "the report is in the pager"
	expect_grep '^[0-9]* denial records in [0-9]* alerts' "$TMP/paged" "the closing line too"
	expect_grep '^DONE$' "$TMP/paged" "the pager is waited for: it had finished when avcdoctor exited"
	grep -q '^Overview$' "$TMP/tty" && fail "the report also went to the terminal" ||
		pass "the report went to the pager only"
else
	fail "analyze on a terminal: no pager ran: $(head -3 "$TMP/tty")"
fi

LESS=-S PAGER="$TMP/pager" on_tty "$AVCDOCTOR" why -p "$POLICY" "$SAMPLE"
expect_grep '^LESS=-S$' "$TMP/paged" "why: the user's LESS is kept"
expect_grep '^  Reason: ' "$TMP/paged" "why is paged"

AVCDOCTOR_PAGER="$TMP/pager --mine" PAGER=false on_tty "$AVCDOCTOR" allow -p "$POLICY" "$SAMPLE"
expect_grep '^ARGS: --mine$' "$TMP/paged" "AVCDOCTOR_PAGER before PAGER"
expect_grep '^#=* httpd_t =*$' "$TMP/paged" "allow is paged"

PAGER="$TMP/pager" on_tty "$AVCDOCTOR" analyze --no-pager -p "$POLICY" "$SAMPLE"
[ -f "$TMP/paged" ] && fail "--no-pager still paged" || pass "--no-pager: no pager"
expect_grep '^Overview' "$TMP/tty" "--no-pager: the report on the terminal"

for p in "" cat; do
	PAGER=$p on_tty "$AVCDOCTOR" analyze -p "$POLICY" "$SAMPLE"
	expect_grep '^Overview' "$TMP/tty" "PAGER=\"$p\": the report on the terminal"
done

rm -f "$TMP/paged"
PAGER="$TMP/pager" "$AVCDOCTOR" analyze -p "$POLICY" "$SAMPLE" >"$TMP/piped" 2>&1
[ -f "$TMP/paged" ] && fail "a pipe was paged" || pass "into a pipe: no pager"

# no shell: a PAGER with shell syntax is words, not a command line
rm -f "$TMP/pwned"
PAGER="cat; touch $TMP/pwned" on_tty "$AVCDOCTOR" analyze -p "$POLICY" "$SAMPLE"
[ -e "$TMP/pwned" ] && fail "PAGER went through a shell" || pass "PAGER is not run through a shell"
expect_grep 'cannot start the pager' "$TMP/tty" "a pager that cannot start is said"
expect_grep '^Overview' "$TMP/tty" "and the report goes to the terminal"

# list and show through the pager (a store filled by the unit test's helper)
TEST_STORE="$AD_BUILD_DIR/tests/test-store"
if [ -x "$TEST_STORE" ]; then
	db="$TMP/alerts.db"
	"$TEST_STORE" --fill "$db" --policy "$POLICY" --log "$SAMPLE" >/dev/null 2>&1 || fail "test-store --fill"
	PAGER="$TMP/pager" on_tty "$AVCDOCTOR" list --db "$db"
	expect_grep '^ID  *LEVEL' "$TMP/paged" "list is paged"
	id=$(awk '$1 ~ /^[0-9a-f]{16}$/ {print $1; exit}' "$TMP/paged")
	PAGER="$TMP/pager" on_tty "$AVCDOCTOR" show --db "$db" "$id"
	expect_grep "Alert $id" "$TMP/paged" "show is paged"
	PAGER="$TMP/pager" on_tty "$AVCDOCTOR" list --no-pager --db "$db"
	[ -f "$TMP/paged" ] && fail "list --no-pager still paged" || pass "list --no-pager"
fi
finish
