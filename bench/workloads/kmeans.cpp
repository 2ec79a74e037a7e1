//===- kmeans.cpp - kmeans: inputs, CPU reference, self-check, registry ---===//
#include "kmeans.h"

#include "Check.h"
#include "Random.h"

#include <stdexcept>

namespace smc::workloads::kmeans {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.points = int32_t(params.get("points"));
  p.features = int32_t(params.get("features"));
  p.clusters = int32_t(params.get("clusters"));
  if (p.features < 1 || p.features > 256 || p.clusters < 1)
    throw std::invalid_argument("kmeans: 1 <= features <= 256 (exactness)");
  // Points scattered around the centres, so the assignment is not trivial.
  Rng centres(seed, 1), pick(seed, 2), offset(seed, 3);
  p.centre.resize(size_t(p.clusters) * p.features);
  for (float &v : p.centre)
    v = centres.intFloat(0, 255);
  size_t n = size_t(p.points);
  p.feature.resize(size_t(p.features) * n);
  for (size_t i = 0; i < n; ++i) {
    int32_t home = int32_t(pick.below(uint32_t(p.clusters)));
    for (int32_t f = 0; f < p.features; ++f) {
      int32_t v = int32_t(p.centre[size_t(home) * p.features + f]) +
                  offset.intIn(-96, 96);
      p.feature[size_t(f) * n + i] = float(v < 0 ? 0 : v > 255 ? 255 : v);
    }
  }
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &points,
                  std::vector<int32_t> &membership) {
  size_t n = size_t(p.points);
  membership.resize(points.size());
  for (size_t k = 0; k < points.size(); ++k) {
    size_t i = points[k];
    int64_t best = INT64_MAX;
    int32_t index = -1;
    for (int32_t c = 0; c < p.clusters; ++c) {
      int64_t dist = 0;
      for (int32_t f = 0; f < p.features; ++f) {
        int64_t d = int64_t(p.feature[size_t(f) * n + i]) -
                    int64_t(p.centre[size_t(c) * p.features + f]);
        dist += d * d;
      }
      if (dist < best) {
        best = dist;
        index = c;
      }
    }
    membership[k] = index;
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = size_t(p.points);
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<int32_t> membership;
  cpuReference(p, all, membership);
  // Independent formulation: |x|^2 - 2 x.c + |c|^2, and the distances fit
  // in fp32's exact integer range.
  std::vector<int32_t> want(n);
  int64_t largest = 0;
  for (size_t i = 0; i < n; ++i) {
    int64_t xx = 0;
    for (int32_t f = 0; f < p.features; ++f)
      xx += int64_t(p.feature[size_t(f) * n + i]) *
            int64_t(p.feature[size_t(f) * n + i]);
    int64_t best = INT64_MAX;
    for (int32_t c = 0; c < p.clusters; ++c) {
      int64_t xc = 0, cc = 0;
      for (int32_t f = 0; f < p.features; ++f) {
        int64_t cf = int64_t(p.centre[size_t(c) * p.features + f]);
        xc += int64_t(p.feature[size_t(f) * n + i]) * cf;
        cc += cf * cf;
      }
      int64_t dist = xx - 2 * xc + cc;
      largest = dist > largest ? dist : largest;
      if (dist < best) {
        best = dist;
        want[i] = c;
      }
    }
  }
  if (largest >= (int64_t(1) << 24))
    return failure("exact", "distances exceed 2^24");
  CheckResult r = compareExact(membership, want, "membership");
  r.detail = "direct distances vs |x|^2 - 2x.c + |c|^2; distances < 2^24";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "kmeans",
      "Nearest-centre assignment over feature-major points, square 2-D grid "
      "(Rodinia kmeans kmeansPoint)",
      2,
      Regularity::Regular,
      Locality::AlgorithmRelated,
      PaperCtaClustering,
      0,
      {"kmeans_assign"},
      {{"points", 1 << 14, 10000000, 1 << 24, "points"},
       {"features", 34, 34, 34, "features per point (<= 256)"},
       {"clusters", 5, 5, 5, "cluster centres"}},
      &create,
      &cpuSelfCheck,
      "memberships exact; Default/Large: 2^20 sampled points, all in range",
  };
  return entry;
}

} // namespace smc::workloads::kmeans
