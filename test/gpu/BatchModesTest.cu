//===- BatchModesTest.cu - smc::Batch's modes and plans of a program ------===//
//
// The program of BatchTest.h recorded into an smc::Batch gives the bytes
// its launches give one by one in every mode: the Kernelet model's
// co-schedule (which must slice and use both lanes; without profiles it
// runs every launch whole), the layout search (for the makespan and for
// the streams' turnaround), the layouts of balancedLayouts (also with SM
// partitions), serial, streams and plans given explicitly; explicit plans
// that miss, repeat or reorder CTAs are refused before anything runs, and
// so is a second recording on one thread.
//===----------------------------------------------------------------------===//
#include "BatchTest.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace smctest;

namespace {

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
