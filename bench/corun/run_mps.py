#!/usr/bin/env python3
# ===- run_mps.py - Co-runs of two processes under MPS ----------------------===#
#
# The MPS mode of the co-run comparisons (docs/corun.md and
# "Co-runs"): starts an MPS control daemon with pipe and log directories of
# its own, then runs tenants as two processes started together by a gate
# file, under CUDA_MPS_ACTIVE_THREAD_PERCENTAGE splits (100/100 = no limit,
# 50/50, 25/75, 75/25), and each tenant alone under MPS; rounds
# interleaved, medians.  STP = sum of T_alone / T_corun with T_alone the
# tenant alone under MPS.  Before the daemon starts, the same pairs run as
# two processes without MPS (the GPU time-slices between them), against
# each alone.  Writes OUTDIR/mps.json and prints a table; stops the daemon.
# Exit status 3 when the daemon cannot be started (the JSON says why).
#
# Tenants: smc_auto_bench's (--tenant: a request loop of the originals;
# pairs few+compute, triad+compute, compute+compute), or with --corun
# smc_corun_bench's suite workloads (--mps-tenant: a workload's run()s of
# the originals, as many as take 5 ms alone, counted once per workload
# before MPS starts; pairs from --pairs, default the 8 of --quick).
#
# USAGE: run_mps.py BENCH OUTDIR [--rounds N] [--launches N]
#        run_mps.py --corun SMC_CORUN_BENCH OUTDIR [--rounds N]
#                   [--pairs a+b,c+d] [--splits 100/100,50/50]
# ===------------------------------------------------------------------------===#
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

PAIRS = (("few", "compute"), ("triad", "compute"), ("compute", "compute"))
OVERLAPS = []  # per co-run: the fraction of the shorter loop that overlapped
SPLITS = ((100, 100), (50, 50), (25, 75), (75, 25))


def tenant_command(bench, name, gate, launches):
    """The command of one tenant: smc_auto_bench's, or with --corun (launches
    then a dict of each workload's run()s) smc_corun_bench's."""
    if isinstance(launches, dict):
        return [bench, "--mps-tenant=" + name, "--gate=" + gate,
                "--reps=%d" % launches[name]]
    return [bench, "--tenant", name, "--gate", gate, "--launches",
            str(launches)]


def corun_reps(bench, names):
    """Each suite workload's run()s in 5 ms alone, counted once, no MPS."""
    reps = {}
    for name in sorted(names):
        out = subprocess.run([bench, "--mps-tenant=" + name],
                             capture_output=True, text=True, timeout=300)
        fields = out.stdout.split()
        if out.returncode != 0 or len(fields) < 2 or fields[0] != "reps":
            raise RuntimeError("%s: %s %s" % (name, out.stdout, out.stderr))
        reps[name] = int(fields[1])
    return reps


def corun_pairs(bench):
    """The 8 pairs smc_corun_bench --quick runs."""
    out = subprocess.run([bench, "--quick", "--list"], capture_output=True,
                         text=True, check=True).stdout
    pairs, listing = [], False
    for line in out.splitlines():
        if line.endswith(" pairs:"):
            listing = True
        elif listing and line.startswith("  ") and "+" in line:
            pairs.append(tuple(line.split()[0].split("+")))
        elif listing:
            break
    return pairs


def use_mps_dirs(out):
    """An MPS daemon of our own: its pipe and log directories under out."""
    os.environ["CUDA_MPS_PIPE_DIRECTORY"] = os.path.join(out, "mps-pipe")
    os.environ["CUDA_MPS_LOG_DIRECTORY"] = os.path.join(out, "mps-log")
    for d in ("mps-pipe", "mps-log"):
        os.makedirs(os.path.join(out, d), exist_ok=True)


def run_tenants(bench, tenants, percents, launches, gate):
    """Runs the tenants as processes started together; their loop seconds."""
    for f in os.listdir(os.path.dirname(gate)):
        if f.startswith(os.path.basename(gate)):
            os.remove(os.path.join(os.path.dirname(gate), f))
    procs = []
    for name, percent in zip(tenants, percents):
        env = dict(os.environ, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=str(percent))
        procs.append(subprocess.Popen(
            tenant_command(bench, name, gate, launches), env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    deadline = time.time() + 120
    while time.time() < deadline:
        ready = [f for f in os.listdir(os.path.dirname(gate))
                 if f.startswith(os.path.basename(gate) + ".ready-")]
        if len(ready) == len(procs) or any(p.poll() is not None
                                           for p in procs):
            break
        time.sleep(0.001)
    open(gate, "w").close()
    seconds, spans = [], []
    for p in procs:
        out, err = p.communicate(timeout=120)
        fields = out.split()
        if p.returncode != 0 or len(fields) < 6 or fields[3] != "right":
            raise RuntimeError("tenant failed (%d): %s %s" %
                               (p.returncode, out, err))
        seconds.append(float(fields[2]))
        spans.append((float(fields[4]), float(fields[5])))
    # How much of the shorter loop ran while the other one did.
    overlap = 1.0
    if len(spans) == 2:
        common = min(spans[0][1], spans[1][1]) - max(spans[0][0], spans[1][0])
        shorter = min(s[1] - s[0] for s in spans)
        overlap = max(0.0, common) / shorter if shorter > 0 else 0.0
    OVERLAPS.append(overlap)
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("bench")
    parser.add_argument("outdir")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--launches", type=int, default=20)
    parser.add_argument("--corun", action="store_true")
    parser.add_argument("--pairs")
    parser.add_argument("--splits")
    args = parser.parse_args()
    bench = os.path.abspath(args.bench)
    global PAIRS, SPLITS
    if args.splits:
        SPLITS = tuple(tuple(int(p) for p in s.split("/"))
                       for s in args.splits.split(","))
    launches = args.launches
    if args.corun:
        PAIRS = (tuple(tuple(p.split("+")) for p in args.pairs.split(","))
                 if args.pairs else tuple(corun_pairs(bench)))
        launches = corun_reps(bench, {t for pair in PAIRS for t in pair})
    out = os.path.abspath(args.outdir)
    os.makedirs(out, exist_ok=True)
    use_mps_dirs(out)
    result = {"bench": "run_mps.py", "tenants": os.path.basename(bench),
              "rounds": args.rounds, "launches": launches,
              "splits": ["%d/%d" % s for s in SPLITS]}
    gate = os.path.join(out, "gate")
    print("%-16s %-8s %10s %10s %7s" % ("pair", "split", "T_a ms", "T_b ms",
                                         "STP"))
    # Without MPS first: two processes time-slice the GPU.
    plain_alone = {t: [] for t in {t for pair in PAIRS for t in pair}}
    plain = {pair: [] for pair in PAIRS}
    for _ in range(args.rounds):
        for t in sorted(plain_alone):
            plain_alone[t].append(run_tenants(bench, [t], [100],
                                              launches, gate)[0])
        for pair in PAIRS:
            plain[pair].append(run_tenants(bench, list(pair), [100, 100],
                                           launches, gate))
    result["processes_without_mps"] = []
    for (a, b), samples in plain.items():
        ta = statistics.median(x[0] for x in samples)
        tb = statistics.median(x[1] for x in samples)
        stp = (statistics.median(plain_alone[a]) / ta +
               statistics.median(plain_alone[b]) / tb)
        print("%-16s %-8s %10.3f %10.3f %7.3f" % ("%s+%s" % (a, b),
                                                  "no MPS", ta * 1e3,
                                                  tb * 1e3, stp))
        result["processes_without_mps"].append(
            {"pair": "%s+%s" % (a, b), "corun_s": [ta, tb], "stp": stp})
    start = subprocess.run(["nvidia-cuda-mps-control", "-d"],
                           capture_output=True, text=True)
    if start.returncode != 0:
        result["error"] = "nvidia-cuda-mps-control -d failed: %s %s" % (
            start.stdout, start.stderr)
        json.dump(result, open(os.path.join(out, "mps.json"), "w"), indent=2)
        print(result["error"], file=sys.stderr)
        return 3
    try:
        alone = {t: [] for t in {t for pair in PAIRS for t in pair}}
        corun = {(a, b, s): [] for a, b in PAIRS for s in SPLITS}
        for _ in range(args.rounds):
            for t in sorted(alone):
                alone[t].append(run_tenants(bench, [t], [100], launches,
                                            gate)[0])
            for a, b in PAIRS:
                for s in SPLITS:
                    corun[(a, b, s)].append(
                        run_tenants(bench, [a, b], s, launches, gate) +
                        [OVERLAPS[-1]])
    finally:
        subprocess.run(["nvidia-cuda-mps-control"], input="quit\n",
                       text=True, capture_output=True)
    med_alone = {t: statistics.median(v) for t, v in alone.items()}
    result["alone_s"] = med_alone
    result["benchmarks"] = []
    for (a, b, s), samples in corun.items():
        ta = statistics.median(x[0] for x in samples)
        tb = statistics.median(x[1] for x in samples)
        stp = med_alone[a] / ta + med_alone[b] / tb
        overlap = min(x[2] for x in samples)
        name = "%s+%s" % (a, b)
        split = "%d/%d" % s
        print("%-16s %-8s %10.3f %10.3f %7.3f  overlap %.2f" %
              (name, split, ta * 1e3, tb * 1e3, stp, overlap))
        result["benchmarks"].append({"pair": name, "split": split,
                                     "corun_s": [ta, tb], "stp": stp,
                                     "min_overlap": overlap})
    json.dump(result, open(os.path.join(out, "mps.json"), "w"), indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
