#!/usr/bin/python3
# ===- plot_timeline.py - Which kernel ran on which SM when -----------------===#
#
# Reads the chunk traces smc_qos_bench --trace DIR writes (DIR/trace-<mode>.csv:
# kernel,chunk,sm,begin_us,end_us; L = the long best-effort kernel, U = the
# urgent one) and draws DIR/timeline.png: one panel per mode, SMs up the
# side, time along, every chunk a bar on its SM (long: blue, urgent: red), so
# that partitions, yields and grow-back show at a glance.  Also prints, per
# mode, when the urgent chunks ran and on how many SMs.
#
# USAGE: plot_timeline.py DIR [--out FILE] [--window MS]
#   --window MS  the time shown around the urgent kernel (default 0.8 ms
#                before its first chunk to 0.8 ms after its last)
# Needs matplotlib (scripts/matplotlib_python.sh names a python3 with it).
# ===------------------------------------------------------------------------===#
import argparse
import csv
import glob
import os
import sys

MODE_ORDER = ("streams", "priority", "smc-live", "smc-priority")


def load(path):
    chunks = {"L": [], "U": []}
    with open(path) as f:
        for row in csv.DictReader(f):
            chunks[row["kernel"]].append(
                (int(row["sm"]), float(row["begin_us"]) / 1e3,
                 float(row["end_us"]) / 1e3))
    return chunks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--out")
    parser.add_argument("--window", type=float, default=0.8)
    args = parser.parse_args()
    traces = {}
    for path in glob.glob(os.path.join(args.dir, "trace-*.csv")):
        mode = os.path.basename(path)[len("trace-"):-len(".csv")]
        traces[mode] = load(path)
    if not traces:
        print("plot_timeline.py: no trace-*.csv in %s" % args.dir,
              file=sys.stderr)
        return 1
    modes = [m for m in MODE_ORDER if m in traces] + \
        sorted(m for m in traces if m not in MODE_ORDER)
    for mode in modes:
        urgent = traces[mode]["U"]
        first = min(b for _, b, _ in urgent)
        last = max(e for _, _, e in urgent)
        print("%-14s urgent chunks from %.3f to %.3f ms (%.3f ms) on %d SMs; "
              "long kernel ends at %.3f ms" %
              (mode, first, last, last - first,
               len(set(sm for sm, _, _ in urgent)),
               max(e for _, _, e in traces[mode]["L"])))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.collections import LineCollection
    except ImportError:
        print("plot_timeline.py: no matplotlib; no picture", file=sys.stderr)
        return 0
    fig, axes = plt.subplots(len(modes), 1, figsize=(11, 3.2 * len(modes)),
                             squeeze=False)
    for ax, mode in zip(axes[:, 0], modes):
        t = traces[mode]
        first = min(b for _, b, _ in t["U"])
        last = max(e for _, _, e in t["U"])
        lo, hi = first - args.window, last + args.window
        for kernel, color, width in (("L", "tab:blue", 1.9),
                                     ("U", "tab:red", 2.5)):
            segments = [((b, sm), (e, sm)) for sm, b, e in t[kernel]
                        if e >= lo and b <= hi]
            ax.add_collection(LineCollection(segments, colors=color,
                                             linewidths=width))
        ax.axvline(first, color="k", linestyle=":", linewidth=0.8)
        ax.set_xlim(lo, hi)
        ax.set_ylim(-1, max(sm for sm, _, _ in t["L"]) + 1)
        ax.set_ylabel("SM")
        ax.set_title("%s: urgent chunks %.3f-%.3f ms" % (mode, first, last),
                     fontsize=10)
    axes[-1, 0].set_xlabel("ms from the long kernel's first chunk "
                           "(blue: long kernel, red: urgent kernel)")
    fig.tight_layout()
    out = args.out or os.path.join(args.dir, "timeline.png")
    fig.savefig(out, dpi=110)
    print("wrote %s" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
