//===- filter.h - filter: data-dependent expensive path (G-Streamline) ----===//
//
// A filter whose work depends on each value (G-Streamline's thread
// divergence on loaded data): one thread per element loads v = x[i]; above
// the threshold 0.7 it sums a 64-term series,
//   out[i] = sum_{k=1..64} exp(-0.05 k (v - 0.7)) cos(0.3 k v) / k,
// below (or at) it out[i] = v (1 - v).  x is uniform in [0, 1), so about
// 30% of the elements, at random, take the expensive path and nearly every
// warp runs both; with uniform=1, x is uniform in [0, 0.7): no element
// takes it and no warp diverges (remapping must not pay).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_FILTER_H
#define SMC_BENCH_WORKLOADS_FILTER_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::filter {

constexpr float kThreshold = 0.7f;
constexpr int kTerms = 64;

struct Problem {
  std::vector<float> x;
};

Problem generate(const Params &params, uint64_t seed);
// out[k] for element elements[k] in double, and the sum of the absolute
// values of its terms (the error scale).
void cpuReference(const Problem &problem, const std::vector<size_t> &elements,
                  std::vector<double> &out, std::vector<double> &magnitude);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // filter.cu

} // namespace smc::workloads::filter

#endif // SMC_BENCH_WORKLOADS_FILTER_H
