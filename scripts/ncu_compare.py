#!/usr/bin/env python3
"""Original kernels against their __smc variants, from two Nsight Compute CSVs.

Reads `ncu --csv --page raw` logs of the same workloads run as the original
(smc_workloads_gpu_check) and as __smc (SMC_POLICY='*=smc'
smc_workloads_gpu_check_smc), pairs kernels by source name and prints, for
the last profiled launch of each: duration, registers, theoretical and
achieved occupancy, cycles between issued instructions (the sum of the stall
ratios) and the three largest stall reasons.  Collect the logs with:

  ncu --section LaunchStats --section Occupancy --section WarpStateStats \\
      --section SpeedOfLight --csv --page raw -c 80 --log-file orig.csv \\
      build/bench/workloads/smc_workloads_gpu_check --size default --reps 0 W...
  (the same with SMC_POLICY='*=smc' and smc_workloads_gpu_check_smc: smc.csv)

Usage: ncu_compare.py orig.csv smc.csv
"""
import csv
import subprocess
import sys


def source_name(kernel):
    if kernel.endswith("__smc"):  # variants have no host symbol: mangled
        kernel = subprocess.run(["c++filt"], input=kernel[:-5], text=True,
                                capture_output=True).stdout.strip()
    return kernel.split("(")[0]


def load(path):
    rows = list(csv.reader(open(path)))
    start = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
    header = rows[start]
    kernels = {}
    for r in rows[start + 2:]:
        if len(r) == len(header):
            row = dict(zip(header, r))
            kernels.setdefault(source_name(row["Kernel Name"]), []).append(row)
    return kernels


def num(row, key):
    try:
        return float(row[key].replace(",", ""))
    except (KeyError, ValueError):
        return float("nan")


def stalls(row):
    return sorted(((num(row, k), k.split("stalled_")[1].split("_per_issue")[0])
                   for k in row if "issue_stalled" in k and
                   k.endswith("per_issue_active.ratio")), reverse=True)


def main():
    orig, smc = load(sys.argv[1]), load(sys.argv[2])
    print(f"{'kernel':20} {'orig us':>8} {'smc us':>8} {'ratio':>5} {'regs':>5} "
          f"{'theo occ%':>9} {'achieved%':>11} {'cyc/inst':>9}  top stalls orig | smc")
    for name, runs in orig.items():
        if name not in smc:
            continue
        o, s = runs[-1], smc[name][-1]
        to, ts = num(o, "gpu__time_duration.sum"), num(s, "gpu__time_duration.sum")
        so, ss = stalls(o), stalls(s)
        occ = "sm__maximum_warps_per_active_cycle_pct"
        ach = "sm__warps_active.avg.pct_of_peak_sustained_active"
        print(f"{name[:20]:20} {to / 1e3:8.1f} {ts / 1e3:8.1f} {ts / to:5.2f} "
              f"{o['launch__registers_per_thread']:>2}/{s['launch__registers_per_thread']:<2} "
              f"{num(o, occ):4.0f}/{num(s, occ):<4.0f} {num(o, ach):5.1f}/{num(s, ach):<5.1f} "
              f"{sum(x for x, _ in so):4.1f}/{sum(x for x, _ in ss):<4.1f}  "
              + ", ".join(f"{k} {x:.1f}" for x, k in so[:3]) + " | "
              + ", ".join(f"{k} {x:.1f}" for x, k in ss[:3])
              + f"  [grid {o['Grid Size']} / {s['Grid Size']}, block {o['Block Size']}]")


if __name__ == "__main__":
    main()
