#!/bin/bash
# avcdoctor allow: golden rules, -M modules that compile and really allow
# the accesses once loaded (semodule into a copy of the store, sesearch),
# --verify, -x, -l, --cil, --json, and coverage of audit2allow's rules.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
cd "$AD_CORPUS" || exit 1
crafted=crafted/debian-refpolicy-cases.log

expect_status 0 "allow on the crafted cases" -- "$AVCDOCTOR" allow -p "$POLICY" $crafted
cp "$TMP/out" "$TMP/allow.te"
golden allow-crafted.te "$TMP/allow.te"
expect_grep "^#allow httpd_t shadow_t:nosuchclass read;" "$TMP/allow.te" "unknown class: commented out, never a rule"
expect_grep "^#allow foo_t etc_t:file read;" "$TMP/allow.te" "unknown type: commented out"
expect_grep "^allow cdrecord_t cifs_t:file read;" "$TMP/allow.te" "rule for the boolean combination case"
expect_grep "cdrecord_read_content=1 use_samba_home_dirs=1" "$TMP/allow.te" "the combination is named"
expect_grep "^#allow staff_t dirmngr_t:process transition; # an allow rule would not help: constraint the source role" \
	"$TMP/allow.te" "constraint-blocked rule commented out, the reason on its line"
expect_grep "^#allow httpd_t shadow_t:file read; # not allowed: a red alert (rule:40-system.rules:password-hashes), an attack indicator" \
	"$TMP/allow.te" "a red alert's rule commented out, the reason on its line"
expect_grep "^#allow auditadm_t self:process execstack; # invalid context: " "$TMP/allow.te" \
	"invalid-context rule commented out, the reason on its line"
if grep -q "^allow httpd_t shadow_t:file read;" "$TMP/allow.te"; then
	fail "a red alert's rule is written live"; else pass "no live rule for a red alert"; fi
# --keep-blocked writes them live
expect_status 0 "allow --keep-blocked" -- "$AVCDOCTOR" allow --keep-blocked -p "$POLICY" $crafted
expect_grep "^allow httpd_t shadow_t:file read;" "$TMP/out" "--keep-blocked: the red alert's rule live"
expect_grep "^allow staff_t dirmngr_t:process transition;" "$TMP/out" "--keep-blocked: the constraint-blocked rule live"
expect_grep "A constraint blocks this" "$TMP/out" "--keep-blocked: the constraint note"
# dontaudit-hidden: the crafted dontaudit corpus log
expect_status 0 "allow on a dontaudit-hidden denial" -- "$AVCDOCTOR" allow -p "$POLICY" avc-parser-dontaudit_AVC.log
expect_grep "^#allow sshd_t chkpwd_t:process { noatsecure rlimitinh siginh }; # hidden by dontaudit: " \
	"$TMP/out" "dontaudit-hidden rule commented out, the reason on its line"
expect_grep "^role staff_r types mount_t;" "$TMP/allow.te" "role rule for the old-form invalid context"
if grep -q "setenforce" "$TMP/allow.te"; then fail "a rule for a granted record"; else pass "no rule for granted records"; fi

# -x: allowxperm ranges
expect_status 0 "allow -x" -- "$AVCDOCTOR" allow -x -p "$POLICY" crafted/debian-refpolicy-ioctl-xperms.log
expect_grep "allowxperm httpd_t user_devpts_t:chr_file ioctl { 0x5401-0x5402 0x5410 };" "$TMP/out" "ioctl ranges"

# -l: only after the last policy load
expect_status 0 "allow -l" -- "$AVCDOCTOR" allow -l -p "$POLICY" crafted/debian-refpolicy-lastload.log
expect_grep "user_home_t" "$TMP/out" "the denial after the load is kept"
if grep -q "shadow_t" "$TMP/out"; then fail "-l kept a denial before the load"; else pass "-l drops denials before the load"; fi
# a load after the last denial leaves nothing; two loads keep what follows the second
{ cat crafted/debian-refpolicy-lastload.log
  echo "type=MAC_POLICY_LOAD msg=audit(1700000004.500:160): auid=0 ses=2 lsm=selinux res=1"; } >"$TMP/load-last.log"
expect_status 0 "allow -l, load at the end" -- "$AVCDOCTOR" allow -l --json -p "$POLICY" "$TMP/load-last.log"
if grep -q '"rule"' "$TMP/out"; then fail "-l kept denials before the final load"; else pass "-l: nothing after the final load"; fi
{ cat "$TMP/load-last.log"
  sed -n 1p crafted/debian-refpolicy-lastload.log | sed 's/1700000001.100:101/1700000005.100:170/'; } >"$TMP/load-twice.log"
expect_status 0 "allow -l, two loads" -- "$AVCDOCTOR" allow -l -p "$POLICY" "$TMP/load-twice.log"
expect_grep "shadow_t" "$TMP/out" "the denial after the second load is kept"
if grep -q "user_home_t" "$TMP/out"; then fail "-l kept a denial between the loads"; else pass "-l drops denials between the loads"; fi

# -D
expect_status 0 "allow -D" -- "$AVCDOCTOR" allow -D -p "$POLICY" $crafted
expect_grep "^dontaudit httpd_t user_home_t:file read;" "$TMP/out" "dontaudit rules"
expect_grep "^#dontaudit httpd_t shadow_t:file read; # not allowed: a red alert" "$TMP/out" \
	"-D: an attack indicator is not hidden either"
expect_grep "^dontaudit staff_t dirmngr_t:process transition;" "$TMP/out" \
	"-D: a constraint-blocked denial may be hidden"

# --source
expect_status 0 "allow --source" -- "$AVCDOCTOR" allow --source cdrecord_t -p "$POLICY" $crafted
if grep -q "httpd_t" "$TMP/out"; then fail "--source kept other domains"; else pass "--source filters"; fi

# --json
expect_status 0 "allow --json" -- "$AVCDOCTOR" allow --json -p "$POLICY" $crafted
python3 - "$TMP/out" <<'PY' || fail "allow --json objects"
import json, sys
rules = [json.loads(l) for l in open(sys.argv[1])]
r = [x for x in rules if x.get("source") == "cdrecord_t"][0]
assert r["class"] == "file" and r["permissions"] == ["read"] and r["reason"] == "boolean", r
assert sorted(b["name"] for b in r["booleans"][0]) == ["cdrecord_read_content", "use_samba_home_dirs"]
assert r["records"][0]["line"] == 10, r["records"]
bad = [x for x in rules if x.get("class") == "nosuchclass"][0]
assert bad["emitted"] is False and "nosuchclass" in bad["problem"]
assert any(x.get("rule") == "role" and x["type"] == "mount_t" for x in rules)
print("ok: allow --json objects")
PY

# --verify: every te_rule/boolean denial allowed, the constraint one not
expect_status 0 "allow --verify" -- "$AVCDOCTOR" allow --verify -p "$POLICY" $crafted
expect_grep "denials are allowed" "$TMP/out" "verification summary"
expect_grep "^# Left out, no rule written for 4 denials:" "$TMP/out" "--verify: the left-out count"
expect_grep "staff_t dirmngr_t:process: an allow rule would not help: constraint" "$TMP/out" \
	"--verify: the constraint denial left out, and why"
expect_grep "debian-refpolicy-cases.log:1: httpd_t shadow_t:file: not allowed: a red alert" "$TMP/out" \
	"--verify: the red alert's denial left out, and why"
expect_status 0 "allow --verify --json" -- "$AVCDOCTOR" allow --verify --json -p "$POLICY" $crafted
python3 - "$TMP/out" <<'PY' || fail "--verify --json left_out"
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
v = [o["verify"] for o in objs if "verify" in o][0]
assert sorted(x["reason"] for x in v["left_out"]) == ["attack", "attack", "constraint", "invalid_context"], v["left_out"]
r = [o for o in objs if o.get("source") == "staff_t" and o.get("target") == "dirmngr_t"][0]
assert r["emitted"] is False and r["left_out"] == "constraint", r
print("ok: --verify --json lists the left-out denials")
PY
# a file name with a newline stays inside its comment line of the policy text
evil="$TMP/x
allow evil_t shadow_t:file read;"
cp "$crafted" "$evil"
expect_status 0 "allow --verify, a newline in the file name" -- "$AVCDOCTOR" allow --verify -p "$POLICY" "$evil"
grep -q '^allow evil_t' "$TMP/out" && fail "the file name injected a rule line" || pass "no injected rule line"
expect_grep 'x\\nallow evil_t shadow_t:file read;:[0-9]*: .*constraint' "$TMP/out" "the file name shown escaped"
rm -f "$evil"

# bad module names never reach a file name or the module text
expect_status 1 "invalid module name" -- "$AVCDOCTOR" allow -M '../x;id' -p "$POLICY" $crafted

# -M: compile, load into a copy of the policy store, check the accesses
mkdir -p "$TMP/mod" && cd "$TMP/mod" || exit 1
expect_status 0 "allow -M" -- "$AVCDOCTOR" allow -M local_test -p "$POLICY" "$AD_CORPUS/$crafted"
[ -s local_test.te ] && [ -s local_test.pp ] && pass "module written and compiled" || fail "no local_test.te/.pp"
expect_grep "^module local_test 1.0;" local_test.te "module header"
expect_grep "semodule -i local_test.pp" "$TMP/out" "load command printed"
# the internal steps (checkmodule, semodule_package in a private directory) are never shown
if grep -q 'checkmodule\|semodule_package\|\.avcdoctor-' "$TMP/err"; then
	fail "allow -M printed its internal commands: $(head -2 "$TMP/err")"
else pass "allow -M shows no internal command"; fi
# a module whose every rule is left out (a red alert's access) is not written: said, exit 1
expect_status 1 "allow -M, every rule left out" -- "$AVCDOCTOR" allow --source httpd_t --target shadow_t \
	--perm read --verify -M local_red -p "$POLICY" "$AD_CORPUS/$crafted"
[ -e local_red.te ] || [ -e local_red.pp ] && fail "a module of left-out rules was written" ||
	pass "no module of left-out rules"
expect_grep "^avcdoctor: allow: no module written: no rule can be written live (see why above); --keep-blocked" \
	"$TMP/err" "allow -M says why no module was written"
expect_grep "^#allow httpd_t shadow_t:file read; # not allowed: a red alert" "$TMP/out" \
	"allow -M shows the left-out rule and its reason"
grep -q 'syntax error\|require {' "$TMP/out" "$TMP/err" && fail "an empty module reached checkmodule" ||
	pass "no empty require block, no checkmodule error"
expect_status 1 "allow -M, no denial chosen" -- "$AVCDOCTOR" allow --source nosuch_t -M local_none \
	-p "$POLICY" "$AD_CORPUS/$crafted"
expect_grep "no module written: no denial to allow" "$TMP/err" "allow -M without a denial says so"
[ -e local_none.te ] && fail "a module without a denial was written" || pass "no module without a denial"
# -M in a shared directory: links and other users' files are never written through
ls -A | grep -q '^\.avcdoctor-' && fail "a private build directory was left behind" || pass "no build directory left"
: > "$TMP/victim"
ln -s "$TMP/victim" local_test.mod
expect_status 0 "allow -M with a planted NAME.mod link" -- "$AVCDOCTOR" allow -M local_test -p "$POLICY" "$AD_CORPUS/$crafted"
[ -s "$TMP/victim" ] && fail "checkmodule wrote through a planted link" || pass "a planted NAME.mod link is not written through"
rm -f local_test.mod
if [ "$(id -u)" = 0 ]; then
	ln -s "$TMP/victim" local_evil.pp
	chown -h 65534:65534 local_evil.pp
	expect_status 1 "allow -M over another user's link" -- "$AVCDOCTOR" allow -M local_evil -p "$POLICY" "$AD_CORPUS/$crafted"
	expect_grep 'local_evil.pp belongs to another user: not replaced' "$TMP/err" "another user's NAME.pp refused"
	[ -L local_evil.pp ] && [ ! -s "$TMP/victim" ] && pass "the link and its target left alone" || fail "the planted link was used"
	rm -f local_evil.pp local_evil.te
fi
mkdir -m 777 "$TMP/shared" && cd "$TMP/shared" || exit 1
expect_status 0 "allow -M in a directory others can write" -- "$AVCDOCTOR" allow -M local_test -p "$POLICY" "$AD_CORPUS/$crafted"
expect_grep 'writable by other users' "$TMP/err" "a shared directory is warned about"
cd "$TMP/mod" || exit 1
expect_status 0 "allow -M --cil" -- "$AVCDOCTOR" allow -M local_cil --cil -p "$POLICY" "$AD_CORPUS/$crafted"
[ -s local_cil.cil ] && pass "CIL written" || fail "no local_cil.cil"
if [ -d /var/lib/selinux/default ] && command -v semodule >/dev/null; then
	root="$TMP/root"
	mkdir -p "$root/var/lib/selinux" "$root/etc/selinux"
	cp -a /var/lib/selinux/default "$root/var/lib/selinux/"
	cp -a /etc/selinux/default "$root/etc/selinux/"
	cp /etc/selinux/config /etc/selinux/semanage.conf "$root/etc/selinux/"
	expect_status 0 "semodule loads the module into a copy of the store" -- \
		semodule -p "$root" -s default -n -i local_test.pp
	newpol=$(ls "$root"/etc/selinux/default/policy/policy.* | tail -1)
	sesearch -A -s httpd_t -t user_home_t -c file -p read "$newpol" > "$TMP/ses"
	expect_grep "allow httpd_t user_home_t:file read;" "$TMP/ses" "sesearch sees the new rule"
	sesearch -A -s httpd_t -t shadow_t -c file -p read "$newpol" > "$TMP/ses"
	if grep -q "allow httpd_t shadow_t:file" "$TMP/ses"; then
		fail "the module grants a red alert's access"
	else
		pass "the module does not grant the red alert's access"
	fi
	expect_status 0 "why against the new policy" -- "$AVCDOCTOR" why --json -p "$newpol" "$AD_CORPUS/$crafted"
	python3 - "$TMP/out" <<'PY' || fail "the module allows what it claims"
import json, sys
rows = {}
for l in open(sys.argv[1]):
    o = json.loads(l)
    rows.setdefault(o["serial"], o)
for s in (103, 104, 105, 110, 111):
    assert rows[s]["reason"] == "allowed", (s, rows[s]["reason"])
# the red alert's access (shadow_t) is left out: still denied
assert rows[101]["reason"] == "te_rule", rows[101]["reason"]
assert rows[106]["reason"] == "constraint", rows[106]["reason"]
print("ok: every te_rule and boolean denial is allowed by the loaded module")
PY
	expect_status 0 "semodule loads the CIL module" -- semodule -p "$root" -s default -n -i local_cil.cil
else
	echo "SKIP: no policy store to load the module into"
fi
cd "$AD_CORPUS" || exit 1

# coverage of audit2allow's rules on the corpus
if command -v audit2allow >/dev/null; then
	python3 "$AD_SOURCE_DIR/tests/compare_audit2allow.py" "$AVCDOCTOR" "$POLICY" \
		*.log *.txt crafted/*.log > "$TMP/cmp" 2>&1 && pass "covers audit2allow's rules" ||
		{ fail "audit2allow coverage"; cat "$TMP/cmp" >&2; }
	cat "$TMP/cmp"
fi

# -R: refpolicy interface calls instead of allow rules (selinux-policy-dev)
cat > "$TMP/iface.log" <<'EOF'
type=AVC msg=audit(1700000101.100:901): avc:  denied  { read open getattr } for  pid=100 comm="httpd" name="hosts" dev="sda1" ino=1 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:etc_t:s0 tclass=file permissive=0
type=AVC msg=audit(1700000101.200:902): avc:  denied  { write } for  pid=100 comm="httpd" name="shadow" dev="sda1" ino=2 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:shadow_t:s0 tclass=file permissive=0
EOF
if [ -r /usr/share/selinux/devel/include/kernel/files.if ]; then
	expect_status 0 "allow -R" -- "$AVCDOCTOR" allow -R -p "$POLICY" "$TMP/iface.log"
	expect_grep "^files_read_etc_files(httpd_t)$" "$TMP/out" "-R: the interface call"
	expect_grep "^# allow httpd_t etc_t:file { getattr open read };$" "$TMP/out" \
		"-R: the rule it replaces, as a comment"
	# a web server writing the password hashes is red: no interface call, the rule commented
	expect_grep "^#allow httpd_t shadow_t:file write; # not allowed: a red alert (credentials)" \
		"$TMP/out" "-R: no interface grants it: the allow rule stays, commented as red"
	expect_status 0 "allow -R --json" -- "$AVCDOCTOR" allow -R --json -p "$POLICY" "$TMP/iface.log"
	expect_grep '"interface": *"files_read_etc_files(httpd_t)"' "$TMP/out" "-R --json: interface"
	mkdir -p "$TMP/imod"
	(cd "$TMP/imod" && "$AVCDOCTOR" allow -R -M local_iface -p "$POLICY" "$TMP/iface.log") \
		> "$TMP/imod.out" 2>&1 || fail "allow -R -M"
	expect_grep "^policy_module(local_iface, 1.0)$" "$TMP/imod/local_iface.te" "-R -M: policy_module"
	expect_grep "^files_read_etc_files(httpd_t)$" "$TMP/imod/local_iface.te" \
		"-R -M: the call in the .te"
	expect_grep "make -f /usr/share/selinux/devel/Makefile local_iface.pp" "$TMP/imod.out" \
		"-R -M: the refpolicy build command instead of checkmodule"
	if command -v make >/dev/null && command -v m4 >/dev/null &&
	   command -v checkmodule >/dev/null; then
		(cd "$TMP/imod" && make -f /usr/share/selinux/devel/Makefile local_iface.pp) \
			> "$TMP/imod.make" 2>&1
		[ -s "$TMP/imod/local_iface.pp" ] && pass "-R -M: the refpolicy build compiles it" ||
			{ fail "-R -M: make"; tail -5 "$TMP/imod.make" >&2; }
	fi
fi
expect_status 0 "-R without the headers: plain rules, exit 0" -- \
	env AVCDOCTOR_IFACES_DIR=/nonexistent "$AVCDOCTOR" allow -R -p "$POLICY" "$TMP/iface.log"
expect_grep "^allow httpd_t etc_t:file { getattr open read };$" "$TMP/out" "-R fallback: the allow rule"
expect_grep "selinux-policy-dev" "$TMP/err" "-R fallback: says why"
finish
