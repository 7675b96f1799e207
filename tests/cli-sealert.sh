#!/bin/bash
# avcdoctor called through a link named sealert: -a FILE says what
# `avcdoctor analyze FILE` says, -l ID what `avcdoctor show ID` says, for an
# alert id and for the local ids of the dispatcher's log line, -l "*" every
# alert as show prints it, -b starts the browser beside the program, -h lists
# the options, and each option of setroubleshoot's sealert that means
# nothing here is refused in one line that says what to do instead.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
LOG="$AD_SOURCE_DIR/tests/data/sample.log"
ln -s "$AVCDOCTOR" "$TMP/sealert"
SEALERT="$TMP/sealert"

# same DESCRIPTION -- SEALERT-ARGS -- AVCDOCTOR-ARGS: the same output and status
same() {
	local desc=$1 a=() b=() st1 st2
	shift 2
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	"$SEALERT" "${a[@]}" >"$TMP/s.out" 2>"$TMP/s.err"
	st1=$?
	"$AVCDOCTOR" "${b[@]}" >"$TMP/a.out" 2>"$TMP/a.err"
	st2=$?
	if [ "$st1" = "$st2" ] && cmp -s "$TMP/s.out" "$TMP/a.out" && [ -s "$TMP/s.out" ]; then
		pass "$desc (exit $st1)"
	else
		fail "$desc: sealert exit $st1, avcdoctor exit $st2; stdout differs or is empty:"
		diff "$TMP/a.out" "$TMP/s.out" | head -10 >&2
		head -3 "$TMP/s.err" >&2
	fi
}

# ---- -a FILE
same "sealert -a FILE is avcdoctor analyze FILE" \
	-- -a "$LOG" --policy "$POLICY" -- analyze -p "$POLICY" "$LOG"
same "sealert --analyze=FILE" -- --analyze="$LOG" --policy="$POLICY" -- analyze -p "$POLICY" "$LOG"
expect_grep '^SELinux is preventing httpd from read access on the file /etc/shadow\.' "$TMP/s.out" \
	"-a: setroubleshoot's first line"
expect_status 1 "-a: a missing log is an input error" -- "$SEALERT" -a "$TMP/none.log" --policy "$POLICY"
expect_grep 'none.log' "$TMP/err" "-a: the missing log is named"

# ---- -l ID from a store
TEST_STORE="$AD_BUILD_DIR/tests/test-store"
if [ -x "$TEST_STORE" ]; then
	mkdir -m 700 "$TMP/store"
	db="$TMP/store/alerts.db"
	"$TEST_STORE" --fill "$db" --policy "$POLICY" --log "$LOG" >/dev/null 2>&1 ||
		fail "test-store --fill failed"
	id=$("$AVCDOCTOR" list --db "$db" --all | awk '$1 ~ /^[0-9a-f]{16}$/ {print $1; exit}')
	if [ -n "$id" ]; then
		same "sealert -l ID is avcdoctor show ID" -- -l "$id" --db "$db" -- show --db "$db" "$id"
		expect_grep 'SELinux is preventing' "$TMP/s.out" "-l: the alert's summary"
		same "sealert -l ID-NUM (the log line's local id)" -- -l "$id-1" --db "$db" -- \
			show --db "$db" "$id"
		same "sealert -l ID-NUM.GEN (a later analysis)" -- --lookupid="$id-12.3" --db "$db" -- \
			show --db "$db" "$id"
		# -l "*": every alert as show prints it, oldest first
		: >"$TMP/all.want"
		for i in $("$AVCDOCTOR" list --sort time --db "$db" | awk '$1 ~ /^[0-9a-f]{16}$/ {print $1}'); do
			[ -s "$TMP/all.want" ] && echo >>"$TMP/all.want"
			"$AVCDOCTOR" show --db "$db" "$i" >>"$TMP/all.want"
		done
		"$SEALERT" -l '*' --db "$db" >"$TMP/all.out" 2>"$TMP/all.err"
		if [ $? = 0 ] && cmp -s "$TMP/all.want" "$TMP/all.out" && [ -s "$TMP/all.out" ]; then
			pass "sealert -l '*': every alert as show prints it ($(cat "$TMP/all.err"))"
		else
			fail "sealert -l '*' differs from show of each alert:"
			diff "$TMP/all.want" "$TMP/all.out" | head -5 >&2
		fi
	else
		fail "no alert in the test store"
	fi
	expect_status 1 "-l: no such alert" -- "$SEALERT" -l 0123456789abcdef-1 --db "$db"
	expect_status 1 "-l: not an id" -- "$SEALERT" -l 'nonsense;rm' --db "$db"
	expect_grep 'is not an alert id' "$TMP/err" "-l: says the id is not one"
else
	echo "skipping the -l cases: no test-store"
fi
expect_status 1 "-l: setroubleshoot's UUID" -- "$SEALERT" -l 66cb5378-d593-42b3-9b6e-68da2cf09628
expect_grep "alert id of setroubleshoot" "$TMP/err" "-l UUID: says whose id it is"
expect_grep 'sealert -l "\*"' "$TMP/err" "-l UUID: says what to do instead"

# ---- options that mean nothing here: one line each, what to do instead
for opt in -s -S "-f 0123" "-P plugin" "-u root" "-p secret" --service "--fix=x"; do
	# shellcheck disable=SC2086
	expect_status 1 "sealert $opt is refused" -- "$SEALERT" $opt
	if [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q 'is not supported by avcdoctor: .' "$TMP/err"; then
		pass "sealert $opt: one line with what to do instead"
	else
		fail "sealert $opt said: $(cat "$TMP/err")"
	fi
done
grep -q secret "$TMP/err" 2>/dev/null && fail "-p: the password is echoed"

# ---- usage
expect_status 0 "sealert -h" -- "$SEALERT" -h
w=$(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$TMP/out")
[ "$w" -le 80 ] && pass "-h: within 80 columns" || fail "-h: a line of $w columns"
for o in -a --analyze -l --lookupid -b --browser -s -S -f -P -u -p; do
	grep -qE -- "(^| )$o[ ,=]" "$TMP/out" || fail "-h does not list $o"
done
grep -c 'Not supported' "$TMP/out" | grep -qx 6 && pass "-h: the six options that mean nothing here" ||
	fail "-h: $(grep -c 'Not supported' "$TMP/out") 'Not supported' options"
expect_status 1 "sealert alone: the usage on stderr" -- "$SEALERT"
expect_grep 'analyze=FILE' "$TMP/err" "sealert alone lists the options"
expect_status 1 "-a and -l together" -- "$SEALERT" -a "$LOG" -l '*'
expect_status 1 "an argument without option" -- "$SEALERT" "$LOG"
expect_grep 'give a log with -a FILE' "$TMP/err" "an argument: what to give instead"
expect_status 0 "sealert --version" -- "$SEALERT" --version
expect_grep '^sealert (avcdoctor ' "$TMP/out" "--version names avcdoctor"

# ---- the dispatcher's log line names the command, and the command works
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
mkdir -m 700 "$TMP/dstore"
# dispatch COMMAND-VALUE: the log lines of the sample log in $TMP/d.err (its
# old alerts kept: max_age_days=0)
dispatch() {
	rm -f "$TMP/dstore/alerts.db"
	printf '[analysis]\npolicy=%s\nfile_checks=false\n[store]\npath=%s\nmax_age_days=0\n[bus]\ntype=none\n[log]\ntarget=stderr\njournal_socket=none\n%s\n' \
		"$POLICY" "$TMP/dstore/alerts.db" "$1" >"$TMP/d.conf"
	"$DISPATCH" --config "$TMP/d.conf" <"$LOG" >/dev/null 2>"$TMP/d.err"
}
dispatch command=sealert
st=$?
line=$(grep -m1 ': SELinux is preventing [^ ]*httpd from read access on the file /etc/shadow\.' "$TMP/d.err")
lid=$(echo "$line" | sed -n 's/.* For complete SELinux messages run: sealert -l \([0-9a-f]\{16\}-[0-9][0-9.]*\)$/\1/p')
if [ "$st" = 0 ] && [ -n "$lid" ]; then
	pass "command=sealert: setroubleshoot's log line, local id $lid"
	"$SEALERT" -l "$lid" --db "$TMP/dstore/alerts.db" >"$TMP/l.out" 2>"$TMP/l.err" &&
		grep -q '^SELinux is preventing [^ ]*httpd from read access on the file' "$TMP/l.out" &&
		grep -q 'Alert 853997c3dff518a1 ' "$TMP/l.out" &&
		pass "the log line's sealert -l shows that alert" ||
		{ fail "sealert -l $lid:"; head -3 "$TMP/l.err" >&2; }
else
	fail "command=sealert: exit $st, line: $line"; head -5 "$TMP/d.err" >&2
fi
grep -q 'For details run' "$TMP/d.err" && fail "command=sealert: an avcdoctor show line too"
dispatch command=avcdoctor
grep -q 'For details run: avcdoctor show 853997c3dff518a1$' "$TMP/d.err" &&
	! grep -q 'sealert -l' "$TMP/d.err" && pass "command=avcdoctor: avcdoctor's log line" ||
	fail "command=avcdoctor: $(head -2 "$TMP/d.err")"
if [ ! -e /usr/local/bin/sealert ]; then
	dispatch command=auto
	grep -q 'For details run: avcdoctor show' "$TMP/d.err" &&
		pass "command=auto without an installed sealert: avcdoctor's line" ||
		fail "command=auto: $(head -2 "$TMP/d.err")"
fi
dispatch command=setroubleshoot
[ $? = 1 ] && pass "command=setroubleshoot is a configuration error" ||
	fail "a bad command= value is taken"

# ---- -b: the browser beside the program, with no arguments of the caller's
mkdir "$TMP/bin"
cp "$AVCDOCTOR" "$TMP/bin/avcdoctor"
ln -s avcdoctor "$TMP/bin/sealert"
printf '#!/bin/sh\necho "browser started with $# arguments"\n' >"$TMP/bin/avcdoctor-browser"
chmod +x "$TMP/bin/avcdoctor-browser"
expect_status 0 "sealert -b starts avcdoctor-browser" -- "$TMP/bin/sealert" -b
expect_grep '^browser started with 0 arguments$' "$TMP/out" "-b: the browser beside the program"
rm "$TMP/bin/avcdoctor-browser"
PATH=/usr/bin:/bin expect_status 1 "sealert -b without a browser" -- "$TMP/bin/sealert" -b
expect_grep 'avcdoctor-desktop' "$TMP/err" "-b without a browser: names the package"
finish
