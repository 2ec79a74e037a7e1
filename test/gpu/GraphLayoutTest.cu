//===- GraphLayoutTest.cu - Graph layouts keep a graph's results ----------===//
//
// The fixture of the graph layout tests (GraphLayoutTest.h) and its
// program's kernels, and the tests that replays of laid-out executable
// graphs (smc::setGraphLayouts) give what the graph as instantiated gives:
// in Random mode, where every replay runs a layout chosen at random or the
// original, the outputs of the four-branch program after each replay equal
// those of an executable graph instantiated in Off mode, bit for bit, also
// with a child-graph node inside one branch; an executable graph updated
// with cudaGraphExecUpdate writes the new graph's buffers and no longer the
// old ones; and Search mode settles on a layout within 400 replays.
// Dependencies, host and event nodes, and executable graphs replayed at
// once: GraphLayoutOrderTest.cu; graphs not laid out and kernel nodes
// changed by the program: GraphLayoutFallbackTest.cu.
//===----------------------------------------------------------------------===//
#include "GraphLayoutTest.h"

#include <algorithm>
#include <sstream>

using namespace smctest;

// Kernels have external linkage: the runtime finds variants by name.

// Out[i] = mix(A[i] + 3 B[i] + Salt).
__global__ void layoutMix(const uint32_t *A, const uint32_t *B, uint32_t *Out,
                          unsigned N, uint32_t Salt) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = mix32(A[I] + 3u * B[I] + Salt);
}

// Out[i] = In[i] * Mul + Add.
__global__ void layoutScale(const uint32_t *In, uint32_t *Out, unsigned N,
                            uint32_t Mul, uint32_t Add) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I] * Mul + Add;
}

// Reads the mirrored element, which another CTA of the kernel before wrote.
__global__ void layoutReverse(const uint32_t *In, uint32_t *Out, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[N - 1 - I] ^ I;
}

// A hash chain per element, on a 2-D grid of 2-D blocks.
__global__ void layoutHash2D(const uint32_t *In, uint32_t *Out, unsigned Width,
                             unsigned Rounds) {
  unsigned X = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned I = Y * Width + X;
  uint32_t H = In[I] ^ (X * 2654435761u) ^ (Y << 16);
  for (unsigned R = 0; R < Rounds; ++R)
    H = (H ^ (H >> 15)) * 2246822519u + R;
  Out[I] = H;
}

constexpr unsigned kBlockSumThreads = 128;

// Out[i] = In[i] ^ (sum of the CTA's elements + blockIdx.x): shared memory
// and a barrier per step.
__global__ void layoutBlockSum(const uint32_t *In, uint32_t *Out, unsigned N) {
  __shared__ uint32_t Sums[kBlockSumThreads];
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t V = I < N ? In[I] : 0u;
  Sums[threadIdx.x] = V;
  __syncthreads();
  for (unsigned S = kBlockSumThreads / 2; S > 0; S /= 2) {
    if (threadIdx.x < S)
      Sums[threadIdx.x] += Sums[threadIdx.x + S];
    __syncthreads();
  }
  if (I < N)
    Out[I] = V ^ (Sums[0] + blockIdx.x);
}

// Grid-stride loop: a grid of any size covers the N elements.
__global__ void layoutStride(const uint32_t *In, uint32_t *Out, unsigned N,
                             uint32_t Salt) {
  for (unsigned I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x)
    Out[I] = mix32(In[I] ^ Salt) + I;
}

namespace smctest {

LayoutOutputs LayoutProgram::outputs(unsigned Mask) const {
  LayoutOutputs Outs;
  for (unsigned B = 0; B < 4; ++B)
    for (unsigned K = 0; Mask >> B & 1 && K < 3; ++K)
      Outs.push_back(
          {"branch " + std::to_string(B) + " output " + std::to_string(K),
           &Out[B][K]});
  return Outs;
}

std::string reportLine(const smc::GraphLayoutReport &R) {
  std::ostringstream S;
  S << "laidOut " << R.laidOut << " (" << R.reason << "), " << R.coRunSets
    << " co-run sets of " << R.branches << " branches, " << R.replays
    << " replays, " << R.trials << " trials, settled " << R.settled << " on '"
    << R.layout << "' (" << R.layoutMs << " ms, original " << R.originalMs
    << " ms), " << R.executables << " executables";
  return S.str();
}

void GraphLayoutTest::SetUp() {
  SmcGpuTest::SetUp();
  if (HasFatalFailure())
    return;
  smc::setGraphLayouts(smc::GraphLayouts::Off); // not SMC_GRAPH_LAYOUTS
  for (unsigned S = 0; S < kStreams; ++S) {
    SMC_CUDA_ASSERT(
        cudaStreamCreateWithFlags(&Streams[S], cudaStreamNonBlocking));
    SMC_CUDA_ASSERT(
        cudaEventCreateWithFlags(&Joins[S], cudaEventDisableTiming));
  }
  InHost = randomWords(kLayoutN, 11);
  SMC_CUDA_ASSERT(In.upload(InHost));
}

void GraphLayoutTest::TearDown() {
  cudaDeviceSynchronize();
  for (cudaGraphExec_t E : Execs)
    cudaGraphExecDestroy(E);
  for (cudaGraph_t G : Graphs)
    cudaGraphDestroy(G);
  for (unsigned S = 0; S < kStreams; ++S) {
    if (Joins[S])
      cudaEventDestroy(Joins[S]);
    if (Streams[S])
      cudaStreamDestroy(Streams[S]);
  }
  smc::setGraphLayouts(smc::GraphLayouts::Off);
  SmcGpuTest::TearDown();
}

void GraphLayoutTest::allocate(LayoutProgram &P) {
  for (auto &Branch : P.Out)
    for (DeviceArray<uint32_t> &A : Branch)
      SMC_CUDA_ASSERT(A.allocate(kLayoutN));
}

void GraphLayoutTest::beginCapture(unsigned Count) {
  SMC_CUDA_ASSERT(
      cudaStreamBeginCapture(Streams[0], cudaStreamCaptureModeGlobal));
  fork(Count);
}

void GraphLayoutTest::fork(unsigned Count) {
  EXPECT_EQ(cudaEventRecord(Joins[0], Streams[0]), cudaSuccess);
  for (unsigned S = 1; S < Count; ++S)
    EXPECT_EQ(cudaStreamWaitEvent(Streams[S], Joins[0], 0), cudaSuccess);
}

void GraphLayoutTest::join(unsigned Count) {
  for (unsigned S = 1; S < Count; ++S) {
    EXPECT_EQ(cudaEventRecord(Joins[S], Streams[S]), cudaSuccess);
    EXPECT_EQ(cudaStreamWaitEvent(Streams[0], Joins[S], 0), cudaSuccess);
  }
}

void GraphLayoutTest::endCapture(unsigned Count, cudaGraph_t &Graph) {
  join(Count);
  Graph = nullptr;
  SMC_CUDA_ASSERT(cudaStreamEndCapture(Streams[0], &Graph));
  ASSERT_NE(Graph, nullptr);
  own(Graph);
  SMC_CUDA_ASSERT(cudaGetLastError());
}

void GraphLayoutTest::launchBranches(const LayoutProgram &P, unsigned Mask) {
  const uint32_t *Src = In.get();
  const unsigned N = kLayoutN;
  const size_t Bytes = N * sizeof(uint32_t);
  auto Out = [&](int B, int K) { return P.Out[B][K].get(); };
  if (Mask & 1) { // a memset, 2048 CTAs of 256 threads, 1024 of 512
    cudaStream_t S = Streams[0];
    EXPECT_EQ(cudaMemsetAsync(Out(0, 0), 0x5A, Bytes, S), cudaSuccess);
    layoutMix<<<N / 256, 256, 0, S>>>(Src, Out(0, 0), Out(0, 1), N, 1);
    layoutReverse<<<N / 512, 512, 0, S>>>(Out(0, 1), Out(0, 2), N);
  }
  if (Mask & 2) { // 512 CTAs of 1024 threads, a copy, a 2-D grid
    cudaStream_t S = Streams[1];
    layoutScale<<<N / 1024, 1024, 0, S>>>(Src, Out(1, 0), N, 3, 1);
    EXPECT_EQ(cudaMemcpyAsync(Out(1, 1), Out(1, 0), Bytes,
                              cudaMemcpyDeviceToDevice, S),
              cudaSuccess);
    layoutHash2D<<<kLayoutHashGrid, kLayoutHashBlock, 0, S>>>(
        Out(1, 1), Out(1, 2), kLayoutWidth, 8);
  }
  if (Mask & 4) { // a long 2-D grid, 4096 CTAs of 128 threads, 264 CTAs
    cudaStream_t S = Streams[2];
    layoutHash2D<<<kLayoutHashGrid, kLayoutHashBlock, 0, S>>>(Src, Out(2, 0),
                                                              kLayoutWidth, 64);
    layoutBlockSum<<<N / kBlockSumThreads, kBlockSumThreads, 0, S>>>(
        Out(2, 0), Out(2, 1), N);
    layoutStride<<<264, 256, 0, S>>>(Out(2, 1), Out(2, 2), N, 2);
  }
  if (Mask & 8) { // 264 CTAs, 2048 of 256 threads, 512 of 1024
    cudaStream_t S = Streams[3];
    layoutStride<<<264, 256, 0, S>>>(Src, Out(3, 0), N, 3);
    layoutMix<<<N / 256, 256, 0, S>>>(Out(3, 0), Src, Out(3, 1), N, 4);
    layoutScale<<<N / 1024, 1024, 0, S>>>(Out(3, 1), Out(3, 2), N, 5, 7);
  }
}

void GraphLayoutTest::captureProgram(cudaGraph_t &Graph, const LayoutProgram &P,
                                     unsigned Mask) {
  ASSERT_NO_FATAL_FAILURE(beginCapture(kStreams));
  launchBranches(P, Mask);
  ASSERT_NO_FATAL_FAILURE(endCapture(kStreams, Graph));
}

void GraphLayoutTest::instantiate(cudaGraphExec_t &Exec, cudaGraph_t Graph,
                                  smc::GraphLayouts Mode) {
  smc::setGraphLayouts(Mode);
  Exec = nullptr;
  SMC_CUDA_ASSERT(cudaGraphInstantiate(&Exec, Graph, 0));
  Execs.push_back(Exec);
}

void GraphLayoutTest::destroy(cudaGraphExec_t Exec) {
  SMC_CUDA_ASSERT(cudaDeviceSynchronize());
  Execs.erase(std::remove(Execs.begin(), Execs.end(), Exec), Execs.end());
  SMC_CUDA_ASSERT(cudaGraphExecDestroy(Exec));
}

void GraphLayoutTest::report(cudaGraphExec_t Exec, smc::GraphLayoutReport &R) {
  R = smc::GraphLayoutReport();
  ASSERT_TRUE(smc::graphLayoutReport(Exec, R))
      << "the runtime does not know an executable graph the test "
         "instantiated";
}

void GraphLayoutTest::poison(const LayoutOutputs &Outs) {
  for (const LayoutOutput &O : Outs)
    SMC_CUDA_ASSERT(cudaMemset(O.Array->get(), kPoison, O.Array->bytes()));
  SMC_CUDA_SYNC_ASSERT(); // the legacy stream does not order ours
}

void GraphLayoutTest::download(const LayoutOutputs &Outs,
                               std::vector<Bytes> &Results) {
  SMC_CUDA_SYNC_ASSERT();
  Results.assign(Outs.size(), Bytes());
  for (size_t I = 0; I < Outs.size(); ++I) {
    Results[I].resize(Outs[I].Array->bytes());
    SMC_CUDA_ASSERT(cudaMemcpy(Results[I].data(), Outs[I].Array->get(),
                               Results[I].size(), cudaMemcpyDeviceToHost));
  }
}

void GraphLayoutTest::expectUntouched(const LayoutOutputs &Outs,
                                      const std::string &When) {
  std::vector<Bytes> Results;
  ASSERT_NO_FATAL_FAILURE(download(Outs, Results));
  for (size_t I = 0; I < Outs.size(); ++I)
    expectSameBytes(Bytes(Results[I].size(), uint8_t(kPoison)), Results[I],
                    When + ": " + Outs[I].Name + " (poison)");
}

void GraphLayoutTest::referenceReplay(cudaGraph_t Graph,
                                      const LayoutOutputs &Outs,
                                      std::vector<Bytes> &Reference) {
  cudaGraphExec_t Exec;
  ASSERT_NO_FATAL_FAILURE(instantiate(Exec, Graph, smc::GraphLayouts::Off));
  smc::GraphLayoutReport R;
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  EXPECT_FALSE(R.laidOut) << "Off mode: " << reportLine(R);
  ASSERT_NO_FATAL_FAILURE(poison(Outs));
  SMC_CUDA_ASSERT(cudaGraphLaunch(Exec, Streams[0]));
  ASSERT_NO_FATAL_FAILURE(download(Outs, Reference));
  ASSERT_NO_FATAL_FAILURE(destroy(Exec));
  for (size_t I = 0; I < Outs.size(); ++I)
    ASSERT_FALSE(std::all_of(
        Reference[I].begin(), Reference[I].end(),
        [](uint8_t B) { return B == static_cast<uint8_t>(kPoison); }))
        << "the graph in Off mode wrote nothing into " << Outs[I].Name;
}

void GraphLayoutTest::expectReplaysMatch(cudaGraphExec_t Exec,
                                         const LayoutOutputs &Outs,
                                         const std::vector<Bytes> &Reference,
                                         unsigned Replays) {
  ASSERT_EQ(Outs.size(), Reference.size());
  for (unsigned Replay = 0; Replay < Replays; ++Replay) {
    ASSERT_NO_FATAL_FAILURE(poison(Outs));
    SMC_CUDA_ASSERT(cudaGraphLaunch(Exec, Streams[0]));
    std::vector<Bytes> Results;
    ASSERT_NO_FATAL_FAILURE(download(Outs, Results));
    bool Differs = false;
    for (size_t I = 0; I < Outs.size(); ++I) {
      if (Results[I] == Reference[I])
        continue;
      Differs = true;
      expectSameBytes(Reference[I], Results[I],
                      "replay " + std::to_string(Replay) + ": " + Outs[I].Name);
    }
    if (Differs) {
      smc::GraphLayoutReport R;
      smc::graphLayoutReport(Exec, R);
      FAIL() << "outputs of replay " << Replay << " differ from the graph's "
             << "in Off mode; " << reportLine(R);
    }
  }
}

} // namespace smctest

namespace {

constexpr unsigned kRandomReplays = 60;

TEST_F(GraphLayoutTest, EveryLayoutGivesTheOriginalsResults) {
  // One kernel's nodes are the original kernel, the others' __smc
  // variants: the runtime lays out both.
  smc::setPolicy(layoutScale, smc::Policy::original());
  LayoutProgram P;
  ASSERT_NO_FATAL_FAILURE(allocate(P));
  cudaGraph_t Graph;
  ASSERT_NO_FATAL_FAILURE(captureProgram(Graph, P));
  const LayoutOutputs Outs = P.outputs();
  std::vector<Bytes> Reference;
  ASSERT_NO_FATAL_FAILURE(referenceReplay(Graph, Outs, Reference));
  cudaGraphExec_t Exec;
  ASSERT_NO_FATAL_FAILURE(instantiate(Exec, Graph, smc::GraphLayouts::Random));
  expectReplaysMatch(Exec, Outs, Reference, kRandomReplays);
  smc::GraphLayoutReport R;
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  EXPECT_TRUE(R.laidOut) << reportLine(R);
  EXPECT_GE(R.coRunSets, 1u) << reportLine(R);
  EXPECT_EQ(R.branches, 4u) << reportLine(R);
  EXPECT_EQ(R.replays, kRandomReplays) << reportLine(R);
}

// Branches 1-3 of the program and, as the fourth, a chain of a kernel, a
// child-graph node of a captured chain of two kernels, and a kernel: the
// child node, added during the capture, is part of a branch (a chain
// without a kernel is none).
TEST_F(GraphLayoutTest, ChildGraphBranchGivesTheOriginalsResults) {
  LayoutProgram P;
  ASSERT_NO_FATAL_FAILURE(allocate(P));
  DeviceArray<uint32_t> C[4];
  for (DeviceArray<uint32_t> &A : C)
    SMC_CUDA_ASSERT(A.allocate(kLayoutN));
  cudaGraph_t Child, Parent;
  ASSERT_NO_FATAL_FAILURE(beginCapture(1));
  layoutReverse<<<kLayoutN / 128, 128, 0, Streams[0]>>>(C[0].get(), C[1].get(),
                                                        kLayoutN);
  layoutBlockSum<<<kLayoutN / kBlockSumThreads, kBlockSumThreads, 0,
                   Streams[0]>>>(C[1].get(), C[2].get(), kLayoutN);
  ASSERT_NO_FATAL_FAILURE(endCapture(1, Child));

  auto AddChild = driverFunction<PFN_cuGraphAddChildGraphNode_v10000>(
      "cuGraphAddChildGraphNode", 10000);
  ASSERT_NE(AddChild, nullptr);
  ASSERT_NO_FATAL_FAILURE(beginCapture(kStreams));
  launchBranches(P, 0xE);
  layoutScale<<<kLayoutN / 256, 256, 0, Streams[0]>>>(In.get(), C[0].get(),
                                                      kLayoutN, 11, 5);
  cudaStreamCaptureStatus Status;
  cudaGraph_t Capturing = nullptr;
  const cudaGraphNode_t *Deps = nullptr;
  size_t NumDeps = 0;
#if CUDART_VERSION >= 13000
  EXPECT_EQ(cudaStreamGetCaptureInfo(Streams[0], &Status, nullptr, &Capturing,
                                     &Deps, nullptr, &NumDeps),
            cudaSuccess);
#else
  EXPECT_EQ(cudaStreamGetCaptureInfo(Streams[0], &Status, nullptr, &Capturing,
                                     &Deps, &NumDeps),
            cudaSuccess);
#endif
  CUgraphNode Node = nullptr;
  EXPECT_EQ(AddChild(&Node, Capturing, Deps, NumDeps, Child), CUDA_SUCCESS);
#if CUDART_VERSION >= 13000
  EXPECT_EQ(
      cudaStreamUpdateCaptureDependencies(Streams[0], &Node, nullptr, 1,
                                          cudaStreamSetCaptureDependencies),
      cudaSuccess);
#else
  EXPECT_EQ(cudaStreamUpdateCaptureDependencies(
                Streams[0], &Node, 1, cudaStreamSetCaptureDependencies),
            cudaSuccess);
#endif
  layoutMix<<<kLayoutN / 512, 512, 0, Streams[0]>>>(C[2].get(), In.get(),
                                                    C[3].get(), kLayoutN, 9);
  ASSERT_NO_FATAL_FAILURE(endCapture(kStreams, Parent));
  ASSERT_NE(Node, nullptr);

  LayoutOutputs Outs = P.outputs(0xE);
  for (unsigned I = 0; I < 4; ++I)
    Outs.push_back({"child's branch output " + std::to_string(I), &C[I]});
  std::vector<Bytes> Reference;
  ASSERT_NO_FATAL_FAILURE(referenceReplay(Parent, Outs, Reference));
  cudaGraphExec_t Exec;
  ASSERT_NO_FATAL_FAILURE(instantiate(Exec, Parent, smc::GraphLayouts::Random));
  expectReplaysMatch(Exec, Outs, Reference, kRandomReplays);
  smc::GraphLayoutReport R;
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  EXPECT_TRUE(R.laidOut) << reportLine(R);
  EXPECT_EQ(R.branches, 4u) << reportLine(R);
}

// Search mode: 20 replays, the update from a capture of the same topology
// whose kernels write other buffers, 20 more replays.
TEST_F(GraphLayoutTest, ExecUpdateWritesTheNewBuffersOnly) {
  LayoutProgram Old, New;
  ASSERT_NO_FATAL_FAILURE(allocate(Old));
  ASSERT_NO_FATAL_FAILURE(allocate(New));
  cudaGraph_t First, Second;
  ASSERT_NO_FATAL_FAILURE(captureProgram(First, Old));
  ASSERT_NO_FATAL_FAILURE(captureProgram(Second, New));
  const LayoutOutputs OldOuts = Old.outputs(), NewOuts = New.outputs();
  std::vector<Bytes> OldReference, NewReference;
  ASSERT_NO_FATAL_FAILURE(referenceReplay(First, OldOuts, OldReference));
  ASSERT_NO_FATAL_FAILURE(referenceReplay(Second, NewOuts, NewReference));
  ASSERT_NO_FATAL_FAILURE(poison(NewOuts));

  cudaGraphExec_t Exec;
  ASSERT_NO_FATAL_FAILURE(instantiate(Exec, First, smc::GraphLayouts::Search));
  ASSERT_NO_FATAL_FAILURE(expectReplaysMatch(Exec, OldOuts, OldReference, 20));
  expectUntouched(NewOuts, "before the update");
  cudaGraphExecUpdateResultInfo Info{};
  SMC_CUDA_ASSERT(cudaGraphExecUpdate(Exec, Second, &Info));
  ASSERT_EQ(Info.result, cudaGraphExecUpdateSuccess);
  smc::GraphLayoutReport R;
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  EXPECT_TRUE(R.laidOut) << "after the update: " << reportLine(R);

  ASSERT_NO_FATAL_FAILURE(poison(OldOuts));
  expectReplaysMatch(Exec, NewOuts, NewReference, 20);
  expectUntouched(OldOuts, "after the update");
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  EXPECT_TRUE(R.laidOut) << reportLine(R);
}

// Search mode, 400 replays (each waited for, as a program's loop would):
// trials ran, at most every other replay (fewer where the trial budget
// holds them back: this graph is short, docs/graphs.md), the runtime holds
// at most three executable graphs of its own for the program's, and the
// last replay's results are the original's.  Timings are reported, never
// checked.
TEST_F(GraphLayoutTest, SearchTrialsStayWithinTheirShare) {
  constexpr unsigned kReplays = 400;
  LayoutProgram P;
  ASSERT_NO_FATAL_FAILURE(allocate(P));
  cudaGraph_t Graph;
  ASSERT_NO_FATAL_FAILURE(captureProgram(Graph, P));
  const LayoutOutputs Outs = P.outputs();
  std::vector<Bytes> Reference;
  ASSERT_NO_FATAL_FAILURE(referenceReplay(Graph, Outs, Reference));
  cudaGraphExec_t Exec;
  ASSERT_NO_FATAL_FAILURE(instantiate(Exec, Graph, smc::GraphLayouts::Search));
  for (unsigned Replay = 0; Replay + 1 < kReplays; ++Replay) {
    SMC_CUDA_ASSERT(cudaGraphLaunch(Exec, Streams[0]));
    SMC_CUDA_ASSERT(cudaStreamSynchronize(Streams[0]));
  }
  // The last replay runs what the search kept (or is a trial).
  ASSERT_NO_FATAL_FAILURE(expectReplaysMatch(Exec, Outs, Reference, 1));
  smc::GraphLayoutReport R;
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  std::printf("[ info     ] %s\n", reportLine(R).c_str());
  EXPECT_TRUE(R.laidOut) << reportLine(R);
  EXPECT_EQ(R.replays, kReplays) << reportLine(R);
  EXPECT_FALSE(R.layout.empty()) << reportLine(R);
  EXPECT_GT(R.trials, 0u) << reportLine(R);
  EXPECT_LE(R.trials, kReplays / 2) << reportLine(R);
  EXPECT_LE(R.executables, 3u) << reportLine(R);

  // Destroyed, the executable graph is no longer the runtime's.
  ASSERT_NO_FATAL_FAILURE(destroy(Exec));
  EXPECT_FALSE(smc::graphLayoutReport(Exec, R));
}

} // namespace
