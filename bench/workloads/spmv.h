//===- spmv.h - spmv: CSR sparse matrix-vector product --------------------===//
//
// y = A x for a square CSR matrix, one warp per row (SHOC's CSR-vector
// kernel).  Rows have avg/2..3avg/2 entries, 80% of them within +-512
// columns of the diagonal and 20% anywhere, so the gathers from x are
// irregular.  Values and x are integers in [-4, 4] stored as floats: every
// partial sum is an integer below 2^24, so the result is exact in any order.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_SPMV_H
#define SMC_BENCH_WORKLOADS_SPMV_H

#include "Workload.h"

#include <vector>

namespace smc::workloads::spmv {

struct Problem {
  int32_t rows = 0;            // == columns
  std::vector<int32_t> rowPtr; // rows + 1
  std::vector<int32_t> cols;   // nnz
  std::vector<float> vals;     // nnz
  std::vector<float> x;        // rows
};

Problem generate(const Params &params, uint64_t seed);
// y = A x, in double (exact for these inputs).
void cpuReference(const Problem &problem, std::vector<double> &y);
CheckResult cpuSelfCheck(uint64_t seed);
const WorkloadInfo &info();
std::unique_ptr<Workload> create(); // spmv.cu

} // namespace smc::workloads::spmv

#endif // SMC_BENCH_WORKLOADS_SPMV_H
