//===- pf.cpp - pf: inputs, CPU reference, self-check, registry -----------===//
#include "pf.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace smc::workloads::pf {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.cols = static_cast<int32_t>(params.get("cols"));
  p.rows = static_cast<int32_t>(params.get("rows"));
  p.pyramid = static_cast<int32_t>(params.get("pyramid"));
  if (p.pyramid < 1 || p.pyramid > 100 || p.rows < 2)
    throw std::invalid_argument("pf: need 1 <= pyramid <= 100 and rows >= 2");
  Rng rng(seed, 1);
  p.wall.resize(size_t(p.rows) * p.cols);
  for (int32_t &cost : p.wall)
    cost = rng.intIn(0, 9);
  return p;
}

void cpuReference(const Problem &p, std::vector<int32_t> &result,
                  int32_t rows) {
  if (rows < 0)
    rows = p.rows;
  size_t cols = size_t(p.cols);
  result.assign(p.wall.begin(), p.wall.begin() + cols);
  std::vector<int32_t> next(cols);
  for (int32_t t = 1; t < rows; ++t) {
    for (size_t x = 0; x < cols; ++x) {
      int32_t best = result[x];
      if (x > 0)
        best = std::min(best, result[x - 1]);
      if (x + 1 < cols)
        best = std::min(best, result[x + 1]);
      next[x] = p.wall[size_t(t) * cols + x] + best;
    }
    result.swap(next);
  }
}

namespace {

// The cheapest path ending at (row, x), by trying every path (3^row).
int32_t cheapestPath(const Problem &p, int32_t row, int32_t x) {
  int32_t here = p.wall[size_t(row) * p.cols + x];
  if (row == 0)
    return here;
  int32_t best = INT_MAX;
  for (int32_t dx = -1; dx <= 1; ++dx)
    if (x + dx >= 0 && x + dx < p.cols)
      best = std::min(best, cheapestPath(p, row - 1, x + dx));
  return here + best;
}

} // namespace

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  const int32_t rows = 7;
  std::vector<int32_t> result, want(size_t(p.cols));
  cpuReference(p, result, rows);
  for (int32_t x = 0; x < p.cols; ++x)
    want[x] = cheapestPath(p, rows - 1, x);
  CheckResult r = compareExact(result, want, "cost");
  r.detail = "dynamic program vs every path, first 7 rows";
  std::vector<int32_t> full;
  cpuReference(p, full);
  for (int32_t x = 0; x < p.cols; ++x)
    if (full[x] < result[x] || full[x] > result[x] + 9 * (p.rows - rows))
      return failure("bounds", "full-height cost out of bounds");
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "pf",
      "PathFinder dynamic programming, pyramid of rows per launch in shared "
      "memory with barriers (Rodinia)",
      1,
      Regularity::Regular,
      Locality::Unclassified,
      PaperSmCentric,
      FeatureSharedMemory | FeatureBarriers | FeatureEarlyExitBeforeBarrier |
          FeatureMultiLaunch,
      {"pathfinder_rows"},
      {{"cols", 10000, 1 << 20, 1 << 22, "columns"},
       {"rows", 100, 400, 200, "rows (run() advances rows-1 of them)"},
       {"pyramid", 20, 20, 20, "rows per launch"}},
      &create,
      &cpuSelfCheck,
      "last row of costs exact (integers)",
  };
  return entry;
}

} // namespace smc::workloads::pf
