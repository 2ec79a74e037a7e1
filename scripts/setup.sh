#!/usr/bin/env bash
# Installs what SMC needs to build and test, with apt, skipping what is
# already there (safe to run again): clang 22 and LLVM 22 (plugin, CUDA
# compiler, lit, FileCheck), clang-tools-22 (clang-linker-wrapper, which
# clang runs when it compiles and links CUDA in one step), CMake, Ninja,
# GoogleTest, Google Benchmark, nlohmann-json, METIS (the graph partitioner
# of affinity placement), clang-format, clang-tidy and matplotlib.  Checks for the CUDA toolkit,
# which apt cannot provide (CUDA_PATH, default /usr/local/cuda).
set -euo pipefail

packages=(clang-22 clang-tools-22 llvm-22-dev llvm-22-tools libclang-rt-22-dev lld-22
          clang-format-22 clang-tidy-22 cmake ninja-build libgtest-dev libgmock-dev
          libbenchmark-dev nlohmann-json3-dev libmetis-dev python3 python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  echo "smc setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

cuda="${CUDA_PATH:-/usr/local/cuda}"
if [ ! -f "$cuda/include/cuda_runtime.h" ] ||
   [ ! -f "$cuda/lib64/libcudart_static.a" ]; then
  echo "smc setup: no CUDA toolkit at '$cuda' (need include/cuda_runtime.h" \
       "and lib64/libcudart_static.a). Install CUDA 12.4 or newer (13 is" \
       "tested) and set CUDA_PATH if it is not at /usr/local/cuda." >&2
  exit 1
fi
echo "smc setup: clang-22, LLVM 22 and CUDA ($cuda) are ready"
