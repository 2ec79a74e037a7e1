//===- Prepared.h - A configuration planned once ----------------*- C++ -*-===//
//
// prepare() turns (kernel, device, launch shape, policy) into a Prepared
// launch once: the policy and the kernel's facts go to makeQueuePlan
// (plan/QueuePlan.h), whose queue tables are uploaded to the device.  The
// policy is the kernel's own (policy/Policies.h) unless the decision names
// a placement, confined to the decision's SM set if it has one.  Prepared
// launches live as long as the process: caches and launches in flight
// point at them.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORE_PREPARED_H
#define SMC_RUNTIME_CORE_PREPARED_H

#include "base/RoomSlots.h"
#include "core/Launch.h"
#include "plan/QueuePlan.h"
#include "smc/abi.h"
#include "smc/smc.h"

#include <cuda.h>

#include <atomic>
#include <string>
#include <vector>

namespace smc {

struct DeviceState;
struct KernelEntry;

// One launch configuration of a kernel under one policy, ready to launch.
struct Prepared {
  KernelEntry *Kernel = nullptr;
  DeviceState *Device = nullptr;
  uint32_t PolicyId = 0; // the policy it was planned under
  Variant Variant = Variant::Original;
  std::string Reason; // why the original runs although the policy wants more
  CUfunction Function = nullptr;
  SmcDescriptor Desc{}; // tables filled in; counters and stats per launch
  uint32_t NumParams = 0;
  // The plan, without its tables (they live on the device, in Desc).
  QueuePlan Plan;
  // The size of each kernel parameter (SM-centric loop mode; empty if the
  // driver could not say): what a top-up grid copies of a launch's args.
  std::vector<size_t> ParamSizes;
  // Set when a variant launch failed but the original then succeeded: from
  // then on this configuration runs the original.
  std::atomic<bool> VariantFailed{false};
  // The policy marks every launch urgent (Policy::urgent, reserve or a
  // latency target: latency/LatencyTargets.h), and
  // room is kept for its CTAs (Policy::reserve: priority/Reserve.h).
  bool Urgent = false;
  bool Reserve = false;
  // The policy's tail-latency target (Policy::p99Ratio, p99Micros; 0:
  // none).
  double P99Ratio = 0, P99Micros = 0;
  // The policy's chunk order (SMC_STATS records it).
  ChunkOrder Order = ChunkOrder::Interleaved;
  // A loop-mode SM-centric configuration confined to some of the device's
  // SMs: those SMs, sorted (partition/ConfinedLaunches.h sizes its grid);
  // empty when it may use every SM.
  std::vector<unsigned> ConfinedSms;
  // The rooms' state for this configuration (their types, their locks).
  RoomSlots Rooms;

  // Runs as loop-mode persistent workers (the SM-centric variant).
  bool loopWorkers() const {
    return Variant == Variant::SMCentric && Plan.Mode == SMC_MODE_LOOP;
  }
};

// No lock held.  The prepared launch of a request's configuration under
// `Decision`'s placement and SM set (slow path: the registry lock).  Null
// when the launch should be forwarded to the original uncached.
Prepared *prepare(const LaunchRequest &Req, int Device,
                  const LaunchDecision &Decision);

// The same under the cache of this thread's last configurations (the fast
// path: no lock once cached), for a decision without a placement and with
// no SM set or one that lives until the policy epoch changes (a live
// partition's).
Prepared *cachedPrepare(const LaunchRequest &Req, int Device,
                        const LaunchDecision &Decision);

// "smc", "slice", "auto", "locality" or "original".
const char *variantName(Variant V);

} // namespace smc

#endif // SMC_RUNTIME_CORE_PREPARED_H
