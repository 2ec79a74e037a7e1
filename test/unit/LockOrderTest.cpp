//===- LockOrderTest.cpp - The lock order is checked ----------------------===//
//
// runtime/base/Locks.h, built with SMC_CHECK_LOCK_ORDER=1 (as debug builds
// are): locks taken in increasing level pass, and a lock taken at or below
// a level the thread holds aborts with both levels named.
//===----------------------------------------------------------------------===//
#include "base/Locks.h"

#include <gtest/gtest.h>

#include <mutex>

using namespace smc;

static_assert(SMC_CHECK_LOCK_ORDER, "this test checks the checking build");

TEST(LockOrder, IncreasingLevelsPass) {
  OrderedMutex Low(LockLevel::CoRun), High(LockLevel::Registry),
      Top(LockLevel::Messages);
  {
    Guard A(Low);
    Guard B(High);
    Guard C(Top);
  }
  // Released in any order, then taken again from the bottom.
  std::unique_lock<OrderedMutex> A(Low);
  std::unique_lock<OrderedMutex> B(High);
  A.unlock();
  B.unlock();
  Guard C(Low);
}

TEST(LockOrderDeathTest, LowerLevelWhileHoldingAborts) {
  OrderedMutex Low(LockLevel::CoRun), High(LockLevel::Registry);
  EXPECT_DEATH(
      {
        Guard A(High);
        Guard B(Low);
      },
      "lock order broken: taking a CoRun lock while holding a Registry "
      "lock");
}

TEST(LockOrderDeathTest, SameLevelTwiceAborts) {
  OrderedMutex One(LockLevel::Registry), Two(LockLevel::Registry);
  EXPECT_DEATH(
      {
        Guard A(One);
        Guard B(Two);
      },
      "lock order broken");
}
