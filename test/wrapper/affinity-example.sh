#!/usr/bin/env bash
# The README's smc::placeByAffinity command: scripts/smc-clang++ compiles
# and links bench/examples/affinity.cu in one step.
#   affinity-example.sh <smc source dir> <smc build dir> <work dir> [--run]
# Checks that the kernel gets its SM-centric variant and that its launch
# goes through the runtime.  With --run it runs the program, which must
# print "results right" (the placed kernel's bytes equal the original's,
# and a second placeByAffinity is served from the cache); without a GPU it
# then exits 77 (ctest: skipped, not passed).
set -euo pipefail
src=$1 build=$2 work=$3 run=${4:-}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "affinity-example: $*" >&2; exit 1; }

if [ "$run" = --run ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU (nvidia-smi -L failed)"
  exit 77
fi
if ! SMC_BUILD_DIR="$build" "$src/scripts/smc-clang++" -O2 \
    -mllvm -smc-transforms=smc -Rpass=smc \
    "$src/bench/examples/affinity.cu" -o "$work/affinity" 2>"$work/remarks.txt"; then
  cat "$work/remarks.txt" >&2
  fail "scripts/smc-clang++ could not compile and link affinity.cu"
fi
for remark in "kernel 'spmvRows': built " "launch of kernel 'spmvRows' in "; do
  grep -qF -- "$remark" "$work/remarks.txt" || {
    cat "$work/remarks.txt" >&2
    fail "missing remark: $remark"
  }
done
if [ "$run" = --run ]; then
  "$work/affinity" | tee "$work/run.txt"
  grep -q "results right" "$work/run.txt" || fail "wrong results"
  echo "affinity-example: ran, results right"
else
  echo "affinity-example: compiled and linked in one step; the launch goes through the runtime"
fi
