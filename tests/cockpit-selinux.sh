#!/bin/bash
# Cockpit's own SELinux page, unchanged, on avcdoctor-dispatch: the page
# (dist/selinux of Cockpit's source package, which Debian 12 does not ship
# as a binary package; scripts/cockpit-selinux.sh fetches it) is put under a
# test-private XDG_DATA_DIRS/cockpit, cockpit-ws runs on 127.0.0.1 with a
# local session whose bridge talks to a private system bus, the dispatcher
# owns setroubleshoot's name there, and headless Chromium, driven over the
# DevTools protocol, loads the page: the alerts of injected denials are
# listed, one is expanded with its solutions, one is dismissed (delete_alert:
# gone from the store too), and its recurrence comes back as a new row with a
# new local id.  Screenshots go to $AD_COCKPIT_SHOTS (when set).
# Then "Apply this solution" on a mislabelled file's restorecon fix: Cockpit
# calls run_fix of avcdoctor-fixit (on the same private bus; the caller is
# root, which the helper authorises without asking polkit), the helper runs
# "restorecon -v -- PATH", and the page shows "Solution applied
# successfully" with the command's output.  The file's label really changes
# (getxattr of security.selinux), but not through the real restorecon: with
# no SELinux in the kernel (no selinuxfs in /proc/filesystems) restorecon
# exits 0 at once and writes nothing, although ext4 stores the
# security.selinux attribute without the LSM.  So the helper's directory
# (--bin-dir) holds a restorecon that records its argv and does what
# restorecon would do, with setfiles(8) and this test's file context, which
# does write the attribute here.
# The host's SELinux status: Cockpit's page hides the alerts when `sestatus`
# says SELinux is disabled, as it is on a Debian build machine; the bridge
# gets a PATH whose sestatus says "enabled, enforcing" (the page's only use
# of it).  Everything else the page does is real.
# Needs root, cockpit-ws, cockpit-bridge, chromium-headless-shell (or
# chromium), python3-websocket and the page (AD_COCKPIT_SELINUX=DIR, or
# BUILD/cockpit/selinux); exit 77 = skipped otherwise.
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
FIXIT="$AD_BUILD_DIR/bin/avcdoctor-fixit"
FC=/etc/selinux/default/contexts/files/file_contexts
PY=/usr/bin/python3
crafted="$AD_CORPUS/crafted/debian-refpolicy-cases.log"
PAGE=${AD_COCKPIT_SELINUX:-$AD_BUILD_DIR/cockpit/selinux}
WS=/usr/lib/cockpit/cockpit-ws

skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (the bus policy gives the names to root)"
if [ ! -r "$PAGE/setroubleshoot.html" ]; then
	# scripts/test.sh tried to fetch it: say why that failed
	[ -s "${AD_COCKPIT_FETCH_LOG:-}" ] &&
		skip "no Cockpit SELinux page: fetching it failed: $(grep -m1 '^E:\|rror' \
			"$AD_COCKPIT_FETCH_LOG" || tail -1 "$AD_COCKPIT_FETCH_LOG")"
	skip "no Cockpit SELinux page in $PAGE (scripts/cockpit-selinux.sh $AD_BUILD_DIR/cockpit)"
fi
[ -x "$WS" ] || skip "no $WS (apt-get install cockpit-ws)"
command -v cockpit-bridge >/dev/null || skip "no cockpit-bridge"
CHROME=$(command -v chromium-headless-shell || command -v chromium) || skip "no chromium"
"$PY" -c 'import websocket' 2>/dev/null || skip "no python3-websocket"
for p in dbus-daemon busctl gdbus /usr/sbin/setfiles; do command -v "$p" >/dev/null || skip "no $p"; done
[ -r "$FC" ] || skip "no $FC"
[ -x "$FIXIT" ] || skip "no $FIXIT"

pids=()
chrome_group=
cleanup() {
	# Debian's chromium commands are shell wrappers: end the whole group
	[ -n "$chrome_group" ] && kill -- "-$chrome_group" 2>/dev/null
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	[ -n "${KEEP_TMP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
chmod 755 "$TMP"

# --- the bus, the dispatcher -------------------------------------------------------
start_system_bus "<include>$AD_SOURCE_DIR/dispatcher/org.avcdoctor.Daemon.conf</include>
	<include>$AD_SOURCE_DIR/dispatcher/org.fedoraproject.Setroubleshootd.conf</include>
	<include>$AD_SOURCE_DIR/fixit/org.avcdoctor.Fixit1.conf</include>"
# the host's file contexts, and one for the test's web folder (.local: read after)
WWW=$TMP/www
mkdir -p "$WWW" "$TMP/fixbin"
echo hello >"$WWW/index.html"
cp "$FC" "$TMP/file_contexts"
[ -r "$FC.homedirs" ] && cp "$FC.homedirs" "$TMP/file_contexts.homedirs"
printf '%s(/.*)?\tsystem_u:object_r:httpd_sys_content_t:s0\n' "$WWW" >"$TMP/www.fc"
cp "$TMP/www.fc" "$TMP/file_contexts.local"
"$PY" -c 'import os, sys; os.setxattr(sys.argv[1], "security.selinux",
	b"system_u:object_r:games_data_t:s0\0")' "$WWW/index.html" ||
	skip "this file system stores no security.selinux attribute"
label() { "$PY" -c 'import os, sys; print(os.getxattr(sys.argv[1], "security.selinux").rstrip(b"\0").decode())' "$1"; }
cat >"$TMP/fixbin/restorecon" <<EOF
#!/bin/sh
# restorecon as it works with SELinux in the kernel (see the top of the test)
printf '%s\0' "\$@" >"$TMP/restorecon.argv"
[ "\$1 \$2" = "-v --" ] && [ \$# = 3 ] || { echo "unexpected arguments" >&2; exit 64; }
exec /usr/sbin/setfiles -v "$TMP/www.fc" "\$3"
EOF
chmod 755 "$TMP/fixbin/restorecon"
# the shipped rules: the /etc/shadow read is then an attack warning, a red alert
cat >"$TMP/d.conf" <<EOF
[store]
path=$TMP/d.db
[bus]
type=system
update_interval_ms=200
[analysis]
policy=$POLICY
rules_dir=$AD_SOURCE_DIR/rules
file_contexts=$TMP/file_contexts
file_checks=false
[log]
target=stderr
EOF
mkfifo "$TMP/d.in"
DBUS_SYSTEM_BUS_ADDRESS="$ADDR" "$DISPATCH" --config "$TMP/d.conf" <"$TMP/d.in" \
	>"$TMP/d.out" 2>"$TMP/d.err" &
pids+=($!)
exec {DFD}>"$TMP/d.in"
wait_for 10 "org.fedoraproject.Setroubleshootd" -- \
	busctl --address="$ADDR" status org.fedoraproject.Setroubleshootd || finish

# run_fix must reach this helper (with the stand-in restorecon), never another
start_fix_helper "$TMP/d.conf" "$TMP/fixbin"
printf 'type=AVC msg=audit(1700010000.000:5000): avc:  denied  { read } for  pid=42 comm="webd" path="%s" dev="vda" ino=11 scontext=system_u:system_r:httpd_t:s0 tcontext=system_u:object_r:games_data_t:s0 tclass=file permissive=0\n' \
	"$WWW/index.html" >"$TMP/www.log"

# denials: the crafted cases and one with a hostile path (quotes, $(...))
hexpath() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n' | tr a-f A-F; }
H=$(hexpath "/var/www/html/x'y\$(touch $TMP/pwned)\`id\`.html")
cat "$crafted" >&"$DFD"
printf 'type=AVC msg=audit(1700000501.100:901): avc:  denied  { lock } for  pid=100 comm="httpd" path=%s dev="sda1" ino=5 scontext=system_u:system_r:httpd_t:s0 tcontext=staff_u:object_r:user_home_t:s0 tclass=file permissive=0\n' "$H" >&"$DFD"
st_call() {
	DBUS_SYSTEM_BUS_ADDRESS="$ADDR" timeout 10 gdbus call --system \
		--dest org.fedoraproject.Setroubleshootd \
		--object-path /org/fedoraproject/Setroubleshootd \
		--method "org.fedoraproject.SetroubleshootdIface.$1" "${@:2}"
}
wait_for 10 "14 alerts stored" -- sh -c "[ \$(DBUS_SYSTEM_BUS_ADDRESS=$ADDR gdbus call --system \
	--dest org.fedoraproject.Setroubleshootd --object-path /org/fedoraproject/Setroubleshootd \
	--method org.fedoraproject.SetroubleshootdIface.get_all_alerts | grep -o \"'[0-9a-f]*-[0-9]*'\" | wc -l) = 14 ]"

# --- Cockpit: the page under a private XDG_DATA_DIRS, ws on 127.0.0.1 ---------------
mkdir -p "$TMP/share/cockpit" "$TMP/bin"
cp -r "$PAGE" "$TMP/share/cockpit/selinux"
cat >"$TMP/bin/sestatus" <<'EOF'
#!/bin/sh
# what sestatus says on an SELinux host (this test's stand-in for the host)
cat <<EOS
SELinux status:                 enabled
SELinuxfs mount:                /sys/fs/selinux
SELinux root directory:         /etc/selinux
Loaded policy name:             default
Current mode:                   enforcing
Mode from config file:          enforcing
Policy MLS status:              enabled
Policy deny_unknown status:     denied
Max kernel policy version:      33
EOS
EOF
chmod 755 "$TMP/bin/sestatus"
PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
env DBUS_SYSTEM_BUS_ADDRESS="$ADDR" XDG_DATA_DIRS="$TMP/share:/usr/share" \
	PATH="$TMP/bin:$PATH" HOME="$TMP" XDG_RUNTIME_DIR="$TMP" \
	"$WS" --no-tls --address 127.0.0.1 --port "$PORT" --local-session=cockpit-bridge \
	>"$TMP/ws.log" 2>&1 &
pids+=($!)
wait_for 10 "cockpit-ws on 127.0.0.1:$PORT" -- \
	"$PY" -c "import socket; socket.create_connection(('127.0.0.1', $PORT))" || finish
setsid "$CHROME" --headless --no-sandbox --disable-gpu --remote-debugging-port=0 \
	--user-data-dir="$TMP/chrome" about:blank >"$TMP/chrome.log" 2>&1 &
chrome_group=$!
wait_for 20 "chromium's DevTools port" -- test -s "$TMP/chrome/DevToolsActivePort" || finish
CDP=$(head -1 "$TMP/chrome/DevToolsActivePort")
SHOTS=${AD_COCKPIT_SHOTS:-$TMP/shots}
mkdir -p "$SHOTS"
first=$(head -1 "$crafted")
echo "type=AVC msg=audit(1700009999.500:99999):${first#*):}" >"$TMP/again.log"

cat >"$TMP/drive.py" <<'PY'
import base64, json, os, re, subprocess, sys, time, urllib.request
import websocket

cdp_port, url, shots, addr, dfd, again, www = sys.argv[1:8]
dfd = int(dfd)
failures = 0

def ok(msg):
    print("ok: " + msg, flush=True)

def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg, file=sys.stderr, flush=True)

targets = json.load(urllib.request.urlopen("http://127.0.0.1:%s/json/list" % cdp_port))
ws = websocket.create_connection([t for t in targets if t["type"] == "page"][0]
                                 ["webSocketDebuggerUrl"], timeout=60)
seq = 0
def cdp(method, **params):
    global seq
    seq += 1
    ws.send(json.dumps({"id": seq, "method": method, "params": params}))
    while True:
        m = json.loads(ws.recv())
        if m.get("id") == seq:
            if "error" in m:
                raise RuntimeError("%s: %s" % (method, m["error"]))
            return m["result"]

def js(expr):
    r = cdp("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=True)
    if "exceptionDetails" in r:
        raise RuntimeError("%s: %s" % (expr, r["exceptionDetails"]))
    return r["result"].get("value")

def wait(desc, expr, secs=20):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        v = js(expr)
        if v:
            return v
        time.sleep(0.2)
    fail("timed out: " + desc)
    shot("timeout")
    return None

def shot(name):
    # the alerts' card at the top of the picture (System modifications come first)
    js("document.querySelector('#selinux-alerts') && "
       "document.querySelector('#selinux-alerts').closest('.pf-c-card').scrollIntoView()")
    time.sleep(0.3)
    png = cdp("Page.captureScreenshot", format="png")["data"]
    path = os.path.join(shots, name + ".png")
    open(path, "wb").write(base64.b64decode(png))
    print("screenshot: " + path, flush=True)

def st(method, *args):
    out = subprocess.run(["gdbus", "call", "--system", "--dest",
                          "org.fedoraproject.Setroubleshootd", "--object-path",
                          "/org/fedoraproject/Setroubleshootd", "--method",
                          "org.fedoraproject.SetroubleshootdIface." + method, *args],
                         env=dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=addr),
                         capture_output=True, text=True, timeout=10)
    return out.stdout + out.stderr

ROWS = "Array.from(document.querySelectorAll('#selinux-alerts > tbody'))"
cdp("Page.enable")
cdp("Runtime.enable")
cdp("Emulation.setDeviceMetricsOverride", width=1280, height=1100, deviceScaleFactor=1,
    mobile=False)
cdp("Page.navigate", url=url)

# --- the list ------------------------------------------------------------------
n = wait("14 alerts listed", ROWS + ".length == 14 && " + ROWS + ".length", 30)
if n:
    ok("the page lists the 14 alerts of the injected denials")
text = js("document.body.innerText")
if wait("a summary", "document.body.innerText.includes("
        "'from read access on the file /etc/shadow.')"):
    ok("a summary as the dispatcher wrote it")
if wait("the red alert marked critical", ROWS + ".some(b => b.innerText.includes("
        "'/etc/shadow') && b.querySelector('.ct-icon-exclamation-triangle'))"):
    ok("the red alert (level red from get_alert) has Cockpit's critical mark")
text = js("document.body.innerText")
if "Unable to start" in text or "Not connected" in text or "Install setroubleshoot" in text:
    fail("the page says it is not connected")
shot("1-list")

# --- expand the alert with the hostile path ----------------------------------------
idx = js(ROWS + ".findIndex(b => b.innerText.includes('lock access'))")
if idx is None or idx < 0:
    fail("no row of the hostile alert")
else:
    js(ROWS + "[%d].querySelector('td.pf-c-table__toggle button').click()" % idx)
    # each solution's commands are behind its "solution details": here the
    # label's restorecon and the boolean (both proved, so no module)
    if wait("the solutions", ROWS + "[%d].querySelectorAll("
            "'.pf-c-expandable-section__toggle').length >= 2" % idx):
        js(ROWS + "[%d].querySelectorAll('.pf-c-expandable-section__toggle')"
           ".forEach(b => b.click())" % idx)
    want = "restorecon -v -- '/var/www/html/x'\\''y$(touch "
    # the commands are shown in read-only text fields (ClipboardCopy)
    shown = ("(" + ROWS + "[%d].innerText + '\\n' + Array.from(" + ROWS +
             "[%d].querySelectorAll('textarea, input, pre, code'))"
             ".map(e => e.value || e.textContent).join('\\n'))") % (idx, idx)
    got = wait("the solutions of the hostile alert",
               "%s.includes(%s) && %s" % (shown, json.dumps(want), shown))
    if not got:
        print(js(ROWS + "[%d].outerHTML" % idx)[:3000], file=sys.stderr)
    if got:
        ok("expanded: the solutions show the restorecon quoted, $(...) inside the quotes")
        if "setsebool -P httpd_read_user_content=1" in got:
            ok("expanded: the boolean fix as a plain setsebool line")
        else:
            fail("no setsebool line in: " + got[:800])
    shot("2-expanded")
    js(ROWS + "[%d].querySelector('td.pf-c-table__toggle button').click()" % idx)

# --- several commands: one command box, not prose run together -----------------------
# (a user's file read by httpd: the boolean, else a module built and loaded)
idx = js(ROWS + ".findIndex(b => b.innerText.includes('read access on the file index.html'))")
if idx is None or idx < 0:
    fail("no row of the index.html alert")
else:
    js(ROWS + "[%d].querySelector('td.pf-c-table__toggle button').click()" % idx)
    if wait("the module's solution", ROWS + "[%d].querySelectorAll("
            "'.pf-c-expandable-section__toggle').length >= 2" % idx):
        js(ROWS + "[%d].querySelectorAll('.pf-c-expandable-section__toggle')"
           ".forEach(b => b.click())" % idx)
    boxes_js = "Array.from(" + ROWS + "[%d].querySelectorAll('textarea')).map(e => e.value)" % idx
    module = (r"avcdoctor allow .* -M (avcdoctor_httpd_[0-9a-f]{8})\nsemodule -X 300 -i \1\.pp")
    boxes = wait("the module's command box", "(b => b.some(x => x.includes('semodule')) ? b : null)("
                 + boxes_js + ")") or js(boxes_js) or []
    if any(re.fullmatch(module, b) for b in boxes):
        ok("expanded: the module's two commands in one command box, one a line")
    else:
        fail("the module's commands as Cockpit shows them: %r" % boxes)
    shot("2b-module")
    js(ROWS + "[%d].querySelector('td.pf-c-table__toggle button').click()" % idx)

# --- dismiss the red alert (select it, Dismiss) ---------------------------------------
idx = js(ROWS + ".findIndex(b => b.innerText.includes('/etc/shadow'))")
before = st("get_all_alerts")
victim = re.search(r"'(853997c3dff518a1-[0-9]+)'", before)
if idx is None or idx < 0 or not victim:
    fail("no row or id of the /etc/shadow alert")
else:
    victim = victim.group(1)
    js(ROWS + "[%d].querySelector('td.pf-c-table__check input').click()" % idx)
    wait("the Dismiss button enabled",
         "!document.querySelector('button.selinux-alert-dismiss').disabled")
    js("document.querySelector('button.selinux-alert-dismiss').click()")
    if wait("the row gone", ROWS + ".length == 13"):
        ok("Dismiss removed the row")
    after = st("get_all_alerts")
    if victim not in after and "853997c3dff518a1" not in after:
        ok("Dismiss called delete_alert: %s is gone from the store" % victim)
    else:
        fail("%s still listed by the dispatcher" % victim)
    shot("3-dismissed")

    # --- the recurrence: a new row, a new local id ----------------------------------
    os.write(dfd, open(again, "rb").read())
    if wait("the recurrence listed", ROWS + ".length == 14 && " + ROWS +
            ".some(b => b.innerText.includes('/etc/shadow'))"):
        ok("the recurrence appears as a new row")
    now = st("get_all_alerts")
    m = re.search(r"'(853997c3dff518a1-[0-9]+)'", now)
    if m and m.group(1) != victim:
        ok("the recurrence has a new local id (%s -> %s)" % (victim, m.group(1)))
    else:
        fail("the recurrence's local id: %s" % (m.group(1) if m else None))
    shot("4-recurrence")

# --- "Apply this solution": a mislabelled file's restorecon, through run_fix ----------
os.write(dfd, open(www, "rb").read())
WROW = ROWS + ".find(b => b.innerText.includes('preventing webd from'))"
if wait("the mislabelled file's alert listed", WROW + " !== undefined"):
    js(WROW + ".querySelector('td.pf-c-table__toggle button').click()")
    # the solution whose commands are the restorecon: the element around one
    # Apply button that holds no other one
    find = ("(() => { const ap = x => Array.from(x.querySelectorAll('button'))"
            ".filter(b => b.innerText.trim() == 'Apply this solution');"
            " for (const b of ap(" + WROW + ")) {"
            " let e = b; while (e.parentElement && ap(e.parentElement).length == 1)"
            " e = e.parentElement;"
            " const t = e.innerText + Array.from(e.querySelectorAll('textarea, input'))"
            ".map(x => x.value).join(' ');"
            " if (t.includes('restorecon -v -- ')) { b.id = 'ad-apply'; return t; } }"
            " return null; })()")
    # the commands are in the page (read-only fields) whether or not their
    # section is open; it is opened for the picture
    got = wait("an Apply button on the restorecon solution", find)
    if got:
        ok("Cockpit offers \"Apply this solution\" on the restorecon fix")
        js(WROW + ".querySelectorAll('.pf-c-expandable-section__toggle').forEach(b => b.click())")
        wait("the Apply button after the sections opened", find)
        shot("5-before-apply")
        js("document.getElementById('ad-apply').click()")
        res = wait("Cockpit's answer", WROW + ".innerText.includes('Solution applied successfully') || "
                   + WROW + ".innerText.includes('Solution failed') ? " + WROW + ".innerText : ''", 30)
        shot("6-applied")
        if res and "Solution applied successfully" in res:
            ok("the page says: Solution applied successfully")
            if re.search(r"Relabeled \S*index\.html from \S*games_data_t\S* to \S*httpd_sys_content_t", res):
                ok("the page shows the command's output (Relabeled ... to httpd_sys_content_t)")
            else:
                fail("no restorecon output in the page: %r" % res[-600:])
        else:
            fail("Cockpit's answer: %r" % (res or "")[-600:])
sys.exit(1 if failures else 0)
PY
start=$(date +%s)
timeout 180 "$PY" "$TMP/drive.py" "$CDP" \
	"http://127.0.0.1:$PORT/cockpit/@localhost/selinux/setroubleshoot.html" "$SHOTS" "$ADDR" \
	"$DFD" "$TMP/again.log" "$TMP/www.log" || {
	fail "Cockpit's page (see above)"
	tail -20 "$TMP/ws.log" >&2
}
pass "the browser part took $(($(date +%s) - start)) s"
[ -e "$TMP/pwned" ] && fail "the hostile text ran"
# the helper's side of "Apply this solution"
"$PY" - "$TMP/restorecon.argv" "$WWW/index.html" <<'PY' && pass "run_fix ran restorecon -v -- PATH" ||
import sys
got = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
assert got == [b"-v", b"--", sys.argv[2].encode()], got
PY
	fail "restorecon's argv: $(tr '\0' ' ' <"$TMP/restorecon.argv" 2>/dev/null)"
got=$(label "$WWW/index.html")
[ "$got" = system_u:object_r:httpd_sys_content_t:s0 ] &&
	pass "the file's label changed: security.selinux is $got" ||
	fail "the file's label is still $got"
grep -q "uid 0 (pid [0-9]*) applied suggestion [0-9]* of alert [0-9a-f]\{16\}" "$TMP/fixit.log" &&
	pass "the helper logged the page's run_fix" || fail "no log line: $(tail -3 "$TMP/fixit.log")"
[ -n "$(sqlite3 "$TMP/d.db" 'SELECT fix_applied FROM alerts WHERE fix_applied IS NOT NULL' 2>/dev/null)" ] &&
	pass "the store notes the applied fix" || fail "no fix_applied in the store"
finish
