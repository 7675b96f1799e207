#!/usr/bin/env python3
"""N AVC denials sharing ONE event stamp audit(SEC.MSEC:42) (--same), or the
same N denials each in an event of its own (--spread), with a SYSCALL, CWD and
PATH record per denial: the input of bench/same-serial.sh."""

import sys

mode, n = sys.argv[1], int(sys.argv[2])
out = sys.stdout
for i in range(n):
    serial = 42 if mode == "--same" else 42 + i
    stamp = "audit(1700000000.000:%d)" % serial
    out.write('type=AVC msg=%s: avc:  denied  { read } for  pid=%d comm="cat" '
              'name="f%d" dev="sda1" ino=%d scontext=system_u:system_r:httpd_t:s0 '
              'tcontext=system_u:object_r:shadow_t:s0 tclass=file permissive=0\n'
              % (stamp, 1000 + i % 30000, i, 10000 + i))
    out.write('type=SYSCALL msg=%s: arch=c000003e syscall=257 success=no exit=-13 '
              'a0=ffffff9c a1=0 a2=0 a3=0 items=1 ppid=1 pid=%d auid=0 uid=0 gid=0 '
              'euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm="cat" '
              'exe="/usr/bin/cat" subj=system_u:system_r:httpd_t:s0 key=(null)\n'
              % (stamp, 1000 + i % 30000))
    out.write('type=CWD msg=%s: cwd="/root"\n' % stamp)
    out.write('type=PATH msg=%s: item=0 name="/etc/f%d" inode=%d dev=08:01 mode=0100640 '
              'ouid=0 ogid=0 rdev=00:00 obj=system_u:object_r:shadow_t:s0 nametype=NORMAL\n'
              % (stamp, i, 10000 + i))
