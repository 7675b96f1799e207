#!/usr/bin/python3
"""How `avcdoctor why` classifies the denials of a corpus of logs on Debian's
reference policy and on Fedora's targeted policy, beside what audit2why
classifies on each.

Usage: why-counts.py AVCDOCTOR [DIR]

DIR (default: $AVCDOCTOR_CORPUS, else shared/corpus beside the source tree)
is read recursively: every *.log and *.txt file.  Fedora's targeted policy
tree is read from $AVCDOCTOR_FEDORA_POLICY, else from
shared/policies/fedora-41-targeted beside the source tree; a policy that is
not there is skipped.

Counted: the denial records (AVC and USER_AVC, result denied) `avcdoctor why
--json` reports, by reason; "classified" is every reason but the ones saying
that the record does not fit the policy (unknown_type, unknown_class,
unknown_permission, unknown_level, invalid_context).  audit2why (`audit2why
-p POLICY -i FILE`) drops a record whose contexts, class or permissions the
policy does not know and prints "Was caused by:" for each one it classifies;
its denied records are counted the same way.  Prints a Markdown table.
"""
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BESIDE = os.path.join(HERE, "..", "..", "shared")
FEDORA = os.environ.get("AVCDOCTOR_FEDORA_POLICY") or os.path.join(
    BESIDE, "policies", "fedora-41-targeted")
POLICIES = [
    ("Debian refpolicy", "/etc/selinux/default/policy/policy.33"),
    ("Fedora targeted", os.path.join(FEDORA, "policy", "policy.33")),
]
UNFIT = {"unknown_type", "unknown_class", "unknown_permission", "unknown_level",
         "invalid_context"}
A2W_TIMEOUT = 1800


def logs_of(top):
    out = []
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".log", ".txt")):
                out.append(os.path.join(root, f))
    return out


def ours(avcdoctor, policy, log):
    """reason -> count of the denied records of @log"""
    p = subprocess.run([avcdoctor, "why", "--json", "-p", policy, log],
                       capture_output=True, text=True, check=False)
    if p.returncode not in (0, 1):
        sys.exit(f"{log}: avcdoctor why exited {p.returncode}: {p.stderr.strip()}")
    c = collections.Counter()
    for line in p.stdout.splitlines():
        d = json.loads(line)
        if d.get("type") in ("AVC", "USER_AVC") and d.get("result") == "denied":
            c[d["reason"]] += 1
    return c


def theirs(policy, log):
    """how many denied records audit2why classifies in @log (None: it failed)"""
    try:
        p = subprocess.run(["audit2why", "-p", policy, "-i", log], capture_output=True,
                           text=True, errors="replace", check=False, timeout=A2W_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    # each classified record: its message line, then "\tWas caused by:"
    blocks = re.split(r"\n(?=\S)", p.stdout)
    return sum(1 for b in blocks if "Was caused by:" in b and
               re.search(r"avc:\s+denied", b))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    avcdoctor = sys.argv[1]
    top = sys.argv[2] if len(sys.argv) == 3 else (
        os.environ.get("AVCDOCTOR_CORPUS") or os.path.join(BESIDE, "corpus"))
    logs = logs_of(top)
    if not logs:
        sys.exit(f"no *.log or *.txt under {top}")
    rows = []
    for name, policy in POLICIES:
        if not os.path.exists(policy):
            print(f"skipped: {name}: no {policy}", file=sys.stderr)
            continue
        c = collections.Counter()
        a2w = 0
        for log in logs:
            c.update(ours(avcdoctor, policy, log))
            n = theirs(policy, log)
            if n is None:
                print(f"audit2why timed out on {log}", file=sys.stderr)
            else:
                a2w += n
        total = sum(c.values())
        unfit = sum(v for k, v in c.items() if k in UNFIT)
        rows.append((name, total, total - unfit, c, a2w))
    print(f"{len(logs)} logs under {os.path.basename(os.path.normpath(top))}\n")
    print("| policy | denials | avcdoctor classifies | unknown_type | other unfit "
          "| audit2why classifies | avcdoctor's reasons |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, total, classified, c, a2w in rows:
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(c.items(), key=lambda kv: -kv[1])
                            if k not in UNFIT)
        other = sum(v for k, v in c.items() if k in UNFIT and k != "unknown_type")
        print(f"| {name} | {total} | {classified} | {c['unknown_type']} | {other} "
              f"| {a2w} | {reasons} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
