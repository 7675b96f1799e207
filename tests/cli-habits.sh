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

# --- files that are not audit logs ----------------------------------------------
head -c 65536 "$AVCDOCTOR" > "$TMP/binary.bin"
expect_status 1 "why on a binary file" -- "$AVCDOCTOR" why -p "$POLICY" "$TMP/binary.bin"
[ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "binary.bin: not a text file (binary data): not read" "$TMP/err" &&
	pass "a binary file: one line saying it is not text" || { fail "binary file messages"; head -3 "$TMP/err" >&2; }
expect_status 1 "allow on a binary file" -- "$AVCDOCTOR" allow -p "$POLICY" "$TMP/binary.bin"
[ "$(wc -l < "$TMP/err")" = 1 ] && pass "allow: one line" || fail "allow on a binary file: $(wc -l < "$TMP/err") lines"
expect_status 1 "a binary pipe" -- sh -c "cat '$TMP/binary.bin' | '$AVCDOCTOR' why -p '$POLICY'"
[ "$(grep -c 'NUL' "$TMP/err")" -le 2 ] && pass "a binary pipe: two lines, not one per line" ||
	fail "binary pipe: $(grep -c NUL "$TMP/err") lines"
echo 'type=SYSCALL msg=audit(1700000000.000:1): arch=c000003e syscall=2 success=yes exit=3' > "$TMP/nodenial.log"
for cmd in why allow analyze; do
	expect_status 3 "$cmd on a log without denials: status 3" -- "$AVCDOCTOR" $cmd -p "$POLICY" "$TMP/nodenial.log"
	expect_grep "no denial record (AVC, USER_AVC, SELINUX_ERR) in .*nodenial.log" "$TMP/err" "$cmd says so"
done
expect_status 3 "an empty pipe: status 3" -- sh -c "'$AVCDOCTOR' why -p '$POLICY' < /dev/null"
expect_grep "in standard input" "$TMP/err" "an empty pipe: says standard input"

# --- the module of one alert grants that alert's accesses and nothing else -------
# every module command analyze suggests, run as shown (the program's path
# aside), on two corpus logs; each module's rules must stay inside the alert
mods="$TMP/mods"
mkdir -p "$mods"
for log in crafted/debian-refpolicy-cases.log selinux-sepolgen-test_data-httpd.log; do
	"$AVCDOCTOR" analyze --json -p "$POLICY" "$AD_CORPUS/$log" > "$TMP/alerts.json" 2>/dev/null
	python3 - "$TMP/alerts.json" "$AD_CORPUS/$log" > "$TMP/cmds" <<'PY' || fail "$log: the suggested commands"
import json, shlex, sys
n = 0
for line in open(sys.argv[1]):
    a = json.loads(line)
    for s in a["suggestions"]:
        for c in s["commands"]:
            if c[:2] != ["avcdoctor", "allow"] or "-M" not in c:
                continue
            # after a relabel, the denials still to allow are the ones the
            # system logs then: the live log, not the file analysed
            if any(x[0] == "restorecon" for x in s["commands"]):
                assert c[-2:] == ["--", "/var/log/audit/audit.log"], c
                continue
            # the file that was analysed, never the default log
            assert c[-1] == sys.argv[2] and c[-2] == "--", c
            assert "/var/log/audit/audit.log" not in c, c
            d = a["denial"]
            want = [d["scontext"].split(":")[2], d["tcontext"].split(":")[2], d["tclass"],
                    ",".join(d["permissions"])]
            print(a["id"], *want, shlex.join(c[1:]))
            n += 1
assert n, "no module command suggested"
PY
	# every alert of the crafted cases; of a log with hundreds, a dozen (each compiles a module)
	head -12 "$TMP/cmds" > "$TMP/cmds.some" && mv "$TMP/cmds.some" "$TMP/cmds"
	while read -r id stype ttype tclass perms cmd; do
		dir="$mods/$id"
		mkdir -p "$dir"
		# the policy to judge with goes before the options: "--" ends them
		(cd "$dir" && eval "\"\$AVCDOCTOR\" allow -p \"\$POLICY\" ${cmd#allow }") > "$dir/out" 2>&1 ||
			{ fail "$id: $cmd"; continue; }
		te=$(ls "$dir"/*.te)
		python3 - "$te" "$stype" "$ttype" "$tclass" "$perms" <<'PY' || fail "$id: the module grants more than its alert"
import re, sys
te, s, t, c, perms = sys.argv[1:6]
perms = set(perms.split(",")) if perms else set()
# a module that silences an expected denial (-D) holds dontaudit rules
rules = [l for l in open(te) if re.match(r"^(allow|dontaudit|role) ", l)]
assert rules, "no rule"
for l in rules:
    m = re.match(r"^(?:allow|dontaudit) (\S+) (\S+):(\S+) (?:\{ (.*) \}|(\S+));", l)
    if not m:
        assert l.startswith("role "), l
        continue
    got = set((m.group(4) or m.group(5)).split())
    assert m.group(1) == s and m.group(2) in (t, "self") and m.group(3) == c, l
    assert got <= perms, (l, perms)
PY
		case " $cmd " in
		*" --verify "*) grep -qE "denials? (is|are) allowed" "$dir/out" || fail "$id: no --verify report" ;;
		esac
	done < "$TMP/cmds"
	pass "$log: every module command as suggested builds that alert's rules only ($(wc -l < "$TMP/cmds") alerts)"
done

# load one such module into a copy of the policy store: exactly its denial is allowed after
if [ -d /var/lib/selinux/default ] && command -v semodule >/dev/null; then
	"$AVCDOCTOR" analyze --json -p "$POLICY" "$AD_CORPUS/$crafted" > "$TMP/alerts.json" 2>/dev/null
	cmd=$(python3 -c '
import json, shlex, sys
for line in open(sys.argv[1]):
    a = json.loads(line)
    d = a["denial"]
    if d["tcontext"].split(":")[2] != "user_home_t":
        continue
    for s in a["suggestions"]:
        for c in s["commands"]:
            if c[:2] == ["avcdoctor", "allow"]:
                print(shlex.join(c[1:]))
' "$TMP/alerts.json" | head -1)
	mkdir -p "$TMP/one" && cd "$TMP/one" || exit 1
	eval "\"\$AVCDOCTOR\" allow -p \"\$POLICY\" ${cmd#allow }" > out 2>&1 || fail "the user_home_t module: $cmd"
	root="$TMP/root"
	mkdir -p "$root/var/lib/selinux" "$root/etc/selinux"
	cp -a /var/lib/selinux/default "$root/var/lib/selinux/"
	cp -a /etc/selinux/default "$root/etc/selinux/"
	cp /etc/selinux/config /etc/selinux/semanage.conf "$root/etc/selinux/"
	expect_status 0 "semodule loads the one alert's module" -- \
		semodule -p "$root" -s default -n -i "$(echo "$cmd" | sed 's/.* -M \([^ ]*\).*/\1/').pp"
	newpol=$(ls "$root"/etc/selinux/default/policy/policy.* | tail -1)
	"$AVCDOCTOR" why --json -p "$POLICY" "$AD_CORPUS/$crafted" > "$TMP/before.json" 2>/dev/null
	"$AVCDOCTOR" why --json -p "$newpol" "$AD_CORPUS/$crafted" > "$TMP/after.json" 2>/dev/null
	python3 - "$TMP/before.json" "$TMP/after.json" <<'PY' || fail "the loaded module allows more than its alert"
import json, sys
def allowed(p):
    return {o["serial"] for o in map(json.loads, open(p)) if o.get("reason") == "allowed"}
new = allowed(sys.argv[2]) - allowed(sys.argv[1])
assert new == {103}, new
print("ok: the loaded module allows the alert's denial (serial 103) and no other")
PY
	cd "$AD_CORPUS" || exit 1
fi

# read from a pipe: the command says "-" and that it reads standard input again
cat $crafted | "$AVCDOCTOR" analyze -p "$POLICY" > "$TMP/an-pipe.out" 2>&1
expect_grep "^# avcdoctor allow --source httpd_t --target user_home_t --class file --perm read --verify -M avcdoctor_httpd_[0-9a-f]\{8\} -- -$" \
	"$TMP/an-pipe.out" "analyze of a pipe: the command reads standard input"
expect_grep "read from standard input: give the command the same" "$TMP/an-pipe.out" \
	"analyze of a pipe: says so instead of naming audit.log"

# --alert ID: a stored alert's access only, from its stored records
TEST_STORE="$AD_BUILD_DIR/tests/test-store"
if [ -x "$TEST_STORE" ]; then
	mkdir -m 700 "$TMP/store" && db="$TMP/store/alerts.db"
	expect_status 0 "a store from the crafted cases" -- \
		"$TEST_STORE" --fill "$db" --policy "$POLICY" --log "$AD_CORPUS/$crafted"
	id=$("$AVCDOCTOR" list --db "$db" --json 2>/dev/null | python3 -c '
import json, sys
for l in sys.stdin:
    a = json.loads(l)
    if a["denial"]["tcontext"].split(":")[2] == "user_home_t":
        print(a["id"])')
	mkdir -p "$TMP/alertmod" && cd "$TMP/alertmod" || exit 1
	expect_status 0 "allow --alert ID --db" -- "$AVCDOCTOR" allow --alert "$id" --db "$db" --verify -M by_alert -p "$POLICY"
	if [ "$(grep -c '^allow ' by_alert.te)" = 1 ] && grep -q '^allow httpd_t user_home_t:file read;' by_alert.te; then
		pass "--alert: the module holds the alert's rule only"
	else
		fail "--alert module"; cat by_alert.te >&2
	fi
	expect_grep "1 of 1 denial is allowed" "$TMP/out" "--alert --verify"
	expect_status 0 "allow --alert ID FILE: the alert's filters on a file" -- \
		"$AVCDOCTOR" allow --alert "$id" --db "$db" -p "$POLICY" "$AD_CORPUS/$crafted"
	[ "$(grep -c '^allow ' "$TMP/out")" = 1 ] && pass "--alert on a file: one rule" || fail "--alert on a file"
	expect_status 1 "allow --alert with a bad id" -- "$AVCDOCTOR" allow --alert 'zz;id' --db "$db" -p "$POLICY"
	cd "$AD_CORPUS" || exit 1
fi
finish
