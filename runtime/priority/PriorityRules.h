//===- PriorityRules.h - What urgent launches take --------------*- C++ -*-===//
//
// Stream priorities order the hardware's dispatch of new CTAs, but the
// persistent workers of an SM-centric launch never end before their launch
// does, so a kernel on a high-priority stream would wait for a running
// SM-centric kernel's end.  The runtime therefore makes SM-centric launches
// on the least-priority streams (best-effort) yield: their workers follow a
// per-device table of live targets, and a launch on a higher-priority stream
// (urgent) sets the targets of the SMs it needs to 0 before it runs (the
// best-effort workers there leave at their next chunk boundary) and back
// afterwards (a top-up grid then returns workers to the best-effort launches
// still running).  This file holds the decisions, pure C++ without CUDA,
// unit tested on the CPU: which streams are urgent, how many SMs an urgent
// launch takes and which (the mode's text: policy/Config.h); for reserved
// kernels (Reserve.h), the room best-effort workers leave and the shared
// memory that keeps reserved CTAs one to an SM.
// Priorities.h does the rest.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_PRIORITY_PRIORITYRULES_H
#define SMC_RUNTIME_PRIORITY_PRIORITYRULES_H

#include "smc/smc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smc {

// Whether a launch on a stream of priority `Priority` is urgent on a device
// whose least priority (cudaDeviceGetStreamPriorityRange) is `Least`: CUDA
// gives greater priorities lower numbers, and streams created without one
// have the least.
inline bool isUrgentPriority(int Priority, int Least) {
  return Priority < Least;
}

// The SMs an urgent launch of `Ctas` CTAs takes when `PerSM` of them run on
// one SM at a time: enough for all of them at once, at least one, at most
// the device's `NumSMs`.  0 when not even one CTA fits (PerSM 0): the
// launch takes nothing and fails or runs as CUDA decides.
unsigned urgentSmCount(uint64_t Ctas, unsigned PerSM, unsigned NumSMs);

// Which `Count` SMs an urgent launch takes, of a device with
// `HeldByOthers.size()` SMs: from the highest-numbered down (best-effort
// launches fill SMs from the lowest, as their queues do with small grids),
// first those no urgent launch of another stream holds, then, when too few
// are free, held ones (the highest first).  Sorted ascending; the same
// answer for the same state, so one urgent stream keeps its SMs.
std::vector<unsigned> pickUrgentSms(unsigned Count,
                                    const std::vector<bool> &HeldByOthers);

// What one CTA holds on an SM, and what an SM has (reserved room).
struct CtaFootprint {
  unsigned Threads = 0;
  unsigned RegistersPerThread = 0;
  unsigned SharedBytes = 0; // static + dynamic
};
struct SmResources {
  unsigned Threads = 2048, Ctas = 32, Registers = 65536;
  unsigned SharedBytes = 233472; // cudaDevAttrMaxSharedMemoryPerMultiprocessor
  unsigned SharedPerCtaReserved =
      1024; // cudaDevAttrReservedSharedMemoryPerBlock
  unsigned SharedPerCtaLimit =
      232448; // cudaDevAttrMaxSharedMemoryPerBlockOptin
};

// The most workers of footprint `Worker`, at most `Target`, that leave
// room on one SM for one CTA of `Reserved` (a kernel with Policy::reserve):
// threads, CTA slots, registers (allocated per warp in units of 256) and
// shared memory (with the per-CTA reservation) all fit.  At least 1: a
// best-effort launch keeps one worker per SM rather than none; 0 only when
// `Target` is 0.
unsigned workersLeavingRoom(const CtaFootprint &Worker, unsigned Target,
                            const CtaFootprint &Reserved,
                            const SmResources &Sm);

// The dynamic shared memory a reserved launch of `Ctas` CTAs runs with so
// that no two of its CTAs share an SM: just over half of the SM's shared
// memory with `StaticBytes` and the per-CTA reservation.  Beside
// best-effort workers that leave room on every SM, the hardware otherwise
// puts several of its CTAs on an SM that happens to have more room (one
// whose workers ran out of chunks), and the launch takes several times
// its time (smc_tail_bench, docs/results/tail.md).  `DynamicBytes`
// unchanged where that cannot or need not be: more CTAs than `NumSMs`
// (they must share), a CTA already over half, or a total over the per-CTA
// limit.
size_t spreadSharedBytes(uint64_t Ctas, unsigned NumSMs, unsigned StaticBytes,
                         size_t DynamicBytes, const SmResources &Sm);

} // namespace smc

#endif // SMC_RUNTIME_PRIORITY_PRIORITYRULES_H
