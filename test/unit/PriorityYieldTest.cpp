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
