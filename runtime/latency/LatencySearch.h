//===- LatencySearch.h - The cheaper mechanism that meets a p99 -*- C++ -*-===//
//
// A kernel with a tail-latency target (Policy::p99Ratio, p99Micros) is
// urgent; how it gets in beside best-effort work is one of two mechanisms
// of priority/:
//
//   KeepRoom  as Policy::reserve: best-effort launches keep room on every
//             SM for one of its CTAs (they lose that room), and it starts
//             at once;
//   TakeSms   as Policy::urgent: it takes SMs from yielding best-effort
//             launches, which keep every place but claim one chunk at a
//             time; it waits for a chunk to end there.
//
// The search judges the launches' latencies a window at a time: the p99
// (nearest rank) of Window launches against the bound, the target in
// microseconds or the ratio times the fastest launch seen so far.  It
// starts safe, with room (the kernel's first launches then also show its
// time alone, which a ratio is over), and tries the cheaper mechanism:
//
//   KeepRoom  met ProbeAfter windows in a row: TakeSms, for a window (a
//             probe); missed: stays (the target is not met, told).
//   a probe   met: stays on TakeSms, ProbeAfter back to FirstProbe.
//             Missed: KeepRoom, ProbeAfter doubled (up to LastProbe).
//   TakeSms   met: stays.  Missed: KeepRoom.
//
// While taking SMs, a window misses as soon as OverToMiss of its launches
// (settling ones too) are over the bound: its p99 cannot be below them, and
// each slow launch is one too many.  A failed probe then costs a few slow
// launches, not a window.
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

// A p99 target: a ratio over the fastest launch, or microseconds (the
// latter wins where both are set); unset when neither is above 0.
struct LatencyTarget {
  double Ratio = 0;
  double Micros = 0;
  bool set() const { return Ratio > 0 || Micros > 0; }
  bool operator==(const LatencyTarget &O) const {
    return Ratio == O.Ratio && Micros == O.Micros;
  }
  bool operator!=(const LatencyTarget &O) const { return !(*this == O); }
};

// What one window's verdict was, for the program to be told.
struct LatencyVerdict {
  bool Judged = false; // a window was complete, or missed early
  bool Met = false;
  // The launches since the last verdict, settling ones too (a window's
  // Window, and the Settle before it after a change; fewer: missed early).
  unsigned Launches = 0;
  double P99 = 0, Bound = 0, Fastest = 0;              // microseconds
  LatencyMechanism Under = LatencyMechanism::KeepRoom; // judged under
  LatencyMechanism Next = LatencyMechanism::KeepRoom;  // from now on
  bool Probe = false; // Next is a probe of TakeSms
  bool changed() const { return Judged && Next != Under; }
};

class LatencySearch {
public:
  static constexpr unsigned Window = 200;
  static constexpr unsigned Settle = 20;
  static constexpr unsigned FirstProbe = 4;
  static constexpr unsigned LastProbe = 256;
  // The nearest rank of a window's p99 (from 0), and how many launches
  // over the bound make it miss.
  static constexpr unsigned Rank = (99 * Window + 99) / 100 - 1;
  static constexpr unsigned OverToMiss = Window - Rank;

  explicit LatencySearch(LatencyTarget Target = {}) : Target(Target) {}

  // The mechanism launches use now, and its epoch (bumped by every change),
  // which each timed launch carries back to observe().
  LatencyMechanism mechanism() const { return Mechanism; }
  uint64_t epoch() const { return Epoch; }
  // The windows KeepRoom must meet in a row before TakeSms is probed.
  unsigned probeAfter() const { return ProbeAfter; }
  double fastest() const { return Fastest; }
  const LatencyTarget &target() const { return Target; }

  // One launch's latency in microseconds (> 0), made at `LaunchEpoch`.
  LatencyVerdict observe(double Micros, uint64_t LaunchEpoch);

private:
  void change(LatencyMechanism To);
  double bound() const;
  LatencyVerdict judge(double P99);

  LatencyTarget Target;
  LatencyMechanism Mechanism = LatencyMechanism::KeepRoom;
  uint64_t Epoch = 0;
  unsigned ToSettle = 0;
  unsigned ProbeAfter = FirstProbe;
  unsigned MetInARow = 0;
  bool Probing = false;
  double Fastest = 0; // 0: none seen
  std::vector<double> Samples;
  std::vector<double> Over; // TakeSms: this window's launches over the bound
  unsigned Seen = 0;        // launches of this epoch since the last verdict
};

} // namespace smc

#endif // SMC_RUNTIME_LATENCY_LATENCYSEARCH_H
