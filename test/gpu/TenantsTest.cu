//===- TenantsTest.cu - Processes sharing a GPU keep each other's room ----===//
//
// SMC_TENANTS=on (runtime/tenants/, runtime/priority/Reserve.h): processes
// on one GPU meet on a board in shared memory, and every process's
// best-effort SM-centric launches leave room for the largest CTA any live
// process reserves.  The processes are this binary as children
// (--smc-tenant-*, tenantChild below).  These tests require:
//  - a best-effort process leaves room for another process's reserved CTA,
//    and fills the SMs again once that process was killed (its slot freed
//    by the reader);
//  - with two reserving processes, room for the larger CTA; the smaller
//    one's once the larger's process is gone; none once both are;
//  - a reserving process killed while a best-effort launch of another
//    runs: that launch completes, each chunk once; a best-effort process
//    killed mid-launch: a new reserving process still gets going.
// The counts of chunks running at once on an SM are the only measure;
// timings are not conditions.
//===----------------------------------------------------------------------===//
#include "ChunksOnAnSm.cuh"
#include "GpuTest.h"
#include "TenantChild.h"

#include <cstdio>
#include <cstring>
#include <unistd.h>

using namespace smctest;

// A best-effort chunk (ChunksOnAnSm.cuh).
__global__ void tenantBestEffortChunks(uint32_t *Counts, uint32_t *Running,
                                       uint32_t *MostRunning,
                                       unsigned long long Nanoseconds) {
  countChunksOnAnSm(Counts, Running, MostRunning, nullptr, Nanoseconds);
}

// A reserved kernel: CTAs that count themselves.
__global__ void tenantReservedCtas(uint32_t *Counts) {
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&Counts[blockIdx.x], 1u);
}

namespace {

// A reserving process, once it says it reserved.
std::unique_ptr<Child> reserver(unsigned Threads) {
  auto C = std::make_unique<Child>("--smc-tenant-reserve=" +
                                   std::to_string(Threads));
  if (C->line() != "ready\n")
    return nullptr;
  return C;
}

// A best-effort process of ChunkUs chunks to its end: the most chunks it
// ran at once on one SM, or -1 when it failed.
int bestEffortMost(unsigned ChunkUs = 50) {
  Child C("--smc-tenant-best-effort=" + std::to_string(ChunkUs));
  int Most = -1;
  for (std::string L = C.line(); !L.empty(); L = C.line())
    std::sscanf(L.c_str(), "most %d", &Most);
  return C.finish() == 0 ? Most : -1;
}

class Tenants : public SmcGpuTest {
protected:
  void SetUp() override {
    SmcGpuTest::SetUp();
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                  &Fit, tenantBestEffortChunks, 128, 0),
              cudaSuccess);
    Beside256 = chunksBeside(Fit, 256);
    Beside512 = chunksBeside(Fit, 512);
    ASSERT_GE(Beside512, 0);
    ASSERT_LT(Beside512, Beside256);
    ASSERT_LT(Beside256, Fit) << "no room to leave on this GPU";
  }
  int Fit = 0, Beside256 = 0, Beside512 = 0;
};

TEST_F(Tenants, AnotherProcessLeavesRoomUntilTheReserverDies) {
  auto A = reserver(256);
  ASSERT_TRUE(A) << "the reserving process did not start";
  int Most = bestEffortMost();
  EXPECT_GE(Most, 1) << "the best-effort process failed";
  EXPECT_LE(Most, Beside256)
      << "a best-effort process left no room for another's reserved CTA";
  A->kill(); // a crash: its slot stays on the board until a reader looks
  Most = bestEffortMost();
  EXPECT_GT(Most, Beside256) << "room is still kept for a process that died";
}

TEST_F(Tenants, RoomForTheLargestOfTwoReservers) {
  auto Small = reserver(256), Large = reserver(512);
  ASSERT_TRUE(Small && Large) << "a reserving process did not start";
  int Most = bestEffortMost();
  EXPECT_GE(Most, 1) << "the best-effort process failed";
  EXPECT_LE(Most, Beside512) << "no room for the larger reserved CTA";
  Large->kill();
  Most = bestEffortMost();
  EXPECT_LE(Most, Beside256) << "no room for the smaller reserved CTA";
  EXPECT_GT(Most, Beside512) << "room kept for a process that died";
  EXPECT_EQ(Small->finish(), 0) << "a reserving process ended badly";
  Most = bestEffortMost();
  EXPECT_GT(Most, Beside256) << "room kept once no process reserves";
}

TEST_F(Tenants, ProcessesKilledMidLaunchLeaveTheOthersRunning) {
  SMC_SKIP_KILLS_UNDER_MPS();
  auto A = reserver(256);
  ASSERT_TRUE(A) << "the reserving process did not start";
  {
    // The reserver dies while a best-effort launch of about 100 ms runs:
    // that launch completes, each chunk once (the child checks), with the
    // room it started with.
    Child C("--smc-tenant-best-effort=2000");
    ASSERT_EQ(C.line(), "started\n");
    A->kill();
    int Most = -1;
    for (std::string L = C.line(); !L.empty(); L = C.line())
      std::sscanf(L.c_str(), "most %d", &Most);
    EXPECT_EQ(C.finish(), 0) << "the best-effort launch did not complete once";
    EXPECT_GE(Most, 1);
    EXPECT_LE(Most, Beside256);
  }
  {
    // A best-effort process dies mid-launch; a new reserver still gets
    // going, and so does the next best effort.
    Child C("--smc-tenant-best-effort=2000");
    ASSERT_EQ(C.line(), "started\n");
    C.kill();
  }
  auto B = reserver(256);
  ASSERT_TRUE(B) << "no reserving process got going after a crash";
  int Most = bestEffortMost();
  EXPECT_GE(Most, 1);
  EXPECT_LE(Most, Beside256);
  EXPECT_EQ(B->finish(), 0);
}

int reserveChild(unsigned Threads) {
  smc::Policy Reserved = smc::Policy::original();
  Reserved.reserve = true;
  smc::setPolicy(tenantReservedCtas, Reserved);
  uint32_t *Counts = nullptr;
  if (Threads == 0 || Threads > 1024 ||
      cudaMalloc(&Counts, 64 * sizeof(uint32_t)) != cudaSuccess)
    return 2;
  tenantReservedCtas<<<64, Threads>>>(Counts);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 3;
  std::printf("ready\n");
  std::fflush(stdout);
  char Byte;
  while (read(0, &Byte, 1) > 0) {
  }
  return 0;
}

int bestEffortChild(unsigned ChunkUs) {
  smc::setPolicy(tenantBestEffortChunks, smc::Policy::smCentric());
  int Sms = 0, Fit = 0;
  if (cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0) !=
          cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &Fit, tenantBestEffortChunks, 128, 0) != cudaSuccess)
    return 2;
  // About 50 rounds of chunks per SM at most, 100 ms.
  uint32_t Chunks =
      uint32_t(Fit) * Sms *
      std::max(1u, std::min(50u, 100000u / std::max(ChunkUs, 1u)));
  DeviceArray<uint32_t> Counts, Running, MostRunning;
  if (allocateZeroed(Chunks, Counts) != cudaSuccess ||
      allocateZeroed(uint32_t(Sms), Running, MostRunning) != cudaSuccess)
    return 3;
  tenantBestEffortChunks<<<Chunks, 128>>>(Counts.get(), Running.get(),
                                          MostRunning.get(), ChunkUs * 1000ull);
  if (cudaGetLastError() != cudaSuccess)
    return 4;
  std::printf("started\n");
  std::fflush(stdout);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 5;
  if (!allCountsAre(Counts, 1, "best-effort"))
    return 6;
  std::vector<uint32_t> Most;
  if (MostRunning.download(Most) != cudaSuccess)
    return 7;
  std::printf("most %u\n", *std::max_element(Most.begin(), Most.end()));
  return 0;
}

} // namespace

int tenantChild(const char *Mode) {
  unsigned Value = 0;
  if (std::sscanf(Mode, "--smc-tenant-reserve=%u", &Value) == 1)
    return reserveChild(Value);
  if (std::sscanf(Mode, "--smc-tenant-best-effort=%u", &Value) == 1)
    return bestEffortChild(Value);
  return tenantYieldsChild(Mode);
}
