//===- pf.h - pf: pathfinder dynamic programming (SM-Centric) -------------===//
//
// Rodinia PathFinder: the cheapest path from the top row of a grid of costs
// to each bottom cell, moving down or diagonally down: row t+1 of the
// result is wall[t+1][x] + min(result[t][x-1], result[t][x], result[t][x+1]).
// Each launch advances `pyramid` rows inside shared memory (the valid region
// of a 256-column block shrinks by one column per side and row, with a
// barrier per row); run() launches ceil((rows-1)/pyramid) times, ping-ponging
// two row buffers.  Threads left of column 0 or right of the last column
// return before the first barrier.  Integer costs: exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_PF_H
#define SMC_BENCH_WORKLOADS_PF_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::pf {

struct Problem {
  int32_t cols = 0, rows = 0, pyramid = 0;
  std::vector<int32_t> wall; // rows * cols, row-major; row 0 starts the paths
};

Problem generate(const Params &params, uint64_t seed);
// The path costs after `rows` rows (all rows when rows < 0).
void cpuReference(const Problem &problem, std::vector<int32_t> &result,
                  int32_t rows = -1);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // pf.cu

} // namespace smc::workloads::pf

#endif // SMC_BENCH_WORKLOADS_PF_H
