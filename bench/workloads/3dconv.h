//===- 3dconv.h - 3dconv: 3-D convolution on a 3-D grid (CTA-Clustering) --===//
//
// PolyBench/GPU 3DCONV, a 3 x 3 x 3 convolution of an ni x nj x nk volume,
// with one thread per output point on a genuinely 3-D grid: blocks of
// 32 x 8 x 1 threads over (k, j), one grid layer per i (PolyBench loops over
// i on the host instead).  Neighbouring threads and CTAs read overlapping
// cache lines (CTA-Clustering's "cache-line related").  Boundary points are
// written as 0.  The weights are PolyBench's nine integer coefficients, shifted
// by the z offset; integer inputs in [-8, 8]: exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_3DCONV_H
#define SMC_BENCH_WORKLOADS_3DCONV_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::conv3d {

// Weight of the input at offset (di, dj, dk): kCoeff[(dj+1)*3 + dk+1] + di.
constexpr int kCoeff[9] = {2, 5, -8, -3, 6, -9, 4, 7, 10};

struct Problem {
  int32_t ni = 0, nj = 0, nk = 0;
  std::vector<float> a; // ni x nj x nk, k fastest
};

Problem generate(const Params &params, uint64_t seed);
// Output rows `rows` (row r = i * nj + j, nk values each), in double.
void cpuReferenceRows(const Problem &problem, const std::vector<size_t> &rows,
                      std::vector<double> &out);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // 3dconv.cu

} // namespace smc::workloads::conv3d

#endif // SMC_BENCH_WORKLOADS_3DCONV_H
