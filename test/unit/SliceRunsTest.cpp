//===- SliceRunsTest.cpp - Tests of a batch's runs and the slice rule -----===//
//
// What smc::Batch's plans are made of (runtime/batch/SliceRuns.h): an issue
// profile gives a launch its memory ratio and time alone only where its
// occupancy is known; the minimum slice costs 2% of a launch's time; the
// serial plan runs every launch whole on lane 0 and passes checkSchedule,
// which refuses plans that miss CTAs, split a launch over two lanes or
// confine a launch to SMs other than as workers.
//===----------------------------------------------------------------------===//
#include "batch/SliceRuns.h"

#include <gtest/gtest.h>

using namespace smc::batch;

namespace {

PendingLaunch launch(unsigned Stream, const std::string &Name, unsigned Ctas,
                     double Seconds) {
  PendingLaunch P;
  P.Stream = Stream;
  P.Traits.Name = Name;
  P.Traits.Ctas = Ctas;
  P.Traits.WarpsPerCta = 8;
  P.Traits.CtasPerSm = 8;
  P.Traits.AloneSeconds = Seconds;
  return P;
}

TEST(SliceRuns, IssueProfilesGiveMeasuredTraits) {
  smc::ProfileSet Profiles("test device", 132);
  Profiles.profile("k").setIssue({0.25, 0.5, 3e-3});
  KernelTraits T = launch(0, "k", 1000, 0).Traits;
  const smc::IssueProfile *Issue = useIssueProfile(Profiles, T);
  ASSERT_NE(Issue, nullptr);
  EXPECT_EQ(Issue->Ipc, 0.5);
  EXPECT_EQ(T.MemRatio, 0.25);
  EXPECT_EQ(T.AloneSeconds, 3e-3);
  EXPECT_TRUE(checkTraits(T));
  // Unknown occupancy, or no profile: nothing taken.
  KernelTraits NoOccupancy = launch(0, "k", 1000, 0).Traits;
  NoOccupancy.CtasPerSm = 0;
  EXPECT_EQ(useIssueProfile(Profiles, NoOccupancy), nullptr);
  EXPECT_EQ(NoOccupancy.AloneSeconds, 0);
  KernelTraits Other = launch(0, "other", 1000, 0).Traits;
  EXPECT_EQ(useIssueProfile(Profiles, Other), nullptr);
  std::string Error;
  EXPECT_FALSE(checkTraits(Other, &Error));
  EXPECT_EQ(Error, "no alone time");
}

TEST(SliceRuns, MinimumSliceCostsTwoPercent) {
  PlanDevice M; // 5 us per slice, at most 2%: slices of at least 250 us
  EXPECT_EQ(minSliceCtas(M, launch(0, "k", 10000, 1e-3).Traits), 2500u);
  EXPECT_EQ(minSliceCtas(M, launch(0, "k", 10000, 0).Traits), 1u);
  EXPECT_EQ(minSliceCtas(M, launch(0, "k", 100, 1).Traits), 1u);
}

TEST(SliceRuns, SerialPlansPassAndBrokenPlansAreRefused) {
  std::vector<PendingLaunch> Launches = {launch(0, "a", 1000, 1e-3),
                                         launch(1, "b", 500, 2e-3)};
  Schedule Serial = planSerial(Launches);
  ASSERT_EQ(Serial.Runs.size(), 2u);
  for (const SliceRun &R : Serial.Runs) {
    EXPECT_EQ(R.lane, 0u);
    EXPECT_EQ(R.sliceCtas, Launches[R.launch].Traits.Ctas);
  }
  EXPECT_NEAR(Serial.PredictedSeconds, 3e-3, 1e-15);
  std::string Error;
  EXPECT_TRUE(checkSchedule(Launches, Serial, &Error, 132)) << Error;

  Schedule Missing;
  Missing.Runs = {{0, 0, 0, 999, 999}, {1, 1, 0, 500, 500}};
  EXPECT_FALSE(checkSchedule(Launches, Missing, &Error));
  EXPECT_NE(Error.find("has 999 of its 1000 CTAs planned"), std::string::npos)
      << Error;
  Schedule TwoLanes;
  TwoLanes.Runs = {{0, 0, 0, 500, 100}, {0, 1, 500, 500, 100}};
  EXPECT_FALSE(checkSchedule(Launches, TwoLanes, &Error));
  EXPECT_NE(Error.find("one lane"), std::string::npos) << Error;
  Schedule Confined;
  Confined.Runs = {{0, 0, 0, 1000, 1000, 0, 0, 66}, {1, 1, 0, 500, 500}};
  EXPECT_FALSE(checkSchedule(Launches, Confined, &Error, 132));
  EXPECT_NE(Error.find("confined to SMs only as workers"), std::string::npos)
      << Error;
}

} // namespace
