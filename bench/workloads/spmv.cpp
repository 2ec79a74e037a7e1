//===- spmv.cpp - spmv: inputs, CPU reference, self-check, registry entry -===//
#include "spmv.h"

#include "Check.h"
#include "Random.h"

namespace smc::workloads::spmv {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.rows = static_cast<int32_t>(params.get("rows"));
  int32_t avg = static_cast<int32_t>(params.get("nnz_per_row"));
  const int32_t band = 512;
  Rng lengths(seed, 1), columns(seed, 2), values(seed, 3), vector(seed, 4);
  p.rowPtr.resize(size_t(p.rows) + 1);
  p.rowPtr[0] = 0;
  for (int32_t r = 0; r < p.rows; ++r) {
    int32_t len = avg / 2 + lengths.intIn(0, avg);
    p.rowPtr[r + 1] = p.rowPtr[r] + len;
  }
  size_t nnz = size_t(p.rowPtr[p.rows]);
  p.cols.resize(nnz);
  p.vals.resize(nnz);
  for (int32_t r = 0; r < p.rows; ++r) {
    for (int32_t k = p.rowPtr[r]; k < p.rowPtr[r + 1]; ++k) {
      int64_t c;
      if (columns.below(10) < 8)
        c = (int64_t(r) + columns.intIn(-band, band) + p.rows) % p.rows;
      else
        c = columns.below(uint32_t(p.rows));
      p.cols[k] = int32_t(c);
    }
  }
  for (size_t k = 0; k < nnz; ++k)
    p.vals[k] = values.intFloat(-4, 4);
  p.x.resize(size_t(p.rows));
  for (float &v : p.x)
    v = vector.intFloat(-4, 4);
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &y) {
  y.assign(size_t(p.rows), 0.0);
  for (int32_t r = 0; r < p.rows; ++r) {
    double sum = 0;
    for (int32_t k = p.rowPtr[r]; k < p.rowPtr[r + 1]; ++k)
      sum += double(p.vals[k]) * p.x[p.cols[k]];
    y[r] = sum;
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> y;
  cpuReference(p, y);
  if (!allExactInFloat(y.data(), y.size()))
    return failure("exact", "reference not exact in fp32");
  // Independent formulation: expand each row to a dense row, dot with x.
  std::vector<double> dense(size_t(p.rows), 0.0), want(size_t(p.rows));
  for (int32_t r = 0; r < p.rows; ++r) {
    for (int32_t k = p.rowPtr[r]; k < p.rowPtr[r + 1]; ++k)
      dense[p.cols[k]] += p.vals[k];
    double sum = 0;
    for (int32_t c = 0; c < p.rows; ++c)
      sum += dense[c] * p.x[c];
    want[r] = sum;
    for (int32_t k = p.rowPtr[r]; k < p.rowPtr[r + 1]; ++k)
      dense[p.cols[k]] = 0;
  }
  CheckResult r = compareExact(y, want, "csr vs dense y");
  r.detail = "CSR reference vs dense matvec of the same matrix";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "spmv",
      "CSR sparse matrix-vector product, one warp per row (SHOC CSR-vector)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperSmCentric | PaperKernelet,
      FeatureIndexArrays | FeatureWarpShuffle,
      {"spmv_csr_vector"},
      {{"rows", 4096, 1 << 22, 1 << 24, "matrix rows (= columns)"},
       {"nnz_per_row", 16, 32, 32, "average entries per row"}},
      &create,
      &cpuSelfCheck,
      "y exact (integer-valued fp32 inputs)",
  };
  return entry;
}

} // namespace smc::workloads::spmv
