//===- PartitionRules.h - The arithmetic of live SM partitions --*- C++ -*-===//
//
// A live partition (smc::setStreamSMs) confines the SM-centric launches of
// one stream to a set of SMs, and may change while they run: the runtime
// rewrites a per-SM table of live targets on the device, which the workers
// read when they arrive and at every chunk boundary (runtime/device/
// SmcWorker.cu).  This file holds what the runtime computes for that, pure
// C++ without CUDA, unit tested on the CPU: the table's values, and how many
// workers a running launch gets when its partition grows.  (How many
// workers a launch confined to a set starts with: plan/WorkerGrid.h.)
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PARTITION_PARTITIONRULES_H
#define SMC_RUNTIME_PARTITION_PARTITIONRULES_H

#include <cstdint>
#include <string>
#include <vector>

namespace smc {

// A live target that does not cap the plan's own per-SM target.
constexpr uint32_t LiveTargetUncapped = 0xffffffffu;

// The live target table of a partition on a device of `NumSMs` SMs: 0 for
// SMs outside `Sms`; `WorkersPerSM` for those inside, or LiveTargetUncapped
// when it is 0 (each launch keeps its plan's target).  Workers follow
// min(plan target, live target).  False with `Error` set when `Sms` names an
// SM the device does not have or is empty.
bool liveTargets(const std::vector<unsigned> &Sms, unsigned WorkersPerSM,
                 unsigned NumSMs, std::vector<uint32_t> &Targets,
                 std::string &Error);

// The workers of a top-up grid (grow-back) for a launch whose plan wants
// `PlanTarget` active workers per SM, when its partition goes from
// (`OldSms`, `OldWorkersPerSM`) to (`NewSms`, `NewWorkersPerSM`) (sorted
// sets; 0 workers: the plan's target): the active workers the new
// partition allows beyond the old one, summed over its SMs.
uint32_t grownWorkers(const std::vector<unsigned> &OldSms,
                      unsigned OldWorkersPerSM,
                      const std::vector<unsigned> &NewSms,
                      unsigned NewWorkersPerSM, uint32_t PlanTarget);

} // namespace smc

#endif // SMC_RUNTIME_PARTITION_PARTITIONRULES_H
