#!/usr/bin/python3
# ===- plot_bench.py - Chart and table of smc_bench results -----------------===#
#
# Reads the JSON that `smc_bench --benchmark_out=FILE
# --benchmark_out_format=json` (or smc_suite_bench, the workload suite, with
# the same options) writes, with or without --benchmark_repetitions /
# --benchmark_report_aggregates_only, benchmarks named
# <workload>/<original|smc|slice>[/manual_time], and
#  - writes a PNG bar chart of variant time / original time per workload
#    (smc and slice), with the median over workloads of each variant marked
#    and failed variants labelled as failed;
#  - prints a Markdown table: workload, original ms, smc ratio, slice ratio,
#    then rows with the median and the worst (largest) ratio over workloads;
#    then, where the file has other forms (smc_suite_bench's smc-cluster),
#    a table of their ratios with the median of each form; then the error
#    message of every failed benchmark;
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


def cell_failed(entry):
    return "**failed**" if "error" in entry else "missing"


def workload_table(workloads):
    """Returns the table rows, {variant: [(workload, ratio)]}, the median and
    the worst (largest) ratio of each variant, and the failures as
    [(benchmark, message)]."""
    rows, ratios, failures = [], {v: [] for v in VARIANTS}, []
    for name in workloads:
        variants = workloads[name]
        orig = variants.get("original", {})
        orig_ms = orig.get("ms")
        if "error" in orig:
            failures.append(("%s/original" % name, orig["error"]))
        row = [name, fmt(orig_ms, "%.3f") if orig_ms else cell_failed(orig)]
        for v in VARIANTS:
            entry = variants.get(v, {})
            if "error" in entry:
                failures.append(("%s/%s" % (name, v), entry["error"]))
            if orig_ms and "ms" in entry:
                ratio = entry["ms"] / orig_ms
                ratios[v].append((name, ratio))
                row.append("%.3f" % ratio)
            elif "ms" in entry:
                row.append("(%.3f ms)" % entry["ms"])
            else:
                row.append(cell_failed(entry))
        rows.append(row)
    medians = {v: statistics.median(r for _, r in ratios[v])
               if ratios[v] else None for v in VARIANTS}
    worst = {v: max(ratios[v], key=lambda nr: nr[1]) if ratios[v] else None
             for v in VARIANTS}
    return rows, ratios, medians, worst, failures


def other_forms_table(workloads):
    """Returns rows (workload, form, ratio or failure) of the forms other
    than original and VARIANTS (e.g. smc-cluster), the median ratio of each
    such form, and their failures as [(benchmark, message)]."""
    rows, ratios, failures = [], defaultdict(list), []
    for name in workloads:
        orig_ms = workloads[name].get("original", {}).get("ms")
        for form, entry in workloads[name].items():
            if form == "original" or form in VARIANTS:
                continue
            if "error" in entry:
                failures.append(("%s/%s" % (name, form), entry["error"]))
            if orig_ms and "ms" in entry:
                ratios[form].append(entry["ms"] / orig_ms)
                rows.append([name, form, "%.3f" % (entry["ms"] / orig_ms)])
            else:
                rows.append([name, form, cell_failed(entry)])
    medians = {form: statistics.median(r) for form, r in ratios.items()}
    return rows, medians, failures


def context_line(context, runs):
    """'Results on <gpu> (...)' from the benchmark context."""
    details = ["%s SMs" % context.get("gpu_sm_count", "?")]
    for key, label in (("gpu_sm_clock", "SM clock"),
                       ("gpu_memory_clock", "memory clock")):
        if key in context:
            details.append("%s %s" % (label, context[key]))
    extra = []
    if "suite_size" in context:
        extra.append("size %s" % context["suite_size"])
    if "smc_version" in context:
        extra.append("SMC %s" % context["smc_version"])
    for key, label in (("cuda_runtime", "CUDA runtime"),
                       ("cuda_driver", "driver")):
        if key in context:
            extra.append("%s %s" % (label, context[key]))
    reps = sorted({e["repetitions"] for e in runs.values()
                   if isinstance(e.get("repetitions"), (int, float))})
    over = "over %s repetitions" % "/".join("%d" % r for r in reps) \
        if reps else "over repetitions"
    return "Results on %s (%s)%s; times are medians %s." % (
        context.get("gpu", "unknown GPU"), ", ".join(details),
        "".join(", " + e for e in extra), over)


def print_tables(context, runs, workloads, launch):
    rows, ratios, medians, worst, failures = workload_table(workloads)
    print(context_line(context, runs) + "\n")
    print("| workload | original ms | smc / original | slice / original |")
    print("|---|---:|---:|---:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print("| **median** | | %s | %s |" % tuple(
        fmt(medians[v], "**%.3f**") for v in VARIANTS))
    print("| **worst** | | %s | %s |" % tuple(
        "n/a" if worst[v] is None else "**%.3f** (%s)" % (worst[v][1],
                                                           worst[v][0])
        for v in VARIANTS))
    other_rows, other_medians, other_failures = other_forms_table(workloads)
    if other_rows:
        print("\n| workload | form | form / original |")
        print("|---|---|---:|")
        for row in other_rows:
            print("| " + " | ".join(row) + " |")
        for form in sorted(other_medians):
            print("| **median** | %s | **%.3f** |" % (form,
                                                      other_medians[form]))
    failures = failures + other_failures
    if failures:
        print("\nFailed:\n")
        for bench, message in failures:
            print("- `%s`: %s" % (bench, message))
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
    return ratios, medians, failures


def plot(workloads, ratios, medians, png, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(workloads)
    if not names:
        print("plot_bench.py: nothing to plot", file=sys.stderr)
        return
    many = len(names) > 10
    width = 0.8 / len(VARIANTS)
    colors = {"smc": "tab:blue", "slice": "tab:orange"}
    fig, ax = plt.subplots(
        figsize=(max(6, (0.6 if many else 1.4) * len(names) + 2), 4.5))
    top = max([r for v in VARIANTS for _, r in ratios[v]] + [1.0])
    if top > 4:  # a few outliers would flatten everything else
        from matplotlib import ticker
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    for i, v in enumerate(VARIANTS):
        by_name = dict(ratios[v])
        offset = (i - (len(VARIANTS) - 1) / 2) * width
        xs = [k + offset for k, n in enumerate(names) if n in by_name]
        ys = [by_name[n] for n in names if n in by_name]
        bars = ax.bar(xs, ys, width, label=v, color=colors.get(v))
        ax.bar_label(bars, fmt="%.2f", fontsize=6 if many else 8,
                     rotation=90 if many else 0, padding=2)
        for k, n in enumerate(names):
            if n in by_name:
                continue
            # No ratio: say why on the chart.
            if "error" in workloads[n].get(v, {}):
                why = "%s failed" % v
            elif "error" in workloads[n].get("original", {}):
                why = "original failed"
            else:
                why = "%s: no result" % v
            ax.text(k + offset, 0.02, why, rotation=90, ha="center",
                    va="bottom", fontsize=7 if many else 8, color="red",
                    transform=ax.get_xaxis_transform())
        if medians[v] is not None:
            ax.axhline(medians[v], color=colors.get(v), linestyle="--",
                       linewidth=1,
                       label="%s median %.3f" % (v, medians[v]))
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.margins(y=0.12)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=45 if many else 0,
                       ha="right" if many else "center")
    ax.set_xlim(-0.6, len(names) - 0.4)
    ax.set_ylabel("time / original time (lower is faster)")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper center",
              bbox_to_anchor=(0.5, -0.22 if many else -0.08),
              ncol=2 * len(VARIANTS), frameon=False)
    fig.tight_layout()
    fig.savefig(png, dpi=150)
    print("\nChart: %s" % png, file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("json",
                        help="smc_bench or smc_suite_bench JSON output")
    parser.add_argument("--png", help="write the bar chart here")
    parser.add_argument("--title", help="chart title")
    args = parser.parse_args()
    context, runs = load_runs(args.json)
    if not runs:
        sys.exit("plot_bench.py: no benchmarks in %s" % args.json)
    workloads, launch = collect(runs)
    ratios, medians, _ = print_tables(context, runs, workloads, launch)
    if args.png:
        gpu = context.get("gpu", "GPU")
        if args.title:
            title = args.title
        elif "suite_size" in context:
            title = "SMC workload suite (%s size): variants vs original on " \
                "%s" % (context["suite_size"], gpu)
        else:
            title = "SMC variants vs original on %s" % gpu
        plot(workloads, ratios, medians, args.png, title)


if __name__ == "__main__":
    main()
