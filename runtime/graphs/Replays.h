//===- Replays.h - One executable graph's replays and their search -*- C++
//-*-===//
//
// What runs when the program replays an executable graph it instantiated
// (cudaGraphLaunch): its own executable graph, or one of the runtime's
// built from GraphModel with a layout.  In Search mode the co-run sets are
// searched one after another: LayoutSearch (batch/LayoutSearch.h) proposes
// layouts of the set, each built into an executable graph and timed with
// CUDA events around its launch, at most every other replay and only while
// TrialBudget allows, while the replays between run the layout kept so far
// (timed too: the baseline).  When the
// set's search is spent its best layout is kept only if it beats the
// baseline's median by measure/'s margin.  After the last set the replays
// run the layout kept, untimed, and the user is told once what it is.  In
// Random mode every replay runs a layout drawn at random, or the program's
// own executable graph.
//
// The runtime's executable graphs are not ordered with the program's by
// CUDA, so while replays change between them each waits for an event
// recorded after the one before.  At most three of the runtime's
// executable graphs are alive for one of the program's: the layout kept,
// the one being measured, and in Random mode the last one drawn.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_GRAPHS_REPLAYS_H
#define SMC_RUNTIME_GRAPHS_REPLAYS_H

#include "graphs/GraphModel.h"
#include "graphs/TrialBudget.h"
#include "smc/graphs.h"

#include <deque>
#include <memory>
#include <optional>
#include <random>

namespace smc::graphs {

// Trials of one co-run set's search, and the runs that confirm a best.
constexpr unsigned GraphTrials = 192;
constexpr unsigned GraphConfirmRuns = 4;
// Baseline replays whose median a trial is judged against.
constexpr unsigned BaselineWindow = 32;
// Once settled after a search: every RecheckEvery replays, RecheckRuns
// timed replays of the kept layout and as many of the program's own
// executable graph, interleaved.  A kept layout no longer faster by the
// margin is dropped; the program's graph kept, but now more than
// DriftShare slower or faster than when it was searched, is searched again.
constexpr unsigned long long RecheckEvery = 2048;
constexpr unsigned RecheckRuns = 4;
constexpr double DriftShare = 0.10;

class Replays {
public:
  Replays(cudaGraphExec_t Program, std::unique_ptr<GraphModel> Model,
          GraphLayouts Mode, unsigned long long Flags);
  ~Replays();
  Replays(const Replays &) = delete;
  Replays &operator=(const Replays &) = delete;

  // The Graphs lock held.  One replay on Stream.
  cudaError_t launch(cudaStream_t Stream);
  // The program changed its executable graph's nodes: from now on it runs,
  // after what the runtime's executable graphs run now.
  void stop(const std::string &Why);
  // Waits until the last replay that ran one of the runtime's executable
  // graphs has ended (before these Replays give way to new ones).
  void waitForLast();
  void report(GraphLayoutReport &R) const;

private:
  enum class Role { Baseline, Trial, CheckKept, CheckProgram, Untimed };
  struct Timed {
    cudaEvent_t Start = nullptr, End = nullptr;
    Role Kind = Role::Baseline;
  };

  // Reads the timings that are done.
  void poll();
  // What this replay runs (building a layout where it must) and its role.
  cudaGraphExec_t choose(Role &Kind);
  cudaGraphExec_t chooseRandom();
  void startSet(size_t Set);
  void finishSet();
  void settle(const std::string &Why = "");
  // Once the recheck's replays are read: keeps, drops or searches again.
  void recheck();
  cudaGraphExec_t buildOrStop(const GraphLayout &L);
  GraphLayout withSet(const batch::Layout &L) const;
  void destroyOurs(cudaGraphExec_t &Exec);

  cudaGraphExec_t Program;
  std::unique_ptr<GraphModel> Model;
  GraphLayouts Mode;
  unsigned long long Flags;
  std::string Stopped; // why the program's graph runs from now on

  GraphLayout Kept;                  // per set; none: as instantiated
  cudaGraphExec_t Current = nullptr; // Kept built; null: Program
  double KeptMs = 0;                 // Kept's trial time (0: Program)
  size_t SetAt = 0;                  // the set being searched
  std::optional<batch::LayoutSearch> Search;
  cudaGraphExec_t Trial = nullptr; // built from TrialLayout
  GraphLayout TrialLayout;
  bool TrialOut = false; // a trial's timing not read yet
  TrialBudget Budget;
  double TrialBuildMs = 0;        // the host time the trial's build took
  std::vector<double> BaselineMs; // the last BaselineWindow
  double BaselineMedian = 0;      // of BaselineMs
  bool LengthChecked = false;     // whether the graph is long enough to search
  double OriginalMs = 0; // the program's graph, the first set's baseline
  bool Settled = false;
  bool Searched = false;            // settled after a search: rechecked
  unsigned long long SettledAt = 0; // the replay of the last (re)check
  unsigned CheckLeft = 0;           // replays of the recheck to launch
  std::vector<double> CheckKeptMs, CheckProgramMs;
  unsigned Rechecks = 0;
  cudaGraphExec_t Drawn = nullptr; // Random mode's last
  std::mt19937 Random{20141201};

  std::deque<Timed> Pending;
  std::vector<cudaEvent_t> FreeEvents;
  cudaEvent_t Order = nullptr; // recorded after each replay while searching
  cudaGraphExec_t LastExec = nullptr;
  cudaStream_t LastStream = nullptr;
  unsigned long long Count = 0;
};

} // namespace smc::graphs

#endif // SMC_RUNTIME_GRAPHS_REPLAYS_H
