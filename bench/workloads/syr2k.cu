//===- syr2k.cu - syr2k: kernel and its GPU driver ------------------------===//
#include "syr2k.h"

#include "Check.h"
#include "CudaSupport.cuh"

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

constexpr size_t kSampledRows = 256;

class Syr2kWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    rows.clear();
    dA.upload(problem.a);
    dB.upload(problem.b);
    dC.upload(problem.c);
    dOut.allocate(problem.c.size());
  }

  void run(cudaStream_t stream) override {
    dim3 block(32, 8);
    dim3 grid(ceilDiv(problem.n, 32), ceilDiv(problem.n, 8));
    syr2k_kernel<<<grid, block, 0, stream>>>(dA.get(), dB.get(), dC.get(),
                                             dOut.get(), problem.n, problem.m,
                                             kAlpha, kBeta);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dOut.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dOut.download(got);
    if (rows.empty()) {
      rows = sampleIndices(size_t(problem.n), kSampledRows, 41);
      cpuReferenceRows(problem, rows, reference);
    }
    return compareSampledRows(got, size_t(problem.n), rows, reference, "C");
  }

  RunEstimate estimate() const override {
    double n = problem.n, m = problem.m;
    return {(2 * n * m + 2 * n * n) * 4, 4 * n * n * m};
  }

private:
  Problem problem;
  std::vector<size_t> rows;
  std::vector<double> reference;
  DeviceBuffer<float> dA, dB, dC, dOut;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<Syr2kWorkload>(); }

} // namespace smc::workloads::syr2k
