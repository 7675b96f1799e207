#!/bin/bash
# Every alert of every log in the shared corpus: the first suggestion is
# proved when a proved fix exists (attack warnings and dontaudit modules,
# which allow nothing, aside; a local module and booleans opening the access
# to 200 domains or more are the last resort), is never
# a boolean ten times broader than another proved fix of the alert, and
# never turns a boolean off.
. "$(dirname "$0")/lib.sh"
use_policy
for log in "$AD_CORPUS"/*.log "$AD_CORPUS"/*.txt; do
	"$AVCDOCTOR" analyze --json -p "$POLICY" "$log" >>"$TMP/all.jsonl" 2>/dev/null
done
python3 - "$TMP/all.jsonl" <<'PY' || fail "the first suggestion of each corpus alert is proved and narrow"
import json, sys
n = 0
for line in open(sys.argv[1]):
    a = json.loads(line)
    s = a["suggestions"]
    if not s:
        continue
    n += 1
    first = s[0]
    def turns_off(x):
        return x["kind"] == "boolean" and any(c.endswith("=0") for c in x["commands"][0][2:])
    # a module is the last resort, turning a boolean off never comes first
    # a boolean opening the access to 200 domains or more is broad: below
    # what changes nothing in the policy (the ranking's AD_BROAD_DOMAINS)
    def broad(x):
        return x["kind"] == "boolean" and x["scope"] and x["scope"]["domains"] >= 200
    proved = [x for x in s if x["verified"] is True and x["kind"] != "module" and not turns_off(x)
              and not broad(x)]
    # a dontaudit module (a leaked descriptor silenced) allows nothing: on
    # Fedora's policy it ranks above daemons_use_tty, proved but broad
    if proved and first["kind"] not in ("attack", "dontaudit"):
        assert first["verified"] is True, (a["summary"], first["plugin"])
    if first["kind"] == "boolean" and first["verified"] and first["scope"]:
        for x in proved[1:]:
            if x["scope"]:
                assert first["scope"]["accesses"] < 10 * max(x["scope"]["accesses"], 1), \
                    (a["summary"], first["shell"], x["shell"])
    assert not turns_off(first), (a["summary"], first["shell"])
assert n > 50, n
print(f"{n} alerts checked")
PY
pass "corpus: proved and narrow first suggestions"
finish
