//===- md.cpp - md: inputs, CPU reference, self-check, registry -----------===//
#include "md.h"

#include "Check.h"
#include "Random.h"

#include <cmath>

namespace smc::workloads::md {

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  int32_t side = static_cast<int32_t>(params.get("lattice"));
  p.atoms = side * side * side;
  size_t n = size_t(p.atoms);
  const int32_t spacing = 77; // lattice spacing 77/64 ~ 1.2
  Rng jitter(seed, 1);
  std::vector<int32_t> id = Rng(seed, 2).permutation(n); // site -> atom
  p.position.assign(4 * n, 0.0f);
  for (int32_t a = 0; a < side; ++a)
    for (int32_t b = 0; b < side; ++b)
      for (int32_t c = 0; c < side; ++c) {
        size_t atom = size_t(id[(size_t(a) * side + b) * side + c]);
        int32_t site[3] = {a, b, c};
        for (int k = 0; k < 3; ++k)
          p.position[4 * atom + k] =
              float(site[k] * spacing + jitter.intIn(-9, 9)) / 64.0f;
      }
  int32_t offsets[kNeighbors][3];
  int count = 0;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz)
        if (dx || dy || dz) {
          offsets[count][0] = dx;
          offsets[count][1] = dy;
          offsets[count][2] = dz;
          ++count;
        }
  for (int axis = 0; axis < 3; ++axis)
    for (int sign = -2; sign <= 2; sign += 4) {
      offsets[count][0] = offsets[count][1] = offsets[count][2] = 0;
      offsets[count][axis] = sign;
      ++count;
    }
  p.neighbor.resize(size_t(kNeighbors) * n);
  auto wrap = [side](int32_t v) { return (v % side + side) % side; };
  for (int32_t a = 0; a < side; ++a)
    for (int32_t b = 0; b < side; ++b)
      for (int32_t c = 0; c < side; ++c) {
        size_t atom = size_t(id[(size_t(a) * side + b) * side + c]);
        for (int k = 0; k < kNeighbors; ++k) {
          size_t site = (size_t(wrap(a + offsets[k][0])) * side +
                         wrap(b + offsets[k][1])) *
                            side +
                        wrap(c + offsets[k][2]);
          p.neighbor[size_t(k) * n + atom] = id[site];
        }
      }
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &atoms,
                  std::vector<double> &force, std::vector<double> &magnitude) {
  size_t n = size_t(p.atoms);
  force.assign(4 * atoms.size(), 0.0);
  magnitude.assign(4 * atoms.size(), 0.0);
  for (size_t a = 0; a < atoms.size(); ++a) {
    size_t i = atoms[a];
    for (int k = 0; k < kNeighbors; ++k) {
      size_t j = size_t(p.neighbor[size_t(k) * n + i]);
      double d[3];
      for (int c = 0; c < 3; ++c)
        d[c] = double(p.position[4 * i + c]) - p.position[4 * j + c];
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (!(r2 < double(kCutoffSquared)))
        continue;
      double r2inv = 1.0 / r2;
      double r6inv = r2inv * r2inv * r2inv;
      double forceC = r2inv * r6inv * (double(kLj1) * r6inv - double(kLj2));
      for (int c = 0; c < 3; ++c) {
        force[4 * a + c] += d[c] * forceC;
        magnitude[4 * a + c] += std::fabs(d[c] * forceC);
      }
    }
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = size_t(p.atoms);
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<double> force, magnitude;
  cpuReference(p, all, force, magnitude);
  // Neighbour lists are symmetric (lattice offsets come in +- pairs), so the
  // pair forces cancel in total.
  double total[3] = {0, 0, 0}, scale = 0;
  size_t inCutoff = 0;
  for (size_t i = 0; i < n; ++i)
    for (int c = 0; c < 3; ++c) {
      total[c] += force[4 * i + c];
      scale += magnitude[4 * i + c];
    }
  for (int c = 0; c < 3; ++c)
    if (std::fabs(total[c]) > 1e-9 * scale)
      return failure("momentum",
                     "sum of forces is " + std::to_string(total[c]));
  // |d|^2 is exact in float, so float and double agree on the cutoff test,
  // and the cutoff leaves some neighbours out and keeps most.
  for (size_t i = 0; i < n; ++i)
    for (int k = 0; k < kNeighbors; ++k) {
      size_t j = size_t(p.neighbor[size_t(k) * n + i]);
      float fd[3];
      double dd[3];
      for (int c = 0; c < 3; ++c) {
        fd[c] = p.position[4 * i + c] - p.position[4 * j + c];
        dd[c] = double(p.position[4 * i + c]) - p.position[4 * j + c];
      }
      float fr2 = fd[0] * fd[0] + fd[1] * fd[1] + fd[2] * fd[2];
      double dr2 = dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2];
      if ((fr2 < kCutoffSquared) != (dr2 < double(kCutoffSquared)))
        return failure("cutoff", "float and double disagree on a cutoff test");
      if (dr2 < 100 && double(fr2) != dr2)
        return failure("cutoff", "|d|^2 is not exact in float");
      inCutoff += dr2 < double(kCutoffSquared);
    }
  double fraction = double(inCutoff) / double(n * kNeighbors);
  if (fraction < 0.6 || fraction > 0.95)
    return failure("cutoff",
                   "fraction within cutoff " + std::to_string(fraction));
  CheckResult r = success("invariants", n);
  r.detail = "sum(f) == 0; cutoff test exact in float; " +
             std::to_string(int(fraction * 100)) + "% of pairs within cutoff";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "md",
      "Lennard-Jones forces over a column-major neighbour list (SHOC MD)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperSmCentric,
      FeatureIndexArrays,
      {"md_lj_forces"},
      {{"lattice", 16, 160, 200, "atoms per lattice side (atoms = side^3)"}},
      &create,
      &cpuSelfCheck,
      "force: |gpu-ref| <= 1e-5 * sum of |terms| per component; "
      "Default/Large: 2^21 sampled atoms, all finite",
  };
  return entry;
}

} // namespace smc::workloads::md
