#!/usr/bin/python3
# ===- plot_light.py - Chart and tables of smc_light_bench results ---------===#
#
# Reads the JSON smc_light_bench writes (bench/light/light_bench.cu) and
#  - writes PREFIX.png: host time of one call against the CTAs of its grid
#    (slices: one launch per CTA under slice(size=1); smc, auto, locality:
#    one launch), log-log, with CUB's scan under slice(size=1) by tiles;
#  - prints Markdown: the device, the launch storm (time per launch and its
#    ratio to the original per policy), the slices and their fitted slopes.
#
# USAGE: plot_light.py light.json [--prefix PREFIX] [--no-png]
#   PREFIX defaults to the JSON file's path without ".json".  The chart needs
#   matplotlib (scripts/matplotlib_python.sh finds a python3 that has it);
#   without it only the tables are printed.
# ===------------------------------------------------------------------------===#
import argparse
import json
import os
import sys


def table(header, rows):
    """Prints a Markdown table: `header` a list of (title, right-aligned)."""
    print("| " + " | ".join(title for title, _ in header) + " |")
    print("| " + " | ".join("---:" if right else "---"
                            for _, right in header) + " |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def tables(data):
    print("**%s**\n" % data["device"])
    if "storm" in data:
        table([("kernel", False), ("policy", False), ("µs per launch", True),
               ("over `original`", True)],
              [(r["case"], "`%s`" % r["policy"], "%.2f" % r["us_per_launch"],
                "%.3f" % r["over_original"]) for r in data["storm"]])
    if "slices" in data:
        table([("policy", False), ("CTAs", True), ("call ms", True),
               ("µs per CTA", True)],
              [("`%s`" % r["policy"], "%d" % r["ctas"],
                "%.3f" % (r["call_s"] * 1e3), "%.3f" % r["call_us_per_cta"])
               for r in data["slices"]])
    if "cubscan" in data:
        table([("CUB scan, `slice(size=1)`", False), ("tiles", True),
               ("call ms", True), ("µs per tile", True)],
              [("2^%d ints%s" % (r["ints"].bit_length() - 1,
                                 " (default stream)"
                                 if r.get("default_stream") else ""),
                "%d" % r["tiles_estimate"], "%.3f" % (r["call_s"] * 1e3),
                "%.3f" % (r["call_s"] / r["tiles_estimate"] * 1e6))
               for r in data["cubscan"]])
    for f in data.get("fits", []):
        print("- %s `%s`: %.3f µs per slice, intercept %.1f µs" % (
            f["bench"], f["policy"], f["us_per_slice"], f["intercept_us"]))


def chart(data, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    by_policy = {}
    for r in data.get("slices", []):
        by_policy.setdefault(r["policy"], []).append(
            (r["ctas"], r["call_s"] * 1e6))
    for policy, points in by_policy.items():
        xs, ys = zip(*sorted(points))
        ax.plot(xs, ys, marker="o", label=policy)
    scan = [(r["tiles_estimate"], r["call_s"] * 1e6)
            for r in data.get("cubscan", []) if not r.get("default_stream")]
    if scan:
        xs, ys = zip(*sorted(scan))
        ax.plot(xs, ys, marker="s", linestyle="--",
                label="CUB scan, slice(size=1), by tiles")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("CTAs of the grid (slices under slice(size=1))")
    ax.set_ylabel("host time of the call (µs)")
    ax.set_title("Host time per call, %s" % data["device"])
    ax.grid(True, which="both", alpha=0.3)
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
