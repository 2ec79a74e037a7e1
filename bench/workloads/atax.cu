//===- atax.cu - atax: kernels and their GPU driver -----------------------===//
#include "atax.h"

#include "Check.h"
#include "CudaSupport.cuh"

// tmp = A x, one thread per row.
__global__ void atax_kernel1(const float *__restrict__ a,
                             const float *__restrict__ x,
                             float *__restrict__ tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    float sum = 0.0f;
    for (int j = 0; j < ny; ++j)
      sum += a[size_t(i) * ny + j] * x[j];
    tmp[i] = sum;
  }
}

// y = A^T tmp, one thread per column.
__global__ void atax_kernel2(const float *__restrict__ a,
                             const float *__restrict__ tmp,
                             float *__restrict__ y, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    float sum = 0.0f;
    for (int i = 0; i < nx; ++i)
      sum += a[size_t(i) * ny + j] * tmp[i];
    y[j] = sum;
  }
}

namespace smc::workloads::atax {
namespace {

constexpr int kBlock = 256;

class AtaxWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    tmp.clear();
    dA.upload(problem.a);
    dX.upload(problem.x);
    dTmp.allocate(size_t(problem.nx));
    dY.allocate(size_t(problem.ny));
  }

  void run(cudaStream_t stream) override {
    atax_kernel1<<<ceilDiv(problem.nx, kBlock), kBlock, 0, stream>>>(
        dA.get(), dX.get(), dTmp.get(), problem.nx, problem.ny);
    SMC_CUDA_CHECK_LAUNCH();
    atax_kernel2<<<ceilDiv(problem.ny, kBlock), kBlock, 0, stream>>>(
        dA.get(), dTmp.get(), dY.get(), problem.nx, problem.ny);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dTmp.poison(stream);
    dY.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> gotTmp, gotY;
    dTmp.download(gotTmp);
    dY.download(gotY);
    if (tmp.empty()) {
      cpuReference(problem, tmp, y, magnitude);
      // Exact (tolerance 0) where the terms' absolute sum stays below 2^24.
      allowed.resize(magnitude.size());
      for (size_t j = 0; j < magnitude.size(); ++j)
        allowed[j] = magnitude[j] < 16777216.0 ? 0.0 : magnitude[j];
    }
    CheckResult r =
        compareExactFloat(gotTmp.data(), tmp.data(), gotTmp.size(), "tmp");
    r.merge(compareScaled(gotY.data(), y.data(), allowed.data(), gotY.size(),
                          1e-6, 0, "|gpu-ref|/(sum|terms| if >= 2^24)", "y"));
    return r;
  }

  RunEstimate estimate() const override {
    double nx = problem.nx, ny = problem.ny;
    return {(2 * nx * ny + nx * 2 + ny * 2) * 4, 4 * nx * ny};
  }

private:
  Problem problem;
  std::vector<double> tmp, y, magnitude, allowed;
  DeviceBuffer<float> dA, dX, dTmp, dY;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<AtaxWorkload>(); }

} // namespace smc::workloads::atax
