//===- QueuePlanChecks.cpp - What the launch-plan tests share -------------===//
//
// See QueuePlanChecks.h.
//===----------------------------------------------------------------------===//
#include "QueuePlanChecks.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace smc::test {

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

} // namespace smc::test
