//===- mvt.cu - mvt: kernels and their GPU driver -------------------------===//
#include "mvt.h"

#include "Check.h"
#include "CudaSupport.cuh"

// x1Out = x1 + A y1, one thread per row.
__global__ void mvt_kernel1(const float *__restrict__ a,
                            const float *__restrict__ x1,
                            const float *__restrict__ y1,
                            float *__restrict__ x1Out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = x1[i];
    for (int j = 0; j < n; ++j)
      sum += a[size_t(i) * n + j] * y1[j];
    x1Out[i] = sum;
  }
}

// x2Out = x2 + A^T y2, one thread per column.
__global__ void mvt_kernel2(const float *__restrict__ a,
                            const float *__restrict__ x2,
                            const float *__restrict__ y2,
                            float *__restrict__ x2Out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = x2[i];
    for (int j = 0; j < n; ++j)
      sum += a[size_t(j) * n + i] * y2[j];
    x2Out[i] = sum;
  }
}

namespace smc::workloads::mvt {
namespace {

constexpr int kBlock = 256;

class MvtWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    want1.clear();
    dA.upload(problem.a);
    dX1.upload(problem.x1);
    dX2.upload(problem.x2);
    dY1.upload(problem.y1);
    dY2.upload(problem.y2);
    dX1Out.allocate(problem.x1.size());
    dX2Out.allocate(problem.x2.size());
  }

  void run(cudaStream_t stream) override {
    unsigned blocks = ceilDiv(problem.n, kBlock);
    mvt_kernel1<<<blocks, kBlock, 0, stream>>>(dA.get(), dX1.get(), dY1.get(),
                                               dX1Out.get(), problem.n);
    SMC_CUDA_CHECK_LAUNCH();
    mvt_kernel2<<<blocks, kBlock, 0, stream>>>(dA.get(), dX2.get(), dY2.get(),
                                               dX2Out.get(), problem.n);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dX1Out.poison(stream);
    dX2Out.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got1, got2;
    dX1Out.download(got1);
    dX2Out.download(got2);
    if (want1.empty())
      cpuReference(problem, want1, want2);
    CheckResult r =
        compareExactFloat(got1.data(), want1.data(), got1.size(), "x1");
    r.merge(compareExactFloat(got2.data(), want2.data(), got2.size(), "x2"));
    return r;
  }

  RunEstimate estimate() const override {
    double n = problem.n;
    return {(2 * n * n + 6 * n) * 4, 4 * n * n};
  }

private:
  Problem problem;
  std::vector<double> want1, want2;
  DeviceBuffer<float> dA, dX1, dX2, dY1, dY2, dX1Out, dX2Out;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<MvtWorkload>(); }

} // namespace smc::workloads::mvt
