//===- LivePartitionTest.cpp - Live target tables and confined grids ------===//
//
// The arithmetic of live SM partitions (runtime/partition/PartitionRules.h,
// runtime/plan/WorkerGrid.h): which value each SM's live target gets, which SM
// sets are refused, and how many workers a confined launch gets.
//===----------------------------------------------------------------------===//
#include "partition/PartitionRules.h"
#include "plan/WorkerGrid.h"

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

TEST(LivePartition, ConfinedGridStartingNowCountsOnlyFreeSms) {
  std::vector<unsigned> Hog = {0, 1, 2, 3};
  // Beside a launch in flight on SMs 0-3: its own 4 SMs, nothing else.
  EXPECT_EQ(confinedGrid(2, {4, 5, 6, 7}, {Hog}, 8, true), 2u * 4u);
  // Two holders that overlap each other and the set {4, 5}: SMs 6 and 7
  // are free.
  EXPECT_EQ(confinedGrid(2, {4, 5}, {{0, 1, 2, 3}, {3, 4}}, 8, true),
            2u * (2u + 2u));
  // Nobody else: every SM, as an unconfined launch.
  EXPECT_EQ(confinedGrid(3, {0}, {}, 8, true), 3u * 8u);
  // Queued behind its stream's work: every place, whatever is in flight.
  EXPECT_EQ(confinedGrid(2, {4, 5, 6, 7}, {Hog}, 8, false), 2u * 8u);
  // SMs past the device and repeats do not count.
  EXPECT_EQ(confinedGrid(1, {1, 1, 9}, {{0, 9}}, 4, true), 1u * (1u + 2u));
}

TEST(LivePartition, GrownWorkersCountWhatThePartitionGained) {
  std::vector<unsigned> Four = {0, 1, 2, 3}, Six = {0, 1, 2, 3, 4, 5};
  // Two new SMs at the plan's target of 8.
  EXPECT_EQ(grownWorkers(Four, 0, Six, 0, 8), 16u);
  // Same SMs, cap raised from 2 to 5 on each of four.
  EXPECT_EQ(grownWorkers(Four, 2, Four, 5, 8), 12u);
  // A cap above the plan's target counts as the target.
  EXPECT_EQ(grownWorkers(Four, 2, Four, 20, 8), 24u);
  EXPECT_EQ(grownWorkers(Four, 2, Four, 0, 8), 24u);
  // Shrinking, or moving to other SMs of the same size, counts only SMs
  // gained: {4, 5} at 8 each.
  EXPECT_EQ(grownWorkers(Six, 0, Four, 0, 8), 0u);
  EXPECT_EQ(grownWorkers(Four, 0, std::vector<unsigned>{2, 3, 4, 5}, 0, 8),
            16u);
  // A cap lowered on kept SMs gives nothing back on them.
  EXPECT_EQ(grownWorkers(Four, 0, Six, 1, 8), 2u);
}
