//===- LocalityChoiceTest.cpp - Tests of policy locality's trials ---------===//
//
// Each CTA locality class gets the original, the interleaved __smc and its
// own order as candidates (cluster orders also throttled); the trials launch
// every candidate in turn, Samples times, timed; the original runs untimed
// while times are missing; the fastest median is kept only if it beats the
// original's by MinGain; candidates that cannot run are dropped, lost samples
// are launched again, and the summary names the choice and every median.
//===----------------------------------------------------------------------===//
#include "locality/LocalityChoice.h"

#include "smc/abi.h"

#include <gtest/gtest.h>

using namespace smc;

namespace {

std::vector<std::string> names(const std::vector<LocalityCandidate> &C) {
  std::vector<std::string> Out;
  for (const LocalityCandidate &Candidate : C)
    Out.push_back(Candidate.Name);
  return Out;
}

TEST(LocalityChoice, CandidatesFollowTheClass) {
  using V = std::vector<std::string>;
  EXPECT_EQ(names(localityCandidates(SMC_LOCALITY_NONE)),
            (V{"original", "smc"}));
  EXPECT_EQ(names(localityCandidates(SMC_LOCALITY_X)),
            (V{"original", "smc", "smc(order=cluster(x))"}));
  EXPECT_EQ(names(localityCandidates(SMC_LOCALITY_Y)),
            (V{"original", "smc", "smc(order=cluster(y))"}));
  EXPECT_EQ(names(localityCandidates(SMC_LOCALITY_TILE)),
            (V{"original", "smc", "smc(order=cluster(tile))"}));
  for (uint32_t Class :
       {uint32_t(SMC_LOCALITY_IRREGULAR), uint32_t(SMC_LOCALITY_Z),
        uint32_t(SMC_LOCALITY_UNKNOWN)})
    EXPECT_EQ(names(localityCandidates(Class)),
              (V{"original", "smc", "smc(order=contiguous)"}))
        << Class;
  std::vector<LocalityCandidate> Tile = localityCandidates(SMC_LOCALITY_TILE);
  EXPECT_EQ(Tile[0].Placement.variant, Variant::Original);
  EXPECT_EQ(Tile[1].Placement.variant, Variant::SMCentric);
  EXPECT_EQ(Tile[1].Placement.order, ChunkOrder::Interleaved);
  EXPECT_EQ(Tile[2].Placement.order, ChunkOrder::Cluster);
  EXPECT_EQ(Tile[2].Placement.clusterDir, ClusterDir::Tile);
  EXPECT_EQ(localityCandidates(SMC_LOCALITY_IRREGULAR)[2].Placement.order,
            ChunkOrder::Contiguous);
  for (const LocalityCandidate &C :
       localityCandidates(SMC_LOCALITY_X, /*Urgent=*/true))
    EXPECT_TRUE(C.Placement.urgent) << C.Name;
  for (const LocalityCandidate &C : localityCandidates(SMC_LOCALITY_X))
    EXPECT_FALSE(C.Placement.urgent) << C.Name;
  // Clusters also throttled, where a throttled count is given; other
  // orders never.
  std::vector<LocalityCandidate> Throttled =
      localityCandidates(SMC_LOCALITY_TILE, false, 4);
  EXPECT_EQ(names(Throttled), (V{"original", "smc", "smc(order=cluster(tile))",
                                 "smc(workers=4,order=cluster(tile))"}));
  EXPECT_EQ(Throttled[3].Placement.workersPerSM, 4u);
  EXPECT_EQ(Throttled[3].Placement.order, ChunkOrder::Cluster);
  EXPECT_EQ(Throttled[2].Placement.workersPerSM, 0u);
  EXPECT_EQ(names(localityCandidates(SMC_LOCALITY_Y, false, 2)).back(),
            "smc(workers=2,order=cluster(y))");
  EXPECT_EQ(localityCandidates(SMC_LOCALITY_IRREGULAR, false, 4).size(), 3u);
  EXPECT_EQ(localityCandidates(SMC_LOCALITY_NONE, false, 4).size(), 2u);
}

// Runs every timed trial the trials hand out, each taking Seconds[c].
void runTrials(Trials &T, const std::vector<double> &Seconds) {
  for (unsigned Step = 0; Step < 100 && !T.decided(); ++Step) {
    Trials::Next N = T.next();
    ASSERT_TRUE(N.Timed);
    T.measured(N.Candidate, Seconds[N.Candidate]);
  }
  ASSERT_TRUE(T.decided());
}

TEST(LocalityChoice, TrialsTakeTurnsThenKeepTheFastest) {
  Trials T(3, /*Samples=*/3);
  EXPECT_FALSE(T.decided());
  // Round robin, three of each, all timed.
  std::vector<unsigned> Order;
  for (unsigned I = 0; I < 9; ++I) {
    Trials::Next N = T.next();
    EXPECT_TRUE(N.Timed);
    Order.push_back(N.Candidate);
  }
  EXPECT_EQ(Order, (std::vector<unsigned>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
  // Times not in yet: the original, untimed.
  Trials::Next Waiting = T.next();
  EXPECT_EQ(Waiting.Candidate, 0u);
  EXPECT_FALSE(Waiting.Timed);
  const double Times[3][3] = {{1.0, 1.2, 1.1}, {0.9, 0.5, 0.95}, {0.97, 1, 1}};
  for (unsigned S = 0; S < 3; ++S)
    for (unsigned C = 0; C < 3; ++C) {
      EXPECT_FALSE(T.decided());
      T.measured(C, Times[C][S]);
    }
  ASSERT_TRUE(T.decided());
  EXPECT_EQ(T.chosen(), 1u); // median 0.9 against 1.1
  EXPECT_DOUBLE_EQ(T.medianSeconds(0), 1.1);
  EXPECT_DOUBLE_EQ(T.medianSeconds(1), 0.9);
  Trials::Next After = T.next();
  EXPECT_EQ(After.Candidate, 1u);
  EXPECT_FALSE(After.Timed);
  EXPECT_EQ(T.summary({"original", "smc", "smc(order=cluster(tile))"}),
            "chose smc: 0.818 of the original (medians of 3: original "
            "1100.000 ms; smc 900.000 ms; smc(order=cluster(tile)) 1000.000 "
            "ms)");
}

TEST(LocalityChoice, TheOriginalStaysUnlessBeatenByTheMargin) {
  Trials Close(3, 3, /*MinGain=*/0.02);
  runTrials(Close, {1.0, 0.985, 1.5});
  EXPECT_EQ(Close.chosen(), 0u); // 1.5% faster: not enough
  Trials Clear(3, 3, 0.02);
  runTrials(Clear, {1.0, 0.985, 0.97});
  EXPECT_EQ(Clear.chosen(), 2u);
  Trials Slower(2, 3, 0.02);
  runTrials(Slower, {1.0, 1.3});
  EXPECT_EQ(Slower.chosen(), 0u);
}

TEST(LocalityChoice, DroppedCandidatesAreNotTriedAndLostSamplesAreRedone) {
  Trials T(3, 2);
  EXPECT_EQ(T.next().Candidate, 0u);
  EXPECT_EQ(T.next().Candidate, 1u);
  T.drop(1); // cannot run
  T.drop(0); // the original cannot be dropped
  Trials::Next N = T.next();
  EXPECT_EQ(N.Candidate, 2u);
  T.lost(2); // no time came back: launched again
  T.measured(0, 1.0);
  unsigned Twos = 0;
  for (unsigned I = 0; I < 4; ++I) {
    Trials::Next M = T.next();
    if (!M.Timed)
      break;
    EXPECT_NE(M.Candidate, 1u);
    Twos += M.Candidate == 2;
    T.measured(M.Candidate, M.Candidate == 2 ? 0.5 : 1.0);
  }
  EXPECT_EQ(Twos, 2u);
  ASSERT_TRUE(T.decided());
  EXPECT_EQ(T.chosen(), 2u);
  EXPECT_NE(T.summary({"original", "smc", "contiguous"}).find("smc cannot run"),
            std::string::npos);
  // Only the original left: decided at once, the original.
  Trials Alone(2, 3);
  Alone.drop(1);
  EXPECT_TRUE(Alone.decided());
  EXPECT_EQ(Alone.chosen(), 0u);
}

} // namespace
