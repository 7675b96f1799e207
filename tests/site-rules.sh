#!/bin/bash
# A site's own rule file, dropped into an /etc-like rules.d directory
# (AVCDOCTOR_LOCAL_RULES_DIR stands for /etc/avcdoctor/rules.d), is used by
# the CLI and by the dispatcher beside the shipped rules; a site file with
# the name of a shipped one replaces it.  (The browser's offline analysis is
# checked in test-browser-model.)
. "$AD_SOURCE_DIR/tests/lib.sh"
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
LOG="$AD_CORPUS/crafted/debian-refpolicy-cases.log"
SITE=$TMP/rules.d
mkdir -p "$SITE"
cp "$AD_SOURCE_DIR/tests/data/site-rules/90-site.rules" "$SITE/"
unset AVCDOCTOR_RULES_DIR

# without the site directory: the shipped rules only
AVCDOCTOR_LOCAL_RULES_DIR=$TMP/none "$AVCDOCTOR" analyze -p "$POLICY" "$LOG" >"$TMP/plain" 2>&1
if grep -q 'site-webapp-shadow' "$TMP/plain"; then fail "the site rule fired without its directory"
else pass "no site rule without the site directory"; fi
grep -q 'rule:40-system.rules:password-hashes' "$TMP/plain" &&
	pass "the shipped rules are read" || fail "the shipped rules were not read"

# the CLI
AVCDOCTOR_LOCAL_RULES_DIR=$SITE "$AVCDOCTOR" analyze -p "$POLICY" "$LOG" >"$TMP/cli" 2>&1
grep -q 'rule:90-site.rules:site-webapp-shadow' "$TMP/cli" &&
	pass "analyze uses the site's rules.d" || fail "analyze ignored the site's rules.d"
grep -q 'rule:40-system.rules:password-hashes' "$TMP/cli" &&
	pass "the shipped rules are still read beside the site's" ||
	fail "the site directory hid the shipped rules"

# a site file named like a shipped one replaces it
printf '# emptied by the site\n' >"$SITE/40-system.rules"
AVCDOCTOR_LOCAL_RULES_DIR=$SITE "$AVCDOCTOR" analyze -p "$POLICY" "$LOG" >"$TMP/repl" 2>&1
if grep -q 'rule:40-system.rules:' "$TMP/repl"; then
	fail "the shipped 40-system.rules was used although the site replaced it"
else
	pass "a site file replaces the shipped file of the same name"
fi
rm "$SITE/40-system.rules"

# the dispatcher (default rules directories: rules_dir not set)
cat >"$TMP/d.conf" <<EOT
[store]
path=none
[bus]
type=none
[analysis]
policy=$POLICY
file_checks=false
[log]
target=stderr
EOT
AVCDOCTOR_LOCAL_RULES_DIR=$SITE "$DISPATCH" --config "$TMP/d.conf" --stdout <"$LOG" \
	>"$TMP/d.out" 2>"$TMP/d.err"
grep -q '"plugin":"rule:90-site.rules:site-webapp-shadow"' "$TMP/d.out" &&
	pass "the dispatcher uses the site's rules.d" ||
	{ fail "the dispatcher ignored the site's rules.d"; head -5 "$TMP/d.err" >&2; }
finish
