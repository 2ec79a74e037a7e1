//===- particles.h - particles: per-particle ODE steps (G-Streamline) -----===//
//
// Independent particles, each integrated for its own number of time steps
// (G-Streamline's particles: per-element iteration counts).  One thread per
// particle loads its step count first, then takes that many semi-implicit
// Euler steps of dt = 1/32 of a damped particle in a softened spring well:
//   a = -k x / sqrt(1 + |x|^2) - c v,  v += dt a,  x += dt v,
// with its own stiffness k in [1, 4] and damping c in [0.5, 1.5] (the w
// components of its position and velocity).  Step counts are in [0, 256],
// skewed (256 u^3 for uniform u: mean 64, but most warps hold a count
// above 200), so the warp waits for its longest particle; with sorted=1
// they are sorted ascending and warps are uniform (remapping must not pay).
// out[i] = (x, y, z, |v|) after the last step.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_PARTICLES_H
#define SMC_BENCH_WORKLOADS_PARTICLES_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::particles {

constexpr float kDt = 1.0f / 32;
constexpr int kMaxSteps = 256;

struct Problem {
  std::vector<int32_t> steps; // per particle, [0, kMaxSteps]
  std::vector<float> pos;     // 4 per particle: x, y, z, stiffness k
  std::vector<float> vel;     // 4 per particle: vx, vy, vz, damping c
  size_t particles() const { return steps.size(); }
};

Problem generate(const Params &params, uint64_t seed);
// out[4 * k + j] for particle particles[k], in double.
void cpuReference(const Problem &problem, const std::vector<size_t> &particles,
                  std::vector<double> &out);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // particles.cu

} // namespace smc::workloads::particles

#endif // SMC_BENCH_WORKLOADS_PARTICLES_H
