//===- LatencyTargets.h - Kernels with a p99 target -------------*- C++ -*-===//
//
// The decision-maker for kernels whose policy has a tail-latency target
// (Policy::p99Ratio, p99Micros; `k=original(p99=1.5x)`).  Such a kernel is
// urgent (core/Prepared.h); this maker chooses, per kernel and device, how
// (LatencySearch.h: taking SMs, or room kept), and times its launches:
//
//   propose   places the launch under the same policy with `reserve`
//             while room is the kernel's mechanism (the priority maker
//             then keeps room instead of taking SMs);
//   before    starts a stopwatch on the launch's stream (one event record:
//             what a timed launch's kernel waits for, about 3 us);
//   after     stops it after the kernel (and after the writes that give
//             SMs back), keeps it with the search's epoch, and reads the
//             kernel's timed launches that have completed (no wait) into
//             its search: tells the program what each change is and why,
//             and withdraws the kernel's room when the search tries
//             taking SMs (priority/Reserve.h).
//
// A first or new target starts the search, with room (a policy change;
// told once); a kernel whose policy lost its target is withdrawn at the
// next launch on its device after the change.
//
// Launches of a live partition or the co-run scheduler's SMs, captured
// launches, and every launch under PriorityMode::Off are neither timed nor
// changed.  The Latency lock guards each device's targets.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_LATENCY_LATENCYTARGETS_H
#define SMC_RUNTIME_LATENCY_LATENCYTARGETS_H

#include "core/Launch.h"
#include "measure/Stopwatch.h"

#include <cstdint>

namespace smc {

struct KernelLatency;

struct LatencyTargets {
  struct Ticket {
    KernelLatency *Kernel = nullptr; // a launch of a kernel with a target
    uint64_t Epoch = 0;              // its search's epoch at the launch
    uint64_t Generation = 0;         // its target's (a new one drops it)
    Stopwatch Watch;
  };
  static void propose(Launch &L, Ticket &T);
  static void before(Launch &L, Ticket &T);
  static void after(Launch &L, Ticket &T, cudaError_t Err);
};

} // namespace smc

#endif // SMC_RUNTIME_LATENCY_LATENCYTARGETS_H
