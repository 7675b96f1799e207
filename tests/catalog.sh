#!/bin/bash
# docs/CATALOG.md: every one of setroubleshoot's 48 plugins has a row, and each
# row's test record gets the suggestion the row names (with the shipped rules and
# the reference policy), its command containing the text the row gives; each red
# cause's record is red by the named suggestion; each cause beyond setroubleshoot's
# has a record getting the answer (plugin/kind) its row names.
. "$AD_SOURCE_DIR/tests/lib.sh"
use_policy
export LANG=C LC_ALL=C TZ=UTC AVCDOCTOR_NO_PROGRESS=1
export AVCDOCTOR_RULES_DIR="$AD_SOURCE_DIR/rules"
cd "$AD_SOURCE_DIR" || exit 1

python3 - "$AVCDOCTOR" "$POLICY" "$POLICY_NAME" "$GOLDEN_DIR/catalog.txt" "$TMP/catalog.txt" \
	<<'PY' || fail "docs/CATALOG.md rows and their records"
import json, re, subprocess, sys

avcdoctor, policy, policy_name, golden, now = sys.argv[1:6]
# The rows' records were written for the reference policy.  On another
# policy (Fedora's) a row may answer otherwise: the access is allowed there,
# a type is missing, a boolean has another name.  Each such row is listed in
# GOLDEN_DIR/catalog.txt with why, written by hand, and compared.
differ = []

def first_of(out):
    """the verdict and the first answer of a record's first alert"""
    for l in out.splitlines():
        a = json.loads(l)
        s = (a["suggestions"] + a["notes"])[:1]
        return "reason=%s first=%s" % (a["denial"]["reason"] if a["denial"] else "-",
                                        "%s/%s" % (s[0]["plugin"], s[0].get("kind", "note")) if s else "-")
    return "no alert"

def miss(name, message, out):
    """a row whose record does not get its answer: a failure on the reference
    policy, an entry to compare with the golden list on another"""
    global bad
    if policy_name == "debian":
        print("FAIL: " + message)
        bad += 1
    else:
        differ.append("%s %s" % (name, first_of(out)))
        print("differs: " + message)
# setroubleshoot 3.3's plugins/src/*.py, without __init__
plugins = """allow_anon_write allow_execheap allow_execmem allow_execmod allow_execstack
allow_ftpd_use_cifs allow_ftpd_use_nfs associate automount_exec_config bind_ports catchall
catchall_boolean catchall_labels chrome connect_ports cvs_data dac_override device
disable_ipv6 file filesystem_associate httpd_can_sendmail httpd_unified httpd_write_content
kernel_modules leaks mmap_zero mounton mozplugger mozplugger_remove openvpn public_content
qemu_blk_image qemu_file_image restorecon restorecon_source rsync_data samba_share
sandbox_connect selinuxpolicy setenforce sshd_root swapfile sys_module sys_resource vbetool
wine xen_image""".split()
assert len(plugins) == 48

def cell(c):
    c = c.strip()
    return c[1:-1] if c.startswith("`") and c.endswith("`") else c

rows = {}
text, _, red_text = open("docs/CATALOG.md").read().partition("\n## Red causes\n")
red_text, _, expert_text = red_text.partition("\n## Causes beyond setroubleshoot's\n")
for line in text.splitlines():
    if not line.startswith("| ") or line.startswith("| setroubleshoot plugin"):
        continue
    cols = [c for c in line.strip().strip("|").split("|")]
    if len(cols) != 6:
        print(f"FAIL: a row without 6 columns: {line.strip()}")
        sys.exit(1)
    name = cols[0].strip()
    if name in rows:
        print(f"FAIL: {name}: two rows")
        sys.exit(1)
    rows[name] = (cell(cols[3]), cell(cols[4]), cell(cols[5]), cols[2])

bad = 0
if sorted(rows) != sorted(plugins):
    print(f"FAIL: rows {sorted(set(rows) ^ set(plugins))} are missing or extra")
    bad += 1
for name in plugins:
    if name not in rows:
        continue
    want, has, record, ours = rows[name]
    if record != f"tests/data/catalog/{name}.log":
        print(f"FAIL: {name}: record {record}")
        bad += 1
        continue
    if not want:
        print(f"FAIL: {name}: no checked suggestion")
        bad += 1
        continue
    if "not implemented" not in ours and not re.search(r"(plugin|rules?) `", ours):
        print(f"FAIL: {name}: names neither a plugin or rule nor a reason")
        bad += 1
    p = subprocess.run([avcdoctor, "analyze", "--json", "-p", policy, record],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print(f"FAIL: {name}: analyze exited {p.returncode}: {p.stderr}")
        bad += 1
        continue
    # what the plugin says, a fix or a note (a fact beside the fixes)
    got = [(s["plugin"], s.get("shell") or "") for l in p.stdout.splitlines()
           for o in [json.loads(l)] for s in o["suggestions"] + o["notes"]]
    if any(pl == want and has in sh for pl, sh in got):
        print(f"ok: {name}: {want}" + (f" ({has})" if has else ""))
    else:
        miss(name, f"{name}: no {want} suggestion with '{has}' in {got}", p.stdout)
# the red causes: each record's alert is red because of the named suggestion,
# and nothing of a red alert is applied with one click
red_rows = [[c.strip() for c in l.strip().strip("|").split("|")]
            for l in red_text.splitlines() if l.startswith("| ") and not l.startswith("| red cause")]
if len(red_rows) < 13 or not any(r[2] == "`credentials`" for r in red_rows):
    print(f"FAIL: the red causes table has {len(red_rows)} rows")
    bad += 1
for cause, what, by, record in red_rows:
    by, record = cell(by), cell(record)
    p = subprocess.run([avcdoctor, "analyze", "--json", "-p", policy, record],
                       capture_output=True, text=True)
    alerts = [json.loads(l) for l in p.stdout.splitlines()]
    reds = [a for a in alerts if a["level"] == "red" and
            any(s["plugin"] == by and s["level"] == "red" for s in a["suggestions"])]
    one_click = [s["plugin"] for a in alerts if a["level"] == "red" for s in a["suggestions"]
                 if s.get("apply") == "one-click" or
                 (s["commands"] and s["kind"] in ("fcontext", "relabel", "port", "module"))]
    if p.returncode != 0:
        print(f"FAIL: red cause {cause}: analyze exited {p.returncode}")
        bad += 1
    elif not reds:
        miss("red:" + cause.replace(" ", "_"), f"red cause {cause}: no red alert by {by} in {record}: "
             f"{[(a['level'], [s['plugin'] for s in a['suggestions']]) for a in alerts]}", p.stdout)
    elif one_click:
        print(f"FAIL: red cause {cause}: fixes offered on a red alert: {one_click}")
        bad += 1
    else:
        print(f"ok: red cause {cause}: red by {by}, nothing applied")
# the causes beyond setroubleshoot's: each row's record gets the answer it names
expert_rows = [[c.strip() for c in l.strip().strip("|").split("|")]
               for l in expert_text.splitlines() if l.startswith("| ") and not l.startswith("| cause")]
if len(expert_rows) < 9:
    print(f"FAIL: the table of causes beyond setroubleshoot's has {len(expert_rows)} rows")
    bad += 1
for cols in expert_rows:
    if len(cols) != 6:
        print(f"FAIL: a row without 6 columns: {cols}")
        bad += 1
        continue
    cause, what, ours, checked, has, record = cols
    (plugin, _, kind), has, record = cell(checked).partition("/"), cell(has), cell(record)
    p = subprocess.run([avcdoctor, "analyze", "--json", "-p", policy, record],
                       capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout:
        print(f"FAIL: cause {cause}: analyze {record} exited {p.returncode}")
        bad += 1
        continue
    got = [(s["plugin"], "note" if n else s["kind"], json.dumps(s))
           for l in p.stdout.splitlines() for o in [json.loads(l)]
           for n, s in [(False, s) for s in o["suggestions"]] + [(True, s) for s in o["notes"]]]
    if any(pl == plugin and k == kind and has in js for pl, k, js in got):
        print(f"ok: cause {cause}: {plugin}/{kind}")
    else:
        miss("expert:" + cause.replace(" ", "_"), f"cause {cause}: no {plugin}/{kind} with "
             f"'{has}' in {[(pl, k) for pl, k, _ in got]}", p.stdout)
if policy_name != "debian":
    with open(now, "w") as f:
        f.write("".join(d + "\n" for d in sorted(differ)))
    expected = {}
    for line in open(golden):
        if line.strip() and not line.startswith("#"):
            entry, _, why = line.partition(" | ")
            if not why.strip():
                print("FAIL: no reason given for " + entry)
                bad += 1
            expected[entry.strip()] = why.strip()
    if sorted(expected) != sorted(differ):
        print("FAIL: the rows that answer otherwise on this policy changed:\n  now:\n    " +
              "\n    ".join(sorted(differ)) + "\n  expected:\n    " + "\n    ".join(sorted(expected)))
        bad += 1
    else:
        print(f"ok: {len(differ)} rows answer otherwise on this policy, each with its reason")
sys.exit(1 if bad else 0)
PY
# a rule naming a boolean by its old name (allow_ftpd_anon_write) fires on a
# policy tree that keeps the old name in booleans.subs_dist (Fedora's), its
# command and text saying the policy's name (ftpd_anon_write)
if [ "$POLICY_NAME" = fedora ] && [ -r "${POLICY%/policy/policy.33}/booleans.subs_dist" ]; then
	expect_status 0 "analyze allow_anon_write by the renamed boolean" -- \
		"$AVCDOCTOR" analyze --json -p "$POLICY" tests/data/catalog/allow_anon_write.log
	python3 - "$TMP/out" <<'PY' || fail "the rule naming allow_ftpd_anon_write"
import json, sys

a = json.loads(open(sys.argv[1]).readline())
s, = [s for s in a["suggestions"] if s["plugin"].endswith(":public-content-anon-write-ftpd")]
assert s["commands"][-1] == ["setsebool", "-P", "ftpd_anon_write=1"], s["commands"]
assert "ftpd_anon_write" in s["then"] and "allow_ftpd_anon_write" not in s["then"], s["then"]
assert s["verified"] is True, s
print("ok: allow_ftpd_anon_write is ftpd_anon_write here")
PY
fi
# a boolean one policy only has: each policy's own name for httpd connecting to LDAP
expect_status 0 "analyze httpd connecting to LDAP" -- \
	"$AVCDOCTOR" analyze --json -p "$POLICY" tests/data/fedora/httpd-ldap.log
python3 - "$TMP/out" "$POLICY_NAME" <<'PY' || fail "httpd's LDAP boolean"
import json, sys

a = json.loads(open(sys.argv[1]).readline())
want = "httpd_can_connect_ldap" if sys.argv[2] == "fedora" else "httpd_can_network_connect_ldap"
assert a["suggestions"][0]["commands"] == [["setsebool", "-P", want + "=1"]], a["suggestions"][0]
print("ok: httpd connecting to LDAP gets " + want)
PY
# the shipped rules are clean on this policy too; the names it lacks (types
# and booleans of another policy: those rules do not fire here) are listed
(cd "$AD_SOURCE_DIR" && "$AVCDOCTOR" check-rules -p "$POLICY" rules/*.rules) \
	>"$TMP/check.out" 2>"$TMP/check.err" ||
	fail "check-rules -p $POLICY_NAME: $(head -3 "$TMP/check.err")"
sed "s|$POLICY|POLICY|" "$TMP/check.err" >"$TMP/check-rules.txt"
golden check-rules-lacks.txt "$TMP/check-rules.txt"
finish
