//===- TopUps.h - Workers added to a running launch (grow-back) -*- C++ -*-===//
//
// A loop-mode SM-centric launch whose SMs were taken (a live partition
// shrunk, an urgent launch took them) gets workers there again when they
// come back: a top-up grid of its variant, launched on a top-up lane with
// the launch's descriptor and a copy of its arguments, whose workers join
// the launch through its counter block's JOIN word if it still runs
// (runtime/device/SmcWorker.cu, "Grow-back") and leave at once otherwise.
// The TopUps lock (base/Locks.h) guards the lanes and tables, which devices
// and prepared launches keep in their room slots.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PARTITION_TOPUPS_H
#define SMC_RUNTIME_PARTITION_TOPUPS_H

#include "core/Launch.h"
#include "smc/abi.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

namespace smc {

struct DeviceState;
struct Prepared;

// What a top-up grid needs of a launch.
struct TopUpSource {
  Prepared *P = nullptr; // null: nothing to top up
  SmcDescriptor Desc{};  // as launched: its tag, counters, live target
  std::vector<std::vector<char>> Args; // the kernel's arguments, copied
  dim3 Block;
  unsigned SharedMem = 0;
};

// Keeps in `Source` what a top-up grid needs of launch `L` (its prepared
// configuration and descriptor as launched, a copy of its arguments).
// False (Source.P null) when its configuration cannot be topped up (the
// driver did not say how large its parameters are).
bool keepTopUpSource(TopUpSource &Source, const Launch &L);

// Launches a top-up grid of `Workers` workers that joins the launch
// `Source` describes if it is running then, after `After` (if not null)
// completes, on a top-up lane.  Its workers want the launch's own per-SM
// targets (`PlanTargets`: an SM set of the policy still holds), or the
// plan's target on every SM (a partition that grew: the launch's table has
// 0 on the SMs it gained).  Says once why when it cannot.
void launchTopUp(DeviceState &Dev, const TopUpSource &Source, uint32_t Workers,
                 cudaEvent_t After, bool PlanTargets);

} // namespace smc

#endif // SMC_RUNTIME_PARTITION_TOPUPS_H
