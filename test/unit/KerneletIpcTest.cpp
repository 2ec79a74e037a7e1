//===- KerneletIpcTest.cpp - Tests of the Kernelet model's IPCs and pairs -===//
//
// The Markov-chain IPC model: no memory instructions means an instruction
// every cycle, IPC grows with warps and falls with the memory ratio and the
// latency, the one-warp chain matches its closed form, the stationary
// vectors are distributions, a pair with an empty kernel is the other's
// solo chain and swapping the kernels swaps the IPCs; calibration recovers
// the latencies the samples came from.  Pairs: a compute-bound kernel next
// to a memory-bound one profits more than two memory-bound ones, every
// option is feasible and the choice is the balanced one.  The schedules
// built from them: KerneletScheduleTest.cpp.
//===----------------------------------------------------------------------===//
#include "KerneletModel.h"
#include "KerneletTestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

using namespace smc::kernelet;
using namespace smc::test;

namespace {

//===----------------------------------------------------------------------===//
// The IPC model
//===----------------------------------------------------------------------===//

TEST(KerneletIpc, NoMemoryInstructionsIssueEveryCycle) {
  for (unsigned W = 1; W <= 16; ++W)
    EXPECT_DOUBLE_EQ(soloIpc(h100(), 0, W), 1) << W << " warps";
  EXPECT_EQ(soloIpc(h100(), 0.3, 0), 0);
}

TEST(KerneletIpc, GrowsWithWarps) {
  for (double Rm : {0.01, 0.05, 0.2, 0.5, 1.0})
    for (unsigned W = 2; W <= 16; ++W)
      EXPECT_GT(soloIpc(h100(), Rm, W), soloIpc(h100(), Rm, W - 1))
          << "ratio " << Rm << ", " << W << " warps";
}

TEST(KerneletIpc, FallsWithMemoryRatioAndLatency) {
  for (unsigned W : {1u, 4u, 16u}) {
    double Last = 1;
    for (double Rm : {0.01, 0.05, 0.1, 0.3, 0.6, 1.0}) {
      double Ipc = soloIpc(h100(), Rm, W);
      EXPECT_LT(Ipc, Last) << "ratio " << Rm << ", " << W << " warps";
      Last = Ipc;
    }
    DeviceModel Slow = h100(), Steep = h100();
    Slow.LatencyBase = 800;
    Steep.LatencySlope = 40;
    EXPECT_LT(soloIpc(Slow, 0.1, W), soloIpc(h100(), 0.1, W));
    EXPECT_LT(soloIpc(Steep, 0.1, W), soloIpc(h100(), 0.1, W));
  }
}

TEST(KerneletIpc, OneWarpMatchesItsClosedForm) {
  // Ready -> idle with probability Rm; idle -> ready with 1 / L(1) (a
  // round of one cycle): IPC = P(ready) = (1 / L) / (Rm + 1 / L).
  double Wake = 1 / (400.0 + 10.0);
  EXPECT_NEAR(soloIpc(h100(), 0.2, 1), Wake / (0.2 + Wake), 1e-14);
}

TEST(KerneletIpc, StationaryVectorsAreDistributions) {
  for (double Rm : {0.0, 0.01, 0.3, 1.0})
    for (unsigned W : {0u, 1u, 7u, 16u}) {
      std::vector<double> Pi = soloStationary(h100(), Rm, W);
      ASSERT_EQ(Pi.size(), W + 1);
      EXPECT_NEAR(std::accumulate(Pi.begin(), Pi.end(), 0.0), 1, 1e-12);
      for (double P : Pi)
        EXPECT_GE(P, 0);
      double Ipc = soloIpc(h100(), Rm, W);
      EXPECT_GE(Ipc, 0);
      EXPECT_LE(Ipc, 1);
    }
  // No memory instructions: every warp stays ready.
  EXPECT_DOUBLE_EQ(soloStationary(h100(), 0, 8)[0], 1);
  // Memory latency of 0 wakes idle warps at once; with every instruction a
  // memory one the warps swing between all ready and all idle.
  DeviceModel Instant = h100();
  Instant.LatencyBase = Instant.LatencySlope = 0;
  std::vector<double> Swing = soloStationary(Instant, 1, 4);
  EXPECT_NEAR(Swing[0], 0.5, 1e-9);
  EXPECT_NEAR(Swing[4], 0.5, 1e-9);
}

TEST(KerneletIpc, StationaryDistributionOfAGivenChain) {
  // Two states: a = P(0 -> 1), b = P(1 -> 0); pi = (b, a) / (a + b).
  std::vector<double> Pi = stationaryDistribution({0.9, 0.1, 0.3, 0.7}, 2);
  ASSERT_EQ(Pi.size(), 2u);
  EXPECT_NEAR(Pi[0], 0.75, 1e-15);
  EXPECT_NEAR(Pi[1], 0.25, 1e-15);
  // A periodic class {0, 1} and a closed state 2: the class state 0 is in.
  Pi = stationaryDistribution({0, 1, 0, 1, 0, 0, 0, 0, 1}, 3);
  ASSERT_EQ(Pi.size(), 3u);
  EXPECT_NEAR(Pi[0], 0.5, 1e-9);
  EXPECT_NEAR(Pi[1], 0.5, 1e-9);
  EXPECT_NEAR(Pi[2], 0, 1e-9);
  // Not a transition matrix: nothing.
  EXPECT_TRUE(stationaryDistribution({0.5, 0.6, 0.5, 0.5}, 2).empty());
  EXPECT_TRUE(stationaryDistribution({-0.5, 1.5, 0.5, 0.5}, 2).empty());
  EXPECT_TRUE(stationaryDistribution({1, 0, 0}, 2).empty());
  EXPECT_TRUE(stationaryDistribution({}, 0).empty());
}

TEST(KerneletIpc, PairWithAnEmptyKernelIsSolo) {
  for (double Rm : {0.0, 0.05, 0.3})
    for (unsigned W : {1u, 8u, 16u}) {
      PairIpc First = pairIpc(h100(), Rm, W, 0.5, 0);
      EXPECT_NEAR(First.First, soloIpc(h100(), Rm, W), 1e-13);
      EXPECT_EQ(First.Second, 0);
      PairIpc Second = pairIpc(h100(), 0.5, 0, Rm, W);
      EXPECT_EQ(Second.First, 0);
      EXPECT_NEAR(Second.Second, soloIpc(h100(), Rm, W), 1e-13);
    }
  PairIpc None = pairIpc(h100(), 0.1, 0, 0.1, 0);
  EXPECT_EQ(None.First, 0);
  EXPECT_EQ(None.Second, 0);
}

TEST(KerneletIpc, SwappingThePairSwapsTheIpcs) {
  for (auto [Wa, Wb] : {std::pair{8u, 8u}, {4u, 12u}, {16u, 16u}}) {
    PairIpc AB = pairIpc(h100(), 0.01, Wa, 0.3, Wb);
    PairIpc BA = pairIpc(h100(), 0.3, Wb, 0.01, Wa);
    EXPECT_NEAR(AB.First, BA.Second, 1e-12);
    EXPECT_NEAR(AB.Second, BA.First, 1e-12);
    EXPECT_LE(AB.First + AB.Second, 1 + 1e-12); // one issue slot a cycle
  }
  PairIpc Same = pairIpc(h100(), 0.2, 6, 0.2, 6);
  EXPECT_NEAR(Same.First, Same.Second, 1e-12);
}

TEST(KerneletIpc, CalibrationRecoversTheLatencies) {
  DeviceModel Truth = h100();
  Truth.LatencyBase = 300;
  Truth.LatencySlope = 20;
  std::vector<IpcSample> Samples;
  for (double Rm : {0.02, 0.05, 0.1, 0.2, 0.4})
    for (unsigned W : {2u, 8u, 16u})
      Samples.push_back({Rm, W, soloIpc(Truth, Rm, W)});
  DeviceModel Fit = calibrate(h100(), Samples);
  EXPECT_NEAR(Fit.LatencyBase, 300, 3);
  EXPECT_NEAR(Fit.LatencySlope, 20, 0.5);
  EXPECT_EQ(Fit.NumSms, H100Sms);
  // Nothing to fit: the model as given.
  DeviceModel Same = calibrate(h100(), {});
  EXPECT_EQ(Same.LatencyBase, 400);
  EXPECT_EQ(Same.LatencySlope, 10);
  Same = calibrate(h100(), {{0.1, 0, 0.5}, {NAN, 4, 0.5}});
  EXPECT_EQ(Same.LatencyBase, 400);
}

//===----------------------------------------------------------------------===//
// Pairs
//===----------------------------------------------------------------------===//

TEST(KerneletPair, ComplementaryKernelsProfitMore) {
  std::optional<PairChoice> Mixed = choosePair(h100(), compute(), memory());
  std::optional<PairChoice> Memory = choosePair(h100(), memory(), memory());
  std::optional<PairChoice> Compute = choosePair(h100(), compute(), compute());
  ASSERT_TRUE(Mixed && Memory && Compute);
  EXPECT_GT(Mixed->Profit, Memory->Profit);
  EXPECT_GT(Mixed->Profit, Compute->Profit);
  EXPECT_GT(Mixed->Profit, 0.05);
  for (const KernelTraits &A : {compute(), memory()})
    for (const KernelTraits &B : {compute(), memory()})
      for (const PairChoice &C : pairOptions(h100(), A, B)) {
        EXPECT_LT(C.Profit, 1);
        EXPECT_GT(C.RateA, 0);
        EXPECT_GT(C.RateB, 0);
      }
}

TEST(KerneletPair, OptionsAreEveryFeasibleSplit) {
  KernelTraits Wide = kernel("wide", 0.1, FullGrid);
  Wide.WarpsPerCta = 16;
  Wide.CtasPerSm = 4;
  KernelTraits Small = kernel("small", 0.2, FullGrid);
  Small.WarpsPerCta = 2;
  Small.CtasPerSm = 16;
  DeviceModel M = h100();
  std::vector<PairChoice> Options = pairOptions(M, Wide, Small);
  unsigned Feasible = 0;
  for (unsigned A = 1; A <= Wide.CtasPerSm; ++A)
    for (unsigned B = 1; B <= Small.CtasPerSm; ++B)
      Feasible +=
          double(A) / Wide.CtasPerSm + double(B) / Small.CtasPerSm <=
              1 + 1e-9 &&
          A * Wide.WarpsPerCta + B * Small.WarpsPerCta <= M.MaxWarpsPerSm;
  EXPECT_EQ(Options.size(), Feasible);
  for (const PairChoice &C : Options) {
    EXPECT_GE(C.CtasPerSmA, 1u);
    EXPECT_GE(C.CtasPerSmB, 1u);
    EXPECT_LE(double(C.CtasPerSmA) / Wide.CtasPerSm +
                  double(C.CtasPerSmB) / Small.CtasPerSm,
              1 + 1e-9);
    EXPECT_LE(C.CtasPerSmA * Wide.WarpsPerCta +
                  C.CtasPerSmB * Small.WarpsPerCta,
              M.MaxWarpsPerSm);
  }
  // A launch of one partial wave offers no more CTAs per SM than it has.
  for (const PairChoice &C : pairOptions(M, compute(2 * H100Sms), memory()))
    EXPECT_LE(C.CtasPerSmA, 2u);
  // Traits the model cannot use: no options.
  KernelTraits NoTime = memory();
  NoTime.AloneSeconds = 0;
  EXPECT_TRUE(pairOptions(M, compute(), NoTime).empty());
  EXPECT_FALSE(choosePair(M, compute(), NoTime));
  std::string Error;
  EXPECT_FALSE(checkTraits(NoTime, &Error));
  EXPECT_EQ(Error, "no alone time");
  DeviceModel NoSms = M;
  NoSms.NumSms = 0;
  EXPECT_FALSE(choosePair(NoSms, compute(), memory()));
}

TEST(KerneletPair, ChoiceIsTheBalancedSplit) {
  DeviceModel M = h100();
  std::vector<std::pair<KernelTraits, KernelTraits>> Pairs = {
      {compute(), memory()},
      {memory(), compute()},
      {compute(FullGrid, 3e-3), memory()},
      {kernel("a", 0.05), kernel("b", 0.6, FullGrid, 4e-3)}};
  for (const auto &[A, B] : Pairs) {
    std::optional<PairChoice> C = choosePair(M, A, B);
    ASSERT_TRUE(C);
    std::vector<PairChoice> Options = pairOptions(M, A, B);
    double Least = 1;
    for (const PairChoice &O : Options)
      Least = std::min(Least, sliceImbalance(M, O));
    EXPECT_LE(sliceImbalance(M, *C), Least + 0.05 + 1e-12);
    for (const PairChoice &O : Options)
      EXPECT_TRUE(sliceImbalance(M, O) > Least + 0.05 || C->Profit >= O.Profit);
    EXPECT_TRUE(std::any_of(Options.begin(), Options.end(), [&](auto &O) {
      return O.CtasPerSmA == C->CtasPerSmA && O.CtasPerSmB == C->CtasPerSmB;
    }));
  }
  // The slower kernel gets the more CTAs per SM.
  std::optional<PairChoice> C = choosePair(M, compute(), memory());
  EXPECT_GT(C->CtasPerSmA, C->CtasPerSmB);
}

} // namespace
