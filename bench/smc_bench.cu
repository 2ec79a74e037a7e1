//===- smc_bench.cu - Google Benchmark of SMC variants against originals --===//
//
// Five workloads, each timed as the original kernel, as its SM-centric
// variant at the original's occupancy and as one slice:
//   vecAdd   1-D vector add, memory bound (2^28 floats)
//   matMul   2048^2 fp32 matrix multiply with 32x32 shared-memory tiles
//   reduce   tree reduction per CTA + atomicAdd of the partials (2^29 floats)
//   stencil  1-D 9-point stencil with `if (i >= n) return;` before the
//            barrier (2^28 floats)
//   gather   out[i] = in[idx[i]] with random idx (2^26 elements)
// Benchmarks are named <workload>/<original|smc|slice>; each iteration times
// one launch with CUDA events (manual time) after a few warm-up launches.
// Before the first timing of a workload, each variant's output is compared
// bit for bit with the original's; a variant that differs is reported as an
// error instead of timed.  The launch-path benchmarks live in
// launch_path.cpp (compiled without the plugin).
//
// USAGE: smc_bench --benchmark_repetitions=5 \
//          --benchmark_enable_random_interleaving=true \
//          --benchmark_out=bench.json --benchmark_out_format=json
//        (scripts/run_bench.sh does this and plots the result)
//===----------------------------------------------------------------------===//
#include "launch_path.h"

#include "smc/smc.h"

#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

//===--- Kernels ----------------------------------------------------------===//

__global__ void smcBenchEmptyKernel() {}

const void *emptyKernelSymbol() {
  return reinterpret_cast<const void *>(smcBenchEmptyKernel);
}

__device__ inline uint32_t hash32(uint32_t X) {
  X ^= X >> 16;
  X *= 0x85ebca6bu;
  X ^= X >> 13;
  X *= 0xc2b2ae35u;
  X ^= X >> 16;
  return X;
}

// Setup kernels (run with policy original).
__global__ void fillRandom(float *P, size_t N, uint32_t Seed) {
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
       I += size_t(gridDim.x) * blockDim.x)
    P[I] = static_cast<float>(hash32(static_cast<uint32_t>(I) ^ Seed) >> 8) *
               (2.0f / 16777216.0f) -
           1.0f;
}

__global__ void fillIndices(uint32_t *P, size_t N, uint32_t Range,
                            uint32_t Seed) {
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
       I += size_t(gridDim.x) * blockDim.x)
    P[I] = hash32(static_cast<uint32_t>(I) * 2654435761u ^ Seed) % Range;
}

// Counts the 32-bit words in which A and B differ.
__global__ void countDiffs(const uint32_t *A, const uint32_t *B, size_t N,
                           unsigned long long *Count) {
  unsigned long long Local = 0;
  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x; I < N;
       I += size_t(gridDim.x) * blockDim.x)
    Local += A[I] != B[I];
  if (Local)
    atomicAdd(Count, Local);
}

// The workloads.
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

//===--- Workloads --------------------------------------------------------===//

namespace {

#define BENCH_CHECK(Expr)                                                      \
  do {                                                                         \
    cudaError_t Err_ = (Expr);                                                 \
    if (Err_ != cudaSuccess)                                                   \
      return std::string(#Expr) + ": " + cudaGetErrorString(Err_);             \
  } while (0)

unsigned ceilDiv(size_t A, size_t B) { return unsigned((A + B - 1) / B); }

/// Device memory freed at exit.
class DeviceMemory {
public:
  ~DeviceMemory() {
    for (void *P : Blocks)
      cudaFree(P);
  }
  template <typename T> cudaError_t alloc(T *&Ptr, size_t Count) {
    cudaError_t Err =
        cudaMalloc(reinterpret_cast<void **>(&Ptr), Count * sizeof(T));
    if (Err == cudaSuccess)
      Blocks.push_back(Ptr);
    return Err;
  }

private:
  std::vector<void *> Blocks;
};

/// One workload: its kernel, setup, one launch, and the outputs compared
/// between variants.
struct Workload {
  std::string Name;
  const void *Kernel = nullptr;
  unsigned Chunks = 0;
  double BytesPerLaunch = 0, FlopsPerLaunch = 0;
  std::function<std::string(DeviceMemory &)> Setup; // "" or an error
  std::function<void(cudaStream_t)> Launch;
  // Outputs as (pointer, bytes); compared bit for bit between variants.
  std::vector<std::pair<void *, size_t>> Outputs;

  bool Prepared = false;
  std::string SetupError;
  std::map<std::string, std::string> VariantError; // variant -> mismatch
  DeviceMemory Memory;
};

struct VariantSpec {
  const char *Name;
  smc::Policy Policy;
};

const std::vector<VariantSpec> &variants() {
  static const std::vector<VariantSpec> V = {
      {"original", smc::Policy::original()},
      {"smc", smc::Policy::smCentric()},
      {"slice", smc::Policy::slice(0)}};
  return V;
}

/// Runs the workload once under every variant and records, per variant,
/// whether its outputs equal the original's bit for bit.
std::string verifyVariants(Workload &W, cudaStream_t Stream) {
  smc::setPolicy(countDiffs, smc::Policy::original());
  unsigned long long *DiffCount = nullptr;
  BENCH_CHECK(W.Memory.alloc(DiffCount, 1));
  DeviceMemory Scratch; // The original's outputs, freed on return.
  std::vector<uint32_t *> Ref;
  for (auto &[Ptr, Bytes] : W.Outputs) {
    uint32_t *Copy = nullptr;
    BENCH_CHECK(Scratch.alloc(Copy, Bytes / 4));
    Ref.push_back(Copy);
  }
  for (const VariantSpec &V : variants()) {
    smc::setPolicyForSymbol(W.Kernel, V.Policy);
    for (auto &[Ptr, Bytes] : W.Outputs)
      BENCH_CHECK(cudaMemsetAsync(Ptr, 0xA5, Bytes, Stream));
    W.Launch(Stream);
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaStreamSynchronize(Stream));
    for (size_t I = 0; I < W.Outputs.size(); ++I) {
      auto [Ptr, Bytes] = W.Outputs[I];
      if (std::string(V.Name) == "original") {
        // On Stream: a plain cudaMemcpy would run on the legacy stream and
        // race with the next variant's poisoning memset on Stream.
        BENCH_CHECK(cudaMemcpyAsync(Ref[I], Ptr, Bytes,
                                    cudaMemcpyDeviceToDevice, Stream));
        continue;
      }
      BENCH_CHECK(cudaMemsetAsync(DiffCount, 0, sizeof(*DiffCount), Stream));
      countDiffs<<<1024, 256, 0, Stream>>>(
          Ref[I], static_cast<const uint32_t *>(Ptr), Bytes / 4, DiffCount);
      BENCH_CHECK(cudaGetLastError());
      unsigned long long Diffs = 0;
      BENCH_CHECK(cudaMemcpyAsync(&Diffs, DiffCount, sizeof(Diffs),
                                  cudaMemcpyDeviceToHost, Stream));
      BENCH_CHECK(cudaStreamSynchronize(Stream));
      if (Diffs)
        W.VariantError[V.Name] = "output " + std::to_string(I) + " differs " +
                                 "from the original in " +
                                 std::to_string(Diffs) + " words";
    }
  }
  return "";
}

std::vector<std::unique_ptr<Workload>> makeWorkloads() {
  std::vector<std::unique_ptr<Workload>> All;
  auto Add = [&](const char *Name) {
    All.push_back(std::make_unique<Workload>());
    All.back()->Name = Name;
    return All.back().get();
  };

  {
    Workload *W = Add("vecAdd");
    constexpr size_t N = size_t(1) << 28;
    auto Buf = std::make_shared<std::array<float *, 3>>();
    W->Kernel = reinterpret_cast<const void *>(benchVecAdd);
    W->Chunks = ceilDiv(N, 256);
    W->BytesPerLaunch = 3.0 * 4 * N;
    W->Setup = [W, Buf](DeviceMemory &M) -> std::string {
      for (float *&P : *Buf)
        BENCH_CHECK(M.alloc(P, N));
      fillRandom<<<4096, 256>>>((*Buf)[0], N, 1);
      fillRandom<<<4096, 256>>>((*Buf)[1], N, 2);
      W->Outputs = {{(*Buf)[2], N * 4}};
      return "";
    };
    W->Launch = [W, Buf](cudaStream_t S) {
      benchVecAdd<<<W->Chunks, 256, 0, S>>>((*Buf)[0], (*Buf)[1], (*Buf)[2], N);
    };
  }
  {
    Workload *W = Add("matMul");
    constexpr int N = 2048;
    auto Buf = std::make_shared<std::array<float *, 3>>();
    W->Kernel = reinterpret_cast<const void *>(benchMatMul);
    W->Chunks = (N / kMatTile) * (N / kMatTile);
    W->FlopsPerLaunch = 2.0 * N * N * double(N);
    W->BytesPerLaunch = 3.0 * 4 * N * N;
    W->Setup = [W, Buf](DeviceMemory &M) -> std::string {
      for (float *&P : *Buf)
        BENCH_CHECK(M.alloc(P, size_t(N) * N));
      fillRandom<<<1024, 256>>>((*Buf)[0], size_t(N) * N, 3);
      fillRandom<<<1024, 256>>>((*Buf)[1], size_t(N) * N, 4);
      W->Outputs = {{(*Buf)[2], size_t(N) * N * 4}};
      return "";
    };
    W->Launch = [Buf](cudaStream_t S) {
      benchMatMul<<<dim3(N / kMatTile, N / kMatTile), dim3(kMatTile, kMatTile),
                    0, S>>>((*Buf)[0], (*Buf)[1], (*Buf)[2], N);
    };
  }
  {
    Workload *W = Add("reduce");
    constexpr size_t N = size_t(1) << 29;
    auto In = std::make_shared<float *>(),
         Partial = std::make_shared<float *>(),
         Total = std::make_shared<float *>();
    W->Kernel = reinterpret_cast<const void *>(benchReduce);
    W->Chunks = ceilDiv(N, kReduceBlock * kReducePerThread);
    W->BytesPerLaunch = 4.0 * N;
    W->Setup = [W, In, Partial, Total](DeviceMemory &M) -> std::string {
      BENCH_CHECK(M.alloc(*In, N));
      BENCH_CHECK(M.alloc(*Partial, W->Chunks));
      BENCH_CHECK(M.alloc(*Total, 1));
      fillRandom<<<4096, 256>>>(*In, N, 5);
      // The total depends on the order of the atomicAdds; compare partials.
      W->Outputs = {{*Partial, W->Chunks * 4ull}};
      return "";
    };
    W->Launch = [W, In, Partial, Total](cudaStream_t S) {
      benchReduce<<<W->Chunks, kReduceBlock, 0, S>>>(*In, *Partial, *Total, N);
    };
  }
  {
    Workload *W = Add("stencil");
    constexpr int N = (1 << 28) - 100; // not a multiple of the block size
    static_assert(((1 << 28) - 100) % kStencilBlock >= kStencilRadius, "");
    auto In = std::make_shared<float *>(), Out = std::make_shared<float *>();
    W->Kernel = reinterpret_cast<const void *>(benchStencil);
    W->Chunks = ceilDiv(N, kStencilBlock);
    W->BytesPerLaunch = 2.0 * 4 * N;
    W->Setup = [W, In, Out](DeviceMemory &M) -> std::string {
      BENCH_CHECK(M.alloc(*In, N));
      BENCH_CHECK(M.alloc(*Out, N));
      fillRandom<<<4096, 256>>>(*In, N, 6);
      W->Outputs = {{*Out, size_t(N) * 4}};
      return "";
    };
    W->Launch = [W, In, Out](cudaStream_t S) {
      benchStencil<<<W->Chunks, kStencilBlock, 0, S>>>(*In, *Out, N);
    };
  }
  {
    Workload *W = Add("gather");
    constexpr size_t N = size_t(1) << 26;
    auto In = std::make_shared<float *>(), Out = std::make_shared<float *>();
    auto Idx = std::make_shared<uint32_t *>();
    W->Kernel = reinterpret_cast<const void *>(benchGather);
    W->Chunks = ceilDiv(N, 256);
    W->BytesPerLaunch = 3.0 * 4 * N; // idx, out, and one in element each
    W->Setup = [W, In, Out, Idx](DeviceMemory &M) -> std::string {
      BENCH_CHECK(M.alloc(*In, N));
      BENCH_CHECK(M.alloc(*Out, N));
      BENCH_CHECK(M.alloc(*Idx, N));
      fillRandom<<<4096, 256>>>(*In, N, 7);
      fillIndices<<<4096, 256>>>(*Idx, N, uint32_t(N), 8);
      W->Outputs = {{*Out, N * 4}};
      return "";
    };
    W->Launch = [W, In, Out, Idx](cudaStream_t S) {
      benchGather<<<W->Chunks, 256, 0, S>>>(*In, *Idx, *Out, N);
    };
  }
  return All;
}

cudaStream_t benchStream() {
  static cudaStream_t S = [] {
    cudaStream_t X = nullptr;
    cudaStreamCreateWithFlags(&X, cudaStreamNonBlocking);
    return X;
  }();
  return S;
}

/// Allocates, fills and verifies W the first time one of its benchmarks
/// runs; returns "" or why W cannot be timed.
const std::string &prepare(Workload &W) {
  if (W.Prepared)
    return W.SetupError;
  W.Prepared = true;
  smc::setPolicy(fillRandom, smc::Policy::original());
  smc::setPolicy(fillIndices, smc::Policy::original());
  W.SetupError = W.Setup(W.Memory);
  if (W.SetupError.empty()) {
    cudaError_t Err = cudaDeviceSynchronize();
    if (Err == cudaSuccess)
      Err = cudaGetLastError();
    if (Err != cudaSuccess)
      W.SetupError = std::string("setup: ") + cudaGetErrorString(Err);
  }
  if (W.SetupError.empty())
    W.SetupError = verifyVariants(W, benchStream());
  return W.SetupError;
}

void timeWorkload(benchmark::State &State, Workload &W,
                  const VariantSpec &Variant) {
  const std::string &Error = prepare(W);
  if (!Error.empty()) {
    State.SkipWithError(Error.c_str());
    return;
  }
  auto Mismatch = W.VariantError.find(Variant.Name);
  if (Mismatch != W.VariantError.end()) {
    State.SkipWithError(Mismatch->second.c_str());
    return;
  }
  cudaStream_t S = benchStream();
  smc::setPolicyForSymbol(W.Kernel, Variant.Policy);
  cudaEvent_t Start = nullptr, Stop = nullptr;
  cudaEventCreate(&Start);
  cudaEventCreate(&Stop);
  for (int I = 0; I < 3; ++I)
    W.Launch(S);
  cudaError_t Err = cudaStreamSynchronize(S);
  for (auto _ : State) {
    if (Err != cudaSuccess)
      break;
    cudaEventRecord(Start, S);
    W.Launch(S);
    cudaEventRecord(Stop, S);
    Err = cudaEventSynchronize(Stop);
    float Ms = 0;
    if (Err == cudaSuccess)
      Err = cudaEventElapsedTime(&Ms, Start, Stop);
    State.SetIterationTime(Ms / 1e3);
  }
  if (Err == cudaSuccess)
    Err = cudaGetLastError();
  cudaEventDestroy(Start);
  cudaEventDestroy(Stop);
  if (Err != cudaSuccess) {
    State.SkipWithError(cudaGetErrorString(Err));
    return;
  }
  State.SetBytesProcessed(int64_t(W.BytesPerLaunch * State.iterations()));
  State.counters["chunks"] = W.Chunks;
  if (W.FlopsPerLaunch > 0)
    State.counters["FLOPS"] = benchmark::Counter(
        W.FlopsPerLaunch * State.iterations(), benchmark::Counter::kIsRate);
}

std::string attribute(cudaDeviceAttr A, double Scale, const char *Unit) {
  int V = 0;
  if (cudaDeviceGetAttribute(&V, A, 0) != cudaSuccess)
    return "unknown";
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.0f %s", V * Scale, Unit);
  return Buf;
}

} // namespace

int main(int Argc, char **Argv) {
  benchmark::Initialize(&Argc, Argv);
  if (benchmark::ReportUnrecognizedArguments(Argc, Argv))
    return 1;
  int Count = 0;
  cudaError_t Err = cudaGetDeviceCount(&Count);
  if (Err != cudaSuccess || Count == 0) {
    std::printf("SKIPPED: no CUDA GPU (%s)\n",
                Err != cudaSuccess ? cudaGetErrorString(Err)
                                   : "cudaGetDeviceCount found 0 devices");
    return 77;
  }
  cudaDeviceProp Prop;
  if ((Err = cudaGetDeviceProperties(&Prop, 0)) != cudaSuccess) {
    std::printf("smc_bench: %s\n", cudaGetErrorString(Err));
    return 1;
  }
  int Runtime = 0, Driver = 0;
  cudaRuntimeGetVersion(&Runtime);
  cudaDriverGetVersion(&Driver);
  benchmark::AddCustomContext("gpu", Prop.name);
  benchmark::AddCustomContext("gpu_sm_count",
                              std::to_string(Prop.multiProcessorCount));
  benchmark::AddCustomContext("gpu_cc", std::to_string(Prop.major) + "." +
                                            std::to_string(Prop.minor));
  benchmark::AddCustomContext("gpu_sm_clock",
                              attribute(cudaDevAttrClockRate, 1e-3, "MHz"));
  benchmark::AddCustomContext(
      "gpu_memory_clock", attribute(cudaDevAttrMemoryClockRate, 1e-3, "MHz"));
  benchmark::AddCustomContext("cuda_runtime", std::to_string(Runtime));
  benchmark::AddCustomContext("cuda_driver", std::to_string(Driver));
  for (const char *Var : {"SMC_POLICY", "SMC_DISABLE"})
    if (const char *Value = std::getenv(Var))
      benchmark::AddCustomContext(Var, Value);

  static std::vector<std::unique_ptr<Workload>> Workloads = makeWorkloads();
  for (auto &W : Workloads)
    for (const VariantSpec &V : variants()) {
      Workload *WP = W.get();
      const VariantSpec *VP = &V;
      benchmark::RegisterBenchmark(
          (W->Name + "/" + V.Name).c_str(),
          [WP, VP](benchmark::State &State) { timeWorkload(State, *WP, *VP); })
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  registerLaunchPathBenchmarks(unsigned(Prop.multiProcessorCount));

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
