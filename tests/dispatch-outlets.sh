#!/bin/bash
# New alerts reach where administrators already look: a structured journal
# entry per new alert (read back with journalctl from a journald instance of
# the test's own namespace), and e-mail through sendmail with an argument
# vector, rate-limited, with no record text in the headers; a mail held back
# by the limit is kept in the alert store and sent by the next start.
. "$AD_SOURCE_DIR/tests/lib.sh"
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
JOURNALD=/lib/systemd/systemd-journald
MSGID=d4f58c64e4ee4ed99c5f0788e961c6e3

# the alerts: three signatures, one with a file name that tries to add headers
# (hex-encoded by the kernel: "x\nBcc: evil@example.com\nSubject: pwned")
cat >"$TMP/in.log" <<'EOT'
type=AVC msg=audit(1700000001.100:1): avc:  denied  { read } for  pid=100 comm="httpd" name="shadow" dev="sda1" ino=1 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:shadow_t:s0 tclass=file permissive=0
type=AVC msg=audit(1700000002.100:2): avc:  denied  { read } for  pid=100 comm="httpd" name=780A4263633A206576696C406578616D706C652E636F6D0A5375626A6563743A2070776E6564 dev="sda1" ino=2 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:user_home_t:s0 tclass=file permissive=0
node=web1 type=AVC msg=audit(1700000003.100:3): avc:  denied  { name_connect } for  pid=100 comm="httpd" dest=8080 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:http_cache_port_t:s0 tclass=tcp_socket permissive=0
EOT

# conf EXTRA...: the dispatcher's configuration, with lines added under [log] / [email]
conf() {
	cat >"$TMP/d.conf" <<EOT
[store]
path=${STORE:-none}
[bus]
type=none
[analysis]
policy=$POLICY
file_checks=false
[log]
target=stderr
$1
[email]
$2
EOT
}

# --- the journal --------------------------------------------------------------------
NS=avcdtest$$
if [ "$(id -u)" = 0 ] && [ -x "$JOURNALD" ] && command -v journalctl >/dev/null; then
	"$JOURNALD" "$NS" >"$TMP/journald.log" 2>&1 &
	JPID=$!
	trap 'kill $JPID 2>/dev/null; wait $JPID 2>/dev/null; rm -rf "$TMP" /run/systemd/journal.$NS /run/log/journal/*.$NS /var/log/journal/*.$NS' EXIT
	wait_for 10 "journald of namespace $NS" -- test -S "/run/systemd/journal.$NS/socket"
	conf "journal_socket=/run/systemd/journal.$NS/socket" ""
	"$DISPATCH" --config "$TMP/d.conf" --stdout <"$TMP/in.log" >"$TMP/d.out" 2>"$TMP/d.err" ||
		fail "the dispatcher failed: $(head -3 "$TMP/d.err")"
	ids=$(grep -o '"id":"[0-9a-f]*"' "$TMP/d.out" | cut -d'"' -f4 | sort -u)
	[ "$(echo "$ids" | wc -l)" = 3 ] && pass "three alerts" || fail "alerts: $ids"
	got=""
	for _ in $(seq 100); do
		got=$(journalctl --namespace="$NS" MESSAGE_ID=$MSGID -o json 2>/dev/null)
		[ "$(echo "$got" | grep -c AVCDOCTOR_ALERT_ID)" -ge 3 ] && break
		sleep 0.1
	done
	echo "$got" >"$TMP/journal.json"
	python3 - "$TMP/journal.json" "$ids" <<'PY' && pass "one journal entry per new alert, with its fields" || fail "journal entries"
import json, sys
entries = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ids = set(sys.argv[2].split())
assert {e["AVCDOCTOR_ALERT_ID"] for e in entries} == ids, entries
for e in entries:
    assert e["SYSLOG_IDENTIFIER"] == "avcdoctor"
    assert e["AVCDOCTOR_SOURCE"] == "httpd_t"
    assert e["AVCDOCTOR_LEVEL"] in ("green", "yellow", "red")
    assert e["MESSAGE"].startswith("SELinux is preventing")
    assert "\n" not in e["MESSAGE"]
by_target = {e["AVCDOCTOR_TARGET"]: e for e in entries}
assert by_target["http_cache_port_t"]["AVCDOCTOR_CLASS"] == "tcp_socket"
assert by_target["http_cache_port_t"]["AVCDOCTOR_HOST"] == "web1"
assert by_target["http_cache_port_t"]["AVCDOCTOR_PERMISSIONS"] == "name_connect"
assert by_target["shadow_t"]["AVCDOCTOR_LEVEL"] == "red"
assert by_target["shadow_t"]["PRIORITY"] == "2"
PY
	n=$(journalctl --namespace="$NS" MESSAGE_ID=$MSGID AVCDOCTOR_TARGET=shadow_t -o cat 2>/dev/null | wc -l)
	[ "$n" = 1 ] && pass "journalctl filters alerts by field" || fail "journalctl field match gave $n"
else
	echo "skipped: the journal part needs root and systemd-journald"
fi

# --- e-mail ---------------------------------------------------------------------------
# a name of its own per mail: two sendmails may run at once
cat >"$TMP/sendmail" <<EOT
#!/bin/sh
f=\$(mktemp "$TMP/mail.XXXXXX")
printf '%s\n' "\$@" >"\$f.argv"
cat >"\$f.msg"
EOT
chmod 755 "$TMP/sendmail"
printf '# who hears of new alerts\nadmin@example.org\nops@example.org\nnot an address\n-oQ/tmp/x@example.org\n' >"$TMP/rcpt"
conf "journal_socket=none" "recipients_file=$TMP/rcpt
sendmail=$TMP/sendmail
max_per_hour=1"
"$DISPATCH" --config "$TMP/d.conf" --stdout <"$TMP/in.log" >"$TMP/d.out" 2>"$TMP/d.err" ||
	fail "the dispatcher failed: $(head -3 "$TMP/d.err")"
wait_for 10 "two mails handed to sendmail" -- \
	sh -c 'test "$(find "$1" -name "mail.*.msg" -size +0 | wc -l)" -ge 2' _ "$TMP"
# the dispatcher has ended: once no mail program runs, none can come
wait_for 10 "the mail programs ended" -- sh -c '! pgrep -f "^/bin/sh $1"' _ "$TMP/sendmail"
# httpd reading shadow_t is red: it has a budget of its own, the two others share one
n=$(ls "$TMP"/mail.*.argv 2>/dev/null | wc -l)
[ "$n" = 2 ] && pass "max_per_hour=1: two mails for three alerts" || fail "$n mails sent"
grep -l '^Subject: .*(red)$' "$TMP"/mail.*.msg >/dev/null 2>&1 &&
	pass "the red alert is mailed whatever the other alerts used" ||
	fail "no mail of the red alert: $(grep -h '^Subject' "$TMP"/mail.*.msg)"
expect_grep "alert mails held back" "$TMP/d.err" "the held-back mail is logged"
expect_grep "rcpt:4: not a plain e-mail address" "$TMP/d.err" "a bad recipient line is named"
expect_grep "rcpt:5: not a plain e-mail address" "$TMP/d.err" "a recipient that looks like an option is refused"
printf -- '-oi\n--\nadmin@example.org\nops@example.org\n' >"$TMP/want.argv"
for f in "$TMP"/mail.*.argv; do
	diff -u "$TMP/want.argv" "$f" >&2 || fail "sendmail argv $f"
done
pass "sendmail gets -oi -- and the checked recipients only"
for f in "$TMP"/mail.*.msg; do
	sed '/^$/q' "$f" >"$TMP/headers"
	if grep -vqE '^(To: admin@example.org, ops@example.org|Subject: \[avcdoctor\] SELinux alert [0-9a-f]{16} \((green|yellow|red)\)|MIME-Version: 1.0|Content-Type: text/plain; charset=UTF-8|Content-Transfer-Encoding: 8bit|Auto-Submitted: auto-generated|)$' "$TMP/headers"; then
		fail "unexpected header in $f:"; cat "$TMP/headers" >&2
	fi
	grep -q '^For details run: avcdoctor show [0-9a-f]\{16\}$' "$f" || fail "no details line in $f"
done
pass "the headers hold only the recipients, the alert id and its level"
if grep -l 'user_home_t' "$TMP"/mail.*.msg >/dev/null 2>&1; then
	f=$(grep -l 'user_home_t' "$TMP"/mail.*.msg | head -1)
	if sed '/^$/q' "$f" | grep -qi 'bcc\|pwned'; then fail "record text reached the headers"
	else pass "a planted Bcc in a file name stays in the body, escaped"; fi
fi

# --- held-back mails outlive the dispatcher ------------------------------------------
# with a store, the mail held back by max_per_hour=1 is kept there; the next
# start sends it, saying it was held back, and forgets it
if command -v sqlite3 >/dev/null; then
	rm -f "$TMP"/mail.*
	mkdir -m 700 "$TMP/store"
	STORE=$TMP/store/alerts.db
	conf "journal_socket=none" "recipients_file=$TMP/rcpt
sendmail=$TMP/sendmail
max_per_hour=1"
	"$DISPATCH" --config "$TMP/d.conf" --stdout <"$TMP/in.log" >"$TMP/d.out" 2>"$TMP/d.err" ||
		fail "the dispatcher with a store failed: $(head -3 "$TMP/d.err")"
	wait_for 10 "the mail programs ended" -- sh -c '! pgrep -f "^/bin/sh $1"' _ "$TMP/sendmail"
	n=$(ls "$TMP"/mail.*.msg 2>/dev/null | wc -l)
	[ "$n" = 2 ] && pass "with a store: two mails for three alerts" || fail "$n mails sent"
	held=$(sqlite3 "$STORE" "SELECT alert FROM held_mails")
	[ "$(printf '%s\n' "$held" | grep -c '^[0-9a-f]\{16\}$')" = 1 ] &&
		pass "the held-back mail is kept in the store ($held)" ||
		fail "held_mails holds: $held"
	grep -l "SELinux alert $held" "$TMP"/mail.*.msg >/dev/null 2>&1 &&
		fail "the held-back mail was sent already"
	# the next start, nothing new to read
	"$DISPATCH" --config "$TMP/d.conf" --stdout </dev/null >"$TMP/d2.out" 2>"$TMP/d2.err" ||
		fail "the second start failed: $(head -3 "$TMP/d2.err")"
	wait_for 10 "the held-back mail handed to sendmail" -- \
		sh -c 'grep -l "SELinux alert $2" "$1"/mail.*.msg' _ "$TMP" "$held"
	wait_for 10 "the mail programs ended" -- sh -c '! pgrep -f "^/bin/sh $1"' _ "$TMP/sendmail"
	f=$(grep -l "SELinux alert $held" "$TMP"/mail.*.msg | head -1)
	grep -q "This mail was held back by the limit of 1 alert mails an hour. Still held back after it: 0;" "$f" &&
		pass "the next start sends it, saying it was held back and how many still are" ||
		fail "no held-back line in $f: $(sed -n '/^$/,$p' "$f" | head -3)"
	[ "$(ls "$TMP"/mail.*.msg | wc -l)" = 3 ] && pass "no mail sent twice" ||
		fail "$(ls "$TMP"/mail.*.msg | wc -l) mails in all"
	[ "$(sqlite3 "$STORE" "SELECT count(*) FROM held_mails")" = 0 ] &&
		pass "the store forgets a held mail once it is sent" ||
		fail "held_mails still holds $(sqlite3 "$STORE" "SELECT count(*) FROM held_mails")"
	STORE=
else
	echo "skipped: the held-back part needs sqlite3"
fi
finish
