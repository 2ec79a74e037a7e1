//===- Execute.h - Carrying out a launch's decision -------------*- C++ -*-===//
//
// The last step of every launch: the original kernel as the program asked,
// or the prepared variant - the __smc variant as its worker grid with the
// stream's (or the capture's) counter block, live targets and trace in its
// descriptor, or the __slice variant as the plan's slices - counted under
// SMC_STATS.  Whatever stops a variant before it runs sends the launch to
// the original kernel, and the user is told once why.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORE_EXECUTE_H
#define SMC_RUNTIME_CORE_EXECUTE_H

#include "core/Launch.h"
#include "smc/smc.h"

#include <cuda_runtime_api.h>

namespace smc {

// Runs what `L.Decision` and `L.current()` (prepared by the caller) say.
cudaError_t execute(Launch &L);

// The original kernel, as the program asked (not recorded).
cudaError_t launchOriginal(const LaunchRequest &Req);

// The original kernel for `L`, recorded with SMC_STATS with `Reason`.
cudaError_t runOriginal(Launch &L, const char *Reason);

// `Req` run under `Placement` whatever the kernel's policy, through the
// executor alone (smc::Batch's workers): the original where the placement
// cannot be prepared.
cudaError_t launchUnder(const LaunchRequest &Req, int Device,
                        const Policy &Placement);

} // namespace smc

#endif // SMC_RUNTIME_CORE_EXECUTE_H
