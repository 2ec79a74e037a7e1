//===- mm.h - mm: tiled dense matrix multiply -----------------------------===//
//
// The CUDA SDK matrixMul: C (m x n) = A (m x k) * B (k x n), 16 x 16 thread
// blocks, each staging 16 x 16 tiles of A and B in shared memory between two
// barriers per step (256 threads, as in SM-Centric's discussion: each element
// is reused 16 times from shared memory).  m, n, k are multiples of 16. Entries
// are integers in [-3, 3] stored as floats: |C| <= 9k < 2^24, exact.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_MM_H
#define SMC_BENCH_WORKLOADS_MM_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::mm {

constexpr int kTile = 16;

struct Problem {
  int32_t m = 0, n = 0, k = 0;
  std::vector<float> a; // m x k, row-major
  std::vector<float> b; // k x n, row-major
};

Problem generate(const Params &params, uint64_t seed);
// Rows `rows` of C, row-major (rows.size() x n), in double.
void cpuReferenceRows(const Problem &problem, const std::vector<size_t> &rows,
                      std::vector<double> &c);
// The GPU check of C (m x n, downloaded): `count` rows drawn with `seed`,
// their reference computed on the first call after reset().
class SampledRowsCheck {
public:
  SampledRowsCheck(size_t count, uint64_t seed) : count(count), seed(seed) {}
  void reset() { reference.clear(); }
  CheckResult operator()(const Problem &problem, const std::vector<float> &got);

private:
  size_t count;
  uint64_t seed;
  std::vector<size_t> rows;
  std::vector<double> reference;
};
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // mm.cu

} // namespace smc::workloads::mm

#endif // SMC_BENCH_WORKLOADS_MM_H
