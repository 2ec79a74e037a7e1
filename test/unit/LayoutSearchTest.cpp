//===- LayoutSearchTest.cpp - Tests of the layout search ------------------===//
//
// Layouts place every stream once; the balanced enumeration is complete and
// without repeats; neighbours are one toggle or one swap away; the slice
// runs of a layout keep each stream's launches in order on its lane with
// slices no shorter than the minimum slice; the hill climbing reaches
// the fastest layout of a landscape whose steps all lead there, ignores
// gains below its threshold and stops within its trial budget.
//===----------------------------------------------------------------------===//
#include "batch/LayoutSearch.h"

#include <gtest/gtest.h>

#include <set>

using namespace smc::batch;

namespace {

TEST(BatchLayout, StreamsLayoutDealsStreamsWhole) {
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
  L.Splits[4] = Split::Partition;
  EXPECT_EQ(L.text(), "lane 0: 0 2s 4p | lane 1: 1 3w");
}

TEST(BatchLayout, BalancedLayoutsAreEveryOrderTimesEverySplit) {
  // 4 streams: any two on lane 0 (6 ways), each lane in either order.
  std::vector<Layout> Four = balancedLayouts(4);
  EXPECT_EQ(Four.size(), 24u * 81);
  EXPECT_EQ(balancedLayouts(4, 2).size(), 24u * 16);
  EXPECT_EQ(balancedLayouts(4, 5).size(), 24u * 625);
  EXPECT_EQ(balancedLayouts(4, NumSplits).size(), 24u * 1296);
  // Slices and SM partitions combined: the splits given, each order.
  const std::vector<Split> Combined = {Split::Whole, Split::Slices,
                                       Split::Partition};
  std::vector<Layout> Three = balancedLayouts(4, Combined);
  EXPECT_EQ(Three.size(), 24u * 81);
  std::set<Layout> Distinct(Three.begin(), Three.end());
  EXPECT_EQ(Distinct.size(), Three.size());
  unsigned Partitioned = 0;
  for (const Layout &L : Three)
    for (Split How : L.Splits) {
      EXPECT_NE(std::find(Combined.begin(), Combined.end(), How),
                Combined.end());
      Partitioned += How == Split::Partition;
    }
  EXPECT_EQ(Partitioned, 24u * 4 * 27); // a third of every stream's choices
  EXPECT_TRUE(balancedLayouts(4, std::vector<Split>{}).empty());
  for (const Layout &L : balancedLayouts(4, 2))
    for (Split How : L.Splits)
      EXPECT_NE(How, Split::Workers);
  std::set<Layout> Unique(Four.begin(), Four.end());
  EXPECT_EQ(Unique.size(), Four.size());
  for (const Layout &L : Four) {
    EXPECT_TRUE(validLayout(L, 4)) << L.text();
    EXPECT_EQ(L.Lanes[0].size(), 2u);
    EXPECT_EQ(L.Lanes[0].size() + L.Lanes[1].size(), 4u);
  }
  // The lanes are not interchangeable: every layout's mirror is there too.
  for (const Layout &L : Four) {
    Layout Mirror = L;
    std::swap(Mirror.Lanes[0], Mirror.Lanes[1]);
    EXPECT_TRUE(Unique.count(Mirror)) << L.text();
  }
  // 3 streams: two on one lane (3 ways x 2 orders), the third on the
  // other, lane 0 either.
  EXPECT_EQ(balancedLayouts(3).size(), 12u * 27);
  // 1 stream: on lane 0 or lane 1.
  EXPECT_EQ(balancedLayouts(1).size(), 2u * 3);
  EXPECT_TRUE(balancedLayouts(0).empty());
}

TEST(BatchLayout, NeighboursAreOneSplitOneMoveOrOneSwapAway) {
  Layout L = streamsLayout(4);
  std::vector<Layout> N = neighbours(L);
  // Splits (the search's: no Partition), the mirror, 4 moves, 6 swaps.
  EXPECT_EQ(N.size(), 4u * (SearchSplits - 1) + 1u + 4u + 6u);
  for (const Layout &M : N)
    for (Split How : M.Splits)
      EXPECT_NE(How, Split::Partition) << M.text();
  std::set<Layout> Unique(N.begin(), N.end());
  EXPECT_EQ(Unique.size(), N.size());
  unsigned Moves = 0;
  for (const Layout &M : N) {
    EXPECT_FALSE(M == L);
    EXPECT_TRUE(validLayout(M, 4)) << M.text();
    unsigned Toggled = 0, Moved = 0;
    for (unsigned S = 0; S < 4; ++S)
      Toggled += M.Splits[S] != L.Splits[S];
    if (M.Lanes[0].size() != L.Lanes[0].size()) {
      // A move: one stream left its lane for the end of the other.
      ++Moves;
      EXPECT_EQ(Toggled, 0u) << M.text();
      unsigned To = M.Lanes[0].size() > L.Lanes[0].size() ? 0 : 1;
      std::vector<unsigned> Before = M.Lanes[To];
      Before.pop_back();
      EXPECT_EQ(Before, L.Lanes[To]) << M.text();
      continue;
    }
    for (unsigned Lane : {0u, 1u})
      for (size_t P = 0; P < L.Lanes[Lane].size(); ++P)
        Moved += M.Lanes[Lane][P] != L.Lanes[Lane][P];
    bool Mirrored = M.Lanes[0] == L.Lanes[1] && M.Lanes[1] == L.Lanes[0];
    EXPECT_TRUE((Toggled == 1 && Moved == 0) ||
                (Toggled == 0 && (Moved == 2 || Mirrored)))
        << M.text();
  }
  EXPECT_EQ(Moves, 4u);
  Layout Mirror = L;
  std::swap(Mirror.Lanes[0], Mirror.Lanes[1]);
  EXPECT_TRUE(Unique.count(Mirror));
}

TEST(BatchLayout, TwoStreamsCanShareALane) {
  // From two streams side by side, one move runs them one after the
  // other, in either order.
  std::vector<Layout> N = neighbours(streamsLayout(2));
  Layout ZeroFirst = streamsLayout(2), OneFirst = streamsLayout(2);
  ZeroFirst.Lanes[0] = {0, 1};
  ZeroFirst.Lanes[1] = {};
  OneFirst.Lanes[0] = {};
  OneFirst.Lanes[1] = {1, 0};
  EXPECT_NE(std::find(N.begin(), N.end(), ZeroFirst), N.end());
  EXPECT_NE(std::find(N.begin(), N.end(), OneFirst), N.end());
  EXPECT_TRUE(validLayout(ZeroFirst, 2));
  EXPECT_TRUE(validLayout(OneFirst, 2));
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

TEST(BatchLayout, RunsKeepStreamsInOrderWithLongEnoughSlices) {
  PlanDevice M; // slices of at least 250 us (5 us at 2%)
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
    Order.push_back(R.launch);
  EXPECT_EQ(Order, (std::vector<unsigned>{3, 1, 5, 0, 2, 4}));
  for (const SliceRun &R : Runs) {
    const PendingLaunch &P = Launches[R.launch];
    EXPECT_EQ(R.lane, P.Stream == 0 || P.Stream == 2 ? 0u : 1u);
    EXPECT_EQ(R.firstCta, 0u);
    EXPECT_EQ(R.ctas, P.Traits.Ctas);
    EXPECT_FALSE(R.fence);
    EXPECT_EQ(R.workersPerSm, 0u);
  }
  // 4 ms of 100000 CTAs: half occupancy is 4 x 132 = 528 CTAs, the minimum
  // slice 6250.
  EXPECT_EQ(Runs[1].sliceCtas, 6250u);
  EXPECT_EQ(Runs[3].sliceCtas, 6250u);
  EXPECT_EQ(Runs[2].sliceCtas, 25000u); // 1 ms: a quarter
  EXPECT_EQ(Runs[0].sliceCtas, 5000u);  // not sliceable: whole
  EXPECT_EQ(Runs[5].sliceCtas, 1000u);  // 100 us: too short to slice
  L.Splits.assign(4, Split::Whole);
  for (const SliceRun &R : layoutRuns(M, Launches, L)) {
    EXPECT_EQ(R.sliceCtas, R.ctas);
    EXPECT_EQ(R.workersPerSm, 0u);
  }
  // Workers: half the CTAs per SM (8 -> 4), whole launches, in one run;
  // a launch without persistent workers runs whole.  A quarter: 2, three
  // quarters: 6.
  Launches[0].Workers = false;
  L.Splits.assign(4, Split::Workers);
  for (const SliceRun &R : layoutRuns(M, Launches, L)) {
    EXPECT_EQ(R.ctas, Launches[R.launch].Traits.Ctas);
    EXPECT_EQ(R.workersPerSm, R.launch == 0 ? 0u : 4u) << R.launch;
    EXPECT_EQ(R.sliceCtas, R.launch == 0 ? R.ctas : std::min(R.ctas, 4u * 132));
  }
  // Shares are of the workers that fit on an SM where the SM-centric
  // variant fits fewer than the original's CTAs (5 of 8): three quarters
  // are 4 per SM, not 6.
  Launches[1].WorkersPerSmFit = 5;
  L.Splits.assign(4, Split::ManyWorkers);
  for (const SliceRun &R : layoutRuns(M, Launches, L)) {
    if (R.launch == 1 || R.launch == 2)
      EXPECT_EQ(R.workersPerSm, R.launch == 1 ? 4u : 6u) << R.launch;
    EXPECT_EQ(R.smCount, 0u) << R.launch; // on every SM
  }
  // Partition: every worker that fits, on the lane's half of the SMs
  // (lane 0: SMs 0-65, lane 1: 66-131); without workers, whole on every
  // SM.
  L.Splits.assign(4, Split::Partition);
  for (const SliceRun &R : layoutRuns(M, Launches, L)) {
    const PendingLaunch &P = Launches[R.launch];
    EXPECT_EQ(R.ctas, P.Traits.Ctas);
    if (!P.Workers) {
      EXPECT_EQ(R.workersPerSm, 0u);
      EXPECT_EQ(R.smCount, 0u);
      EXPECT_EQ(R.sliceCtas, R.ctas);
      continue;
    }
    EXPECT_EQ(R.workersPerSm, R.launch == 1 ? 5u : 8u) << R.launch;
    EXPECT_EQ(R.smFirst, R.lane ? 66u : 0u) << R.launch;
    EXPECT_EQ(R.smCount, 66u) << R.launch;
    EXPECT_EQ(R.sliceCtas, std::min(R.ctas, R.workersPerSm * 66)) << R.launch;
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

TEST(LayoutSearch, ClimbsToTheFastestLayout) {
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
  EXPECT_EQ(Runs, 192u); // the whole budget: climbs restart until it is spent
  EXPECT_EQ(Search.best().Splits[2], Split::Workers);
  // Settled: measurements change nothing.
  Search.measured(0.5);
  EXPECT_DOUBLE_EQ(Search.bestSeconds(), 1.0);
}

TEST(LayoutSearch, FindsStreamsOneAfterTheOther) {
  // Two streams that slow each other down side by side (on the lanes as
  // plain streams would be, or as workers): the search runs them on one
  // lane, one after the other, and the runs of that layout are all on it.
  auto Cost = [](const Layout &L) {
    return L.Lanes[0].empty() || L.Lanes[1].empty() ? 0.8 : 1.0;
  };
  LayoutSearch Search(streamsLayout(2));
  while (!Search.settled())
    Search.measured(Cost(Search.next()));
  EXPECT_DOUBLE_EQ(Search.bestSeconds(), 0.8) << Search.best().text();
  const Layout &Best = Search.best();
  unsigned Lane = Best.Lanes[0].empty() ? 1 : 0;
  ASSERT_EQ(Best.Lanes[Lane].size(), 2u);
  PlanDevice M;
  std::vector<PendingLaunch> Launches = {
      launch(0, 1000, 1e-3), launch(1, 1000, 1e-3), launch(0, 1000, 1e-3)};
  std::vector<SliceRun> Runs = layoutRuns(M, Launches, Best);
  ASSERT_EQ(Runs.size(), 3u);
  std::vector<unsigned> Streams;
  for (const SliceRun &R : Runs) {
    EXPECT_EQ(R.lane, Lane);
    Streams.push_back(Launches[R.launch].Stream);
  }
  // Each stream's launches together, in the lane's order.
  unsigned First = Best.Lanes[Lane][0];
  EXPECT_EQ(Streams, (First == 0 ? std::vector<unsigned>{0, 0, 1}
                                 : std::vector<unsigned>{1, 0, 0}));
}

TEST(LayoutSearch, MovesAtTheFirstBetterNeighbour) {
  // The first neighbour tried is faster, every other layout as slow as the
  // start: the climb moves there at once and tries its neighbours next,
  // not the rest of the start's.
  LayoutSearch Search(streamsLayout(4), 0.02, 192, /*ConfirmRuns=*/1);
  Search.measured(1.0); // the start
  Layout First = Search.next();
  Search.measured(0.5);
  EXPECT_TRUE(Search.best() == First);
  std::vector<Layout> Around = neighbours(First);
  for (int Trial = 0; Trial < 10; ++Trial) {
    const Layout &Next = Search.next();
    EXPECT_NE(std::find(Around.begin(), Around.end(), Next), Around.end())
        << Next.text() << " is not a neighbour of " << First.text();
    Search.measured(1.0);
  }
}

TEST(LayoutSearch, GainsBelowTheThresholdDoNotMove) {
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

TEST(LayoutSearch, LuckyRunsDoNotWin) {
  // Workers on stream 0 run fast Fast times, then slow: a layout whose time
  // depends on which kernel the hardware places first.  It is run until
  // one run is slow (at most 4 runs in all), and then dropped.
  for (unsigned Fast : {1u, 2u, 3u}) {
    SCOPED_TRACE("fast runs: " + std::to_string(Fast));
    Layout Start = streamsLayout(2);
    Layout Bimodal = Start;
    Bimodal.Splits[0] = Split::Workers;
    LayoutSearch Search(Start);
    unsigned Runs = 0;
    while (!Search.settled()) {
      bool IsBimodal = Search.next() == Bimodal;
      Search.measured(IsBimodal ? (Runs++ < Fast ? 0.5 : 1.5) : 1.0);
    }
    EXPECT_EQ(Runs, Fast + 1);
    EXPECT_FALSE(Search.best() == Bimodal);
    EXPECT_DOUBLE_EQ(Search.bestSeconds(), 1.0);
  }
}

TEST(LayoutSearch, AWinnerCountsWithItsSlowestConfirmingRun) {
  Layout Start = streamsLayout(2);
  Layout Better = Start;
  Better.Splits[1] = Split::Slices;
  LayoutSearch Search(Start);
  const double Times[] = {0.6, 0.5, 0.8, 0.7}; // all beat the start's 1.0
  unsigned Runs = 0;
  while (!Search.settled())
    Search.measured(Search.next() == Better ? Times[Runs++ % 4] : 1.0);
  EXPECT_EQ(Runs, 4u);
  EXPECT_TRUE(Search.best() == Better);
  EXPECT_DOUBLE_EQ(Search.bestSeconds(), 0.8);
  // With one confirming run (no confirmation), the first time counts.
  LayoutSearch Once(Start, 0.02, 96, /*ConfirmRuns=*/1);
  Runs = 0;
  while (!Once.settled())
    Once.measured(Once.next() == Better ? Times[Runs++ % 4] : 1.0);
  EXPECT_EQ(Runs, 1u);
  EXPECT_DOUBLE_EQ(Once.bestSeconds(), 0.6);
}

TEST(LayoutSearch, SettlesWhenNothingIsLeftToTry) {
  // One stream: on either lane, a layout per split the search tries, ten in
  // all.
  LayoutSearch Search(streamsLayout(1));
  std::set<Layout> Ran;
  while (!Search.settled()) {
    Ran.insert(Search.next());
    Search.measured(Search.next().Splits[0] == Split::Workers ? 0.5 : 1.0);
  }
  EXPECT_EQ(Ran.size(), size_t(2 * SearchSplits));
  EXPECT_EQ(Search.trials(), 2 * SearchSplits + 3); // the winner ran 4 times
  EXPECT_EQ(Search.best().Splits[0], Split::Workers);
}

TEST(LayoutSearch, StopsWithinItsTrialBudget) {
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
