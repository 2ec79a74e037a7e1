#!/usr/bin/env bash
# Configures and builds SMC in build/ (or $SMC_BUILD_DIR) after setup.sh.
# Extra arguments go to the CMake configure step, e.g.
#   scripts/build.sh -DSMC_CUDA_ARCHS="sm_90;sm_100"
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SMC_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build"
