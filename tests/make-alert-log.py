#!/usr/bin/env python3
# make-alert-log.py N OUT: an audit log of N alerts for the browser's
# screenshots and its end-to-end test, made of the corpus's own AVC records
# (tests/data/corpus): the first N records of distinct signatures (source
# type, target type, class, permissions), each given a new time and serial.
# The times make two clusters two days apart (the first 30 % of the alerts
# on day one, the others on day three), so that the chart of denials over
# time has bars at both ends; every fifth alert is seen three times, every
# third record names node=web1 and every seventh node=db2.
import glob
import os
import re
import sys

RX = re.compile(r'^(?:node=\S+ )?type=AVC msg=audit\(\d+\.\d+:\d+\)(: avc:\s+denied\s+\{ ([^}]*) \} for .*)$')
BASE = 1700000000 - 1700000000 % 86400 + 10 * 3600	# a day at 10:00 UTC


def records(corpus):
    seen = set()
    files = sorted(glob.glob(os.path.join(corpus, "*.log")) +
                   glob.glob(os.path.join(corpus, "*.txt")))
    for f in files:
        with open(f, errors="replace") as fh:
            for line in fh:
                m = RX.match(line.rstrip("\n"))
                if not m:
                    continue
                rest = m.group(1)
                ctx = [re.search(k + r"=(\S+)", rest) for k in ("scontext", "tcontext", "tclass")]
                if not all(ctx):
                    continue
                try:
                    key = (ctx[0].group(1).split(":")[2], ctx[1].group(1).split(":")[2],
                           ctx[2].group(1), " ".join(sorted(m.group(2).split())))
                except IndexError:
                    continue
                if key in seen:
                    continue
                seen.add(key)
                yield rest


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "corpus")
    serial = 1000
    lines = []
    for i, rest in enumerate(records(corpus)):
        if i >= n:
            break
        first = n * 3 // 10
        t = BASE + (i * 60 % 3600 if i < first else 2 * 86400 + (i - first) * 60 % 3600)
        times = [t] if i % 5 else [t, t + 600, t + 1200]
        node = "node=web1 " if i % 3 == 1 else "node=db2 " if i % 7 == 6 else ""
        for k, when in enumerate(times):
            serial += 1
            lines.append((when, f"{node}type=AVC msg=audit({when}.{k:03d}:{serial}){rest}"))
    if len(lines) < n:
        sys.exit(f"only {len(lines)} distinct records in {corpus}")
    lines.sort()
    with open(out, "w") as fh:
        fh.write("\n".join(l for _, l in lines) + "\n")


main()
