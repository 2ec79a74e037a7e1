#!/usr/bin/python3
# ===- plot_kernelet.py - Chart and tables of smc_kernelet_bench results ---===#
#
# Reads the JSON smc_kernelet_bench writes (bench/kernelet/kernelet.cu) and
#  - writes PREFIX.png: per mix, the throughput of each mode over plain
#    streams (streams ms / mode ms; above 1 is faster than streams);
#  - prints Markdown: the device line, a table of makespans and ratios per
#    mix with geometric means, and the model's prediction errors (its own
#    plan per mix, and over every layout of the oracle's grid, with the
#    Spearman rank correlation of predicted and measured makespans).
#
# USAGE: plot_kernelet.py kernelet.json[.gz] [more.json ...] [--prefix PREFIX]
#                         [--no-png]
#   Several files (runs of --first-mix/--mixes parts of one benchmark, on one
#   device) are taken together, their mixes in the order given.
#   PREFIX defaults to the first JSON file's path without ".json" (or
#   ".json.gz")
#   The chart needs matplotlib; without it only the tables are printed.
# ===------------------------------------------------------------------------===#
import argparse
import gzip
import json
import math
import os
import statistics
import sys



def geomean(values):
    values = [v for v in values if v > 0]
    if not values:
        return 0.0
    return math.exp(sum(math.log(v) for v in values) / len(values))


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0] * len(values)
    for rank, i in enumerate(order):
        out[i] = rank
    return out


def spearman(a, b):
    n = len(a)
    if n < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(ra, rb)) / (n * (n * n - 1))


def tables(data):
    mixes = data["mixes"]
    lines = ["%s (%d SMs), %d rounds, medians; ratios: plain streams' "
             "makespan over the mode's (above 1: faster than streams)." %
             (data["device"], data["sms"], data["rounds"]), ""]
    timed = [k for k in ("fifo", "streams", "auto", "kernelet", "slices",
                         "partitions", "combined", "search", "oracle")
             if all(k + "_ms" in m for m in mixes)]
    shown = [k for k in timed if k not in ("fifo", "streams")]
    oracle = "oracle" in timed
    lines.append("| mix | " + " | ".join(k + " ms" for k in timed) + " | " +
                 " | ".join(shown) + (" | search / oracle |" if oracle else
                                      " |"))
    lines.append("|---|" + "---:|" * (len(timed) + len(shown) + oracle))
    ratios = {m: [] for m in shown}
    gaps = []
    for m in mixes:
        s = m["streams_ms"]
        row = [m["mix"]] + ["%.3f" % m[k + "_ms"] for k in timed]
        for mode in shown:
            ratios[mode].append(s / m[mode + "_ms"])
            row.append("%.3f" % ratios[mode][-1])
        if oracle:
            gaps.append(m["oracle_ms"] / m["search_ms"])
            row.append("%.3f" % gaps[-1])
        lines.append("| " + " | ".join(row) + " |")
    lines.append("| **geomean** |" + " |" * len(timed) + "".join(
        " **%.3f** |" % geomean(ratios[k]) for k in shown) +
        (" **%.3f** |" % geomean(gaps) if oracle else ""))
    lines.append("")
    own = [m["kernelet_prediction_error"] for m in mixes
           if m.get("kernelet_prediction_error", -1) >= 0]
    grid_errors, rhos = [], []
    for m in mixes:
        grid = [p for p in m.get("oracle_grid", []) if p["predicted_ms"] > 0]
        grid_errors += [abs(p["predicted_ms"] - p["ms"]) / p["ms"]
                        for p in grid]
        if grid:
            rhos.append(spearman([p["ms"] for p in grid],
                                 [p["predicted_ms"] for p in grid]))
    if own:
        lines.append("Model error on its own plan: median %.3f, max %.3f "
                     "(%d mixes)." % (statistics.median(own), max(own),
                                      len(own)))
    if grid_errors:
        lines.append("Model error over the oracle's layouts: median %.3f, "
                     "max %.3f (%d layouts); Spearman rank correlation of "
                     "predicted and measured per mix: median %.2f, range "
                     "%.2f to %.2f." %
                     (statistics.median(grid_errors), max(grid_errors),
                      len(grid_errors), statistics.median(rhos), min(rhos),
                      max(rhos)))
    spreads = [max(m["times"]["search"]) / min(m["times"]["search"])
               for m in mixes if m.get("times", {}).get("search")]
    if spreads:
        lines.append("Search's kept layout over the rounds, slowest over "
                     "fastest per mix: median %.3f, max %.3f." %
                     (statistics.median(spreads), max(spreads)))
    kept = [(m["mix"], m["combined_layout"]) for m in mixes
            if "combined_layout" in m]
    if kept:
        # smc::Batch::Split as Layout::text() writes it: whole "", slices
        # "s", workers "w", "f", "m", partition "p".
        names = ["", "s", "w", "f", "m", "p"]
        lines.append("Combined grid's fastest layout per mix (lane 0 | lane "
                     "1; s slices, p partition, else whole): " + "; ".join(
                         "%s: %s | %s" % (mix, " ".join(
                             str(s) + names[k["splits"][s]]
                             for s in k["lanes"][0]), " ".join(
                             str(s) + names[k["splits"][s]]
                             for s in k["lanes"][1])) for mix, k in kept) +
                     ".")
    hosts = [m["run_host_us_per_launch"] for m in mixes]
    lines.append("Host time of planning with the Kernelet model and Batch::run per launch: "
                 "median %.1f us, max %.1f us." %
                 (statistics.median(hosts), max(hosts)))
    return "\n".join(lines), ratios


def chart(data, ratios, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib missing: no chart)", file=sys.stderr)
        return
    mixes = [m["mix"] for m in data["mixes"]]
    modes = [k for k in ("auto", "kernelet", "slices", "partitions",
                         "combined", "search", "oracle") if k in ratios]
    width = 0.8 / len(modes)
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(mixes)), 4.2))
    for i, mode in enumerate(modes):
        xs = [x + (i - (len(modes) - 1) / 2) * width for x in range(len(mixes))]
        ax.bar(xs, ratios[mode], width, label=mode)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(mixes)))
    ax.set_xticklabels(mixes, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("throughput over plain streams")
    ax.set_title("smc::Batch on %s: four workloads per mix" % data["device"])
    ax.legend(loc="lower right", ncol=len(modes), fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote %s" % path, file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("json", nargs="+")
    parser.add_argument("--prefix")
    parser.add_argument("--no-png", action="store_true")
    args = parser.parse_args()
    data = None
    for path in args.json:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            part = json.load(f)
        if data is None:
            data = part
            continue
        for key in ("device", "sms", "rounds"):
            if part[key] != data[key]:
                sys.exit("%s: %s %r, not %r as in %s" %
                         (path, key, part[key], data[key], args.json[0]))
        data["mixes"] += part["mixes"]
    text, ratios = tables(data)
    print(text)
    if not args.no_png:
        first = args.json[0]
        prefix = first[:-len(".gz")] if first.endswith(".gz") else first
        prefix = args.prefix or os.path.splitext(prefix)[0]
        chart(data, ratios, prefix + ".png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
