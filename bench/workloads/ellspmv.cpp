//===- ellspmv.cpp - ellspmv: inputs, CPU reference, self-check, registry -===//
#include "ellspmv.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <cmath>

namespace smc::workloads::ellspmv {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.rows = int32_t(params.get("rows"));
  size_t n = size_t(p.rows);
  Rng lengths(seed, 1), columns(seed, 2), values(seed, 3), order(seed, 4);
  p.rowStart.resize(n + 1);
  p.rowStart[0] = 0;
  for (size_t r = 0; r < n; ++r) {
    double u = lengths.unit();
    int32_t length = int32_t(std::pow(double(kMaxRowLength + 1), u));
    p.rowStart[r + 1] = p.rowStart[r] + std::clamp(length, 1, kMaxRowLength);
  }
  size_t nnz = size_t(p.rowStart[n]);
  p.cols.resize(nnz);
  for (int32_t &c : p.cols)
    c = int32_t(columns.below(uint32_t(p.rows)));
  p.vals = values.intFloats(nnz, -4, 4);
  p.x = values.intFloats(n, -8, 8);
  if (params.get("ordered")) {
    p.rowOrder.resize(n);
    for (size_t r = 0; r < n; ++r)
      p.rowOrder[r] = int32_t(r);
  } else {
    p.rowOrder = order.permutation(n);
  }
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &y) {
  y.assign(size_t(p.rows), 0.0);
  for (size_t r = 0; r < size_t(p.rows); ++r) {
    double sum = 0;
    for (int32_t k = p.rowStart[r]; k < p.rowStart[r + 1]; ++k)
      sum += double(p.vals[size_t(k)]) * p.x[size_t(p.cols[size_t(k)])];
    y[r] = sum;
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Params params = info().params(Size::Small);
  Problem p = generate(params, seed);
  size_t n = size_t(p.rows);
  std::vector<double> y;
  cpuReference(p, y);
  if (!allExactInFloat(y.data(), y.size()))
    return failure("exact", "reference not exact in fp32");
  // rowOrder is a permutation, so every row is written once.
  std::vector<uint8_t> seen(n, 0);
  for (int32_t r : p.rowOrder)
    if (r < 0 || size_t(r) >= n || seen[size_t(r)]++)
      return failure("permutation", "rowOrder is not a permutation");
  // Independent formulation: w . (A x) = (A^T w) . x in integers, with A^T
  // built column by column (counting sort) and w random.
  Rng rng(seed, 99);
  std::vector<int64_t> w(n);
  for (int64_t &v : w)
    v = rng.intIn(-100, 100);
  std::vector<int32_t> colStart(n + 1, 0);
  for (int32_t c : p.cols)
    ++colStart[size_t(c) + 1];
  for (size_t c = 0; c < n; ++c)
    colStart[c + 1] += colStart[c];
  std::vector<int32_t> fill(colStart.begin(), colStart.end() - 1);
  std::vector<int64_t> entryRow(p.cols.size()), entryVal(p.cols.size());
  for (size_t r = 0; r < n; ++r)
    for (int32_t k = p.rowStart[r]; k < p.rowStart[r + 1]; ++k) {
      int32_t at = fill[size_t(p.cols[size_t(k)])]++;
      entryRow[size_t(at)] = int64_t(r);
      entryVal[size_t(at)] = int64_t(p.vals[size_t(k)]);
    }
  int64_t left = 0, right = 0;
  for (size_t r = 0; r < n; ++r)
    left += w[r] * int64_t(y[r]);
  for (size_t c = 0; c < n; ++c) {
    int64_t column = 0;
    for (int32_t k = colStart[c]; k < colStart[c + 1]; ++k)
      column += entryVal[size_t(k)] * w[size_t(entryRow[size_t(k)])];
    right += column * int64_t(p.x[c]);
  }
  if (left != right)
    return failure("transpose", "w.(Ax) = " + std::to_string(left) +
                                    ", (A^T w).x = " + std::to_string(right));
  // Row lengths as documented; ordered=1 only orders the rows.
  double mean = double(p.cols.size()) / double(n);
  int shortest = kMaxRowLength, longest = 0;
  for (size_t r = 0; r < n; ++r) {
    shortest = std::min(shortest, p.rowStart[r + 1] - p.rowStart[r]);
    longest = std::max(longest, p.rowStart[r + 1] - p.rowStart[r]);
  }
  params.set("ordered", 1);
  Problem ordered = generate(params, seed);
  bool identity = ordered.cols == p.cols && ordered.vals == p.vals;
  for (size_t r = 0; r < n; ++r)
    identity = identity && ordered.rowOrder[r] == int32_t(r);
  if (shortest != 1 || longest != kMaxRowLength || mean < 13 || mean > 17 ||
      !identity)
    return failure("inputs", "row lengths " + std::to_string(shortest) + ".." +
                                 std::to_string(longest) + ", mean " +
                                 std::to_string(mean));
  CheckResult r = success("invariants", p.cols.size());
  r.detail = "w.(Ax) = (A^T w).x exactly; rowOrder a permutation; lengths "
             "1..64, mean " +
             std::to_string(mean).substr(0, 4);
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "ellspmv",
      "SpMV, one thread per row, rows in a scattered order, power-law row "
      "lengths (G-Streamline cg)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperGStreamline,
      FeatureIndexArrays,
      {"ellspmv_rows"},
      {{"rows", 1 << 14, 1 << 22, 1 << 24, "rows (= columns)"},
       {"ordered", 0, 0, 0,
        "1: rowOrder is the identity (remapping must not pay)"}},
      &create,
      &cpuSelfCheck,
      "y exact (integer-valued fp32)",
  };
  return entry;
}

} // namespace smc::workloads::ellspmv
