//===- bicg.cu - bicg: kernels and their GPU driver -----------------------===//
#include "bicg.h"

#include "Check.h"
#include "CudaSupport.cuh"

// s = A^T r, one thread per column.
__global__ void bicg_kernel1(const float *__restrict__ a,
                             const float *__restrict__ r, float *__restrict__ s,
                             int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    float sum = 0.0f;
    for (int i = 0; i < nx; ++i)
      sum += r[i] * a[size_t(i) * ny + j];
    s[j] = sum;
  }
}

// q = A p, one thread per row.
__global__ void bicg_kernel2(const float *__restrict__ a,
                             const float *__restrict__ p, float *__restrict__ q,
                             int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    float sum = 0.0f;
    for (int j = 0; j < ny; ++j)
      sum += a[size_t(i) * ny + j] * p[j];
    q[i] = sum;
  }
}

namespace smc::workloads::bicg {
namespace {

constexpr int kBlock = 256;

class BicgWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    wantS.clear();
    dA.upload(problem.a);
    dR.upload(problem.r);
    dP.upload(problem.p);
    dS.allocate(size_t(problem.ny));
    dQ.allocate(size_t(problem.nx));
  }

  void run(cudaStream_t stream) override {
    bicg_kernel1<<<ceilDiv(problem.ny, kBlock), kBlock, 0, stream>>>(
        dA.get(), dR.get(), dS.get(), problem.nx, problem.ny);
    SMC_CUDA_CHECK_LAUNCH();
    bicg_kernel2<<<ceilDiv(problem.nx, kBlock), kBlock, 0, stream>>>(
        dA.get(), dP.get(), dQ.get(), problem.nx, problem.ny);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override {
    dS.poison(stream);
    dQ.poison(stream);
  }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> gotS, gotQ;
    dS.download(gotS);
    dQ.download(gotQ);
    if (wantS.empty())
      cpuReference(problem, wantS, wantQ);
    CheckResult r =
        compareExactFloat(gotS.data(), wantS.data(), gotS.size(), "s");
    r.merge(compareExactFloat(gotQ.data(), wantQ.data(), gotQ.size(), "q"));
    return r;
  }

  RunEstimate estimate() const override {
    double nx = problem.nx, ny = problem.ny;
    return {(2 * nx * ny + 2 * nx + 2 * ny) * 4, 4 * nx * ny};
  }

private:
  Problem problem;
  std::vector<double> wantS, wantQ;
  DeviceBuffer<float> dA, dR, dP, dS, dQ;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<BicgWorkload>(); }

} // namespace smc::workloads::bicg
