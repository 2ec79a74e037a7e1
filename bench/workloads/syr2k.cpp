//===- syr2k.cpp - syr2k: inputs, CPU reference, self-check, registry -----===//
#include "syr2k.h"

#include "Check.h"
#include "Random.h"
#include "RankUpdate.h"

namespace smc::workloads::syr2k {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.n = int32_t(params.get("n"));
  p.m = int32_t(params.get("m"));
  Rng ra(seed, 1), rb(seed, 2), rc(seed, 3);
  p.a = ra.intFloats(size_t(p.n) * p.m, -3, 3);
  p.b = rb.intFloats(size_t(p.n) * p.m, -3, 3);
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
                     sum += double(p.a[i * m + k]) * p.b[j * m + k] +
                            double(p.b[i * m + k]) * p.a[j * m + k];
                   return sum;
                 });
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = size_t(p.n), m = size_t(p.m);
  std::vector<double> out;
  cpuReferenceRows(p, allRows(n), out);
  // Independent formulation: X = A B^T by k-outer products, then
  // C' = beta C + alpha (X + X^T); and C' - beta C is symmetric.
  std::vector<double> x(n * n, 0.0);
  for (size_t k = 0; k < m; ++k)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        x[i * n + j] += double(p.a[i * m + k]) * p.b[j * m + k];
  std::vector<double> want(n * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      want[i * n + j] = double(kBeta) * p.c[i * n + j] +
                        double(kAlpha) * (x[i * n + j] + x[j * n + i]);
  return checkRankUpdate(out, want, p.c, n, kBeta,
                         "A B^T + B A^T not symmetric",
                         "row-dot reference vs X + X^T with X = A B^T; "
                         "symmetry");
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "syr2k",
      "Symmetric rank-2k update, one thread per element of C (PolyBench/GPU "
      "SYR2K)",
      2,
      Regularity::Regular,
      Locality::CacheLineRelated,
      PaperCtaClustering,
      0,
      {"syr2k_kernel"},
      {{"n", 200, 1024, 2048, "rows of A and B, order of C"},
       {"m", 72, 1024, 2048, "columns of A and B"}},
      &create,
      &cpuSelfCheck,
      "C exact (integer-valued fp32); Default/Large: 256 sampled rows, all "
      "finite",
  };
  return entry;
}

} // namespace smc::workloads::syr2k
