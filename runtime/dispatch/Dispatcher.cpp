//===- Dispatcher.cpp - The one place that decides a launch ---------------===//
//
// Programs built with the SMC plugin call __smc_launch_kernel (and
// __smc_launch_kernel_ptsz) where they called cudaLaunchKernel, and
// __smc_device_reset where they called cudaDeviceReset.  Every launch the
// runtime handles is decided here, in this order:
//
//   0. smc::Batch     between begin() and end(), the launch is recorded
//                     instead (batch/), and nothing else happens;
//      SMC_DISABLE, no driver API: the original kernel, untouched.
//   1. Partitions     the stream's live partition confines the launch
//                     (partition/): its SMs and live targets replace the
//                     policy's SM set; auto and locality become the
//                     default SM-centric policy there.
//   2. Configuration  the configuration of the kernel's policy (under that
//                     confinement), from this thread's cache when it can.
//   3. Locality       policy locality: the placement chosen, or the next
//                     timed trial (locality/).
//   4. CoRun          policy auto: the original, or a share of the SMs
//                     (corun/); timed when its co-run is under trial.
//      Remapping      policy remap, and policy auto where 4 chose the
//                     original: the original or the remapped jobs (the
//                     table computed where missing or stale), or the next
//                     timed trial (remap/).
//   5. Latency        unless 1 or 4 chose the SMs: a kernel with a p99
//                     target is timed, and placed under its policy with
//                     `reserve` unless taking SMs meets it (latency/).
//   6. Priorities     unless 1 or 4 chose the SMs: an urgent launch takes
//                     SMs from yielding launches and is confined to them; a
//                     reserved one starts in the room best-effort SM-centric
//                     launches keep; a best-effort SM-centric launch yields
//                     or keeps room (priority/).
//   7. the executor   the original or the variant as decided, with
//                     SMC_STATS and SMC_TRACE (core/Execute.h).
//
// Each decision-maker is a type with a Ticket (its state for one launch)
// and three steps (DecisionMakers.h): propose (its part of the decision),
// before (work queued on the stream ahead of the kernel: a timing start,
// the writes that take SMs), after (work queued after it, and the records
// of what ran: timing ends, flights, the writes that give SMs back).
// Proposals and befores run in the order above, afters in reverse.
// docs/DESIGN.md has the table of what happens when two are on at once.
// Steady state costs cudaGetDevice, cudaStreamIsCapturing, cudaStreamGetId
// (named streams only), cudaStreamGetPriority (named streams only) and
// cuLaunchKernel: no lock, allocation or string work.
//===----------------------------------------------------------------------===//
#include "batch/Recording.h"
#include "core/Devices.h"
#include "core/Execute.h"
#include "core/HostEntries.h"
#include "core/Prepared.h"
#include "corun/AutoLaunch.h"
#include "dispatch/DecisionMakers.h"
#include "latency/LatencyTargets.h"
#include "locality/LocalityLaunch.h"
#include "observe/Stats.h"
#include "partition/Partitions.h"
#include "policy/Config.h"
#include "priority/Priorities.h"
#include "remap/RemapLaunch.h"

namespace smc {
namespace {

// Step 2: the configuration of the kernel's policy under what step 1
// decided (no placement yet; a live partition's SM set lives until the
// policy epoch changes, so this thread's cache may keep it).
struct Configuration {
  struct Ticket {};
  static void propose(Launch &L, Ticket &) {
    L.use(cachedPrepare(L.Req, L.Device, L.Decision));
  }
  static void before(Launch &, Ticket &) {}
  static void after(Launch &, Ticket &, cudaError_t) {}
};

using LaunchDecisionMakers =
    DecisionMakers<Partitions, Configuration, Locality, CoRun, Remapping,
                   LatencyTargets, Priorities>;

cudaError_t launchRequest(const LaunchRequest &Req) {
  // Step 0.
  if (batchRecording())
    return recordIntoBatch(Req);
  // Reads SMC_STATS on the first launch, so that its file is written even
  // if no launch gets recorded.
  stats::enabled();
  if (config().Disabled || forwardAll())
    return launchOriginal(Req);
  int Device = 0;
  if (cudaGetDevice(&Device) != cudaSuccess) {
    // No usable device or driver: the original launch reports it.
    cudaGetLastError();
    return launchOriginal(Req);
  }
  Launch L(Req, Device);
  LaunchDecisionMakers Makers;
  Makers.propose(L); // steps 1-5
  Makers.before(L);
  cudaError_t Err = execute(L); // step 7
  Makers.after(L, Err);
  return Err;
}

// The request of a launch entry's arguments.
cudaError_t launchEntry(const void *Func, dim3 Grid, dim3 Block, void **Args,
                        size_t SharedMem, cudaStream_t Stream, bool Ptsz) {
  LaunchRequest Req;
  Req.Func = Func;
  Req.Shape.Grid = Grid;
  Req.Shape.Block = Block;
  Req.Shape.SharedMem = SharedMem;
  Req.Args = Args;
  Req.Stream = Stream;
  Req.Ptsz = Ptsz;
  return launchRequest(Req);
}

} // namespace
} // namespace smc

extern "C" cudaError_t __smc_launch_kernel(const void *F, dim3 G, dim3 B,
                                           void **A, size_t S, cudaStream_t T) {
  return smc::launchEntry(F, G, B, A, S, T, /*Ptsz=*/false);
}

extern "C" cudaError_t __smc_launch_kernel_ptsz(const void *F, dim3 G, dim3 B,
                                                void **A, size_t S,
                                                cudaStream_t T) {
  return smc::launchEntry(F, G, B, A, S, T, /*Ptsz=*/true);
}

// The device's memory, modules and streams go with its context: the runtime
// retires what it keeps there first, and builds it again at the next launch.
extern "C" cudaError_t __smc_device_reset() {
  smc::retireCurrentDevice();
  return cudaDeviceReset();
}
