//===- LatencySearch.cpp - The cheaper mechanism that meets a p99 ---------===//
//
// The window, its verdict and the probes; see LatencySearch.h.
//===----------------------------------------------------------------------===//
#include "latency/LatencySearch.h"

#include <algorithm>

namespace smc {

void LatencySearch::change(LatencyMechanism To) {
  Mechanism = To;
  ++Epoch;
  ToSettle = Settle;
  MetInARow = 0;
}

double LatencySearch::bound() const {
  return Target.Micros > 0 ? Target.Micros : Target.Ratio * Fastest;
}

LatencyVerdict LatencySearch::observe(double Micros, uint64_t LaunchEpoch) {
  if (!(Micros > 0) || !Target.set())
    return {};
  if (Fastest == 0 || Micros < Fastest)
    Fastest = Micros;
  if (LaunchEpoch != Epoch)
    return {}; // made under the mechanism before
  ++Seen;
  // The first launches after a change are not judged: the best effort
  // may still run as it did before.
  if (ToSettle > 0)
    --ToSettle;
  else
    Samples.push_back(Micros);
  // While taking SMs, a window misses as soon as more than 1% of its
  // launches are over the bound (which only falls), settling ones too:
  // a slow launch is slow whatever the best effort still runs.
  if (Mechanism == LatencyMechanism::TakeSms && Micros > bound()) {
    Over.push_back(Micros);
    if (Over.size() >= OverToMiss)
      return judge(*std::min_element(Over.begin(), Over.end()));
  }
  if (Samples.size() < Window)
    return {};
  std::nth_element(Samples.begin(), Samples.begin() + Rank, Samples.end());
  return judge(Samples[Rank]);
}

LatencyVerdict LatencySearch::judge(double P99) {
  LatencyVerdict V;
  V.Judged = true;
  V.P99 = P99;
  V.Launches = Seen;
  V.Fastest = Fastest;
  V.Bound = bound();
  V.Met = V.P99 <= V.Bound;
  V.Under = Mechanism;
  Samples.clear();
  Over.clear();
  Seen = 0;
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
