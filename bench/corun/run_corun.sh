#!/usr/bin/env bash
# ===- run_corun.sh - Run smc_corun_bench and chart its results ------------===#
#
# Runs the co-run harness (bench/corun/corun.cu) on the GPU: every default
# pair (24) of suite workloads, or with --triples the 8 default triples
# (three workloads, three streams, started together), under serial, plain
# streams, stream priorities, green contexts, the __smc variants shared,
# the SMC static oracle, the co-run scheduler and smc::Batch's searched
# layouts, and writes
#   OUTDIR/corun.json   the results (bench/corun/CoRunReport.h; rewritten
#                       after every group, so a run cut short keeps them)
#   OUTDIR/corun.txt    the console output (setup, checks, runtime notes)
#   OUTDIR/corun.md     the tables (scripts/plot_corun.py; separate means
#                       over pairs and over triples when a run has both)
#   OUTDIR/corun-stp.png, corun-means.png   the charts, where a python3 with
#                       matplotlib is found (else: plot_corun.py later)
# The harness starts no pair or triple after --budget-s (default 420 s;
# more exactly: none that would end after it, judged by the longest group
# so far); this script also ends it after SMC_CORUN_TIMEOUT seconds
# (default 470), so the whole run fits in 8 minutes.  Exit status: the
# harness's (1 if a workload's check failed, 77 without a GPU; 124 if the
# timeout ended it).
#
# USAGE: bench/corun/run_corun.sh OUTDIR [smc_corun_bench options...]
#   e.g. --quick, --pairs=spmv+mm,nn+nbody, --modes=streams,smc-oracle,
#   --triples (the 8 triples; --triples --quick: 4), --pairs=spmv+mm+nn
#   (explicit groups of 2 to 4 workloads), --budget-s=360
#   SMC_CORUN_BENCH overrides the binary (default: build/bench/ of this
#   repository); the GPU machine needs only that binary (static CUDA
#   runtime) and this script.  SMC_PYTHON names a python3 with matplotlib.
# ===------------------------------------------------------------------------===#
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ $# -lt 1 || $1 == -* ]]; then
  echo "usage: $0 OUTDIR [smc_corun_bench options...]" >&2
  exit 2
fi
out=$1
shift
bench=${SMC_CORUN_BENCH:-$root/build/bench/smc_corun_bench}
if [[ ! -x $bench ]]; then
  echo "run_corun.sh: no smc_corun_bench at $bench (build it, or set" \
    "SMC_CORUN_BENCH)" >&2
  exit 1
fi
mkdir -p "$out"

# A lazy module load during a co-run can wait for the other kernel.
CUDA_MODULE_LOADING=EAGER timeout --signal=INT "${SMC_CORUN_TIMEOUT:-470}" \
  "$bench" --out="$out/corun.json" "$@" 2>&1 | tee "$out/corun.txt"
status=${PIPESTATUS[0]}

python=$("$root/scripts/matplotlib_python.sh" || true)
if [[ -f $out/corun.json ]]; then
  if [[ -n $python ]]; then
    "$python" "$root/scripts/plot_corun.py" "$out/corun.json" |
      tee "$out/corun.md"
  else
    echo "run_corun.sh: no python3 with matplotlib (set SMC_PYTHON): tables" \
      "only" >&2
    python3 "$root/scripts/plot_corun.py" "$out/corun.json" --no-png |
      tee "$out/corun.md"
  fi
fi
exit "$status"
