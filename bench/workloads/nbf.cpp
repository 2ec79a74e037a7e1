//===- nbf.cpp - nbf: inputs, CPU reference, self-check, registry ---------===//
#include "nbf.h"

#include "Check.h"
#include "Random.h"

#include <algorithm>
#include <cmath>

namespace smc::workloads::nbf {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.atoms = static_cast<int32_t>(params.get("atoms"));
  int32_t avg = static_cast<int32_t>(params.get("partners"));
  const int32_t window = 256;
  Rng positions(seed, 1), charges(seed, 2), lists(seed, 3);
  size_t n = size_t(p.atoms);
  p.x.resize(n);
  p.y.resize(n);
  p.z.resize(n);
  p.charge.resize(n);
  for (size_t i = 0; i < n; ++i) {
    p.x[i] = positions.uniform(0.0f, 16.0f);
    p.y[i] = positions.uniform(0.0f, 16.0f);
    p.z[i] = positions.uniform(0.0f, 16.0f);
  }
  for (float &q : p.charge)
    q = charges.uniform(-1.0f, 1.0f);
  p.start.resize(n + 1);
  p.start[0] = 0;
  p.partner.reserve(n * size_t(avg));
  for (int32_t i = 0; i < p.atoms; ++i) {
    int32_t count = lists.intIn(avg / 2, avg + avg / 2);
    int32_t above = p.atoms - 1 - i; // candidates j in (i, atoms)
    for (int32_t k = 0; k < count && above > 0; ++k) {
      int32_t j;
      if (lists.below(10) < 9)
        j = i + 1 + int32_t(lists.below(uint32_t(std::min(window, above))));
      else
        j = i + 1 + int32_t(lists.below(uint32_t(above)));
      p.partner.push_back(j);
    }
    p.start[i + 1] = int32_t(p.partner.size());
  }
  return p;
}

namespace {

// The pair loop in Real arithmetic, pairs visited in `order` (atom order if
// empty).  Real = double is the reference; Real = float in a shuffled order
// models the GPU's rounding and atomic order for the self-check.
template <typename Real>
void pairForces(const Problem &p, const std::vector<int32_t> &order,
                std::vector<Real> force[3], std::vector<double> *magnitude) {
  size_t n = size_t(p.atoms);
  for (int c = 0; c < 3; ++c) {
    force[c].assign(n, Real(0));
    if (magnitude)
      magnitude[c].assign(n, 0.0);
  }
  for (size_t k = 0; k < n; ++k) {
    int32_t i = order.empty() ? int32_t(k) : order[k];
    for (int32_t e = p.start[i]; e < p.start[i + 1]; ++e) {
      int32_t j = p.partner[e];
      Real d[3] = {Real(p.x[i]) - Real(p.x[j]), Real(p.y[i]) - Real(p.y[j]),
                   Real(p.z[i]) - Real(p.z[j])};
      Real r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + Real(kSoftening);
      Real inv = Real(1) / std::sqrt(r2);
      Real s = Real(p.charge[i]) * Real(p.charge[j]) * inv * inv * inv;
      for (int c = 0; c < 3; ++c) {
        force[c][i] += s * d[c];
        force[c][j] -= s * d[c];
        if (magnitude) {
          double term = std::fabs(double(s) * double(d[c]));
          magnitude[c][i] += term;
          magnitude[c][j] += term;
        }
      }
    }
  }
}

} // namespace

void cpuReference(const Problem &p, std::vector<double> force[3],
                  std::vector<double> magnitude[3]) {
  pairForces<double>(p, {}, force, magnitude);
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  std::vector<double> force[3], magnitude[3];
  cpuReference(p, force, magnitude);
  // Newton's third law: the forces sum to zero.
  for (int c = 0; c < 3; ++c) {
    double total = 0, scale = 0;
    for (size_t i = 0; i < force[c].size(); ++i) {
      total += force[c][i];
      scale += magnitude[c][i];
    }
    if (std::fabs(total) > 1e-9 * scale)
      return failure("momentum", "sum of forces is " + std::to_string(total));
  }
  // A float evaluation in another atom order stays within the tolerance the
  // GPU check uses, with a margin of 4x.
  std::vector<float> approx[3];
  pairForces<float>(p, Rng(seed, 9).permutation(size_t(p.atoms)), approx,
                    nullptr);
  CheckResult r;
  const char *names[3] = {"fx", "fy", "fz"};
  for (int c = 0; c < 3; ++c)
    r.merge(compareScaled(approx[c].data(), force[c].data(),
                          magnitude[c].data(), force[c].size(), 2.5e-6, 1e-30,
                          "|err|/sum|terms|", names[c]));
  r.detail = "sum(f) == 0; float, shuffled order within tolerance/4";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "nbf",
      "Non-bonded force field over a partner list, Newton's third law with "
      "float atomics (Maryland nbf)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperSmCentric,
      FeatureIndexArrays | FeatureAtomics,
      {"nbf_pair_forces"},
      {{"atoms", 8192, 1 << 21, 1 << 23, "atoms"},
       {"partners", 8, 16, 16, "average partners per atom"}},
      &create,
      &cpuSelfCheck,
      "fx,fy,fz: |gpu-ref| <= 1e-5 * sum of |terms| (float atomics, rsqrtf)",
  };
  return entry;
}

} // namespace smc::workloads::nbf
