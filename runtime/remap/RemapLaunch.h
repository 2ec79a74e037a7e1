//===- RemapLaunch.h - Policy remap on the launch path ----------*- C++ -*-===//
//
// Launches of policy remap (smc::Policy::remap(), SMC_POLICY 'k=remap').
// Per launch configuration the runtime keeps the remap's device buffers,
// the arguments its table was computed for, and, under control adaptive,
// the trials of measure/Trials.h between the original (candidate 0) and the
// remap (candidate 1): each trial launch timed on its own stream, a remap
// trial with the table's computation when it computes one, so that the
// remap is kept only if it wins with what it costs where it runs.
//
// Policy auto comes here too where the co-run scheduler chose the original
// (corun/): the original and the remap then share the GPU alike, so the
// kernel's __remap variant, if it has one for the launch's shape, is tried
// against the original as under policy remap.
//
// The decision-maker's part in a launch (dispatch/Dispatcher.cpp), for a
// configuration of policy remap:
//   propose   the original (a captured launch, or the trials' choice or
//             turn) or the remap;
//   before    a timed trial's start; the table, computed on the launch's
//             stream where it is missing or stale (new arguments,
//             smc::refreshRemap): the inspector K__remap_keys (or random
//             keys), then the radix sort (RemapSort.h); the table and its
//             job count into the decision;
//   after     the trial's end; the event later tables wait on.
// The Remap lock (base/Locks.h) guards each configuration's state.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_REMAP_REMAPLAUNCH_H
#define SMC_RUNTIME_REMAP_REMAPLAUNCH_H

#include "core/Launch.h"
#include "measure/Stopwatch.h"

namespace smc {

struct RemapState;

struct Remapping {
  struct Ticket {
    RemapState *State = nullptr; // a remapped launch's
    bool Timed = false;
    unsigned Candidate = 0; // 0 original, 1 remap
    Stopwatch Watch;
  };
  static void propose(Launch &L, Ticket &T);
  static void before(Launch &L, Ticket &T);
  static void after(Launch &L, Ticket &T, cudaError_t Err);
};

} // namespace smc

#endif // SMC_RUNTIME_REMAP_REMAPLAUNCH_H
