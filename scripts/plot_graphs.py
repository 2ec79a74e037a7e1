#!/usr/bin/python3
# ===- plot_graphs.py - Chart and table of smc_graph_bench results ---------===#
#
# Reads the JSON smc_graph_bench writes (bench/graphs/graph_bench.cu) and
#  - prints Markdown: the device line; per graph the medians of plain
#    replays and of replays under graph layouts, their ratio (plain ms over
#    layouts ms: above 1, layouts replay faster), the search's trial cost
#    (the target is at most 5%), whether and after how many replays it
#    settled, its trials, the executable graphs the runtime holds, the
#    layout kept and the check; with --batch results, smc::Batch's median
#    and ratio too; then the geometric means of the ratios per kind and
#    over all graphs;
#  - writes PREFIX.png: per graph, the throughput over plain replay of
#    graph layouts (and of smc::Batch where measured) as bars.
#
# USAGE: plot_graphs.py graphs.json [--prefix PREFIX] [--no-png]
#   PREFIX defaults to the JSON file's path without ".json".  The chart needs
#   matplotlib (scripts/matplotlib_python.sh finds a python3 that has it);
#   without it only the table is printed.
# ===------------------------------------------------------------------------===#
import argparse
import json
import math
import os
import sys

TRIAL_COST_TARGET = 0.05


def geomean(values):
    values = [v for v in values if v > 0]
    if not values:
        return 0.0
    return math.exp(sum(math.log(v) for v in values) / len(values))


def cell(text):
    """Text for a Markdown table cell: no pipe or line break of its own."""
    return text.replace("|", "\\|").replace("\n", " ")


def settled_text(g):
    if not g.get("laid_out", False):
        return "not laid out"
    if not g["settled"]:
        return "no"
    return "after %d" % g["settled_at"] if g.get("settled_at", -1) >= 0 \
        else "yes"


def tables(data):
    graphs = data["graphs"]
    batch = any("batch_ms" in g for g in graphs)
    print("**%s** (%d SMs), %d replays per mode; medians of the last half; "
          "ratio: plain ms / layouts ms (above 1: layouts faster); trial "
          "cost: the search's replays beyond plain's median over plain's "
          "time (target at most %d%%).\n" % (
              data["device"], data.get("sms", 0), data["replays"],
              TRIAL_COST_TARGET * 100))
    header = ["graph", "kind", "plain ms", "layouts ms", "plain / layouts",
              "trial cost", "settled", "trials", "executables", "layout",
              "check"]
    align = ["---", "---", "---:", "---:", "---:", "---:", "---", "---:",
             "---:", "---", "---"]
    if batch:
        header += ["batch ms", "plain / batch", "batch check"]
        align += ["---:", "---:", "---"]
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join(align) + " |")
    for g in graphs:
        if g.get("laid_out"):
            layout = "`%s`" % g["layout"] if g["layout"] else ""
        else:
            layout = g.get("reason", "")
        row = [g["name"], g["kind"], "%.3f" % g["plain_ms"],
               "%.3f" % g["layouts_ms"], "%.3f" % g["ratio"],
               "%.1f%%" % (100 * g["trial_cost"]), settled_text(g),
               "%d" % g["trials"], "%d" % g["executables"],
               cell(layout), g["check"]]
        if batch:
            row += ["%.3f" % g["batch_ms"], "%.3f" % g["batch_ratio"],
                    g["batch_check"]] if "batch_ms" in g else ["", "", ""]
        print("| " + " | ".join(row) + " |")
    print()
    kinds = []
    for g in graphs:
        if g["kind"] not in kinds:
            kinds.append(g["kind"])
    for kind in kinds + [None]:
        chosen = [g for g in graphs if kind is None or g["kind"] == kind]
        line = "- %s: plain / layouts geomean %.3f" % (
            kind or "all graphs", geomean([g["ratio"] for g in chosen]))
        with_batch = [g for g in chosen if "batch_ms" in g]
        if with_batch:
            line += ", plain / batch geomean %.3f" % geomean(
                [g["batch_ratio"] for g in with_batch])
        within = sum(g["trial_cost"] <= TRIAL_COST_TARGET for g in chosen)
        line += "; trial cost within target: %d of %d" % (within, len(chosen))
        print(line)
    failed = [g["name"] for g in graphs
              if g["check"] != "ok" or g.get("batch_check", "ok") != "ok"]
    print("- checks: %s" % ("all ok" if not failed else
                            "failed: " + ", ".join(failed)))


def chart(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    graphs = data["graphs"]
    batch = any("batch_ms" in g for g in graphs)
    width = 0.4 if batch else 0.6
    xs = range(len(graphs))
    fig, ax = plt.subplots(figsize=(max(7, 0.6 * len(graphs) + 2), 4.5))
    ax.bar([x - (width / 2 if batch else 0) for x in xs],
           [g["ratio"] for g in graphs], width, label="graph layouts")
    if batch:
        ax.bar([x + width / 2 for x in xs],
               [g.get("batch_ratio", 0) for g in graphs], width,
               label="smc::Batch (Mode::Search)")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(list(xs))
    ax.set_xticklabels([g["name"] for g in graphs], rotation=45, ha="right",
                       fontsize=8)
    ax.set_ylabel("throughput over plain replay")
    ax.set_title("Graph layouts, %s" % data["device"])
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print("\nwrote %s" % path, file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json")
    parser.add_argument("--prefix")
    parser.add_argument("--no-png", action="store_true")
    args = parser.parse_args()
    with open(args.json) as f:
        data = json.load(f)
    tables(data)
    if args.no_png:
        return
    prefix = args.prefix or os.path.splitext(args.json)[0]
    try:
        chart(data, prefix + ".png")
    except ImportError:
        print("\nno matplotlib: no chart (scripts/matplotlib_python.sh)",
              file=sys.stderr)


if __name__ == "__main__":
    main()
