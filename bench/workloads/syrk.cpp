//===- syrk.cpp - syrk: inputs, CPU reference, self-check, registry -------===//
#include "syrk.h"

#include "Check.h"
#include "Random.h"
#include "RankUpdate.h"

namespace smc::workloads::syrk {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.n = int32_t(params.get("n"));
  p.m = int32_t(params.get("m"));
  Rng ra(seed, 1), rc(seed, 2);
  p.a = ra.intFloats(size_t(p.n) * p.m, -3, 3);
  p.c = rc.intFloats(size_t(p.n) * p.n, -3, 3);
  return p;
}

void cpuReferenceRows(const Problem &p, const std::vector<size_t> &rows,
                      std::vector<double> &out) {
  size_t m = size_t(p.m);
  rankUpdateRows(size_t(p.n), p.c, kAlpha, kBeta, rows, out,
                 [&](size_t i, size_t j) {
                   double sum = 0;
                   for (size_t k = 0; k < m; ++k)
                     sum += double(p.a[i * m + k]) * p.a[j * m + k];
                   return sum;
                 });
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = size_t(p.n), m = size_t(p.m);
  std::vector<double> out;
  cpuReferenceRows(p, allRows(n), out);
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
  return checkRankUpdate(out, want, p.c, n, kBeta, "alpha A A^T not symmetric",
                         "row-dot reference vs transpose-based k-outer "
                         "product; symmetry");
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
