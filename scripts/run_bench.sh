#!/usr/bin/env bash
# ===- run_bench.sh - Run smc_bench and chart the results ------------------===#
#
# Runs smc_bench with 5 repetitions (aggregates only, randomly interleaved so
# that drifts of clock or temperature do not favour one variant), writes
# OUTDIR/bench.json and OUTDIR/bench.txt, then plots OUTDIR/bench.png and
# writes the Markdown tables to OUTDIR/bench.md (and stdout).
#
# USAGE: scripts/run_bench.sh OUTDIR [smc_bench options...]
#   SMC_BENCH=path/to/smc_bench overrides the binary (default:
#   build/bench/smc_bench next to this script's repository).
# ===------------------------------------------------------------------------===#
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 OUTDIR [smc_bench options...]" >&2
  exit 2
fi
out=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
bench=${SMC_BENCH:-$here/../build/bench/smc_bench}
if [[ ! -x $bench ]]; then
  echo "run_bench.sh: no smc_bench at $bench (build it, or set SMC_BENCH)" >&2
  exit 1
fi
# A python3 with matplotlib: SMC_PYTHON, else /usr/bin/python3 or python3.
python=python3
for p in ${SMC_PYTHON:-} /usr/bin/python3 python3; do
  if "$p" -c "import matplotlib" 2>/dev/null; then
    python=$p
    break
  fi
done

mkdir -p "$out"
"$bench" \
  --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$out/bench.json" \
  --benchmark_out_format=json \
  "$@" | tee "$out/bench.txt"

"$python" "$here/plot_bench.py" "$out/bench.json" --png "$out/bench.png" |
  tee "$out/bench.md"
