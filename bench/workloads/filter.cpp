//===- filter.cpp - filter: inputs, CPU reference, self-check, registry ---===//
#include "filter.h"

#include "Check.h"
#include "Random.h"

#include <cmath>
#include <complex>

namespace smc::workloads::filter {
namespace {

constexpr double kTolerance = 1e-5;

// One element in arithmetic T (double: the reference; float: the
// emulation of the kernel); `magnitude` gets the sum of |terms|.
template <typename T> T element(float x, double &magnitude) {
  T v = T(x);
  if (!(x > kThreshold)) {
    T out = v * (T(1) - v);
    magnitude = std::fabs(double(out));
    return out;
  }
  T a = v - T(kThreshold), acc = 0;
  magnitude = 0;
  for (int k = 1; k <= kTerms; ++k) {
    T kf = T(k);
    T term = std::exp(T(-0.05f) * kf * a) * std::cos(T(0.3f) * kf * v) / kf;
    acc += term;
    magnitude += std::fabs(double(term));
  }
  return acc;
}

} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  Rng rng(seed, 1);
  p.x.resize(size_t(params.get("n")));
  float top = params.get("uniform") ? kThreshold : 1.0f;
  for (float &v : p.x)
    v = top * rng.unit();
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &elements,
                  std::vector<double> &out, std::vector<double> &magnitude) {
  out.resize(elements.size());
  magnitude.resize(elements.size());
  for (size_t k = 0; k < elements.size(); ++k)
    out[k] = element<double>(p.x[elements[k]], magnitude[k]);
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Params params = info().params(Size::Small);
  Problem p = generate(params, seed);
  size_t n = p.x.size(), above = 0;
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<double> ref, magnitude;
  cpuReference(p, all, ref, magnitude);
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    // Independent formulation of the series: the real parts of the powers
    // of z = exp(-0.05 a + 0.3 i v), by complex multiplication.
    double v = p.x[i];
    double want = v * (1 - v);
    if (p.x[i] > kThreshold) {
      ++above;
      std::complex<double> z = std::exp(std::complex<double>(
          double(-0.05f) * (v - kThreshold), double(0.3f) * v));
      std::complex<double> power = 1;
      want = 0;
      for (int k = 1; k <= kTerms; ++k) {
        power *= z;
        want += power.real() / k;
      }
    }
    if (std::fabs(want - ref[i]) > 1e-12 * std::max(magnitude[i], 1e-6))
      return failure("series", "element " + std::to_string(i) + ": " +
                                   std::to_string(ref[i]) + " vs " +
                                   std::to_string(want));
    // The float emulation is within a quarter of the tolerance.
    double unused;
    float single = element<float>(p.x[i], unused);
    worst = std::max(worst,
                     std::fabs(single - ref[i]) / std::max(magnitude[i], 1e-6));
  }
  if (!(worst <= kTolerance / 4))
    return failure("float emulation",
                   "error " + std::to_string(worst) + " in fp32");
  double fraction = double(above) / double(n);
  params.set("uniform", 1);
  Problem flat = generate(params, seed);
  for (float v : flat.x)
    if (v > kThreshold)
      return failure("uniform", "an element above the threshold");
  if (fraction < 0.28 || fraction > 0.32)
    return failure("inputs", std::to_string(fraction) + " above threshold");
  CheckResult r = success("invariants", n);
  r.maxError = worst;
  r.tolerance = kTolerance / 4;
  r.detail = "series vs complex powers; fp32 emulation; " +
             std::to_string(int(fraction * 100 + 0.5)) +
             "% above the threshold, none with uniform=1";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "filter",
      "Data-dependent filter: a 64-term series above a threshold, one "
      "product below (G-Streamline divergence)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperGStreamline,
      0,
      {"filter_series"},
      {{"n", 1 << 16, 1 << 23, 1 << 25, "elements"},
       {"uniform", 0, 0, 0,
        "1: every element below the threshold, no divergence (remapping must "
        "not pay)"}},
      &create,
      &cpuSelfCheck,
      "1e-5 of sum|terms|; 2^20 sampled elements",
  };
  return entry;
}

} // namespace smc::workloads::filter
