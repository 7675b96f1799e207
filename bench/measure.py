#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""measure.py OUT CMD...: runs CMD and writes "SECONDS s KIB KiB" to OUT.

Wall-clock time to the millisecond (GNU time's %e has 10 ms steps, a
twentieth of a 0.2 s run) and the peak resident set size of CMD and every
process it waited for (wait4 reports the child's own and its children's
maximum).  The exit status is CMD's.  stdin, stdout and stderr are CMD's.
"""
import os
import sys
import time


def timed(cmd, out_path):
    """Runs CMD with stdout to OUT_PATH and stderr to /dev/null; returns
    (wall-clock seconds, CPU seconds: user + system, exit status)."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        err = os.open(os.devnull, os.O_WRONLY)
        os.dup2(out, 1)
        os.dup2(err, 2)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    return (time.perf_counter() - start, usage.ru_utime + usage.ru_stime,
            os.waitstatus_to_exitcode(status))


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: measure.py OUT CMD [ARG...]\n")
        return 2
    out, cmd = sys.argv[1], sys.argv[2:]
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        except OSError as e:
            sys.stderr.write(f"measure.py: {cmd[0]}: {e.strerror}\n")
        os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    with open(out, "w") as f:
        f.write(f"{seconds:.3f} s {usage.ru_maxrss} KiB\n")
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main())
