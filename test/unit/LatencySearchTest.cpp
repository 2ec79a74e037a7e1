//===- LatencySearchTest.cpp - The cheaper mechanism that meets a p99 -----===//
//
// latency/LatencySearch.h: a window's p99 against a target in microseconds
// or over the fastest launch; room kept first; taking SMs probed after room
// met the target ProbeAfter windows in a row, ProbeAfter doubling on each
// failed probe; room again once taking SMs misses; launches of an older
// epoch and the first Settle after a change dropped.
//===----------------------------------------------------------------------===//
#include "latency/LatencySearch.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace smc;

namespace {

constexpr unsigned Window = LatencySearch::Window;
constexpr unsigned Settle = LatencySearch::Settle;
constexpr unsigned FirstProbe = LatencySearch::FirstProbe;

// Feeds a window (after the settling launches, when the last change asks
// for them) of `Typical` microseconds with `Slow` launches of `Tail`; the
// verdict of the window.
LatencyVerdict window(LatencySearch &S, double Typical, unsigned Slow = 0,
                      double Tail = 0, bool Settling = false) {
  if (Settling)
    for (unsigned I = 0; I < Settle; ++I)
      EXPECT_FALSE(S.observe(Typical, S.epoch()).Judged);
  LatencyVerdict Last;
  for (unsigned I = 0; I < Window; ++I) {
    Last = S.observe(I < Slow ? Tail : Typical, S.epoch());
    if (I + 1 < Window)
      EXPECT_FALSE(Last.Judged) << "judged before the window was full";
  }
  EXPECT_TRUE(Last.Judged);
  return Last;
}

// Room meets the target until the probe: the search then takes SMs.
void probe(LatencySearch &S, bool SettleFirst) {
  unsigned Windows = S.probeAfter();
  for (unsigned W = 1; W <= Windows; ++W) {
    LatencyVerdict V = window(S, 50, 0, 0, SettleFirst && W == 1);
    ASSERT_TRUE(V.Met);
    ASSERT_EQ(V.Under, LatencyMechanism::KeepRoom);
    ASSERT_EQ(V.Probe, W == Windows) << "window " << W;
  }
  ASSERT_EQ(S.mechanism(), LatencyMechanism::TakeSms);
}

// Launches of `Micros` over the bound while taking SMs: the window misses
// at the OverToMiss-th, settling or not; the verdict.
LatencyVerdict missEarly(LatencySearch &S, double Micros) {
  LatencyVerdict V;
  for (unsigned I = 1; I <= LatencySearch::OverToMiss; ++I) {
    V = S.observe(Micros, S.epoch());
    EXPECT_EQ(V.Judged, I == LatencySearch::OverToMiss) << "launch " << I;
  }
  EXPECT_FALSE(V.Met);
  EXPECT_EQ(V.Under, LatencyMechanism::TakeSms);
  EXPECT_EQ(V.Next, LatencyMechanism::KeepRoom);
  return V;
}

} // namespace

TEST(LatencySearch, StartsWithRoom) {
  LatencySearch S({0, 100});
  EXPECT_EQ(S.mechanism(), LatencyMechanism::KeepRoom);
  EXPECT_EQ(S.epoch(), 0u);
  EXPECT_EQ(S.probeAfter(), FirstProbe);
}

TEST(LatencySearch, P99IsTheNearestRankOfTheWindow) {
  LatencySearch S({0, 100}); // 100 us
  // Two slow launches of 200 are 1%: the p99 is the next, 50.
  LatencyVerdict V = window(S, 50, 2, 200);
  EXPECT_DOUBLE_EQ(V.P99, 50);
  EXPECT_DOUBLE_EQ(V.Bound, 100);
  EXPECT_TRUE(V.Met);
  EXPECT_EQ(V.Under, LatencyMechanism::KeepRoom);
  EXPECT_FALSE(V.changed());
  // Three are over 1%: the p99 is 200.
  V = window(S, 50, 3, 200);
  EXPECT_DOUBLE_EQ(V.P99, 200);
  EXPECT_FALSE(V.Met);
}

TEST(LatencySearch, RoomStaysWhileItMissesTheTarget) {
  LatencySearch S({0, 100});
  for (int I = 0; I < 50; ++I) {
    LatencyVerdict V = window(S, 150);
    EXPECT_FALSE(V.Met);
    EXPECT_FALSE(V.changed());
  }
  EXPECT_EQ(S.mechanism(), LatencyMechanism::KeepRoom);
  EXPECT_EQ(S.epoch(), 0u);
}

TEST(LatencySearch, TakesSmsWhileThatMeetsTheTargetTooAndRoomOnceNot) {
  LatencySearch S({0, 100});
  probe(S, false);
  EXPECT_EQ(S.epoch(), 1u);
  // The probe meets it: taking SMs from now on.
  LatencyVerdict V = window(S, 90, 0, 0, /*Settling=*/true);
  EXPECT_TRUE(V.Met);
  EXPECT_EQ(V.Under, LatencyMechanism::TakeSms);
  EXPECT_FALSE(V.changed());
  for (int I = 0; I < 20; ++I)
    EXPECT_FALSE(window(S, 90).changed());
  EXPECT_EQ(S.mechanism(), LatencyMechanism::TakeSms);
  // A miss: room again, the next probe after FirstProbe windows.  Three
  // launches over the bound in a window (1.5% of it) are a miss at once.
  for (int I = 0; I < 100; ++I)
    ASSERT_FALSE(S.observe(90, S.epoch()).Judged);
  ASSERT_FALSE(S.observe(300, S.epoch()).Judged);
  ASSERT_FALSE(S.observe(90, S.epoch()).Judged);
  ASSERT_FALSE(S.observe(300, S.epoch()).Judged);
  V = S.observe(250, S.epoch());
  EXPECT_TRUE(V.Judged);
  EXPECT_FALSE(V.Met);
  EXPECT_DOUBLE_EQ(V.P99, 250); // at least the least of the three
  EXPECT_EQ(V.Launches, 104u);  // the launches of the window so far
  EXPECT_TRUE(V.changed());
  EXPECT_EQ(V.Next, LatencyMechanism::KeepRoom);
  EXPECT_EQ(S.mechanism(), LatencyMechanism::KeepRoom);
  EXPECT_EQ(S.probeAfter(), FirstProbe);
  EXPECT_EQ(S.epoch(), 2u);
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
}

TEST(LatencySearch, MicrosecondsWinOverARatio) {
  LatencySearch S({1.5, 500});
  LatencyVerdict V = window(S, 400, 1, 10);
  EXPECT_DOUBLE_EQ(V.Bound, 500);
  EXPECT_TRUE(V.Met);
}

TEST(LatencySearch, LaunchesOfTheMechanismBeforeAndSettlingOnesAreDropped) {
  LatencySearch S({0, 100});
  probe(S, false);
  ASSERT_EQ(S.epoch(), 1u);
  // Launches made while room was kept complete late: dropped, whatever
  // their number.
  for (unsigned I = 0; I < 3 * Window; ++I)
    EXPECT_FALSE(S.observe(1000, 0).Judged);
  // So are the first Settle of the new epoch (here 90, under the bound).
  for (unsigned I = 0; I < Settle; ++I)
    EXPECT_FALSE(S.observe(90, 1).Judged);
  // Then a window of fast launches meets the target: its p99 is theirs.
  LatencyVerdict V = window(S, 60);
  EXPECT_TRUE(V.Met);
  EXPECT_DOUBLE_EQ(V.P99, 60);
  EXPECT_EQ(V.Under, LatencyMechanism::TakeSms);
  // The fastest counts every launch, dropped or not.
  EXPECT_DOUBLE_EQ(S.fastest(), 50);
}

TEST(LatencySearch, FailedProbesBackOff) {
  LatencySearch S({0, 100});
  unsigned ProbeAfter = FirstProbe;
  for (int Round = 0; Round < 8; ++Round) {
    ASSERT_EQ(S.probeAfter(), ProbeAfter);
    probe(S, /*SettleFirst=*/Round > 0);
    // The probe misses at its third slow launch: room again, the next
    // probe twice as late.
    missEarly(S, 500);
    ProbeAfter = std::min(2 * ProbeAfter, LatencySearch::LastProbe);
  }
  EXPECT_EQ(S.probeAfter(), LatencySearch::LastProbe);
}

TEST(LatencySearch, AProbeThatMeetsTheTargetResetsTheBackOff) {
  LatencySearch S({0, 100});
  probe(S, false);
  missEarly(S, 500); // a failed probe: twice as late
  ASSERT_EQ(S.probeAfter(), 2 * FirstProbe);
  probe(S, true);
  LatencyVerdict V = window(S, 50, 0, 0, true); // the probe meets it
  EXPECT_TRUE(V.Met);
  EXPECT_FALSE(V.changed());
  EXPECT_EQ(S.mechanism(), LatencyMechanism::TakeSms);
  EXPECT_EQ(S.probeAfter(), FirstProbe);
}

TEST(LatencySearch, AMissUnderRoomRestartsTheCountToAProbe) {
  LatencySearch S({0, 100});
  for (unsigned W = 1; W < FirstProbe; ++W)
    window(S, 50);
  window(S, 500); // one miss with room: the count starts again
  for (unsigned W = 1; W < FirstProbe; ++W)
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
