#!/bin/bash
# completions/avcdoctor in bash with bash-completion: the commands, every
# command's options exactly as its --help prints them, file names for logs
# and policies, --opt=value, and alert ids from `avcdoctor list --db`.
# Exit 77 (skipped) without bash-completion.
. "$AD_SOURCE_DIR/tests/lib.sh"
BC=/usr/share/bash-completion/bash_completion
if [ ! -r "$BC" ]; then
	echo "no $BC: install bash-completion (scripts/deps.sh test)" >&2
	exit 77
fi
# bash-completion expects an interactive-like shell: no -u
set +u
. "$BC"
. "$AD_SOURCE_DIR/completions/avcdoctor"

# complete_with FUNCTION PROGRAM WORD...: the line "PROGRAM WORD..." ends with
# the last WORD (the cursor is there); the sorted candidates in $got, one per line
complete_with() {
	local func=$1
	COMP_WORDS=("${@:2}")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	"$func" "$(basename "$2")" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort -u | sed '/^$/d')
}
complete_line() { complete_with _avcdoctor "$AVCDOCTOR" "$@"; }

# expect DESCRIPTION WANT (space-separated, any order) -- WORD...
expect() {
	local desc=$1 want
	want=$(printf '%s\n' $2 | sort -u | sed '/^$/d')
	shift 3
	complete_line "$@"
	if [ "$got" = "$want" ]; then pass "$desc"; else
		fail "$desc: got [$(echo $got)], wanted [$(echo $want)]"
	fi
}

# the options of `avcdoctor CMD --help`, as they are listed
help_opts() {
	"$AVCDOCTOR" "$@" --help | sed -n 's/^  \(-[^ ].*\)$/\1/p' |
		grep -oE '(^|, )--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^, //' | sort -u
}

commands=$("$AVCDOCTOR" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
[ -n "$commands" ] || fail "no commands in avcdoctor --help"
expect "the commands" "$commands help" -- ""
expect "commands starting with un" "unignore" -- un
expect "options before a command" "--help --version" -- --
for c in $commands; do
	want=$(help_opts "$c")
	[ -n "$want" ] || fail "$c: no options in its --help"
	# the report commands read "-" (standard input) too
	case $c in why | allow | analyze) want="$want -" ;; esac
	expect "$c: the options of its --help" "$want" -- "$c" -
done
expect "allow --no-c" "--no-comments" -- allow --no-c

# file names: logs, policies, rule files
mkdir -p "$TMP/d/sub"
touch "$TMP/d/audit.log" "$TMP/d/audit.log.1" "$TMP/d/a.rules" "$TMP/d/policy.33"
expect "why: log files" "$TMP/d/audit.log $TMP/d/audit.log.1" -- why "$TMP/d/aud"
expect "why: a directory" "$TMP/d/sub" -- why "$TMP/d/su"
expect "analyze --json: files after options" "$TMP/d/audit.log $TMP/d/audit.log.1" -- \
	analyze --json "$TMP/d/audit"
expect "why -: the options and standard input" "$(help_opts why) -" -- why -p "$TMP/d/policy.33" -
expect "check-rules -: options only" "-p --policy -h --help" -- check-rules -
expect "-p takes a file" "$TMP/d/policy.33" -- allow -p "$TMP/d/pol"
expect "--policy=FILE" "$TMP/d/policy.33" -- why --policy="$TMP/d/pol"
expect "check-rules: *.rules files and directories" "$TMP/d/a.rules $TMP/d/sub" -- \
	check-rules "$TMP/d/"
expect "allow -M NAME: nothing offered" "" -- allow -M ""
expect "list --since" "today" -- list --since to
expect "unknown command: nothing" "" -- frobnicate -

expect "analyze --level" "red" -- analyze --level r
expect "list --level after a comma" "red,yellow" -- list --level red,y
expect "analyze --sort" "count" -- analyze --sort c

# types and classes: from the policy of -p on the line, through `avcdoctor names`,
# whose cache (in $XDG_CACHE_HOME) serves the next Tab press
export XDG_CACHE_HOME="$TMP/cache"
if [ -r "$POLICY" ]; then
	cp "$POLICY" "$TMP/policy.33"
	expect "-s TYPE: the policy's types" "httpd_t httpd_tmp_t httpd_tmpfs_t" -- why -p "$TMP/policy.33" -s httpd_t
	expect "--target=TYPE" "shadow_lock_t shadow_t" -- analyze -p "$TMP/policy.33" --target=shadow_
	expect "list --source TYPE: the default policy" "sshd_t sshd_tmp_t sshd_tmpfs_t" -- list --source sshd_t
	expect "--class CLASS" "tcp_socket" -- allow -p "$TMP/policy.33" --class tcp_so
	ls "$XDG_CACHE_HOME"/avcdoctor/names/types-* >/dev/null 2>&1 && pass "the types are cached" ||
		fail "no cache of the types in $XDG_CACHE_HOME/avcdoctor/names"
	[ "$(stat -c %a "$XDG_CACHE_HOME/avcdoctor/names")" = 700 ] && pass "the cache directory is private" ||
		fail "the cache directory is $(stat -c %a "$XDG_CACHE_HOME/avcdoctor/names")"
	# the cache is what is read while the policy file is the same, and dropped when it changes
	for f in "$XDG_CACHE_HOME"/avcdoctor/names/classes-*; do echo cached_marker_class >"$f"; done
	expect "the cached classes are read" "cached_marker_class" -- why -p "$TMP/policy.33" --class cached_
	touch -d '2001-01-01' "$TMP/policy.33"
	expect "a changed policy is read again" "" -- why -p "$TMP/policy.33" --class cached_
	expect "and its classes offered" "tcp_socket" -- why -p "$TMP/policy.33" --class tcp_so
	[ "$(ls "$XDG_CACHE_HOME"/avcdoctor/names/classes-* | wc -l)" = 1 ] && pass "the old cache file is dropped" ||
		fail "old cache files stay: $(ls "$XDG_CACHE_HOME"/avcdoctor/names)"
	"$AVCDOCTOR" names booleans -p "$TMP/policy.33" | grep -qx httpd_enable_homedirs &&
		pass "names booleans: the policy's booleans" || fail "names booleans"
	expect_status 1 "names of an unknown kind" -- "$AVCDOCTOR" names roles -p "$TMP/policy.33"
	"$AVCDOCTOR" --help | grep -q names && fail "names is listed among the commands" ||
		pass "names (the completion's helper) is not listed"
fi

# alert ids: from `avcdoctor list --db PATH` (the path on the line)
TEST_STORE="$AD_BUILD_DIR/tests/test-store"
if [ -x "$TEST_STORE" ] && [ -r "$POLICY" ]; then
	mkdir -m 700 "$TMP/store"
	db="$TMP/store/alerts.db"
	if "$TEST_STORE" --fill "$db" --policy "$POLICY" \
		--log "$AD_SOURCE_DIR/tests/data/sample.log" >/dev/null 2>&1; then
		ids=$("$AVCDOCTOR" list --db "$db" --all | awk '$1 ~ /^[0-9a-f]{16}$/ {print $1}')
		[ -n "$ids" ] && pass "the store has alerts" || fail "no alerts in the test store"
		expect "show --db: the alert ids" "$ids" -- show --db "$db" ""
		expect "delete --db=PATH: the alert ids" "$ids" -- delete --db="$db" ""
		first=$(echo "$ids" | head -1)
		expect "show: an id prefix" "$first" -- show --db "$db" "${first:0:12}"
		expect "show: one id only" "" -- show --db "$db" "$first" ""
		expect "allow --alert ID" "$ids" -- allow --db "$db" --alert ""
		expect "show --db: a missing store gives nothing" "" -- show --db "$TMP/none.db" ""
	else
		fail "test-store --fill failed"
	fi
else
	echo "skipping the alert-id cases: no test-store or no $POLICY"
fi

# ---- completions/sealert: the options that mean something, logs, alert ids
. "$AD_SOURCE_DIR/completions/sealert"
SEALERT="$AD_BUILD_DIR/bin/sealert"
sealert_line() { complete_with _sealert "$SEALERT" "$@"; }
# the options of `sealert --help` less those it calls "Not supported"
want=$("$SEALERT" --help | grep -v 'Not supported' | sed -n 's/^  \(-[^ ].*\)$/\1/p' |
	grep -oE '(^|, )--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^, //' | sort -u)
sealert_line -
[ -n "$want" ] && [ "$got" = "$want" ] && pass "sealert: the options that mean something" ||
	fail "sealert: got [$(echo $got)], wanted [$(echo $want)]"
sealert_line -a "$TMP/d/aud"
[ "$got" = "$(printf '%s\n' "$TMP/d/audit.log" "$TMP/d/audit.log.1")" ] &&
	pass "sealert -a: log files" || fail "sealert -a: got [$(echo $got)]"
sealert_line -p ""
[ -z "$got" ] && pass "sealert -p: nothing offered" || fail "sealert -p: got [$(echo $got)]"
if [ -n "${db:-}" ] && [ -n "${ids:-}" ]; then
	sealert_line --db "$db" -l ""
	[ "$got" = "$(echo "$ids" | sort -u)" ] && pass "sealert --db PATH -l: the alert ids" ||
		fail "sealert -l: got [$(echo $got)], wanted [$(echo $ids)]"
fi

# ---- completions/avcdoctor-browser: its --help's options, --level, log files
BROWSER="$AD_BUILD_DIR/bin/avcdoctor-browser"
if [ -x "$BROWSER" ]; then
	. "$AD_SOURCE_DIR/completions/avcdoctor-browser"
	browser_line() { complete_with _avcdoctor_browser "$BROWSER" "$@"; }
	want=$("$BROWSER" --help | sed -n 's/^  \(-[^ ].*\)$/\1/p' |
		grep -oE '(^|, )--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^, //' | sort -u)
	browser_line -
	[ -n "$want" ] && [ "$got" = "$want" ] && pass "avcdoctor-browser: the options of its --help" ||
		fail "avcdoctor-browser: got [$(echo $got)], wanted [$(echo $want)]"
	browser_line --level red,g
	[ "$got" = "red,green" ] && pass "avcdoctor-browser --level after a comma" ||
		fail "avcdoctor-browser --level red,g: got [$(echo $got)]"
	browser_line -p "$TMP/d/policy.33" "$TMP/d/aud"
	[ "$got" = "$(printf '%s\n' "$TMP/d/audit.log" "$TMP/d/audit.log.1")" ] &&
		pass "avcdoctor-browser: log files" || fail "avcdoctor-browser: got [$(echo $got)]"
	browser_line --since ""
	[ -z "$got" ] && pass "avcdoctor-browser --since: nothing offered" ||
		fail "avcdoctor-browser --since: got [$(echo $got)]"
fi
finish
