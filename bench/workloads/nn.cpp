//===- nn.cpp - nn: inputs, CPU reference, self-check, registry -----------===//
#include "nn.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <cmath>

namespace smc::workloads::nn {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  size_t records = size_t(params.get("records"));
  Rng rng(seed, 1);
  p.location.resize(2 * records);
  for (size_t i = 0; i < records; ++i) {
    p.location[2 * i] = rng.uniform(0.0f, 90.0f);
    p.location[2 * i + 1] = rng.uniform(0.0f, 180.0f);
  }
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &distance) {
  size_t n = p.records();
  distance.resize(n);
  for (size_t i = 0; i < n; ++i) {
    double dLat = double(kTargetLat) - p.location[2 * i];
    double dLng = double(kTargetLng) - p.location[2 * i + 1];
    distance[i] = std::sqrt(dLat * dLat + dLng * dLng);
  }
}

std::vector<size_t> kNearest(const std::vector<double> &distance, size_t k) {
  std::vector<size_t> order(distance.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  k = std::min(k, order.size());
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](size_t a, size_t b) {
                      return distance[a] < distance[b] ||
                             (distance[a] == distance[b] && a < b);
                    });
  order.resize(k);
  return order;
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> distance;
  cpuReference(p, distance);
  // Independent formulation: hypot; and the k nearest by a full sort.
  double worst = 0;
  for (size_t i = 0; i < distance.size(); ++i) {
    double want = std::hypot(double(p.location[2 * i]) - kTargetLat,
                             double(p.location[2 * i + 1]) - kTargetLng);
    worst =
        std::max(worst, std::fabs(distance[i] - want) / std::max(want, 1e-3));
  }
  if (worst > 1e-12)
    return failure("sqrt vs hypot",
                   "relative difference " + std::to_string(worst));
  std::vector<size_t> nearest = kNearest(distance, 10);
  std::vector<size_t> all(distance.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  std::sort(all.begin(), all.end(), [&](size_t a, size_t b) {
    return distance[a] < distance[b] || (distance[a] == distance[b] && a < b);
  });
  all.resize(10);
  if (nearest != all)
    return failure("k nearest", "partial sort and full sort disagree");
  CheckResult r = success("sqrt vs hypot (1e-12)", distance.size());
  r.maxError = worst;
  r.detail = "sqrt vs hypot; 10 nearest by partial vs full sort";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "nn",
      "Distances from 1-D records to a target point on a 2-D grid "
      "(Rodinia NN)",
      2,
      Regularity::Regular,
      Locality::Unclassified,
      PaperSmCentric,
      0,
      {"nn_euclid"},
      {{"records", 250000, 130000000, 260000000, "(lat, lng) records"}},
      &create,
      &cpuSelfCheck,
      "distance: |gpu-ref| <= 1e-6 * max(|ref|, 1e-3)",
  };
  return entry;
}

} // namespace smc::workloads::nn
