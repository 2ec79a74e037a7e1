//===- irreg.cpp - irreg: inputs, CPU reference, self-check, registry -----===//
#include "irreg.h"

#include "Check.h"
#include "Random.h"

namespace smc::workloads::irreg {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.nodes = static_cast<int32_t>(params.get("nodes"));
  size_t edges = size_t(params.get("edges"));
  const int32_t window = 1024;
  Rng topology(seed, 1), weights(seed, 2), values(seed, 3);
  p.left.resize(edges);
  p.right.resize(edges);
  p.weight.resize(edges);
  for (size_t e = 0; e < edges; ++e) {
    int32_t a = int32_t(topology.below(uint32_t(p.nodes)));
    int32_t b;
    if (topology.below(10) < 8)
      b = int32_t((int64_t(a) + topology.intIn(1, window)) % p.nodes);
    else
      b = int32_t(topology.below(uint32_t(p.nodes)));
    p.left[e] = a;
    p.right[e] = b;
  }
  for (float &w : p.weight)
    w = weights.intFloat(-4, 4);
  p.x.resize(size_t(p.nodes));
  for (float &v : p.x)
    v = values.intFloat(-8, 8);
  return p;
}

void cpuReference(const Problem &p, std::vector<double> &y) {
  y.assign(size_t(p.nodes), 0.0);
  for (size_t e = 0; e < p.left.size(); ++e) {
    double f = double(p.weight[e]) * (double(p.x[p.left[e]]) - p.x[p.right[e]]);
    y[p.left[e]] += f;
    y[p.right[e]] -= f;
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> y;
  cpuReference(p, y);
  if (!allExactInFloat(y.data(), y.size()))
    return failure("exact", "reference not exact in fp32");
  // Independent formulation: node-centric gather over an incidence list.
  size_t edges = p.left.size();
  std::vector<int32_t> start(size_t(p.nodes) + 1, 0), incident(2 * edges);
  for (size_t e = 0; e < edges; ++e) {
    ++start[p.left[e] + 1];
    ++start[p.right[e] + 1];
  }
  for (int32_t n = 0; n < p.nodes; ++n)
    start[n + 1] += start[n];
  std::vector<int32_t> fill(start.begin(), start.end() - 1);
  for (size_t e = 0; e < edges; ++e) {
    incident[fill[p.left[e]]++] = int32_t(e);
    incident[fill[p.right[e]]++] = int32_t(e);
  }
  std::vector<double> want(size_t(p.nodes), 0.0);
  double total = 0;
  for (int32_t n = 0; n < p.nodes; ++n) {
    double sum = 0;
    for (int32_t k = start[n]; k < start[n + 1]; ++k) {
      int32_t e = incident[k];
      int32_t other = p.left[e] == n ? p.right[e] : p.left[e];
      // A self-loop edge adds and subtracts the same (zero) flux.
      if (p.left[e] == p.right[e])
        continue;
      sum += double(p.weight[e]) * (double(p.x[n]) - p.x[other]);
    }
    want[n] = sum;
    total += y[n];
  }
  if (total != 0)
    return failure("conservation", "sum of y is " + std::to_string(total));
  CheckResult r = compareExact(y, want, "edge vs node y");
  r.detail = "edge loop vs node-centric gather; sum(y) == 0";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "irreg",
      "Irregular PDE-solver edge loop with float atomics (Maryland irreg)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperSmCentric,
      FeatureIndexArrays | FeatureAtomics,
      {"irreg_edge_flux"},
      {{"nodes", 16384, 1 << 22, 1 << 24, "mesh nodes"},
       {"edges", 65536, 1 << 25, 1 << 27, "mesh edges"}},
      &create,
      &cpuSelfCheck,
      "y exact (integer-valued fp32, atomics in any order)",
  };
  return entry;
}

} // namespace smc::workloads::irreg
