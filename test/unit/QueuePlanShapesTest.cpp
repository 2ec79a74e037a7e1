//===- QueuePlanShapesTest.cpp - Tests of launch plans of many shapes -----===//
//
// SM-centric plans of many device, grid and SM-set shapes hold every chunk
// exactly once, in the right queue, with queue strides that agree with the
// table; batched claims take an eighth of a worker's chunks.
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"
#include "QueuePlanChecks.h"
#include "plan/QueuePlan.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace smc;
using namespace smc::test;

// The device reads a queue with a stride arithmetically (first, first + k,
// ...) instead of from the table: both descriptions must agree, and
// BusyQueues must count the non-empty queues.
static void expectStrideMatchesTable(const QueuePlan &Plan) {
  uint32_t Busy = 0;
  for (uint32_t Q = 0; Q < Plan.NumSlots; ++Q) {
    uint32_t Begin = Plan.QueueStart[Q], End = Plan.QueueStart[Q + 1];
    Busy += End > Begin;
    if (Plan.QueueStride == 0 || End == Begin)
      continue;
    for (uint32_t Pos = 0; Pos < End - Begin; ++Pos)
      ASSERT_EQ(Plan.QueueChunks[Begin + Pos],
                Plan.QueueChunks[Begin] + Pos * Plan.QueueStride)
          << "queue " << Q << " position " << Pos;
  }
  EXPECT_EQ(Plan.BusyQueues, Busy);
}

TEST(QueuePlan, ManyShapesHoldEveryChunkOnceInTheRightQueue) {
  for (unsigned NumSMs : {1u, 3u, 13u, 132u}) {
    for (uint32_t N : {1u, 2u, 12u, 131u, 132u, 133u, 1000u}) {
      std::vector<std::vector<unsigned>> Sets = {{}, {0}};
      if (NumSMs > 2)
        Sets.push_back({NumSMs - 1, 1, NumSMs - 1});
      for (const auto &Sms : Sets) {
        std::vector<uint32_t> Set;
        for (unsigned Sm : Sms)
          if (std::find(Set.begin(), Set.end(), Sm) == Set.end())
            Set.push_back(Sm);
        if (Set.empty())
          for (unsigned Sm = 0; Sm < NumSMs; ++Sm)
            Set.push_back(Sm);
        SCOPED_TRACE("numSMs=" + std::to_string(NumSMs) +
                     " n=" + std::to_string(N) +
                     " |set|=" + std::to_string(Set.size()));

        QueuePlan Contiguous =
            planOk(Policy::smCentric(0, Sms, ChunkOrder::Contiguous),
                   bothVariants(), device(NumSMs), grid(N));
        std::vector<uint32_t> Owner = ownerOfChunks(Contiguous);
        // Set order of owners is non-decreasing over the chunks, and queue
        // sizes over the set differ by at most one.
        size_t LastIndex = 0;
        for (uint32_t C = 0; C < N; ++C) {
          size_t Index =
              std::find(Set.begin(), Set.end(), Owner[C]) - Set.begin();
          ASSERT_LT(Index, Set.size());
          EXPECT_GE(Index, LastIndex);
          LastIndex = Index;
        }
        uint32_t Lo = UINT32_MAX, Hi = 0;
        for (uint32_t Sm : Set) {
          uint32_t Size =
              Contiguous.QueueStart[Sm + 1] - Contiguous.QueueStart[Sm];
          Lo = std::min(Lo, Size);
          Hi = std::max(Hi, Size);
        }
        EXPECT_LE(Hi - Lo, 1u);
        EXPECT_EQ(Contiguous.QueueStride, 1u);
        expectStrideMatchesTable(Contiguous);

        // The set named (also when it is every SM): a grid of one wave on
        // every SM would run the original (QueuePlanWavesTest.cpp).
        QueuePlan Interleaved =
            planOk(Policy::smCentric(0, Set, ChunkOrder::Interleaved),
                   bothVariants(), device(NumSMs), grid(N));
        Owner = ownerOfChunks(Interleaved);
        for (uint32_t C = 0; C < N; ++C)
          EXPECT_EQ(Owner[C], Set[C % Set.size()]);
        EXPECT_EQ(Interleaved.QueueStride, Set.size());
        expectStrideMatchesTable(Interleaved);

        Policy Table = Policy::smCentric(0, Sms, ChunkOrder::Table);
        for (uint32_t C = 0; C < N; ++C)
          Table.chunkToSM.push_back(Set[(C * 7 + C / 3) % Set.size()]);
        QueuePlan Tabled =
            planOk(Table, bothVariants(), device(NumSMs), grid(N));
        Owner = ownerOfChunks(Tabled);
        for (uint32_t C = 0; C < N; ++C)
          EXPECT_EQ(Owner[C], Table.chunkToSM[C]);
      }
    }
  }
}

// Batched claims: an eighth of each worker's chunks, between 1 and 16.
TEST(QueuePlan, ClaimBatchIsAnEighthOfAWorkersChunks) {
  EXPECT_EQ(claimBatch(0, 132, 8), 1u);
  EXPECT_EQ(claimBatch(132 * 8 * 15, 132, 8), 1u);   // 15 chunks per worker
  EXPECT_EQ(claimBatch(132 * 8 * 16, 132, 8), 2u);   // 16
  EXPECT_EQ(claimBatch(132 * 8 * 100, 132, 8), 12u); // 100
  EXPECT_EQ(claimBatch(132 * 8 * 129, 132, 8), MaxClaimBatch);
  EXPECT_EQ(claimBatch(1u << 27, 1, 1), MaxClaimBatch);
  EXPECT_EQ(claimBatch(1000, 0, 0), MaxClaimBatch); // no division by zero
}

// Batched claims in loop mode, for every queue order (a table's or a
// cluster plan's threads step through table positions); one-chunk and
// ordered plans claim one chunk at a time.
TEST(QueuePlan, ClaimBatchForLoopQueuesOfEveryOrder) {
  GridSize Big = grid(4 * 8 * 64); // 4 SMs x 4 workers: 128 chunks each
  QueuePlan Inter = planOk(Policy::smCentric(), bothVariants(), device(4), Big);
  EXPECT_EQ(Inter.ClaimBatch, 16u);
  QueuePlan Contig = planOk(Policy::smCentric(2, {}, ChunkOrder::Contiguous),
                            bothVariants(), device(4), Big);
  EXPECT_EQ(Contig.ClaimBatch, 16u);

  Policy Table = Policy::smCentric(0, {}, ChunkOrder::Table);
  Table.chunkToSM.assign(Big.X, 1);
  QueuePlan TablePlan = planOk(Table, bothVariants(), device(4), Big);
  EXPECT_EQ(TablePlan.QueueStride, 0u);
  EXPECT_EQ(TablePlan.ClaimBatch, 16u);
  QueuePlan Clusters = planOk(Policy::clusteredTiles(2, 2), bothVariants(),
                              device(4), grid(64, 32));
  EXPECT_EQ(Clusters.QueueStride, 0u);
  EXPECT_GT(Clusters.ClaimBatch, 1u);
  KernelFacts OneChunk = bothVariants();
  OneChunk.OneChunk = true;
  EXPECT_EQ(planOk(Policy::smCentric(), OneChunk, device(4), Big).ClaimBatch,
            1u);
  KernelFacts Ordered = bothVariants();
  Ordered.Ordered = true;
  EXPECT_EQ(planOk(Policy::smCentric(), Ordered, device(4), Big).ClaimBatch,
            1u);
}
