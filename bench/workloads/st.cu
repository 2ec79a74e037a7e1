//===- st.cu - st: stencil sweep kernel and its GPU driver ----------------===//
#include "st.h"

#include "Check.h"
#include "CudaSupport.cuh"

#define ST_BX 32
#define ST_BY 8

// One thread per (i, j) column of the grid, walking up z.
__global__ void stencil7_sweep(const float *__restrict__ in,
                               float *__restrict__ out, int nx, int ny, int nz,
                               float c0, float c1) {
  __shared__ float plane[ST_BY + 2][ST_BX + 2];
  int i = blockIdx.x * ST_BX + threadIdx.x;
  int j = blockIdx.y * ST_BY + threadIdx.y;
  // Columns outside the grid have nothing to load or compute.
  if (i >= nx || j >= ny)
    return;
  int sx = threadIdx.x + 1, sy = threadIdx.y + 1;
  bool interior = i > 0 && j > 0 && i < nx - 1 && j < ny - 1;
  size_t planeSize = size_t(nx) * ny;
  size_t idx = size_t(j) * nx + i;
  float below = in[idx];
  float current = in[idx + planeSize];
  out[idx] = below;
  out[idx + (nz - 1) * planeSize] = in[idx + (nz - 1) * planeSize];
  for (int k = 1; k < nz - 1; ++k) {
    size_t at = idx + k * planeSize;
    float above = in[at + planeSize];
    plane[sy][sx] = current;
    if (threadIdx.x == 0 && i > 0)
      plane[sy][0] = in[at - 1];
    if (threadIdx.x == ST_BX - 1 && i < nx - 1)
      plane[sy][ST_BX + 1] = in[at + 1];
    if (threadIdx.y == 0 && j > 0)
      plane[0][sx] = in[at - nx];
    if (threadIdx.y == ST_BY - 1 && j < ny - 1)
      plane[ST_BY + 1][sx] = in[at + nx];
    __syncthreads();
    out[at] = interior
                  ? c0 * current + c1 * (plane[sy][sx - 1] + plane[sy][sx + 1] +
                                         plane[sy - 1][sx] + plane[sy + 1][sx] +
                                         below + above)
                  : current;
    __syncthreads();
    below = current;
    current = above;
  }
}

namespace smc::workloads::st {
namespace {

class StWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    reference.clear();
    dGrid.upload(problem.grid);
    for (auto &b : dBuffer)
      b.allocate(problem.grid.size());
  }

  void run(cudaStream_t stream) override {
    dim3 block(ST_BX, ST_BY);
    dim3 grid(ceilDiv(problem.nx, ST_BX), ceilDiv(problem.ny, ST_BY));
    const float *src = dGrid.get();
    for (int s = 0; s < problem.steps; ++s) {
      stencil7_sweep<<<grid, block, 0, stream>>>(src, dBuffer[s & 1].get(),
                                                 problem.nx, problem.ny,
                                                 problem.nz, kC0, kC1);
      SMC_CUDA_CHECK_LAUNCH();
      src = dBuffer[s & 1].get();
    }
  }

  void resetOutputs(cudaStream_t stream) override {
    for (auto &b : dBuffer)
      b.poison(stream);
  }

  CheckResult check() override {
    return checkExactFloatOutput(
        dBuffer[(problem.steps - 1) & 1], reference,
        [&](std::vector<double> &out) { cpuReference(problem, out); }, "grid");
  }

  RunEstimate estimate() const override {
    double points = double(problem.grid.size());
    return {points * 8 * problem.steps, points * 8 * problem.steps};
  }

private:
  Problem problem;
  std::vector<double> reference;
  DeviceBuffer<float> dGrid;
  DeviceBuffer<float> dBuffer[2];
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<StWorkload>(); }

} // namespace smc::workloads::st
