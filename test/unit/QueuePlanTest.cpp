//===- QueuePlanTest.cpp - Tests of launch plans --------------------------===//
//
// SM-centric plans hold every chunk exactly once, in the queue the chunk
// order says and in increasing order; targets, SM sets and worker counts
// follow the policy and the device; bad policies are refused with a reason;
// slice plans cover the grid exactly once.
//===----------------------------------------------------------------------===//
#include "QueuePlan.h"

#include <gtest/gtest.h>

#include <functional>

using namespace smc;

namespace {

KernelFacts bothVariants() {
  KernelFacts k;
  k.hasSmc = true;
  k.hasSlice = true;
  return k;
}

DeviceFacts device(unsigned numSMs, unsigned fit = 8, unsigned occ = 4) {
  DeviceFacts d;
  d.numSMs = numSMs;
  d.variantFitPerSM = fit;
  d.originalOccupancy = occ;
  return d;
}

GridSize grid(uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  GridSize g;
  g.x = x;
  g.y = y;
  g.z = z;
  return g;
}

QueuePlan planOk(const Policy &policy, const KernelFacts &kernel,
                 const DeviceFacts &dev, GridSize g) {
  QueuePlan plan;
  std::string reason;
  EXPECT_TRUE(makeQueuePlan(policy, kernel, dev, g, plan, reason)) << reason;
  return plan;
}

std::string planError(const Policy &policy, const KernelFacts &kernel,
                      const DeviceFacts &dev, GridSize g) {
  QueuePlan plan;
  std::string reason;
  EXPECT_FALSE(makeQueuePlan(policy, kernel, dev, g, plan, reason));
  EXPECT_FALSE(reason.empty());
  EXPECT_EQ(plan.variant, Variant::Original);
  return reason;
}

// The SM whose queue holds each chunk; fails the test if a chunk is in no
// queue or in two, or if a queue is not in increasing order.
std::vector<uint32_t> ownerOfChunks(const QueuePlan &plan) {
  std::vector<uint32_t> owner(plan.numChunks, UINT32_MAX);
  EXPECT_EQ(plan.queueStart.size(), plan.numSlots + 1u);
  EXPECT_EQ(plan.queueChunks.size(), plan.numChunks);
  if (plan.queueStart.size() != plan.numSlots + 1u)
    return owner;
  EXPECT_EQ(plan.queueStart.front(), 0u);
  EXPECT_EQ(plan.queueStart.back(), plan.numChunks);
  for (uint32_t s = 0; s < plan.numSlots; ++s) {
    EXPECT_LE(plan.queueStart[s], plan.queueStart[s + 1]);
    for (uint32_t i = plan.queueStart[s]; i < plan.queueStart[s + 1]; ++i) {
      uint32_t c = plan.queueChunks.at(i);
      EXPECT_LT(c, plan.numChunks);
      if (c >= plan.numChunks)
        continue;
      EXPECT_EQ(owner[c], UINT32_MAX) << "chunk " << c << " queued twice";
      owner[c] = s;
      if (i > plan.queueStart[s])
        EXPECT_LT(plan.queueChunks[i - 1], c) << "queue " << s;
    }
  }
  for (uint32_t c = 0; c < plan.numChunks; ++c)
    EXPECT_NE(owner[c], UINT32_MAX) << "chunk " << c << " in no queue";
  return owner;
}

void expectTargets(const QueuePlan &plan, const std::vector<uint32_t> &set,
                   uint32_t target) {
  ASSERT_EQ(plan.slotTarget.size(), plan.numSlots);
  for (uint32_t s = 0; s < plan.numSlots; ++s) {
    bool inSet = std::find(set.begin(), set.end(), s) != set.end();
    EXPECT_EQ(plan.slotTarget[s], inSet ? target : 0u) << "SM " << s;
  }
}

} // namespace

TEST(QueuePlan, OriginalPolicyPlansNothing) {
  QueuePlan plan =
      planOk(Policy::original(), KernelFacts(), device(4), grid(10));
  EXPECT_EQ(plan.variant, Variant::Original);
  EXPECT_TRUE(plan.queueChunks.empty());
}

TEST(QueuePlan, ContiguousAllSMs) {
  QueuePlan plan = planOk(Policy::smCentric(0, {}, ChunkOrder::Contiguous),
                          bothVariants(), device(4), grid(10));
  EXPECT_EQ(plan.variant, Variant::SMCentric);
  EXPECT_EQ(plan.mode, SMC_MODE_LOOP);
  EXPECT_EQ(plan.numChunks, 10u);
  EXPECT_EQ(plan.numSlots, 4u);
  EXPECT_EQ(plan.target, 4u);      // the original's occupancy
  EXPECT_EQ(plan.workers, 8u * 4); // what fits per SM, on every SM
  // Sizes 3,3,2,2 in SM order, each range contiguous.
  EXPECT_EQ(plan.queueStart, (std::vector<uint32_t>{0, 3, 6, 8, 10}));
  std::vector<uint32_t> owner = ownerOfChunks(plan);
  EXPECT_EQ(owner, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 2, 2, 3, 3}));
  expectTargets(plan, {0, 1, 2, 3}, 4);
}

TEST(QueuePlan, ContiguousFollowsSetOrder) {
  QueuePlan plan = planOk(Policy::smCentric(2, {3, 1}, ChunkOrder::Contiguous),
                          bothVariants(), device(4), grid(7));
  std::vector<uint32_t> owner = ownerOfChunks(plan);
  // SM 3 is first in the set: it gets the first range.
  EXPECT_EQ(owner, (std::vector<uint32_t>{3, 3, 3, 3, 1, 1, 1}));
  EXPECT_EQ(plan.queueStart[1], plan.queueStart[0]); // SM 0 empty
  EXPECT_EQ(plan.queueStart[3], plan.queueStart[2]); // SM 2 empty
  expectTargets(plan, {3, 1}, 2);
  EXPECT_EQ(plan.workers, 8u * 4); // every SM filled; outsiders retreat
}

TEST(QueuePlan, DuplicateSMsRemoved) {
  QueuePlan plan =
      planOk(Policy::smCentric(1, {2, 2, 0, 2}, ChunkOrder::Contiguous),
             bothVariants(), device(4), grid(6));
  std::vector<uint32_t> owner = ownerOfChunks(plan);
  EXPECT_EQ(owner, (std::vector<uint32_t>{2, 2, 2, 0, 0, 0}));
  expectTargets(plan, {0, 2}, 1);
}

TEST(QueuePlan, FewerChunksThanSMs) {
  QueuePlan plan =
      planOk(Policy::smCentric(), bothVariants(), device(8), grid(3));
  EXPECT_EQ(ownerOfChunks(plan), (std::vector<uint32_t>{0, 1, 2}));
}

TEST(QueuePlan, Interleaved) {
  Policy p = Policy::smCentric(0, {5, 0, 2}, ChunkOrder::Interleaved);
  QueuePlan plan = planOk(p, bothVariants(), device(6), grid(4, 2));
  EXPECT_EQ(plan.numChunks, 8u);
  std::vector<uint32_t> owner = ownerOfChunks(plan);
  std::vector<uint32_t> set = {5, 0, 2};
  for (uint32_t c = 0; c < 8; ++c)
    EXPECT_EQ(owner[c], set[c % 3]) << "chunk " << c;
  expectTargets(plan, set, 4);
}

TEST(QueuePlan, Table) {
  Policy p = Policy::smCentric(0, {1, 3}, ChunkOrder::Table);
  p.chunkToSM = {3, 1, 1, 3, 3, 1};
  QueuePlan plan = planOk(p, bothVariants(), device(4), grid(3, 2));
  EXPECT_EQ(ownerOfChunks(plan), (std::vector<uint32_t>{3, 1, 1, 3, 3, 1}));
  EXPECT_EQ(plan.queueChunks, (std::vector<uint32_t>{1, 2, 5, 0, 3, 4}));

  // Without an SM set every SM may appear.
  Policy all = Policy::smCentric(0, {}, ChunkOrder::Table);
  all.chunkToSM = {0, 3, 2};
  QueuePlan planAll = planOk(all, bothVariants(), device(4), grid(3));
  EXPECT_EQ(ownerOfChunks(planAll), (std::vector<uint32_t>{0, 3, 2}));
}

TEST(QueuePlan, TableOfWrongSizeRejected) {
  Policy p = Policy::smCentric(0, {}, ChunkOrder::Table);
  p.chunkToSM = {0, 1, 2};
  std::string reason = planError(p, bothVariants(), device(4), grid(4));
  EXPECT_NE(reason.find("3 entries"), std::string::npos) << reason;
  EXPECT_NE(reason.find("4 chunks"), std::string::npos) << reason;
  p.chunkToSM = {0, 1, 2, 3, 0};
  reason = planError(p, bothVariants(), device(4), grid(4));
  EXPECT_NE(reason.find("5 entries"), std::string::npos) << reason;
}

TEST(QueuePlan, TableOutsideSetRejected) {
  Policy p = Policy::smCentric(0, {0, 1}, ChunkOrder::Table);
  p.chunkToSM = {0, 1, 2, 1};
  std::string reason = planError(p, bothVariants(), device(4), grid(4));
  EXPECT_NE(reason.find("chunk 2 on SM 2"), std::string::npos) << reason;

  Policy q = Policy::smCentric(0, {}, ChunkOrder::Table);
  q.chunkToSM = {0, 9};
  reason = planError(q, bothVariants(), device(4), grid(2));
  EXPECT_NE(reason.find("SM 9"), std::string::npos) << reason;
}

TEST(QueuePlan, SmOutOfRangeRejected) {
  std::string reason = planError(Policy::smCentric(0, {0, 4}), bothVariants(),
                                 device(4), grid(10));
  EXPECT_NE(reason.find("SM 4"), std::string::npos) << reason;
  EXPECT_NE(reason.find("4 SMs"), std::string::npos) << reason;
}

TEST(QueuePlan, WorkersTarget) {
  QueuePlan plan =
      planOk(Policy::smCentric(8), bothVariants(), device(4, 8, 2), grid(9));
  EXPECT_EQ(plan.target, 8u);
  EXPECT_EQ(plan.workers, 32u);
  plan = planOk(Policy::smCentric(1), bothVariants(), device(4, 8, 2), grid(9));
  EXPECT_EQ(plan.target, 1u);
  EXPECT_EQ(plan.workers, 32u);
}

TEST(QueuePlan, WorkersTooLargeRejected) {
  std::string reason =
      planError(Policy::smCentric(9), bothVariants(), device(4, 8, 2), grid(9));
  EXPECT_NE(reason.find("workers=9"), std::string::npos) << reason;
  EXPECT_NE(reason.find("8"), std::string::npos) << reason;
}

TEST(QueuePlan, DefaultTargetIsOccupancyCappedByFit) {
  EXPECT_EQ(
      planOk(Policy::smCentric(), bothVariants(), device(4, 8, 3), grid(9))
          .target,
      3u);
  EXPECT_EQ(
      planOk(Policy::smCentric(), bothVariants(), device(4, 5, 16), grid(9))
          .target,
      5u);
}

TEST(QueuePlan, NothingFitsRejected) {
  planError(Policy::smCentric(), bothVariants(), device(4, 0, 4), grid(9));
  planError(Policy::smCentric(1), bothVariants(), device(4, 0, 4), grid(9));
  planError(Policy::smCentric(), bothVariants(), device(4, 8, 0), grid(9));
}

TEST(QueuePlan, MissingVariantNamesRefusal) {
  KernelFacts k;
  k.hasSlice = true;
  k.smcRefusal = SMC_REFUSAL_GRID_SYNC;
  std::string reason = planError(Policy::smCentric(), k, device(4), grid(9));
  EXPECT_NE(reason.find(smcRefusalText(SMC_REFUSAL_GRID_SYNC)),
            std::string::npos)
      << reason;

  KernelFacts s;
  s.hasSmc = true;
  s.sliceRefusal = SMC_REFUSAL_GRID_BARRIER;
  reason = planError(Policy::slice(4), s, device(4), grid(9));
  EXPECT_NE(reason.find(smcRefusalText(SMC_REFUSAL_GRID_BARRIER)),
            std::string::npos)
      << reason;
}

TEST(QueuePlan, OneChunkLaunchesOneWorkerPerChunk) {
  KernelFacts k = bothVariants();
  k.oneChunk = true;
  QueuePlan plan = planOk(Policy::smCentric(), k, device(4), grid(5, 3, 2));
  EXPECT_EQ(plan.mode, SMC_MODE_ONE_CHUNK);
  EXPECT_EQ(plan.numChunks, 30u);
  EXPECT_EQ(plan.workers, 30u);
  EXPECT_TRUE(plan.note.empty());
  ownerOfChunks(plan);
}

TEST(QueuePlan, OneChunkNotesWhatItCannotHonour) {
  KernelFacts k = bothVariants();
  k.oneChunk = true;
  // Even more workers than fit is not an error: workers= is not honoured.
  QueuePlan plan =
      planOk(Policy::smCentric(16, {2, 3}), k, device(4, 8, 4), grid(10));
  EXPECT_EQ(plan.workers, 10u);
  EXPECT_FALSE(plan.note.empty());
  // The queues still follow the SM set.
  std::vector<uint32_t> owner = ownerOfChunks(plan);
  for (uint32_t c = 0; c < 10; ++c)
    EXPECT_TRUE(owner[c] == 2 || owner[c] == 3) << "chunk " << c;
}

// Ordered mode: one grid-wide sequence in blockIdx order (queue 0, stride
// 1, no table), every other queue empty; the SM set and the per-SM target
// still hold (filling-retreating), the chunk order does not.
TEST(QueuePlan, OrderedUsesOneSequenceInBlockIdxOrder) {
  KernelFacts k = bothVariants();
  k.ordered = true;
  Policy policy = Policy::smCentric(2, {1, 3}, ChunkOrder::Contiguous);
  QueuePlan plan = planOk(policy, k, device(4, 8, 4), grid(6, 5));
  EXPECT_TRUE(plan.ordered);
  EXPECT_EQ(plan.mode, SMC_MODE_LOOP);
  EXPECT_EQ(plan.queueStride, 1u);
  EXPECT_EQ(plan.busyQueues, 1u);
  ASSERT_EQ(plan.queueStart.size(), 5u);
  EXPECT_EQ(plan.queueStart[0], 0u);
  for (unsigned s = 1; s <= 4; ++s)
    EXPECT_EQ(plan.queueStart[s], 30u) << "queue " << s << " must be empty";
  ASSERT_EQ(plan.queueChunks.size(), 1u);
  EXPECT_EQ(plan.queueChunks[0], 0u); // first chunk; the rest by stride
  EXPECT_EQ(plan.slotTarget, (std::vector<uint32_t>{0, 2, 0, 2}));
  EXPECT_EQ(plan.workers, 32u); // 8 fit on each of 4 SMs
  EXPECT_NE(plan.note.find("ordered mode"), std::string::npos) << plan.note;
}

TEST(QueuePlan, OrderedIgnoresAChunkTable) {
  KernelFacts k = bothVariants();
  k.ordered = true;
  Policy policy = Policy::smCentric(0, {}, ChunkOrder::Table);
  policy.chunkToSM = {3}; // wrong size: would be refused without ordering
  QueuePlan plan = planOk(policy, k, device(4), grid(9));
  EXPECT_TRUE(plan.ordered);
  EXPECT_EQ(plan.queueStart[1], 9u);
  EXPECT_FALSE(plan.note.empty());
}

TEST(QueuePlan, OrderedDefaultPolicyNotesNothing) {
  KernelFacts k = bothVariants();
  k.ordered = true;
  QueuePlan plan = planOk(Policy::smCentric(), k, device(4), grid(100));
  EXPECT_TRUE(plan.ordered);
  EXPECT_TRUE(plan.note.empty()) << plan.note;
}

TEST(QueuePlan, OrderedOneChunk) {
  KernelFacts k = bothVariants();
  k.ordered = true;
  k.oneChunk = true;
  QueuePlan plan = planOk(Policy::smCentric(1, {0}), k, device(4), grid(12));
  EXPECT_EQ(plan.mode, SMC_MODE_ONE_CHUNK);
  EXPECT_TRUE(plan.ordered);
  EXPECT_EQ(plan.workers, 12u);
  EXPECT_EQ(plan.busyQueues, 1u);
  // What is not honoured is said, but not the per-SM queue story.
  EXPECT_NE(plan.note.find("one-chunk"), std::string::npos);
  EXPECT_EQ(plan.note.find("steal"), std::string::npos) << plan.note;
}

TEST(QueuePlan, OrderedFlagComesFromTheInfoRecord) {
  SmcKernelInfo info{};
  info.flags = SMC_INFO_HAS_SMC | SMC_INFO_ORDERED;
  EXPECT_TRUE(KernelFacts::fromInfo(info).ordered);
  info.flags = SMC_INFO_HAS_SMC;
  EXPECT_FALSE(KernelFacts::fromInfo(info).ordered);
}

TEST(QueuePlan, MultiDimensionalGrid) {
  QueuePlan plan =
      planOk(Policy::smCentric(), bothVariants(), device(7), grid(3, 4, 5));
  EXPECT_EQ(plan.numChunks, 60u);
  EXPECT_EQ(plan.grid.x, 3u);
  EXPECT_EQ(plan.grid.y, 4u);
  EXPECT_EQ(plan.grid.z, 5u);
  ownerOfChunks(plan);
}

TEST(QueuePlan, BadGridsRejected) {
  planError(Policy::smCentric(), bothVariants(), device(4), grid(0));
  planError(Policy::slice(2), bothVariants(), device(4), grid(4, 0));
  planError(Policy::smCentric(), bothVariants(), device(4),
            grid(65536, 65536, 2));
  planError(Policy::smCentric(), bothVariants(), device(4),
            grid(kMaxQueuedChunks + 1));
}

// The device reads a queue with a stride arithmetically (first, first + k,
// ...) instead of from the table: both descriptions must agree, and
// busyQueues must count the non-empty queues.
static void expectStrideMatchesTable(const QueuePlan &plan) {
  uint32_t busy = 0;
  for (uint32_t q = 0; q < plan.numSlots; ++q) {
    uint32_t begin = plan.queueStart[q], end = plan.queueStart[q + 1];
    busy += end > begin;
    if (plan.queueStride == 0 || end == begin)
      continue;
    for (uint32_t pos = 0; pos < end - begin; ++pos)
      ASSERT_EQ(plan.queueChunks[begin + pos],
                plan.queueChunks[begin] + pos * plan.queueStride)
          << "queue " << q << " position " << pos;
  }
  EXPECT_EQ(plan.busyQueues, busy);
}

TEST(QueuePlan, ManyShapesHoldEveryChunkOnceInTheRightQueue) {
  for (unsigned numSMs : {1u, 3u, 13u, 132u}) {
    for (uint32_t n : {1u, 2u, 12u, 131u, 132u, 133u, 1000u}) {
      std::vector<std::vector<unsigned>> sets = {{}, {0}};
      if (numSMs > 2)
        sets.push_back({numSMs - 1, 1, numSMs - 1});
      for (const auto &sms : sets) {
        std::vector<uint32_t> set;
        for (unsigned sm : sms)
          if (std::find(set.begin(), set.end(), sm) == set.end())
            set.push_back(sm);
        if (set.empty())
          for (unsigned sm = 0; sm < numSMs; ++sm)
            set.push_back(sm);
        SCOPED_TRACE("numSMs=" + std::to_string(numSMs) +
                     " n=" + std::to_string(n) +
                     " |set|=" + std::to_string(set.size()));

        QueuePlan contiguous =
            planOk(Policy::smCentric(0, sms, ChunkOrder::Contiguous),
                   bothVariants(), device(numSMs), grid(n));
        std::vector<uint32_t> owner = ownerOfChunks(contiguous);
        // Set order of owners is non-decreasing over the chunks, and queue
        // sizes over the set differ by at most one.
        size_t lastIndex = 0;
        for (uint32_t c = 0; c < n; ++c) {
          size_t index =
              std::find(set.begin(), set.end(), owner[c]) - set.begin();
          ASSERT_LT(index, set.size());
          EXPECT_GE(index, lastIndex);
          lastIndex = index;
        }
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t sm : set) {
          uint32_t size =
              contiguous.queueStart[sm + 1] - contiguous.queueStart[sm];
          lo = std::min(lo, size);
          hi = std::max(hi, size);
        }
        EXPECT_LE(hi - lo, 1u);
        EXPECT_EQ(contiguous.queueStride, 1u);
        expectStrideMatchesTable(contiguous);

        QueuePlan interleaved =
            planOk(Policy::smCentric(0, sms, ChunkOrder::Interleaved),
                   bothVariants(), device(numSMs), grid(n));
        owner = ownerOfChunks(interleaved);
        for (uint32_t c = 0; c < n; ++c)
          EXPECT_EQ(owner[c], set[c % set.size()]);
        EXPECT_EQ(interleaved.queueStride, set.size());
        expectStrideMatchesTable(interleaved);

        Policy table = Policy::smCentric(0, sms, ChunkOrder::Table);
        for (uint32_t c = 0; c < n; ++c)
          table.chunkToSM.push_back(set[(c * 7 + c / 3) % set.size()]);
        QueuePlan tabled =
            planOk(table, bothVariants(), device(numSMs), grid(n));
        owner = ownerOfChunks(tabled);
        for (uint32_t c = 0; c < n; ++c)
          EXPECT_EQ(owner[c], table.chunkToSM[c]);
      }
    }
  }
}

TEST(QueuePlan, SlicesCoverTheGridOnce) {
  for (uint32_t n : {1u, 9u, 10u, 64u, 1001u}) {
    for (unsigned size : {0u, 1u, 3u, 10u, 64u, 5000u}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " size=" + std::to_string(size));
      QueuePlan plan =
          planOk(Policy::slice(size), bothVariants(), device(4), grid(n));
      EXPECT_EQ(plan.variant, Variant::Slice);
      uint32_t expectedSize = size == 0 ? n : std::min<uint32_t>(size, n);
      EXPECT_EQ(plan.sliceSize, expectedSize);
      std::vector<int> covered(n, 0);
      uint32_t next = 0;
      for (uint32_t i = 0; i < plan.numSlices(); ++i) {
        uint32_t off = plan.sliceOffset(i), count = plan.sliceCount(i);
        EXPECT_EQ(off, next);
        EXPECT_GE(count, 1u);
        EXPECT_LE(count, expectedSize);
        for (uint32_t c = off; c < off + count && c < n; ++c)
          ++covered[c];
        next = off + count;
      }
      EXPECT_EQ(next, n);
      for (uint32_t c = 0; c < n; ++c)
        EXPECT_EQ(covered[c], 1) << "chunk " << c;
    }
  }
  QueuePlan plan =
      planOk(Policy::slice(3), bothVariants(), device(4), grid(5, 2));
  EXPECT_EQ(plan.numSlices(), 4u);
  EXPECT_EQ(plan.sliceCount(3), 1u);
}
