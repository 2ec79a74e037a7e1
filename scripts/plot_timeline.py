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
# Given a file instead of a directory, it reads the trace any program leaves
# with SMC_TRACE=FILE (runtime/observe/Trace.h: launch,kernel,device,chunk,chunks,
# sm,worker,begin_us,end_us) and draws FILE's name with .png: SMs up the
# side, time along, every chunk a bar on its SM, one colour per kernel; and
# prints per launch its kernel, chunks, SMs and when it ran.
#
# USAGE: plot_timeline.py DIR [--out FILE] [--window MS]
#        plot_timeline.py TRACE.csv [--out FILE] [--from MS] [--to MS]
#   --window MS  the time shown around the urgent kernel (default 0.8 ms
#                before its first chunk to 0.8 ms after its last)
#   --from, --to the time shown of an SMC_TRACE file (default: all of it)
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


def plot_trace(args):
    """An SMC_TRACE file: one panel, a colour per kernel."""
    spans = []  # (launch, kernel, sm, begin ms, end ms)
    with open(args.dir) as f:
        for row in csv.DictReader(f):
            spans.append((int(row["launch"]), row["kernel"], int(row["sm"]),
                          float(row["begin_us"]) / 1e3,
                          float(row["end_us"]) / 1e3))
    if not spans:
        print("plot_timeline.py: no chunks in %s" % args.dir, file=sys.stderr)
        return 1
    lo = args.begin if args.begin is not None else min(s[3] for s in spans)
    hi = args.end if args.end is not None else max(s[4] for s in spans)
    for launch in sorted(set(s[0] for s in spans)):
        mine = [s for s in spans if s[0] == launch]
        print("launch %d %s: %d chunk records on %d SMs (%d-%d), %.3f-%.3f ms"
              % (launch, mine[0][1], len(mine), len(set(s[2] for s in mine)),
                 min(s[2] for s in mine), max(s[2] for s in mine),
                 min(s[3] for s in mine), max(s[4] for s in mine)))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.collections import LineCollection
    except ImportError:
        print("plot_timeline.py: no matplotlib; no picture", file=sys.stderr)
        return 0
    kernels = []
    for s in spans:
        if s[1] not in kernels:
            kernels.append(s[1])
    colors = plt.get_cmap("tab10").colors
    fig, ax = plt.subplots(figsize=(11, 4.5))
    for i, kernel in enumerate(kernels):
        segments = [((b, sm), (e, sm)) for _, k, sm, b, e in spans
                    if k == kernel and e >= lo and b <= hi]
        ax.add_collection(LineCollection(segments, colors=colors[i % 10],
                                         linewidths=1.9, label=kernel))
    ax.set_xlim(lo, hi)
    ax.set_ylim(-1, max(s[2] for s in spans) + 1)
    ax.set_ylabel("SM")
    ax.set_xlabel("ms from the first traced chunk")
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title("SMC_TRACE: %s" % os.path.basename(args.dir), fontsize=10)
    fig.tight_layout()
    out = args.out or os.path.splitext(args.dir)[0] + ".png"
    fig.savefig(out, dpi=110)
    print("wrote %s" % out)
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--out")
    parser.add_argument("--window", type=float, default=0.8)
    parser.add_argument("--from", dest="begin", type=float)
    parser.add_argument("--to", dest="end", type=float)
    args = parser.parse_args()
    if os.path.isfile(args.dir):
        return plot_trace(args)
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
