#!/usr/bin/env python3
"""Compiles every test/cuda program with the SMC plugin in every configuration.

For each program and each of -O0, -O1, -O2, -O3, -Os, -O0 -g, -O2 -g and
-O2 -fgpu-rdc (relocatable device code, assembled with ptxas -c):
clang with the plugin (both variants, remarks on) must exit 0; the device
module must pass the IR verifier; llc must turn it into PTX that ptxas
assembles; and every kernel the plugin considered (one <kernel>__smc_info
record each) must have a remark saying its __smc variant was built or why
not.  Prints one line per failure and exits 1 if there was any.

USAGE: compile_matrix.py --clang "<clang with the plugin>" --opt OPT
         --llc LLC --ptxas "<ptxas -arch=sm_90>" --arch sm_90
         --include DIR... --work DIR program.cu...
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

CONFIGS = [["-O0"], ["-O1"], ["-O2"], ["-O3"], ["-Os"], ["-O0", "-g"],
           ["-O2", "-g"], ["-O2", "-fgpu-rdc"]]
INFO = re.compile(r"^@(\S+)__smc_info = ", re.M)
SMC_REMARK = re.compile(r"remark: kernel '.*': (built \S+__smc \(|no __smc "
                        r"variant: \S)")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def check(args, program, config):
    name = "%s %s" % (os.path.basename(program), " ".join(config))
    stem = os.path.join(args.work, os.path.basename(program) + "".join(config))
    ll, ptx = stem + ".ll", stem + ".ptx"
    rdc = "-fgpu-rdc" in config or "rdc" in os.path.basename(program)
    extra = ["-fgpu-rdc"] if rdc and "-fgpu-rdc" not in config else []
    cc = run(shlex.split(args.clang) + config + extra + [
        "--cuda-device-only", "-S", "-emit-llvm", "-mllvm",
        "-smc-transforms=smc,slice", "-Rpass=smc", "-Rpass-missed=smc",
        "-fno-caret-diagnostics"] + ["-I" + d for d in args.include] +
        [program, "-o", ll])
    if cc.returncode != 0:
        return ["%s: clang exited %d:\n%s" % (name, cc.returncode,
                                              cc.stderr[-2000:])]
    problems = []
    verify = run([args.opt, "-passes=verify", "-disable-output", ll])
    if verify.returncode != 0:
        problems.append("%s: IR verifier: %s" % (name, verify.stderr[-1000:]))
    with open(ll) as f:
        module = f.read()
    # The PTX version clang chose (its target features), not llc's default.
    ptx_version = re.search(r'"target-features"="[^"]*\+(ptx\d+)', module)
    llc = run([args.llc, "-mtriple=nvptx64-nvidia-cuda", "-mcpu=" + args.arch]
              + (["-mattr=+" + ptx_version.group(1)] if ptx_version else [])
              + [ll, "-o", ptx])
    if llc.returncode != 0:
        problems.append("%s: llc: %s" % (name, llc.stderr[-1000:]))
    else:
        # Relocatable device code links later (nvlink): compile only.
        asm = run(shlex.split(args.ptxas) + (["-c"] if rdc else []) +
                  [ptx, "-o", stem + ".cubin"])
        if asm.returncode != 0:
            problems.append("%s: ptxas: %s" % (name, asm.stderr[-1000:]))
    kernels = len(INFO.findall(module))
    remarks = len(SMC_REMARK.findall(cc.stderr))
    if remarks != kernels:
        problems.append("%s: %d kernels considered but %d __smc remarks"
                        % (name, kernels, remarks))
    return problems


def main():
    parser = argparse.ArgumentParser()
    for flag in ("--clang", "--opt", "--llc", "--ptxas", "--arch", "--work"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--include", action="append", default=[])
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    jobs = [(p, c) for p in args.programs for c in CONFIGS]
    problems = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for found in pool.map(lambda job: check(args, *job), jobs):
            problems += found
    for p in problems:
        print("FAIL: " + p)
    print("compile_matrix: %d programs x %d configurations, %d problems"
          % (len(args.programs), len(CONFIGS), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
