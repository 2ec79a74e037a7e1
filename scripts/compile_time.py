#!/usr/bin/env python3
# ===- compile_time.py - What the plugin adds to compile time --------------===#
#
# Compiles one translation unit (default: bench/smc_bench.cu, many kernels)
# with and without the SMC plugin, alternating, and prints each run and the
# median time of each, and their ratio.  A library-heavy one:
# test/gpu/corpus/CubPrograms.cu or ThrustPrograms.cu (CUB and Thrust
# kernels, in builds with the GPU tests).  The command is the build's own,
# from compile_commands.json; "without" drops -fpass-plugin=... and the
# -mllvm -smc-... options from it.  The object goes to a temporary file.
#
# USAGE: scripts/compile_time.py [--build DIR] [--source FILE] [--runs N]
#                               [--transforms LIST]
#   --build       the CMake build directory (default: build/ of this
#                 repository)
#   --source      a source file the build compiles with the plugin
#   --runs        alternations (default 5)
#   --transforms  "with" builds these variants (-mllvm -smc-transforms=LIST,
#                 e.g. smc or slice) instead of the build's own: what each
#                 variant costs
# ===------------------------------------------------------------------------===#
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time


def plugin_command(build, source):
    """The build's compile command for `source` (a list of arguments)."""
    path = os.path.join(build, "compile_commands.json")
    with open(path) as f:
        entries = json.load(f)
    for entry in entries:
        if os.path.realpath(entry["file"]) == os.path.realpath(source):
            args = entry.get("arguments") or shlex.split(entry["command"])
            return args, entry["directory"]
    sys.exit(f"compile_time.py: {source} is not in {path}")


def dropped(args, plugin, mllvm_prefix):
    """`args` less -fpass-plugin=... (if `plugin`) and the -mllvm options
    that start with `mllvm_prefix`."""
    out, i = [], 0
    while i < len(args):
        if plugin and args[i].startswith("-fpass-plugin="):
            i += 1
        elif (args[i] == "-mllvm" and i + 1 < len(args)
              and args[i + 1].startswith(mllvm_prefix)):
            i += 2
        else:
            out.append(args[i])
            i += 1
    return out


def without_plugin(args):
    """`args` less the plugin and its -mllvm -smc-... options."""
    return dropped(args, True, "-smc-")


def with_transforms(args, transforms):
    """`args` building the variants `transforms` (-smc-transforms=...)."""
    return dropped(args, False, "-smc-transforms=") + [
        "-mllvm", "-smc-transforms=" + transforms]


def with_output(args, obj):
    """`args` writing the object to `obj` instead of its own -o."""
    out, i = [], 0
    while i < len(args):
        if args[i] == "-o":
            i += 2
        else:
            out.append(args[i])
            i += 1
    return out + ["-o", obj]


def timed(args, cwd):
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=os.path.join(root, "build"))
    parser.add_argument("--source",
                        default=os.path.join(root, "bench", "smc_bench.cu"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--transforms")
    opts = parser.parse_args()
    if opts.runs < 1:
        sys.exit("compile_time.py: --runs must be at least 1")

    args, cwd = plugin_command(opts.build, opts.source)
    plain = without_plugin(args)
    if plain == args:
        sys.exit(f"compile_time.py: {opts.source} is not compiled with the "
                 "plugin in this build")
    if opts.transforms:
        args = with_transforms(args, opts.transforms)
    times = {"without": [], "with": []}
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "tu.o")
        timed(with_output(args, obj), cwd)  # warm the caches
        for run in range(opts.runs):
            for name, cmd in (("without", plain), ("with", args)):
                seconds = timed(with_output(cmd, obj), cwd)
                times[name].append(seconds)
                print(f"run {run + 1} {name:7} plugin: {seconds:.2f} s")
    median = {name: statistics.median(t) for name, t in times.items()}
    print(f"{os.path.relpath(opts.source, root)}: median "
          f"{median['without']:.2f} s without the plugin, "
          f"{median['with']:.2f} s with it: "
          f"{median['with'] / median['without']:.3f}x "
          f"({opts.runs} alternations"
          + (f", -smc-transforms={opts.transforms})" if opts.transforms
             else ")"))


if __name__ == "__main__":
    main()
