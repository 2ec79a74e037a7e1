#!/usr/bin/env bash
# Builds test/cmake as a user would and checks the result:
#   check.sh find-package <smc build dir> <work dir>
#   check.sh add-subdirectory <smc source dir> <work dir>
# The program must contain the kernel's __smc and __slice variants and run
# (it exits 0 without a GPU).
set -euo pipefail
mode=$1 smc=$2 work=$3
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$work" && mkdir -p "$work"
case "$mode" in
  find-package)
    cmake --install "$smc" --prefix "$work/prefix" >/dev/null
    extra=(-DCMAKE_PREFIX_PATH="$work/prefix") ;;
  add-subdirectory)
    extra=(-DSMC_SOURCE_DIR="$smc") ;;
  *) echo "check.sh: unknown mode $mode" >&2; exit 2 ;;
esac
cmake -S "$here" -B "$work/build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCMAKE_BUILD_TYPE=Release "${extra[@]}" >/dev/null
cmake --build "$work/build" --target consumer
for variant in __smc __slice; do
  grep -aq "_Z5scalePfi$variant" "$work/build/consumer" ||
    { echo "check.sh: no $variant variant in the program" >&2; exit 1; }
done
"$work/build/consumer"
echo "check.sh: $mode build OK"
