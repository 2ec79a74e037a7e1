//===- syr2k.h - syr2k: symmetric rank-2k update (CTA-Clustering) ---------===//
//
// PolyBench/GPU SYR2K: C' = alpha A B^T + alpha B A^T + beta C for n x m
// matrices A and B, one thread per element of C on a 2-D grid of 32 x 8
// blocks; like syrk, rows j of A and B are read down a column across a
// warp (CTA-Clustering's "cache-line related").  Out of place; integer inputs
// in
// [-3, 3], alpha = 2, beta = 3: exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_SYR2K_H
#define SMC_BENCH_WORKLOADS_SYR2K_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::syr2k {

constexpr float kAlpha = 2.0f, kBeta = 3.0f;

struct Problem {
  int32_t n = 0, m = 0;
  std::vector<float> a, b; // n x m
  std::vector<float> c;    // n x n (input C)
};

Problem generate(const Params &params, uint64_t seed);
// Rows `rows` of C' (rows.size() x n), in double.
void cpuReferenceRows(const Problem &problem, const std::vector<size_t> &rows,
                      std::vector<double> &out);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // syr2k.cu

} // namespace smc::workloads::syr2k

#endif // SMC_BENCH_WORKLOADS_SYR2K_H
