//===- BatchTest.cu - The fixture and program of the Batch tests ----------===//
//
// The fixture of the smc::Batch tests (BatchTest.h): the program's
// kernels, its launches, its outputs as the launches give them one by one,
// and the Kernelet model's plan of a recorded batch (bench/kernelet, run as
// an explicit plan).  And the test that memsets and copies recorded between
// the kernels keep their place, in the model's plan and in every mode,
// while a copy to the host is refused.  The modes and plans of the program:
// BatchModesTest.cu; where a plan's CTAs run: BatchPlacementTest.cu.
//===----------------------------------------------------------------------===//
#include "BatchTest.h"
#include "corun/AutoPolicy.h"
#ifdef SMC_KERNELET_MODEL
#include "KerneletPlan.h"
#endif

#include <optional>

using namespace smctest;

// Kernels have external linkage: the runtime finds variants by name.

// Memory-bound: Out[i] = In[i] * 3 + 1.
__global__ void batchScale(const uint32_t *In, uint32_t *Out, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I] * 3u + 1u;
}

// Compute-bound: a hash chain per element, on a 2-D grid of 2-D blocks.
__global__ void batchHash(const uint32_t *In, uint32_t *Out, unsigned Width,
                          unsigned Rounds) {
  unsigned X = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned Y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned I = Y * Width + X;
  uint32_t H = In[I] ^ (X * 2654435761u) ^ Y;
  for (unsigned R = 0; R < Rounds; ++R)
    H = (H ^ (H >> 15)) * 2246822519u + R;
  Out[I] = H;
}

// Waits about `Nanoseconds`, then writes Value to *Word: work queued on a
// stream before the batch, which the batch's first launch reads.
__global__ void batchLateWrite(uint32_t *Word, uint32_t Value,
                               unsigned long long Nanoseconds) {
  unsigned long long Start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Start));
  for (;;) {
    unsigned long long Now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Now));
    if (Now - Start > Nanoseconds)
      break;
  }
  *Word = Value;
}

// Out[i] = In[i] + *Word.
__global__ void batchAddWord(const uint32_t *In, const uint32_t *Word,
                             uint32_t *Out, unsigned N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I] + *Word;
}

namespace {

std::string nameOf(const char *Kernel, dim3 Grid, dim3 Block) {
  const unsigned G[3] = {Grid.x, Grid.y, Grid.z};
  const unsigned B[3] = {Block.x, Block.y, Block.z};
  return smc::profileName(Kernel, G, B);
}

} // namespace

void BatchTest::SetUp() {
  SmcGpuTest::SetUp();
  if (HasFatalFailure())
    return;
  for (cudaStream_t &S : Streams)
    SMC_CUDA_ASSERT(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
  std::vector<uint32_t> Input = randomWords(kN, 7);
  for (DeviceArray<uint32_t> *A : {&In, &A1, &A2, &H1, &H2, &W1})
    SMC_CUDA_ASSERT(A->allocate(kN));
  SMC_CUDA_ASSERT(Word.allocate(1));
  SMC_CUDA_ASSERT(
      cudaMemcpy(In.get(), Input.data(), In.bytes(), cudaMemcpyHostToDevice));
  // Issue profiles: batchScale bound by memory, batchHash by computation,
  // so that the model pairs them.
  Set = smc::ProfileSet("test device", numSMs());
  // The times are long enough that two slices of each cost less than 2%.
  Set.profile(nameOf("batchScale", scaleGrid(), kScaleBlock))
      .setIssue({0.3, 0.05, 2e-3});
  Set.profile(nameOf("batchHash", kHashGrid, kHashBlock))
      .setIssue({0.001, 0.9, 4e-3});
  Set.profile(nameOf("batchAddWord", scaleGrid(), kScaleBlock))
      .setIssue({0.3, 0.05, 2e-3});
  Profiles.write(Set.toJson());
}

void BatchTest::TearDown() {
  cudaDeviceSynchronize();
  for (cudaStream_t S : Streams)
    if (S)
      cudaStreamDestroy(S);
  // No profiles for the tests that follow (policy auto).
  TempFile None(R"({"format":"smc-profile","version":1,"device":"none",)"
                R"("sms":1,"kernels":[]})");
  smc::loadProfiles(None.Path);
  SmcGpuTest::TearDown();
}

void BatchTest::launchProgram() {
  ASSERT_EQ(cudaSuccess, cudaMemsetAsync(Word.get(), 0, 4, Streams[2]));
  batchLateWrite<<<1, 1, 0, Streams[2]>>>(Word.get(), 12345, 2000000);
}

void BatchTest::launchRecorded() {
  batchScale<<<scaleGrid(), kScaleBlock, 0, Streams[0]>>>(In.get(), A1.get(),
                                                          kN);
  batchHash<<<kHashGrid, kHashBlock, 0, Streams[1]>>>(In.get(), H1.get(),
                                                      kWidth, kRounds);
  batchAddWord<<<scaleGrid(), kScaleBlock, 0, Streams[2]>>>(
      In.get(), Word.get(), W1.get(), kN);
  batchScale<<<scaleGrid(), kScaleBlock, 0, Streams[0]>>>(A1.get(), A2.get(),
                                                          kN);
  batchHash<<<kHashGrid, kHashBlock, 0, Streams[1]>>>(H1.get(), H2.get(),
                                                      kWidth, kRounds);
}

std::vector<Bytes> BatchTest::outputs() {
  std::vector<Bytes> Out;
  for (DeviceArray<uint32_t> *A : {&A1, &A2, &H1, &H2, &W1}) {
    Bytes B(A->bytes());
    for (cudaStream_t S : Streams)
      EXPECT_EQ(cudaSuccess, cudaMemcpyAsync(B.data(), A->get(), B.size(),
                                             cudaMemcpyDeviceToHost, S));
    for (cudaStream_t S : Streams)
      EXPECT_EQ(cudaSuccess, cudaStreamSynchronize(S));
    Out.push_back(std::move(B));
  }
  return Out;
}

void BatchTest::clearOutputs() {
  for (DeviceArray<uint32_t> *A : {&A1, &A2, &H1, &H2, &W1})
    ASSERT_EQ(cudaSuccess, cudaMemset(A->get(), kPoison, A->bytes()));
  ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
}

std::vector<Bytes> BatchTest::expected() {
  smc::setPolicy("*", smc::Policy::original());
  clearOutputs();
  launchProgram();
  launchRecorded();
  std::vector<Bytes> Out = outputs();
  smc::clearPolicies();
  return Out;
}

void BatchTest::record(smc::Batch &B) {
  clearOutputs();
  launchProgram();
  std::string Error;
  ASSERT_TRUE(B.begin(&Error)) << Error;
  launchRecorded();
  B.end();
  ASSERT_EQ(B.size(), 5u);
}

bool BatchTest::kerneletPlan(const smc::Batch &B,
                             std::vector<smc::Batch::SliceRun> &Runs,
                             double *Predicted) {
#ifdef SMC_KERNELET_MODEL
  int Device = 0, Threads = 0;
  EXPECT_EQ(cudaSuccess, cudaGetDevice(&Device));
  EXPECT_EQ(cudaSuccess,
            cudaDeviceGetAttribute(
                &Threads, cudaDevAttrMaxThreadsPerMultiProcessor, Device));
  smc::kernelet::BatchModel M =
      smc::kernelet::batchModel(B.launches(), Set, numSMs(), unsigned(Threads));
  smc::kernelet::Schedule Plan =
      smc::kernelet::planGreedy(M.Device, M.Launches);
  Runs = Plan.Runs;
  if (Predicted)
    *Predicted = Plan.PredictedSeconds;
  return true;
#else
  (void)B, (void)Runs, (void)Predicted;
  return false;
#endif
}

void BatchTest::expectOutputs(const std::vector<Bytes> &Expected) {
  std::vector<Bytes> Actual = outputs();
  const char *Names[] = {"A1", "A2", "H1", "H2", "W1"};
  for (size_t I = 0; I < Expected.size(); ++I) {
    expectSameBytes(Expected[I], Actual[I], Names[I]);
  }
}

namespace {

TEST_F(BatchTest, MemsetsAndCopiesKeepTheirPlace) {
  // Stream 0: A1 = scale(In); A2 = A1 (copied); A1 = 0 (memset); then
  // W1 = In + A1[0]-word (reads the memset's zero), all recorded.  Run
  // out of order, the copy would see poison and W1 a scaled value.
  std::vector<uint32_t> Input = randomWords(kN, 7);
  std::vector<uint32_t> Scaled(kN), Added(kN);
  for (unsigned I = 0; I < kN; ++I) {
    Scaled[I] = Input[I] * 3u + 1u;
    Added[I] = Input[I];
  }
  // The Kernelet model's plan (nullopt), then each mode.
  for (std::optional<smc::Batch::Mode> M :
       {std::optional<smc::Batch::Mode>(),
        std::optional(smc::Batch::Mode::Search),
        std::optional(smc::Batch::Mode::Serial),
        std::optional(smc::Batch::Mode::Streams)}) {
    clearOutputs();
    smc::Batch B;
    ASSERT_TRUE(B.begin());
    batchScale<<<scaleGrid(), kScaleBlock, 0, Streams[0]>>>(In.get(), A1.get(),
                                                            kN);
    EXPECT_EQ(cudaSuccess,
              cudaMemcpyAsync(A2.get(), A1.get(), A1.bytes(),
                              cudaMemcpyDeviceToDevice, Streams[0]));
    EXPECT_EQ(cudaSuccess,
              cudaMemsetAsync(A1.get(), 0, A1.bytes(), Streams[0]));
    batchAddWord<<<scaleGrid(), kScaleBlock, 0, Streams[0]>>>(
        In.get(), A1.get(), W1.get(), kN);
    // A copy to the host would read the batch's results before they
    // exist: refused, and not recorded.
    uint32_t Host = 0;
    EXPECT_EQ(cudaErrorNotPermitted,
              cudaMemcpyAsync(&Host, A1.get(), 4, cudaMemcpyDeviceToHost,
                              Streams[0]));
    B.end();
    ASSERT_EQ(B.size(), 4u);
    std::string Error;
    std::vector<smc::Batch::SliceRun> Plan;
    if (!M && !kerneletPlan(B, Plan))
      continue; // kNoModel
    ASSERT_TRUE(M ? B.run(*M, &Error) : B.run(Plan, &Error)) << Error;
    SMC_CUDA_ASSERT(cudaStreamSynchronize(Streams[0]));
    std::vector<uint32_t> Copy(kN), Zero(kN), Sum(kN);
    SMC_CUDA_ASSERT(
        cudaMemcpy(Copy.data(), A2.get(), A2.bytes(), cudaMemcpyDeviceToHost));
    SMC_CUDA_ASSERT(
        cudaMemcpy(Zero.data(), A1.get(), A1.bytes(), cudaMemcpyDeviceToHost));
    SMC_CUDA_ASSERT(
        cudaMemcpy(Sum.data(), W1.get(), W1.bytes(), cudaMemcpyDeviceToHost));
    EXPECT_EQ(Copy, Scaled) << B.describe();
    EXPECT_EQ(Zero, std::vector<uint32_t>(kN, 0u));
    EXPECT_EQ(Sum, Added) << B.describe();
  }
}

} // namespace
