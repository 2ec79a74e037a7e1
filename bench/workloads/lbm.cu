//===- lbm.cu - lbm: lattice-Boltzmann step kernel and its GPU driver -----===//
#include "lbm.h"

#include "Check.h"
#include "CudaSupport.cuh"

// The D2Q9 equilibrium, q = 0..8: rest, E, N, W, S, NE, NW, SW, SE.
__device__ inline void lbmEquilibrium(float rho, float ux, float uy,
                                      float feq[9]) {
  using namespace smc::workloads::lbm;
  const float ex[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
  const float ey[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
  float usq = 1.5f * (ux * ux + uy * uy);
#pragma unroll
  for (int q = 0; q < 9; ++q) {
    float w = q == 0 ? kWeightRest : q < 5 ? kWeightAxis : kWeightDiag;
    float eu = 3.0f * (ex[q] * ux + ey[q] * uy);
    feq[q] = w * rho * (1.0f + eu + 0.5f * eu * eu - usq);
  }
}

// One thread per cell; the cell's kind picks the path.  fin and fout are
// [q * n + i]; the grid is a torus of rows of nx cells.
__global__ void lbm_step(const int *__restrict__ cellKind,
                         const float *__restrict__ fin,
                         float *__restrict__ fout, int nx, int n) {
  using namespace smc::workloads::lbm;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int kind = cellKind[i];
  if (kind == kObstacle) { // bounce-back
    const int opp[9] = {0, 3, 4, 1, 2, 7, 8, 5, 6};
#pragma unroll
    for (int q = 0; q < 9; ++q)
      fout[q * n + i] = fin[opp[q] * n + i];
    return;
  }
  int x = i % nx;
  int row = i - x;
  int xw = x == 0 ? nx - 1 : x - 1;
  if (kind == kOutflow) { // zero gradient: the west neighbour's populations
#pragma unroll
    for (int q = 0; q < 9; ++q)
      fout[q * n + i] = fin[q * n + row + xw];
    return;
  }
  float f[9];
  if (kind == kInflow) { // equilibrium at the inflow velocity
    float rho = 0.0f;
#pragma unroll
    for (int q = 0; q < 9; ++q)
      rho += fin[q * n + i];
    lbmEquilibrium(rho, kInflowVelocity, 0.0f, f);
#pragma unroll
    for (int q = 0; q < 9; ++q)
      fout[q * n + i] = f[q];
    return;
  }
  // Fluid: pull each population from the cell it streams from ...
  int xe = x == nx - 1 ? 0 : x + 1;
  int rowS = row == 0 ? n - nx : row - nx; // y - 1
  int rowN = row + nx == n ? 0 : row + nx; // y + 1
  f[0] = fin[i];
  f[1] = fin[n + row + xw];
  f[2] = fin[2 * n + rowS + x];
  f[3] = fin[3 * n + row + xe];
  f[4] = fin[4 * n + rowN + x];
  f[5] = fin[5 * n + rowS + xw];
  f[6] = fin[6 * n + rowS + xe];
  f[7] = fin[7 * n + rowN + xe];
  f[8] = fin[8 * n + rowN + xw];
  // ... and collide: BGK with a Smagorinsky eddy viscosity.
  float rho = 0.0f;
#pragma unroll
  for (int q = 0; q < 9; ++q)
    rho += f[q];
  float inv = 1.0f / rho;
  float ux = (f[1] - f[3] + f[5] - f[6] - f[7] + f[8]) * inv;
  float uy = (f[2] - f[4] + f[5] + f[6] - f[7] - f[8]) * inv;
  float feq[9];
  lbmEquilibrium(rho, ux, uy, feq);
  float neq[9];
#pragma unroll
  for (int q = 0; q < 9; ++q)
    neq[q] = f[q] - feq[q];
  float pxx = neq[1] + neq[3] + neq[5] + neq[6] + neq[7] + neq[8];
  float pyy = neq[2] + neq[4] + neq[5] + neq[6] + neq[7] + neq[8];
  float pxy = neq[5] - neq[6] + neq[7] - neq[8];
  float stress = sqrtf(pxx * pxx + pyy * pyy + 2.0f * pxy * pxy);
  float tau = 0.5f * (kTau + sqrtf(kTau * kTau + kSmagorinsky * stress * inv));
  float omega = 1.0f / tau;
#pragma unroll
  for (int q = 0; q < 9; ++q)
    fout[q * n + i] = f[q] - omega * neq[q];
}

namespace smc::workloads::lbm {
namespace {

constexpr int kBlock = 256;
constexpr size_t kSampledCells = size_t(1) << 20;
constexpr double kTolerance = 1e-5;

class LbmWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    cells.clear();
    reference.clear();
    dKind.upload(problem.kind);
    dIn.upload(problem.f);
    dOut.allocate(problem.f.size());
  }

  void run(cudaStream_t stream) override {
    int n = int(problem.cells());
    lbm_step<<<ceilDiv(n, kBlock), kBlock, 0, stream>>>(
        dKind.get(), dIn.get(), dOut.get(), problem.nx, n);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dOut.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dOut.download(got);
    size_t n = problem.cells();
    if (cells.empty()) {
      cells = sampleIndices(n, kSampledCells, 71);
      cpuReference(problem, cells, reference);
    }
    size_t m = cells.size();
    std::vector<float> sampled(kQ * m);
    for (int q = 0; q < kQ; ++q)
      for (size_t k = 0; k < m; ++k)
        sampled[size_t(q) * m + k] = got[size_t(q) * n + cells[k]];
    CheckResult r =
        compareScaled(sampled.data(), reference.data(), nullptr, sampled.size(),
                      kTolerance, 0.01, "|gpu-ref|/max(|ref|,0.01)", "f");
    if (m < n) {
      r.merge(checkAllFinite(got.data(), got.size(), "f"));
      r.detail += (r.detail.empty() ? "" : "; ") + std::to_string(m) + " of " +
                  std::to_string(n) + " cells compared";
    }
    return r;
  }

  RunEstimate estimate() const override {
    double n = double(problem.cells());
    // Kind, nine populations in and out; ~150 flops per fluid cell.
    return {n * (4 + 2 * kQ * 4), n * 150};
  }

private:
  Problem problem;
  std::vector<size_t> cells;
  std::vector<double> reference;
  DeviceBuffer<int32_t> dKind;
  DeviceBuffer<float> dIn, dOut;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<LbmWorkload>(); }

} // namespace smc::workloads::lbm
