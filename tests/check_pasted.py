#!/usr/bin/python3
"""Every denial of a pasted-text corpus (tests/data/pasted, made from the
corpus' records; tests/data/pasted-public, records as published in public
bug trackers) is read with the right source, target, class and
permissions, and every record audit2why reads is read too.

For each file, the denials of `avcdoctor why --json` must be exactly those of
expected.tsv (the values of the original records, multiset); a line of
expected.tsv whose permissions are "-" names a file from which the text gives
no whole denial (a report without its permissions): avcdoctor must read none
and say so in a note at the line given.  A line of
expected.tsv with the five columns more (comm, name, path, time, host: "-" not
checked, empty for none in the text, a time as the stamp's seconds or a
year-less "Mon DD HH:MM:SS" of a journal line) must also be read with those
values, on its line.  The AVCs that
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
import time

import sepolgen.audit


def key(perms, scon, tcon, tclass):
    return (",".join(sorted(perms)), scon, tcon, tclass)


EXTRA = ("line", "comm", "name", "path", "time", "host")


def extra_matches(want, d):
    """Whether the denial @d (JSON) has the values of expected.tsv's @want."""
    if d["line"] != int(want["line"]):
        return False
    for col in ("comm", "name", "path"):
        if want[col] != "-" and (d[col] or "") != want[col]:
            return False
    t = want["time"]
    if t == "":
        if d["time"] is not None:
            return False
    elif t != "-":
        if d["time"] is None:
            return False
        if " " in t:
            if time.strftime("%b %d %H:%M:%S", time.gmtime(d["time"])) != t:
                return False
        elif abs(d["time"] - float(t)) > 0.0005:
            return False
    h = want["host"]
    if h != "-" and (d["node"] or "") != h:
        return False
    return True


def main():
    avcdoctor, policy, folder = sys.argv[1:4]
    expected = collections.defaultdict(collections.Counter)
    extra = collections.defaultdict(list)
    no_denial = {}
    bad = 0
    with open(os.path.join(folder, "expected.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            name, perms, scon, tcon, tclass = cols[:5]
            if not os.path.exists(os.path.join(folder, name)):
                bad += 1
                print(f"FAIL: expected.tsv names {name}, which is not there")
                continue
            if perms == "-":
                no_denial[name] = cols[5]
                expected[name] += collections.Counter()
                continue
            k = key(perms.split(","), scon, tcon, tclass)
            expected[name][k] += 1
            if len(cols) == 11:
                extra[name].append((k, dict(zip(EXTRA, cols[5:]))))
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
        denials = []
        for line in out.stdout.splitlines():
            d = json.loads(line)
            k = key(d["permissions"], d["scontext"], d["tcontext"], d["tclass"])
            got[k] += 1
            denials.append((k, d))
        # comm, name, path, time and host where expected.tsv gives them
        for k, want in extra[name]:
            match = next((i for i, (dk, d) in enumerate(denials)
                          if dk == k and extra_matches(want, d)), None)
            if match is None:
                bad += 1
                print(f"FAIL: {name}: no denial {k} with {want}; read: "
                      f"{[{c: d[c] for c in EXTRA if c != 'host'} | {'node': d['node']} for dk, d in denials if dk == k]}")
            else:
                del denials[match]
        parser = sepolgen.audit.AuditParser()
        with open(path, encoding="utf-8", errors="replace") as f:
            # a file without any audit record makes it print "Nothing to do"
            # and sys.exit(0), which would end the whole check as passed
            try:
                parser.parse_file(f)
            except SystemExit:
                parser = sepolgen.audit.AuditParser()
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
        if name in no_denial and f":{no_denial[name]}: note: " not in out.stderr:
            bad += 1
            print(f"FAIL: {name}: no note at line {no_denial[name]}: {out.stderr}")
        # 3: no denial read, which is right for those
        if out.returncode != 0 and not (name in no_denial and out.returncode == 3):
            bad += 1
            print(f"FAIL: {name}: avcdoctor exited {out.returncode}: {out.stderr}")
    print(f"{'total':46} {totals[0]:7} {totals[1]:9} {totals[2]:9} {totals[3]:7}")
    if len(expected) < 10 or totals[0] < 100:
        bad += 1
        print("FAIL: the corpus must hold at least 100 records in at least 10 forms")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
