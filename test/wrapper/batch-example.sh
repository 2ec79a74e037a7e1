#!/usr/bin/env bash
# The README's smc::Batch command: scripts/smc-clang++ compiles and links
# bench/examples/batch.cu in one step.
#   batch-example.sh <smc source dir> <smc build dir> <work dir> [--run]
# Checks that its launches and its memset go through the runtime.  With
# --run it runs the program, which must print "results right"; without a
# GPU it then exits 77 (ctest: skipped, not passed).
set -euo pipefail
src=$1 build=$2 work=$3 run=${4:-}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "batch-example: $*" >&2; exit 1; }

if [ "$run" = --run ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU (nvidia-smi -L failed)"
  exit 77
fi
if ! SMC_BUILD_DIR="$build" "$src/scripts/smc-clang++" -O2 \
    -mllvm -smc-transforms=smc,slice -Rpass=smc \
    "$src/bench/examples/batch.cu" -o "$work/batch" 2>"$work/remarks.txt"; then
  cat "$work/remarks.txt" >&2
  fail "scripts/smc-clang++ could not compile and link batch.cu"
fi
for remark in "launch of kernel 'triad' in " "launch of kernel 'chain' in " \
              "cudaMemsetAsync in main::'lambda'()::operator() goes through the SMC runtime"; do
  grep -qF -- "$remark" "$work/remarks.txt" || {
    cat "$work/remarks.txt" >&2
    fail "missing remark: $remark"
  }
done
if [ "$run" = --run ]; then
  "$work/batch" | tee "$work/run.txt"
  grep -q "results right" "$work/run.txt" || fail "wrong results"
  echo "batch-example: ran, results right"
else
  echo "batch-example: compiled and linked in one step; launches and memset go through the runtime"
fi
