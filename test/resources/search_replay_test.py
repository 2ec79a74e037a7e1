#!/usr/bin/python3
# ===- search_replay_test.py - smc_search_replay and plot_kernelet.py ------===#
#
# No GPU.  smc_search_replay on a synthetic oracle grid of every layout of
# four streams (15,000) where each stream's split and stream 3's lane cost on
# their own: the search must keep the fastest layout; a grid without the
# streams layout is refused.  plot_kernelet.py takes two benchmark JSON files
# of one device together and refuses files of two devices.
#
# USAGE: search_replay_test.py SMC_SEARCH_REPLAY PLOT_KERNELET_PY
# Prints "search_replay_test.py: OK" when every check passes.
# ===------------------------------------------------------------------------===#
import itertools
import json
import os
import subprocess
import sys
import tempfile

TARGET = [1, 0, 2, 4]  # the fastest split per stream


def cost(lanes, splits):
    ms = 2.0 + sum(0.2 for s, t in zip(splits, TARGET) if s != t)
    return ms + (0 if 3 in lanes[0] else 0.1)


def grid(skip_streams_layout=False):
    plans = []
    for lane0 in itertools.combinations(range(4), 2):
        lane1 = [s for s in range(4) if s not in lane0]
        for a in itertools.permutations(lane0):
            for b in itertools.permutations(lane1):
                for splits in itertools.product(range(5), repeat=4):
                    lanes = [list(a), list(b)]
                    if skip_streams_layout and lanes == [[0, 2], [1, 3]] \
                            and splits == (0, 0, 0, 0):
                        continue
                    plans.append({"lanes": lanes, "splits": list(splits),
                                  "ms": cost(lanes, splits),
                                  "predicted_ms": 0})
    return {"device": "test", "sms": 1, "rounds": 1,
            "mixes": [{"mix": "a+b+c+d", "oracle_grid": plans}]}


def replay(tool, data, *args):
    return subprocess.run([tool, *args], input=json.dumps(data), text=True,
                          capture_output=True)


def bench_json(device, mix):
    m = {"mix": mix, "fifo_ms": 4.0, "streams_ms": 3.0, "kernelet_ms": 3.0,
         "search_ms": 2.5, "oracle_ms": 2.4, "run_host_us_per_launch": 10.0,
         "times": {"search": [2.5, 2.6]}}
    return {"device": device, "sms": 1, "rounds": 1, "mixes": [m]}


def main():
    tool, plot = sys.argv[1], sys.argv[2]
    failures = []

    full = grid()
    if len(full["mixes"][0]["oracle_grid"]) != 15000:
        failures.append("the synthetic grid is not 15,000 layouts")
    r = replay(tool, full, "--noise", "0", "--seeds", "1")
    if r.returncode != 0 or \
            "geomean best/kept over 1 mixes: 1.000" not in r.stdout:
        failures.append("the search did not keep the fastest layout:\n" +
                        r.stdout + r.stderr)
    r = replay(tool, grid(skip_streams_layout=True))
    if r.returncode != 1 or "lacks the streams layout" not in r.stderr:
        failures.append("a grid without the streams layout was not refused: " +
                        r.stdout + r.stderr)

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, (device, mix) in enumerate([("gpu", "a+b"), ("gpu", "c+d"),
                                           ("other", "e+f")]):
            paths.append(os.path.join(tmp, "k%d.json" % i))
            with open(paths[-1], "w") as f:
                json.dump(bench_json(device, mix), f)
        r = subprocess.run([sys.executable, plot, paths[0], paths[1],
                            "--no-png"], capture_output=True, text=True)
        rows = [l for l in r.stdout.splitlines() if l.startswith("| a+b") or
                l.startswith("| c+d")]
        if r.returncode != 0 or len(rows) != 2 or "**geomean**" not in r.stdout:
            failures.append("plot_kernelet.py did not take two files: " +
                            r.stdout + r.stderr)
        r = subprocess.run([sys.executable, plot, paths[0], paths[2],
                            "--no-png"], capture_output=True, text=True)
        if r.returncode == 0 or "device" not in r.stderr:
            failures.append("plot_kernelet.py took files of two devices: " +
                            r.stdout + r.stderr)

    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print("search_replay_test.py: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
