//===- ConfinedLaunches.cpp - SMs held by confined launches ---------------===//
//
// The records of confined launches in flight, per device; see
// ConfinedLaunches.h.
//===----------------------------------------------------------------------===//
#include "core/ConfinedLaunches.h"

#include "base/Locks.h"
#include "base/StreamFlights.h"
#include "core/Devices.h"
#include "core/Prepared.h"
#include "plan/WorkerGrid.h"

namespace smc {
namespace {

// The last confined launch of a stream: the SMs it holds.
struct ConfinedFlight : StreamFlight {
  std::vector<unsigned> Sms; // sorted
};

// A device's confined launches in flight, per stream.
struct ConfinedFlights {
  std::vector<ConfinedFlight> Flights; // the Confined lock
};

} // namespace

uint32_t confinedLaunchGrid(const Prepared &P, cudaStream_t Stream) {
  const QueuePlan &Plan = P.Plan;
  uint32_t FitPerSM = Plan.FitPerSM;
  bool StartsNow = streamIdle(Stream);
  StreamKey Key;
  bool Known = streamKey(Stream, Key);
  DeviceState &Dev = *P.Device;
  std::vector<std::vector<unsigned>> Held;
  {
    Guard Lock(levelMutex<LockLevel::Confined>());
    for (ConfinedFlight &F : Dev.Rooms.get<ConfinedFlights>().Flights)
      if ((!Known || F.Stream != Key) && eventPending(F.Done))
        Held.push_back(F.Sms);
  }
  return confinedGrid(FitPerSM, P.ConfinedSms, Held, Dev.NumSMs, StartsNow);
}

void confinedLaunched(DeviceState &Dev, cudaStream_t Stream,
                      const std::vector<unsigned> &Sms) {
  StreamKey Key;
  if (!streamKey(Stream, Key))
    return;
  Guard Lock(levelMutex<LockLevel::Confined>());
  ConfinedFlight *F = streamFlight(
      Dev.Rooms.get<ConfinedFlights>().Flights, Key,
      [](const ConfinedFlight &Other) { return eventPending(Other.Done); });
  if (!F)
    return;
  F->Sms = Sms;
  if (cudaEventRecord(F->Done, Stream) != cudaSuccess)
    cudaGetLastError(); // the launch then counts as ended
}

void confinedSmsChanged(DeviceState &Dev, const StreamKey &Stream,
                        const std::vector<unsigned> &Sms) {
  Guard Lock(levelMutex<LockLevel::Confined>());
  for (ConfinedFlight &F : Dev.Rooms.get<ConfinedFlights>().Flights)
    if (F.Stream == Stream)
      F.Sms = Sms;
}

} // namespace smc
