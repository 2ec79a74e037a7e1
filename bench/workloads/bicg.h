//===- bicg.h - bicg: BiCGStab sub-kernel (CTA-Clustering) ----------------===//
//
// PolyBench/GPU BICG: s = A^T r (bicg_kernel1, one thread per column:
// coalesced) and q = A p (bicg_kernel2, one thread per row: uncoalesced row
// walks, CTA-Clustering's "cache-line related"), two 1-D launches over an nx x
// ny matrix.  Integers in [-3, 3]: exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_BICG_H
#define SMC_BENCH_WORKLOADS_BICG_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::bicg {

struct Problem {
  int32_t nx = 0, ny = 0;
  std::vector<float> a; // nx x ny
  std::vector<float> r; // nx
  std::vector<float> p; // ny
};

Problem generate(const Params &params, uint64_t seed);
// s = A^T r (ny) and q = A p (nx), in double.
void cpuReference(const Problem &problem, std::vector<double> &s,
                  std::vector<double> &q);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // bicg.cu

} // namespace smc::workloads::bicg

#endif // SMC_BENCH_WORKLOADS_BICG_H
