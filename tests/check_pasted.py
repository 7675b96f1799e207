#!/usr/bin/python3
"""Every denial of a pasted-text corpus (tests/data/pasted, made from the
corpus' records; tests/data/pasted-public, records as published in public
bug trackers) is read with the right source, target, class and
permissions, and every record audit2why reads is read too.

For each file, the denials of `avcdoctor why --json` must be exactly those of
expected.tsv (the values of the original records, multiset); the AVCs that
sepolgen's AuditParser (what audit2why and audit2allow read with) finds in
the same file must all be among them.  An AVC audit2why reads that is no
record of the file (it merges run-together records into one, with the
permissions of both) is its misreading: counted apart, not required.
Prints a table: records, avcdoctor, audit2why (right, and wrong), per file.

Usage: check_pasted.py AVCDOCTOR POLICY DIR
"""
import collections
import json
import os
import subprocess
import sys

import sepolgen.audit


def key(perms, scon, tcon, tclass):
    return (",".join(sorted(perms)), scon, tcon, tclass)


def main():
    avcdoctor, policy, folder = sys.argv[1:4]
    expected = collections.defaultdict(collections.Counter)
    bad = 0
    with open(os.path.join(folder, "expected.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            name, perms, scon, tcon, tclass, _ = line.rstrip("\n").split("\t")
            if not os.path.exists(os.path.join(folder, name)):
                bad += 1
                print(f"FAIL: expected.tsv names {name}, which is not there")
                continue
            expected[name][key(perms.split(","), scon, tcon, tclass)] += 1
    # every file of the corpus has its denials listed
    for name in sorted(os.listdir(folder)):
        if name not in expected and name not in ("README.md", "expected.tsv", "origins.txt"):
            bad += 1
            print(f"FAIL: {name} has no line in expected.tsv")
    totals = [0, 0, 0, 0]
    print(f"{'file':46} {'records':>7} {'avcdoctor':>9} {'audit2why':>9} {'(wrong)':>7}")
    for name in sorted(expected):
        path = os.path.join(folder, name)
        out = subprocess.run([avcdoctor, "why", "--json", "-p", policy, path],
                             capture_output=True, text=True, check=False)
        got = collections.Counter()
        for line in out.stdout.splitlines():
            d = json.loads(line)
            got[key(d["permissions"], d["scontext"], d["tcontext"], d["tclass"])] += 1
        parser = sepolgen.audit.AuditParser()
        with open(path, encoding="utf-8", errors="replace") as f:
            parser.parse_file(f)
        a2w = collections.Counter(
            key(m.accesses, str(m.scontext), str(m.tcontext), m.tclass)
            for m in parser.avc_msgs)
        a2w_right = a2w & expected[name]
        n_exp, n_got, n_a2w, n_wrong = (sum(c.values()) for c in
                                        (expected[name], got, a2w_right, a2w - a2w_right))
        totals = [totals[0] + n_exp, totals[1] + n_got, totals[2] + n_a2w,
                  totals[3] + n_wrong]
        print(f"{name:46} {n_exp:7} {n_got:9} {n_a2w:9} {n_wrong:7}")
        if got != expected[name]:
            bad += 1
            print(f"FAIL: {name}: missing {dict(expected[name] - got)}, "
                  f"extra {dict(got - expected[name])}\n{out.stderr}")
        if a2w_right - got:
            bad += 1
            print(f"FAIL: {name}: audit2why reads what avcdoctor does not: "
                  f"{dict(a2w_right - got)}")
        if out.returncode != 0:
            bad += 1
            print(f"FAIL: {name}: avcdoctor exited {out.returncode}: {out.stderr}")
    print(f"{'total':46} {totals[0]:7} {totals[1]:9} {totals[2]:9} {totals[3]:7}")
    if len(expected) < 10 or totals[0] < 100:
        bad += 1
        print("FAIL: the corpus must hold at least 100 records in at least 10 forms")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
