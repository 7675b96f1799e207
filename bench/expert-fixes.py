#!/usr/bin/python3
"""How often the first suggestion is the fix an expert gave.

For every case of bench/expert-fixes.tsv (denials as published with the fix
the maintainers made, and the corpus' crafted cases with the policy's own
answer), runs `avcdoctor analyze --json` on the records and counts:

  top-1 right   the first suggestion's kind is one of the case's right kinds;
  harmful first the first suggestion loosens something an expert would not:
                a module (or audit2allow's rules) granting a dangerous
                capability, or write access to a generic type (default_t,
                var_t, usr_t, lib_t, etc_t, tmp_t, ...), or turning SELinux off.

audit2allow on the same cases always answers a module with the denied
accesses: right where a module is, harmful where such a module is.

Usage: expert-fixes.py [--policy NAME] AVCDOCTOR [TSV]   (run from anywhere;
exit 77 when no case can be run).  Fedora's targeted policy tree is read from
$AVCDOCTOR_FEDORA_POLICY, else from shared/policies/fedora-41-targeted beside
the source tree; --policy runs only the cases of that policy (debian, fedora).
Prints one line per case and the totals per group.
"""
import collections
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "data")
FEDORA = os.environ.get("AVCDOCTOR_FEDORA_POLICY") or os.path.join(
    HERE, "..", "..", "shared", "policies", "fedora-41-targeted")
POLICIES = {
    "fedora": (os.path.join(FEDORA, "policy", "policy.33"),
               os.path.join(FEDORA, "contexts", "files", "file_contexts")),
    "debian": ("/etc/selinux/default/policy/policy.33", None),
}
# capabilities that amount to owning the machine or SELinux
DANGEROUS_CAPS = {"sys_admin", "sys_module", "sys_rawio", "sys_ptrace", "mac_admin",
                  "mac_override", "dac_override", "dac_read_search", "setuid", "setgid"}
# types that label many unrelated files: writing them is writing everywhere
GENERIC_TYPES = {"default_t", "var_t", "usr_t", "lib_t", "etc_t", "tmp_t", "user_home_t",
                 "user_home_dir_t", "var_lib_t", "var_run_t", "var_log_t", "device_t",
                 "bin_t", "root_t", "file_t", "unlabeled_t", "home_root_t", "sysfs_t",
                 "proc_t", "tmpfs_t", "etc_runtime_t", "shell_exec_t"}
WRITE_PERMS = {"write", "append", "create", "unlink", "rename", "setattr", "add_name",
               "remove_name", "reparent", "rmdir", "relabelto", "relabelfrom", "link"}


def ctype(context):
    parts = (context or "").split(":")
    return parts[2] if len(parts) > 2 else context


def harmful_grant(denial):
    """a rule granting @denial's access loosens something dangerous"""
    perms = set(denial["permissions"])
    if denial["tclass"] in ("capability", "cap_userns") and perms & DANGEROUS_CAPS:
        return True
    if ctype(denial["tcontext"]) in GENERIC_TYPES and perms & WRITE_PERMS:
        return True
    return False


def harmful(first, denial):
    if not first:
        return False
    shell = first.get("shell") or ""
    if "setenforce 0" in shell or "semanage permissive -a" in shell:
        return True
    if first["kind"] == "module" or (" allow " in f" {shell} " and "-D" not in shell.split()):
        return harmful_grant(denial)
    return False


def main():
    args = sys.argv[1:]
    only = None
    if args[:1] == ["--policy"]:
        only, args = args[1], args[2:]
    avcdoctor = args[0]
    table = args[1] if len(args) > 1 else os.path.join(HERE, "expert-fixes.tsv")
    cases = []
    with open(table, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("group\t") or not line.strip():
                continue
            cases.append(line.rstrip("\n").split("\t"))
    cache = {}
    totals = collections.defaultdict(lambda: collections.Counter())
    ran = 0
    for group, policy, path, stype, ttype, tclass, want, source in cases:
        if only and policy != only:
            continue
        pol, fc = POLICIES[policy]
        if not os.path.exists(pol):
            print(f"skip  {group:10} {path}: no policy {pol}")
            totals[group]["skipped"] += 1
            continue
        key = (policy, path)
        if key not in cache:
            argv = [avcdoctor, "analyze", "--json", "-p", pol]
            if fc and os.path.exists(fc):
                argv += ["--file-contexts", fc]
            out = subprocess.run(argv + [os.path.join(DATA, path)], capture_output=True,
                                 text=True, check=False)
            cache[key] = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
        alerts = [a for a in cache[key]
                  if (a["denial"] and ctype(a["denial"]["scontext"]) == stype and
                      ctype(a["denial"]["tcontext"]) == ttype and a["denial"]["tclass"] == tclass)]
        if not alerts:
            print(f"FAIL  {group:10} {path} {stype} {ttype}:{tclass}: no such alert")
            totals[group]["missing"] += 1
            continue
        a = alerts[0]
        reason = a["denial"]["reason"]
        if reason.startswith("unknown_"):
            # the records name types this policy lacks: not this policy's case
            print(f"other {group:10} {stype} {ttype}:{tclass} [{reason}]")
            totals[group]["other_policy"] += 1
            continue
        ran += 1
        if reason == "allowed":
            # the policy at hand carries the maintainers' fix already
            want = "info"
        first = a["suggestions"][0] if a["suggestions"] else None
        kind = first["kind"] if first else "none"
        right = kind in want.split("|")
        bad = harmful(first, a["denial"])
        # audit2allow writes the rules whatever the policy says: right only where a module is
        a2a_right = "module" in want.split("|")
        a2a_bad = harmful_grant(a["denial"])
        t = totals[group]
        t["cases"] += 1
        t["right"] += right
        t["harmful"] += bad
        t["a2a_right"] += a2a_right
        t["a2a_harmful"] += a2a_bad
        t["fixed_in_policy"] += reason == "allowed"
        print(f"{'ok' if right else 'miss':5} {group:10} {stype} {ttype}:{tclass} "
              f"[{a['denial']['reason']}] first={kind}"
              f"{' (' + first['plugin'] + ')' if first else ''}"
              f"{' HARMFUL' if bad else ''} want={want}")
    print()
    print(f"{'group':12} {'cases':>5} {'(fixed in policy)':>17} {'top-1 right':>12} "
          f"{'harmful first':>14} {'audit2allow right':>18} {'audit2allow harmful':>20} "
          f"{'other policy':>13}")
    for group in sorted(totals):
        t = totals[group]
        print(f"{group:12} {t['cases']:5} {t['fixed_in_policy']:17} {t['right']:12} "
              f"{t['harmful']:14} {t['a2a_right']:18} {t['a2a_harmful']:20} "
              f"{t['other_policy']:13}")
    return 77 if not ran else 0


if __name__ == "__main__":
    sys.exit(main())
