//===- TrialBudget.h - What a graph's layout search may spend ---*- C++ -*-===//
//
// A trial costs a replay of the program's graph what building its layout
// takes on the host (a copy of the graph, nodes replaced, instantiated)
// plus what the layout runs slower than the baseline.  For a graph of a
// few milliseconds that is well under 1% of the first 1,000 replays; for
// a graph of 50 us, one build costs about as much as 20 replays, and 64
// trials in a row cost 9-22% of them (H200, smc_graph_bench).  So trials
// start only while what they cost stays within Share of the time the
// replays take: of the first Horizon replays' time from the start (so
// that a graph that pays is laid out early), and of all replays' time
// after them (so that a search, once started, is never cut short).  A
// graph whose first 1,000 replays do not pay for a whole search's trials
// at the first trial's cost is not searched at all: its replays would stay
// timed for thousands of replays, and timing a replay costs its host 5-12
// us, 6-25% of a replay of 50-100 us (H200, smc_graph_bench: searched
// slowly, such graphs ran 0.65-0.95x).  Pure logic: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_GRAPHS_TRIALBUDGET_H
#define SMC_RUNTIME_GRAPHS_TRIALBUDGET_H

namespace smc::graphs {

class TrialBudget {
public:
  explicit TrialBudget(double Share = 0.05, unsigned Horizon = 1000)
      : Share(Share), Horizon(Horizon) {}

  // A trial cost Ms more than a replay of the baseline.
  void spent(double Ms);
  // Whether one more trial may start after Replays replays whose median
  // (the baseline's) took BaselineMs: the first trial may always; the next
  // ones while what the trials cost so far, and one more at their average,
  // stays within Share of max(Replays, Horizon) replays of BaselineMs.
  bool allows(double BaselineMs, unsigned long long Replays) const;

  // How many trials at their average cost so far the first Horizon
  // replays of BaselineMs pay for (all: none measured yet).
  unsigned affordable(double BaselineMs) const;

  double spentMs() const { return SpentMs; }
  unsigned trials() const { return Trials; }

private:
  double Share;
  unsigned Horizon;
  double SpentMs = 0;
  unsigned Trials = 0;
};

} // namespace smc::graphs

#endif // SMC_RUNTIME_GRAPHS_TRIALBUDGET_H
