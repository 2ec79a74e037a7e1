#!/usr/bin/env bash
# A README example program: scripts/smc-clang++ compiles and links
# bench/examples/<name>.cu in one step.
#   example.sh <smc source dir> <smc build dir> <work dir> <name> \
#              <transforms> build|run [<remark>...]
# Compiles with -mllvm -smc-transforms=<transforms> -Rpass=smc and requires
# each <remark> among the remarks (the kernels' variants built, launches and
# memsets going through the runtime).  With `run` it runs the program, which
# must print "results right"; without a GPU it then exits 77 (ctest:
# skipped, not passed).
set -euo pipefail
src=$1 build=$2 work=$3 name=$4 transforms=$5 mode=$6
shift 6
rm -rf "$work" && mkdir -p "$work"
fail() { echo "$name example: $*" >&2; exit 1; }

if [ "$mode" = run ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU (nvidia-smi -L failed)"
  exit 77
fi
if ! SMC_BUILD_DIR="$build" "$src/scripts/smc-clang++" -O2 \
    -mllvm -smc-transforms="$transforms" -Rpass=smc \
    "$src/bench/examples/$name.cu" -o "$work/$name" 2>"$work/remarks.txt"; then
  cat "$work/remarks.txt" >&2
  fail "scripts/smc-clang++ could not compile and link $name.cu"
fi
for remark in "$@"; do
  grep -qF -- "$remark" "$work/remarks.txt" || {
    cat "$work/remarks.txt" >&2
    fail "missing remark: $remark"
  }
done
if [ "$mode" = run ]; then
  "$work/$name" | tee "$work/run.txt"
  grep -q "results right" "$work/run.txt" || fail "wrong results"
  echo "$name example: ran, results right"
else
  echo "$name example: compiled and linked in one step; the remarks are there"
fi
