//===- beside_workers.cu - Does a launch start beside running workers? ----===//
//
// A probe, compiled with the plugin: a long compute-bound kernel runs as
// its SM-centric variant with one worker per SM fewer than fit (so every SM
// keeps a free slot, smc(workers=fit-1)), and a short kernel of 32 CTAs is
// launched on another stream a third into it.  Every chunk of the short
// kernel records its start, its end and its SM (%globaltimer, %smid); the
// long kernel records its first chunk's start and its last chunk's end.  So
// the probe tells apart the two ways a short launch can end late: its
// chunks start late (its CTAs are not placed beside the running workers),
// or they run early and the launch ends late (what follows its last chunk
// waits).  Modes, interleaved over repetitions:
//
//   original      the short kernel's original
//   original/shared  an original that also uses 48 bytes of static shared
//                 memory (as a variant's worker state does)
//   smc           its SM-centric variant (default policy: workers for every
//                 SM, most of which retreat)
//   smc/no-long   the short kernel's SM-centric variant alone (reference)
//
// With --carveout both kernels (and so their variants) prefer the largest
// shared memory carveout: one configuration for both.
//
// With --long-loads the long kernel is memory-bound (its warps stall on
// loads) instead of chains of FMAs (its warps never stall).
//
//   smc_beside_workers [--reps N] [--carveout] [--short-ctas N (32)]
//                      [--long-loads]
//
// Prints per mode the medians (ms, from the long kernel's first chunk) of
// the short launch's enqueue, its first chunk's start, its last chunk's end,
// the long kernel's end, the short launch's latency (events) and on how many
// SMs its chunks ran.
//===----------------------------------------------------------------------===//
#include "../corun/FmaChunk.cuh"
#include "smc/smc.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define CHECK(Expr)                                                            \
  do {                                                                         \
    cudaError_t Err_ = (Expr);                                                 \
    if (Err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s: %s\n", #Expr, cudaGetErrorString(Err_));       \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__device__ unsigned long long now() {
  return __nvvm_read_ptx_sreg_globaltimer();
}

// Chains of FMAs; the first chunk to start and the last to end stamp Times.
__global__ void longChunks(int Iterations, float *Sink,
                           unsigned long long *Times) {
  if (threadIdx.x == 0)
    atomicMin(&Times[0], now());
  fmaChunk(Iterations, Sink);
  if (threadIdx.x == 0)
    atomicMax(&Times[1], now());
}

// The same length of memory-bound work: every thread sums Iterations
// loads spread over a 256 MiB buffer, so its warps stall on memory.
__global__ void longLoads(int Iterations, float *Sink,
                          unsigned long long *Times, const float *In,
                          unsigned Mask) {
  if (threadIdx.x == 0)
    atomicMin(&Times[0], now());
  unsigned I = (blockIdx.x * blockDim.x + threadIdx.x) * 977u;
  float Sum = 0;
  for (int K = 0; K < Iterations; ++K) {
    Sum += In[I & Mask];
    I += 1048573u;
  }
  __syncthreads();
  if (Sum == 12345.0f)
    Sink[blockIdx.x] = Sum;
  if (threadIdx.x == 0)
    atomicMax(&Times[1], now());
}

// 5 us spins; each chunk records its start, end and SM.
__global__ void shortChunks(unsigned long long *Start, unsigned long long *End,
                            unsigned *Sm) {
  unsigned long long Begin = now();
  while (now() - Begin < 5000) {
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    Start[blockIdx.x] = Begin;
    End[blockIdx.x] = now();
    Sm[blockIdx.x] = __nvvm_read_ptx_sreg_smid();
  }
}

// The same with 48 bytes of static shared memory, as much as a variant's
// worker state.
__global__ void shortChunksShared(unsigned long long *Start,
                                  unsigned long long *End, unsigned *Sm) {
  __shared__ unsigned Scratch[12];
  unsigned long long Begin = now();
  if (threadIdx.x < 12)
    Scratch[threadIdx.x] = unsigned(Begin);
  while (now() - Begin < 5000) {
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    Start[blockIdx.x] = Begin + (Scratch[blockIdx.x % 12] == 1u);
    End[blockIdx.x] = now();
    Sm[blockIdx.x] = __nvvm_read_ptx_sreg_smid();
  }
}

// Stamps the time the short launch is enqueued behind (on its stream).
__global__ void stamp(unsigned long long *At) { *At = now(); }

namespace {

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V.empty() ? 0 : V[V.size() / 2];
}

} // namespace

int main(int Argc, char **Argv) {
  int Reps = 7;
  bool Carveout = false;
  unsigned ShortCtas = 32;
  bool Loads = false; // the long kernel: longLoads, else longChunks
  for (int I = 1; I < Argc; ++I)
    if (!std::strcmp(Argv[I], "--reps") && I + 1 < Argc)
      Reps = std::atoi(Argv[++I]);
    else if (!std::strcmp(Argv[I], "--carveout"))
      Carveout = true;
    else if (!std::strcmp(Argv[I], "--long-loads"))
      Loads = true;
    else if (!std::strcmp(Argv[I], "--short-ctas") && I + 1 < Argc)
      ShortCtas = unsigned(std::max(1, std::atoi(Argv[++I])));
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) != cudaSuccess) {
    std::printf("SKIPPED: no CUDA GPU\n");
    return 77;
  }
  const unsigned Sms = unsigned(Prop.multiProcessorCount), Threads = 128;
  int Fit = 0;
  const void *LongKernel =
      Loads ? (const void *)longLoads : (const void *)longChunks;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Fit, LongKernel, Threads,
                                                      0));
  const unsigned LongCtas = unsigned(Fit) * Sms * 40;
  float *Sink;
  unsigned long long *Times, *Start, *End, *Enqueued;
  unsigned *Sm;
  CHECK(cudaMalloc(&Sink, LongCtas * sizeof(float)));
  CHECK(cudaMalloc(&Times, 2 * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&Start, ShortCtas * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&End, ShortCtas * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&Enqueued, sizeof(unsigned long long)));
  CHECK(cudaMalloc(&Sm, ShortCtas * sizeof(unsigned)));
  cudaStream_t Long, Short;
  CHECK(cudaStreamCreateWithFlags(&Long, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&Short, cudaStreamNonBlocking));
  cudaEvent_t Begin, Finish;
  CHECK(cudaEventCreate(&Begin));
  CHECK(cudaEventCreate(&Finish));
  if (Carveout)
    for (const void *Kernel : {LongKernel, (const void *)shortChunks})
      CHECK(cudaFuncSetAttribute(Kernel,
                                 cudaFuncAttributePreferredSharedMemoryCarveout,
                                 int(cudaSharedmemCarveoutMaxShared)));
  smc::setPolicy(stamp, smc::Policy::original());
  smc::setPolicy(shortChunksShared, smc::Policy::original());
  int Iterations = 4096;
  constexpr unsigned LoadWords = 1u << 26; // 256 MiB of floats
  float *In = nullptr;
  if (Loads) {
    CHECK(cudaMalloc(&In, LoadWords * sizeof(float)));
    CHECK(cudaMemset(In, 0, LoadWords * sizeof(float)));
    Iterations = 64;
  }
  auto LaunchLong = [&] {
    if (Loads)
      longLoads<<<LongCtas, Threads, 0, Long>>>(Iterations, Sink, Times, In,
                                                LoadWords - 1);
    else
      longChunks<<<LongCtas, Threads, 0, Long>>>(Iterations, Sink, Times);
  };

  // One sample: {enqueue, first start, last end, long end} in ms from the
  // long kernel's first chunk, and the short launch's latency in ms.
  auto Run = [&](const std::string &Mode, std::vector<double> &Out) {
    bool WithLong = Mode != "smc/no-long";
    smc::setPolicy(shortChunks, Mode == "original" ? smc::Policy::original()
                                                   : smc::Policy::smCentric());
    unsigned long long Init[2] = {~0ull, 0};
    CHECK(cudaMemcpy(Times, Init, sizeof(Init), cudaMemcpyHostToDevice));
    if (WithLong) {
      LaunchLong();
      CHECK(cudaGetLastError());
      std::this_thread::sleep_for(std::chrono::microseconds(1300));
    }
    stamp<<<1, 1, 0, Short>>>(Enqueued);
    CHECK(cudaEventRecord(Begin, Short));
    if (Mode == "original/shared")
      shortChunksShared<<<ShortCtas, Threads, 0, Short>>>(Start, End, Sm);
    else
      shortChunks<<<ShortCtas, Threads, 0, Short>>>(Start, End, Sm);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(Finish, Short));
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned long long> S(ShortCtas), E(ShortCtas), T(2), Q(1);
    std::vector<unsigned> Where(ShortCtas);
    CHECK(cudaMemcpy(Where.data(), Sm, ShortCtas * 4, cudaMemcpyDeviceToHost));
    std::sort(Where.begin(), Where.end());
    double DistinctSms =
        double(std::unique(Where.begin(), Where.end()) - Where.begin());
    CHECK(cudaMemcpy(S.data(), Start, ShortCtas * 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(E.data(), End, ShortCtas * 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(T.data(), Times, 16, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(Q.data(), Enqueued, 8, cudaMemcpyDeviceToHost));
    float Latency = 0;
    CHECK(cudaEventElapsedTime(&Latency, Begin, Finish));
    unsigned long long Zero = WithLong ? T[0] : Q[0];
    auto Ms = [Zero](unsigned long long At) {
      return (double(At) - double(Zero)) / 1e6;
    };
    Out = {Ms(Q[0]),
           Ms(*std::min_element(S.begin(), S.end())),
           Ms(*std::max_element(E.begin(), E.end())),
           WithLong ? Ms(T[1]) : 0.0,
           Latency,
           DistinctSms};
  };

  // Calibrate the long kernel to about 4 ms alone (as smc_qos_bench).
  {
    smc::setPolicyForSymbol(LongKernel, smc::Policy::original());
    for (int I = 0; I < 2; ++I) {
      CHECK(cudaEventRecord(Begin, Long));
      LaunchLong();
      CHECK(cudaEventRecord(Finish, Long));
      CHECK(cudaEventSynchronize(Finish));
      float Ms = 0;
      CHECK(cudaEventElapsedTime(&Ms, Begin, Finish));
      Iterations = std::max(1, int(Iterations * 4.0 / Ms));
    }
    smc::setPolicyForSymbol(LongKernel,
                            smc::Policy::smCentric(unsigned(Fit) - 1));
  }

  const std::vector<std::string> Modes = {"original", "original/shared", "smc",
                                          "smc/no-long"};
  std::vector<std::vector<std::vector<double>>> Samples(Modes.size());
  std::vector<double> Sample;
  for (const std::string &Mode : Modes) // warm-up
    Run(Mode, Sample);
  for (int R = 0; R < Reps; ++R)
    for (size_t M = 0; M < Modes.size(); ++M) {
      Run(Modes[M], Sample);
      Samples[M].push_back(Sample);
    }
  std::printf("%s, %u SMs, long kernel %u CTAs of %u threads (%d fit per "
              "SM, %d workers per SM, %s), carveout %s, %d repetitions; ms "
              "from the long kernel's first chunk (no-long: from the "
              "enqueue)\n",
              Prop.name, Sms, LongCtas, Threads, Fit, Fit - 1,
              Loads ? "loads" : "FMA chains",
              Carveout ? "largest" : "the driver's", Reps);
  std::printf("%-16s %9s %12s %11s %9s %10s %5s\n", "short kernel", "enqueued",
              "first start", "last end", "long end", "latency", "SMs");
  for (size_t M = 0; M < Modes.size(); ++M) {
    auto Column = [&](size_t C) {
      std::vector<double> V;
      for (const std::vector<double> &S : Samples[M])
        V.push_back(S[C]);
      return median(V);
    };
    std::printf("%-16s %9.3f %12.3f %11.3f %9.3f %10.3f %5.0f\n",
                Modes[M].c_str(), Column(0), Column(1), Column(2), Column(3),
                Column(4), Column(5));
  }
  return 0;
}
