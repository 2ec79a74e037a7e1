//===- WorkerGrid.h - Workers of a launch confined to some SMs --*- C++ -*-===//
//
// A loop-mode SM-centric launch confined to a set of SMs (a policy's sms=,
// a live partition, policy auto's share, an urgent launch's SMs) still
// starts a grid the hardware places anywhere there is room; workers that
// land outside the set retreat.  A grid of FitPerSM x every SM would make
// such a launch wait for room on SMs a co-runner holds, only to retreat
// there (docs/DESIGN.md, "Hazards").  These functions size its grid for the
// SMs it can reach.  Pure C++: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PLAN_WORKERGRID_H
#define SMC_RUNTIME_PLAN_WORKERGRID_H

#include <cstdint>
#include <vector>

namespace smc {

// The worker grid of a loop-mode launch confined to `SetSize` SMs, when
// `FreeSMs` more SMs are not held by another confined launch in flight:
// FitPerSM x (SetSize + FreeSMs).
uint32_t confinedWorkers(uint32_t FitPerSM, uint32_t SetSize, uint32_t FreeSMs);

// The worker grid of any loop-mode launch confined to the SMs `Set` on a
// device of `NumSMs` SMs, beside other confined launches in flight that
// hold the SM sets `Held`.  A launch that starts at once (`StartsNow`: its
// stream has nothing before it) is sized for its SMs and the SMs none of
// them holds: confinedWorkers.  A launch queued behind its stream's work may
// start after they have ended, when a small grid would be spread over an
// idle GPU, most of it outside its set: it gets FitPerSM x NumSMs, every
// place, and those outside its set retreat.
uint32_t confinedGrid(uint32_t FitPerSM, const std::vector<unsigned> &Set,
                      const std::vector<std::vector<unsigned>> &Held,
                      unsigned NumSMs, bool StartsNow);

} // namespace smc

#endif // SMC_RUNTIME_PLAN_WORKERGRID_H
