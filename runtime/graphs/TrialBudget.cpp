//===- TrialBudget.cpp - What a graph's layout search may spend -----------===//
#include "graphs/TrialBudget.h"

#include <algorithm>
#include <cstdint>

namespace smc::graphs {

void TrialBudget::spent(double Ms) {
  SpentMs += std::max(Ms, 0.0);
  ++Trials;
}

bool TrialBudget::allows(double BaselineMs, unsigned long long Replays) const {
  if (!Trials)
    return true;
  double Next = SpentMs / Trials;
  double Replayed = double(std::max<unsigned long long>(Replays, Horizon));
  return SpentMs + Next <= Share * BaselineMs * Replayed;
}

unsigned TrialBudget::affordable(double BaselineMs) const {
  if (!Trials || SpentMs <= 0)
    return UINT32_MAX;
  double Trials = Share * BaselineMs * Horizon / (SpentMs / this->Trials);
  return Trials >= UINT32_MAX ? UINT32_MAX : unsigned(Trials);
}

} // namespace smc::graphs
