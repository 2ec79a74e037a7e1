#!/usr/bin/env bash
# ===- matplotlib_python.sh - Name a python3 that has matplotlib -----------===#
#
# Prints the first of $SMC_PYTHON, /usr/bin/python3 and python3 that can
# import matplotlib, or nothing (exit status 1) if none can.  Used by the
# scripts that chart benchmark results (run_bench.sh, run_corun.sh).
# ===------------------------------------------------------------------------===#
for p in ${SMC_PYTHON:-} /usr/bin/python3 python3; do
  if "$p" -c "import matplotlib" 2>/dev/null; then
    echo "$p"
    exit 0
  fi
done
exit 1
