//===- KerneletScheduleTest.cpp - Tests of the Kernelet schedules ---------===//
//
// The Kernelet model's schedules: planGreedy covers every CTA once, keeps
// stream order, runs unknown and unsliceable launches whole and alone,
// pairs complementary kernels but not a pair that would end later than one
// after the other, re-slices a running kernel for a new partner,
// degenerates to serial on one stream, predicts what predictSeconds() does
// for its plan and, on random batches, no more than serial; planSerial
// predicts the sum of the alone times; checkSchedule() rejects broken
// plans.  The IPC model and the pairs they are built from:
// KerneletIpcTest.cpp.
//===----------------------------------------------------------------------===//
#include "KerneletModel.h"
#include "KerneletTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace smc::kernelet;
using namespace smc::test;

namespace {

PendingLaunch launch(unsigned Stream, KernelTraits T, bool Sliceable = true,
                     bool Known = true) {
  PendingLaunch P;
  P.Stream = Stream;
  P.Traits = std::move(T);
  P.Sliceable = Sliceable;
  P.Known = Known;
  return P;
}

double sumOfAloneTimes(const std::vector<PendingLaunch> &Launches) {
  double Sum = 0;
  for (const PendingLaunch &L : Launches)
    Sum += L.Traits.AloneSeconds;
  return Sum;
}

std::vector<unsigned> runsOf(const Schedule &S, unsigned Launch) {
  std::vector<unsigned> Out;
  for (unsigned I = 0; I < S.Runs.size(); ++I)
    if (S.Runs[I].launch == Launch)
      Out.push_back(I);
  return Out;
}

// What every plan promises, checked without checkSchedule(): each launch's
// CTAs once, in CTA order on one lane; the runs of a launch after all runs
// of the earlier launches of its stream; the plan's prediction is what
// predictSeconds() makes of it.
void expectValid(const std::vector<PendingLaunch> &Launches, const Schedule &S,
                 const DeviceModel &M) {
  for (unsigned L = 0; L < Launches.size(); ++L) {
    unsigned Next = 0;
    for (unsigned I : runsOf(S, L)) {
      const SliceRun &R = S.Runs[I];
      EXPECT_EQ(R.firstCta, Next) << "launch " << L << ", run " << I;
      EXPECT_GE(R.ctas, 1u);
      EXPECT_GE(R.sliceCtas, 1u);
      EXPECT_LE(R.sliceCtas, R.ctas);
      EXPECT_LE(R.lane, 1u);
      EXPECT_EQ(R.lane, S.Runs[runsOf(S, L).front()].lane);
      Next += R.ctas;
    }
    EXPECT_EQ(Next, Launches[L].Traits.Ctas) << "launch " << L;
  }
  std::map<unsigned, unsigned> LastRunOfStream; // index + 1
  std::map<unsigned, unsigned> LastLaunchOfStream;
  for (unsigned L = 0; L < Launches.size(); ++L) {
    std::vector<unsigned> Runs = runsOf(S, L);
    if (Runs.empty())
      continue;
    unsigned Stream = Launches[L].Stream;
    if (LastRunOfStream.count(Stream)) {
      EXPECT_GT(Runs.front() + 1, LastRunOfStream[Stream])
          << "launch " << L << " starts before launch "
          << LastLaunchOfStream[Stream] << " of its stream ends";
    }
    LastRunOfStream[Stream] = Runs.back() + 1;
    LastLaunchOfStream[Stream] = L;
  }
  std::string Error;
  EXPECT_TRUE(checkSchedule(Launches, S, &Error)) << Error;
  EXPECT_NEAR(predictSeconds(M, Launches, S), S.PredictedSeconds,
              1e-9 * S.PredictedSeconds);
}

// Launch L runs whole in one run, with nothing beside it: a fence before
// it (unless first) and before the run after it (unless last).
void expectWholeAndAlone(const Schedule &S, unsigned L, unsigned Ctas) {
  std::vector<unsigned> Runs = runsOf(S, L);
  ASSERT_EQ(Runs.size(), 1u) << "launch " << L;
  const SliceRun &R = S.Runs[Runs[0]];
  EXPECT_EQ(R.firstCta, 0u);
  EXPECT_EQ(R.ctas, Ctas);
  EXPECT_EQ(R.sliceCtas, Ctas);
  EXPECT_TRUE(Runs[0] == 0 || R.fence) << "launch " << L;
  EXPECT_TRUE(Runs[0] + 1 == S.Runs.size() || S.Runs[Runs[0] + 1].fence)
      << "launch " << L;
}

bool anyNoteHas(const Schedule &S, const std::string &Text) {
  return std::any_of(S.Notes.begin(), S.Notes.end(), [&](const std::string &N) {
    return N.find(Text) != std::string::npos;
  });
}

//===----------------------------------------------------------------------===//
// Schedules
//===----------------------------------------------------------------------===//

TEST(KerneletPlan, SerialPredictsTheSumOfAloneTimes) {
  std::vector<PendingLaunch> Launches = {
      launch(0, compute(FullGrid, 1e-3)), launch(1, memory(FullGrid, 2e-3)),
      launch(0, kernel("unknown", 0, 500, 0.5e-3), false, false),
      launch(2, memory(100, 0.1e-3))};
  Schedule S = planSerial(Launches);
  ASSERT_EQ(S.Runs.size(), Launches.size());
  for (unsigned L = 0; L < Launches.size(); ++L) {
    EXPECT_EQ(S.Runs[L].launch, L);
    EXPECT_EQ(S.Runs[L].lane, 0u);
    EXPECT_EQ(S.Runs[L].sliceCtas, Launches[L].Traits.Ctas);
  }
  EXPECT_NEAR(S.PredictedSeconds, 3.6e-3, 1e-15);
  EXPECT_NEAR(predictSeconds(h100(), Launches, S), sumOfAloneTimes(Launches),
              1e-15);
}

TEST(KerneletPlan, ComplementaryKernelsArePaired) {
  std::vector<PendingLaunch> Launches = {launch(0, compute()),
                                         launch(1, memory())};
  Schedule S = planGreedy(h100(), Launches);
  expectValid(Launches, S, h100());
  std::optional<PairChoice> C = choosePair(h100(), compute(), memory());
  ASSERT_FALSE(S.Runs.empty());
  EXPECT_EQ(S.Runs[0].sliceCtas, C->CtasPerSmA * H100Sms);
  EXPECT_EQ(S.Runs[1].sliceCtas, C->CtasPerSmB * H100Sms);
  EXPECT_NE(S.Runs[0].lane, S.Runs[1].lane);
  EXPECT_TRUE(anyNoteHas(S, "co-run")) << S.Notes.front();
  EXPECT_LT(S.PredictedSeconds, 0.99 * sumOfAloneTimes(Launches));
}

TEST(KerneletPlan, MinimumSlices) {
  DeviceModel M = h100();
  M.SliceLaunchSeconds = 5e-6;
  M.MaxSliceOverhead = 0.02;
  // A slice must run at least 5 us / 2% = 250 us: a quarter of a 1 ms
  // launch.
  EXPECT_EQ(minSliceCtas(M, compute()), FullGrid / 4);
  EXPECT_EQ(minSliceCtas(M, compute(FullGrid, 0)), 1u); // no time: no rule
  std::vector<PendingLaunch> Launches = {launch(0, compute()),
                                         launch(1, memory())};
  Schedule S = planGreedy(M, Launches);
  expectValid(Launches, S, M);
  ASSERT_GE(S.Runs.size(), 2u);
  for (const SliceRun &R : S.Runs)
    EXPECT_GE(R.sliceCtas, std::min(R.ctas, FullGrid / 4));
  EXPECT_TRUE(anyNoteHas(S, "co-run")) << S.Notes.front();
  // Launches of 400 us cannot be cut into two slices of 250 us.
  Launches = {launch(0, compute(FullGrid, 400e-6)),
              launch(1, memory(FullGrid, 400e-6))};
  S = planGreedy(M, Launches);
  expectValid(Launches, S, M);
  expectWholeAndAlone(S, 0, FullGrid);
  expectWholeAndAlone(S, 1, FullGrid);
  EXPECT_TRUE(anyNoteHas(S, "too short to slice")) << S.Notes.front();
}

TEST(KerneletPlan, AlikeKernelsRunAlone) {
  // Two memory-bound kernels gain nothing from sharing SMs.
  std::vector<PendingLaunch> Launches = {launch(0, memory()),
                                         launch(1, memory())};
  Schedule S = planGreedy(h100(), Launches);
  expectValid(Launches, S, h100());
  expectWholeAndAlone(S, 0, FullGrid);
  expectWholeAndAlone(S, 1, FullGrid);
  EXPECT_TRUE(anyNoteHas(S, "profits")) << S.Notes.front();
  EXPECT_NEAR(S.PredictedSeconds, sumOfAloneTimes(Launches), 1e-15);
  // With no profit required, the pair co-runs.
  Schedule Any = planGreedy(h100(), Launches, -1);
  expectValid(Launches, Any, h100());
  EXPECT_LT(Any.Runs[0].sliceCtas, FullGrid);
}

TEST(KerneletPlan, PairsThatEndLaterDoNotCoRun) {
  // One wave of a long kernel next to a short one: the split profits while
  // both run, but halving the wave makes the long kernel run two waves,
  // the second alone at half occupancy.
  KernelTraits Wave = kernel("wave", 0.04, 4 * H100Sms - 31, 710e-6);
  Wave.CtasPerSm = 4;
  KernelTraits Short = kernel("short", 0.11, 2094, 130e-6);
  Short.WarpsPerCta = 1;
  Short.CtasPerSm = 32;
  std::optional<PairChoice> C = choosePair(h100(), Wave, Short);
  ASSERT_TRUE(C);
  EXPECT_GT(C->Profit, 0.02);
  std::vector<PendingLaunch> Launches = {launch(0, Wave), launch(1, Short)};
  Schedule S = planGreedy(h100(), Launches);
  expectValid(Launches, S, h100());
  expectWholeAndAlone(S, 0, Wave.Ctas);
  expectWholeAndAlone(S, 1, Short.Ctas);
  EXPECT_TRUE(anyNoteHas(S, "end later co-running")) << S.Notes.front();
  EXPECT_NEAR(S.PredictedSeconds, sumOfAloneTimes(Launches), 1e-15);
}

TEST(KerneletPlan, UnknownAndUnsliceableLaunchesRunWholeAndAlone) {
  std::vector<PendingLaunch> Launches = {
      launch(0, compute()),
      launch(1, memory()),
      launch(2, memory(1000), /*Sliceable=*/false),
      launch(3, compute(2000), true, /*Known=*/false),
      launch(0, compute()),
      launch(1, memory())};
  Schedule S = planGreedy(h100(), Launches);
  expectValid(Launches, S, h100());
  expectWholeAndAlone(S, 2, 1000);
  expectWholeAndAlone(S, 3, 2000);
  EXPECT_TRUE(anyNoteHas(S, "launch 2 (memory) runs whole, alone: not "
                            "sliceable"));
  EXPECT_TRUE(anyNoteHas(S, "launch 3 (compute) runs whole, alone: traits "
                            "not measured"));
  // The others still pair.
  EXPECT_TRUE(anyNoteHas(S, "co-run") || anyNoteHas(S, "joins"));
  EXPECT_LT(S.PredictedSeconds, sumOfAloneTimes(Launches));
}

TEST(KerneletPlan, RunningKernelTakesANewSplitForANewPartner) {
  // A long compute kernel meets a short memory kernel, then a kernel that
  // wants another split: the compute kernel's run is cut at a whole slice
  // and continues with the new slice size on its lane.
  std::vector<PendingLaunch> Launches = {
      launch(0, compute(4 * FullGrid, 4e-3)), launch(1, memory(FullGrid / 4)),
      launch(1, kernel("mixed", 0.1, FullGrid, 1e-3))};
  Schedule S = planGreedy(h100(), Launches);
  expectValid(Launches, S, h100());
  std::vector<unsigned> Runs = runsOf(S, 0);
  ASSERT_GE(Runs.size(), 2u);
  const SliceRun &First = S.Runs[Runs[0]], &Next = S.Runs[Runs[1]];
  EXPECT_EQ(First.ctas % First.sliceCtas, 0u) << "cut at a whole slice";
  EXPECT_NE(First.sliceCtas, Next.sliceCtas);
  EXPECT_GT(Runs[1], runsOf(S, 1).back()) << "after the first partner";
  EXPECT_TRUE(anyNoteHas(S, "joins"));
}

TEST(KerneletPlan, OneStreamIsSerial) {
  std::vector<PendingLaunch> Launches = {
      launch(7, compute()), launch(7, memory()),
      launch(7, compute(300, 0.2e-3)), launch(7, memory(FullGrid, 3e-3))};
  Schedule S = planGreedy(h100(), Launches), Serial = planSerial(Launches);
  expectValid(Launches, S, h100());
  ASSERT_EQ(S.Runs.size(), Serial.Runs.size());
  for (size_t I = 0; I < S.Runs.size(); ++I) {
    EXPECT_EQ(S.Runs[I].launch, Serial.Runs[I].launch);
    EXPECT_EQ(S.Runs[I].lane, Serial.Runs[I].lane);
    EXPECT_EQ(S.Runs[I].firstCta, Serial.Runs[I].firstCta);
    EXPECT_EQ(S.Runs[I].ctas, Serial.Runs[I].ctas);
    EXPECT_EQ(S.Runs[I].sliceCtas, Serial.Runs[I].sliceCtas);
  }
  EXPECT_NEAR(S.PredictedSeconds, Serial.PredictedSeconds, 1e-15);
  EXPECT_TRUE(anyNoteHas(S, "no other launch ready"));
}

TEST(KerneletPlan, ManyStreamsOfManyLaunches) {
  std::vector<PendingLaunch> Launches;
  const double Ratios[] = {0.01, 0.3, 0.05, 0.6, 0.02, 0.2};
  for (unsigned I = 0; I < 16; ++I) {
    KernelTraits T = kernel("k" + std::to_string(I), Ratios[I % 6],
                            FullGrid / (1 + I % 3), 1e-3 / (1 + I % 3));
    if (I % 5 == 4)
      T.WarpsPerCta = 4, T.CtasPerSm = 16;
    Launches.push_back(launch(I % 4, T, I != 9, I != 13));
  }
  Launches.push_back(launch(2, kernel("empty", 0.1, 0)));
  Launches.push_back(launch(2, compute(H100Sms / 2, 1e-5)));
  Schedule S = planGreedy(h100(), Launches);
  expectValid(Launches, S, h100());
  expectWholeAndAlone(S, 9, Launches[9].Traits.Ctas);
  expectWholeAndAlone(S, 13, Launches[13].Traits.Ctas);
  EXPECT_TRUE(runsOf(S, 16).empty());
  EXPECT_TRUE(anyNoteHas(S, "launch 16 (empty) has no CTAs"));
  EXPECT_LT(S.PredictedSeconds, sumOfAloneTimes(Launches));
  EXPECT_FALSE(anyNoteHas(S, "internal"));
}

TEST(KerneletPlan, RandomBatchesKeepThePromises) {
  uint64_t Seed = 12345;
  auto next = [&](unsigned Below) {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return unsigned((Seed >> 33) % Below);
  };
  DeviceModel M = h100();
  M.NumSms = 16;
  for (unsigned Batch = 0; Batch < 40; ++Batch) {
    std::vector<PendingLaunch> Launches;
    unsigned Streams = 1 + next(4), Count = 1 + next(9);
    for (unsigned I = 0; I < Count; ++I) {
      KernelTraits T =
          kernel("k" + std::to_string(I), next(101) / 100.0,
                 next(8) == 0 ? 0 : 1 + next(400), (1 + next(100)) * 1e-5);
      T.WarpsPerCta = 1u << next(6);
      T.CtasPerSm = std::max(1u, 64 / T.WarpsPerCta / (1 + next(3)));
      Launches.push_back(launch(next(Streams), T, next(6) != 0, next(6) != 0));
    }
    Schedule S = planGreedy(M, Launches);
    SCOPED_TRACE("batch " + std::to_string(Batch));
    expectValid(Launches, S, M);
    EXPECT_FALSE(anyNoteHas(S, "internal"));
    EXPECT_LE(S.PredictedSeconds, sumOfAloneTimes(Launches) * (1 + 1e-9));
  }
}

TEST(KerneletPlan, BrokenPlansAreRejected) {
  std::vector<PendingLaunch> Launches = {
      launch(0, compute(1000)), launch(0, memory(500)),
      launch(1, memory(300), /*Sliceable=*/false)};
  auto plan = [](std::vector<SliceRun> Runs) {
    Schedule S;
    S.Runs = std::move(Runs);
    return S;
  };
  Schedule Good = plan({{0, 0, 0, 600, 200},
                        {2, 1, 0, 300, 300},
                        {0, 0, 600, 400, 400},
                        {1, 1, 0, 500, 100}});
  std::string Error;
  EXPECT_TRUE(checkSchedule(Launches, Good, &Error)) << Error;
  EXPECT_TRUE(std::isfinite(predictSeconds(h100(), Launches, Good)));
  std::vector<Schedule> Bad = {
      plan({{0, 0, 0, 1000, 1000}, {2, 1, 0, 300, 300}}), // launch 1 missing
      plan({{0, 0, 0, 1000, 1000},
            {0, 0, 0, 1000, 1000},
            {1, 0, 0, 500, 500},
            {2, 0, 0, 300, 300}}), // twice
      plan({{1, 0, 0, 500, 500},
            {0, 0, 0, 1000, 1000},
            {2, 0, 0, 300, 300}}), // stream order
      plan({{0, 0, 0, 500, 100},
            {0, 1, 500, 500, 100},
            {1, 0, 0, 500, 500},
            {2, 0, 0, 300, 300}}), // two lanes
      plan({{0, 2, 0, 1000, 1000},
            {1, 2, 0, 500, 500},
            {2, 0, 0, 300, 300}}), // no lane 2
      plan({{0, 0, 0, 1000, 1000},
            {1, 0, 0, 500, 500},
            {2, 0, 0, 300, 100}}), // an unsliceable launch in slices
      plan({{0, 0, 0, 1000, 0},
            {1, 0, 0, 500, 500},
            {2, 0, 0, 300, 300}}), // empty slices
      plan({{3, 0, 0, 1, 1}})};    // no such launch
  for (size_t I = 0; I < Bad.size(); ++I) {
    Error.clear();
    EXPECT_FALSE(checkSchedule(Launches, Bad[I], &Error)) << "plan " << I;
    EXPECT_FALSE(Error.empty());
    EXPECT_EQ(predictSeconds(h100(), Launches, Bad[I]),
              std::numeric_limits<double>::infinity());
  }
}

TEST(KerneletPlan, SmRangesAreForWorkersOnTheDevicesSms) {
  std::vector<PendingLaunch> Launches = {launch(0, compute(1000)),
                                         launch(1, memory(500))};
  Launches[0].Workers = true;
  Schedule S;
  // Launch 0 as 4 workers per SM on SMs 66-131, launch 1 whole.
  S.Runs = {{0, 0, 0, 1000, 264, 4, 66, 66}, {1, 1, 0, 500, 500}};
  std::string Error;
  EXPECT_TRUE(checkSchedule(Launches, S, &Error, 132)) << Error;
  EXPECT_TRUE(std::isfinite(predictSeconds(h100(), Launches, S)));
  EXPECT_FALSE(checkSchedule(Launches, S, &Error, 100));
  EXPECT_NE(Error.find("SMs 66-131, beyond the device's 100"),
            std::string::npos)
      << Error;
  // A range without workers: launch 1 is not confined as the original.
  S.Runs[1] = {1, 1, 0, 500, 500, 0, 0, 66};
  EXPECT_FALSE(checkSchedule(Launches, S, &Error, 132));
  EXPECT_NE(Error.find("confined to SMs only as workers"), std::string::npos)
      << Error;
}

TEST(KerneletPlan, NoLaunchesNoRuns) {
  Schedule S = planGreedy(h100(), {});
  EXPECT_TRUE(S.Runs.empty());
  EXPECT_EQ(S.PredictedSeconds, 0);
  EXPECT_EQ(predictSeconds(h100(), {}, S), 0);
}

} // namespace
