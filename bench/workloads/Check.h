//===- Check.h - Comparing workload outputs with their CPU references -----===//
//
// The comparisons every workload's check() and CPU self-check use, so each
// workload states only what it compares and with which tolerance.  Plain C++,
// no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_BENCH_WORKLOADS_CHECK_H
#define SMC_BENCH_WORKLOADS_CHECK_H

#include "Workload.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace smc {
namespace workloads {

// Bit-for-bit equality of integer arrays (or of floats, with == and NaN
// failing).  `what` names the array in the failure text.
template <typename T>
CheckResult compareExact(const T *got, const T *want, size_t n,
                         const std::string &what) {
  CheckResult r;
  r.metric = "exact";
  r.checked = n;
  for (size_t i = 0; i < n; ++i) {
    if (got[i] == want[i])
      continue;
    if (r.failures++ == 0) {
      std::ostringstream os;
      os << what << "[" << i << "]: got " << +got[i] << ", want " << +want[i];
      r.detail = os.str();
    }
    r.maxError = 1;
  }
  r.ok = r.failures == 0;
  return r;
}

template <typename T>
CheckResult compareExact(const std::vector<T> &got, const std::vector<T> &want,
                         const std::string &what) {
  if (got.size() != want.size()) {
    CheckResult r;
    r.metric = "exact";
    r.failures = 1;
    r.detail = what + ": size " + std::to_string(got.size()) + ", want " +
               std::to_string(want.size());
    return r;
  }
  return compareExact(got.data(), want.data(), got.size(), what);
}

// fp32 results against a reference that is exact (integer-valued inputs whose
// partial sums stay below 2^24, where fp32 arithmetic is exact in any order):
// (double)got[i] must equal want[i].
CheckResult compareExactFloat(const float *got, const double *want, size_t n,
                              const std::string &what);

// fp32 results against a double reference: element i passes when
//   |got[i] - want[i]| <= tol * max(scale_i, floor),
// where scale_i is magnitude[i] if `magnitude` is given (e.g. the sum of the
// absolute values of the terms that were added, so cancellation does not
// make the test meaningless) and |want[i]| otherwise.  maxError is the
// largest |got - want| / max(scale_i, floor).  NaN or inf fails; a scale of
// 0 demands equality.
CheckResult compareScaled(const float *got, const double *want,
                          const double *magnitude, size_t n, double tol,
                          double floor, const std::string &metric,
                          const std::string &what);

// The sampled-row check of matrix outputs: rows `rows` of `got` (row-major,
// rowLength columns) compared with `reference` (rows.size() x rowLength, an
// exact reference as for compareExactFloat); when the sample is not every
// row, also every element of `got` finite, and "k of n rows compared" in the
// detail.
CheckResult compareSampledRows(const std::vector<float> &got, size_t rowLength,
                               const std::vector<size_t> &rows,
                               const std::vector<double> &reference,
                               const std::string &what);

// Every element finite (poisoned, unwritten floats are NaN).
CheckResult checkAllFinite(const float *got, size_t n, const std::string &what);

// Every element in [lo, hi] (poisoned, unwritten integers are -1 or the
// type's largest value).
template <typename T>
CheckResult checkAllInRange(const T *got, size_t n, T lo, T hi,
                            const std::string &what) {
  CheckResult r;
  r.metric = "in range";
  r.checked = n;
  for (size_t i = 0; i < n; ++i) {
    if (got[i] >= lo && got[i] <= hi)
      continue;
    if (r.failures++ == 0) {
      std::ostringstream os;
      os << what << "[" << i << "] = " << +got[i] << " not in [" << +lo << ", "
         << +hi << "] (unwritten?)";
      r.detail = os.str();
    }
    r.maxError = 1;
  }
  r.ok = r.failures == 0;
  return r;
}

// A failed result with a message (e.g. a broken invariant in a self-check).
CheckResult failure(const std::string &metric, const std::string &detail);
// A passed result for an invariant that held on `checked` items.
CheckResult success(const std::string &metric, uint64_t checked);

// `count` distinct indices in [0, n), sorted, spread evenly with a random
// offset per stride, always including 0 and n-1.  All of [0, n) when
// count >= n.  Used where a full CPU reference would be too slow.
std::vector<size_t> sampleIndices(size_t n, size_t count, uint64_t seed);

// True when every value is an integer of magnitude below 2^24, i.e. when a
// float reference computed from integer-valued inputs is exact.
bool allExactInFloat(const double *values, size_t n);

// "2^27" for powers of two, else the decimal number.
std::string countText(uint64_t n);

} // namespace workloads
} // namespace smc

#endif // SMC_BENCH_WORKLOADS_CHECK_H
