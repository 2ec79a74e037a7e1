//===- StreamPartition.cpp - Live SM partitions of streams ----------------===//
//
// smc::setStreamSMs and smc::clearStreamSMs, and what a launch on a
// partitioned stream needs from them.  A partition has a table of live
// targets on the device (LivePartition.h) that every SM-centric launch on
// the stream points its descriptor at: setStreamSMs rewrites the table
// through the device's own non-blocking stream while launches run, and
// their workers follow it at chunk boundaries (runtime/device/SmcWorker.cu).
// A launch on a partitioned stream plans its queues for the partition's SMs
// (the policy's SM set and workers replaced) and is sized for the SMs it
// can reach: its own and those no other partition's launch in flight holds.
//===----------------------------------------------------------------------===//
#include "LivePartition.h"
#include "RuntimeState.h"

#include <algorithm>

namespace smc {
namespace {

// Partitions that exist on any device: while 0, launches skip the lookup.
std::atomic<unsigned> NumPartitions{0};

// The stream a program names: null is the legacy default stream.
cudaStream_t effectiveStream(cudaStream_t Stream) {
  return Stream ? Stream : cudaStreamLegacy;
}

// Writes a partition's live targets (Globals::Mutex held).
bool writeLiveTargets(DeviceState &Dev, StreamPartition &Partition,
                      const std::vector<uint32_t> &Targets,
                      std::string &Error) {
  size_t Bytes = Targets.size() * sizeof(uint32_t);
  if (!Partition.LiveTarget) {
    Partition.LiveTarget = deviceBuffer(Dev, Targets.data(), Bytes, Error);
    return Partition.LiveTarget != nullptr;
  }
  return copyToDevice(Dev, Partition.LiveTarget, Targets.data(), Bytes, Error);
}

// The device state and stream key of an API call's stream (Globals::Mutex
// held).  False with `Error` set when either cannot be had.
bool locate(cudaStream_t Stream, DeviceState *&Dev, StreamKey &Key,
            std::string &Error) {
  int Device = 0;
  cudaError_t Err = cudaGetDevice(&Device);
  if (Err != cudaSuccess) {
    Error = failed("cudaGetDevice", Err);
    return false;
  }
  Dev = deviceState(Device);
  if (!Dev) {
    Error = "device " + std::to_string(Device) + " cannot be used";
    return false;
  }
  if (!streamKey(effectiveStream(Stream), Key)) {
    Error = "the stream cannot be identified";
    return false;
  }
  return true;
}

bool inFlight(const StreamPartition &Partition) {
  if (!Partition.Launched || !Partition.LastLaunch)
    return false;
  cudaError_t Err = cudaEventQuery(Partition.LastLaunch);
  if (Err == cudaErrorNotReady) {
    cudaGetLastError();
    return true;
  }
  if (Err != cudaSuccess)
    cudaGetLastError();
  return false;
}

} // namespace

StreamPartition *streamPartition(int Device, cudaStream_t Stream) {
  if (NumPartitions.load(std::memory_order_acquire) == 0)
    return nullptr;
  StreamKey Key;
  if (!streamKey(Stream, Key))
    return nullptr;
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  if (size_t(Device) >= G.Devices.size() || !G.Devices[Device])
    return nullptr;
  auto &Partitions = G.Devices[Device]->Partitions;
  auto It = Partitions.find(Key);
  return It != Partitions.end() && It->second->Active ? It->second.get()
                                                      : nullptr;
}

uint32_t partitionWorkers(const Prepared &P, const StreamPartition &Partition) {
  const QueuePlan &Plan = P.Plan;
  if (Plan.Mode != SMC_MODE_LOOP || Plan.NumSlots == 0)
    return Plan.Workers;
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  std::vector<bool> Held(Plan.NumSlots, false);
  for (unsigned Sm : Partition.Sms)
    Held[Sm] = true;
  uint32_t Reachable = uint32_t(Partition.Sms.size());
  for (auto &Entry : P.Device->Partitions) {
    const StreamPartition &Other = *Entry.second;
    if (&Other == &Partition || !Other.Active || !inFlight(Other))
      continue;
    for (unsigned Sm : Other.Sms)
      Held[Sm] = true;
  }
  uint32_t Free = uint32_t(std::count(Held.begin(), Held.end(), false));
  return confinedWorkers(Plan.Workers / Plan.NumSlots, Reachable, Free);
}

void partitionLaunched(StreamPartition &Partition, cudaStream_t Stream) {
  if (!Partition.LastLaunch)
    return;
  if (cudaEventRecord(Partition.LastLaunch, Stream) == cudaSuccess)
    Partition.Launched = true;
  else
    cudaGetLastError();
}

//===----------------------------------------------------------------------===//
// Public API (smc.h)
//===----------------------------------------------------------------------===//

bool setStreamSMs(cudaStream_t Stream, const std::vector<unsigned> &Sms,
                  unsigned WorkersPerSM, std::string *Error) {
  std::string Message;
  auto Fail = [&](const std::string &What) {
    if (Error)
      *Error = "smc::setStreamSMs: " + What;
    return false;
  };
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  DeviceState *Dev = nullptr;
  StreamKey Key;
  if (!locate(Stream, Dev, Key, Message))
    return Fail(Message);
  std::vector<uint32_t> Targets;
  if (!liveTargets(Sms, WorkersPerSM, Dev->NumSMs, Targets, Message))
    return Fail(Message);

  std::unique_ptr<StreamPartition> &Slot = Dev->Partitions[Key];
  bool Created = !Slot;
  if (Created)
    Slot = std::make_unique<StreamPartition>();
  StreamPartition &Partition = *Slot;
  if (!writeLiveTargets(*Dev, Partition, Targets, Message)) {
    if (Created)
      Dev->Partitions.erase(Key);
    return Fail(Message);
  }
  if (Created &&
      cudaEventCreateWithFlags(&Partition.LastLaunch, cudaEventDisableTiming) !=
          cudaSuccess) {
    cudaGetLastError();
    Partition.LastLaunch = nullptr; // launches are then sized as unconfined
  }
  std::vector<unsigned> Sorted = Sms;
  std::sort(Sorted.begin(), Sorted.end());
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  Partition.Sms = std::move(Sorted);
  Partition.WorkersPerSM = WorkersPerSM;
  if (!Partition.Active || Created)
    NumPartitions.fetch_add(1, std::memory_order_acq_rel);
  Partition.Active = true;
  policiesChanged();
  return true;
}

void clearStreamSMs(cudaStream_t Stream) {
  Globals &G = globals();
  std::lock_guard<std::mutex> Lock(G.Mutex);
  DeviceState *Dev = nullptr;
  StreamKey Key;
  std::string Message;
  if (!locate(Stream, Dev, Key, Message))
    return;
  auto It = Dev->Partitions.find(Key);
  if (It == Dev->Partitions.end() || !It->second->Active)
    return;
  StreamPartition &Partition = *It->second;
  std::vector<uint32_t> Uncapped(Dev->NumSMs, LiveTargetUncapped);
  if (!writeLiveTargets(*Dev, Partition, Uncapped, Message))
    tell("smc::clearStreamSMs: " + Message +
         "; running launches keep the old SM set");
  Partition.Active = false;
  NumPartitions.fetch_sub(1, std::memory_order_acq_rel);
  policiesChanged();
}

} // namespace smc
