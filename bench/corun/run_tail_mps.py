#!/usr/bin/env python3
# ===- run_tail_mps.py - The tail benchmark as two processes under MPS ------===#
#
# Issue 35's setting across processes: smc_tail_bench --role urgent (an
# urgent kernel every 1-3 ms, waited for) and --role best-effort (grids back
# to back) as two processes under an MPS control daemon of their own (pipe
# and log directories in OUTDIR), for each best-effort kind and CTA length,
# the modes interleaved (one after the other per configuration):
#
#   mps             originals; the urgent kernel on its process's highest-
#                   priority stream
#   mps-low-client  the same, the best-effort process at MPS client
#                   priority 1 (CUDA_MPS_CLIENT_PRIORITY, below normal)
#   mps-percentage  the same, the best-effort process limited to
#                   --percentage of the SMs (CUDA_MPS_ACTIVE_THREAD_
#                   PERCENTAGE)
#   mps-reserve     SMC_TENANTS=on in both: the urgent kernel of policy
#                   original(reserve), the best effort SM-centric: it
#                   leaves room on every SM for the other process's CTA
#   mps-reserve-originals  the same urgent process beside the originals,
#                   which keep no room
#   mps-smc         the best effort SM-centric (persistent workers), the
#                   urgent kernel original on its high-priority stream,
#                   SMC_TENANTS off: nothing yields across processes
#   mps-yield       the same with SMC_TENANTS=on in both: the urgent
#                   launches take SMs from the best-effort process's
#                   yielding launches (priority/SharedYields.h)
#   mps-yield-low   mps-yield with the best-effort process at MPS client
#                   priority 1, as mps-low-client
#   mps-target      SMC_TENANTS=on in both: the urgent kernel of policy
#                   original(p99=Tus), once for each T of --p99-us, the best
#                   effort SM-centric (the urgent process's messages and
#                   every arrival's latency are kept)
#
# and the best effort alone under MPS (its throughput reference).  Writes
# OUTDIR/tail-mps.json in smc_tail_bench's format (scripts/plot_tail.py
# reads it) and prints a table.  Exit status 3 when MPS cannot be started.
#
# USAGE: run_tail_mps.py SMC_TAIL_BENCH OUTDIR [--kinds sleep,stream]
#        [--cta-us 50,200] [--arrivals N] [--percentage P]
# ===------------------------------------------------------------------------===#
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

from run_mps import use_mps_dirs

MODES = ("mps", "mps-low-client", "mps-percentage", "mps-reserve",
         "mps-reserve-originals", "mps-smc", "mps-yield", "mps-yield-low",
         "mps-target")


def run_pair(bench, gate, kind, cta_us, arrivals, env_urgent, env_be,
             be_seconds=0, per_arrival=False):
    """One run: the best effort (and, unless be_seconds, the urgent side)."""
    shutil.rmtree(gate, ignore_errors=True)
    os.makedirs(gate)
    common = ["--gate", gate, "--kinds", kind, "--cta-us", str(cta_us)]
    be_cmd = [bench, "--role", "best-effort"] + common
    if be_seconds:
        be_cmd += ["--seconds", str(be_seconds)]
    be = subprocess.Popen(be_cmd, env=dict(os.environ, **env_be),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    deadline = time.time() + 120
    while not os.path.exists(os.path.join(gate, "be-ready")):
        if be.poll() is not None or time.time() > deadline:
            raise RuntimeError("best effort did not start: %s" %
                               (be.communicate()[1],))
        time.sleep(0.01)
    urgent = None
    if be_seconds:
        open(os.path.join(gate, "go"), "w").close()
    else:
        urgent = subprocess.run(
            [bench, "--role", "urgent", "--arrivals", str(arrivals)] + common +
            (["--per-arrival"] if per_arrival else []),
            env=dict(os.environ, **env_urgent), capture_output=True,
            text=True, timeout=300)
        open(os.path.join(gate, "stop"), "w").close()
    out, err = be.communicate(timeout=120)
    if be.returncode != 0:
        raise RuntimeError("best effort failed (%d): %s" % (be.returncode,
                                                             err))
    result = json.loads(out.strip().splitlines()[-1])
    if urgent is not None:
        if urgent.returncode != 0:
            raise RuntimeError("urgent failed (%d): %s" % (urgent.returncode,
                                                            urgent.stderr))
        result.update(json.loads(urgent.stdout.strip().splitlines()[-1]))
        result["urgent_messages"] = [l for l in urgent.stderr.splitlines()
                                     if l.startswith("smc: ")]
    return result


def mode_env(mode, percentage, p99_us=0):
    """(urgent process's, best-effort process's) environment."""
    original = {"SMC_POLICY": "*=original"}
    if mode == "mps":
        return original, original
    if mode == "mps-low-client":
        return original, dict(original, CUDA_MPS_CLIENT_PRIORITY="1")
    if mode == "mps-percentage":
        return original, dict(original,
                              CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=str(percentage))
    smc = {"SMC_POLICY": "*=smc"}
    if mode == "mps-smc":
        return original, smc
    if mode in ("mps-yield", "mps-yield-low"):
        best_effort = dict(smc, SMC_TENANTS="on")
        if mode == "mps-yield-low":
            best_effort["CUDA_MPS_CLIENT_PRIORITY"] = "1"
        return dict(original, SMC_TENANTS="on"), best_effort
    reserved = {"SMC_TENANTS": "on",
                "SMC_POLICY": "tailUrgent=original(reserve)"}
    if mode == "mps-target":
        reserved["SMC_POLICY"] = "tailUrgent=original(p99=%gus)" % p99_us
    if mode == "mps-reserve-originals":  # the best effort keeps no room
        return reserved, original
    return reserved, {"SMC_TENANTS": "on", "SMC_POLICY": "*=smc"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bench")
    parser.add_argument("outdir")
    parser.add_argument("--kinds", default="sleep,stream")
    parser.add_argument("--cta-us", default="50,200")
    parser.add_argument("--arrivals", type=int, default=400)
    parser.add_argument("--percentage", type=int, default=88)
    parser.add_argument("--p99-us", default="84",
                        help="mps-target's targets (microseconds), e.g. 84,560")
    parser.add_argument("--modes", default=",".join(MODES),
                        help="some of " + ",".join(MODES))
    args = parser.parse_args()
    modes = args.modes.split(",")
    if any(m not in MODES for m in modes):
        parser.error("--modes: some of " + ",".join(MODES))
    bench = os.path.abspath(args.bench)
    out = os.path.abspath(args.outdir)
    os.makedirs(out, exist_ok=True)
    use_mps_dirs(out)
    device = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,"
                             "noheader"], capture_output=True,
                            text=True).stdout.strip().splitlines()
    result = {"device": (device or ["unknown"])[0] + " (two processes, MPS)",
              "percentage": args.percentage, "configs": []}
    start = subprocess.run(["nvidia-cuda-mps-control", "-d"],
                           capture_output=True, text=True)
    if start.returncode != 0:
        result["error"] = "nvidia-cuda-mps-control -d failed: %s %s" % (
            start.stdout, start.stderr)
        json.dump(result, open(os.path.join(out, "tail-mps.json"), "w"))
        print(result["error"], file=sys.stderr)
        return 3
    gate = os.path.join(out, "gate")
    print("%-15s %-6s %6s %8s %8s %8s %8s %8s" % (
        "mode", "kind", "cta_us", "p50", "p99", "que50", "run50", "be_thru"))
    try:
        for kind in args.kinds.split(","):
            for cta in (int(c) for c in args.cta_us.split(",")):
                alone = run_pair(bench, gate, kind, cta, 0,
                                 {}, {"SMC_POLICY": "*=original"},
                                 be_seconds=1)["ctas_per_second"]
                runs = [(m, 0) for m in modes if m != "mps-target"]
                if "mps-target" in modes:
                    runs += [("mps-target", float(t))
                             for t in args.p99_us.split(",")]
                for mode, p99 in runs:
                    env_u, env_b = mode_env(mode, args.percentage, p99)
                    r = run_pair(bench, gate, kind, cta, args.arrivals, env_u,
                                 env_b, per_arrival=p99 > 0)
                    if p99:
                        mode = "mps-target-%gus" % p99
                    r.update(mode=mode, kind=kind, cta_us=cta,
                             best_effort_throughput=r["ctas_per_second"] /
                             alone)
                    result["configs"].append(r)
                    result.setdefault("urgent_alone_us", r["urgent_alone_us"])
                    print("%-15s %-6s %6d %7.2fx %7.2fx %8.1f %8.1f %7.3fx" % (
                        mode, kind, cta, r["latency_p50"], r["latency_p99"],
                        r["queue_us_p50"], r["run_us_p50"],
                        r["best_effort_throughput"]), flush=True)
    finally:
        subprocess.run(["nvidia-cuda-mps-control"], input="quit\n",
                       text=True, capture_output=True)
        json.dump(result, open(os.path.join(out, "tail-mps.json"), "w"),
                  indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
