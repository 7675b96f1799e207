#!/bin/bash
# setroubleshoot's daemon interface as Cockpit's SELinux page uses it, replayed
# on a private system bus that includes both bus policies of the dispatcher:
# Introspect,
# Properties.GetAll, start, get_all_alerts, injected denials -> one alert
# signal each, get_alert with its signature and analyses checked,
# delete_alert, a recurrence with a new local_id, unknown and malformed ids
# -> D-Bus errors.  Hostile record text (quotes, newlines, $(...), `...`) in
# paths must never reach a do_text line unquoted, and a do_text that Cockpit
# would run in a root shell by itself (one line starting with "setsebool")
# must be a plain setsebool of policy booleans.  Then who may do what: nobody
# gets the alert signal but no answer, and still nothing of
# org.avcdoctor.Alerts1.  Needs root (exit 77 = skipped otherwise).
. "$AD_SOURCE_DIR/tests/lib.sh"
require_policy
DISPATCH="$AD_BUILD_DIR/bin/avcdoctor-dispatch"
PY=/usr/bin/python3	# the system's, which has python3-gi (not a pyenv one)
crafted="$AD_CORPUS/crafted/debian-refpolicy-cases.log"

if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root (the bus policy gives the names to root)"
	exit 77
fi
for p in dbus-daemon busctl runuser python3; do
	command -v "$p" >/dev/null || { echo "skipped: no $p"; exit 77; }
done
"$PY" -c 'import gi; gi.require_version("Gio", "2.0"); from gi.repository import Gio' ||
	{ echo "skipped: no python3-gi"; exit 77; }

pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	[ -n "${KEEP_TMP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
chmod 755 "$TMP"

# the two policies, setroubleshoot's first: each must hold whatever order the
# bus reads its includedir in (the later of two matching rules wins)
start_system_bus "<include>$AD_SOURCE_DIR/dispatcher/org.fedoraproject.Setroubleshootd.conf</include>
	<include>$AD_SOURCE_DIR/dispatcher/org.avcdoctor.Daemon.conf</include>"

mkdir -p "$TMP/rules"
cat >"$TMP/d.conf" <<EOF
[store]
path=$TMP/d.db
max_age_days=0
[bus]
type=system
update_interval_ms=200
[analysis]
policy=$POLICY
rules_dir=$TMP/rules
file_checks=false
[log]
target=stderr
EOF
mkfifo "$TMP/d.in"
DBUS_SYSTEM_BUS_ADDRESS="$ADDR" "$DISPATCH" --config "$TMP/d.conf" <"$TMP/d.in" \
	>"$TMP/d.out" 2>"$TMP/d.err" &
pids+=($!)
exec {DFD}>"$TMP/d.in"
wait_for 10 "org.fedoraproject.Setroubleshootd on the bus" -- \
	busctl --address="$ADDR" status org.fedoraproject.Setroubleshootd || {
	cat "$TMP/d.err" >&2
	finish
}
pass "the dispatcher owns org.fedoraproject.Setroubleshootd"

# hostile paths (hex in the record, as the kernel logs them): one with a
# newline, which no do_text line may show raw, one with quotes, $(...) and `...`
hexpath() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n' | tr a-f A-F; }
avc() {	# TIME SERIAL PERM PATH-HEX: perms of their own, alerts of their own
	printf 'type=AVC msg=audit(%s:%s): avc:  denied  { %s } for  pid=100 comm="httpd" path=%s dev="sda1" ino=5 scontext=system_u:system_r:httpd_t:s0 tcontext=staff_u:object_r:user_home_t:s0 tclass=file permissive=0\n' "$1" "$2" "$3" "$4"
}
nl=$'\n'
H1=$(hexpath "/var/www/html/a'b${nl}\$(touch $TMP/pwned)\`id\`.html")
H2=$(hexpath "/var/www/html/x'y\$(touch $TMP/pwned)\`id\`;z.html")
avc 1700000500.100 900 getattr "$H1" >"$TMP/hostile1.log"
avc 1700000501.100 901 lock "$H2" >"$TMP/hostile2.log"
# the recurrence, later, of the first alert of the crafted cases
first=$(head -1 "$crafted")
echo "type=AVC msg=audit(1700009999.500:99999):${first#*):}" >"$TMP/again.log"

cat >"$TMP/client.py" <<'PY'
import json, os, re, shlex, sys, time
import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib

addr, tmp, dfd = sys.argv[1], sys.argv[2], int(sys.argv[3])
NAME = "org.fedoraproject.Setroubleshootd"
OBJ = "/org/fedoraproject/Setroubleshootd"
IFACE = "org.fedoraproject.SetroubleshootdIface"
failures = 0

def ok(msg):
    print("ok: " + msg, flush=True)

def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg, file=sys.stderr, flush=True)

def check(cond, msg):
    ok(msg) if cond else fail(msg)

conn = Gio.DBusConnection.new_for_address_sync(
    addr, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT |
    Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)

def call(method, args=None, sig_in=None, iface=IFACE, reply=None, obj=OBJ, name=NAME):
    return conn.call_sync(name, obj, iface, method,
                          GLib.Variant(sig_in, args) if sig_in else None,
                          GLib.VariantType(reply) if reply else None,
                          Gio.DBusCallFlags.NONE, 10000, None)

def call_error(method, args, sig_in):
    try:
        call(method, args, sig_in)
    except GLib.Error as e:
        return Gio.DBusError.get_remote_error(e) or e.message
    return None

signals = []
def on_signal(c, sender, path, iface, member, params):
    signals.append((member, params.unpack()))
conn.signal_subscribe(None, IFACE, "alert", OBJ, None, Gio.DBusSignalFlags.NONE, on_signal)

def pump(seconds, until=lambda: False):
    ctx = GLib.MainContext.default()
    end = time.monotonic() + seconds
    while time.monotonic() < end and not until():
        ctx.iteration(False)
        time.sleep(0.01)

def feed(path):
    with open(path, "rb") as f:
        os.write(dfd, f.read())

# --- Cockpit's bridge reads the signatures from the introspection -------------
xml = call("Introspect", None, None, "org.freedesktop.DBus.Introspectable", "(s)").unpack()[0]
node = Gio.DBusNodeInfo.new_for_xml(xml)
iface = node.lookup_interface(IFACE)
want = {
    "start": ("", "s"), "finish": ("", "s"), "check_for_new": ("s", "ii"),
    "get_all_alerts": ("", "a(ssi)"), "get_all_alerts_since": ("t", "a(ssi)"),
    "get_all_alerts_ignored": ("", "a(ssi)"), "get_alert": ("s", "ssiasa(ssssbbi)tts"),
    "set_filter": ("ss", "b"), "delete_alert": ("s", "b"),
}
got = {m.name: ("".join(a.signature for a in m.in_args),
                "".join(a.signature for a in m.out_args)) for m in iface.methods}
check(got == want, "Introspect: every method with setroubleshoot's signatures (%s)" %
      ", ".join(sorted(got)))
check([(s.name, "".join(a.signature for a in s.args)) for s in iface.signals] ==
      [("alert", "ss")], "Introspect: signal alert(ss)")
props = call("GetAll", (IFACE,), "(s)", "org.freedesktop.DBus.Properties", "(a{sv})")
check(props.unpack() == ({},), "Properties.GetAll answers {}")

# --- start, then the list ------------------------------------------------------
check(call("start", reply="(s)").unpack() == ("Started",), "start() succeeds")
check(call("get_all_alerts", reply="(a(ssi))").unpack() == ([],), "get_all_alerts: none yet")

# --- injected denials -> one alert signal per new alert -----------------------
feed(os.environ["CRAFTED"])
feed(tmp + "/hostile1.log")
feed(tmp + "/hostile2.log")
pump(15, lambda: len(signals) >= 15)
pump(1)
alerts = call("get_all_alerts", reply="(a(ssi))").unpack()[0]
ids = [a[0] for a in alerts]
check(len(alerts) == 15, "get_all_alerts: 15 alerts (13 crafted, 2 hostile): %d" % len(alerts))
check(len(set(ids)) == len(ids), "local ids are distinct")
check(all(re.fullmatch(r"[0-9a-f]{16}-[1-9][0-9]*", i) for i in ids), "local ids are ID-NUM")
sig_ids = [a[1] for (m, a) in signals]
check(sorted(set(sig_ids)) == sorted(ids),
      "one alert signal per new alert, with its local id (%d signals)" % len(signals))
check(all(a[0] in ("green", "yellow", "red") for (m, a) in signals), "signal levels")

# --- get_alert for each: the analyses ------------------------------------------
seen_setsebool = seen_exact_hostile = seen_prose_hostile = False
alerts1 = {}
for lid in ids:
    v = call("get_alert", (lid,), "(s)")
    check(v.get_type_string() == "(ssiasa(ssssbbi)tts)", "get_alert %s: signature" % lid) \
        if lid == ids[0] else None
    if v.get_type_string() != "(ssiasa(ssssbbi)tts)":
        fail("get_alert %s: %s" % (lid, v.get_type_string()))
        continue
    (rid, summary, count, events, analyses, first, last, level) = v.unpack()
    if rid != lid or count < 1 or not events or level not in ("green", "yellow", "red") \
            or not (0 < first <= last) or first < 1700000000 * 10**6:
        fail("get_alert %s: %r" % (lid, (rid, count, len(events), first, last, level)))
    # the stored suggestions, through avcdoctor's own interface
    js = json.loads(conn.call_sync("org.avcdoctor.Daemon", "/org/avcdoctor/Daemon",
                                   "org.avcdoctor.Alerts1", "GetAlert",
                                   GLib.Variant("(s)", (lid.split("-")[0],)), None,
                                   Gio.DBusCallFlags.NONE, 10000, None).unpack()[0])
    sugg = js["suggestions"]
    notes = js["notes"]
    if len(analyses) != len(sugg) + len(notes):
        fail("%s: %d analyses for %d suggestions and %d notes"
             % (lid, len(analyses), len(sugg), len(notes)))
    # the notes (facts, no fix) after every suggestion, below them, never fixable
    for j, (if_t, then_t, do_t, aid, fixable, report_bug, prio) in \
            enumerate(analyses[len(sugg):]):
        if (aid, do_t, fixable, report_bug, prio) != ("note-%d" % j, "", False, False, 0) \
                or then_t != (notes[j]["then"] or ""):
            fail("%s: note %d as %r" % (lid, j, (aid, do_t, fixable, report_bug, prio)))
    analyses = analyses[:len(sugg)]
    keys = set()
    for i, (if_t, then_t, do_t, aid, fixable, report_bug, prio) in enumerate(analyses):
        s = sugg[i]
        keys.add((aid, if_t, do_t))
        if aid != str(i):
            fail("%s: analysis_id %r at %d" % (lid, aid, i))
        if report_bug != (s["kind"] == "report_bug"):
            fail("%s/%s: report_bug %r for kind %s" % (lid, aid, report_bug, s["kind"]))
        lines = do_t.split("\n") if do_t else []
        if len(lines) != len(s["commands"]):
            fail("%s/%s: %d do_text lines for %d commands" % (lid, aid, len(lines), len(s["commands"])))
        for line, argv in zip(lines, s["commands"]):
            if line.startswith("(not shown exactly"):
                # prose, for a command with a newline or bytes that are not UTF-8
                if "$(" in line:
                    seen_prose_hostile = True
                continue
            # setroubleshoot's layout: one command alone, several as "# " lines
            if len(lines) > 1:
                if not line.startswith("# "):
                    fail("%s/%s: %r among several commands" % (lid, aid, line))
                    continue
                line = line[2:]
            elif line.startswith("# "):
                # only a setsebool that is not a plain one of policy booleans
                if not line.startswith("# setsebool"):
                    fail("%s/%s: %r" % (lid, aid, line))
                line = line[2:]
            # a shown line gives back exactly the stored argv: nothing unquoted
            if shlex.split(line) != argv:
                fail("%s/%s: %r is not the command %r" % (lid, aid, line, argv))
            if "$(" in line:
                seen_exact_hostile = True
        if do_t.startswith("setsebool"):
            seen_setsebool = True
            if not re.fullmatch(r"setsebool( -P)?( [a-z0-9_]+=(0|1|on|off|true|false))+", do_t):
                fail("%s/%s: a setsebool do_text Cockpit would run: %r" % (lid, aid, do_t))
        # the one rule of the fix helper (client/fix-rule.c): the analysis'
        # decision, the proof, programs it runs, shown exactly, no module for a
        # red alert
        progs = [c[0] for c in s["commands"]]
        if fixable != (bool(progs) and all(p in ("setsebool", "restorecon", "avcdoctor",
                                                 "semodule", "semanage") for p in progs)
                       and s.get("apply", "one-click") == "one-click"
                       and s.get("verified") is not False
                       and not (level == "red" and "avcdoctor" in progs)
                       and not any(l.startswith("(not shown") for l in lines)):
            fail("%s/%s: fixable %r for %r" % (lid, aid, fixable, lines))
    if len(keys) != len(analyses):
        fail("%s: (analysis_id, if_text, do_text) not unique" % lid)
    alerts1[lid] = (summary, analyses)
ok("get_alert of every alert: records, times, level, one analysis per suggestion, "
   "analysis ids 0..n-1, do_text = the stored commands quoted (one alone, several as "
   "'# ' lines)")
check(seen_setsebool, "a setsebool do_text is there, and a plain setsebool of booleans")
check(seen_exact_hostile, "a path with quotes and $(...) is shown quoted in do_text")
check(seen_prose_hostile, "a path with a newline is shown only escaped, in a prose line")
hostile = [l for l, (s, a) in alerts1.items() if "touch" in s]
check(len(hostile) == 2, "both hostile alerts are listed")
check(not os.path.exists(tmp + "/pwned"), "nothing ran the hostile text")

# --- delete_alert, then a recurrence gets a new local id -----------------------
again_id = open(tmp + "/again.id").read().strip()
victim = next(l for l in ids if l.startswith(again_id + "-"))
check(call("delete_alert", (victim,), "(s)", reply="(b)").unpack() == (True,),
      "delete_alert %s: true" % victim)
e = call_error("get_alert", (victim,), "(s)")
check(e == "org.avcdoctor.Error.NotFound", "get_alert of the deleted alert: %s" % e)
e = call_error("delete_alert", (victim,), "(s)")
check(e == "org.avcdoctor.Error.NotFound", "delete_alert again: a D-Bus error (%s)" % e)
check(victim not in [a[0] for a in call("get_all_alerts", reply="(a(ssi))").unpack()[0]],
      "the deleted alert is not listed")
del signals[:]
feed(tmp + "/again.log")
pump(10, lambda: len(signals) >= 1)
new = [a[1] for (m, a) in signals]
check(len(new) == 1 and new[0] != victim and new[0].split("-")[0] == victim.split("-")[0],
      "the recurrence: one alert signal, a new local id (%s -> %s)" % (victim, new))
if new:
    v = call("get_alert", (new[0],), "(s)").unpack()
    check(v[0] == new[0] and v[2] == 1, "get_alert of the recurrence: count 1")
    e = call_error("get_alert", (victim,), "(s)")
    check(e == "org.avcdoctor.Error.NotFound", "the old local id stays unknown: %s" % e)

# --- unknown and malformed ids: D-Bus errors ------------------------------------
for bad, want_err in (("0123456789abcdef-1", "NotFound"), ("0123456789abcdef", "InvalidArgs"),
                      ("", "InvalidArgs"), ("../etc/passwd", "InvalidArgs"),
                      (ids[0] + ";rm", "InvalidArgs"), (ids[0].upper(), "InvalidArgs")):
    for m in ("get_alert", "delete_alert"):
        e = call_error(m, (bad,), "(s)")
        check(e == "org.avcdoctor.Error." + want_err, "%s %r: %s" % (m, bad, e))
e = call_error("set_filter", (ids[1], "sometimes"), "(ss)")
check(e == "org.avcdoctor.Error.InvalidArgs", "set_filter with a bad filter: %s" % e)

# --- filters, since, check_for_new -----------------------------------------------
all_now = [a[0] for a in call("get_all_alerts", reply="(a(ssi))").unpack()[0]]
check(call("set_filter", (all_now[0], "always"), "(ss)", reply="(b)").unpack() == (True,),
      "set_filter always")
after = [a[0] for a in call("get_all_alerts", reply="(a(ssi))").unpack()[0]]
ign = [a[0] for a in call("get_all_alerts_ignored", reply="(a(ssi))").unpack()[0]]
check(all_now[0] not in after and ign == [all_now[0]],
      "an ignored alert moves to get_all_alerts_ignored")
since = call("get_all_alerts_since", (1700009999 * 10**6,), "(t)", reply="(a(ssi))").unpack()[0]
check([a[0] for a in since] == new, "get_all_alerts_since: only the recurrence")
check(call("get_all_alerts_since", (0,), "(t)", reply="(a(ssi))").unpack()[0] ==
      call("get_all_alerts", reply="(a(ssi))").unpack()[0], "get_all_alerts_since(0) = all")
n, red = call("check_for_new", ("",), "(s)", reply="(ii)").unpack()
check(n == len(after) and 0 <= red <= n, "check_for_new(''): %d new, %d red" % (n, red))
check(call("check_for_new", (after[-1],), "(s)", reply="(ii)").unpack() == (0, 0),
      "check_for_new(the latest): nothing new")
check(call("finish", reply="(s)").unpack() == ("",), "finish()")
sys.exit(1 if failures else 0)
PY
"$AVCDOCTOR" analyze --json "$TMP/again.log" 2>/dev/null |
	python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["id"])' >"$TMP/again.id"
CRAFTED="$crafted" timeout 120 "$PY" "$TMP/client.py" "$ADDR" "$TMP" "$DFD" ||
	fail "the replay of Cockpit's calls (see above)"

# --- who: nobody gets the signal but no answer, and nothing of Alerts1 --------------
runuser -u nobody -- env DBUS_SYSTEM_BUS_ADDRESS="$ADDR" timeout 10 gdbus call --system \
	--dest org.fedoraproject.Setroubleshootd --object-path /org/fedoraproject/Setroubleshootd \
	--method org.fedoraproject.SetroubleshootdIface.get_all_alerts >"$TMP/out" 2>&1
expect_grep "org.avcdoctor.Error.AccessDenied" "$TMP/out" \
	"nobody passes the bus policy but the dispatcher refuses get_all_alerts"
runuser -u nobody -- env DBUS_SYSTEM_BUS_ADDRESS="$ADDR" timeout 10 gdbus call --system \
	--dest org.fedoraproject.Setroubleshootd --object-path /org/avcdoctor/Daemon \
	--method org.avcdoctor.Alerts1.ListAlerts 0 true "" >"$TMP/out" 2>&1
expect_grep "org.freedesktop.DBus.Error.AccessDenied" "$TMP/out" \
	"the setroubleshoot name opens nothing of org.avcdoctor.Alerts1 to nobody (bus policy)"
# a plain subscriber (no eavesdropping), as a client of setroubleshoot is
runuser -u nobody -- env DBUS_SYSTEM_BUS_ADDRESS="$ADDR" gdbus monitor --system \
	--dest org.fedoraproject.Setroubleshootd >"$TMP/mon-nobody" 2>&1 &
pids+=($!)
# it has subscribed before it asks who owns the name, and prints the answer
wait_for 10 "the subscriber listening" -- grep -q "is owned by" "$TMP/mon-nobody"
echo "type=AVC msg=audit(1700019999.500:99998):${first#*):}" >&"$DFD"
wait_for 10 "nobody receives the alert signal" -- grep -q 'SetroubleshootdIface.alert' "$TMP/mon-nobody" &&
	pass "the alert signal (a level and an id) reaches everyone, as setroubleshoot's"
# the daemon sends AlertAdded before alert, on one connection: one that
# reached nobody would be in the file already
if grep -q 'Alerts1' "$TMP/mon-nobody"; then
	fail "nobody received org.avcdoctor.Alerts1 signals"
else
	pass "nobody still does not receive org.avcdoctor.Alerts1's signals"
fi
[ -e "$TMP/pwned" ] && fail "the hostile text ran"
finish
