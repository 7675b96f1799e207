#!/usr/bin/python3
"""Writes tests/data/pasted/: real AVC records of tests/data/corpus in the
forms they take when people paste them (grep prefixes, mail quoting, mailer
and terminal wrapping, colours, lost letters, no header, ausearch -i dates
of other locales, Markdown, journal lines), and expected.tsv: for every
record, the permissions, scontext, tcontext and tclass of the original.

Deterministic; run from the source tree:  scripts/make-pasted-corpus.py
"""
import os
import re
import textwrap
import time

SRC = "tests/data/corpus"
OUT = "tests/data/pasted"

SOURCES = [
    "selinux-sepolgen-tests-audit.txt",
    "selinux-sepolgen-test_data-short.log",
    "crafted/debian-refpolicy-cases.log",
    "selinux-audit2allow-test.log",
    "selinux-sepolgen-test_data-audit.log",
]

AVC = re.compile(r"avc:\s+(denied|granted)\s+\{ ([^}]*) \}.*?scontext=(\S+) tcontext=(\S+) "
                 r"tclass=(\S+)")
HDR = re.compile(r"^(?:node=\S+ )?type=AVC msg=audit\((\d+)\.(\d+):(\d+)\): ")


def records():
    """(source file, line number, raw AVC line, its SYSCALL line or None)"""
    out = []
    for name in SOURCES:
        with open(os.path.join(SRC, name), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        syscalls = {}
        for line in lines:
            m = re.match(r"^(?:node=\S+ )?type=SYSCALL msg=audit\(([^)]*)\)", line)
            if m:
                syscalls[m.group(1)] = line
        taken = 0
        for no, line in enumerate(lines, 1):
            if not HDR.match(line) or not AVC.search(line) or " type=" in line[9:]:
                continue
            # the big log: every 40th record is enough
            if name.endswith("test_data-audit.log") and no % 40:
                continue
            key = re.match(r"^(?:node=\S+ )?type=AVC msg=audit\(([^)]*)\)", line).group(1)
            out.append((name, no, line, syscalls.get(key)))
            taken += 1
    return out


def expect(line):
    m = AVC.search(line)
    perms = ",".join(sorted(m.group(2).split()))
    return perms, m.group(3), m.group(4), m.group(5)


def strip_node(line):
    return re.sub(r"^node=\S+ ", "", line)


def interpreted(line, datefmt):
    """the record as ausearch -i prints it, with dates in strftime(@datefmt), UTC"""
    m = HDR.match(line)
    sec, msec, serial = int(m.group(1)), m.group(2), m.group(3)
    date = time.strftime(datefmt, time.gmtime(sec))
    body = line[m.end():]
    body = re.sub(r'="([^"]*)"', r"=\1", body)
    return f"type=AVC msg=audit({date}.{msec[:3]}:{serial}) : {body}"


def hard_wrap(line, width):
    return [line[i:i + width] for i in range(0, len(line), width)]


def main():
    recs = records()
    os.makedirs(OUT, exist_ok=True)
    files = {}   # name -> (text, [(source, line, raw)])
    pos = [0]

    def take(n):
        got = [recs[(pos[0] + i) % len(recs)] for i in range(n)]
        pos[0] += n
        return got

    def put(name, text, used, newline="\n"):
        files[name] = (text.replace("\n", newline), used)

    # 1-3: grep output
    used = take(8)
    put("grep-n.txt", "".join(
        f"{no}:{strip_node(l)}\n" + (f"{no + 1}:{strip_node(s)}\n" if s else "")
        for _, no, l, s in used), used)
    used = take(8)
    put("grep-H.txt", "".join(f"audit.log:{strip_node(l)}\n" for _, _, l, _ in used), used)
    used = take(8)
    put("grep-Hn-rotated.txt", "".join(
        f"/var/log/audit/audit.log.1:{no}:{strip_node(l)}\n" for _, no, l, _ in used), used)
    # 4: grep --color=always -H denied
    used = take(8)
    put("grep-color.txt", "".join(
        "\x1b[35m\x1b[Kaudit.log\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K" +
        strip_node(l).replace("denied", "\x1b[01;31m\x1b[Kdenied\x1b[m\x1b[K", 1) + "\n"
        for _, _, l, _ in used), used)
    # 5: a mail reply, quoted twice
    used = take(8)
    text = "On Tue, 19 Nov 2024, Jane wrote:\n> Hi, after the update I see these:\n>\n"
    for i, (_, _, l, s) in enumerate(used):
        q = ">> " if i % 2 else "> "
        text += f"{q}{l}\n" + (f"{q}{s}\n" if s else "")
    text += "\nThanks, that helped.\n"
    put("mail-quoted.txt", text, used)
    # 6: a mailer wrapped at 72 columns, at spaces
    used = take(10)
    text = "Hello list,\n\nmy httpd does not start, the log says:\n\n"
    for _, _, l, _ in used:
        text += "\n".join(textwrap.wrap(strip_node(l), 72, break_long_words=False,
                                        break_on_hyphens=False)) + "\n"
    text += "\nAny idea?\n-- \nJohn\n"
    put("mail-wrapped-72.txt", text, used)
    # 7: the same, quoted in a reply
    used = take(8)
    text = "John wrote:\n"
    for _, _, l, _ in used:
        text += "".join("> " + w + "\n" for w in textwrap.wrap(
            strip_node(l), 76, break_long_words=False, break_on_hyphens=False))
    put("mail-quoted-wrapped.txt", text, used)
    # 8: copied from an 80-column terminal: hard wraps inside values
    used = take(8)
    text = "$ sudo grep denied /var/log/audit/audit.log\n"
    for _, _, l, _ in used:
        text += "\n".join(hard_wrap(strip_node(l), 80)) + "\n"
    text += "$ \n"
    put("terminal-80.txt", text, used)
    # 9: the first letter lost in the selection
    used = take(8)
    put("lost-letter.txt", "".join(
        "Log:\n" + strip_node(l)[1:] + "\n" + (strip_node(s)[1:] + "\n" if s else "")
        for _, _, l, s in used), used)
    # 10: a header without its audit(...)
    used = take(8)
    put("no-header.txt", "".join("type=AVC " + l[l.index("avc:"):] + "\n"
                                 for _, _, l, _ in used), used)
    # 11: bare avc lines, as forums quote them from dmesg or the journal
    used = take(8)
    put("bare-avc.txt", "I get:\n\n" + "".join(
        "    " + l[l.index("avc:"):] + "\n" for _, _, l, _ in used), used)
    # 12-15: ausearch -i under other locales (UTC)
    used = take(8)
    put("ausearch-i-de.txt", "".join(
        "----\n" + interpreted(l, "%d.%m.%Y %H:%M:%S") + "\n" for _, _, l, _ in used), used)
    used = take(8)
    put("ausearch-i-gb.txt", "".join(
        "----\n" + interpreted(l, "%d/%m/%y %H:%M:%S") + "\n" for _, _, l, _ in used), used)
    used = take(8)
    put("ausearch-i-iso.txt", "".join(
        "----\n" + interpreted(l, "%Y-%m-%d %H:%M:%S") + "\n" for _, _, l, _ in used), used)
    used = take(8)
    put("ausearch-i-ru.txt", "".join(
        "----\n" + interpreted(l, "%d.%m.%y %H:%M:%S") + "\n" for _, _, l, _ in used), used)
    # 16: a Markdown issue with a fence, CRLF line ends
    used = take(8)
    text = "### Steps\n\nThe denials:\n\n```\n" + "".join(
        strip_node(l) + "\n" for _, _, l, _ in used) + "```\n"
    put("markdown-crlf.md", text, used, "\r\n")
    # 17: journal lines
    used = take(8)
    put("journal.txt", "".join(
        f"Nov 19 15:26:{i:02d} web1 kernel: audit: type=1400 " +
        strip_node(l).replace("type=AVC msg=audit(", "audit(", 1) + "\n"
        for i, (_, _, l, _) in enumerate(used)), used)
    # 18: newlines lost (a forum or a chat joined the lines): records run together
    used = take(8)
    text = ""
    for i in range(0, len(used), 2):
        pair = used[i:i + 2]
        text += " ".join(strip_node(l) + (" " + strip_node(s) if s else "")
                         for _, _, l, s in pair) + "\n"
    put("run-together.txt", text, used)
    # 19: journald's lines with their breaks lost: two a line
    used = take(8)
    text = ""
    for i in range(0, len(used), 2):
        text += " ".join(
            f"Nov 19 15:27:{i + j:02d} web1 audit[{100 + i + j}]: AVC " + l[l.index("avc:"):]
            for j, (_, _, l, _) in enumerate(used[i:i + 2])) + "\n"
    put("journal-run-together.txt", text, used)
    # 20: an ausearch -i record and a raw one on one line; a raw one and a journal one
    used = take(8)
    text = ""
    for i in range(0, len(used), 2):
        (_, _, a, _), (_, _, b, _) = used[i:i + 2]
        if i % 4 == 0:
            text += interpreted(a, "%m/%d/%Y %H:%M:%S") + " " + strip_node(b) + "\n"
        else:
            text += (strip_node(a) + f" Nov 19 15:28:{i:02d} web1 audit[{200 + i}]: AVC " +
                     b[b.index("avc:"):] + "\n")
    put("mixed-run-together.txt", text, used)
    # 21: ausearch -i values with blanks (a file deleted since: "path=/x (deleted)", a
    # thread named "rs:main Q:Reg"), the records wrapped by a mailer at 72 columns
    used = take(8)
    text = "ausearch -m avc -i says:\n\n"
    for i, (_, _, l, _) in enumerate(used):
        rec = interpreted(l, "%m/%d/%Y %H:%M:%S")
        rec = re.sub(r" (path|name)=(\S+)", r" \1=\2 (deleted)", rec, count=1)
        if i % 2:
            rec = re.sub(r" comm=(\S+)", r" comm=\1 Q:Reg", rec, count=1)
        text += "\n".join(textwrap.wrap(rec, 72, break_long_words=False,
                                        break_on_hyphens=False)) + "\n----\n"
    put("ausearch-i-blanks-wrapped.txt", text, used)
    # 22: one field per line, as a ticket form takes them
    used = take(8)
    text = "Denials seen (from the form):\n"
    for _, _, l, _ in used:
        m = AVC.search(l)
        text += f"\n- avc: {m.group(1)} {{ {m.group(2)} }}\n"
        for key in ("pid", "comm", "name", "path", "scontext", "tcontext", "tclass",
                    "permissive"):
            v = re.search(r" " + key + r"=(\"[^\"]*\"|\S+)", l)
            if v:
                text += f"- {key}={v.group(1)}\n"
    put("fields-per-line.txt", text, used)

    origins = []
    with open(os.path.join(OUT, "expected.tsv"), "w", encoding="utf-8") as exp:
        exp.write("# file\tpermissions\tscontext\ttcontext\ttclass\tfrom\n")
        for name in sorted(files):
            text, used = files[name]
            with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="") as f:
                f.write(text)
            for src, no, line, _ in used:
                exp.write("\t".join((name,) + expect(line) + (f"{src}:{no}",)) + "\n")
            origins.append((name, len(used), sorted({u[0] for u in used})))
    with open(os.path.join(OUT, "origins.txt"), "w", encoding="utf-8") as f:
        for name, n, srcs in origins:
            f.write(f"{name}\t{n}\t{' '.join(srcs)}\n")


if __name__ == "__main__":
    main()
