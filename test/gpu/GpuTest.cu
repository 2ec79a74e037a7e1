//===- GpuTest.cu - Helpers of the SMC GPU differential tests -------------===//
//
// Implements GpuTest.h: device queries, seeded inputs, the standard policy
// list and the differential runner (run under Policy::original(), then
// under every policy, compare buffers bit for bit).
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <thread>

namespace smctest {

unsigned numSMs() {
  static unsigned Cached = [] {
    int Count = 0;
    if (cudaDeviceGetAttribute(&Count, cudaDevAttrMultiProcessorCount, 0) !=
        cudaSuccess)
      return 0u;
    return static_cast<unsigned>(Count);
  }();
  return Cached;
}

size_t maxDynamicSharedOptin() {
  int Bytes = 0;
  if (cudaDeviceGetAttribute(&Bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                             0) != cudaSuccess)
    return 0;
  return static_cast<size_t>(Bytes);
}

namespace {
/// N values uniform in [-1, 1), from Engine seeded with Seed.
template <typename T, typename Engine>
std::vector<T> randomUnitRange(size_t N, uint32_t Seed) {
  Engine Gen(Seed);
  std::uniform_real_distribution<T> Dist(T(-1), T(1));
  std::vector<T> V(N);
  for (T &X : V)
    X = Dist(Gen);
  return V;
}
} // namespace

std::vector<float> randomFloats(size_t N, uint32_t Seed) {
  return randomUnitRange<float, std::mt19937>(N, Seed);
}

std::vector<double> randomDoubles(size_t N, uint32_t Seed) {
  return randomUnitRange<double, std::mt19937_64>(N, Seed);
}

std::vector<uint32_t> randomWords(size_t N, uint32_t Seed) {
  std::mt19937 Gen(Seed);
  std::vector<uint32_t> V(N);
  for (uint32_t &X : V)
    X = static_cast<uint32_t>(Gen());
  return V;
}

std::vector<unsigned> smRange(unsigned First, unsigned Count) {
  std::vector<unsigned> SMs(Count);
  for (unsigned I = 0; I < Count; ++I)
    SMs[I] = First + I;
  return SMs;
}

std::vector<NamedPolicy> standardPolicies(unsigned NumChunks) {
  const unsigned SMs = numSMs();
  std::vector<NamedPolicy> Policies;
  Policies.push_back({"smc(default)", smc::Policy::smCentric()});
  Policies.push_back({"smc(workers=1)", smc::Policy::smCentric(1)});
  Policies.push_back(
      {"smc(workers=2,sms=0-15)",
       smc::Policy::smCentric(2, smRange(0, std::min(16u, SMs)))});
  // Every SM named: the variant runs also where the grid is one wave (the
  // default policy then runs the original, QueuePlan.h originalSuffices).
  Policies.push_back({"smc(sms=0-" + std::to_string(SMs - 1) + ")",
                      smc::Policy::smCentric(0, smRange(0, SMs))});
  smc::Policy Table = smc::Policy::smCentric(0, {}, smc::ChunkOrder::Table);
  Table.chunkToSM.resize(NumChunks);
  for (unsigned C = 0; C < NumChunks; ++C)
    Table.chunkToSM[C] =
        static_cast<unsigned>((static_cast<uint64_t>(C) * 7) % SMs);
  Policies.push_back({"smc(order=table,c*7%numSMs)", std::move(Table)});
  Policies.push_back(
      {"smc(order=contiguous)",
       smc::Policy::smCentric(0, {}, smc::ChunkOrder::Contiguous)});
  Policies.push_back({"smc(order=cluster(tile))",
                      smc::Policy::clustered(smc::ClusterDir::Tile)});
  Policies.push_back({"slice(size=1)", smc::Policy::slice(1)});
  Policies.push_back({"slice(size=7)", smc::Policy::slice(7)});
  Policies.push_back({"slice(size=grid=" + std::to_string(NumChunks) + ")",
                      smc::Policy::slice(NumChunks)});
  return Policies;
}

std::vector<NamedPolicy> standardPolicies(dim3 Grid) {
  std::vector<NamedPolicy> Policies =
      standardPolicies(Grid.x * Grid.y * Grid.z);
  if (Grid.y * Grid.z > 2)
    Policies.push_back({"slice(size=2 rows)", smc::Policy::slice(2 * Grid.x)});
  if (Grid.z > 1)
    Policies.push_back(
        {"slice(size=1 plane)", smc::Policy::slice(Grid.x * Grid.y)});
  return Policies;
}

int gpuTestMain(int Argc, char **Argv, const char *Program,
                std::string &Description) {
  ::testing::InitGoogleTest(&Argc, Argv);
  if (::testing::GTEST_FLAG(list_tests))
    return RUN_ALL_TESTS();
  int Count = 0;
  cudaError_t Err = cudaGetDeviceCount(&Count);
  if (Err != cudaSuccess || Count == 0) {
    std::printf("SKIPPED: no CUDA GPU (%s)\n",
                Err != cudaSuccess ? cudaGetErrorString(Err)
                                   : "cudaGetDeviceCount found 0 devices");
    std::fflush(stdout);
    return 77;
  }
  if (cudaSetDevice(0) != cudaSuccess) {
    std::printf("%s: cannot use device 0\n", Program);
    return 1;
  }
  Description = "device 0";
  cudaDeviceProp Prop;
  if (cudaGetDeviceProperties(&Prop, 0) == cudaSuccess)
    Description = std::string(Prop.name) + ", sm_" +
                  std::to_string(Prop.major) + std::to_string(Prop.minor) +
                  ", " + std::to_string(Prop.multiProcessorCount) + " SMs";
  std::printf("%s: device 0 is %s\n", Program, Description.c_str());
  for (const char *Var : {"SMC_DISABLE", "SMC_POLICY"})
    if (const char *Value = std::getenv(Var); Value && *Value)
      std::printf("%s: warning: %s=%s is set; the tests set their own "
                  "policies and fail where it overrides them\n",
                  Program, Var, Value);
  return RUN_ALL_TESTS();
}

void resetBuffers(const std::vector<Buffer> &Buffers) {
  for (const Buffer &B : Buffers)
    SMC_CUDA_ASSERT(
        cudaMemset(B.Ptr, B.Role == Buffer::Counter ? 0 : kPoison, B.Bytes));
  SMC_CUDA_SYNC_ASSERT();
}

void runWithPolicy(const void *Kernel, const NamedPolicy &Policy,
                   const std::vector<Buffer> &Buffers, const LaunchFn &Launch,
                   std::vector<Bytes> &Results) {
  SCOPED_TRACE("policy " + Policy.Name);
  ASSERT_NO_FATAL_FAILURE(resetBuffers(Buffers));
  smc::setPolicyForSymbol(Kernel, Policy.Value);
  SMC_CUDA_ASSERT(Launch());
  SMC_CUDA_SYNC_ASSERT();
  Results.assign(Buffers.size(), Bytes());
  for (size_t I = 0; I < Buffers.size(); ++I) {
    Results[I].resize(Buffers[I].Bytes);
    SMC_CUDA_ASSERT(cudaMemcpy(Results[I].data(), Buffers[I].Ptr,
                               Buffers[I].Bytes, cudaMemcpyDeviceToHost));
    if (Buffers[I].Role == Buffer::Counter)
      expectAllCountsAre(Results[I], Buffers[I].ExpectedCount,
                         Policy.Name + ": counter " + Buffers[I].Name);
  }
}

void expectMatchesOriginal(const void *Kernel,
                           const std::vector<Buffer> &Buffers,
                           const LaunchFn &Launch,
                           const std::vector<NamedPolicy> &Policies) {
  std::vector<Bytes> Reference;
  ASSERT_NO_FATAL_FAILURE(runWithPolicy(Kernel,
                                        {"original", smc::Policy::original()},
                                        Buffers, Launch, Reference));
  for (size_t I = 0; I < Buffers.size(); ++I) {
    if (Buffers[I].Role != Buffer::Output)
      continue;
    const Bytes &R = Reference[I];
    bool AllPoison = std::all_of(R.begin(), R.end(), [](uint8_t B) {
      return B == static_cast<uint8_t>(kPoison);
    });
    ASSERT_FALSE(AllPoison)
        << "the original kernel wrote nothing into " << Buffers[I].Name
        << "; the comparison would prove nothing";
  }
  for (const NamedPolicy &Policy : Policies) {
    std::vector<Bytes> Results;
    ASSERT_NO_FATAL_FAILURE(
        runWithPolicy(Kernel, Policy, Buffers, Launch, Results));
    for (size_t I = 0; I < Buffers.size(); ++I)
      expectSameBytes(Reference[I], Results[I],
                      Policy.Name + ": " + Buffers[I].Name);
  }
}

static uint32_t wordAt(const Bytes &B, size_t Word) {
  uint32_t W = 0;
  size_t Offset = Word * 4;
  std::memcpy(&W, B.data() + Offset, std::min<size_t>(4, B.size() - Offset));
  return W;
}

void expectSameBytes(const Bytes &Expected, const Bytes &Actual,
                     const std::string &What) {
  if (Expected.size() == Actual.size() &&
      std::memcmp(Expected.data(), Actual.data(), Expected.size()) == 0)
    return;
  if (Expected.size() != Actual.size()) {
    ADD_FAILURE() << What << ": " << Actual.size() << " bytes, expected "
                  << Expected.size();
    return;
  }
  size_t Words = (Expected.size() + 3) / 4, Differing = 0, Shown = 0;
  std::ostringstream Msg;
  for (size_t W = 0; W < Words; ++W) {
    uint32_t E = wordAt(Expected, W), A = wordAt(Actual, W);
    if (E == A)
      continue;
    if (Shown++ < 4)
      Msg << "\n  word " << W << ": original 0x" << std::hex << E
          << ", variant 0x" << A << std::dec;
    ++Differing;
  }
  ADD_FAILURE() << What << " differs from the original in " << Differing
                << " of " << Words << " words" << Msg.str();
}

::testing::AssertionResult allCountsAre(const DeviceArray<uint32_t> &Counts,
                                        uint32_t Times,
                                        const std::string &What) {
  std::vector<uint32_t> Host;
  if (Counts.download(Host) != cudaSuccess)
    return ::testing::AssertionFailure() << "download failed";
  for (size_t C = 0; C < Host.size(); ++C)
    if (Host[C] != Times)
      return ::testing::AssertionFailure()
             << What << (What.empty() ? "" : " ") << "chunk " << C << " ran "
             << Host[C] << " times, not " << Times;
  return ::testing::AssertionSuccess();
}

void expectAllCountsAre(const Bytes &Counts, uint32_t Expected,
                        const std::string &What) {
  size_t Words = Counts.size() / 4, Lower = 0, Higher = 0, Shown = 0;
  std::ostringstream Msg;
  for (size_t W = 0; W < Words; ++W) {
    uint32_t C = wordAt(Counts, W);
    if (C == Expected)
      continue;
    (C < Expected ? Lower : Higher) += 1;
    if (Shown++ < 4)
      Msg << "\n  chunk " << W << " ran " << C << " times";
  }
  if (Lower || Higher)
    ADD_FAILURE() << What << ": of " << Words << " chunks, " << Lower
                  << " ran fewer and " << Higher << " more than " << Expected
                  << " times" << Msg.str();
}

void SmcGpuTest::SetUp() {
  smc::clearPolicies();
  ASSERT_NE(numSMs(), 0u) << "cannot query the SM count of device 0";
  SMC_CUDA_SYNC_ASSERT();
}

void SmcGpuTest::TearDown() { smc::clearPolicies(); }

namespace {

__device__ __forceinline__ unsigned long long globalTimer() {
  unsigned long long T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  return T;
}

// Holds its SM until the host sets *Release or TimeoutNs pass; every thread
// spins on %globaltimer meanwhile.  Only CTA 0 reads the host-mapped release
// word, lane 0 of its warp 0 every 20 us, and passes it on through device
// memory (Words[1]); warp 0 of the other CTAs polls that word and tells its
// CTA through shared memory.  (Polling host memory from every CTA slowed
// every other kernel's launches and memory traffic twentyfold; a poller of
// one lane with 31 lanes of its warp spinning on the shared word never ran.)
// The last CTA to arrive (counted in Words[0]) sets *Started; each CTA
// writes its SM to Words[2 + blockIdx.x].
__global__ void smHogKernel(const volatile uint32_t *Release,
                            volatile uint32_t *Started, uint32_t *Words,
                            unsigned long long TimeoutNs) {
  extern __shared__ uint32_t HogShared[]; // only reserves the SM's memory
  __shared__ volatile uint32_t Stop;
  volatile uint32_t *DeviceRelease = Words + 1;
  const unsigned long long Start = globalTimer();
  if (threadIdx.x == 0) {
    Stop = 0;
    HogShared[0] = 0;
    unsigned Sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(Sm));
    Words[2 + blockIdx.x] = Sm;
    __threadfence();
    if (atomicAdd(Words, 1u) == gridDim.x - 1) {
      *Started = 1;
      __threadfence_system();
    }
  }
  __syncthreads();
  if (threadIdx.x < 32) {
    unsigned long long LastPoll = Start;
    for (;;) {
      bool Done = false;
      if (threadIdx.x == 0) {
        unsigned long long Now = globalTimer();
        if (Now - Start >= TimeoutNs) {
          Done = true;
        } else if (blockIdx.x != 0) {
          Done = *DeviceRelease != 0;
        } else if (Now - LastPoll >= 20000) {
          LastPoll = Now;
          if (*Release) {
            *DeviceRelease = 1;
            Done = true;
          }
        }
      }
      if (__shfl_sync(0xffffffffu, Done, 0))
        break;
      __nanosleep(1000);
    }
    Stop = 1;
  } else {
    while (!Stop && globalTimer() - Start < TimeoutNs) {
    }
  }
}

} // namespace

SmHog::~SmHog() {
  release();
  if (HostWords)
    cudaFreeHost(HostWords);
  if (DeviceWords)
    cudaFree(DeviceWords);
  if (Done)
    cudaEventDestroy(Done);
  if (Stream)
    cudaStreamDestroy(Stream);
}

cudaError_t SmHog::create() {
  cudaError_t Err;
  void *Host = nullptr, *Mapped = nullptr;
  cudaDeviceProp Prop;
  if ((Err = cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking)) ||
      (Err = cudaEventCreateWithFlags(&Done, cudaEventDisableTiming)) ||
      (Err = cudaHostAlloc(&Host, 2 * sizeof(uint32_t), cudaHostAllocMapped)))
    return Err;
  HostWords = static_cast<uint32_t *>(Host);
  if ((Err = cudaHostGetDevicePointer(&Mapped, Host, 0)) ||
      (Err = cudaMalloc(&DeviceWords, (2 + MaxCtas) * sizeof(uint32_t))) ||
      (Err = cudaGetDeviceProperties(&Prop, 0)))
    return Err;
  MappedWords = static_cast<uint32_t *>(Mapped);
  SharedBytes = std::min<size_t>(Prop.sharedMemPerBlockOptin,
                                 Prop.sharedMemPerMultiprocessor / 2 + 1);
  return cudaFuncSetAttribute(smHogKernel,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              static_cast<int>(SharedBytes));
}

cudaError_t SmHog::start(unsigned Count, double MaxSeconds) {
  cudaError_t Err;
  if (Count > MaxCtas)
    return cudaErrorInvalidValue;
  if (!Stream && (Err = create()) != cudaSuccess)
    return Err;
  Ctas = Count;
  // A policy for the symbol beats name policies such as "*=...".
  smc::setPolicy(smHogKernel, smc::Policy::original());
  volatile uint32_t *Words = HostWords;
  Words[0] = Words[1] = 0;
  if ((Err = cudaMemsetAsync(DeviceWords, 0, 2 * sizeof(uint32_t), Stream)))
    return Err;
  smHogKernel<<<Count, 1024, SharedBytes, Stream>>>(
      MappedWords, MappedWords + 1, DeviceWords,
      static_cast<unsigned long long>(MaxSeconds * 1e9));
  if ((Err = cudaGetLastError()) || (Err = cudaEventRecord(Done, Stream)))
    return Err;
  Running = true;
  auto Begin = std::chrono::steady_clock::now();
  while (!Words[1]) {
    if (std::chrono::steady_clock::now() - Begin > std::chrono::seconds(3))
      return cudaErrorLaunchTimeout; // never all resident at once
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  return cudaSuccess;
}

std::vector<unsigned> SmHog::sms() const {
  std::vector<uint32_t> Words(Ctas);
  if (!Running || Ctas == 0 ||
      cudaMemcpy(Words.data(), DeviceWords + 2, Ctas * sizeof(uint32_t),
                 cudaMemcpyDeviceToHost) != cudaSuccess)
    return {};
  std::vector<unsigned> Sms(Words.begin(), Words.end());
  std::sort(Sms.begin(), Sms.end());
  Sms.erase(std::unique(Sms.begin(), Sms.end()), Sms.end());
  return Sms;
}

bool SmHog::holding() const {
  if (!Running)
    return false;
  bool NotDone = cudaEventQuery(Done) == cudaErrorNotReady;
  cudaGetLastError(); // not ready is no error of the test's
  return NotDone;
}

cudaError_t SmHog::release() {
  if (!Running)
    return cudaSuccess;
  Running = false;
  *static_cast<volatile uint32_t *>(HostWords) = 1;
  return cudaStreamSynchronize(Stream);
}

} // namespace smctest
