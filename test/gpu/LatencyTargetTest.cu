//===- LatencyTargetTest.cu - A p99 target picks taking SMs or room -------===//
//
// Policy::p99Micros (runtime/latency/): the runtime times a kernel's
// launches and judges them a window at a time.  These tests require, with
// targets no GPU can miss (a second) or meet (a microsecond), so that no
// timing decides the outcome:
//  - the search starts with room: from the first launch on, a best-effort
//    SM-centric launch never has more chunks running at once on an SM than
//    leave room for one of its CTAs;
//  - once room met the target FirstProbe windows in a row, its launches
//    take SMs and no room is kept (more chunks at once on some SM);
//  - a target missed with room keeps room;
//  - the room of an earlier `reserve` goes once SMs are taken, and a
//    policy without a target gives the room back;
//  - every launch of both kernels runs each CTA once.
// The windows' p99s and the mechanism's cost are smc_tail_bench's
// (bench/corun/tail.cu, mode smc-target).
//===----------------------------------------------------------------------===//
#include "ChunksOnAnSm.cuh"
#include "GpuTest.h"
#include "latency/LatencySearch.h"

using namespace smctest;

// A best-effort chunk (ChunksOnAnSm.cuh).
__global__ void latencyBestEffort(uint32_t *Counts, uint32_t *Running,
                                  uint32_t *MostRunning,
                                  unsigned long long Nanoseconds) {
  countChunksOnAnSm(Counts, Running, MostRunning, nullptr, Nanoseconds);
}

// The kernel with a target: 256-thread CTAs that count themselves.
__global__ void latencyTargetCtas(uint32_t *Counts) {
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&Counts[blockIdx.x], 1u);
}

namespace {

class LatencyTarget : public SmcGpuTest {
protected:
  void SetUp() override {
    SmcGpuTest::SetUp();
    smc::setPolicy(latencyBestEffort, smc::Policy::smCentric());
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                  &Fit, latencyBestEffort, 128, 0),
              cudaSuccess);
    Beside = chunksBeside(Fit, 256);
    ASSERT_GE(Beside, 0);
    ASSERT_LT(Beside, Fit) << "no room to leave on this GPU";
  }

  void target(double Micros) {
    smc::Policy P = smc::Policy::original();
    P.p99Micros = Micros;
    smc::setPolicy(latencyTargetCtas, P);
  }

  // Launches the kernel with a target `Times` times, one at a time (each
  // is read into the search at the next launch), each CTA once per launch.
  void launchTargeted(unsigned Times) {
    constexpr uint32_t Ctas = 64;
    DeviceArray<uint32_t> Counts;
    SMC_CUDA_ASSERT(allocateZeroed(Ctas, Counts));
    for (unsigned I = 0; I < Times; ++I) {
      latencyTargetCtas<<<Ctas, 256, 0, Stream>>>(Counts.get());
      SMC_CUDA_ASSERT(cudaGetLastError());
      SMC_CUDA_ASSERT(cudaStreamSynchronize(Stream));
    }
    EXPECT_TRUE(allCountsAre(Counts, Times, "targeted"));
  }

  // A best-effort launch of about 4 rounds of 50 us chunks on every SM:
  // the most chunks it ran at once on one SM.
  uint32_t bestEffortMost() {
    uint32_t Chunks = uint32_t(Fit) * numSMs() * 4;
    DeviceArray<uint32_t> Counts, Running, Most;
    EXPECT_EQ(allocateZeroed(Chunks, Counts), cudaSuccess);
    EXPECT_EQ(allocateZeroed(numSMs(), Running, Most), cudaSuccess);
    latencyBestEffort<<<Chunks, 128, 0, Stream>>>(Counts.get(), Running.get(),
                                                  Most.get(), 50000);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(Stream), cudaSuccess);
    EXPECT_TRUE(allCountsAre(Counts, 1, "best-effort"));
    std::vector<uint32_t> Host;
    if (Most.download(Host) != cudaSuccess || Host.empty())
      return 0;
    return *std::max_element(Host.begin(), Host.end());
  }

  void TearDown() override {
    cudaStreamDestroy(Stream);
    SmcGpuTest::TearDown();
  }

  int Fit = 0, Beside = 0;
  cudaStream_t Stream = [] {
    cudaStream_t S = nullptr;
    cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
    return S;
  }();
};

// Launches until room has met a target FirstProbe windows in a row and
// the search takes SMs (the first launches after that settle).
constexpr unsigned PastTheFirstProbe =
    smc::LatencySearch::FirstProbe * smc::LatencySearch::Window + 40;

TEST_F(LatencyTarget, StartsWithRoomAndTakesSmsOnceRoomMetTheTarget) {
  SMC_SKIP_UNDER_STATS("counted launches are neither urgent nor reserved");
  // A second: met.  Room first, from the first launch on.
  target(1e6);
  launchTargeted(1);
  uint32_t Most = bestEffortMost();
  EXPECT_GE(Most, 1u);
  EXPECT_LE(Most, uint32_t(Beside)) << "no room kept while the search starts";
  // Room met it for FirstProbe windows: SMs taken, the room given back.
  launchTargeted(PastTheFirstProbe);
  EXPECT_GT(bestEffortMost(), uint32_t(Beside))
      << "room kept for a kernel that meets its target without it";
}

TEST_F(LatencyTarget, AMissedTargetKeepsRoom) {
  SMC_SKIP_UNDER_STATS("counted launches are neither urgent nor reserved");
  // A microsecond: missed with room too, which stays, the better of the
  // two (taking SMs is never tried).
  target(1);
  launchTargeted(PastTheFirstProbe);
  uint32_t Most = bestEffortMost();
  EXPECT_GE(Most, 1u);
  EXPECT_LE(Most, uint32_t(Beside))
      << "no room kept for a kernel that misses its target";
}

TEST_F(LatencyTarget, RoomGoesWithThePolicyThatKeptIt) {
  SMC_SKIP_UNDER_STATS("counted launches are neither urgent nor reserved");
  // Reserved first: room kept.
  smc::Policy Reserved = smc::Policy::original();
  Reserved.reserve = true;
  smc::setPolicy(latencyTargetCtas, Reserved);
  launchTargeted(1);
  EXPECT_LE(bestEffortMost(), uint32_t(Beside)) << "no room for `reserve`";
  // A target it meets: once the search takes SMs, neither its own room
  // nor `reserve`'s stays.
  target(1e6);
  launchTargeted(PastTheFirstProbe);
  EXPECT_GT(bestEffortMost(), uint32_t(Beside))
      << "the room kept for `reserve` outlived it";
  // Another target: room again; then no target: no room, with no launch
  // of it in between.
  target(1);
  launchTargeted(1);
  EXPECT_LE(bestEffortMost(), uint32_t(Beside));
  smc::setPolicy(latencyTargetCtas, smc::Policy::original());
  EXPECT_GT(bestEffortMost(), uint32_t(Beside))
      << "room kept for a kernel whose policy has no target any more";
}

} // namespace
