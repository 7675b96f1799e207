#!/usr/bin/python3
"""Checks that `avcdoctor allow` covers what audit2allow emits.

For every corpus log, every (source, target, class, permission) of an
`allow` rule that audit2allow prints must be in avcdoctor's rule set,
unless one of the deliberate differences below explains it:

  unknown name       audit2allow writes rules naming a type, class or
                     permission the policy lacks (`allow ... :nosuchclass
                     read;`); avcdoctor never does (the rule is listed as not
                     emitted, with the reason).
  granted            avcdoctor writes no rule for `avc: granted` records.

Every tuple avcdoctor emits that audit2allow does not is listed too (the
`ausearch -i` logs audit2allow cannot read, records it drops).

Usage: compare_audit2allow.py AVCDOCTOR POLICY LOG...
"""
import json
import re
import subprocess
import sys

RULE = re.compile(r"^allow (\S+) (\S+):(\S+) (\{[^}]*\}|\S+);")


def audit2allow(policy, log):
    out = subprocess.run(["audit2allow", "-p", policy, "-i", log],
                         capture_output=True, text=True, check=False).stdout
    tuples = set()
    for line in out.splitlines():
        m = RULE.match(line.strip())
        if not m:
            continue
        s, t, c, perms = m.groups()
        t = s if t == "self" else t
        for p in perms.strip("{} ").split():
            tuples.add((s, t, c, p))
    return tuples


def ours(avcdoctor, policy, log):
    out = subprocess.run([avcdoctor, "allow", "--json", "-p", policy, log],
                         capture_output=True, text=True, check=False)
    if out.returncode not in (0, 1):
        raise SystemExit(f"{log}: avcdoctor exited {out.returncode}: {out.stderr}")
    emitted, withheld = set(), set()
    for line in out.stdout.splitlines():
        r = json.loads(line)
        if r.get("rule") != "allow":
            continue
        for p in r["permissions"]:
            key = (r["source"], r["target"], r["class"], p)
            (emitted if r["emitted"] else withheld).add(key)
    return emitted, withheld


def main():
    avcdoctor, policy, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
    missing_total = 0
    for log in logs:
        theirs = audit2allow(policy, log)
        emitted, withheld = ours(avcdoctor, policy, log)
        missing = theirs - emitted
        explained = missing & withheld
        unexplained = missing - withheld
        extra = emitted - theirs
        print(f"{log}: audit2allow {len(theirs)} tuples, avcdoctor {len(emitted)} "
              f"emitted; withheld for unknown names: {len(explained)}; "
              f"only avcdoctor: {len(extra)}; unexplained: {len(unexplained)}")
        for t in sorted(unexplained)[:20]:
            print("   MISSING", *t)
        missing_total += len(unexplained)
    return 1 if missing_total else 0


if __name__ == "__main__":
    sys.exit(main())
