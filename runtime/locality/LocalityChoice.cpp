//===- LocalityChoice.cpp - Placements tried, the fastest kept ----------===//
//
// The candidates of each CTA locality class and the bookkeeping of their
// timed trials.  See LocalityChoice.h.
//===----------------------------------------------------------------------===//
#include "locality/LocalityChoice.h"

#include "smc/abi.h"

#include <algorithm>
#include <cstdio>

namespace smc {

std::vector<LocalityCandidate>
localityCandidates(uint32_t Locality, bool Urgent, unsigned ThrottledWorkers) {
  std::vector<LocalityCandidate> Out = {{"original", Policy::original()},
                                        {"smc", Policy::smCentric()}};
  auto Clusters = [&](ClusterDir Dir, const char *Name) {
    Out.push_back({std::string("smc(order=cluster(") + Name + "))",
                   Policy::clustered(Dir)});
    if (ThrottledWorkers)
      Out.push_back({"smc(workers=" + std::to_string(ThrottledWorkers) +
                         ",order=cluster(" + Name + "))",
                     Policy::clustered(Dir, 0, ThrottledWorkers)});
  };
  switch (Locality) {
  case SMC_LOCALITY_NONE:
    break;
  case SMC_LOCALITY_X:
    Clusters(ClusterDir::X, "x");
    break;
  case SMC_LOCALITY_Y:
    Clusters(ClusterDir::Y, "y");
    break;
  case SMC_LOCALITY_TILE:
    Clusters(ClusterDir::Tile, "tile");
    break;
  default: // irregular, z (clusters never span z planes), unknown
    Out.push_back({"smc(order=contiguous)",
                   Policy::smCentric(0, {}, ChunkOrder::Contiguous)});
    break;
  }
  for (LocalityCandidate &C : Out)
    C.Placement.urgent = Urgent;
  return Out;
}

LocalityTrials::LocalityTrials(unsigned Candidates, unsigned Samples,
                               double MinGain)
    : Times(std::max(Candidates, 1u)), Launched(Times.size(), 0),
      Dropped(Times.size(), false), Samples(std::max(Samples, 1u)),
      MinGain(MinGain) {
  decideIfComplete(); // the original alone: nothing to try
}

LocalityTrials::Next LocalityTrials::next() {
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

void LocalityTrials::measured(unsigned Candidate, double Seconds) {
  if (Decided || Candidate >= Times.size() || !(Seconds > 0))
    return;
  Times[Candidate].push_back(Seconds);
  decideIfComplete();
}

void LocalityTrials::lost(unsigned Candidate) {
  if (Candidate < Launched.size() && Launched[Candidate] > 0)
    --Launched[Candidate];
}

void LocalityTrials::drop(unsigned Candidate) {
  if (Decided || Candidate == 0 || Candidate >= Times.size())
    return;
  Dropped[Candidate] = true;
  decideIfComplete();
}

double LocalityTrials::medianSeconds(unsigned Candidate) const {
  if (Candidate >= Times.size())
    return 0;
  return median(Times[Candidate]);
}

void LocalityTrials::decideIfComplete() {
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

std::string
LocalityTrials::summary(const std::vector<std::string> &Names) const {
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
