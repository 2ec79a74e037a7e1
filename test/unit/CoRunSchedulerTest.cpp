//===- CoRunSchedulerTest.cpp - Tests of co-run SM splits -----------------===//
//
// decide() keeps sharing unless a split is predicted to beat it (a
// bandwidth-bound triad is not halved, perfectly scaling kernels share), a
// kernel that saturates gets what it can use, splits follow the
// granularity, High kernels get their share, kernels without profiles
// share; OnlineSearch climbs to the optimum of a concave STP, proposes only
// valid splits and stops within its budget.
//===----------------------------------------------------------------------===//
#include "corun/CoRunScheduler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace smc;

namespace {

constexpr unsigned H100Sms = 132;

KernelProfile profileOf(const std::string &Name,
                        std::vector<std::pair<unsigned, double>> SecondsOnSms,
                        unsigned Workers = 0) {
  KernelProfile P(Name, "H100", H100Sms);
  for (auto [Sms, Seconds] : SecondsOnSms)
    EXPECT_TRUE(P.addSample({Sms, Workers, Seconds}));
  return P;
}

// Time Alone on all SMs, Alone * 132 / s on s.
KernelProfile perfect(const std::string &Name, double Alone) {
  return profileOf(Name, {{33, Alone * 4}, {66, Alone * 2}, {132, Alone}});
}

// The measured triad: 9.7 ms on 66 SMs, 5.8 ms on 132.
KernelProfile triad() {
  return profileOf("triad", {{66, 9.7e-3}, {132, 5.8e-3}});
}

// A bandwidth curve measured at four SM counts.
KernelProfile triadCurve() {
  return profileOf("triad",
                   {{33, 18.0e-3}, {66, 9.7e-3}, {99, 6.8e-3}, {132, 5.8e-3}});
}

// Scales perfectly up to Sat SMs, not at all beyond.
KernelProfile saturating(const std::string &Name, unsigned Sat, double Alone) {
  return profileOf(
      Name,
      {{Sat / 4, Alone * 4}, {Sat / 2, Alone * 2}, {Sat, Alone}, {132, Alone}});
}

CoRunOptions options(double Margin = 0.05, unsigned Granularity = 1) {
  CoRunOptions O;
  O.NumSms = H100Sms;
  O.Granularity = Granularity;
  O.Margin = Margin;
  return O;
}

// Shares are whole groups from SM 0 on, disjoint, within the device.
void expectValidPartition(const CoRunDecision &D, const CoRunOptions &O) {
  ASSERT_EQ(D.Kind, CoRunKind::Partition);
  unsigned Next = 0;
  for (const KernelShare &S : D.Shares) {
    EXPECT_EQ(S.FirstSm, Next);
    EXPECT_GT(S.NumSms, 0u);
    EXPECT_EQ(S.FirstSm % O.Granularity, 0u);
    EXPECT_EQ(S.NumSms % O.Granularity, 0u);
    Next = S.FirstSm + S.NumSms;
  }
  EXPECT_LE(Next, O.NumSms);
  EXPECT_GT(Next + O.Granularity, O.NumSms); // no whole group left idle
}

void expectShared(const CoRunDecision &D, size_t NumKernels) {
  EXPECT_EQ(D.Kind, CoRunKind::Shared) << D.Reason;
  ASSERT_EQ(D.Shares.size(), NumKernels);
  for (const KernelShare &S : D.Shares)
    EXPECT_EQ(S, (KernelShare{0, H100Sms, 0}));
  EXPECT_FALSE(D.Reason.empty());
}

TEST(CoRunScheduler, TriadAndComputeAreNotHalved) {
  KernelProfile Triad = triad(), Compute = perfect("compute", 5.8e-3);
  CoRunDecision D =
      decide({{"triad", &Triad}, {"compute", &Compute}}, options());
  // Halving the triad is no better than sharing: sharing is predicted to
  // give every kernel its demand-proportional share, 66 + 66 here.
  expectShared(D, 2);
  EXPECT_NEAR(D.SharedStp, 5.8 / 9.7 + 0.5, 1e-9);
  EXPECT_NEAR(D.PredictedStp, D.SharedStp, 1e-12);
  ASSERT_EQ(D.PredictedSeconds.size(), 2u);
  EXPECT_NEAR(D.PredictedSeconds[0], 9.7e-3, 1e-12);
}

TEST(CoRunScheduler, TriadGetsTheLargerShareIfSplitAtAll) {
  KernelProfile Compute = perfect("compute", 5.8e-3);
  for (const KernelProfile &Triad : {triad(), triadCurve()})
    for (double Margin : {0.0, 0.05})
      for (bool TriadFirst : {true, false}) {
        std::vector<CoRunKernel> Kernels = {{"triad", &Triad},
                                            {"compute", &Compute}};
        if (!TriadFirst)
          std::swap(Kernels[0], Kernels[1]);
        CoRunDecision D = decide(Kernels, options(Margin));
        if (D.Kind == CoRunKind::Shared)
          continue;
        expectValidPartition(D, options(Margin));
        const KernelShare &T = D.Shares[TriadFirst ? 0 : 1];
        const KernelShare &C = D.Shares[TriadFirst ? 1 : 0];
        EXPECT_GT(T.NumSms, C.NumSms) << D.Reason;
        EXPECT_GT(D.PredictedStp, D.SharedStp * (1 + Margin));
      }
}

TEST(CoRunScheduler, MarginDecidesACloseCall) {
  // With the four-point curve the best split (the triad on 99 SMs, where
  // its curve flattens) is predicted slightly better than sharing: taken
  // without a margin, not with 5%.
  KernelProfile Triad = triadCurve(), Compute = perfect("compute", 5.8e-3);
  std::vector<CoRunKernel> Kernels = {{"triad", &Triad}, {"compute", &Compute}};
  CoRunDecision Close = decide(Kernels, options(0.0));
  expectValidPartition(Close, options(0.0));
  EXPECT_EQ(Close.Shares[0].NumSms, 99u);
  EXPECT_NEAR(Close.PredictedStp, 5.8 / 6.8 + 33.0 / 132, 1e-9);
  EXPECT_LT(Close.PredictedStp, Close.SharedStp * 1.05);
  expectShared(decide(Kernels, options(0.05)), 2);
}

TEST(CoRunScheduler, PerfectlyScalingKernelsShare) {
  KernelProfile A = perfect("a", 1.0), B = perfect("b", 3.0);
  CoRunDecision D = decide({{"a", &A}, {"b", &B}}, options(0.0));
  expectShared(D, 2);
  EXPECT_NEAR(D.SharedStp, 1.0, 1e-9);
  EXPECT_NEAR(D.SharedAntt, 2.0, 1e-9);
}

TEST(CoRunScheduler, KernelsWhoseDemandsFitShare) {
  // 32 + 100 SMs fit in 132: sharing is predicted to run both at full
  // speed (an even split of the SMs would slow the second to 66/100).
  KernelProfile A = saturating("a", 32, 1e-3), B = saturating("b", 100, 1e-3);
  CoRunDecision D = decide({{"a", &A}, {"b", &B}}, options(0.0));
  expectShared(D, 2);
  EXPECT_NEAR(D.SharedStp, 2.0, 1e-9);
  EXPECT_NEAR(D.SharedAntt, 1.0, 1e-9);
}

TEST(CoRunScheduler, SaturatingKernelGetsWhatItCanUse) {
  KernelProfile Sat = saturating("sat", 32, 1e-3),
                Compute = perfect("compute", 2e-3);
  for (bool SatFirst : {true, false}) {
    std::vector<CoRunKernel> Kernels = {{"sat", &Sat}, {"compute", &Compute}};
    if (!SatFirst)
      std::swap(Kernels[0], Kernels[1]);
    CoRunDecision D = decide(Kernels, options());
    expectValidPartition(D, options());
    EXPECT_EQ(D.Shares[SatFirst ? 0 : 1].NumSms, 32u);
    EXPECT_EQ(D.Shares[SatFirst ? 1 : 0].NumSms, 100u);
    EXPECT_NEAR(D.PredictedStp, 1 + 100.0 / 132, 1e-9);
    EXPECT_GT(D.PredictedStp, D.SharedStp * 1.05);
  }
}

TEST(CoRunScheduler, GranularityIsRespected) {
  // Saturates at 44 SMs: groups of 8 give it 48 (40 would slow it).
  KernelProfile Sat = saturating("sat", 44, 1e-3),
                Compute = perfect("compute", 2e-3);
  CoRunOptions O = options(0.05, 8);
  CoRunDecision D = decide({{"sat", &Sat}, {"compute", &Compute}}, O);
  expectValidPartition(D, O);
  EXPECT_EQ(D.Shares[0].NumSms, 48u);
  EXPECT_EQ(D.Shares[1], (KernelShare{48, 80, 0}));
  // Groups larger than half the device leave no split for two kernels.
  expectShared(
      decide({{"sat", &Sat}, {"compute", &Compute}}, options(0.05, 100)), 2);
}

TEST(CoRunScheduler, WorkersComeFromTheProfile) {
  KernelProfile Sat = saturating("sat", 32, 1e-3);
  Sat.addSample({32, 2, 0.8e-3});
  Sat.addSample({132, 2, 0.8e-3});
  KernelProfile Compute = perfect("compute", 2e-3);
  CoRunDecision D = decide({{"sat", &Sat}, {"compute", &Compute}}, options());
  expectValidPartition(D, options());
  EXPECT_EQ(D.Shares[0].NumSms, 32u);
  EXPECT_EQ(D.Shares[0].WorkersPerSm, 2u);
  EXPECT_EQ(D.Shares[1].WorkersPerSm, 0u);
  EXPECT_NEAR(D.PredictedSeconds[0], 0.8e-3, 1e-12);
}

TEST(CoRunScheduler, ThreeKernelsGetTheirUsefulShares) {
  KernelProfile Sat32 = saturating("sat32", 32, 1e-3),
                Sat16 = saturating("sat16", 16, 1e-3),
                Compute = perfect("compute", 2e-3);
  CoRunDecision D = decide(
      {{"compute", &Compute}, {"sat32", &Sat32}, {"sat16", &Sat16}}, options());
  expectValidPartition(D, options());
  EXPECT_EQ(D.Shares[0].NumSms, 84u);
  EXPECT_EQ(D.Shares[1].NumSms, 32u);
  EXPECT_EQ(D.Shares[2].NumSms, 16u);
  EXPECT_NEAR(D.PredictedStp, 2 + 84.0 / 132, 1e-9);
}

TEST(CoRunScheduler, HighPriorityGetsItsShare) {
  KernelProfile Urgent = perfect("urgent", 1e-3),
                Batch = perfect("batch", 1e-3);
  for (unsigned Granularity : {1u, 8u})
    for (bool UrgentFirst : {true, false}) {
      std::vector<CoRunKernel> Kernels = {
          {"urgent", &Urgent, KernelPriority::High}, {"batch", &Batch}};
      if (!UrgentFirst)
        std::swap(Kernels[0], Kernels[1]);
      CoRunOptions O = options(0.05, Granularity);
      CoRunDecision D = decide(Kernels, O);
      expectValidPartition(D, O);
      size_t U = UrgentFirst ? 0 : 1;
      // The fewest SMs within 10% of its alone time: 132 / 1.1 = 120.
      EXPECT_EQ(D.Shares[U].NumSms, 120u);
      EXPECT_EQ(D.Shares[1 - U].NumSms, Granularity == 1 ? 12u : 8u);
      EXPECT_LE(D.PredictedSeconds[U], 1.1e-3 * (1 + 1e-9));
    }
}

TEST(CoRunScheduler, HighPriorityKeepsSharingWhenSharingIsFastEnough) {
  // Demands 32 + 32 fit: shared, both are predicted at full speed.
  KernelProfile A = saturating("a", 32, 1e-3), B = saturating("b", 32, 1e-3);
  CoRunDecision D =
      decide({{"a", &A, KernelPriority::High}, {"b", &B}}, options());
  expectShared(D, 2);
  EXPECT_NEAR(D.SharedStp, 2.0, 1e-9);
}

TEST(CoRunScheduler, HighPriorityWithoutProfile) {
  KernelProfile Batch = perfect("batch", 1e-3);
  CoRunDecision D =
      decide({{"batch", &Batch}, {"urgent", nullptr, KernelPriority::High}},
             options());
  expectValidPartition(D, options());
  EXPECT_EQ(D.Shares[1].NumSms, 66u); // half the device
  EXPECT_EQ(D.Shares[0].NumSms, 66u);
  EXPECT_NE(D.Reason.find("urgent has no profile"), std::string::npos);
  EXPECT_EQ(D.PredictedStp, 0.0);

  // Measured at one SM count only: that count.
  KernelProfile Once = profileOf("urgent", {{40, 1e-3}});
  D = decide({{"batch", &Batch}, {"urgent", &Once, KernelPriority::High}},
             options());
  expectValidPartition(D, options());
  EXPECT_EQ(D.Shares[1].NumSms, 40u);
  EXPECT_EQ(D.Shares[0].NumSms, 92u);

  // Its profile decides its share when the Normal kernel has none; two
  // Normal kernels split the rest evenly.
  KernelProfile Urgent = perfect("urgent", 1e-3);
  D = decide({{"urgent", &Urgent, KernelPriority::High},
              {"x", nullptr},
              {"y", nullptr}},
             options());
  expectValidPartition(D, options());
  EXPECT_EQ(D.Shares[0].NumSms, 120u);
  EXPECT_EQ(D.Shares[1].NumSms, 6u);
  EXPECT_EQ(D.Shares[2].NumSms, 6u);
}

TEST(CoRunScheduler, PriorityNeedsANormalKernel) {
  KernelProfile A = perfect("a", 1e-3), B = perfect("b", 1e-3);
  // All High: as if all Normal.
  expectShared(
      decide({{"a", &A, KernelPriority::High}, {"b", &B, KernelPriority::High}},
             options()),
      2);
  // Two High kernels that each need 120 SMs cannot both get them.
  KernelProfile C = perfect("c", 1e-3);
  CoRunDecision D = decide({{"a", &A, KernelPriority::High},
                            {"b", &B, KernelPriority::High},
                            {"c", &C}},
                           options());
  expectShared(D, 3);
  EXPECT_NE(D.Reason.find("High kernels need"), std::string::npos);
}

TEST(CoRunScheduler, MissingProfilesShare) {
  KernelProfile Good = perfect("good", 1e-3);
  KernelProfile Once = profileOf("once", {{132, 1e-3}, {132, 2e-3}});
  KernelProfile Elsewhere("elsewhere", "A100", 108);
  Elsewhere.addSample({54, 0, 2e-3});
  Elsewhere.addSample({108, 0, 1e-3});
  struct Case {
    CoRunKernel Other;
    std::string Why;
  } Cases[] = {
      {{"none", nullptr}, "none has no profile"},
      {{"once", &Once}, "once was measured on fewer than two SM counts"},
      {{"elsewhere", &Elsewhere},
       "elsewhere was profiled on a device of 108 SMs, not 132"},
  };
  for (const Case &C : Cases) {
    CoRunDecision D = decide({{"good", &Good}, C.Other}, options());
    expectShared(D, 2);
    EXPECT_NE(D.Reason.find(C.Why), std::string::npos) << D.Reason;
    EXPECT_EQ(D.SharedStp, 0.0);
  }
}

TEST(CoRunScheduler, NothingToSplit) {
  KernelProfile A = perfect("a", 1e-3);
  expectShared(decide({}, options()), 0);
  expectShared(decide({{"a", &A}}, options()), 1);
}

// --- OnlineSearch ----------------------------------------------------------

using Config = OnlineSearch::Config;

void expectValidConfig(const Config &C, const OnlineSearch::Space &S) {
  unsigned Next = 0;
  ASSERT_EQ(C.size(), S.MaxWorkersPerSm.size());
  for (size_t I = 0; I < C.size(); ++I) {
    EXPECT_EQ(C[I].FirstSm, Next);
    EXPECT_GE(C[I].NumSms, S.Granularity);
    EXPECT_EQ(C[I].NumSms % S.Granularity, 0u);
    EXPECT_GE(C[I].WorkersPerSm, 1u);
    EXPECT_LE(C[I].WorkersPerSm, S.MaxWorkersPerSm[I]);
    Next += C[I].NumSms;
  }
  EXPECT_LE(Next, S.NumSms);
}

// Runs the search on Stp until it converges; returns the number of reports.
unsigned climb(OnlineSearch &Search, const OnlineSearch::Space &S,
               const std::function<double(const Config &)> &Stp) {
  unsigned Reports = 0;
  while (!Search.converged()) {
    std::optional<Config> C = Search.next();
    if (!C) {
      ADD_FAILURE() << "no proposal";
      break;
    }
    expectValidConfig(*C, S);
    EXPECT_TRUE(Search.report(*C, Stp(*C)));
    if (++Reports > S.MaxSteps)
      break;
  }
  return Reports;
}

// A concave STP with its optimum at kernel 0 on Best0 SMs, workers W0, W1.
std::function<double(const Config &)> concave(unsigned Best0, unsigned W0,
                                              unsigned W1) {
  return [=](const Config &C) {
    double D0 = double(C[0].NumSms) - Best0;
    double DW0 = double(C[0].WorkersPerSm) - W0;
    double DW1 = double(C[1].WorkersPerSm) - W1;
    return 2.0 - 1e-4 * D0 * D0 - 0.01 * DW0 * DW0 - 0.02 * DW1 * DW1;
  };
}

TEST(OnlineSearch, ClimbsToTheOptimum) {
  OnlineSearch::Space S{132, 4, {8, 8}, 64};
  OnlineSearch Search({"a", "b"}, S);
  // The even split: 17 of the 33 groups of 4 to the first kernel.
  EXPECT_EQ(*Search.next(), (Config{{0, 68, 8}, {68, 64, 8}}));
  unsigned Reports = climb(Search, S, concave(88, 3, 6));
  // 5 group moves and 5 + 2 worker moves from the start, plus the start
  // and the neighbours tried around the way.
  EXPECT_LE(Reports, 30u);
  EXPECT_LT(Search.steps(), S.MaxSteps);
  EXPECT_EQ(*Search.best(), (Config{{0, 88, 3}, {88, 44, 6}}));
  EXPECT_DOUBLE_EQ(*Search.bestStp(), 2.0);
  EXPECT_EQ(*Search.next(), *Search.best()); // converged: run the best
}

TEST(OnlineSearch, StaysInsideTheDeviceAtTheEdges) {
  // The optimum lies at the smallest share the first kernel can have.
  OnlineSearch::Space S{132, 8, {2, 3}, 64};
  OnlineSearch Search({"a", "b"}, S);
  climb(Search, S, concave(0, 1, 9));
  EXPECT_TRUE(Search.converged());
  EXPECT_EQ(*Search.best(), (Config{{0, 8, 1}, {8, 120, 3}}));
}

TEST(OnlineSearch, ThreeKernels) {
  OnlineSearch::Space S{132, 1, {4, 4, 4}, 200};
  OnlineSearch Search({"a", "b", "c"}, S);
  auto Stp = [](const Config &C) {
    double D0 = double(C[0].NumSms) - 60, D1 = double(C[1].NumSms) - 30;
    double DW = double(C[2].WorkersPerSm) - 2;
    return 3.0 - 1e-3 * (D0 * D0 + D1 * D1) - 0.05 * DW * DW;
  };
  climb(Search, S, Stp);
  EXPECT_TRUE(Search.converged());
  EXPECT_LT(Search.steps(), S.MaxSteps);
  std::optional<Config> Best = Search.best();
  ASSERT_TRUE(Best);
  EXPECT_EQ((*Best)[0].NumSms, 60u);
  EXPECT_EQ((*Best)[1].NumSms, 30u);
  EXPECT_EQ((*Best)[2].WorkersPerSm, 2u);
}

TEST(OnlineSearch, StartsFromTheModelsDecisionAndIsDeterministic) {
  OnlineSearch::Space S{132, 1, {8, 8}, 64};
  // Workers 0 (the original's occupancy) are clamped into 1..8.
  Config Start = {{0, 32, 0}, {32, 100, 4}};
  OnlineSearch First({"sat", "compute"}, S, Start);
  EXPECT_EQ(*First.next(), (Config{{0, 32, 1}, {32, 100, 4}}));
  OnlineSearch Second({"sat", "compute"}, S, Start);
  auto Stp = concave(40, 2, 5);
  for (int I = 0; I < 20; ++I) {
    std::optional<Config> A = First.next(), B = Second.next();
    ASSERT_TRUE(A && B);
    EXPECT_EQ(*A, *B);
    First.report(*A, Stp(*A));
    Second.report(*B, Stp(*B));
  }
  // An invalid start falls back to the even split.
  OnlineSearch Even({"a", "b"}, S, {{0, 100, 1}, {100, 100, 1}});
  EXPECT_EQ(*Even.next(), (Config{{0, 66, 8}, {66, 66, 8}}));
}

TEST(OnlineSearch, StopsAfterMaxSteps) {
  OnlineSearch::Space S{132, 1, {8, 8}, 5};
  OnlineSearch Search({"a", "b"}, S);
  EXPECT_EQ(climb(Search, S, concave(120, 1, 1)), 5u);
  EXPECT_TRUE(Search.converged());
  EXPECT_EQ(*Search.next(), *Search.best());
}

TEST(OnlineSearch, RejectsInvalidReports) {
  // 16 groups of 8: 128 of the 132 SMs.
  OnlineSearch::Space S{132, 8, {4, 4}, 64};
  OnlineSearch Search({"a", "b"}, S);
  const Config Bad[] = {
      {{0, 64, 1}},              // one kernel short
      {{0, 64, 1}, {64, 68, 1}}, // 68 is not a multiple of 8
      {{0, 64, 1}, {56, 72, 1}}, // overlapping
      {{0, 64, 1}, {72, 56, 1}}, // a gap
      {{0, 64, 1}, {64, 56, 1}}, // a whole group left out
      {{0, 0, 1}, {0, 128, 1}},  // an empty share
      {{0, 64, 5}, {64, 64, 1}}, // too many workers
      {{0, 64, 0}, {64, 64, 1}}, // no workers
  };
  for (const Config &C : Bad) {
    EXPECT_FALSE(Search.isValid(C));
    EXPECT_FALSE(Search.report(C, 1.0));
  }
  EXPECT_FALSE(Search.report({{0, 64, 1}, {64, 64, 1}}, std::nan("")));
  EXPECT_EQ(Search.steps(), 0u);
  EXPECT_TRUE(Search.report({{0, 64, 1}, {64, 64, 1}}, 1.0));
  EXPECT_EQ(Search.steps(), 1u);
}

TEST(OnlineSearch, PredictsByInterpolation) {
  OnlineSearch::Space S{132, 1, {8, 8}, 64};
  OnlineSearch Search({"a", "b"}, S);
  auto At = [](unsigned Sms0, unsigned W0) {
    return Config{{0, Sms0, W0}, {Sms0, 132 - Sms0, 4}};
  };
  EXPECT_FALSE(Search.predict(At(60, 4)));
  Search.report(At(50, 4), 1.0);
  Search.report(At(70, 4), 2.0);
  Search.report(At(70, 4), 1.6); // averaged: 1.8
  EXPECT_DOUBLE_EQ(*Search.predict(At(70, 4)), 1.8);
  // Between two measured splits: linear.
  EXPECT_DOUBLE_EQ(*Search.predict(At(55, 4)), 1.2);
  // Beyond them: extrapolated from the two nearest.
  EXPECT_DOUBLE_EQ(*Search.predict(At(80, 4)), 2.2);
  // The workers axis has no measured points at 60 SMs.
  EXPECT_FALSE(Search.predict(At(60, 3)));
  EXPECT_FALSE(Search.predict({{0, 60, 4}})); // invalid
}

TEST(OnlineSearch, KeysAndImpossibleSplits) {
  EXPECT_EQ(OnlineSearch::keyOf({"b", "a"}), "a;b");
  OnlineSearch Search({"z", "y"}, {132, 1, {1, 1}, 8});
  EXPECT_EQ(Search.key(), OnlineSearch::keyOf({"y", "z"}));
  OnlineSearch TooMany({"a", "b", "c"}, {16, 8, {1, 1, 1}, 8});
  EXPECT_FALSE(TooMany.next());
}

} // namespace
