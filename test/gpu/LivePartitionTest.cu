//===- LivePartitionTest.cu - Live SM partitions while kernels run --------===//
//
// smc::setStreamSMs changes the SMs of a stream's launches while they run:
// workers outside the new set leave at chunk boundaries, the launch's first
// active worker (its keeper) never does.  These tests require:
//  - exactly once under 1000 random repartitions of running launches;
//  - a launch shrunk to one SM and one worker still completes, and the
//    chunks that start after the shrink run only on that SM or the keeper's;
//  - a launch confined to SMs a running best-effort launch gave up completes
//    while the best-effort launch still runs; so does a launch confined by
//    its policy (sms=) beside a launch confined to the other SMs;
//  - co-runs from several host threads, each with its own partition, keep
//    exactly once;
//  - grow-back: a partition that grows while its launch runs gets workers
//    on the new SMs (a top-up grid), and the next launch on the stream
//    starts only after every chunk of the grown launch has finished;
//  - exactly once when top-ups join running launches or arrive too late
//    for theirs (launches queued back to back, grown and shrunk at random);
//  - bad SM sets are refused with a message and change nothing.
// Timings are not conditions here; bench/corun measures them.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

using namespace smctest;

//===--- Kernels ----------------------------------------------------------===//

// Each chunk spins for Nanoseconds of %globaltimer, counts itself, logs
// the order in which it started and the SM it ran on, and counts itself
// finished at its end.
__device__ void liveChunk(uint32_t *Counts, uint32_t *StartOrder,
                          uint32_t *SmOf, uint32_t *Started, uint32_t *Finished,
                          unsigned long long Nanoseconds) {
  uint32_t Chunk = blockIdx.x;
  if (threadIdx.x == 0) {
    StartOrder[Chunk] = atomicAdd(Started, 1u);
    SmOf[Chunk] = __nvvm_read_ptx_sreg_smid();
    atomicAdd(&Counts[Chunk], 1u);
  }
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  while (__nvvm_read_ptx_sreg_globaltimer() - Begin < Nanoseconds) {
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(Finished, 1u);
  }
}

__global__ void liveChunks(uint32_t *Counts, uint32_t *StartOrder,
                           uint32_t *SmOf, uint32_t *Started,
                           uint32_t *Finished, unsigned long long Nanoseconds) {
  liveChunk(Counts, StartOrder, SmOf, Started, Finished, Nanoseconds);
}

// The same, as a kernel of its own (policies are per kernel).
__global__ void otherChunks(uint32_t *Counts, uint32_t *StartOrder,
                            uint32_t *SmOf, uint32_t *Started,
                            uint32_t *Finished,
                            unsigned long long Nanoseconds) {
  liveChunk(Counts, StartOrder, SmOf, Started, Finished, Nanoseconds);
}

// Copies the finished count, as a launch stream-ordered after it sees it.
__global__ void readFinished(const uint32_t *Finished, uint32_t *Seen) {
  *Seen = *reinterpret_cast<const volatile uint32_t *>(Finished);
}

namespace {

using LivePartition = SmcGpuTest;

// One launch's buffers; `Started` is host-mapped so that the host sees
// progress while the launch runs.
struct LiveRun {
  DeviceArray<uint32_t> Counts, StartOrder, SmOf, Finished;
  MappedWord Started;
  uint32_t Chunks = 0;

  cudaError_t init(uint32_t N) {
    Chunks = N;
    cudaError_t Err = allocateZeroed(N, Counts, StartOrder, SmOf);
    if (Err == cudaSuccess)
      Err = allocateZeroed(1, Finished);
    return Err == cudaSuccess ? Started.reset() : Err;
  }
  cudaError_t reset() {
    cudaError_t Err = Started.reset();
    if (Err == cudaSuccess)
      Err = cudaMemset(Finished.get(), 0, Finished.bytes());
    return Err == cudaSuccess ? cudaMemset(Counts.get(), 0, Counts.bytes())
                              : Err;
  }
  uint32_t started() const { return Started.value(); }
  cudaError_t launch(cudaStream_t Stream, unsigned long long Nanoseconds,
                     bool Other = false) {
    (Other ? otherChunks : liveChunks)<<<Chunks, 64, 0, Stream>>>(
        Counts.get(), StartOrder.get(), SmOf.get(), Started.get(),
        Finished.get(), Nanoseconds);
    return cudaGetLastError();
  }
};

// Every chunk ran exactly `Times` times.
::testing::AssertionResult allCounted(const LiveRun &Run, uint32_t Times) {
  return allCountsAre(Run.Counts, Times);
}

// Launches Short (10 us chunks; otherChunks if Other) on Urgent while Long
// runs on BestEffort; requires that Short ends first, that every chunk of
// both runs once, and that Short's chunks run on SMs FirstSm and above.
void expectShortEndsFirst(LiveRun &Long, LiveRun &Short,
                          cudaStream_t BestEffort, cudaStream_t Urgent,
                          unsigned FirstSm, bool Other) {
  SMC_CUDA_ASSERT(Short.launch(Urgent, 10000, Other));
  SMC_CUDA_ASSERT(cudaStreamSynchronize(Urgent));
  EXPECT_EQ(cudaStreamQuery(BestEffort), cudaErrorNotReady)
      << "the short launch ended only after the long one";
  cudaGetLastError();
  SMC_CUDA_SYNC_ASSERT();
  EXPECT_TRUE(allCounted(Short, 1));
  EXPECT_TRUE(allCounted(Long, 1));
  std::vector<uint32_t> SmOf;
  SMC_CUDA_ASSERT(Short.SmOf.download(SmOf));
  size_t Outside = 0;
  for (uint32_t Sm : SmOf)
    Outside += Sm < FirstSm;
  EXPECT_EQ(Outside, 0u) << "short chunks ran below SM " << FirstSm;
}

struct OwnStream {
  cudaStream_t S = nullptr;
  explicit OwnStream(int Priority = 0) {
    cudaStreamCreateWithPriority(&S, cudaStreamNonBlocking, Priority);
  }
  ~OwnStream() {
    smc::clearStreamSMs(S);
    cudaStreamDestroy(S);
  }
};

TEST_F(LivePartition, ExactlyOnceUnderRandomRepartitions) {
  SMC_SKIP_UNDER_STATS("no launch runs while the host repartitions it");
  unsigned Sms = numSMs();
  OwnStream Stream;
  LiveRun Run;
  SMC_CUDA_ASSERT(Run.init(20000));
  std::mt19937 Rng(7);
  unsigned Repartitions = 0;
  uint32_t Launches = 0;
  std::string Error;
  while (Repartitions < 1000) {
    ASSERT_TRUE(smc::setStreamSMs(Stream.S, smRange(0, Sms), 0, &Error))
        << Error;
    SMC_CUDA_ASSERT(Run.launch(Stream.S, 2000));
    ++Launches;
    // Repartition while the launch runs: random SM sets (sometimes a single
    // SM) and random per-SM worker caps.
    while (cudaStreamQuery(Stream.S) == cudaErrorNotReady &&
           Repartitions < 1000) {
      unsigned Count = 1 + Rng() % Sms;
      std::vector<unsigned> Set = smRange(0, Sms);
      std::shuffle(Set.begin(), Set.end(), Rng);
      Set.resize(Count);
      ASSERT_TRUE(smc::setStreamSMs(Stream.S, Set, Rng() % 4, &Error)) << Error;
      ++Repartitions;
    }
    cudaGetLastError(); // cudaErrorNotReady from the query
    SMC_CUDA_SYNC_ASSERT();
  }
  EXPECT_TRUE(allCounted(Run, Launches));
  EXPECT_GE(Launches, 1u);
}

TEST_F(LivePartition, ShrunkToOneWorkerCompletes) {
  SMC_SKIP_UNDER_STATS("no launch runs while the host repartitions it");
  unsigned Sms = numSMs();
  OwnStream Stream;
  LiveRun Run;
  uint32_t Chunks = 200 * Sms;
  SMC_CUDA_ASSERT(Run.init(Chunks));
  std::string Error;
  ASSERT_TRUE(smc::setStreamSMs(Stream.S, smRange(0, Sms), 0, &Error)) << Error;
  SMC_CUDA_ASSERT(Run.launch(Stream.S, 20000)); // 20 us per chunk
  // Shrink once a twentieth of the chunks started.
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (Run.started() < Chunks / 20 &&
         std::chrono::steady_clock::now() < Deadline) {
  }
  ASSERT_TRUE(smc::setStreamSMs(Stream.S, {Sms - 1}, 1, &Error)) << Error;
  uint32_t ShrunkAt = Run.started();
  SMC_CUDA_SYNC_ASSERT();
  ASSERT_TRUE(allCounted(Run, 1));
  ASSERT_LT(ShrunkAt, Chunks) << "the launch ended before the shrink";

  // Chunks that started well after the shrink (every worker has passed a
  // chunk boundary since) ran on the one SM left, or on the keeper's SM.
  std::vector<uint32_t> Order, SmOf;
  SMC_CUDA_ASSERT(Run.StartOrder.download(Order));
  SMC_CUDA_ASSERT(Run.SmOf.download(SmOf));
  uint32_t Settled = ShrunkAt + 64 * Sms; // > workers x 2 chunks
  std::vector<unsigned> LateSms;
  size_t Late = 0;
  for (uint32_t C = 0; C < Chunks; ++C)
    if (Order[C] >= Settled) {
      ++Late;
      if (std::find(LateSms.begin(), LateSms.end(), SmOf[C]) == LateSms.end())
        LateSms.push_back(SmOf[C]);
    }
  ASSERT_GT(Late, 0u) << "no chunk started after the partition settled";
  EXPECT_LE(LateSms.size(), 2u)
      << Late << " late chunks ran on " << LateSms.size() << " SMs";
}

TEST_F(LivePartition, ConfinedLaunchCompletesWhileBestEffortRuns) {
  SMC_SKIP_UNDER_STATS("no launch runs while the host repartitions it");
  unsigned Sms = numSMs();
  ASSERT_GT(Sms, 8u);
  OwnStream BestEffort, Urgent;
  LiveRun Long, Short;
  SMC_CUDA_ASSERT(Long.init(200 * Sms)); // ~200 x 1 ms per SM at full width
  SMC_CUDA_ASSERT(Short.init(4 * Sms));
  std::string Error;
  ASSERT_TRUE(smc::setStreamSMs(BestEffort.S, smRange(0, Sms), 0, &Error))
      << Error;
  SMC_CUDA_ASSERT(Long.launch(BestEffort.S, 1000000));
  while (Long.started() == 0) {
  }
  // Give the urgent stream the last 8 SMs, taken from the best-effort one.
  ASSERT_TRUE(smc::setStreamSMs(BestEffort.S, smRange(0, Sms - 8), 0, &Error))
      << Error;
  ASSERT_TRUE(smc::setStreamSMs(Urgent.S, smRange(Sms - 8, 8), 0, &Error))
      << Error;
  expectShortEndsFirst(Long, Short, BestEffort.S, Urgent.S, Sms - 8,
                       /*Other=*/false);
}

// The same with static SM sets (policies, no partition): the launch
// confined to the last 8 SMs gets workers for them only (item 4 of the
// co-run issue: before, its grid had a place on every SM and it ended
// only when the long kernel's workers let it through there).
TEST_F(LivePartition, StaticSmSetLaunchCompletesBesideAnother) {
  SMC_SKIP_UNDER_STATS("SMC_STATS serializes SM-centric launches");
  unsigned Sms = numSMs();
  ASSERT_GT(Sms, 8u);
  OwnStream BestEffort, Urgent;
  LiveRun Long, Short;
  SMC_CUDA_ASSERT(Long.init(200 * Sms)); // ~200 x 1 ms per SM
  SMC_CUDA_ASSERT(Short.init(4 * Sms));
  smc::setPolicy(liveChunks, smc::Policy::smCentric(0, smRange(0, Sms - 8)));
  smc::setPolicy(otherChunks, smc::Policy::smCentric(0, smRange(Sms - 8, 8)));
  // Loads both variants first (the first use may wait for the GPU).
  SMC_CUDA_ASSERT(Short.launch(Urgent.S, 0, /*Other=*/true));
  SMC_CUDA_ASSERT(Long.launch(BestEffort.S, 0));
  SMC_CUDA_SYNC_ASSERT();
  SMC_CUDA_ASSERT(Long.reset());
  SMC_CUDA_ASSERT(Short.reset());

  SMC_CUDA_ASSERT(Long.launch(BestEffort.S, 1000000));
  while (Long.started() == 0) {
  }
  expectShortEndsFirst(Long, Short, BestEffort.S, Urgent.S, Sms - 8,
                       /*Other=*/true);
}

TEST_F(LivePartition, HostThreadsWithOwnPartitions) {
  unsigned Sms = numSMs();
  constexpr unsigned Threads = 4;
  std::vector<std::string> Failures(Threads);
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      OwnStream Stream;
      LiveRun Run;
      if (Run.init(3000) != cudaSuccess) {
        Failures[T] = "init failed";
        return;
      }
      unsigned Share = Sms / Threads;
      std::string Error;
      for (unsigned I = 0; I < 20; ++I) {
        // Each thread's partition moves among the quarters of the device.
        unsigned First = ((T + I) % Threads) * Share;
        if (!smc::setStreamSMs(Stream.S, smRange(First, Share), 1 + I % 3,
                               &Error)) {
          Failures[T] = Error;
          return;
        }
        if (Run.launch(Stream.S, 1000) != cudaSuccess) {
          Failures[T] = "launch failed";
          return;
        }
      }
      if (cudaStreamSynchronize(Stream.S) != cudaSuccess) {
        Failures[T] = "synchronize failed";
        return;
      }
      ::testing::AssertionResult Ok = allCounted(Run, 20);
      if (!Ok)
        Failures[T] = Ok.message();
    });
  for (std::thread &T : Pool)
    T.join();
  for (unsigned T = 0; T < Threads; ++T)
    EXPECT_EQ(Failures[T], "") << "thread " << T;
}

TEST_F(LivePartition, GrowBackAddsWorkersToARunningLaunch) {
  SMC_SKIP_UNDER_STATS("no launch runs while the host repartitions it");
  unsigned Sms = numSMs();
  ASSERT_GT(Sms, 4u);
  OwnStream Stream;
  LiveRun Run;
  uint32_t Chunks = 200 * Sms;
  SMC_CUDA_ASSERT(Run.init(Chunks));
  DeviceArray<uint32_t> Seen;
  SMC_CUDA_ASSERT(Seen.allocate(1));
  std::string Error;
  // One worker on SM 0: the launch's other workers retreat at once.
  ASSERT_TRUE(smc::setStreamSMs(Stream.S, {0}, 1, &Error)) << Error;
  SMC_CUDA_ASSERT(Run.launch(Stream.S, 20000)); // 20 us per chunk
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (Run.started() < 8 && std::chrono::steady_clock::now() < Deadline) {
  }
  ASSERT_TRUE(smc::setStreamSMs(Stream.S, smRange(0, Sms), 0, &Error)) << Error;
  uint32_t GrownAt = Run.started();
  readFinished<<<1, 1, 0, Stream.S>>>(Run.Finished.get(), Seen.get());
  SMC_CUDA_SYNC_ASSERT();
  ASSERT_TRUE(allCounted(Run, 1));
  ASSERT_LT(GrownAt, Chunks / 2) << "the launch was nearly done at the grow";

  // The launch after it on the stream saw every chunk finished: the
  // launch ended after its top-up workers' chunks.
  std::vector<uint32_t> SeenHost;
  SMC_CUDA_ASSERT(Seen.download(SeenHost));
  EXPECT_EQ(SeenHost[0], Chunks);

  // Chunks that started after the grow ran on many SMs; without top-ups
  // they would all run on SM 0.
  std::vector<uint32_t> Order, SmOf;
  SMC_CUDA_ASSERT(Run.StartOrder.download(Order));
  SMC_CUDA_ASSERT(Run.SmOf.download(SmOf));
  std::vector<bool> Used(256, false);
  for (uint32_t C = 0; C < Chunks; ++C)
    if (Order[C] >= GrownAt + 2 * Sms && SmOf[C] < Used.size())
      Used[SmOf[C]] = true;
  size_t UsedSms = std::count(Used.begin(), Used.end(), true);
  EXPECT_GE(UsedSms, Sms / 2)
      << "chunks after the grow ran on " << UsedSms << " SMs";
}

TEST_F(LivePartition, ExactlyOnceWithTopUpsJoiningOrTooLate) {
  SMC_SKIP_UNDER_STATS("no launch runs while the host repartitions it");
  unsigned Sms = numSMs();
  OwnStream Stream;
  LiveRun Run;
  SMC_CUDA_ASSERT(Run.init(4 * Sms));
  std::mt19937 Rng(11);
  std::string Error;
  constexpr uint32_t Launches = 300;
  for (uint32_t L = 0; L < Launches; ++L) {
    // Shrink to a few SMs, launch, then (mostly) grow while it is queued or
    // runs: its top-up may join it, or find a later launch and leave.
    unsigned Count = 1 + Rng() % 8;
    std::vector<unsigned> Set = smRange(0, Sms);
    std::shuffle(Set.begin(), Set.end(), Rng);
    Set.resize(Count);
    ASSERT_TRUE(smc::setStreamSMs(Stream.S, Set, 1 + Rng() % 2, &Error))
        << Error;
    SMC_CUDA_ASSERT(Run.launch(Stream.S, 1000 + Rng() % 20000));
    if (Rng() % 4 != 0)
      ASSERT_TRUE(smc::setStreamSMs(Stream.S, smRange(0, Sms), 0, &Error))
          << Error;
  }
  SMC_CUDA_SYNC_ASSERT();
  EXPECT_TRUE(allCounted(Run, Launches));
}

TEST_F(LivePartition, BadSetsAreRefused) {
  OwnStream Stream;
  std::string Error;
  EXPECT_FALSE(smc::setStreamSMs(Stream.S, {}, 0, &Error));
  EXPECT_NE(Error.find("empty"), std::string::npos) << Error;
  EXPECT_FALSE(smc::setStreamSMs(Stream.S, {numSMs()}, 0, &Error));
  EXPECT_NE(Error.find("out of range"), std::string::npos) << Error;
  // Nothing changed: the stream has no partition, so a launch may use
  // every SM (a chunk on SM 0's side of the device is possible again).
  LiveRun Run;
  SMC_CUDA_ASSERT(Run.init(8 * numSMs()));
  SMC_CUDA_ASSERT(Run.launch(Stream.S, 1000));
  SMC_CUDA_SYNC_ASSERT();
  EXPECT_TRUE(allCounted(Run, 1));
}

} // namespace
