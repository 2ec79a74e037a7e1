//===- ForkJoinGraphs.cu - Fork-join graphs shaped like an inference step -===//
//
// smc_graph_bench's fork-join cases: independent branches of small kernels
// whose outputs one join kernel sums, as the independent operators of an
// inference step feed the next one.  A branch is
//
//   gemm        a tiled GEMM (16x16 tiles, fp32) of an M x K and a K x N
//               matrix, then a bias and softsign in place: M x N outputs;
//               a few hundred CTAs or fewer, which alone leave most of an
//               H200 idle
//   map-reduce  an elementwise map of M x N x S inputs into a buffer as
//               large, then the sums of its M x N segments of S (one warp
//               per segment): memory-bound, filling the GPU
//   reduce      the segment sums of M x N x S inputs alone
//
// and the join writes out[i] = sum over branches b of (b + 1) * branch_b[i].
// Every kernel is deterministic (each output element is computed by one
// thread or one warp, in a fixed order), so a replay under any layout must
// reproduce the bits of a replay of the graph as instantiated; before a
// checked replay every output and intermediate buffer is poisoned with
// 0xFF bytes (NaN), so an element that no kernel writes fails the check.
//===----------------------------------------------------------------------===//
#include "CudaSupport.cuh"
#include "GraphCases.h"

#include <cstdint>
#include <deque>

namespace {

constexpr unsigned kGemmTile = 16;
constexpr unsigned kThreads = 256;
constexpr unsigned kWarpsPerCta = kThreads / 32;

// A deterministic input in [-1, 1) for element Index of the array Seed.
__device__ float forkJoinInput(uint32_t Index, uint32_t Seed) {
  uint32_t H = Index * 0x9E3779B1u ^ Seed * 0x85EBCA77u;
  H ^= H >> 15;
  H *= 0x2C1B3C6Du;
  H ^= H >> 12;
  H *= 0x297A2D39u;
  H ^= H >> 15;
  return float(H >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

__device__ float forkJoinMapOne(float X) { return X * (1.5f - 0.5f * X * X); }

} // namespace

// The kernels, in the global namespace as the suite's are (the names SMC
// policies select kernels by).

__global__ void forkJoinFill(float *Data, unsigned Count, uint32_t Seed) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count)
    Data[I] = forkJoinInput(I, Seed);
}

// C = A x B, A M x K, B K x N, row-major; M, N and K multiples of the
// tile; grid (N / 16, M / 16), block (16, 16).
__global__ void forkJoinGemm(const float *A, const float *B, float *C,
                             unsigned K, unsigned N) {
  __shared__ float TileA[kGemmTile][kGemmTile];
  __shared__ float TileB[kGemmTile][kGemmTile];
  unsigned Tx = threadIdx.x, Ty = threadIdx.y;
  unsigned Row = blockIdx.y * kGemmTile + Ty, Col = blockIdx.x * kGemmTile + Tx;
  float Sum = 0;
  for (unsigned T = 0; T < K; T += kGemmTile) {
    TileA[Ty][Tx] = A[size_t(Row) * K + T + Tx];
    TileB[Ty][Tx] = B[size_t(T + Ty) * N + Col];
    __syncthreads();
    for (unsigned J = 0; J < kGemmTile; ++J)
      Sum += TileA[Ty][J] * TileB[J][Tx];
    __syncthreads();
  }
  C[size_t(Row) * N + Col] = Sum;
}

// C[i] = softsign(C[i] + Bias[i mod N]) for the Count elements of C.
__global__ void forkJoinBiasSoftsign(float *C, const float *Bias, unsigned N,
                                     unsigned Count) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count) {
    float X = C[I] + Bias[I % N];
    C[I] = X / (1.0f + fabsf(X));
  }
}

// Out = map(In), four floats per thread (Count4 float4s).
__global__ void forkJoinMap(const float4 *In, float4 *Out, unsigned Count4) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count4) {
    float4 V = In[I];
    Out[I] = make_float4(forkJoinMapOne(V.x), forkJoinMapOne(V.y),
                         forkJoinMapOne(V.z), forkJoinMapOne(V.w));
  }
}

// Sums[s] = the sum of Data[s * Length, (s + 1) * Length): one warp per
// segment, each lane summing its strided elements in order, then a fixed
// shuffle tree.
__global__ void forkJoinSegmentSums(const float *Data, float *Sums,
                                    unsigned Length, unsigned Segments) {
  unsigned Segment = blockIdx.x * kWarpsPerCta + threadIdx.x / 32;
  unsigned Lane = threadIdx.x % 32;
  if (Segment < Segments) {
    const float *In = Data + size_t(Segment) * Length;
    float Sum = 0;
    for (unsigned J = Lane; J < Length; J += 32)
      Sum += In[J];
    for (unsigned Offset = 16; Offset; Offset /= 2)
      Sum += __shfl_down_sync(0xFFFFFFFFu, Sum, Offset);
    if (Lane == 0)
      Sums[Segment] = Sum;
  }
}

// The join's arguments: the branches' outputs.
struct ForkJoinInputs {
  const float *Branch[smc::graphbench::MaxBranches];
  unsigned Branches;
};

// Out[i] = sum over b of (b + 1) * Branch[b][i], b in order.
__global__ void forkJoinJoin(ForkJoinInputs In, float *Out, unsigned Length) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Length) {
    float Sum = 0;
    for (unsigned B = 0; B < In.Branches; ++B)
      Sum += float(B + 1) * In.Branch[B][I];
    Out[I] = Sum;
  }
}

namespace smc::graphbench {
namespace {

using workloads::ceilDiv;
using workloads::DeviceBuffer;

enum class BranchKind { Gemm, MapReduce, Reduce };

// A fork-join graph: its branches, all with M x N outputs; GEMMs of depth
// K, maps and reductions of segments of SegmentLength.
struct ForkJoinShape {
  const char *Name;
  unsigned M, N, K, SegmentLength;
  std::vector<BranchKind> Branches;
};

const std::vector<ForkJoinShape> &shapes() {
  using B = BranchKind;
  static const std::vector<B> Gemm4(4, B::Gemm), Gemm8(8, B::Gemm);
  static const std::vector<B> Mixed6 = {B::Gemm, B::MapReduce, B::Reduce,
                                        B::Gemm, B::MapReduce, B::Reduce};
  static const std::vector<ForkJoinShape> Shapes = {
      {"forkjoin-gemm4", 256, 256, 1024, 256, Gemm4},
      {"forkjoin-mixed6", 256, 256, 1024, 256, Mixed6},
      {"forkjoin-gemm8", 128, 128, 2048, 1024, Gemm8},
  };
  return Shapes;
}

// One branch's buffers: inputs (A, B and Bias of a GEMM; In of a map or a
// reduction), the mapped buffer of a map-reduce, and the output.
struct BranchBuffers {
  BranchKind Kind;
  DeviceBuffer<float> A, B, Bias, In, Mapped, Out;
};

void fill(DeviceBuffer<float> &Buffer, size_t Count, uint32_t Seed) {
  Buffer.allocate(Count);
  forkJoinFill<<<ceilDiv(Count, kThreads), kThreads>>>(Buffer.get(),
                                                       unsigned(Count), Seed);
  SMC_CUDA_CHECK_LAUNCH();
}

class ForkJoinCase : public GraphCase {
public:
  explicit ForkJoinCase(const ForkJoinShape &Shape)
      : GraphCase(Shape.Name, "forkjoin"), Shape(Shape) {}

  cudaGraph_t capture(BranchCapture &Capture) override {
    if (Branches.empty())
      setUp();
    std::vector<StreamWork> Work;
    for (BranchBuffers &Branch : Branches)
      Work.push_back([this, &Branch](cudaStream_t S) { enqueue(Branch, S); });
    return Capture.capture(Work, [this](cudaStream_t S) { join(S); });
  }

  void prepareCheck(cudaStream_t Stream) override {
    for (BranchBuffers &Branch : Branches) {
      Branch.Mapped.poison(Stream);
      Branch.Out.poison(Stream);
    }
    Joined.poison(Stream);
  }

  std::string keepReference() override {
    Reference = outputs();
    std::string Error;
    for (size_t I = 0; I < Reference.size() && Error.empty(); ++I)
      Error = findNaN(Reference[I], outputName(I));
    return Error;
  }

  std::string check() override {
    std::vector<std::vector<float>> Got = outputs();
    for (size_t I = 0; I < Got.size(); ++I) {
      std::string Error = compareBits(Got[I].data(), Reference[I].data(),
                                      Got[I].size() * sizeof(float),
                                      sizeof(float), outputName(I));
      if (!Error.empty())
        return Error;
    }
    return "";
  }

private:
  size_t outputCount() const { return size_t(Shape.M) * Shape.N; }

  void setUp() {
    uint32_t Seed = 1;
    size_t Segmented = outputCount() * Shape.SegmentLength;
    for (BranchKind Kind : Shape.Branches) {
      Branches.emplace_back();
      BranchBuffers &Branch = Branches.back();
      Branch.Kind = Kind;
      if (Kind == BranchKind::Gemm) {
        fill(Branch.A, size_t(Shape.M) * Shape.K, Seed++);
        fill(Branch.B, size_t(Shape.K) * Shape.N, Seed++);
        fill(Branch.Bias, Shape.N, Seed++);
      } else {
        fill(Branch.In, Segmented, Seed++);
        if (Kind == BranchKind::MapReduce)
          Branch.Mapped.allocate(Segmented);
      }
      Branch.Out.allocate(outputCount());
    }
    Joined.allocate(outputCount());
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void enqueue(BranchBuffers &Branch, cudaStream_t S) {
    unsigned Outputs = unsigned(outputCount());
    if (Branch.Kind == BranchKind::Gemm) {
      dim3 Grid(Shape.N / kGemmTile, Shape.M / kGemmTile);
      forkJoinGemm<<<Grid, dim3(kGemmTile, kGemmTile), 0, S>>>(
          Branch.A.get(), Branch.B.get(), Branch.Out.get(), Shape.K, Shape.N);
      SMC_CUDA_CHECK_LAUNCH();
      forkJoinBiasSoftsign<<<ceilDiv(Outputs, kThreads), kThreads, 0, S>>>(
          Branch.Out.get(), Branch.Bias.get(), Shape.N, Outputs);
      SMC_CUDA_CHECK_LAUNCH();
      return;
    }
    const float *Summed = Branch.In.get();
    if (Branch.Kind == BranchKind::MapReduce) {
      unsigned Count4 = unsigned(Branch.In.size() / 4);
      forkJoinMap<<<ceilDiv(Count4, kThreads), kThreads, 0, S>>>(
          reinterpret_cast<const float4 *>(Branch.In.get()),
          reinterpret_cast<float4 *>(Branch.Mapped.get()), Count4);
      SMC_CUDA_CHECK_LAUNCH();
      Summed = Branch.Mapped.get();
    }
    forkJoinSegmentSums<<<ceilDiv(Outputs, kWarpsPerCta), kThreads, 0, S>>>(
        Summed, Branch.Out.get(), Shape.SegmentLength, Outputs);
    SMC_CUDA_CHECK_LAUNCH();
  }

  void join(cudaStream_t S) {
    ForkJoinInputs In{};
    for (size_t I = 0; I < Branches.size(); ++I)
      In.Branch[I] = Branches[I].Out.get();
    In.Branches = unsigned(Branches.size());
    unsigned Outputs = unsigned(outputCount());
    forkJoinJoin<<<ceilDiv(Outputs, kThreads), kThreads, 0, S>>>(
        In, Joined.get(), Outputs);
    SMC_CUDA_CHECK_LAUNCH();
  }

  // Every buffer a replay writes, in a fixed order: each branch's mapped
  // buffer (map-reduce) and output, then the join's.
  std::vector<std::vector<float>> outputs() const {
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::vector<float>> Out;
    for (const BranchBuffers &Branch : Branches) {
      if (Branch.Kind == BranchKind::MapReduce) {
        Out.emplace_back();
        Branch.Mapped.download(Out.back());
      }
      Out.emplace_back();
      Branch.Out.download(Out.back());
    }
    Out.emplace_back();
    Joined.download(Out.back());
    return Out;
  }

  std::string outputName(size_t Index) const {
    size_t I = 0;
    for (size_t B = 0; B < Branches.size(); ++B) {
      if (Branches[B].Kind == BranchKind::MapReduce && I++ == Index)
        return "branch " + std::to_string(B) + " mapped";
      if (I++ == Index)
        return "branch " + std::to_string(B) + " output";
    }
    return "join output";
  }

  const ForkJoinShape &Shape;
  std::deque<BranchBuffers> Branches;
  DeviceBuffer<float> Joined;
  std::vector<std::vector<float>> Reference;
};

} // namespace

GraphCaseList forkJoinCases() {
  GraphCaseList Cases;
  for (const ForkJoinShape &Shape : shapes())
    Cases.push_back(std::make_unique<ForkJoinCase>(Shape));
  return Cases;
}

} // namespace smc::graphbench
