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
# --ncu runs a fake ncu (FAKE_NCU, a stand-in for Nsight Compute) that checks
# its options and SMC_DISABLE=1, runs the program and prints what ncu --csv
# --page raw prints: ==PROF== lines, the program's output, the header, a
# units row, launches.  Checked: the program runs once, launches of a
# configuration are averaged, names are source names with grid and block,
# the file keeps other kernels, points, device and SM count and is what the
# runtime accepts, time units are converted, a failing ncu's status comes
# back, no launches or another device is status 1, a new file needs an SM
# count.
#
# USAGE: smc_profile_test.py path/to/scripts/smc-profile
# ===------------------------------------------------------------------------===#
import importlib.machinery
import importlib.util
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

# The stand-in for ncu.  FAKE_NCU_CONFIG (JSON): the metric names of the
# script and the values to print; FAKE_NCU_MODE: ok, usecond (times in us),
# fail (exit 3 after the program), empty (no launches), perm (no launches:
# ERR_NVGPUCTRPERM), nodevice (no device attribute columns), h100 (another
# device).
FAKE_NCU = r'''
import csv, io, json, os, subprocess, sys
config = json.load(open(os.environ["FAKE_NCU_CONFIG"]))
mode = os.environ.get("FAKE_NCU_MODE", "ok")
log = open(os.environ["FAKE_NCU_LOG"], "a")
args = sys.argv[1:]
log.write("ARGS %s\n" % json.dumps(args))
def bad(why):
    log.write("BAD %s\n" % why)
    sys.exit(99)
with_value = {"--print-units", "--page", "--metrics", "--kernel-name-base"}
options, i = {}, 0
while i < len(args) and args[i].startswith("--"):
    if args[i] in with_value:
        if i + 1 >= len(args):
            bad("%s without a value" % args[i])
        options[args[i]] = args[i + 1]
        i += 2
    elif args[i] == "--csv":
        options["--csv"] = True
        i += 1
    else:
        bad("unknown option %s" % args[i])
program = args[i:]
if not options.get("--csv"):
    bad("no --csv")
if options.get("--page") != "raw":
    bad("--page is %r" % options.get("--page"))
if options.get("--print-units") != "base":
    bad("--print-units is %r" % options.get("--print-units"))
if options.get("--kernel-name-base") != "demangled":
    bad("--kernel-name-base is %r" % options.get("--kernel-name-base"))
requested = options.get("--metrics", "").split(",")
for m in config["required"]:
    if m not in requested:
        bad("metric %s not requested" % m)
if os.environ.get("SMC_DISABLE") != "1":
    bad("SMC_DISABLE is %r" % os.environ.get("SMC_DISABLE"))
if not program:
    bad("no program")
log.close()
print("==PROF== Connected to process 4242 (%s)" % program[-1])
sys.stdout.flush()
status = subprocess.call(program)
print("==PROF== Disconnected from process 4242")
if mode == "fail":
    print("==ERROR== the application returned an error code (3)")
    sys.exit(3)
if mode == "empty":
    print("==WARNING== No kernels were profiled.")
    sys.exit(status)
if mode == "perm":
    print("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission "
          "to access NVIDIA GPU Performance Counters on the target device 0.")
    sys.exit(status)
metrics = [m for m in requested
           if not (mode == "nodevice" and m in config["device"])]
columns = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name",
           "Context", "Stream", "Block Size", "Grid Size", "Device", "CC"]
out = io.StringIO()
w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
w.writerow(columns + metrics)
units = config["units"]
if mode == "usecond":
    units = dict(units, **{config["time"]: "usecond"})
w.writerow([""] * len(columns) + [units.get(m, "") for m in metrics])
for n, launch in enumerate(config["launches"]):
    values = dict(launch["values"])
    if mode == "usecond":
        t = float(values[config["time"]].replace(",", "")) / 1000
        values[config["time"]] = "%g" % t
    if mode == "h100":
        values[config["device"][0]] = "NVIDIA H100 80GB HBM3"
    w.writerow([str(n), "4242", "prog", "127.0.0.1", launch["kernel"], "1",
                "7", launch["block"], launch["grid"], "0", "9.0"] +
               [values.get(m, "n/a") for m in metrics])
sys.stdout.write(out.getvalue())
sys.exit(status)
'''

# The program run under the fake ncu: notes that it ran, prints a line.
NCU_PROGRAM = r'''
import os, sys
with open(os.environ["FAKE_PROGRAM_LOG"], "a") as log:
    log.write("ran SMC_DISABLE=%s\n" % os.environ.get("SMC_DISABLE"))
print("fake program output: 42")
'''

SCALE = "ns::scale<float> grid=4096x1x1 block=256x1x1"
EXTERN = "extern_kernel grid=64x32x1 block=32x8x1"
OTHER = "other grid=1x1x1 block=32x1x1"


def load_script(path):
    loader = importlib.machinery.SourceFileLoader("smc_profile", path)
    spec = importlib.util.spec_from_loader("smc_profile", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def ncu_config(sp):
    """The metrics of the script, and launches with values for them: two of
    ns::scale<float> (averaged: mem_ratio (0.15 + 0.4) / 2, ipc 0.4, 6 us)
    and one of extern_kernel (mem_ratio 2e-4, ipc 1.25, 2.5 ms)."""
    def values(ld, st, red, inst, ipc, ns):
        return {sp.METRIC_GLOBAL_LD: ld, sp.METRIC_GLOBAL_ST: st,
                sp.METRIC_GLOBAL_RED: red, sp.METRIC_INST: inst,
                sp.METRIC_IPC: ipc, sp.METRIC_TIME: ns,
                sp.METRIC_DEVICE_NAME: "NVIDIA H200",
                sp.METRIC_DEVICE_SMS: "132"}
    scale = "void ns::scale<float>(float*, int)"
    return {
        "required": sp.REQUIRED_METRICS,
        "device": [sp.METRIC_DEVICE_NAME, sp.METRIC_DEVICE_SMS],
        "time": sp.METRIC_TIME,
        "units": {sp.METRIC_GLOBAL_LD: "inst", sp.METRIC_GLOBAL_ST: "inst",
                  sp.METRIC_GLOBAL_RED: "inst", sp.METRIC_INST: "inst",
                  sp.METRIC_IPC: "inst/cycle", sp.METRIC_TIME: "nsecond"},
        "launches": [
            {"kernel": scale, "grid": "(4096, 1, 1)", "block": "(256, 1, 1)",
             "values": values("1,000", "500", "0", "10,000", "0.30",
                              "5,000")},
            {"kernel": "extern_kernel", "grid": "(64, 32, 1)",
             "block": "(32, 8, 1)",
             "values": values("100", "100", "n/a", "1,000,000", "1.25",
                              "2,500,000")},
            {"kernel": scale, "grid": "4096, 1, 1", "block": "256, 1, 1",
             "values": values("2,000", "1,000", "1,000", "10,000", "0.50",
                              "7,000")}]}


def existing_profile():
    return {"format": "smc-profile", "version": 1, "device": "NVIDIA H200",
            "sms": 132,
            "kernels": [
                {"name": OTHER,
                 "points": [{"sms": 132, "workers": 0, "seconds": 0.001,
                             "samples": 2},
                            {"sms": 66, "workers": 0, "seconds": 0.002,
                             "samples": 2}]},
                {"name": SCALE,
                 "points": [{"sms": 66, "workers": 0, "seconds": 1e-5,
                             "samples": 1}],
                 "issue": {"mem_ratio": 0.9, "ipc": 9.0, "seconds": 1.0}}]}


def runtime_problems(profile):
    """What the runtime's ProfileSet::load would reject."""
    found = []
    if profile.get("format") != "smc-profile" or profile.get("version") != 1:
        found.append("format/version: %r" % profile)
    if not isinstance(profile.get("device"), str):
        found.append("device is not a string")
    sms = profile.get("sms")
    if not isinstance(sms, int) or sms < 1:
        found.append("sms: %r" % sms)
    names = set()
    for k in profile.get("kernels", []):
        if not k.get("name") or k["name"] in names:
            found.append("kernel name missing or twice: %r" % k.get("name"))
        names.add(k.get("name"))
        if not isinstance(k.get("points"), list):
            found.append("%s: points %r" % (k.get("name"), k.get("points")))
        issue = k.get("issue")
        if issue is None:
            continue
        if sorted(issue) != ["ipc", "mem_ratio", "seconds"]:
            found.append("%s: issue keys %r" % (k["name"], sorted(issue)))
            continue
        if not (0 <= issue["mem_ratio"] <= 1 and issue["ipc"] >= 0 and
                issue["seconds"] > 0):
            found.append("%s: issue out of range %r" % (k["name"], issue))
    return found


def close(a, b):
    return a is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))


def check_ncu(script, tmp, problems):
    sp = load_script(script)
    fake_ncu = os.path.join(tmp, "fake-ncu")
    with open(fake_ncu, "w") as f:
        f.write("#!%s\n%s" % (sys.executable, FAKE_NCU))
    os.chmod(fake_ncu, 0o755)
    program = os.path.join(tmp, "ncu_program.py")
    open(program, "w").write(NCU_PROGRAM)
    config = os.path.join(tmp, "ncu.json")
    json.dump(ncu_config(sp), open(config, "w"))
    ncu_log = os.path.join(tmp, "ncu.log")
    program_log = os.path.join(tmp, "program.log")
    out = os.path.join(tmp, "issue.json")
    env = dict(os.environ, FAKE_NCU_CONFIG=config, FAKE_NCU_LOG=ncu_log,
               FAKE_PROGRAM_LOG=program_log)
    env.pop("SMC_DISABLE", None)

    def run(mode, *options, output=out):
        for log in (ncu_log, program_log):
            open(log, "w").close()
        return subprocess.run(
            [sys.executable, script, "--ncu", "--ncu-path", fake_ncu,
             "-o", output] + list(options) +
            ["--", sys.executable, program],
            env=dict(env, FAKE_NCU_MODE=mode), capture_output=True,
            text=True)

    def fake_complaints():
        return [line for line in open(ncu_log).read().splitlines()
                if line.startswith("BAD ")]

    # Merged into an existing file; -n is ignored: one run.
    before = existing_profile()
    json.dump(before, open(out, "w"))
    r = run("ok", "-n", "3")
    problems.extend("fake ncu: " + c for c in fake_complaints())
    if r.returncode != 0:
        problems.append("--ncu: status %d: %s%s" % (r.returncode, r.stdout,
                                                      r.stderr))
    ran = open(program_log).read().splitlines()
    if ran != ["ran SMC_DISABLE=1"]:
        problems.append("--ncu: the program ran %r, not once with "
                        "SMC_DISABLE=1" % ran)
    if "fake program output: 42" not in r.stdout:
        problems.append("--ncu: the program's output was not shown: %r" %
                        r.stdout)
    profile = json.load(open(out))
    problems.extend("--ncu file: " + p for p in runtime_problems(profile))
    kernels = {k["name"]: k for k in profile["kernels"]}
    if sorted(kernels) != sorted([OTHER, SCALE, EXTERN]):
        problems.append("--ncu: kernels %r" % sorted(kernels))
    if profile.get("device") != "NVIDIA H200" or profile.get("sms") != 132:
        problems.append("--ncu: device/sms became %r/%r" %
                        (profile.get("device"), profile.get("sms")))
    if kernels.get(OTHER) != before["kernels"][0]:
        problems.append("--ncu changed another kernel: %r" %
                        kernels.get(OTHER))
    scale = kernels.get(SCALE, {})
    if scale.get("points") != before["kernels"][1]["points"]:
        problems.append("--ncu lost the points of %s: %r" % (SCALE, scale))
    issue = scale.get("issue", {})
    if not (close(issue.get("mem_ratio"), 0.275) and
            close(issue.get("ipc"), 0.4) and
            close(issue.get("seconds"), 6e-6)):
        problems.append("--ncu: %s issue %r, not the mean (0.275, 0.4, "
                        "6e-6)" % (SCALE, issue))
    extern = kernels.get(EXTERN, {})
    issue = extern.get("issue", {})
    if extern.get("points") != [] or not (
            close(issue.get("mem_ratio"), 2e-4) and
            close(issue.get("ipc"), 1.25) and
            close(issue.get("seconds"), 2.5e-3)):
        problems.append("--ncu: %s is %r" % (EXTERN, extern))
    for want in (SCALE + ": mem_ratio 0.275, ipc 0.400, 0.006 ms "
                 "(2 launches)",
                 EXTERN + ": mem_ratio 0.0002, ipc 1.250, 2.5 ms "
                 "(1 launch)"):
        if want not in r.stdout:
            problems.append("--ncu: the summary lacks %r:\n%s" %
                            (want, r.stdout))

    # Times in another unit.
    json.dump(before, open(out, "w"))
    r = run("usecond")
    issue = {k["name"]: k.get("issue") for k in
             json.load(open(out))["kernels"]}.get(SCALE) or {}
    if r.returncode != 0 or not close(issue.get("seconds"), 6e-6):
        problems.append("--ncu with times in usecond: status %d, %r, %s" %
                        (r.returncode, issue, r.stderr))

    # A failing ncu: its status, the file unchanged.
    json.dump(before, open(out, "w"))
    r = run("fail")
    if r.returncode != 3 or "exited with 3" not in r.stderr:
        problems.append("--ncu, failing ncu: status %d, %r" %
                        (r.returncode, r.stderr))
    if json.load(open(out)) != before:
        problems.append("--ncu, failing ncu: the file changed")

    # No launches: status 1 and the likely causes.
    r = run("empty")
    if r.returncode != 1 or "no kernel launches" not in r.stderr or \
            "launched no kernel" not in r.stderr or \
            "ERR_NVGPUCTRPERM" not in r.stderr:
        problems.append("--ncu, no launches: status %d, %r" %
                        (r.returncode, r.stderr))
    if json.load(open(out)) != before:
        problems.append("--ncu, no launches: the file changed")
    r = run("perm")
    if r.returncode != 1 or "lacks permission" not in r.stderr or \
            "launched no kernel" in r.stderr:
        problems.append("--ncu, ERR_NVGPUCTRPERM: status %d, %r" %
                        (r.returncode, r.stderr))

    # Another device than the file's: status 1, the file unchanged.
    r = run("h100")
    if r.returncode != 1 or "another device" not in r.stderr or \
            json.load(open(out)) != before:
        problems.append("--ncu, another device: status %d, %r" %
                        (r.returncode, r.stderr))

    # A new file takes the device and SM count from ncu ...
    new = os.path.join(tmp, "new.json")
    r = run("ok", output=new)
    profile = json.load(open(new)) if os.path.exists(new) else {}
    if r.returncode != 0 or profile.get("sms") != 132 or \
            profile.get("device") != "NVIDIA H200" or \
            sorted(k["name"] for k in profile.get("kernels", [])) != \
            sorted([SCALE, EXTERN]):
        problems.append("--ncu, new file: status %d, %r, %s" %
                        (r.returncode, profile, r.stderr))
    problems.extend("--ncu new file: " + p for p in runtime_problems(profile))
    # ... or, where ncu does not tell, needs --sms.
    if os.path.exists(new):
        os.remove(new)
    r = run("nodevice", output=new)
    if r.returncode != 1 or "--sms" not in r.stderr or os.path.exists(new):
        problems.append("--ncu, new file without an SM count: status %d, "
                        "%r" % (r.returncode, r.stderr))
    r = run("nodevice", "--sms", "80", output=new)
    profile = json.load(open(new)) if os.path.exists(new) else {}
    if r.returncode != 0 or profile.get("sms") != 80:
        problems.append("--ncu --sms 80: status %d, %r, %s" %
                        (r.returncode, profile, r.stderr))
    problems.extend("--ncu --sms file: " + p for p in
                    runtime_problems(profile))

    # The source names of demangled signatures.
    for demangled, want in (
            ("void ns::scale<float>(float*, int)", "ns::scale<float>"),
            ("void ns::scale<float>(float *, int)", "ns::scale<float>"),
            ("vecAdd(float *, float *, int)", "vecAdd"),
            ("extern_kernel", "extern_kernel"),
            ("(anonymous namespace)::k(float*)", "(anonymous namespace)::k"),
            ("(anonymous namespace)::k", "(anonymous namespace)::k"),
            ("void k<(int)3>(int*)", "k<(int)3>"),
            ("void k<void (*)(int)>(void (*)(int))", "k<void (*)(int)>"),
            ("void k<V<V<int> > >(int)", "k<V<V<int>>>"),
            ("void k<unsigned int, float>(unsigned int*)",
             "k<unsigned int, float>"),
            ("vecAdd__smc", "vecAdd"), ("vecAdd__slice", "vecAdd")):
        got = sp.source_name(demangled)
        if got != want:
            problems.append("source name of %r: %r, not %r" %
                            (demangled, got, want))


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

        check_ncu(script, tmp, problems)
    for p in problems:
        print("FAIL: " + p)
    print("smc_profile_test.py: %s" % ("FAILED" if problems else "OK"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
