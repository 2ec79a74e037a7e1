//===- kmeans.h - kmeans: nearest-centroid assignment (CTA-Clustering) ----===//
//
// Rodinia k-means' kmeansPoint kernel: every point finds its nearest
// cluster centre (squared Euclidean distance over all features, first
// minimum wins) and writes its membership.  Features are stored
// feature-major ([f * points + p], Rodinia's transposed layout) so the reads
// coalesce; the centres (clusters x features) are read by every thread.
// The blocks form a square 2-D grid with a linearised block index, as in
// Rodinia.  Integer-valued features and centres keep the distances exact,
// so the memberships are exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_KMEANS_H
#define SMC_BENCH_WORKLOADS_KMEANS_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::kmeans {

struct Problem {
  int32_t points = 0, features = 0, clusters = 0;
  std::vector<float> feature; // features * points, feature-major
  std::vector<float> centre;  // clusters * features
};

Problem generate(const Params &params, uint64_t seed);
// Memberships of the points `points`.
void cpuReference(const Problem &problem, const std::vector<size_t> &points,
                  std::vector<int32_t> &membership);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // kmeans.cu

} // namespace smc::workloads::kmeans

#endif // SMC_BENCH_WORKLOADS_KMEANS_H
