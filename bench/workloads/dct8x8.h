//===- dct8x8.h - dct8x8: 8x8 block discrete cosine transform -------------===//
//
// The CUDA SDK dct8x8 in its shared-memory form: one 64-thread block (2
// warps) per 8 x 8 image block on a 2-D grid; the block is staged in shared
// memory, transformed along rows into a second shared array after a
// barrier, then along columns after another (512 bytes of shared memory, as
// in CTA-Clustering Table 2).  Y = C X C^T with the orthonormal DCT-II matrix
// C.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_DCT8X8_H
#define SMC_BENCH_WORKLOADS_DCT8X8_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::dct8x8 {

struct Problem {
  int32_t width = 0, height = 0; // multiples of 8
  std::vector<float> image;      // width * height, row-major, in [0, 255]
  std::vector<float> dctMatrix;  // 64: C[u][x] = c(u) cos((2x + 1) u pi / 16)
  size_t blocks() const { return size_t(width / 8) * (height / 8); }
};

Problem generate(const Params &params, uint64_t seed);
// Coefficients of the 8x8 blocks `blocks` (index by * (width / 8) + bx), 64
// each (row v, column u), in double, and the sum of |terms| of each.
void cpuReference(const Problem &problem, const std::vector<size_t> &blocks,
                  std::vector<double> &coeff, std::vector<double> &magnitude);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // dct8x8.cu

} // namespace smc::workloads::dct8x8

#endif // SMC_BENCH_WORKLOADS_DCT8X8_H
