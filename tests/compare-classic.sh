#!/bin/bash
# avcdoctor under the names audit2allow and audit2why: policycoreutils'
# options, their layout, and the same rules as their own tools on the
# shared corpus (compare_classic.py says where avcdoctor differs on purpose).
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
A2A="$AD_BUILD_DIR/bin/audit2allow"
A2W="$AD_BUILD_DIR/bin/audit2why"
cd "$AD_CORPUS" || exit 1
crafted=crafted/debian-refpolicy-cases.log

[ -L "$A2A" ] && [ -L "$A2W" ] && pass "the audit2allow and audit2why links" || fail "no links in bin/"

# the options of policycoreutils 3.4, each accepted or refused in one line
expect_status 0 "-i FILE" -- "$A2A" -p "$POLICY" -i $crafted
expect_grep "^#============= httpd_t ==============$" "$TMP/out" "audit2allow's domain headers"
expect_grep "^allow httpd_t user_home_t:file read;$" "$TMP/out" "a rule"
expect_status 0 "-N -e -v accepted" -- "$A2A" -N -e -v -p "$POLICY" -i $crafted
expect_status 0 "-t REGEX" -- "$A2A" -t 'cdrec.*' -p "$POLICY" -i $crafted
[ "$(grep -c '^#=====' "$TMP/out")" = 1 ] && grep -q "^allow cdrecord_t " "$TMP/out" &&
	pass "-t keeps the matching domains only" || fail "-t"
expect_status 0 "-D" -- "$A2A" -D -p "$POLICY" -i $crafted
expect_grep "^dontaudit httpd_t user_home_t:file read;$" "$TMP/out" "-D: dontaudit rules"
expect_status 0 "-x" -- "$A2A" -x -p "$POLICY" -i crafted/debian-refpolicy-ioctl-xperms.log
expect_grep "^allowxperm httpd_t user_devpts_t:chr_file ioctl" "$TMP/out" "-x: allowxperm"
expect_status 0 "-l" -- "$A2A" -l -p "$POLICY" -i crafted/debian-refpolicy-lastload.log
if grep -q shadow_t "$TMP/out"; then fail "-l kept a denial before the load"; else pass "-l"; fi
expect_status 0 "-C" -- "$A2A" -C -p "$POLICY" -i $crafted
expect_grep "^(allow httpd_t user_home_t (file (read)))$" "$TMP/out" "-C: CIL"
expect_status 0 "-m NAME" -- "$A2A" -m my-test_1 -p "$POLICY" -i $crafted
expect_grep "^module my-test_1 1.0;$" "$TMP/out" "-m: the module text, a name with - and _"
expect_status 0 "-r" -- "$A2A" -r -p "$POLICY" -i $crafted
expect_grep "^require {$" "$TMP/out" "-r: the require block"
if grep -q "^module " "$TMP/out"; then fail "-r printed a module line"; else pass "-r: no module line"; fi
rm -f "$TMP/o.te"; echo "# kept" > "$TMP/o.te"
expect_status 0 "-o FILE" -- "$A2A" -o "$TMP/o.te" -p "$POLICY" -i $crafted
head -1 "$TMP/o.te" | grep -q "^# kept" && grep -q "^allow httpd_t user_home_t:file read;" "$TMP/o.te" &&
	pass "-o appends" || fail "-o"
expect_status 0 "-w" -- "$A2A" -w -p "$POLICY" -i $crafted
expect_grep "^	Was caused by:$" "$TMP/out" "-w: audit2why's sections"
expect_status 1 "-b refused" -- "$A2A" -b
expect_grep "ausearch -m avc,user_avc,selinux_err -ts boot --raw | audit2allow" "$TMP/err" "-b names the alternative"
[ "$(wc -l < "$TMP/err")" = 1 ] && pass "-b: one line" || fail "-b: $(wc -l < "$TMP/err") lines"
expect_status 1 "-d refused" -- "$A2A" -d
expect_grep "dmesg | audit2allow" "$TMP/err" "-d names the alternative"
expect_status 1 "-a with -i" -- "$A2A" -a -i $crafted
expect_status 1 "an unknown option" -- "$A2A" -q
expect_status 0 "-p -i bundled with a pipe" -- sh -c "grep user_home_t $crafted | '$A2A' -p '$POLICY'"
[ "$(grep -c '^allow ' "$TMP/out")" = 1 ] && pass "a pipe into audit2allow: its one rule" || fail "pipe into audit2allow"

# -M NAME with - and _: the module written and compiled, as audit2allow -M does
mkdir -p "$TMP/m" && cd "$TMP/m" || exit 1
expect_status 0 "-M my-httpd_1" -- "$A2A" -M my-httpd_1 -p "$POLICY" -i "$AD_CORPUS/$crafted"
expect_grep "^module my-httpd_1 1.0;$" my-httpd_1.te "-M: the module line"
if command -v checkmodule >/dev/null && command -v semodule_package >/dev/null; then
	[ -s my-httpd_1.pp ] && pass "-M: compiled" || fail "-M: no my-httpd_1.pp"
fi
if command -v audit2allow >/dev/null; then
	mkdir -p "$TMP/theirs" && cd "$TMP/theirs" || exit 1
	audit2allow -M my-httpd_1 -p "$POLICY" -i "$AD_CORPUS/$crafted" >/dev/null 2>&1
	if [ -s my-httpd_1.te ]; then
		diff <(grep -E '^(module|require)' my-httpd_1.te) \
		     <(grep -E '^(module|require)' "$TMP/m/my-httpd_1.te") > "$TMP/mdiff" &&
			pass "-M: the module line and require block as audit2allow's" ||
			{ fail "-M layout differs"; cat "$TMP/mdiff" >&2; }
		# the domains of ours are among theirs (left-out rules have none of their own)
		comm -13 <(grep '^#=====' my-httpd_1.te | sort -u) \
			<(grep '^#=====' "$TMP/m/my-httpd_1.te" | grep -v 'left out' | sort -u) > "$TMP/mdiff"
		[ -s "$TMP/mdiff" ] && { fail "-M: domains audit2allow has not"; cat "$TMP/mdiff" >&2; } ||
			pass "-M: the domain headers as audit2allow's"
	fi
fi
cd "$AD_CORPUS" || exit 1

# audit2why
expect_status 0 "audit2why -i" -- "$A2W" -p "$POLICY" -i $crafted
[ "$(grep -c '^	Was caused by:$' "$TMP/out")" = 15 ] && pass "audit2why: a section per record" ||
	fail "audit2why: $(grep -c 'Was caused by' "$TMP/out") sections"
expect_grep "^		Reason: boolean" "$TMP/out" "audit2why: avcdoctor's reasons in the sections"
if grep -q "denial records analysed" "$TMP/out"; then fail "audit2why: the account on stdout"
else pass "audit2why: no account among the sections"; fi
expect_status 1 "audit2why -b refused" -- "$A2W" -b
expect_grep "| audit2why" "$TMP/err" "audit2why -b names the alternative"

# the same invocations as policycoreutils' tools on the shared corpus
if command -v audit2allow >/dev/null && command -v audit2why >/dev/null; then
	python3 "$AD_SOURCE_DIR/tests/compare_classic.py" "$AD_BUILD_DIR/bin" "$POLICY" \
		*.log *.txt crafted/*.log > "$TMP/cmp" 2>&1 &&
		pass "the rules and layout of audit2allow and audit2why on the corpus" ||
		{ fail "compared with policycoreutils"; cat "$TMP/cmp" >&2; }
	cat "$TMP/cmp"
else
	echo "SKIP: policycoreutils' audit2allow/audit2why are not installed"
fi
finish
