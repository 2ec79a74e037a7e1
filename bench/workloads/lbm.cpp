//===- lbm.cpp - lbm: inputs, CPU reference, self-check, registry ---------===//
#include "lbm.h"

#include "Check.h"
#include "Random.h"

#include <cmath>

namespace smc::workloads::lbm {
namespace {

constexpr int kEx[kQ] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kEy[kQ] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
constexpr int kOpp[kQ] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
constexpr int kTileX = 32, kTileY = 8; // clustered obstacles
constexpr double kTolerance = 1e-5;
constexpr double kFloor = 0.01; // populations are >= ~w_q * 0.8 >= 0.02

template <typename T> T weight(int q) {
  return q == 0 ? T(kWeightRest) : q < 5 ? T(kWeightAxis) : T(kWeightDiag);
}

template <typename T> void equilibrium(T rho, T ux, T uy, T feq[kQ]) {
  T usq = T(1.5) * (ux * ux + uy * uy);
  for (int q = 0; q < kQ; ++q) {
    T eu = T(3) * (T(kEx[q]) * ux + T(kEy[q]) * uy);
    feq[q] = weight<T>(q) * rho * (T(1) + eu + T(0.5) * eu * eu - usq);
  }
}

// The cell population q of cell (x, y) streams from: (x - ex, y - ey) on
// the torus.
size_t source(const Problem &p, size_t i, int q) {
  int64_t x = int64_t(i % size_t(p.nx)), y = int64_t(i / size_t(p.nx));
  int64_t sx = (x - kEx[q] + p.nx) % p.nx, sy = (y - kEy[q] + p.ny) % p.ny;
  return size_t(sy) * size_t(p.nx) + size_t(sx);
}

// One cell's step in arithmetic T (double: the reference; float: the
// emulation of the kernel's arithmetic).
template <typename T> void cellStep(const Problem &p, size_t i, T out[kQ]) {
  size_t n = p.cells();
  auto f = [&](int q, size_t cell) { return T(p.f[size_t(q) * n + cell]); };
  switch (p.kind[i]) {
  case kObstacle:
    for (int q = 0; q < kQ; ++q)
      out[q] = f(kOpp[q], i);
    return;
  case kOutflow:
    for (int q = 0; q < kQ; ++q)
      out[q] = f(q, source(p, i, 1)); // the west neighbour
    return;
  case kInflow: {
    T rho = 0;
    for (int q = 0; q < kQ; ++q)
      rho += f(q, i);
    equilibrium<T>(rho, T(kInflowVelocity), T(0), out);
    return;
  }
  default:
    break;
  }
  T g[kQ], feq[kQ], rho = 0, jx = 0, jy = 0;
  for (int q = 0; q < kQ; ++q) {
    g[q] = f(q, source(p, i, q));
    rho += g[q];
    jx += T(kEx[q]) * g[q];
    jy += T(kEy[q]) * g[q];
  }
  T inv = T(1) / rho;
  equilibrium<T>(rho, jx * inv, jy * inv, feq);
  T pxx = 0, pyy = 0, pxy = 0;
  for (int q = 0; q < kQ; ++q) {
    T neq = g[q] - feq[q];
    pxx += T(kEx[q] * kEx[q]) * neq;
    pyy += T(kEy[q] * kEy[q]) * neq;
    pxy += T(kEx[q] * kEy[q]) * neq;
  }
  T stress = std::sqrt(pxx * pxx + pyy * pyy + T(2) * pxy * pxy);
  T tau =
      T(0.5) *
      (T(kTau) + std::sqrt(T(kTau) * T(kTau) + T(kSmagorinsky) * stress * inv));
  T omega = T(1) / tau;
  for (int q = 0; q < kQ; ++q)
    out[q] = g[q] - omega * (g[q] - feq[q]);
}

} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  p.nx = int32_t(params.get("nx"));
  p.ny = int32_t(params.get("ny"));
  uint32_t percent = uint32_t(params.get("obstacles"));
  bool clustered = params.get("clustered") != 0;
  size_t n = p.cells();
  Rng kinds(seed, 1), populations(seed, 2);
  size_t tilesX = size_t(p.nx + kTileX - 1) / kTileX;
  std::vector<uint8_t> tile;
  if (clustered) {
    tile.resize(tilesX * size_t((p.ny + kTileY - 1) / kTileY));
    for (uint8_t &t : tile)
      t = kinds.below(100) < percent;
  }
  p.kind.resize(n);
  for (size_t i = 0; i < n; ++i) {
    size_t x = i % size_t(p.nx), y = i / size_t(p.nx);
    bool obstacle = clustered ? tile[(y / kTileY) * tilesX + x / kTileX] != 0
                              : kinds.below(100) < percent;
    p.kind[i] = x == 0                  ? kInflow
                : x == size_t(p.nx - 1) ? kOutflow
                : obstacle              ? kObstacle
                                        : kFluid;
  }
  // Near equilibrium: density 1 +- 0.05, velocity below 0.05 per axis,
  // each population off its equilibrium by up to +-5%.
  p.f.resize(kQ * n);
  for (size_t i = 0; i < n; ++i) {
    double rho = 1 + 0.1 * (populations.unit() - 0.5);
    double ux = 0.1 * (populations.unit() - 0.5);
    double uy = 0.1 * (populations.unit() - 0.5);
    double feq[kQ];
    equilibrium<double>(rho, ux, uy, feq);
    for (int q = 0; q < kQ; ++q)
      p.f[size_t(q) * n + i] =
          float(feq[q] * (1 + 0.1 * (populations.unit() - 0.5)));
  }
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &cells,
                  std::vector<double> &out) {
  size_t m = cells.size();
  out.assign(kQ * m, 0.0);
  for (size_t k = 0; k < m; ++k) {
    double cell[kQ];
    cellStep<double>(p, cells[k], cell);
    for (int q = 0; q < kQ; ++q)
      out[size_t(q) * m + k] = cell[q];
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Params params = info().params(Size::Small);
  Problem p = generate(params, seed);
  size_t n = p.cells();
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<double> ref;
  cpuReference(p, all, ref);
  // Each kind against what it must do: fluid conserves the mass and
  // momentum it pulled (from neighbours found by coordinates here),
  // obstacles reverse their populations, the outflow copies, the inflow has
  // the inflow momentum.
  size_t counts[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n; ++i) {
    int x = int(i % size_t(p.nx)), y = int(i / size_t(p.nx));
    double in[kQ], out[kQ], mass[2] = {0, 0}, jx[2] = {0, 0}, jy[2] = {0, 0};
    for (int q = 0; q < kQ; ++q) {
      int sx = x - kEx[q], sy = y - kEy[q];
      sx = sx < 0 ? sx + p.nx : sx >= p.nx ? sx - p.nx : sx;
      sy = sy < 0 ? sy + p.ny : sy >= p.ny ? sy - p.ny : sy;
      size_t west = size_t(y) * p.nx + size_t(x == 0 ? p.nx - 1 : x - 1);
      size_t from = p.kind[i] == kFluid     ? size_t(sy) * p.nx + size_t(sx)
                    : p.kind[i] == kOutflow ? west
                                            : i;
      in[q] = p.f[size_t(q) * n + from];
      out[q] = ref[size_t(q) * n + i];
    }
    for (int q = 0; q < kQ; ++q) {
      int b = p.kind[i] == kObstacle ? kOpp[q] : q;
      mass[0] += in[b];
      jx[0] += kEx[q] * in[b];
      jy[0] += kEy[q] * in[b];
      mass[1] += out[q];
      jx[1] += kEx[q] * out[q];
      jy[1] += kEy[q] * out[q];
      if ((p.kind[i] == kObstacle || p.kind[i] == kOutflow) && out[q] != in[b])
        return failure("copy", "cell " + std::to_string(i) + " population " +
                                   std::to_string(q) + " not copied");
    }
    if (p.kind[i] == kInflow) {
      jx[0] = mass[0] * kInflowVelocity;
      jy[0] = 0;
    }
    // Exact but for the weights, which are the kernel's fp32 ones.
    if (std::fabs(mass[1] - mass[0]) > 1e-7 ||
        std::fabs(jx[1] - jx[0]) > 1e-7 || std::fabs(jy[1] - jy[0]) > 1e-7)
      return failure("conservation", "cell " + std::to_string(i) + " kind " +
                                         std::to_string(p.kind[i]));
    ++counts[p.kind[i]];
  }
  if (!counts[kFluid] || !counts[kObstacle] || !counts[kInflow])
    return failure("kinds", "a cell kind is missing");
  // The float emulation of the kernel's arithmetic is within a quarter of
  // the GPU check's tolerance.
  double worst = 0;
  for (size_t i = 0; i < n; ++i) {
    float cell[kQ];
    cellStep<float>(p, i, cell);
    for (int q = 0; q < kQ; ++q) {
      double want = ref[size_t(q) * n + i];
      worst = std::max(worst, std::fabs(cell[q] - want) /
                                  std::max(std::fabs(want), kFloor));
    }
  }
  if (!(worst <= kTolerance / 4))
    return failure("float emulation",
                   "error " + std::to_string(worst) + " in fp32");
  // A fluid at rest, uniform, is a fixed point of the collision.
  Problem rest = p;
  for (size_t i = 0; i < n; ++i)
    for (int q = 0; q < kQ; ++q)
      rest.f[size_t(q) * n + i] = weight<float>(q);
  for (size_t i = 0; i < n; ++i) {
    if (rest.kind[i] != kFluid)
      continue;
    double cell[kQ];
    cellStep<double>(rest, i, cell);
    for (int q = 0; q < kQ; ++q)
      if (std::fabs(cell[q] - weight<float>(q)) > 1e-7) // fp32 weights
        return failure("rest state", "cell " + std::to_string(i) + " moved");
  }
  // Clustered obstacles leave every warp of interior cells uniform.
  params.set("clustered", 1);
  Problem tiles = generate(params, seed);
  for (size_t w = 0; w < n; w += 32) {
    size_t x0 = w % size_t(p.nx);
    for (size_t i = w + 1; i < std::min(w + 32, n); ++i)
      if (x0 != 0 && x0 + 32 < size_t(p.nx) && tiles.kind[i] != tiles.kind[w])
        return failure("clustered",
                       "warp at cell " + std::to_string(w) + " mixes kinds");
  }
  CheckResult r = success("invariants", n);
  r.maxError = worst;
  r.tolerance = kTolerance / 4;
  r.detail = "conservation per kind; rest state fixed; fp32 emulation; "
             "clustered warps uniform";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "lbm",
      "D2Q9 lattice-Boltzmann step, the cell's kind picks its work "
      "(G-Streamline 3dlbm)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperGStreamline,
      0,
      {"lbm_step"},
      {{"nx", 256, 4096, 8192, "cells along x (row length)"},
       {"ny", 128, 8192, 12288, "cells along y"},
       {"obstacles", 40, 40, 40, "percent of the cells that are obstacles"},
       {"clustered", 0, 0, 0,
        "1: obstacles in aligned 32 x 8 tiles, warps uniform (remapping must "
        "not pay)"}},
      &create,
      &cpuSelfCheck,
      "populations: 1e-5 of max(|ref|, 0.01); 2^20 sampled cells",
  };
  return entry;
}

} // namespace smc::workloads::lbm
