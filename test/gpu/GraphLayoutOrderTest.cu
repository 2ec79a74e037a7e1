//===- GraphLayoutOrderTest.cu - Graph layouts keep a graph's order -------===//
//
// A layout adds edges and replaces kernel nodes; it must keep every edge of
// the graph.  The graph of the first test checks its own order while it
// runs, in Random mode (every replay a layout chosen at random, or the
// original): a kernel at its head counts the replays; four branches each
// stamp their buffer with the replay's number, and a kernel after the
// stamp checks every element (those of other CTAs too) and passes the
// stamp on; an event record node sits between the two kernels of one
// branch.  A host node after all branches checks, through host memory,
// that the last kernel of every branch has ended, and opens a gate that
// four more branches (one after an event wait node) check before they use
// the first branches' results; a kernel after them all checks every
// branch's final output.  The second replays three executable graphs of
// one graph on three streams at once, each replay a layout at random, and
// counts every element's runs: exactly once per kernel and replay.  The
// third replays, in Search mode, a graph long enough to be searched (four
// branches of CTAs that sleep for 100 us) and counts every CTA's runs.
//===----------------------------------------------------------------------===//
#include "GraphLayoutTest.h"

#include <algorithm>
#include <atomic>

using namespace smctest;

namespace {

// Words of the device array Checks: wrong elements each check found, and
// the runs of the join kernel.
enum CheckWord : unsigned {
  StampErrors,
  GateErrors,
  NextErrors,
  FinalErrors,
  JoinRuns,
  CheckWords
};

__device__ inline uint32_t stampOf(unsigned I, uint32_t Replay,
                                   uint32_t Branch) {
  return I * 7u + Replay + Branch;
}

__device__ inline uint32_t nextOf(uint32_t Stamp, uint32_t Branch) {
  return (Stamp ^ 0x9e3779b9u) + Branch;
}

} // namespace

// Kernels have external linkage (so have their parameters' types): the
// runtime finds variants by name.

struct LayoutFinals {
  const uint32_t *Of[4];
};

// The head of the graph: *Replay is the number of the replay (from 1).
__global__ void layoutTick(uint32_t *Replay) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *Replay += 1;
}

__global__ void layoutStamp(uint32_t *Out, unsigned N, const uint32_t *Replay,
                            uint32_t Branch) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = stampOf(I, *Replay, Branch);
}

// Checks the mirrored element (another CTA's) of the stamp, passes the own
// one on; the kernel's last CTA counts the kernel's end in Done[Branch],
// host memory.
__global__ void layoutVerifyStamp(const uint32_t *Stamps, uint32_t *Next,
                                  unsigned N, const uint32_t *Replay,
                                  uint32_t Branch, uint32_t *Checks,
                                  uint32_t *Arrived, volatile uint32_t *Done) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t R = *Replay;
  if (I < N) {
    unsigned J = N - 1 - I;
    if (Stamps[J] != stampOf(J, R, Branch))
      atomicAdd(&Checks[StampErrors], 1u);
    Next[I] = nextOf(Stamps[I], Branch);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const unsigned Ctas = gridDim.x * gridDim.y * gridDim.z;
    if (atomicAdd(&Arrived[Branch], 1u) == Ctas - 1) {
      Arrived[Branch] = 0;
      Done[Branch] = Done[Branch] + 1;
      __threadfence_system();
    }
  }
}

// After the host node: its gate must show this replay's number; checks the
// mirrored element of the first branches' results.
__global__ void layoutFinish(const uint32_t *Next, uint32_t *Final, unsigned N,
                             const uint32_t *Replay, uint32_t Branch,
                             const volatile uint32_t *Gate, uint32_t *Checks) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t R = *Replay;
  if (threadIdx.x == 0 && *Gate != R)
    atomicAdd(&Checks[GateErrors], 1u);
  if (I < N) {
    unsigned J = N - 1 - I;
    if (Next[J] != nextOf(stampOf(J, R, Branch), Branch))
      atomicAdd(&Checks[NextErrors], 1u);
    Final[I] = mix32(Next[I]);
  }
}

// After all branches: every branch's final output.
__global__ void layoutJoin(LayoutFinals Finals, unsigned N,
                           const uint32_t *Replay, uint32_t *Checks) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t R = *Replay;
  if (I == 0)
    atomicAdd(&Checks[JoinRuns], 1u);
  if (I >= N)
    return;
  for (uint32_t B = 0; B < 4; ++B)
    if (Finals.Of[B][I] != mix32(nextOf(stampOf(I, R, B), B)))
      atomicAdd(&Checks[FinalErrors], 1u);
}

// Counts each element's runs.
__global__ void layoutCount1D(uint32_t *Runs, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(&Runs[I], 1u);
}

__global__ void layoutCount2D(uint32_t *Runs, unsigned Width) {
  unsigned X = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Y = blockIdx.y * blockDim.y + threadIdx.y;
  atomicAdd(&Runs[Y * Width + X], 1u);
}

namespace {

// Host memory that kernels and the host node share: Done[4], then Gate.
struct HostStage {
  volatile uint32_t *Done = nullptr;
  volatile uint32_t *Gate = nullptr;
  std::atomic<unsigned> Calls{0}, Errors{0};
};

// The host node: every branch's verifying kernel has ended (once per
// replay); opens the gate for this replay.  No CUDA calls in a host node.
void layoutHostStage(void *Data) {
  HostStage &S = *static_cast<HostStage *>(Data);
  const unsigned Call = ++S.Calls;
  for (unsigned B = 0; B < 4; ++B)
    if (S.Done[B] != Call)
      ++S.Errors;
  *S.Gate = Call;
}

class GraphLayoutOrderTest : public GraphLayoutTest {
protected:
  void TearDown() override {
    GraphLayoutTest::TearDown(); // waits for the replays
    for (cudaEvent_t E : {Recorded, Before})
      if (E)
        cudaEventDestroy(E);
    if (Mapped)
      cudaFreeHost(Mapped);
  }

  uint32_t *Mapped = nullptr;
  cudaEvent_t Recorded = nullptr, Before = nullptr;
};

TEST_F(GraphLayoutOrderTest, LayoutsKeepEveryEdge) {
  constexpr unsigned kReplays = 60, N = kLayoutN;
  const unsigned StampBlocks[4] = {256, 512, 1024, 128};
  const unsigned VerifyBlocks[4] = {128, 1024, 256, 512};
  const unsigned FinishBlocks[4] = {512, 128, 1024, 256};
  DeviceArray<uint32_t> Replay, Checks, Arrived, Stamps[4], Next[4], Final[4];
  SMC_CUDA_ASSERT(allocateZeroed(1, Replay));
  SMC_CUDA_ASSERT(allocateZeroed(CheckWords, Checks));
  SMC_CUDA_ASSERT(allocateZeroed(4, Arrived));
  for (unsigned B = 0; B < 4; ++B)
    SMC_CUDA_ASSERT(allocateZeroed(N, Stamps[B], Next[B], Final[B]));
  SMC_CUDA_ASSERT(cudaHostAlloc(reinterpret_cast<void **>(&Mapped),
                                8 * sizeof(uint32_t), cudaHostAllocMapped));
  std::fill(Mapped, Mapped + 8, 0u);
  HostStage Host;
  Host.Done = Mapped;
  Host.Gate = Mapped + 4;
  SMC_CUDA_ASSERT(cudaEventCreateWithFlags(&Recorded, cudaEventDisableTiming));
  SMC_CUDA_ASSERT(cudaEventCreateWithFlags(&Before, cudaEventDisableTiming));

  cudaGraph_t Graph;
  ASSERT_NO_FATAL_FAILURE(beginCapture(1));
  layoutTick<<<1, 32, 0, Streams[0]>>>(Replay.get());
  fork(kStreams);
  for (unsigned B = 0; B < 4; ++B) {
    cudaStream_t S = Streams[B];
    layoutStamp<<<N / StampBlocks[B], StampBlocks[B], 0, S>>>(
        Stamps[B].get(), N, Replay.get(), B);
    if (B == 1) // an event record node inside the branch
      EXPECT_EQ(cudaEventRecordWithFlags(Recorded, S, cudaEventRecordExternal),
                cudaSuccess);
    layoutVerifyStamp<<<N / VerifyBlocks[B], VerifyBlocks[B], 0, S>>>(
        Stamps[B].get(), Next[B].get(), N, Replay.get(), B, Checks.get(),
        Arrived.get(), Mapped);
  }
  join(kStreams);
  EXPECT_EQ(cudaLaunchHostFunc(Streams[0], layoutHostStage, &Host),
            cudaSuccess);
  fork(kStreams);
  for (unsigned B = 0; B < 4; ++B) {
    cudaStream_t S = Streams[B];
    if (B == 2) // an event wait node at the head of the branch
      EXPECT_EQ(cudaStreamWaitEvent(S, Before, cudaEventWaitExternal),
                cudaSuccess);
    layoutFinish<<<N / FinishBlocks[B], FinishBlocks[B], 0, S>>>(
        Next[B].get(), Final[B].get(), N, Replay.get(), B, Mapped + 4,
        Checks.get());
  }
  join(kStreams);
  LayoutFinals Finals = {
      {Final[0].get(), Final[1].get(), Final[2].get(), Final[3].get()}};
  layoutJoin<<<N / 256, 256, 0, Streams[0]>>>(Finals, N, Replay.get(),
                                              Checks.get());
  ASSERT_NO_FATAL_FAILURE(endCapture(1, Graph));

  cudaGraphExec_t Exec;
  ASSERT_NO_FATAL_FAILURE(instantiate(Exec, Graph, smc::GraphLayouts::Random));
  SMC_CUDA_ASSERT(cudaEventRecord(Before, Streams[3]));
  for (unsigned R = 0; R < kReplays; ++R) // not waited for one by one
    SMC_CUDA_ASSERT(cudaGraphLaunch(Exec, Streams[0]));
  SMC_CUDA_SYNC_ASSERT();

  smc::GraphLayoutReport Report;
  ASSERT_NO_FATAL_FAILURE(report(Exec, Report));
  SCOPED_TRACE(reportLine(Report));
  std::vector<uint32_t> Words, Replays;
  SMC_CUDA_ASSERT(Checks.download(Words));
  SMC_CUDA_ASSERT(Replay.download(Replays));
  EXPECT_EQ(Replays[0], kReplays);
  EXPECT_EQ(Words[StampErrors], 0u) << "elements not stamped before checked";
  EXPECT_EQ(Words[GateErrors], 0u) << "CTAs that ran before the host node";
  EXPECT_EQ(Words[NextErrors], 0u) << "results not there after the host node";
  EXPECT_EQ(Words[FinalErrors], 0u) << "final outputs wrong at the join";
  EXPECT_EQ(Words[JoinRuns], kReplays);
  EXPECT_EQ(Host.Calls.load(), kReplays);
  EXPECT_EQ(Host.Errors.load(), 0u)
      << "the host node ran before a branch had ended";
  for (unsigned B = 0; B < 4; ++B)
    EXPECT_EQ(Mapped[B], kReplays) << "ends of branch " << B;
  EXPECT_EQ(cudaEventQuery(Recorded), cudaSuccess);
  EXPECT_TRUE(Report.laidOut);
  EXPECT_EQ(Report.replays, kReplays);
}

// Three executable graphs of one graph, each replayed 40 times, round-robin
// over three streams, so that replays of different executable graphs (and
// their layouts) run at once.  Each branch counts its quarter of the
// elements twice (a 1-D grid of its own block size, then a 2-D grid), and a
// kernel after all branches counts every element once more.
TEST_F(GraphLayoutOrderTest,
       ExecsOfOneGraphOnSeveralStreamsRunEveryKernelOnce) {
  constexpr unsigned kExecs = 3, kReplays = 40, kRegion = 1u << 18;
  constexpr unsigned kCountWidth = 512;
  const unsigned Blocks[4] = {128, 256, 512, 1024};
  DeviceArray<uint32_t> Runs;
  SMC_CUDA_ASSERT(allocateZeroed(4 * kRegion, Runs));
  cudaGraph_t Graph;
  ASSERT_NO_FATAL_FAILURE(beginCapture(kStreams));
  for (unsigned B = 0; B < 4; ++B) {
    uint32_t *Region = Runs.get() + B * kRegion;
    layoutCount1D<<<kRegion / Blocks[B], Blocks[B], 0, Streams[B]>>>(Region,
                                                                     kRegion);
    layoutCount2D<<<dim3(kCountWidth / 32, kRegion / kCountWidth / 8),
                    dim3(32, 8), 0, Streams[B]>>>(Region, kCountWidth);
  }
  join(kStreams);
  layoutCount1D<<<4 * kRegion / 256, 256, 0, Streams[0]>>>(Runs.get(),
                                                           4 * kRegion);
  ASSERT_NO_FATAL_FAILURE(endCapture(1, Graph));

  cudaGraphExec_t Copies[kExecs];
  for (cudaGraphExec_t &E : Copies)
    ASSERT_NO_FATAL_FAILURE(instantiate(E, Graph, smc::GraphLayouts::Random));
  for (unsigned Replay = 0; Replay < kReplays; ++Replay)
    for (unsigned E = 0; E < kExecs; ++E)
      SMC_CUDA_ASSERT(
          cudaGraphLaunch(Copies[E], Streams[(E + Replay) % kExecs]));
  SMC_CUDA_SYNC_ASSERT();
  EXPECT_TRUE(allCountsAre(Runs, kExecs * kReplays * 3, "element"));
  for (cudaGraphExec_t E : Copies) {
    smc::GraphLayoutReport R;
    ASSERT_NO_FATAL_FAILURE(report(E, R));
    EXPECT_TRUE(R.laidOut) << reportLine(R);
    EXPECT_EQ(R.replays, kReplays) << reportLine(R);
  }
}

} // namespace

// Each CTA sleeps for about Cycles clocks (sleeping warps leave the issue
// slots to others, so SM-centric workers hand chunks over as they would in
// a kernel that waits on memory), then counts its run.
__global__ void layoutSleep(uint32_t *Runs, long long Cycles) {
  long long Start = clock64();
  while (clock64() - Start < Cycles)
    __nanosleep(2000);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&Runs[blockIdx.x], 1u);
}

namespace {

// Search mode on a graph of about 0.8 ms (8 waves of 100 us CTAs on 132
// SMs), long enough to be searched: 4,000 replays with trials paced by the
// budget (a layout of a quarter of the workers runs about four times as
// long, so on an H200 the search had not settled after 8,000), every CTA
// run once per replay whatever ran, at most three executable graphs of the
// runtime's; where a whole search settled, the settled search re-measured
// after 2,048 more (on an H200 the first trial, the branches on two lanes,
// cost this graph 0.79 ms, so it was not searched).
TEST_F(GraphLayoutTest, SearchedGraphsRunEveryCtaOnce) {
  constexpr unsigned kCtas = 2048, kReplays = 4000;
  const long long Cycles = 200000; // 100 us at 2 GHz
  DeviceArray<uint32_t> Runs[kStreams];
  for (auto &R : Runs) {
    SMC_CUDA_ASSERT(R.allocate(kCtas));
    SMC_CUDA_ASSERT(cudaMemset(R.get(), 0, R.bytes()));
  }
  cudaGraph_t Graph;
  ASSERT_NO_FATAL_FAILURE(beginCapture(kStreams));
  for (unsigned B = 0; B < kStreams; ++B)
    layoutSleep<<<kCtas, 256, 0, Streams[B]>>>(Runs[B].get(), Cycles);
  ASSERT_NO_FATAL_FAILURE(endCapture(kStreams, Graph));
  cudaGraphExec_t Exec;
  ASSERT_NO_FATAL_FAILURE(instantiate(Exec, Graph, smc::GraphLayouts::Search));
  unsigned SettledAt = 0;
  smc::GraphLayoutReport R;
  for (unsigned Replay = 1; Replay <= kReplays; ++Replay) {
    SMC_CUDA_ASSERT(cudaGraphLaunch(Exec, Streams[0]));
    if (Replay % 64)
      continue;
    SMC_CUDA_ASSERT(cudaStreamSynchronize(Streams[0]));
    ASSERT_NO_FATAL_FAILURE(report(Exec, R));
    if (R.settled && !SettledAt)
      SettledAt = Replay;
  }
  SMC_CUDA_ASSERT(cudaStreamSynchronize(Streams[0]));
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  std::printf("[ info     ] %s, settled at %u, %u rechecks\n",
              reportLine(R).c_str(), SettledAt, R.rechecks);
  EXPECT_TRUE(R.laidOut) << reportLine(R);
  EXPECT_EQ(R.replays, kReplays) << reportLine(R);
  EXPECT_GT(R.trials, 0u) << reportLine(R);
  // Rechecked only after a whole search (192 trials): a graph whose first
  // trial costs too much for one is not searched, and not rechecked.
  if (SettledAt && SettledAt + 2048 + 64 <= kReplays && R.trials >= 192)
    EXPECT_GE(R.rechecks, 1u) << reportLine(R);
  EXPECT_LE(R.executables, 3u) << reportLine(R);
  for (unsigned B = 0; B < kStreams; ++B) {
    std::vector<uint32_t> Host;
    SMC_CUDA_ASSERT(Runs[B].download(Host));
    for (unsigned I = 0; I < kCtas; ++I)
      ASSERT_EQ(Host[I], kReplays) << "branch " << B << ", CTA " << I;
  }
}

} // namespace
