#!/usr/bin/env bash
# The whole test suite: builds, then runs every test through ctest -- lit
# (IR and clang-with-plugin tests, PTX assembled by ptxas), GoogleTest unit
# tests, the clang-format check and the GPU tests.  Without a GPU the GPU
# tests are reported as skipped, not passed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SMC_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j2
