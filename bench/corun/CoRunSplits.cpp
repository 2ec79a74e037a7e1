//===- CoRunSplits.cpp - SM splits, profile SM counts and repetitions -----===//
//
// See CoRunPlan.h.  The N-way SM splits the static oracle and green
// contexts try, the SM counts the scheduler's profiles measure and the
// repetitions that give each workload a comparable time alone.
//===----------------------------------------------------------------------===//
#include "CoRunPlan.h"

#include <algorithm>
#include <cmath>

namespace smc::corun {

std::vector<std::vector<unsigned>> smSplits(unsigned NumSms, unsigned Step,
                                            unsigned Parts) {
  std::vector<std::vector<unsigned>> Splits;
  if (Step == 0 || Parts < 2)
    return Splits;
  // The first Parts - 1 counts, odometer-wise (the last of them fastest);
  // each at least Step, leaving the last kernel at least Step.
  std::vector<unsigned> Counts(Parts - 1, Step);
  auto Rest = [&]() -> long long {
    long long Used = 0;
    for (unsigned C : Counts)
      Used += C;
    return (long long)NumSms - Used;
  };
  while (true) {
    if (Rest() >= (long long)Step) {
      std::vector<unsigned> Split = Counts;
      Split.push_back(unsigned(Rest()));
      Splits.push_back(std::move(Split));
      Counts.back() += Step;
      continue;
    }
    // Carry: reset the fastest count that overflowed, advance the one
    // before it; done when the first overflows.
    size_t I = Counts.size() - 1;
    while (I > 0 && Rest() < (long long)Step) {
      Counts[I] = Step;
      --I;
      Counts[I] += Step;
    }
    if (Rest() < (long long)Step)
      break;
  }
  return Splits;
}

std::vector<unsigned> oracleWorkers(const std::vector<unsigned> &Workers,
                                    unsigned Parts) {
  if (Parts <= 2 || Workers.empty())
    return Workers;
  return {*std::min_element(Workers.begin(), Workers.end())};
}

std::vector<SplitConfig> oracleConfigs(unsigned NumSms, unsigned Step,
                                       const std::vector<unsigned> &Workers,
                                       unsigned Parts) {
  std::vector<SplitConfig> Configs;
  std::vector<unsigned> Choices = oracleWorkers(Workers, Parts);
  if (Choices.empty())
    return Configs;
  for (const std::vector<unsigned> &Sms : smSplits(NumSms, Step, Parts)) {
    // Every tuple of choices, the last kernel's innermost.
    std::vector<size_t> Index(Parts, 0);
    while (true) {
      SplitConfig C;
      C.Sms = Sms;
      for (size_t I : Index)
        C.Workers.push_back(Choices[I]);
      Configs.push_back(std::move(C));
      size_t K = Parts;
      while (K > 0 && ++Index[K - 1] == Choices.size())
        Index[--K] = 0;
      if (K == 0)
        break;
    }
  }
  return Configs;
}

std::vector<std::vector<unsigned>> greenRequests(unsigned NumSms, unsigned Step,
                                                 unsigned MinPartition,
                                                 unsigned Alignment,
                                                 unsigned Parts) {
  std::vector<std::vector<unsigned>> Requests;
  Alignment = std::max(1u, Alignment);
  for (std::vector<unsigned> Split : smSplits(NumSms, Step, Parts)) {
    Split.pop_back(); // the last context gets the rest
    unsigned Granted = 0;
    for (unsigned &Sms : Split) {
      Sms = std::max(Sms, MinPartition);
      Sms = (Sms + Alignment - 1) / Alignment * Alignment;
      Granted += Sms;
    }
    if (Granted < NumSms && NumSms - Granted >= std::max(1u, MinPartition) &&
        std::find(Requests.begin(), Requests.end(), Split) == Requests.end())
      Requests.push_back(Split);
  }
  return Requests;
}

GreenSweep greenSweep(unsigned NumSms, unsigned Step, unsigned MinPartition,
                      unsigned Alignment, unsigned Parts, unsigned MaxSplits) {
  GreenSweep Sweep;
  if (Step == 0)
    return Sweep;
  for (unsigned S = Step;; S += Step) {
    Sweep.Step = S;
    Sweep.Requests = greenRequests(NumSms, S, MinPartition, Alignment, Parts);
    if (Sweep.Requests.size() <= MaxSplits || S > NumSms)
      return Sweep;
  }
}

std::vector<unsigned> profileSmCounts(unsigned NumSms, bool Quick) {
  std::vector<unsigned> Wanted = {16, 32, 64, 96};
  if (!Quick)
    Wanted = {8, 16, 24, 32, 48, 64, 80, 96, 112};
  std::vector<unsigned> Counts;
  for (unsigned Sms : Wanted)
    if (Sms < NumSms)
      Counts.push_back(Sms);
  if (NumSms > 0)
    Counts.push_back(NumSms);
  return Counts;
}

unsigned repsFor(double RunMs, double TargetMs, unsigned MaxReps) {
  if (!(RunMs > 0) || !(TargetMs > 0))
    return 1;
  double Reps = std::round(TargetMs / RunMs);
  return unsigned(std::clamp(Reps, 1.0, double(std::max(1u, MaxReps))));
}

std::vector<unsigned> smRange(unsigned First, unsigned Count) {
  std::vector<unsigned> R(Count);
  for (unsigned I = 0; I < Count; ++I)
    R[I] = First + I;
  return R;
}

} // namespace smc::corun
