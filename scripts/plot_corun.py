#!/usr/bin/python3
# ===- plot_corun.py - Charts and tables of smc_corun_bench results --------===#
#
# Reads the JSON smc_corun_bench writes (bench/corun/CoRunReport.h: context,
# workloads, benchmarks = one record per group and mode, summary) and
#  - writes PREFIX-stp.png, a heatmap of STP per group (rows: pairs, then
#    triples, ...) and mode (columns), each cell annotated; modes that
#    could not run are grey ("n/a"), runs whose check failed are marked
#    "FAIL";
#  - writes PREFIX-means.png, bars of each mode's mean STP and mean ANTT
#    over the groups it ran (ANTT: lower is better), one bar per group size
#    where the file has pairs and triples;
#  - prints Markdown: the context line, the table of modes (mean STP, mean
#    ANTT, against plain streams; one table per group size where the file
#    has several: the means over pairs, over triples), the table of STP per
#    group and mode, and every failure and unavailable mode.
# A group's size is the length of its record's "workloads" (or "kernels";
# results of pairs written before triples have no "workloads"); a file of
# pairs only prints what it printed before triples.
# STP = sum of T_alone / T_corun; ANTT = mean of T_corun / T_alone, over the
# group's workloads.
#
# USAGE: plot_corun.py corun.json [--prefix PREFIX] [--no-png]
#   PREFIX defaults to the JSON file's path without ".json".
#   The charts need matplotlib; without it only the tables are printed.
# ===------------------------------------------------------------------------===#
import argparse
import json
import os
import sys

MODE_ORDER = ("serial", "streams", "priority", "green", "smc-shared",
              "smc-oracle", "smc-scheduler", "smc-trials", "batch-search",
              "batch-turnaround")


def size_of(record):
    """The number of workloads of a record's group."""
    if record.get("workloads"):
        return len(record["workloads"])
    if record.get("kernels"):
        return len(record["kernels"])
    return record["pair"].count("+") + 1


def noun(size, plural=False):
    """'pair', 'triple', 'group of 4' (plural: 'pairs', ...)."""
    if size == 2:
        return "pairs" if plural else "pair"
    if size == 3:
        return "triples" if plural else "triple"
    return "groups of %d" % size if plural else "group of %d" % size


def load(path):
    with open(path) as f:
        data = json.load(f)
    records = data.get("benchmarks", [])
    modes = [m for m in data.get("context", {}).get("modes", MODE_ORDER)]
    pairs = []  # every group, whatever its size, in the order of the file
    sizes = {}
    for r in records:
        if r["pair"] not in pairs:
            pairs.append(r["pair"])
            sizes[r["pair"]] = size_of(r)
    # Pairs first, then triples, ... (stable: a file's order within a size).
    pairs.sort(key=lambda p: sizes[p])
    cells = {(r["pair"], r["mode"]): r for r in records}
    return data, modes, pairs, cells, sizes


def group_sizes(pairs, sizes):
    return sorted(set(sizes[p] for p in pairs))


def summary_of(data, mode, size, several):
    """A mode's summary: over every group, or over those of one size where
    the file has several sizes."""
    s = data.get("summary", {}).get(mode, {})
    if several:
        s = s.get("by_size", {}).get(str(size), {})
    return s


def stp_of(record):
    if record is None or record.get("status") != "ok":
        return None
    return record.get("stp")


def cell_text(record):
    if record is None:
        return "-"
    status = record.get("status")
    if status == "unavailable":
        return "n/a"
    if status == "failed":
        return "FAIL"
    stp = record.get("stp")
    return "%.2f" % stp if stp else "-"


def context_line(data):
    c = data.get("context", {})
    grid = "split step %s, workers %s" % (
        c.get("split_step", "?"),
        ",".join(str(w) for w in c.get("oracle_workers_per_sm", [])))
    return ("Results on %s (%s SMs, driver %s, CUDA runtime %s), %s rounds, "
            "oracle grid %s, %s; %s." % (
                c.get("gpu", "unknown GPU"), c.get("gpu_sm_count", "?"),
                c.get("cuda_driver", "?"), c.get("cuda_runtime", "?"),
                c.get("rounds", "?"), grid,
                "quick" if c.get("quick") else "full run",
                c.get("date", "undated")))


def fmt(value, pattern="%.3f"):
    return "" if value is None else pattern % value


def print_summary(data, modes, size, several):
    many, one = noun(size, plural=True), noun(size)
    print("| mode | %s | mean STP | mean ANTT | STP / streams (mean) | "
          "STP / streams (worst %s) | ANTT gain over streams |" % (many, one))
    print("|---|---:|---:|---:|---:|---:|---:|")
    for mode in modes:
        s = summary_of(data, mode, size, several)
        worst = ""
        if "stp_vs_streams_min" in s:
            worst = "%.3f (%s)" % (s["stp_vs_streams_min"],
                                   s.get("stp_vs_streams_min_pair", "?"))
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            mode, s.get("pairs", 0), fmt(s.get("mean_stp")),
            fmt(s.get("mean_antt")), fmt(s.get("stp_vs_streams_mean")),
            worst, fmt(s.get("antt_vs_streams"))))


def print_tables(data, modes, pairs, cells, sizes):
    print(context_line(data) + "\n")
    present = group_sizes(pairs, sizes) or [2]
    several = len(present) > 1
    for i, size in enumerate(present):
        if several:
            count = sum(1 for p in pairs if sizes[p] == size)
            print("%sMeans over the %d %s:\n" % (
                "\n" if i else "", count, noun(size, plural=True)))
        print_summary(data, modes, size, several)
    row = noun(present[0]) if not several else "group"
    print("\nSTP per %s and mode:\n" % row)
    print("| %s | categories | " % row + " | ".join(modes) + " |")
    print("|---|---|" + "---:|" * len(modes))
    for pair in pairs:
        first = next((cells[(pair, m)] for m in modes if (pair, m) in cells),
                     {})
        print("| %s | %s | %s |" % (
            pair, ", ".join(first.get("categories", [])),
            " | ".join(cell_text(cells.get((pair, m))) for m in modes)))
    notes = []
    for pair in pairs:
        for mode in modes:
            r = cells.get((pair, mode))
            if r and r.get("status") != "ok":
                notes.append("- `%s/%s` %s: %s" % (
                    pair, mode, r.get("status"), r.get("note", "")))
    for failure in data.get("failures", []):
        notes.append("- FAILED: %s" % failure)
    if data.get("skipped_pairs"):
        notes.append("- skipped (time budget): %s"
                     % ", ".join(data["skipped_pairs"]))
    if data.get("fatal_error"):
        notes.append("- fatal error: %s" % data["fatal_error"])
    if notes:
        print("\nNotes:\n")
        print("\n".join(notes))


def plot(data, modes, pairs, cells, sizes, prefix):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    if not pairs:
        print("plot_corun.py: no records to plot", file=sys.stderr)
        return []
    device = data.get("context", {}).get("gpu", "unknown GPU")
    values = np.full((len(pairs), len(modes)), np.nan)
    for i, pair in enumerate(pairs):
        for j, mode in enumerate(modes):
            stp = stp_of(cells.get((pair, mode)))
            if stp:
                values[i, j] = stp
    present = group_sizes(pairs, sizes)
    several = len(present) > 1
    row = noun(present[0]) if not several else "group"
    fig, ax = plt.subplots(figsize=(1.3 * len(modes) + 3,
                                    0.38 * len(pairs) + 2))
    cmap = matplotlib.colormaps["RdYlGn"].copy()
    cmap.set_bad("lightgrey")
    finite = values[np.isfinite(values)]
    low = min(0.8, finite.min()) if finite.size else 0.8
    high = max(1.6, finite.max()) if finite.size else 1.6
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=low,
                      vmax=high, aspect="auto")
    for i, pair in enumerate(pairs):
        for j, mode in enumerate(modes):
            ax.text(j, i, cell_text(cells.get((pair, mode))), ha="center",
                    va="center", fontsize=8)
    # A line between the pairs and the triples (rows are sorted by size).
    for i in range(1, len(pairs)):
        if sizes[pairs[i]] != sizes[pairs[i - 1]]:
            ax.axhline(i - 0.5, color="black", linewidth=1.5)
    ax.set_xticks(range(len(modes)), modes, rotation=30, ha="right")
    ax.set_yticks(range(len(pairs)), pairs)
    ax.set_title("STP per %s and mode, %s" % (row, device))
    fig.colorbar(image, ax=ax, label="STP (sum of T_alone / T_corun)")
    fig.tight_layout()
    heatmap = prefix + "-stp.png"
    fig.savefig(heatmap, dpi=120)
    plt.close(fig)

    shown = [m for m in modes
             if any(summary_of(data, m, n, several).get("pairs")
                    for n in present)]
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(11 + 2 * (len(present) - 1), 4))
    width = 0.8 / len(present)
    hatches = ("", "//", "..", "xx")
    for ax, key, label in ((left, "mean_stp", "mean STP (higher is better)"),
                           (right, "mean_antt",
                            "mean ANTT (lower is better)")):
        for k, size in enumerate(present):
            offset = (k - (len(present) - 1) / 2) * width
            heights = [summary_of(data, m, size, several).get(key, 0)
                       for m in shown]
            bars = ax.bar([i + offset for i in range(len(shown))], heights,
                          width=width if several else 0.8,
                          hatch=hatches[k % len(hatches)],
                          label=noun(size, plural=True), color=[
                              "tab:orange" if m.startswith("smc")
                              else "tab:blue" for m in shown])
            ax.bar_label(bars, fmt="%.2f", fontsize=6 if several else 8)
        ax.set_xticks(range(len(shown)), shown, rotation=30, ha="right")
        ax.set_ylabel(label)
        ax.axhline(1.0, color="grey", linewidth=0.8)
        if several:
            ax.legend(fontsize=8)
    counts = ", ".join("%d %s" % (sum(1 for p in pairs if sizes[p] == n),
                                  noun(n, plural=True)) for n in present)
    fig.suptitle("Modes over %s, %s" % (counts, device))
    fig.tight_layout()
    means = prefix + "-means.png"
    fig.savefig(means, dpi=120)
    plt.close(fig)
    return [heatmap, means]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("json")
    parser.add_argument("--prefix")
    parser.add_argument("--no-png", action="store_true")
    args = parser.parse_args()
    data, modes, pairs, cells, sizes = load(args.json)
    print_tables(data, modes, pairs, cells, sizes)
    if args.no_png:
        return 0
    prefix = args.prefix or os.path.splitext(args.json)[0]
    try:
        written = plot(data, modes, pairs, cells, sizes, prefix)
    except ImportError as error:
        print("plot_corun.py: no charts (%s)" % error, file=sys.stderr)
        return 0
    for path in written:
        print("plot_corun.py: wrote %s" % path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
