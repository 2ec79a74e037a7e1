//===- LivePartitionTest.cpp - Live target tables and confined grids ------===//
//
// The arithmetic of live SM partitions (runtime/LivePartition.h): which
// value each SM's live target gets, which SM sets are refused, and how many
// workers a confined launch gets.
//===----------------------------------------------------------------------===//
#include "LivePartition.h"

#include <gtest/gtest.h>

using namespace smc;

TEST(LivePartition, TargetsInsideAndOutsideTheSet) {
  std::vector<uint32_t> Targets;
  std::string Error;
  ASSERT_TRUE(liveTargets({3, 1, 3}, 2, 5, Targets, Error)) << Error;
  EXPECT_EQ(Targets, (std::vector<uint32_t>{0, 2, 0, 2, 0}));
  ASSERT_TRUE(liveTargets({0, 4}, 0, 5, Targets, Error)) << Error;
  EXPECT_EQ(Targets, (std::vector<uint32_t>{LiveTargetUncapped, 0, 0, 0,
                                            LiveTargetUncapped}));
}

TEST(LivePartition, BadSetsLeaveTheTableUnchanged) {
  std::vector<uint32_t> Targets = {7, 7};
  std::string Error;
  EXPECT_FALSE(liveTargets({}, 1, 2, Targets, Error));
  EXPECT_NE(Error.find("empty"), std::string::npos) << Error;
  EXPECT_FALSE(liveTargets({0, 2}, 1, 2, Targets, Error));
  EXPECT_NE(Error.find("SM 2 is out of range"), std::string::npos) << Error;
  EXPECT_NE(Error.find("(0-1)"), std::string::npos) << Error;
  EXPECT_EQ(Targets, (std::vector<uint32_t>{7, 7}));
}

TEST(LivePartition, ConfinedWorkersCoverOwnAndFreeSms) {
  // Alone on the device: workers for every SM, as an unconfined launch.
  EXPECT_EQ(confinedWorkers(8, 32, 100), 8u * 132u);
  // Next to a launch in flight that holds the other 100 SMs: only its own.
  EXPECT_EQ(confinedWorkers(8, 32, 0), 8u * 32u);
  EXPECT_EQ(confinedWorkers(3, 1, 0), 3u);
}
