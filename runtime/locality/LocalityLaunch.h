//===- LocalityLaunch.h - Policy locality on the launch path ----*- C++ -*-===//
//
// Launches of policy locality (smc::Policy::locality(), SMC_POLICY
// 'k=locality').  Per launch configuration the runtime keeps the trials of
// LocalityChoice.h: while they run, each launch is the next placement in
// turn, timed on its own stream (measure/Stopwatch.h); later launches read
// the times that have come in (no launch waits for one).  Once every
// placement has its samples, the fastest is kept and every later launch of
// the configuration goes straight to it.  A launch being captured runs the
// original (a graph's launch cannot be timed here).  The Locality lock
// (base/Locks.h) guards the trials, which each configuration keeps in its
// room slots.
//
// The decision-maker's part in a launch (dispatch/Dispatcher.cpp), for a
// configuration of policy locality:
//   propose   the placement: the one chosen, or the next trial;
//   before    a timed trial's start;
//   after     its end, queued until its time comes in.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_LOCALITY_LOCALITYLAUNCH_H
#define SMC_RUNTIME_LOCALITY_LOCALITYLAUNCH_H

#include "core/Launch.h"
#include "measure/Stopwatch.h"

namespace smc {

struct LocalityTuning;

struct Locality {
  struct Ticket {
    LocalityTuning *Tuning = nullptr; // a timed trial's
    unsigned Candidate = 0;
    Stopwatch Watch;
  };
  static void propose(Launch &L, Ticket &T);
  static void before(Launch &L, Ticket &T);
  static void after(Launch &L, Ticket &T, cudaError_t Err);
};

} // namespace smc

#endif // SMC_RUNTIME_LOCALITY_LOCALITYLAUNCH_H
