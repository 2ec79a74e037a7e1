//===- ReserveTest.cu - Room kept on every SM for a reserved kernel -------===//
//
// Policy::reserve (runtime/priority/Reserve.h): once a kernel of that
// policy has launched, best-effort SM-centric launches leave room on every
// SM for one of its CTAs.  These tests require:
//  - a best-effort launch never has more chunks running at once on an SM
//    than leave room for one reserved CTA (threads bind here: 128-thread
//    chunks beside a 256-thread CTA), and each of its chunks runs once;
//  - a reserved launch made while that best-effort launch holds every SM
//    completes before it ends, each of its CTAs once, on a stream of the
//    least priority (reserve makes it urgent; it takes no SMs);
//  - while best-effort launches keep room, a reserved launch of at most
//    one CTA per SM runs with just over half an SM's shared memory per
//    CTA, so that no two of its CTAs share an SM; before any did, and a
//    larger one, as requested;
//  - once no policy has `reserve`, best-effort launches fill SMs again.
// Across processes: TenantsTest.cu.
// Timings are not conditions; smc_tail_bench (bench/corun/tail.cu)
// measures them.
//===----------------------------------------------------------------------===//
#include "ChunksOnAnSm.cuh"
#include "GpuTest.h"

#include <chrono>

using namespace smctest;

// A best-effort chunk (ChunksOnAnSm.cuh).
__global__ void reserveBestEffort(uint32_t *Counts, uint32_t *Running,
                                  uint32_t *MostRunning, uint32_t *Started,
                                  unsigned long long Nanoseconds) {
  countChunksOnAnSm(Counts, Running, MostRunning, Started, Nanoseconds);
}

// A reserved kernel: 256-thread CTAs that count themselves and the CTAs of
// their launch on their SM, and record the dynamic shared memory they got.
__global__ void reservedCtas(uint32_t *Counts, uint32_t *PerSm,
                             uint32_t *DynamicBytes) {
  __syncthreads();
  if (threadIdx.x == 0) {
    uint32_t Dynamic;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(Dynamic));
    atomicAdd(&Counts[blockIdx.x], 1u);
    atomicAdd(&PerSm[__nvvm_read_ptx_sreg_smid()], 1u);
    atomicMax(DynamicBytes, Dynamic);
  }
}

namespace {

// The largest of a device array's values (0 where it cannot be read).
uint32_t largest(const DeviceArray<uint32_t> &Values) {
  std::vector<uint32_t> Host;
  if (Values.download(Host) != cudaSuccess || Host.empty())
    return 0;
  return *std::max_element(Host.begin(), Host.end());
}

// One reserved launch's CTAs, where they ran and what they got.
struct Reserved {
  DeviceArray<uint32_t> Counts, PerSm, DynamicBytes;
  uint32_t Ctas = 0;

  cudaError_t init(uint32_t N, unsigned Sms) {
    Ctas = N;
    cudaError_t Err = allocateZeroed(N, Counts);
    if (Err == cudaSuccess)
      Err = allocateZeroed(Sms, PerSm);
    return Err == cudaSuccess ? allocateZeroed(1, DynamicBytes) : Err;
  }
  cudaError_t launch(cudaStream_t Stream) {
    reservedCtas<<<Ctas, 256, 0, Stream>>>(Counts.get(), PerSm.get(),
                                           DynamicBytes.get());
    return cudaGetLastError();
  }
  uint32_t mostOnOneSm() const { return largest(PerSm); }
  uint32_t dynamicBytes() const {
    std::vector<uint32_t> Bytes;
    return DynamicBytes.download(Bytes) == cudaSuccess ? Bytes[0] : 0;
  }
};

// Whether two CTAs of `Dynamic` bytes of dynamic shared memory exceed an
// SM's shared memory (with the per-CTA reservation).
bool twoExceedAnSm(uint32_t Dynamic) {
  int PerSm = 0, Reserved = 0;
  if (cudaDeviceGetAttribute(&PerSm,
                             cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                             0) != cudaSuccess ||
      cudaDeviceGetAttribute(&Reserved, cudaDevAttrReservedSharedMemoryPerBlock,
                             0) != cudaSuccess)
    return false;
  return 2 * (uint64_t(Dynamic) + uint64_t(Reserved)) > uint64_t(PerSm);
}

} // namespace

namespace {

class Reserve : public SmcGpuTest {
protected:
  void SetUp() override {
    SmcGpuTest::SetUp();
    smc::setPolicy(reserveBestEffort, smc::Policy::smCentric());
    smc::Policy Reserved = smc::Policy::original();
    Reserved.reserve = true;
    smc::setPolicy(reservedCtas, Reserved);
  }
};

struct BestEffort {
  DeviceArray<uint32_t> Counts, Running, MostRunning;
  MappedWord Started;
  uint32_t Chunks = 0;

  cudaError_t init(uint32_t N, unsigned Sms) {
    Chunks = N;
    cudaError_t Err = allocateZeroed(N, Counts);
    if (Err == cudaSuccess)
      Err = allocateZeroed(Sms, Running, MostRunning);
    return Err == cudaSuccess ? Started.reset() : Err;
  }
  cudaError_t launch(cudaStream_t Stream, unsigned long long Nanoseconds) {
    reserveBestEffort<<<Chunks, 128, 0, Stream>>>(Counts.get(), Running.get(),
                                                  MostRunning.get(),
                                                  Started.get(), Nanoseconds);
    return cudaGetLastError();
  }
  uint32_t mostOnOneSm() const { return largest(MostRunning); }
};

TEST_F(Reserve, BestEffortLeavesRoomAndTheReservedKernelGetsIn) {
  SMC_SKIP_UNDER_STATS("no reserved launch arrives while a best-effort one "
                       "runs");
  unsigned Sms = numSMs();
  int Fit = 0;
  SMC_CUDA_ASSERT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &Fit, reserveBestEffort, 128, 0));
  ASSERT_GE(Fit, 4);
  cudaStream_t Low, Other;
  SMC_CUDA_ASSERT(cudaStreamCreateWithFlags(&Low, cudaStreamNonBlocking));
  SMC_CUDA_ASSERT(cudaStreamCreateWithFlags(&Other, cudaStreamNonBlocking));

  // More CTAs than SMs: they must share SMs, and get what they asked for.
  Reserved Wide;
  SMC_CUDA_ASSERT(Wide.init(2 * Sms, Sms));
  SMC_CUDA_ASSERT(Wide.launch(Other));
  SMC_CUDA_ASSERT(cudaStreamSynchronize(Other));
  ASSERT_TRUE(allCountsAre(Wide.Counts, 1, "reserved"));
  EXPECT_EQ(Wide.dynamicBytes(), 0u);

  // The reserved kernel's first launch: its footprint is known from now on.
  uint32_t Half = std::min(64u, Sms / 2);
  Reserved First, Second;
  SMC_CUDA_ASSERT(First.init(Half, Sms));
  SMC_CUDA_ASSERT(Second.init(Half, Sms));
  SMC_CUDA_ASSERT(First.launch(Other));
  SMC_CUDA_ASSERT(cudaStreamSynchronize(Other));
  ASSERT_TRUE(allCountsAre(First.Counts, 1, "reserved"));
  EXPECT_EQ(First.dynamicBytes(), 0u)
      << "no best-effort launch keeps room yet: the launch runs as requested";

  // About 200 rounds of 100 us chunks on every SM.
  BestEffort Long;
  SMC_CUDA_ASSERT(Long.init(uint32_t(Fit) * Sms * 200, Sms));
  SMC_CUDA_ASSERT(Long.launch(Low, 100000));
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (Long.Started.value() < 2u * uint32_t(Fit) * Sms &&
         std::chrono::steady_clock::now() < Deadline) {
  }
  ASSERT_GE(Long.Started.value(), 2u * uint32_t(Fit) * Sms)
      << "the best-effort launch did not get going";
  SMC_CUDA_ASSERT(Second.launch(Other));
  SMC_CUDA_ASSERT(cudaStreamSynchronize(Other));
  EXPECT_EQ(cudaStreamQuery(Low), cudaErrorNotReady)
      << "the best-effort launch ended before the reserved one";
  cudaGetLastError();
  SMC_CUDA_SYNC_ASSERT();
  ASSERT_TRUE(allCountsAre(Second.Counts, 1, "reserved"));
  EXPECT_TRUE(twoExceedAnSm(Second.dynamicBytes()))
      << "a reserved CTA beside room kept got " << Second.dynamicBytes()
      << " bytes of dynamic shared memory: two may share an SM";
  EXPECT_EQ(Second.mostOnOneSm(), 1u)
      << "reserved CTAs shared an SM beside the best effort";
  ASSERT_TRUE(allCountsAre(Long.Counts, 1, "best-effort"));
  // Room for 256 threads on every SM: at most 2048 / 128 - 2 chunks.
  int Beside = chunksBeside(Fit, 256);
  ASSERT_GE(Beside, 0);
  uint32_t Bound = uint32_t(Beside);
  EXPECT_LE(Long.mostOnOneSm(), Bound)
      << "a best-effort SM left no room for a reserved CTA";
  EXPECT_GE(Long.mostOnOneSm(), 1u);

  // No policy reserves any more: the room is given back.
  smc::setPolicy(reservedCtas, smc::Policy::original());
  BestEffort Again;
  SMC_CUDA_ASSERT(Again.init(uint32_t(Fit) * Sms * 20, Sms));
  SMC_CUDA_ASSERT(Again.launch(Low, 100000));
  SMC_CUDA_SYNC_ASSERT();
  ASSERT_TRUE(allCountsAre(Again.Counts, 1, "best-effort"));
  EXPECT_GT(Again.mostOnOneSm(), Bound)
      << "best-effort launches still left room with no policy reserving it";
  cudaStreamDestroy(Low);
  cudaStreamDestroy(Other);
}

} // namespace
