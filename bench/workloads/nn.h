//===- nn.h - nn: nearest-neighbour distances (SM-Centric) ----------------===//
//
// Rodinia NN's kernel: the Euclidean distance from every (latitude,
// longitude) record to one target point; the host then picks the k nearest.
// The records are 1-D data on a 2-D grid: block (x, y) handles records
// (y * gridDim.x + x) * blockDim.x + threadIdx.x, as Rodinia does when the
// blocks do not fit in one grid row (here gridDim.x is capped at 256 so every
// size uses a genuine 2-D grid, with a partly empty last row).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_NN_H
#define SMC_BENCH_WORKLOADS_NN_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::nn {

constexpr float kTargetLat = 30.0f, kTargetLng = 90.0f;

struct Problem {
  std::vector<float> location; // records * 2 (lat, lng)
  size_t records() const { return location.size() / 2; }
};

Problem generate(const Params &params, uint64_t seed);
void cpuReference(const Problem &problem, std::vector<double> &distance);
// Indices of the k nearest records, nearest first (ties by index).
std::vector<size_t> kNearest(const std::vector<double> &distance, size_t k);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // nn.cu

} // namespace smc::workloads::nn

#endif // SMC_BENCH_WORKLOADS_NN_H
