//===- bs.cpp - bs: inputs, CPU reference, self-check, registry -----------===//
#include "bs.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <cmath>

namespace smc::workloads::bs {

namespace {

// The SDK's polynomial approximation of the cumulative normal distribution,
// in Real arithmetic (double: the reference; float: models the kernel).
template <typename Real> Real cnd(Real d) {
  const Real a1 = Real(0.31938153), a2 = Real(-0.356563782),
             a3 = Real(1.781477937), a4 = Real(-1.821255978),
             a5 = Real(1.330274429);
  const Real rsqrt2pi = Real(0.39894228040143267793994605993438);
  Real k = Real(1) / (Real(1) + Real(0.2316419) * std::fabs(d));
  Real value = rsqrt2pi * std::exp(Real(-0.5) * d * d) *
               (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? Real(1) - value : value;
}

template <typename Real>
void price(Real s, Real x, Real t, Real &call, Real &put) {
  const Real r = kRiskFree, v = kVolatility;
  Real sqrtT = std::sqrt(t);
  Real d1 = (std::log(s / x) + (r + Real(0.5) * v * v) * t) / (v * sqrtT);
  Real d2 = d1 - v * sqrtT;
  Real cndD1 = cnd(d1), cndD2 = cnd(d2);
  Real expRT = std::exp(-r * t);
  call = s * cndD1 - x * expRT * cndD2;
  put = x * expRT * (Real(1) - cndD2) - s * (Real(1) - cndD1);
}

} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  size_t n = size_t(params.get("options"));
  Rng rng(seed, 1);
  p.stock.resize(n);
  p.strike.resize(n);
  p.years.resize(n);
  for (size_t i = 0; i < n; ++i) {
    p.stock[i] = rng.uniform(5.0f, 30.0f);
    p.strike[i] = rng.uniform(1.0f, 100.0f);
    p.years[i] = rng.uniform(0.25f, 10.0f);
  }
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &options,
                  std::vector<double> &call, std::vector<double> &put) {
  call.resize(options.size());
  put.resize(options.size());
  for (size_t k = 0; k < options.size(); ++k) {
    size_t i = options[k];
    price<double>(p.stock[i], p.strike[i], p.years[i], call[k], put[k]);
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<size_t> all(p.options());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  std::vector<double> call, put;
  cpuReference(p, all, call, put);
  // Put-call parity, C - P = S - X e^{-rT}, holds for the approximation too
  // (cnd(-d) = 1 - cnd(d)); prices lie within the no-arbitrage bounds.
  double worst = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    double s = p.stock[i], x = p.strike[i];
    double discounted = x * std::exp(-double(kRiskFree) * p.years[i]);
    double parity = call[i] - put[i] - (s - discounted);
    worst = std::max(worst, std::fabs(parity) / (s + x));
    if (call[i] < std::max(0.0, s - discounted) - 1e-6 || call[i] > s ||
        put[i] < std::max(0.0, discounted - s) - 1e-6 || put[i] > discounted)
      return failure("bounds", "option " + std::to_string(i) +
                                   " outside the no-arbitrage bounds");
  }
  if (!(worst < 1e-12))
    return failure("parity", "put-call parity off by " + std::to_string(worst));
  // A float evaluation stays within the GPU tolerance with a margin of 4x.
  std::vector<float> approxCall(all.size()), approxPut(all.size());
  std::vector<double> scale(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    price<float>(p.stock[i], p.strike[i], p.years[i], approxCall[i],
                 approxPut[i]);
    scale[i] = double(p.stock[i]) + p.strike[i];
  }
  CheckResult r = compareScaled(approxCall.data(), call.data(), scale.data(),
                                all.size(), 2.5e-6, 0, "|err|/(S+X)", "call");
  r.merge(compareScaled(approxPut.data(), put.data(), scale.data(), all.size(),
                        2.5e-6, 0, "|err|/(S+X)", "put"));
  r.detail = "put-call parity (1e-12); no-arbitrage bounds; float evaluation "
             "within tolerance/4";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "bs",
      "Black-Scholes call and put prices, fixed grid with a grid-stride loop "
      "(CUDA SDK BlackScholes)",
      1,
      Regularity::Regular,
      Locality::Streaming,
      PaperKernelet | PaperCtaClustering,
      FeatureGridStride,
      {"bs_price"},
      {{"options", 1 << 16, 84000000, 1 << 27, "options"}},
      &create,
      &cpuSelfCheck,
      "call, put: |gpu-ref| <= 1e-5 * (S + X); Default/Large: 2^20 sampled "
      "options, all finite",
  };
  return entry;
}

} // namespace smc::workloads::bs
