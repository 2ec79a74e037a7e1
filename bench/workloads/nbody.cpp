//===- nbody.cpp - nbody: inputs, CPU reference, self-check, registry -----===//
#include "nbody.h"

#include "Check.h"
#include "Random.h"

#include <cmath>

namespace smc::workloads::nbody {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  size_t n = size_t(params.get("bodies"));
  Rng rng(seed, 1);
  p.body.resize(4 * n);
  for (size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c)
      p.body[4 * i + c] = rng.uniform(-1.0f, 1.0f);
    p.body[4 * i + 3] = rng.uniform(0.5f, 1.5f);
  }
  return p;
}

namespace {

template <typename Real>
void accelerations(const Problem &p, const std::vector<size_t> &bodies,
                   std::vector<Real> &accel, std::vector<double> *magnitude) {
  size_t n = p.bodies();
  accel.assign(4 * bodies.size(), Real(0));
  if (magnitude)
    magnitude->assign(4 * bodies.size(), 0.0);
  for (size_t b = 0; b < bodies.size(); ++b) {
    size_t i = bodies[b];
    Real a[3] = {0, 0, 0};
    for (size_t j = 0; j < n; ++j) {
      Real d[3];
      for (int c = 0; c < 3; ++c)
        d[c] = Real(p.body[4 * j + c]) - Real(p.body[4 * i + c]);
      Real dist2 =
          d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + Real(kSofteningSquared);
      Real inv = Real(1) / std::sqrt(dist2);
      Real s = Real(p.body[4 * j + 3]) * inv * inv * inv;
      for (int c = 0; c < 3; ++c) {
        a[c] += d[c] * s;
        if (magnitude)
          (*magnitude)[4 * b + c] += std::fabs(double(d[c]) * double(s));
      }
    }
    for (int c = 0; c < 3; ++c)
      accel[4 * b + c] = a[c];
  }
}

} // namespace

void cpuReference(const Problem &p, const std::vector<size_t> &bodies,
                  std::vector<double> &accel, std::vector<double> &magnitude) {
  accelerations<double>(p, bodies, accel, &magnitude);
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = p.bodies();
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<double> accel, magnitude;
  cpuReference(p, all, accel, magnitude);
  // Newton's third law: the mass-weighted accelerations sum to zero.
  for (int c = 0; c < 3; ++c) {
    double total = 0, scale = 0;
    for (size_t i = 0; i < n; ++i) {
      total += double(p.body[4 * i + 3]) * accel[4 * i + c];
      scale += double(p.body[4 * i + 3]) * magnitude[4 * i + c];
    }
    if (std::fabs(total) > 1e-12 * scale)
      return failure("momentum", "sum of m a is " + std::to_string(total));
  }
  // A float evaluation stays within the GPU tolerance with a margin of 4x.
  std::vector<float> approx;
  accelerations<float>(p, all, approx, nullptr);
  CheckResult r =
      compareScaled(approx.data(), accel.data(), magnitude.data(),
                    approx.size(), 2.5e-5, 1e-30, "|err|/sum|terms|", "accel");
  r.detail = "sum of m a == 0; float evaluation within tolerance/4";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "nbody",
      "All-pairs gravitational accelerations from global memory, grid-stride "
      "loop over bodies (n-body, no shared memory)",
      1,
      Regularity::Regular,
      Locality::CacheLineRelated,
      PaperCtaClustering,
      FeatureGridStride,
      {"nbody_accel"},
      {{"bodies", 2048, 32768, 65536, "bodies"}},
      &create,
      &cpuSelfCheck,
      "accelerations: |gpu-ref| <= 1e-4 * sum|terms|; Default/Large: 2048 "
      "sampled bodies, all finite",
  };
  return entry;
}

} // namespace smc::workloads::nbody
