//===- Check.cpp - Comparing workload outputs with their CPU references ---===//
//
// Comparisons, sampling and result formatting shared by all workloads.
//===----------------------------------------------------------------------===//
#include "Check.h"

#include "Random.h"

#include <algorithm>
#include <limits>

namespace smc {
namespace workloads {

CheckResult compareExactFloat(const float *got, const double *want, size_t n,
                              const std::string &what) {
  CheckResult r;
  r.metric = "exact (integer-valued fp32, partial sums < 2^24)";
  r.checked = n;
  for (size_t i = 0; i < n; ++i) {
    double g = got[i];
    if (g == want[i])
      continue;
    double err = std::isfinite(g) ? std::fabs(g - want[i])
                                  : std::numeric_limits<double>::infinity();
    r.maxError = std::max(r.maxError, err);
    if (r.failures++ == 0) {
      std::ostringstream os;
      os.precision(9);
      os << what << "[" << i << "]: got " << g << ", want " << want[i];
      r.detail = os.str();
    }
  }
  r.ok = r.failures == 0;
  return r;
}

CheckResult compareScaled(const float *got, const double *want,
                          const double *magnitude, size_t n, double tol,
                          double floor, const std::string &metric,
                          const std::string &what) {
  CheckResult r;
  r.metric = metric;
  r.tolerance = tol;
  r.checked = n;
  for (size_t i = 0; i < n; ++i) {
    double g = got[i];
    double scale = magnitude ? magnitude[i] : std::fabs(want[i]);
    scale = std::max(scale, floor);
    double diff = std::fabs(g - want[i]);
    double err = !std::isfinite(g) ? std::numeric_limits<double>::infinity()
                 : diff == 0       ? 0.0
                                   : diff / scale; // inf when scale is 0
    r.maxError = std::max(r.maxError, err);
    if (err <= tol)
      continue;
    if (r.failures++ == 0) {
      std::ostringstream os;
      os.precision(9);
      os << what << "[" << i << "]: got " << g << ", want " << want[i]
         << " (error " << err << ")";
      r.detail = os.str();
    }
  }
  r.ok = r.failures == 0;
  return r;
}

CheckResult compareSampledRows(const std::vector<float> &got, size_t rowLength,
                               const std::vector<size_t> &rows,
                               const std::vector<double> &reference,
                               const std::string &what) {
  std::vector<float> sampled(rows.size() * rowLength);
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t j = 0; j < rowLength; ++j)
      sampled[r * rowLength + j] = got[rows[r] * rowLength + j];
  CheckResult result =
      compareExactFloat(sampled.data(), reference.data(), sampled.size(), what);
  size_t totalRows = rowLength ? got.size() / rowLength : 0;
  if (rows.size() < totalRows) {
    result.merge(checkAllFinite(got.data(), got.size(), what));
    result.detail += (result.detail.empty() ? "" : "; ") +
                     std::to_string(rows.size()) + " of " +
                     std::to_string(totalRows) + " rows compared";
  }
  return result;
}

CheckResult checkAllFinite(const float *got, size_t n,
                           const std::string &what) {
  CheckResult r;
  r.metric = "finite";
  r.checked = n;
  for (size_t i = 0; i < n; ++i) {
    if (std::isfinite(got[i]))
      continue;
    if (r.failures++ == 0)
      r.detail =
          what + "[" + std::to_string(i) + "] is not finite (unwritten?)";
    r.maxError = std::numeric_limits<double>::infinity();
  }
  r.ok = r.failures == 0;
  return r;
}

CheckResult failure(const std::string &metric, const std::string &detail) {
  CheckResult r;
  r.ok = false;
  r.metric = metric;
  r.failures = 1;
  r.maxError = std::numeric_limits<double>::infinity();
  r.detail = detail;
  return r;
}

CheckResult success(const std::string &metric, uint64_t checked) {
  CheckResult r;
  r.ok = true;
  r.metric = metric;
  r.checked = checked;
  return r;
}

std::vector<size_t> sampleIndices(size_t n, size_t count, uint64_t seed) {
  std::vector<size_t> out;
  if (n == 0)
    return out;
  if (count >= n || count < 2) {
    if (count < 2 && n > 1) {
      out.push_back(0);
      out.push_back(n - 1);
      return out;
    }
    out.resize(n);
    for (size_t i = 0; i < n; ++i)
      out[i] = i;
    return out;
  }
  Rng rng(seed, 0x5A3F1E);
  double stride = double(n) / double(count);
  out.push_back(0);
  for (size_t k = 1; k + 1 < count; ++k) {
    size_t lo = size_t(k * stride);
    size_t width = std::max<size_t>(1, size_t((k + 1) * stride) - lo);
    size_t idx =
        lo +
        rng.below(static_cast<uint32_t>(std::min<size_t>(width, 0xFFFFFFFFu)));
    if (idx > out.back() && idx < n - 1)
      out.push_back(idx);
  }
  out.push_back(n - 1);
  return out;
}

bool allExactInFloat(const double *values, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (values[i] != std::floor(values[i]) ||
        std::fabs(values[i]) >= 16777216.0)
      return false;
  return true;
}

std::string countText(uint64_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int bits = 0;
    while ((uint64_t(1) << bits) != n)
      ++bits;
    return "2^" + std::to_string(bits);
  }
  return std::to_string(n);
}

} // namespace workloads
} // namespace smc
