//===- ellspmv.h - ellspmv: SpMV rows in scattered order (G-Streamline) ---===//
//
// Sparse matrix-vector product y = A x (G-Streamline's cg), one thread per
// row, the rows visited through a scattered row order: thread i loads
// row = rowOrder[i] first, then sums vals[k] * x[cols[k]] over the row's
// nonzeros (compressed rows, rowStart[row] .. rowStart[row + 1] - 1) and
// writes y[row].  Row lengths are log-uniform in [1, 64] (power-law-like,
// mean ~15), so trip counts diverge; columns are uniform at random.
// rowOrder is a random permutation, so neighbouring threads read unrelated
// parts of vals, cols and y; with ordered=1 it is the identity (remapping
// must not pay).  Values in [-4, 4] and x in [-8, 8] are integers stored as
// floats: every partial sum is exact (|y| <= 64 * 32).
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_ELLSPMV_H
#define SMC_BENCH_WORKLOADS_ELLSPMV_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::ellspmv {

constexpr int kMaxRowLength = 64;

struct Problem {
  int32_t rows = 0;              // = columns
  std::vector<int32_t> rowOrder; // per thread: its row
  std::vector<int32_t> rowStart; // rows + 1
  std::vector<int32_t> cols;
  std::vector<float> vals, x;
};

Problem generate(const Params &params, uint64_t seed);
// y = A x in double (exact).
void cpuReference(const Problem &problem, std::vector<double> &y);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // ellspmv.cu

} // namespace smc::workloads::ellspmv

#endif // SMC_BENCH_WORKLOADS_ELLSPMV_H
