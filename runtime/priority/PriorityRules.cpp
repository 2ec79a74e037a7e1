//===- PriorityRules.cpp - What urgent launches take ----------------------===//
//
// Urgency and the SM choice of priority yielding; see PriorityRules.h.
//===----------------------------------------------------------------------===//
#include "priority/PriorityRules.h"

#include <algorithm>

namespace smc {

unsigned urgentSmCount(uint64_t Ctas, unsigned PerSM, unsigned NumSMs) {
  if (PerSM == 0 || NumSMs == 0)
    return 0;
  uint64_t Sms = (Ctas + PerSM - 1) / PerSM;
  return unsigned(std::clamp<uint64_t>(Sms, 1, NumSMs));
}

std::vector<unsigned> pickUrgentSms(unsigned Count,
                                    const std::vector<bool> &HeldByOthers) {
  unsigned NumSMs = unsigned(HeldByOthers.size());
  Count = std::min(Count, NumSMs);
  std::vector<unsigned> Picked;
  for (bool TakeHeld : {false, true})
    for (unsigned Sm = NumSMs; Sm-- > 0 && Picked.size() < Count;)
      if (HeldByOthers[Sm] == TakeHeld)
        Picked.push_back(Sm);
  std::sort(Picked.begin(), Picked.end());
  return Picked;
}

} // namespace smc
