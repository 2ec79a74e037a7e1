#!/usr/bin/env python3
# ===- compare_builds.py - Variant/original ratios of two builds, side by side ===#
#
# Reads Google Benchmark JSON files of smc_suite_bench or smc_bench named
# *-base-*.json (the build before a change) and *-new-*.json (the build with
# it), from runs in which the two builds took turns on one GPU.  For every
# <workload>/<form> other than the original it takes, per file, the median
# of the form's repetitions over the median of the original's in the same
# file, and prints the ratios of each build and their medians; then the
# geomean and median over the workloads of each build.  Files cut off by a
# time limit (truncated JSON) are read with a pattern, not as JSON.
#
# USAGE: compare_builds.py [--form smc] DIR_OR_FILE...
# ===------------------------------------------------------------------------===#
import argparse
import glob
import math
import os
import re
import statistics


def load(path):
    """{(workload, form): [real_time per repetition]} of one file."""
    text = open(path).read()
    times = {}
    for m in re.finditer(r'"name": "([^"]+)",.*?"run_type": "(\w+)".*?'
                         r'"real_time": ([0-9.e+-]+)', text, re.S):
        if m.group(2) == "iteration":
            workload, form = m.group(1).split("/")[:2]
            times.setdefault((workload, form), []).append(float(m.group(3)))
    return times


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--form", default=None,
                    help="only this form (default: every form but original)")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        files += sorted(glob.glob(os.path.join(p, "*.json"))) if os.path.isdir(p) else [p]
    ratios = {}  # (workload, form) -> build -> [ratio per file]
    for f in files:
        name = os.path.basename(f)
        build = "base" if "-base-" in name else "new" if "-new-" in name else None
        if build is None:
            continue
        times = load(f)
        for (workload, form), t in times.items():
            if form == "original" or (a.form and form != a.form):
                continue
            if (workload, "original") in times:
                ratio = statistics.median(t) / statistics.median(times[(workload, "original")])
                ratios.setdefault((workload, form), {}).setdefault(build, []).append(ratio)
    print(f"{'workload/form':24s} {'base':>14s} {'new':>14s} {'new/base':>9s}")
    medians = {"base": [], "new": []}
    for key in sorted(ratios):
        row = ratios[key]
        if "base" not in row or "new" not in row:
            continue
        b, n = statistics.median(row["base"]), statistics.median(row["new"])
        medians["base"].append(b)
        medians["new"].append(n)
        cells = ["%.3f (%d)" % (statistics.median(row[k]), len(row[k])) for k in ("base", "new")]
        print(f"{key[0] + '/' + key[1]:24s} {cells[0]:>14s} {cells[1]:>14s} {n / b:9.3f}")
    if medians["base"]:
        for k in ("base", "new"):
            print(f"{k}: geomean {geomean(medians[k]):.3f}, median "
                  f"{statistics.median(medians[k]):.3f} over {len(medians[k])}")


if __name__ == "__main__":
    main()
