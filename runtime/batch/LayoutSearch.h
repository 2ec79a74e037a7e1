//===- LayoutSearch.h - Measured search for recurring batches ---*- C++ -*-===//
//
// A batch of launches from several streams can be laid out on the two lanes
// of smc::Batch in many ways: which streams share a lane, in which order
// each lane runs its streams, and whether each stream's launches run whole
// or in slices.  Lanes run side by side, so the layout decides which
// kernels co-run and in what proportion.  On an H200 the Kernelet paper's
// Markov-chain model (bench/kernelet/KerneletModel.h) did not rank layouts
// (Spearman rank correlation -0.19 to 0.05 against their measured makespans,
// eight mixes of four suite workloads), while the best measured layout beat
// plain streams by up to 18% (geomean 9%).  So for a batch that recurs,
// LayoutSearch climbs from the streams-like layout through neighbouring ones,
// measuring each candidate once as the program runs it (the hill climbing of
// "Enabling and Exploiting Flexible Task Assignment on GPU through SM-Centric
// Program Transformations", ICS 2015, applied to layouts), restarts near
// the best when a climb is stuck, and keeps the best once its trials are
// spent.  Pure logic: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_LAYOUTSEARCH_H
#define SMC_RUNTIME_LAYOUTSEARCH_H

#include "batch/SliceRuns.h"
#include "measure/Measured.h"
#include "smc/smc.h"

#include <optional>
#include <string>
#include <vector>

namespace smc::batch {

// How a stream's launches run on their lane (smc.h documents the shares).
using Split = Batch::Split;
constexpr unsigned NumSplits = 6;
// The splits LayoutSearch steps through: all but Partition (SM partitions
// beside slices were measured as a grid of their own: README, "Slice
// co-scheduling").
constexpr unsigned SearchSplits = 5;
// The splits balancedLayouts() enumerates by default: Whole, Slices,
// Workers.
constexpr unsigned GridSplits = 3;

// Streams 0..N-1 on the two lanes.  Each stream is on exactly one lane;
// the lane runs its streams one after the other, in the order given, each
// stream's launches in their order, each run as Splits[s] says (where it
// can: else whole).
struct Layout {
  std::vector<unsigned> Lanes[2];
  std::vector<Split> Splits;

  bool operator==(const Layout &O) const;
  bool operator<(const Layout &O) const;
  // "lane 0: 0 2s | lane 1: 1w 3f" (s: slices, w/f/m: half, few, many
  // workers, p: partition)
  std::string text() const;
};

// Whether L places each of Streams streams exactly once.
bool validLayout(const Layout &L, unsigned Streams);

// Streams dealt to the lanes in turn, in order, all whole: what plain
// streams do with two streams' worth of concurrency.
Layout streamsLayout(unsigned Streams);

// Every layout whose lanes hold Streams / 2 and the rest, either lane the
// larger half (the lanes are not interchangeable: where both have CTAs
// waiting, smc::Batch places lane 0's first), x every choice of Split per
// stream among the first Splits of Whole, Slices, Workers, FewWorkers,
// ManyWorkers, Partition.  For 4 streams and 3 splits: 24 orders x 81 =
// 1,944; with 5 splits, 15,000.
std::vector<Layout> balancedLayouts(unsigned Streams,
                                    unsigned Splits = GridSplits);
// The same orders x every choice per stream among Choices (none repeated).
std::vector<Layout> balancedLayouts(unsigned Streams,
                                    const std::vector<Split> &Choices);

// The layouts one step from L: one stream's Split changed (to each other
// of the first SearchSplits), the two lanes swapped, one stream moved to the
// end of the other lane, or two streams' places (lane and position) swapped;
// none repeated, L excluded.  Moves reach layouts that balancedLayouts() leaves
// out (a lane may hold any number of streams, none included).
std::vector<Layout> neighbours(const Layout &L);

// The slice runs of L for Launches (whose Stream fields are L's streams):
// lane positions interleaved (lane 0's first stream, lane 1's first, lane
// 0's second, ...), so each stream's launches follow each other on one
// lane.  A launch of a Slices stream runs in slices of half the CTAs it
// fits on the GPU at once, at least minSliceCtas() (one that is not
// Sliceable, not Known, or too short for two such slices runs whole); a
// launch of a Workers, FewWorkers or ManyWorkers stream runs whole as
// that share of the CTAs it fits per SM, as workers per SM (rounded up; one
// that has no Workers runs whole); a launch of a Partition stream runs
// whole as all the workers it fits per SM on its lane's half of the SMs
// (lane 0: SMs [0, NumSms / 2), lane 1: the rest).
std::vector<SliceRun> layoutRuns(const PlanDevice &M,
                                 const std::vector<PendingLaunch> &Launches,
                                 const Layout &L);

// Iterated hill climbing over layouts with measured makespans.  next() is
// the layout to run; measured() reports how long the last next() took.
// A climb starts at a layout and tries its neighbours not yet tried, in a
// random order (Seed), each once; it moves to the first that beats the
// climb's layout by more than MinGain (a fraction).  When none does, the
// climb is stuck, and the next one starts two steps from the best layout
// so far (at a layout not yet tried, chosen at random), so that layouts
// two swaps apart are reached.  The first climb starts at Start.  Moving
// at the first better neighbour, rather than after measuring all of them
// for the fastest, reached 0.939 of the fastest layout instead of 0.914 in
// 96 trials (smc_search_replay on eight H100 grids of 15,000 layouts, 50
// seeds; 0.938 instead of 0.916 on a second run's grids).  A layout
// becomes the best only by beating the best by more than MinGain on the
// slowest of ConfirmRuns runs: one that seems to is run again, until it
// has run ConfirmRuns times or one run does not beat the best.  Some
// layouts take one of two times from batch to batch, by which of their
// kernels the hardware places first: on an H100, sad in slices beside
// spmv's workers took 2.83 or 3.60 ms about equally often, and won a
// search on two fast runs.  After MaxTrials measurements (192: the
// layouts doubled when the lanes stopped being interchangeable; 0.966
// and 0.967 of the fastest in the same replays), or when no untried layout is
// left near the best, the search is settled() and next() is the best layout.
class LayoutSearch {
public:
  explicit LayoutSearch(Layout Start, double MinGain = DefaultMargin,
                        unsigned MaxTrials = 192, unsigned ConfirmRuns = 4,
                        unsigned Seed = 20141201);

  const Layout &next() const;
  void measured(double Seconds);

  bool settled() const { return Settled; }
  const Layout &best() const { return Best; }
  double bestSeconds() const { return BestSeconds; }
  unsigned trials() const { return Trials; }
  unsigned climbs() const { return Climbs; }

private:
  // Lists the untried neighbours of the climb's layout, shuffled; false
  // if none (and no restart is left).
  bool listCandidates();
  unsigned nextRandom();
  // Starts a climb two steps from the best; false if no such layout.
  bool restart();
  bool tried(const Layout &L) const;
  void markTried(const Layout &L);

  Layout Best;
  double BestSeconds = 0;
  std::optional<Layout> Confirming; // to run again before it is Best
  double ConfirmSlowest = 0;        // its slowest run so far
  unsigned ConfirmSamples = 0;      // its runs so far
  Layout Climb;                     // the current climb's layout
  double ClimbSeconds = 0;          // 0: Climb not measured yet
  std::vector<Layout> Candidates;
  std::vector<Layout> Tried; // sorted
  size_t NextCandidate = 0;
  bool Settled = false;
  unsigned Trials = 0;
  unsigned Climbs = 1;
  unsigned Seed;
  double MinGain;
  unsigned MaxTrials;
  unsigned ConfirmRuns;
};

} // namespace smc::batch

#endif // SMC_RUNTIME_LAYOUTSEARCH_H
