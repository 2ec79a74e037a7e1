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

namespace {

struct Held {
  uint64_t Threads = 0, Ctas = 0, Registers = 0, Shared = 0;
};

Held held(const CtaFootprint &F, uint64_t Count, const SmResources &Sm) {
  uint64_t Warps = (F.Threads + 31) / 32;
  uint64_t PerWarp = (uint64_t(F.RegistersPerThread) * 32 + 255) / 256 * 256;
  return {Count * F.Threads, Count, Count * Warps * PerWarp,
          Count * (uint64_t(F.SharedBytes) + Sm.SharedPerCtaReserved)};
}

} // namespace

unsigned workersLeavingRoom(const CtaFootprint &Worker, unsigned Target,
                            const CtaFootprint &Reserved,
                            const SmResources &Sm) {
  Held Room = held(Reserved, 1, Sm);
  for (unsigned Workers = Target; Workers > 1; --Workers) {
    Held Used = held(Worker, Workers, Sm);
    if (Used.Threads + Room.Threads <= Sm.Threads &&
        Used.Ctas + Room.Ctas <= Sm.Ctas &&
        Used.Registers + Room.Registers <= Sm.Registers &&
        Used.Shared + Room.Shared <= Sm.SharedBytes)
      return Workers;
  }
  return std::min(Target, 1u);
}

size_t spreadSharedBytes(uint64_t Ctas, unsigned NumSMs, unsigned StaticBytes,
                         size_t DynamicBytes, const SmResources &Sm) {
  if (Ctas > NumSMs)
    return DynamicBytes;
  uint64_t Fixed = uint64_t(StaticBytes) + Sm.SharedPerCtaReserved;
  if (2 * (Fixed + DynamicBytes) > Sm.SharedBytes)
    return DynamicBytes;                            // one to an SM already
  uint64_t Spread = Sm.SharedBytes / 2 + 1 - Fixed; // Fixed <= half here
  if (StaticBytes + Spread > Sm.SharedPerCtaLimit)
    return DynamicBytes;
  return size_t(Spread);
}

} // namespace smc
