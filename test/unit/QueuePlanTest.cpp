//===- QueuePlanTest.cpp - Tests of launch plans --------------------------===//
//
// SM-centric plans hold every chunk exactly once, in the queue the chunk
// order says and in increasing order; targets, SM sets and worker counts
// follow the policy and the device; bad policies are refused with a reason;
// one-chunk and ordered plans are what the policy and the info record say.
// Many shapes and claim batches: QueuePlanShapesTest.cpp; slice plans:
// QueuePlanSliceTest.cpp.
//===----------------------------------------------------------------------===//
#include "plan/QueuePlan.h"
#include "PlanTestSupport.h"
#include "QueuePlanChecks.h"

#include <gtest/gtest.h>

using namespace smc;
using namespace smc::test;

TEST(QueuePlan, OriginalPolicyPlansNothing) {
  QueuePlan Plan =
      planOk(Policy::original(), KernelFacts(), device(4), grid(10));
  EXPECT_EQ(Plan.Variant, Variant::Original);
  EXPECT_TRUE(Plan.QueueChunks.empty());
}

TEST(QueuePlan, ContiguousAllSMs) {
  QueuePlan Plan = planOk(Policy::smCentric(0, {}, ChunkOrder::Contiguous),
                          bothVariants(), device(4), grid(10));
  EXPECT_EQ(Plan.Variant, Variant::SMCentric);
  EXPECT_EQ(Plan.Mode, SMC_MODE_LOOP);
  EXPECT_EQ(Plan.NumChunks, 10u);
  EXPECT_EQ(Plan.NumSlots, 4u);
  EXPECT_EQ(Plan.Target, 4u); // the original's occupancy
  // No more than the chunks, but the target on every SM (4 x 4).
  EXPECT_EQ(Plan.Workers, 4u * 4);
  // Sizes 3,3,2,2 in SM order, each range contiguous.
  EXPECT_EQ(Plan.QueueStart, (std::vector<uint32_t>{0, 3, 6, 8, 10}));
  std::vector<uint32_t> Owner = ownerOfChunks(Plan);
  EXPECT_EQ(Owner, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 2, 2, 3, 3}));
  expectTargets(Plan, {0, 1, 2, 3}, 4);
}

TEST(QueuePlan, ContiguousFollowsSetOrder) {
  QueuePlan Plan = planOk(Policy::smCentric(2, {3, 1}, ChunkOrder::Contiguous),
                          bothVariants(), device(4), grid(7));
  std::vector<uint32_t> Owner = ownerOfChunks(Plan);
  // SM 3 is first in the set: it gets the first range.
  EXPECT_EQ(Owner, (std::vector<uint32_t>{3, 3, 3, 3, 1, 1, 1}));
  EXPECT_EQ(Plan.QueueStart[1], Plan.QueueStart[0]); // SM 0 empty
  EXPECT_EQ(Plan.QueueStart[3], Plan.QueueStart[2]); // SM 2 empty
  expectTargets(Plan, {3, 1}, 2);
  EXPECT_EQ(Plan.Workers, 8u * 4); // every SM filled; outsiders retreat
}

TEST(QueuePlan, DuplicateSMsRemoved) {
  QueuePlan Plan =
      planOk(Policy::smCentric(1, {2, 2, 0, 2}, ChunkOrder::Contiguous),
             bothVariants(), device(4), grid(6));
  std::vector<uint32_t> Owner = ownerOfChunks(Plan);
  EXPECT_EQ(Owner, (std::vector<uint32_t>{2, 2, 2, 0, 0, 0}));
  expectTargets(Plan, {0, 2}, 1);
}

TEST(QueuePlan, FewerChunksThanSMs) {
  // Every SM named: one wave on every SM would run the original.
  QueuePlan Plan = planOk(Policy::smCentric(0, {0, 1, 2, 3, 4, 5, 6, 7}),
                          bothVariants(), device(8), grid(3));
  EXPECT_EQ(ownerOfChunks(Plan), (std::vector<uint32_t>{0, 1, 2}));
}

TEST(QueuePlan, Interleaved) {
  Policy P = Policy::smCentric(0, {5, 0, 2}, ChunkOrder::Interleaved);
  QueuePlan Plan = planOk(P, bothVariants(), device(6), grid(4, 2));
  EXPECT_EQ(Plan.NumChunks, 8u);
  std::vector<uint32_t> Owner = ownerOfChunks(Plan);
  std::vector<uint32_t> Set = {5, 0, 2};
  for (uint32_t C = 0; C < 8; ++C)
    EXPECT_EQ(Owner[C], Set[C % 3]) << "chunk " << C;
  expectTargets(Plan, Set, 4);
}

TEST(QueuePlan, Table) {
  Policy P = Policy::smCentric(0, {1, 3}, ChunkOrder::Table);
  P.chunkToSM = {3, 1, 1, 3, 3, 1};
  QueuePlan Plan = planOk(P, bothVariants(), device(4), grid(3, 2));
  EXPECT_EQ(ownerOfChunks(Plan), (std::vector<uint32_t>{3, 1, 1, 3, 3, 1}));
  EXPECT_EQ(Plan.QueueChunks, (std::vector<uint32_t>{1, 2, 5, 0, 3, 4}));

  // Without an SM set every SM may appear.
  Policy All = Policy::smCentric(0, {}, ChunkOrder::Table);
  All.chunkToSM = {0, 3, 2};
  QueuePlan PlanAll = planOk(All, bothVariants(), device(4), grid(3));
  EXPECT_EQ(ownerOfChunks(PlanAll), (std::vector<uint32_t>{0, 3, 2}));
}

TEST(QueuePlan, TableOfWrongSizeRejected) {
  Policy P = Policy::smCentric(0, {}, ChunkOrder::Table);
  P.chunkToSM = {0, 1, 2};
  std::string Reason = planError(P, bothVariants(), device(4), grid(4));
  EXPECT_NE(Reason.find("3 entries"), std::string::npos) << Reason;
  EXPECT_NE(Reason.find("4 chunks"), std::string::npos) << Reason;
  P.chunkToSM = {0, 1, 2, 3, 0};
  Reason = planError(P, bothVariants(), device(4), grid(4));
  EXPECT_NE(Reason.find("5 entries"), std::string::npos) << Reason;
}

TEST(QueuePlan, TableOutsideSetRejected) {
  Policy P = Policy::smCentric(0, {0, 1}, ChunkOrder::Table);
  P.chunkToSM = {0, 1, 2, 1};
  std::string Reason = planError(P, bothVariants(), device(4), grid(4));
  EXPECT_NE(Reason.find("chunk 2 on SM 2"), std::string::npos) << Reason;

  Policy Q = Policy::smCentric(0, {}, ChunkOrder::Table);
  Q.chunkToSM = {0, 9};
  Reason = planError(Q, bothVariants(), device(4), grid(2));
  EXPECT_NE(Reason.find("SM 9"), std::string::npos) << Reason;
}

TEST(QueuePlan, SmOutOfRangeRejected) {
  std::string Reason = planError(Policy::smCentric(0, {0, 4}), bothVariants(),
                                 device(4), grid(10));
  EXPECT_NE(Reason.find("SM 4"), std::string::npos) << Reason;
  EXPECT_NE(Reason.find("4 SMs"), std::string::npos) << Reason;
}

TEST(QueuePlan, WorkersTarget) {
  QueuePlan Plan =
      planOk(Policy::smCentric(8), bothVariants(), device(4, 8, 2), grid(9));
  EXPECT_EQ(Plan.Target, 8u);
  EXPECT_EQ(Plan.Workers, 32u);
  Plan = planOk(Policy::smCentric(1), bothVariants(), device(4, 8, 2), grid(9));
  EXPECT_EQ(Plan.Target, 1u);
  EXPECT_EQ(Plan.Workers, 9u); // no more than the chunks
}

TEST(QueuePlan, WorkersTooLargeRejected) {
  std::string Reason =
      planError(Policy::smCentric(9), bothVariants(), device(4, 8, 2), grid(9));
  EXPECT_NE(Reason.find("workers=9"), std::string::npos) << Reason;
  EXPECT_NE(Reason.find("8"), std::string::npos) << Reason;
}

TEST(QueuePlan, DefaultTargetIsOccupancyCappedByFit) {
  EXPECT_EQ(
      planOk(Policy::smCentric(), bothVariants(), device(4, 8, 3), grid(99))
          .Target,
      3u);
  EXPECT_EQ(
      planOk(Policy::smCentric(), bothVariants(), device(4, 5, 16), grid(99))
          .Target,
      5u);
}

TEST(QueuePlan, NothingFitsRejected) {
  planError(Policy::smCentric(), bothVariants(), device(4, 0, 4), grid(9));
  planError(Policy::smCentric(1), bothVariants(), device(4, 0, 4), grid(9));
  planError(Policy::smCentric(), bothVariants(), device(4, 8, 0), grid(9));
}

TEST(QueuePlan, MissingVariantNamesRefusal) {
  KernelFacts K;
  K.HasSlice = true;
  K.SmcRefusal = SMC_REFUSAL_GRID_SYNC;
  std::string Reason = planError(Policy::smCentric(), K, device(4), grid(9));
  EXPECT_NE(Reason.find(smcRefusalText(SMC_REFUSAL_GRID_SYNC)),
            std::string::npos)
      << Reason;

  KernelFacts S;
  S.HasSmc = true;
  S.SliceRefusal = SMC_REFUSAL_GRID_BARRIER;
  Reason = planError(Policy::slice(4), S, device(4), grid(9));
  EXPECT_NE(Reason.find(smcRefusalText(SMC_REFUSAL_GRID_BARRIER)),
            std::string::npos)
      << Reason;
}

TEST(QueuePlan, OneChunkLaunchesOneWorkerPerChunk) {
  KernelFacts K = bothVariants();
  K.OneChunk = true;
  // Every SM named: in the interleaved order on no named set it would run
  // the original (QueuePlanWavesTest.cpp).
  QueuePlan Plan =
      planOk(Policy::smCentric(0, {0, 1, 2, 3}), K, device(4), grid(5, 3, 2));
  EXPECT_EQ(Plan.Mode, SMC_MODE_ONE_CHUNK);
  EXPECT_EQ(Plan.NumChunks, 30u);
  EXPECT_EQ(Plan.Workers, 30u);
  // The named set is noted as not honoured (OneChunkNotesWhatItCannot-
  // Honour).
  EXPECT_NE(Plan.Note.find("sms="), std::string::npos) << Plan.Note;
  ownerOfChunks(Plan);
}

TEST(QueuePlan, OneChunkNotesWhatItCannotHonour) {
  KernelFacts K = bothVariants();
  K.OneChunk = true;
  // Even more workers than fit is not an error: workers= is not honoured.
  QueuePlan Plan =
      planOk(Policy::smCentric(16, {2, 3}), K, device(4, 8, 4), grid(10));
  EXPECT_EQ(Plan.Workers, 10u);
  EXPECT_FALSE(Plan.Note.empty());
  // The queues still follow the SM set.
  std::vector<uint32_t> Owner = ownerOfChunks(Plan);
  for (uint32_t C = 0; C < 10; ++C)
    EXPECT_TRUE(Owner[C] == 2 || Owner[C] == 3) << "chunk " << C;
}

// Ordered mode: one grid-wide sequence in blockIdx order (queue 0, stride
// 1, no table), every other queue empty; the SM set and the per-SM target
// still hold (filling-retreating), the chunk order does not.
TEST(QueuePlan, OrderedUsesOneSequenceInBlockIdxOrder) {
  KernelFacts K = bothVariants();
  K.Ordered = true;
  Policy Policy = Policy::smCentric(2, {1, 3}, ChunkOrder::Contiguous);
  QueuePlan Plan = planOk(Policy, K, device(4, 8, 4), grid(6, 5));
  EXPECT_TRUE(Plan.Ordered);
  EXPECT_EQ(Plan.Mode, SMC_MODE_LOOP);
  EXPECT_EQ(Plan.QueueStride, 1u);
  EXPECT_EQ(Plan.BusyQueues, 1u);
  ASSERT_EQ(Plan.QueueStart.size(), 5u);
  EXPECT_EQ(Plan.QueueStart[0], 0u);
  for (unsigned S = 1; S <= 4; ++S)
    EXPECT_EQ(Plan.QueueStart[S], 30u) << "queue " << S << " must be empty";
  ASSERT_EQ(Plan.QueueChunks.size(), 1u);
  EXPECT_EQ(Plan.QueueChunks[0], 0u); // first chunk; the rest by stride
  EXPECT_EQ(Plan.SlotTarget, (std::vector<uint32_t>{0, 2, 0, 2}));
  EXPECT_EQ(Plan.Workers, 32u); // 8 fit on each of 4 SMs
  EXPECT_NE(Plan.Note.find("ordered mode"), std::string::npos) << Plan.Note;
}

TEST(QueuePlan, OrderedIgnoresAChunkTable) {
  KernelFacts K = bothVariants();
  K.Ordered = true;
  Policy Policy = Policy::smCentric(0, {}, ChunkOrder::Table);
  Policy.chunkToSM = {3}; // wrong size: would be refused without ordering
  QueuePlan Plan = planOk(Policy, K, device(4), grid(9));
  EXPECT_TRUE(Plan.Ordered);
  EXPECT_EQ(Plan.QueueStart[1], 9u);
  EXPECT_FALSE(Plan.Note.empty());
}

TEST(QueuePlan, OrderedDefaultPolicyNotesNothing) {
  KernelFacts K = bothVariants();
  K.Ordered = true;
  QueuePlan Plan = planOk(Policy::smCentric(), K, device(4), grid(100));
  EXPECT_TRUE(Plan.Ordered);
  EXPECT_TRUE(Plan.Note.empty()) << Plan.Note;
}

TEST(QueuePlan, OrderedOneChunk) {
  KernelFacts K = bothVariants();
  K.Ordered = true;
  K.OneChunk = true;
  QueuePlan Plan = planOk(Policy::smCentric(1, {0}), K, device(4), grid(12));
  EXPECT_EQ(Plan.Mode, SMC_MODE_ONE_CHUNK);
  EXPECT_TRUE(Plan.Ordered);
  EXPECT_EQ(Plan.Workers, 12u);
  EXPECT_EQ(Plan.BusyQueues, 1u);
  // What is not honoured is said, but not the per-SM queue story.
  EXPECT_NE(Plan.Note.find("one-chunk"), std::string::npos);
  EXPECT_EQ(Plan.Note.find("steal"), std::string::npos) << Plan.Note;
}

TEST(QueuePlan, OrderedFlagComesFromTheInfoRecord) {
  SmcKernelInfo Info{};
  Info.flags = SMC_INFO_HAS_SMC | SMC_INFO_ORDERED;
  EXPECT_TRUE(KernelFacts::fromInfo(Info).Ordered);
  Info.flags = SMC_INFO_HAS_SMC;
  EXPECT_FALSE(KernelFacts::fromInfo(Info).Ordered);
}

TEST(QueuePlan, LocalityComesFromTheInfoRecord) {
  SmcKernelInfo Info{};
  Info.locality = SMC_LOCALITY_TILE;
  EXPECT_EQ(KernelFacts::fromInfo(Info).Locality, SMC_LOCALITY_TILE);
  EXPECT_STREQ(smcLocalityText(KernelFacts::fromInfo(Info).Locality), "tile");
  // A value this runtime does not know reads as unknown.
  Info.locality = SMC_LOCALITY_COUNT + 3;
  EXPECT_EQ(KernelFacts::fromInfo(Info).Locality, SMC_LOCALITY_UNKNOWN);
}

TEST(QueuePlan, MultiDimensionalGrid) {
  QueuePlan Plan =
      planOk(Policy::smCentric(), bothVariants(), device(7), grid(3, 4, 5));
  EXPECT_EQ(Plan.NumChunks, 60u);
  EXPECT_EQ(Plan.Grid.X, 3u);
  EXPECT_EQ(Plan.Grid.Y, 4u);
  EXPECT_EQ(Plan.Grid.Z, 5u);
  ownerOfChunks(Plan);
}

TEST(QueuePlan, BadGridsRejected) {
  planError(Policy::smCentric(), bothVariants(), device(4), grid(0));
  planError(Policy::slice(2), bothVariants(), device(4), grid(4, 0));
  planError(Policy::smCentric(), bothVariants(), device(4),
            grid(65536, 65536, 2));
  planError(Policy::smCentric(), bothVariants(), device(4),
            grid(MaxQueuedChunks + 1));
}
