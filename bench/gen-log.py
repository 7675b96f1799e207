#!/usr/bin/env python3
"""Generate raw audit logs for benchmarking avcdoctor against audit2why.

Deterministic for a given --seed (standard library only).  Every event is one
denial as the kernel writes it: AVC + SYSCALL (+ CWD + PATH for files,
+ SOCKADDR for sockets) + PROCTITLE, all records of an event sharing one
msg=audit(SEC.MSEC:SERIAL) header.  Contexts, classes and permissions are valid
in Debian 12's refpolicy (selinux-policy-default 2:2.20221101, policy.33, MCS),
so both tools really analyse every record (no BADSCON short-cuts); the mix
covers te_rule, boolean (single and combined), constraint and MCS cases.

Modes (exactly one):
  --spread N  N events, one every ~10 ms (distinct seconds, like a busy day)
  --flood N   N events all in the SAME timestamp second, distinct serials
              (a denial storm: what makes libauparse 3.0.9 quadratic)
  --mcs N     N sVirt events, each source and target with its own distinct
              MCS pair s0:cX,cY (2N distinct contexts: libsepol sidtab growth)
  --names N   N file events, every one with a distinct file name/path
"""

import argparse
import random
import sys

BASE_TIME = 1700000000  # 2023-11-14 22:13:20 UTC, fixed so that output is reproducible
ARCH = "c000003e"       # x86_64

# syscall numbers (x86_64)
SYS_OPENAT, SYS_STAT, SYS_MKDIR, SYS_CONNECT, SYS_EXECVE = 257, 4, 83, 42, 59

USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
HOME_SEUSERS = ["staff_u", "user_u", "unconfined_u", "sysadm_u"]
WORDS = ["index", "report", "notes", "photo", "draft", "budget", "todo", "backup",
         "music", "invoice", "thesis", "readme", "config", "data", "archive", "cv"]
EXTS = ["html", "txt", "pdf", "jpg", "odt", "csv", "tar.gz", "md"]

HTTPD = dict(comm="apache2", exe="/usr/sbin/apache2", argv=["/usr/sbin/apache2", "-k", "start"],
             scon="system_u:system_r:httpd_t:s0", uid=33)


def home_file(rng, i, distinct):
    user = rng.choice(USERS)
    word = rng.choice(WORDS)
    ext = rng.choice(EXTS)
    base = f"{word}-{i}.{ext}" if distinct else f"{word}.{ext}"
    sub = rng.choice(["public_html", "Documents", "www", ""])
    d = f"/home/{user}/{sub}" if sub else f"/home/{user}"
    tcon = f"{rng.choice(HOME_SEUSERS)}:object_r:user_home_t:s0"
    return d, base, tcon, 1000 + USERS.index(user)


# --- templates -------------------------------------------------------------
# Each template returns a dict describing one denial; the writer turns it into records.
# Checked against policy.33 with audit2why 3.4 (reason in the comment).

def t_httpd_user_home(rng, i, distinct):   # boolean httpd_read_user_content
    d, base, tcon, ouid = home_file(rng, i, distinct)
    return dict(HTTPD, kind="file", perms=["read"], tcon=tcon, tclass="file",
                dirname=d, name=base, ouid=ouid, mode="0100644", syscall=SYS_OPENAT)


def t_httpd_shadow(rng, i, distinct):      # te_rule
    name = f"shadow-{i}" if distinct else rng.choice(["shadow", "gshadow", "shadow-"])
    return dict(HTTPD, kind="file", perms=["read"], tcon="system_u:object_r:shadow_t:s0",
                tclass="file", dirname="/etc", name=name, ouid=0, mode="0100640",
                syscall=SYS_OPENAT)


def t_httpd_upload_dir(rng, i, distinct):  # boolean combination (httpd_unified ...)
    name = f"upload-{i}" if distinct else rng.choice(["upload", "cache", "sessions"])
    return dict(HTTPD, kind="file", perms=["write", "add_name"][: rng.choice([1, 2])],
                tcon="system_u:object_r:httpd_sys_content_t:s0", tclass="dir",
                dirname="/var/www/html", name=name, ouid=33, mode="040755", syscall=SYS_MKDIR)


def t_smbd_home(rng, i, distinct):         # boolean samba_enable_home_dirs / export_all
    d, base, tcon, ouid = home_file(rng, i, distinct)
    return dict(comm="smbd", exe="/usr/sbin/smbd", argv=["/usr/sbin/smbd", "--foreground", "--no-process-group"],
                scon="system_u:system_r:smbd_t:s0", uid=0, kind="file",
                perms=rng.choice([["read"], ["read", "open"], ["getattr"]]), tcon=tcon,
                tclass="file", dirname=d, name=base, ouid=ouid, mode="0100644",
                syscall=SYS_OPENAT)


def t_ftpd_home(rng, i, distinct):         # boolean ftp_home_dir / allow_ftpd_full_access
    d, base, tcon, ouid = home_file(rng, i, distinct)
    return dict(comm="vsftpd", exe="/usr/sbin/vsftpd", argv=["/usr/sbin/vsftpd", "/etc/vsftpd.conf"],
                scon="system_u:system_r:ftpd_t:s0", uid=0, kind="file", perms=["read"],
                tcon=tcon, tclass="file", dirname=d, name=base, ouid=ouid, mode="0100644",
                syscall=SYS_OPENAT)


def t_named_etc(rng, i, distinct):         # te_rule
    name = f"named-{i}.conf" if distinct else rng.choice(["resolv.conf", "hosts", "named.conf"])
    return dict(comm="named", exe="/usr/sbin/named", argv=["/usr/sbin/named", "-f", "-u", "bind"],
                scon="system_u:system_r:named_t:s0", uid=105, kind="file", perms=["write"],
                tcon="system_u:object_r:etc_t:s0", tclass="file", dirname="/etc", name=name,
                ouid=0, mode="0100644", syscall=SYS_OPENAT)


def t_mysqld_home(rng, i, distinct):       # te_rule
    d, base, tcon, ouid = home_file(rng, i, distinct)
    return dict(comm="mysqld", exe="/usr/sbin/mariadbd", argv=["/usr/sbin/mariadbd"],
                scon="system_u:system_r:mysqld_t:s0", uid=106, kind="file", perms=["read"],
                tcon=tcon, tclass="file", dirname=d, name=base, ouid=ouid, mode="0100644",
                syscall=SYS_OPENAT)


def t_ntpd_log(rng, i, distinct):          # te_rule
    name = f"ntp-{i}.drift" if distinct else "ntp.drift"
    return dict(comm="ntpd", exe="/usr/sbin/ntpd", argv=["/usr/sbin/ntpd", "-p", "/run/ntpd.pid", "-g", "-u", "108:113"],
                scon="system_u:system_r:ntpd_t:s0", uid=0, kind="file", perms=["read"],
                tcon="system_u:object_r:var_log_t:s0", tclass="file", dirname="/var/log",
                name=name, ouid=0, mode="0100644", syscall=SYS_OPENAT)


def t_cupsd_tmp(rng, i, distinct):         # te_rule
    name = f"cups-{i}" if distinct else "tmp"
    return dict(comm="cupsd", exe="/usr/sbin/cupsd", argv=["/usr/sbin/cupsd", "-l"],
                scon="system_u:system_r:cupsd_t:s0-s0:c0.c1023", uid=0, kind="file",
                perms=["write"], tcon="staff_u:object_r:user_tmp_t:s0", tclass="dir",
                dirname="/tmp", name=name, ouid=1000, mode="041777", syscall=SYS_MKDIR)


def t_sshd_keys(rng, i, distinct):         # te_rule
    user = rng.choice(USERS)
    name = f"authorized_keys.{i}" if distinct else "authorized_keys"
    return dict(comm="sshd", exe="/usr/sbin/sshd", argv=["sshd:", user, "[priv]"],
                scon="system_u:system_r:sshd_t:s0-s0:c0.c1023", uid=0, kind="file",
                perms=["read"], tcon=f"{rng.choice(HOME_SEUSERS)}:object_r:user_home_t:s0",
                tclass="file", dirname=f"/home/{user}/.ssh", name=name,
                ouid=1000 + USERS.index(user), mode="0100600", syscall=SYS_OPENAT)


def t_cdrecord_cifs(rng, i, distinct):     # boolean combination use_samba_home_dirs && cdrecord_read_content
    name = f"image-{i}.iso" if distinct else rng.choice(["x.iso", "debian.iso", "backup.iso"])
    user = rng.choice(USERS)
    return dict(comm="cdrecord", exe="/usr/bin/wodim", argv=["cdrecord", "-v", "dev=/dev/sr0", name],
                scon="staff_u:staff_r:cdrecord_t:s0", uid=1000 + USERS.index(user), kind="file",
                perms=["read"], tcon="system_u:object_r:cifs_t:s0", tclass="file",
                dirname=f"/home/{user}/nas", name=name, ouid=0, mode="0100755",
                syscall=SYS_OPENAT, dev="cifs")


def t_staff_dirmngr(rng, i, distinct):     # constraint (role change)
    return dict(comm="bash", exe="/usr/bin/bash", argv=["-bash"], scon="root:staff_r:staff_t:s0",
                uid=0, kind="exec", perms=["transition"], tcon="root:system_r:dirmngr_t:s0",
                tclass="process", dirname="/usr/bin", name="dirmngr", ouid=0, mode="0100755",
                syscall=SYS_EXECVE)


PORTS = [  # (port, type) - httpd_t name_connect: booleans httpd_can_network_connect(_db), _relay, sendmail
    (8080, "http_cache_port_t"), (3128, "http_cache_port_t"), (5432, "postgresql_port_t"),
    (3306, "mysqld_port_t"), (25, "smtp_port_t"), (587, "smtp_port_t"),
]


def t_httpd_connect(rng, i, distinct):
    port, ptype = rng.choice(PORTS)
    return dict(HTTPD, kind="net", perms=["name_connect"], tcon=f"system_u:object_r:{ptype}:s0",
                tclass="tcp_socket", port=port, syscall=SYS_CONNECT)


# weights: a web server heavy log, as on a typical LAMP box
TEMPLATES = [
    (t_httpd_user_home, 20), (t_httpd_connect, 20), (t_httpd_shadow, 6), (t_httpd_upload_dir, 8),
    (t_smbd_home, 8), (t_ftpd_home, 6), (t_named_etc, 5), (t_mysqld_home, 5), (t_ntpd_log, 4),
    (t_cupsd_tmp, 4), (t_sshd_keys, 6), (t_cdrecord_cifs, 4), (t_staff_dirmngr, 4),
]
FILE_TEMPLATES = [(t, w) for t, w in TEMPLATES if t not in (t_httpd_connect, t_staff_dirmngr)]


# --- MCS (sVirt): svirt_t of one VM touching another VM's image -> mlsconstrain ------
def mcs_pairs(rng, count):
    """count distinct category pairs (x<y) drawn from c0..c1023, in seeded order."""
    total = 1024 * 1023 // 2
    if count > total:
        sys.exit(f"--mcs: at most {total // 2} events (distinct pairs)")
    out = []
    for k in rng.sample(range(total), count):
        # unrank k -> (x, y), x < y
        x = 0
        row = 1023
        while k >= row:
            k -= row
            x += 1
            row -= 1
        out.append((x, x + 1 + k))
    return out


def t_svirt(rng, i, pair_s, pair_t):
    vm = f"vm{i}"
    perms = rng.choice([["read"], ["read", "write"], ["open"], ["append"]])
    return dict(comm="qemu-system-x86", exe="/usr/bin/qemu-system-x86_64",
                argv=["/usr/bin/qemu-system-x86_64", "-name", f"guest={vm}", "-S"],
                scon=f"system_u:system_r:svirt_t:s0:c{pair_s[0]},c{pair_s[1]}", uid=64055,
                kind="file", perms=perms,
                tcon=f"system_u:object_r:svirt_image_t:s0:c{pair_t[0]},c{pair_t[1]}",
                tclass="file", dirname="/var/lib/libvirt/images", name=f"{vm}-disk.qcow2",
                ouid=64055, mode="0100600", syscall=SYS_OPENAT)


# --- record writer -----------------------------------------------------------
def untrusted(value):
    """Kernel audit_log_untrustedstring: quoted unless it needs hex encoding."""
    raw = value.encode()
    if any(b <= 0x20 or b >= 0x7f or b == 0x22 for b in raw):
        return raw.hex().upper()
    return f'"{value}"'


def proctitle(argv):
    raw = b"\0".join(a.encode() for a in argv)
    if len(argv) == 1 and b" " not in raw and b'"' not in raw:
        return f'"{argv[0]}"'
    return raw.hex().upper()


def emit(out, ev, sec, msec, serial, pid, ino):
    hdr = f"msg=audit({sec}.{msec:03d}:{serial}):"
    perms = " ".join(ev["perms"])
    kind = ev["kind"]
    uid = ev["uid"]
    if kind == "net":
        obj = f'dest={ev["port"]}'
    elif kind == "exec":
        obj = f'path={untrusted(ev["dirname"] + "/" + ev["name"])} dev="sda1" ino={ino}'
    else:
        obj = f'name={untrusted(ev["name"])} dev="{ev.get("dev", "sda1")}" ino={ino}'
    out.append(f'type=AVC {hdr} avc:  denied  {{ {perms} }} for  pid={pid} comm={untrusted(ev["comm"])} '
               f'{obj} scontext={ev["scon"]} tcontext={ev["tcon"]} tclass={ev["tclass"]} permissive=0\n')
    items = 0 if kind == "net" else (2 if kind == "exec" else 1)
    a0 = "ffffff9c" if ev["syscall"] in (SYS_OPENAT, SYS_MKDIR) else "3"
    out.append(f'type=SYSCALL {hdr} arch={ARCH} syscall={ev["syscall"]} success=no exit=-13 a0={a0} '
               f'a1=7ffd{(ino * 2654435761) & 0xffffffff:08x} a2=80000 a3=0 items={items} ppid=1 pid={pid} '
               f'auid=4294967295 uid={uid} gid={uid} euid={uid} suid={uid} fsuid={uid} egid={uid} sgid={uid} '
               f'fsgid={uid} tty=(none) ses=4294967295 comm={untrusted(ev["comm"])} exe={untrusted(ev["exe"])} '
               f'subj={ev["scon"]} key=(null)\n')
    if kind == "net":
        port = ev["port"]
        out.append(f"type=SOCKADDR {hdr} saddr=0200{port:04X}7F0000010000000000000000\n")
    else:
        out.append(f'type=CWD {hdr} cwd="/"\n')
        path = ev["dirname"] + "/" + ev["name"]
        out.append(f'type=PATH {hdr} item=0 name={untrusted(path)} inode={ino} dev=08:01 mode={ev["mode"]} '
                   f'ouid={ev["ouid"]} ogid={ev["ouid"]} rdev=00:00 obj={ev["tcon"]} nametype=NORMAL '
                   f'cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0\n')
        if kind == "exec":
            out.append(f'type=PATH {hdr} item=1 name="/lib64/ld-linux-x86-64.so.2" inode=1311 dev=08:01 '
                       f'mode=0100755 ouid=0 ogid=0 rdev=00:00 obj=system_u:object_r:ld_so_t:s0 '
                       f'nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0\n')
    out.append(f"type=PROCTITLE {hdr} proctitle={proctitle(ev['argv'])}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--spread", type=int, metavar="N")
    mode.add_argument("--flood", type=int, metavar="N")
    mode.add_argument("--mcs", type=int, metavar="N")
    mode.add_argument("--names", type=int, metavar="N")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("-o", "--output", default="-", help="output file (default stdout)")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    n = next(v for v in (args.spread, args.flood, args.mcs, args.names) if v is not None)
    if n < 0:
        sys.exit("N must be >= 0")
    pool = FILE_TEMPLATES if args.names is not None else TEMPLATES
    funcs = [t for t, _ in pool]
    weights = [w for _, w in pool]
    pairs = mcs_pairs(rng, 2 * n) if args.mcs is not None else None

    f = sys.stdout if args.output == "-" else open(args.output, "w", encoding="ascii", newline="\n")
    serial = 1000 + rng.randrange(1000)
    pid_base = 1000 + rng.randrange(30000)
    buf = []
    t_ms = 0
    for i in range(n):
        if args.flood is not None:
            sec, msec = BASE_TIME, (i * 1000) // max(n, 1)       # one second, distinct serials
        else:
            t_ms += 8 + rng.randrange(5)                          # ~10 ms apart (8..12)
            sec, msec = BASE_TIME + t_ms // 1000, t_ms % 1000
        if pairs is not None:
            ev = t_svirt(rng, i, pairs[2 * i], pairs[2 * i + 1])
        else:
            ev = rng.choices(funcs, weights)[0](rng, i, args.names is not None)
        emit(buf, ev, sec, msec, serial + i, pid_base + rng.randrange(64), 100000 + rng.randrange(900000))
        if len(buf) > 4096:
            f.write("".join(buf))
            buf.clear()
    f.write("".join(buf))
    if f is not sys.stdout:
        f.close()


if __name__ == "__main__":
    main()
