//===- QueuePlanChecks.h - What the launch-plan tests share -----*- C++ -*-===//
//
// What the launch-plan tests (QueuePlanTest, QueuePlanShapesTest,
// QueuePlanSliceTest) share: a kernel with both variants, a plan that must
// be made or refused, the SM that queues each chunk (checking that every
// chunk is queued exactly once, in increasing order) and the per-SM
// targets.  Failures are reported through googletest.
//===----------------------------------------------------------------------===//
#ifndef SMC_TEST_UNIT_QUEUEPLANCHECKS_H
#define SMC_TEST_UNIT_QUEUEPLANCHECKS_H

#include "plan/QueuePlan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smc::test {

// A kernel with an SM-centric and a slice variant.
KernelFacts bothVariants();

// The plan, which must be made.
QueuePlan planOk(const Policy &Policy, const KernelFacts &Kernel,
                 const DeviceFacts &Dev, GridSize G);

// Why the plan is refused, which it must be (leaving the original).
std::string planError(const Policy &Policy, const KernelFacts &Kernel,
                      const DeviceFacts &Dev, GridSize G);

// The SM whose queue holds each chunk; fails the test if a chunk is in no
// queue or in two, or if a queue is not in increasing order.
std::vector<uint32_t> ownerOfChunks(const QueuePlan &Plan);

// Every SM of Set has Target workers, every other SM none.
void expectTargets(const QueuePlan &Plan, const std::vector<uint32_t> &Set,
                   uint32_t Target);

} // namespace smc::test

#endif // SMC_TEST_UNIT_QUEUEPLANCHECKS_H
