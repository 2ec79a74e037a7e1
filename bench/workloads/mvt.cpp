//===- mvt.cpp - mvt: inputs, CPU reference, self-check, registry ---------===//
#include "mvt.h"

#include "Check.h"
#include "Random.h"

namespace smc::workloads::mvt {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.n = int32_t(params.get("n"));
  size_t n = size_t(p.n);
  Rng ra(seed, 1), rv(seed, 2);
  p.a.resize(n * n);
  for (float &v : p.a)
    v = ra.intFloat(-3, 3);
  for (auto *v : {&p.x1, &p.x2, &p.y1, &p.y2}) {
    v->resize(n);
    for (float &e : *v)
      e = rv.intFloat(-3, 3);
  }
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &x1,
                  std::vector<double> &x2) {
  size_t n = size_t(p.n);
  x1.assign(p.x1.begin(), p.x1.end());
  x2.assign(p.x2.begin(), p.x2.end());
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      x1[i] += double(p.a[i * n + j]) * p.y1[j];
      x2[j] += double(p.a[i * n + j]) * p.y2[i];
    }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> x1, x2;
  cpuReference(p, x1, x2);
  // Independent formulation: transpose A explicitly and take row dot
  // products for both products.
  size_t n = size_t(p.n);
  std::vector<double> at(n * n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      at[j * n + i] = p.a[i * n + j];
  std::vector<double> want1(n), want2(n);
  for (size_t i = 0; i < n; ++i) {
    double s1 = p.x1[i], s2 = p.x2[i];
    for (size_t j = 0; j < n; ++j) {
      s1 += double(p.a[i * n + j]) * p.y1[j];
      s2 += at[i * n + j] * p.y2[j];
    }
    want1[i] = s1;
    want2[i] = s2;
  }
  if (!allExactInFloat(x1.data(), n) || !allExactInFloat(x2.data(), n))
    return failure("exact", "reference not exact in fp32");
  CheckResult r = compareExact(x1, want1, "x1");
  r.merge(compareExact(x2, want2, "x2"));
  r.detail = "fused reference vs explicit transpose and row dots";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "mvt",
      "x1 + A y1 (row per thread) and x2 + A^T y2 (column per thread) "
      "(PolyBench/GPU MVT)",
      1,
      Regularity::Regular,
      Locality::CacheLineRelated,
      PaperCtaClustering,
      FeatureMultiLaunch,
      {"mvt_kernel1", "mvt_kernel2"},
      {{"n", 300, 8192, 16384, "order of A"}},
      &create,
      &cpuSelfCheck,
      "x1, x2 exact (integer-valued fp32)",
  };
  return entry;
}

} // namespace smc::workloads::mvt
