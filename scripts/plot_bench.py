#!/usr/bin/python3
# ===- plot_bench.py - Chart and table of smc_bench results -----------------===#
#
# Reads the JSON that `smc_bench --benchmark_out=FILE
# --benchmark_out_format=json` writes (with or without
# --benchmark_repetitions / --benchmark_report_aggregates_only) and
#  - writes a PNG bar chart of variant time / original time per workload
#    (smc and slice), with the median over workloads of each variant marked;
#  - prints a Markdown table: workload, original ms, smc ratio, slice ratio,
#    and a last row with the median ratio over workloads;
#  - prints the launch-path table: host microseconds per launch and the
#    extra microseconds of the SMC entry over plain cudaLaunchKernel.
# Every time is the median over repetitions (Google Benchmark's median
# aggregate where present, else the median of the repetitions in the file).
#
# USAGE: plot_bench.py bench.json [--png bench.png] [--title TEXT]
# ===------------------------------------------------------------------------===#
import argparse
import json
import statistics
import sys
from collections import defaultdict

VARIANTS = ("smc", "slice")
LAUNCH_BASE = "cudaLaunchKernel"
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def load_runs(path):
    """Returns {run_name: entry}, each entry holding the median real time in
    ms ('ms'), the median counters and the error message if any."""
    with open(path) as f:
        data = json.load(f)
    medians, samples, errors = {}, defaultdict(list), {}
    order = {}  # run_name -> registration order (family_index)
    for pos, b in enumerate(data.get("benchmarks", [])):
        name = b.get("run_name", b["name"])
        order.setdefault(name, b.get("family_index", pos))
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "error")
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = b
        else:
            samples[name].append(b)
    runs = {}
    for name in sorted(order, key=order.get):
        if name in errors and name not in medians and name not in samples:
            runs[name] = {"error": errors[name]}
            continue
        if name in medians:
            entry = dict(medians[name])
            entry["ms"] = entry["real_time"] * TO_MS[entry["time_unit"]]
        else:
            reps = samples[name]
            entry = {"ms": statistics.median(
                r["real_time"] * TO_MS[r["time_unit"]] for r in reps)}
            for key in reps[0]:
                if isinstance(reps[0][key], (int, float)) and key not in (
                        "real_time", "cpu_time"):
                    entry[key] = statistics.median(
                        r.get(key, 0) for r in reps)
        runs[name] = entry
    return data.get("context", {}), runs


def split_name(run_name):
    """'vecAdd/smc/manual_time' -> ('vecAdd', 'smc')."""
    parts = run_name.split("/")
    return (parts[0], parts[1]) if len(parts) >= 2 else (parts[0], "")


def collect(runs):
    workloads = defaultdict(dict)  # workload -> variant -> entry
    launch = {}                    # path -> entry
    for name, entry in runs.items():
        group, variant = split_name(name)
        if group == "launch_path":
            launch[variant] = entry
        else:
            workloads[group][variant] = entry
    return workloads, launch


def fmt(value, pattern):
    return "n/a" if value is None else pattern % value


def workload_table(workloads):
    rows, ratios = [], {v: [] for v in VARIANTS}
    for name in workloads:
        variants = workloads[name]
        orig = variants.get("original", {})
        orig_ms = orig.get("ms")
        row = [name, fmt(orig_ms, "%.3f") if orig_ms else
               "error: " + orig.get("error", "missing")]
        for v in VARIANTS:
            entry = variants.get(v, {})
            if orig_ms and "ms" in entry:
                ratio = entry["ms"] / orig_ms
                ratios[v].append((name, ratio))
                row.append("%.3f" % ratio)
            else:
                row.append("error: " + entry.get("error", "missing"))
        rows.append(row)
    medians = {v: statistics.median(r for _, r in ratios[v])
               if ratios[v] else None for v in VARIANTS}
    return rows, ratios, medians


def print_tables(context, workloads, launch):
    rows, ratios, medians = workload_table(workloads)
    gpu = context.get("gpu", "unknown GPU")
    print("Results on %s (%s SMs); times are medians over repetitions.\n"
          % (gpu, context.get("gpu_sm_count", "?")))
    print("| workload | original ms | smc / original | slice / original |")
    print("|---|---:|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print("| **median** | | %s | %s |" % tuple(
        fmt(medians[v], "**%.3f**") for v in VARIANTS))
    if launch:
        base = launch.get(LAUNCH_BASE, {}).get("us_per_launch")
        print("\n| launch path | us per launch | extra us over "
              "cudaLaunchKernel |")
        print("|---|---:|---:|")
        for path in sorted(launch, key=lambda p: (p != LAUNCH_BASE, p)):
            us = launch[path].get("us_per_launch")
            if us is None:
                print("| %s | error: %s | |"
                      % (path, launch[path].get("error", "missing")))
                continue
            extra = "" if path == LAUNCH_BASE or base is None \
                else "%+.2f" % (us - base)
            print("| %s | %.2f | %s |" % (path, us, extra))
    return ratios, medians


def plot(names, ratios, medians, png, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not names:
        print("plot_bench.py: nothing to plot", file=sys.stderr)
        return
    width = 0.8 / len(VARIANTS)
    colors = {"smc": "tab:blue", "slice": "tab:orange"}
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(names) + 2), 4.5))
    for i, v in enumerate(VARIANTS):
        by_name = dict(ratios[v])
        offset = (i - (len(VARIANTS) - 1) / 2) * width
        xs = [k + offset for k, n in enumerate(names) if n in by_name]
        ys = [by_name[n] for n in names if n in by_name]
        bars = ax.bar(xs, ys, width, label=v, color=colors.get(v))
        ax.bar_label(bars, fmt="%.2f", fontsize=8)
        for k, n in enumerate(names):
            if n not in by_name:  # failed or missing: say so on the chart
                ax.text(k + offset, 0.02, "%s: no result" % v, rotation=90,
                        ha="center", va="bottom", fontsize=8, color="red")
        if medians[v] is not None:
            ax.axhline(medians[v], color=colors.get(v), linestyle="--",
                       linewidth=1,
                       label="%s median %.3f" % (v, medians[v]))
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("time / original time (lower is faster)")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.08),
              ncol=2 * len(VARIANTS), frameon=False)
    fig.tight_layout()
    fig.savefig(png, dpi=150)
    print("\nChart: %s" % png, file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("json", help="smc_bench JSON output")
    parser.add_argument("--png", help="write the bar chart here")
    parser.add_argument("--title", help="chart title")
    args = parser.parse_args()
    context, runs = load_runs(args.json)
    if not runs:
        sys.exit("plot_bench.py: no benchmarks in %s" % args.json)
    workloads, launch = collect(runs)
    ratios, medians = print_tables(context, workloads, launch)
    if args.png:
        title = args.title or "SMC variants vs original on %s" % context.get(
            "gpu", "GPU")
        plot(list(workloads), ratios, medians, args.png, title)


if __name__ == "__main__":
    main()
