//===- KerneletSearch.h - Measured search for recurring batches -*- C++ -*-===//
//
// A batch of launches from several streams can be laid out on the two lanes
// of smc::Batch in many ways: which streams share a lane, in which order
// each lane runs its streams, and whether each stream's launches run whole
// or in slices.  Lanes run side by side, so the layout decides which
// kernels co-run and in what proportion.  On an H200 the Markov-chain
// model (KerneletModel.h) did not rank layouts (Spearman rank correlation
// -0.19 to 0.05 against their measured makespans, eight mixes of four
// suite workloads), while the best measured layout beat plain streams by
// up to 18% (geomean 9%).  So for a batch that recurs, LayoutSearch climbs from
// the streams-like layout to the fastest neighbouring one, measuring each
// candidate once as the program runs it (the hill climbing of "Enabling
// and Exploiting Flexible Task Assignment on GPU through SM-Centric
// Program Transformations", ICS 2015, applied to slice layouts), and then
// keeps the best.  Pure logic: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_KERNELETSEARCH_H
#define SMC_RUNTIME_KERNELETSEARCH_H

#include "KerneletModel.h"

#include <string>
#include <vector>

namespace smc::kernelet {

// Streams 0..N-1 on the two lanes.  Each stream is on exactly one lane;
// the lane runs its streams one after the other, in the order given, each
// stream's launches in their order.  Sliced[s]: stream s's launches run
// in slices (where they can be), else whole.
struct Layout {
  std::vector<unsigned> Lanes[2];
  std::vector<bool> Sliced;

  bool operator==(const Layout &O) const;
  bool operator<(const Layout &O) const;
  std::string text() const; // "lane 0: 0 2s | lane 1: 1 3" (s: sliced)
};

// Whether L places each of Streams streams exactly once.
bool validLayout(const Layout &L, unsigned Streams);

// Streams dealt to the lanes in turn, in order, all whole: what plain
// streams do with two streams' worth of concurrency.
Layout streamsLayout(unsigned Streams);

// Every layout whose lanes hold Streams / 2 and the rest (the lane holding
// stream 0 is lane 0: the lanes are interchangeable), x every choice of
// sliced streams.  For 4 streams: 12 orders x 16 = 192.
std::vector<Layout> balancedLayouts(unsigned Streams);

// The layouts one step from L: one stream's slicing toggled, or two
// streams' places (lane and position) swapped; none repeated, L excluded.
std::vector<Layout> neighbours(const Layout &L);

// The slice runs of L for Launches (whose Stream fields are L's streams):
// lane positions interleaved (lane 0's first stream, lane 1's first, lane
// 0's second, ...), so each stream's launches follow each other on one
// lane.  A sliced stream's launch runs in slices of half the CTAs it fits
// on the GPU at once, at least minSliceCtas(); one that is not Sliceable,
// not Known, or too short for two such slices runs whole.
std::vector<SliceRun> layoutRuns(const DeviceModel &M,
                                 const std::vector<PendingLaunch> &Launches,
                                 const Layout &L);

// Hill climbing over layouts with measured makespans.  next() is the
// layout to run; measured() reports how long the last next() took.  The
// search starts at Start, tries each neighbour of the best layout once,
// moves to the fastest neighbour when it beats the best by more than
// MinGain (a fraction), and stops (settled()) when no neighbour does or
// after MaxTrials measurements; from then on next() is the best layout.
class LayoutSearch {
public:
  explicit LayoutSearch(Layout Start, double MinGain = 0.02,
                        unsigned MaxTrials = 64);

  const Layout &next() const;
  void measured(double Seconds);

  bool settled() const { return Settled; }
  const Layout &best() const { return Best; }
  double bestSeconds() const { return BestSeconds; }
  unsigned trials() const { return Trials; }

private:
  void moveOn();

  Layout Best;
  double BestSeconds = 0; // 0: Best not measured yet
  std::vector<Layout> Candidates;
  std::vector<double> CandidateSeconds;
  std::vector<Layout> Visited; // sorted
  size_t NextCandidate = 0;
  bool Settled = false;
  unsigned Trials = 0;
  double MinGain;
  unsigned MaxTrials;
};

} // namespace smc::kernelet

#endif // SMC_RUNTIME_KERNELETSEARCH_H
