//===- mm.cpp - mm: inputs, CPU reference, self-check, registry -----------===//
#include "mm.h"

#include "Check.h"
#include "Random.h"

#include <stdexcept>

namespace smc::workloads::mm {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.m = static_cast<int32_t>(params.get("m"));
  p.n = static_cast<int32_t>(params.get("n"));
  p.k = static_cast<int32_t>(params.get("k"));
  if (p.m % kTile || p.n % kTile || p.k % kTile || p.k > 1 << 20)
    throw std::invalid_argument("mm: m, n, k must be multiples of 16");
  Rng ra(seed, 1), rb(seed, 2);
  p.a.resize(size_t(p.m) * p.k);
  p.b.resize(size_t(p.k) * p.n);
  for (float &v : p.a)
    v = ra.intFloat(-3, 3);
  for (float &v : p.b)
    v = rb.intFloat(-3, 3);
  return p;
}

void cpuReferenceRows(const Problem &p, const std::vector<size_t> &rows,
                      std::vector<double> &c) {
  size_t n = size_t(p.n), k = size_t(p.k);
  c.assign(rows.size() * n, 0.0);
  for (size_t r = 0; r < rows.size(); ++r) {
    double *out = &c[r * n];
    const float *aRow = &p.a[rows[r] * k];
    for (size_t kk = 0; kk < k; ++kk) {
      double a = aRow[kk];
      const float *bRow = &p.b[kk * n];
      for (size_t j = 0; j < n; ++j)
        out[j] += a * bRow[j];
    }
  }
}

CheckResult SampledRowsCheck::operator()(const Problem &problem,
                                         const std::vector<float> &got) {
  if (reference.empty()) {
    rows = sampleIndices(size_t(problem.m), count, seed);
    cpuReferenceRows(problem, rows, reference);
  }
  return compareSampledRows(got, size_t(problem.n), rows, reference, "C");
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<size_t> rows(size_t(p.m));
  for (size_t i = 0; i < rows.size(); ++i)
    rows[i] = i;
  std::vector<double> c;
  cpuReferenceRows(p, rows, c);
  if (!allExactInFloat(c.data(), c.size()))
    return failure("exact", "reference not exact in fp32");
  // Independent formulation: the naive i-j-k triple loop.
  std::vector<double> want(c.size());
  for (int32_t i = 0; i < p.m; ++i)
    for (int32_t j = 0; j < p.n; ++j) {
      double sum = 0;
      for (int32_t kk = 0; kk < p.k; ++kk)
        sum += double(p.a[size_t(i) * p.k + kk]) * p.b[size_t(kk) * p.n + j];
      want[size_t(i) * p.n + j] = sum;
    }
  CheckResult r = compareExact(c, want, "C");
  r.detail = "i-k-j reference vs naive i-j-k triple loop";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "mm",
      "Tiled dense matrix multiply, 16x16 shared-memory tiles with barriers "
      "(CUDA SDK matrixMul)",
      2,
      Regularity::Regular,
      Locality::AlgorithmRelated,
      PaperSmCentric | PaperKernelet | PaperCtaClustering,
      FeatureSharedMemory | FeatureBarriers,
      {"mm_tiled"},
      {{"m", 128, 2048, 4096, "rows of A and C (multiple of 16)"},
       {"n", 192, 2048, 4096, "columns of B and C (multiple of 16)"},
       {"k", 160, 2048, 4096, "columns of A, rows of B (multiple of 16)"}},
      &create,
      &cpuSelfCheck,
      "C exact (integer-valued fp32); Default/Large: 128 sampled rows, all "
      "entries finite",
  };
  return entry;
}

} // namespace smc::workloads::mm
