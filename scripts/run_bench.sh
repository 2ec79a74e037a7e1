#!/usr/bin/env bash
# ===- run_bench.sh - Run a benchmark binary and chart the results ---------===#
#
# Runs one of the two Google Benchmark binaries, randomly interleaved (so
# that drifts of clock or temperature do not favour one variant) with
# aggregates only, then charts the result with plot_bench.py:
#   (default)  smc_bench: SMC's own workloads (vecAdd, matMul, reduce,
#              stencil, gather) and the launch-path benchmarks;
#              5 repetitions; writes OUTDIR/bench.{json,txt,png,md}
#   --suite    smc_suite_bench: every workload of the papers' suite;
#              3 repetitions, at least 0.25 s each;
#              writes OUTDIR/suite.{json,txt,png,md}
# NAME.json is Google Benchmark's JSON, NAME.txt the console output (with
# each workload's check results and the runtime's warnings), NAME.png the
# chart and NAME.md the Markdown tables (also printed).
#
# USAGE: scripts/run_bench.sh [--suite] OUTDIR [--size small|default|large]
#          [Google Benchmark options...]
#   Later options win, e.g. --benchmark_repetitions=3.
#   SMC_BENCH / SMC_SUITE_BENCH override the binary (default: under
#   build/bench/ next to this script's repository).
#   The chart needs a python3 with matplotlib: SMC_PYTHON, else the first of
#   /usr/bin/python3 and python3 that has it (else only the tables are made).
# ===------------------------------------------------------------------------===#
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
name=bench
if [[ ${1:-} == --suite ]]; then
  name=suite
  shift
fi
if [[ $# -lt 1 || $1 == -* ]]; then
  echo "usage: $0 [--suite] OUTDIR [--size small|default|large] [options...]" >&2
  exit 2
fi
out=$1
shift
if [[ $name == suite ]]; then
  bench=${SMC_SUITE_BENCH:-$here/../build/bench/workloads/smc_suite_bench}
  defaults=(--benchmark_repetitions=3 --benchmark_min_time=0.25)
else
  bench=${SMC_BENCH:-$here/../build/bench/smc_bench}
  defaults=(--benchmark_repetitions=5)
fi
if [[ ! -x $bench ]]; then
  echo "run_bench.sh: no $(basename "$bench") at $bench (build it, or set" \
    "$([[ $name == suite ]] && echo SMC_SUITE_BENCH || echo SMC_BENCH))" >&2
  exit 1
fi
python=$("$here/matplotlib_python.sh" || true)

mkdir -p "$out"
"$bench" \
  "${defaults[@]}" \
  --benchmark_report_aggregates_only=true \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$out/$name.json" \
  --benchmark_out_format=json \
  "$@" 2>&1 | tee "$out/$name.txt"

if [[ -n $python ]]; then
  "$python" "$here/plot_bench.py" "$out/$name.json" --png "$out/$name.png" |
    tee "$out/$name.md"
else
  echo "run_bench.sh: no python3 with matplotlib (set SMC_PYTHON): no chart" >&2
  python3 "$here/plot_bench.py" "$out/$name.json" | tee "$out/$name.md"
fi
