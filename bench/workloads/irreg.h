//===- irreg.h - irreg: irregular PDE-solver edge loop (SM-Centric) -------===//
//
// The Maryland "irreg" kernel: for every edge (a, b) of an unstructured mesh,
// f = w[e] * (x[a] - x[b]); y[a] += f; y[b] -= f.  One thread per edge, in the
// mesh's (random) edge order, with float atomics into y.  80% of the edges
// join nodes at most 1024 apart, the rest join random nodes.  x and w are
// integers in [-8, 8] and [-4, 4] stored as floats, so every partial sum of y
// is an integer below 2^24 and the result is exact in any atomic order.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_IRREG_H
#define SMC_BENCH_WORKLOADS_IRREG_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::irreg {

struct Problem {
  int32_t nodes = 0;
  std::vector<int32_t> left, right; // edges
  std::vector<float> weight;        // per edge
  std::vector<float> x;             // per node
};

Problem generate(const Params &params, uint64_t seed);
// y[n] = sum over the edges at n of +-f, in double (exact for these inputs).
void cpuReference(const Problem &problem, std::vector<double> &y);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // irreg.cu

} // namespace smc::workloads::irreg

#endif // SMC_BENCH_WORKLOADS_IRREG_H
