//===- mm.cu - mm: tiled matrix-multiply kernel and its GPU driver --------===//
#include "mm.h"

#include "Check.h"
#include "CudaSupport.cuh"

#define MM_TILE 16

// The SDK's matrixMulCUDA<16>: C = A * B, A is hA x wA, B is wA x wB.
__global__ void mm_tiled(float *__restrict__ C, const float *__restrict__ A,
                         const float *__restrict__ B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * MM_TILE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = MM_TILE;
  int bBegin = MM_TILE * bx;
  int bStep = MM_TILE * wB;
  float cSub = 0.0f;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[MM_TILE][MM_TILE];
    __shared__ float Bs[MM_TILE][MM_TILE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < MM_TILE; ++k)
      cSub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  int c = wB * MM_TILE * by + MM_TILE * bx;
  C[c + wB * ty + tx] = cSub;
}

namespace smc::workloads::mm {
namespace {

constexpr size_t kSampledRows = 128;

class MmWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = generate(params, seed);
    sampled.reset();
    dA.upload(problem.a);
    dB.upload(problem.b);
    dC.allocate(size_t(problem.m) * problem.n);
  }

  void run(cudaStream_t stream) override {
    dim3 block(MM_TILE, MM_TILE);
    dim3 grid(problem.n / MM_TILE, problem.m / MM_TILE);
    mm_tiled<<<grid, block, 0, stream>>>(dC.get(), dA.get(), dB.get(),
                                         problem.k, problem.n);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void resetOutputs(cudaStream_t stream) override { dC.poison(stream); }

  CheckResult check() override {
    waitForDevice();
    std::vector<float> got;
    dC.download(got);
    return sampled(problem, got);
  }

  RunEstimate estimate() const override {
    double m = problem.m, n = problem.n, k = problem.k;
    return {(m * k + k * n + m * n) * 4, 2 * m * n * k};
  }

private:
  Problem problem;
  SampledRowsCheck sampled{kSampledRows, 7};
  DeviceBuffer<float> dA, dB, dC;
};

} // namespace

std::unique_ptr<Workload> create() { return std::make_unique<MmWorkload>(); }

} // namespace smc::workloads::mm
