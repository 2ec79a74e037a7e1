//===- KerneletSearchTest.cpp - Tests of the layout search ----------------===//
//
// Layouts place every stream once; the balanced enumeration is complete and
// without repeats; neighbours are one toggle or one swap away; the slice
// runs of a layout keep each stream's launches in order on its lane with
// slices no shorter than the model's minimum; the hill climbing reaches
// the fastest layout of a landscape whose steps all lead there, ignores
// gains below its threshold and stops within its trial budget.
//===----------------------------------------------------------------------===//
#include "KerneletSearch.h"

#include <gtest/gtest.h>

#include <set>

using namespace smc::kernelet;

namespace {

TEST(KerneletLayout, StreamsLayoutDealsStreamsWhole) {
  Layout L = streamsLayout(5);
  EXPECT_EQ(L.Lanes[0], (std::vector<unsigned>{0, 2, 4}));
  EXPECT_EQ(L.Lanes[1], (std::vector<unsigned>{1, 3}));
  EXPECT_EQ(L.Splits, std::vector<Split>(5, Split::Whole));
  EXPECT_TRUE(validLayout(L, 5));
  EXPECT_FALSE(validLayout(L, 4));
  Layout Twice = L;
  Twice.Lanes[1].push_back(0);
  EXPECT_FALSE(validLayout(Twice, 5));
  Layout Missing = L;
  Missing.Lanes[0].pop_back();
  EXPECT_FALSE(validLayout(Missing, 5));
  EXPECT_EQ(L.text(), "lane 0: 0 2 4 | lane 1: 1 3");
  L.Splits[2] = Split::Slices;
  L.Splits[3] = Split::Workers;
  EXPECT_EQ(L.text(), "lane 0: 0 2s 4 | lane 1: 1 3w");
}

TEST(KerneletLayout, BalancedLayoutsAreEveryOrderTimesEverySplit) {
  std::vector<Layout> Four = balancedLayouts(4);
  EXPECT_EQ(Four.size(), 12u * 81);
  EXPECT_EQ(balancedLayouts(4, 2).size(), 12u * 16);
  for (const Layout &L : balancedLayouts(4, 2))
    for (Split How : L.Splits)
      EXPECT_NE(How, Split::Workers);
  std::set<Layout> Unique(Four.begin(), Four.end());
  EXPECT_EQ(Unique.size(), Four.size());
  for (const Layout &L : Four) {
    EXPECT_TRUE(validLayout(L, 4)) << L.text();
    EXPECT_EQ(L.Lanes[0].size(), 2u);
    EXPECT_EQ(L.Lanes[0].size() + L.Lanes[1].size(), 4u);
    EXPECT_TRUE(L.Lanes[0][0] == 0 || L.Lanes[0][1] == 0) << L.text();
  }
  // 3 streams: stream 0 and one other share lane 0 (2 ways x 2 orders).
  EXPECT_EQ(balancedLayouts(3).size(), 4u * 27);
  EXPECT_EQ(balancedLayouts(1).size(), 3u);
  EXPECT_TRUE(balancedLayouts(0).empty());
}

TEST(KerneletLayout, NeighboursAreOneSplitOrOneSwapAway) {
  Layout L = streamsLayout(4);
  std::vector<Layout> N = neighbours(L);
  EXPECT_EQ(N.size(), 4u * (NumSplits - 1) + 6u);
  std::set<Layout> Unique(N.begin(), N.end());
  EXPECT_EQ(Unique.size(), N.size());
  for (const Layout &M : N) {
    EXPECT_FALSE(M == L);
    EXPECT_TRUE(validLayout(M, 4)) << M.text();
    unsigned Toggled = 0, Moved = 0;
    for (unsigned S = 0; S < 4; ++S)
      Toggled += M.Splits[S] != L.Splits[S];
    for (unsigned Lane : {0u, 1u})
      for (size_t P = 0; P < L.Lanes[Lane].size(); ++P)
        Moved += M.Lanes[Lane][P] != L.Lanes[Lane][P];
    EXPECT_TRUE((Toggled == 1 && Moved == 0) || (Toggled == 0 && Moved == 2))
        << M.text();
  }
}

PendingLaunch launch(unsigned Stream, unsigned Ctas, double Seconds,
                     bool Sliceable = true, bool Workers = true) {
  PendingLaunch P;
  P.Stream = Stream;
  P.Sliceable = Sliceable;
  P.Workers = Workers;
  P.Traits.Name = "k" + std::to_string(Stream);
  P.Traits.Ctas = Ctas;
  P.Traits.WarpsPerCta = 8;
  P.Traits.CtasPerSm = 8;
  P.Traits.MemRatio = 0.1;
  P.Traits.AloneSeconds = Seconds;
  return P;
}

TEST(KerneletLayout, RunsKeepStreamsInOrderWithLongEnoughSlices) {
  DeviceModel M; // slices of at least 250 us (5 us at 2%)
  std::vector<PendingLaunch> Launches = {
      launch(0, 100000, 4e-3), launch(1, 100000, 4e-3),
      launch(0, 100000, 4e-3), launch(2, 5000, 1e-3, /*Sliceable=*/false),
      launch(3, 1000, 100e-6), launch(1, 100000, 1e-3)};
  Layout L;
  L.Lanes[0] = {2, 0};
  L.Lanes[1] = {1, 3};
  L.Splits.assign(4, Split::Slices);
  std::vector<SliceRun> Runs = layoutRuns(M, Launches, L);
  // Interleaved by position: stream 2 (launch 3), stream 1 (launches 1, 5),
  // stream 0 (launches 0, 2), stream 3 (launch 4).
  std::vector<unsigned> Order;
  for (const SliceRun &R : Runs)
    Order.push_back(R.Launch);
  EXPECT_EQ(Order, (std::vector<unsigned>{3, 1, 5, 0, 2, 4}));
  for (const SliceRun &R : Runs) {
    const PendingLaunch &P = Launches[R.Launch];
    EXPECT_EQ(R.Lane, P.Stream == 0 || P.Stream == 2 ? 0u : 1u);
    EXPECT_EQ(R.FirstCta, 0u);
    EXPECT_EQ(R.Ctas, P.Traits.Ctas);
    EXPECT_FALSE(R.Fence);
    EXPECT_EQ(R.WorkersPerSm, 0u);
  }
  // 4 ms of 100000 CTAs: half occupancy is 4 x 132 = 528 CTAs, the minimum
  // slice 6250.
  EXPECT_EQ(Runs[1].SliceCtas, 6250u);
  EXPECT_EQ(Runs[3].SliceCtas, 6250u);
  EXPECT_EQ(Runs[2].SliceCtas, 25000u); // 1 ms: a quarter
  EXPECT_EQ(Runs[0].SliceCtas, 5000u);  // not sliceable: whole
  EXPECT_EQ(Runs[5].SliceCtas, 1000u);  // 100 us: too short to slice
  L.Splits.assign(4, Split::Whole);
  for (const SliceRun &R : layoutRuns(M, Launches, L)) {
    EXPECT_EQ(R.SliceCtas, R.Ctas);
    EXPECT_EQ(R.WorkersPerSm, 0u);
  }
  // Workers: half the CTAs per SM (8 -> 4), whole launches, in one run;
  // a launch without persistent workers runs whole.  A quarter: 2, three
  // quarters: 6.
  Launches[0].Workers = false;
  L.Splits.assign(4, Split::Workers);
  for (const SliceRun &R : layoutRuns(M, Launches, L)) {
    EXPECT_EQ(R.Ctas, Launches[R.Launch].Traits.Ctas);
    EXPECT_EQ(R.WorkersPerSm, R.Launch == 0 ? 0u : 4u) << R.Launch;
    EXPECT_EQ(R.SliceCtas, R.Launch == 0 ? R.Ctas : std::min(R.Ctas, 4u * 132));
  }
}

// A landscape where every stream's split and stream 3's lane each cost on
// their own: a step towards Target always helps.
double cost(const Layout &L) {
  const std::vector<Split> Target = {Split::Slices, Split::Whole,
                                     Split::Workers, Split::Slices};
  double Seconds = 1.0;
  for (unsigned S = 0; S < 4; ++S)
    Seconds += L.Splits[S] != Target[S] ? 0.1 : 0;
  bool ThreeOnLaneZero = false;
  for (unsigned S : L.Lanes[0])
    ThreeOnLaneZero |= S == 3;
  return Seconds + (ThreeOnLaneZero ? 0 : 0.05);
}

TEST(KerneletSearch, ClimbsToTheFastestLayout) {
  LayoutSearch Search(streamsLayout(4));
  unsigned Runs = 0;
  double Last = 10;
  while (!Search.settled() && Runs < 1000) {
    Search.measured(cost(Search.next()));
    ++Runs;
    EXPECT_LE(Search.bestSeconds(), Last); // never back to a slower best
    Last = Search.bestSeconds();
  }
  ASSERT_TRUE(Search.settled());
  EXPECT_DOUBLE_EQ(Search.bestSeconds(), 1.0) << Search.best().text();
  EXPECT_DOUBLE_EQ(cost(Search.next()), 1.0);
  EXPECT_EQ(Search.trials(), Runs);
  EXPECT_EQ(Runs, 96u); // the whole budget: climbs restart until it is spent
  EXPECT_EQ(Search.best().Splits[2], Split::Workers);
  // Settled: measurements change nothing.
  Search.measured(0.5);
  EXPECT_DOUBLE_EQ(Search.bestSeconds(), 1.0);
}

TEST(KerneletSearch, GainsBelowTheThresholdDoNotMove) {
  Layout Start = streamsLayout(4);
  LayoutSearch Search(Start, /*MinGain=*/0.02, /*MaxTrials=*/60);
  Search.measured(1.0); // the start
  std::set<Layout> Ran = {Start};
  while (!Search.settled()) {
    EXPECT_TRUE(Ran.insert(Search.next()).second) << "a layout ran twice";
    Search.measured(0.99); // every other layout 1% faster
  }
  EXPECT_TRUE(Search.best() == Start);
  EXPECT_DOUBLE_EQ(Search.bestSeconds(), 1.0);
  EXPECT_EQ(Search.trials(), 60u);
  // Stuck after the start's neighbours, the search restarted elsewhere.
  EXPECT_GT(Search.climbs(), 1u);
}

TEST(KerneletSearch, ALuckyRunDoesNotWin) {
  // Workers on stream 0 run fast once, then slow: the layout whose time
  // depends on which lane the hardware starts first.
  Layout Start = streamsLayout(2);
  Layout Bimodal = Start;
  Bimodal.Splits[0] = Split::Workers;
  LayoutSearch Search(Start);
  unsigned LuckyRuns = 0;
  while (!Search.settled()) {
    bool Lucky = Search.next() == Bimodal;
    Search.measured(Lucky ? (LuckyRuns++ ? 1.5 : 0.5) : 1.0);
  }
  EXPECT_EQ(LuckyRuns, 2u); // run again to confirm, then dropped
  EXPECT_FALSE(Search.best() == Bimodal);
  EXPECT_DOUBLE_EQ(Search.bestSeconds(), 1.0);
}

TEST(KerneletSearch, SettlesWhenNothingIsLeftToTry) {
  // One stream: a layout per split, five in all.
  LayoutSearch Search(streamsLayout(1));
  std::set<Layout> Ran;
  while (!Search.settled()) {
    Ran.insert(Search.next());
    Search.measured(Search.next().Splits[0] == Split::Workers ? 0.5 : 1.0);
  }
  EXPECT_EQ(Ran.size(), size_t(NumSplits));
  EXPECT_EQ(Search.trials(), NumSplits + 1); // the winner ran twice
  EXPECT_EQ(Search.best().Splits[0], Split::Workers);
}

TEST(KerneletSearch, StopsWithinItsTrialBudget) {
  LayoutSearch Search(streamsLayout(4), 0.02, /*MaxTrials=*/5);
  double Seconds = 1;
  while (!Search.settled())
    Search.measured(Seconds *= 0.9); // always faster: would climb on
  EXPECT_EQ(Search.trials(), 5u);
  // Bad reports are ignored.
  LayoutSearch Other(streamsLayout(2));
  Other.measured(0);
  Other.measured(-1);
  EXPECT_EQ(Other.trials(), 0u);
  EXPECT_FALSE(Other.settled());
}

} // namespace
