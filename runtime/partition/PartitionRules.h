//===- LivePartition.h - The arithmetic of live SM partitions ---*- C++ -*-===//
//
// A live partition (smc::setStreamSMs) confines the SM-centric launches of
// one stream to a set of SMs, and may change while they run: the runtime
// rewrites a per-SM table of live targets on the device, which the workers
// read when they arrive and at every chunk boundary (runtime/device/
// SmcWorker.cu).  This file holds what the runtime computes for that, pure
// C++ without CUDA, unit tested on the CPU: the table's values, and how many
// workers a launch confined to its set needs.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_LIVEPARTITION_H
#define SMC_RUNTIME_LIVEPARTITION_H

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

// The worker grid of a loop-mode launch confined to `SetSize` SMs, when
// `FreeSMs` more SMs are not held by another partition's launch in flight.
// The hardware places workers wherever there is room and those outside the
// set retreat, so a grid of `FitPerSM` x all SMs would make a launch wait for
// room on SMs a co-runner holds, only to retreat there.  Workers are sized
// for the SMs they can reach now: FitPerSM x (SetSize + FreeSMs).
uint32_t confinedWorkers(uint32_t FitPerSM, uint32_t SetSize, uint32_t FreeSMs);

// The worker grid of any loop-mode launch confined to the SMs `Set` (a
// stream partition, a policy's sms=, policy auto's share) on a device of
// `NumSMs` SMs, beside other confined launches in flight that hold the SM
// sets `Held`.  A launch that starts at once (`StartsNow`: its stream has
// nothing before it) is sized for its SMs and the SMs none of them holds:
// confinedWorkers.  A launch queued behind its stream's work may start
// after they have ended, when a small grid would be spread over an idle
// GPU, most of it outside its set (docs/DESIGN.md, "Hazards"): it gets
// FitPerSM x NumSMs, every place, and those outside its set retreat.
uint32_t confinedGrid(uint32_t FitPerSM, const std::vector<unsigned> &Set,
                      const std::vector<std::vector<unsigned>> &Held,
                      unsigned NumSMs, bool StartsNow);

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

#endif // SMC_RUNTIME_LIVEPARTITION_H
