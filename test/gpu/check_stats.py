#!/usr/bin/env python3
# ===- check_stats.py - smc_gpu_tests must not pass by falling back ---------===#
#
# The differential tests compare variants with the original kernel; a runtime
# that quietly ran the original for every launch would pass them.  This
# script runs smc_gpu_tests with SMC_STATS=<file> and then checks the launch
# records the runtime wrote:
#  - no launch has an "error" or a "reason" (a fallback to the original),
#    but for the fallbacks a test asks for (EXPECTED_FALLBACKS) and the
#    launches the plan runs as the original (grids of one wave, one chunk
#    per worker in the interleaved order: docs/light.md);
#  - SM-centric launches run in ordered mode exactly for the kernels whose
#    CTAs wait on each other;
#  - every SM-centric launch with statistics ran exactly its grid's chunks
#    (sum of chunks_per_sm), and in loop mode no SM had more active workers
#    than the target;
#  - a loop-mode launch claims 0 to 16 chunks at once (claim_batch: an
#    eighth of each worker's chunks, 1 to 16; 1 on a partitioned stream, 0
#    when yielding), any other launch 1;
#  - policy locality: per kernel and grid, the launches' locality_choice
#    records are trials first ("trial of <placement>", the same number of
#    each placement, at most LOCALITY_SAMPLES), then only the choice ("chose
#    <placement> ..."), a placement that was tried;
#  - policy remap: per kernel and grid, rounds of at most three trials of
#    the original and of the remap, each ended by the choice of one tried,
#    and every launch ran what its note says;
#  - without a --gtest_filter: every kernel the tests launch under SMC
#    policies has records of the variants the tests ask for, including
#    dynSmemReverse with more than 48 KiB of dynamic shared memory, and
#    launches of every chunk order claimed batches of more than one chunk
#    (batched claims ran under every policy, not only where they are
#    planned).
# SMC_STATS synchronizes every SM-centric launch, so the tests' concurrency
# is weaker under this script: it complements, not replaces, a plain run.
# Exit status: that of smc_gpu_tests if it failed or skipped (77), else 0 or
# 1 for the checks.
#
# USAGE: check_stats.py path/to/smc_gpu_tests [gtest options...]
# ===------------------------------------------------------------------------===#
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

# Kernel (source name up to '<') -> variants the tests must have run.
REQUIRED = {
    "vecAdd": {"smc", "slice", "original"},
    "transposeTiles": {"smc", "slice", "original"},
    "grid3D": {"smc", "slice", "original"},
    "blockReduce": {"smc", "slice", "original"},
    "blockReduceFixed": {"smc", "slice", "original"},
    "stencilEarlyExit": {"smc", "slice", "original"},
    "gridStrideScale": {"smc", "slice", "original"},
    "noinlineBlockInfo": {"smc", "slice", "original"},
    "axpyOffset": {"smc", "slice", "original"},
    "dynSmemReverse": {"smc", "slice", "original"},
    "countChunks": {"smc", "slice", "original"},
    "countChunksEarlyExit": {"smc", "slice", "original"},
    "recordPlacement": {"smc", "slice", "original"},
    "graphFirstLaunch": {"smc"},
    "hog": {"original"},
    "chainedScan": {"smc", "slice", "original"},
    "chainedScanEarlyExit": {"smc", "slice", "original"},
    "countRuns": {"smc", "slice"},
    "clusterHash": {"smc", "original"},
    "clusterBoxFilter": {"smc", "original"},
    "clusterBlockSum3D": {"smc", "original"},
    "clusterEarlyExitFilter": {"smc", "original"},
    "clusterRecordSm": {"smc", "original"},
    "affinityGather": {"smc", "original"},
}
# The reasons of a launch that runs the original because its grid is one
# wave or its variant runs one chunk per worker (QueuePlan.h,
# originalSuffices): decisions, not fallbacks.
ORIGINAL_SUFFICES = ("one wave: ", "one chunk per worker: ")

# Fallbacks that tests provoke on purpose: kernel -> text of the reason.
# Affinity.GathersMatchOriginal gives a launch a chunk table for another
# grid, which the runtime must refuse.
EXPECTED_FALLBACKS = {
    "affinityGather": "the chunk table has",
    # RemapTest.cu: a kernel the plugin gives no __remap, under policy remap.
    "remapRefusedShared": "no __remap variant",
}
# Kernels whose CTAs wait on each other: their SM-centric launches must run
# in ordered mode (chunks in blockIdx order); no other kernel may.
ORDERED = {"chainedScan", "chainedScanEarlyExit"}
BIG_SHARED = 48 * 1024
# The chunk orders whose loop-mode launches must include batched claims.
BATCHED_ORDERS = {"interleaved", "contiguous", "table", "cluster"}
MAX_CLAIM_BATCH = 16  # SMC_MAX_CLAIM_BATCH (abi.h)
LOCALITY_SAMPLES = 3  # LocalityTrials' samples per placement
# Kernels whose launches under policy locality must reach a choice.
LOCALITY_CHOSEN = {"clusterBoxFilter"}
REMAP_SAMPLES = 3  # Trials' samples per candidate under policy remap
# Kernels whose launches under policy remap (adaptive) must reach a choice.
REMAP_CHOSEN = {"remapSteps"}


def check_locality(records):
    problems = []
    runs = defaultdict(list)  # (kernel, grid) -> locality_choice texts
    for r in records:
        if "locality_choice" in r:
            runs[(base_name(r.get("kernel", "?")), str(r.get("grid")))].append(
                r["locality_choice"])
    chosen = set()
    for (kernel, grid), notes in sorted(runs.items()):
        where = "policy locality, %s grid %s" % (kernel, grid)
        trials = defaultdict(int)
        choice_seen = False
        for note in notes:
            if note.startswith("trial of "):
                if choice_seen:
                    problems.append("%s: a trial after the choice" % where)
                    break
                trials[note[len("trial of "):]] += 1
            elif note.startswith("chose "):
                choice_seen = True
                placement = note[len("chose "):].split(":")[0].split(" (")[0]
                if trials and placement not in trials:
                    problems.append("%s: chose %s, which was not tried"
                                    % (where, placement))
            else:
                problems.append("%s: locality_choice %r" % (where, note))
        counts = set(trials.values())
        if choice_seen and trials and counts != {LOCALITY_SAMPLES}:
            problems.append("%s: trials before the choice %s, not %d of each"
                            % (where, dict(trials), LOCALITY_SAMPLES))
        if trials and len(trials) < 2:
            problems.append("%s: only %s tried" % (where, dict(trials)))
        if choice_seen:
            chosen.add(kernel)
    return chosen, problems


def check_remap(records):
    """Policy remap (adaptive): per kernel and grid, the launches' remap notes
    are rounds of trials ("trial of original" / "trial of remap", at most
    REMAP_SAMPLES of each), each ended by a choice of a tried candidate
    ("chose original ..." or "chose remap ..."); new data may start another
    round after a choice (RemapLaunch.cpp, RetrialBackoff)."""
    problems = []
    runs = defaultdict(list)
    for r in records:
        if "remap" in r:
            runs[(base_name(r.get("kernel", "?")), str(r.get("grid")))].append(
                (r["remap"], r.get("variant")))
    chosen = set()
    for (kernel, grid), notes in sorted(runs.items()):
        where = "policy remap, %s grid %s" % (kernel, grid)
        trials = defaultdict(int)
        for note, variant in notes:
            if note.startswith("trial of "):
                ran = note[len("trial of "):]
                trials[ran] += 1
                if ran != variant:
                    problems.append("%s: a trial of %s ran %s"
                                    % (where, ran, variant))
            elif note.startswith("chose "):
                choice = note[len("chose "):].split(":")[0].split(" (")[0]
                if choice != variant:
                    problems.append("%s: chose %s, ran %s"
                                    % (where, choice, variant))
                if trials and (choice not in trials
                               or max(trials.values()) > REMAP_SAMPLES):
                    problems.append("%s: chose %s after trials %s"
                                    % (where, choice, dict(trials)))
                trials.clear()
                chosen.add(kernel)
            elif note.startswith("the original while"):
                if variant != "original":
                    problems.append("%s: %r ran %s" % (where, note, variant))
            else:
                problems.append("%s: remap note %r" % (where, note))
    return chosen, problems


def base_name(kernel):
    # "ns::name<T>(...)" -> "name"
    return kernel.split("<")[0].split("(")[0].split("::")[-1]


def check(records, full_run):
    problems = []
    seen = defaultdict(lambda: defaultdict(int))
    big_shared = set()
    batched = defaultdict(int)  # order -> launches with claim_batch > 1
    for i, r in enumerate(records):
        kernel, variant = r.get("kernel", "?"), r.get("variant", "?")
        where = "launch %d of %s (%s, grid %s)" % (i, kernel, variant,
                                                   r.get("grid"))
        seen[base_name(kernel)][variant] += 1
        if r.get("error"):
            problems.append("%s: error: %s" % (where, r["error"]))
        expected = EXPECTED_FALLBACKS.get(base_name(kernel))
        # Decided by the plan, not a fallback (docs/light.md).
        planned = r.get("reason", "").startswith(ORIGINAL_SUFFICES)
        if r.get("reason") and not planned and \
                not (expected and expected in r["reason"]):
            problems.append("%s: fell back to the original: %s"
                            % (where, r["reason"]))
        if base_name(kernel) == "dynSmemReverse" and \
                r.get("shared_mem", 0) > BIG_SHARED:
            big_shared.add(variant)
        if variant == "smc" and \
                bool(r.get("ordered")) != (base_name(kernel) in ORDERED):
            problems.append("%s: ordered is %s" % (where, r.get("ordered")))
        if variant != "smc" or "chunks_per_sm" not in r:
            continue
        gx, gy, gz = r["grid"]
        ran = sum(r["chunks_per_sm"])
        outside = r.get("out_of_range_smid", 0)
        if ran != gx * gy * gz and not outside:
            problems.append("%s: statistics count %d chunks run, grid has %d"
                            % (where, ran, gx * gy * gz))
        target = r.get("target", 0)
        if r.get("mode") == "loop" and target and r.get("workers_per_sm") \
                and max(r["workers_per_sm"]) > target:
            problems.append("%s: %d active workers on one SM, target %d"
                            % (where, max(r["workers_per_sm"]), target))
        batch = r.get("claim_batch", 1)
        if r.get("mode") == "loop" and not r.get("ordered"):
            if batch > 1:
                batched[r.get("order", "?")] += 1
            if not 0 <= batch <= MAX_CLAIM_BATCH:
                problems.append("%s: claim_batch %d" % (where, batch))
        elif batch != 1:
            problems.append("%s: claim_batch %d outside loop mode"
                            % (where, batch))
    chosen, locality_problems = check_locality(records)
    problems += locality_problems
    remap_chosen, remap_problems = check_remap(records)
    problems += remap_problems
    if full_run:
        for kernel in sorted(LOCALITY_CHOSEN - chosen):
            problems.append("%s: no launch of policy locality reached a "
                            "choice" % kernel)
        for kernel in sorted(REMAP_CHOSEN - remap_chosen):
            problems.append("%s: no launch of policy remap reached a choice"
                            % kernel)
        for kernel, variants in REQUIRED.items():
            missing = variants - set(seen.get(kernel, {}))
            if missing:
                problems.append("%s: no %s launch recorded"
                                % (kernel, ", ".join(sorted(missing))))
        for variant in ("smc", "slice"):
            if variant not in big_shared:
                problems.append("dynSmemReverse: no %s launch with more than "
                                "48 KiB of dynamic shared memory" % variant)
        for order in sorted(BATCHED_ORDERS - set(batched)):
            problems.append("no loop-mode launch of chunk order %s claimed "
                            "more than one chunk at once" % order)
    return seen, batched, problems


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: check_stats.py path/to/smc_gpu_tests [gtest options]")
    binary, args = sys.argv[1], sys.argv[2:]
    full_run = not any(a.startswith("--gtest_filter") for a in args)
    with tempfile.TemporaryDirectory() as tmp:
        stats_file = os.path.join(tmp, "smc_stats.json")
        env = dict(os.environ, SMC_STATS=stats_file)
        env.pop("SMC_DISABLE", None)
        env.pop("SMC_POLICY", None)
        rc = subprocess.call([binary] + args, env=env)
        if rc != 0:
            print("check_stats.py: smc_gpu_tests exited with %d" % rc)
            return rc
        if not os.path.exists(stats_file):
            print("check_stats.py: the runtime wrote no SMC_STATS file")
            return 1
        with open(stats_file) as f:
            records = json.load(f).get("launches", [])
    seen, batched, problems = check(records, full_run)
    print("check_stats.py: %d launch records; with batched claims: %s"
          % (len(records), ", ".join("%s %d" % kv
                                     for kv in sorted(batched.items()))))
    for kernel in sorted(seen):
        print("  %-22s %s" % (kernel, ", ".join(
            "%s=%d" % kv for kv in sorted(seen[kernel].items()))))
    for p in problems[:50]:
        print("FAIL: " + p)
    if len(problems) > 50:
        print("FAIL: ... and %d more" % (len(problems) - 50))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
