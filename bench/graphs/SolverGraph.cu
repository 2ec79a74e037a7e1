//===- SolverGraph.cu - An iterative solver's step as a graph -------------===//
//
// smc_graph_bench's solver case: one Jacobi step of a block-diagonal
// system, two independent halves, each a 2048 x 1024 grid of unknowns with
// (4 + s) x_ij - (x's four neighbours, 0 beyond the edge) = b_ij.  Per
// half (a branch of four kernels):
//
//   residual   r = b - A x (a five-point stencil)
//   partials   per CTA, the sum of r^2 over 4096 consecutive elements
//   norm       one CTA sums the partials: |r|^2 of the half
//   update     x += r / (4 + s)
//
// and a combine kernel that joins them: it writes |r|^2 of the whole system
// into a history at the step's index and counts the step.  The graph is one
// step of the solver's loop, replayed once per step.  The kernels are
// deterministic (every sum in a fixed order, no atomics), so the state
// after a checked run - Replays steps from x = 0 - must be bitwise the one
// that as many replays of the graph as instantiated leave.
//===----------------------------------------------------------------------===//
#include "CudaSupport.cuh"
#include "GraphCases.h"

#include <cstdint>

namespace {

constexpr unsigned kSolverNx = 2048, kSolverNy = 1024;
constexpr unsigned kStencilX = 32, kStencilY = 8;
constexpr unsigned kThreads = 256;
// Elements each CTA of solverSquareSums sums.
constexpr unsigned kPerPartial = 4096;
constexpr unsigned kHistory = 1024;
// The diagonal shift s: small, so that the smooth modes of the error decay
// slowly and the state still changes after a thousand steps.
constexpr float kShift = 0.01f;

} // namespace

// The kernels, in the global namespace as the suite's are (the names SMC
// policies select kernels by).

// R = B - A X on an Nx x Ny grid; blocks of 32 x 8.
__global__ void solverResidual(const float *X, const float *B, float *R,
                               unsigned Nx, unsigned Ny) {
  unsigned I = blockIdx.x * kStencilX + threadIdx.x;
  unsigned J = blockIdx.y * kStencilY + threadIdx.y;
  if (I < Nx && J < Ny) {
    size_t K = size_t(J) * Nx + I;
    float Around = (I > 0 ? X[K - 1] : 0.0f) + (I + 1 < Nx ? X[K + 1] : 0.0f) +
                   (J > 0 ? X[K - Nx] : 0.0f) + (J + 1 < Ny ? X[K + Nx] : 0.0f);
    R[K] = B[K] - ((4.0f + kShift) * X[K] - Around);
  }
}

// Sums[c] = the sum of In[i] (Square: In[i]^2) over the PerCta elements
// from c * PerCta (fewer in the last CTA): each thread sums its strided
// elements in order, then a fixed tree in shared memory.  256 threads.
template <bool Square>
__global__ void solverSums(const float *In, float *Sums, unsigned Count,
                           unsigned PerCta) {
  __shared__ float Partial[kThreads];
  size_t First = size_t(blockIdx.x) * PerCta;
  float Sum = 0;
  for (unsigned J = threadIdx.x; J < PerCta; J += kThreads)
    if (First + J < Count) {
      float V = In[First + J];
      Sum += Square ? V * V : V;
    }
  Partial[threadIdx.x] = Sum;
  __syncthreads();
  for (unsigned Half = kThreads / 2; Half; Half /= 2) {
    if (threadIdx.x < Half)
      Partial[threadIdx.x] += Partial[threadIdx.x + Half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    Sums[blockIdx.x] = Partial[0];
}

// X += R / (4 + s).
__global__ void solverUpdate(float *X, const float *R, unsigned Count) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < Count)
    X[I] += R[I] / (4.0f + kShift);
}

// History[step mod kHistory] = the two halves' |r|^2 summed; the step
// counted.  One thread.
__global__ void solverCombine(const float *HalfNorms, float *History,
                              unsigned *Step) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    unsigned Now = *Step;
    History[Now % kHistory] = HalfNorms[0] + HalfNorms[1];
    *Step = Now + 1;
  }
}

// b: a smooth bump plus a deterministic rough part, different per half.
__global__ void solverFillRhs(float *B, unsigned Nx, unsigned Ny,
                              unsigned Half) {
  unsigned I = blockIdx.x * kStencilX + threadIdx.x;
  unsigned J = blockIdx.y * kStencilY + threadIdx.y;
  if (I < Nx && J < Ny) {
    float U = float(I) / Nx - 0.5f, V = float(J) / Ny - 0.5f;
    uint32_t H = (J * Nx + I) * 0x9E3779B1u ^ (Half + 1) * 0x85EBCA77u;
    H ^= H >> 16;
    B[size_t(J) * Nx + I] = 1.0f - 2.0f * (U * U + V * V) +
                            0.25f * (float(H & 0xFFFF) / 65536.0f - 0.5f);
  }
}

namespace smc::graphbench {
namespace {

using workloads::ceilDiv;
using workloads::DeviceBuffer;

constexpr size_t kHalfCount = size_t(kSolverNx) * kSolverNy;

struct SolverHalf {
  DeviceBuffer<float> X, B, R, Partials;
};

class SolverCase : public GraphCase {
public:
  SolverCase() : GraphCase("solver-jacobi2", "solver") {}

  cudaGraph_t capture(BranchCapture &Capture) override {
    if (!Step.size())
      setUp();
    std::vector<StreamWork> Branches;
    for (unsigned H = 0; H < 2; ++H)
      Branches.push_back([this, H](cudaStream_t S) { step(H, S); });
    return Capture.capture(Branches, [this](cudaStream_t S) {
      solverCombine<<<1, 32, 0, S>>>(HalfNorms.get(), History.get(),
                                     Step.get());
      SMC_CUDA_CHECK_LAUNCH();
    });
  }

  // The solver's start: x = 0, no step made, an empty (zero) history, the
  // intermediate buffers poisoned.
  void prepareCheck(cudaStream_t Stream) override {
    for (SolverHalf &Half : Halves) {
      Half.X.zero(Stream);
      Half.R.poison(Stream);
      Half.Partials.poison(Stream);
    }
    HalfNorms.poison(Stream);
    History.zero(Stream);
    Step.zero(Stream);
  }

  unsigned checkReplays(unsigned Replays) override {
    StepsChecked = Replays;
    return Replays;
  }

  std::string keepReference() override {
    Reference = state();
    std::string Error = findNaN(Reference.X, "x");
    if (Error.empty())
      Error = findNaN(Reference.History, "history");
    if (Error.empty() && Reference.Step != StepsChecked)
      Error = "step count " + std::to_string(Reference.Step) + " after " +
              std::to_string(StepsChecked) + " replays";
    return Error;
  }

  std::string check() override {
    State Got = state();
    if (Got.Step != Reference.Step)
      return "step count " + std::to_string(Got.Step) + ", the graph as " +
             "instantiated made " + std::to_string(Reference.Step);
    std::string Error =
        compareBits(Got.X.data(), Reference.X.data(),
                    Got.X.size() * sizeof(float), sizeof(float), "x");
    if (Error.empty())
      Error = compareBits(Got.History.data(), Reference.History.data(),
                          Got.History.size() * sizeof(float), sizeof(float),
                          "history");
    return Error;
  }

private:
  struct State {
    std::vector<float> X, History;
    unsigned Step = 0;
  };

  void setUp() {
    dim3 Grid(ceilDiv(kSolverNx, kStencilX), ceilDiv(kSolverNy, kStencilY));
    for (unsigned H = 0; H < 2; ++H) {
      SolverHalf &Half = Halves[H];
      Half.X.allocate(kHalfCount);
      Half.B.allocate(kHalfCount);
      Half.R.allocate(kHalfCount);
      Half.Partials.allocate(ceilDiv(kHalfCount, kPerPartial));
      solverFillRhs<<<Grid, dim3(kStencilX, kStencilY)>>>(
          Half.B.get(), kSolverNx, kSolverNy, H);
      SMC_CUDA_CHECK_LAUNCH();
      Half.X.zero(nullptr);
    }
    HalfNorms.allocate(2);
    History.allocate(kHistory);
    Step.allocate(1);
    Step.zero(nullptr);
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
  }

  // One half's step, on S.
  void step(unsigned H, cudaStream_t S) {
    SolverHalf &Half = Halves[H];
    dim3 Grid(ceilDiv(kSolverNx, kStencilX), ceilDiv(kSolverNy, kStencilY));
    solverResidual<<<Grid, dim3(kStencilX, kStencilY), 0, S>>>(
        Half.X.get(), Half.B.get(), Half.R.get(), kSolverNx, kSolverNy);
    SMC_CUDA_CHECK_LAUNCH();
    unsigned Partials = unsigned(Half.Partials.size());
    solverSums<true><<<Partials, kThreads, 0, S>>>(
        Half.R.get(), Half.Partials.get(), unsigned(kHalfCount), kPerPartial);
    SMC_CUDA_CHECK_LAUNCH();
    solverSums<false><<<1, kThreads, 0, S>>>(
        Half.Partials.get(), HalfNorms.get() + H, Partials, Partials);
    SMC_CUDA_CHECK_LAUNCH();
    solverUpdate<<<ceilDiv(kHalfCount, kThreads), kThreads, 0, S>>>(
        Half.X.get(), Half.R.get(), unsigned(kHalfCount));
    SMC_CUDA_CHECK_LAUNCH();
  }

  State state() const {
    SMC_CUDA_CHECK(cudaDeviceSynchronize());
    State Out;
    for (const SolverHalf &Half : Halves) {
      std::vector<float> X;
      Half.X.download(X);
      Out.X.insert(Out.X.end(), X.begin(), X.end());
    }
    History.download(Out.History);
    std::vector<unsigned> Steps;
    Step.download(Steps);
    Out.Step = Steps.at(0);
    return Out;
  }

  SolverHalf Halves[2];
  DeviceBuffer<float> HalfNorms, History;
  DeviceBuffer<unsigned> Step;
  State Reference;
  unsigned StepsChecked = 0;
};

} // namespace

GraphCaseList solverCases() {
  GraphCaseList Cases;
  Cases.push_back(std::make_unique<SolverCase>());
  return Cases;
}

} // namespace smc::graphbench
