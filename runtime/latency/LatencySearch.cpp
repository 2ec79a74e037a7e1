//===- LatencySearch.cpp - The cheapest mechanism that meets a p99 --------===//
//
// The window, its verdict and the probes; see LatencySearch.h.
//===----------------------------------------------------------------------===//
#include "latency/LatencySearch.h"

#include <algorithm>
#include <cmath>

namespace smc {

const char *latencyMechanismName(LatencyMechanism M) {
  return M == LatencyMechanism::TakeSms ? "taking SMs" : "room kept";
}

void LatencySearch::change(LatencyMechanism To) {
  Mechanism = To;
  ++Epoch;
  ToSettle = Settle;
  MetInARow = 0;
}

LatencyVerdict LatencySearch::observe(double Micros, uint64_t LaunchEpoch) {
  LatencyVerdict V;
  if (!(Micros > 0) || !Target.set())
    return V;
  if (Fastest == 0 || Micros < Fastest)
    Fastest = Micros;
  if (LaunchEpoch != Epoch)
    return V; // made under the mechanism before
  if (ToSettle > 0) {
    --ToSettle; // the best effort may still run as it did before
    return V;
  }
  Samples.push_back(Micros);
  if (Samples.size() < Window)
    return V;
  // Nearest rank: the smallest sample with at least 99% at or below it.
  size_t Rank = size_t(std::ceil(0.99 * double(Samples.size()))) - 1;
  std::nth_element(Samples.begin(), Samples.begin() + Rank, Samples.end());
  V.Judged = true;
  V.P99 = Samples[Rank];
  V.Fastest = Fastest;
  V.Bound = Target.Micros > 0 ? Target.Micros : Target.Ratio * Fastest;
  V.Met = V.P99 <= V.Bound;
  V.Under = Mechanism;
  Samples.clear();
  if (Mechanism == LatencyMechanism::TakeSms) {
    if (!V.Met) {
      ProbeAfter =
          Probing ? std::min(2 * ProbeAfter, unsigned(LastProbe)) : FirstProbe;
      Probing = false;
      change(LatencyMechanism::KeepRoom);
    } else if (Probing) {
      Probing = false;
      ProbeAfter = FirstProbe;
    }
  } else if (!V.Met) {
    MetInARow = 0;
  } else if (++MetInARow >= ProbeAfter) {
    Probing = true;
    change(LatencyMechanism::TakeSms);
    V.Probe = true;
  }
  V.Next = Mechanism;
  return V;
}

} // namespace smc
