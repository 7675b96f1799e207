#!/bin/bash
# The browser's Apply button, end to end: Xvfb with the accessibility bus,
# the real avcdoctor-dispatch and avcdoctor-fixit on a private system bus
# with the project's bus policies, the real browser as root (polkit lets
# root in without asking, so no agent is needed here).  The alert of a
# mislabelled file in a temporary directory gets an Apply button on its
# restorecon fix; pressing it (AT-SPI) runs exactly that command (a
# recording restorecon from the helper's test-only --bin-dir: no SELinux
# kernel here to relabel for real), the pane shows the helper's answer, and
# the alert shown again says "Fix applied at ...; no denial since".  A fix
# the helper refuses shows its error in the pane.  Screenshot:
# tests/artifacts/browser-fix.png.  Needs root, Xvfb, xdotool, import,
# at-spi2-core, python3-gi (exit 77 = skipped otherwise).
. "$AD_SOURCE_DIR/tests/lib.sh"
WAIT_SCALE=2
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
BROWSER="$AD_BUILD_DIR/bin/avcdoctor-browser"
FIXIT="$AD_BUILD_DIR/bin/avcdoctor-fixit"
ART="$AD_BUILD_DIR/tests/artifacts"
PY=/usr/bin/python3
NAME=org.avcdoctor.Daemon

if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root"
	exit 77
fi
for p in Xvfb xdpyinfo dbus-daemon busctl import timeout sqlite3 $PY; do
	command -v "$p" >/dev/null || { echo "skipped: no $p"; exit 77; }
done
for x in "$BROWSER" "$DISPATCH" "$FIXIT"; do
	[ -x "$x" ] || { echo "skipped: no $x"; exit 77; }
done
$PY -c 'import gi; gi.require_version("Atspi", "2.0"); from gi.repository import Atspi' 2>/dev/null ||
	{ echo "skipped: no python3-gi with Atspi"; exit 77; }
[ -e /usr/share/dbus-1/services/org.a11y.Bus.service ] || { echo "skipped: no at-spi2-core"; exit 77; }

pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	cp "$TMP"/browser.err "$ART/browser-fix.err" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$ART"
rm -f "$ART"/browser-fix*.png

cat >"$TMP/ui.py" <<'PY'
# ui.py PID COMMAND [ARG]: looks into the accessibility tree of the process PID.
#   rows                 rows of the table "Alerts"
#   find REGEX           exit 0 when some name or text on screen matches (prints it)
#   find-any REGEX       the same for what the window holds, scrolled out of view or not
#   click NAME           presses the enabled push button with that accessible name
#   press NAME           the same, also when it is scrolled out of view
#   sensitive NAME       exit 0 when the push button NAME is enabled
#   type TEXT            sets the text of the focused editable text field
#   dump                 every role, name and text
#   clipboard            the text on the clipboard (read with GTK)
import re, sys, warnings, gi
gi.require_version("Atspi", "2.0")
from gi.repository import Atspi
# a loaded machine or a sanitizer build answers slower than AT-SPI's default
# method timeout (under a second): a slow answer is waited for, not an error
Atspi.set_timeout(30000, 60000)
warnings.simplefilter("ignore", DeprecationWarning)

def app(pid):
    d = Atspi.get_desktop(0)
    for i in range(d.get_child_count()):
        a = d.get_child_at_index(i)
        if a and a.get_process_id() == pid:
            return a
    sys.exit(2)

def walk(o, depth=0, cells=False):
    """the tree below o; a table's cells only with cells=True (they are many)"""
    if o is None or depth > 40:
        return
    yield o
    if o.get_role() == Atspi.Role.TABLE and not cells:
        return
    for i in range(o.get_child_count()):
        yield from walk(o.get_child_at_index(i), depth + 1, cells)

def text_of(o):
    if "Text" not in o.get_interfaces():
        return ""
    return Atspi.Text.get_text(o, 0, Atspi.Text.get_character_count(o))

def showing(o):
    return o.get_state_set().contains(Atspi.StateType.SHOWING)

pid, cmd = int(sys.argv[1]), sys.argv[2]
if cmd == "clipboard":
    gi.require_version("Gtk", "3.0")
    from gi.repository import Gtk, Gdk
    print(Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD).wait_for_text() or "", end="")
    sys.exit(0)
root = app(pid)
if cmd == "rows":
    for o in walk(root):
        if o.get_role() == Atspi.Role.TABLE and o.get_name() == "Alerts":
            print(Atspi.Table.get_n_rows(o))
            sys.exit(0)
    sys.exit(1)
if cmd in ("find", "find-any"):
    rx = re.compile(sys.argv[3])
    for o in walk(root):
        for s in (o.get_name() or "", text_of(o)):
            if rx.search(s) and (cmd == "find-any" or showing(o)):
                print(s)
                sys.exit(0)
    sys.exit(1)
if cmd in ("click", "sensitive", "press"):
    for o in walk(root):
        if (o.get_role() == Atspi.Role.PUSH_BUTTON and o.get_name() == sys.argv[3]
                and (showing(o) or cmd == "press")):
            if not o.get_state_set().contains(Atspi.StateType.SENSITIVE):
                sys.exit(3)
            if cmd in ("click", "press"):
                Atspi.Action.do_action(o, 0)
            sys.exit(0)
    sys.exit(1)
if cmd == "type":
    for o in walk(root):
        st = o.get_state_set()
        if (st.contains(Atspi.StateType.FOCUSED) and st.contains(Atspi.StateType.EDITABLE)
                and "EditableText" in o.get_interfaces()):
            Atspi.EditableText.set_text_contents(o, sys.argv[3])
            sys.exit(0)
    sys.exit(1)
if cmd == "dump":
    for o in walk(root, cells=True):
        print(o.get_role_name(), repr(o.get_name()), repr(text_of(o)[:100]))
PY
ui() { timeout 20 $PY "$TMP/ui.py" "$@"; }

start_display 1280x900
start_session_bus '<standard_session_servicedirs/>'
export GTK_A11Y=atspi GSETTINGS_BACKEND=memory
unset NO_AT_BRIDGE GTK_MODULES
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$AD_SOURCE_DIR/tests/lsan-gtk.supp}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-fast_unwind_on_malloc=0}"
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 0700 "$XDG_RUNTIME_DIR"

# --- a mislabelled file, the dispatcher's store, the helper with a recording restorecon
WWW=$TMP/www
mkdir -p "$WWW" "$TMP/rules" "$TMP/bin"
chmod 755 "$TMP"
echo hello >"$WWW/index.html"
printf '%s(/.*)?\tsystem_u:object_r:httpd_sys_content_t:s0\n' "$WWW" >"$TMP/file_contexts"
cat >"$TMP/bin/restorecon" <<EOF
#!/bin/sh
printf '%s\0' "\$@" >"$TMP/restorecon.argv"
echo "Relabeled \$3 from user_home_t to httpd_sys_content_t"
EOF
chmod 755 "$TMP/bin/restorecon"
start_system_bus "<include>$AD_SOURCE_DIR/dispatcher/org.avcdoctor.Daemon.conf</include>
  <include>$AD_SOURCE_DIR/fixit/org.avcdoctor.Fixit1.conf</include>"
fix_dispatch_conf system
mkdir -m 700 "$TMP/store"
mkfifo "$TMP/d.in"
"$DISPATCH" --config "$TMP/d.conf" <"$TMP/d.in" >"$TMP/d.out" 2>"$TMP/d.err" &
pids+=($!)
exec {DFD}>"$TMP/d.in"
wait_for 10 "$NAME on the system bus" -- busctl --address="$DBUS_SYSTEM_BUS_ADDRESS" \
	status "$NAME" || finish
start_fix_helper "$TMP/d.conf" "$TMP/bin"
printf 'type=AVC msg=audit(1700000000.000:100): avc:  denied  { read } for  pid=42 comm="httpd" path="%s" dev="vda" ino=11 scontext=system_u:system_r:httpd_t:s0 tcontext=unconfined_u:object_r:user_home_t:s0 tclass=file permissive=0\n' \
	"$WWW/index.html" >&"$DFD"
wait_for 10 "the alert stored" -- sh -c "sqlite3 $TMP/store/alerts.db 'SELECT id FROM alerts' | grep -q ."
ID=$(sqlite3 "$TMP/store/alerts.db" 'SELECT id FROM alerts LIMIT 1')
pass "alert $ID stored"

# --- the browser on the alert ----------------------------------------------------------
"$BROWSER" --alert "$ID" >"$TMP/browser.out" 2>"$TMP/browser.err" &
BPID=$!
pids+=("$BPID")
wait_for 15 "the browser's window" -- ui "$BPID" find '^SELinux Alerts' || {
	# say why: the browser's words, and whether the display still answers
	sed 's/^/    browser: /' "$TMP/browser.err" | head -5 >&2
	timeout 5 xdpyinfo >/dev/null 2>&1 && echo "    $DISPLAY answers" >&2 ||
		echo "    $DISPLAY does not answer: $(tail -3 "$TMP/xvfb.log")" >&2
	finish
}
wait_for 10 "the restorecon fix in the pane" -- ui "$BPID" find 'restorecon -v -- ' || finish
ui "$BPID" sensitive "Apply suggestion 1" && pass "the restorecon fix has an Apply button" ||
	fail "no Apply button on the restorecon fix"
ui "$BPID" find-any '^Apply suggestion 2$' >/dev/null && pass "the boolean fix has one too" ||
	fail "no Apply button on the setsebool fix"
ui "$BPID" click "Apply suggestion 1" || fail "cannot press Apply"
wait_for 15 "the helper's answer in the pane" -- ui "$BPID" find 'Fix applied:' &&
	pass "the pane shows the helper's answer"
ui "$BPID" find 'Relabeled .*index.html' >/dev/null && pass "the answer has the command's output" ||
	fail "no command output in the pane"
$PY - "$TMP/restorecon.argv" "$WWW/index.html" <<'PY' && pass "Apply ran restorecon -v -- PATH" ||
import sys
got = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
assert got == [b"-v", b"--", sys.argv[2].encode()], got
PY
	fail "restorecon argv: $(tr '\0' ' ' <"$TMP/restorecon.argv" 2>/dev/null)"
grep -q "uid 0 (pid [0-9]*) applied suggestion 0 of alert $ID" "$TMP/fixit.log" &&
	pass "the helper logged the browser's call" || fail "no log line: $(cat "$TMP/fixit.log")"
import -window root "$ART/browser-fix.png" 2>/dev/null && pass "screenshot $ART/browser-fix.png"
kill "$BPID"
wait "$BPID" 2>/dev/null

# --- shown again: the fix applied and no denial since; a refused fix shows its error ---
sqlite3 "$TMP/store/alerts.db" "UPDATE alerts SET analysis = json_set(analysis,
	'\$.suggestions[0].commands[0][3]', 'relative/path') WHERE id = '$ID'"
"$BROWSER" --alert "$ID" >"$TMP/browser.out" 2>>"$TMP/browser.err" &
BPID=$!
pids+=("$BPID")
wait_for 15 "the browser's window again" -- ui "$BPID" find '^SELinux Alerts' || finish
wait_for 10 "the fix status" -- ui "$BPID" find '^Fix applied at .*; no denial since\.$' &&
	pass "the pane says: Fix applied at TIME; no denial since"
ui "$BPID" find-any '^Apply suggestion 1$' && fail "a command the helper refuses still has Apply" ||
	pass "no Apply button on a command the helper would refuse"
# the setsebool fix: the helper's directory has no setsebool, so the command fails
ui "$BPID" press "Apply suggestion 2" || fail "cannot press Apply on the boolean fix"
wait_for 15 "the error in the pane" -- ui "$BPID" find-any '^The fix was not applied: .*setsebool' &&
	pass "a failed fix shows the helper's error in the pane"
import -window root "$ART/browser-fix-error.png" 2>/dev/null
if grep -E "CRITICAL|WARNING \*\*|runtime error|AddressSanitizer" "$TMP/browser.err"; then
	fail "GTK criticals or sanitizer reports"
fi
finish
