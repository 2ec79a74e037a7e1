//===- OrderedTest.cu - Kernels whose CTAs wait on each other -------------===//
//
// A chained scan in the shape of CUB's decoupled look-back: each CTA scans
// its tile, waits (cuda::atomic_ref acquire load, __nanosleep back-off) until
// its predecessor has published the running total, publishes its own and
// writes its outputs.  The plugin gives its __smc variant ordered mode
// (chunks claimed in blockIdx order).  Tested: bit-identical results under
// every policy, for the persistent and the one-chunk (divergent exit before
// a barrier) form, and completion while a co-runner holds half of the SMs -
// with per-SM queues the scan's chunks would sit in the busy SMs' queues
// while every other worker waits for them.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <cuda/atomic>

#include <algorithm>
#include <chrono>
#include <cstdio>

using namespace smctest;

// Kernels have external linkage (the runtime names them by source name, and
// check_stats.py looks for these names); helpers are internal.
namespace {
constexpr unsigned kBlock = 256;
} // namespace

// Publishes the running total of CTA b after waiting for CTA b - 1's.
// `ready` words are 1 once the total beside them is valid.
static __device__ uint32_t chainPrefix(uint32_t *ready, uint32_t *totals,
                                       unsigned b, uint32_t tileSum) {
  uint32_t prefix = 0;
  if (b > 0) {
    cuda::atomic_ref<uint32_t, cuda::thread_scope_device> flag(ready[b - 1]);
    while (flag.load(cuda::memory_order_acquire) == 0)
      __nanosleep(64);
    prefix = totals[b - 1];
  }
  totals[b] = prefix + tileSum;
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device> mine(ready[b]);
  mine.store(1, cuda::memory_order_release);
  return prefix;
}

// Inclusive scan of a tile in shared memory (Hillis-Steele) over `count`
// threads of the CTA.
static __device__ void tileScan(uint32_t *tile, unsigned t, unsigned count) {
  for (unsigned off = 1; off < count; off *= 2) {
    uint32_t x = t >= off && t < count ? tile[t - off] : 0;
    __syncthreads();
    if (t < count)
      tile[t] += x;
    __syncthreads();
  }
}

// Every thread reaches every barrier: persistent workers.
__global__ void chainedScan(const uint32_t *in, uint32_t *out, uint32_t *ready,
                            uint32_t *totals, unsigned n) {
  __shared__ uint32_t tile[kBlock];
  __shared__ uint32_t carry;
  unsigned t = threadIdx.x, b = blockIdx.x;
  unsigned i = b * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0;
  __syncthreads();
  tileScan(tile, t, blockDim.x);
  if (t == 0)
    carry = chainPrefix(ready, totals, b, tile[blockDim.x - 1]);
  __syncthreads();
  if (i < n)
    out[i] = carry + tile[t];
}

// Threads past the end leave before the barriers: one chunk per worker.
__global__ void chainedScanEarlyExit(const uint32_t *in, uint32_t *out,
                                     uint32_t *ready, uint32_t *totals,
                                     unsigned n) {
  __shared__ uint32_t tile[kBlock];
  __shared__ uint32_t carry;
  unsigned t = threadIdx.x, b = blockIdx.x;
  unsigned i = b * blockDim.x + t;
  if (i >= n)
    return;
  unsigned count = min(blockDim.x, n - b * blockDim.x);
  tile[t] = in[i];
  __syncthreads();
  tileScan(tile, t, count);
  if (t == 0)
    carry = chainPrefix(ready, totals, b, tile[count - 1]);
  __syncthreads();
  out[i] = carry + tile[t];
}

namespace {

using ScanKernel = void (*)(const uint32_t *, uint32_t *, uint32_t *,
                            uint32_t *, unsigned);

struct ScanRun {
  unsigned N;
  unsigned Blocks;
  std::vector<uint32_t> Input;
  DeviceArray<uint32_t> In, Out, Ready, Totals;

  explicit ScanRun(unsigned Size)
      : N(Size), Blocks((Size + kBlock - 1) / kBlock),
        Input(randomWords(Size, 7)) {
    for (uint32_t &X : Input)
      X &= 0xff;
  }
  cudaError_t allocate() {
    cudaError_t Err = In.upload(Input);
    if (Err == cudaSuccess)
      Err = Out.allocate(N);
    if (Err == cudaSuccess)
      Err = Ready.allocate(Blocks);
    if (Err == cudaSuccess)
      Err = Totals.allocate(Blocks);
    return Err;
  }
  std::vector<Buffer> buffers() const {
    return {{Out.get(), Out.bytes(), Buffer::Output, "out"},
            {Ready.get(), Ready.bytes(), Buffer::Counter, "ready flags", 1},
            {Totals.get(), Totals.bytes(), Buffer::Output, "tile totals"}};
  }
  LaunchFn launch(ScanKernel K, cudaStream_t Stream = nullptr) const {
    return [=] {
      K<<<Blocks, kBlock, 0, Stream>>>(In.get(), Out.get(), Ready.get(),
                                       Totals.get(), N);
      return cudaGetLastError();
    };
  }
  std::vector<uint32_t> expected() const {
    std::vector<uint32_t> Sums(N);
    uint32_t Acc = 0;
    for (unsigned I = 0; I < N; ++I)
      Sums[I] = Acc += Input[I];
    return Sums;
  }
};

std::vector<NamedPolicy> orderedPolicies(unsigned Blocks) {
  std::vector<NamedPolicy> Policies = standardPolicies(Blocks);
  Policies.push_back(
      {"smc(order=contiguous)",
       smc::Policy::smCentric(0, {}, smc::ChunkOrder::Contiguous)});
  Policies.push_back({"smc(workers=1,sms=0)", smc::Policy::smCentric(1, {0})});
  return Policies;
}

class OrderedTest : public SmcGpuTest {};

TEST_F(OrderedTest, ChainedScanUnderEveryPolicy) {
  // Not a multiple of the block: the last tile is partial.
  ScanRun Run((1u << 21) + 77);
  SMC_CUDA_ASSERT(Run.allocate());
  expectMatchesOriginal(symbolOf(chainedScan), Run.buffers(),
                        Run.launch(chainedScan), orderedPolicies(Run.Blocks));
  std::vector<uint32_t> Out;
  SMC_CUDA_ASSERT(Run.Out.download(Out));
  EXPECT_TRUE(Out == Run.expected()) << "the original's scan is wrong";
}

TEST_F(OrderedTest, ChainedScanWithEarlyExitUnderEveryPolicy) {
  ScanRun Run((1u << 21) + 77);
  SMC_CUDA_ASSERT(Run.allocate());
  expectMatchesOriginal(symbolOf(chainedScanEarlyExit), Run.buffers(),
                        Run.launch(chainedScanEarlyExit),
                        orderedPolicies(Run.Blocks));
}

// The scan must finish while half of the SMs are held by a co-runner (that
// holds them for up to 5 s); it runs on the other half.  Checked for the
// policies that matter most: the default and one worker per SM.
TEST_F(OrderedTest, ChainedScanFinishesWhileHalfTheGpuIsHeld) {
  ScanRun Run(1u << 22);
  SMC_CUDA_ASSERT(Run.allocate());
  cudaStream_t Stream;
  SMC_CUDA_ASSERT(cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking));
  const std::vector<NamedPolicy> Policies = {
      {"smc(default)", smc::Policy::smCentric()},
      {"smc(workers=1)", smc::Policy::smCentric(1)},
      {"original", smc::Policy::original()}};
  for (ScanKernel K : {chainedScan, chainedScanEarlyExit})
    for (const NamedPolicy &P : Policies) {
      SCOPED_TRACE(P.Name);
      smc::setPolicy(K, P.Value);
      // Once alone first: under CUDA's lazy module loading the first launch
      // of a function (here the variant) waits for running kernels, which
      // is loading, not ordering.
      resetBuffers(Run.buffers());
      SMC_CUDA_ASSERT(Run.launch(K, Stream)());
      SMC_CUDA_ASSERT(cudaStreamSynchronize(Stream));
      resetBuffers(Run.buffers());
      SmHog Hog;
      auto T0 = std::chrono::steady_clock::now();
      SMC_CUDA_ASSERT(Hog.start(std::max(1u, numSMs() / 2), 5.0));
      auto T1 = std::chrono::steady_clock::now();
      SMC_CUDA_ASSERT(Run.launch(K, Stream)());
      SMC_CUDA_ASSERT(cudaStreamSynchronize(Stream));
      auto T2 = std::chrono::steady_clock::now();
      using Ms = std::chrono::duration<double, std::milli>;
      std::printf("co-run %s: hog started in %.1f ms, scan took %.1f ms\n",
                  P.Name.c_str(), Ms(T1 - T0).count(), Ms(T2 - T1).count());
      EXPECT_TRUE(Hog.holding())
          << "the scan finished only after the co-runner let go of its SMs";
      SMC_CUDA_ASSERT(Hog.release());
      std::vector<uint32_t> Out;
      SMC_CUDA_ASSERT(Run.Out.download(Out));
      EXPECT_TRUE(Out == Run.expected()) << "wrong scan next to a co-runner";
    }
  SMC_CUDA_ASSERT(cudaStreamDestroy(Stream));
}

} // namespace
