//===- PriorityYield.cpp - What urgent launches take ----------------------===//
//
// The mode, urgency and SM choice of priority yielding; see PriorityYield.h.
//===----------------------------------------------------------------------===//
#include "priority/PriorityRules.h"

#include <algorithm>
#include <cctype>

namespace smc {

bool parsePriorityMode(const std::string &Text, PriorityMode &Mode,
                       std::string &Error) {
  std::string Word;
  for (char C : Text)
    if (!std::isspace(static_cast<unsigned char>(C)))
      Word += char(std::tolower(static_cast<unsigned char>(C)));
  if (Word == "auto")
    Mode = PriorityMode::Auto;
  else if (Word == "on")
    Mode = PriorityMode::On;
  else if (Word == "off")
    Mode = PriorityMode::Off;
  else {
    Error = "'" + Text + "' is not one of auto, on, off";
    return false;
  }
  return true;
}

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
