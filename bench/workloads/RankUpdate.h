//===- RankUpdate.h - The CPU side syrk and syr2k share -------------------===//
//
// Both compute C' = beta C + alpha S for an n x n input C and a symmetric
// n x n S built from rows of their n x m inputs (S = A A^T for syrk,
// A B^T + B A^T for syr2k).  Their references differ only in S's row dot;
// their self-checks share the final verdict.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_RANKUPDATE_H
#define SMC_BENCH_WORKLOADS_RANKUPDATE_H

#include "Check.h"

#include <cstddef>
#include <string>
#include <vector>

namespace smc {
namespace workloads {

// Rows `rows` of C' (rows.size() x n), in double: out[r * n + j] =
// beta C[i][j] + alpha dot(i, j) with i = rows[r], where dot(i, j) returns
// S[i][j] summed in double.
template <typename RowDot>
void rankUpdateRows(size_t n, const std::vector<float> &c, float alpha,
                    float beta, const std::vector<size_t> &rows,
                    std::vector<double> &out, RowDot dot) {
  out.resize(rows.size() * n);
  for (size_t r = 0; r < rows.size(); ++r) {
    size_t i = rows[r];
    for (size_t j = 0; j < n; ++j) {
      double sum = dot(i, j);
      out[r * n + j] = double(beta) * c[i * n + j] + double(alpha) * sum;
    }
  }
}

// 0, 1, ..., n-1: every row, for a self-check's full reference.
inline std::vector<size_t> allRows(size_t n) {
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  return all;
}

// A self-check's verdict on `out`, the full reference C' (n x n): exact in
// fp32, C' - beta C symmetric (else a "symmetry" failure with
// `symmetryFailure`), and equal to `want`, an independent formulation's C'
// (the result's detail then says `detail`).
inline CheckResult
checkRankUpdate(const std::vector<double> &out, const std::vector<double> &want,
                const std::vector<float> &c, size_t n, float beta,
                const std::string &symmetryFailure, const std::string &detail) {
  if (!allExactInFloat(out.data(), out.size()))
    return failure("exact", "reference not exact in fp32");
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < i; ++j)
      if (out[i * n + j] - beta * c[i * n + j] !=
          out[j * n + i] - beta * c[j * n + i])
        return failure("symmetry", symmetryFailure);
  CheckResult r = compareExact(out, want, "C");
  r.detail = detail;
  return r;
}

} // namespace workloads
} // namespace smc

#endif // SMC_BENCH_WORKLOADS_RANKUPDATE_H
