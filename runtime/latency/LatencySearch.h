//===- LatencySearch.h - The cheapest mechanism that meets a p99 -*- C++
//-*-===//
//
// A kernel with a tail-latency target (Policy::p99Ratio, p99Micros) is
// urgent; how it gets in beside best-effort work is one of two mechanisms
// of priority/, the cheaper first:
//
//   TakeSms   as Policy::urgent: it takes SMs from yielding best-effort
//             launches, which keep every place; it waits for a chunk to end
//             there (the best effort loses its claim-ahead while yielding);
//   KeepRoom  as Policy::reserve: best-effort launches keep room on every
//             SM for one of its CTAs (they lose that room), and it starts
//             at once.
//
// The search judges the launches' latencies a window at a time: the p99
// (nearest rank) of Window launches against the bound, the target in
// microseconds or the ratio times the fastest launch seen so far.
//
//   TakeSms   met: stays.  Missed: KeepRoom.
//   KeepRoom  met ProbeAfter windows in a row: TakeSms again, for a window
//             (a probe); missed: stays (the target is not met, told).
//   a probe   met: stays on TakeSms, ProbeAfter back to FirstProbe.
//             Missed: KeepRoom, ProbeAfter doubled (up to LastProbe).
//
// A change takes effect on launches made after it, and on the best effort
// only from its next launch: the latencies of launches made under the
// previous mechanism are dropped (they carry its epoch), and so are the
// first Settle of the new one.  Pure: no CUDA (latency/LatencyTargets.h
// times the launches).
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_LATENCY_LATENCYSEARCH_H
#define SMC_RUNTIME_LATENCY_LATENCYSEARCH_H

#include <cstdint>
#include <vector>

namespace smc {

enum class LatencyMechanism { TakeSms, KeepRoom };

const char *latencyMechanismName(LatencyMechanism M);

// A p99 target: a ratio over the fastest launch, or microseconds (the
// latter wins where both are set); unset when neither is above 0.
struct LatencyTarget {
  double Ratio = 0;
  double Micros = 0;
  bool set() const { return Ratio > 0 || Micros > 0; }
};

// What one window's verdict was, for the program to be told.
struct LatencyVerdict {
  bool Judged = false; // a window was complete
  bool Met = false;
  double P99 = 0, Bound = 0, Fastest = 0;             // microseconds
  LatencyMechanism Under = LatencyMechanism::TakeSms; // judged under
  LatencyMechanism Next = LatencyMechanism::TakeSms;  // from now on
  bool Probe = false; // Next is a probe of TakeSms
  bool changed() const { return Judged && Next != Under; }
};

class LatencySearch {
public:
  static constexpr unsigned Window = 200;
  static constexpr unsigned Settle = 20;
  static constexpr unsigned FirstProbe = 8;
  static constexpr unsigned LastProbe = 256;

  explicit LatencySearch(LatencyTarget Target = {}) : Target(Target) {}

  // The mechanism launches use now, and its epoch (bumped by every change),
  // which each timed launch carries back to observe().
  LatencyMechanism mechanism() const { return Mechanism; }
  uint64_t epoch() const { return Epoch; }
  // The windows KeepRoom must meet in a row before TakeSms is probed.
  unsigned probeAfter() const { return ProbeAfter; }
  double fastest() const { return Fastest; }

  // One launch's latency in microseconds (> 0), made at `LaunchEpoch`.
  LatencyVerdict observe(double Micros, uint64_t LaunchEpoch);

private:
  void change(LatencyMechanism To);

  LatencyTarget Target;
  LatencyMechanism Mechanism = LatencyMechanism::TakeSms;
  uint64_t Epoch = 0;
  unsigned ToSettle = 0;
  unsigned ProbeAfter = FirstProbe;
  unsigned MetInARow = 0;
  bool Probing = false;
  double Fastest = 0; // 0: none seen
  std::vector<double> Samples;
};

} // namespace smc

#endif // SMC_RUNTIME_LATENCY_LATENCYSEARCH_H
