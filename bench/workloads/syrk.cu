//===- syrk.cu - syrk: kernel and its GPU driver --------------------------===//
#include "syrk.h"

#include "Check.h"
#include "CudaSupport.cuh"
#include "RankUpdate.cuh"

__global__ void syrk_kernel(const float *__restrict__ a,
                            const float *__restrict__ cIn,
                            float *__restrict__ cOut, int n, int m, float alpha,
                            float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    float sum = 0.0f;
    for (int k = 0; k < m; ++k)
      sum += a[size_t(i) * m + k] * a[size_t(j) * m + k];
    cOut[size_t(i) * n + j] = beta * cIn[size_t(i) * n + j] + alpha * sum;
  }
}

namespace smc::workloads::syrk {
namespace {

class SyrkWorkload final : public RankUpdateWorkload<Problem> {
public:
  SyrkWorkload() : RankUpdateWorkload(37) {}

  void setup(const Params &params, uint64_t seed) override {
    setProblem(generate(params, seed));
  }

  void run(cudaStream_t stream) override {
    syrk_kernel<<<gridShape(), blockShape(), 0, stream>>>(
        dA.get(), dC.get(), dOut.get(), problem.n, problem.m, kAlpha, kBeta);
    SMC_CUDA_CHECK_LAUNCH();
  }

  RunEstimate estimate() const override {
    double n = problem.n, m = problem.m;
    return {(n * m + 2 * n * n) * 4, 2 * n * n * m};
  }
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<SyrkWorkload>(); }

} // namespace smc::workloads::syrk
