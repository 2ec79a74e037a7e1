//===- cfd.cpp - cfd: inputs, CPU reference, self-check, registry ---------===//
#include "cfd.h"

#include "Check.h"
#include "Random.h"

#include <cmath>

namespace smc::workloads::cfd {

namespace {

// The flux contribution of a state (Rodinia's compute_flux_contribution):
// momentum flux [component][direction] and energy flux [direction].
template <typename Real>
void fluxContribution(Real density, const Real momentum[3], Real energy,
                      Real pressure, const Real velocity[3],
                      Real fluxMomentum[3][3], Real fluxEnergy[3]) {
  (void)density;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      fluxMomentum[a][b] = momentum[a] * velocity[b] + (a == b ? pressure : 0);
  Real energyPlusPressure = energy + pressure;
  for (int b = 0; b < 3; ++b)
    fluxEnergy[b] = velocity[b] * energyPlusPressure;
}

template <typename Real> struct CellState {
  Real density, momentum[3], energy, velocity[3], speedSquared, pressure,
      speedOfSound;
  Real fluxMomentum[3][3], fluxEnergy[3];

  CellState(const Problem &p, size_t i) {
    size_t n = size_t(p.cells);
    density = Real(p.variables[i]);
    for (int k = 0; k < 3; ++k)
      momentum[k] = Real(p.variables[(1 + k) * n + i]);
    energy = Real(p.variables[4 * n + i]);
    speedSquared = 0;
    for (int k = 0; k < 3; ++k) {
      velocity[k] = momentum[k] / density;
      speedSquared += velocity[k] * velocity[k];
    }
    pressure = (Real(kGamma) - Real(1)) *
               (energy - Real(0.5) * density * speedSquared);
    speedOfSound = std::sqrt(Real(kGamma) * pressure / density);
    fluxContribution(density, momentum, energy, pressure, velocity,
                     fluxMomentum, fluxEnergy);
  }
};

// The fluxes of cell i in Real arithmetic.
template <typename Real>
void cellFlux(const Problem &p, size_t i, Real out[kVars]) {
  size_t n = size_t(p.cells);
  const FarField &ff = p.farField;
  CellState<Real> self(p, i);
  Real speed = std::sqrt(self.speedSquared);
  Real fDensity = 0, fEnergy = 0, fMomentum[3] = {0, 0, 0};
  for (int face = 0; face < kFaces; ++face) {
    int32_t nb = p.neighbor[face * n + i];
    Real normal[3];
    for (int k = 0; k < 3; ++k)
      normal[k] = Real(p.normal[(face + k * kFaces) * n + i]);
    Real normalLen = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] +
                               normal[2] * normal[2]);
    if (nb >= 0) {
      CellState<Real> other(p, size_t(nb));
      Real factor = -normalLen * Real(kSmoothing) * Real(0.5) *
                    (speed + std::sqrt(other.speedSquared) + self.speedOfSound +
                     other.speedOfSound);
      fDensity += factor * (self.density - other.density);
      fEnergy += factor * (self.energy - other.energy);
      for (int a = 0; a < 3; ++a)
        fMomentum[a] += factor * (self.momentum[a] - other.momentum[a]);
      for (int b = 0; b < 3; ++b) {
        Real half = Real(0.5) * normal[b];
        fDensity += half * (other.momentum[b] + self.momentum[b]);
        fEnergy += half * (other.fluxEnergy[b] + self.fluxEnergy[b]);
        for (int a = 0; a < 3; ++a)
          fMomentum[a] +=
              half * (other.fluxMomentum[a][b] + self.fluxMomentum[a][b]);
      }
    } else if (nb == -1) {
      for (int a = 0; a < 3; ++a)
        fMomentum[a] += normal[a] * self.pressure;
    } else if (nb == -2) {
      for (int b = 0; b < 3; ++b) {
        Real half = Real(0.5) * normal[b];
        fDensity += half * (Real(ff.momentum[b]) + self.momentum[b]);
        fEnergy += half * (Real(ff.fluxEnergy[b]) + self.fluxEnergy[b]);
        for (int a = 0; a < 3; ++a)
          fMomentum[a] +=
              half * (Real(ff.fluxMomentum[a][b]) + self.fluxMomentum[a][b]);
      }
    }
  }
  out[0] = fDensity;
  for (int a = 0; a < 3; ++a)
    out[1 + a] = fMomentum[a];
  out[4] = fEnergy;
}

FarField makeFarField() {
  FarField ff;
  const float mach = 1.2f, angle = 3.0f * 3.14159265358979f / 180.0f;
  const float pressure = 1.0f;
  ff.density = 1.4f;
  float speedOfSound = std::sqrt(kGamma * pressure / ff.density);
  float speed = mach * speedOfSound;
  float velocity[3] = {speed * std::cos(angle), speed * std::sin(angle), 0.0f};
  for (int k = 0; k < 3; ++k)
    ff.momentum[k] = ff.density * velocity[k];
  ff.energy = ff.density * (0.5f * speed * speed) + pressure / (kGamma - 1.0f);
  fluxContribution(ff.density, ff.momentum, ff.energy, pressure, velocity,
                   ff.fluxMomentum, ff.fluxEnergy);
  return ff;
}

} // namespace

Problem generate(const Params &params, uint64_t seed) {
  Problem p;
  const int32_t gx = 64, gy = 64;
  int64_t requested = params.get("cells");
  int32_t gz = int32_t((requested + gx * gy - 1) / (gx * gy));
  p.cells = gx * gy * gz;
  size_t n = size_t(p.cells);
  p.farField = makeFarField();
  std::vector<int32_t> id = Rng(seed, 1).permutation(n); // box cell -> id
  Rng faces(seed, 2), normals(seed, 3), state(seed, 4);
  p.neighbor.resize(kFaces * n);
  static const int32_t dir[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                    {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  for (int32_t z = 0; z < gz; ++z)
    for (int32_t y = 0; y < gy; ++y)
      for (int32_t x = 0; x < gx; ++x) {
        size_t cell = size_t(id[(size_t(z) * gy + y) * gx + x]);
        int dropA = int(faces.below(6));
        int dropB = (dropA + 1 + int(faces.below(5))) % 6;
        int face = 0;
        for (int d = 0; d < 6; ++d) {
          if (d == dropA || d == dropB)
            continue;
          int32_t nx = x + dir[d][0], ny = y + dir[d][1], nz = z + dir[d][2];
          int32_t nb;
          if (nx >= 0 && nx < gx && ny >= 0 && ny < gy && nz >= 0 && nz < gz)
            nb = id[(size_t(nz) * gy + ny) * gx + nx];
          else
            nb = d == 5 ? -1 : -2; // -z is the wing, the rest far field
          p.neighbor[size_t(face++) * n + cell] = nb;
        }
      }
  p.normal.resize(3 * kFaces * n);
  for (float &v : p.normal)
    v = normals.uniform(-1.0f, 1.0f);
  p.variables.resize(kVars * n);
  for (size_t i = 0; i < n; ++i) {
    float density = state.uniform(0.8f, 1.2f);
    float pressure = state.uniform(0.8f, 1.2f);
    float speedSquared = 0;
    p.variables[i] = density;
    for (int k = 0; k < 3; ++k) {
      float v = state.uniform(-0.3f, 0.3f);
      speedSquared += v * v;
      p.variables[(1 + k) * n + i] = density * v;
    }
    p.variables[4 * n + i] =
        pressure / (kGamma - 1.0f) + 0.5f * density * speedSquared;
  }
  return p;
}

void cpuReference(const Problem &p, const std::vector<size_t> &cells,
                  std::vector<double> &flux) {
  size_t n = cells.size();
  flux.resize(kVars * n);
  for (size_t k = 0; k < n; ++k) {
    double out[kVars];
    cellFlux<double>(p, cells[k], out);
    for (int v = 0; v < kVars; ++v)
      flux[v * n + k] = out[v];
  }
}

void fluxScales(const std::vector<double> &flux, size_t n,
                double scale[kVars]) {
  for (int v = 0; v < kVars; ++v) {
    double sum = 0;
    for (size_t i = 0; i < n; ++i)
      sum += flux[v * n + i] * flux[v * n + i];
    scale[v] = std::sqrt(sum / double(n));
  }
}

CheckResult cpuSelfCheck(uint64_t seed) {
  Problem p = generate(info().params(Size::Small), seed);
  size_t n = size_t(p.cells);
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<double> flux;
  cpuReference(p, all, flux);
  double scale[kVars];
  fluxScales(flux, n, scale);
  // All three face kinds occur.
  size_t kinds[3] = {0, 0, 0};
  for (int32_t nb : p.neighbor)
    ++kinds[nb >= 0 ? 0 : nb == -1 ? 1 : 2];
  if (!kinds[0] || !kinds[1] || !kinds[2])
    return failure("mesh", "a face kind is missing");
  // A float evaluation stays within the GPU tolerance with a margin of 4x.
  CheckResult r;
  std::vector<float> approx(kVars * n);
  for (size_t i = 0; i < n; ++i) {
    float out[kVars];
    cellFlux<float>(p, i, out);
    for (int v = 0; v < kVars; ++v)
      approx[v * n + i] = out[v];
  }
  static const char *names[kVars] = {"density", "momentum_x", "momentum_y",
                                     "momentum_z", "energy"};
  for (int v = 0; v < kVars; ++v)
    r.merge(compareScaled(approx.data() + v * n, flux.data() + v * n, nullptr,
                          n, 2.5e-6, scale[v], "|err|/max(|ref|,rms)",
                          names[v]));
  r.detail = "float evaluation within tolerance/4; all face kinds present";
  return r;
}

const WorkloadInfo &info() {
  static const WorkloadInfo entry = {
      "cfd",
      "Unstructured-mesh finite-volume flux of the 3-D Euler equations "
      "(Rodinia CFD compute_flux)",
      1,
      Regularity::Irregular,
      Locality::Unclassified,
      PaperSmCentric,
      FeatureIndexArrays,
      {"cfd_compute_flux"},
      {{"cells", 16384, 1 << 23, 1 << 25,
        "mesh cells (rounded up to a multiple of 4096)"}},
      &create,
      &cpuSelfCheck,
      "fluxes: |gpu-ref| <= 1e-5 * max(|ref|, rms of that flux); "
      "Default/Large: 2^21 sampled cells, all finite",
  };
  return entry;
}

} // namespace smc::workloads::cfd
