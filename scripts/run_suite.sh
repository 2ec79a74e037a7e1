#!/usr/bin/env bash
# ===- run_suite.sh - Run smc_suite_bench and chart the results ------------===#
#
# Runs the workload suite benchmark (every workload as original, smc and
# slice) with 3 repetitions (aggregates only, randomly interleaved so that
# drifts of clock or temperature do not favour one variant), writes
# OUTDIR/suite.json and OUTDIR/suite.txt (console output, with each
# workload's check results and the runtime's warnings), then plots
# OUTDIR/suite.png and writes the Markdown table to OUTDIR/suite.md (and
# stdout).
#
# USAGE: scripts/run_suite.sh OUTDIR [--size small|default|large]
#          [smc_suite_bench / Google Benchmark options...]
#   SMC_SUITE_BENCH=path/to/smc_suite_bench overrides the binary (default:
#   build/bench/workloads/smc_suite_bench next to this script's repository).
#   Later options win, e.g. --benchmark_repetitions=5.
#   The plot needs a python3 with matplotlib: SMC_PYTHON, else the first of
#   /usr/bin/python3 and python3 that has it (else only the table is made).
# ===------------------------------------------------------------------------===#
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 OUTDIR [--size small|default|large] [options...]" >&2
  exit 2
fi
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
bench=${SMC_SUITE_BENCH:-$here/../build/bench/workloads/smc_suite_bench}
if [[ ! -x $bench ]]; then
  echo "run_suite.sh: no smc_suite_bench at $bench (build it, or set" \
    "SMC_SUITE_BENCH)" >&2
  exit 1
fi
python=""
for p in ${SMC_PYTHON:-} /usr/bin/python3 python3; do
  if "$p" -c "import matplotlib" 2>/dev/null; then
    python=$p
    break
  fi
done

mkdir -p "$out"
"$bench" \
  --benchmark_repetitions=3 \
  --benchmark_min_time=0.25 \
  --benchmark_report_aggregates_only=true \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$out/suite.json" \
  --benchmark_out_format=json \
  "$@" 2>&1 | tee "$out/suite.txt"

if [[ -n $python ]]; then
  "$python" "$here/plot_bench.py" "$out/suite.json" --png "$out/suite.png" |
    tee "$out/suite.md"
else
  echo "run_suite.sh: no python3 with matplotlib (set SMC_PYTHON): no chart" >&2
  python3 "$here/plot_bench.py" "$out/suite.json" | tee "$out/suite.md"
fi
