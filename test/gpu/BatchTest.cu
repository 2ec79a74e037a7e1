//===- BatchTest.cu - smc::Batch runs recorded launches as slices ---------===//
//
// Launches recorded into an smc::Batch from three streams - chains of
// kernels where each reads what the one before it on its stream wrote, 1-D
// and 2-D grids, with work queued on a stream before the batch that its
// first launch depends on - must give the bytes the same launches give one
// by one, in every mode: the layout search, serial, streams, plans given
// explicitly, and the Kernelet model's co-schedule (bench/kernelet, run as
// an explicit plan; it must actually slice and use both lanes, else the
// test would pass by running them whole).  Explicit plans that miss,
// repeat or reorder CTAs are refused before anything runs.  Without
// profiles the model runs every launch whole.
//===----------------------------------------------------------------------===//
#include "GpuTest.h"
#include "corun/AutoPolicy.h"
#ifdef SMC_KERNELET_MODEL
#include "KerneletPlan.h"
#endif

#include <algorithm>
#include <optional>
#include <set>

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

// Counts each CTA's runs.
__global__ void batchCountRuns(uint32_t *Runs) {
  if (threadIdx.x == 0)
    atomicAdd(&Runs[blockIdx.x + gridDim.x * blockIdx.y], 1u);
}

// Counts each CTA's runs and records the SM of its last run.
__global__ void batchRecordSm(uint32_t *Runs, uint32_t *SmOf) {
  if (threadIdx.x == 0) {
    unsigned Cta = blockIdx.x + gridDim.x * blockIdx.y;
    atomicAdd(&Runs[Cta], 1u);
    SmOf[Cta] = __nvvm_read_ptx_sreg_smid();
  }
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

// Takes the next start ticket for its CTA, then holds its place for about
// `Nanoseconds`: the order in which the hardware placed the CTAs.
__global__ void batchStartTicket(uint32_t *Next, uint32_t *Ticket,
                                 unsigned long long Nanoseconds) {
  if (threadIdx.x != 0)
    return;
  Ticket[blockIdx.x] = atomicAdd(Next, 1u);
  unsigned long long Start, Now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Start));
  do
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(Now));
  while (Now - Start < Nanoseconds);
}

namespace {

constexpr unsigned kN = 1u << 20; // elements of the 1-D chains
constexpr unsigned kScaleBlock = 256;
constexpr unsigned kWidth = 1024, kHeight = 512; // the 2-D chain
const dim3 kHashBlock(32, 8);
const dim3 kHashGrid(kWidth / 32, kHeight / 8);
constexpr unsigned kRounds = 2000;

std::string nameOf(const char *Kernel, dim3 Grid, dim3 Block) {
  const unsigned G[3] = {Grid.x, Grid.y, Grid.z};
  const unsigned B[3] = {Block.x, Block.y, Block.z};
  return smc::profileName(Kernel, G, B);
}

class BatchTest : public SmcGpuTest {
protected:
  void SetUp() override {
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
  void TearDown() override {
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
  static dim3 scaleGrid() { return dim3(kN / kScaleBlock); }

  // The program: stream 0 scales twice (A1, then A2 from A1); stream 1
  // hashes twice (H1, then H2 from H1); stream 2 adds a word that a kernel
  // queued before the batch writes late.
  void launchProgram() {
    ASSERT_EQ(cudaSuccess, cudaMemsetAsync(Word.get(), 0, 4, Streams[2]));
    batchLateWrite<<<1, 1, 0, Streams[2]>>>(Word.get(), 12345, 2000000);
  }
  void launchRecorded() {
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
  // Every output buffer, read through the streams (not a device-wide
  // synchronization), after clearing them.
  std::vector<Bytes> outputs() {
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
  void clearOutputs() {
    for (DeviceArray<uint32_t> *A : {&A1, &A2, &H1, &H2, &W1})
      ASSERT_EQ(cudaSuccess, cudaMemset(A->get(), kPoison, A->bytes()));
    ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize());
  }
  // The outputs of the program run one launch at a time, originals.
  std::vector<Bytes> expected() {
    smc::setPolicy("*", smc::Policy::original());
    clearOutputs();
    launchProgram();
    launchRecorded();
    std::vector<Bytes> Out = outputs();
    smc::clearPolicies();
    return Out;
  }
  void record(smc::Batch &B) {
    clearOutputs();
    launchProgram();
    std::string Error;
    ASSERT_TRUE(B.begin(&Error)) << Error;
    launchRecorded();
    B.end();
    ASSERT_EQ(B.size(), 5u);
  }
  // What Batch::Mode::Kernelet ran before the Kernelet model left the
  // runtime: the model's greedy plan of B's recorded launches
  // (bench/kernelet; the issue profiles of Set, for the launches the
  // runtime found profiles of), to run as B.run(Runs), and its predicted
  // makespan.  False where smc_gpu_tests is built without the benchmarks,
  // which build the model.
  bool kerneletPlan(const smc::Batch &B,
                    std::vector<smc::Batch::SliceRun> &Runs,
                    double *Predicted = nullptr) {
#ifdef SMC_KERNELET_MODEL
    int Device = 0, Threads = 0;
    EXPECT_EQ(cudaSuccess, cudaGetDevice(&Device));
    EXPECT_EQ(cudaSuccess,
              cudaDeviceGetAttribute(
                  &Threads, cudaDevAttrMaxThreadsPerMultiProcessor, Device));
    smc::kernelet::BatchModel M = smc::kernelet::batchModel(
        B.launches(), Set, numSMs(), unsigned(Threads));
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
  void expectOutputs(const std::vector<Bytes> &Expected) {
    std::vector<Bytes> Actual = outputs();
    const char *Names[] = {"A1", "A2", "H1", "H2", "W1"};
    for (size_t I = 0; I < Expected.size(); ++I) {
      expectSameBytes(Expected[I], Actual[I], Names[I]);
    }
  }

  cudaStream_t Streams[3] = {};
  DeviceArray<uint32_t> In, A1, A2, H1, H2, W1, Word;
  smc::ProfileSet Set; // the issue profiles, written to Profiles
  TempFile Profiles;
};

constexpr const char *kNoModel =
    "built without the benchmarks: no Kernelet model (bench/kernelet)";

TEST_F(BatchTest, KerneletScheduleMatchesOneByOne) {
  std::vector<Bytes> Expected = expected();
  std::string Error;
  ASSERT_TRUE(smc::loadProfiles(Profiles.Path, &Error)) << Error;
  smc::Batch B;
  record(B);
  // Nothing ran yet: the outputs still hold the poison.
  SMC_CUDA_ASSERT(cudaDeviceSynchronize());
  uint32_t First = 0;
  SMC_CUDA_ASSERT(cudaMemcpy(&First, A1.get(), 4, cudaMemcpyDeviceToHost));
  EXPECT_EQ(First, 0xA5A5A5A5u);
  std::vector<smc::Batch::SliceRun> Plan;
  double Predicted = 0;
  if (!kerneletPlan(B, Plan, &Predicted))
    GTEST_SKIP() << kNoModel;
  ASSERT_TRUE(B.run(Plan, &Error)) << Error;
  expectOutputs(Expected);
  // The model sliced some launch and used both lanes.
  bool Sliced = false, Lanes[2] = {false, false};
  for (const smc::Batch::SliceRun &R : B.lastRuns()) {
    Sliced |= R.sliceCtas < R.ctas;
    Lanes[R.lane] = true;
  }
  EXPECT_TRUE(Sliced) << B.describe();
  EXPECT_TRUE(Lanes[0] && Lanes[1]) << B.describe();
  EXPECT_GT(Predicted, 0) << B.describe();
  EXPECT_EQ(B.size(), 0u);
}

TEST_F(BatchTest, SearchTriesLayoutsAndEveryRunMatches) {
  smc::Batch::forgetSearches(); // also under --gtest_repeat: a new search
  std::vector<Bytes> Expected = expected();
  std::string Error;
  ASSERT_TRUE(smc::loadProfiles(Profiles.Path, &Error)) << Error;
  std::set<std::string> Layouts;
  bool Sliced = false, Workers = false;
  for (int Run = 0; Run < 25; ++Run) {
    SCOPED_TRACE("run " + std::to_string(Run));
    smc::Batch B;
    record(B);
    ASSERT_TRUE(B.run(smc::Batch::Mode::Search, &Error)) << Error;
    expectOutputs(Expected);
    SMC_CUDA_ASSERT(cudaDeviceSynchronize()); // the run's timing is ready
    std::string Text = B.describe();
    size_t Begin = Text.find("layout");
    ASSERT_NE(Begin, std::string::npos) << Text;
    Layouts.insert(Text.substr(Begin, Text.find(',', Begin) - Begin));
    for (const smc::Batch::SliceRun &R : B.lastRuns()) {
      Sliced |= R.sliceCtas < R.ctas && !R.workersPerSm;
      Workers |= R.workersPerSm != 0;
    }
  }
  // The first run is the streams layout; later ones try others, sliced
  // ones and ones with workers among them.
  EXPECT_GE(Layouts.size(), 5u);
  EXPECT_TRUE(Sliced);
  EXPECT_TRUE(Workers);
}

// Search for the sum of the streams' turnaround: a search of its own, the
// same bytes in every run.
TEST_F(BatchTest, SearchForTurnaroundMatchesToo) {
  smc::Batch::forgetSearches();
  std::vector<Bytes> Expected = expected();
  std::string Error;
  ASSERT_TRUE(smc::loadProfiles(Profiles.Path, &Error)) << Error;
  std::set<std::string> Layouts;
  for (int Run = 0; Run < 12; ++Run) {
    SCOPED_TRACE("run " + std::to_string(Run));
    smc::Batch B;
    B.setObjective(smc::Batch::Objective::Turnaround);
    record(B);
    ASSERT_TRUE(B.run(smc::Batch::Mode::Search, &Error)) << Error;
    expectOutputs(Expected);
    SMC_CUDA_ASSERT(cudaDeviceSynchronize()); // the run's timing is ready
    std::string Text = B.describe();
    EXPECT_NE(Text.find("(sum of the streams' turnaround)"), std::string::npos)
        << Text;
    size_t Begin = Text.find("layout");
    ASSERT_NE(Begin, std::string::npos) << Text;
    Layouts.insert(Text.substr(Begin, Text.find(',', Begin) - Begin));
  }
  // Measured and moving on: its trials are timed.
  EXPECT_GE(Layouts.size(), 3u);
}

TEST_F(BatchTest, LayoutRunsCoverTheirStreams) {
  std::vector<Bytes> Expected = expected();
  smc::Batch B;
  record(B);
  std::vector<smc::Batch::Layout> All = smc::Batch::balancedLayouts(3);
  ASSERT_EQ(All.size(), 12u * 27);
  ASSERT_EQ(smc::Batch::balancedLayouts(3, /*splits=*/2).size(), 12u * 8);
  ASSERT_EQ(smc::Batch::balancedLayouts(3, /*splits=*/5).size(), 12u * 125);
  std::vector<smc::Batch::SliceRun> Runs = B.layoutRuns(All.back());
  ASSERT_EQ(Runs.size(), 5u);
  smc::Batch::Layout Bad = All.back();
  Bad.lanes[0].push_back(Bad.lanes[1].front());
  EXPECT_TRUE(B.layoutRuns(Bad).empty());
  std::string Error;
  ASSERT_TRUE(B.run(Runs, &Error)) << Error;
  expectOutputs(Expected);

  // Slices and SM partitions combined: every stream confined to its lane's
  // half of the SMs as workers, or in slices beside.
  using Split = smc::Batch::Split;
  std::vector<smc::Batch::Layout> Combined = smc::Batch::balancedLayouts(
      3, {Split::Whole, Split::Slices, Split::Partition});
  ASSERT_EQ(Combined.size(), 12u * 27);
  const unsigned Sms = numSMs();
  // Every stream confined; and the scales confined beside the hashes in
  // slices, the adds whole.
  auto Mixed = std::find_if(
      Combined.begin(), Combined.end(), [](const smc::Batch::Layout &L) {
        return L.splits == std::vector<Split>{Split::Partition, Split::Slices,
                                              Split::Whole} &&
               L.lanes[0].size() == 1 && L.lanes[0][0] == 1;
      });
  ASSERT_NE(Mixed, Combined.end());
  for (const smc::Batch::Layout &Layout : {Combined.back(), *Mixed}) {
    smc::Batch Again;
    record(Again);
    std::vector<smc::Batch::SliceRun> Parts = Again.layoutRuns(Layout);
    ASSERT_EQ(Parts.size(), 5u);
    unsigned Confined = 0;
    for (const smc::Batch::SliceRun &R : Parts)
      if (R.smCount) {
        ++Confined;
        EXPECT_GT(R.workersPerSm, 0u);
        EXPECT_EQ(R.smFirst, R.lane ? Sms / 2 : 0u);
        EXPECT_EQ(R.smCount, R.lane ? Sms - Sms / 2 : Sms / 2);
      }
    EXPECT_GT(Confined, 0u) << "no launch of the layout was confined";
    ASSERT_TRUE(Again.run(Parts, &Error)) << Error;
    EXPECT_NE(Again.describe().find("on SMs"), std::string::npos)
        << Again.describe();
    expectOutputs(Expected);
  }
}

// A launch confined to an SM range as workers runs each CTA once, and only
// on those SMs; ranges without workers or beyond the device are refused.
TEST_F(BatchTest, PartitionRunsEveryCtaOnceOnItsSms) {
  const dim3 Grid(61, 47);
  const unsigned Ctas = Grid.x * Grid.y;
  const unsigned Sms = numSMs();
  DeviceArray<uint32_t> Runs, SmOf;
  SMC_CUDA_ASSERT(allocateZeroed(Ctas, Runs, SmOf));
  const unsigned Ranges[][2] = {
      {0, Sms / 2}, {Sms / 2, Sms - Sms / 2}, {Sms - 3, 3}, {7, 1}};
  for (const auto &Range : Ranges) {
    SCOPED_TRACE("SMs " + std::to_string(Range[0]) + " + " +
                 std::to_string(Range[1]));
    SMC_CUDA_ASSERT(cudaMemset(Runs.get(), 0, Runs.bytes()));
    smc::Batch B;
    ASSERT_TRUE(B.begin());
    batchRecordSm<<<Grid, 64, 0, Streams[0]>>>(Runs.get(), SmOf.get());
    B.end();
    ASSERT_TRUE(B.launches().at(0).workers) << "no persistent workers";
    std::string Error;
    ASSERT_TRUE(
        B.run({{0, 1, 0, Ctas, 2 * Range[1], 2, Range[0], Range[1]}}, &Error))
        << Error;
    SMC_CUDA_ASSERT(cudaDeviceSynchronize());
    Bytes Counts(Runs.bytes());
    SMC_CUDA_ASSERT(cudaMemcpy(Counts.data(), Runs.get(), Counts.size(),
                               cudaMemcpyDeviceToHost));
    expectAllCountsAre(Counts, 1, "CTA");
    std::vector<uint32_t> Sm(Ctas);
    SMC_CUDA_ASSERT(
        cudaMemcpy(Sm.data(), SmOf.get(), Ctas * 4, cudaMemcpyDeviceToHost));
    unsigned Outside = 0;
    for (uint32_t S : Sm)
      Outside += S < Range[0] || S >= Range[0] + Range[1];
    EXPECT_EQ(Outside, 0u) << "CTAs ran outside the partition";
  }
  for (const smc::Batch::SliceRun &Bad :
       {smc::Batch::SliceRun{0, 0, 0, Ctas, Ctas, 0, 0, 4},
        smc::Batch::SliceRun{0, 0, 0, Ctas, Ctas, 2, Sms - 2, 4}}) {
    smc::Batch B;
    ASSERT_TRUE(B.begin());
    batchRecordSm<<<Grid, 64, 0, Streams[0]>>>(Runs.get(), SmOf.get());
    B.end();
    std::string Error;
    EXPECT_FALSE(B.run({Bad}, &Error));
    EXPECT_NE(Error.find("confined to SMs"), std::string::npos) << Error;
  }
}

TEST_F(BatchTest, SerialAndStreamsMatchOneByOne) {
  std::vector<Bytes> Expected = expected();
  for (smc::Batch::Mode M :
       {smc::Batch::Mode::Serial, smc::Batch::Mode::Streams}) {
    SCOPED_TRACE(M == smc::Batch::Mode::Serial ? "serial" : "streams");
    smc::Batch B;
    record(B);
    std::string Error;
    ASSERT_TRUE(B.run(M, &Error)) << Error;
    expectOutputs(Expected);
  }
}

TEST_F(BatchTest, WithoutProfilesEveryLaunchRunsWhole) {
  std::vector<Bytes> Expected = expected();
  smc::Batch B;
  record(B);
  std::string Error;
  std::vector<smc::Batch::SliceRun> Plan;
  if (!kerneletPlan(B, Plan))
    GTEST_SKIP() << kNoModel;
  ASSERT_TRUE(B.run(Plan, &Error)) << Error;
  expectOutputs(Expected);
  ASSERT_EQ(B.lastRuns().size(), 5u) << B.describe();
  for (const smc::Batch::SliceRun &R : B.lastRuns())
    EXPECT_GE(R.sliceCtas, R.ctas) << B.describe();
}

TEST_F(BatchTest, ExplicitPlansRunMatchOrAreRefused) {
  std::vector<Bytes> Expected = expected();
  const unsigned Scale = kN / kScaleBlock;
  const unsigned Hash = kHashGrid.x * kHashGrid.y;
  // Launches: 0 scale, 1 hash, 2 add, 3 scale, 4 hash.  Odd slice sizes,
  // a launch cut into runs of different slice sizes, both lanes.
  // Launch 2 runs as persistent workers, 3 per SM; launch 4 as 1 per SM.
  std::vector<smc::Batch::SliceRun> Plan = {{0, 0, 0, 1000, 333},
                                            {1, 1, 0, 100, 7},
                                            {0, 0, 1000, Scale - 1000, 1024},
                                            {1, 1, 100, Hash - 100, 129},
                                            {2, 0, 0, Scale, Scale, 3},
                                            {3, 1, 0, Scale, Scale},
                                            {4, 0, 0, Hash, Hash, 1}};
  smc::Batch B;
  record(B);
  std::string Error;
  ASSERT_TRUE(B.run(Plan, &Error)) << Error;
  expectOutputs(Expected);

  // Refused, and nothing of the batch runs: a gap, an overlap, two lanes
  // for one launch, a launch before its stream's earlier one.
  std::vector<std::pair<std::vector<smc::Batch::SliceRun>, std::string>> Bad = {
      {{{0, 0, 0, Scale - 1, Scale}}, "has 4095 of its 4096 CTAs planned"},
      {{{0, 0, 0, 10, 10}, {0, 0, 5, Scale - 5, 10}},
       "must continue at CTA 10"},
      {{{0, 0, 0, 10, 10}, {0, 1, 10, Scale - 10, 10}}, "one lane"},
      {{{3, 0, 0, Scale, Scale}}, "starts before launch 0"},
      {{{0, 0, 0, 10, 10, 2}, {0, 0, 10, Scale - 10, 10}},
       "runs as workers only whole"}};
  for (const auto &[Runs, Expect] : Bad) {
    smc::Batch Refused;
    record(Refused);
    EXPECT_FALSE(Refused.run(Runs, &Error));
    EXPECT_NE(Error.find(Expect), std::string::npos) << Error;
    SMC_CUDA_ASSERT(cudaDeviceSynchronize());
    uint32_t First = 0;
    SMC_CUDA_ASSERT(cudaMemcpy(&First, A1.get(), 4, cudaMemcpyDeviceToHost));
    EXPECT_EQ(First, 0xA5A5A5A5u) << "a refused plan ran";
  }
}

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

TEST_F(BatchTest, EverySliceRunsEachCtaOnce) {
  // A 2-D grid cut into slices of every size from 1 to 40, on alternating
  // lanes.
  const dim3 Grid(37, 29);
  const unsigned Ctas = Grid.x * Grid.y;
  DeviceArray<uint32_t> Runs;
  SMC_CUDA_ASSERT(allocateZeroed(Ctas, Runs));
  for (unsigned Launch = 0; Launch < 40; ++Launch) {
    smc::Batch B;
    ASSERT_TRUE(B.begin());
    batchCountRuns<<<Grid, 64, 0, Streams[Launch % 3]>>>(Runs.get());
    B.end();
    std::vector<smc::Batch::SliceRun> Plan = {
        {0, Launch % 2, 0, Ctas, Launch + 1}};
    std::string Error;
    ASSERT_TRUE(B.run(Plan, &Error)) << Error;
  }
  SMC_CUDA_ASSERT(cudaDeviceSynchronize());
  Bytes Counts(Runs.bytes());
  SMC_CUDA_ASSERT(cudaMemcpy(Counts.data(), Runs.get(), Counts.size(),
                             cudaMemcpyDeviceToHost));
  expectAllCountsAre(Counts, 40, "CTA");
}

// Where both lanes have CTAs waiting, lane 0's are placed first (its
// stream has the higher priority), whichever was enqueued first: the
// layout, not the hardware's choice, decides which lane's kernel starts
// first.  Two launches of 8 waves each start together; lane 1's is
// enqueued first, which with equal priorities would place most of its CTAs
// first.
TEST_F(BatchTest, LaneZeroCtasArePlacedFirst) {
  const unsigned Ctas = 16 * numSMs(); // 1024 threads: 2 per SM, 8 waves
  DeviceArray<uint32_t> Next, Tickets[2];
  SMC_CUDA_ASSERT(allocateZeroed(1, Next));
  for (DeviceArray<uint32_t> &T : Tickets)
    SMC_CUDA_ASSERT(allocateZeroed(Ctas, T));
  smc::Batch B;
  ASSERT_TRUE(B.begin());
  for (unsigned L : {0u, 1u})
    batchStartTicket<<<Ctas, 1024, 0, Streams[L]>>>(Next.get(),
                                                    Tickets[L].get(), 20000);
  B.end();
  std::vector<smc::Batch::SliceRun> Plan = {{1, 1, 0, Ctas, Ctas},
                                            {0, 0, 0, Ctas, Ctas}};
  std::string Error;
  ASSERT_TRUE(B.run(Plan, &Error)) << Error;
  SMC_CUDA_ASSERT(cudaDeviceSynchronize());
  double Median[2];
  for (unsigned L : {0u, 1u}) {
    std::vector<uint32_t> T(Ctas);
    SMC_CUDA_ASSERT(cudaMemcpy(T.data(), Tickets[L].get(), T.size() * 4,
                               cudaMemcpyDeviceToHost));
    std::nth_element(T.begin(), T.begin() + Ctas / 2, T.end());
    Median[L] = T[Ctas / 2];
  }
  EXPECT_LT(Median[0], Median[1])
      << "median start ticket of lane 0's CTAs " << Median[0] << ", lane 1's "
      << Median[1] << " (of " << 2 * Ctas << ")";
}

TEST_F(BatchTest, BeginTwiceOnOneThreadIsRefused) {
  smc::Batch A, B;
  std::string Error;
  ASSERT_TRUE(A.begin(&Error));
  EXPECT_FALSE(B.begin(&Error));
  EXPECT_NE(Error.find("records into a batch already"), std::string::npos);
  // The Kernelet model's plan of nothing recorded: no runs.
  std::vector<smc::Batch::SliceRun> Plan;
  kerneletPlan(A, Plan);
  EXPECT_FALSE(A.run(Plan, &Error));
  EXPECT_NE(Error.find("end() the recording first"), std::string::npos);
  A.end();
  kerneletPlan(A, Plan);
  EXPECT_TRUE(A.run(Plan, &Error)) << Error; // empty
  EXPECT_TRUE(B.begin(&Error)) << Error;
  B.end();
}

} // namespace
