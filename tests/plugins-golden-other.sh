#!/bin/bash
# avcdoctor analyze on the cases of the plugins that are not about file
# labels (ports, memory, leaks, permissive, policy mismatch, invalid
# contexts, constraints, intrusions, capabilities, IPv6): golden outputs,
# and the facts each case is about, checked in the JSON so that a
# regenerated golden cannot silently lose them.
#
# Inputs: tests/data/plugins/<case>.log (real records from the corpus, or
# written for the case: then the first line, a comment, says so).
# Goldens: tests/golden/analyze-<case>.txt.  Regenerate with
#   AD_REGEN=1 ctest -R plugins-golden-other   (and read every changed file)
# The rule book is left out (an empty rules directory): these goldens show
# what the plugins say.
. "$AD_SOURCE_DIR/tests/lib.sh"
use_policy
export LANG=C LC_ALL=C TZ=UTC AVCDOCTOR_NO_PROGRESS=1
mkdir -p "$TMP/rules"
export AVCDOCTOR_RULES_DIR="$TMP/rules"
# file names in outputs are relative, for stable goldens; so is a policy
# path that some answers name, when it is not the installed one (Fedora's
# tree lies wherever the machine keeps it): the cases and the tree are
# reached through links in a folder of the test's own
mkdir "$TMP/run" && ln -s "$AD_SOURCE_DIR"/tests/data/plugins/*.log "$TMP/run/" || exit 1
if [ "$POLICY_NAME" = fedora ]; then
	ln -s "${POLICY%/policy/policy.33}" "$TMP/run/fedora-41-targeted" || exit 1
	POLICY=fedora-41-targeted/policy/policy.33
fi
cd "$TMP/run" || exit 1

cases="bind-reserved-port bind-port-boolean connect-cache-port execmem execmod mmap-zero
	leak-execve leak-dontaudit permissive constraint policy-mismatch invalid-context
	sys-module kernel-modules kernel-modules-user selinuxpolicy load-policy selinuxfs-enforce selinuxfs-context
	dac-override sys-resource disable-ipv6"

for c in $cases; do
	[ -r "$c.log" ] || { fail "missing tests/data/plugins/$c.log"; continue; }
	expect_status 0 "analyze $c" -- "$AVCDOCTOR" analyze -p "$POLICY" "$c.log"
	cp "$TMP/out" "$TMP/analyze-$c.txt"
	golden "analyze-$c.txt" "$TMP/analyze-$c.txt"
	expect_status 0 "analyze --json $c" -- "$AVCDOCTOR" analyze --json -p "$POLICY" "$c.log"
	cp "$TMP/out" "$TMP/$c.jsonl"
done

# the facts: CASE ALERT PLUGIN KIND LEVEL [RANK] [COMMAND]
#   ALERT: index of the alert in the case's output; RANK: where the plugin's
#   suggestion must be (0 = first), "-" = anywhere; COMMAND: its first command
python3 - "$TMP" "$POLICY_NAME" <<'PY' || fail "the plugins' answers in the JSON output"
import json, sys
tmp, policy = sys.argv[1:3]
fedora = policy == "fedora"
def alerts(case):
    return [json.loads(l) for l in open(f"{tmp}/{case}.jsonl")]
# a KIND "note" is looked for among the notes (facts, no level), its RANK among them
def find(case, alert, plugin, kind):
    a = alerts(case)[alert]
    for i, s in enumerate(a["notes" if kind == "note" else "suggestions"]):
        if s["plugin"] == plugin:
            return a, i, s
    raise AssertionError(f"{case}[{alert}]: no {plugin} {kind}: "
                         f"{[s['plugin'] for s in a['suggestions']]} "
                         f"notes {[s['plugin'] for s in a['notes']]}")
facts = [
    ("bind-reserved-port", 0, "bind_ports", "port", "green", 0,
     "semanage port -a -t http_port_t -p tcp 81"),
    # no port type named after staff_t, the program or the ports next to 24800:
    # no type guessed, the commands that list the policy's port labels and rules
    ("bind-port-boolean", 0, "bind_ports", "config", "yellow", "-",
     "seinfo --portcon 24800"),
    ("connect-cache-port", 0, "connect_ports", "note", None, "-", None),
    ("execmem", 0, "execmem", "report_bug", "yellow", "-", None),
    ("execmem", 1, "execmem", "report_bug", "yellow", 0, None),
    ("execmem", 2, "execmem", "report_bug", "yellow", "-", None),
    ("execmod", 0, "execmod", "fcontext", "yellow", 0,
     "semanage fcontext -a -t textrel_shlib_t -- '/opt/game/lib/libold\\.so\\.1'"),
    ("mmap-zero", 0, "mmap_zero", "attack", "red", 0, None),
    ("mmap-zero", 1, "mmap_zero", "dontaudit", "green", "-",
     "setsebool -P wine_mmap_zero_ignore=1"),
    ("leak-execve", 0, "leaks", "dontaudit", "yellow", 0,
     "avcdoctor allow --source mount_t --target crond_t --class fifo_file --perm read,write "
     "-D -M avcdoctor_mount_{id8}_leaks -- leak-execve.log"),
    ("leak-dontaudit", 0, "leaks", "note", None, "-", None),
    ("permissive", 0, "permissive", "note", None, 0, None),
    ("constraint", 0, "constraint", "config", "yellow", 0, None),
    ("policy-mismatch", 0, "policy_mismatch", "note", None, 0, None),
    ("policy-mismatch", 1, "policy_mismatch", "note", None, 0, None),
    ("policy-mismatch", 2, "policy_mismatch", "note", None, 0, None),
    ("policy-mismatch", 3, "policy_mismatch", "note", None, 0, None),
    ("invalid-context", 0, "invalid_context", "module", "yellow", 0,
     "avcdoctor allow --source staff_t --target httpd_exec_t --class process --perm transition "
     "--verify -M avcdoctor_staff_{id8} -- invalid-context.log"),
    ("invalid-context", 1, "invalid_context", "module", "yellow", 0, None),
    # staff_t, whose SELinux user may take sysadm_r: an administrator in the wrong role
    ("sys-module", 0, "sys_module", "config", "yellow", 0, None),
    ("kernel-modules", 0, "kernel_modules", "config", "yellow", 0, None),
    ("selinuxpolicy", 0, "selinuxpolicy", "config", "yellow", 0, None),
    # user_t, whose SELinux user has no admin role: a possible intrusion
    ("kernel-modules-user", 0, "kernel_modules", "attack", "red", 0, None),
    ("load-policy", 0, "setenforce", "config", "yellow", 0, None),
    ("selinuxfs-enforce", 0, "setenforce", "attack", "red", 0, None),
    ("dac-override", 0, "dac_override", "config", "green", 0,
     "auditctl -w /etc/shadow -p w -k avcdoctor-path"),
    ("sys-resource", 0, "sys_resource", "config", "green", 0, None),
    ("disable-ipv6", 0, "disable_ipv6", "config", "green", 0,
     "sysctl -w net.ipv6.conf.all.disable_ipv6=1"),
]
def here(case, alert):
    """the denial is one to fix with this policy: on Fedora's, where the policy
    allows it already, an answer must say that nothing needs doing"""
    a = alerts(case)[alert]
    if fedora and a["denial"]["reason"] == "allowed":
        assert any(s["kind"] == "info" for s in a["suggestions"]), (case, alert)
        return False
    return True
# where Fedora's policy answers differently, what it answers
fedora_facts = {
    # Fedora labels port 81 http_port_t: nothing to do
    ("bind-reserved-port", 0): ("bind_ports", "info", "green", 0, None),
    # mount_t under staff_r is valid in Fedora's policy
    ("invalid-context", 1): ("invalid_context", "info", "green", 0, None),
    # the record names a type Fedora's policy lacks
    ("constraint", 0): ("policy_mismatch", "note", None, 0, None),
    # Fedora dontaudits these capabilities: silence them first
    ("sys-module", 0): ("catchall", "dontaudit", "green", 0, None),
    ("sys-resource", 0): ("sys_resource", "config", "green", 1, None),
}
errors = []
for case, alert, plugin, kind, level, rank, command in facts:
    if fedora and (case, alert) in fedora_facts:
        plugin, kind, level, rank, command = fedora_facts[(case, alert)]
    try:
        if not here(case, alert):
            continue
        a, i, s = find(case, alert, plugin, kind)
        if kind == "note":
            assert sorted(s) == ["if", "plugin", "then"], (case, alert, s)
        else:
            assert (s["kind"], s["level"]) == (kind, level), (case, alert, s)
        assert rank == "-" or i == rank, (case, alert, plugin, i, [(x["plugin"], x["verified"]) for x in a["suggestions"]])
        if command:
            # module names are per alert: the domain, then the alert id's first 8 characters
            command = command.replace("{id8}", a["id"][:8])
            assert s["shell"].split("\n")[0] == command, (case, s["shell"])
        if level == "red":
            assert a["level"] == "red", (case, a["level"])
    except AssertionError as e:
        errors.append(f"{case}[{alert}] {plugin}: {e}")
assert not errors, "\n".join(errors)
# crafted 104: the narrowest proved boolean ranks first (relaying to cache ports, not
# connecting to every port), the port plugin below
a = alerts("connect-cache-port")[0]
assert a["suggestions"][0]["plugin"] == "boolean", a["suggestions"][0]
assert a["suggestions"][0]["commands"] == [["setsebool", "-P", "httpd_can_network_relay=1"]]
assert a["suggestions"][0]["verified"] is True
# the context write is a policy query: nothing of the intrusion plugins
assert all(s["plugin"] != "setenforce" for s in alerts("selinuxfs-context")[0]["suggestions"])
assert alerts("selinuxfs-context")[0]["level"] != "red"
print("ok: the plugins' answers in the JSON output")
PY
finish
