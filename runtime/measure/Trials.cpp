//===- Trials.cpp - Candidates timed in turn, the fastest kept ----------===//
//
// See Trials.h.
//===----------------------------------------------------------------------===//
#include "measure/Trials.h"

#include <algorithm>
#include <cstdio>

namespace smc {

Trials::Trials(unsigned Candidates, unsigned Samples, double MinGain)
    : Times(std::max(Candidates, 1u)), Launched(Times.size(), 0),
      Dropped(Times.size(), false), Samples(std::max(Samples, 1u)),
      MinGain(MinGain) {
  decideIfComplete(); // the original alone: nothing to try
}

Trials::Next Trials::next() {
  if (Decided)
    return {Chosen, false};
  for (size_t Tried = 0; Tried < Times.size(); ++Tried) {
    unsigned C = Turn++ % unsigned(Times.size());
    if (!Dropped[C] && Launched[C] < Samples) {
      ++Launched[C];
      return {C, true};
    }
  }
  return {0, false}; // every trial launched; their times are not all in
}

void Trials::measured(unsigned Candidate, double Seconds) {
  if (Decided || Candidate >= Times.size() || !(Seconds > 0))
    return;
  Times[Candidate].push_back(Seconds);
  decideIfComplete();
}

void Trials::lost(unsigned Candidate) {
  if (Candidate < Launched.size() && Launched[Candidate] > 0)
    --Launched[Candidate];
}

void Trials::drop(unsigned Candidate) {
  if (Decided || Candidate == 0 || Candidate >= Times.size())
    return;
  Dropped[Candidate] = true;
  decideIfComplete();
}

double Trials::medianSeconds(unsigned Candidate) const {
  if (Candidate >= Times.size())
    return 0;
  return median(Times[Candidate]);
}

void Trials::decideIfComplete() {
  // With no other candidate left, the original needs no times.
  bool Others = false;
  for (size_t C = 1; C < Times.size(); ++C)
    Others |= !Dropped[C];
  for (size_t C = 0; C < Times.size() && Others; ++C)
    if (!Dropped[C] && Times[C].size() < Samples)
      return;
  Decided = true;
  Chosen = 0;
  double Original = medianSeconds(0), Best = Original;
  for (unsigned C = 1; C < Times.size(); ++C)
    if (!Dropped[C] && medianSeconds(C) < Best) {
      Best = medianSeconds(C);
      Chosen = C;
    }
  if (!fasterBy(Best, Original, MinGain))
    Chosen = 0;
}

std::string Trials::summary(const std::vector<std::string> &Names) const {
  auto Name = [&](unsigned C) {
    return C < Names.size() ? Names[C] : "candidate " + std::to_string(C);
  };
  char Buffer[64];
  std::string Out = "chose " + Name(Chosen);
  if (Decided && medianSeconds(0) > 0) {
    std::snprintf(Buffer, sizeof Buffer, ": %.3f of the original",
                  medianSeconds(Chosen) / medianSeconds(0));
    Out += Buffer;
  }
  Out += " (medians of " + std::to_string(Samples) + ":";
  for (unsigned C = 0; C < Times.size(); ++C) {
    if (Dropped[C]) {
      Out += " " + Name(C) + " cannot run;";
      continue;
    }
    std::snprintf(Buffer, sizeof Buffer, " %.3f ms;", medianSeconds(C) * 1e3);
    Out += " " + Name(C) + Buffer;
  }
  Out.back() = ')';
  return Out;
}

} // namespace smc
