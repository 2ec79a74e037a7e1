//===- TimedTrials.h - Trials whose timed launches are in flight -*- C++
//-*-===//
//
// Trials (Trials.h) as the launch path runs them: a timed launch's
// stopwatch (Stopwatch.h) is kept, stopped, until its time comes in, and
// the times that came in are handed to the trials, oldest first, at the
// configuration's next launch; nobody waits for one.  Policy locality's
// placements and policy remap's original-or-remap use it, each under its
// room's lock.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_MEASURE_TIMEDTRIALS_H
#define SMC_RUNTIME_MEASURE_TIMEDTRIALS_H

#include "measure/Stopwatch.h"
#include "measure/Trials.h"

#include <deque>

namespace smc {

class TimedTrials : public Trials {
public:
  using Trials::Trials;

  // A timed launch of Candidate, its stopwatch stopped after it.
  void inFlight(unsigned Candidate, Stopwatch Watch);
  // Hands the times that came in to the trials, oldest first (a launch
  // whose time cannot be read is launched once more).
  void collect();

private:
  struct Launched {
    unsigned Candidate;
    Stopwatch Watch;
  };
  std::deque<Launched> Pending;
};

} // namespace smc

#endif // SMC_RUNTIME_MEASURE_TIMEDTRIALS_H
