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

With --memory it prints, instead, what a placement changes in the memory
system: duration, L1 and L2 hit rates, DRAM bytes read, L1-to-L2 read
sectors and achieved occupancy, from logs collected with

  ncu --metrics gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,\
lts__t_sector_hit_rate.pct,dram__bytes_read.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,\
sm__warps_active.avg.pct_of_peak_sustained_active --csv --page raw -c 30 ...

Usage: ncu_compare.py [--memory] orig.csv smc.csv
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


def memory(orig, smc):
    print(f"{'kernel':20} {'orig us':>8} {'smc us':>8} {'ratio':>5} "
          f"{'L1 hit %':>11} {'L2 hit %':>11} {'DRAM read MB':>13} "
          f"{'L1->L2 read sectors (M)':>24} {'achieved occ %':>14}")
    for name, runs in orig.items():
        if name not in smc:
            continue
        o, s = runs[-1], smc[name][-1]

        def pair(key, scale=1.0, fmt="%.1f"):
            return (fmt % (num(o, key) / scale)) + "/" + (fmt % (num(s, key) / scale))
        to, ts = num(o, "gpu__time_duration.sum"), num(s, "gpu__time_duration.sum")
        print(f"{name[:20]:20} {to / 1e3:8.1f} {ts / 1e3:8.1f} {ts / to:5.2f} "
              f"{pair('l1tex__t_sector_hit_rate.pct'):>11} "
              f"{pair('lts__t_sector_hit_rate.pct'):>11} "
              f"{pair('dram__bytes_read.sum', 1e6, '%.0f'):>13} "
              f"{pair('lts__t_sectors_srcunit_tex_op_read.sum', 1e6):>24} "
              f"{pair('sm__warps_active.avg.pct_of_peak_sustained_active'):>14}")


def main():
    args = [a for a in sys.argv[1:] if a != "--memory"]
    if len(args) != 2:
        sys.exit("usage: ncu_compare.py [--memory] orig.csv smc.csv")
    orig, smc = load(args[0]), load(args[1])
    if "--memory" in sys.argv[1:]:
        memory(orig, smc)
        return
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
