//===- CoRunSplitsTest.cpp - Tests of the co-run harness's SM splits ------===//
//
// The splits of smc_corun_bench (bench/corun/CoRunPlan.h, CoRunSplits.cpp):
// the N-way oracle and green-context splits and the profile SM counts are
// the documented grids, and repetitions target a time.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"
#include "CoRunReport.h"

#include <gtest/gtest.h>

#include <functional>

using namespace smc;
using namespace smc::corun;

namespace {

// The counts of the splits smSplits makes, checked one by one: each sums
// to NumSms, each of the first Parts - 1 is a positive multiple of Step,
// the last at least Step, no repeats, lexicographic order.
void expectSplits(unsigned NumSms, unsigned Step, unsigned Parts,
                  size_t Count) {
  SCOPED_TRACE(std::to_string(NumSms) + " SMs, step " + std::to_string(Step) +
               ", " + std::to_string(Parts) + " parts");
  std::vector<std::vector<unsigned>> Splits = smSplits(NumSms, Step, Parts);
  EXPECT_EQ(Splits.size(), Count);
  for (size_t I = 0; I < Splits.size(); ++I) {
    const std::vector<unsigned> &S = Splits[I];
    ASSERT_EQ(S.size(), Parts);
    unsigned Sum = 0;
    for (size_t K = 0; K < S.size(); ++K) {
      Sum += S[K];
      EXPECT_GE(S[K], Step);
      if (K + 1 < S.size())
        EXPECT_EQ(S[K] % Step, 0u);
    }
    EXPECT_EQ(Sum, NumSms);
    if (I > 0)
      EXPECT_LT(Splits[I - 1], S) << "order";
  }
  // Every split that follows the rules is there: count them directly.
  size_t Expected = 0;
  std::vector<unsigned> Counts(Parts - 1, Step);
  std::function<void(size_t, unsigned)> Walk = [&](size_t K, unsigned Used) {
    if (K + 1 == Parts) {
      Expected += NumSms >= Used + Step;
      return;
    }
    for (unsigned C = Step; Used + C + Step <= NumSms; C += Step)
      Walk(K + 1, Used + C);
  };
  Walk(0, 0);
  EXPECT_EQ(Splits.size(), Expected);
}

TEST(CoRunPlan, SplitGrids) {
  std::vector<std::vector<unsigned>> Eights = smSplits(132, 8, 2);
  ASSERT_EQ(Eights.size(), 15u);
  EXPECT_EQ(Eights.front(), (std::vector<unsigned>{8, 124}));
  EXPECT_EQ(Eights.back(), (std::vector<unsigned>{120, 12}));
  EXPECT_EQ(smSplits(132, 16, 2),
            (std::vector<std::vector<unsigned>>{{16, 116},
                                                {32, 100},
                                                {48, 84},
                                                {64, 68},
                                                {80, 52},
                                                {96, 36},
                                                {112, 20}}));
  EXPECT_TRUE(smSplits(12, 8, 2).empty());
  EXPECT_TRUE(smSplits(132, 0, 2).empty());
  EXPECT_TRUE(smSplits(132, 8, 1).empty());
  EXPECT_TRUE(smSplits(20, 8, 3).empty()); // three need 24
  // The last keeps at least a whole step: 7 SMs are not enough.
  EXPECT_EQ(smSplits(23, 8, 2), (std::vector<std::vector<unsigned>>{{8, 15}}));
  EXPECT_EQ(smSplits(31, 8, 3),
            (std::vector<std::vector<unsigned>>{{8, 8, 15}}));
  EXPECT_EQ(smSplits(24, 8, 3),
            (std::vector<std::vector<unsigned>>{{8, 8, 8}}));
  EXPECT_EQ(smSplits(40, 8, 3),
            (std::vector<std::vector<unsigned>>{{8, 8, 24},
                                                {8, 16, 16},
                                                {8, 24, 8},
                                                {16, 8, 16},
                                                {16, 16, 8},
                                                {24, 8, 8}}));
  expectSplits(132, 8, 2, 15);
  expectSplits(132, 8, 3, 105);
  expectSplits(132, 16, 3, 21);
  expectSplits(132, 8, 4, 455);
  expectSplits(100, 12, 3, 21);
  expectSplits(114, 8, 3, 78);

  std::vector<SplitConfig> Configs = oracleConfigs(132, 8, {0, 1, 2, 4}, 2);
  EXPECT_EQ(Configs.size(), 15u * 16u);
  EXPECT_EQ(Configs[0], (SplitConfig{{8, 124}, {0, 0}}));
  EXPECT_EQ(Configs[1], (SplitConfig{{8, 124}, {0, 1}}));
  EXPECT_EQ(Configs[4], (SplitConfig{{8, 124}, {1, 0}}));
  EXPECT_EQ(Configs.back(), (SplitConfig{{120, 12}, {4, 4}}));

  std::vector<KernelShare> Shares = sharesOf({{40, 92}, {2, 0}}, 132);
  ASSERT_EQ(Shares.size(), 2u);
  EXPECT_EQ(Shares[0], (KernelShare{0, 40, 2}));
  EXPECT_EQ(Shares[1], (KernelShare{40, 92, 0}));
}

TEST(CoRunPlan, OracleOfTriplesKeepsWorkersFixed) {
  EXPECT_EQ(oracleWorkers({0, 1, 2, 4}, 2),
            (std::vector<unsigned>{0, 1, 2, 4}));
  EXPECT_EQ(oracleWorkers({0, 1, 2, 4}, 3), (std::vector<unsigned>{0}));
  EXPECT_EQ(oracleWorkers({2, 4}, 3), (std::vector<unsigned>{2}));
  EXPECT_EQ(oracleWorkers({2, 4}, 4), (std::vector<unsigned>{2}));
  std::vector<SplitConfig> Configs = oracleConfigs(132, 8, {0, 1, 2, 4}, 3);
  ASSERT_EQ(Configs.size(), 105u);
  EXPECT_EQ(Configs.front(), (SplitConfig{{8, 8, 116}, {0, 0, 0}}));
  EXPECT_EQ(Configs.back(), (SplitConfig{{112, 8, 12}, {0, 0, 0}}));
  for (const SplitConfig &C : Configs) {
    std::vector<KernelShare> Shares = sharesOf(C, 132);
    ASSERT_EQ(Shares.size(), 3u);
    // Contiguous from SM 0, every SM to exactly one kernel.
    EXPECT_EQ(Shares[0].FirstSm, 0u);
    EXPECT_EQ(Shares[1].FirstSm, Shares[0].NumSms);
    EXPECT_EQ(Shares[2].FirstSm, Shares[0].NumSms + Shares[1].NumSms);
    EXPECT_EQ(Shares[2].FirstSm + Shares[2].NumSms, 132u);
    for (size_t I = 0; I < 3; ++I)
      EXPECT_EQ(Shares[I].NumSms, C.Sms[I]);
  }
  // Four kernels: still one worker choice each.
  EXPECT_EQ(oracleConfigs(132, 8, {0, 1}, 4).size(), 455u);
  EXPECT_TRUE(oracleConfigs(132, 8, {}, 3).empty());
}

TEST(CoRunPlan, GreenRequestsFollowTheDriversGranularity) {
  // Pairs: one request each, the first context's.
  auto FirstOf = [](const std::vector<std::vector<unsigned>> &Requests) {
    std::vector<unsigned> First;
    for (const std::vector<unsigned> &R : Requests) {
      EXPECT_EQ(R.size(), 1u);
      First.push_back(R.at(0));
    }
    return First;
  };
  std::vector<unsigned> Eights;
  for (const std::vector<unsigned> &S : smSplits(132, 8, 2))
    Eights.push_back(S[0]);
  EXPECT_EQ(FirstOf(greenRequests(132, 8, 8, 8, 2)), Eights);
  // Steps finer than the alignment round up, without repeats.
  EXPECT_EQ(FirstOf(greenRequests(40, 4, 8, 8, 2)),
            (std::vector<unsigned>{8, 16, 24, 32}));
  // Both contexts need the minimum partition.
  EXPECT_EQ(FirstOf(greenRequests(40, 8, 16, 8, 2)),
            (std::vector<unsigned>{16, 24}));
  // Triples: the first two contexts' requests, the last keeps the rest.
  EXPECT_EQ(greenRequests(40, 8, 8, 8, 3),
            (std::vector<std::vector<unsigned>>{
                {8, 8}, {8, 16}, {8, 24}, {16, 8}, {16, 16}, {24, 8}}));
  EXPECT_EQ(greenRequests(40, 8, 16, 8, 3), // 16 + 16 leave 8 < 16
            (std::vector<std::vector<unsigned>>{}));
  for (const std::vector<unsigned> &R : greenRequests(132, 8, 8, 8, 3)) {
    ASSERT_EQ(R.size(), 2u);
    EXPECT_EQ(R[0] % 8, 0u);
    EXPECT_EQ(R[1] % 8, 0u);
    EXPECT_GE(132u - R[0] - R[1], 8u);
  }
}

TEST(CoRunPlan, GreenSweepIsBounded) {
  // Pairs keep the step: every split, as before.
  GreenSweep Pairs = greenSweep(132, 8, 8, 8, 2);
  EXPECT_EQ(Pairs.Step, 8u);
  EXPECT_EQ(Pairs.Requests, greenRequests(132, 8, 8, 8, 2));
  // Triples: 105 splits at step 8, 21 at step 16.
  EXPECT_EQ(greenRequests(132, 8, 8, 8, 3).size(), 105u);
  GreenSweep Triples = greenSweep(132, 8, 8, 8, 3);
  EXPECT_EQ(Triples.Step, 16u);
  EXPECT_EQ(Triples.Requests.size(), 21u);
  EXPECT_EQ(Triples.Requests, greenRequests(132, 16, 8, 8, 3));
  GreenSweep Fours = greenSweep(132, 8, 8, 8, 4);
  EXPECT_EQ(Fours.Step, 24u);
  EXPECT_EQ(Fours.Requests.size(), 4u);
  for (unsigned Parts : {2u, 3u, 4u})
    for (unsigned Max : {1u, 5u, MaxGreenSplits}) {
      GreenSweep S = greenSweep(132, 8, 8, 8, Parts, Max);
      EXPECT_LE(S.Requests.size(), Max);
      EXPECT_EQ(S.Step % 8, 0u);
      // The smallest such step: the one before gives too many.
      if (S.Step > 8)
        EXPECT_GT(greenRequests(132, S.Step - 8, 8, 8, Parts).size(), Max);
    }
  EXPECT_EQ(greenSweep(132, 0, 8, 8, 3).Requests.size(), 0u);
}

TEST(CoRunPlan, ProfileSmCountsAndReps) {
  EXPECT_EQ(profileSmCounts(132, false),
            (std::vector<unsigned>{8, 16, 24, 32, 48, 64, 80, 96, 112, 132}));
  EXPECT_EQ(profileSmCounts(132, true),
            (std::vector<unsigned>{16, 32, 64, 96, 132}));
  EXPECT_EQ(profileSmCounts(20, false), (std::vector<unsigned>{8, 16, 20}));
  EXPECT_EQ(repsFor(0.5, 5), 10u);
  EXPECT_EQ(repsFor(2.11, 5), 2u);
  EXPECT_EQ(repsFor(8.85, 5), 1u);
  EXPECT_EQ(repsFor(0.001, 5, 100), 100u);
  EXPECT_EQ(repsFor(0, 5), 1u);
  EXPECT_EQ(smRange(3, 4), (std::vector<unsigned>{3, 4, 5, 6}));
}

} // namespace
