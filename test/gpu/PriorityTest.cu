//===- PriorityTest.cu - SM-centric launches yield to urgent streams ------===//
//
// A launch on a stream of higher priority than the least (urgent) takes SMs
// from the SM-centric launches of best-effort streams while they run
// (smc::PriorityMode, runtime/priority/Priorities.cpp).  These tests require:
//  - an urgent launch (on an urgent stream, or of a kernel whose policy
//    marks it urgent), as the original or SM-centric, completes while a
//    best-effort SM-centric launch that holds every SM still runs (without
//    yielding it would wait for that launch's end);
//  - it runs on the SMs it took (an SM-centric urgent launch is confined to
//    them), and once it has given them back the best-effort launch gets
//    workers there again (top-up grids);
//  - exactly once for best-effort and urgent launches when urgent launches
//    of two streams and of every size arrive at random while best-effort
//    launches are queued or run, in every priority mode.
// Timings are not conditions here; bench/corun (smc_qos_bench) measures
// them.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

using namespace smctest;

//===--- Kernels ----------------------------------------------------------===//

// Each chunk counts itself, records its SM and start time, spins for
// Nanoseconds of %globaltimer and counts itself finished.
__global__ void bestEffortChunks(uint32_t *Counts, uint32_t *SmOf,
                                 unsigned long long *StartNs, uint32_t *Started,
                                 uint32_t *Finished,
                                 unsigned long long Nanoseconds) {
  uint32_t Chunk = blockIdx.x;
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  if (threadIdx.x == 0) {
    atomicAdd(Started, 1u);
    atomicAdd(&Counts[Chunk], 1u);
    SmOf[Chunk] = __nvvm_read_ptx_sreg_smid();
    StartNs[Chunk] = Begin;
  }
  while (__nvvm_read_ptx_sreg_globaltimer() - Begin < Nanoseconds) {
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(Finished, 1u);
  }
}

// Each chunk counts itself, records its SM, the most best-effort chunks it
// saw finished and when it ended.
__global__ void urgentChunks(uint32_t *Counts, uint32_t *SmOf,
                             const uint32_t *BestEffortFinished,
                             uint32_t *SeenFinished, unsigned long long *EndNs,
                             unsigned long long Nanoseconds) {
  uint32_t Chunk = blockIdx.x;
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  while (__nvvm_read_ptx_sreg_globaltimer() - Begin < Nanoseconds) {
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(&Counts[Chunk], 1u);
    SmOf[Chunk] = __nvvm_read_ptx_sreg_smid();
    atomicMax(SeenFinished,
              *reinterpret_cast<const volatile uint32_t *>(BestEffortFinished));
    atomicMax(EndNs, __nvvm_read_ptx_sreg_globaltimer());
  }
}

namespace {

class Priority : public SmcGpuTest {
protected:
  void TearDown() override {
    smc::setPriorityMode(smc::PriorityMode::Auto);
    SmcGpuTest::TearDown();
  }
};

// A stream of the least priority (as every stream created without one) or
// of the greatest.  Created through the plugin's rewrite of
// cudaStreamCreateWithPriority: an urgent one turns yielding on (Auto).
struct PriorityStream {
  cudaStream_t S = nullptr;
  explicit PriorityStream(bool Urgent, int Below = 0) {
    int Least = 0, Greatest = 0;
    cudaDeviceGetStreamPriorityRange(&Least, &Greatest);
    int Priority = Urgent ? std::min(Greatest + Below, Least - 1) : Least;
    cudaStreamCreateWithPriority(&S, cudaStreamNonBlocking, Priority);
  }
  ~PriorityStream() { cudaStreamDestroy(S); }
};

struct BestEffortRun {
  DeviceArray<uint32_t> Counts, SmOf, Finished;
  DeviceArray<unsigned long long> StartNs;
  MappedWord Started;
  uint32_t Chunks = 0;

  cudaError_t init(uint32_t N) {
    Chunks = N;
    cudaError_t Err = allocateZeroed(N, Counts, SmOf, StartNs);
    if (Err == cudaSuccess)
      Err = allocateZeroed(1, Finished);
    return Err == cudaSuccess ? Started.reset() : Err;
  }
  cudaError_t launch(cudaStream_t Stream, unsigned long long Nanoseconds) {
    bestEffortChunks<<<Chunks, 128, 0, Stream>>>(Counts.get(), SmOf.get(),
                                                 StartNs.get(), Started.get(),
                                                 Finished.get(), Nanoseconds);
    return cudaGetLastError();
  }
};

struct UrgentRun {
  DeviceArray<uint32_t> Counts, SmOf, SeenFinished;
  DeviceArray<unsigned long long> EndNs;
  uint32_t Chunks = 0;

  cudaError_t init(uint32_t N) {
    Chunks = N;
    cudaError_t Err = allocateZeroed(N, Counts, SmOf);
    return Err == cudaSuccess ? allocateZeroed(1, SeenFinished, EndNs) : Err;
  }
  cudaError_t launch(cudaStream_t Stream, const BestEffortRun &Other,
                     unsigned long long Nanoseconds, uint32_t Count = 0) {
    urgentChunks<<<Count ? Count : Chunks, 128, 0, Stream>>>(
        Counts.get(), SmOf.get(), Other.Finished.get(), SeenFinished.get(),
        EndNs.get(), Nanoseconds);
    return cudaGetLastError();
  }
};

template <typename T> T downloadOne(const DeviceArray<T> &Array) {
  std::vector<T> Host;
  return Array.download(Host) == cudaSuccess ? Host[0] : T();
}

// The urgent kernel's policy, by the name the test prints.  Marked: the
// policy makes its launches urgent (Policy::urgent), on a stream of the
// least priority; else the stream's priority does.
struct UrgentPolicy {
  const char *Name;
  smc::Policy Value;
  bool Marked = false;
};

smc::Policy marked(smc::Policy P) {
  P.urgent = true;
  return P;
}
void PrintTo(const UrgentPolicy &Policy, std::ostream *Out) {
  *Out << Policy.Name;
}
class UrgentWhileBestEffortRuns
    : public Priority,
      public ::testing::WithParamInterface<UrgentPolicy> {};

TEST_P(UrgentWhileBestEffortRuns, CompletesOnTakenSmsAndGivesThemBack) {
  SMC_SKIP_UNDER_STATS("no urgent launch arrives while a best-effort one runs");
  unsigned Sms = numSMs();
  smc::setPolicy(urgentChunks, GetParam().Value);
  PriorityStream Urgent(!GetParam().Marked), BestEffort(false);
  int Fit = 0;
  SMC_CUDA_ASSERT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &Fit, bestEffortChunks, 128, 0));
  ASSERT_GT(Fit, 0);
  // Every SM full of best-effort workers for ~400 rounds of 200 us chunks.
  BestEffortRun Long;
  SMC_CUDA_ASSERT(Long.init(uint32_t(Fit) * Sms * 400));
  UrgentRun Short;
  SMC_CUDA_ASSERT(Short.init(4)); // fits on one SM: it takes SM Sms - 1
  SMC_CUDA_ASSERT(Long.launch(BestEffort.S, 200000));
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (Long.Started.value() < 2u * uint32_t(Fit) * Sms &&
         std::chrono::steady_clock::now() < Deadline) {
  }
  ASSERT_GE(Long.Started.value(), 2u * uint32_t(Fit) * Sms)
      << "the best-effort launch did not get going";
  SMC_CUDA_ASSERT(Short.launch(Urgent.S, Long, 10000));
  SMC_CUDA_ASSERT(cudaStreamSynchronize(Urgent.S));
  EXPECT_EQ(cudaStreamQuery(BestEffort.S), cudaErrorNotReady)
      << "the best-effort launch ended before the urgent one";
  cudaGetLastError();
  SMC_CUDA_SYNC_ASSERT();
  ASSERT_TRUE(allCountsAre(Short.Counts, 1, "urgent"));
  ASSERT_TRUE(allCountsAre(Long.Counts, 1, "best-effort"));
  EXPECT_LT(downloadOne(Short.SeenFinished), Long.Chunks)
      << "the urgent launch ran only after every best-effort chunk";

  // It ran on the SM it took.
  std::vector<uint32_t> UrgentSms;
  SMC_CUDA_ASSERT(Short.SmOf.download(UrgentSms));
  for (uint32_t Sm : UrgentSms)
    EXPECT_EQ(Sm, Sms - 1) << "an urgent chunk ran outside the SM it took";

  // The best-effort launch ran chunks there again after the urgent launch
  // ended: a top-up grid gave it workers back (its keeper aside, no worker
  // of its own was left on that SM).
  unsigned long long UrgentEnd = downloadOne(Short.EndNs);
  std::vector<uint32_t> SmOf;
  std::vector<unsigned long long> StartNs;
  SMC_CUDA_ASSERT(Long.SmOf.download(SmOf));
  SMC_CUDA_ASSERT(Long.StartNs.download(StartNs));
  std::vector<uint32_t> LateOnTaken(Sms, 0);
  size_t Late = 0;
  for (uint32_t C = 0; C < Long.Chunks; ++C)
    if (StartNs[C] > UrgentEnd && SmOf[C] < Sms) {
      ++Late;
      ++LateOnTaken[SmOf[C]];
    }
  ASSERT_GT(Late, 0u) << "no best-effort chunk started after the urgent one";
  EXPECT_GT(LateOnTaken[Sms - 1], 1u)
      << "no best-effort worker came back to the SM the urgent launch took";
}

INSTANTIATE_TEST_SUITE_P(
    Priority, UrgentWhileBestEffortRuns,
    ::testing::Values(
        UrgentPolicy{"smc", smc::Policy::smCentric()},
        UrgentPolicy{"original", smc::Policy::original()},
        UrgentPolicy{"smc_marked", marked(smc::Policy::smCentric()), true},
        UrgentPolicy{"original_marked", marked(smc::Policy::original()), true}),
    [](const ::testing::TestParamInfo<UrgentPolicy> &Info) {
      return std::string(Info.param.Name);
    });

TEST_F(Priority, ExactlyOnceUnderRandomUrgentLaunches) {
  unsigned Sms = numSMs();
  PriorityStream BestEffort(false), UrgentA(true), UrgentB(true, 1);
  constexpr uint32_t Launches = 30;
  std::mt19937 Rng(5);
  for (smc::PriorityMode Mode : {smc::PriorityMode::Auto, smc::PriorityMode::On,
                                 smc::PriorityMode::Off}) {
    smc::setPriorityMode(Mode);
    BestEffortRun Long;
    SMC_CUDA_ASSERT(Long.init(16 * Sms));
    UrgentRun Short;
    SMC_CUDA_ASSERT(Short.init(3 * Sms)); // the largest urgent grid
    std::vector<uint32_t> UrgentTimes(Short.Chunks, 0);
    for (uint32_t L = 0; L < Launches; ++L) {
      SMC_CUDA_ASSERT(Long.launch(BestEffort.S, 5000 + Rng() % 50000));
      // One to three urgent launches of 1 to 3 x Sms CTAs, SM-centric or
      // original, on either urgent stream, at once or a little later:
      // they take SMs from the launch running, from one queued, or from
      // none, and their top-ups join or come too late.
      for (unsigned U = 1 + Rng() % 3; U-- > 0;) {
        uint32_t Count = 1 + Rng() % Short.Chunks;
        smc::setPolicy(urgentChunks, Rng() % 2 ? smc::Policy::smCentric()
                                               : smc::Policy::original());
        if (Rng() % 2)
          std::this_thread::sleep_for(std::chrono::microseconds(Rng() % 300));
        SMC_CUDA_ASSERT(Short.launch(Rng() % 2 ? UrgentA.S : UrgentB.S, Long,
                                     1000 + Rng() % 20000, Count));
        for (uint32_t C = 0; C < Count; ++C)
          ++UrgentTimes[C];
      }
    }
    SMC_CUDA_SYNC_ASSERT();
    const char *Name = Mode == smc::PriorityMode::Auto ? "auto"
                       : Mode == smc::PriorityMode::On ? "on"
                                                       : "off";
    EXPECT_TRUE(allCountsAre(Long.Counts, Launches, "best-effort")) << Name;
    std::vector<uint32_t> Counts;
    SMC_CUDA_ASSERT(Short.Counts.download(Counts));
    EXPECT_EQ(Counts, UrgentTimes) << "urgent chunks, mode " << Name;
  }
}

} // namespace
