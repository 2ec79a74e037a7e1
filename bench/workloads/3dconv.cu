//===- 3dconv.cu - 3dconv: 3-D grid kernel and its GPU driver -------------===//
#include "3dconv.h"

#include "Check.h"
#include "CudaSupport.cuh"

// Thread (k, j) of grid layer i computes point (i, j, k).
__global__ void conv3d_kernel(const float *__restrict__ a,
                              float *__restrict__ b, int ni, int nj, int nk) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= ni || j >= nj || k >= nk)
    return;
  size_t plane = size_t(nj) * nk;
  size_t at = i * plane + size_t(j) * nk + k;
  if (i == 0 || j == 0 || k == 0 || i == ni - 1 || j == nj - 1 || k == nk - 1) {
    b[at] = 0.0f;
    return;
  }
  const float c[9] = {2.0f, 5.0f, -8.0f, -3.0f, 6.0f, -9.0f, 4.0f, 7.0f, 10.0f};
  float sum = 0.0f;
#pragma unroll
  for (int di = -1; di <= 1; ++di)
#pragma unroll
    for (int dj = -1; dj <= 1; ++dj)
#pragma unroll
      for (int dk = -1; dk <= 1; ++dk)
        sum += (c[(dj + 1) * 3 + dk + 1] + float(di)) *
               a[at + di * ptrdiff_t(plane) + dj * nk + dk];
  b[at] = sum;
}

namespace smc::workloads::conv3d {
namespace {

constexpr size_t kSampledRows = 4096;

class Conv3dWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    rows.clear();
    dA.upload(problem.a);
    dB.allocate(problem.a.size());
  }

  void run(cudaStream_t stream) override {
    dim3 block(32, 8, 1);
    dim3 grid(ceilDiv(problem.nk, 32), ceilDiv(problem.nj, 8), problem.ni);
    conv3d_kernel<<<grid, block, 0, stream>>>(dA.get(), dB.get(), problem.ni,
                                              problem.nj, problem.nk);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dB.poison(stream); }

  CheckResult check() override {
    return checkSampledRowsOutput(
        dB, size_t(problem.ni) * problem.nj, size_t(problem.nk), kSampledRows,
        47, rows, reference,
        [&](const std::vector<size_t> &sample, std::vector<double> &out) {
          cpuReferenceRows(problem, sample, out);
        },
        "B");
  }

  RunEstimate estimate() const override {
    double points = double(problem.a.size());
    return {points * 8, points * 54};
  }

private:
  Problem problem;
  std::vector<size_t> rows;
  std::vector<double> reference;
  DeviceBuffer<float> dA, dB;
};

} // namespace

std::unique_ptr<Workload> create() {
  return std::make_unique<Conv3dWorkload>();
}

} // namespace smc::workloads::conv3d
