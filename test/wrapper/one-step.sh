#!/usr/bin/env bash
# What a user's first command does: scripts/smc-clang++ compiles and links
# bench/examples/demo.cu in one step (clang then runs clang-linker-wrapper).
#   one-step.sh <smc source dir> <smc build dir> <work dir> [--run]
# Checks the remarks (variants built, the refusal with its reason, launches
# redirected), that the program holds the variants and calls the runtime
# entry.  With --run it runs the program under SMC_STATS and summarizes the
# placement; without a GPU it then exits 77 (ctest: skipped, not passed).
set -euo pipefail
src=$1 build=$2 work=$3 run=${4:-}
rm -rf "$work" && mkdir -p "$work"
fail() { echo "one-step: $*" >&2; exit 1; }

if [ "$run" = --run ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA GPU (nvidia-smi -L failed)"
  exit 77
fi

if ! SMC_BUILD_DIR="$build" "$src/scripts/smc-clang++" -O2 \
    -mllvm -smc-transforms=smc,slice -Rpass=smc -Rpass-missed=smc \
    "$src/bench/examples/demo.cu" -o "$work/demo" 2>"$work/remarks.txt"; then
  cat "$work/remarks.txt" >&2
  fail "scripts/smc-clang++ could not compile and link demo.cu in one step"
fi

expect() {
  grep -qF -- "$1" "$work/remarks.txt" || {
    cat "$work/remarks.txt" >&2
    fail "missing remark: $1"
  }
}
expect "kernel 'vecAdd': built _Z6vecAddPKfS0_Pfi__smc (persistent workers"
expect "kernel 'vecAdd': built _Z6vecAddPKfS0_Pfi__slice (index rectification"
expect "kernel 'stencil': built _Z7stencilPKfPfi__smc (one chunk per worker"
expect "kernel 'transpose': built _Z9transposePKfPfii__smc"
expect "kernel 'smidProbe': no __smc variant: inline assembly reads %ctaid, %nctaid or %smid"
expect "launch of kernel 'vecAdd' in main goes through the SMC runtime"

[ -x "$work/demo" ] || fail "no executable $work/demo"
for name in _Z6vecAddPKfS0_Pfi__smc _Z6vecAddPKfS0_Pfi__slice \
            _Z6vecAddPKfS0_Pfi__smc_info; do
  grep -aqF "$name" "$work/demo" || fail "the program holds no $name"
done
symbols="$(nm "$work/demo")"
grep -qE ' T __smc_launch_kernel$' <<<"$symbols" ||
  fail "the program does not contain the SMC runtime entry"

if [ "$run" = --run ]; then
  SMC_STATS="$work/stats.json" "$work/demo" | tee "$work/run.txt"
  if grep -q WRONG "$work/run.txt"; then fail "the demo computed a wrong result"; fi
  python3 "$src/scripts/placement_summary.py" "$work/stats.json"
  echo "one-step: the demo ran and its results are correct"
else
  echo "one-step: compiled and linked in one step; remarks and variants OK"
fi
