//===- bicg.cpp - bicg: inputs, CPU reference, self-check, registry -------===//
#include "bicg.h"

#include "Check.h"
#include "Random.h"

namespace smc::workloads::bicg {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.nx = int32_t(params.get("nx"));
  p.ny = int32_t(params.get("ny"));
  Rng ra(seed, 1), rv(seed, 2);
  p.a.resize(size_t(p.nx) * p.ny);
  for (float &v : p.a)
    v = ra.intFloat(-3, 3);
  p.r.resize(size_t(p.nx));
  p.p.resize(size_t(p.ny));
  for (float &v : p.r)
    v = rv.intFloat(-3, 3);
  for (float &v : p.p)
    v = rv.intFloat(-3, 3);
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &s,
                  std::vector<double> &q) {
  size_t nx = size_t(p.nx), ny = size_t(p.ny);
  s.assign(ny, 0.0);
  q.assign(nx, 0.0);
  for (size_t i = 0; i < nx; ++i)
    for (size_t j = 0; j < ny; ++j) {
      s[j] += double(p.r[i]) * p.a[i * ny + j];
      q[i] += double(p.a[i * ny + j]) * p.p[j];
    }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> s, q;
  cpuReference(p, s, q);
  // r . (A p) == (A^T r) . p, exactly in integers.
  double rq = 0, sp = 0;
  for (size_t i = 0; i < q.size(); ++i)
    rq += double(p.r[i]) * q[i];
  for (size_t j = 0; j < s.size(); ++j)
    sp += s[j] * p.p[j];
  if (!allExactInFloat(s.data(), s.size()) ||
      !allExactInFloat(q.data(), q.size()))
    return failure("exact", "reference not exact in fp32");
  CheckResult r = compareExact(&rq, &sp, 1, "r.q vs s.p");
  r.detail = "r . (A p) == (A^T r) . p";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "bicg",
      "s = A^T r (column per thread) and q = A p (row per thread) "
      "(PolyBench/GPU BICG)",
      1,
      Regularity::Regular,
      Locality::CacheLineRelated,
      PaperCtaClustering,
      FeatureMultiLaunch,
      {"bicg_kernel1", "bicg_kernel2"},
      {{"nx", 300, 8192, 16384, "rows of A"},
       {"ny", 200, 8192, 16384, "columns of A"}},
      &create,
      &cpuSelfCheck,
      "s, q exact (integer-valued fp32)",
  };
  return entry;
}

} // namespace smc::workloads::bicg
