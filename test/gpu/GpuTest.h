//===- GpuTest.h - Helpers of the SMC GPU differential tests ----*- C++ -*-===//
//
// Shared pieces of smc_gpu_tests: checked CUDA calls, device arrays, seeded
// random inputs, the standard list of policies every kernel is run under,
// and the differential runner that launches a kernel under Policy::original()
// and then under each policy and requires bit-identical buffers.
//
// Only .cu files of smc_gpu_tests include this header; they are compiled as
// CUDA with clang and the SMC plugin, so every <<<>>> launch in them goes
// through the SMC runtime.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_GPU_GPUTEST_H
#define SMC_TEST_GPU_GPUTEST_H

#include "smc/smc.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

/// Fails the current test (fatally) unless \p Expr returns cudaSuccess.
#define SMC_CUDA_ASSERT(Expr)                                                  \
  do {                                                                         \
    cudaError_t SmcErr_ = (Expr);                                              \
    ASSERT_EQ(SmcErr_, cudaSuccess)                                            \
        << #Expr << ": " << cudaGetErrorName(SmcErr_) << ": "                  \
        << cudaGetErrorString(SmcErr_);                                        \
  } while (0)

/// Waits for the device and fails (fatally) on an error of the last run.
#define SMC_CUDA_SYNC_ASSERT()                                                 \
  do {                                                                         \
    SMC_CUDA_ASSERT(cudaDeviceSynchronize());                                  \
    SMC_CUDA_ASSERT(cudaGetLastError());                                       \
  } while (0)

/// Skips a test under SMC_STATS (check_stats.py runs the binary that way;
/// the plain run covers the test): SMC_STATS waits for every SM-centric
/// launch before the launch call returns, so nothing runs while the host
/// acts on it.  \p Why says what the test would need.
#define SMC_SKIP_UNDER_STATS(Why)                                              \
  do {                                                                         \
    if (std::getenv("SMC_STATS"))                                              \
      GTEST_SKIP() << "SMC_STATS serializes launches: " << (Why);              \
  } while (0)

namespace smctest {

/// Byte written over every output before each run, so that an element a run
/// does not write keeps a value no correct run produces by chance.
constexpr int kPoison = 0xA5;

/// Returns a kernel's host symbol, the key the SMC runtime uses.
template <typename Kernel> const void *symbolOf(Kernel *K) {
  return reinterpret_cast<const void *>(K);
}

/// Number of SMs of device 0 (cached).
unsigned numSMs();

/// Most dynamic shared memory one block may opt in to on device 0.
size_t maxDynamicSharedOptin();

/// The CTA's linear index in its grid (x fastest), the chunk id SMC uses.
__device__ inline uint32_t linearBlock() {
  return (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

/// One thread of a chunk: spins \p SpinNs (so that every SM's workers start
/// before any runs out of work), then records the SM the chunk runs on and
/// counts the chunk.
__device__ inline void spinThenRecordSm(uint32_t Chunk, uint32_t *SmOfChunk,
                                        uint32_t *Counts,
                                        unsigned long long SpinNs) {
  unsigned long long T0 = __nvvm_read_ptx_sreg_globaltimer();
  while (__nvvm_read_ptx_sreg_globaltimer() - T0 < SpinNs) {
  }
  SmOfChunk[Chunk] = __nvvm_read_ptx_sreg_smid();
  atomicAdd(&Counts[Chunk], 1u);
}

/// Murmur3's finalizer: a cheap, well-mixing hash usable on both sides.
__host__ __device__ inline uint32_t mix32(uint32_t X) {
  X ^= X >> 16;
  X *= 0x85ebca6bu;
  X ^= X >> 13;
  X *= 0xc2b2ae35u;
  X ^= X >> 16;
  return X;
}

/// Seeded inputs: floats in [-1, 1) and arbitrary 32-bit words.
std::vector<float> randomFloats(size_t N, uint32_t Seed);
std::vector<double> randomDoubles(size_t N, uint32_t Seed);
std::vector<uint32_t> randomWords(size_t N, uint32_t Seed);

/// An owning device allocation of \p T; calls return the CUDA status so that
/// the test can check them with SMC_CUDA_ASSERT.
template <typename T> class DeviceArray {
public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  DeviceArray(DeviceArray &&Other) noexcept
      : Ptr(std::exchange(Other.Ptr, nullptr)),
        Count(std::exchange(Other.Count, 0)) {}
  ~DeviceArray() {
    if (Ptr)
      cudaFree(Ptr);
  }

  cudaError_t allocate(size_t N) {
    if (Ptr)
      cudaFree(Ptr);
    Ptr = nullptr;
    Count = N;
    return cudaMalloc(reinterpret_cast<void **>(&Ptr), bytes());
  }
  cudaError_t upload(const std::vector<T> &Host) {
    cudaError_t Err = allocate(Host.size());
    if (Err != cudaSuccess)
      return Err;
    return cudaMemcpy(Ptr, Host.data(), bytes(), cudaMemcpyHostToDevice);
  }
  cudaError_t download(std::vector<T> &Host) const {
    Host.resize(Count);
    return cudaMemcpy(Host.data(), Ptr, bytes(), cudaMemcpyDeviceToHost);
  }

  T *get() const { return Ptr; }
  size_t size() const { return Count; }
  size_t bytes() const { return Count * sizeof(T); }

private:
  T *Ptr = nullptr;
  size_t Count = 0;
};

/// Allocates each of \p Arrays with \p N elements, zeroed; the first error.
template <typename... Ts>
cudaError_t allocateZeroed(size_t N, DeviceArray<Ts> &...Arrays) {
  cudaError_t Err = cudaSuccess;
  ((Err = Err == cudaSuccess ? Arrays.allocate(N) : Err), ...);
  ((Err =
        Err == cudaSuccess ? cudaMemset(Arrays.get(), 0, Arrays.bytes()) : Err),
   ...);
  return Err;
}

/// A word in host memory that kernels update while they run (mapped into
/// the device's address space), so that the host sees their progress.
class MappedWord {
public:
  MappedWord() = default;
  MappedWord(const MappedWord &) = delete;
  MappedWord &operator=(const MappedWord &) = delete;
  ~MappedWord() {
    if (Host)
      cudaFreeHost(Host);
  }
  /// Allocates the word (once) and sets it to 0.
  cudaError_t reset() {
    if (!Host) {
      cudaError_t Err = cudaHostAlloc(reinterpret_cast<void **>(&Host),
                                      sizeof(uint32_t), cudaHostAllocMapped);
      if (Err != cudaSuccess)
        return Err;
    }
    *Host = 0;
    return cudaSuccess;
  }
  /// The pointer kernels use.
  uint32_t *get() const { return Host; }
  uint32_t value() const {
    return *reinterpret_cast<volatile uint32_t *>(Host);
  }

private:
  uint32_t *Host = nullptr;
};

/// Success if every word of \p Counts (downloaded) is \p Times; else the
/// first chunk that is not, named with \p What.
::testing::AssertionResult allCountsAre(const DeviceArray<uint32_t> &Counts,
                                        uint32_t Times,
                                        const std::string &What = "");

/// A policy with the name tests print for it.
struct NamedPolicy {
  std::string Name;
  smc::Policy Value;
};

/// SMs First, First+1, ..., First+Count-1.
std::vector<unsigned> smRange(unsigned First, unsigned Count);

/// The policies every kernel is run under, for a launch of \p NumChunks
/// original CTAs: smc at the default occupancy; workers=1; workers=2 on SMs
/// 0..15; interleaved order; a table sending chunk c to SM (c*7) % numSMs;
/// contiguous order; clusters of neighbouring chunks (tiles of the per-SM
/// target); slices of 1, of 7 and of the whole grid.
std::vector<NamedPolicy> standardPolicies(unsigned NumChunks);

/// The same for a 2-D or 3-D grid, and slices of whole rows, which run as
/// grids of the original's shape (QueuePlan.h, SliceLaunch): two rows at a
/// time (within a plane, or across two planes: then 1-D) and, for 3-D
/// grids, one plane at a time.
std::vector<NamedPolicy> standardPolicies(dim3 Grid);

/// A device buffer a run writes.  Outputs are poisoned with kPoison before
/// each run; counters are zeroed before each run and, after it, each of
/// their uint32_t words must equal ExpectedCount (exactly-once checks).
struct Buffer {
  enum Kind { Output, Counter };
  void *Ptr;
  size_t Bytes;
  Kind Role;
  std::string Name;
  uint32_t ExpectedCount = 1;
};

using Bytes = std::vector<uint8_t>;
using LaunchFn = std::function<cudaError_t()>;

/// Puts \p Buffers into their pre-run state (poison or zero), synchronously.
void resetBuffers(const std::vector<Buffer> &Buffers);

/// Runs \p Launch once with \p Policy set for \p Kernel: resets the buffers,
/// launches, synchronizes, checks for errors, checks the counters and
/// downloads every buffer into \p Results.
void runWithPolicy(const void *Kernel, const NamedPolicy &Policy,
                   const std::vector<Buffer> &Buffers, const LaunchFn &Launch,
                   std::vector<Bytes> &Results);

/// The differential test: runs \p Launch under Policy::original(), then under
/// each of \p Policies, and requires every buffer to be bit-identical to the
/// original's.  Also fails if the original left an output entirely poisoned
/// (the comparison would then prove nothing).  Failures of one policy do not
/// stop the others; CUDA errors do.
void expectMatchesOriginal(const void *Kernel,
                           const std::vector<Buffer> &Buffers,
                           const LaunchFn &Launch,
                           const std::vector<NamedPolicy> &Policies);

/// Adds a failure naming \p What unless \p Actual equals \p Expected byte for
/// byte; the message gives the number of differing 32-bit words and the
/// first few of them.
void expectSameBytes(const Bytes &Expected, const Bytes &Actual,
                     const std::string &What);

/// Adds a failure naming \p What unless every uint32_t word of \p Counts is
/// \p Expected; the message counts the words that are lower and higher.
void expectAllCountsAre(const Bytes &Counts, uint32_t Expected,
                        const std::string &What);

/// A co-runner that holds SMs: \p Count CTAs of 1024 threads, each with
/// more than half of an SM's shared memory (one per SM, and no CTA that uses
/// shared memory fits beside it), on a stream of their own, until released
/// or until \p MaxSeconds have passed.  It always runs as the original
/// kernel.  Streams, events and mapped words are made on the first start
/// and reused.
class SmHog {
public:
  SmHog() = default;
  SmHog(const SmHog &) = delete;
  SmHog &operator=(const SmHog &) = delete;
  ~SmHog();

  /// Launches the hog and waits (up to 3 s) until all its CTAs run.
  cudaError_t start(unsigned Count, double MaxSeconds);
  /// True while the hog has not finished (it still holds its SMs).
  bool holding() const;
  /// The SMs its CTAs run on, sorted (while it holds them; else empty).
  std::vector<unsigned> sms() const;
  /// Lets the hog's CTAs end and waits for them.
  cudaError_t release();
  size_t sharedBytes() const { return SharedBytes; }

private:
  cudaError_t create();
  uint32_t *HostWords = nullptr;   // [0] release, [1] all started (mapped)
  uint32_t *MappedWords = nullptr; // the same, as the device sees them
  uint32_t *DeviceWords = nullptr; // [0] arrived CTAs, [1] release
  cudaStream_t Stream = nullptr;
  cudaEvent_t Done = nullptr;
  size_t SharedBytes = 0;
  unsigned Ctas = 0;
  bool Running = false;
  static constexpr unsigned MaxCtas = 4096;
};

/// The body of a GPU test program's main: parses the GoogleTest flags;
/// where no CUDA GPU can be used prints "SKIPPED: no CUDA GPU (<reason>)"
/// and returns 77, which ctest counts as a skip (SKIP_RETURN_CODE), never
/// as a pass; else names device 0 in \p Description, warns when SMC_DISABLE
/// or SMC_POLICY would override the tests' own policies, and runs the tests.
int gpuTestMain(int Argc, char **Argv, const char *Program,
                std::string &Description);

/// A file in /tmp holding Text, removed with the object.
struct TempFile {
  std::string Path;
  explicit TempFile(const std::string &Text = "") {
    char Name[] = "/tmp/smc-test-XXXXXX";
    int Fd = mkstemp(Name);
    if (Fd >= 0)
      close(Fd);
    Path = Name;
    write(Text);
  }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;
  ~TempFile() { std::remove(Path.c_str()); }
  void write(const std::string &Text) const { std::ofstream(Path) << Text; }
  std::string read() const {
    std::stringstream S;
    S << std::ifstream(Path).rdbuf();
    return S.str();
  }
};

/// Base fixture: clears every SMC policy before and after each test and
/// refuses to start on a device with a pending error.
class SmcGpuTest : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;
};

// A driver API function, or null.  Graph tests look into graphs and build
// child-graph nodes through the driver API: the runtime API's
// cudaGraphKernelNodeGetParams and cudaGraphAddChildGraphNode returned
// cudaErrorInvalidDeviceFunction on graphs of variant nodes (H100, CUDA 13;
// a one-kernel program did not).
template <typename Fn> Fn driverFunction(const char *Name, unsigned Version) {
  void *Address = nullptr;
  cudaDriverEntryPointQueryResult Status;
  if (cudaGetDriverEntryPointByVersion(
          Name, &Address, Version, cudaEnableDefault, &Status) != cudaSuccess ||
      Status != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<Fn>(Address);
}

} // namespace smctest

/// The child side of Lifetime.ProcessExitsCleanlyWithLaunchesInFlight:
/// launches long kernels through SMC and returns without waiting for them.
/// main runs it for --smc-exit-in-flight and returns its result.
int exitWithLaunchesInFlight();

/// The child side of Auto.RecordsEveryPointOfTheLadder: launches a kernel of
/// policy auto 11 times (under SMC_PROFILE_RECORD) and returns 0 if every
/// chunk ran 11 times.  main runs it for --smc-auto-record.
int recordAutoLaunches();

/// The child side of Trace.EveryChunkOnceOnItsSms: two SM-centric launches
/// of one kernel (the first on SMs 0-7), under SMC_TRACE; 0 if every chunk
/// ran twice.  main runs it for --smc-trace.
int traceLaunches();

/// The child processes of the tenants tests (TenantsTest.cu), run with
/// SMC_TENANTS=on: --smc-tenant-reserve=THREADS launches a kernel of policy
/// original(reserve) with CTAs of THREADS threads once, prints "ready" and
/// waits for its stdin to close; --smc-tenant-best-effort=US runs a
/// best-effort SM-centric launch of US-microsecond chunks, prints "started"
/// once it is launched and "most N" at its end (the most of its chunks that
/// ran at once on one SM); --smc-tenant-taker and --smc-tenant-yielder=N
/// are TenantYieldsTest.cu's.  main runs it for any --smc-tenant-* argument.
int tenantChild(const char *Mode);

#endif // SMC_TEST_GPU_GPUTEST_H
