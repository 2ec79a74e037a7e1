#!/usr/bin/env python3
"""Register and occupancy parity of SMC variants with their originals.

Compiles each CUDA source with the SMC plugin (-smc-transforms=smc,slice) to
PTX, assembles it with `ptxas -v` and compares, for every kernel K with an
K__smc or K__slice variant, the resources ptxas reports (registers, static
shared memory, stack frame, spills).  A variant fails when, at some block
size from 32 to 1024 threads, fewer of its CTAs fit on an SM than of the
original's: that is occupancy the variant would cost every launch.

Known regressions are listed in a file of "kernel-source-name variant" lines
(test/resources/expected_lower.txt): such a pair must still be lower (so the
list cannot go stale); any other lower pair fails.

Usage: register_parity.py --clang CLANG --plugin SMCPasses.so --ptxas PTXAS
           --cuda-path DIR --include DIR [--include DIR ...] --arch sm_90
           [--smc-option OPTION ...] --expected FILE SOURCE.cu [SOURCE.cu ...]
  --smc-option  a further -mllvm option of the plugin, e.g. -smc-drained-exits
                (persistent workers for kernels that exit before a barrier)
Needs no GPU.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# Per-SM limits of the architectures this checks (CUDA occupancy calculator).
LIMITS = {
    "sm_90": dict(regs=65536, threads=2048, blocks=32, smem=233472,
                  block_smem_reserved=1024, smem_unit=128, reg_unit=256),
}


def ptxas_resources(ptx, ptxas, arch):
    out = subprocess.run([ptxas, f"-arch={arch}", "-v", ptx, "-o", os.devnull],
                         capture_output=True, text=True, check=True).stderr
    kernels, name = {}, None
    for line in out.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            name = m.group(1)
            kernels[name] = dict(regs=0, smem=0, stack=0, spills=0)
            continue
        if name is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores", line)
        if m:
            kernels[name]["stack"] = int(m.group(1))
            kernels[name]["spills"] = int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            kernels[name]["regs"] = int(m.group(1))
            m = re.search(r"(\d+) bytes smem", line)
            kernels[name]["smem"] = int(m.group(1)) if m else 0
    return kernels


def ctas_per_sm(res, threads, lim):
    """CTAs of `threads` threads that fit on one SM (0: the block cannot run)."""
    warps = (threads + 31) // 32
    by_threads = lim["threads"] // (warps * 32)
    regs_per_warp = -(-res["regs"] * 32 // lim["reg_unit"]) * lim["reg_unit"]
    by_regs = (lim["regs"] // regs_per_warp) // warps if regs_per_warp else 10**9
    smem = res["smem"] + lim["block_smem_reserved"]
    smem = -(-smem // lim["smem_unit"]) * lim["smem_unit"]
    by_smem = lim["smem"] // smem
    return min(by_threads, by_regs, by_smem, lim["blocks"])


def demangled(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                         text=True).stdout.splitlines()
    return dict(zip(names, (n.split("(")[0] for n in out)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--ptxas", required=True)
    ap.add_argument("--cuda-path", required=True)
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--smc-option", action="append", default=[])
    ap.add_argument("--expected", required=True)
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    lim = LIMITS[a.arch]
    expected = set()
    with open(a.expected) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                kernel, variant = line.rsplit(None, 1)
                expected.add((kernel, variant))

    rows, lower, compiled = [], set(), 0
    with tempfile.TemporaryDirectory() as tmp:
        for src in a.sources:
            ptx = os.path.join(tmp, os.path.basename(src) + ".ptx")
            cmd = [a.clang, "-x", "cuda", "-O3", "--cuda-device-only", "-S",
                   f"--cuda-gpu-arch={a.arch}", f"--cuda-path={a.cuda_path}",
                   "-Wno-unknown-cuda-version", f"-fpass-plugin={a.plugin}",
                   "-mllvm", "-smc-transforms=smc,slice", src, "-o", ptx]
            cmd += [f"-I{d}" for d in a.include]
            for option in a.smc_option:
                cmd += ["-mllvm", option]
            subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
            kernels = ptxas_resources(ptx, a.ptxas, a.arch)
            compiled += 1
            names = demangled([k for k in kernels if "__" not in k[2:]])
            for k, orig in kernels.items():
                for suffix in ("__smc", "__slice"):
                    var = kernels.get(k + suffix)
                    if var is None:
                        continue
                    name = names.get(k, k)
                    worse = [t for t in range(32, 1025, 32)
                             if ctas_per_sm(var, t, lim) < ctas_per_sm(orig, t, lim)]
                    rows.append((os.path.basename(src), name, suffix[2:], orig, var,
                                 worse))
                    if worse:
                        lower.add((name, suffix[2:]))

    print(f"{'source':14} {'kernel':28} {'variant':7} regs      smem        stack   "
          "lower occupancy at block sizes")
    for src, name, variant, o, v, worse in rows:
        span = f"{worse[0]}-{worse[-1]} ({len(worse)} sizes)" if worse else "-"
        print(f"{src:14} {name[:28]:28} {variant:7} {o['regs']:3}->{v['regs']:<3}  "
              f"{o['smem']:5}->{v['smem']:<5}  {o['stack']:3}->{v['stack']:<3}  {span}")
    print(f"{compiled} sources, {len(rows)} variants compared")

    failed = False
    for pair in sorted(lower - expected):
        print(f"FAIL: {pair[0]} __{pair[1]} fits fewer CTAs per SM than the original")
        failed = True
    for pair in sorted(expected - lower):
        print(f"FAIL: {pair[0]} __{pair[1]} is listed in {a.expected} but is no longer "
              "lower: remove it from the list")
        failed = True
    for pair in sorted(lower & expected):
        print(f"known: {pair[0]} __{pair[1]} (listed in {os.path.basename(a.expected)})")
    if not rows:
        print("FAIL: no variant was compared")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
