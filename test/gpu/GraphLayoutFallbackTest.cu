//===- GraphLayoutFallbackTest.cu - Graphs the runtime does not lay out ---===//
//
// Where graph layouts stop, and that the graph's results are unchanged
// there: a graph with a conditional node, or with memory allocation and
// free nodes, is not laid out (smc::graphLayoutReport says why) and its
// replays in Random mode give what it gives in Off mode; a kernel node of
// a laid-out executable graph changed with cudaGraphExecKernelNodeSetParams
// turns layouts off for that executable graph, and the replays run the
// change.  The graphs are built node by node (cudaGraphAddKernelNode: the
// kernels' original functions, not __smc variants) where the tests need a
// node's handle, and captured where they need memory nodes.
//===----------------------------------------------------------------------===//
#include "GraphLayoutTest.h"

#include <cstring>
#include <tuple>

using namespace smctest;

// Kernels have external linkage: the runtime finds variants by name.

__global__ void layoutDirectScale(const uint32_t *In, uint32_t *Out, unsigned N,
                                  uint32_t Mul, uint32_t Add) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I] * Mul + Add;
}

__global__ void layoutDirectMix(const uint32_t *A, const uint32_t *B,
                                uint32_t *Out, unsigned N, uint32_t Salt) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = mix32(A[I] ^ (B[I] * 5u + Salt));
}

// Reads the mirrored element, which another CTA of the kernel before wrote.
__global__ void layoutDirectReverse(const uint32_t *In, uint32_t *Out,
                                    unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[N - 1 - I] + I;
}

namespace {

constexpr unsigned N = kLayoutN;

/// Adds a node launching \p Kernel with arguments \p Values (converted to
/// its parameter types) after \p Dep (none if null).
template <typename... Params, typename... Args>
cudaError_t addKernel(cudaGraphNode_t &Node, cudaGraph_t Graph,
                      cudaGraphNode_t Dep, void (*Kernel)(Params...),
                      unsigned Block, Args... Values) {
  std::tuple<Params...> Typed(Values...);
  return std::apply(
      [&](auto &...P) {
        void *Pointers[] = {static_cast<void *>(&P)...};
        cudaKernelNodeParams K{};
        K.func = reinterpret_cast<void *>(Kernel);
        K.gridDim = dim3(N / Block);
        K.blockDim = dim3(Block);
        K.kernelParams = Pointers;
        return cudaGraphAddKernelNode(&Node, Graph, Dep ? &Dep : nullptr,
                                      Dep ? 1 : 0, &K);
      },
      Typed);
}

/// The buffers of the graph built node by node: two per branch.
struct DirectProgram {
  DeviceArray<uint32_t> Out[4][2];
  LayoutOutputs outputs() const {
    LayoutOutputs Outs;
    for (unsigned B = 0; B < 4; ++B)
      for (unsigned K = 0; K < 2; ++K)
        Outs.push_back(
            {"branch " + std::to_string(B) + " output " + std::to_string(K),
             &Out[B][K]});
    return Outs;
  }
};

class GraphLayoutFallbackTest : public GraphLayoutTest {
protected:
  void SetUp() override {
    GraphLayoutTest::SetUp();
    if (HasFatalFailure())
      return;
    // Each kernel launched once through the runtime, so that the runtime
    // knows it: a layout leaves nodes of kernels it never launched as they
    // are (it may still order them on a lane).
    DeviceArray<uint32_t> Scratch;
    SMC_CUDA_ASSERT(Scratch.allocate(N));
    layoutDirectScale<<<N / 256, 256>>>(In.get(), Scratch.get(), N, 1, 0);
    layoutDirectMix<<<N / 256, 256>>>(In.get(), In.get(), Scratch.get(), N, 0);
    layoutDirectReverse<<<N / 256, 256>>>(In.get(), Scratch.get(), N);
    SMC_CUDA_SYNC_ASSERT();
  }

  using GraphLayoutTest::allocate;
  void allocate(DirectProgram &P) {
    for (auto &Branch : P.Out)
      for (DeviceArray<uint32_t> &A : Branch)
        SMC_CUDA_ASSERT(A.allocate(N));
  }

  /// Four branches of two kernel nodes: scale, reverse (2048 and 1024
  /// CTAs); mix, scale (4096 and 512: \p Scale); mix, reverse (512 and
  /// 2048); scale, mix (1024 and 4096), in the body of an if node whose
  /// condition every launch sets to 1 where \p Conditional.
  void build(cudaGraph_t &Graph, const DirectProgram &P, bool Conditional,
             cudaGraphNode_t *Scale = nullptr) {
    SMC_CUDA_ASSERT(cudaGraphCreate(&Graph, 0));
    own(Graph);
    const uint32_t *Src = In.get();
    auto Out = [&](int B, int K) { return P.Out[B][K].get(); };
    cudaGraphNode_t First, Second;
    SMC_CUDA_ASSERT(addKernel(First, Graph, nullptr, layoutDirectScale, 256,
                              Src, Out(0, 0), N, 3, 1));
    SMC_CUDA_ASSERT(addKernel(Second, Graph, First, layoutDirectReverse, 512,
                              Out(0, 0), Out(0, 1), N));
    SMC_CUDA_ASSERT(addKernel(First, Graph, nullptr, layoutDirectMix, 128, Src,
                              Src, Out(1, 0), N, 7));
    SMC_CUDA_ASSERT(addKernel(Second, Graph, First, layoutDirectScale, 1024,
                              Out(1, 0), Out(1, 1), N, 5, 9));
    if (Scale)
      *Scale = Second;
    SMC_CUDA_ASSERT(addKernel(First, Graph, nullptr, layoutDirectMix, 1024, Src,
                              Src, Out(2, 0), N, 8));
    SMC_CUDA_ASSERT(addKernel(Second, Graph, First, layoutDirectReverse, 256,
                              Out(2, 0), Out(2, 1), N));
    cudaGraph_t Last = Graph;
    if (Conditional) {
      cudaGraphConditionalHandle Handle;
      SMC_CUDA_ASSERT(cudaGraphConditionalHandleCreate(
          &Handle, Graph, 1, cudaGraphCondAssignDefault));
      cudaGraphNodeParams Params = {};
      std::memset(static_cast<void *>(&Params), 0, sizeof Params);
      Params.type = cudaGraphNodeTypeConditional;
      Params.conditional.handle = Handle;
      Params.conditional.type = cudaGraphCondTypeIf;
      Params.conditional.size = 1;
      cudaGraphNode_t Node;
#if CUDART_VERSION >= 13000
      SMC_CUDA_ASSERT(
          cudaGraphAddNode(&Node, Graph, nullptr, nullptr, 0, &Params));
#else
      SMC_CUDA_ASSERT(cudaGraphAddNode(&Node, Graph, nullptr, 0, &Params));
#endif
      Last = Params.conditional.phGraph_out[0];
    }
    SMC_CUDA_ASSERT(addKernel(First, Last, nullptr, layoutDirectScale, 512, Src,
                              Out(3, 0), N, 11, 2));
    SMC_CUDA_ASSERT(addKernel(Second, Last, First, layoutDirectMix, 128,
                              Out(3, 0), Src, Out(3, 1), N, 6));
  }

  /// Instantiates \p Graph in Random mode; it must not be laid out, for a
  /// reason that mentions \p Why, and its replays must give the results of
  /// Off mode.
  void expectNotLaidOut(cudaGraph_t Graph, const LayoutOutputs &Outs,
                        const std::string &Why) {
    std::vector<Bytes> Reference;
    ASSERT_NO_FATAL_FAILURE(referenceReplay(Graph, Outs, Reference));
    cudaGraphExec_t Exec;
    ASSERT_NO_FATAL_FAILURE(
        instantiate(Exec, Graph, smc::GraphLayouts::Random));
    smc::GraphLayoutReport R;
    ASSERT_NO_FATAL_FAILURE(report(Exec, R));
    EXPECT_FALSE(R.laidOut) << reportLine(R);
    EXPECT_NE(R.reason.find(Why), std::string::npos) << reportLine(R);
    std::printf("[ info     ] not laid out: %s\n", R.reason.c_str());
    expectReplaysMatch(Exec, Outs, Reference, 20);
    ASSERT_NO_FATAL_FAILURE(report(Exec, R));
    EXPECT_FALSE(R.laidOut) << reportLine(R);
  }
};

// Three branches of kernel nodes and, as the fourth, an if node whose body
// is a chain of two kernels.
TEST_F(GraphLayoutFallbackTest, ConditionalNodeIsNotLaidOut) {
  DirectProgram P;
  ASSERT_NO_FATAL_FAILURE(allocate(P));
  cudaGraph_t Graph;
  ASSERT_NO_FATAL_FAILURE(build(Graph, P, true));
  expectNotLaidOut(Graph, P.outputs(), "conditional");
}

// Branches 1-3 of the captured program and, as the fourth, a chain of two
// kernels through memory that the graph allocates and frees.
TEST_F(GraphLayoutFallbackTest, MemoryNodesAreNotLaidOut) {
  LayoutProgram P;
  ASSERT_NO_FATAL_FAILURE(allocate(P));
  DeviceArray<uint32_t> Extra;
  SMC_CUDA_ASSERT(Extra.allocate(N));
  cudaGraph_t Graph;
  ASSERT_NO_FATAL_FAILURE(beginCapture(kStreams));
  launchBranches(P, 0xE);
  uint32_t *Temp = nullptr;
  EXPECT_EQ(cudaMallocAsync(reinterpret_cast<void **>(&Temp),
                            N * sizeof(uint32_t), Streams[0]),
            cudaSuccess);
  layoutDirectScale<<<N / 256, 256, 0, Streams[0]>>>(In.get(), Temp, N, 13, 3);
  layoutDirectReverse<<<N / 512, 512, 0, Streams[0]>>>(Temp, Extra.get(), N);
  EXPECT_EQ(cudaFreeAsync(Temp, Streams[0]), cudaSuccess);
  ASSERT_NO_FATAL_FAILURE(endCapture(kStreams, Graph));
  LayoutOutputs Outs = P.outputs(0xE);
  Outs.push_back({"through allocated memory", &Extra});
  expectNotLaidOut(Graph, Outs, "memory");
}

// Branch 1's scale node, changed in the executable graph to read the input
// and write a new buffer with other factors.
TEST_F(GraphLayoutFallbackTest, KernelNodeSetParamsTurnsLayoutsOff) {
  DirectProgram P;
  ASSERT_NO_FATAL_FAILURE(allocate(P));
  DeviceArray<uint32_t> Changed;
  SMC_CUDA_ASSERT(Changed.allocate(N));
  cudaGraph_t Graph;
  cudaGraphNode_t Scale;
  ASSERT_NO_FATAL_FAILURE(build(Graph, P, false, &Scale));
  LayoutOutputs Outs = P.outputs();
  std::vector<Bytes> Reference;
  ASSERT_NO_FATAL_FAILURE(referenceReplay(Graph, Outs, Reference));
  cudaGraphExec_t Exec;
  ASSERT_NO_FATAL_FAILURE(instantiate(Exec, Graph, smc::GraphLayouts::Random));
  ASSERT_NO_FATAL_FAILURE(expectReplaysMatch(Exec, Outs, Reference, 10));
  smc::GraphLayoutReport R;
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  ASSERT_TRUE(R.laidOut) << reportLine(R);

  const uint32_t *Src = In.get();
  uint32_t *Dst = Changed.get();
  unsigned Count = N;
  uint32_t Mul = 13, Add = 4;
  void *Args[] = {&Src, &Dst, &Count, &Mul, &Add};
  cudaKernelNodeParams K{};
  K.func = reinterpret_cast<void *>(layoutDirectScale);
  K.gridDim = dim3(N / 1024);
  K.blockDim = dim3(1024);
  K.kernelParams = Args;
  SMC_CUDA_ASSERT(cudaGraphExecKernelNodeSetParams(Exec, Scale, &K));
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  EXPECT_FALSE(R.laidOut) << reportLine(R);
  EXPECT_NE(R.reason.find("cudaGraphExecKernelNodeSetParams"),
            std::string::npos)
      << reportLine(R);

  // Branch 1's second output (index 3) is no longer written; the new
  // buffer is, with In * 13 + 4.
  const LayoutOutputs Old = {Outs[3]};
  Outs.erase(Outs.begin() + 3);
  Reference.erase(Reference.begin() + 3);
  std::vector<uint32_t> Expected(N);
  for (unsigned I = 0; I < N; ++I)
    Expected[I] = InHost[I] * 13u + 4u;
  Outs.push_back({"the changed node's output", &Changed});
  Reference.emplace_back(Changed.bytes());
  std::memcpy(Reference.back().data(), Expected.data(), Changed.bytes());
  ASSERT_NO_FATAL_FAILURE(poison(Old));
  expectReplaysMatch(Exec, Outs, Reference, 10);
  expectUntouched(Old, "after the change");
  ASSERT_NO_FATAL_FAILURE(report(Exec, R));
  EXPECT_FALSE(R.laidOut) << reportLine(R);
}

} // namespace
