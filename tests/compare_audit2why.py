#!/usr/bin/python3
"""Compares `avcdoctor why --json` with the selinux.audit2why module (the
engine behind audit2why) on every denial record of the given logs.

Every record audit2why classifies must get the same reason, except for the
deliberate differences listed in EXPECTED_DIFFERENCES, each of which is a
case where audit2why is wrong or says less:

  dontaudit/te_rule -> boolean   audit2why flips one boolean at a time, so
                                 an access needing `a && b` is reported as
                                 dontaudit or te_rule; we find the combination
                                 (every such case must have an alternative
                                 with two or more booleans).
  BADSCON/BADTCON -> unknown_type / invalid_context
                                 audit2why drops the record ("bad context");
                                 we say which name is missing or which part
                                 does not fit.
  BADTCLASS -> unknown_class, BADPERM -> unknown_permission
                                 same, named.

Usage: compare_audit2why.py AVCDOCTOR POLICY LOG...
Exit status 0 when every difference is an expected one.
"""
import json
import subprocess
import sys

import selinux.audit2why as a2w

NAMES = {
    a2w.ALLOW: "allowed", a2w.DONTAUDIT: "dontaudit", a2w.TERULE: "te_rule",
    a2w.BOOLEAN: "boolean", a2w.CONSTRAINT: "constraint", a2w.RBAC: "rbac",
    a2w.BOUNDS: "bounds", a2w.BADSCON: "BADSCON", a2w.BADTCON: "BADTCON",
    a2w.BADTCLASS: "BADTCLASS", a2w.BADPERM: "BADPERM",
    a2w.BADCOMPUTE: "BADCOMPUTE",
}

EXPECTED_DIFFERENCES = {
    ("dontaudit", "boolean"), ("te_rule", "boolean"),
    ("BADSCON", "unknown_type"), ("BADSCON", "invalid_context"),
    ("BADTCON", "unknown_type"), ("BADTCON", "invalid_context"),
    ("BADSCON", "unknown_level"), ("BADTCON", "unknown_level"),
    ("BADTCLASS", "unknown_class"), ("BADPERM", "unknown_permission"),
}


def main():
    avcdoctor, policy, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
    a2w.init(policy)
    total = same = 0
    diffs = {}
    bad = []
    for log in logs:
        out = subprocess.run([avcdoctor, "why", "--json", "-p", policy, log],
                             capture_output=True, text=True, check=False)
        if out.returncode not in (0, 1):
            print(f"{log}: avcdoctor exited {out.returncode}: {out.stderr}")
            return 1
        for line in out.stdout.splitlines():
            d = json.loads(line)
            if d["type"] not in ("AVC", "USER_AVC") or d["result"] != "denied":
                continue
            rc, _ = a2w.analyze(d["scontext"], d["tcontext"], d["tclass"],
                                d["permissions"])
            theirs = NAMES.get(rc, str(rc))
            ours = d["reason"]
            total += 1
            if theirs == ours:
                same += 1
                continue
            key = (theirs, ours)
            diffs[key] = diffs.get(key, 0) + 1
            ok = key in EXPECTED_DIFFERENCES
            if ok and ours == "boolean":
                # audit2why missed it only when no single boolean suffices
                ok = all(len(alt) > 1 for alt in d["booleans"]) and \
                    not d.get("booleans_partial")
            if not ok:
                bad.append(f"{d['file']}:{d['line']}: audit2why {theirs}, "
                           f"avcdoctor {ours}: {d['scontext']} {d['tcontext']} "
                           f"{d['tclass']} {d['permissions']}")
    print(f"{total} denials compared, {same} with the same reason")
    for (theirs, ours), n in sorted(diffs.items()):
        tag = "expected" if (theirs, ours) in EXPECTED_DIFFERENCES else "UNEXPECTED"
        print(f"  {n:6d}  audit2why {theirs:10s} avcdoctor {ours:18s} {tag}")
    for b in bad[:50]:
        print("  " + b)
    if total == 0:
        print("no denial compared")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
