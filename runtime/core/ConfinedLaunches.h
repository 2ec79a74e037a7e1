//===- ConfinedLaunches.h - SMs held by confined launches -------*- C++ -*-===//
//
// Every SM-centric loop-mode launch confined to a set of SMs (a stream
// partition, a policy's sms=, policy auto's share, an urgent launch's SMs)
// is recorded, per stream, with the SMs it holds and an event after it.  A
// confined launch is sized from them (plan/WorkerGrid.h): for its own SMs
// and the SMs no other confined launch in flight holds when its stream is
// idle, so that it does not wait for room on SMs it may not use; for every
// place on the GPU when it is queued behind its stream's work.  The
// Confined lock (base/Locks.h) guards the records, which each device keeps
// in its room slots.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORE_CONFINEDLAUNCHES_H
#define SMC_RUNTIME_CORE_CONFINEDLAUNCHES_H

#include "base/Cuda.h"

#include <cstdint>
#include <vector>

namespace smc {

struct DeviceState;
struct Prepared;

// The worker grid of a loop-mode launch of `P` (P.ConfinedSms not empty) on
// `Stream` (not capturing), from whether the stream is idle and the SMs
// other streams' confined launches in flight hold.
uint32_t confinedLaunchGrid(const Prepared &P, cudaStream_t Stream);

// After a confined loop-mode launch on `Stream` (not capturing), or any
// launch on a partitioned stream: records that it holds `Sms` (sorted)
// until it completes.
void confinedLaunched(DeviceState &Dev, cudaStream_t Stream,
                      const std::vector<unsigned> &Sms);

// The SMs the confined launch in flight on `Stream` holds now (a live
// partition changed).
void confinedSmsChanged(DeviceState &Dev, const StreamKey &Stream,
                        const std::vector<unsigned> &Sms);

} // namespace smc

#endif // SMC_RUNTIME_CORE_CONFINEDLAUNCHES_H
