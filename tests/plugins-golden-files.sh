#!/bin/bash
# avcdoctor analyze with the file-label plugins (restorecon, restorecon_source,
# file, fcontext, associate, mounton, device): golden text and JSON
# outputs of tests/data/plugins/files-*.log, and the facts that matter checked
# on the JSON (top suggestion, exact argument vectors, no relabel where the
# label is right).  Regenerate with AD_REGEN=1 and read every changed file.
#
# The rules are turned off (an empty AVCDOCTOR_RULES_DIR) so that editing a
# rules file does not churn these goldens; the other plugins still run.
. "$AD_SOURCE_DIR/tests/lib.sh"
use_policy
mkdir -p "$TMP/no-rules"
export AVCDOCTOR_RULES_DIR="$TMP/no-rules" AVCDOCTOR_NO_PROGRESS=1
# file names in outputs are relative, for stable goldens
cd "$AD_SOURCE_DIR/tests/data/plugins" || exit 1

cases="files-restorecon-moved files-label-right files-hostile-names files-fcontext
	files-unlabeled files-associate files-mounton-swap-device files-restorecon-source
	files-crafted-shadow files-multi-avc files-sepolgen files-unlabeled-dontaudit"
for c in $cases; do
	expect_status 0 "analyze $c" -- "$AVCDOCTOR" analyze -p "$POLICY" "$c.log"
	cp "$TMP/out" "$TMP/$c.txt"
	golden "analyze-$c.txt" "$TMP/$c.txt"
	expect_status 0 "analyze --json $c" -- "$AVCDOCTOR" analyze --json -p "$POLICY" "$c.log"
	cp "$TMP/out" "$TMP/$c.jsonl"
	golden "analyze-$c.jsonl" "$TMP/$c.jsonl"
done

python3 - "$TMP" "$POLICY_NAME" <<'PY' || fail "facts of the file-label cases"
import json, os, sys

tmp, policy = sys.argv[1:3]
fedora = policy == "fedora"

def alerts(case):
    return [json.loads(l) for l in open(os.path.join(tmp, case + ".jsonl"))]

def by_path(case):
    out = {}
    for a in alerts(case):
        out[a["denial"].get("path")] = a
    return out

def top(a):
    return a["suggestions"][0]

def plugins(a):
    return [s["plugin"] for s in a["suggestions"]]

def kinds(a):
    return [s["kind"] for s in a["suggestions"]]

def here(a):
    """the denial is one to fix with this policy: on Fedora's, where the policy
    allows it already, an answer must say that nothing needs doing"""
    if fedora and a["denial"]["reason"] == "allowed":
        assert "info" in kinds(a), plugins(a)
        return False
    return True

# a page moved from a home directory: restorecon first, exact argv
a, = alerts("files-restorecon-moved")
assert top(a)["plugin"] == "restorecon", plugins(a)
assert top(a)["commands"] == [["restorecon", "-v", "--", "/var/www/html/index.html"]], top(a)
assert top(a)["confidence"] >= 0.9 and a["level"] == "green", a
assert "boolean" in plugins(a)  # httpd_read_user_content, ranked below

# the label already right: no relabel from any plugin, a note instead
a, = alerts("files-label-right")
assert "relabel" not in kinds(a), kinds(a)
assert any(s["plugin"] == "restorecon" for s in a["notes"]), a["notes"]
assert all(s["plugin"] != "restorecon" for s in a["suggestions"]), plugins(a)

# hostile names: one argument each, after "--", never split
want = {"/var/www/html/$(touch /tmp/pwned);x",
        "/var/www/html/a\ntype=AVC msg=audit(1:2): x.html",
        "/var/www/html/-rf \x1b[2J'q'.html"}
got = set()
for a in alerts("files-hostile-names"):
    s = top(a)
    assert s["plugin"] == "restorecon", plugins(a)
    cmd, = s["commands"]
    assert cmd[:3] == ["restorecon", "-v", "--"] and len(cmd) == 4, cmd
    got.add(cmd[3])
assert got == want, got

# generic labels: a file context with the domain's own type, regex escaped
f = by_path("files-fcontext")
s = top(f["/data/my.site+x/index.html"])
assert s["plugin"] == "fcontext", s
# web content: the type file_contexts gives the web roots (/var/www, /srv/www), on
# Fedora's policy too, where httpd_sys_content_t is also an entry type (scripts)
assert s["commands"] == [["semanage", "fcontext", "-a", "-t", "httpd_sys_content_t", "--",
                          "/data/my\\.site\\+x(/.*)?"],
                         ["restorecon", "-R", "-v", "--", "/data/my.site+x"]], s["commands"]
s = top(f["/var/lib/app/db"])
# Fedora: httpd_sys_rw_content_t, the type its policy gives httpd's writable data
assert s["plugin"] == "fcontext" and s["commands"][0][4] == (
    "httpd_sys_rw_content_t" if fedora else "httpd_var_lib_t"), s
assert s["commands"][0][6] == "/var/lib/app(/.*)?", s

# unlabeled: restorecon -R 0.7, then a full relabel 0.3
u = by_path("files-unlabeled")
s = [x for x in u["/var/www/html/index.html"]["suggestions"] if x["plugin"] == "file"]
assert [x["commands"] for x in s] == [
    [["restorecon", "-R", "-v", "--", "/var/www/html/index.html"]],
    [["touch", "/.autorelabel"], ["reboot"]]], s
assert [x["confidence"] for x in s] == [0.7, 0.3], s
s = [x for x in u[None]["suggestions"] if x["plugin"] == "file"]
assert [x["commands"] for x in s] == [[["touch", "/.autorelabel"], ["reboot"]]], s
assert top(u[None])["plugin"] == "file", plugins(u[None])

# hidden by dontaudit (logged with dontaudit rules disabled): still a mislabel,
# the relabel comes first and is proved; "silence it" only below
u = by_path("files-unlabeled-dontaudit")
a = u["/var/asesrv/SB007NA/adm"]
# Fedora's policy has booleans that allow the access (logging_syslogd_*)
assert a["denial"]["reason"] == ("boolean" if fedora else "dontaudit"), a["denial"]["reason"]
assert top(a)["commands"] == [["restorecon", "-R", "-v", "--", "/var/asesrv/SB007NA/adm"]], top(a)
assert top(a)["verified"] is True, top(a)
assert plugins(a).index("catchall") > 0, plugins(a)
a = u[None]  # name=/: the root of the unlabeled file system, no path to relabel
relabel = [s for s in a["suggestions"] if s["plugin"] == "file"]
assert relabel and relabel[0]["commands"][0] == ["touch", "/.autorelabel"], plugins(a)
# Fedora: proved booleans (logging_syslogd_*) rank above the full relabel
assert top(a)["plugin"] == ("boolean" if fedora else "file"), plugins(a)

# associate: config advice for a non-file type and for a file system's label
for a in alerts("files-associate"):
    if here(a):  # Fedora's policy lets tracefs_t be associated with fs_t
        assert top(a)["plugin"] == "associate" and top(a)["kind"] == "config", plugins(a)

# mount point, swap file, unknown device
m = by_path("files-mounton-swap-device")
if here(m["/data/brick1"]):
    assert top(m["/data/brick1"])["commands"] == [
        ["semanage", "fcontext", "-a", "-t", "mnt_t", "--", "/data/brick1"],
        ["restorecon", "-v", "--", "/data/brick1"]], top(m["/data/brick1"])
# swap files are the rules' ([swapfile], off here): no generic file context
if here(m["/swapfile"]):
    assert "fcontext" not in plugins(m["/swapfile"]), plugins(m["/swapfile"])
assert "device" in plugins(m["/dev/frob0"])

# the program itself mislabeled
a, = alerts("files-restorecon-source")
if here(a):
    assert top(a)["plugin"] == "restorecon_source", plugins(a)
    assert top(a)["commands"] == [["restorecon", "-v", "--", "/usr/sbin/logrotate"]]

# crafted 101 (httpd_t reading /etc/shadow): shadow_t is right, no relabel
a, = alerts("files-crafted-shadow")
assert "relabel" not in kinds(a) and "fcontext" not in kinds(a), kinds(a)

# real ausearch -i records: default_t under /var/www/html is a wrong label
a, = alerts("files-multi-avc")
assert top(a)["plugin"] == "restorecon", plugins(a)
assert top(a)["commands"][0][:3] == ["restorecon", "-v", "--"]
print("ok: facts of the file-label cases")
PY

# a container's records name paths as the container sees them (Fedora's
# published podman volume denials): no relabel and no file context for them
if [ "$POLICY_NAME" = fedora ]; then
	expect_status 0 "analyze --json a container's volume" -- \
		"$AVCDOCTOR" analyze --json -p "$POLICY" ../fedora/container-volume.log
	python3 - "$TMP/out" <<'PY' || fail "a container's path relabelled"
import json, sys

n = 0
for line in open(sys.argv[1]):
    if not line.startswith("{"):
        continue
    a = json.loads(line)
    assert a["denial"]["scontext"].split(":")[2] == "container_t"
    for s in a["suggestions"]:
        assert s["kind"] not in ("relabel", "fcontext"), s
        for c in s.get("commands", []):
            assert c[0] not in ("restorecon", "chcon", "semanage"), c
    n += 1
assert n == 2, n
print("ok: no relabel of a path seen from a container")
PY
	# /var/run is an alias of /run there: the file context names /run
	expect_status 0 "analyze --json a path under /var/run" -- \
		"$AVCDOCTOR" analyze --json -p "$POLICY" ../fedora/var-run.log
	python3 - "$TMP/out" <<'PY' || fail "a file context under /var/run"
import json, sys

a = json.loads(open(sys.argv[1]).readline())
s = a["suggestions"][0]
assert s["plugin"] == "fcontext", s
assert s["commands"][0] == ["semanage", "fcontext", "-a", "-t", "httpd_var_run_t", "--",
                            "/run/myapp(/.*)?"], s["commands"]
print("ok: the file context of /var/run/myapp names /run/myapp")
PY
fi
finish
