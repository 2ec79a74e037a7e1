# lit configuration for SMC: IR tests (test/passes/<pass>/, opt + FileCheck) and
# clang-with-plugin tests (test/cuda, PTX checked with FileCheck and
# assembled with ptxas).  Substitutions:
#   %load_smc   -load-pass-plugin=<SMCPasses.so> for opt
#   %opt        opt of LLVM 22
#   %clang_smc  clang++-22 compiling CUDA for the test arch with the plugin
#   %ptxas      ptxas for the test arch
#   %nvlink     nvlink (device link of -fgpu-rdc objects) for the test arch
#   %clang_cuda clang++-22 compiling CUDA for the test arch, without the plugin
#   %cuda_path  the CUDA toolkit root; %cuda_arch the test arch (sm_90)
#   %python     the Python running lit; %llc LLVM 22's llc
#   %abi_dump   the host-side ABI printer
#   %smc_abi_version  SMC_ABI_VERSION of include/smc/abi.h (for FileCheck
#               -DABI=..., so that info-record checks follow the ABI)
import os
import sys
import re
import shutil
import subprocess
import lit.formats

config.name = "SMC"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".cu"]
config.excludes = ["Inputs", "gpu", "unit", "cmake", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.smc_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

cuda_flags = (
    f"-x cuda --cuda-gpu-arch={config.cuda_arch} --cuda-path={config.cuda_path} "
    f"-Wno-unknown-cuda-version -I{config.smc_src_root}/include")
config.substitutions.append(("%load_smc", f"-load-pass-plugin={config.smc_plugin}"))
config.substitutions.append(("%opt", os.path.join(config.llvm_tools_dir, "opt")))
config.substitutions.append(
    ("%clang_smc", f"{config.clangxx} {cuda_flags} -fpass-plugin={config.smc_plugin}"))
config.substitutions.append(("%clang_cuda", f"{config.clangxx} {cuda_flags}"))
config.substitutions.append(
    ("%ptxas", f"{config.cuda_path}/bin/ptxas -arch={config.cuda_arch}"))
config.substitutions.append(
    ("%nvlink", f"{config.cuda_path}/bin/nvlink -arch={config.cuda_arch}"))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%abi_dump", config.abi_dump))
config.substitutions.append(("%cuda_arch", config.cuda_arch))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%llc", os.path.join(config.llvm_tools_dir, "llc")))

with open(os.path.join(config.smc_src_root, "include", "smc", "abi.h")) as abi:
    abi_version = re.search(r"#define\s+SMC_ABI_VERSION\s+(\d+)", abi.read())
if not abi_version:
    lit_config.fatal("no SMC_ABI_VERSION in include/smc/abi.h")
config.substitutions.append(("%smc_abi_version", abi_version.group(1)))

# GPU present?  Only used by tests that say REQUIRES: cuda-gpu.
if shutil.which("nvidia-smi"):
    try:
        if subprocess.run(["nvidia-smi", "-L"], capture_output=True,
                          timeout=30).returncode == 0:
            config.available_features.add("cuda-gpu")
    except (OSError, subprocess.TimeoutExpired):
        pass
