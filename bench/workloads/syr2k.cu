//===- syr2k.cu - syr2k: kernel and its GPU driver ------------------------===//
#include "syr2k.h"

#include "Check.h"
#include "CudaSupport.cuh"
#include "RankUpdate.cuh"

__global__ void syr2k_kernel(const float *__restrict__ a,
                             const float *__restrict__ b,
                             const float *__restrict__ cIn,
                             float *__restrict__ cOut, int n, int m,
                             float alpha, float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    float sum = 0.0f;
    for (int k = 0; k < m; ++k)
      sum += a[size_t(i) * m + k] * b[size_t(j) * m + k] +
             b[size_t(i) * m + k] * a[size_t(j) * m + k];
    cOut[size_t(i) * n + j] = beta * cIn[size_t(i) * n + j] + alpha * sum;
  }
}

namespace smc::workloads::syr2k {
namespace {

class Syr2kWorkload final : public RankUpdateWorkload<Problem> {
public:
  Syr2kWorkload() : RankUpdateWorkload(41) {}

  void setup(const Params &params, uint64_t seed) override {
    setProblem(generate(params, seed));
    dB.upload(problem.b);
  }

  void run(cudaStream_t stream) override {
    syr2k_kernel<<<gridShape(), blockShape(), 0, stream>>>(
        dA.get(), dB.get(), dC.get(), dOut.get(), problem.n, problem.m, kAlpha,
        kBeta);
    SMC_CUDA_CHECK_LAUNCH();
  }

  RunEstimate estimate() const override {
    double n = problem.n, m = problem.m;
    return {(2 * n * m + 2 * n * n) * 4, 4 * n * n * m};
  }

private:
  DeviceBuffer<float> dB;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<Syr2kWorkload>(); }

} // namespace smc::workloads::syr2k
