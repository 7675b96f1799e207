#!/bin/bash
# The programs under German and French locales (a decimal comma, other
# plural rules, accented words), as a user there runs them: every line of
# why/analyze/list --json parses as JSON with its numbers as numbers; a
# store written by a dispatcher under de_DE is read back whole by show in
# English and in French (its texts in the reader's language, the pieces
# plugins put together included), and allow
# --alert finds its access; columns line up
# with accented text.  The locales come from scripts/deps.sh test.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
SAMPLE="$AD_SOURCE_DIR/tests/data/sample.log"
LOCALES="de_DE.UTF-8 fr_FR.UTF-8"

for l in $LOCALES; do
	if ! locale -a | grep -qx "${l%.UTF-8}.utf8"; then
		echo "no $l locale here: scripts/deps.sh test generates it" >&2
		exit 1
	fi
done
# the catalogs of this build tree
export AVCDOCTOR_LOCALEDIR="$AD_BUILD_DIR/locale"

# check_json FILE DESCRIPTION: every line is a JSON object, and what holds a
# number (times, counts, confidences...) holds one
check_json() {
	python3 - "$1" <<'PY' && pass "$2" || fail "$2"
import json, sys
NUMBERS = {"time", "first_seen", "last_seen", "count", "blocked", "logged_only",
           "confidence", "serial", "pid", "uid", "auid", "ino", "accesses", "domains"}
def walk(v, where):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in NUMBERS and x is not None:
                assert isinstance(x, (int, float)) and not isinstance(x, bool), (where, k, x)
            walk(x, where)
    elif isinstance(v, list):
        for x in v:
            walk(x, where)
n = 0
for i, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    o = json.loads(line)
    assert isinstance(o, dict), i
    walk(o, "line %d" % i)
    n += 1
assert n > 0, "no line"
# the times: to the millisecond, as the records say (1700000001.100)
print("    %d lines" % n)
PY
}

for l in $LOCALES; do
	for cmd in why analyze; do
		LC_ALL=$l "$AVCDOCTOR" "$cmd" --json -p "$POLICY" "$SAMPLE" >"$TMP/$cmd.json" \
			2>"$TMP/err" || fail "$cmd --json under $l: $(head -3 "$TMP/err")"
		check_json "$TMP/$cmd.json" "$cmd --json under $l: JSON, numbers as numbers"
	done
	python3 -c '
import json, sys
t = json.loads(open(sys.argv[1]).readline())["time"]
assert abs(t - 1700000001.1) < 1e-6, t' "$TMP/why.json" &&
		pass "why --json under $l: the first time is 1700000001.1" ||
		fail "why --json under $l: time $(head -c 300 "$TMP/why.json")"
	# the overview's columns: the counts start in one column, accents or not
	LC_ALL=$l "$AVCDOCTOR" analyze --summary -p "$POLICY" "$SAMPLE" >"$TMP/summary" 2>/dev/null
	python3 - "$TMP/summary" <<'PY' && pass "analyze --summary under $l: the columns line up" ||
import sys
rows = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")
        if l.startswith("  ") and len(l) > 44 and len(l.split("  ")[1]) <= 40]
assert rows, "no row"
for r in rows:
    # name padded to 40 columns after two spaces, one space, then the count
    assert r[42] == " " and r[43] != " ", repr(r)
PY
		fail "analyze --summary under $l: columns out of line: $(sed -n 4,8p "$TMP/summary")"
done

# --- a store written under de_DE, read in English and French -----------------------
mkdir -m 700 "$TMP/store"
mkdir -p "$TMP/rules"
cat >"$TMP/d.conf" <<EOC
[store]
path=$TMP/store/alerts.db
max_age_days=0
[bus]
type=none
[analysis]
policy=$POLICY
rules_dir=$TMP/rules
file_checks=false
[log]
target=stderr
EOC
LC_ALL=de_DE.UTF-8 "$DISPATCH" --config "$TMP/d.conf" <"$SAMPLE" >"$TMP/d.out" 2>"$TMP/d.err" ||
	fail "the dispatcher under de_DE: $(head -3 "$TMP/d.err")"
for l in C $LOCALES; do
	LC_ALL=$l "$AVCDOCTOR" list --json --db "$TMP/store/alerts.db" >"$TMP/list.json" \
		2>"$TMP/err" || fail "list --json under $l: $(head -3 "$TMP/err")"
	check_json "$TMP/list.json" "list --json under $l of a store written under de_DE"
done
ID=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    if "shadow" in json.dumps(o.get("denial")) or "/etc/shadow" in o.get("summary", ""):
        print(o["id"]); break' "$TMP/list.json")
[ -n "$ID" ] && pass "the /etc/shadow alert is $ID" || fail "no /etc/shadow alert in the store"
for l in C fr_FR.UTF-8; do
	LC_ALL=$l "$AVCDOCTOR" show --db "$TMP/store/alerts.db" "$ID" >"$TMP/show" 2>"$TMP/err" ||
		fail "show under $l: $(head -3 "$TMP/err")"
	# the stored denial is whole: its contexts, its time, no "?" for a field every denial has
	if grep -q "system_u:system_r:httpd_t:s0" "$TMP/show" &&
		grep -q "system_u:object_r:shadow_t:s0" "$TMP/show" &&
		grep -q "2023-11-14 22:13:2" "$TMP/show" && ! grep -qE '^[^ ].* \?$' "$TMP/show"; then
		pass "show under $l reads the denial stored under de_DE whole"
	else
		fail "show under $l:"; sed 's/^/    /' "$TMP/show" | head -30 >&2
	fi
	# its texts in the reader's language, not the dispatcher's: the summary, the fixes, the notes
	case $l in
	C) want='^SELinux is preventing /usr/sbin/httpd from read access on the file' ;;
	fr_FR.UTF-8) want="^SELinux empêche /usr/sbin/httpd d'accéder en read" ;;
	esac
	grep -q "$want" "$TMP/show" && pass "show under $l: the summary in its language" ||
		fail "show under $l: the summary: $(sed -n 2,3p "$TMP/show")"
	if grep -qE '(^| )(Wenn|Dann|SELinux hindert|Hinweis|nicht) ' "$TMP/show"; then
		fail "show under $l: German text in a store read in another language:"
		grep -nE '(^| )(Wenn|Dann|SELinux hindert|Hinweis|nicht) ' "$TMP/show" | head -5 >&2
	else
		pass "show under $l: no German in the alert the German dispatcher stored"
	fi
	LC_ALL=$l "$AVCDOCTOR" show --json --db "$TMP/store/alerts.db" "$ID" >"$TMP/show.json" 2>&1
	check_json "$TMP/show.json" "show --json under $l of a store written under de_DE"
	python3 - "$TMP/show.json" "$l" <<'PY' && pass "show --json under $l: its texts in its language, the keys as before" ||
import json, sys
o = json.loads(open(sys.argv[1], encoding="utf-8").readline())
want = {"C": ("SELinux is preventing", "If ", "Then "),
        "fr_FR.UTF-8": ("SELinux empêche", "Si ", "Alors ")}[sys.argv[2]]
assert o["summary"].startswith(want[0]), o["summary"]
for s in o["suggestions"] + o["notes"]:
    assert s["if"].startswith(want[1]) and s["then"].startswith(want[2]), s
    assert not [k for k in s if k.endswith("_msg")], s.keys()
assert "summary_msg" not in o
PY
		fail "show --json under $l: $(head -c 600 "$TMP/show.json")"
	LC_ALL=$l "$AVCDOCTOR" allow --db "$TMP/store/alerts.db" --alert "$ID" >"$TMP/allow" \
		2>"$TMP/err"
	grep -q "allow httpd_t shadow_t:file" "$TMP/allow" &&
		pass "allow --alert under $l: the stored access" ||
		fail "allow --alert under $l: $(head -5 "$TMP/allow" "$TMP/err")"
done

# a proof's "not enough" reason is a message too: its sentence in the
# reader's language (the constraint's own words inside it stay the writer's)
: >"$TMP/all.fr"
for id in $(python3 -c 'import json, sys; [print(json.loads(l)["id"]) for l in open(sys.argv[1])]' \
	"$TMP/list.json"); do
	LC_ALL=fr_FR.UTF-8 "$AVCDOCTOR" show --db "$TMP/store/alerts.db" "$id" >>"$TMP/all.fr" 2>/dev/null
done
tr '\n' ' ' <"$TMP/all.fr" | tr -s ' ' >"$TMP/all.flat"
if grep -q "serait encore refusé par une contrainte" "$TMP/all.flat" &&
	! grep -q "würde weiterhin" "$TMP/all.flat"; then
	pass "show under fr_FR: a proof's \"not enough\" reason in French"
else
	fail "show under fr_FR: the proof's reason: $(grep -oE '(insuffisant|würde).{80}' "$TMP/all.flat" | head -2)"
fi

# list's columns under French: the headings are accented, the rows line up below them
LC_ALL=fr_FR.UTF-8 "$AVCDOCTOR" list --db "$TMP/store/alerts.db" >"$TMP/list" 2>/dev/null
python3 - "$TMP/list" <<'PY' && pass "list under fr_FR: headings and rows line up" ||
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
# the date column starts where its heading does, in characters (= columns here)
head = lines[0]
rows = [l for l in lines[1:] if re.match(r"[0-9a-f]{16}  ", l)]
assert rows, "no row"
col = 16 + 2 + 6 + 2 + 7 + 2
assert head[col - 1] == " " and head[col] != " ", repr(head)
for r in rows:
    assert r[col:col + 4].isdigit(), repr(r)
PY
	fail "list under fr_FR: columns out of line: $(head -3 "$TMP/list")"

# --- pieces the plugins put together, in the reader's language too -------------------
# the boolean plugin's settings ("allow_execmem on and allow_execstack on"),
# execmem's alternatives ("... is on and ... is on") and the device plugin's
# nameless node: pieces translated inside a sentence, stored as messages of
# their own, so that nothing of the German dispatcher's is left in French
mkdir -m 700 "$TMP/store2"
sed "s|$TMP/store/|$TMP/store2/|" "$TMP/d.conf" >"$TMP/d2.conf"
cat "$AD_SOURCE_DIR/tests/data/plugins/execmem.log" \
	"$AD_SOURCE_DIR/tests/data/plugins/files-mounton-swap-device.log" |
	LC_ALL=de_DE.UTF-8 "$DISPATCH" --config "$TMP/d2.conf" >"$TMP/d2.out" 2>"$TMP/d2.err" ||
	fail "the dispatcher under de_DE: $(head -3 "$TMP/d2.err")"
ids=$(LC_ALL=C "$AVCDOCTOR" list --json --db "$TMP/store2/alerts.db" |
	python3 -c 'import json, sys; [print(json.loads(l)["id"]) for l in sys.stdin]')
for l in C fr_FR.UTF-8; do
	: >"$TMP/shown"
	for id in $ids; do
		LC_ALL=$l "$AVCDOCTOR" show --db "$TMP/store2/alerts.db" "$id" >>"$TMP/shown" \
			2>"$TMP/err" || fail "show $id under $l: $(head -3 "$TMP/err")"
	done
	# the texts wrap: one line each paragraph
	tr '\n' ' ' <"$TMP/shown" | tr -s ' ' >"$TMP/flat"
	case $l in
	C) and=and on=" on" is_on=" is on" device="If /dev/frob0 is a device httpd_t" ;;
	*) and=et on=" [^ ]* on" is_on=" [^ ]* activé" device="Si /dev/frob0 est un périphérique" ;;
	esac
	grep -qE "allow_execmem$on $and allow_execstack$on" "$TMP/flat" &&
		pass "show under $l: the boolean plugin's settings in its language" ||
		fail "show under $l: the boolean's settings: $(grep -oE 'allow_execmem [^:.]*' "$TMP/flat" | head -3)"
	grep -qE "allow_execmem$is_on $and allow_execstack$is_on" "$TMP/flat" &&
		pass "show under $l: execmem's alternatives in its language" ||
		fail "show under $l: execmem's alternatives: $(grep -oE 'allow_execmem [^(]*' "$TMP/flat" | head -3)"
	grep -q "$device" "$TMP/flat" && pass "show under $l: the device plugin's texts in its language" ||
		fail "show under $l: no device text: $(grep -o '/dev/frob0 [^.]*' "$TMP/flat" | head -2)"
	if grep -qwE 'und|oder|ein|aus|eingeschaltet|ausgeschaltet|weitere|Wenn|Dann|Hinweis' "$TMP/flat"; then
		fail "show under $l: German pieces in alerts the German dispatcher stored:"
		grep -owE '.{30}(und|oder|ein|aus|eingeschaltet|ausgeschaltet|weitere|Wenn|Dann|Hinweis).{30}' \
			"$TMP/flat" | head -5 >&2
	else
		pass "show under $l: no German piece in the boolean, execmem and device alerts"
	fi
done
finish
