//===- GraphTest.cu - Executable graphs that run at the same time ---------===//
//
// CUDA runs the launches of one executable graph one after another, but
// executable graphs instantiated from one graph may run at the same time:
// their SM-centric kernel nodes must not share launch counters.  Each test
// builds several executable graphs of one capture - instantiated again, as
// two child-graph nodes of one parent, or updated from another graph with
// cudaGraphExecUpdate - replays them on several streams at once, and checks
// that every chunk ran exactly as often as the graphs were replayed, in loop
// and in one-chunk mode.  With one shared counter block the chunks ran 590
// and 239 times instead of 1000 (H100).
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <cudaTypedefs.h>

using namespace smctest;

// Kernels have external linkage: the runtime finds variants by name.

// Loop mode: counts each chunk's runs.
__global__ void graphCountRuns(uint32_t *Runs) {
  if (threadIdx.x == 0)
    atomicAdd(&Runs[blockIdx.x + gridDim.x * blockIdx.y], 1u);
}

// One-chunk mode: threads past the first 64 leave before the barrier.
__global__ void graphCountRunsEarlyExit(uint32_t *Runs) {
  __shared__ uint32_t Seen[64];
  if (threadIdx.x >= 64)
    return;
  Seen[threadIdx.x] = blockIdx.x + gridDim.x * blockIdx.y;
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&Runs[Seen[63]], 1u);
}

namespace {

constexpr int kExecs = 4;
constexpr int kReplays = 250;
const dim3 kGrid(37, 29);
constexpr unsigned kChunks = 37 * 29;

class Graphs : public SmcGpuTest {
protected:
  void SetUp() override {
    SmcGpuTest::SetUp();
    if (HasFatalFailure())
      return;
    SMC_CUDA_ASSERT(Runs.allocate(kChunks));
    SMC_CUDA_ASSERT(RunsEarly.allocate(kChunks));
    SMC_CUDA_ASSERT(cudaMemset(Runs.get(), 0, Runs.bytes()));
    SMC_CUDA_ASSERT(cudaMemset(RunsEarly.get(), 0, RunsEarly.bytes()));
    for (cudaStream_t &S : Streams)
      SMC_CUDA_ASSERT(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
    // Every SM named: the grid is one wave, which the default policy would
    // run as the original (docs/light.md).
    const smc::Policy EverySm = smc::Policy::smCentric(0, smRange(0, numSMs()));
    smc::setPolicy(graphCountRuns, EverySm);
    smc::setPolicy(graphCountRunsEarlyExit, EverySm);
  }
  void TearDown() override {
    for (cudaGraphExec_t E : Execs)
      if (E)
        cudaGraphExecDestroy(E);
    for (cudaGraph_t G : Owned)
      cudaGraphDestroy(G);
    for (cudaStream_t S : Streams)
      if (S)
        cudaStreamDestroy(S);
    SmcGpuTest::TearDown();
  }

  // One capture of both kernels on Streams[0].
  cudaGraph_t capture() {
    cudaGraph_t Graph = nullptr;
    EXPECT_EQ(cudaStreamBeginCapture(Streams[0], cudaStreamCaptureModeGlobal),
              cudaSuccess);
    graphCountRuns<<<kGrid, 128, 0, Streams[0]>>>(Runs.get());
    graphCountRunsEarlyExit<<<kGrid, 128, 0, Streams[0]>>>(RunsEarly.get());
    EXPECT_EQ(cudaStreamEndCapture(Streams[0], &Graph), cudaSuccess);
    Owned.push_back(Graph);
    return Graph;
  }

  // Checks that the captured launches are the kernels' __smc variants, not
  // the originals: otherwise the test would prove nothing.
  void expectVariantNodes(cudaGraph_t Graph) {
    auto GetParams = driverFunction<PFN_cuGraphKernelNodeGetParams_v12000>(
        "cuGraphKernelNodeGetParams", 12000);
    ASSERT_NE(GetParams, nullptr);
    cudaFunction_t Originals[2];
    SMC_CUDA_ASSERT(cudaGetFuncBySymbol(
        &Originals[0], reinterpret_cast<const void *>(graphCountRuns)));
    SMC_CUDA_ASSERT(cudaGetFuncBySymbol(
        &Originals[1],
        reinterpret_cast<const void *>(graphCountRunsEarlyExit)));
    size_t Count = 0;
    SMC_CUDA_ASSERT(cudaGraphGetNodes(Graph, nullptr, &Count));
    std::vector<cudaGraphNode_t> Nodes(Count);
    SMC_CUDA_ASSERT(cudaGraphGetNodes(Graph, Nodes.data(), &Count));
    ASSERT_EQ(Count, 2u);
    for (cudaGraphNode_t Node : Nodes) {
      CUDA_KERNEL_NODE_PARAMS P{};
      ASSERT_EQ(GetParams(Node, &P), CUDA_SUCCESS);
      EXPECT_NE(P.func, reinterpret_cast<CUfunction>(Originals[0]));
      EXPECT_NE(P.func, reinterpret_cast<CUfunction>(Originals[1]));
      EXPECT_EQ(P.gridDimY, 1u) << "a 1-D worker grid, not the original's";
    }
  }

  // Replays every executable graph kReplays times, each on its own stream,
  // and checks that every chunk ran Expected times.
  void replayAndCheck(uint32_t RunsPerReplay) {
    for (int R = 0; R < kReplays; ++R)
      for (int E = 0; E < kExecs; ++E)
        SMC_CUDA_ASSERT(cudaGraphLaunch(Execs[E], Streams[E]));
    SMC_CUDA_SYNC_ASSERT();
    std::vector<uint32_t> Counts, CountsEarly;
    SMC_CUDA_ASSERT(Runs.download(Counts));
    SMC_CUDA_ASSERT(RunsEarly.download(CountsEarly));
    const uint32_t Expected = kExecs * kReplays * RunsPerReplay;
    unsigned Wrong = 0, WrongEarly = 0;
    for (unsigned C = 0; C < kChunks; ++C) {
      Wrong += Counts[C] != Expected;
      WrongEarly += CountsEarly[C] != Expected;
    }
    EXPECT_EQ(Wrong, 0u) << "loop mode: chunks not run exactly " << Expected
                         << " times (chunk 0 ran " << Counts[0] << ")";
    EXPECT_EQ(WrongEarly, 0u)
        << "one-chunk mode: chunks not run exactly " << Expected
        << " times (chunk 0 ran " << CountsEarly[0] << ")";
  }

  DeviceArray<uint32_t> Runs, RunsEarly;
  cudaStream_t Streams[kExecs] = {};
  cudaGraphExec_t Execs[kExecs] = {};
  std::vector<cudaGraph_t> Owned;
};

TEST_F(Graphs, ExecsOfOneCaptureRunAtOnce) {
  cudaGraph_t Graph = capture();
  ASSERT_NO_FATAL_FAILURE(expectVariantNodes(Graph));
  SMC_CUDA_ASSERT(cudaGraphInstantiate(&Execs[0], Graph, 0));
  SMC_CUDA_ASSERT(cudaGraphInstantiateWithFlags(&Execs[1], Graph, 0));
  cudaGraphInstantiateParams Params{};
  SMC_CUDA_ASSERT(cudaGraphInstantiateWithParams(&Execs[2], Graph, &Params));
  SMC_CUDA_ASSERT(Params.result_out == cudaGraphInstantiateSuccess
                      ? cudaSuccess
                      : cudaErrorUnknown);
  SMC_CUDA_ASSERT(cudaGraphInstantiate(&Execs[3], Graph, 0));
  replayAndCheck(1);
}

// Two child-graph nodes of one capture, side by side in one parent: they
// run at the same time even within one executable graph.
TEST_F(Graphs, ChildGraphsOfOneCaptureRunAtOnce) {
  cudaGraph_t Child = capture();
  cudaGraph_t Parent = nullptr;
  SMC_CUDA_ASSERT(cudaGraphCreate(&Parent, 0));
  Owned.push_back(Parent);
  auto AddChild = driverFunction<PFN_cuGraphAddChildGraphNode_v10000>(
      "cuGraphAddChildGraphNode", 10000);
  ASSERT_NE(AddChild, nullptr);
  CUgraphNode Nodes[2];
  for (CUgraphNode &N : Nodes)
    ASSERT_EQ(AddChild(&N, Parent, nullptr, 0, Child), CUDA_SUCCESS);
  for (cudaGraphExec_t &E : Execs)
    SMC_CUDA_ASSERT(cudaGraphInstantiate(&E, Parent, 0));
  replayAndCheck(2);
}

// Executable graphs of two captures, then all updated from the first.
TEST_F(Graphs, ExecsUpdatedFromOneGraphRunAtOnce) {
  cudaGraph_t First = capture();
  cudaGraph_t Second = capture();
  SMC_CUDA_ASSERT(cudaGraphInstantiate(&Execs[0], First, 0));
  for (int E = 1; E < kExecs; ++E) {
    SMC_CUDA_ASSERT(cudaGraphInstantiate(&Execs[E], Second, 0));
    cudaGraphExecUpdateResultInfo Info{};
    SMC_CUDA_ASSERT(cudaGraphExecUpdate(Execs[E], First, &Info));
    ASSERT_EQ(Info.result, cudaGraphExecUpdateSuccess);
  }
  replayAndCheck(1);
}

} // namespace
