//===- atax.cpp - atax: inputs, CPU reference, self-check, registry -------===//
#include "atax.h"

#include "Check.h"
#include "Random.h"

#include <cmath>

namespace smc::workloads::atax {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.nx = int32_t(params.get("nx"));
  p.ny = int32_t(params.get("ny"));
  Rng ra(seed, 1), rx(seed, 2);
  p.a.resize(size_t(p.nx) * p.ny);
  p.x.resize(size_t(p.ny));
  for (float &v : p.a)
    v = ra.intFloat(-1, 1);
  for (float &v : p.x)
    v = rx.intFloat(-1, 1);
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &tmp,
                  std::vector<double> &y, std::vector<double> &yMagnitude) {
  size_t nx = size_t(p.nx), ny = size_t(p.ny);
  tmp.assign(nx, 0.0);
  y.assign(ny, 0.0);
  yMagnitude.assign(ny, 0.0);
  for (size_t i = 0; i < nx; ++i) {
    double sum = 0;
    for (size_t j = 0; j < ny; ++j)
      sum += double(p.a[i * ny + j]) * p.x[j];
    tmp[i] = sum;
  }
  for (size_t i = 0; i < nx; ++i)
    for (size_t j = 0; j < ny; ++j) {
      double term = double(p.a[i * ny + j]) * tmp[i];
      y[j] += term;
      yMagnitude[j] += std::fabs(term);
    }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> tmp, y, magnitude;
  cpuReference(p, tmp, y, magnitude);
  // Independent formulation: y = (A^T A) x.
  size_t nx = size_t(p.nx), ny = size_t(p.ny);
  std::vector<double> ata(ny * ny, 0.0);
  for (size_t i = 0; i < nx; ++i)
    for (size_t j = 0; j < ny; ++j)
      for (size_t k = 0; k < ny; ++k)
        ata[j * ny + k] += double(p.a[i * ny + j]) * p.a[i * ny + k];
  std::vector<double> want(ny, 0.0);
  for (size_t j = 0; j < ny; ++j)
    for (size_t k = 0; k < ny; ++k)
      want[j] += ata[j * ny + k] * p.x[k];
  for (double m : magnitude)
    if (m >= 16777216.0)
      return failure("exact", "Small input outside the exact range");
  CheckResult r = compareExact(y, want, "y");
  r.detail = "A^T (A x) vs (A^T A) x; magnitudes < 2^24";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "atax",
      "y = A^T (A x): row-per-thread then column-per-thread matrix-vector "
      "kernels (PolyBench/GPU ATAX)",
      1,
      Regularity::Regular,
      Locality::CacheLineRelated,
      PaperCtaClustering,
      FeatureMultiLaunch,
      {"atax_kernel1", "atax_kernel2"},
      {{"nx", 300, 8192, 16384, "rows of A"},
       {"ny", 200, 8192, 16384, "columns of A"}},
      &create,
      &cpuSelfCheck,
      "tmp exact; y exact where sum|terms| < 2^24, else 1e-6 * sum|terms|",
  };
  return entry;
}

} // namespace smc::workloads::atax
