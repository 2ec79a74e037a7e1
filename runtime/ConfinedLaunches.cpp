//===- ConfinedLaunches.cpp - Worker grids of launches confined to SMs ----===//
//
// Every SM-centric loop-mode launch confined to a set of SMs (a stream
// partition, a policy's sms=, policy auto's share, an urgent launch's SMs)
// is recorded, per stream, with the SMs it holds and an event after it.  A
// confined launch is sized from them (LivePartition.h, confinedGrid): for
// its own SMs and the SMs no other confined launch in flight holds when its
// stream is idle, so that it does not wait for room on SMs it may not use;
// for every place on the GPU when it is queued behind its stream's work.
// setStreamSMs keeps a running partition's record up to date.
//===----------------------------------------------------------------------===//
#include "LivePartition.h"
#include "RuntimeState.h"

#include <algorithm>

namespace smc {
namespace {

// Streams whose last confined launch a device keeps before it forgets
// those with nothing in flight.
constexpr size_t MaxConfinedFlights = 64;

// The stream's record, created if missing; null if no event can be made
// (ConfinedMutex held).
ConfinedFlight *flightOf(DeviceState &Dev, const StreamKey &Key) {
  for (ConfinedFlight &F : Dev.ConfinedFlights)
    if (F.Stream == Key)
      return &F;
  if (Dev.ConfinedFlights.size() >= MaxConfinedFlights) {
    auto Idle =
        std::remove_if(Dev.ConfinedFlights.begin(), Dev.ConfinedFlights.end(),
                       [](ConfinedFlight &F) {
                         if (eventPending(F.Done))
                           return false;
                         cudaEventDestroy(F.Done);
                         return true;
                       });
    Dev.ConfinedFlights.erase(Idle, Dev.ConfinedFlights.end());
  }
  ConfinedFlight F;
  F.Stream = Key;
  if (cudaEventCreateWithFlags(&F.Done, cudaEventDisableTiming) !=
      cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  Dev.ConfinedFlights.push_back(std::move(F));
  return &Dev.ConfinedFlights.back();
}

} // namespace

uint32_t confinedLaunchGrid(const Prepared &P, cudaStream_t Stream) {
  const QueuePlan &Plan = P.Plan;
  uint32_t FitPerSM = Plan.Workers / Plan.NumSlots;
  cudaError_t Busy = cudaStreamQuery(Stream);
  if (Busy != cudaSuccess)
    cudaGetLastError(); // not ready, or an error the launch will report
  StreamKey Key;
  bool Known = streamKey(Stream, Key);
  DeviceState &Dev = *P.Device;
  std::vector<std::vector<unsigned>> Held;
  {
    std::lock_guard<std::mutex> Lock(Dev.ConfinedMutex);
    for (ConfinedFlight &F : Dev.ConfinedFlights)
      if ((!Known || F.Stream != Key) && eventPending(F.Done))
        Held.push_back(F.Sms);
  }
  return confinedGrid(FitPerSM, P.ConfinedSms, Held, Dev.NumSMs,
                      /*StartsNow=*/Busy == cudaSuccess);
}

void confinedLaunched(DeviceState &Dev, cudaStream_t Stream,
                      const std::vector<unsigned> &Sms) {
  StreamKey Key;
  if (!streamKey(Stream, Key))
    return;
  std::lock_guard<std::mutex> Lock(Dev.ConfinedMutex);
  ConfinedFlight *F = flightOf(Dev, Key);
  if (!F)
    return;
  F->Sms = Sms;
  if (cudaEventRecord(F->Done, Stream) != cudaSuccess)
    cudaGetLastError(); // the launch then counts as ended
}

void confinedSmsChanged(DeviceState &Dev, const StreamKey &Stream,
                        const std::vector<unsigned> &Sms) {
  std::lock_guard<std::mutex> Lock(Dev.ConfinedMutex);
  for (ConfinedFlight &F : Dev.ConfinedFlights)
    if (F.Stream == Stream)
      F.Sms = Sms;
}

} // namespace smc
