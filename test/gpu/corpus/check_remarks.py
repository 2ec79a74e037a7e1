#!/usr/bin/env python3
"""Checks the SMC plugin's remarks on a corpus source (ctest corpus_remarks).

Runs the compile command given after '--' (clang with the plugin and
-Rpass=smc -Rpass-missed=smc), or reads remarks saved in a file
(--remarks FILE), and fails (exit 1) when
  - the compile fails,
  - there is no SMC remark at all (the plugin did not run), or
  - a kernel is refused without a reason: a -Rpass-missed=smc remark that
    does not read "kernel 'K': no __V variant: <reason> (<detail>)" with a
    known reason and a non-empty detail.
Prints every refusal with its reason, and the number of variants built.

USAGE: check_remarks.py -- <compile command...>
       check_remarks.py --remarks <file>
"""
import re
import subprocess
import sys

MISSED = "[-Rpass-missed=smc]"
BUILT = "[-Rpass=smc]"
REFUSAL = re.compile(
    r"remark: kernel '(?P<kernel>.+?)': no (?P<variant>__\w+) variant: "
    r"(?P<reason>[^()]*?) \((?P<detail>.*)\) \[-Rpass-missed=smc\]")
NO_REASON = {"", "none", "unknown reason"}


def main(argv):
    if len(argv) >= 2 and argv[0] == "--remarks":
        with open(argv[1], encoding="utf-8", errors="replace") as f:
            text = f.read()
    elif argv and argv[0] == "--":
        proc = subprocess.run(argv[1:], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace")
        text = proc.stdout
        if proc.returncode != 0:
            print(text[-6000:])
            print(f"corpus_remarks: the compile failed (exit {proc.returncode})")
            return 1
    else:
        print(__doc__)
        return 2

    lines = text.splitlines()
    built = [l for l in lines if BUILT in l and "remark:" in l]
    missed = [l for l in lines if MISSED in l and "remark:" in l]
    bad = []
    for line in missed:
        m = REFUSAL.search(line)
        if (not m or m["reason"].strip() in NO_REASON or
                not m["detail"].strip()):
            bad.append(line)
        else:
            print(f"refused: {m['kernel']} {m['variant']}: {m['reason']} "
                  f"({m['detail']})")
    print(f"corpus_remarks: {len(built)} built remarks, {len(missed)} "
          f"refusals, {len(bad)} without a reason")
    if not built and not missed:
        print("corpus_remarks: no SMC remark at all: did the plugin run?")
        return 1
    for line in bad:
        print(f"corpus_remarks: refused without a reason: {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
