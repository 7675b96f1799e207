#!/usr/bin/env python3
"""avcdoctor as audit2allow / audit2why against policycoreutils' own, on the
same logs: the same rules, the same layout.  Where avcdoctor differs on
purpose, the rule is still there, commented out with the reason on its
line (never dropped silently):
  - unknown types, classes and permissions: "#!!!! Not written, ..."
    (audit2allow writes `allow httpd_t shadow_t:nosuchclass read;`, which
    checkmodule rejects);
  - red alerts, constraint-blocked, invalid-context and dontaudit-hidden
    denials: "#allow ...; # <reason>" (see avcdoctor(1), --keep-blocked).
audit2why: every record that audit2why gives a "Was caused by:" section
gets one from avcdoctor too, with the record line above it.

usage: compare_classic.py OURS_DIR POLICY LOG...  (OURS_DIR holds the
audit2allow and audit2why links to avcdoctor)
"""
import os, re, subprocess, sys

ours_dir, policy, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
RULE = re.compile(r"^(#?)allow (\S+) (\S+):(\S+) (?:\{ ([^}]*) \}|(\S+));(.*)$")
HEAD = re.compile(r"^#============= (\S+) ==============$")


def run(prog, args):
    p = subprocess.run([prog] + args, capture_output=True, text=True, errors="replace",
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout


def rules(text):
    live, commented = {}, {}
    for line in text.splitlines():
        m = RULE.match(line)
        if not m:
            continue
        key = (m.group(2), m.group(3), m.group(4))
        perms = set((m.group(5) or m.group(6)).split())
        (commented if m.group(1) else live).setdefault(key, set()).update(perms)
    return live, commented


def layout_problems(text):
    bad = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("#====") and not HEAD.match(line):
            bad.append("header %r" % line)
        if HEAD.match(line) and i and lines[i - 1] != "":
            bad.append("no blank line before %r" % line)
    return bad


failures = 0
compared = 0
for log in logs:
    rc_t, theirs = run("audit2allow", ["-p", policy, "-i", log])
    rc_o, ours = run(os.path.join(ours_dir, "audit2allow"), ["-p", policy, "-i", log])
    if rc_t != 0:
        continue  # audit2allow itself failed on this log: nothing to compare
    compared += 1
    t_live, _ = rules(theirs)
    o_live, o_commented = rules(ours)
    problems = layout_problems(ours)
    for key, perms in t_live.items():
        have = o_live.get(key, set()) | o_commented.get(key, set())
        if not perms <= have:
            problems.append("audit2allow's %s %s missing" % (key, sorted(perms - have)))
    for key, perms in o_live.items():
        # a live rule of ours that audit2allow does not write at all
        if key not in t_live or not perms <= t_live[key]:
            problems.append("extra live rule %s %s" % (key, sorted(perms)))
    t_heads = set(m.group(1) for m in map(HEAD.match, theirs.splitlines()) if m)
    o_heads = set(m.group(1) for m in map(HEAD.match, ours.splitlines()) if m)
    if not t_heads <= o_heads:
        problems.append("headers missing: %s" % sorted(t_heads - o_heads))
    # audit2why: the same records get a "Was caused by:" section
    _, twhy = run("audit2why", ["-p", policy, "-i", log])
    _, owhy = run(os.path.join(ours_dir, "audit2why"), ["-p", policy, "-i", log])

    def caused(text):
        out, lines = set(), text.splitlines()
        for i, line in enumerate(lines):
            if line == "\tWas caused by:" and i >= 2:
                m = re.search(r"audit\([^)]*:([0-9]+)\)", lines[i - 2])
                if m:
                    out.add(m.group(1))
        return out

    missing = caused(twhy) - caused(owhy)
    if missing:
        problems.append("audit2why sections missing for serials %s" % sorted(missing)[:10])
    if problems:
        failures += 1
        print("%s:" % log)
        for p in problems[:15]:
            print("   ", p)
    else:
        print("ok: %s: %d rules, %d left out, %d domains, %d why sections" %
              (log, len(o_live), len(o_commented), len(o_heads), len(caused(owhy))))
if not compared:
    print("nothing compared")
    sys.exit(1)
sys.exit(1 if failures else 0)
