//===- TenantYieldsTest.cu - Urgent processes take SMs from others --------===//
//
// SMC_TENANTS=on (runtime/priority/SharedYields.h): an urgent launch of one
// process takes SMs from the yielding best-effort launches of the others,
// through the tenant board and their yield tables (CUDA IPC).  The
// processes are this binary as children (TenantChild.h): a taker, whose
// urgent kernel's CTAs each need a whole SM (the most shared memory a CTA
// may have: no other CTA of any process fits beside one), and yielders,
// whose best-effort launch of 2 ms chunks would hold every SM for seconds.
// These tests require:
//  - under MPS, the taker's urgent kernel runs while the yielder's launch
//    is still running (chunks start after the taker is done), from one
//    yielder and from two at once; every chunk runs once; the yielders'
//    next launches have their workers on every SM again;
//  - a taker killed while its urgent kernel holds SMs: the yielder's
//    launch completes, each chunk once, and its next launch (after the
//    board's read interval) has its workers on every SM again;
//  - a yielder killed while a taker holds SMs of its table (the taker's
//    writes back to it still pending): the taker's kernel completes, each
//    CTA once, and so does its next urgent launch.
// Without MPS, processes take turns on the GPU and nothing would need to
// yield: the first and the three-process test skip (they are run under MPS
// as docs/testing.md says); the two that kill a process mid-kernel skip
// under MPS (SMC_SKIP_KILLS_UNDER_MPS).  No timing is a condition: the launch
// lasts seconds, the yield takes a chunk.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"
#include "TenantChild.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

using namespace smctest;

// A best-effort chunk, as ChunksOnAnSm.cuh's (it counts itself and the
// chunks running on its SM with it, the most in MostRunning), that spins
// for Nanoseconds unless Stop was set when it began: Begun (host-mapped) is set
// by chunk 0 (among the first to run), AfterStop counts the chunks that found
// Stop set.  No thread leaves before the barrier (one would make the pass run
// one chunk per worker, which never yields).
__global__ void tenantYieldChunks(uint32_t *Counts, uint32_t *Running,
                                  uint32_t *MostRunning,
                                  const volatile uint32_t *Stop,
                                  volatile uint32_t *Begun, uint32_t *AfterStop,
                                  unsigned long long Nanoseconds) {
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  uint32_t Sm = __nvvm_read_ptx_sreg_smid();
  bool Stopped = *Stop != 0;
  if (threadIdx.x == 0) {
    atomicAdd(&Counts[blockIdx.x], 1u);
    if (Stopped)
      atomicAdd(AfterStop, 1u);
    else if (blockIdx.x == 0)
      *Begun = 1; // a write: reads of host memory from every chunk queue up
    atomicMax(&MostRunning[Sm], atomicAdd(&Running[Sm], 1u) + 1u);
  }
  while (!Stopped && __nvvm_read_ptx_sreg_globaltimer() - Begin < Nanoseconds) {
  }
  __syncthreads();
  if (threadIdx.x == 0)
    atomicSub(&Running[Sm], 1u);
}

// An urgent CTA that needs a whole SM (launched with the most dynamic shared
// memory a CTA may have): counts itself, tells the host it runs (Running,
// host-mapped) and spins for Nanoseconds.
__global__ void tenantUrgentWholeSm(uint32_t *Counts,
                                    volatile uint32_t *Running,
                                    unsigned long long Nanoseconds) {
  extern __shared__ uint32_t Whole[];
  unsigned long long Begin = __nvvm_read_ptx_sreg_globaltimer();
  if (threadIdx.x == 0) {
    Whole[0] = blockIdx.x;
    atomicAdd(&Counts[Whole[0]], 1u);
    *Running = 1;
  }
  while (__nvvm_read_ptx_sreg_globaltimer() - Begin < Nanoseconds) {
  }
}

namespace {

// A child's lines until its end: the values of "after-stop N" and
// "fewest-most N" (-1 where missing), and its "most-per-sm" line (for the
// messages).
struct YielderReport {
  int AfterStop = -1, FewestMost = -1;
  std::string PerSm;
};
YielderReport readReport(Child &C) {
  YielderReport R;
  for (std::string L = C.line(); !L.empty(); L = C.line()) {
    std::sscanf(L.c_str(), "after-stop %d", &R.AfterStop);
    std::sscanf(L.c_str(), "fewest-most %d", &R.FewestMost);
    if (L.rfind("most-per-sm", 0) == 0)
      R.PerSm = L;
  }
  return R;
}

class TenantYields : public SmcGpuTest {
protected:
  void SetUp() override {
    SmcGpuTest::SetUp();
    ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                  &Fit, tenantYieldChunks, 128, 0),
              cudaSuccess);
    UnderMps = underMps();
  }

  // A taker, once its first urgent launch said on the board that it takes.
  std::unique_ptr<Child> taker() {
    auto C = std::make_unique<Child>("--smc-tenant-taker");
    if (C->line() != "ready\n")
      return nullptr;
    return C;
  }

  // Under MPS: the taker's urgent kernel completes while `Count` yielders'
  // launches still run (each with Fit / Count workers to an SM, so that all
  // are resident on every SM), every chunk once, and their next launches
  // have their workers on every SM.
  void takeFromYielders(int Count) {
    if (!UnderMps)
      GTEST_SKIP() << "needs MPS (processes take turns on the GPU without it)";
    auto T = taker();
    ASSERT_TRUE(T) << "the taker did not start";
    std::string Mode =
        "--smc-tenant-yielder=" + std::to_string(Count == 1 ? 0 : Fit / Count);
    std::vector<std::unique_ptr<Child>> Yielders;
    for (int I = 0; I < Count; ++I)
      Yielders.push_back(std::make_unique<Child>(Mode));
    for (auto &Y : Yielders)
      ASSERT_EQ(Y->line(), "started\n");
    ASSERT_TRUE(T->say("go\n"));
    EXPECT_EQ(T->line(), "done\n") << "the urgent kernel failed";
    for (auto &Y : Yielders)
      ASSERT_TRUE(Y->say("stop\n"));
    for (auto &Y : Yielders) {
      YielderReport R = readReport(*Y);
      EXPECT_EQ(Y->finish(), 0) << "a best-effort launch did not run each "
                                   "chunk once";
      EXPECT_GT(R.AfterStop, 0) << "the urgent kernel ran only once a "
                                   "best-effort launch had ended";
      EXPECT_GT(R.FewestMost, Fit / (2 * Count))
          << "a best-effort process did not get its SMs back: " << R.PerSm;
    }
    EXPECT_EQ(T->finish(), 0);
  }

  int Fit = 0;
  bool UnderMps = false;
};

TEST_F(TenantYields, AnUrgentProcessTakesSmsFromABestEffortOne) {
  takeFromYielders(1);
}

TEST_F(TenantYields, AnUrgentProcessTakesSmsFromTwoBestEffortOnes) {
  takeFromYielders(2);
}

TEST_F(TenantYields, SmsHeldByAnUrgentProcessThatDiedComeBack) {
  SMC_SKIP_KILLS_UNDER_MPS();
  auto T = taker();
  ASSERT_TRUE(T) << "the taker did not start";
  Child Y("--smc-tenant-yielder=0");
  ASSERT_EQ(Y.line(), "started\n");
  ASSERT_TRUE(T->say("hold\n"));
  ASSERT_EQ(T->line(), "holding\n");
  T->kill(); // its stream never writes the SMs back
  ASSERT_TRUE(Y.say("stop\n"));
  YielderReport R = readReport(Y);
  EXPECT_EQ(Y.finish(), 0) << "the best-effort launch did not complete, each "
                              "chunk once, after the taker died";
  EXPECT_GT(R.FewestMost, Fit / 2)
      << "SMs held by a process that died stay lost to the best effort: "
      << R.PerSm;
}

TEST_F(TenantYields, ABestEffortProcessKilledWhileItsSmsAreHeld) {
  SMC_SKIP_KILLS_UNDER_MPS();
  auto T = taker();
  ASSERT_TRUE(T) << "the taker did not start";
  {
    Child Y("--smc-tenant-yielder=0");
    ASSERT_EQ(Y.line(), "started\n");
    ASSERT_TRUE(T->say("long\n"));
    ASSERT_EQ(T->line(), "holding\n");
    Y.kill();
  }
  EXPECT_EQ(T->line(), "done\n")
      << "the urgent kernel failed after the process it took SMs from died";
  ASSERT_TRUE(T->say("go\n"));
  EXPECT_EQ(T->line(), "done\n") << "the next urgent launch failed";
  EXPECT_EQ(T->finish(), 0);
}

// The taker: urgent launches of CTAs that each need a whole SM.
int takerChild() {
  smc::Policy Urgent = smc::Policy::original();
  Urgent.urgent = true;
  smc::setPolicy(tenantUrgentWholeSm, Urgent);
  int Whole = 0;
  uint32_t *Running = nullptr, *RunningOnDevice = nullptr;
  DeviceArray<uint32_t> Counts;
  if (cudaDeviceGetAttribute(&Whole, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                             0) != cudaSuccess ||
      cudaFuncSetAttribute(tenantUrgentWholeSm,
                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                           Whole) != cudaSuccess ||
      cudaHostAlloc(&Running, sizeof(uint32_t), cudaHostAllocMapped) !=
          cudaSuccess ||
      cudaHostGetDevicePointer(&RunningOnDevice, Running, 0) != cudaSuccess ||
      allocateZeroed(8, Counts) != cudaSuccess)
    return 2;
  // The first urgent launch says on the board that this process takes SMs.
  tenantUrgentWholeSm<<<1, 128, Whole>>>(Counts.get(), RunningOnDevice, 0);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 3;
  std::printf("ready\n");
  std::fflush(stdout);
  char Line[64];
  while (std::fgets(Line, sizeof Line, stdin)) {
    std::string Command = Line;
    if (Command != "go\n" && Command != "hold\n" && Command != "long\n")
      return 4;
    bool Hold = Command == "hold\n", Long = Command == "long\n";
    if (cudaMemset(Counts.get(), 0, 8 * sizeof(uint32_t)) != cudaSuccess)
      return 5;
    *Running = 0;
    // 8 CTAs of 100 us, of 1 s (long: "holding" once they run), or (hold)
    // of 20 s, while the test kills this process.
    tenantUrgentWholeSm<<<8, 128, Whole>>>(Counts.get(), RunningOnDevice,
                                           Hold   ? 20000000000ull
                                           : Long ? 1000000000ull
                                                  : 100000ull);
    if (cudaGetLastError() != cudaSuccess)
      return 6;
    if (Hold || Long) {
      while (!*reinterpret_cast<volatile uint32_t *>(Running))
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      std::printf("holding\n");
      std::fflush(stdout);
      if (Hold)
        continue;
    }
    if (cudaDeviceSynchronize() != cudaSuccess ||
        !allCountsAre(Counts, 1, "urgent"))
      return 7;
    std::printf("done\n");
    std::fflush(stdout);
  }
  return 0;
}

// A yielder: a best-effort launch of 2 ms chunks, Workers per SM (0: as
// many as fit), of about 3 s, stopped when the test says "stop"; then a
// short launch whose chunks tell on how many SMs its workers ran.
int yielderChild(unsigned Workers) {
  smc::Policy P = smc::Policy::smCentric();
  P.workersPerSM = Workers;
  smc::setPolicy(tenantYieldChunks, P);
  int Sms = 0, Fit = 0;
  uint32_t *Host = nullptr, *OnDevice = nullptr;
  cudaStream_t Side = nullptr; // writes Stop while the launch runs
  if (cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0) !=
          cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&Fit, tenantYieldChunks,
                                                    128, 0) != cudaSuccess ||
      cudaHostAlloc(&Host, sizeof(uint32_t), cudaHostAllocMapped) !=
          cudaSuccess ||
      cudaHostGetDevicePointer(&OnDevice, Host, 0) != cudaSuccess ||
      cudaStreamCreateWithFlags(&Side, cudaStreamNonBlocking) != cudaSuccess)
    return 2;
  volatile uint32_t *Begun = Host;
  static const uint32_t One = 1;
  unsigned PerSm = Workers ? Workers : unsigned(Fit);
  auto Run = [&](unsigned Rounds, unsigned ChunkUs, bool Stoppable,
                 std::vector<uint32_t> &Most, uint32_t &AfterStopped) {
    uint32_t Chunks = PerSm * uint32_t(Sms) * Rounds;
    DeviceArray<uint32_t> Counts, Running, MostRunning, AfterStop, Stop;
    *Begun = 0;
    if (allocateZeroed(Chunks, Counts) != cudaSuccess ||
        allocateZeroed(uint32_t(Sms), Running, MostRunning) != cudaSuccess ||
        allocateZeroed(1, AfterStop, Stop) != cudaSuccess)
      return 3;
    tenantYieldChunks<<<Chunks, 128>>>(Counts.get(), Running.get(),
                                       MostRunning.get(), Stop.get(), OnDevice,
                                       AfterStop.get(), ChunkUs * 1000ull);
    if (cudaGetLastError() != cudaSuccess)
      return 4;
    if (Stoppable) {
      while (!*Begun)
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      // Its workers are resident (they start together).
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      std::printf("started\n");
      std::fflush(stdout);
      char Line[64];
      if (!std::fgets(Line, sizeof Line, stdin) ||
          std::string(Line) != "stop\n" ||
          cudaMemcpyAsync(Stop.get(), &One, sizeof One, cudaMemcpyHostToDevice,
                          Side) != cudaSuccess ||
          cudaStreamSynchronize(Side) != cudaSuccess)
        return 5;
    }
    std::vector<uint32_t> After;
    if (cudaDeviceSynchronize() != cudaSuccess ||
        !allCountsAre(Counts, 1, "best-effort") ||
        MostRunning.download(Most) != cudaSuccess ||
        AfterStop.download(After) != cudaSuccess)
      return 6;
    AfterStopped = After[0];
    return 0;
  };
  std::vector<uint32_t> Most;
  uint32_t AfterStop = 0;
  if (int Failed = Run(1500, 2000, true, Most, AfterStop))
    return Failed;
  std::printf("after-stop %u\n", AfterStop);
  // The board is read again at least every 200 ms (for processes that
  // died holding SMs).
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  if (int Failed = Run(20, 50, false, Most, AfterStop))
    return 10 + Failed;
  std::printf("fewest-most %u\n", *std::min_element(Most.begin(), Most.end()));
  std::string Line = "most-per-sm";
  for (uint32_t M : Most)
    Line += " " + std::to_string(M);
  std::printf("%s\n", Line.c_str());
  return 0;
}

} // namespace

int tenantYieldsChild(const char *Mode) {
  unsigned Value = 0;
  if (std::string(Mode) == "--smc-tenant-taker")
    return takerChild();
  if (std::sscanf(Mode, "--smc-tenant-yielder=%u", &Value) == 1)
    return yielderChild(Value);
  std::fprintf(stderr, "smc_gpu_tests: unknown child mode %s\n", Mode);
  return 2;
}
