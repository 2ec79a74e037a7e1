//===- syrk.cpp - syrk: inputs, CPU reference, self-check, registry -------===//
#include "syrk.h"

#include "Check.h"
#include "Random.h"

namespace smc::workloads::syrk {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.n = int32_t(params.get("n"));
  p.m = int32_t(params.get("m"));
  Rng ra(seed, 1), rc(seed, 2);
  p.a.resize(size_t(p.n) * p.m);
  p.c.resize(size_t(p.n) * p.n);
  for (float &v : p.a)
    v = ra.intFloat(-3, 3);
  for (float &v : p.c)
    v = rc.intFloat(-3, 3);
  return p;
}

void cpuReferenceRows(const Problem &p, const std::vector<size_t> &rows,
                      std::vector<double> &out) {
  size_t n = size_t(p.n), m = size_t(p.m);
  out.resize(rows.size() * n);
  for (size_t r = 0; r < rows.size(); ++r) {
    size_t i = rows[r];
    for (size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (size_t k = 0; k < m; ++k)
        sum += double(p.a[i * m + k]) * p.a[j * m + k];
      out[r * n + j] = double(kBeta) * p.c[i * n + j] + double(kAlpha) * sum;
    }
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = size_t(p.n), m = size_t(p.m);
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<double> out;
  cpuReferenceRows(p, all, out);
  if (!allExactInFloat(out.data(), out.size()))
    return failure("exact", "reference not exact in fp32");
  // Independent formulation: A A^T through an explicit transpose, k-outer;
  // and (C' - beta C) / alpha is symmetric.
  std::vector<double> at(m * n), gram(n * n, 0.0);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < m; ++k)
      at[k * n + i] = p.a[i * m + k];
  for (size_t k = 0; k < m; ++k)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        gram[i * n + j] += at[k * n + i] * at[k * n + j];
  std::vector<double> want(n * n);
  for (size_t e = 0; e < n * n; ++e)
    want[e] = double(kBeta) * p.c[e] + double(kAlpha) * gram[e];
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < i; ++j)
      if (out[i * n + j] - kBeta * p.c[i * n + j] !=
          out[j * n + i] - kBeta * p.c[j * n + i])
        return failure("symmetry", "alpha A A^T not symmetric");
  CheckResult r = compareExact(out, want, "C");
  r.detail = "row-dot reference vs transpose-based k-outer product; "
             "symmetry";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "syrk",
      "Symmetric rank-k update, one thread per element of C (PolyBench/GPU "
      "SYRK)",
      2,
      Regularity::Regular,
      Locality::CacheLineRelated,
      PaperCtaClustering,
      0,
      {"syrk_kernel"},
      {{"n", 200, 1024, 2048, "rows of A, order of C"},
       {"m", 72, 1024, 2048, "columns of A"}},
      &create,
      &cpuSelfCheck,
      "C exact (integer-valued fp32); Default/Large: 256 sampled rows, all "
      "finite",
  };
  return entry;
}

} // namespace smc::workloads::syrk
