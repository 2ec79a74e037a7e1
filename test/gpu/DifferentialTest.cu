//===- DifferentialTest.cu - Variants compute what the original does ------===//
//
// Each test launches a kernel under Policy::original() and then under every
// standard policy (smc default, workers=1, workers=2 on SMs 0-15, interleaved
// order, a chunk-to-SM table, slices of 1, 7 and the whole grid) and requires
// bit-identical outputs.  The kernels cover the shapes the variants must keep
// the meaning of: 1-D, 2-D and 3-D grids, shared memory with barriers, a
// divergent return before a barrier, grid-stride loops, a noinline callee
// reading blockIdx/gridDim, a template kernel and dynamic shared memory up to
// beyond 48 KiB.  Grids range from fewer CTAs than SMs to 131k CTAs, with
// gridDim.x and gridDim.y of 1, powers of two, primes and 65535.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

using namespace smctest;

// Kernels have external linkage (not in an anonymous namespace): the runtime
// finds a kernel's variants by its mangled name.

//===--- Kernels ----------------------------------------------------------===//

__global__ void vecAdd(const float *A, const float *B, float *C, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

constexpr int kTile = 32;

// Transposes a Rows x Cols matrix through a shared tile, looping over tiles
// with strides gridDim.x / gridDim.y so that any 2-D grid covers the matrix.
__global__ void transposeTiles(const float *In, float *Out, int Rows,
                               int Cols) {
  __shared__ float Tile[kTile][kTile + 1];
  int TilesX = (Cols + kTile - 1) / kTile, TilesY = (Rows + kTile - 1) / kTile;
  for (int TY = blockIdx.y; TY < TilesY; TY += gridDim.y) {
    for (int TX = blockIdx.x; TX < TilesX; TX += gridDim.x) {
      int X = TX * kTile + threadIdx.x;
      for (int J = threadIdx.y; J < kTile; J += blockDim.y) {
        int Y = TY * kTile + J;
        if (X < Cols && Y < Rows)
          Tile[J][threadIdx.x] = In[static_cast<size_t>(Y) * Cols + X];
      }
      __syncthreads();
      int OX = TY * kTile + threadIdx.x;
      for (int J = threadIdx.y; J < kTile; J += blockDim.y) {
        int OY = TX * kTile + J;
        if (OX < Rows && OY < Cols)
          Out[static_cast<size_t>(OY) * Rows + OX] = Tile[threadIdx.x][J];
      }
      __syncthreads();
    }
  }
}

// Every thread writes a hash of all of its grid coordinates.
__global__ void grid3D(uint32_t *Out) {
  uint32_t Block =
      (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  uint32_t Threads = blockDim.x * blockDim.y * blockDim.z;
  uint32_t Tid =
      (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  uint32_t H = mix32(blockIdx.x + 0x1000u * gridDim.x);
  H = mix32(H ^ (blockIdx.y + 0x1000u * gridDim.y));
  H = mix32(H ^ (blockIdx.z + 0x1000u * gridDim.z));
  H = mix32(H ^ (threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20));
  Out[static_cast<size_t>(Block) * Threads + Tid] = H;
}

constexpr int kReduceBlock = 256;

// Tree reduction of 2 * blockDim.x elements per CTA into one partial sum.
__global__ void blockReduce(const float *In, float *Partial, int N) {
  __shared__ float S[kReduceBlock];
  int I = blockIdx.x * blockDim.x * 2 + threadIdx.x;
  float V = 0.0f;
  if (I < N)
    V = In[I];
  if (I + static_cast<int>(blockDim.x) < N)
    V += In[I + blockDim.x];
  S[threadIdx.x] = V;
  __syncthreads();
  for (unsigned Stride = blockDim.x / 2; Stride > 0; Stride >>= 1) {
    if (threadIdx.x < Stride)
      S[threadIdx.x] += S[threadIdx.x + Stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    Partial[blockIdx.x] = S[0];
}

// The same reduction with a compile-time tree; blockDim.x must be
// kReduceBlock.  (The plugin may pick persistent workers for this one and
// one chunk per worker for blockReduce; both must match the original.)
__global__ void blockReduceFixed(const float *In, float *Partial, int N) {
  __shared__ float S[kReduceBlock];
  int I = blockIdx.x * kReduceBlock * 2 + threadIdx.x;
  float V = 0.0f;
  if (I < N)
    V = In[I];
  if (I + kReduceBlock < N)
    V += In[I + kReduceBlock];
  S[threadIdx.x] = V;
  __syncthreads();
  for (unsigned Stride = kReduceBlock / 2; Stride > 0; Stride >>= 1) {
    if (threadIdx.x < Stride)
      S[threadIdx.x] += S[threadIdx.x + Stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    Partial[blockIdx.x] = S[0];
}

constexpr int kStencilBlock = 128;
constexpr int kRadius = 3;

// 7-point 1-D stencil with a divergent exit before the barrier.  Threads past
// the end return at once; the others stage their element (and the halos) in
// shared memory.  Only positions inside [0, N) are read back, and the host
// picks N so that the last CTA keeps at least kRadius threads, so every value
// read was written.
__global__ void stencilEarlyExit(const float *In, float *Out, int N) {
  __shared__ float S[kStencilBlock + 2 * kRadius];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int T = threadIdx.x + kRadius;
  S[T] = In[I];
  if (threadIdx.x < kRadius) {
    S[T - kRadius] = I >= kRadius ? In[I - kRadius] : 0.0f;
    int J = I + blockDim.x;
    S[T + blockDim.x] = J < N ? In[J] : 0.0f;
  }
  __syncthreads();
  float Acc = 0.0f;
  for (int K = -kRadius; K <= kRadius; ++K)
    if (I + K >= 0 && I + K < N)
      Acc = __fmaf_rn(0.125f * (K + kRadius + 1), S[T + K], Acc);
  Out[I] = Acc;
}

__global__ void gridStrideScale(const float *In, float *Out, int N, float A) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    Out[I] = __fmaf_rn(In[I], A, static_cast<float>(I % 7));
}

// Not inlined into the kernel, so the variants must give a callee the
// original's blockIdx and gridDim too.
__device__ __noinline__ uint32_t blockSignature(uint32_t Salt) {
  uint32_t H = mix32(blockIdx.x ^ (gridDim.x << 16));
  H = mix32(H ^ blockIdx.y ^ (gridDim.y << 16));
  return mix32(H ^ blockIdx.z ^ (gridDim.z << 16) ^ Salt);
}

__global__ void noinlineBlockInfo(uint32_t *Out) {
  uint32_t Block =
      (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  Out[static_cast<size_t>(Block) * blockDim.x + threadIdx.x] =
      blockSignature(threadIdx.x);
}

__device__ inline float fusedMulAdd(float A, float B, float C) {
  return __fmaf_rn(A, B, C);
}
__device__ inline double fusedMulAdd(double A, double B, double C) {
  return __fma_rn(A, B, C);
}

template <typename T>
__global__ void axpyOffset(int N, T A, const T *X, const T *Y, T *Out) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = fusedMulAdd(A, X[I], Y[I]) + static_cast<T>(blockIdx.x % 5);
}

// Stages Words words per CTA in dynamic shared memory and writes them back
// reversed: each thread reads what other threads wrote, so a worker that
// started its next chunk before all threads finished the previous one would
// corrupt the result.
__global__ void dynSmemReverse(const uint32_t *In, uint32_t *Out,
                               unsigned Words) {
  extern __shared__ uint32_t Dyn[];
  size_t Base = static_cast<size_t>(blockIdx.x) * Words;
  for (unsigned K = threadIdx.x; K < Words; K += blockDim.x)
    Dyn[K] = In[Base + K] ^ (K * 2654435761u);
  __syncthreads();
  for (unsigned K = threadIdx.x; K < Words; K += blockDim.x)
    Out[Base + K] = Dyn[Words - 1 - K] + blockIdx.x;
}

//===--- Tests ------------------------------------------------------------===//

namespace {

unsigned ceilDiv(size_t A, size_t B) {
  return static_cast<unsigned>((A + B - 1) / B);
}

using Differential = SmcGpuTest;

TEST_F(Differential, VecAdd1D) {
  struct Case {
    int N, Block;
  };
  // 8 CTAs (fewer than SMs), 4097 CTAs, 100000 CTAs.
  for (Case C : {Case{1000, 128}, Case{(1 << 20) + 37, 256},
                 Case{100000 * 64 - 5, 64}}) {
    SCOPED_TRACE("n=" + std::to_string(C.N));
    unsigned Grid = ceilDiv(C.N, C.Block);
    DeviceArray<float> A, B, Out;
    SMC_CUDA_ASSERT(A.upload(randomFloats(C.N, 1)));
    SMC_CUDA_ASSERT(B.upload(randomFloats(C.N, 2)));
    SMC_CUDA_ASSERT(Out.allocate(C.N));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(vecAdd), {{Out.get(), Out.bytes(), Buffer::Output, "c"}},
        [&] {
          vecAdd<<<Grid, C.Block>>>(A.get(), B.get(), Out.get(), C.N);
          return cudaGetLastError();
        },
        standardPolicies(Grid)));
  }
}

TEST_F(Differential, Transpose2D) {
  struct Case {
    int Rows, Cols;
    dim3 Grid; // {0,0} means one CTA per tile.
  };
  for (Case C : {Case{1000, 777, dim3(0, 0)}, Case{1000, 777, dim3(5, 3)},
                 Case{3000, 4100, dim3(0, 0)}, Case{70, 40, dim3(0, 0)}}) {
    dim3 Grid = C.Grid;
    if (Grid.x == 0)
      Grid = dim3(ceilDiv(C.Cols, kTile), ceilDiv(C.Rows, kTile));
    SCOPED_TRACE(std::to_string(C.Rows) + "x" + std::to_string(C.Cols) +
                 " grid " + std::to_string(Grid.x) + "x" +
                 std::to_string(Grid.y));
    size_t Elems = static_cast<size_t>(C.Rows) * C.Cols;
    DeviceArray<float> In, Out;
    SMC_CUDA_ASSERT(In.upload(randomFloats(Elems, 3)));
    SMC_CUDA_ASSERT(Out.allocate(Elems));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(transposeTiles),
        {{Out.get(), Out.bytes(), Buffer::Output, "transposed"}},
        [&] {
          transposeTiles<<<Grid, dim3(kTile, 8)>>>(In.get(), Out.get(), C.Rows,
                                                   C.Cols);
          return cudaGetLastError();
        },
        standardPolicies(Grid)));
  }
}

TEST_F(Differential, Grid3D) {
  struct Case {
    dim3 Grid, Block;
  };
  // 12 CTAs, 765 CTAs, 104000 CTAs.
  for (Case C :
       {Case{dim3(3, 2, 2), dim3(4, 4, 2)}, Case{dim3(17, 9, 5), dim3(8, 4, 2)},
        Case{dim3(80, 50, 26), dim3(4, 2, 2)}}) {
    unsigned Chunks = C.Grid.x * C.Grid.y * C.Grid.z;
    SCOPED_TRACE("grid " + std::to_string(C.Grid.x) + "x" +
                 std::to_string(C.Grid.y) + "x" + std::to_string(C.Grid.z));
    DeviceArray<uint32_t> Out;
    SMC_CUDA_ASSERT(Out.allocate(static_cast<size_t>(Chunks) * C.Block.x *
                                 C.Block.y * C.Block.z));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(grid3D), {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          grid3D<<<C.Grid, C.Block>>>(Out.get());
          return cudaGetLastError();
        },
        standardPolicies(C.Grid)));
  }
}

// The variants divide chunk ids by gridDim.x and gridDim.y with the
// runtime's multiply-high constants (runtime/plan/MagicDivision.h): divisors 1,
// powers of two, divisors that need the round-down-and-increment form (7),
// primes, and the largest gridDim.y, each as x and as y.
TEST_F(Differential, GridDivisorEdges) {
  for (dim3 Grid : {dim3(1, 300, 7), dim3(64, 32, 4), dim3(7, 7, 7),
                    dim3(641, 1, 3), dim3(30011, 3, 1), dim3(2, 65535, 1)}) {
    unsigned Chunks = Grid.x * Grid.y * Grid.z;
    SCOPED_TRACE("grid " + std::to_string(Grid.x) + "x" +
                 std::to_string(Grid.y) + "x" + std::to_string(Grid.z));
    DeviceArray<uint32_t> Out;
    SMC_CUDA_ASSERT(Out.allocate(static_cast<size_t>(Chunks) * 32));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(grid3D), {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          grid3D<<<Grid, 32>>>(Out.get());
          return cudaGetLastError();
        },
        standardPolicies(Grid)));
  }
}

TEST_F(Differential, SharedMemoryReduction) {
  for (bool Fixed : {false, true}) {
    for (int N :
         {3000, 5000 * 2 * kReduceBlock + 100, 100000 * 2 * kReduceBlock}) {
      SCOPED_TRACE(std::string(Fixed ? "blockReduceFixed" : "blockReduce") +
                   " n=" + std::to_string(N));
      unsigned Grid = ceilDiv(N, 2 * kReduceBlock);
      DeviceArray<float> In, Partial;
      SMC_CUDA_ASSERT(In.upload(randomFloats(N, 4)));
      SMC_CUDA_ASSERT(Partial.allocate(Grid));
      ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
          Fixed ? symbolOf(blockReduceFixed) : symbolOf(blockReduce),
          {{Partial.get(), Partial.bytes(), Buffer::Output, "partials"}},
          [&] {
            if (Fixed)
              blockReduceFixed<<<Grid, kReduceBlock>>>(In.get(), Partial.get(),
                                                       N);
            else
              blockReduce<<<Grid, kReduceBlock>>>(In.get(), Partial.get(), N);
            return cudaGetLastError();
          },
          standardPolicies(Grid)));
    }
  }
}

TEST_F(Differential, DivergentExitBeforeBarrier) {
  // None is a multiple of the block size; each leaves >= kRadius threads in
  // the last CTA (see stencilEarlyExit).  5, 7813 and 100000 CTAs.
  for (int N :
       {4 * kStencilBlock + 50, 1000000 + 3, 100000 * kStencilBlock - 60}) {
    ASSERT_GE(N % kStencilBlock, kRadius);
    SCOPED_TRACE("n=" + std::to_string(N));
    unsigned Grid = ceilDiv(N, kStencilBlock);
    DeviceArray<float> In, Out;
    SMC_CUDA_ASSERT(In.upload(randomFloats(N, 5)));
    SMC_CUDA_ASSERT(Out.allocate(N));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(stencilEarlyExit),
        {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          stencilEarlyExit<<<Grid, kStencilBlock>>>(In.get(), Out.get(), N);
          return cudaGetLastError();
        },
        standardPolicies(Grid)));
  }
}

TEST_F(Differential, GridStrideLoop) {
  const int N = 1 << 20;
  DeviceArray<float> In, Out;
  SMC_CUDA_ASSERT(In.upload(randomFloats(N, 6)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  // Far fewer CTAs than elements / blockDim.
  for (unsigned Grid : {3u, 40u, 2 * numSMs() + 1}) {
    SCOPED_TRACE("grid=" + std::to_string(Grid));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(gridStrideScale),
        {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          gridStrideScale<<<Grid, 256>>>(In.get(), Out.get(), N, 1.5f);
          return cudaGetLastError();
        },
        standardPolicies(Grid)));
  }
}

TEST_F(Differential, NoinlineCalleeReadsBlockIdx) {
  for (dim3 Grid : {dim3(5, 2, 1), dim3(37, 11, 3), dim3(400, 260, 1)}) {
    unsigned Chunks = Grid.x * Grid.y * Grid.z;
    SCOPED_TRACE("chunks=" + std::to_string(Chunks));
    DeviceArray<uint32_t> Out;
    SMC_CUDA_ASSERT(Out.allocate(static_cast<size_t>(Chunks) * 64));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(noinlineBlockInfo),
        {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          noinlineBlockInfo<<<Grid, 64>>>(Out.get());
          return cudaGetLastError();
        },
        standardPolicies(Chunks)));
  }
}

TEST_F(Differential, TemplateKernelFloat) {
  const int N = 300000 + 11;
  unsigned Grid = ceilDiv(N, 256);
  DeviceArray<float> X, Y, Out;
  SMC_CUDA_ASSERT(X.upload(randomFloats(N, 7)));
  SMC_CUDA_ASSERT(Y.upload(randomFloats(N, 8)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  expectMatchesOriginal(
      symbolOf(axpyOffset<float>),
      {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
      [&] {
        axpyOffset<float><<<Grid, 256>>>(N, 0.75f, X.get(), Y.get(), Out.get());
        return cudaGetLastError();
      },
      standardPolicies(Grid));
}

TEST_F(Differential, TemplateKernelDouble) {
  const int N = 50000 + 3;
  unsigned Grid = ceilDiv(N, 128);
  DeviceArray<double> X, Y, Out;
  SMC_CUDA_ASSERT(X.upload(randomDoubles(N, 9)));
  SMC_CUDA_ASSERT(Y.upload(randomDoubles(N, 10)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  expectMatchesOriginal(
      symbolOf(axpyOffset<double>),
      {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
      [&] {
        axpyOffset<double>
            <<<Grid, 128>>>(N, -1.25, X.get(), Y.get(), Out.get());
        return cudaGetLastError();
      },
      standardPolicies(Grid));
}

TEST_F(Differential, DynamicSharedMemory) {
  struct Case {
    unsigned Grid, SmemBytes;
  };
  const unsigned Big = 96 * 1024;
  for (Case C : {Case{7, 4096}, Case{300, 4096}, Case{400, Big}}) {
    SCOPED_TRACE("grid=" + std::to_string(C.Grid) +
                 " dynamic shared=" + std::to_string(C.SmemBytes));
    if (C.SmemBytes > 48 * 1024) {
      if (maxDynamicSharedOptin() < C.SmemBytes)
        GTEST_SKIP() << "device allows only " << maxDynamicSharedOptin()
                     << " bytes of dynamic shared memory per block";
      SMC_CUDA_ASSERT(cudaFuncSetAttribute(
          dynSmemReverse, cudaFuncAttributeMaxDynamicSharedMemorySize,
          static_cast<int>(C.SmemBytes)));
    }
    unsigned Words = C.SmemBytes / 4;
    size_t Elems = static_cast<size_t>(C.Grid) * Words;
    DeviceArray<uint32_t> In, Out;
    SMC_CUDA_ASSERT(In.upload(randomWords(Elems, 11)));
    SMC_CUDA_ASSERT(Out.allocate(Elems));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(dynSmemReverse),
        {{Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          dynSmemReverse<<<C.Grid, 256, C.SmemBytes>>>(In.get(), Out.get(),
                                                       Words);
          return cudaGetLastError();
        },
        standardPolicies(C.Grid)));
  }
}

} // namespace
