//===- LifetimeTest.cu - The runtime across device resets and exits -------===//
//
// cudaDeviceReset destroys every allocation, module and stream of the
// device, the runtime's tables and counter blocks too: launches after a
// reset must still run each chunk exactly once under every policy (the
// host rewrite sends cudaDeviceReset to the runtime, which rebuilds its
// device state).  A process that returns from main with SMC launches still
// running, also with SMC_STATS, must exit cleanly: the test runs this
// binary again as a child (--smc-exit-in-flight) and checks its status.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

using namespace smctest;

// Kernels have external linkage: the runtime finds variants by name.

// Counts each chunk's runs and writes its linear index to each element.
__global__ void countRuns(uint32_t *Runs, uint32_t *Out, unsigned N) {
  unsigned B = blockIdx.x + gridDim.x * blockIdx.y;
  if (threadIdx.x == 0)
    atomicAdd(&Runs[B], 1u);
  unsigned I = B * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = B;
}

// Spins for about \p Ns nanoseconds.
__global__ void spinFor(unsigned long long Ns, uint32_t *Sink) {
  unsigned long long Start, Now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Now));
  } while (Now - Start < Ns);
  if (threadIdx.x == 0)
    Sink[blockIdx.x] = 1;
}

namespace {

class Lifetime : public SmcGpuTest {};

// One run of countRuns on a 2-D grid under \p P, checked for exactly once.
void runAndCheck(const NamedPolicy &P) {
  SCOPED_TRACE(P.Name);
  const dim3 Grid(37, 29);
  const unsigned Block = 128, Chunks = Grid.x * Grid.y, N = Chunks * Block;
  DeviceArray<uint32_t> Runs, Out;
  SMC_CUDA_ASSERT(Runs.allocate(Chunks));
  SMC_CUDA_ASSERT(Out.allocate(N));
  SMC_CUDA_ASSERT(cudaMemset(Runs.get(), 0, Runs.bytes()));
  smc::setPolicy(countRuns, P.Value);
  countRuns<<<Grid, Block>>>(Runs.get(), Out.get(), N);
  SMC_CUDA_SYNC_ASSERT();
  std::vector<uint32_t> R, O;
  SMC_CUDA_ASSERT(Runs.download(R));
  SMC_CUDA_ASSERT(Out.download(O));
  for (unsigned C = 0; C < Chunks; ++C)
    ASSERT_EQ(R[C], 1u) << "chunk " << C << " ran " << R[C] << " times";
  for (unsigned I = 0; I < N; ++I)
    ASSERT_EQ(O[I], I / Block) << "element " << I;
}

TEST_F(Lifetime, LaunchesWorkAfterDeviceReset) {
  const std::vector<NamedPolicy> Policies = {
      {"smc(default)", smc::Policy::smCentric()},
      {"smc(workers=1,sms=0-15)", smc::Policy::smCentric(1, smRange(0, 16))},
      {"slice(size=7)", smc::Policy::slice(7)}};
  for (const NamedPolicy &P : Policies)
    ASSERT_NO_FATAL_FAILURE(runAndCheck(P));
  for (int Reset = 0; Reset < 2; ++Reset) {
    SMC_CUDA_ASSERT(cudaDeviceReset());
    SMC_CUDA_ASSERT(cudaSetDevice(0));
    for (const NamedPolicy &P : Policies)
      ASSERT_NO_FATAL_FAILURE(runAndCheck(P));
  }
}

// Returns the exit status of this binary run with --smc-exit-in-flight
// under \p Env ("" or "NAME=value"), or -1 if it did not exit normally.
int runChild(const std::string &Env) {
  char Self[4096];
  ssize_t Len = readlink("/proc/self/exe", Self, sizeof Self - 1);
  if (Len <= 0)
    return -1;
  Self[Len] = '\0';
  std::string Command =
      (Env.empty() ? "" : Env + " ") + "'" + Self + "' --smc-exit-in-flight";
  int Status = std::system(Command.c_str());
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

TEST_F(Lifetime, ProcessExitsCleanlyWithLaunchesInFlight) {
  EXPECT_EQ(runChild(""), 0);
  char Stats[] = "/tmp/smc-exit-in-flight-XXXXXX";
  int Fd = mkstemp(Stats);
  ASSERT_GE(Fd, 0);
  close(Fd);
  EXPECT_EQ(runChild(std::string("SMC_STATS=") + Stats), 0);
  std::remove(Stats);
}

} // namespace

int exitWithLaunchesInFlight() {
  uint32_t *Sink = nullptr;
  cudaStream_t Stream = nullptr;
  if (cudaMalloc(&Sink, 4096 * sizeof(uint32_t)) != cudaSuccess ||
      cudaStreamCreateWithFlags(&Stream, cudaStreamNonBlocking) != cudaSuccess)
    return 2;
  // SM-centric (the default policy) and sliced launches, a few hundred ms
  // each, on the legacy and on a created stream; no synchronization.
  smc::setPolicy(spinFor, smc::Policy::slice(64));
  spinFor<<<512, 128, 0, Stream>>>(200ull * 1000 * 1000, Sink);
  smc::clearPolicies();
  spinFor<<<1024, 128>>>(300ull * 1000 * 1000, Sink);
  return cudaGetLastError() == cudaSuccess ? 0 : 3;
}
