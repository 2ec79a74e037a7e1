//===- WorkerGrid.cpp - Workers of a launch confined to some SMs ----------===//
//
// See WorkerGrid.h.
//===----------------------------------------------------------------------===//
#include "plan/WorkerGrid.h"

#include <algorithm>

namespace smc {

uint32_t confinedWorkers(uint32_t FitPerSM, uint32_t SetSize,
                         uint32_t FreeSMs) {
  return FitPerSM * (SetSize + FreeSMs);
}

uint32_t confinedGrid(uint32_t FitPerSM, const std::vector<unsigned> &Set,
                      const std::vector<std::vector<unsigned>> &Held,
                      unsigned NumSMs, bool StartsNow) {
  if (!StartsNow)
    return FitPerSM * NumSMs;
  std::vector<bool> Taken(NumSMs, false);
  uint32_t Own = 0;
  for (unsigned Sm : Set)
    if (Sm < NumSMs && !Taken[Sm]) {
      Taken[Sm] = true;
      ++Own;
    }
  for (const std::vector<unsigned> &Other : Held)
    for (unsigned Sm : Other)
      if (Sm < NumSMs)
        Taken[Sm] = true;
  uint32_t Free = uint32_t(std::count(Taken.begin(), Taken.end(), false));
  return confinedWorkers(FitPerSM, Own, Free);
}

} // namespace smc
