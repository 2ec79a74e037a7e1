//===- QueuePlanTest.cpp - Tests of launch plans --------------------------===//
//
// SM-centric plans hold every chunk exactly once, in the queue the chunk
// order says and in increasing order; targets, SM sets and worker counts
// follow the policy and the device; bad policies are refused with a reason;
// slice plans cover the grid exactly once.
//===----------------------------------------------------------------------===//
#include "plan/QueuePlan.h"
#include "PlanTestSupport.h"

#include <gtest/gtest.h>

#include <functional>
#include <tuple>

using namespace smc;
using smc::test::device;
using smc::test::grid;

namespace {

KernelFacts bothVariants() {
  KernelFacts K;
  K.HasSmc = true;
  K.HasSlice = true;
  return K;
}

QueuePlan planOk(const Policy &Policy, const KernelFacts &Kernel,
                 const DeviceFacts &Dev, GridSize G) {
  QueuePlan Plan;
  std::string Reason;
  EXPECT_TRUE(makeQueuePlan(Policy, Kernel, Dev, G, Plan, Reason)) << Reason;
  return Plan;
}

std::string planError(const Policy &Policy, const KernelFacts &Kernel,
                      const DeviceFacts &Dev, GridSize G) {
  QueuePlan Plan;
  std::string Reason;
  EXPECT_FALSE(makeQueuePlan(Policy, Kernel, Dev, G, Plan, Reason));
  EXPECT_FALSE(Reason.empty());
  EXPECT_EQ(Plan.Variant, Variant::Original);
  return Reason;
}

// The SM whose queue holds each chunk; fails the test if a chunk is in no
// queue or in two, or if a queue is not in increasing order.
std::vector<uint32_t> ownerOfChunks(const QueuePlan &Plan) {
  std::vector<uint32_t> Owner(Plan.NumChunks, UINT32_MAX);
  EXPECT_EQ(Plan.QueueStart.size(), Plan.NumSlots + 1u);
  EXPECT_EQ(Plan.QueueChunks.size(), Plan.NumChunks);
  if (Plan.QueueStart.size() != Plan.NumSlots + 1u)
    return Owner;
  EXPECT_EQ(Plan.QueueStart.front(), 0u);
  EXPECT_EQ(Plan.QueueStart.back(), Plan.NumChunks);
  for (uint32_t S = 0; S < Plan.NumSlots; ++S) {
    EXPECT_LE(Plan.QueueStart[S], Plan.QueueStart[S + 1]);
    for (uint32_t I = Plan.QueueStart[S]; I < Plan.QueueStart[S + 1]; ++I) {
      uint32_t C = Plan.QueueChunks.at(I);
      EXPECT_LT(C, Plan.NumChunks);
      if (C >= Plan.NumChunks)
        continue;
      EXPECT_EQ(Owner[C], UINT32_MAX) << "chunk " << C << " queued twice";
      Owner[C] = S;
      if (I > Plan.QueueStart[S])
        EXPECT_LT(Plan.QueueChunks[I - 1], C) << "queue " << S;
    }
  }
  for (uint32_t C = 0; C < Plan.NumChunks; ++C)
    EXPECT_NE(Owner[C], UINT32_MAX) << "chunk " << C << " in no queue";
  return Owner;
}

void expectTargets(const QueuePlan &Plan, const std::vector<uint32_t> &Set,
                   uint32_t Target) {
  ASSERT_EQ(Plan.SlotTarget.size(), Plan.NumSlots);
  for (uint32_t S = 0; S < Plan.NumSlots; ++S) {
    bool InSet = std::find(Set.begin(), Set.end(), S) != Set.end();
    EXPECT_EQ(Plan.SlotTarget[S], InSet ? Target : 0u) << "SM " << S;
  }
}

} // namespace

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
  EXPECT_EQ(Plan.Target, 4u);      // the original's occupancy
  EXPECT_EQ(Plan.Workers, 8u * 4); // what fits per SM, on every SM
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
  QueuePlan Plan =
      planOk(Policy::smCentric(), bothVariants(), device(8), grid(3));
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
  EXPECT_EQ(Plan.Workers, 32u);
}

TEST(QueuePlan, WorkersTooLargeRejected) {
  std::string Reason =
      planError(Policy::smCentric(9), bothVariants(), device(4, 8, 2), grid(9));
  EXPECT_NE(Reason.find("workers=9"), std::string::npos) << Reason;
  EXPECT_NE(Reason.find("8"), std::string::npos) << Reason;
}

TEST(QueuePlan, DefaultTargetIsOccupancyCappedByFit) {
  EXPECT_EQ(
      planOk(Policy::smCentric(), bothVariants(), device(4, 8, 3), grid(9))
          .Target,
      3u);
  EXPECT_EQ(
      planOk(Policy::smCentric(), bothVariants(), device(4, 5, 16), grid(9))
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
  QueuePlan Plan = planOk(Policy::smCentric(), K, device(4), grid(5, 3, 2));
  EXPECT_EQ(Plan.Mode, SMC_MODE_ONE_CHUNK);
  EXPECT_EQ(Plan.NumChunks, 30u);
  EXPECT_EQ(Plan.Workers, 30u);
  EXPECT_TRUE(Plan.Note.empty());
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

        QueuePlan Interleaved =
            planOk(Policy::smCentric(0, Sms, ChunkOrder::Interleaved),
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

TEST(QueuePlan, SlicesCoverTheGridOnce) {
  for (uint32_t N : {1u, 9u, 10u, 64u, 1001u}) {
    for (unsigned Size : {0u, 1u, 3u, 10u, 64u, 5000u}) {
      SCOPED_TRACE("n=" + std::to_string(N) + " size=" + std::to_string(Size));
      QueuePlan Plan =
          planOk(Policy::slice(Size), bothVariants(), device(4), grid(N));
      EXPECT_EQ(Plan.Variant, Variant::Slice);
      uint32_t ExpectedSize = Size == 0 ? N : std::min<uint32_t>(Size, N);
      EXPECT_EQ(Plan.SliceSize, ExpectedSize);
      std::vector<int> Covered(N, 0);
      uint32_t Next = 0;
      for (uint32_t I = 0; I < Plan.numSlices(); ++I) {
        uint32_t Off = Plan.sliceOffset(I), Count = Plan.sliceCount(I);
        EXPECT_EQ(Off, Next);
        EXPECT_GE(Count, 1u);
        EXPECT_LE(Count, ExpectedSize);
        for (uint32_t C = Off; C < Off + Count && C < N; ++C)
          ++Covered[C];
        Next = Off + Count;
      }
      EXPECT_EQ(Next, N);
      for (uint32_t C = 0; C < N; ++C)
        EXPECT_EQ(Covered[C], 1) << "chunk " << C;
    }
  }
  QueuePlan Plan =
      planOk(Policy::slice(3), bothVariants(), device(4), grid(5, 2));
  EXPECT_EQ(Plan.numSlices(), 4u);
  EXPECT_EQ(Plan.sliceCount(3), 1u);
}

// The chunks a slice launch runs, as the variant computes them from its
// launch grid (SliceVariant.cpp): with c = slice_offset + ctaid.x, blockIdx
// (c, ctaid.y + slice_first_y, ctaid.z + slice_first_z) while c is in the
// first row, else c decomposed with the original grid.
std::vector<uint32_t> sliceChunks(const QueuePlan &Plan, uint32_t I) {
  SliceLaunch L = Plan.sliceLaunch(I);
  std::vector<uint32_t> Chunks;
  uint32_t X = Plan.Grid.X, Y = Plan.Grid.Y;
  for (uint32_t Z = 0; Z < L.Z; ++Z)
    for (uint32_t Yi = 0; Yi < L.Y; ++Yi)
      for (uint32_t Xi = 0; Xi < L.X; ++Xi) {
        uint32_t C = L.Offset + Xi;
        uint32_t Bx = C, By = Yi + L.FirstY, Bz = Z + L.FirstZ;
        if (C >= X)
          Bx = C % X, By = C / X % Y, Bz = C / X / Y;
        Chunks.push_back(Bx + By * X + Bz * X * Y);
      }
  return Chunks;
}

TEST(QueuePlan, SlicesOfWholeRowsLaunchAsTheGridsShape) {
  // 2-D, 10 x 8: the whole grid; two rows from row 2; one row (1-D: a
  // row-shaped launch needs gridDim.y above 1); the last slice's two rows.
  QueuePlan Plan =
      planOk(Policy::slice(0), bothVariants(), device(4), grid(10, 8));
  SliceLaunch L = Plan.sliceLaunch(0);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY, L.FirstZ),
            std::make_tuple(10u, 8u, 1u, 0u, 0u));
  Plan = planOk(Policy::slice(20), bothVariants(), device(4), grid(10, 8));
  L = Plan.sliceLaunch(1);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY, L.FirstZ),
            std::make_tuple(10u, 2u, 1u, 2u, 0u));
  Plan = planOk(Policy::slice(10), bothVariants(), device(4), grid(10, 8));
  L = Plan.sliceLaunch(3);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.Offset),
            std::make_tuple(10u, 1u, 1u, 30u));
  Plan = planOk(Policy::slice(30), bothVariants(), device(4), grid(10, 8));
  L = Plan.sliceLaunch(2);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY),
            std::make_tuple(10u, 2u, 1u, 6u));
  // 3-D, 4 x 3 x 5: the whole grid as whole planes; two planes from plane 2;
  // two rows that would cross a plane run 1-D.
  Plan = planOk(Policy::slice(0), bothVariants(), device(4), grid(4, 3, 5));
  L = Plan.sliceLaunch(0);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY, L.FirstZ),
            std::make_tuple(4u, 3u, 5u, 0u, 0u));
  Plan = planOk(Policy::slice(24), bothVariants(), device(4), grid(4, 3, 5));
  L = Plan.sliceLaunch(1);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.FirstY, L.FirstZ),
            std::make_tuple(4u, 3u, 2u, 0u, 2u));
  Plan = planOk(Policy::slice(8), bothVariants(), device(4), grid(4, 3, 5));
  L = Plan.sliceLaunch(1); // rows 2 and 3: y = 2 of plane 0, y = 0 of plane 1
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z, L.Offset), std::make_tuple(8u, 1u, 1u, 8u));
  // 1-D grids: always 1-D.
  Plan = planOk(Policy::slice(0), bothVariants(), device(4), grid(1000));
  L = Plan.sliceLaunch(0);
  EXPECT_EQ(std::tie(L.X, L.Y, L.Z), std::make_tuple(1000u, 1u, 1u));
}

TEST(QueuePlan, SliceLaunchesRunEveryChunkOnce) {
  for (GridSize G : {grid(7), grid(10, 8), grid(1, 9), grid(4, 3, 5),
                     grid(5, 1, 6), grid(3, 4, 1), grid(2, 2, 7)}) {
    uint32_t N = G.X * G.Y * G.Z;
    for (unsigned Size = 0; Size <= N + 1; ++Size) {
      SCOPED_TRACE("grid " + std::to_string(G.X) + "x" + std::to_string(G.Y) +
                   "x" + std::to_string(G.Z) + " size " + std::to_string(Size));
      QueuePlan Plan =
          planOk(Policy::slice(Size), bothVariants(), device(4), G);
      std::vector<int> Covered(N, 0);
      for (uint32_t I = 0; I < Plan.numSlices(); ++I) {
        SliceLaunch L = Plan.sliceLaunch(I);
        EXPECT_LE(L.Y, G.Y);
        EXPECT_LE(L.Z, G.Z);
        // The variant adds both: whole rows have no offset, a 1-D slice no
        // first row or plane.
        if (L.Y != 1 || L.Z != 1)
          EXPECT_EQ(L.Offset, 0u);
        else
          EXPECT_EQ(L.FirstY + L.FirstZ, 0u);
        for (uint32_t C : sliceChunks(Plan, I)) {
          ASSERT_LT(C, N);
          ++Covered[C];
        }
      }
      for (uint32_t C = 0; C < N; ++C)
        ASSERT_EQ(Covered[C], 1) << "chunk " << C;
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
