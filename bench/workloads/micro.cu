//===- micro.cu - SMC's own workloads: kernels and GPU drivers ------------===//
//
// The kernels are smc_bench's, unchanged (names included), so that its
// timings and `ptxas -v` register counts stay comparable.
//===----------------------------------------------------------------------===//
#include "micro.h"

#include "Check.h"
#include "CudaSupport.cuh"

//===--- Kernels ----------------------------------------------------------===//

__global__ void benchVecAdd(const float *A, const float *B, float *C,
                            size_t N) {
  size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

constexpr int kMatTile = 32;

// C = A * B for N x N row-major matrices, N a multiple of kMatTile; one
// kMatTile x kMatTile block of threads per tile of C.
__global__ void benchMatMul(const float *A, const float *B, float *C, int N) {
  __shared__ float As[kMatTile][kMatTile];
  __shared__ float Bs[kMatTile][kMatTile + 1];
  int Row = blockIdx.y * kMatTile + threadIdx.y;
  int Col = blockIdx.x * kMatTile + threadIdx.x;
  float Acc = 0.0f;
  for (int T = 0; T < N; T += kMatTile) {
    As[threadIdx.y][threadIdx.x] = A[size_t(Row) * N + T + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[size_t(T + threadIdx.y) * N + Col];
    __syncthreads();
#pragma unroll
    for (int K = 0; K < kMatTile; ++K)
      Acc = __fmaf_rn(As[threadIdx.y][K], Bs[K][threadIdx.x], Acc);
    __syncthreads();
  }
  C[size_t(Row) * N + Col] = Acc;
}

constexpr int kReduceBlock = 256, kReducePerThread = 4;

// Each CTA sums kReduceBlock * kReducePerThread elements with a tree in
// shared memory, writes its partial and adds it to *Total.
__global__ void benchReduce(const float *In, float *Partial, float *Total,
                            size_t N) {
  __shared__ float S[kReduceBlock];
  size_t Base = blockIdx.x * size_t(kReduceBlock * kReducePerThread);
  float V = 0.0f;
#pragma unroll
  for (int K = 0; K < kReducePerThread; ++K) {
    size_t I = Base + K * kReduceBlock + threadIdx.x;
    if (I < N)
      V += In[I];
  }
  S[threadIdx.x] = V;
  __syncthreads();
  for (unsigned Stride = kReduceBlock / 2; Stride > 0; Stride >>= 1) {
    if (threadIdx.x < Stride)
      S[threadIdx.x] += S[threadIdx.x + Stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    Partial[blockIdx.x] = S[0];
    atomicAdd(Total, S[0]);
  }
}

constexpr int kStencilBlock = 256, kStencilRadius = 4;

// 1-D 9-point stencil; threads past the end return before the barrier.
// Positions outside [0, N) are never read, and N leaves at least
// kStencilRadius threads in the last CTA, so every value read was written.
__global__ void benchStencil(const float *In, float *Out, int N) {
  __shared__ float S[kStencilBlock + 2 * kStencilRadius];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int T = threadIdx.x + kStencilRadius;
  S[T] = In[I];
  if (threadIdx.x < kStencilRadius) {
    S[T - kStencilRadius] = I >= kStencilRadius ? In[I - kStencilRadius] : 0.f;
    int J = I + blockDim.x;
    S[T + blockDim.x] = J < N ? In[J] : 0.0f;
  }
  __syncthreads();
  float Acc = 0.0f;
#pragma unroll
  for (int K = -kStencilRadius; K <= kStencilRadius; ++K)
    if (I + K >= 0 && I + K < N)
      Acc = __fmaf_rn(1.0f / (2 * kStencilRadius + 1), S[T + K], Acc);
  Out[I] = Acc;
}

__global__ void benchGather(const float *In, const uint32_t *Idx, float *Out,
                            size_t N) {
  size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (I < N)
    Out[I] = In[Idx[I]];
}

//===--- Drivers ----------------------------------------------------------===//

namespace smc::workloads {

static_assert(matmul::kTile == kMatTile && treesum::kBlock == kReduceBlock &&
                  treesum::kPerThread == kReducePerThread &&
                  stencil9::kBlock == kStencilBlock &&
                  stencil9::kRadius == kStencilRadius,
              "micro.h and the kernels disagree");

namespace {

constexpr size_t kSampledRows = 128;
constexpr size_t kSampledElements = size_t(1) << 20;

class VecAddWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = vecadd::generate(params, seed);
    reference.clear();
    dA.upload(problem.a);
    dB.upload(problem.b);
    dC.allocate(problem.a.size());
  }
  void run(cudaStream_t stream) override {
    size_t n = problem.a.size();
    benchVecAdd<<<ceilDiv(n, vecadd::kBlock), vecadd::kBlock, 0, stream>>>(
        dA.get(), dB.get(), dC.get(), n);
    SMC_CUDA_CHECK_LAUNCH();
  }
  void resetOutputs(cudaStream_t stream) override { dC.poison(stream); }
  CheckResult check() override {
    waitForDevice();
    if (reference.empty())
      reference = vecadd::cpuReference(problem);
    std::vector<float> got;
    dC.download(got);
    return compareExact(got, reference, "c");
  }
  RunEstimate estimate() const override {
    double n = double(problem.a.size());
    return {3 * 4 * n, n};
  }

private:
  vecadd::Problem problem;
  std::vector<float> reference;
  DeviceBuffer<float> dA, dB, dC;
};

class MatMulWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = matmul::generate(params, seed);
    sampled.reset();
    dA.upload(problem.a);
    dB.upload(problem.b);
    dC.allocate(size_t(problem.n) * problem.n);
  }
  void run(cudaStream_t stream) override {
    int n = problem.n;
    benchMatMul<<<dim3(n / kMatTile, n / kMatTile), dim3(kMatTile, kMatTile), 0,
                  stream>>>(dA.get(), dB.get(), dC.get(), n);
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
    double n = problem.n;
    return {3 * 4 * n * n, 2 * n * n * n};
  }

private:
  mm::Problem problem;
  mm::SampledRowsCheck sampled{kSampledRows, 11};
  DeviceBuffer<float> dA, dB, dC;
};

class TreeSumWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = treesum::generate(params, seed);
    partials.clear();
    dIn.upload(problem.values);
    dPartial.allocate(problem.blocks());
    dTotal.allocate(1);
  }
  // The total is an accumulator: zeroed first, so that runs repeat.
  void run(cudaStream_t stream) override {
    dTotal.zero(stream);
    benchReduce<<<unsigned(problem.blocks()), kReduceBlock, 0, stream>>>(
        dIn.get(), dPartial.get(), dTotal.get(), problem.values.size());
    SMC_CUDA_CHECK_LAUNCH();
  }
  void resetOutputs(cudaStream_t stream) override {
    dPartial.poison(stream);
    dTotal.poison(stream);
  }
  CheckResult check() override {
    waitForDevice();
    if (partials.empty()) {
      partials = treesum::cpuPartials(problem);
      total = magnitude = 0;
      for (double p : partials) {
        total += p;
        magnitude += std::fabs(p);
      }
    }
    std::vector<float> gotPartials, gotTotal;
    dPartial.download(gotPartials);
    dTotal.download(gotTotal);
    CheckResult r = compareExactFloat(gotPartials.data(), partials.data(),
                                      partials.size(), "partial");
    // Every sum the atomics form is an integer below the sum of |partials|:
    // exact in fp32 below 2^24; above, each of the atomic additions rounds
    // by at most 2^-24 of that sum.
    if (magnitude < 16777216.0)
      r.merge(compareExactFloat(gotTotal.data(), &total, 1, "total"));
    else
      r.merge(compareScaled(gotTotal.data(), &total, &magnitude, 1,
                            double(partials.size()) * 0x1p-24, 0,
                            "|gpu-ref|/sum|partials|", "total"));
    return r;
  }
  RunEstimate estimate() const override {
    double n = double(problem.values.size());
    return {4 * n, n};
  }

private:
  treesum::Problem problem;
  std::vector<double> partials;
  double total = 0, magnitude = 0;
  DeviceBuffer<float> dIn, dPartial, dTotal;
};

class StencilWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = stencil9::generate(params, seed);
    sample.clear();
    dIn.upload(problem.in);
    dOut.allocate(problem.in.size());
  }
  void run(cudaStream_t stream) override {
    int n = int(problem.in.size());
    benchStencil<<<ceilDiv(size_t(n), kStencilBlock), kStencilBlock, 0,
                   stream>>>(dIn.get(), dOut.get(), n);
    SMC_CUDA_CHECK_LAUNCH();
  }
  void resetOutputs(cudaStream_t stream) override { dOut.poison(stream); }
  CheckResult check() override {
    waitForDevice();
    size_t n = problem.in.size();
    if (sample.empty()) {
      sample = sampleIndices(n, kSampledElements, 13);
      reference = stencil9::cpuReferenceAt(problem, sample);
    }
    std::vector<float> got, sampled(sample.size());
    dOut.download(got);
    for (size_t s = 0; s < sample.size(); ++s)
      sampled[s] = got[sample[s]];
    CheckResult r = compareExact(sampled, reference, "out");
    if (sample.size() < n) {
      r.merge(checkAllFinite(got.data(), n, "out"));
      r.detail += (r.detail.empty() ? "" : "; ") + countText(sample.size()) +
                  " of " + countText(n) + " elements compared";
    }
    return r;
  }
  RunEstimate estimate() const override {
    double n = double(problem.in.size());
    return {2 * 4 * n, 2 * (2 * kStencilRadius + 1) * n};
  }

private:
  stencil9::Problem problem;
  std::vector<size_t> sample;
  std::vector<float> reference;
  DeviceBuffer<float> dIn, dOut;
};

class GatherWorkload final : public Workload {
public:
  void setup(const Params &params, uint64_t seed) override {
    problem = gather::generate(params, seed);
    reference.clear();
    dIn.upload(problem.in);
    dIdx.upload(problem.idx);
    dOut.allocate(problem.in.size());
  }
  void run(cudaStream_t stream) override {
    size_t n = problem.idx.size();
    benchGather<<<ceilDiv(n, gather::kBlock), gather::kBlock, 0, stream>>>(
        dIn.get(), dIdx.get(), dOut.get(), n);
    SMC_CUDA_CHECK_LAUNCH();
  }
  void resetOutputs(cudaStream_t stream) override { dOut.poison(stream); }
  CheckResult check() override {
    waitForDevice();
    if (reference.empty())
      reference = gather::cpuReference(problem);
    std::vector<float> got;
    dOut.download(got);
    return compareExact(got, reference, "out");
  }
  // idx, out, and one in element each.
  RunEstimate estimate() const override {
    return {3 * 4 * double(problem.idx.size()), 0};
  }

private:
  gather::Problem problem;
  std::vector<float> reference;
  DeviceBuffer<float> dIn, dOut;
  DeviceBuffer<uint32_t> dIdx;
};

} // namespace

std::unique_ptr<Workload> vecadd::create() {
  return std::make_unique<VecAddWorkload>();
}
std::unique_ptr<Workload> matmul::create() {
  return std::make_unique<MatMulWorkload>();
}
std::unique_ptr<Workload> treesum::create() {
  return std::make_unique<TreeSumWorkload>();
}
std::unique_ptr<Workload> stencil9::create() {
  return std::make_unique<StencilWorkload>();
}
std::unique_ptr<Workload> gather::create() {
  return std::make_unique<GatherWorkload>();
}

} // namespace smc::workloads
