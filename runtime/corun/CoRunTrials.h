//===- CoRunTrials.h - Measured decisions for a co-run that recurs -*- C++ -*-//
//
// Policy auto decides a co-run from profiles taken alone (decide(),
// CoRunScheduler.h); a co-run that recurs is then measured.  CoRunTrials
// holds the trials of one set of kernels: each trial is a decision (sharing,
// or an SM split with workers per SM) that the co-run's launches run under
// until every kernel has SamplesPerKernel launches timed under it; the
// trial's measured STP is sum_i A_i / T_i, with A_i the kernel's time alone
// on every SM from its profile and T_i the mean of its timed launches.
//
// The trials, in order: the model's decision; sharing, if the model chose a
// partition; every kernel's SM-centric variant on every SM (a "partition"
// whose shares all cover the device: the variants of some kernels run
// faster than their originals, which sharing runs); then the hill climbing
// of OnlineSearch over splits in steps of Granularity SMs and workers per
// SM, from the model's split where it lies on that grid (else an even one),
// as in "Enabling and Exploiting Flexible Task Assignment on GPU through
// SM-Centric Program Transformations".  When the climb converges or
// MaxTrials trials are measured, the co-run settles on the fastest
// partition measured if it beat sharing's measured STP by Margin, else on
// sharing: measured, never predicted, to be better than sharing.  Pure C++:
// no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_CORUN_CORUNTRIALS_H
#define SMC_RUNTIME_CORUN_CORUNTRIALS_H

#include "corun/CoRunScheduler.h"
#include "measure/Measured.h"

#include <optional>
#include <string>
#include <vector>

namespace smc {

// The SMs a trial's split moves at a step on a device of NumSms SMs: the
// largest divisor of NumSms not above NumSms / 12 (at least 1), so that a
// step is about 8% of the device and every SM is in some share (11 of 132).
unsigned trialGranularity(unsigned NumSms);

class CoRunTrials {
public:
  struct Options {
    unsigned NumSms = 0;
    // A split moves this many SMs at a step (OnlineSearch's groups).
    unsigned Granularity = 11;
    // Timed launches of each kernel that make one trial's measurement.
    unsigned SamplesPerKernel = 3;
    // Trials in all, the model's and sharing's included.
    unsigned MaxTrials = 16;
    // A partition is kept only if its measured STP beats sharing's by this
    // fraction.
    double Margin = DefaultMargin;
  };

  // One trial that was measured.
  struct Trial {
    CoRunDecision Decision;
    double Stp = 0;
  };

  // Kernels in decisionOrder() (AutoPolicy.h), every one with a profile of
  // this device and a distinct name; MaxWorkersPerSm[i] the workers per SM
  // of kernel i at its original's occupancy (>= 1; 1 searches the splits
  // only), which the trials' shares give as 0.  Model: decide()'s answer
  // for them.
  CoRunTrials(const std::vector<CoRunKernel> &Kernels,
              std::vector<unsigned> MaxWorkersPerSm, const CoRunDecision &Model,
              const Options &O);

  // Whether these kernels can be measured so: two or more, distinct names,
  // each with a time alone on NumSms SMs.
  static bool applies(const std::vector<CoRunKernel> &Kernels, unsigned NumSms);

  // The id of the decision to run now: a launch records under it.
  unsigned trial() const { return TrialId; }
  // The decision to run now: the trial's, or the settled one.
  const CoRunDecision &decision() const { return Current; }
  bool settled() const { return Settled; }

  // A launch of kernel `Index` (in the order given), decided under trial
  // `Trial`, ran for `Seconds`.  Samples of an earlier trial, of an index
  // out of range or of a time that is not positive are ignored.  True when
  // this sample ended the trial (decision() changed).
  bool record(unsigned Trial, size_t Index, double Seconds);

  const std::vector<Trial> &measured() const { return Measured; }
  // Sharing's measured STP, once measured.
  std::optional<double> sharedStp() const { return SharedStp; }
  // "a+b" of the kernels' names, for messages.
  std::string names() const;

private:
  // "trial N of the co-run a + b", N the trial about to start.
  std::string nextTrialName() const;
  void start(CoRunDecision Next);
  void advance();
  CoRunDecision partitionOf(const OnlineSearch::Config &Shares,
                            const std::string &Why) const;

  std::vector<std::string> Names;
  std::vector<unsigned> MaxWorkers;
  std::vector<double> Alone;
  Options Opt;
  OnlineSearch Search;
  bool SearchStarted = false;
  bool SharingPending = false;   // sharing is still to be tried
  bool EverywherePending = true; // every variant on every SM, likewise
  unsigned TrialId = 0;
  CoRunDecision Current;
  bool Settled = false;
  std::vector<double> SumSeconds;
  std::vector<unsigned> Samples;
  std::vector<Trial> Measured;
  std::optional<double> SharedStp;
};

} // namespace smc

#endif // SMC_RUNTIME_CORUN_CORUNTRIALS_H
