//===- TimedTrials.cpp - Trials whose timed launches are in flight ------===//
//
// See TimedTrials.h.
//===----------------------------------------------------------------------===//
#include "measure/TimedTrials.h"

namespace smc {

void TimedTrials::inFlight(unsigned Candidate, Stopwatch Watch) {
  Pending.push_back({Candidate, std::move(Watch)});
}

void TimedTrials::collect() {
  while (!Pending.empty()) {
    Launched &F = Pending.front();
    double Seconds = 0;
    Stopwatch::Reading R = F.Watch.read(Seconds);
    if (R == Stopwatch::Reading::Pending)
      return;
    if (R == Stopwatch::Reading::Done)
      measured(F.Candidate, Seconds);
    else
      lost(F.Candidate);
    Pending.pop_front();
  }
}

} // namespace smc
