#!/usr/bin/python3
# ===- plot_tail.py - Tables and chart of smc_tail_bench results -----------===#
#
# Reads the JSON smc_tail_bench writes (bench/corun/tail.cu: the device, the
# urgent kernel's time alone, one record per mode, best-effort kind and CTA
# length) and
#  - prints Markdown, per file: the urgent kernel alone (time, queue and run
#    p50), then per configuration the urgent latency over alone (p50, p99,
#    p99.9), its queue and run p50 / p99 in us and the best effort's
#    throughput over alone;
#  - with --png FILE, charts all files' configurations merged (a later
#    file's (mode, kind, CTA us) replaces an earlier one's; the device and
#    alone row are the first file's): per kind, bars of each mode's p99
#    latency over alone (a dot at p50; lines at the 1.5x and 2x targets),
#    and below, stacked bars of its queue p50 (hatched) and run p50 in us.
#    A queue below 0 (the device clock's calibration) is drawn as 0.
# Modes and kinds keep the order they first appear in; any name is taken.
#
# USAGE: plot_tail.py tail.json [more.json ...] [--png FILE] [--no-table]
#                     [--modes a,b,...] [--kinds spin,sleep,...]
#   The chart needs matplotlib (scripts/matplotlib_python.sh finds a python3
#   that has it); the tables do not.
# ===------------------------------------------------------------------------===#
import argparse
import json
import sys

TARGETS = ((1.5, "--", "1.5x target"), (2.0, ":", "2x target"))


def ordered(values):
    return list(dict.fromkeys(values))


def num(c, key, fmt, suffix=""):
    v = c.get(key)
    return "-" if v is None else (fmt % v) + suffix


def split(data, modes, kinds):
    """The alone record and the others, filtered by --modes and --kinds."""
    configs = data.get("configs", [])
    alone = next((c for c in configs if c["mode"] == "alone"), {})
    rest = [c for c in configs if c["mode"] != "alone" and
            (not modes or c["mode"] in modes) and
            (not kinds or c["kind"] in kinds)]
    return alone, rest


def table(path, data, modes, kinds):
    alone, rest = split(data, modes, kinds)
    settings = ", ".join("%s %s" % (name, data[k]) for k, name in
                         (("depth", "depth"), ("green_sms", "green SMs"),
                          ("headroom", "headroom")) if k in data)
    print("**%s**%s\n" % (path, " (%s)" % settings if settings else ""))
    print("urgent kernel alone: %s us; queue p50 %s us, run p50 %s us "
          "(device %s)\n" % (num(data, "urgent_alone_us", "%.1f"),
                             num(alone, "queue_us_p50", "%.1f"),
                             num(alone, "run_us_p50", "%.1f"),
                             data.get("device", "?")))
    print("| kind | CTA µs | mode | p50 | p99 | p99.9 | queue p50 / p99 µs "
          "| run p50 / p99 µs | best effort |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for c in rest:
        print("| %s | %s | %s | %s | %s | %s | %s / %s | %s / %s | %s |" % (
            c["kind"], c.get("cta_us", "-"), c["mode"],
            num(c, "latency_p50", "%.2f", "x"),
            num(c, "latency_p99", "%.2f", "x"),
            num(c, "latency_p999", "%.2f", "x"),
            num(c, "queue_us_p50", "%.1f"), num(c, "queue_us_p99", "%.1f"),
            num(c, "run_us_p50", "%.1f"), num(c, "run_us_p99", "%.1f"),
            num(c, "best_effort_throughput", "%.3f", "x")))
    print()


def merge(datas):
    """The first file's header and alone row; the configurations of all,
    a later (mode, kind, cta_us) replacing an earlier one in its place."""
    merged = {}
    for data in datas:
        for c in data.get("configs", []):
            key = (c["mode"], c["kind"], c.get("cta_us"))
            if c["mode"] == "alone" and any(k[0] == "alone" for k in merged):
                continue
            merged[key] = c
    return dict(datas[0], configs=list(merged.values()))


def chart(data, modes, kinds, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FixedLocator, NullLocator
    alone, rest = split(data, modes, kinds)
    if not rest:
        sys.exit("plot_tail.py: no configurations to chart")
    kind_names = ordered(c["kind"] for c in rest)
    mode_names = ordered(c["mode"] for c in rest)
    ctas = sorted(ordered(c.get("cta_us", 0) for c in rest))
    color = {m: plt.cm.tab10(i % 10) for i, m in enumerate(mode_names)}
    by = {(c["mode"], c["kind"], c.get("cta_us", 0)): c for c in rest}
    width = 0.8 / len(mode_names)
    fig, axes = plt.subplots(2, len(kind_names), squeeze=False, sharey="row",
                             figsize=(1.2 + 4.6 * len(kind_names), 8.2))
    top = max(c.get("latency_p99", 1) for c in rest)
    low = min([0.9] + [0.9 * c[k] for c in rest
                       for k in ("latency_p50", "latency_p99") if k in c])
    for col, kind in enumerate(kind_names):
        lat, time = axes[0][col], axes[1][col]
        for i, mode in enumerate(mode_names):
            for x, cta in enumerate(ctas):
                c = by.get((mode, kind, cta))
                if c is None:
                    continue
                xb = x - 0.4 + width * (i + 0.5)
                lat.bar(xb, c["latency_p99"], width * 0.9, color=color[mode])
                lat.plot(xb, c["latency_p50"], "o", color="black",
                         markersize=3.5)
                queue = max(0.0, c.get("queue_us_p50", 0))
                time.bar(xb, queue, width * 0.9, color=color[mode],
                         alpha=0.35, hatch="///", edgecolor=color[mode],
                         linewidth=0)
                time.bar(xb, c.get("run_us_p50", 0), width * 0.9,
                         bottom=queue, color=color[mode])
        for y, style, _ in TARGETS:
            lat.axhline(y, color="black", linestyle=style, linewidth=1)
        if alone.get("run_us_p50") is not None:
            time.axhline(max(0.0, alone.get("queue_us_p50", 0)) +
                         alone["run_us_p50"],
                         color="grey", linestyle="-.", linewidth=1)
        lat.set_yscale("log")
        lat.set_ylim(low, top * 1.25)
        ticks = [t for t in (1, 1.5, 2, 3, 5, 7, 10, 15, 20, 30, 50, 100)
                 if low <= t <= top * 1.25]
        lat.yaxis.set_major_locator(FixedLocator(ticks))
        lat.yaxis.set_minor_locator(NullLocator())
        lat.set_yticklabels(["%gx" % t for t in ticks])
        lat.set_title("%s best effort" % kind)
        for ax in (lat, time):
            ax.set_xticks(range(len(ctas)))
            ax.set_xticklabels(["%s µs" % t for t in ctas])
            ax.set_xlim(-0.5, len(ctas) - 0.5)
            ax.grid(True, axis="y", alpha=0.3)
        time.set_xlabel("best-effort CTA length")
    axes[0][0].set_ylabel("urgent latency over alone\n(bar p99, dot p50)")
    axes[1][0].set_ylabel("urgent queue + run p50 (µs)")
    handles = [Patch(color=color[m], label=m) for m in mode_names]
    handles += [Line2D([], [], marker="o", color="black", linestyle="",
                       markersize=3.5, label="p50")]
    handles += [Line2D([], [], color="black", linestyle=s, label=label)
                for _, s, label in TARGETS]
    handles += [Patch(facecolor="lightgrey", hatch="///", edgecolor="grey",
                      label="queue p50 (clipped at 0)"),
                Patch(color="grey", label="run p50"),
                Line2D([], [], color="grey", linestyle="-.",
                       label="alone queue + run p50")]
    fig.suptitle("Urgent kernel beside best-effort work, %s (alone %s us)" % (
        data.get("device", "?"), num(data, "urgent_alone_us", "%.1f")))
    ncol = min(len(handles), max(3, int(fig.get_figwidth() / 2.2)))
    fig.legend(handles=handles, loc="lower center", frameon=False,
               ncol=ncol, fontsize=9)
    rows = -(-len(handles) // ncol)
    fig.tight_layout(rect=(0, 0.035 * rows + 0.01, 1, 0.97))
    fig.savefig(path, dpi=120, bbox_inches="tight")
    print("wrote %s" % path, file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json", nargs="+")
    parser.add_argument("--png", metavar="FILE")
    parser.add_argument("--table", action="store_true", default=True)
    parser.add_argument("--no-table", dest="table", action="store_false")
    parser.add_argument("--modes", help="comma-separated modes to keep")
    parser.add_argument("--kinds", help="comma-separated kinds to keep")
    args = parser.parse_args()
    modes = args.modes.split(",") if args.modes else None
    kinds = args.kinds.split(",") if args.kinds else None
    datas = []
    for path in args.json:
        with open(path) as f:
            datas.append(json.load(f))
        if args.table:
            table(path, datas[-1], modes, kinds)
    if args.png:
        try:
            chart(merge(datas), modes, kinds, args.png)
        except ImportError:
            sys.exit("plot_tail.py: no matplotlib: no chart "
                     "(scripts/matplotlib_python.sh)")


if __name__ == "__main__":
    main()
