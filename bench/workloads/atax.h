//===- atax.h - atax: matrix transpose and vector multiply ----------------===//
//
// PolyBench/GPU ATAX, y = A^T (A x) for an nx x ny matrix, in two 1-D
// launches: atax_kernel1 computes tmp = A x with one thread per row (each
// thread walks its own row: uncoalesced, reused across CTAs through cache
// lines, CTA-Clustering's "cache-line related"), atax_kernel2 computes y = A^T
// tmp with one thread per column (coalesced).  Entries of A and x are in {-1,
// 0, 1}: tmp and y are exact in fp32 as long as every y sums terms of absolute
// sum below 2^24, which the reference verifies (and falls back to a 1e-6
// relative tolerance where it does not hold).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_ATAX_H
#define SMC_BENCH_WORKLOADS_ATAX_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::atax {

struct Problem {
  int32_t nx = 0, ny = 0;
  std::vector<float> a; // nx x ny
  std::vector<float> x; // ny
};

Problem generate(const Params &params, uint64_t seed);
// tmp (nx) and y (ny) in double, and yMagnitude[j] = sum_i |A[i][j] tmp[i]|.
void cpuReference(const Problem &problem, std::vector<double> &tmp,
                  std::vector<double> &y, std::vector<double> &yMagnitude);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // atax.cu

} // namespace smc::workloads::atax

#endif // SMC_BENCH_WORKLOADS_ATAX_H
