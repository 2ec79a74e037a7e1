//===- CoRunTrialsTest.cpp - Tests of measured co-run decisions -----------===//
//
// CoRunTrials tries the model's decision first, then sharing, then every
// kernel's variant on every SM, then climbs over splits; a trial ends only when
// every kernel has its timed launches, samples of other trials do not count,
// the measured STP uses the times alone from the profiles, splits step by a
// divisor of the SMs, and the co-run settles on a partition only if it was
// measured to beat sharing by the margin, within MaxTrials.
//===----------------------------------------------------------------------===//
#include "corun/CoRunTrials.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace smc;

namespace {

constexpr unsigned Sms = 128;

// Time Alone on all SMs, Alone * Sms / s on s.
KernelProfile perfect(const std::string &Name, double Alone) {
  KernelProfile P(Name, "test", Sms);
  for (unsigned S : {Sms / 4, Sms / 2, Sms})
    EXPECT_TRUE(P.addSample({S, 0, Alone * Sms / S}));
  return P;
}

struct Pair {
  KernelProfile A = perfect("a", 1e-3), B = perfect("b", 2e-3);
  std::vector<CoRunKernel> kernels() const {
    return {{"a", &A, KernelPriority::Normal},
            {"b", &B, KernelPriority::Normal}};
  }
};

CoRunTrials::Options options(unsigned MaxTrials = 16) {
  CoRunTrials::Options O;
  O.NumSms = Sms;
  O.Granularity = 16;
  O.SamplesPerKernel = 2;
  O.MaxTrials = MaxTrials;
  O.Margin = 0.02;
  return O;
}

CoRunDecision sharing() {
  CoRunDecision D;
  D.Reason = "predicted";
  return D;
}

CoRunDecision split(unsigned FirstSms, unsigned WorkersA = 0,
                    unsigned WorkersB = 0) {
  CoRunDecision D;
  D.Kind = CoRunKind::Partition;
  D.Shares = {{0, FirstSms, WorkersA}, {FirstSms, Sms - FirstSms, WorkersB}};
  D.Reason = "predicted";
  return D;
}

// Runs the trials to the end: each kernel's launches take the time `Time`
// gives for the decision they run under.  Returns the trials measured.
unsigned
runToEnd(CoRunTrials &T,
         const std::function<std::vector<double>(const CoRunDecision &)> &Time,
         unsigned Limit = 1000) {
  unsigned Launches = 0;
  while (!T.settled() && Launches < Limit) {
    std::vector<double> Seconds = Time(T.decision());
    unsigned Trial = T.trial();
    for (size_t I = 0; I < Seconds.size(); ++I)
      T.record(Trial, I, Seconds[I]);
    ++Launches;
  }
  return unsigned(T.measured().size());
}

// Every kernel's SM-centric variant on every SM.
void expectEverywhere(const CoRunDecision &D) {
  EXPECT_EQ(D.Kind, CoRunKind::Partition);
  for (const KernelShare &S : D.Shares) {
    EXPECT_EQ(S.FirstSm, 0u);
    EXPECT_EQ(S.NumSms, Sms);
    EXPECT_EQ(S.WorkersPerSm, 0u);
  }
  EXPECT_NE(D.Reason.find("on every SM"), std::string::npos) << D.Reason;
}

} // namespace

TEST(CoRunTrials, SettlesOnEveryVariantOnEverySmWhereThatIsFastest) {
  Pair P;
  CoRunTrials T(P.kernels(), {4, 4}, sharing(), options());
  // The variants beside each other on every SM run 20% faster than the
  // originals shared; splits are slower than both.
  auto Time = [&](const CoRunDecision &D) -> std::vector<double> {
    if (D.Kind == CoRunKind::Shared)
      return {1.5e-3, 3e-3};
    if (D.Shares[0].NumSms == Sms)
      return {1.25e-3, 2.5e-3};
    return {1.8e-3, 3.6e-3};
  };
  runToEnd(T, Time);
  ASSERT_TRUE(T.settled());
  expectEverywhere(T.decision());
  EXPECT_NE(T.decision().Reason.find("settled on the partition"),
            std::string::npos);
}

TEST(CoRunTrials, GranularityDividesTheDevice) {
  EXPECT_EQ(trialGranularity(132), 11u);
  EXPECT_EQ(trialGranularity(114), 6u);
  EXPECT_EQ(trialGranularity(144), 12u);
  EXPECT_EQ(trialGranularity(128), 8u);
  EXPECT_EQ(trialGranularity(16), 1u);
  EXPECT_EQ(trialGranularity(1), 1u);
  EXPECT_EQ(trialGranularity(0), 1u);
}

TEST(CoRunTrials, AppliesOnlyToDistinctProfiledNormalKernels) {
  Pair P;
  EXPECT_TRUE(CoRunTrials::applies(P.kernels(), Sms));
  EXPECT_FALSE(CoRunTrials::applies({P.kernels()[0]}, Sms));
  std::vector<CoRunKernel> Same = {P.kernels()[0], P.kernels()[0]};
  EXPECT_FALSE(CoRunTrials::applies(Same, Sms));
  std::vector<CoRunKernel> High = P.kernels();
  High[1].Priority = KernelPriority::High;
  EXPECT_FALSE(CoRunTrials::applies(High, Sms));
  std::vector<CoRunKernel> Unprofiled = P.kernels();
  Unprofiled[1].Profile = nullptr;
  EXPECT_FALSE(CoRunTrials::applies(Unprofiled, Sms));
  // Profiled on a device of other SMs.
  EXPECT_FALSE(CoRunTrials::applies(P.kernels(), 132));
}

TEST(CoRunTrials, TriesTheModelThenSharingThenTheClimb) {
  Pair P;
  CoRunTrials T(P.kernels(), {8, 4}, split(32), options());
  EXPECT_FALSE(T.settled());
  EXPECT_EQ(T.decision().Kind, CoRunKind::Partition);
  EXPECT_EQ(T.decision().Shares[0].NumSms, 32u);
  EXPECT_NE(T.decision().Reason.find("the model's decision"),
            std::string::npos);
  unsigned First = T.trial();
  // One kernel's samples alone do not end a trial.
  EXPECT_FALSE(T.record(First, 0, 4e-3));
  EXPECT_FALSE(T.record(First, 0, 4e-3));
  EXPECT_FALSE(T.record(First, 1, 3e-3));
  EXPECT_TRUE(T.record(First, 1, 3e-3));
  ASSERT_EQ(T.measured().size(), 1u);
  // STP from the times alone: 1/4 + 2/3.
  EXPECT_NEAR(T.measured()[0].Stp, 1e-3 / 4e-3 + 2e-3 / 3e-3, 1e-9);
  // Then sharing.
  EXPECT_NE(T.trial(), First);
  EXPECT_EQ(T.decision().Kind, CoRunKind::Shared);
  EXPECT_FALSE(T.sharedStp());
  unsigned Second = T.trial();
  // A late sample of the first trial counts nowhere.
  EXPECT_FALSE(T.record(First, 0, 1.0));
  for (size_t I = 0; I < 2; ++I)
    for (int N = 0; N < 2; ++N)
      T.record(Second, I, 2e-3 * (I + 1));
  ASSERT_TRUE(T.sharedStp());
  EXPECT_NEAR(*T.sharedStp(), 1.0, 1e-9);
  // Then every kernel's variant on every SM.
  ASSERT_FALSE(T.settled());
  expectEverywhere(T.decision());
  unsigned Third = T.trial();
  for (size_t I = 0; I < 2; ++I)
    for (int N = 0; N < 2; ++N)
      T.record(Third, I, 2e-3 * (I + 1));
  // Then the climb: partitions on the grid of 16 SMs, neighbours of the
  // model's split.
  ASSERT_FALSE(T.settled());
  ASSERT_EQ(T.decision().Kind, CoRunKind::Partition);
  const std::vector<KernelShare> &Shares = T.decision().Shares;
  ASSERT_EQ(Shares.size(), 2u);
  EXPECT_EQ(Shares[0].FirstSm, 0u);
  EXPECT_EQ(Shares[0].NumSms % 16, 0u);
  EXPECT_EQ(Shares[0].NumSms + Shares[1].NumSms, Sms);
  EXPECT_NE(T.decision().Reason.find("hill climbing"), std::string::npos);
}

TEST(CoRunTrials, ModelSharingStartsFromAnEvenSplit) {
  Pair P;
  CoRunTrials T(P.kernels(), {8, 4}, sharing(), options());
  EXPECT_EQ(T.decision().Kind, CoRunKind::Shared);
  unsigned Trial = T.trial();
  for (size_t I = 0; I < 2; ++I)
    for (int N = 0; N < 2; ++N)
      T.record(Trial, I, 2e-3);
  ASSERT_TRUE(T.sharedStp());
  expectEverywhere(T.decision());
  Trial = T.trial();
  for (size_t I = 0; I < 2; ++I)
    for (int N = 0; N < 2; ++N)
      T.record(Trial, I, 2e-3);
  ASSERT_EQ(T.decision().Kind, CoRunKind::Partition);
  EXPECT_EQ(T.decision().Shares[0].NumSms, Sms / 2);
  // The most workers, the original's occupancy, given as 0.
  EXPECT_EQ(T.decision().Shares[0].WorkersPerSm, 0u);
  EXPECT_EQ(T.decision().Shares[1].WorkersPerSm, 0u);
}

TEST(CoRunTrials, OneWorkerLevelSearchesTheSplitsOnly) {
  Pair P;
  CoRunTrials T(P.kernels(), {1, 1}, sharing(), options());
  auto Time = [&](const CoRunDecision &D) -> std::vector<double> {
    if (D.Kind == CoRunKind::Shared)
      return {1.5e-3, 3e-3};
    double Off = std::fabs(double(D.Shares[0].NumSms) - 32) / 16;
    return {1.1e-3 * (1 + 0.2 * Off), 2.2e-3 * (1 + 0.2 * Off)};
  };
  runToEnd(T, Time);
  ASSERT_TRUE(T.settled());
  for (const CoRunTrials::Trial &Tried : T.measured())
    for (const KernelShare &S : Tried.Decision.Shares)
      EXPECT_EQ(S.WorkersPerSm, 0u) << Tried.Decision.Reason;
  ASSERT_EQ(T.decision().Kind, CoRunKind::Partition);
  EXPECT_EQ(T.decision().Shares[0].NumSms, 32u);
}

TEST(CoRunTrials, SettlesOnAPartitionMeasuredToBeatSharing) {
  Pair P;
  CoRunTrials T(P.kernels(), {2, 2}, sharing(), options());
  // Kernel a runs best on 48 SMs, b on the rest, both with 2 workers;
  // sharing costs both kernels 1.5x.
  auto Time = [&](const CoRunDecision &D) -> std::vector<double> {
    if (D.Kind == CoRunKind::Shared)
      return {1.5e-3, 3e-3};
    double Off = std::fabs(double(D.Shares[0].NumSms) - 48) / 16;
    double Workers = D.Shares[0].WorkersPerSm == 0 ? 1 : 1.2; // 0: 2, the most
    return {1.1e-3 * (1 + 0.2 * Off) * Workers, 2.2e-3 * (1 + 0.2 * Off)};
  };
  unsigned Trials = runToEnd(T, Time);
  ASSERT_TRUE(T.settled());
  EXPECT_LE(Trials, 16u);
  ASSERT_EQ(T.decision().Kind, CoRunKind::Partition) << T.decision().Reason;
  EXPECT_EQ(T.decision().Shares[0].NumSms, 48u) << T.decision().Reason;
  EXPECT_EQ(T.decision().Shares[0].WorkersPerSm, 0u); // 2: the most
  EXPECT_NE(T.decision().Reason.find("settled on the partition"),
            std::string::npos);
  // No sample counts once settled.
  EXPECT_FALSE(T.record(T.trial(), 0, 1e-3));
}

TEST(CoRunTrials, SettlesOnSharingUnlessAPartitionBeatsItByTheMargin) {
  Pair P;
  CoRunTrials T(P.kernels(), {2, 2}, split(64), options());
  // Every partition is 1% better than sharing: within the margin.
  auto Time = [&](const CoRunDecision &D) -> std::vector<double> {
    double Factor = D.Kind == CoRunKind::Shared ? 1.0 : 1 / 1.01;
    return {1.5e-3 * Factor, 3e-3 * Factor};
  };
  runToEnd(T, Time);
  ASSERT_TRUE(T.settled());
  EXPECT_EQ(T.decision().Kind, CoRunKind::Shared);
  EXPECT_NE(T.decision().Reason.find("settled on sharing"), std::string::npos);
  // The model's partition was measured, then sharing.
  ASSERT_GE(T.measured().size(), 2u);
  EXPECT_EQ(T.measured()[0].Decision.Kind, CoRunKind::Partition);
  EXPECT_EQ(T.measured()[1].Decision.Kind, CoRunKind::Shared);
}

TEST(CoRunTrials, StopsAfterMaxTrials) {
  Pair P;
  CoRunTrials T(P.kernels(), {8, 8}, sharing(), options(/*MaxTrials=*/4));
  // Every partition slightly better than the last: the climb never ends by
  // itself within four trials.
  unsigned Calls = 0;
  auto Time = [&](const CoRunDecision &) -> std::vector<double> {
    double Factor = 1.0 / (1 + 0.05 * Calls++);
    return {1e-3 * Factor, 2e-3 * Factor};
  };
  EXPECT_EQ(runToEnd(T, Time), 4u);
  EXPECT_TRUE(T.settled());
}

TEST(CoRunTrials, IgnoresBadSamples) {
  Pair P;
  CoRunTrials T(P.kernels(), {1, 1}, sharing(), options());
  unsigned Trial = T.trial();
  EXPECT_FALSE(T.record(Trial, 2, 1e-3));
  EXPECT_FALSE(T.record(Trial, 0, 0));
  EXPECT_FALSE(T.record(Trial, 0, -1));
  EXPECT_FALSE(T.record(Trial, 0, std::nan("")));
  EXPECT_FALSE(T.record(Trial + 1, 0, 1e-3));
  EXPECT_TRUE(T.measured().empty());
  EXPECT_EQ(T.trial(), Trial);
}
