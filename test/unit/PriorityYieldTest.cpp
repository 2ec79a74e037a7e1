//===- PriorityYieldTest.cpp - What urgent launches take ------------------===//
//
// The decisions of priority yielding (runtime/priority/PriorityRules.h;
// the SMC_PRIORITY text: runtime/policy/Config.h): the SMC_PRIORITY text,
// which priorities are urgent, how many SMs an urgent launch takes and
// which ones.
//===----------------------------------------------------------------------===//
#include "policy/Config.h"
#include "priority/PriorityRules.h"

#include <gtest/gtest.h>

using namespace smc;

TEST(PriorityYield, ModeText) {
  PriorityMode Mode = PriorityMode::Off;
  std::string Error;
  ASSERT_TRUE(parsePriorityMode("auto", Mode, Error)) << Error;
  EXPECT_EQ(Mode, PriorityMode::Auto);
  ASSERT_TRUE(parsePriorityMode(" ON ", Mode, Error)) << Error;
  EXPECT_EQ(Mode, PriorityMode::On);
  ASSERT_TRUE(parsePriorityMode("Off", Mode, Error)) << Error;
  EXPECT_EQ(Mode, PriorityMode::Off);
  EXPECT_FALSE(parsePriorityMode("yes", Mode, Error));
  EXPECT_EQ(Error, "'yes' is not one of auto, on, off");
  EXPECT_EQ(Mode, PriorityMode::Off); // unchanged
  EXPECT_FALSE(parsePriorityMode("", Mode, Error));
}

TEST(PriorityYield, GreaterPrioritiesHaveLowerNumbers) {
  // CUDA on Hopper: least 0 (every stream created without a priority),
  // greatest -5.
  EXPECT_FALSE(isUrgentPriority(0, 0));
  EXPECT_TRUE(isUrgentPriority(-1, 0));
  EXPECT_TRUE(isUrgentPriority(-5, 0));
  EXPECT_FALSE(isUrgentPriority(1, 0));
}

TEST(PriorityYield, UrgentSmsHoldEveryCtaAtOnce) {
  // 32 CTAs, 16 per SM: two SMs.
  EXPECT_EQ(urgentSmCount(32, 16, 132), 2u);
  EXPECT_EQ(urgentSmCount(33, 16, 132), 3u);
  // One CTA still takes one SM.
  EXPECT_EQ(urgentSmCount(1, 16, 132), 1u);
  // A grid larger than one wave takes the whole device.
  EXPECT_EQ(urgentSmCount(100000, 16, 132), 132u);
  EXPECT_EQ(urgentSmCount(uint64_t(1) << 40, 1, 132), 132u);
  // Nothing fits: nothing is taken.
  EXPECT_EQ(urgentSmCount(32, 0, 132), 0u);
}

TEST(PriorityYield, PicksTheHighestFreeSms) {
  std::vector<bool> None(8, false);
  EXPECT_EQ(pickUrgentSms(3, None), (std::vector<unsigned>{5, 6, 7}));
  // SMs 6 and 7 are held by another stream's urgent launch.
  std::vector<bool> Held = {false, false, false, false,
                            false, false, true,  true};
  EXPECT_EQ(pickUrgentSms(3, Held), (std::vector<unsigned>{3, 4, 5}));
  // Not enough free SMs: the held ones fill up, highest first.
  std::vector<bool> Most = {false, true, true, true, true, true, true, true};
  EXPECT_EQ(pickUrgentSms(3, Most), (std::vector<unsigned>{0, 6, 7}));
  // More than the device has: every SM.
  EXPECT_EQ(pickUrgentSms(20, None).size(), 8u);
  // The same state gives the same SMs (one urgent stream keeps its SMs).
  EXPECT_EQ(pickUrgentSms(3, Held), pickUrgentSms(3, Held));
}

TEST(PriorityYield, ReservedRoomFitsOneCtaOfTheReservedKernel) {
  SmResources Hopper; // 2048 threads, 32 CTAs, 64K registers, 228 KB
  // The tail benchmark: 128-thread workers (16 fit), a 256-thread urgent
  // CTA: two workers per SM make room.
  CtaFootprint Worker{128, 16, 0}, Urgent{256, 32, 0};
  EXPECT_EQ(workersLeavingRoom(Worker, 16, Urgent, Hopper), 14u);
  // A plan below the bound keeps its own target.
  EXPECT_EQ(workersLeavingRoom(Worker, 8, Urgent, Hopper), 8u);
  // Registers bind: 64 per thread of 256-thread workers (16K registers
  // each, 4 fit) and an urgent CTA of 128 threads at 128 registers (16K).
  CtaFootprint Heavy{256, 64, 0}, Wide{128, 128, 0};
  EXPECT_EQ(workersLeavingRoom(Heavy, 4, Wide, Hopper), 3u);
  // Shared memory binds, with 1 KB reserved per CTA: 8 workers of 27 KB
  // (224 KB with the reservations) leave no room for a CTA of 4 KB.
  CtaFootprint Tiles{128, 16, 27 * 1024}, Small{128, 16, 4 * 1024};
  EXPECT_EQ(workersLeavingRoom(Tiles, 8, Small, Hopper), 7u);
  // CTA slots bind: 32 one-warp workers, one slot left for the urgent CTA.
  CtaFootprint Tiny{32, 16, 0};
  EXPECT_EQ(workersLeavingRoom(Tiny, 32, Tiny, Hopper), 31u);
  // Never below one worker per SM, even where no room can be made.
  CtaFootprint Huge{2048, 32, 0};
  EXPECT_EQ(workersLeavingRoom(Worker, 16, Huge, Hopper), 1u);
  EXPECT_EQ(workersLeavingRoom(Worker, 0, Urgent, Hopper), 0u);
}

TEST(PriorityYield, SpreadSharedMemoryKeepsReservedCtasOneToAnSm) {
  SmResources Hopper; // 228 KB per SM, 1 KB reserved per CTA
  auto Fits = [&](unsigned Static, size_t Dynamic) {
    return Hopper.SharedBytes /
           (Static + Dynamic + Hopper.SharedPerCtaReserved);
  };
  // The tail benchmark's urgent kernel: 64 CTAs, no shared memory of its
  // own.  Padded, one CTA fits an SM and two do not.
  size_t Spread = spreadSharedBytes(64, 132, 0, 0, Hopper);
  EXPECT_EQ(Fits(0, Spread), 1u);
  EXPECT_EQ(Fits(0, Spread - 1), 2u); // the least that does it
  // Static and requested dynamic shared memory count towards the half.
  size_t WithOwn = spreadSharedBytes(132, 132, 8192, 4096, Hopper);
  EXPECT_EQ(Fits(8192, WithOwn), 1u);
  EXPECT_EQ(WithOwn + 8192, Spread);
  // More CTAs than SMs must share: unchanged.
  EXPECT_EQ(spreadSharedBytes(133, 132, 0, 4096, Hopper), 4096u);
  // Already one to an SM: unchanged.
  EXPECT_EQ(spreadSharedBytes(8, 132, 0, 120 * 1024, Hopper), 120u * 1024);
  // Over the per-CTA limit (a device whose CTAs may hold less than half
  // an SM): unchanged.
  SmResources Narrow = Hopper;
  Narrow.SharedPerCtaLimit = 96 * 1024;
  EXPECT_EQ(spreadSharedBytes(64, 132, 0, 0, Narrow), 0u);
}
