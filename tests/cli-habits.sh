#!/bin/bash
# The habits of audit2allow and audit2why: a pipe is read without "-", the
# module of one alert grants that alert's accesses only, useless rules are
# commented out with their reason, files that are not audit logs are said
# to be so.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
cd "$AD_CORPUS" || exit 1
crafted=crafted/debian-refpolicy-cases.log

# --- a pipe is the input when no FILE is given ---------------------------------
grep 'user_home_t' $crafted > "$TMP/one.log"
grep -q . "$TMP/one.log" || fail "the corpus lacks the user_home_t denial"
"$AVCDOCTOR" allow -p "$POLICY" < "$TMP/one.log" > "$TMP/pipe.te" 2> "$TMP/pipe.err" &&
	pass "allow reads a redirected stdin" || fail "allow from stdin: $(cat "$TMP/pipe.err")"
cat "$TMP/one.log" | "$AVCDOCTOR" allow -p "$POLICY" > "$TMP/pipe2.te" 2>>"$TMP/pipe.err" ||
	fail "allow from a pipe"
cmp -s "$TMP/pipe.te" "$TMP/pipe2.te" && pass "a pipe and a redirection read alike" ||
	fail "pipe and redirection differ"
rules=$(grep -c '^allow ' "$TMP/pipe2.te")
if [ "$rules" = 1 ] && grep -q '^allow httpd_t user_home_t:file ' "$TMP/pipe2.te"; then
	pass "allow: only the piped denial's rule"
else
	fail "allow from a pipe: $rules rules"; cat "$TMP/pipe2.te" >&2
fi
mkdir -p "$TMP/pipemod" && cd "$TMP/pipemod" || exit 1
cat "$TMP/one.log" | "$AVCDOCTOR" allow -M pipemod -p "$POLICY" > "$TMP/pipemod.out" 2>&1 ||
	fail "allow -M from a pipe: $(cat "$TMP/pipemod.out")"
n=$(grep -c '^allow ' pipemod.te)
if [ "$n" = 1 ] && grep -q '^allow httpd_t user_home_t:file ' pipemod.te; then
	pass "allow -M: the module holds only the piped denial's rule"
else
	fail "allow -M from a pipe: $n rules"; cat pipemod.te >&2
fi
cd "$AD_CORPUS" || exit 1
cat "$TMP/one.log" | "$AVCDOCTOR" why -p "$POLICY" > "$TMP/why.out" 2>&1
expect_grep "^1 denial record analysed" "$TMP/why.out" "why reads a pipe"
cat "$TMP/one.log" | "$AVCDOCTOR" analyze -p "$POLICY" > "$TMP/an.out" 2>&1
expect_grep "^1 denial record in 1 alert" "$TMP/an.out" "analyze reads a pipe"
"$AVCDOCTOR" why --help > "$TMP/help" 2>&1
expect_grep "standard input when it is" "$TMP/help" "--help says a pipe is read"
# a terminal keeps the default log: script(1) gives the command a terminal
if command -v script >/dev/null && [ ! -e /var/log/audit/audit.log ]; then
	script -qec "$AVCDOCTOR why -p $POLICY" /dev/null < /dev/null > "$TMP/tty.out" 2>&1
	expect_grep "/var/log/audit/audit.log" "$TMP/tty.out" "a terminal: the default log"
fi
finish
