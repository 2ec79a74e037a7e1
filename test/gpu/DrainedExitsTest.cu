//===- DrainedExitsTest.cu - Persistent workers for early exits -----------===//
//
// Kernels whose threads may return before a barrier other threads of the CTA
// still reach, compiled with -mllvm -smc-drained-exits
// (test/gpu/CMakeLists.txt), so that their __smc variants run persistent
// workers in which threads that have ended a chunk keep arriving at the
// barriers the others still reach (passes/DrainedExits.cpp).  Every kernel must
// give bit-identical results under every policy, every chunk must run exactly
// once, and the SM set of the policy must be honoured (one chunk per worker
// would ignore it):
//  - exits that differ per warp and per chunk, before the first barrier and
//    between later ones, with 1-D CTAs and 2-D CTAs with a partial warp;
//  - a 2-D pyramid stencil after Rodinia's hotspot (per-thread exits at the
//    grid's edges, a loop of barrier pairs left by a break): a warp whose
//    lanes waited at two different barrier instructions hung here before
//    every barrier went through one instruction;
//  - exactly-once counts for grids of 1 to 105,000 CTAs;
//  - an exit before a barrier inside a noinline callee, which the variant
//    cannot route through its funnel: one chunk per worker, still correct;
//  - chunks of a drained kernel stay on the policy's SMs.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>

using namespace smctest;

//===--- Kernels (external linkage: the runtime finds variants by name) ---===//

// Which threads of chunk B leave before its first barrier: by chunk, none,
// the odd warps, scattered lanes, all but thread 0, or the upper part of the
// CTA (a boundary that moves inside a warp from chunk to chunk).
__device__ bool leavesAtStart(unsigned B, unsigned T, unsigned Threads) {
  switch (B % 5) {
  case 0:
    return false;
  case 1:
    return (T / 32) % 2 == 1;
  case 2:
    return (T * 7 + B) % 3 == 0;
  case 3:
    return T != 0;
  default:
    return T >= Threads / 2 + B % 32;
  }
}

// Divergent exits that differ per warp and per chunk, before the first
// barrier and between later ones, with a number of barrier rounds that
// differs per chunk (1 to 4).  Each round reads a neighbour's value from
// shared memory (if the neighbour wrote one in this chunk) between two
// barriers.  Every thread writes its output once, also those that leave.
__global__ void drainedExits(const uint32_t *In, uint32_t *Out) {
  __shared__ uint32_t S[1024];
  unsigned Threads = blockDim.x * blockDim.y;
  unsigned T = threadIdx.x + blockDim.x * threadIdx.y, B = blockIdx.x;
  size_t Mine = static_cast<size_t>(B) * Threads + T;
  uint32_t V = In[Mine];
  if (leavesAtStart(B, T, Threads)) {
    Out[Mine] = V ^ 0x5a5a5a5au;
    return;
  }
  S[T] = V;
  unsigned Neighbour = (T + 1 + B % 7) % Threads;
  bool NeighbourWrote = !leavesAtStart(B, Neighbour, Threads);
  unsigned Rounds = B % 4 + 1;
  for (unsigned R = 0; R < Rounds; ++R) {
    __syncthreads();
    uint32_t X = V * 2654435761u + (NeighbourWrote ? S[Neighbour] : R);
    __syncthreads();
    if ((T + R + B) % 11 == 0) { // leaves between rounds
      Out[Mine] = X;
      return;
    }
    S[T] = X;
    V = X;
  }
  Out[Mine] = V;
}

// A pyramid of Iterations steps of a 5-point stencil on 16 x 16 tiles, each
// CTA loading a halo of Iterations cells (hotspot's structure).  Threads of
// cells outside the grid return before the first barrier; the others run
// 2 * Iterations - 1 barriers, leaving the loop by a break.
constexpr int kTile = 16;
__global__ void pyramid2D(const float *In, float *Out, int Cols, int Rows,
                          int Iterations) {
  __shared__ float Cur[kTile][kTile];
  __shared__ float Next[kTile][kTile];
  int Tx = threadIdx.x, Ty = threadIdx.y;
  int Small = kTile - 2 * Iterations;
  int Y0 = Small * blockIdx.y - Iterations,
      X0 = Small * blockIdx.x - Iterations;
  int Y = Y0 + Ty, X = X0 + Tx;
  if (Y < 0 || Y >= Rows || X < 0 || X >= Cols)
    return;
  Cur[Ty][Tx] = In[Y * Cols + X];
  __syncthreads();
  int YMin = Y0 < 0 ? -Y0 : 0, XMin = X0 < 0 ? -X0 : 0;
  int YMax = min(kTile - 1, Rows - 1 - Y0),
      XMax = min(kTile - 1, Cols - 1 - X0);
  int N = max(Ty - 1, YMin), S = min(Ty + 1, YMax);
  int W = max(Tx - 1, XMin), E = min(Tx + 1, XMax);
  bool Computed = false;
  for (int I = 0; I < Iterations; ++I) {
    Computed = false;
    if (Tx >= I + 1 && Tx <= kTile - I - 2 && Ty >= I + 1 &&
        Ty <= kTile - I - 2) {
      Computed = true;
      Next[Ty][Tx] = 0.5f * Cur[Ty][Tx] + 0.125f * (Cur[N][Tx] + Cur[S][Tx] +
                                                    Cur[Ty][W] + Cur[Ty][E]);
    }
    __syncthreads();
    if (I == Iterations - 1)
      break;
    if (Computed)
      Cur[Ty][Tx] = Next[Ty][Tx];
    __syncthreads();
  }
  if (Computed)
    Out[Y * Cols + X] = Next[Ty][Tx];
}

// Threads at or above Active return before the barrier; thread 0 counts the
// chunk and records the SM it ran on.
__global__ void countEarlyExit(uint32_t *Counts, uint32_t *SmOf, uint32_t *Out,
                               uint32_t Active) {
  __shared__ uint32_t S[1024];
  if (threadIdx.x >= Active)
    return;
  uint32_t Chunk = linearBlock();
  S[threadIdx.x] = mix32(Chunk ^ threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(&Counts[Chunk], 1u);
    SmOf[Chunk] = __nvvm_read_ptx_sreg_smid();
  }
  Out[static_cast<size_t>(Chunk) * blockDim.x + threadIdx.x] =
      S[Active - 1 - threadIdx.x];
}

// A barrier the funnel cannot take: inside a function that stays a call.
__device__ __noinline__ void exchangeInCallee(uint32_t *S, uint32_t *Out,
                                              uint32_t Value, uint32_t Active) {
  S[threadIdx.x] = Value;
  __syncthreads();
  *Out = S[(threadIdx.x + 1) % Active] + Value;
}

__global__ void earlyExitCalleeBarrier(const uint32_t *In, uint32_t *Out,
                                       uint32_t Active) {
  __shared__ uint32_t S[64];
  if (threadIdx.x >= Active)
    return;
  size_t I = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  exchangeInCallee(S, &Out[I], In[I], Active);
}

//===--- Tests
//-------------------------------------------------------------===//

namespace {

using DrainedExits = SmcGpuTest;

TEST_F(DrainedExits, PerWarpAndChunk) {
  // 1-D CTAs of 4 warps and 2-D CTAs of 4.5 warps (a partial last warp),
  // grids below one worker per SM to many chunks per worker.
  for (dim3 Block : {dim3(128), dim3(48, 3)}) {
    for (unsigned Grid : {7u, 1000u, 40000u}) {
      SCOPED_TRACE("block " + std::to_string(Block.x) + "x" +
                   std::to_string(Block.y) + " grid " + std::to_string(Grid));
      size_t N = static_cast<size_t>(Grid) * Block.x * Block.y;
      DeviceArray<uint32_t> In, Out;
      SMC_CUDA_ASSERT(In.upload(randomWords(N, 11)));
      SMC_CUDA_ASSERT(Out.allocate(N));
      ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
          symbolOf(drainedExits),
          {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
          [&] {
            drainedExits<<<Grid, Block>>>(In.get(), Out.get());
            return cudaGetLastError();
          },
          standardPolicies(Grid)));
    }
  }
}

TEST_F(DrainedExits, PyramidStencil2D) {
  for (int Iterations : {1, 2, 3}) {
    for (int Size : {7, 100, 500}) {
      SCOPED_TRACE("iterations " + std::to_string(Iterations) + " size " +
                   std::to_string(Size));
      int Small = kTile - 2 * Iterations;
      dim3 Grid((Size + Small - 1) / Small, (Size + Small - 1) / Small);
      size_t Cells = static_cast<size_t>(Size) * Size;
      std::vector<float> Host = randomFloats(Cells, 5);
      DeviceArray<float> In, Out;
      SMC_CUDA_ASSERT(In.upload(Host));
      SMC_CUDA_ASSERT(Out.allocate(Cells));
      ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
          symbolOf(pyramid2D),
          {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
          [&] {
            pyramid2D<<<Grid, dim3(kTile, kTile)>>>(In.get(), Out.get(), Size,
                                                    Size, Iterations);
            return cudaGetLastError();
          },
          standardPolicies(Grid)));
    }
  }
}

TEST_F(DrainedExits, ExactlyOnceGrids) {
  for (dim3 Grid : {dim3(1), dim3(131), dim3(1000), dim3(105000), dim3(37, 29),
                    dim3(7, 5, 9)}) {
    SCOPED_TRACE("grid " + std::to_string(Grid.x) + "x" +
                 std::to_string(Grid.y) + "x" + std::to_string(Grid.z));
    unsigned Chunks = Grid.x * Grid.y * Grid.z;
    DeviceArray<uint32_t> Counts, SmOf, Out;
    SMC_CUDA_ASSERT(Counts.allocate(Chunks));
    SMC_CUDA_ASSERT(SmOf.allocate(Chunks));
    SMC_CUDA_ASSERT(Out.allocate(static_cast<size_t>(Chunks) * 256));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(countEarlyExit),
        {{Counts.get(), Counts.bytes(), Buffer::Counter, "counts"},
         {Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          countEarlyExit<<<Grid, 256>>>(Counts.get(), SmOf.get(), Out.get(),
                                        200);
          return cudaGetLastError();
        },
        standardPolicies(Chunks)));
  }
}

TEST_F(DrainedExits, CalleeBarrierRunsOneChunkPerWorker) {
  for (unsigned Grid : {1u, 1000u, 20000u}) {
    SCOPED_TRACE("grid " + std::to_string(Grid));
    size_t N = static_cast<size_t>(Grid) * 64;
    DeviceArray<uint32_t> In, Out;
    SMC_CUDA_ASSERT(In.upload(randomWords(N, 3)));
    SMC_CUDA_ASSERT(Out.allocate(N));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(earlyExitCalleeBarrier),
        {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          earlyExitCalleeBarrier<<<Grid, 64>>>(In.get(), Out.get(), 50);
          return cudaGetLastError();
        },
        standardPolicies(Grid)));
  }
}

// One chunk per worker ignores sms= (the runtime says so); persistent
// workers with drained exits honour it.
TEST_F(DrainedExits, SmSetIsHonoured) {
  const unsigned SetSize = std::min(16u, numSMs());
  const unsigned Chunks = 20000;
  DeviceArray<uint32_t> Counts, SmOf, Out;
  SMC_CUDA_ASSERT(Counts.allocate(Chunks));
  SMC_CUDA_ASSERT(SmOf.allocate(Chunks));
  SMC_CUDA_ASSERT(Out.allocate(static_cast<size_t>(Chunks) * 256));
  auto Outside = [&](const smc::Policy &P) -> size_t {
    smc::setPolicy(countEarlyExit, P);
    countEarlyExit<<<Chunks, 256>>>(Counts.get(), SmOf.get(), Out.get(), 200);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<uint32_t> Sms;
    EXPECT_EQ(SmOf.download(Sms), cudaSuccess);
    return std::count_if(Sms.begin(), Sms.end(),
                         [&](uint32_t Sm) { return Sm >= SetSize; });
  };
  if (numSMs() > SetSize)
    ASSERT_GT(Outside(smc::Policy::original()), 0u)
        << "the original ran every chunk on SMs below " << SetSize
        << "; this test could not see a policy being ignored";
  EXPECT_EQ(Outside(smc::Policy::smCentric(0, smRange(0, SetSize))), 0u)
      << "smc(sms=0-" << SetSize - 1 << ") ran chunks outside its SMs";
  EXPECT_EQ(Outside(smc::Policy::smCentric(1, smRange(0, SetSize))), 0u)
      << "smc(workers=1,sms=0-" << SetSize - 1
      << ") ran chunks outside its SMs";
}

} // namespace
