#!/bin/bash
# Every command's --help and avcdoctor-browser's, in English and in the
# translated locales: no line wider than 80 columns (wide characters count
# two), every option still listed; a short option means one thing across
# the commands (the same long option wherever it appears); list's old -a
# still works, with a note.
. "$AD_SOURCE_DIR/tests/lib.sh"
export AVCDOCTOR_LOCALEDIR="$AD_BUILD_DIR/locale"

commands=$("$AVCDOCTOR" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
[ -n "$commands" ] && pass "commands: $(echo $commands)" || fail "no commands in avcdoctor --help"

# widest FILE: the display width of FILE's widest line, and that line
widest() {
	python3 - "$1" <<'PY'
import sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in s)
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
w, l = max((width(l), l) for l in lines)
print(w, l)
PY
}

locales="C"
for l in de_DE.utf8 fr_FR.utf8; do
	locale -a | grep -qx "$l" && locales="$locales $l"
done
for loc in $locales; do
	for c in "" $commands; do
		LC_ALL=$loc LANGUAGE= "$AVCDOCTOR" $c --help >"$TMP/help" 2>"$TMP/err"
		st=$?
		[ $st = 0 ] || fail "avcdoctor $c --help ($loc): exit $st"
		read -r w line < <(widest "$TMP/help")
		if [ "$w" -le 80 ]; then pass "avcdoctor $c --help ($loc): $w columns at most"
		else fail "avcdoctor $c --help ($loc): a line of $w columns: $line"; fi
	done
done

# avcdoctor under audit2allow's and audit2why's names (the links beside it)
for n in audit2allow audit2why; do
	"$AD_BUILD_DIR/bin/$n" --help >"$TMP/help" 2>&1 || fail "$n --help: exit $?"
	read -r w line < <(widest "$TMP/help")
	[ "$w" -le 80 ] && pass "$n --help: $w columns at most" || fail "$n --help: a line of $w columns: $line"
	grep -q '^  -i, --input=FILE ' "$TMP/help" && pass "$n --help lists -i" || fail "$n --help: no -i line"
done

# avcdoctor-browser's --help, --help-all and --help-gtk (GLib's, wrapped the same way)
BROWSER="$AD_BUILD_DIR/bin/avcdoctor-browser"
if [ -x "$BROWSER" ]; then
	for loc in $locales; do
		for h in --help --help-all --help-gtk; do
			LC_ALL=$loc LANGUAGE= "$BROWSER" $h >"$TMP/help" 2>"$TMP/err" ||
				fail "avcdoctor-browser $h ($loc): exit $?"
			read -r w line < <(widest "$TMP/help")
			if [ "$w" -le 80 ]; then pass "avcdoctor-browser $h ($loc): $w columns at most"
			else fail "avcdoctor-browser $h ($loc): a line of $w columns: $line"; fi
		done
	done
	"$BROWSER" --help | grep -q '^  --level=LEVEL ' && pass "avcdoctor-browser --help lists --level" ||
		fail "avcdoctor-browser --help: no --level line"
	"$BROWSER" --help-gtk | grep -q -- '--display' && ! "$BROWSER" --help-gtk | grep -q -- '--level' &&
		pass "avcdoctor-browser --help-gtk: GTK's options only" || fail "avcdoctor-browser --help-gtk"
fi

# the options survive the wrapping: every option line still starts "  -"
for c in $commands; do
	"$AVCDOCTOR" $c --help >"$TMP/help"
	grep -q '^  -h, --help ' "$TMP/help" && pass "$c: -h, --help listed first" ||
		fail "$c: no -h, --help line"
	if grep -qE '^ {3,}-' "$TMP/help"; then
		fail "$c: a wrapped line starts with a dash: $(grep -E '^ {3,}-' "$TMP/help" | head -1)"
	fi
done
"$AVCDOCTOR" analyze -h >"$TMP/h1" && "$AVCDOCTOR" analyze --help >"$TMP/h2" &&
	cmp -s "$TMP/h1" "$TMP/h2" && pass "-h is --help" || fail "-h and --help differ"

# one meaning per short option: "-x, --long" the same long option in every command
for c in $commands; do
	"$AVCDOCTOR" $c --help | sed -n 's/^  -\([A-Za-z0-9]\), --\([a-z0-9-]*\).*/\1 \2/p' |
		sed "s/\$/ $c/"
done | sort -u >"$TMP/shorts"
awk '{ long[$1] = long[$1] ? long[$1] : $2; if (long[$1] != $2) { print "-" $1 ": --" long[$1] " and --" $2 " (" $3 ")"; bad = 1 } }
	END { exit bad }' "$TMP/shorts" >"$TMP/clash" && pass "every short option means one thing ($(cut -d' ' -f1 "$TMP/shorts" | sort -u | tr -d '\n'))" ||
	fail "short options with two meanings: $(cat "$TMP/clash")"

# list -a: the old spelling of --all, said to be deprecated (with a store to read)
TEST_STORE="$AD_BUILD_DIR/tests/test-store"
if [ -x "$TEST_STORE" ] && [ -r "$POLICY" ]; then
	db="$TMP/alerts.db"
	"$TEST_STORE" --fill "$db" --policy "$POLICY" --log "$AD_SOURCE_DIR/tests/data/sample.log" \
		>/dev/null 2>&1 || fail "test-store --fill"
	expect_status 0 "list -a still works" -- "$AVCDOCTOR" list --db "$db" -a
	expect_grep "^avcdoctor: list: -a is deprecated here .*: write --all$" "$TMP/err" \
		"list -a says it is deprecated"
	"$AVCDOCTOR" list --db "$db" --all >"$TMP/all" 2>/dev/null
	cmp -s "$TMP/out" "$TMP/all" && pass "list -a lists what --all does" || fail "list -a differs from --all"
fi
finish
