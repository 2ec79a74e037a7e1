//===- ClusterOrderTest.cu - The cluster chunk order on a GPU -------------===//
//
// order=cluster(...) (smc::ChunkOrder::Cluster, after CTA-Clustering,
// ASPLOS'17) gives each SM whole clusters of neighbouring chunks, in queues
// no other order builds: not increasing (runs along y, tiles), partial
// clusters at the grid's edges, clusters cut at z planes, clusters larger
// than the grid.  Each differential test runs a kernel under
// Policy::original() and then under every policy of clusterPolicies()
// (cluster(x), cluster(y), cluster(tile), cluster(tile,3x2), workers=1, SM
// subsets with gaps and in reverse order, one SM, a cluster larger than the
// grid) and requires bit-identical outputs and every chunk counted exactly
// once:
//  - Hash1D2D3D: 1-D, 2-D and 3-D grids, no barrier (loop mode);
//  - BoxFilter2D: a 2-D shared-memory tile filter with barriers;
//  - BlockSum3D: a shared-memory tree reduction per CTA on 3-D grids;
//  - EarlyExitFilter2D: an image filter whose threads outside the image
//    return before the barrier (one-chunk mode).
// LocalityPolicyKeepsResultsWhileItTriesPlacements: policy locality's
// trials and choice (fifteen launches) give the original's bytes.
// ClustersStayOnOneSM sets the policy by its SMC_POLICY text and records
// each chunk's %smid: the clusters must run whole on the SM they were dealt
// to (round robin over the set), which the original does not do.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>

using namespace smctest;

//===--- Kernels (external linkage: the runtime finds variants by name) ---===//

// Counts its chunk; every thread writes a hash of all its coordinates.
__global__ void clusterHash(uint32_t *Counts, uint32_t *Out) {
  uint32_t Chunk = linearBlock();
  if (threadIdx.x == 0)
    atomicAdd(&Counts[Chunk], 1u);
  uint32_t H = mix32(blockIdx.x ^ (gridDim.x << 16));
  H = mix32(H ^ blockIdx.y ^ (gridDim.y << 16));
  H = mix32(H ^ blockIdx.z ^ (gridDim.z << 16));
  Out[static_cast<size_t>(Chunk) * blockDim.x + threadIdx.x] =
      mix32(H ^ threadIdx.x);
}

constexpr int kFilterTile = 16;

// 3x3 weighted sum over a Width x Height image of words, through a shared
// tile with a one-word halo (edges clamped).  Threads outside the image
// stay for the barrier and write nothing.
__global__ void clusterBoxFilter(const uint32_t *In, uint32_t *Out,
                                 uint32_t *Counts, int Width, int Height) {
  __shared__ uint32_t Tile[kFilterTile + 2][kFilterTile + 2];
  int X0 = blockIdx.x * kFilterTile, Y0 = blockIdx.y * kFilterTile;
  for (int I = threadIdx.y * kFilterTile + threadIdx.x;
       I < (kFilterTile + 2) * (kFilterTile + 2);
       I += kFilterTile * kFilterTile) {
    int TX = I % (kFilterTile + 2), TY = I / (kFilterTile + 2);
    int X = min(max(X0 + TX - 1, 0), Width - 1);
    int Y = min(max(Y0 + TY - 1, 0), Height - 1);
    Tile[TY][TX] = In[static_cast<size_t>(Y) * Width + X];
  }
  __syncthreads();
  int X = X0 + threadIdx.x, Y = Y0 + threadIdx.y;
  if (X < Width && Y < Height) {
    uint32_t Sum = 0;
    for (int DY = 0; DY < 3; ++DY)
      for (int DX = 0; DX < 3; ++DX)
        Sum += (DY * 3 + DX + 1) * Tile[threadIdx.y + DY][threadIdx.x + DX];
    Out[static_cast<size_t>(Y) * Width + X] = Sum ^ blockIdx.x ^ blockIdx.y;
  }
  if (threadIdx.x == 0 && threadIdx.y == 0)
    atomicAdd(&Counts[blockIdx.y * gridDim.x + blockIdx.x], 1u);
  __syncthreads(); // the tile is reused by a worker's next chunk
}

constexpr int kSumBlock = 128;

// Sum of the CTA's kSumBlock words (integer: exact in any order) by a
// shared-memory tree with a barrier per level.
__global__ void clusterBlockSum3D(const uint32_t *In, uint32_t *Out,
                                  uint32_t *Counts) {
  __shared__ uint32_t S[kSumBlock];
  uint32_t Chunk = linearBlock();
  S[threadIdx.x] = In[static_cast<size_t>(Chunk) * kSumBlock + threadIdx.x];
  __syncthreads();
  for (unsigned Stride = kSumBlock / 2; Stride > 0; Stride >>= 1) {
    if (threadIdx.x < Stride)
      S[threadIdx.x] += S[threadIdx.x + Stride] * 3u;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    Out[Chunk] = S[0] ^ mix32(blockIdx.x | blockIdx.y << 11 | blockIdx.z << 22);
    atomicAdd(&Counts[Chunk], 1u);
  }
}

// Each pixel plus its right neighbour within the CTA; threads outside the
// image return before the barrier (the Rodinia/Parboil boundary guard).
// Only neighbours inside the image are read, and those threads stayed.
__global__ void clusterEarlyExitFilter(const uint32_t *In, uint32_t *Out,
                                       uint32_t *Counts, int Width,
                                       int Height) {
  __shared__ uint32_t Row[kFilterTile][kFilterTile];
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= Width || Y >= Height)
    return;
  size_t At = static_cast<size_t>(Y) * Width + X;
  Row[threadIdx.y][threadIdx.x] = In[At];
  __syncthreads();
  uint32_t Right = threadIdx.x + 1 < blockDim.x && X + 1 < Width
                       ? Row[threadIdx.y][threadIdx.x + 1]
                       : 0u;
  Out[At] = mix32(Row[threadIdx.y][threadIdx.x] + 5u * Right);
  if (threadIdx.x == 0 && threadIdx.y == 0)
    atomicAdd(&Counts[blockIdx.y * gridDim.x + blockIdx.x], 1u);
}

// Thread 0 records the SM its chunk runs on and counts it; the CTA spins
// SpinNs so that the SMs' workers all start before any runs out of work.
__global__ void clusterRecordSm(uint32_t *SmOfChunk, uint32_t *Counts,
                                unsigned long long SpinNs) {
  if (threadIdx.x == 0)
    spinThenRecordSm(linearBlock(), SmOfChunk, Counts, SpinNs);
}

//===--- Tests ------------------------------------------------------------===//

namespace {

using ClusterOrder = SmcGpuTest;

std::string gridName(dim3 G) {
  return std::to_string(G.x) + "x" + std::to_string(G.y) + "x" +
         std::to_string(G.z);
}

unsigned chunksOf(dim3 G) { return G.x * G.y * G.z; }

unsigned ceilDiv(unsigned A, unsigned B) { return (A + B - 1) / B; }

// The cluster policies every kernel is run under.  SM sets: the odd SMs
// below 16 in reverse order (gaps, not ascending), SMs 0-15, and the last
// SM alone.
std::vector<NamedPolicy> clusterPolicies() {
  using smc::ClusterDir;
  using smc::Policy;
  const unsigned SMs = numSMs();
  std::vector<unsigned> Odd;
  for (unsigned Sm = std::min(16u, SMs); Sm-- > 0;)
    if (Sm % 2 == 1 || SMs == 1)
      Odd.push_back(Sm);
  std::vector<unsigned> Low = smRange(0, std::min(16u, SMs));
  return {
      {"smc(order=cluster(x))", Policy::clustered(ClusterDir::X)},
      {"smc(order=cluster(y))", Policy::clustered(ClusterDir::Y)},
      {"smc(order=cluster(tile))", Policy::clustered(ClusterDir::Tile)},
      {"smc(order=cluster(tile,3x2))", Policy::clusteredTiles(3, 2)},
      {"smc(workers=1,order=cluster(x,5))",
       Policy::clustered(ClusterDir::X, 5, 1)},
      {"smc(workers=1,order=cluster(tile,3x2))",
       Policy::clusteredTiles(3, 2, 1)},
      {"smc(workers=2,sms=odd<16 reversed,order=cluster(tile,4))",
       Policy::clustered(ClusterDir::Tile, 4, 2, Odd)},
      {"smc(sms=0-15,order=cluster(y,3))",
       Policy::clustered(ClusterDir::Y, 3, 0, Low)},
      {"smc(workers=2,sms=last,order=cluster(x,3))",
       Policy::clustered(ClusterDir::X, 3, 2, {SMs - 1})},
      {"smc(order=cluster(y,100000))",
       Policy::clustered(ClusterDir::Y, 100000)},
      {"smc(order=cluster(tile,1))", Policy::clustered(ClusterDir::Tile, 1)},
  };
}

TEST_F(ClusterOrder, Hash1D2D3D) {
  for (dim3 Grid : {dim3(1), dim3(7), dim3(numSMs() + 1), dim3(5003),
                    dim3(37, 23), dim3(1, 300), dim3(128, 96), dim3(7, 5, 3),
                    dim3(17, 9, 5), dim3(40, 30, 20)}) {
    SCOPED_TRACE("grid " + gridName(Grid));
    const unsigned Chunks = chunksOf(Grid), Threads = 64;
    DeviceArray<uint32_t> Counts, Out;
    SMC_CUDA_ASSERT(Counts.allocate(Chunks));
    SMC_CUDA_ASSERT(Out.allocate(static_cast<size_t>(Chunks) * Threads));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(clusterHash),
        {{Counts.get(), Counts.bytes(), Buffer::Counter, "counts"},
         {Out.get(), Out.bytes(), Buffer::Output, "out"}},
        [&] {
          clusterHash<<<Grid, Threads>>>(Counts.get(), Out.get());
          return cudaGetLastError();
        },
        clusterPolicies()));
  }
}

// One of the 2-D filters (clusterBoxFilter, clusterEarlyExitFilter) over a
// random Width x Height image under each of Policies, against the original.
using FilterKernel = void(const uint32_t *, uint32_t *, uint32_t *, int, int);
void expectFilterMatches(FilterKernel *Filter, int Width, int Height,
                         uint32_t Seed,
                         const std::vector<NamedPolicy> &Policies) {
  dim3 Grid(ceilDiv(Width, kFilterTile), ceilDiv(Height, kFilterTile));
  SCOPED_TRACE(std::to_string(Width) + "x" + std::to_string(Height) + " grid " +
               gridName(Grid));
  size_t Pixels = static_cast<size_t>(Width) * Height;
  DeviceArray<uint32_t> In, Out, Counts;
  SMC_CUDA_ASSERT(In.upload(randomWords(Pixels, Seed)));
  SMC_CUDA_ASSERT(Out.allocate(Pixels));
  SMC_CUDA_ASSERT(Counts.allocate(chunksOf(Grid)));
  ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
      symbolOf(Filter),
      {{Counts.get(), Counts.bytes(), Buffer::Counter, "counts"},
       {Out.get(), Out.bytes(), Buffer::Output, "out"}},
      [&] {
        Filter<<<Grid, dim3(kFilterTile, kFilterTile)>>>(
            In.get(), Out.get(), Counts.get(), Width, Height);
        return cudaGetLastError();
      },
      Policies));
}

TEST_F(ClusterOrder, BoxFilter2D) {
  struct Case {
    int Width, Height;
  };
  // Grids of 1x1, 13x5 (edges cut every cluster shape), 64x48, 3x200.
  for (Case C : {Case{10, 9}, Case{200, 75}, Case{1024, 768}, Case{40, 3199}})
    ASSERT_NO_FATAL_FAILURE(expectFilterMatches(
        clusterBoxFilter, C.Width, C.Height, 31, clusterPolicies()));
}

// Policy locality tries, on a configuration's first launches, the original,
// the interleaved __smc and the cluster order of the kernel's locality class
// (also throttled), three timed launches each, then keeps the fastest: every
// one of those launches, and the ones after the choice, must give the
// original's bytes (check_stats.py checks the trials and the choice in the
// SMC_STATS records).
TEST_F(ClusterOrder, LocalityPolicyKeepsResultsWhileItTriesPlacements) {
  std::vector<NamedPolicy> Launches;
  for (unsigned I = 1; I <= 15; ++I)
    Launches.push_back(
        {"locality, launch " + std::to_string(I), smc::Policy::locality()});
  ASSERT_NO_FATAL_FAILURE(
      expectFilterMatches(clusterBoxFilter, 1024, 768, 37, Launches));
}

TEST_F(ClusterOrder, BlockSum3D) {
  for (dim3 Grid : {dim3(3, 2, 2), dim3(9, 7, 5), dim3(64, 33, 9),
                    dim3(5, 1, 40), dim3(600, 1, 1)}) {
    SCOPED_TRACE("grid " + gridName(Grid));
    const unsigned Chunks = chunksOf(Grid);
    DeviceArray<uint32_t> In, Out, Counts;
    SMC_CUDA_ASSERT(
        In.upload(randomWords(static_cast<size_t>(Chunks) * kSumBlock, 32)));
    SMC_CUDA_ASSERT(Out.allocate(Chunks));
    SMC_CUDA_ASSERT(Counts.allocate(Chunks));
    ASSERT_NO_FATAL_FAILURE(expectMatchesOriginal(
        symbolOf(clusterBlockSum3D),
        {{Counts.get(), Counts.bytes(), Buffer::Counter, "counts"},
         {Out.get(), Out.bytes(), Buffer::Output, "sums"}},
        [&] {
          clusterBlockSum3D<<<Grid, kSumBlock>>>(In.get(), Out.get(),
                                                 Counts.get());
          return cudaGetLastError();
        },
        clusterPolicies()));
  }
}

TEST_F(ClusterOrder, EarlyExitFilter2D) {
  struct Case {
    int Width, Height;
  };
  // None a multiple of the tile: the last column and row of CTAs lose
  // threads before the barrier.
  for (Case C : {Case{9, 5}, Case{203, 77}, Case{1001, 999}, Case{17, 4001}})
    ASSERT_NO_FATAL_FAILURE(expectFilterMatches(
        clusterEarlyExitFilter, C.Width, C.Height, 33, clusterPolicies()));
}

// A 32 x 16 grid in 4 x 2 tiles is 64 clusters, dealt round robin over SMs
// 0-15: cluster k (k = x/4 + 8 * (y/2)) belongs to SM k % 16.  Chunks spin
// 20 us, so every SM's workers start before another SM's run dry and steal;
// at least 90% of the clusters must run whole on their SM (a steal at the
// end may split a few).  The original, as a check of the method, runs
// fewer than half of the tiles whole on one SM.
TEST_F(ClusterOrder, ClustersStayOnOneSM) {
  if (numSMs() < 16)
    GTEST_SKIP() << "needs 16 SMs, the device has " << numSMs();
  const dim3 Grid(32, 16);
  const unsigned Chunks = chunksOf(Grid), Clusters = 64;
  DeviceArray<uint32_t> Sm, Counts;
  SMC_CUDA_ASSERT(Sm.allocate(Chunks));
  SMC_CUDA_ASSERT(Counts.allocate(Chunks));

  // For each cluster: the one SM all its chunks ran on, or ~0u.
  auto Run = [&](const std::string &What, std::vector<uint32_t> &SmOfCluster) {
    SCOPED_TRACE(What);
    SMC_CUDA_ASSERT(cudaMemset(Counts.get(), 0, Counts.bytes()));
    SMC_CUDA_ASSERT(cudaMemset(Sm.get(), 0xff, Sm.bytes()));
    clusterRecordSm<<<Grid, 64>>>(Sm.get(), Counts.get(), 20000);
    SMC_CUDA_ASSERT(cudaGetLastError());
    SMC_CUDA_SYNC_ASSERT();
    std::vector<uint32_t> HSm, HCounts;
    SMC_CUDA_ASSERT(Sm.download(HSm));
    SMC_CUDA_ASSERT(Counts.download(HCounts));
    for (unsigned C = 0; C < Chunks; ++C)
      ASSERT_EQ(HCounts[C], 1u) << What << ": chunk " << C;
    SmOfCluster.assign(Clusters, 0);
    std::vector<bool> First(Clusters, true);
    for (unsigned Y = 0; Y < Grid.y; ++Y)
      for (unsigned X = 0; X < Grid.x; ++X) {
        unsigned K = X / 4 + 8 * (Y / 2);
        uint32_t S = HSm[Y * Grid.x + X];
        if (First[K])
          SmOfCluster[K] = S;
        else if (SmOfCluster[K] != S)
          SmOfCluster[K] = ~0u;
        First[K] = false;
      }
  };

  std::vector<uint32_t> SmOfCluster;
  smc::setPolicy(clusterRecordSm, smc::Policy::original());
  ASSERT_NO_FATAL_FAILURE(Run("original", SmOfCluster));
  unsigned Whole = std::count_if(SmOfCluster.begin(), SmOfCluster.end(),
                                 [](uint32_t S) { return S != ~0u; });
  ASSERT_LT(Whole, Clusters / 2)
      << "the original ran " << Whole << " of " << Clusters
      << " tiles whole on one SM; this test could not see clusters being "
         "ignored";

  smc::clearPolicies();
  std::string Error;
  ASSERT_TRUE(smc::setPolicyText(
      "clusterRecordSm=smc(sms=0-15,order=cluster(tile,4x2))", &Error))
      << Error;
  ASSERT_NO_FATAL_FAILURE(Run("cluster(tile,4x2)", SmOfCluster));
  unsigned OnTheirSm = 0;
  for (unsigned K = 0; K < Clusters; ++K)
    OnTheirSm += SmOfCluster[K] == K % 16;
  EXPECT_GE(OnTheirSm, Clusters * 9 / 10)
      << "only " << OnTheirSm << " of " << Clusters
      << " clusters ran whole on the SM they were dealt to";
  for (uint32_t S : SmOfCluster)
    EXPECT_TRUE(S == ~0u || S < 16) << "a cluster ran on SM " << S;
}

} // namespace
