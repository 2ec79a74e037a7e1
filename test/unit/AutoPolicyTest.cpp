//===- AutoPolicyTest.cpp - Tests of what a launch of policy auto runs ----===//
//
// Profile names carry the launch shape; recording walks the SM ladder and
// fills every point over repeated runs; a launch alone, or next to kernels
// that share best, runs the original; a predicted partition confines the
// launch to its share, the same share whichever launch of the co-run comes
// first; a launch queued behind its own stream's work is never confined.
//===----------------------------------------------------------------------===//
#include "corun/AutoPolicy.h"

#include <gtest/gtest.h>

using namespace smc;

namespace {

constexpr unsigned H100Sms = 132;

// Scales perfectly up to Sat SMs, not at all beyond.
KernelProfile saturating(const std::string &Name, unsigned Sat, double Alone) {
  KernelProfile P(Name, "H100", H100Sms);
  for (auto [Sms, Seconds] :
       std::vector<std::pair<unsigned, double>>{{Sat / 4, Alone * 4},
                                                {Sat / 2, Alone * 2},
                                                {Sat, Alone},
                                                {H100Sms, Alone}})
    EXPECT_TRUE(P.addSample({Sms, 0, Seconds}));
  return P;
}

// Time Alone on all SMs, Alone * 132 / s on s.
KernelProfile perfect(const std::string &Name, double Alone) {
  KernelProfile P(Name, "H100", H100Sms);
  for (unsigned Sms : {33u, 66u, 132u})
    EXPECT_TRUE(P.addSample({Sms, 0, Alone * H100Sms / Sms}));
  return P;
}

CoRunKernel kernel(const KernelProfile &P) {
  CoRunKernel K;
  K.Name = P.name();
  K.Profile = &P;
  return K;
}

CoRunDecision decideFor(std::vector<CoRunKernel> Kernels) {
  CoRunOptions O;
  O.NumSms = H100Sms;
  return decide(decisionOrder(std::move(Kernels)), O);
}

} // namespace

TEST(AutoPolicy, ProfileNameCarriesTheShape) {
  const unsigned Grid[3] = {4096, 2, 1}, Block[3] = {256, 1, 1};
  EXPECT_EQ(profileName("ns::scale<float>", Grid, Block),
            "ns::scale<float> grid=4096x2x1 block=256x1x1");
}

TEST(AutoPolicy, RecordLadder) {
  EXPECT_EQ(recordLadder(132), (std::vector<unsigned>{132, 99, 66, 33, 16}));
  EXPECT_EQ(recordLadder(8), (std::vector<unsigned>{8, 6, 4, 2, 1}));
  EXPECT_EQ(recordLadder(2), (std::vector<unsigned>{2, 1}));
  EXPECT_EQ(recordLadder(1), (std::vector<unsigned>{1}));
}

TEST(AutoPolicy, RecordingFillsEveryPointOverRuns) {
  // Each run adds its launches to the profile; the next run goes on where
  // the last one stopped.
  KernelProfile P("k", "H100", H100Sms);
  EXPECT_EQ(launchesRecorded(nullptr), 0u);
  for (unsigned Launch = 0; Launch < 10; ++Launch) {
    unsigned Sms = nextRecordSms(launchesRecorded(&P), H100Sms);
    EXPECT_EQ(Sms, recordLadder(H100Sms)[Launch % 5]);
    ASSERT_TRUE(P.addSample({Sms, 0, 1e-3 * H100Sms / Sms}));
  }
  EXPECT_EQ(launchesRecorded(&P), 10u);
  EXPECT_EQ(P.points().size(), 5u);
  for (const ScalingPoint &Point : P.points())
    EXPECT_EQ(Point.Samples, 2u);
  EXPECT_EQ(P.smCountsMeasured(), 5u);
}

TEST(AutoPolicy, AloneRunsTheOriginal) {
  KernelProfile A = saturating("a", 32, 1e-3);
  AutoChoice C = chooseAuto({}, kernel(A), false, CoRunDecision(), H100Sms);
  EXPECT_FALSE(C.Confine);
  EXPECT_NE(C.Reason.find("alone"), std::string::npos) << C.Reason;
}

TEST(AutoPolicy, SharingPredictedBestRunsTheOriginal) {
  // Two perfectly scaling kernels: a split cannot beat time-slicing.
  KernelProfile A = perfect("a", 1e-3), B = perfect("b", 1e-3);
  AutoFlight Other{kernel(A), KernelShare()};
  CoRunDecision D = decideFor({kernel(A), kernel(B)});
  ASSERT_EQ(D.Kind, CoRunKind::Shared);
  AutoChoice C = chooseAuto({Other}, kernel(B), false, D, H100Sms);
  EXPECT_FALSE(C.Confine);
  EXPECT_NE(C.Reason.find("sharing: the original"), std::string::npos)
      << C.Reason;
}

TEST(AutoPolicy, PartitionConfinesToTheSameShareWhicheverComesFirst) {
  // One saturates at 32 SMs, the other scales: a split predicts more.
  KernelProfile A = saturating("a", 32, 1e-3), B = perfect("b", 2e-3);
  CoRunDecision D = decideFor({kernel(B), kernel(A)});
  ASSERT_EQ(D.Kind, CoRunKind::Partition) << D.Reason;
  EXPECT_EQ(decideFor({kernel(A), kernel(B)}).Shares, D.Shares);

  // b arrives while a runs as the original: b gets its share.
  AutoChoice ForB =
      chooseAuto({{kernel(A), KernelShare()}}, kernel(B), false, D, H100Sms);
  ASSERT_TRUE(ForB.Confine) << ForB.Reason;
  EXPECT_EQ(ForB.Share, D.Shares[1]); // decision order: a, b

  // a's next launch beside the confined b: a's share, next to b's.
  AutoChoice ForA =
      chooseAuto({{kernel(B), ForB.Share}}, kernel(A), false, D, H100Sms);
  ASSERT_TRUE(ForA.Confine) << ForA.Reason;
  EXPECT_EQ(ForA.Share, D.Shares[0]);
  EXPECT_LE(ForA.Share.FirstSm + ForA.Share.NumSms, ForB.Share.FirstSm);
}

TEST(AutoPolicy, QueuedLaunchIsNeverConfined) {
  KernelProfile A = saturating("a", 32, 1e-3), B = perfect("b", 2e-3);
  CoRunDecision D = decideFor({kernel(A), kernel(B)});
  ASSERT_EQ(D.Kind, CoRunKind::Partition);
  AutoChoice C =
      chooseAuto({{kernel(A), KernelShare()}}, kernel(B), true, D, H100Sms);
  EXPECT_FALSE(C.Confine);
  EXPECT_NE(C.Reason.find("queued"), std::string::npos) << C.Reason;
}

TEST(AutoPolicy, SameKernelOnTwoStreamsTakesTheFreeShare) {
  // a on two streams beside the scaling b: each a gets its own share.
  KernelProfile A = saturating("a", 32, 1e-3), B = perfect("b", 2e-3);
  CoRunDecision D = decideFor({kernel(A), kernel(A), kernel(B)});
  ASSERT_EQ(D.Kind, CoRunKind::Partition) << D.Reason;
  ASSERT_EQ(D.Shares.size(), 3u);
  AutoChoice First =
      chooseAuto({{kernel(A), KernelShare()}, {kernel(B), KernelShare()}},
                 kernel(A), false, D, H100Sms);
  ASSERT_TRUE(First.Confine) << First.Reason;
  AutoChoice Second =
      chooseAuto({{kernel(A), First.Share}, {kernel(B), KernelShare()}},
                 kernel(A), false, D, H100Sms);
  ASSERT_TRUE(Second.Confine) << Second.Reason;
  EXPECT_FALSE(Second.Share == First.Share);
}

TEST(AutoPolicy, CoRunKeyIsOrderFreeAndSeesPriorities) {
  KernelProfile A = perfect("a", 1e-3), B = perfect("b", 1e-3);
  CoRunKernel HighB = kernel(B);
  HighB.Priority = KernelPriority::High;
  EXPECT_EQ(coRunKey({kernel(A), kernel(B)}), coRunKey({kernel(B), kernel(A)}));
  EXPECT_NE(coRunKey({kernel(A), kernel(B)}), coRunKey({kernel(A), HighB}));
}

TEST(AutoPolicy, AMemoMatchesOnlyTheLaunchItWasMadeFor) {
  AutoMemo Memo;
  EXPECT_FALSE(Memo.matches("", KernelPriority::Normal, false, 0));
  Memo.Valid = true;
  Memo.Me = "a grid=1x1x1 block=1x1x1";
  Memo.DecisionsVersion = 2;
  EXPECT_TRUE(Memo.matches(Memo.Me, KernelPriority::Normal, false, 2));
  EXPECT_FALSE(Memo.matches("b", KernelPriority::Normal, false, 2));
  EXPECT_FALSE(Memo.matches(Memo.Me, KernelPriority::High, false, 2));
  EXPECT_FALSE(Memo.matches(Memo.Me, KernelPriority::Normal, true, 2));
  EXPECT_FALSE(Memo.matches(Memo.Me, KernelPriority::Normal, false, 3));
  // Co-runners: the same kernel at the same priority on the same share.
  KernelProfile A = perfect("a", 1e-3), B = perfect("b", 1e-3);
  AutoFlight X{kernel(A), KernelShare{0, 32, 2}};
  AutoFlight Y = X;
  EXPECT_TRUE(sameCoRunner(X, Y));
  Y.Kernel.Profile = nullptr; // the profile is found again when deciding
  EXPECT_TRUE(sameCoRunner(X, Y));
  Y.Share.NumSms = 33;
  EXPECT_FALSE(sameCoRunner(X, Y));
  Y = X;
  Y.Kernel.Priority = KernelPriority::High;
  EXPECT_FALSE(sameCoRunner(X, Y));
  EXPECT_FALSE(sameCoRunner(X, AutoFlight{kernel(B), X.Share}));
}
