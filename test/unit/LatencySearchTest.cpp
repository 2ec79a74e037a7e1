//===- LatencySearchTest.cpp - The cheapest mechanism that meets a p99 ----===//
//
// latency/LatencySearch.h: a window's p99 against a target in microseconds
// or over the fastest launch; taking SMs first, room kept once that misses;
// probes back to taking SMs after room met the target ProbeAfter windows
// in a row, ProbeAfter doubling on each failed probe; launches of an older
// epoch and the first Settle after a change dropped.
//===----------------------------------------------------------------------===//
#include "latency/LatencySearch.h"

#include <gtest/gtest.h>

#include <vector>

using namespace smc;

namespace {

constexpr unsigned Window = LatencySearch::Window;
constexpr unsigned Settle = LatencySearch::Settle;

// Feeds a window (after the settling launches, when the last change asks
// for them) of `Typical` microseconds with `Slow` launches of `Tail`; the
// verdict of the window.
LatencyVerdict window(LatencySearch &S, double Typical, unsigned Slow = 0,
                      double Tail = 0, bool Settling = false) {
  if (Settling)
    for (unsigned I = 0; I < Settle; ++I)
      EXPECT_FALSE(S.observe(1e6, S.epoch()).Judged) << "not dropped";
  LatencyVerdict Last;
  for (unsigned I = 0; I < Window; ++I) {
    Last = S.observe(I < Slow ? Tail : Typical, S.epoch());
    if (I + 1 < Window)
      EXPECT_FALSE(Last.Judged) << "judged before the window was full";
  }
  EXPECT_TRUE(Last.Judged);
  return Last;
}

} // namespace

TEST(LatencySearch, P99IsTheNearestRankOfTheWindow) {
  LatencySearch S({0, 100}); // 100 us
  // Two slow launches of 200 are 1%: the p99 is the next, 50.
  LatencyVerdict V = window(S, 50, 2, 200);
  EXPECT_DOUBLE_EQ(V.P99, 50);
  EXPECT_DOUBLE_EQ(V.Bound, 100);
  EXPECT_TRUE(V.Met);
  EXPECT_EQ(V.Under, LatencyMechanism::TakeSms);
  EXPECT_FALSE(V.changed());
  // Three are over 1%: the p99 is 200.
  V = window(S, 50, 3, 200);
  EXPECT_DOUBLE_EQ(V.P99, 200);
  EXPECT_FALSE(V.Met);
}

TEST(LatencySearch, TakesSmsWhileThatMeetsTheTarget) {
  LatencySearch S({0, 100});
  for (int I = 0; I < 20; ++I) {
    LatencyVerdict V = window(S, 90);
    EXPECT_TRUE(V.Met);
    EXPECT_FALSE(V.changed());
  }
  EXPECT_EQ(S.mechanism(), LatencyMechanism::TakeSms);
  EXPECT_EQ(S.epoch(), 0u);
}

TEST(LatencySearch, KeepsRoomOnceTakingSmsMisses) {
  LatencySearch S({0, 100});
  LatencyVerdict V = window(S, 90, 10, 300);
  EXPECT_FALSE(V.Met);
  EXPECT_TRUE(V.changed());
  EXPECT_EQ(V.Next, LatencyMechanism::KeepRoom);
  EXPECT_FALSE(V.Probe);
  EXPECT_EQ(S.mechanism(), LatencyMechanism::KeepRoom);
  EXPECT_EQ(S.epoch(), 1u);
  // Missed with room too: room stays, and says so.
  V = window(S, 150, 0, 0, /*Settling=*/true);
  EXPECT_FALSE(V.Met);
  EXPECT_EQ(V.Under, LatencyMechanism::KeepRoom);
  EXPECT_FALSE(V.changed());
  EXPECT_EQ(S.mechanism(), LatencyMechanism::KeepRoom);
}

TEST(LatencySearch, RatioIsOverTheFastestLaunch) {
  LatencySearch S({1.5, 0});
  // The fastest so far is 40: the bound is 60.
  LatencyVerdict V = window(S, 55, 1, 40);
  EXPECT_DOUBLE_EQ(V.Fastest, 40);
  EXPECT_DOUBLE_EQ(V.Bound, 60);
  EXPECT_TRUE(V.Met);
  // A faster launch lowers the bound of later windows.
  V = window(S, 55, 1, 30);
  EXPECT_DOUBLE_EQ(V.Bound, 45);
  EXPECT_FALSE(V.Met);
  EXPECT_EQ(S.mechanism(), LatencyMechanism::KeepRoom);
}

TEST(LatencySearch, MicrosecondsWinOverARatio) {
  LatencySearch S({1.5, 500});
  LatencyVerdict V = window(S, 400, 1, 10);
  EXPECT_DOUBLE_EQ(V.Bound, 500);
  EXPECT_TRUE(V.Met);
}

TEST(LatencySearch, LaunchesOfTheMechanismBeforeAndSettlingOnesAreDropped) {
  LatencySearch S({0, 100});
  window(S, 500); // misses: room from now on
  ASSERT_EQ(S.epoch(), 1u);
  // Launches made while taking SMs complete late: dropped, whatever their
  // number.
  for (unsigned I = 0; I < 3 * Window; ++I)
    EXPECT_FALSE(S.observe(1000, 0).Judged);
  // So are the first Settle of the new epoch (here very slow ones).
  for (unsigned I = 0; I < Settle; ++I)
    EXPECT_FALSE(S.observe(1000, 1).Judged);
  // Then a window of fast launches meets the target.
  LatencyVerdict V = window(S, 50);
  EXPECT_TRUE(V.Met);
  EXPECT_DOUBLE_EQ(V.P99, 50);
  // The fastest counts every launch, dropped or not.
  EXPECT_DOUBLE_EQ(S.fastest(), 50);
}

TEST(LatencySearch, ProbesTakingSmsAfterRoomMetItAndBacksOffOnFailure) {
  LatencySearch S({0, 100});
  window(S, 500);
  ASSERT_EQ(S.mechanism(), LatencyMechanism::KeepRoom);
  unsigned ProbeAfter = LatencySearch::FirstProbe;
  for (int Round = 0; Round < 8; ++Round) {
    ASSERT_EQ(S.probeAfter(), ProbeAfter);
    // Room meets the target: after ProbeAfter windows, a probe.
    for (unsigned W = 1; W <= ProbeAfter; ++W) {
      LatencyVerdict V = window(S, 50, 0, 0, /*Settling=*/W == 1);
      ASSERT_TRUE(V.Met);
      ASSERT_EQ(V.Probe, W == ProbeAfter) << "window " << W;
    }
    ASSERT_EQ(S.mechanism(), LatencyMechanism::TakeSms);
    // The probe misses: room again, the next probe twice as late.
    LatencyVerdict V = window(S, 500, 0, 0, /*Settling=*/true);
    ASSERT_FALSE(V.Met);
    ASSERT_EQ(V.Next, LatencyMechanism::KeepRoom);
    ProbeAfter = std::min(2 * ProbeAfter, LatencySearch::LastProbe);
  }
  EXPECT_EQ(S.probeAfter(), LatencySearch::LastProbe);
}

TEST(LatencySearch, AProbeThatMeetsTheTargetStaysAndResetsTheBackOff) {
  LatencySearch S({0, 100});
  window(S, 500);
  for (unsigned W = 1; W <= LatencySearch::FirstProbe; ++W)
    window(S, 50, 0, 0, W == 1);
  ASSERT_EQ(S.mechanism(), LatencyMechanism::TakeSms);
  window(S, 500, 0, 0, true); // a failed probe: twice as late
  ASSERT_EQ(S.probeAfter(), 2 * LatencySearch::FirstProbe);
  for (unsigned W = 1; W <= 2 * LatencySearch::FirstProbe; ++W)
    window(S, 50, 0, 0, W == 1);
  ASSERT_EQ(S.mechanism(), LatencyMechanism::TakeSms);
  LatencyVerdict V = window(S, 50, 0, 0, true); // the probe meets it
  EXPECT_TRUE(V.Met);
  EXPECT_FALSE(V.changed());
  EXPECT_EQ(S.mechanism(), LatencyMechanism::TakeSms);
  EXPECT_EQ(S.probeAfter(), LatencySearch::FirstProbe);
  // A later miss keeps room again, the next probe after FirstProbe.
  window(S, 500);
  EXPECT_EQ(S.mechanism(), LatencyMechanism::KeepRoom);
  EXPECT_EQ(S.probeAfter(), LatencySearch::FirstProbe);
}

TEST(LatencySearch, AMissUnderRoomRestartsTheCountToAProbe) {
  LatencySearch S({0, 100});
  window(S, 500);
  for (unsigned W = 1; W < LatencySearch::FirstProbe; ++W)
    window(S, 50, 0, 0, W == 1);
  window(S, 500); // one miss with room: the count starts again
  for (unsigned W = 1; W < LatencySearch::FirstProbe; ++W)
    EXPECT_FALSE(window(S, 50).Probe);
  EXPECT_TRUE(window(S, 50).Probe);
}

TEST(LatencySearch, NoTargetOrNoTimeJudgesNothing) {
  LatencySearch None;
  for (unsigned I = 0; I < 2 * Window; ++I)
    EXPECT_FALSE(None.observe(100, 0).Judged);
  LatencySearch S({0, 100});
  for (unsigned I = 0; I < 2 * Window; ++I) {
    EXPECT_FALSE(S.observe(0, 0).Judged);
    EXPECT_FALSE(S.observe(-1, 0).Judged);
  }
  EXPECT_DOUBLE_EQ(S.fastest(), 0);
}
