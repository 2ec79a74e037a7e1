#!/usr/bin/env bash
# The main job: sets up and builds SMC, compiles the example
# bench/examples/demo.cu with the plugin in one step (compile and link, as a
# user does), prints the transformation report, and, where a GPU is present,
# runs it with placement statistics and prints where the chunks ran.  A step
# that fails stops the demo with a message naming it and showing its output.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SMC_BUILD_DIR:-$root/build}"

# step <name> <command...>: runs the command with its output in a log; on
# failure prints the step's name and the end of the log, and stops.
step() {
  local name=$1 log
  shift
  log="$(mktemp)"
  if ! "$@" >"$log" 2>&1; then
    echo "demo: step '$name' failed (exit $?): $*" >&2
    echo "---- last lines of its output ----" >&2
    tail -n 40 "$log" >&2
    rm -f "$log"
    exit 1
  fi
  STEP_LOG="$(cat "$log")"
  rm -f "$log"
}

# Only what a program compiled with the plugin needs: the plugin and the
# runtime (scripts/test.sh builds the rest).
echo "== setting up and building SMC's plugin and runtime (scripts/build.sh) =="
step "set up and build SMC" env SMC_BUILD_TARGETS="SMCPasses smc_runtime smc_core" \
  "$root/scripts/build.sh"

out="$build/demo"
mkdir -p "$out"
step "compile and link bench/examples/demo.cu with scripts/smc-clang++" \
  "$root/scripts/smc-clang++" -O2 -mllvm -smc-transforms=smc,slice \
  -Rpass=smc -Rpass-missed=smc "$root/bench/examples/demo.cu" -o "$out/demo"
echo "== SMC transformation report (clang remarks) =="
grep -E "remark:" <<<"$STEP_LOG" | sed -E 's/ \[-Rpass(-missed)?=smc\]$//' || {
  echo "demo: the compiler printed no SMC remark; is the plugin loaded?" >&2
  exit 1
}

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "== no GPU here: built $out/demo; run it on a machine with one =="
  exit 0
fi
echo "== running the example through the SMC runtime =="
SMC_STATS="$out/stats.json" "$out/demo" ||
  { echo "demo: step 'run $out/demo' failed (exit $?)" >&2; exit 1; }
python3 "$root/scripts/placement_summary.py" "$out/stats.json" ||
  { echo "demo: step 'summarize $out/stats.json' failed" >&2; exit 1; }
