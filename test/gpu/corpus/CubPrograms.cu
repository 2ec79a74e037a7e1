//===- CubPrograms.cu - CUB algorithms and block primitives of the corpus -===//
//
// Six CUB programs on seeded 32-bit integers, each checked exactly against a
// CPU reference:
//  - cub::DeviceScan::InclusiveSum over 16M+ elements: the single-pass scan
//    whose CTAs wait for their predecessors' tile status (decoupled
//    look-back), so a variant that ran a later tile while an earlier one
//    never got an SM would hang or stall;
//  - cub::DeviceSelect::If, cub::DeviceHistogram::HistogramEven,
//    cub::DeviceRadixSort::SortPairs (stable: equal keys keep their input
//    order), cub::DeviceSegmentedReduce::Sum (empty segments too);
//  - a kernel of our own built from cub::BlockLoad, cub::BlockScan and
//    cub::BlockReduce: per-tile inclusive scan and tile sum.
// Temporary storage is sized and allocated in setUp(), never in run().
//===----------------------------------------------------------------------===//
#include "Corpus.h"

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>

using namespace corpus;
using smctest::randomWords;

//===--- Functors and kernels (external linkage: stable kernel names) -----===//

struct LowByteBelow100 {
  __host__ __device__ bool operator()(uint32_t X) const {
    return (X & 0xff) < 100;
  }
};

constexpr int kBlockThreads = 256;
constexpr int kItemsPerThread = 8;
constexpr int kTileItems = kBlockThreads * kItemsPerThread;

// Each CTA loads one tile of kTileItems (the last one partial), writes the
// tile's inclusive scan to Scanned and the tile's sum to TileSums.
__global__ void __launch_bounds__(kBlockThreads)
    corpusBlockScanReduce(const uint32_t *In, uint32_t *Scanned,
                          uint32_t *TileSums, int N) {
  using Load = cub::BlockLoad<uint32_t, kBlockThreads, kItemsPerThread,
                              cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<uint32_t, kBlockThreads>;
  using Reduce = cub::BlockReduce<uint32_t, kBlockThreads>;
  __shared__ union {
    typename Load::TempStorage Load;
    typename Scan::TempStorage Scan;
    typename Reduce::TempStorage Reduce;
  } Temp;

  const int Base = blockIdx.x * kTileItems;
  const int Valid = min(kTileItems, N - Base);
  uint32_t Items[kItemsPerThread];
  Load(Temp.Load).Load(In + Base, Items, Valid, 0u);
  __syncthreads();
  uint32_t Sum = Reduce(Temp.Reduce).Sum(Items);
  __syncthreads();
  Scan(Temp.Scan).InclusiveSum(Items, Items);
  for (int K = 0; K < kItemsPerThread; ++K) {
    int Idx = threadIdx.x * kItemsPerThread + K;
    if (Idx < Valid)
      Scanned[Base + Idx] = Items[K];
  }
  if (threadIdx.x == 0)
    TileSums[blockIdx.x] = Sum;
}

namespace {

/// Base of the CUB device-wide programs: the temporary storage, sized by a
/// first call with a null pointer.
class CubProgram : public Program {
protected:
  DeviceArray<char> Temp;
  size_t TempBytes = 0;

  /// \p Call(TempPtr, TempBytes) is the CUB call with its other arguments.
  template <typename F> void setUpTemp(F &&Call) {
    TempBytes = 0;
    SMC_CUDA_ASSERT(Call(nullptr, TempBytes));
    SMC_CUDA_ASSERT(Temp.allocate(std::max<size_t>(TempBytes, 1)));
  }
};

//===--- DeviceScan::InclusiveSum -----------------------------------------===//

class ScanProgram : public CubProgram {
  static constexpr int N = (16 << 20) + 1231;
  DeviceArray<uint32_t> Input, Output;
  std::vector<uint32_t> Expected;

  cudaError_t call(void *T, size_t &Bytes, cudaStream_t S) {
    return cub::DeviceScan::InclusiveSum(T, Bytes, Input.get(), Output.get(), N,
                                         S);
  }

public:
  void setUp() override {
    std::vector<uint32_t> In = randomWords(N, 1101);
    Expected.resize(N);
    uint32_t Acc = 0; // wraps modulo 2^32 on both sides
    for (int I = 0; I < N; ++I)
      Expected[I] = Acc += In[I];
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Output.allocate(N));
    ASSERT_NO_FATAL_FAILURE(setUpTemp(
        [&](void *T, size_t &Bytes) { return call(T, Bytes, nullptr); }));
  }
  cudaError_t prepare(cudaStream_t S) override {
    return poisonOnStream(Output, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return call(Temp.get(), TempBytes, S);
  }
  void check(const std::string &When) override {
    std::vector<uint32_t> Got;
    SMC_CUDA_ASSERT(Output.download(Got));
    expectEqualArrays(Expected, Got, When + ": inclusive sum");
  }
};

//===--- DeviceSelect::If -------------------------------------------------===//

class SelectIfProgram : public CubProgram {
  static constexpr int N = (4 << 20) + 77;
  DeviceArray<uint32_t> Input, Output;
  DeviceArray<int> NumSelected;
  std::vector<uint32_t> Expected;

  cudaError_t call(void *T, size_t &Bytes, cudaStream_t S) {
    return cub::DeviceSelect::If(T, Bytes, Input.get(), Output.get(),
                                 NumSelected.get(), N, LowByteBelow100(), S);
  }

public:
  void setUp() override {
    std::vector<uint32_t> In = randomWords(N, 1201);
    for (uint32_t X : In)
      if (LowByteBelow100()(X))
        Expected.push_back(X);
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Output.allocate(N));
    SMC_CUDA_ASSERT(NumSelected.allocate(1));
    ASSERT_NO_FATAL_FAILURE(setUpTemp(
        [&](void *T, size_t &Bytes) { return call(T, Bytes, nullptr); }));
  }
  cudaError_t prepare(cudaStream_t S) override {
    cudaError_t Err = poisonOnStream(Output, S);
    return Err != cudaSuccess ? Err : poisonOnStream(NumSelected, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return call(Temp.get(), TempBytes, S);
  }
  void check(const std::string &When) override {
    std::vector<int> Count;
    SMC_CUDA_ASSERT(NumSelected.download(Count));
    ASSERT_EQ(static_cast<size_t>(Count[0]), Expected.size())
        << When << ": number selected";
    std::vector<uint32_t> Got;
    SMC_CUDA_ASSERT(downloadPrefix(Output, Expected.size(), Got));
    expectEqualArrays(Expected, Got, When + ": selected (in order)");
  }
};

//===--- DeviceHistogram::HistogramEven -----------------------------------===//

class HistogramProgram : public CubProgram {
  static constexpr int N = (8 << 20) + 9;
  static constexpr int kBins = 256, kLower = 0, kUpper = 1024;
  DeviceArray<int> Samples, Histogram;
  std::vector<int> Expected;

  cudaError_t call(void *T, size_t &Bytes, cudaStream_t S) {
    return cub::DeviceHistogram::HistogramEven(T, Bytes, Samples.get(),
                                               Histogram.get(), kBins + 1,
                                               kLower, kUpper, N, S);
  }

public:
  void setUp() override {
    // Samples in [-16, 1040): those outside [0, 1024) fall in no bin.
    std::vector<uint32_t> Words = randomWords(N, 1301);
    std::vector<int> In(N);
    Expected.assign(kBins, 0);
    for (int I = 0; I < N; ++I) {
      In[I] = static_cast<int>(Words[I] % 1056) - 16;
      if (In[I] >= kLower && In[I] < kUpper)
        ++Expected[(In[I] - kLower) * kBins / (kUpper - kLower)];
    }
    SMC_CUDA_ASSERT(Samples.upload(In));
    SMC_CUDA_ASSERT(Histogram.allocate(kBins));
    ASSERT_NO_FATAL_FAILURE(setUpTemp(
        [&](void *T, size_t &Bytes) { return call(T, Bytes, nullptr); }));
  }
  cudaError_t prepare(cudaStream_t S) override {
    return poisonOnStream(Histogram, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return call(Temp.get(), TempBytes, S);
  }
  void check(const std::string &When) override {
    std::vector<int> Got;
    SMC_CUDA_ASSERT(Histogram.download(Got));
    expectEqualArrays(Expected, Got, When + ": bin counts");
  }
};

//===--- DeviceRadixSort::SortPairs ---------------------------------------===//

class RadixSortPairsProgram : public CubProgram {
  static constexpr int N = (4 << 20) + 3;
  DeviceArray<uint32_t> KeysIn, ValuesIn, KeysOut, ValuesOut;
  std::vector<uint32_t> ExpectedKeys, ExpectedValues;

  cudaError_t call(void *T, size_t &Bytes, cudaStream_t S) {
    return cub::DeviceRadixSort::SortPairs(T, Bytes, KeysIn.get(),
                                           KeysOut.get(), ValuesIn.get(),
                                           ValuesOut.get(), N, 0, 32, S);
  }

public:
  void setUp() override {
    // Keys below 2^22 (many repeats); values are the input positions, so
    // the stable order of equal keys is checked too.
    std::vector<uint32_t> K = randomWords(N, 1401), V(N);
    for (int I = 0; I < N; ++I) {
      K[I] &= (1u << 22) - 1;
      V[I] = static_cast<uint32_t>(I);
    }
    std::vector<uint32_t> Order(V);
    std::stable_sort(Order.begin(), Order.end(),
                     [&](uint32_t A, uint32_t B) { return K[A] < K[B]; });
    ExpectedKeys.resize(N);
    ExpectedValues = Order;
    for (int I = 0; I < N; ++I)
      ExpectedKeys[I] = K[Order[I]];
    SMC_CUDA_ASSERT(KeysIn.upload(K));
    SMC_CUDA_ASSERT(ValuesIn.upload(V));
    SMC_CUDA_ASSERT(KeysOut.allocate(N));
    SMC_CUDA_ASSERT(ValuesOut.allocate(N));
    ASSERT_NO_FATAL_FAILURE(setUpTemp(
        [&](void *T, size_t &Bytes) { return call(T, Bytes, nullptr); }));
  }
  cudaError_t prepare(cudaStream_t S) override {
    cudaError_t Err = poisonOnStream(KeysOut, S);
    return Err != cudaSuccess ? Err : poisonOnStream(ValuesOut, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return call(Temp.get(), TempBytes, S);
  }
  void check(const std::string &When) override {
    std::vector<uint32_t> GotKeys, GotValues;
    SMC_CUDA_ASSERT(KeysOut.download(GotKeys));
    SMC_CUDA_ASSERT(ValuesOut.download(GotValues));
    expectEqualArrays(ExpectedKeys, GotKeys, When + ": keys");
    expectEqualArrays(ExpectedValues, GotValues,
                      When + ": values (stable order)");
  }
};

//===--- DeviceSegmentedReduce::Sum ---------------------------------------===//

class SegmentedReduceProgram : public CubProgram {
  static constexpr int kMinItems = 4 << 20;
  int N = 0, Segments = 0;
  DeviceArray<uint32_t> Input, Sums;
  DeviceArray<int> Offsets;
  std::vector<uint32_t> Expected;

  cudaError_t call(void *T, size_t &Bytes, cudaStream_t S) {
    return cub::DeviceSegmentedReduce::Sum(T, Bytes, Input.get(), Sums.get(),
                                           Segments, Offsets.get(),
                                           Offsets.get() + 1, S);
  }

public:
  void setUp() override {
    // Segments of 0 to 2047 elements (every 16th one empty) until there
    // are at least kMinItems elements.
    std::vector<uint32_t> Lengths = randomWords(kMinItems, 1501);
    std::vector<int> Off = {0};
    for (size_t Seg = 0; Off.back() < kMinItems; ++Seg)
      Off.push_back(Off.back() + (Seg % 16 == 5
                                      ? 0
                                      : static_cast<int>(Lengths[Seg] % 2048)));
    N = Off.back();
    Segments = static_cast<int>(Off.size()) - 1;
    std::vector<uint32_t> In = randomWords(N, 1502);
    Expected.assign(Segments, 0);
    for (int Seg = 0; Seg < Segments; ++Seg)
      for (int I = Off[Seg]; I < Off[Seg + 1]; ++I)
        Expected[Seg] += In[I];
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Offsets.upload(Off));
    SMC_CUDA_ASSERT(Sums.allocate(Segments));
    ASSERT_NO_FATAL_FAILURE(setUpTemp(
        [&](void *T, size_t &Bytes) { return call(T, Bytes, nullptr); }));
  }
  cudaError_t prepare(cudaStream_t S) override {
    return poisonOnStream(Sums, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return call(Temp.get(), TempBytes, S);
  }
  void check(const std::string &When) override {
    std::vector<uint32_t> Got;
    SMC_CUDA_ASSERT(Sums.download(Got));
    expectEqualArrays(Expected, Got, When + ": segment sums");
  }
};

//===--- BlockLoad + BlockScan + BlockReduce ------------------------------===//

class BlockPrimitivesProgram : public Program {
  static constexpr int N = (8 << 20) + 1000;
  static constexpr int kTiles = (N + kTileItems - 1) / kTileItems;
  DeviceArray<uint32_t> Input, Scanned, TileSums;
  std::vector<uint32_t> ExpectedScan, ExpectedSums;

public:
  void setUp() override {
    std::vector<uint32_t> In = randomWords(N, 1601);
    ExpectedScan.resize(N);
    ExpectedSums.assign(kTiles, 0);
    for (int I = 0; I < N; ++I) {
      uint32_t &Sum = ExpectedSums[I / kTileItems];
      ExpectedScan[I] = Sum += In[I];
    }
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Scanned.allocate(N));
    SMC_CUDA_ASSERT(TileSums.allocate(kTiles));
  }
  cudaError_t prepare(cudaStream_t S) override {
    cudaError_t Err = poisonOnStream(Scanned, S);
    return Err != cudaSuccess ? Err : poisonOnStream(TileSums, S);
  }
  cudaError_t run(cudaStream_t S) override {
    corpusBlockScanReduce<<<kTiles, kBlockThreads, 0, S>>>(
        Input.get(), Scanned.get(), TileSums.get(), N);
    return cudaGetLastError();
  }
  void check(const std::string &When) override {
    std::vector<uint32_t> GotScan, GotSums;
    SMC_CUDA_ASSERT(Scanned.download(GotScan));
    SMC_CUDA_ASSERT(TileSums.download(GotSums));
    expectEqualArrays(ExpectedScan, GotScan, When + ": per-tile scan");
    expectEqualArrays(ExpectedSums, GotSums, When + ": tile sums");
  }
};

template <typename P> ProgramEntry entry(std::string Name) {
  return {std::move(Name), [] { return std::unique_ptr<Program>(new P()); }};
}

} // namespace

std::vector<ProgramEntry> corpus::cubPrograms() {
  return {entry<ScanProgram>("cub_scan_inclusive_sum"),
          entry<SelectIfProgram>("cub_select_if"),
          entry<HistogramProgram>("cub_histogram_even"),
          entry<RadixSortPairsProgram>("cub_radix_sort_pairs"),
          entry<SegmentedReduceProgram>("cub_segmented_reduce_sum"),
          entry<BlockPrimitivesProgram>("cub_block_scan_reduce")};
}
