//===- cfd.h - cfd: unstructured-mesh finite-volume flux (SM-Centric) -----===//
//
// Rodinia CFD's compute_flux step of the 3-D Euler solver: every cell reads
// its five conserved variables (density, momentum xyz, energy; structure of
// arrays) and those of its four face neighbours through an index array, and
// computes the flux through each face (interior: central flux plus
// smoothing; -1: wing wall, pressure only; -2: far field).  Cells come from a
// 64 x 64 x L box with 4 of the 6 faces kept at random, numbered in random
// order, so the neighbour gathers are irregular.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_CFD_H
#define SMC_BENCH_WORKLOADS_CFD_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::cfd {

constexpr int kVars = 5;  // density, momentum x, y, z, density-energy
constexpr int kFaces = 4; // neighbours per cell
constexpr float kGamma = 1.4f;
constexpr float kSmoothing = 0.2f;

// The far-field state and its flux contributions (a kernel argument).
struct FarField {
  float density;
  float momentum[3];
  float energy;
  float fluxMomentum[3][3]; // [momentum component][direction]
  float fluxEnergy[3];      // [direction]
};

struct Problem {
  int32_t cells = 0;
  std::vector<float> variables;  // kVars * cells, [var * cells + i]
  std::vector<int32_t> neighbor; // kFaces * cells, [face * cells + i]
  std::vector<float>
      normal; // 3 * kFaces * cells, [(face + k*kFaces)*cells + i]
  FarField farField;
};

Problem generate(const Params &params, uint64_t seed);
// The fluxes of the cells `cells` in double: flux[var * cells.size() + k]
// for cell cells[k].
void cpuReference(const Problem &problem, const std::vector<size_t> &cells,
                  std::vector<double> &flux);
// The root mean square of each variable's flux (over `count` cells): the
// error scale of values near zero.
void fluxScales(const std::vector<double> &flux, size_t count,
                double scale[kVars]);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // cfd.cu

} // namespace smc::workloads::cfd

#endif // SMC_BENCH_WORKLOADS_CFD_H
