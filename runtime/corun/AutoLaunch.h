//===- AutoLaunch.h - The co-run scheduler on the launch path ---*- C++ -*-===//
//
// Launches of policy auto (smc::Policy::automatic(), SMC_POLICY '*=auto').
// Each one is decided when it is made:
//
//   1. The other launches of policy auto in flight on the device: per
//      stream, the last one, with an event recorded after it.
//   2. decide() (CoRunScheduler.h) for them and this launch, from the
//      kernel profiles in force (measure/Profiles.h), cached per set of
//      kernels; chooseAuto() (AutoPolicy.h) turns it into this launch's
//      choice: the original, or the SM-centric variant confined to its
//      share (sized as every confined launch, core/ConfinedLaunches.h).
//   3. The launch, then the stream's event.
//
// A set of kernels that co-runs again and again is then measured
// (CoRunTrials.h; SMC_AUTO_SEARCH=off keeps the model's decision): its
// launches run under one trial decision after another, and a launch made
// from an idle stream while every co-runner in flight runs under the same
// trial is timed (measure/Stopwatch.h); its time is read at the stream's
// next launch of policy auto (a launch not finished by then does not
// count).  Once the trials settle, no launch is timed.  SMC_PROFILE_RECORD
// records profiles instead (ProfileRecording.h).
//
// The CoRun lock (base/Locks.h) guards the decisions, trials and flights;
// a launch holds it from its decision to its flight's record, so that
// launches of policy auto are decided one at a time.
//
// The decision-maker's part in a launch (dispatch/Dispatcher.cpp), for a
// configuration of policy auto:
//   propose   the original or a share; a recorded launch's SMs;
//   before    a timed launch's start;
//   after     its end, and the stream's flight.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORUN_AUTOLAUNCH_H
#define SMC_RUNTIME_CORUN_AUTOLAUNCH_H

#include "base/Locks.h"
#include "core/Launch.h"
#include "corun/AutoPolicy.h"
#include "measure/Stopwatch.h"

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace smc {

struct AutoStreamFlight;

struct CoRun {
  struct Ticket {
    std::unique_lock<OrderedMutex> Lock; // the CoRun lock, propose to after
    AutoStreamFlight *Mine = nullptr;    // the stream's flight
    const std::string *Name = nullptr;   // the configuration's profile name
    std::chrono::steady_clock::time_point Decided;
    const AutoChoice *Choice = nullptr;
    AutoChoice Fresh; // a choice not kept in the stream's memo
    CoRunTrials *Trials = nullptr;
    size_t TrialKernel = 0;
    KernelPriority Priority = KernelPriority::Normal;
    std::vector<unsigned> Sms; // the share's SMs
    bool Timed = false;        // a trial's timed launch
    bool Recording = false;    // SMC_PROFILE_RECORD: a recorded launch
    unsigned RecordSms = 0;
    Stopwatch Watch; // times a timed or recorded launch
  };
  static void propose(Launch &L, Ticket &T);
  static void before(Launch &L, Ticket &T);
  static void after(Launch &L, Ticket &T, cudaError_t Err);
};

} // namespace smc

#endif // SMC_RUNTIME_CORUN_AUTOLAUNCH_H
