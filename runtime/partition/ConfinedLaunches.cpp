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
#include "partition/PartitionRules.h"
#include "core/RuntimeState.h"

namespace smc {

uint32_t confinedLaunchGrid(const Prepared &P, cudaStream_t Stream) {
  const QueuePlan &Plan = P.Plan;
  uint32_t FitPerSM = Plan.Workers / Plan.NumSlots;
  bool StartsNow = streamIdle(Stream);
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
  return confinedGrid(FitPerSM, P.ConfinedSms, Held, Dev.NumSMs, StartsNow);
}

void confinedLaunched(DeviceState &Dev, cudaStream_t Stream,
                      const std::vector<unsigned> &Sms) {
  StreamKey Key;
  if (!streamKey(Stream, Key))
    return;
  std::lock_guard<std::mutex> Lock(Dev.ConfinedMutex);
  ConfinedFlight *F =
      streamFlight(Dev.ConfinedFlights, Key, [](const ConfinedFlight &Other) {
        return eventPending(Other.Done);
      });
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
