//===- syr2k.cpp - syr2k: inputs, CPU reference, self-check, registry -----===//
#include "syr2k.h"

#include "Check.h"
#include "Random.h"

namespace smc::workloads::syr2k {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.n = int32_t(params.get("n"));
  p.m = int32_t(params.get("m"));
  Rng ra(seed, 1), rb(seed, 2), rc(seed, 3);
  p.a.resize(size_t(p.n) * p.m);
  p.b.resize(size_t(p.n) * p.m);
  p.c.resize(size_t(p.n) * p.n);
  for (float &v : p.a)
    v = ra.intFloat(-3, 3);
  for (float &v : p.b)
    v = rb.intFloat(-3, 3);
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
        sum += double(p.a[i * m + k]) * p.b[j * m + k] +
               double(p.b[i * m + k]) * p.a[j * m + k];
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
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < i; ++j)
      if (out[i * n + j] - kBeta * p.c[i * n + j] !=
          out[j * n + i] - kBeta * p.c[j * n + i])
        return failure("symmetry", "A B^T + B A^T not symmetric");
  CheckResult r = compareExact(out, want, "C");
  r.detail = "row-dot reference vs X + X^T with X = A B^T; symmetry";
  return r;
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
