#!/bin/bash
# SIGHUP reloads what the configuration names, not only the policy: the
# store's limits (max_alerts prunes at once) and the file labels (an edited
# file_contexts.local changes the advice for the next denial).
. "$AD_SOURCE_DIR/tests/lib.sh"
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
FC=$TMP/fc/file_contexts
mkdir -p "$TMP/fc" "$TMP/rules"
cp /etc/selinux/default/contexts/files/file_contexts "$FC" || exit 77
: >"$FC.local"

# conf MAX_ALERTS: the dispatcher's configuration
conf() {
	cat >"$TMP/d.conf" <<EOT
[store]
path=$TMP/alerts.db
max_alerts=$1
max_age_days=0
[bus]
type=none
[analysis]
policy=$POLICY
file_contexts=$FC
rules_dir=$TMP/rules
file_checks=false
[log]
target=stderr
EOT
}

# avc SERIAL TYPE PATH: one httpd_t read denial on a file of TYPE at PATH, with its PATH record
avc() {
	local t="17000000$1.100:$1"
	printf 'type=AVC msg=audit(%s): avc:  denied  { read } for  pid=100 comm="httpd" name="%s" dev="sda1" ino=1 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:%s:s0 tclass=file permissive=0\n' "$t" "${3##*/}" "$2"
	printf 'type=SYSCALL msg=audit(%s): arch=c000003e syscall=257 success=no exit=-13 a0=0 a1=0 a2=0 a3=0 items=1 ppid=1 pid=100 auid=4294967295 uid=33 gid=33 euid=33 suid=33 fsuid=33 egid=33 sgid=33 fsgid=33 tty=(none) ses=4294967295 comm="httpd" exe="/usr/sbin/httpd" subj=system_u:system_r:httpd_t:s0 key=(null)\n' "$t"
	printf 'type=PATH msg=audit(%s): item=0 name="%s" inode=1 dev=08:01 mode=0100644 ouid=0 ogid=0 rdev=00:00 obj=system_u:object_r:%s:s0 nametype=NORMAL\n' "$t" "$3" "$2"
	printf 'type=EOE msg=audit(%s):\n' "$t"
}

conf 10
mkfifo "$TMP/d.in"
"$DISPATCH" --config "$TMP/d.conf" --stdout <"$TMP/d.in" >"$TMP/d.out" 2>"$TMP/d.err" &
D=$!
exec {DFD}>"$TMP/d.in"
avc 10 var_t /var/webapp/index.html >&$DFD
avc 11 etc_t /etc/webapp/app.conf >&$DFD
avc 12 shadow_t /etc/shadow >&$DFD
wait_for 10 "three alerts stored" -- \
	sh -c "[ \$('$AVCDOCTOR' list --db '$TMP/alerts.db' --json 2>/dev/null | wc -l) = 3 ]" &&
	pass "three alerts stored"

# the administrator labels the web application and caps the store, then SIGHUP
echo '/var/webapp(/.*)?  system_u:object_r:httpd_sys_content_t:s0' >"$FC.local"
conf 1
kill -HUP "$D"
wait_for 10 "SIGHUP reload logged" -- grep -q "SIGHUP: configuration, policy and rules reloaded" \
	"$TMP/d.err" && pass "SIGHUP reloads"
wait_for 10 "max_alerts=1 prunes the store at the reload" -- \
	sh -c "[ \$('$AVCDOCTOR' list --db '$TMP/alerts.db' --json 2>/dev/null | wc -l) = 1 ]" &&
	pass "the new max_alerts applies at the reload"

# the same denial again: analysed anew with the edited labels
avc 13 var_t /var/webapp/index.html >&$DFD
exec {DFD}>&-
wait "$D"
relabel='"commands":\[\["restorecon","-v","--","/var/webapp/index.html"\]\]'
grep -F '/var/webapp/index.html' "$TMP/d.out" >"$TMP/webapp"
if head -1 "$TMP/webapp" | grep -q "$relabel"; then
	fail "a relabel was offered before file_contexts.local said so"
else
	pass "no relabel while file_contexts says var_t"
fi
if tail -1 "$TMP/webapp" | grep -q "$relabel"; then
	pass "the edited file_contexts.local is used after SIGHUP (restorecon offered)"
else
	fail "file_contexts.local was not reread on SIGHUP"
	cat "$TMP/webapp" >&2
fi
if grep -E "runtime error|AddressSanitizer|CRITICAL|WARNING \*\*" "$TMP/d.err"; then
	fail "sanitizer or GLib warnings"
fi
finish
