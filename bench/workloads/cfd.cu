//===- cfd.cu - cfd: compute_flux kernel and its GPU driver ---------------===//
#include "cfd.h"

#include "Check.h"
#include "CudaSupport.cuh"

using smc::workloads::cfd::FarField;

namespace {

struct CfdState {
  float density, momentum[3], energy, speedSquared, pressure, speedOfSound;
  float fluxMomentum[3][3], fluxEnergy[3];
};

__device__ inline void cfdLoadState(const float *__restrict__ variables,
                                    int cells, int i, CfdState &s) {
  s.density = variables[i];
  for (int k = 0; k < 3; ++k)
    s.momentum[k] = variables[(1 + k) * cells + i];
  s.energy = variables[4 * cells + i];
  float velocity[3];
  s.speedSquared = 0.0f;
  for (int k = 0; k < 3; ++k) {
    velocity[k] = s.momentum[k] / s.density;
    s.speedSquared += velocity[k] * velocity[k];
  }
  const float gamma = smc::workloads::cfd::kGamma;
  s.pressure = (gamma - 1.0f) * (s.energy - 0.5f * s.density * s.speedSquared);
  s.speedOfSound = sqrtf(gamma * s.pressure / s.density);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      s.fluxMomentum[a][b] =
          s.momentum[a] * velocity[b] + (a == b ? s.pressure : 0.0f);
  float energyPlusPressure = s.energy + s.pressure;
  for (int b = 0; b < 3; ++b)
    s.fluxEnergy[b] = velocity[b] * energyPlusPressure;
}

} // namespace

// One thread per cell: the flux through its four faces.
__global__ void cfd_compute_flux(int cells, const int *__restrict__ neighbor,
                                 const float *__restrict__ normals,
                                 const float *__restrict__ variables,
                                 float *__restrict__ fluxes, FarField ff) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= cells)
    return;
  const int faces = smc::workloads::cfd::kFaces;
  CfdState self;
  cfdLoadState(variables, cells, i, self);
  float speed = sqrtf(self.speedSquared);
  float fDensity = 0.0f, fEnergy = 0.0f;
  float fMomentum[3] = {0.0f, 0.0f, 0.0f};
  for (int face = 0; face < faces; ++face) {
    int nb = neighbor[face * cells + i];
    float normal[3];
    for (int k = 0; k < 3; ++k)
      normal[k] = normals[(face + k * faces) * cells + i];
    float normalLen = sqrtf(normal[0] * normal[0] + normal[1] * normal[1] +
                            normal[2] * normal[2]);
    if (nb >= 0) {
      CfdState other;
      cfdLoadState(variables, cells, nb, other);
      float factor = -normalLen * smc::workloads::cfd::kSmoothing * 0.5f *
                     (speed + sqrtf(other.speedSquared) + self.speedOfSound +
                      other.speedOfSound);
      fDensity += factor * (self.density - other.density);
      fEnergy += factor * (self.energy - other.energy);
      for (int a = 0; a < 3; ++a)
        fMomentum[a] += factor * (self.momentum[a] - other.momentum[a]);
      for (int b = 0; b < 3; ++b) {
        float half = 0.5f * normal[b];
        fDensity += half * (other.momentum[b] + self.momentum[b]);
        fEnergy += half * (other.fluxEnergy[b] + self.fluxEnergy[b]);
        for (int a = 0; a < 3; ++a)
          fMomentum[a] +=
              half * (other.fluxMomentum[a][b] + self.fluxMomentum[a][b]);
      }
    } else if (nb == -1) { // wing wall
      for (int a = 0; a < 3; ++a)
        fMomentum[a] += normal[a] * self.pressure;
    } else if (nb == -2) { // far field
      for (int b = 0; b < 3; ++b) {
        float half = 0.5f * normal[b];
        fDensity += half * (ff.momentum[b] + self.momentum[b]);
        fEnergy += half * (ff.fluxEnergy[b] + self.fluxEnergy[b]);
        for (int a = 0; a < 3; ++a)
          fMomentum[a] +=
              half * (ff.fluxMomentum[a][b] + self.fluxMomentum[a][b]);
      }
    }
  }
  fluxes[i] = fDensity;
  for (int a = 0; a < 3; ++a)
    fluxes[(1 + a) * cells + i] = fMomentum[a];
  fluxes[4 * cells + i] = fEnergy;
}

namespace smc::workloads::cfd {
namespace {

constexpr int kBlock = 192;
constexpr double kTolerance = 1e-5;
constexpr size_t kSampledCells = 1 << 21;

class CfdWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    cells.clear();
    dNeighbor.upload(problem.neighbor);
    dNormal.upload(problem.normal);
    dVariables.upload(problem.variables);
    dFlux.allocate(problem.variables.size());
  }

  void run(cudaStream_t stream) override {
    cfd_compute_flux<<<ceilDiv(problem.cells, kBlock), kBlock, 0, stream>>>(
        problem.cells, dNeighbor.get(), dNormal.get(), dVariables.get(),
        dFlux.get(), problem.farField);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dFlux.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dFlux.download(got);
    size_t n = size_t(problem.cells);
    if (cells.empty()) {
      cells = sampleIndices(n, kSampledCells, 59);
      cpuReference(problem, cells, reference);
      fluxScales(reference, cells.size(), scale);
    }
    static const char *names[kVars] = {"flux_density", "flux_momentum_x",
                                       "flux_momentum_y", "flux_momentum_z",
                                       "flux_energy"};
    size_t m = cells.size();
    std::vector<float> sampled(m);
    CheckResult r;
    for (int v = 0; v < kVars; ++v) {
      for (size_t k = 0; k < m; ++k)
        sampled[k] = got[v * n + cells[k]];
      r.merge(compareScaled(sampled.data(), reference.data() + v * m, nullptr,
                            m, kTolerance, scale[v], "|gpu-ref|/max(|ref|,rms)",
                            names[v]));
    }
    if (m < n) {
      r.merge(checkAllFinite(got.data(), got.size(), "flux"));
      r.detail += (r.detail.empty() ? "" : "; ") + std::to_string(m) + " of " +
                  std::to_string(n) + " cells compared";
    }
    return r;
  }

  // The density of every neighbour nb of the CTA's cells; its other
  // variables are read at the same indices, so they would give the same
  // affinity scores.
  bool chunkReads(ChunkReads &reads) const override {
    size_t cells = size_t(problem.cells);
    reads.byCta(cells, kBlock, [&](size_t i) {
      for (int face = 0; face < kFaces; ++face) {
        int32_t nb = problem.neighbor[size_t(face) * cells + i];
        if (nb >= 0)
          reads.read(uint64_t(nb) * sizeof(float));
      }
    });
    return true;
  }

  RunEstimate estimate() const override {
    double cells = double(problem.cells);
    return {cells * (kVars * 4 * 2 + kFaces * (4 + 12)), cells * kFaces * 80};
  }

private:
  Problem problem;
  std::vector<size_t> cells;
  std::vector<double> reference;
  double scale[kVars] = {};
  DeviceBuffer<int32_t> dNeighbor;
  DeviceBuffer<float> dNormal, dVariables, dFlux;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<CfdWorkload>(); }

} // namespace smc::workloads::cfd
