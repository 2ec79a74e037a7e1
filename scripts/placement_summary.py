#!/usr/bin/env python3
"""Prints where an SMC run placed its chunks, from an SMC_STATS file.

One line per launch: kernel, what ran (original / smc mode / slices) and,
for SM-centric launches, how many SMs ran chunks, chunks per SM (min, mean,
max), active workers per SM, chunks stolen and workers that retreated; then
each kernel's CTA locality class (which neighbouring CTAs share data, as the
plugin found it).

usage: placement_summary.py stats.json
"""
import json
import sys


def summarize(launch):
    name = launch.get("kernel", "?")
    grid = "x".join(str(g) for g in launch.get("grid", []))
    variant = launch.get("variant", "?")
    if variant == "original":
        why = launch.get("reason", "")
        return f"{name:<12} grid {grid:<12} original   {why}"
    if variant == "slice":
        return (f"{name:<12} grid {grid:<12} slice      "
                f"{launch.get('slices')} slices of {launch.get('slice_size')}")
    mode = launch.get("mode", "?") + (",ordered" if launch.get("ordered") else "")
    head = (f"{name:<12} grid {grid:<12} smc {mode:<17} "
            f"target {launch.get('target')}/SM, {launch.get('workers')} workers")
    chunks = launch.get("chunks_per_sm")
    if not isinstance(chunks, list):
        return head + f"  ({launch.get('stats', 'no statistics')})"
    used = [c for c in chunks if c]
    workers = launch.get("workers_per_sm", [])
    mean = sum(chunks) / len(used) if used else 0
    return (head + f"\n{'':<31}{len(used)} SMs ran chunks; chunks/SM min "
            f"{min(used) if used else 0} mean {mean:.1f} max "
            f"{max(used) if used else 0}; active workers/SM max "
            f"{max(workers) if workers else 0}; stolen {launch.get('stolen')}, "
            f"retreated {launch.get('retreated')}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        stats = json.load(f)
    print(f"== placement on {stats.get('device', 'unknown device')} "
          f"({len(stats.get('launches', []))} launches) ==")
    localities = {}
    for launch in stats.get("launches", []):
        print(summarize(launch))
        if "locality" in launch:
            localities[launch.get("kernel", "?")] = launch["locality"]
    if localities:
        print("== CTA locality ==")
        for name, locality in localities.items():
            print(f"{name:<12} {locality}")


if __name__ == "__main__":
    main()
