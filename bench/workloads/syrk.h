//===- syrk.h - syrk: symmetric rank-k update (CTA-Clustering) ------------===//
//
// PolyBench/GPU SYRK: C' = alpha A A^T + beta C for an n x m matrix A, one
// thread per element of C on a 2-D grid of 32 x 8 blocks.  A[i][k] is the
// same for a warp (broadcast) while A[j][k] walks a column across 32 rows:
// uncoalesced, reused across CTAs through the cache lines (CTA-Clustering's
// "cache-line related").  Written out of place so run() can repeat.  Integer
// inputs in [-3, 3], alpha = 2, beta = 3: exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_SYRK_H
#define SMC_BENCH_WORKLOADS_SYRK_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::syrk {

constexpr float kAlpha = 2.0f, kBeta = 3.0f;

struct Problem {
  int32_t n = 0, m = 0;
  std::vector<float> a; // n x m
  std::vector<float> c; // n x n (input C)
};

Problem generate(const Params &params, uint64_t seed);
// Rows `rows` of C' (rows.size() x n), in double.
void cpuReferenceRows(const Problem &problem, const std::vector<size_t> &rows,
                      std::vector<double> &out);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // syrk.cu

} // namespace smc::workloads::syrk

#endif // SMC_BENCH_WORKLOADS_SYRK_H
