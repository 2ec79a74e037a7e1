//===- hotspot.h - hotspot: chip temperature stencil (CTA-Clustering) -----===//
//
// Rodinia HotSpot: explicit time steps of the chip's heat equation,
//   T' = T + step/Cap * (P + (N + S - 2T)/Ry + (E + W - 2T)/Rx + (amb - T)/Rz)
// with a missing neighbour at the chip edge replaced by T itself.  Each
// launch advances `pyramid` steps of a 16 x 16 tile in shared memory (the
// valid region shrinks by one cell per side and step, with barriers); run()
// launches ceil(iterations / pyramid) times, ping-ponging two buffers.
// Threads whose cell lies outside the chip return before the first barrier.
// The physical constants are Rodinia's for a 512 x 512 chip, kept for every
// grid size so that the explicit scheme stays stable.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_HOTSPOT_H
#define SMC_BENCH_WORKLOADS_HOTSPOT_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::hotspot {

struct Coefficients {
  float stepDivCap, rx1, ry1, rz1, ambient;
};

struct Problem {
  int32_t rows = 0, cols = 0, iterations = 0, pyramid = 0;
  std::vector<float> temp, power; // rows * cols, row-major
  Coefficients coeff;
};

Problem generate(const Params &params, uint64_t seed);
// Temperatures after `iterations` steps (all when < 0), in double.
void cpuReference(const Problem &problem, std::vector<double> &temp,
                  int32_t iterations = -1);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // hotspot.cu

} // namespace smc::workloads::hotspot

#endif // SMC_BENCH_WORKLOADS_HOTSPOT_H
