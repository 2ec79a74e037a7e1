#!/usr/bin/env python3
# ===- smc_profile_test.py - scripts/smc-profile without a GPU --------------===#
#
# Runs scripts/smc-profile on a stand-in program that does what the runtime
# does under SMC_PROFILE_RECORD (adds samples to the file), and checks what
# the script promises: the program runs -n times with SMC_PROFILE_RECORD set
# to the output file, SMC_POLICY='*=auto' unless the user set a policy,
# SMC_PROFILE unset; samples of the runs add up; the summary names each
# configuration and its points and warns about a curve of one SM count; a
# failing run stops it with that run's status; no program is a usage error.
#
# USAGE: smc_profile_test.py path/to/scripts/smc-profile
# ===------------------------------------------------------------------------===#
import json
import os
import subprocess
import sys
import tempfile

FAKE = r'''
import json, os, sys
path = os.environ["SMC_PROFILE_RECORD"]
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write("%s|%s|%s\n" % (os.environ.get("SMC_POLICY"),
                             os.environ.get("SMC_PROFILE"), path))
try:
    profile = json.load(open(path))
except (OSError, ValueError):
    profile = {"format": "smc-profile", "version": 1, "device": "fake",
               "sms": 132, "kernels": []}
kernels = {k["name"]: k for k in profile["kernels"]}
for name, sms in (("wide grid=8x1x1 block=32x1x1", (132, 66)),
                  ("narrow grid=1x1x1 block=32x1x1", (132,))):
    k = kernels.setdefault(name, {"name": name, "points": []})
    for s in sms:
        pts = [p for p in k["points"] if p["sms"] == s]
        if pts:
            pts[0]["samples"] += 1
        else:
            k["points"].append({"sms": s, "workers": 0,
                                "seconds": 1e-3 * 132 / s, "samples": 1})
profile["kernels"] = list(kernels.values())
json.dump(profile, open(path, "w"))
sys.exit(int(os.environ.get("FAKE_STATUS", "0")))
'''


def main():
    script = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "fake.py")
        open(fake, "w").write(FAKE)
        log = os.path.join(tmp, "log")
        out = os.path.join(tmp, "p.json")
        env = dict(os.environ, FAKE_LOG=log, SMC_PROFILE="/should/be/unset")
        env.pop("SMC_POLICY", None)

        r = subprocess.run([sys.executable, script, "-o", out, "-n", "3",
                            "--", sys.executable, fake], env=env,
                           capture_output=True, text=True)
        lines = open(log).read().splitlines()
        if r.returncode != 0:
            problems.append("exit status %d: %s" % (r.returncode, r.stderr))
        if len(lines) != 3:
            problems.append("the program ran %d times, not 3" % len(lines))
        for line in lines:
            policy, profile, path = line.split("|")
            if policy != "*=auto":
                problems.append("SMC_POLICY was %r, not '*=auto'" % policy)
            if profile != "None":
                problems.append("SMC_PROFILE was set: %r" % profile)
            if path != os.path.abspath(out):
                problems.append("SMC_PROFILE_RECORD was %r" % path)
        samples = {k["name"]: [p["samples"] for p in k["points"]]
                   for k in json.load(open(out))["kernels"]}
        if samples.get("wide grid=8x1x1 block=32x1x1") != [3, 3]:
            problems.append("samples did not add up over runs: %r" % samples)
        for want in ("2 launch configurations",
                     "wide grid=8x1x1 block=32x1x1: 132 SMs 1.000 ms (3), "
                     "66 SMs 2.000 ms (3)",
                     "narrow grid=1x1x1 block=32x1x1: 132 SMs 1.000 ms (3)"
                     "  [fewer than two SM counts"):
            if want not in r.stdout:
                problems.append("the summary lacks %r:\n%s" % (want, r.stdout))

        # The user's policy is kept.
        open(log, "w").close()
        r = subprocess.run([sys.executable, script, "-o", out, "-n", "1",
                            "--quiet", "--", sys.executable, fake],
                           env=dict(env, SMC_POLICY="k=auto"),
                           capture_output=True, text=True)
        if open(log).read().split("|")[0] != "k=auto":
            problems.append("the user's SMC_POLICY was not kept")
        if r.stdout:
            problems.append("--quiet printed %r" % r.stdout)

        # A failing run stops it with its status.
        open(log, "w").close()
        r = subprocess.run([sys.executable, script, "-o", out, "-n", "3",
                            "--", sys.executable, fake],
                           env=dict(env, FAKE_STATUS="5"),
                           capture_output=True, text=True)
        if r.returncode != 5 or "run 1 of" not in r.stderr:
            problems.append("a failing run gave status %d, %r" %
                            (r.returncode, r.stderr))
        if len(open(log).read().splitlines()) != 1:
            problems.append("runs went on after a failure")

        # No program.
        r = subprocess.run([sys.executable, script, "-o", out],
                           capture_output=True, text=True)
        if r.returncode != 2 or "no program given" not in r.stderr:
            problems.append("no program: status %d, %r" % (r.returncode,
                                                           r.stderr))
    for p in problems:
        print("FAIL: " + p)
    print("smc_profile_test.py: %s" % ("FAILED" if problems else "OK"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
