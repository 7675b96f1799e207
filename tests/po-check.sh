#!/bin/bash
# Translations: po/POTFILES.in lists every source with translatable messages;
# every catalog of po/LINGUAS is complete for the messages the sources have
# now (no untranslated or fuzzy message after merging a fresh template) and
# passes msgfmt --check; the German catalog is used: `avcdoctor analyze`
# under LANGUAGE=de prints German.
. "$(dirname "$0")/lib.sh"
cd "$AD_SOURCE_DIR" || exit 1
command -v xgettext >/dev/null && command -v msgmerge >/dev/null || {
	echo "gettext tools missing"; exit 77; }

# every file that marks a message is listed, and every listed file exists
grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES.in > "$TMP/listed"
if LC_ALL=C sort -c "$TMP/listed" 2>"$TMP/err"; then pass "POTFILES.in is sorted"; else
	fail "POTFILES.in is not sorted: $(cat "$TMP/err")"; fi
while read -r f; do
	[ -e "$f" ] || fail "POTFILES.in lists $f, which does not exist"
done < "$TMP/listed"
{
	grep -rlE '\b(N?C?_|ngettext)\("' analyzer cli dispatcher store client plugins notifier gui --include='*.c' 2>/dev/null
	grep -rl 'translatable="yes"' gui --include='*.ui' 2>/dev/null
	ls rules/*.rules
	find notifier gui -name '*.desktop.in' 2>/dev/null
	find fixit -name '*.policy.in' 2>/dev/null
} | LC_ALL=C sort -u > "$TMP/marked"
missing=$(comm -23 "$TMP/marked" <(LC_ALL=C sort "$TMP/listed"))
if [ -z "$missing" ]; then pass "every file with messages is in POTFILES.in"; else
	fail "not in po/POTFILES.in: $missing"; fi

# a fresh template, merged into each catalog: nothing left to translate
sh po/make-pot.sh . "$TMP/fresh.pot" 2>"$TMP/xgettext.err" || fail "make-pot.sh failed"
# gettext 0.21 says so every time it reads a .ui with its own GtkBuilder rules
grep -v "a fallback ITS rule file .* is used" "$TMP/xgettext.err" >"$TMP/xgettext.warn"
if grep -q warning "$TMP/xgettext.warn"; then
	fail "xgettext warnings:"; head -20 "$TMP/xgettext.warn" >&2; fi
n=$(grep -c '^msgid ' "$TMP/fresh.pot")
[ "$n" -gt 500 ] && pass "template has $n messages" || fail "template has only $n messages"
for lang in $(grep -v '^#' po/LINGUAS); do
	po=po/$lang.po
	if ! msgfmt --check -o /dev/null "$po" 2>"$TMP/err"; then
		fail "$po: msgfmt --check:"; head -10 "$TMP/err" >&2; continue; fi
	msgmerge --quiet --no-fuzzy-matching "$po" "$TMP/fresh.pot" -o "$TMP/$lang.po" ||
		{ fail "$po: msgmerge failed"; continue; }
	stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$TMP/$lang.po" 2>&1)
	case $stats in
	*untranslated* | *fuzzy*)
		fail "$po is not complete: $stats"
		msgattrib --untranslated --only-fuzzy "$TMP/$lang.po" 2>/dev/null |
			grep '^msgid' | head -5 >&2
		msgattrib --untranslated "$TMP/$lang.po" 2>/dev/null |
			grep '^msgid' | head -5 >&2 ;;
	*) pass "$po: $stats" ;;
	esac
	# a catalog's own fuzzy entries are left-overs too
	if msgattrib --only-fuzzy --no-obsolete "$po" 2>/dev/null | grep -q '^msgid "[^"]'; then
		fail "$po has fuzzy messages"; fi
done

# German in use: the catalog compiled by the build, looked up through
# AVCDOCTOR_LOCALEDIR (LANGUAGE is ignored in the C locale: C.UTF-8 it is)
export AVCDOCTOR_LOCALEDIR="$AD_BUILD_DIR/locale"
if [ ! -f "$AVCDOCTOR_LOCALEDIR/de/LC_MESSAGES/avcdoctor.mo" ]; then
	fail "the build did not compile the German catalog"
else
	sample=$AD_SOURCE_DIR/tests/data/sample.log
	export AVCDOCTOR_RULES_DIR="$AD_SOURCE_DIR/rules"
	LC_ALL=C.UTF-8 "$AVCDOCTOR" analyze -p "$POLICY" "$sample" >"$TMP/en" 2>&1 ||
		fail "analyze failed: $(head -3 "$TMP/en")"
	LC_ALL=C.UTF-8 LANGUAGE=de "$AVCDOCTOR" analyze -p "$POLICY" "$sample" >"$TMP/de" 2>&1 ||
		fail "LANGUAGE=de analyze failed: $(head -3 "$TMP/de")"
	# messages the English output shows, and their German translations
	checked=0
	for id in "Source Context" "Target Context" "Target Class" \
		"Source Command"; do
		grep -qF "$id" "$TMP/en" || continue
		de=$(TEXTDOMAINDIR=$AVCDOCTOR_LOCALEDIR LC_ALL=C.UTF-8 LANGUAGE=de \
			gettext -d avcdoctor "$id")
		if [ "$de" = "$id" ]; then fail "no German for \"$id\""; continue; fi
		checked=$((checked + 1))
		expect_grep "$de" "$TMP/de" "German \"$de\" for \"$id\""
		if grep -qF "$id" "$TMP/de"; then fail "English \"$id\" left in German output"; fi
	done
	[ "$checked" -ge 2 ] && pass "$checked German headings checked" ||
		fail "only $checked headings could be checked"
	# the summary line, whose German begins differently
	id="SELinux is preventing %s from %s access on the %s %s."
	de=$(TEXTDOMAINDIR=$AVCDOCTOR_LOCALEDIR LC_ALL=C.UTF-8 LANGUAGE=de \
		gettext -d avcdoctor "$id")
	de=${de%%%*}
	if [ -z "$de" ] || [ "$de" = "SELinux is preventing " ]; then
		fail "no German summary prefix"
	else
		expect_grep "^$de" "$TMP/de" "German summary \"$de...\""
	fi
	# level words are translated in text (JSON keeps "red", "green", "yellow")
	LC_ALL=C.UTF-8 LANGUAGE=fr "$AVCDOCTOR" analyze -p "$POLICY" "$sample" >"$TMP/fr" 2>&1
	expect_grep '^Niveau[^:]*: rouge ' "$TMP/fr" "French level words in text"
	if grep -qE '^Niveau[^:]*: (red|green|yellow) ' "$TMP/fr"; then
		fail "an English level word in French text"; fi
	LC_ALL=C.UTF-8 LANGUAGE=fr "$AVCDOCTOR" analyze --json -p "$POLICY" "$sample" 2>/dev/null |
		grep -q '"level":"red"' && pass "JSON levels stay English" ||
		fail "JSON level values were translated"
fi
[ "$failures" = 0 ]
