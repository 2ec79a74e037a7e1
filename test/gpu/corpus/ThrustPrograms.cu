//===- ThrustPrograms.cu - Thrust algorithms of the corpus ----------------===//
//
// Ten Thrust programs on a few million seeded 32-bit integers, each checked
// exactly against a CPU reference: sort, sort_by_key, inclusive_scan,
// exclusive_scan, reduce, reduce_by_key, copy_if, partition (a valid
// partition of the same multiset), unique after sort, transform_reduce.
//
// Thrust runs with thrust::cuda::par_nosync on the harness's stream and with
// an arena allocator over one cudaMalloc made in setUp(): Thrust's default
// temporary allocations would call cudaFree, which waits for the whole
// device, co-runner included.  Algorithms that return a value (reduce,
// copy_if, ...) still synchronize their own stream.
//===----------------------------------------------------------------------===//
#include "Corpus.h"

#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system_error.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include <new>
#include <numeric>

using namespace corpus;
using smctest::mix32;
using smctest::randomWords;

//===--- Functors (namespace scope: stable kernel names) ------------------===//

struct IsMultipleOf3 {
  __host__ __device__ bool operator()(uint32_t X) const { return X % 3 == 0; }
};

struct HasLowBitSet {
  __host__ __device__ bool operator()(uint32_t X) const { return X & 1; }
};

struct SquareWrapped {
  __host__ __device__ uint32_t operator()(uint32_t X) const { return X * X; }
};

namespace {

//===--- Arena allocator --------------------------------------------------===//

/// Thrust's temporary storage, carved from one device allocation and given
/// back all at once by reset() (before each run).
class DeviceArena {
public:
  using value_type = char;

  cudaError_t reserve(size_t Bytes) { return Memory.allocate(Bytes); }
  char *allocate(std::ptrdiff_t Bytes) {
    size_t Start = (Used + 255) & ~size_t(255);
    if (Start + static_cast<size_t>(Bytes) > Memory.size())
      throw std::bad_alloc();
    Used = Start + static_cast<size_t>(Bytes);
    return Memory.get() + Start;
  }
  void deallocate(char *, size_t) {}
  void reset() { Used = 0; }

private:
  DeviceArray<char> Memory;
  size_t Used = 0;
};

/// Base of the Thrust programs: the arena, the execution policy and the
/// translation of Thrust's exceptions into a CUDA status.
class ThrustProgram : public Program {
protected:
  static constexpr size_t kArenaBytes = size_t(256) << 20;
  DeviceArena Arena;

  auto on(cudaStream_t S) { return thrust::cuda::par_nosync(Arena).on(S); }

  void setUpArena() { SMC_CUDA_ASSERT(Arena.reserve(kArenaBytes)); }

  template <typename Body> cudaError_t guarded(Body &&B) {
    LastError.clear();
    Arena.reset();
    try {
      B();
    } catch (const thrust::system_error &E) {
      LastError = std::string("thrust: ") + E.what();
      cudaError_t Code = static_cast<cudaError_t>(E.code().value());
      return Code == cudaSuccess ? cudaErrorUnknown : Code;
    } catch (const std::bad_alloc &) {
      LastError = "the arena of " + std::to_string(kArenaBytes >> 20) +
                  " MiB is too small for Thrust's temporary storage";
      return cudaErrorMemoryAllocation;
    }
    return cudaPeekAtLastError();
  }
};

/// Keeps \p V's elements below \p Bound (a power of two).
std::vector<uint32_t> masked(std::vector<uint32_t> V, uint32_t Bound) {
  for (uint32_t &X : V)
    X &= Bound - 1;
  return V;
}

//===--- sort, sort_by_key ------------------------------------------------===//

class SortProgram : public ThrustProgram {
  static constexpr size_t N = (size_t(4) << 20) + 37;
  DeviceArray<uint32_t> Input, Work;
  std::vector<uint32_t> Expected;

public:
  void setUp() override {
    ASSERT_NO_FATAL_FAILURE(setUpArena());
    std::vector<uint32_t> In = randomWords(N, 101);
    Expected = In;
    std::sort(Expected.begin(), Expected.end());
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Work.allocate(N));
  }
  cudaError_t prepare(cudaStream_t S) override {
    return copyOnStream(Work, Input, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return guarded([&] { thrust::sort(on(S), Work.get(), Work.get() + N); });
  }
  void check(const std::string &When) override {
    std::vector<uint32_t> Got;
    SMC_CUDA_ASSERT(Work.download(Got));
    expectEqualArrays(Expected, Got, When + ": sorted keys");
  }
};

class SortByKeyProgram : public ThrustProgram {
  static constexpr size_t N = (size_t(4) << 20) + 11;
  DeviceArray<uint32_t> KeysIn, ValuesIn, Keys, Values;
  std::vector<uint32_t> ExpectedKeys, ExpectedValues;

public:
  void setUp() override {
    ASSERT_NO_FATAL_FAILURE(setUpArena());
    // mix32 is a bijection, so the keys are distinct and the result is
    // unique whether or not the sort is stable.
    std::vector<uint32_t> K(N), V(N);
    std::vector<std::pair<uint32_t, uint32_t>> Pairs(N);
    for (size_t I = 0; I < N; ++I) {
      K[I] = mix32(static_cast<uint32_t>(I) + 0x9e3779b9u);
      V[I] = static_cast<uint32_t>(I);
      Pairs[I] = {K[I], V[I]};
    }
    std::sort(Pairs.begin(), Pairs.end());
    ExpectedKeys.resize(N);
    ExpectedValues.resize(N);
    for (size_t I = 0; I < N; ++I)
      std::tie(ExpectedKeys[I], ExpectedValues[I]) = Pairs[I];
    SMC_CUDA_ASSERT(KeysIn.upload(K));
    SMC_CUDA_ASSERT(ValuesIn.upload(V));
    SMC_CUDA_ASSERT(Keys.allocate(N));
    SMC_CUDA_ASSERT(Values.allocate(N));
  }
  cudaError_t prepare(cudaStream_t S) override {
    cudaError_t Err = copyOnStream(Keys, KeysIn, S);
    return Err != cudaSuccess ? Err : copyOnStream(Values, ValuesIn, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return guarded([&] {
      thrust::sort_by_key(on(S), Keys.get(), Keys.get() + N, Values.get());
    });
  }
  void check(const std::string &When) override {
    std::vector<uint32_t> GotKeys, GotValues;
    SMC_CUDA_ASSERT(Keys.download(GotKeys));
    SMC_CUDA_ASSERT(Values.download(GotValues));
    expectEqualArrays(ExpectedKeys, GotKeys, When + ": keys");
    expectEqualArrays(ExpectedValues, GotValues, When + ": values");
  }
};

//===--- inclusive_scan, exclusive_scan -----------------------------------===//

class ScanProgram : public ThrustProgram {
  static constexpr size_t N = (size_t(6) << 20) + 5;
  static constexpr uint32_t kInit = 7;
  const bool Inclusive;
  DeviceArray<uint32_t> Input, Output;
  std::vector<uint32_t> Expected;

public:
  explicit ScanProgram(bool Inclusive) : Inclusive(Inclusive) {}
  void setUp() override {
    ASSERT_NO_FATAL_FAILURE(setUpArena());
    std::vector<uint32_t> In = randomWords(N, Inclusive ? 201 : 202);
    // Sums wrap around modulo 2^32 on both sides.
    Expected.resize(N);
    uint32_t Acc = Inclusive ? 0 : kInit;
    for (size_t I = 0; I < N; ++I) {
      if (Inclusive) {
        Acc += In[I];
        Expected[I] = Acc;
      } else {
        Expected[I] = Acc;
        Acc += In[I];
      }
    }
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Output.allocate(N));
  }
  cudaError_t prepare(cudaStream_t S) override {
    return poisonOnStream(Output, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return guarded([&] {
      if (Inclusive)
        thrust::inclusive_scan(on(S), Input.get(), Input.get() + N,
                               Output.get(), thrust::plus<uint32_t>());
      else
        thrust::exclusive_scan(on(S), Input.get(), Input.get() + N,
                               Output.get(), kInit, thrust::plus<uint32_t>());
    });
  }
  void check(const std::string &When) override {
    std::vector<uint32_t> Got;
    SMC_CUDA_ASSERT(Output.download(Got));
    expectEqualArrays(Expected, Got, When + ": scan");
  }
};

//===--- reduce, transform_reduce -----------------------------------------===//

class ReduceProgram : public ThrustProgram {
  static constexpr size_t N = (size_t(8) << 20) + 3;
  const bool Transformed;
  DeviceArray<uint32_t> Input;
  uint32_t Expected = 0, Result = 0;

public:
  explicit ReduceProgram(bool Transformed) : Transformed(Transformed) {}
  void setUp() override {
    ASSERT_NO_FATAL_FAILURE(setUpArena());
    std::vector<uint32_t> In = randomWords(N, Transformed ? 302 : 301);
    Expected = 0;
    for (uint32_t X : In)
      Expected += Transformed ? SquareWrapped()(X) : X;
    SMC_CUDA_ASSERT(Input.upload(In));
  }
  cudaError_t prepare(cudaStream_t) override {
    Result = Expected ^ 0xA5A5A5A5u;
    return cudaSuccess;
  }
  cudaError_t run(cudaStream_t S) override {
    return guarded([&] {
      if (Transformed)
        Result = thrust::transform_reduce(on(S), Input.get(), Input.get() + N,
                                          SquareWrapped(), 0u,
                                          thrust::plus<uint32_t>());
      else
        Result = thrust::reduce(on(S), Input.get(), Input.get() + N, 0u,
                                thrust::plus<uint32_t>());
    });
  }
  void check(const std::string &When) override {
    EXPECT_EQ(Result, Expected) << When << ": sum";
  }
};

//===--- reduce_by_key ----------------------------------------------------===//

class ReduceByKeyProgram : public ThrustProgram {
  static constexpr size_t N = (size_t(4) << 20) + 101;
  DeviceArray<uint32_t> Keys, Values, OutKeys, OutValues;
  std::vector<uint32_t> ExpectedKeys, ExpectedValues;
  size_t Count = 0;

public:
  void setUp() override {
    ASSERT_NO_FATAL_FAILURE(setUpArena());
    // Runs of 1 to 64 equal keys; mix32 (a bijection) of the run number
    // makes neighbouring runs' keys differ.
    std::vector<uint32_t> Lengths = randomWords(N, 401);
    std::vector<uint32_t> K(N), V = masked(randomWords(N, 402), 1u << 16);
    size_t I = 0;
    for (uint32_t Run = 0; I < N; ++Run) {
      size_t End = std::min(N, I + 1 + Lengths[Run] % 64);
      uint32_t Sum = 0;
      for (; I < End; ++I) {
        K[I] = mix32(Run);
        Sum += V[I];
      }
      ExpectedKeys.push_back(mix32(Run));
      ExpectedValues.push_back(Sum);
    }
    SMC_CUDA_ASSERT(Keys.upload(K));
    SMC_CUDA_ASSERT(Values.upload(V));
    SMC_CUDA_ASSERT(OutKeys.allocate(N));
    SMC_CUDA_ASSERT(OutValues.allocate(N));
  }
  cudaError_t prepare(cudaStream_t S) override {
    Count = 0;
    cudaError_t Err = poisonOnStream(OutKeys, S);
    return Err != cudaSuccess ? Err : poisonOnStream(OutValues, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return guarded([&] {
      auto Ends =
          thrust::reduce_by_key(on(S), Keys.get(), Keys.get() + N, Values.get(),
                                OutKeys.get(), OutValues.get());
      Count = static_cast<size_t>(Ends.first - OutKeys.get());
    });
  }
  void check(const std::string &When) override {
    ASSERT_EQ(Count, ExpectedKeys.size()) << When << ": number of runs";
    std::vector<uint32_t> GotKeys, GotValues;
    SMC_CUDA_ASSERT(downloadPrefix(OutKeys, Count, GotKeys));
    SMC_CUDA_ASSERT(downloadPrefix(OutValues, Count, GotValues));
    expectEqualArrays(ExpectedKeys, GotKeys, When + ": keys");
    expectEqualArrays(ExpectedValues, GotValues, When + ": sums");
  }
};

//===--- copy_if ----------------------------------------------------------===//

class CopyIfProgram : public ThrustProgram {
  static constexpr size_t N = (size_t(4) << 20) + 17;
  DeviceArray<uint32_t> Input, Output;
  std::vector<uint32_t> Expected;
  size_t Count = 0;

public:
  void setUp() override {
    ASSERT_NO_FATAL_FAILURE(setUpArena());
    std::vector<uint32_t> In = randomWords(N, 501);
    for (uint32_t X : In)
      if (IsMultipleOf3()(X))
        Expected.push_back(X);
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Output.allocate(N));
  }
  cudaError_t prepare(cudaStream_t S) override {
    Count = 0;
    return poisonOnStream(Output, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return guarded([&] {
      uint32_t *End = thrust::copy_if(on(S), Input.get(), Input.get() + N,
                                      Output.get(), IsMultipleOf3());
      Count = static_cast<size_t>(End - Output.get());
    });
  }
  void check(const std::string &When) override {
    ASSERT_EQ(Count, Expected.size()) << When << ": number selected";
    std::vector<uint32_t> Got;
    SMC_CUDA_ASSERT(downloadPrefix(Output, Count, Got));
    expectEqualArrays(Expected, Got, When + ": selected (in order)");
  }
};

//===--- partition --------------------------------------------------------===//

class PartitionProgram : public ThrustProgram {
  static constexpr size_t N = (size_t(4) << 20) + 23;
  DeviceArray<uint32_t> Input, Work;
  std::vector<uint32_t> SortedInput;
  size_t ExpectedTrue = 0, Middle = 0;

public:
  void setUp() override {
    ASSERT_NO_FATAL_FAILURE(setUpArena());
    std::vector<uint32_t> In = randomWords(N, 601);
    ExpectedTrue = std::count_if(In.begin(), In.end(), HasLowBitSet());
    SortedInput = In;
    std::sort(SortedInput.begin(), SortedInput.end());
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Work.allocate(N));
  }
  cudaError_t prepare(cudaStream_t S) override {
    Middle = 0;
    return copyOnStream(Work, Input, S);
  }
  cudaError_t run(cudaStream_t S) override {
    return guarded([&] {
      uint32_t *Mid =
          thrust::partition(on(S), Work.get(), Work.get() + N, HasLowBitSet());
      Middle = static_cast<size_t>(Mid - Work.get());
    });
  }
  void check(const std::string &When) override {
    ASSERT_EQ(Middle, ExpectedTrue) << When << ": partition point";
    std::vector<uint32_t> Got;
    SMC_CUDA_ASSERT(Work.download(Got));
    size_t Misplaced = 0, FirstMisplaced = N;
    for (size_t I = 0; I < N; ++I)
      if (HasLowBitSet()(Got[I]) != (I < Middle) && Misplaced++ == 0)
        FirstMisplaced = I;
    EXPECT_EQ(Misplaced, 0u)
        << When << ": elements on the wrong side of the partition point "
        << Middle << ", the first at " << FirstMisplaced;
    std::sort(Got.begin(), Got.end());
    expectEqualArrays(SortedInput, Got,
                      When + ": the partition's multiset (sorted)");
  }
};

//===--- unique (after sort) ----------------------------------------------===//

class UniqueProgram : public ThrustProgram {
  static constexpr size_t N = (size_t(4) << 20) + 41;
  DeviceArray<uint32_t> Input, Work;
  std::vector<uint32_t> Expected;
  size_t Count = 0;

public:
  void setUp() override {
    ASSERT_NO_FATAL_FAILURE(setUpArena());
    // About 4M values out of 2^21: most values occur twice or more.
    std::vector<uint32_t> In = masked(randomWords(N, 701), 1u << 21);
    Expected = In;
    std::sort(Expected.begin(), Expected.end());
    Expected.erase(std::unique(Expected.begin(), Expected.end()),
                   Expected.end());
    SMC_CUDA_ASSERT(Input.upload(In));
    SMC_CUDA_ASSERT(Work.allocate(N));
  }
  cudaError_t prepare(cudaStream_t S) override {
    Count = 0;
    return copyOnStream(Work, Input, S);
  }
  // The timed call is the sort and the unique that follows it.
  cudaError_t run(cudaStream_t S) override {
    return guarded([&] {
      thrust::sort(on(S), Work.get(), Work.get() + N);
      uint32_t *End = thrust::unique(on(S), Work.get(), Work.get() + N);
      Count = static_cast<size_t>(End - Work.get());
    });
  }
  void check(const std::string &When) override {
    ASSERT_EQ(Count, Expected.size()) << When << ": number of unique values";
    std::vector<uint32_t> Got;
    SMC_CUDA_ASSERT(downloadPrefix(Work, Count, Got));
    expectEqualArrays(Expected, Got, When + ": unique values");
  }
};

template <typename P, typename... Args>
ProgramEntry entry(std::string Name, Args... A) {
  return {std::move(Name),
          [=] { return std::unique_ptr<Program>(new P(A...)); }};
}

} // namespace

std::vector<ProgramEntry> corpus::thrustPrograms() {
  return {entry<SortProgram>("thrust_sort"),
          entry<SortByKeyProgram>("thrust_sort_by_key"),
          entry<ScanProgram>("thrust_inclusive_scan", true),
          entry<ScanProgram>("thrust_exclusive_scan", false),
          entry<ReduceProgram>("thrust_reduce", false),
          entry<ReduceByKeyProgram>("thrust_reduce_by_key"),
          entry<CopyIfProgram>("thrust_copy_if"),
          entry<PartitionProgram>("thrust_partition"),
          entry<UniqueProgram>("thrust_unique"),
          entry<ReduceProgram>("thrust_transform_reduce", true)};
}
