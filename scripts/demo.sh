#!/usr/bin/env bash
# The main job: sets up and builds SMC, compiles the example
# bench/examples/demo.cu with the plugin (printing the transformation
# report), and, where a GPU is present, runs it with placement statistics
# and prints where the chunks ran.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${SMC_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"

out="$build/demo"
mkdir -p "$out"
echo "== SMC transformation report (clang remarks) =="
"$root/scripts/smc-clang++" -O2 -mllvm -smc-transforms=smc,slice \
  -Rpass=smc -Rpass-missed=smc "$root/bench/examples/demo.cu" \
  -o "$out/demo" 2>&1 | grep -E "remark:" | sed -E 's/ \[-Rpass(-missed)?=smc\]$//'

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "== no GPU here: built $out/demo; run it on a machine with one =="
  exit 0
fi
echo "== running the example through the SMC runtime =="
SMC_STATS="$out/stats.json" "$out/demo"
python3 "$root/scripts/placement_summary.py" "$out/stats.json"
