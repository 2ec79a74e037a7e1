//===- mvt.h - mvt: matrix-vector product and transpose (CTA-Clustering) --===//
//
// PolyBench/GPU MVT: x1' = x1 + A y1 (mvt_kernel1, one thread per row of A:
// uncoalesced row walks, CTA-Clustering's "cache-line related") and x2' = x2 +
// A^T y2 (mvt_kernel2, one thread per column: coalesced), two 1-D launches.
// Written out of place so run() can repeat.  Integers in [-3, 3]: exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_MVT_H
#define SMC_BENCH_WORKLOADS_MVT_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::mvt {

struct Problem {
  int32_t n = 0;
  std::vector<float> a;              // n x n
  std::vector<float> x1, x2, y1, y2; // n
};

Problem generate(const Params &params, uint64_t seed);
void cpuReference(const Problem &problem, std::vector<double> &x1,
                  std::vector<double> &x2);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // mvt.cu

} // namespace smc::workloads::mvt

#endif // SMC_BENCH_WORKLOADS_MVT_H
