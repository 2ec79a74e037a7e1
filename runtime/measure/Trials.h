//===- Trials.h - Candidates timed in turn, the fastest kept ---*- C++ -*-===//
//
// The bookkeeping of every choice made by timing real launches of one
// configuration: policy locality's placements (locality/) and policy
// remap's original-or-remap (remap/).  The candidates run in turn, each
// launch timed (Stopwatch.h), until each has Samples times; the fastest by
// median is kept if it beats candidate 0, the original, by the margin of
// Measured.h, else the original.  Pure logic: no CUDA.
//===----------------------------------------------------------------------===//
#ifndef SMC_RUNTIME_MEASURE_TRIALS_H
#define SMC_RUNTIME_MEASURE_TRIALS_H

#include "measure/Measured.h"

#include <string>
#include <vector>

namespace smc {

// The trials of one launch configuration.  Candidate 0 is the original:
// what runs while trials are in flight and nothing is decided, and the
// choice unless another beats it by MinGain (Measured.h's rule).
class Trials {
public:
  explicit Trials(unsigned Candidates, unsigned Samples = 3,
                  double MinGain = DefaultMargin);

  // The candidate the next launch runs, and whether it is a timed trial:
  // while undecided, the candidates in turn until each has been launched
  // Samples times (the original then runs untimed until the trials'
  // times are in); once decided, the choice, untimed.
  struct Next {
    unsigned Candidate = 0;
    bool Timed = false;
  };
  Next next();
  // A timed launch of Candidate took Seconds (> 0).
  void measured(unsigned Candidate, double Seconds);
  // A timed launch of Candidate gave no time: it is launched once more.
  void lost(unsigned Candidate);
  // Candidate cannot run for this configuration (its variant is missing):
  // it is no longer tried.  The original cannot be dropped.
  void drop(unsigned Candidate);

  bool decided() const { return Decided; }
  unsigned chosen() const { return Chosen; }
  // The median of Candidate's times so far (0: none).
  double medianSeconds(unsigned Candidate) const;
  // "chose smc(order=cluster(tile)): 0.95 of the original (medians:
  // original 1.021 ms, smc 1.090 ms, ...)" from Names, once decided.
  std::string summary(const std::vector<std::string> &Names) const;

private:
  void decideIfComplete();

  std::vector<std::vector<double>> Times;
  std::vector<unsigned> Launched;
  std::vector<bool> Dropped;
  unsigned Samples;
  double MinGain;
  unsigned Turn = 0;
  bool Decided = false;
  unsigned Chosen = 0;
};

} // namespace smc

#endif // SMC_RUNTIME_MEASURE_TRIALS_H
