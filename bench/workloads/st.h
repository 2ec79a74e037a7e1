//===- st.h - st: 7-point 3-D stencil (Kernelet) --------------------------===//
//
// Parboil's stencil: out = c0 * in + c1 * (sum of the 6 face neighbours) on
// the interior of an nx x ny x nz grid, boundary copied, for `steps` Jacobi
// sweeps (one launch each, ping-ponging two buffers).  A 2-D grid of 32 x 8
// thread tiles walks up z, keeping the z neighbours in registers and the
// current plane, with a one-cell halo, in shared memory between two
// barriers per plane.  Threads past the grid edge (nx, ny not multiples of
// the tile) return before the first barrier.  c0 = 1/2, c1 = 1/16 and
// integer inputs in [-64, 64] keep every value a short dyadic fraction, so
// fp32 is exact for up to 4 steps.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_ST_H
#define SMC_BENCH_WORKLOADS_ST_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::st {

constexpr float kC0 = 0.5f, kC1 = 0.0625f;

struct Problem {
  int32_t nx = 0, ny = 0, nz = 0, steps = 0;
  std::vector<float> grid; // x fastest, then y, then z
};

Problem generate(const Params &params, uint64_t seed);
// The grid after `steps` sweeps (all of the problem's when steps < 0).
void cpuReference(const Problem &problem, std::vector<double> &out,
                  int32_t steps = -1);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // st.cu

} // namespace smc::workloads::st

#endif // SMC_BENCH_WORKLOADS_ST_H
