//===- RemapTest.cu - Remapped jobs compute what the original does --------===//
//
// Policy remap runs a kernel's __remap variant, in which thread t runs job
// remap_table[t].  Each test runs a kernel under the original and under
// remap with the inspector's keys, with random keys (a random permutation:
// legality, not speed), with a partial remap, and adaptive, and requires
// bit-identical outputs; per-job counters prove that every job ran exactly
// once.  The kernels have the four kinds of key (loop trip count, branch,
// switch, gather index), grids with a partial last CTA, one CTA, and many.
// A kernel the plugin refuses (shared memory and a barrier) runs the
// original under policy remap.  Then: a table kept while the data changes
// (stale, still correct), smc::refreshRemap, new arguments, and a remapped
// launch on two streams.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"

using namespace smctest;

//===--- Kernels ----------------------------------------------------------===//

// Loop trip count: each job iterates Steps[i] times.
__global__ void remapSteps(const int *Steps, float *Out, uint32_t *Ran, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int S = Steps[I];
  float A = 1.0f + I * 1e-3f;
  for (int K = 0; K < S; ++K)
    A = A * 0.999f + 0.5f / (1.0f + K);
  Out[I] = A;
  atomicAdd(&Ran[I], 1u);
}

// Branch: heavy work for values above the threshold.
__global__ void remapFilter(const float *X, float *Out, uint32_t *Ran, int N,
                            float Threshold) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float V = X[I];
  if (V > Threshold) {
    float S = 0;
    for (int K = 1; K <= 32; ++K)
      S += sinf(V * K) / K;
    Out[I] = S;
  } else {
    Out[I] = V * 2;
  }
  atomicAdd(&Ran[I], 1u);
}

// Switch on a loaded cell kind.
__global__ void remapKinds(const int *Kind, const float *X, float *Out,
                           uint32_t *Ran, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  switch (Kind[I]) {
  case 0:
    Out[I] = X[I];
    break;
  case 1:
    Out[I] = sqrtf(fabsf(X[I])) + 1;
    break;
  case 2:
    Out[I] = expf(X[I]) - X[I] * X[I];
    break;
  default:
    Out[I] = -X[I];
    break;
  }
  atomicAdd(&Ran[I], 1u);
}

// Gather through an index array.
__global__ void remapGather(const int *Index, const float *Records, float *Out,
                            uint32_t *Ran, int N, int Records4) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    int J = Index[I];
    Out[I] = Records[J] + 2 * Records[J + Records4] - Records[J + 2 * Records4];
    atomicAdd(&Ran[I], 1u);
  }
}

// Threads exchange values through shared memory: the plugin refuses it.
__global__ void remapRefusedShared(const float *X, float *Out, int N) {
  __shared__ float Tile[256];
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Tile[threadIdx.x] = I < N ? X[I] : 0;
  __syncthreads();
  if (I < N)
    Out[I] = Tile[blockDim.x - 1 - threadIdx.x] + (X[I] > 0 ? 1 : 0);
}

//===--- Helpers ----------------------------------------------------------===//

namespace {

constexpr int kBlock = 256;

int gridFor(int N) { return (N + kBlock - 1) / kBlock; }

// What a job of the remap kernels writes: its output, and a count of its
// runs (each exactly once per launch).
std::vector<Buffer> jobBuffers(const DeviceArray<float> &Out,
                               const DeviceArray<uint32_t> &Ran) {
  return {{Out.get(), Out.bytes(), Buffer::Output, "out"},
          {Ran.get(), Ran.bytes(), Buffer::Counter, "ran"}};
}

// The policies a remappable kernel runs under.
std::vector<NamedPolicy> remapPolicies() {
  using smc::Policy;
  using smc::RemapControl;
  using smc::RemapKeys;
  return {
      {"remap(control=always)", Policy::remap(RemapControl::Always)},
      {"remap(control=always,keys=random)",
       Policy::remap(RemapControl::Always, 1.0, RemapKeys::Random)},
      {"remap(control=always,ratio=0.37)",
       Policy::remap(RemapControl::Always, 0.37)},
      {"remap(control=always,ratio=0.37,keys=random)",
       Policy::remap(RemapControl::Always, 0.37, RemapKeys::Random)},
      {"remap", Policy::remap()},
  };
}

// Keys with a skew: most small, some large (the remap sorts them).
std::vector<int> skewedSteps(size_t N, uint32_t Seed) {
  std::vector<uint32_t> W = randomWords(N, Seed);
  std::vector<int> Steps(N);
  for (size_t I = 0; I < N; ++I)
    Steps[I] = W[I] % 8 == 0 ? int(W[I] % 200) : int(W[I] % 5);
  return Steps;
}

std::vector<int> permutation(size_t N, uint32_t Seed) {
  std::vector<uint32_t> W = randomWords(N, Seed);
  std::vector<int> P(N);
  for (size_t I = 0; I < N; ++I)
    P[I] = int(I);
  for (size_t I = N; I > 1; --I)
    std::swap(P[I - 1], P[W[I - 1] % I]);
  return P;
}

} // namespace

//===--- Tests ------------------------------------------------------------===//

class RemapShapes : public ::testing::TestWithParam<int> {};

TEST_P(RemapShapes, LoopTripCount) {
  int N = GetParam();
  DeviceArray<int> Steps;
  DeviceArray<float> Out;
  DeviceArray<uint32_t> Ran;
  SMC_CUDA_ASSERT(Steps.upload(skewedSteps(N, 1)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  SMC_CUDA_ASSERT(Ran.allocate(N));
  expectMatchesOriginal(
      symbolOf(remapSteps), jobBuffers(Out, Ran),
      [&] {
        remapSteps<<<gridFor(N), kBlock>>>(Steps.get(), Out.get(), Ran.get(),
                                           N);
        return cudaGetLastError();
      },
      remapPolicies());
}

TEST_P(RemapShapes, Branch) {
  int N = GetParam();
  DeviceArray<float> X, Out;
  DeviceArray<uint32_t> Ran;
  SMC_CUDA_ASSERT(X.upload(randomFloats(N, 2)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  SMC_CUDA_ASSERT(Ran.allocate(N));
  expectMatchesOriginal(
      symbolOf(remapFilter), jobBuffers(Out, Ran),
      [&] {
        remapFilter<<<gridFor(N), kBlock>>>(X.get(), Out.get(), Ran.get(), N,
                                            0.4f);
        return cudaGetLastError();
      },
      remapPolicies());
}

TEST_P(RemapShapes, Switch) {
  int N = GetParam();
  std::vector<uint32_t> W = randomWords(N, 3);
  std::vector<int> Kinds(N);
  for (int I = 0; I < N; ++I)
    Kinds[I] = int(W[I] % 5);
  DeviceArray<int> Kind;
  DeviceArray<float> X, Out;
  DeviceArray<uint32_t> Ran;
  SMC_CUDA_ASSERT(Kind.upload(Kinds));
  SMC_CUDA_ASSERT(X.upload(randomFloats(N, 4)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  SMC_CUDA_ASSERT(Ran.allocate(N));
  expectMatchesOriginal(
      symbolOf(remapKinds), jobBuffers(Out, Ran),
      [&] {
        remapKinds<<<gridFor(N), kBlock>>>(Kind.get(), X.get(), Out.get(),
                                           Ran.get(), N);
        return cudaGetLastError();
      },
      remapPolicies());
}

TEST_P(RemapShapes, Gather) {
  int N = GetParam();
  DeviceArray<int> Index;
  DeviceArray<float> Records, Out;
  DeviceArray<uint32_t> Ran;
  SMC_CUDA_ASSERT(Index.upload(permutation(N, 5)));
  SMC_CUDA_ASSERT(Records.upload(randomFloats(3 * size_t(N), 6)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  SMC_CUDA_ASSERT(Ran.allocate(N));
  expectMatchesOriginal(
      symbolOf(remapGather), jobBuffers(Out, Ran),
      [&] {
        remapGather<<<gridFor(N), kBlock>>>(Index.get(), Records.get(),
                                            Out.get(), Ran.get(), N, N);
        return cudaGetLastError();
      },
      remapPolicies());
}

// One partial CTA, a partial last CTA, a large grid.
INSTANTIATE_TEST_SUITE_P(Jobs, RemapShapes,
                         ::testing::Values(1, 200, 256 * 37 + 11, 1 << 20));

TEST(Remap, RefusedKernelRunsTheOriginal) {
  int N = 256 * 9;
  DeviceArray<float> X, Out;
  SMC_CUDA_ASSERT(X.upload(randomFloats(N, 7)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  std::vector<Buffer> Buffers = {
      {Out.get(), Out.bytes(), Buffer::Output, "out"}};
  expectMatchesOriginal(
      symbolOf(remapRefusedShared), Buffers,
      [&] {
        remapRefusedShared<<<gridFor(N), kBlock>>>(X.get(), Out.get(), N);
        return cudaGetLastError();
      },
      remapPolicies());
}

// A table is kept while the arguments stay the same: after the data
// changes it is stale (slower, never wrong); refreshRemap makes the next
// launch compute it again; new arguments do too.  Every result must be the
// original's for the data of that launch.
TEST(Remap, StaleRefreshedAndNewArguments) {
  int N = 256 * 100 + 3;
  DeviceArray<int> Steps, OtherSteps;
  DeviceArray<float> Out, Expected;
  DeviceArray<uint32_t> Ran;
  SMC_CUDA_ASSERT(Steps.upload(skewedSteps(N, 8)));
  SMC_CUDA_ASSERT(OtherSteps.upload(skewedSteps(N, 9)));
  SMC_CUDA_ASSERT(Out.allocate(N));
  SMC_CUDA_ASSERT(Expected.allocate(N));
  SMC_CUDA_ASSERT(Ran.allocate(N));
  auto Run = [&](const smc::Policy &P, const DeviceArray<int> &S,
                 DeviceArray<float> &Into, std::vector<float> &Host) {
    smc::setPolicy(remapSteps, P);
    SMC_CUDA_ASSERT(cudaMemset(Into.get(), 0xA5, Into.bytes()));
    remapSteps<<<gridFor(N), kBlock>>>(S.get(), Into.get(), Ran.get(), N);
    SMC_CUDA_SYNC_ASSERT();
    SMC_CUDA_ASSERT(Into.download(Host));
  };
  smc::Policy Remap = smc::Policy::remap(smc::RemapControl::Always);
  std::vector<float> Want, Got;
  for (int Round = 0; Round < 3; ++Round) {
    // New data behind the same pointer.
    SMC_CUDA_ASSERT(Steps.upload(skewedSteps(N, 10 + Round)));
    Run(smc::Policy::original(), Steps, Expected, Want);
    Run(Remap, Steps, Out, Got);
    EXPECT_EQ(Want, Got) << "stale table, round " << Round;
    smc::refreshRemap(remapSteps);
    Run(Remap, Steps, Out, Got);
    EXPECT_EQ(Want, Got) << "refreshed table, round " << Round;
    Run(smc::Policy::original(), OtherSteps, Expected, Want);
    Run(Remap, OtherSteps, Out, Got);
    EXPECT_EQ(Want, Got) << "new arguments, round " << Round;
  }
  smc::clearPolicies();
}

// Launches of one configuration on two streams, alternating arguments, so
// that each stream's launch recomputes the table the other may still read.
TEST(Remap, TwoStreamsAlternatingArguments) {
  int N = 1 << 18;
  DeviceArray<int> StepsA, StepsB;
  DeviceArray<float> OutA, OutB, Expected;
  DeviceArray<uint32_t> RanA, RanB;
  SMC_CUDA_ASSERT(StepsA.upload(skewedSteps(N, 20)));
  SMC_CUDA_ASSERT(StepsB.upload(skewedSteps(N, 21)));
  SMC_CUDA_ASSERT(allocateZeroed(N, OutA, OutB, Expected));
  SMC_CUDA_ASSERT(allocateZeroed(N, RanA, RanB));
  cudaStream_t A, B;
  SMC_CUDA_ASSERT(cudaStreamCreateWithFlags(&A, cudaStreamNonBlocking));
  SMC_CUDA_ASSERT(cudaStreamCreateWithFlags(&B, cudaStreamNonBlocking));
  constexpr int Rounds = 8;
  smc::setPolicy(remapSteps, smc::Policy::remap(smc::RemapControl::Always));
  for (int R = 0; R < Rounds; ++R) {
    remapSteps<<<gridFor(N), kBlock, 0, A>>>(StepsA.get(), OutA.get(),
                                             RanA.get(), N);
    remapSteps<<<gridFor(N), kBlock, 0, B>>>(StepsB.get(), OutB.get(),
                                             RanB.get(), N);
  }
  SMC_CUDA_SYNC_ASSERT();
  EXPECT_TRUE(allCountsAre(RanA, Rounds, "stream A's jobs"));
  EXPECT_TRUE(allCountsAre(RanB, Rounds, "stream B's jobs"));
  std::vector<float> GotA, GotB, Want;
  SMC_CUDA_ASSERT(OutA.download(GotA));
  SMC_CUDA_ASSERT(OutB.download(GotB));
  smc::setPolicy(remapSteps, smc::Policy::original());
  DeviceArray<uint32_t> Ran;
  SMC_CUDA_ASSERT(allocateZeroed(N, Ran));
  remapSteps<<<gridFor(N), kBlock>>>(StepsA.get(), Expected.get(), Ran.get(),
                                     N);
  SMC_CUDA_SYNC_ASSERT();
  SMC_CUDA_ASSERT(Expected.download(Want));
  EXPECT_EQ(Want, GotA);
  remapSteps<<<gridFor(N), kBlock>>>(StepsB.get(), Expected.get(), Ran.get(),
                                     N);
  SMC_CUDA_SYNC_ASSERT();
  SMC_CUDA_ASSERT(Expected.download(Want));
  EXPECT_EQ(Want, GotB);
  SMC_CUDA_ASSERT(cudaStreamDestroy(A));
  SMC_CUDA_ASSERT(cudaStreamDestroy(B));
  smc::clearPolicies();
}

// Control adaptive: trials of the original and the remap on the first
// launches, then the choice; every launch's result is the original's.
TEST(Remap, AdaptiveLaunchesAllMatch) {
  int N = 1 << 20;
  DeviceArray<int> Steps;
  DeviceArray<float> Out, Expected;
  DeviceArray<uint32_t> Ran;
  SMC_CUDA_ASSERT(Steps.upload(skewedSteps(N, 30)));
  SMC_CUDA_ASSERT(allocateZeroed(N, Out, Expected));
  SMC_CUDA_ASSERT(allocateZeroed(N, Ran));
  smc::setPolicy(remapSteps, smc::Policy::original());
  remapSteps<<<gridFor(N), kBlock>>>(Steps.get(), Expected.get(), Ran.get(), N);
  SMC_CUDA_SYNC_ASSERT();
  std::vector<float> Want, Got;
  SMC_CUDA_ASSERT(Expected.download(Want));
  smc::setPolicy(remapSteps, smc::Policy::remap());
  constexpr int Launches = 16;
  for (int L = 0; L < Launches; ++L) {
    SMC_CUDA_ASSERT(cudaMemset(Out.get(), 0xA5, Out.bytes()));
    remapSteps<<<gridFor(N), kBlock>>>(Steps.get(), Out.get(), Ran.get(), N);
    SMC_CUDA_SYNC_ASSERT();
    SMC_CUDA_ASSERT(Out.download(Got));
    EXPECT_EQ(Want, Got) << "launch " << L;
  }
  EXPECT_TRUE(allCountsAre(Ran, Launches + 1, "jobs"));
  smc::clearPolicies();
}
