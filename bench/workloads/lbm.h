//===- lbm.h - lbm: D2Q9 lattice-Boltzmann step (G-Streamline) ------------===//
//
// One collide-and-stream step of a D2Q9 lattice-Boltzmann fluid on an
// nx x ny torus flattened to 1-D (cell i = y * nx + x), one thread per cell
// (G-Streamline's 3dlbm, in 2-D).  The cell's kind, loaded first, selects
// its work: fluid cells pull their nine populations from their neighbours
// and collide (BGK with a Smagorinsky eddy viscosity: the heavy path),
// obstacle cells bounce their own populations back (cheap), the inflow
// column (x = 0) is reset to the equilibrium at the inflow velocity and the
// outflow column (x = nx - 1) copies its west neighbour (medium).
// `obstacles` percent of the other cells are obstacles, scattered at random
// (divergent warps), or with clustered=1 whole aligned 32 x 8 tiles, so that
// warps are uniform: the input where remapping threads to jobs must not pay.
// Populations are a structure of arrays, f[q * cells + i], q = 0..8: rest,
// E, N, W, S, NE, NW, SW, SE (N is +y); the input is near equilibrium.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_LBM_H
#define SMC_BENCH_WORKLOADS_LBM_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::lbm {

constexpr int kQ = 9;
enum CellKind : int32_t {
  kFluid = 0,
  kObstacle = 1,
  kInflow = 2,
  kOutflow = 3,
};
constexpr float kTau = 0.6f;             // BGK relaxation time
constexpr float kSmagorinsky = 0.18f;    // 18 C_s^2, C_s = 0.1
constexpr float kInflowVelocity = 0.08f; // x velocity of the inflow column
constexpr float kWeightRest = 4.0f / 9;  // q = 0
constexpr float kWeightAxis = 1.0f / 9;  // q = 1..4
constexpr float kWeightDiag = 1.0f / 36; // q = 5..8

struct Problem {
  int32_t nx = 0, ny = 0;
  std::vector<int32_t> kind; // per cell, CellKind
  std::vector<float> f;      // kQ * cells, [q * cells + i]
  size_t cells() const { return size_t(nx) * size_t(ny); }
};

Problem generate(const Params &params, uint64_t seed);
// The output populations of the cells `cells` in double:
// out[q * cells.size() + k] for cell cells[k].
void cpuReference(const Problem &problem, const std::vector<size_t> &cells,
                  std::vector<double> &out);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // lbm.cu

} // namespace smc::workloads::lbm

#endif // SMC_BENCH_WORKLOADS_LBM_H
