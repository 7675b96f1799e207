#!/usr/bin/env python3
"""N denial events with N distinct signatures: one alert each in `analyze`.

Usage: distinct.py N TYPES > LOG
TYPES is a binary policy (its type names are taken from it) or a text file of
type names, one a line.
Each event is AVC + SYSCALL + CWD + PATH + PROCTITLE (about 1.1 KB, like
bench/gen-log.py's file events); event i pairs the i-th source and target
type of TYPES (sorted) so that no two events share (source type, target
type).  Deterministic.
"""
import re
import sys

n = int(sys.argv[1])
data = open(sys.argv[2], "rb").read()
if data[:4] == b"\x8c\xff\x7c\xf9":   # SELinux binary policy magic, little-endian
    types = sorted({t.decode() for t in
                    re.findall(rb"(?<![a-z0-9_])[a-z][a-z0-9_]+_t(?![a-z0-9_])", data)})
else:
    types = [t.strip() for t in data.decode().splitlines() if t.strip()]
k = len(types)
if k * k < n:
    sys.exit("need more types: %d^2 < %d" % (k, n))
out = sys.stdout
buf = []
for i in range(n):
    s, t = types[i % k], types[(i // k + i) % k]
    stamp = "audit(%d.%03d:%d)" % (1700000000 + i // 100, (i % 100) * 10, 1000 + i)
    name = "f%07d.dat" % i
    buf.append(
        'type=AVC msg=%s: avc:  denied  { read } for  pid=%d comm="worker" name="%s" '
        'dev="sda1" ino=%d scontext=system_u:system_r:%s:s0 '
        'tcontext=system_u:object_r:%s:s0 tclass=file permissive=0\n'
        'type=SYSCALL msg=%s: arch=c000003e syscall=257 success=no exit=-13 a0=ffffff9c '
        'a1=7ffdea605955 a2=0 a3=0 items=1 ppid=1 pid=%d auid=4294967295 uid=0 gid=0 euid=0 '
        'suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=4294967295 comm="worker" '
        'exe="/usr/sbin/worker" subj=system_u:system_r:%s:s0 key=(null)\n'
        'type=CWD msg=%s: cwd="/"\n'
        'type=PATH msg=%s: item=0 name="/srv/data/%s" inode=%d dev=08:01 mode=0100644 '
        'ouid=0 ogid=0 rdev=00:00 obj=system_u:object_r:%s:s0 nametype=NORMAL cap_fp=0 '
        'cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0\n'
        'type=PROCTITLE msg=%s: proctitle=2F7573722F7362696E2F776F726B6572002D2D6461656D6F6E\n'
        % (stamp, 10000 + i % 50000, name, 100000 + i, s, t, stamp, 10000 + i % 50000, s,
           stamp, stamp, name, 100000 + i, t, stamp))
    if len(buf) >= 1000:
        out.write("".join(buf))
        buf = []
out.write("".join(buf))
