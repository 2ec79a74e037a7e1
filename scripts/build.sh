#!/usr/bin/env bash
# Configures and builds SMC in build/ (or $SMC_BUILD_DIR) after setup.sh.
# Extra arguments go to the CMake configure step, e.g.
#   scripts/build.sh -DSMC_CUDA_ARCHS="sm_90;sm_100"
# SMC_BUILD_TARGETS="SMCPasses smc_runtime" builds only those targets (the
# demo builds what a program compiled with the plugin needs); by default
# everything is built.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SMC_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
# shellcheck disable=SC2086 # the targets are words
cmake --build "$build" ${SMC_BUILD_TARGETS:+--target $SMC_BUILD_TARGETS}
