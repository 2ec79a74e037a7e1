//===- nbody.h - nbody: all-pairs gravitational accelerations -------------===//
//
// The all-pairs n-body acceleration kernel in the form CTA-Clustering Table 2
// lists (no shared memory): every thread computes the softened gravitational
// acceleration on its body from all n bodies, reading their positions
// straight from global memory (a warp reads the same body: broadcast,
// shared by all CTAs through the caches: CTA-Clustering's "cache-line
// related"). Bodies are walked by a grid-stride loop; rsqrtf as in the CUDA
// SDK.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_NBODY_H
#define SMC_BENCH_WORKLOADS_NBODY_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::nbody {

constexpr float kSofteningSquared = 0.01f;

struct Problem {
  std::vector<float> body; // n * 4: x, y, z, mass
  size_t bodies() const { return body.size() / 4; }
};

Problem generate(const Params &params, uint64_t seed);
// Accelerations of the bodies `bodies` (4 per body, w = 0) in double, and
// the sum of |terms| of each component.
void cpuReference(const Problem &problem, const std::vector<size_t> &bodies,
                  std::vector<double> &accel, std::vector<double> &magnitude);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // nbody.cu

} // namespace smc::workloads::nbody

#endif // SMC_BENCH_WORKLOADS_NBODY_H
