//===- QueuePlanWavesTest.cpp - Small grids: one wave and worker counts ---===//
//
// A grid of one wave whose policy leaves placement to the hardware runs the
// original (originalSuffices, with its reason); a policy that asks for
// placement (sms=, a chunk order, workers= below the grid) keeps the variant.
// On every SM a loop-mode launch starts no more workers than its chunks, and
// never fewer than its target per SM; confined launches fill every SM.
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"
#include "QueuePlanChecks.h"
#include "plan/QueuePlan.h"

#include <gtest/gtest.h>

using namespace smc;
using namespace smc::test;

namespace {

// A device of 4 SMs, 8 variant workers fit per SM, occupancy 4: one wave
// is 16 CTAs.
QueuePlan plan(const Policy &P, uint32_t Chunks) {
  return planOk(P, bothVariants(), device(4), grid(Chunks));
}

} // namespace

TEST(QueuePlanWaves, OneCtaRunsTheOriginal) {
  QueuePlan Plan = plan(Policy::smCentric(), 1);
  EXPECT_EQ(Plan.Variant, Variant::Original);
  EXPECT_EQ(Plan.OriginalReason.rfind("one wave: its 1 CTA runs", 0), 0u)
      << Plan.OriginalReason;
  EXPECT_TRUE(Plan.QueueChunks.empty());
  EXPECT_TRUE(Plan.Note.empty()); // a decision: nobody is warned
}

TEST(QueuePlanWaves, DefaultTargetOneWaveOnEverySm) {
  // 4 SMs x occupancy 4: up to 16 CTAs are one wave.
  EXPECT_EQ(plan(Policy::smCentric(), 16).Variant, Variant::Original);
  QueuePlan Next = plan(Policy::smCentric(), 17);
  EXPECT_EQ(Next.Variant, Variant::SMCentric);
  EXPECT_TRUE(Next.OriginalReason.empty());
  EXPECT_EQ(ownerOfChunks(Next).size(), 17u);
}

TEST(QueuePlanWaves, ExplicitWorkersOnlyWithinTheTarget) {
  // workers=2: the hardware may put more than two CTAs of a 3-CTA grid on
  // one SM; two CTAs cannot be more than two anywhere.
  EXPECT_EQ(plan(Policy::smCentric(2), 2).Variant, Variant::Original);
  EXPECT_EQ(plan(Policy::smCentric(2), 3).Variant, Variant::SMCentric);
  // workers equal to the occupancy is still a target the user asked for.
  EXPECT_EQ(plan(Policy::smCentric(4), 16).Variant, Variant::SMCentric);
}

TEST(QueuePlanWaves, PlacementKeepsTheVariant) {
  EXPECT_EQ(plan(Policy::smCentric(0, {1}), 1).Variant, Variant::SMCentric);
  EXPECT_EQ(plan(Policy::smCentric(0, {0, 1, 2, 3}), 1).Variant,
            Variant::SMCentric);
  EXPECT_EQ(plan(Policy::smCentric(0, {}, ChunkOrder::Contiguous), 1).Variant,
            Variant::SMCentric);
  EXPECT_EQ(plan(Policy::clustered(ClusterDir::X), 4).Variant,
            Variant::SMCentric);
}

// One chunk per worker honours neither workers= nor sms=: in the
// interleaved order each CTA runs where the hardware puts it, on any grid.
TEST(QueuePlanWaves, OneChunkPerWorkerRunsTheOriginal) {
  KernelFacts OneChunk = bothVariants();
  OneChunk.OneChunk = true;
  for (uint32_t Chunks : {3u, 40u, 100000u})
    for (const Policy &P : {Policy::smCentric(), Policy::smCentric(2)}) {
      QueuePlan Plan = planOk(P, OneChunk, device(4), grid(Chunks));
      EXPECT_EQ(Plan.Variant, Variant::Original);
      EXPECT_EQ(Plan.OriginalReason.rfind("one chunk per worker: ", 0), 0u)
          << Plan.OriginalReason;
    }
  // A chunk order or a named SM set keeps the variant, a worker per chunk.
  QueuePlan Clustered =
      planOk(Policy::clustered(ClusterDir::X), OneChunk, device(4), grid(40));
  EXPECT_EQ(Clustered.Variant, Variant::SMCentric);
  EXPECT_EQ(Clustered.Workers, 40u);
  QueuePlan Named =
      planOk(Policy::smCentric(0, {0, 1, 2, 3}), OneChunk, device(4), grid(40));
  EXPECT_EQ(Named.Variant, Variant::SMCentric);
  EXPECT_EQ(Named.Workers, 40u);
}

TEST(QueuePlanWaves, OrderedKernelsToo) {
  KernelFacts Ordered = bothVariants();
  Ordered.Ordered = true;
  EXPECT_EQ(planOk(Policy::smCentric(), Ordered, device(4), grid(5)).Variant,
            Variant::Original);
}

TEST(QueuePlanWaves, WorkersNoMoreThanChunksOnEverySm) {
  // Target 4 on 4 SMs: at least 16 workers, at most the 8 x 4 that fit.
  EXPECT_EQ(plan(Policy::smCentric(), 17).Workers, 17u);
  EXPECT_EQ(plan(Policy::smCentric(), 31).Workers, 31u);
  EXPECT_EQ(plan(Policy::smCentric(), 1000).Workers, 32u);
  // workers=1: at least one per SM.
  EXPECT_EQ(plan(Policy::smCentric(1), 2).Workers, 4u);
  EXPECT_EQ(plan(Policy::smCentric(1), 9).Workers, 9u);
  // Every SM named: the same rule (it may use every SM).
  EXPECT_EQ(plan(Policy::smCentric(1, {0, 1, 2, 3}), 2).Workers, 4u);
  for (QueuePlan P :
       {plan(Policy::smCentric(), 17), plan(Policy::smCentric(1), 2)}) {
    EXPECT_EQ(P.FitPerSM, 8u);
    EXPECT_EQ(ownerOfChunks(P).size(), P.NumChunks);
  }
}

TEST(QueuePlanWaves, ConfinedLaunchesFillEverySm) {
  // Workers outside the set retreat: the grid must reach the set's SMs
  // wherever the hardware starts them (ConfinedLaunches.h sizes it).
  QueuePlan Plan = plan(Policy::smCentric(1, {2}), 2);
  EXPECT_EQ(Plan.Variant, Variant::SMCentric);
  EXPECT_EQ(Plan.Workers, 8u * 4);
  EXPECT_EQ(Plan.FitPerSM, 8u);
}
